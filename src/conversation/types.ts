/** Conversations as servers build them: the shapes messages come in, and what a server profile takes and returns. */
import type { Diagnostic } from '../diagnostics.js';
import type { ToolDefinition } from '../input/types.js';
import type { JsonValue } from '../ir/json.js';
import type { IrTool } from '../ir/nodes.js';
import type { HarmonyMessage } from '../messages/envelope.js';

/** The servers whose request → prompt mapping can be copied. */
export type ServerName = 'vllm' | 'transformers' | 'llama.cpp' | 'mlx-lm' | 'ollama';
/** Every server name, for validation. */
export const SERVERS: readonly ServerName[] = ['vllm', 'transformers', 'llama.cpp', 'mlx-lm', 'ollama'];

/** The shape a conversation is written in. */
export type MessageFormat = 'chat' | 'responses' | 'anthropic' | 'harmony';
/** Every message format, for validation. */
export const MESSAGE_FORMATS: readonly MessageFormat[] = ['chat', 'responses', 'anthropic', 'harmony'];

/** A conversation as the caller wrote it: its items as given (lossless), in one shape. */
export interface ConversationInput {
  readonly format: MessageFormat;
  /** Chat / Anthropic / Harmony-native messages, or Responses input items, as given. */
  readonly items: readonly JsonValue[];
  /** The JSON Pointer of each item in the caller's document (`/messages/3`, `/input/0`). */
  readonly pointers: readonly string[];
  /** Request-level instructions (Responses `instructions`, Anthropic `system`: a string or text blocks), as given. */
  readonly instructions?: JsonValue;
  /** Where `instructions` stands in the caller's document. */
  readonly instructionsPointer?: string;
}

/** Tools read and lowered: each definition beside its IR (what `compileTools` returns). */
export interface CompiledToolSet {
  readonly definitions: readonly ToolDefinition[];
  readonly tools: readonly IrTool[];
  /**
   * Where a profile may keep what it prints of these tools alone (its catalog): `make` runs once
   * per key and the same result comes back after. The API layer passes its print cache here, so
   * a server rendering the same tools on every request prints them once; without it, `make` runs.
   * A key names the printer and everything else its result depends on.
   */
  readonly keep?: <T extends object>(key: string, make: () => T) => T;
}

/** What a profile prints of the tools alone, kept on them when they have room (CompiledToolSet.keep). */
export function keptPrint<T extends object>(tools: CompiledToolSet, key: string, make: () => T): T {
  return tools.keep !== undefined ? tools.keep(key, make) : make();
}

/** Everything a server profile reads to build a prompt. */
export interface ServerRequest {
  readonly conversation: ConversationInput;
  /** The function tools, compiled. */
  readonly tools: CompiledToolSet;
  /** Whether the request had a `tools` key, and whether it was empty (vLLM refuses `tools: []`). */
  readonly toolsGiven: 'absent' | 'empty' | 'some';
  /** `reasoning_effort` (or Responses `reasoning.effort`) as given: each server validates it its own way. */
  readonly effort?: JsonValue;
  /** `Current date:` (YYYY-MM-DD). */
  readonly date?: string;
  /** `tool_choice` as given. */
  readonly toolChoice?: JsonValue;
  /** Builtin tools of the system message. */
  readonly builtinTools?: readonly ('browser' | 'python')[];
  /** Model identity line, when not the default. */
  readonly identity?: string;
  /** Knowledge cutoff, when not the default (`2024-06`). */
  readonly cutoff?: string;
}

/** A whole prompt as a server builds it. */
export interface ServerPrompt {
  /** The whole prompt, ending with the generation prompt (`<|start|>assistant`). */
  readonly text: string;
  /** The system message content. */
  readonly system: string;
  /** The developer message content, when there is one. */
  readonly developer?: string;
  /** The tools section, when there are tools. */
  readonly catalog?: string;
  /** Harmony servers: the conversation's messages after the system and developer messages, as rendered. */
  readonly messages?: readonly HarmonyMessage[];
  /** What the server dropped or rewrote (warnings with the message's JSON Pointer), and the catalog's findings. */
  readonly diagnostics: readonly Diagnostic[];
}
