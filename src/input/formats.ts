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
  | 'gemini-tool' // Gemini Tool {functionDeclarations:[…]} or {function_declarations:[…]}
  | 'openai-functions' // legacy OpenAI {functions:[{name, description?, parameters?}]}
  | 'ai-sdk-record'; // Vercel AI SDK tool record {[name]: {description?, inputSchema | parameters}}

/** One line naming every accepted shape, for "unknown shape" messages. */
export const ACCEPTED_SHAPES =
  'an OpenAI Chat Completions tool {type:"function", function:{name, description?, parameters?}}, ' +
  'an OpenAI Responses tool {type:"function", name, description?, parameters?}, ' +
  'an Anthropic tool {name, description?, input_schema}, ' +
  'an MCP tool {name, description?, inputSchema} or tools/list result {tools:[…]}, ' +
  'a Gemini tool {functionDeclarations:[{name, description?, parameters?}]} (or function_declarations), ' +
  'legacy OpenAI functions {functions:[{name, description?, parameters?}]}, ' +
  'a Vercel AI SDK tool record {[name]: {description?, inputSchema}}, ' +
  'or {name, description?, parameters?}; or an array of these';

/** Human names of the formats, for messages. */
export const FORMAT_NAMES: Readonly<Record<ToolFormat, string>> = {
  'openai-chat': 'OpenAI Chat Completions',
  'openai-responses': 'OpenAI Responses',
  anthropic: 'Anthropic',
  mcp: 'MCP',
  gemini: 'Gemini',
  'openai-functions': 'OpenAI functions (legacy)',
  'ai-sdk': 'Vercel AI SDK',
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
 * `type:"custom"`, or a non-function tool (unknown); `functionDeclarations` (or
 * `function_declarations`) → Gemini Tool; `jsonrpc` (or `id` + `result`) → JSON-RPC response; a
 * `tools` array without `name` → MCP tools/list result; a `functions` array without `name` → legacy
 * OpenAI functions; `input_schema` → Anthropic; `inputSchema` → MCP; `function` → OpenAI Chat
 * Completions without its `type`; `name`, `parameters` or `description` → bare; an object of
 * tools with input schemas, keyed by name → Vercel AI SDK tool record.
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
  if (v.has('functionDeclarations') || v.has('function_declarations')) return { kind: 'container', container: 'gemini-tool' };
  if (v.has('jsonrpc') || (v.has('id') && (v.has('result') || v.has('error')))) return { kind: 'container', container: 'jsonrpc' };
  if (isJsonArray(v.get('tools')) && !v.has('name')) return { kind: 'container', container: 'mcp-list' };
  if (isJsonArray(v.get('functions')) && !v.has('name')) return { kind: 'container', container: 'openai-functions' };
  if (v.has('input_schema')) return { kind: 'tool', format: 'anthropic' };
  if (v.has('inputSchema')) return { kind: 'tool', format: 'mcp' };
  if (v.has('function')) return { kind: 'tool', format: 'openai-chat' };
  if (v.has('name') || v.has('parameters') || v.has('description')) return { kind: 'tool', format: 'bare' };
  if (isAiSdkRecord(v)) return { kind: 'container', container: 'ai-sdk-record' };
  return { kind: 'unknown', reason: describeValue(v) };
}

/** The keys a Vercel AI SDK tool keeps its parameters schema under (`parameters` before AI SDK 5). */
export const AI_SDK_SCHEMA_KEYS = ['inputSchema', 'parameters'] as const;

/** True when a record entry is an AI SDK function tool (it has an input schema). */
export function isAiSdkTool(v: JsonValue | undefined): v is JsonObject {
  return isJsonObject(v) && AI_SDK_SCHEMA_KEYS.some((k) => v.has(k));
}

/**
 * A Vercel AI SDK tool record `{[name]: tool({description, inputSchema, execute})}`: an object whose
 * values are all objects, each an AI SDK tool (an input schema) or a provider tool (`type`), at least
 * one a function tool.
 */
function isAiSdkRecord(v: JsonObject): boolean {
  if (v.size === 0) return false;
  let tools = 0;
  for (const x of v.values()) {
    if (isAiSdkTool(x)) tools++;
    else if (!isJsonObject(x) || typeof x.get('type') !== 'string') return false;
  }
  return tools > 0;
}

/** The keys of a Gemini declaration that hold JSON Schema as is (camelCase, or the REST API's snake_case). */
export const GEMINI_JSON_SCHEMA_KEYS = ['parametersJsonSchema', 'parameters_json_schema'] as const;

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
    case 'openai-functions':
    case 'bare':
      return { body: wrapper, bodyPath: '', parametersKey: 'parameters' };
    case 'ai-sdk':
      return { body: wrapper, bodyPath: '', parametersKey: AI_SDK_SCHEMA_KEYS.find((k) => wrapper.has(k)) ?? 'inputSchema' };
    case 'anthropic':
      return { body: wrapper, bodyPath: '', parametersKey: 'input_schema' };
    case 'mcp':
      return { body: wrapper, bodyPath: '', parametersKey: 'inputSchema' };
    case 'gemini':
      // parametersJsonSchema is JSON Schema as is; `parameters` is Gemini's OpenAPI subset (REST takes snake_case names too)
      return { body: wrapper, bodyPath: '', parametersKey: GEMINI_JSON_SCHEMA_KEYS.find((k) => wrapper.has(k)) ?? 'parameters' };
  }
}
