declare namespace functions {
  /**
   * Book a meeting room.
   * Rooms are held for ten minutes.
   */
  type book_room = (_: {
    /**
     * Room code
     * @title Room
     * @pattern ^[A-Z]{2}-[0-9]+$
     * @minLength 4
     * @maxLength 12
     * @example "HQ-12"
     * @example "NY-3"
     */
    room: string;
    /**
     * Start time
     * @format date-time
     */
    when: string;
    /**
     * @integer
     * @minimum 15
     * @maximum 240
     * @multipleOf 15
     * @default 30
     */
    minutes?: number;
    /**
     * @exclusiveMinimum 0
     * @exclusiveMaximum 1e3
     * @default 10.50
     */
    budget?: number;
    /**
     * @default 1.0
     * @example 0.5
     * @example 1E-3
     */
    ratio?: number;
    /**
     * Extras
     * @default {"projector":true,"chairs":4.0}
     */
    options?: {
      /** @default false */
      projector?: boolean;
    };
    /**
     * Use room instead
     * @deprecated
     */
    legacy_id?: string;
    /** @readOnly */
    id?: string;
    /** @writeOnly */
    secret?: string;
    /**
     * @maxLength 200
     * @default null
     */
    note?: string | null;
  }) => any;
}
