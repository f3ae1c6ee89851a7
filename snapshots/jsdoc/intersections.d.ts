declare namespace functions {
  /** allOf, and keywords combined in one schema. */
  type merge = (_: {
    both?: {
      a?: string;
    } & {
      b: number;
    };
    with_union?: {
      a?: string;
    } & (
      | {
          b?: number;
        }
      | null
    );
    single?: /** Inner */ string;
    none?: any;
    typed_one_of?:
      | {
          x: number;
        }
      | {
          y: number;
        };
    string_const?: "v1";
    in_union?:
      | ({
          a?: string;
        } & {
          b?: string;
        })
      | string;
    number_and_enum?: 1 | 2 | 3;
  }) => any;

  /** Properties plus anyOf of required-only branches. */
  type either_key = (_: {
    id?: string;
    name?: string;
  } & (
    | {
        id: any;
      }
    | {
        name: any;
      }
  )) => any;
}
