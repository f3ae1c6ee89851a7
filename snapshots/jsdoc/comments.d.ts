declare namespace functions {
  /**
   * Ends *\/ early?
   * Second line /* nested *\/
   *
   *   indented line
   */
  type close_comments = (
    /** The *\/ parameters */
    _: {
      /**
       * @title Glob *\/ title
       * @pattern ^src/**\/*.ts$
       * @default "**\/*"
       * @example "a*\/b"
       */
      glob?: string;
      /** one line */
      path?: "*/" | "/*";
      /**
       * first
       * second
       * third
       */
      multi?: string;
    },
  ) => any;
}
