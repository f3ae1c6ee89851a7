declare namespace my_tools {
  /** The namespace option, sanitized. */
  type ping = (_: {
    /** @format hostname */
    host: string;
  }) => any;
}
