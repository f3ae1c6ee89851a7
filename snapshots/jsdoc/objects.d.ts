declare namespace functions {
  /** Objects: open, closed, maps, pattern keys. */
  type configure = (_: {
    /** @maxProperties 20 */
    labels: {
      [key: string]: string;
    };
    /** Anything */
    free?: { [key: string]: any };
    closed_empty?: {};
    open_any?: {
      a?: string;
      [key: string]: any;
    };
    /** @minProperties 1 */
    with_extra?: {
      a?: string;
    } & {
      /**
       * Counts
       * @integer
       */
      [key: string]: number;
    };
    headers?: {
      /** Keys matching /^x-/ */
      [key: string]: string;
    };
    many_patterns?: {
      [key: string]:
        | /** Keys matching /^s_/ */ string
        | /** Keys matching /^n_/ */ number
        | /** Other keys */ boolean;
    };
    /** Outer */
    nested?: {
      /** Inner */
      inner?: {
        /** Leaf */
        leaf: boolean;
      };
    };
    ghost_required?: {
      a: string;
      "b-c": any;
    };
  }) => any;
}
