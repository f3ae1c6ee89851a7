/**
 * Reading tool input: JSON text or a JavaScript value (plain objects, TypeBox schemas, lossless
 * JsonValues) in any accepted shape → ToolDefinition[] and diagnostics. Every problem that
 * stops rendering is collected and thrown at the end as one CompileError.
 *
 *   to JSON (parse or convert, then check numbers and Unicode)
 *   → find the tool positions (arrays and containers: MCP tools/list, JSON-RPC, Gemini Tool)
 *   → per tool: shape, name, wrapper validation (TypeBox), Gemini normalisation, parameters
 *   → across tools: duplicate names
 */
import { CompileError, type Diagnostic } from '../diagnostics.js';
import {
  escapePointerToken,
  fromJs,
  isJsonArray,
  isJsonObject,
  isWellFormed,
  JsonNumber,
  notePlainForm,
  JsonSyntaxError,
  JsValueError,
  parseJson,
  parseJsonSpans,
  type JsonObject,
  type JsonValue,
} from '../ir/json.js';
import { ACCEPTED_SHAPES, classifyShape, describeValue, isAiSdkTool, toolLayout, type ContainerKind } from './formats.js';
import { normalizeGeminiSchema } from './normalize.js';
import type { ReadResult, ToolDefinition, ToolFormat } from './types.js';
import { CONTAINER_SCHEMAS, TOOL_SCHEMAS, validateWrapper, wrapperValid } from './validate.js';
import { prepareJsValue } from './zod.js';
import { pushAll } from '../ir/arrays.js';

/** Options of readTools. */
export interface ReadToolsOptions {
  /** Where the input came from (a file name), used in messages about the text. */
  readonly source?: string;
}

/**
 * Read tool definitions. A string is JSON text; a Uint8Array is UTF-8 JSON text; anything
 * else is a JavaScript value (a JsonValue is used as is). Returns the tools with warnings and
 * infos; throws a CompileError listing every error.
 */
export function readTools(input: unknown, options: ReadToolsOptions = {}): ReadResult {
  try {
    return read(input, options);
  } catch (e) {
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      throw new CompileError([{ code: 'input/too-deep', severity: 'error', path: '', message: 'the input nests too deeply to be read' }]);
    }
    throw e;
  }
}

/** The format of a tool, of a container, or of a list whose tools all share one format; undefined otherwise. Strings and bytes are JSON text, as in readTools. */
export function detectFormat(value: unknown): ToolFormat | undefined {
  let json: JsonValue;
  try {
    const text = value instanceof Uint8Array ? new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(value) : value;
    json = typeof text === 'string' ? parseJson(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) : isJsonValue(text) ? text : fromJs(prepareJsValue(text, []));
  } catch {
    return undefined;
  }
  const slots: Slot[] = [];
  const containers: ContainerKind[] = [];
  collectTop(json, slots, [], containers);
  if (slots.length === 0) {
    if (containers[0] === 'gemini-tool') return 'gemini';
    if (containers[0] === 'mcp-list' || containers[0] === 'jsonrpc') return 'mcp';
    if (containers[0] === 'openai-functions') return 'openai-functions';
    return undefined;
  }
  const formats = new Set(slots.map((s) => s.format));
  const [only] = formats;
  return formats.size === 1 ? only : undefined;
}

// ---------------------------------------------------------------------------------------

/** A problem with a value found before the tools are known (attributed to a tool later). */
interface ValueProblem {
  readonly code: string;
  readonly path: string;
  readonly message: string;
}

/** What reading learnt of where the input can spell a control token (a hidden property of the read result). */
const SPELLING: unique symbol = Symbol('harmony-catalog spelling');

/** What a read result knows: the whole input spells nothing, or these tools do not. */
interface Spelling {
  readonly all: boolean;
  readonly tools: ReadonlySet<ToolDefinition>;
}

/** While reading: whether the input is free of spellings, and its top-level elements that are; and the document's size when it was counted. */
interface SpellingFound {
  free: boolean;
  readonly clean: Set<object>;
  size?: DocumentSize;
  /** The input, when it was plain objects equal to the value read (nothing left out): its parameters objects may be walked in place (plainForm). */
  plain?: unknown;
}

/** The size of the document read: every value in it (containers, entries, scalars), and how deep its containers nest. */
export interface DocumentSize {
  readonly values: number;
  readonly depth: number;
}

/** The document's size, counted while reading JSON text or plain objects (a hidden property of the read result). */
const SIZE: unique symbol = Symbol('harmony-catalog document size');

/**
 * The size of the whole document a read result was read from: a bound on each of its schemas
 * (the pre-pass skips its own size walk when the bound is within the limits); undefined when it
 * was not counted (a JsonValue given as it is, a schema library's value, a read result made elsewhere).
 */
export function documentSize(r: ReadResult): DocumentSize | undefined {
  return (r as { [SIZE]?: DocumentSize })[SIZE];
}

