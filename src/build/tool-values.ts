/**
 * Tools as standalone JSON values: the input document of a tool set, and each tool's own value
 * cut out of it (so one tool can be rendered alone, or tools of several sources joined into one list).
 */
import { fromJs, isJsonArray, isJsonObject, parseJson, type JsonValue } from '../ir/json.js';
import type { ReadResult, ToolDefinition } from '../input/types.js';
import { prepareJsValue } from '../input/zod.js';

/** The input as one lossless JSON document: JSON text is parsed, JS values converted; undefined for what `readTools` already returned. */
export function toolDocument(input: unknown): JsonValue | undefined {
  if (typeof input === 'string') return parseJson(input);
  if (input instanceof Uint8Array) return parseJson(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(input));
  if (isReadResult(input)) return undefined;
  // zod / Standard Schema values converted, tool functions (`execute`…) dropped, as readTools does
  return fromJs(prepareJsValue(input, []));
}

/** True for what `readTools` returns (tools and diagnostics, nothing else). */
export function isReadResult(v: unknown): v is ReadResult {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Map) return false;
  const keys = Object.keys(v);
  return keys.length === 2 && keys.includes('tools') && keys.includes('diagnostics') && Array.isArray((v as ReadResult).tools);
}

/** The value at a JSON Pointer (RFC 6901), or undefined. */
export function valueAt(doc: JsonValue, pointer: string): JsonValue | undefined {
  if (pointer === '') return doc;
  let v: JsonValue | undefined = doc;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (isJsonArray(v)) v = /^(0|[1-9]\d*)$/.test(token) ? v[Number(token)] : undefined;
    else if (isJsonObject(v)) v = v.get(token);
    else return undefined;
    if (v === undefined) return undefined;
  }
  return v;
}

/** A bare `{name, description, parameters}` value for a tool (when its source value is not at hand). */
export function bareValue(tool: ToolDefinition): JsonValue {
  const m = new Map<string, JsonValue>([['name', tool.name]]);
  if (tool.description !== undefined) m.set('description', tool.description);
  if (tool.parameters !== undefined) m.set('parameters', tool.parameters);
  return m;
}

/**
 * Each tool's own value, readable alone in the shape it came in: the value at its pointer, a Gemini
 * declaration wrapped back into `{functionDeclarations: [...]}` (so it is normalised as Gemini again).
 * Falls back to a bare value when the document is not given or the pointer does not resolve.
 */
export function standaloneTools(doc: JsonValue | undefined, tools: readonly ToolDefinition[]): JsonValue[] {
  return tools.map((t) => {
    const v = doc === undefined ? undefined : valueAt(doc, t.pointer);
    if (v === undefined || !isJsonObject(v)) return bareValue(t);
    if (t.format === 'gemini') return new Map<string, JsonValue>([['functionDeclarations', [v]]]);
    // an AI SDK record is keyed by the tool's name
    if (t.format === 'ai-sdk') return new Map<string, JsonValue>([[t.name, v]]);
    return v;
  });
}
