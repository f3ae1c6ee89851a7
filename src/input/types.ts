/** What the input stage hands to the lowering: tools in one shape, whatever shape they came in. */
import type { Diagnostic } from '../diagnostics.js';
import type { JsonObject, JsonValue } from '../ir/json.js';

/** The input shapes harmony-catalog reads. */
export type ToolFormat =
  | 'openai-chat' // {type:"function", function:{name, description, parameters, strict}}
  | 'openai-responses' // {type:"function", name, description, parameters}
  | 'anthropic' // {name, description, input_schema}
  | 'mcp' // {name, title?, description?, inputSchema, ...} (or a tools/list result)
  | 'gemini' // {functionDeclarations:[{name, description, parameters | parametersJsonSchema}]} (or snake_case function_declarations)
  | 'openai-functions' // legacy {functions:[{name, description, parameters}]}
  | 'ai-sdk' // Vercel AI SDK tool record {[name]: {description, inputSchema | parameters}}
  | 'bare'; // {name, description?, parameters?}

/** One tool, read and normalised. Values are lossless JSON (number text, key order). */
export interface ToolDefinition {
  readonly name: string;
  /** The description as written (a string normally; anything else is kept for the printers that read it). */
  readonly description?: JsonValue;
  /** The parameters schema as written; absent when the tool has none. JSON null is kept as null. */
  readonly parameters?: JsonValue;
  /** MCP `title`, or another display title. */
  readonly title?: string;
  /** OpenAI `strict`. */
  readonly strict?: boolean;
  /**
   * The tool's other keys, as written and in order, where a template reads the tool object whole
   * (OpenAI and bare tools: `strict` and unknown keys of the function object); absent when none.
   */
  readonly extra?: JsonObject;
  /** The shape it was read from. */
  readonly format: ToolFormat;
  /** JSON Pointer of the tool in the input document. */
  readonly pointer: string;
  /** JSON Pointer of its parameters schema in the input document (where it is or would be). */
  readonly parametersPointer: string;
}

/** The result of reading tool input. */
export interface ReadResult {
  readonly tools: readonly ToolDefinition[];
  /** Warnings and infos (errors are thrown as a CompileError). */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * The JSON Pointer of one of a tool's own fields (`name`, `description`) in the input document:
 * beside its parameters (`/0/function/name` for OpenAI Chat, `/tools/0/name` for MCP…).
 */
export function toolFieldPointer(def: Pick<ToolDefinition, 'parametersPointer'>, field: string): string {
  const p = def.parametersPointer;
  return `${p.slice(0, p.lastIndexOf('/'))}/${field}`;
}