/**
 * True when no string of the input read has a `<` and no key starts with `|` or `/` (so no tool
 * text spells a control token, and the control-token scan has nothing to find); false when that
 * is not known (a JsonValue given as it is, a read result made elsewhere).
 */
export function isSpellingFree(r: ReadResult): boolean {
  return (r as { [SPELLING]?: Spelling })[SPELLING]?.all === true;
}

/** True when nothing of this tool of the read result (name, title, description, parameters, other keys) can spell a control token; false when that is not known. */
export function isToolSpellingFree(r: ReadResult, t: ToolDefinition): boolean {
  return (r as { [SPELLING]?: Spelling })[SPELLING]?.tools.has(t) === true;
}

/** JSON text that may decode to a `<` in a string, or to a string (a key) starting with `|` or `/`. */
const MAY_SPELL = /<|\\u003[cC]|"(?:[|/]|\\\/|\\u00(?:7[cC]|2[fF]))/g;
/** Beyond this many places that may spell a token, no element of the text is said to be free of them. */
const MAY_SPELL_MAX = 10_000;

/**
 * What parsed JSON text can spell: the input is free of spellings when MAY_SPELL finds nothing in
 * it; an element of a top-level array (a tool, usually) is when nothing is found within its text.
 */
function markSpellingFree(text: string, value: JsonValue, elements: readonly number[], spelling: SpellingFound): void {
  // where the text may spell a token (one regex pass: test, not exec, so no match arrays; about 2 ms for 1.5 MB)
  const at: number[] = [];
  MAY_SPELL.lastIndex = 0;
  while (MAY_SPELL.test(text)) if (at.push(MAY_SPELL.lastIndex - 1) > MAY_SPELL_MAX) return;
  spelling.free = at.length === 0;
  if (!isJsonArray(value)) return;
  let m = 0;
  for (let k = 0; k < value.length; k++) {
    const start = elements[2 * k];
    const end = elements[2 * k + 1];
    while (m < at.length && at[m] < start) m++;
    const x = value[k];
    if ((m === at.length || at[m] >= end) && typeof x === 'object' && x !== null) spelling.clean.add(x);
  }
}

function read(input: unknown, options: ReadToolsOptions): ReadResult {
  const problems: ValueProblem[] = [];
  const spelling: SpellingFound = { free: false, clean: new Set() };
  const json = toJson(input, options, problems, spelling);

  const slots: Slot[] = [];
  const diags: Diagnostic[] = [];
  collectTop(json, slots, diags, []);

  const tools: ToolDefinition[] = [];
  const freeTools = new Set<ToolDefinition>();
  slots.forEach((slot, index) => {
    const tool = readSlot(slot, index, diags);
    if (tool) tools.push(tool);
    // every string of such a tool comes from its slot (a Gemini declaration's parameters may be rebuilt: not counted)
    if (tool && slot.format !== 'gemini' && typeof slot.value === 'object' && slot.value !== null && spelling.clean.has(slot.value)) freeTools.add(tool);
  });
  duplicateNames(tools, slots, diags);
  if (spelling.plain !== undefined) for (const t of tools) notePlainParameters(t, json, spelling.plain);

  // A value that could not be converted is reported once, where it is; what follows from it
  // (a "missing" name, an unknown shape) is not reported again.
  const failed = new Set(problems.map((p) => p.path));
  const slotIndex = new Map(slots.map((s, i) => [s.pointer, i]));
  const all: Diagnostic[] = [
    ...problems.map((p): Diagnostic => {
      const tool = labelAt(slots, p.path, slotIndex);
      return { code: p.code, severity: 'error', ...(tool !== undefined ? { tool } : {}), path: p.path, message: p.message };
    }),
    ...diags.filter((d) => !failed.has(d.path)),
  ];
  if (all.some((d) => d.severity === 'error')) throw new CompileError(all);
  const result: ReadResult = { tools, diagnostics: all };
  // held by the result itself (not a WeakMap of results): it goes when the result goes
  if (spelling.free || freeTools.size) Object.defineProperty(result, SPELLING, { value: { all: spelling.free, tools: freeTools } satisfies Spelling });
  if (spelling.size) Object.defineProperty(result, SIZE, { value: spelling.size });
  return result;
}

// ---------------------------------------------------------------------------------------
// Input → JsonValue

