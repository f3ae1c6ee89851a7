declare namespace functions {
  /** Unions: anyOf, oneOf, type lists, nullable. */
  type find = (_: {
    id?: string | /** @integer */ number;
    when?: string | number | null;
    maybe?: string | null;
    nested?: string | number | boolean;
    /** A target */
    described?:
      | /** A name */ string
      /**
       * An index
       * from zero
       * @integer
       * @minimum 0
       */
      | number
      | null;
    list?: (string | number)[];
    objects?:
      | {
          a: string;
        }
      | {
          b: number;
        }
      | null;
    with_default?: /** @default "x" */ string | boolean;
    empty_any_of?: never;
  }) => any;
}
