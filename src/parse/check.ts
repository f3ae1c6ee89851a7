/**
 * Tool calls checked against the catalog: is the name a declared tool, are the arguments JSON, do
 * they match the tool's parameters schema (Ajv, JSON Schema 2020-12, loaded only when checking), was
 * the call cut off, was it written on the analysis channel. Nothing is repaired silently: with
 * `repair: true` trivial repairs are made and each is reported (`call/repaired`).
 *
 * Schemas written for older drafts are read as their authors meant them before Ajv compiles them
 * (a copy; the tool is not changed): `$schema` is dropped (Ajv 2020 knows no other meta-schema),
 * draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum` become numbers, draft-07 tuple `items: […]`
 * becomes `prefixItems` (and `additionalItems` → `items`), `dependencies` becomes
 * `dependentRequired`/`dependentSchemas`, OpenAPI `nullable: true` adds `null` to `type`/`enum`;
 * `definitions` with `$ref: "#/definitions/…"` works as written. `format` is not checked. A schema
 * Ajv cannot compile (a `$ref` that points nowhere, an unknown type name) is a `call/schema-not-compiled`
 * error, never a crash: the call is `unchecked`, not valid, never runnable.
 *
 * A call is cut off (`call/incomplete`, never runnable) when it says so (`complete: false`), when the
 * parser that returned it marked it (toChatCompletion, the streamed chunks, parseToolCalls: see
 * completeness.ts; the mark is not in the call's JSON), or, for calls that came as JSON, when the
 * response's `finishReason` is `length` (the last call).
 *
 * Codes: `call/unknown-tool`, `call/invalid-json`, `call/invalid-arguments` (one per Ajv error),
 * `call/incomplete`, `call/on-analysis`, `call/repaired`, `call/schema-not-compiled`, `call/too-deep`.
 */
import type { Diagnostic } from '../diagnostics.js';
import type { ToolDefinition } from '../input/types.js';
import { JsonSyntaxError, parseJson, toJs, type JsonValue } from '../ir/json.js';
import { incompleteReason, markIncomplete } from './completeness.js';
import { functionNameOf, isFunctionRecipient, normalizeRecipient, toolDefinitionsOf, type ToolsLike } from './openai.js';
import type { HarmonyParseResult } from './types.js';
import { pushAll } from '../ir/arrays.js';

/** A call to check: its name and arguments text, and where it came from when known. */
export interface ToolCallInput {
  readonly name: string;
  /** The arguments as written (JSON text, normally). */
  readonly arguments: string;
  /** The channel it was written on; `analysis` is reported. */
  readonly channel?: string;
  /** False when the end of the output cut the call off (no stop token): never runnable. */
  readonly complete?: boolean;
}

/** A call in the Chat Completions shape: what toChatCompletion, accumulateChunks and parseToolCalls return (`id` and `type` are not read). */
export interface FunctionToolCallLike {
  readonly function: { readonly name: string; readonly arguments: string };
}

/** Options of checkToolCalls. */
export interface CheckToolCallsOptions {
  /** Make trivial repairs (a code fence around the JSON, text after it, empty arguments as `{}`), each reported as `call/repaired`. */
  readonly repair?: boolean;
  /** JSON Pointer of the calls list in diagnostics (default `/tool_calls`, as in a Chat Completions message). */
  readonly pointer?: string;
  /** The response's `finish_reason`, for calls that came as JSON: `length` (the engine ran out of tokens) makes the last call `call/incomplete`. */
  readonly finishReason?: string | null;
}

/** One call, checked. */
export interface CheckedToolCall {
  readonly index: number;
  readonly name: string;
  /** The arguments as written (raw). */
  readonly arguments: string;
  /** The parsed arguments (after repairs, when made), as a JavaScript value. */
  readonly value?: unknown;
  /** The JSON text that was parsed when a repair changed it. */
  readonly repaired?: string;
  /** A declared tool, JSON arguments, and arguments matching the tool's schema (false when the schema could not be compiled). */
  readonly valid: boolean;
  /** Set when the tool's schema could not be compiled (`call/schema-not-compiled`): the arguments were not checked, and the call is never runnable. */
  readonly unchecked?: true;
  /** Valid, checked and complete: safe to run. */
  readonly runnable: boolean;
}

