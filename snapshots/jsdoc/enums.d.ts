declare namespace functions {
  /** Enums and consts of every kind. */
  type set_mode = (_: {
    mode: "fast" | "safe" | "say \"hi\"\n" | "back\\slash";
    level?: 1 | 2 | -3 | 10.0;
    scale?: 0.5 | 1E3 | -0;
    flag?: true | false;
    mixed?: "a" | 1 | true | null | { k: "v"; n: [1, 2] } | [] | { [key: string]: never };
    typed_mismatch?: "a";
    all_mismatch?: 1 | 2;
    empty?: never;
    nullable?: "x" | "y" | null;
    null_in_list?: "x" | null;
    const_string?: "fixed";
    const_number?: 1.50;
    const_null?: null;
    const_object?: { a: 1 };
    const_typed?: "only";
    const_enum?: "a";
  }) => any;
}