function toJson(input: unknown, options: ReadToolsOptions, problems: ValueProblem[], spelling: SpellingFound): JsonValue {
  const src = options.source ? `${options.source}: ` : '';
  if (input instanceof Uint8Array) {
    const utf16 = utf16Note(input);
    if (utf16) throw new CompileError([{ code: 'input/invalid-unicode', severity: 'error', path: '', message: `${src}the input is ${utf16}; save it as UTF-8` }]);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(input);
    } catch {
      throw new CompileError([{ code: 'input/invalid-unicode', severity: 'error', path: '', message: `${src}the input is not valid UTF-8` }]);
    }
    return parseText(text, src, spelling);
  }
  if (typeof input === 'string') {
    return parseText(input, src, spelling);
  }
  if (input === undefined) {
    throw new CompileError([{ code: 'input/not-json-value', severity: 'error', path: '', message: 'there is no input (undefined)' }]);
  }
  const found = { bad: false };
  if (isJsonValue(input, found)) {
    if (found.bad) checkValues(input, problems);
    return input;
  }
  // plain objects, arrays and JSON scalars (the usual input) in one pass; anything else the long way
  const plain = plainJsonOf(input, spelling.clean);
  if (plain !== undefined) {
    if (plainSkipped === 0) spelling.plain = input;
    spelling.free = !plainSpelled;
    spelling.size = { values: plainValues, depth: plainDepth };
    return plain;
  }
  // schema-library schemas (zod…) become JSON Schema first; tool objects' functions are dropped
  const json = convertCollect(prepareJsValue(input, problems), '', problems, new Set());
  if (hasBadValue(json)) checkValues(json, problems);
  return json;
}

/**
 * Why JSON text (bytes, or a string decoded as UTF-8) is UTF-16 rather than UTF-8: a UTF-16 byte
 * order mark, or a NUL next to its first character (JSON starts with ASCII); undefined when it is not.
 */
export function utf16Note(input: string | Uint8Array): string | undefined {
  const at = (k: number) => (typeof input === 'string' ? input.charCodeAt(k) : input[k]);
  if (typeof input !== 'string' && at(0) === 0xff && at(1) === 0xfe) return 'UTF-16 (little-endian: it starts with the bytes FF FE)';
  if (typeof input !== 'string' && at(0) === 0xfe && at(1) === 0xff) return 'UTF-16 (big-endian: it starts with the bytes FE FF)';
  // FF FE or FE FF read as UTF-8: two replacement characters, then NULs between the characters
  if (typeof input === 'string' && input.startsWith('\ufffd\ufffd') && (at(2) === 0 || at(3) === 0)) return 'UTF-16 (it starts with a UTF-16 byte order mark)';
  if (input.length >= 2 && at(0) !== 0 && at(1) === 0) return 'UTF-16 (little-endian: a NUL byte after each ASCII character)';
  if (input.length >= 2 && at(0) === 0 && at(1) !== 0) return 'UTF-16 (big-endian: a NUL byte before each ASCII character)';
  return undefined;
}

function parseText(text: string, src: string, spelling: SpellingFound): JsonValue {
  const utf16 = utf16Note(text);
  if (utf16) throw new CompileError([{ code: 'input/invalid-unicode', severity: 'error', path: '', message: `${src}the input is ${utf16}; save it as UTF-8` }]);
  // a UTF-8 byte order mark before the JSON is no part of it (RFC 8259 §8.1 lets a parser ignore it)
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    const { value, elements, values, depth } = parseJsonSpans(text);
    markSpellingFree(text, value, elements, spelling);
    spelling.size = { values, depth };
    return value;
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    const cause = e.message.replace(/ at line \d+ column \d+$/, '');
    throw new CompileError([
      { code: 'input/not-json', severity: 'error', path: '', message: `${src}not JSON: ${plainCause(cause, text, e.offset)} at line ${e.line}, column ${e.column}` },
    ]);
  }
}

/** The parser's cause in plain words. */
function plainCause(cause: string, text: string, offset: number): string {
  if (text.trim() === '') return 'the input is empty';
  if (text.charCodeAt(0) === 0xfeff && offset === 0) return 'the text starts with a byte order mark (BOM)';
  if (cause === 'number out of range') return 'number out of range (beyond ±1.8e308, the largest double)';
  if (cause.startsWith('lone leading surrogate')) return 'invalid Unicode: a \\uD800-\\uDBFF escape without the low surrogate that must follow it (a lone surrogate)';
  if (cause.startsWith('lone trailing surrogate')) return 'invalid Unicode: a \\uDC00-\\uDFFF escape without a high surrogate before it (a lone surrogate)';
  if (cause === 'trailing characters') return 'trailing characters after the JSON value';
  if (cause === 'recursion limit exceeded') return 'the document nests too deeply (more than 100000 levels)';
  if (cause.startsWith('EOF while')) return `unexpected end of input ${cause.slice('EOF '.length)}`;
  if (offset >= text.length) return `unexpected end of input (${cause})`;
  if (cause === 'key must be a string' && text[offset] === '}') return 'a trailing comma before `}`';
  if (cause === 'key must be a string') return 'expected a key in double quotes';
  if (cause === 'expected value' && text[offset] === ']') return 'a trailing comma before `]`';
  return cause;
}

/**
 * True when a value is already a lossless JsonValue (Maps, arrays, JsonNumbers, strings,
 * booleans, null). Checked without recursion; a node reached twice is not accepted (it may be
 * a cycle), so such input goes through fromJs, which tells cycles from sharing.
 */
