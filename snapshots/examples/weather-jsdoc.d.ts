declare namespace functions {
  /** Gets the current weather in the provided location. */
  type get_current_weather = (_: {
    /** The city and state, e.g. San Francisco, CA */
    location: string;
    /** @default "celsius" */
    format?: "celsius" | "fahrenheit";
    /**
     * Forecast days
     * @integer
     * @minimum 1
     * @maximum 10
     * @default 1
     */
    days?: number;
  }) => any;

  /** Gets the location of the user. */
  type get_location = () => any;
}