/** What checkToolCalls returns. */
export interface CheckToolCallsResult {
  readonly calls: readonly CheckedToolCall[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Check calls (`{name, arguments}`, or Chat Completions tool calls `{function: {name, arguments}}`)
 * against the tools (any shape readTools accepts, or a compiled set). Each tool's schema is compiled
 * once per tool set (cached). Throws a CompileError only when the tools cannot be read.
 */
export async function checkToolCalls(
  calls: readonly (ToolCallInput | FunctionToolCallLike)[],
  tools: ToolsLike,
  options: CheckToolCallsOptions = {},
): Promise<CheckToolCallsResult> {
  const set = toolSetOf(tools);
  const base = options.pointer ?? '/tool_calls';
  const diagnostics: Diagnostic[] = [];
  const out: CheckedToolCall[] = [];
  for (let index = 0; index < calls.length; index++) {
    const lastOfCut = options.finishReason === 'length' && index === calls.length - 1;
    const call = asInput(calls[index], lastOfCut ? 'the response\'s finish_reason is "length": the engine ran out of tokens, and the last call may be cut off' : undefined);
    out.push(await checkOne(call, index, `${base}/${index}`, set, options, diagnostics));
  }
  return { calls: out, diagnostics };
}

/** The function calls of a parse, as vLLM finds them (function recipients of assistant messages), raw arguments, with channel and completeness. */
export function toolCallsFromParse(parsed: HarmonyParseResult): (ToolCallInput & { readonly messageIndex: number })[] {
  const out: (ToolCallInput & { readonly messageIndex: number })[] = [];
  parsed.messages.forEach((m, i) => {
    const recipient = normalizeRecipient(m.recipient);
    if (m.role !== 'assistant' || !isFunctionRecipient(recipient)) return;
    const complete = i < parsed.completedBeforeEnd;
    const call = { name: functionNameOf(recipient!), arguments: m.content, ...(m.channel !== undefined ? { channel: m.channel } : {}), complete, messageIndex: i };
    out.push(complete ? call : markIncomplete(call, 'no <|call|>'));
  });
  return out;
}

/** A call to check, with why it is cut off (when it is). */
type Input = ToolCallInput & { readonly cut?: string };

/** The call as checkOne reads it; cut off when it says so, when its parser marked it, or when `length` says so of the last call. */
function asInput(c: ToolCallInput | FunctionToolCallLike, lengthCut: string | undefined): Input {
  const marked = incompleteReason(c);
  const base: ToolCallInput = 'function' in c && typeof c.function === 'object' && c.function !== null ? { name: c.function.name, arguments: c.function.arguments } : (c as ToolCallInput);
  const cut = marked ?? (base.complete === false ? 'no stop token' : lengthCut);
  return cut === undefined ? base : { ...base, complete: false, cut };
}

// ---------------------------------------------------------------------------------------
// One call

async function checkOne(call: Input, index: number, at: string, set: ToolSet, options: CheckToolCallsOptions, diagnostics: Diagnostic[]): Promise<CheckedToolCall> {
  const tool = call.name;
  const argsPath = `${at}/function/arguments`;
  let valid = true;
  let unchecked = false;
  if (call.complete === false) {
    diagnostics.push({ code: 'call/incomplete', severity: 'error', tool, path: at, message: `the call to ${JSON.stringify(call.name)} was cut off by the end of the output (${call.cut ?? 'no stop token'}): its arguments may be partial and it must not be run` });
  }
  if (call.channel === 'analysis') {
    diagnostics.push({ code: 'call/on-analysis', severity: 'warning', tool, path: at, message: `the call to ${JSON.stringify(call.name)} was written on the analysis channel (function calls belong on commentary); servers still return it as a call` });
  }
  const def = set.byName.get(call.name);
  if (!def) {
    valid = false;
    diagnostics.push({ code: 'call/unknown-tool', severity: 'error', tool, path: `${at}/function/name`, message: `no tool is named ${JSON.stringify(call.name)}${suggest(call.name, set)}` });
  }

  const parsed = parseArguments(call.arguments, options.repair === true, tool, argsPath, diagnostics);
  if (!parsed.ok) {
    return { index, name: call.name, arguments: call.arguments, valid: false, runnable: false };
  }
  const tooDeep = (): CheckedToolCall => {
    diagnostics.push({ code: 'call/too-deep', severity: 'error', tool, path: argsPath, message: 'the arguments nest too deeply to be checked (or used by most clients)' });
    return { index, name: call.name, arguments: call.arguments, valid: false, runnable: false };
  };
  let value: unknown;
  try {
    value = toJs(parsed.value);
  } catch (e) {
    if (e instanceof RangeError) return tooDeep();
    throw e;
  }
  const repaired = parsed.text !== call.arguments ? { repaired: parsed.text } : {};
  let typeReported = false;
  if (def) {
    const validator = await set.validatorFor(def);
    if ('error' in validator) {
      valid = false;
      unchecked = true;
      diagnostics.push({ code: 'call/schema-not-compiled', severity: 'error', tool, path: def.parametersPointer, message: `the parameters schema of ${JSON.stringify(def.name)} could not be compiled (${validator.error}): the arguments cannot be checked, so the call is never runnable; fix the schema (harmony-catalog lint names the broken part)` });
    } else {
      let ok: boolean;
      try {
        ok = validator.validate(value);
      } catch (e) {
        if (e instanceof RangeError) return tooDeep();
        throw e;
      }
      if (!ok) {
        valid = false;
        for (const e of validator.errors()) {
          if (e.keyword === 'type' && e.instancePath === '') typeReported = true;
          diagnostics.push({ code: 'call/invalid-arguments', severity: 'error', tool, path: `${argsPath}${e.instancePath}`, message: describeAjvError(e) });
        }
      }
    }
  }
  // function arguments are an object of named parameters, whatever the schema says
  if (!isPlainObject(value) && !typeReported) {
    valid = false;
    diagnostics.push({ code: 'call/invalid-arguments', severity: 'error', tool, path: argsPath, message: `expected object (function arguments are an object of named parameters), got ${typeName(value)} (schema #)` });
  }
  return { index, name: call.name, arguments: call.arguments, value, ...repaired, valid, ...(unchecked ? { unchecked: true as const } : {}), runnable: valid && call.complete !== false };
}

/** Did you mean: the same name without `functions.`, in another case, or its last dot segment. */
function suggest(name: string, set: ToolSet): string {
  const candidates = [name.replace(/^functions\./i, ''), name.slice(name.lastIndexOf('.') + 1)];
  for (const c of candidates) {
    for (const def of set.byName.values()) {
      if (def.name !== name && def.name.toLowerCase() === c.toLowerCase()) return ` (did you mean ${JSON.stringify(def.name)}?)`;
    }
  }
  const names = [...set.byName.keys()];
  return names.length ? `; the tools are ${names.slice(0, 10).map((n) => JSON.stringify(n)).join(', ')}${names.length > 10 ? ', …' : ''}` : '; the request has no tools';
}

type Parsed = { ok: true; value: JsonValue; text: string } | { ok: false };

const FENCE = /^\s*```[A-Za-z]*[ \t]*\r?\n([\s\S]*?)\r?\n?[ \t]*```\s*$/;

/** Parse the arguments as JSON; with `repair`, undo a code fence, drop text after the value, read empty arguments as `{}` (each reported). */
function parseArguments(text: string, repair: boolean, tool: string, path: string, diagnostics: Diagnostic[]): Parsed {
  const first = tryParse(text);
  if (first.ok) return { ok: true, value: first.value, text };
  if (repair) {
    const repairs: string[] = [];
    let t = text;
    const fence = FENCE.exec(t);
    if (fence) {
      t = fence[1];
      repairs.push('removed the Markdown code fence around the JSON');
    }
    if (t.trim() === '') {
      t = '{}';
      repairs.push('read empty arguments as {}');
    }
    let r = tryParse(t);
    if (!r.ok && r.error.message.startsWith('trailing characters')) {
      const trailing = t.slice(r.error.offset);
      t = t.slice(0, r.error.offset);
      repairs.push(`dropped the text after the JSON value: ${JSON.stringify(clip(trailing))}`);
      r = tryParse(t);
    }
    if (r.ok && repairs.length) {
      for (const what of repairs) diagnostics.push({ code: 'call/repaired', severity: 'warning', tool, path, message: `the arguments were repaired: ${what}` });
      return { ok: true, value: r.value, text: t };
    }
  }
  const e = first.error;
  const bytes = Buffer.byteLength(text.slice(0, e.offset), 'utf8');
  const cause = plainCause(e.message.replace(/ at line \d+ column \d+$/, ''), text, e.offset);
  const hint = cause === 'trailing characters' && !repair ? ' (repair: true drops the text after the JSON value)' : '';
  diagnostics.push({
    code: 'call/invalid-json',
    severity: 'error',
    tool,
    path,
    message: `the arguments are not JSON: ${cause} at character ${e.offset} (byte ${bytes}), line ${e.line} column ${e.column}${text.trim() === '' ? ' (the arguments are empty)' : ''}${hint}`,
  });
  return { ok: false };
}

/** The JSON parser's cause in the words a model's mistakes call for. */
function plainCause(cause: string, text: string, offset: number): string {
  if (cause === 'key must be a string' && text[offset] === '}') return 'a trailing comma before `}`';
  if (cause === 'expected value' && text[offset] === ']') return 'a trailing comma before `]`';
  if (cause === 'key must be a string' && text[offset] === "'") return 'a key in single quotes (JSON wants double quotes)';
  if (cause === 'expected value' && text[offset] === "'") return 'a string in single quotes (JSON wants double quotes)';
  if (cause.startsWith('EOF while')) return `the arguments end early (${cause.slice('EOF '.length)}): cut off?`;
  return cause;
}

function tryParse(text: string): { ok: true; value: JsonValue } | { ok: false; error: JsonSyntaxError } {
  try {
    return { ok: true, value: parseJson(text) };
  } catch (e) {
    if (e instanceof JsonSyntaxError) return { ok: false, error: e };
    if (e instanceof RangeError) return { ok: false, error: new JsonSyntaxError('the JSON nests too deeply', 0, 1, 1) };
    throw e;
  }
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

function isPlainObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

// ---------------------------------------------------------------------------------------
// Ajv errors in plain words

/** The fields of an Ajv error object this module reads (Ajv's ErrorObject with `verbose: true`). */
interface AjvError {
  readonly keyword: string;
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly params: Record<string, unknown>;
  readonly message?: string;
  readonly data?: unknown;
}

function show(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : clip(s);
}

/** One Ajv error as a sentence: what was expected, what was there, and the schema pointer. */
function describeAjvError(e: AjvError): string {
  const where = e.instancePath ? `at ${e.instancePath}: ` : '';
  const p = e.params;
  let what: string;
  switch (e.keyword) {
    case 'required':
      what = `missing required property ${JSON.stringify(p.missingProperty)}`;
      break;
    case 'type':
      what = `expected ${Array.isArray(p.type) ? p.type.join(' or ') : String(p.type)}, got ${typeName(e.data)}${e.data !== null && typeof e.data !== 'object' ? ` ${show(e.data)}` : ''}`;
      break;
    case 'enum':
      what = `expected one of ${(Array.isArray(p.allowedValues) ? p.allowedValues : []).map(show).join(', ')}, got ${show(e.data)}`;
      break;
    case 'const':
      what = `expected ${show(p.allowedValue)}, got ${show(e.data)}`;
      break;
    case 'additionalProperties':
      what = `unexpected property ${JSON.stringify(p.additionalProperty)} (additionalProperties does not allow it)`;
      break;
    case 'unevaluatedProperties':
      what = `unexpected property ${JSON.stringify(p.unevaluatedProperty)} (unevaluatedProperties does not allow it)`;
      break;
    default:
      what = `${e.message ?? `fails ${e.keyword}`}${e.data === undefined || typeof e.data === 'object' ? '' : `, got ${show(e.data)}`}`;
  }
  return `${where}${what} (schema ${e.schemaPath})`;
}

// ---------------------------------------------------------------------------------------
// Tool sets and their validators (compiled once, cached per tool set)

interface Validator {
  validate(value: unknown): boolean;
  errors(): readonly AjvError[];
}

interface ToolSet {
  readonly byName: ReadonlyMap<string, ToolDefinition>;
  validatorFor(def: ToolDefinition): Promise<Validator | { error: string }>;
}

const BY_OBJECT = new WeakMap<object, ToolSet>();
const BY_TEXT = new Map<string, ToolSet>();
const TEXT_CACHE_SIZE = 32;

function toolSetOf(tools: ToolsLike): ToolSet {
  if (typeof tools === 'object' && tools !== null) {
    const hit = BY_OBJECT.get(tools);
    if (hit) return hit;
    const set = makeToolSet(toolDefinitionsOf(tools));
    BY_OBJECT.set(tools, set);
    return set;
  }
  if (typeof tools === 'string') {
    const hit = BY_TEXT.get(tools);
    if (hit) return hit;
    const set = makeToolSet(toolDefinitionsOf(tools));
    if (BY_TEXT.size >= TEXT_CACHE_SIZE) BY_TEXT.delete(BY_TEXT.keys().next().value as string);
    BY_TEXT.set(tools, set);
    return set;
  }
  return makeToolSet(toolDefinitionsOf(tools));
}

type AjvClass = (typeof import('ajv/dist/2020.js'))['Ajv2020'];
let ajvClass: Promise<AjvClass> | undefined;

/** Ajv (JSON Schema 2020-12), imported the first time a schema is compiled. */
function loadAjv(): Promise<AjvClass> {
  ajvClass ??= import('ajv/dist/2020.js').then((m) => m.Ajv2020);
  return ajvClass;
}

function makeToolSet(defs: readonly ToolDefinition[]): ToolSet {
  const byName = new Map<string, ToolDefinition>();
  // a repeated name: the first definition is the one checked against
  for (const d of defs) if (!byName.has(d.name)) byName.set(d.name, d);
  const compiled = new Map<ToolDefinition, Promise<Validator | { error: string }>>();
  let ajv: Promise<InstanceType<AjvClass>> | undefined;
  const instance = () =>
    (ajv ??= loadAjv().then(
      (Ajv) =>
        // addUsedSchema: false, so two tools may reuse one `$id`; verbose: errors carry the data
        new Ajv({ strict: false, allErrors: true, validateFormats: false, addUsedSchema: false, verbose: true, logger: false }),
    ));
  return {
    byName,
    validatorFor(def) {
      let v = compiled.get(def);
      if (!v) {
        v = instance().then((a) => {
          try {
            const fn = a.compile(schemaForAjv(def.parameters) as object);
            return { validate: (x: unknown) => fn(x) as boolean, errors: () => (fn.errors ?? []) as AjvError[] };
          } catch (e) {
            return { error: e instanceof Error ? e.message : String(e) };
          }
        });
        compiled.set(def, v);
      }
      return v;
    },
  };
}

// Keywords whose value is one schema, a list of schemas, or a map of schemas.
const ONE = ['additionalProperties', 'propertyNames', 'contains', 'not', 'if', 'then', 'else', 'items', 'additionalItems', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'];
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

/**
 * A copy of the parameters schema as Ajv 2020 should read it (see the module comment); a tool with
 * no parameters takes an object. Iterative, so a deep schema cannot overflow the stack.
 */
export function schemaForAjv(parameters: JsonValue | undefined): unknown {
  if (parameters === undefined || parameters === null) return { type: 'object' };
  const root = toJs(parameters);
  const stack: unknown[] = [root];
  while (stack.length) {
    const s = stack.pop();
    if (typeof s !== 'object' || s === null || Array.isArray(s)) continue;
    const o = s as Record<string, unknown>;
    normalizeKeywords(o);
    for (const k of ONE) if (k in o) stack.push(o[k]);
    for (const k of LIST) if (Array.isArray(o[k])) pushAll(stack, o[k] as unknown[]);
    for (const k of MAP) {
      const m = o[k];
      if (typeof m === 'object' && m !== null && !Array.isArray(m)) pushAll(stack, Object.values(m));
    }
  }
  return root;
}

/** Older-draft and OpenAPI keywords in their 2020-12 form, in place (on the copy). */
function normalizeKeywords(o: Record<string, unknown>): void {
  // Ajv 2020 resolves no other meta-schema: `$schema: draft-07` would fail to compile
  delete o.$schema;
  for (const [bool, num] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    // draft-04: `exclusiveMinimum: true` qualifies `minimum`
    if (typeof o[bool] === 'boolean') {
      if (o[bool] === true && typeof o[num] === 'number') {
        o[bool] = o[num];
        delete o[num];
      } else delete o[bool];
    }
  }
  // draft-07 tuples: `items: [...]` + `additionalItems`
  if (Array.isArray(o.items)) {
    o.prefixItems = o.items;
    delete o.items;
    if ('additionalItems' in o) {
      o.items = o.additionalItems;
      delete o.additionalItems;
    }
  }
  // draft-07 `dependencies`: a list of names, or a schema
  if (typeof o.dependencies === 'object' && o.dependencies !== null && !Array.isArray(o.dependencies)) {
    const req: Record<string, unknown> = {};
    const sch: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o.dependencies as Record<string, unknown>)) (Array.isArray(v) ? req : sch)[k] = v;
    if (Object.keys(req).length) o.dependentRequired = { ...(o.dependentRequired as object | undefined), ...req };
    if (Object.keys(sch).length) o.dependentSchemas = { ...(o.dependentSchemas as object | undefined), ...sch };
    delete o.dependencies;
  }
  // OpenAPI 3.0 `nullable: true`
  if (o.nullable === true) {
    if (typeof o.type === 'string') o.type = [o.type, 'null'];
    else if (Array.isArray(o.type) && !o.type.includes('null')) o.type = [...o.type, 'null'];
    if (Array.isArray(o.enum) && !o.enum.includes(null)) o.enum = [...o.enum, null];
  }
  if ('nullable' in o) delete o.nullable;
}

