/** Option types shared by the message renderers. */

/** Reasoning effort of the system message. */
export type ReasoningEffort = 'low' | 'medium' | 'high';

/** A response format of the developer message (beyond the reference: only OpenAI's prose docs show it). */
export interface ResponseFormat {
  readonly name: string;
  readonly description?: string;
  /** The JSON Schema, printed as compact JSON. */
  readonly schema: unknown;
}
