declare namespace functions {
  /** $ref targets as aliases. */
  type tree = (_: {
    root?: tree_Node;
    /** Same alias, declared once */
    also?: tree_Node | null;
    list?: tree_my_list;
    expr?: tree_Expr;
    loop?: unknown /* circular $ref "#/$defs/A" */;
    geo?: unknown /* unresolved $ref "https://example.com/geo.json" */;
    missing?: unknown /* unresolved $ref "#/$defs/Nope" */;
    name?: tree_label;
    /** A label */
    label?: string;
    other_name?: tree_name;
    mutual?: tree_Even;
  }) => any;
  /** A tree node */
  type tree_Node = {
    value: number;
    children?: tree_Node[];
  };
  type tree_my_list = tree_my_list[];
  type tree_Expr =
    | number
    | unknown /* circular $ref "#/$defs/Expr" */
    | {
        op?: string;
        args?: tree_Expr[];
      };
  /** A label */
  type tree_label = string;
  /** @integer */
  type tree_name = number;
  type tree_Even = null | tree_Odd;
  type tree_Odd = number | unknown /* circular $ref "#/$defs/Even" */ | tree_Odd[];

  /** Refers to its own root. */
  type self = (_: {
    child?: self_Root;
    n?: number;
  }) => any;
  type self_Root = {
    child?: self_Root;
    n?: number;
  };
}
