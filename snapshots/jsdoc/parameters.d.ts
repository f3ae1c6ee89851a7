declare namespace functions {
  /** No parameters key. */
  type no_params = () => any;

  /** parameters: null */
  type null_params = () => any;

  /** An object with no properties: no arguments. */
  type empty_object = (_: {}) => any;

  type closed_empty = (_: {}) => any;

  /** The root is a string. */
  type string_root = (
    /**
     * Raw input
     * @minLength 1
     */
    _: string,
  ) => any;

  type documented_root = (
    /**
     * All arguments
     * of the call
     * @title Args
     */
    _: {
      q: string;
    },
  ) => any;

  type map_root = (_: {
    [key: string]: string;
  }) => any;

  type union_root = (_:
    | {
        a?: string;
      }
    | {
        b?: string;
      }) => any;
}
