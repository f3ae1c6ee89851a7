/**
 * The hand-written printers kept beside the template engine: each prints one family's first turn
 * as its official template does, and is kept only because the bench measures it faster than the
 * engine running that template, while test/families/fast-path.test.ts holds it byte-equal to the
 * engine on every oracle case. Everything else about a family (its template, its lint rules, its
 * catalog span, its conversations) is the engine's and src/models/'s.
 */
import type { ToolDefinition } from '../../input/types.js';

/** A chat message as the templates read it (text content). */
export interface FamilyMessage {
  readonly role: string;
  readonly content: string;
}

/** How to render a whole prompt, as transformers' `apply_chat_template(..., tokenize=False)` does. */
export interface FamilyPromptOptions {
  /** Instructions: a first `system` message with this text when it is a non-empty string. */
  readonly instructions?: string;
  /** The conversation after the system message. Default: one user message `hi` (the oracles' case). */
  readonly messages?: readonly FamilyMessage[];
  /** Today's date for templates that print one (`strftime_now`), `YYYY-MM-DD`. Default: today. */
  readonly date?: string;
  /** `add_generation_prompt`. Default true. */
  readonly addGenerationPrompt?: boolean;
}

/** One family's first-turn printer. */
export interface FamilyPrinter {
  /** The `--model` name of the family whose official template it prints, e.g. `command-r-plus`. */
  readonly name: string;
  /**
   * The whole prompt, as the family's official template renders it. Throws (a CompileError) where
   * the template raises; the caller then runs the engine, whose error is the one said. A lone
   * surrogate is left in the text: the caller checks it.
   */
  prompt(tools: readonly ToolDefinition[], options?: FamilyPromptOptions): string;
}
