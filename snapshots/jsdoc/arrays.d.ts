declare namespace functions {
  /** Arrays and tuples. */
  type batch = (_: {
    /**
     * @minItems 1
     * @maxItems 10
     * @uniqueItems
     */
    tags?: string[];
    anything?: any[];
    matrix?: number[][];
    mixed?: (string | null)[];
    described_items?: Array</** One tag */ string>;
    long_doc_items?: Array<
      /**
       * A count
       * @integer
       * @minimum 0
       */
      number
    >;
    rows?: {
      k: string;
      v?: number;
    }[];
    pair?: [string, number];
    head_and_rest?: [string, ...number[]];
    open_tuple?: [boolean, ...any[]];
    /** @minItems 1 */
    draft7?: [string, (string | number)?];
    point?: [
      /** x */ number,
      /** y */ number,
    ];
    union_rest?: [...(string | number)[]];
  }) => any;
}
