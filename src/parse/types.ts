/** What the Harmony parser returns: messages as openai-harmony writes them, and where it stopped. */
import type { Diagnostic } from '../diagnostics.js';

/** A parsed message in openai-harmony's JSON form (`content` flattened to its text). */
export interface ParsedHarmonyMessage {
  /** `assistant`, `user`, `system`, `developer`, or `tool` (a tool author such as `functions.get_weather` is `role: tool`, `name: functions.get_weather`). */
  readonly role: string;
  readonly name?: string;
  /** `to=` recipient (`functions.get_weather`, `assistant`). */
  readonly recipient?: string;
  /** `analysis`, `commentary`, `final`, or whatever the model wrote. */
  readonly channel?: string;
  /** The content type as the header spells it: `json`, `<|constrain|>json`. */
  readonly content_type?: string;
  readonly content: string;
}

/** The control tokens that end a message. */
export type HarmonyStopToken = '<|end|>' | '<|call|>' | '<|return|>';

/** How strictly to parse: `strict` and `lenient` are openai-harmony's `strict=True` / `strict=False`; `tolerant` never throws. */
export type HarmonyParseMode = 'strict' | 'lenient' | 'tolerant';

/** Where and why the parser stopped (openai-harmony's `HarmonyError`). */
export interface HarmonyParseError {
  /** The reference parser's message, e.g. `Unexpected EOS while waiting for message header to complete`. */
  readonly message: string;
  /** `token` when a token was refused, `eos` when the end of the input was. */
  readonly stage: 'token' | 'eos';
  /** Index of the refused token (token input), when `stage` is `token`. */
  readonly tokenIndex?: number;
  /** Byte offset into the completion's UTF-8 text where the refused token starts (or its length, at `eos`). */
  readonly offset: number;
}

/** The message that was open when the input ended, before end-of-stream processing. */
export interface HarmonyOpenMessage {
  /** `header` when the input ended before `<|message|>`, `content` when inside the content. */
  readonly state: 'header' | 'content';
  readonly role?: string;
  readonly name?: string;
  readonly recipient?: string;
  readonly channel?: string;
  readonly content_type?: string;
  /** The content so far (complete UTF-8 characters only). */
  readonly content: string;
  /** The decoded text of the open message's tokens from its `<|start|>` (or from the start of the completion for the first message), control tokens spelled out. */
  readonly raw: string;
}

/** The whole parse of a completion. */
export interface HarmonyParseResult {
  /** Completed messages, including one completed at the end of the input inside its content (as openai-harmony's `process_eos`). */
  readonly messages: readonly ParsedHarmonyMessage[];
  /** The stop token that ended each message of `messages` (`undefined` for one ended by the end of the input). */
  readonly stops: readonly (HarmonyStopToken | undefined)[];
  /** How many messages were completed by a stop token (openai-harmony's messages before `process_eos`). */
  readonly completedBeforeEnd: number;
  /** True when the input ended inside a message (no stop token after its last message). */
  readonly partial: boolean;
  /** The message open when the input ended, if any. */
  readonly open?: HarmonyOpenMessage;
  /** Set when the parser refused the input (strict and lenient modes); parsing stopped there. */
  readonly error?: HarmonyParseError;
  /** What was noticed (tolerant mode turns errors into diagnostics; paths are `/completion` byte offsets as `#offset`). */
  readonly diagnostics: readonly Diagnostic[];
  /** The last token id of the input (token input), or the last control token spelled in text input. */
  readonly lastToken?: number;
}
