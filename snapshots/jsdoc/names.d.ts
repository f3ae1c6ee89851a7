declare namespace functions {
  /**
   * Not an identifier: sanitized, with @name.
   * @name get-weather
   */
  type get_weather = (_: {
    city?: string;
  }) => any;

  /**
   * A reserved word.
   * @name delete
   */
  type delete_ = () => any;

  /**
   * A type TypeScript reserves.
   * @name string
   */
  type string_ = () => any;

  /** Allowed as it is. */
  type type = () => any;

  /**
   * Starts with a digit.
   * @name 1password
   */
  type _1password = () => any;

  /** First of two. */
  type search = () => any;

  /**
   * Second of two: search_2.
   * @name search
   */
  type search_2 = () => any;

  /**
   * Taken by the repeat: search_2_2.
   * @name search_2
   */
  type search_2_2 = () => any;

  /** Unicode identifier. */
  type 日本語 = () => any;

  /**
   * Empty name.
   * @name ""
   */
  type _ = () => any;

  /** Its alias a_Node is taken by the tool below. */
  type a = (_: {
    n?: a_Node_2;
  }) => any;
  type a_Node_2 = string;

  /** Claims its name first. */
  type a_Node = () => any;

  /** Shadows nothing: the catalog never names a global type. */
  type Record = (_: {
    [key: string]: number;
  }) => any;
}
