declare namespace functions {
  /** Schemas that say little, or nothing valid. */
  type loose = (_: {
    empty?: any;
    /**
     * Only a description
     * @default [1,"two"]
     */
    annotated?: any;
    yes?: any;
    no?: never;
    not_string?: any;
    upper?: any /* type "STRING" */;
    odd_list?: string | any /* type "date" */;
    invalid?: any;
    nullable_any?: any | null;
  }) => any;
}