function isJsonValue(v: unknown, found: { bad: boolean } = { bad: false }): v is JsonValue {
  const seen = new Set<object>();
  const stack: unknown[] = [v];
  while (stack.length) {
    const x = stack.pop();
    if (x === null || typeof x === 'boolean') continue;
    if (typeof x === 'string') {
      if (!found.bad && !isWellFormed(x)) found.bad = true;
      continue;
    }
    if (x instanceof JsonNumber) {
      if (!Number.isFinite(x.value)) found.bad = true;
      continue;
    }
    if (typeof x !== 'object' || (!Array.isArray(x) && !(x instanceof Map))) return false;
    if (seen.has(x)) return false;
    seen.add(x);
    if (Array.isArray(x)) {
      for (let i = 0; i < x.length; i++) {
        if (!(i in x)) return false;
        stack.push(x[i]);
      }
    } else {
      for (const [k, y] of x as Map<unknown, unknown>) {
        if (typeof k !== 'string') return false;
        if (!found.bad && !isWellFormed(k)) found.bad = true;
        stack.push(y);
      }
    }
  }
  return true;
}

/** Why the one-pass conversion gives up (thrown, caught in plainJsonOf). */
const NOT_PLAIN: unique symbol = Symbol('not plain');
/** Deeper than this, the one-pass conversion gives up (the long way tells a cycle from depth). */
const PLAIN_MAX_DEPTH = 2_000;
const OBJECT_PROTO = Object.prototype;
const ARRAY_PROTO = Array.prototype;
const AI_SDK_SCHEMA = Symbol.for('vercel.ai.schema');

/**
 * A JavaScript value made of plain objects, arrays, strings, finite numbers, booleans and null,
 * converted to a JsonValue in one pass (readTools' way for such values; exported for its tests),
 * the elements of a top-level array with no string a control token needs put in `clean`; undefined for anything else (a schema library's schema, a
 * function, a class instance, a Map, `toJSON`, a hole or `undefined` in an array, a bigint, a
 * non-finite number, a lone surrogate, a cycle or very deep nesting, a getter that throws), which
 * takes the long way (prepareJsValue, fromJs, the checks) with its diagnostics. Where both apply
 * they give the same value: `undefined` properties left out, symbol keys skipped, numbers as
 * `JsonNumber.of`, key order as `Object.keys`.
 */
export function plainJsonOf(input: unknown, clean?: Set<object>): JsonValue | undefined {
  // the walk enumerates keys with for-in: an enumerable key on Object.prototype would show in
  // every object, so then the value is converted the slow way (fromJs)
  for (const _ in OBJECT_PROTO) return undefined;
  plainSpelled = false;
  plainSkipped = 0;
  plainClean = clean;
  plainValues = 0;
  plainDepth = 0;
  try {
    return plainValue(input, 0);
  } catch {
    return undefined;
  } finally {
    plainClean = undefined;
  }
}

/** Set by plainJsonOf when a string of the value has a `<` or a key starts with `|` or `/` (isSpellingFree). */
let plainSpelled = false;
/** Counted by plainJsonOf: every value converted, and the deepest nesting of containers. */
let plainValues = 0;
let plainDepth = 0;
/** Where plainJsonOf puts the elements of a top-level array with no such string or key (isToolSpellingFree). */
let plainClean: Set<object> | undefined;

function plainValue(v: unknown, depth: number): JsonValue {
  plainValues++;
  switch (typeof v) {
    case 'string':
      if (!isWellFormed(v)) throw NOT_PLAIN;
      if (!plainSpelled && v.indexOf('<') >= 0) plainSpelled = true;
      return v;
    case 'number':
      if (!Number.isFinite(v)) throw NOT_PLAIN;
      return JsonNumber.of(v);
    case 'boolean':
      return v;
    case 'object':
      break;
    default:
      throw NOT_PLAIN;
  }
  if (v === null) return null;
  if (depth > PLAIN_MAX_DEPTH) throw NOT_PLAIN;
  // a container at depth d is the (d + 1)th level of nesting
  if (depth >= plainDepth) plainDepth = depth + 1;
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto === ARRAY_PROTO) {
    const a = v as Record<string | symbol, unknown> & unknown[];
    // what prepareJsValue would take for a schema library's value or convert through toJSON
    if (a._zod !== undefined || a._def !== undefined || a['~standard'] !== undefined || a[AI_SDK_SCHEMA] !== undefined || a.toJSON !== undefined) throw NOT_PLAIN;
    const out: JsonValue[] = [];
    for (let i = 0; i < a.length; i++) {
      const x = a[i];
      if (x === undefined) throw NOT_PLAIN;
      if (depth > 0) {
        out.push(plainValue(x, depth + 1));
        continue;
      }
      // a top-level element (a tool, usually): remember when nothing in it can spell a token
      const before = plainSpelled;
      plainSpelled = false;
      const y = plainValue(x, 1);
      if (!plainSpelled && typeof y === 'object' && y !== null) plainClean?.add(y);
      plainSpelled ||= before;
      out.push(y);
    }
    return out;
  }
  if (proto !== OBJECT_PROTO && proto !== null) throw NOT_PLAIN;
  const o = v as Record<string | symbol, unknown>;
  if (o[AI_SDK_SCHEMA] !== undefined) throw NOT_PLAIN;
  const out = new Map<string, JsonValue>();
  // keys and values as fromJs reads them (Object.keys order, getters called once each): for-in
  // enumerates the own keys in that order without an array of them (an object whose prototype is
  // Object.prototype or null inherits no enumerable key unless Object.prototype has one: then not plain)
  for (const k in o) {
    if (k === '_zod' || k === '_def' || k === '~standard' || k === 'toJSON' || !isWellFormed(k)) throw NOT_PLAIN;
    const c = k.charCodeAt(0);
    if (!plainSpelled && (c === 124 /* | */ || c === 47 /* / */ || k.indexOf('<') >= 0)) plainSpelled = true;
    const x = o[k];
    if (x !== undefined) out.set(k, plainValue(x, depth + 1));
    else plainSkipped++;
  }
  return out;
}

