/**
 * The input shapes: how a tool wrapper or a container of tools is recognised, and where each
 * shape keeps a tool's name, description and parameters. Recognition looks at keys only;
 * whether the keys hold the right kinds of values is validate.ts's job.
 */
import { isJsonArray, isJsonObject, jsonTypeOf, type JsonObject, type JsonValue } from '../ir/json.js';
import type { ToolFormat } from './types.js';

/** What one value in a tool position is: a tool, a container of tools, or neither. */
export type Shape =
  | { readonly kind: 'tool'; readonly format: ToolFormat }
  | { readonly kind: 'container'; readonly container: ContainerKind }
  | { readonly kind: 'unknown'; readonly reason: string };

/** Containers of tools. */
export type ContainerKind =
  | 'mcp-list' // MCP tools/list result {tools:[…], nextCursor?}
  | 'jsonrpc' // JSON-RPC response {jsonrpc, id, result:{tools:[…]}}
  | 'gemini-tool'; // Gemini Tool {functionDeclarations:[…]}

/** One line naming every accepted shape, for "unknown shape" messages. */
export const ACCEPTED_SHAPES =
  'an OpenAI Chat Completions tool {type:"function", function:{name, description?, parameters?}}, ' +
  'an OpenAI Responses tool {type:"function", name, description?, parameters?}, ' +
  'an Anthropic tool {name, description?, input_schema}, ' +
  'an MCP tool {name, description?, inputSchema} or tools/list result {tools:[…]}, ' +
  'a Gemini tool {functionDeclarations:[{name, description?, parameters?}]}, ' +
  'or {name, description?, parameters?}; or an array of these';

/** Human names of the formats, for messages. */
export const FORMAT_NAMES: Readonly<Record<ToolFormat, string>> = {
  'openai-chat': 'OpenAI Chat Completions',
  'openai-responses': 'OpenAI Responses',
  anthropic: 'Anthropic',
  mcp: 'MCP',
  gemini: 'Gemini',
  bare: 'bare',
};

/** A short description of a value that is not a tool, for messages. */
export function describeValue(v: JsonValue): string {
  if (isJsonObject(v)) {
    const keys = [...v.keys()];
    if (keys.length === 0) return 'an empty object';
    const shown = keys.slice(0, 6).map((k) => JSON.stringify(k)).join(', ');
    return `an object with keys ${shown}${keys.length > 6 ? ', …' : ''}`;
  }
  if (isJsonArray(v)) return 'an array';
  const t = jsonTypeOf(v);
  return t === 'null' ? 'null' : `a ${t}`;
}

/** JSON Schema type names, to tell a bare schema from a tool of another type. */
const SCHEMA_TYPES = new Set(['object', 'string', 'number', 'integer', 'boolean', 'array', 'null']);

/**
 * Recognise the shape of a value in a tool position (first match wins):
 * `type` present → OpenAI (`function` key: Chat Completions, else Responses), Anthropic
 * `type:"custom"`, or a non-function tool (unknown); `functionDeclarations` → Gemini Tool;
 * `jsonrpc` (or `id` + `result`) → JSON-RPC response; a `tools` array without `name` → MCP
 * tools/list result; `input_schema` → Anthropic; `inputSchema` → MCP; `function` → OpenAI
 * Chat Completions without its `type`; `name`, `parameters` or `description` → bare.
 */
export function classifyShape(v: JsonValue): Shape {
  if (!isJsonObject(v)) return { kind: 'unknown', reason: describeValue(v) };
  if (v.has('type')) {
    const type = v.get('type');
    if (type === 'function') return { kind: 'tool', format: v.has('function') ? 'openai-chat' : 'openai-responses' };
    if (type === 'custom' && v.has('input_schema')) return { kind: 'tool', format: 'anthropic' };
    if (typeof type === 'string' && SCHEMA_TYPES.has(type)) {
      return { kind: 'unknown', reason: `a JSON Schema of type ${JSON.stringify(type)}, not a tool (give it a name: {name, description?, parameters: <the schema>})` };
    }
    const what = typeof type === 'string' ? `a tool of type ${JSON.stringify(type)}` : `an object whose type is ${describeValue(type as JsonValue)}`;
    return { kind: 'unknown', reason: `${what}, not a function tool` };
  }
  if (v.has('functionDeclarations')) return { kind: 'container', container: 'gemini-tool' };
  if (v.has('jsonrpc') || (v.has('id') && (v.has('result') || v.has('error')))) return { kind: 'container', container: 'jsonrpc' };
  if (isJsonArray(v.get('tools')) && !v.has('name')) return { kind: 'container', container: 'mcp-list' };
  if (v.has('input_schema')) return { kind: 'tool', format: 'anthropic' };
  if (v.has('inputSchema')) return { kind: 'tool', format: 'mcp' };
  if (v.has('function')) return { kind: 'tool', format: 'openai-chat' };
  if (v.has('name') || v.has('parameters') || v.has('description')) return { kind: 'tool', format: 'bare' };
  return { kind: 'unknown', reason: describeValue(v) };
}

/** Where a tool of one format keeps its parts. */
export interface ToolLayout {
  /** The object holding name and description (the wrapper, or OpenAI Chat's `function`). */
  readonly body: JsonObject | undefined;
  /** JSON Pointer segment(s) from the wrapper to the body (`""` or `/function`). */
  readonly bodyPath: string;
  /** The key of the parameters schema in the body. */
  readonly parametersKey: string;
}

/** The layout of a tool wrapper of a known format. */
export function toolLayout(format: ToolFormat, wrapper: JsonObject): ToolLayout {
  switch (format) {
    case 'openai-chat': {
      const fn = wrapper.get('function');
      return { body: isJsonObject(fn) ? fn : undefined, bodyPath: '/function', parametersKey: 'parameters' };
    }
    case 'openai-responses':
    case 'bare':
      return { body: wrapper, bodyPath: '', parametersKey: 'parameters' };
    case 'anthropic':
      return { body: wrapper, bodyPath: '', parametersKey: 'input_schema' };
    case 'mcp':
      return { body: wrapper, bodyPath: '', parametersKey: 'inputSchema' };
    case 'gemini':
      // parametersJsonSchema is JSON Schema as is; `parameters` is Gemini's OpenAPI subset
      return { body: wrapper, bodyPath: '', parametersKey: wrapper.has('parametersJsonSchema') ? 'parametersJsonSchema' : 'parameters' };
  }
}
