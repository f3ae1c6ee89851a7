/**
 * TypeBox schemas of the tool wrapper shapes, and a shallow validation of a wrapper against
 * them. Only the wrapper's own keys are checked (names, kinds of values, unknown keys); the
 * JSON Schema inside the parameters is the lowering's business.
 */
import { Kind, Type, type TObject, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import type { Diagnostic } from '../diagnostics.js';
import { isJsonArray, isJsonNumber, isJsonObject, type JsonObject, type JsonValue } from '../ir/json.js';
import { describeValue, type ContainerKind } from './formats.js';
import type { ToolFormat } from './types.js';

const Any = Type.Unknown();
const Str = Type.String();
const Bool = Type.Boolean();
const Strict = Type.Union([Type.Boolean(), Type.Null()]);
const closed = { additionalProperties: false } as const;

/** OpenAI Chat Completions: the `function` object. */
export const OpenAiChatFunctionSchema = Type.Object(
  { name: Str, description: Type.Optional(Str), parameters: Type.Optional(Any), strict: Type.Optional(Strict) },
  closed,
);
/** OpenAI Chat Completions tool: `{type:"function", function:{…}}`. */
export const OpenAiChatToolSchema = Type.Object({ type: Type.Literal('function'), function: OpenAiChatFunctionSchema }, closed);
/** OpenAI Responses function tool: `{type:"function", name, description?, parameters?, strict?}`. */
export const OpenAiResponsesToolSchema = Type.Object(
  { type: Type.Literal('function'), name: Str, description: Type.Optional(Str), parameters: Type.Optional(Any), strict: Type.Optional(Strict) },
  closed,
);
/** Anthropic client tool (Messages API `tools[]`, including its optional fields). */
export const AnthropicToolSchema = Type.Object(
  {
    type: Type.Optional(Type.Literal('custom')),
    name: Str,
    description: Type.Optional(Str),
    input_schema: Any,
    cache_control: Type.Optional(Type.Union([Type.Object({}), Type.Null()])),
    strict: Type.Optional(Bool),
    input_examples: Type.Optional(Type.Array(Any)),
    defer_loading: Type.Optional(Bool),
    allowed_callers: Type.Optional(Type.Array(Str)),
    eager_input_streaming: Type.Optional(Bool),
  },
  closed,
);
/** MCP Tool (spec 2025-11-25). */
export const McpToolSchema = Type.Object(
  {
    name: Str,
    title: Type.Optional(Str),
    description: Type.Optional(Str),
    inputSchema: Any,
    outputSchema: Type.Optional(Any),
    annotations: Type.Optional(Type.Object({})),
    execution: Type.Optional(Type.Object({})),
    icons: Type.Optional(Type.Array(Any)),
    _meta: Type.Optional(Type.Object({})),
  },
  closed,
);
/** Gemini FunctionDeclaration. */
export const GeminiFunctionDeclarationSchema = Type.Object(
  {
    name: Str,
    description: Type.Optional(Str),
    behavior: Type.Optional(Str),
    parameters: Type.Optional(Any),
    parametersJsonSchema: Type.Optional(Any),
    response: Type.Optional(Any),
    responseJsonSchema: Type.Optional(Any),
    // the REST API takes the proto's snake_case names too
    parameters_json_schema: Type.Optional(Any),
    response_json_schema: Type.Optional(Any),
  },
  closed,
);
/** A legacy OpenAI function (`functions:[…]` of the Chat Completions API before `tools`). */
export const OpenAiFunctionSchema = Type.Object({ name: Str, description: Type.Optional(Str), parameters: Type.Optional(Any) }, closed);
/**
 * A Vercel AI SDK tool (`tool({…})`, a value of the `tools` record; its name is the record key). Its
 * functions (`execute`, `onInputStart`, `toModelOutput`…) are code, dropped before reading.
 */
export const AiSdkToolSchema = Type.Object(
  {
    type: Type.Optional(Type.Union([Type.Literal('function'), Type.Literal('dynamic')])),
    description: Type.Optional(Str),
    title: Type.Optional(Str),
    inputSchema: Type.Optional(Any),
    parameters: Type.Optional(Any),
    outputSchema: Type.Optional(Any),
    inputExamples: Type.Optional(Type.Array(Any)),
    providerOptions: Type.Optional(Type.Object({})),
    strict: Type.Optional(Bool),
    needsApproval: Type.Optional(Bool),
  },
  closed,
);
/** A bare tool: `{name, description?, parameters?}`. */
export const BareToolSchema = Type.Object({ name: Str, description: Type.Optional(Str), parameters: Type.Optional(Any) }, closed);

/** MCP `tools/list` result. */
export const McpListResultSchema = Type.Object({ tools: Type.Array(Any), nextCursor: Type.Optional(Str), _meta: Type.Optional(Type.Object({})) }, closed);
/** JSON-RPC 2.0 response carrying a `tools/list` result. */
export const JsonRpcResponseSchema = Type.Object(
  { jsonrpc: Type.Literal('2.0'), id: Type.Union([Str, Type.Number(), Type.Null()]), result: Type.Object({}) },
  closed,
);
/** Gemini Tool: `{functionDeclarations:[…]}` or `{function_declarations:[…]}` (other Gemini tool kinds are not function tools). */
export const GeminiToolSchema = Type.Object({ functionDeclarations: Type.Optional(Type.Array(Any)), function_declarations: Type.Optional(Type.Array(Any)) }, closed);
/** Legacy OpenAI functions: `{functions:[…]}` (a request's other keys are not tools). */
export const OpenAiFunctionsSchema = Type.Object({ functions: Type.Array(Any) }, closed);
/** A Vercel AI SDK tool record: any keys (tool names), each checked as a tool. */
export const AiSdkRecordSchema = Type.Object({});

/** The wrapper schema of each format. */
export const TOOL_SCHEMAS: Readonly<Record<ToolFormat, TObject>> = {
  'openai-chat': OpenAiChatToolSchema,
  'openai-responses': OpenAiResponsesToolSchema,
  anthropic: AnthropicToolSchema,
  mcp: McpToolSchema,
  gemini: GeminiFunctionDeclarationSchema,
  'openai-functions': OpenAiFunctionSchema,
  'ai-sdk': AiSdkToolSchema,
  bare: BareToolSchema,
};
/** The schema of each container. */
export const CONTAINER_SCHEMAS: Readonly<Record<ContainerKind, TObject>> = {
  'mcp-list': McpListResultSchema,
  jsonrpc: JsonRpcResponseSchema,
  'gemini-tool': GeminiToolSchema,
  'openai-functions': OpenAiFunctionsSchema,
  'ai-sdk-record': AiSdkRecordSchema,
};

const compiled = new Map<TObject, TypeCheck<TObject>>();
function checker(schema: TObject): TypeCheck<TObject> {
  let c = compiled.get(schema);
  if (!c) {
    c = TypeCompiler.Compile(schema);
    compiled.set(schema, c);
  }
  return c;
}

/** What to validate and how to report it. */
export interface ValidateWrapperOptions {
  /** JSON Pointer of the wrapper in the input document. */
  readonly pointer: string;
  /** The tool label for diagnostics (absent for containers). */
  readonly tool?: string;
  /** Paths (relative to the wrapper) that the caller checks itself, and their sub-paths. */
  readonly skip?: readonly string[];
  /** Path (relative to the wrapper) of the tool's description. */
  readonly descriptionPath?: string;
  /** Path (relative to the wrapper) of the object whose unknown keys the tool keeps (for the templates that print the tool object whole). */
  readonly keptIn?: string;
}

/** True when a wrapper passes its schema (validateWrapper then has nothing to say). */
export function wrapperValid(schema: TObject, wrapper: JsonObject): boolean {
  return checker(schema).Check(viewFor(wrapper, schema));
}

/**
 * Validate the shallow plain-JS view of a wrapper against its TypeBox schema. Returns
 * warnings only: unknown keys (`input/unknown-key`), a non-string description
 * (`input/non-string-description`), and other keys with the wrong kind of value
 * (`input/invalid-key`, the value is ignored).
 */
export function validateWrapper(schema: TObject, wrapper: JsonObject, options: ValidateWrapperOptions): Diagnostic[] {
  const out: Diagnostic[] = [];
  const view = viewFor(wrapper, schema);
  const check = checker(schema);
  if (check.Check(view)) return out;
  const seen = new Set<string>();
  const skip = options.skip ?? [];
  const tool = options.tool !== undefined ? { tool: options.tool } : {};
  for (const e of check.Errors(view)) {
    if (seen.has(e.path) || skip.some((s) => e.path === s || e.path.startsWith(`${s}/`))) continue;
    seen.add(e.path);
    const path = options.pointer + e.path;
    const key = unescapeToken(e.path.slice(e.path.lastIndexOf('/') + 1));
    const value = valueAt(wrapper, e.path);
    if (e.type === ValueErrorType.ObjectAdditionalProperties) {
      const known = knownKeys(e.schema);
      const near = closest(key, known);
      const kept = options.keptIn !== undefined && e.path.slice(0, e.path.lastIndexOf('/')) === options.keptIn;
      out.push({
        code: 'input/unknown-key',
        severity: 'warning',
        ...tool,
        path,
        message: `unknown key ${JSON.stringify(key)} ${kept ? 'is kept only for the templates that print the whole tool (xml qwen, qwen3-coder)' : 'is ignored'}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ''}; known keys: ${known.join(', ')}`,
      });
    } else if (e.path === options.descriptionPath) {
      out.push({
        code: 'input/non-string-description',
        severity: 'warning',
        ...tool,
        path,
        message: `the description is ${describeValue(value as JsonValue)}, not a string; it is kept as written`,
      });
    } else if (e.type === ValueErrorType.ObjectRequiredProperty) {
      out.push({ code: 'input/invalid-key', severity: 'warning', ...tool, path, message: `${JSON.stringify(key)} is missing (expected ${expected(e)})` });
    } else {
      out.push({
        code: 'input/invalid-key',
        severity: 'warning',
        ...tool,
        path,
        message: `${JSON.stringify(key)} is ${value === undefined ? 'missing' : describeValue(value)}, expected ${expected(e)}; it is ignored`,
      });
    }
  }
  return out;
}

/** What a schema expects, in words. */
function expected(e: ValueError): string {
  return describeSchema(e.schema);
}
function describeSchema(s: TSchema): string {
  switch (s[Kind]) {
    case 'Literal':
      return JSON.stringify(s.const);
    case 'String':
      return 'a string';
    case 'Boolean':
      return 'a boolean';
    case 'Number':
      return 'a number';
    case 'Null':
      return 'null';
    case 'Array':
      return 'an array';
    case 'Object':
      return 'an object';
    case 'Union':
      return (s.anyOf as TSchema[]).map(describeSchema).join(' or ');
    default:
      return 'a valid value';
  }
}

function knownKeys(schema: TSchema): string[] {
  return Object.keys((schema as TObject).properties ?? {});
}

/** The closest known key within edit distance 2 (for typos such as `paramters`). */
function closest(key: string, known: readonly string[]): string | undefined {
  // the same unknown key comes back in every tool of a large list: each answer is kept (a bounded cache)
  const cacheKey = `${known.join('\u0000')}\u0000\u0000${key}`;
  if (CLOSEST.has(cacheKey)) return CLOSEST.get(cacheKey);
  let best: string | undefined;
  let bestD = 3;
  const lower = key.toLowerCase();
  for (const k of known) {
    const d = editDistance(lower, k.toLowerCase());
    if (d < bestD) {
      best = k;
      bestD = d;
    }
  }
  if (CLOSEST.size >= 10_000) CLOSEST.clear();
  CLOSEST.set(cacheKey, best);
  return best;
}
const CLOSEST = new Map<string, string | undefined>();

/** Optimal string alignment distance (a transposition counts as one edit); 3 for any distance above 2. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  // three rows of the table: i - 2, i - 1, i
  let before = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      let v = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, before[j - 2] + 1);
      row[j] = v;
    }
    [before, prev, row] = [prev, row, before];
  }
  return prev[b.length];
}

function unescapeToken(t: string): string {
  return t.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The value at a relative JSON Pointer inside a JSON value. */
function valueAt(v: JsonValue, path: string): JsonValue | undefined {
  if (path === '') return v;
  let cur: JsonValue | undefined = v;
  for (const raw of path.slice(1).split('/')) {
    const t = unescapeToken(raw);
    if (isJsonObject(cur)) cur = cur.get(t);
    else if (isJsonArray(cur)) cur = cur[Number(t)];
    else return undefined;
  }
  return cur;
}

/**
 * The plain-JS view of a wrapper as deep as its schema looks: objects the schema describes
 * key by key are followed, values the schema does not look into (parameters, unknown keys)
 * become `{}` or `[]`, other values are kept one level deep.
 */
function viewFor(v: JsonValue, schema: TSchema | undefined): unknown {
  if (schema === undefined || schema[Kind] === 'Unknown') return plainView(v, 0);
  if (isJsonObject(v) && schema[Kind] === 'Object') {
    const props = (schema as TObject).properties;
    const out: Record<string, unknown> = {};
    // forEach, not for-of: no entry arrays or iterator results (this runs once a tool, before V8 optimises it)
    v.forEach((x, k) => setOwn(out, k, viewFor(x, Object.prototype.hasOwnProperty.call(props, k) ? props[k] : undefined)));
    return out;
  }
  return plainView(v, 1);
}

/**
 * The plain-JS view of a JSON value down to `depth` levels: deeper objects become `{}` and
 * deeper arrays `[]` (enough to check their kind). Keys are own data properties, so
 * `__proto__` is an ordinary key.
 */
export function plainView(v: JsonValue, depth: number): unknown {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (isJsonNumber(v)) return v.value;
  if (isJsonArray(v)) return depth <= 0 ? [] : v.map((x) => plainView(x, depth - 1));
  const out: Record<string, unknown> = {};
  if (depth <= 0) return out;
  v.forEach((x, k) => setOwn(out, k, plainView(x, depth - 1)));
  return out;
}

/** An own data property, `__proto__` too (an assignment would call the prototype setter there). */
function setOwn(o: Record<string, unknown>, k: string, value: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value, enumerable: true, writable: true, configurable: true });
  else o[k] = value;
}