/** Counted by plainValue: the `undefined` values left out (with none, every object of the input equals the Map made of it). */
let plainSkipped = 0;

/**
 * Note a tool's parameters Map as equal to the caller's object it was read from (plainForm: the
 * pre-pass then walks that object, not a copy), when the Map is the one at the tool's
 * parametersPointer (not rebuilt, as a Gemini declaration's may be) and the object a plain one.
 */
function notePlainParameters(t: ToolDefinition, json: JsonValue, input: unknown): void {
  const m = t.parameters;
  if (!isJsonObject(m) || t.parametersPointer === undefined) return;
  let j: JsonValue | undefined = json;
  let o: unknown = input;
  const tokens = t.parametersPointer.split('/');
  for (let i = 1; i < tokens.length; i++) {
    const token = tokens[i] as string;
    const k = token.indexOf('~') < 0 ? token : token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (isJsonArray(j) && Array.isArray(o)) (j = j[Number(k)]), (o = o[Number(k)]);
    else if (isJsonObject(j) && typeof o === 'object' && o !== null && !Array.isArray(o)) (j = j.get(k)), (o = (o as Record<string, unknown>)[k]);
    else return;
  }
  if (j !== m || typeof o !== 'object' || o === null || Array.isArray(o)) return;
  notePlainForm(m, o as Record<string, unknown>);
}

/**
 * fromJs, collecting every problem: where fromJs fails below `p`, convert the children one
 * by one so that each bad value is reported (and replaced by null).
 */
