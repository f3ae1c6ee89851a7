/** The model families behind `--model`: each one official chat template, emulated, with the same small interface. */
import type { Diagnostic } from '../../diagnostics.js';
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

/** Printed text and what was noticed. */
export interface FamilyText {
  readonly text: string;
  readonly diagnostics: readonly Diagnostic[];
}

/** One model family: its names, where its template comes from, its tools block and its whole prompt. */
export interface FamilyPrinter {
  /** The `--model` name, e.g. `llama-3.1`. */
  readonly name: string;
  /** Other names for it, e.g. `llama-3.3`. */
  readonly aliases: readonly string[];
  /** The models it covers, in words. */
  readonly models: string;
  /** The template folder of ../shared/oracles/families it is checked against. */
  readonly template: string;
  /** Where the template comes from (repository, file, commit), in words. */
  readonly source: string;
  /** The tools block alone, as it stands inside the prompt (empty text when there are no tools). */
  catalog(tools: readonly ToolDefinition[]): FamilyText;
  /**
   * The whole prompt. Where the template raises, throws a CompileError whose diagnostic has code
   * `family/template-fails`, the tool and JSON Pointer it is about, and a message that ends with
   * the template's own error, `(Jinja2: TypeError: …)`.
   */
  prompt(tools: readonly ToolDefinition[], options?: FamilyPromptOptions): FamilyText;
}