function convertCollect(v: unknown, p: string, problems: ValueProblem[], ancestors: Set<object>): JsonValue {
  try {
    return fromJs(v, p);
  } catch (e) {
    if (!(e instanceof JsValueError)) throw e;
    if (e.pointer === p || v === null || typeof v !== 'object' || v instanceof JsonNumber) {
      problems.push({ code: 'input/not-json-value', path: e.pointer, message: `not a JSON value: ${e.message}` });
      return null;
    }
    if (ancestors.has(v)) {
      problems.push({ code: 'input/not-json-value', path: p, message: 'not a JSON value: the value refers to itself (a cycle)' });
      return null;
    }
    ancestors.add(v);
    try {
      if (Array.isArray(v)) return v.map((x, i) => (x === undefined ? null : convertCollect(x, `${p}/${i}`, problems, ancestors)));
      if (v instanceof Map) {
        const m = new Map<string, JsonValue>();
        for (const [k, x] of v) {
          if (typeof k !== 'string') problems.push({ code: 'input/not-json-value', path: p, message: 'not a JSON value: a Map key is not a string' });
          else if (x !== undefined) m.set(k, convertCollect(x, `${p}/${escapePointerToken(k)}`, problems, ancestors));
        }
        return m;
      }
      const toJSON = (v as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') return convertCollect(toJSON.call(v), p, problems, ancestors);
      const m = new Map<string, JsonValue>();
      for (const k of Object.keys(v)) {
        const x = (v as Record<string, unknown>)[k];
        if (x !== undefined) m.set(k, convertCollect(x, `${p}/${escapePointerToken(k)}`, problems, ancestors));
      }
      return m;
    } finally {
      ancestors.delete(v);
    }
  }
}


/**
 * Report numbers JSON cannot hold (a bigint beyond the double range) and strings that are not
 * Unicode, with pointers. Called only when a cheaper pass found one: pointers are not free.
 */
function checkValues(root: JsonValue, problems: ValueProblem[]): void {
  const stack: [JsonValue, string][] = [[root, '']];
  while (stack.length) {
    const [v, p] = stack.pop()!;
    if (typeof v === 'string') {
      if (!isWellFormed(v)) problems.push({ code: 'input/invalid-unicode', path: p, message: 'invalid Unicode: the string has a lone surrogate' });
    } else if (v instanceof JsonNumber) {
      if (!Number.isFinite(v.value)) problems.push({ code: 'input/number-out-of-range', path: p, message: `number out of range: ${v.text} is beyond ±1.8e308, the largest double` });
    } else if (isJsonArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${p}/${i}`]);
    } else if (isJsonObject(v)) {
      const entries = [...v].reverse();
      for (const [k, x] of entries) {
        const q = `${p}/${escapePointerToken(k)}`;
        if (!isWellFormed(k)) problems.push({ code: 'input/invalid-unicode', path: q, message: 'invalid Unicode: the key has a lone surrogate' });
        stack.push([x, q]);
      }
    }
  }
}

/** True when a value has a number or string checkValues would report. */
function hasBadValue(root: JsonValue): boolean {
  const stack: JsonValue[] = [root];
  while (stack.length) {
    const v = stack.pop()!;
    if (typeof v === 'string') {
      if (!isWellFormed(v)) return true;
    } else if (v instanceof JsonNumber) {
      if (!Number.isFinite(v.value)) return true;
    } else if (isJsonArray(v)) {
      for (const x of v) stack.push(x);
    } else if (isJsonObject(v)) {
      for (const [k, x] of v) {
        if (!isWellFormed(k)) return true;
        stack.push(x);
      }
    }
  }
  return false;
}

// ---------------------------------------------------------------------------------------
// Tool positions

/** One tool position in the input. */
interface Slot {
  readonly value: JsonValue;
  readonly pointer: string;
  /** The detected format, or undefined when the shape is unknown. */
  readonly format: ToolFormat | undefined;
  /** Why the shape is unknown. */
  readonly reason?: string;
  /** The tool's name when its container holds it (an AI SDK record key), not the tool. */
  readonly name?: string;
}

function collectTop(v: JsonValue, slots: Slot[], diags: Diagnostic[], containers: ContainerKind[]): void {
  if (isJsonArray(v)) v.forEach((x, i) => collectItem(x, `/${i}`, slots, diags, containers));
  else collectItem(v, '', slots, diags, containers);
}

function collectItem(v: JsonValue, p: string, slots: Slot[], diags: Diagnostic[], containers: ContainerKind[]): void {
  const shape = classifyShape(v);
  if (shape.kind === 'tool') {
    slots.push({ value: v, pointer: p, format: shape.format });
    return;
  }
  if (shape.kind === 'unknown') {
    slots.push({ value: v, pointer: p, format: undefined, reason: shape.reason });
    return;
  }
  const o = v as JsonObject;
  containers.push(shape.container);
  switch (shape.container) {
    case 'mcp-list':
      pushAll(diags, validateWrapper(CONTAINER_SCHEMAS['mcp-list'], o, { pointer: p, skip: ['/tools'] }));
      (o.get('tools') as readonly JsonValue[]).forEach((x, i) => collectItem(x, `${p}/tools/${i}`, slots, diags, containers));
      return;
    case 'jsonrpc': {
      if (o.has('error') && !o.has('result')) {
        const err = o.get('error');
        const msg = isJsonObject(err) && typeof err.get('message') === 'string' ? `: ${JSON.stringify(err.get('message'))}` : '';
        diags.push({ code: 'input/unknown-shape', severity: 'error', path: p, message: `a JSON-RPC error response${msg}, not a tools/list result` });
        return;
      }
      pushAll(diags, validateWrapper(CONTAINER_SCHEMAS.jsonrpc, o, { pointer: p, skip: ['/result'] }));
      const result = o.get('result');
      if (isJsonObject(result) && isJsonArray(result.get('tools'))) {
        collectItem(result, `${p}/result`, slots, diags, containers);
      } else {
        const what = result === undefined ? 'no result' : `a result that is ${describeValue(result)}`;
        diags.push({ code: 'input/unknown-shape', severity: 'error', path: result === undefined ? p : `${p}/result`, message: `a JSON-RPC response with ${what}, not a tools/list result {tools:[…]}` });
      }
      return;
    }
    case 'gemini-tool': {
      // the REST API takes the proto's snake_case name too
      const key = o.has('functionDeclarations') ? 'functionDeclarations' : 'function_declarations';
      pushAll(diags, validateWrapper(CONTAINER_SCHEMAS['gemini-tool'], o, { pointer: p, skip: [`/${key}`] }));
      const decls = o.get(key);
      if (!isJsonArray(decls)) {
        diags.push({ code: 'input/unknown-shape', severity: 'error', path: `${p}/${key}`, message: `${key} is ${describeValue(decls as JsonValue)}, not an array of function declarations` });
        return;
      }
      decls.forEach((d, i) => {
        const q = `${p}/${key}/${i}`;
        if (isJsonObject(d)) slots.push({ value: d, pointer: q, format: 'gemini' });
        else slots.push({ value: d, pointer: q, format: undefined, reason: `${describeValue(d)} in ${key}` });
      });
      return;
    }
    case 'openai-functions': {
      pushAll(diags, validateWrapper(CONTAINER_SCHEMAS['openai-functions'], o, { pointer: p, skip: ['/functions'] }));
      (o.get('functions') as readonly JsonValue[]).forEach((d, i) => {
        const q = `${p}/functions/${i}`;
        if (isJsonObject(d)) slots.push({ value: d, pointer: q, format: 'openai-functions' });
        else slots.push({ value: d, pointer: q, format: undefined, reason: `${describeValue(d)} in functions` });
      });
      return;
    }
    case 'ai-sdk-record':
      // {[name]: tool}: the key is the tool's name; a provider tool ({type: "provider-defined", id…}) is not a function tool
      for (const [name, t] of o) {
        const q = `${p}/${escapePointerToken(name)}`;
        if (isAiSdkTool(t)) slots.push({ value: t, pointer: q, format: 'ai-sdk', name });
        else slots.push({ value: t, pointer: q, format: undefined, name, reason: `an AI SDK tool of type ${JSON.stringify(isJsonObject(t) ? t.get('type') : null)}, not a function tool` });
      }
      return;
  }
}

// ---------------------------------------------------------------------------------------
// One tool

/** The tool label for diagnostics: its name, or `#index` when it has no (non-empty) name. */
function slotLabel(slot: Slot, index: number): string {
  if (slot.name !== undefined) return slot.name !== '' ? slot.name : `#${index}`;
  if (slot.format === undefined) {
    const n = isJsonObject(slot.value) ? slot.value.get('name') : undefined;
    return typeof n === 'string' && n !== '' ? n : `#${index}`;
  }
  const { body } = toolLayout(slot.format, slot.value as JsonObject);
  const n = body?.get('name');
  return typeof n === 'string' && n !== '' ? n : `#${index}`;
}

function readSlot(slot: Slot, index: number, diags: Diagnostic[]): ToolDefinition | undefined {
  const tool = slotLabel(slot, index);
  const p = slot.pointer;
  if (slot.format === undefined) {
    diags.push({ code: 'input/unknown-shape', severity: 'error', tool, path: p, message: `not a tool definition: found ${slot.reason}; expected ${ACCEPTED_SHAPES}` });
    return undefined;
  }
  const format = slot.format;
  const wrapper = slot.value as JsonObject;
  const { body, bodyPath, parametersKey } = toolLayout(format, wrapper);
  const at = `${p}${bodyPath}`;

  // (the options and their paths are made only for a wrapper that fails its schema)
  if (!wrapperValid(TOOL_SCHEMAS[format], wrapper)) {
    pushAll(diags, validateWrapper(TOOL_SCHEMAS[format], wrapper, {
        pointer: p,
        tool,
        skip: [`${bodyPath}/name`, ...(body ? [] : [bodyPath])],
        descriptionPath: `${bodyPath}/description`,
        ...(KEEPS_EXTRA.has(format) ? { keptIn: bodyPath } : {}),
      }));
  }
  if (!body) {
    diags.push({
      code: 'input/unknown-shape',
      severity: 'error',
      tool,
      path: at,
      message: `${JSON.stringify(bodyPath.slice(1))} is ${describeValue(wrapper.get(bodyPath.slice(1)) as JsonValue)}, not an object {name, description?, parameters?}`,
    });
    return undefined;
  }

  // an AI SDK record keeps the name as the key of the tool
  const name = slot.name ?? body.get('name');
  if (typeof name !== 'string') {
    diags.push({
      code: 'input/missing-name',
      severity: 'error',
      tool,
      path: `${at}/name`,
      message: name === undefined ? 'the tool has no name' : `the name is ${describeValue(name)}, not a string`,
    });
    return undefined;
  }
  if (name === '') diags.push({ code: 'input/empty-name', severity: 'warning', tool, path: slot.name !== undefined ? at : `${at}/name`, message: 'the name is empty' });

  let parametersPointer = `${at}/${parametersKey}`;
  let parameters = body.get(parametersKey);
  if (format === 'gemini' && body.has('parameters') && parametersKey !== 'parameters') {
    diags.push({
      code: 'input/conflicting-keys',
      severity: 'warning',
      tool,
      path: `${at}/parameters`,
      message: `both parameters and ${parametersKey} are set (the Gemini API accepts only one); ${parametersKey} is used`,
    });
  }
  // the AI SDK's jsonSchema()/zodSchema() wrapper, as JSON shows it: {jsonSchema: {…}}
  if (isJsonObject(parameters) && parameters.size === 1 && isJsonObject(parameters.get('jsonSchema'))) {
    parameters = parameters.get('jsonSchema');
    parametersPointer += '/jsonSchema';
  }
  if (format === 'gemini' && parametersKey === 'parameters' && parameters !== undefined) {
    const r = normalizeGeminiSchema(parameters);
    if (r.changes.length) {
      parameters = r.schema;
      const shown = r.changes.slice(0, 3).map((c) => `${c.from} → ${c.to ?? '(no type)'} at ${parametersPointer}${c.path}`);
      diags.push({
        code: 'input/gemini-types-normalised',
        severity: 'info',
        tool,
        path: parametersPointer,
        message: `Gemini type names made JSON Schema types in ${r.changes.length} place${r.changes.length === 1 ? '' : 's'}: ${shown.join(', ')}${r.changes.length > 3 ? ', …' : ''}`,
      });
    }
  }
  if (parameters !== undefined && parameters !== null) {
    const why = notObjectSchema(parameters);
    if (why) diags.push({ code: 'input/parameters-not-object', severity: 'warning', tool, path: parametersPointer, message: `the parameters are ${why}, not an object schema; rendered as written` });
  }

  const strict = format === 'openai-chat' || format === 'openai-responses' || format === 'anthropic' || format === 'ai-sdk' ? body.get('strict') : undefined;
  const title = format === 'mcp' ? mcpTitle(body) : format === 'ai-sdk' && typeof body.get('title') === 'string' ? (body.get('title') as string) : undefined;
  const extra = KEEPS_EXTRA.has(format) ? extraKeys(body, format) : undefined;
  // the keys in this order, each optional one only when set (assigned, not spread: this runs once a tool)
  const def: { -readonly [K in keyof ToolDefinition]: ToolDefinition[K] } = { name } as ToolDefinition;
  if (body.has('description')) def.description = body.get('description');
  if (parameters !== undefined) def.parameters = parameters;
  if (title !== undefined) def.title = title;
  if (typeof strict === 'boolean') def.strict = strict;
  if (extra) def.extra = extra;
  def.format = format;
  def.pointer = p;
  def.parametersPointer = parametersPointer;
  return def;
}

/**
 * The formats whose tool object a chat template is given as written (transformers passes the
 * OpenAI tool it gets; vLLM keeps a function's extra keys after name, description and parameters):
 * their other keys (`strict`, unknown keys) are kept for the templates that print the tool whole.
 */
const KEEPS_EXTRA: ReadonlySet<ToolFormat> = new Set<ToolFormat>(['openai-chat', 'openai-responses', 'openai-functions', 'bare']);

/** The body's keys other than name, description and parameters (and a Responses tool's `type`), in order; undefined when none. */
function extraKeys(body: JsonObject, format: ToolFormat): JsonObject | undefined {
  let extra: Map<string, JsonValue> | undefined;
  body.forEach((v, k) => {
    if (k === 'name' || k === 'description' || k === 'parameters' || (format === 'openai-responses' && k === 'type')) return;
    (extra ??= new Map()).set(k, v);
  });
  return extra;
}

/** Why a parameters value is not an object schema, or undefined when it is one (or may be). */
function notObjectSchema(v: JsonValue): string | undefined {
  if (!isJsonObject(v)) return describeValue(v);
  const type = v.get('type');
  if (type === undefined || type === 'object') return undefined;
  if (isJsonArray(type) && type.includes('object')) return undefined;
  const hint = typeof type === 'string' && type !== 'object' && type.toLowerCase() === 'object' ? ' (an upper-case Gemini type name: Gemini declarations {functionDeclarations:[…]} are normalised, other shapes are not)' : '';
  return `a schema of type ${typeof type === 'string' ? JSON.stringify(type) : describeValue(type)}${hint}`;
}

/** MCP display title: `title`, else `annotations.title` (the MCP precedence before `name`). */
function mcpTitle(body: JsonObject): string | undefined {
  const t = body.get('title');
  if (typeof t === 'string') return t;
  const a = body.get('annotations');
  const at = isJsonObject(a) ? a.get('title') : undefined;
  return typeof at === 'string' ? at : undefined;
}

/** Two tools with one name: a warning on each later one (real catalogs have them; all are rendered). */
function duplicateNames(tools: readonly ToolDefinition[], slots: readonly Slot[], diags: Diagnostic[]): void {
  const first = new Map<string, ToolDefinition>();
  let indexOf: Map<string, number> | undefined;
  for (const t of tools) {
    const f = first.get(t.name);
    if (!f) {
      first.set(t.name, t);
      continue;
    }
    diags.push({
      code: 'input/duplicate-name',
      severity: 'warning',
      tool: t.name === '' ? `#${(indexOf ??= new Map(slots.map((s, i) => [s.pointer, i]))).get(t.pointer)}` : t.name,
      path: t.pointer,
      message: `another tool is also named ${JSON.stringify(t.name)} (at ${f.pointer || '/'}); both are rendered`,
    });
  }
}

/**
 * The label of the tool a pointer falls in, if any: the slot at the pointer's longest prefix,
 * found by looking each prefix up (not by scanning every slot: 100,000 tools with a problem
 * each must not cost 10^10 comparisons).
 */
function labelAt(slots: readonly Slot[], pointer: string, index: ReadonlyMap<string, number>): string | undefined {
  for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
    const i = index.get(p);
    if (i !== undefined) return slotLabel(slots[i], i);
    if (p === '') return undefined;
  }
}
