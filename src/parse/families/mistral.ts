/**
 * Mistral's tool calls, two syntaxes, and the servers' parsers for them.
 *
 * Syntaxes (the templates in src/models/templates/mistral-nemo.ts and ministral-3.ts):
 * - `mistral` (Mistral 7B v0.3, Nemo: tokenizers before v11): one `[TOOL_CALLS]` and a JSON array
 *   of `{"name": …, "arguments": {…}, "id": "…"}` (v0.3 writes a space: `[TOOL_CALLS] [`), then `</s>`;
 * - `mistral-v11` (Ministral 3, Magistral, Devstral, Mistral Small 3.2: tokenizers v11+): each call
 *   `[TOOL_CALLS]NAME[ARGS]{…}` (some with `[CALL_ID]ID` before `[ARGS]`), one after another.
 *   Ministral 3 and Magistral reason in `[THINK]…[/THINK]` first (split off before `read`).
 *
 * vLLM `vllm/tool_parsers/mistral_tool_parser.py` (commit {@link VLLM_COMMIT}), `extract_tool_calls`
 * with an HF tokenizer (not mistral_common): the path is picked by the tokenizer, not the text
 * (`_is_pre_v11_tokeniser`: `[ARGS]` missing from the vocabulary means pre-v11), so
 * {@link vllmMistral} takes it as an option:
 * - no `[TOOL_CALLS]`: no calls, the text as content;
 * - v11: the text split at every `[TOOL_CALLS]`; a piece without `{` is skipped, else the name is
 *   what comes before its first `{` with every `[ARGS]` removed (a `[CALL_ID]…` stays in it) and the
 *   arguments are the rest of the piece verbatim (text after the JSON included, never checked);
 *   `tools_called` is true even when no piece gave a call;
 * - pre-v11: more than one `[TOOL_CALLS]` raises ValueError; the stripped rest goes through
 *   `raw_decode` (trailing text ignored), failing that through `\[{.*}\]` and `json.loads`; failing
 *   both: no calls and the stripped rest as content; every item's `["name"]` and
 *   `json.dumps(.get("arguments", {}), ensure_ascii=False)` (an item that is no object raises);
 * - content: the text before the first `[TOOL_CALLS]`, null when only whitespace.
 *
 * SGLang `python/sglang/srt/function_call/mistral_detector.py` (commit {@link SGLANG_COMMIT}),
 * `detect_and_parse`:
 * - `has_tool_call`: `[TOOL_CALLS` anywhere; the normal text is the stripped text before it;
 * - with `[TOOL_CALLS] [` (a space: v0.3's form) in the rest: the bracket-counted array after it
 *   through `json.loads` (invalid: no calls) and `parse_base_json`; the stripped text after the
 *   array joins the normal text with a space;
 * - else the compact form `[TOOL_CALLS]name[ARGS]{…}` call after call (`]` and whitespace optional
 *   after each marker), each JSON bracket-counted and accepted only when orjson would read it
 *   (no NaN/Infinity, numbers within double range, no lone surrogates); the first that fails ends
 *   the loop and what is left joins the normal text;
 * - `parse_base_json`: only names of the request's tools (others dropped), arguments
 *   `json.dumps(parameters or arguments, ensure_ascii=False)`.
 *
 * Also the pieces apertus.ts and hunyuan-a13b.ts share: Python's `raw_decode`, `str.isspace`,
 * pydantic's string check, and the strict reader of a JSON array of calls after an opener.
 */
import { isJsonObject, isWellFormed, JsonSyntaxError, parseJson, type JsonObject, type JsonValue } from '../../ir/json.js';
import { MAX_VALUE_DEPTH, nestsDeeper, shown, type Note } from '../xml/decode.js';
import { strayCloseTags, type CallDraft, type DialectParse, type TextNote, skipWs } from '../xml/draft.js';
import { jsonContainerEnd } from '../xml/hermes.js';
import { PyDict, PythonException, PythonJsonDecodeError, pyStrip, pyStrRepr, pythonJsonDumps, pythonJsonLoads, pyTypeName, type PyValue } from '../xml/python-values.js';
import { findTool, type ParseTool } from '../xml/tools.js';
import { isPlausibleFunctionName } from '../xml/vllm-qwen3-coder.js';
import { SGLANG_COMMIT, VLLM_COMMIT, type FamilySyntax, type ParserResult, type ServerCall, type ServerParserEntry } from './types.js';
import { pyValueTruthy } from '../../emit/python/json-loads.js';
import { pushAll } from '../../ir/arrays.js';

// ---------------------------------------------------------------------------------------
// Python pieces shared by the families' server parsers

/** Python's `str.isspace()` for one character (what `str.strip()` removes). */
export function pyIsSpace(ch: string): boolean {
  return ch !== '' && pyStrip(ch) === '';
}

const isJsonWs = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/**
 * Python's `json.JSONDecoder().raw_decode(s)`: the JSON value at the start of `s` (no whitespace
 * skipped before it) and the index where it ends; text after it is not read. Raises what
 * `json.loads` raises (JSONDecodeError, RecursionError, ValueError for huge integers).
 */
export function pyRawDecode(s: string): { readonly value: PyValue; readonly end: number } {
  if (s.length === 0 || isJsonWs(s[0]) || s[0] === '\ufeff') throw new PythonJsonDecodeError('Expecting value', 0, 'Expecting value: line 1 column 1 (char 0)');
  let doc = s;
  try {
    return { value: pythonJsonLoads(s), end: endBeforeWs(s, s.length) };
  } catch (e) {
    if (!(e instanceof PythonJsonDecodeError) || e.reason !== 'Extra data') throw e;
    doc = s.slice(0, e.offset);
  }
  return { value: pythonJsonLoads(doc), end: endBeforeWs(s, doc.length) };
}

function endBeforeWs(s: string, end: number): number {
  while (end > 0 && isJsonWs(s[end - 1])) end--;
  return end;
}

/** Python's `repr()` of a value, for pydantic's messages. */
function pyRepr(v: PyValue): string {
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'string') return pyStrRepr(v);
  switch (v.t) {
    case 'int':
      return v.v.toString();
    case 'float':
      return Number.isNaN(v.v) ? 'nan' : v.v === Infinity ? 'inf' : v.v === -Infinity ? '-inf' : pythonJsonDumps(v);
    case 'list':
      return `[${v.items.map(pyRepr).join(', ')}]`;
    case 'dict':
      return `{${[...v.entries()].map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`).join(', ')}}`;
    default:
      return pyTypeName(v);
  }
}

/** The pydantic whose error messages are emulated (its documentation links name the minor version). */
const PYDANTIC_VERSION = '2.13';

/**
 * pydantic-core's `truncate_safe_repr`: a repr of more than 50 UTF-8 bytes shown as its first 25
 * bytes and its last 24 (each cut back to a whole character) with `...` between.
 */
function truncatedRepr(repr: string): string {
  const bytes = Buffer.from(repr, 'utf8');
  if (bytes.length <= 50) return repr;
  const isContinuation = (i: number) => i < bytes.length && (bytes[i] & 0xc0) === 0x80;
  let head = 25;
  while (head > 0 && isContinuation(head)) head--;
  let tail = bytes.length - 24;
  while (isContinuation(tail)) tail++;
  return `${bytes.subarray(0, head).toString('utf8')}...${bytes.subarray(tail).toString('utf8')}`;
}

/** pydantic's check of a `str` field (`FunctionCall(name=…)`): the value, or ValidationError. */
export function pydanticStr(model: string, field: string, v: PyValue): string {
  if (typeof v === 'string') return v;
  const shownValue = truncatedRepr(pyRepr(v));
  throw new PythonException('ValidationError', `1 validation error for ${model}\n${field}\n  Input should be a valid string [type=string_type, input_value=${shownValue}, input_type=${pyTypeName(v)}]\n    For further information visit https://errors.pydantic.dev/${PYDANTIC_VERSION}/v/string_type`);
}

/** Python's `x[key]` with a str key. */
function pySubscript(x: PyValue, key: string): PyValue {
  if (x instanceof PyDict) {
    const v = x.get(key);
    if (v === undefined) throw new PythonException('KeyError', pyStrRepr(key));
    return v;
  }
  if (typeof x === 'string') throw new PythonException('TypeError', "string indices must be integers, not 'str'");
  if (x !== null && typeof x === 'object' && (x.t === 'list' || x.t === 'tuple')) throw new PythonException('TypeError', `${x.t} indices must be integers or slices, not str`);
  throw new PythonException('TypeError', `'${pyTypeName(x)}' object is not subscriptable`);
}

/** Python's `for x in v`. */
function pyIterate(v: PyValue): PyValue[] {
  if (typeof v === 'string') return [...v];
  if (v !== null && typeof v === 'object') {
    if (v.t === 'list' || v.t === 'tuple' || v.t === 'set') return [...v.items];
    if (v instanceof PyDict) return [...v.entries()].map(([k]) => k);
  }
  throw new PythonException('TypeError', `'${pyTypeName(v)}' object is not iterable`);
}

/** What a vLLM parser returns when it raised: the server falls back to the whole text. */
export function vllmRaised(text: string, e: PythonException): ParserResult {
  return { content: text, tool_calls: [], tools_called: false, exception: e.message };
}

// ---------------------------------------------------------------------------------------
// vLLM

const BOT = '[TOOL_CALLS]';

/** Which path vLLM's Mistral parser takes: `v11` when the tokenizer's vocabulary has `[ARGS]`. */
export interface MistralTokenizer {
  readonly v11: boolean;
}

/**
 * The tokenizer a Mistral output most likely came from, when it is not known: v11 unless the text
 * after the first `[TOOL_CALLS]` is a JSON array (the pre-v11 form) and no `[ARGS]` appears.
 */
export function guessMistralTokenizer(text: string): MistralTokenizer {
  if (text.includes('[ARGS]')) return { v11: true };
  const p = text.indexOf(BOT);
  if (p < 0) return { v11: true };
  let i = p + BOT.length;
  while (i < text.length && pyIsSpace(text[i])) i++;
  return { v11: text[i] !== '[' };
}

/** `[{"name": …, "arguments": json.dumps(…)} for tool_call in tool_calls]` of the pre-v11 path. */
function preV11Calls(value: PyValue): { name: PyValue; arguments: string }[] {
  return pyIterate(value).map((tc) => {
    const name = pySubscript(tc, 'name');
    const args = (tc as PyDict).get('arguments');
    return { name, arguments: pythonJsonDumps(args === undefined ? new PyDict() : args) };
  });
}

/** `\[{.*}\]` (DOTALL, greedy): from the first `[{` to the last `}]` after it; undefined when none. */
function bracketedObjects(s: string): string | undefined {
  const p = s.indexOf('[{');
  if (p < 0) return undefined;
  const k = s.lastIndexOf('}]');
  return k >= p + 2 ? s.slice(p, k + 2) : undefined;
}

/** vLLM's Mistral `extract_tool_calls` with a tokenizer of this version. */
export function vllmMistral(text: string, tokenizer: MistralTokenizer): ParserResult {
  if (!text.includes(BOT)) return { content: text, tool_calls: [], tools_called: false };
  const pieces = text.split(BOT);
  const content = pieces[0];
  const raw = pieces.slice(1);
  let calls: ServerCall[];
  try {
    if (tokenizer.v11) {
      calls = [];
      raw.forEach((piece, k) => {
        const brace = piece.indexOf('{');
        if (brace < 0) return;
        const args = piece.slice(brace);
        // the output ended inside the arguments of its last call: returned as it stands, marked
        const cut = k === raw.length - 1 && jsonContainerEnd(args, 0) < 0;
        calls.push({ name: piece.slice(0, brace).replaceAll('[ARGS]', ''), arguments: args, ...(cut ? { incomplete: 'the arguments JSON never closed' } : {}) });
      });
    } else {
      if (raw.length !== 1) throw new PythonException('ValueError', `Only one BOT token should have been outputted, but got ${text}.`);
      const rest = pyStrip(raw[0]);
      let items: { name: PyValue; arguments: string }[];
      try {
        items = preV11Calls(pyRawDecode(rest).value);
      } catch (e) {
        if (!(e instanceof PythonJsonDecodeError)) throw e;
        const found = bracketedObjects(rest);
        if (found === undefined) return { content: rest, tool_calls: [], tools_called: false };
        try {
          items = preV11Calls(pythonJsonLoads(found));
        } catch (e2) {
          if (!(e2 instanceof PythonJsonDecodeError)) throw e2;
          return { content: rest, tool_calls: [], tools_called: false };
        }
      }
      calls = items.map((c) => ({ name: pydanticStr('FunctionCall', 'name', c.name), arguments: c.arguments }));
    }
  } catch (e) {
    if (e instanceof PythonException) return vllmRaised(text, e);
    throw e;
  }
  return { content: pyStrip(content) !== '' ? content : null, tool_calls: calls, tools_called: true };
}

// ---------------------------------------------------------------------------------------
// SGLang

const SG_MARKER = '[TOOL_CALLS';
const SG_BOT = '[TOOL_CALLS] [';
const SG_ARGS = '[ARGS';

/**
 * SGLang's `_is_complete_json` (`orjson.loads` succeeds): JSON that Python reads, without NaN or
 * Infinity, numbers within double range (bigger integers orjson reads as floats), no lone
 * surrogate, nesting within orjson's 1024 levels.
 */
export function orjsonAccepts(s: string): boolean {
  let v: PyValue;
  try {
    v = pythonJsonLoads(s, undefined, { maxDepth: 1024 });
  } catch (e) {
    if (e instanceof PythonException) return false;
    throw e;
  }
  const stack: PyValue[] = [v];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (typeof x === 'string') {
      if (!isWellFormed(x)) return false;
    } else if (x !== null && typeof x === 'object') {
      if (x.t === 'float' && !Number.isFinite(x.v)) return false;
      if (x.t === 'int' && !Number.isFinite(Number(x.v))) return false;
      if (x.t === 'list') pushAll(stack, x.items);
      if (x instanceof PyDict) for (const [k, y] of x.entries()) stack.push(k, y);
    }
  }
  return true;
}

/** SGLang's `_get_tool_indices(tools)` membership and `parse_base_json(action, tools)`. */
export function sglangParseBaseJson(action: PyValue, tools: readonly ParseTool[] | undefined): ServerCall[] {
  const names = new Set((tools ?? []).map((t) => t.name).filter((n) => n !== ''));
  const acts = action !== null && typeof action === 'object' && action.t === 'list' ? action.items : [action];
  const out: ServerCall[] = [];
  for (const act of acts) {
    if (!(act instanceof PyDict)) throw new PythonException('AttributeError', `'${pyTypeName(act)}' object has no attribute 'get'`);
    const name = act.get('name') ?? null;
    if (name !== null && typeof name === 'object' && (name.t === 'list' || name.t === 'dict' || name.t === 'set')) {
      // `name in tool_indices` hashes it first (an empty list or dict is falsy and never gets there)
      if (pyValueTruthy(name)) throw new PythonException('TypeError', `unhashable type: '${name.t}'`);
    }
    if (!(typeof name === 'string' && name !== '' && names.has(name))) continue;
    const params = act.get('parameters');
    const given = act.get('arguments');
    const args = params !== undefined && pyValueTruthy(params) ? params : given !== undefined ? given : new PyDict();
    out.push({ name, arguments: pythonJsonDumps(args) });
  }
  return out;
}


/**
 * SGLang's bracket counting (`_extract_json_array`, `_extract_json_value`): from the opening
 * bracket at `at`, only that bracket kind counted, `"` toggling strings, a backslash skipping the
 * next character (inside strings or not); the index after the matching close, or -1.
 */
function sglangBracketEnd(text: string, at: number): number {
  const open = text[at];
  const close = open === '{' ? '}' : ']';
  let depth = 0;
  let inString = false;
  for (let k = at; k < text.length; k++) {
    const ch = text[k];
    if (ch === '\\') {
      k++;
      continue;
    }
    if (ch === '"') {
      inString = !inString;
      continue;
    }
    if (inString) continue;
    if (ch === open) depth++;
    else if (ch === close && --depth === 0) return k + 1;
  }
  return -1;
}

/** `_try_parse_compact_args_format(text[from:])`, in indexes of `text`: the call and where it ends, or undefined. */
function sglangCompact(text: string, from: number): { name: string; args: PyValue; end: number } | undefined {
  const start = text.indexOf(SG_MARKER, from);
  if (start < 0) return undefined;
  let i = start + SG_MARKER.length;
  if (text[i] === ']') i++;
  while (i < text.length && pyIsSpace(text[i])) i++;
  const argsAt = text.indexOf(SG_ARGS, i);
  if (argsAt < 0) return undefined;
  const name = pyStrip(text.slice(i, argsAt));
  if (name === '') return undefined;
  let j = argsAt + SG_ARGS.length;
  if (text[j] === ']') j++;
  while (j < text.length && pyIsSpace(text[j])) j++;
  if (j >= text.length || (text[j] !== '{' && text[j] !== '[')) return undefined;
  const end = sglangBracketEnd(text, j);
  if (end < 0) return undefined;
  const json = text.slice(j, end);
  if (!orjsonAccepts(json)) return undefined;
  try {
    return { name, args: pythonJsonLoads(json), end };
  } catch (e) {
    if (e instanceof PythonJsonDecodeError) return undefined;
    throw e;
  }
}

/** SGLang's MistralDetector `detect_and_parse` and `has_tool_call`. */
export function sglangMistral(text: string, tools: readonly ParseTool[] | undefined): ParserResult {
  const has = text.includes(SG_MARKER);
  const result = (content: string, calls: ServerCall[]): ParserResult => ({ content, tool_calls: calls, tools_called: calls.length > 0, has_tool_call: has });
  const markerAt = text.indexOf(SG_MARKER);
  if (markerAt < 0) return result(text, []);
  const normal = pyStrip(text.slice(0, markerAt));
  const part = text.slice(markerAt);
  try {
    const botAt = part.indexOf(SG_BOT);
    if (botAt >= 0) {
      const arrayAt = botAt + SG_BOT.length - 1;
      const arrayEnd = sglangBracketEnd(part, arrayAt);
      if (arrayEnd < 0) return result(normal, []);
      const array = part.slice(arrayAt, arrayEnd);
      let calls: ServerCall[] = [];
      try {
        const value = pythonJsonLoads(array);
        calls = sglangParseBaseJson(value !== null && typeof value === 'object' && value.t === 'list' ? value : { t: 'list', items: [value] }, tools);
      } catch (e) {
        if (!(e instanceof PythonJsonDecodeError)) throw e;
      }
      const pos = part.indexOf(array);
      const trailing = pos >= 0 ? pyStrip(part.slice(pos + array.length)) : '';
      return result(trailing !== '' ? pyStrip(`${normal} ${trailing}`) : normal, calls);
    }
    const calls: ServerCall[] = [];
    let at = 0;
    for (;;) {
      const c = sglangCompact(part, at);
      if (c === undefined) break;
      pushAll(calls, sglangParseBaseJson(new PyDictOf([['name', c.name], ['arguments', c.args]]), tools));
      // `remaining = remaining[consumed:].strip()`: leading whitespace skipped (the trailing only matters at the end)
      at = c.end;
      while (at < part.length && pyIsSpace(part[at])) at++;
    }
    if (calls.length === 0) return result(normal, []);
    const remaining = pyStrip(part.slice(at));
    return result(remaining !== '' ? pyStrip(`${normal} ${remaining}`) : normal, calls);
  } catch (e) {
    if (e instanceof PythonException) return { content: text, tool_calls: [], tools_called: false, has_tool_call: has, exception: e.message };
    throw e;
  }
}

/** A PyDict built from entries. */
class PyDictOf extends PyDict {
  constructor(entries: readonly (readonly [string, PyValue])[]) {
    super();
    for (const [k, v] of entries) this.set(k, v);
  }
}

// ---------------------------------------------------------------------------------------
// Strict reading: shared by the JSON-array families (mistral, apertus, hunyuan-a13b)


/** A call read from one element of the array, or why it is not one. */
export type ElementReading = { readonly name: string; readonly args: JsonObject; readonly notes: { readonly note: Note; readonly param?: string }[] } | { readonly error: Note };

/** A syntax of calls as a JSON array of objects after an opener. */
export interface ArrayCallSyntax {
  /** What opens the block (`[TOOL_CALLS]`). */
  readonly open: string;
  /** What closes it after the array (`<|tools_suffix|>`); none for Mistral, whose block ends with the array. */
  readonly close?: string;
  /** An end-of-turn marker taken with the block when it follows it (`</s>`). */
  readonly trailer?: string;
  /** Read one element (a JSON object, parsed). */
  readonly element: (obj: JsonObject, tools: readonly ParseTool[] | undefined) => ElementReading;
  /** When the opener is followed by no array: the other dialect it is written in, if it is one (a message), else undefined. */
  readonly otherDialect?: (text: string, at: number) => string | undefined;
}

const err = (code: string, message: string): Note => ({ code, severity: 'error', message });

/** The keys given twice anywhere in the JSON text (Python's json.loads sees them; the last value is used). */
function duplicateKeys(jsonText: string): Set<string> {
  const duplicates = new Set<string>();
  try {
    pythonJsonLoads(jsonText, (key) => duplicates.add(key));
  } catch (e) {
    if (!(e instanceof PythonException)) throw e;
  }
  return duplicates;
}

/**
 * A call's arguments value as an object: an object as is; a JSON string holding an object
 * (the arguments were written as a string) or null (warning) read; anything else: undefined.
 */
export function argumentsObject(args: JsonValue, notes: { note: Note; param?: string }[]): JsonObject | undefined {
  if (isJsonObject(args)) return args;
  if (args === null) {
    notes.push({ note: { code: 'parse/coerced', severity: 'warning', message: 'the arguments are null: read as {}' } });
    return new Map();
  }
  if (typeof args === 'string') {
    try {
      const inner = parseJson(args);
      if (isJsonObject(inner) && !nestsDeeper(inner)) {
        notes.push({ note: { code: 'parse/coerced', severity: 'warning', message: 'the arguments are a JSON string holding an object: decoded' } });
        return inner;
      }
    } catch (e) {
      if (!(e instanceof JsonSyntaxError)) throw e;
    }
  }
  return undefined;
}

/** A name no tool has and no function could have: the reason to drop the call, else undefined. */
export function badName(name: string, tools: readonly ParseTool[] | undefined): Note | undefined {
  if (findTool(tools, name) || isPlausibleFunctionName(name)) return undefined;
  return err('parse/invalid-name', `${JSON.stringify(name)} is not a function name (empty, or holding whitespace, quotes, braces or angle brackets) and no tool has it: no call (the text stays content)`);
}

/** Read an element written `{"name": …, "arguments": {…}}` (other keys but `extraKeys` noted as ignored). */
export function nameArgumentsElement(extraKeys: readonly string[]): ArrayCallSyntax['element'] {
  return (obj, tools) => {
    const name = obj.get('name');
    if (typeof name !== 'string') return { error: err('parse/invalid-call', name === undefined ? 'the call has no "name": no call' : `the call's "name" is not a string (${shown(name)}): no call`) };
    const bad = badName(name, tools);
    if (bad) return { error: bad };
    const notes: { note: Note; param?: string }[] = [];
    let args: JsonObject | undefined;
    if (!obj.has('arguments')) {
      notes.push({ note: { code: 'parse/coerced', severity: 'warning', message: 'the call has no "arguments": read as {}' } });
      args = new Map();
    } else {
      args = argumentsObject(obj.get('arguments')!, notes);
      if (args === undefined) return { error: err('parse/invalid-call', `"arguments" is not an object (${shown(obj.get('arguments')!)}): no call`) };
    }
    for (const key of obj.keys()) {
      if (key !== 'name' && key !== 'arguments' && !extraKeys.includes(key)) notes.push({ note: { code: 'parse/ignored-key', severity: 'info', message: `the call's ${JSON.stringify(key)} key is not part of the call format: ignored` } });
    }
    return { name, args, notes };
  };
}

interface ArrayScan {
  /** Each element's [start, end). */
  readonly elements: [number, number][];
  /** Index after the closing `]`, when it came. */
  readonly end?: number;
  /** The output ended inside this element (its start). */
  readonly cutAt?: number;
  /** The array is malformed here (no `,` or `]` after an element, an element that is no object). */
  readonly malformedAt?: number;
}

/** Scan the JSON array whose `[` is at `at`, element by element (objects only). */
function scanArray(text: string, at: number): ArrayScan {
  const elements: [number, number][] = [];
  let i = skipWs(text, at + 1);
  if (text[i] === ']') return { elements, end: i + 1 };
  for (;;) {
    if (i >= text.length) return { elements };
    if (text[i] !== '{') return { elements, malformedAt: i };
    const e = jsonContainerEnd(text, i);
    if (e < 0) return { elements, cutAt: i };
    elements.push([i, e]);
    const k = skipWs(text, e);
    if (k >= text.length) return { elements };
    if (text[k] === ']') return { elements, end: k + 1 };
    if (text[k] !== ',') return { elements, malformedAt: k };
    i = skipWs(text, k + 1);
  }
}

/**
 * Read every block `OPEN [ {…}, … ] CLOSE` of the text strictly: each element a call (or dropped
 * with its note, its text left as content); a block the output ended inside gives its whole calls
 * marked incomplete and drops the cut one (`parse/truncated`); a malformed array drops its block;
 * a block without calls consumes nothing. Stray closing markers right after a block are noted and
 * taken out of the content.
 */
export function readArrayCalls(text: string, tools: readonly ParseTool[] | undefined, syntax: ArrayCallSyntax): DialectParse {
  const calls: CallDraft[] = [];
  const consumed: [number, number][] = [];
  const textNotes: TextNote[] = [];
  const note = (at: number, n: Note, tool?: string) => textNotes.push({ at, note: n, ...(tool !== undefined ? { tool } : {}) });
  const { open, close } = syntax;
  const closeText = `]${close !== undefined ? ` and ${close}` : ''}`;
  let pos = 0;
  while (pos < text.length) {
    const p = text.indexOf(open, pos);
    if (p < 0) break;
    const j = skipWs(text, p + open.length);
    if (j >= text.length) {
      note(p, err('parse/truncated', `the output ends right after ${open}: no call`));
      break;
    }
    if (text[j] !== '[') {
      const other = syntax.otherDialect?.(text, j);
      note(p, other !== undefined ? { code: 'parse/wrong-dialect', severity: 'warning', message: other } : err('parse/invalid-call', `${open} is not followed by a JSON array of calls: kept as text`));
      pos = p + open.length;
      continue;
    }
    const scan = scanArray(text, j);
    if (scan.malformedAt !== undefined) {
      note(scan.malformedAt, err('parse/invalid-json', `the array of calls after ${open} is not valid JSON here (${JSON.stringify(text.slice(scan.malformedAt, scan.malformedAt + 20))}): no call from it (the text stays content)`));
      pos = Math.max(scan.malformedAt, p + open.length);
      continue;
    }
    if (scan.end !== undefined && scan.elements.length === 0) {
      note(p, { code: 'parse/empty-tool-call', severity: 'warning', message: `${open} holds an empty array: no call, kept as text` });
      pos = scan.end;
      continue;
    }
    if (scan.end === undefined && scan.cutAt === undefined && scan.elements.length === 0) {
      note(p, err('parse/truncated', `the output ends inside the array of calls after ${open}: no call`));
      break;
    }
    // where the block ends, and what never came
    let blockEnd: number;
    let incomplete: string | undefined;
    if (scan.end !== undefined) {
      blockEnd = scan.end;
      if (close !== undefined) {
        const k = skipWs(text, scan.end);
        if (text.startsWith(close, k)) blockEnd = k + close.length;
        else if (k >= text.length) incomplete = `no ${close}`;
        else note(k, { code: 'parse/unclosed', severity: 'warning', message: `no ${close} after the array of calls (text follows): the calls are read, the text after them is content` });
      }
      if (syntax.trailer !== undefined && incomplete === undefined) {
        const k = skipWs(text, blockEnd);
        if (text.startsWith(syntax.trailer, k)) blockEnd = k + syntax.trailer.length;
      }
    } else {
      blockEnd = scan.cutAt ?? text.length;
      incomplete = `no ${closeText}`;
      if (scan.cutAt !== undefined) note(scan.cutAt, err('parse/truncated', `the output ends inside a call's JSON after ${open}: no call (the text stays content)`));
    }
    const kept: CallDraft[] = [];
    const dropped: [number, number][] = [];
    for (const [s, e] of scan.elements) {
      const jsonText = text.slice(s, e);
      let value: JsonValue;
      try {
        value = parseJson(jsonText);
      } catch (x) {
        if (!(x instanceof JsonSyntaxError)) throw x;
        note(s + x.offset, err('parse/invalid-json', `the call's JSON is not valid: ${x.message} (of the call); no call (the text stays content)`));
        dropped.push([s, e]);
        continue;
      }
      if (nestsDeeper(value)) {
        note(s, err('parse/invalid-json', `the call's JSON nests deeper than ${MAX_VALUE_DEPTH} levels: no call (the text stays content)`));
        dropped.push([s, e]);
        continue;
      }
      const r = syntax.element(value as JsonObject, tools);
      if ('error' in r) {
        note(s, r.error);
        dropped.push([s, e]);
        continue;
      }
      const notes = [...r.notes];
      for (const key of duplicateKeys(jsonText)) notes.push({ ...(r.args.has(key) ? { param: key } : {}), note: { code: 'parse/duplicate-parameter', severity: 'warning', message: `the key ${JSON.stringify(key)} is given twice in the call's JSON: the last value is used` } });
      kept.push({ name: r.name, args: r.args, start: s, notes, ...(incomplete !== undefined ? { incomplete } : {}) });
    }
    if (kept.length > 0) {
      pushAll(calls, kept);
      // the block, less the dropped calls' text
      let from = p;
      for (const [s, e] of dropped) {
        if (s > from) consumed.push([from, s]);
        from = e;
      }
      if (blockEnd > from) consumed.push([from, blockEnd]);
    }
    if (scan.end === undefined) break;
    pos = blockEnd;
  }
  if (close !== undefined && consumed.length > 0) {
    for (const at of strayCloseTags(text, consumed, close)) {
      note(at, { code: 'parse/stray-close-tag', severity: 'warning', message: `a ${close} after the calls closes no block: dropped from the content` });
      consumed.push([at, at + close.length]);
    }
  }
  return { calls, consumed, textNotes };
}

// ---------------------------------------------------------------------------------------
// Mistral syntaxes

const ARGS = '[ARGS]';
const CALL_ID = '[CALL_ID]';
const EOS = '</s>';

/** The control strings of both Mistral syntaxes (SGLang reads the `[TOOL_CALLS` and `[ARGS` prefixes). */
const MISTRAL_CONTROLS = ['[TOOL_CALLS]', '[TOOL_CALLS', '[ARGS]', '[ARGS', '[CALL_ID]', '[THINK]', '[/THINK]', '[TOOL_RESULTS]', '[/TOOL_RESULTS]', '[AVAILABLE_TOOLS]', '[/AVAILABLE_TOOLS]', '[INST]', '[/INST]', '</s>'];

// a v11 call's head: a name (and a call id) and [ARGS]; the classes exclude `[`, so it cannot backtrack
const V11_HEAD = /[^\s[\]{}"]*(?:\[CALL_ID\][^\s[\]{}"]*)?\[ARGS\]/y;

const MISTRAL_SYNTAX: ArrayCallSyntax = {
  open: BOT,
  trailer: EOS,
  element: nameArgumentsElement(['id']),
  otherDialect: (text, at) => {
    V11_HEAD.lastIndex = at;
    return V11_HEAD.test(text) ? 'this [TOOL_CALLS] is followed by NAME[ARGS]{…}, the v11 format: read it with syntax mistral-v11; kept as text here' : undefined;
  },
};

/** Read Mistral's pre-v11 output: `[TOOL_CALLS][{"name": …, "arguments": {…}}, …]`. */
export function readMistral(text: string, tools: readonly ParseTool[] | undefined): DialectParse {
  return readArrayCalls(text, tools, MISTRAL_SYNTAX);
}

/** Read Mistral's v11 output: `[TOOL_CALLS]NAME[ARGS]{…}` (or `NAME[CALL_ID]ID[ARGS]{…}`) per call. */
export function readMistralV11(text: string, tools: readonly ParseTool[] | undefined): DialectParse {
  const calls: CallDraft[] = [];
  const consumed: [number, number][] = [];
  const textNotes: TextNote[] = [];
  const note = (at: number, n: Note, tool?: string) => textNotes.push({ at, note: n, ...(tool !== undefined ? { tool } : {}) });
  let nextArgs = -2; // cached index of the next [ARGS] (-1: none left, -2: not searched yet)
  let pos = 0;
  while (pos < text.length) {
    const p = text.indexOf(BOT, pos);
    if (p < 0) break;
    const from = p + BOT.length;
    const q = text.indexOf(BOT, from);
    const j0 = skipWs(text, from);
    if (text[j0] === '[' && !text.startsWith(ARGS, j0) && !text.startsWith(CALL_ID, j0)) {
      note(p, { code: 'parse/wrong-dialect', severity: 'warning', message: 'this [TOOL_CALLS] is followed by a JSON array, the pre-v11 format: read it with syntax mistral; kept as text here' });
      pos = from;
      continue;
    }
    if (nextArgs !== -1 && nextArgs < from) nextArgs = text.indexOf(ARGS, from);
    const a = nextArgs;
    if (a < 0 || (q >= 0 && a > q)) {
      if (q < 0) {
        note(p, err('parse/truncated', 'the output ends before the call\'s [ARGS]: no call (the text stays content)'));
        break;
      }
      note(p, err('parse/invalid-call', 'no [ARGS] before the next [TOOL_CALLS]: no call (the text stays content)'));
      pos = q;
      continue;
    }
    const head = text.slice(from, a);
    const idAt = head.indexOf(CALL_ID);
    const written = idAt < 0 ? head : head.slice(0, idAt);
    const name = written.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, '');
    const notes: { note: Note; param?: string }[] = [];
    if (name !== written) notes.push({ note: { code: 'parse/coerced', severity: 'info', message: `whitespace around the name ${JSON.stringify(name)} was dropped` } });
    const bad = badName(name, tools);
    if (bad) {
      note(p, bad, name);
      pos = a + ARGS.length;
      continue;
    }
    const j = skipWs(text, a + ARGS.length);
    if (j >= text.length) {
      note(p, err('parse/truncated', `the output ends after the [ARGS] of the call to ${JSON.stringify(name)}: no call (the text stays content)`), name);
      break;
    }
    if (text[j] !== '{') {
      note(j, err('parse/invalid-call', `the arguments of the call to ${JSON.stringify(name)} are not a JSON object: no call (the text stays content)`), name);
      pos = j;
      continue;
    }
    const e = jsonContainerEnd(text, j);
    if (e < 0) {
      note(p, err('parse/truncated', `the output ends inside the arguments of the call to ${JSON.stringify(name)}: no call (the text stays content)`), name);
      break;
    }
    const jsonText = text.slice(j, e);
    let args: JsonValue;
    try {
      args = parseJson(jsonText);
    } catch (x) {
      if (!(x instanceof JsonSyntaxError)) throw x;
      note(j + x.offset, err('parse/invalid-json', `the arguments of the call to ${JSON.stringify(name)} are not valid JSON: ${x.message} (of the arguments); no call (the text stays content)`), name);
      pos = e;
      continue;
    }
    if (nestsDeeper(args)) {
      note(j, err('parse/invalid-json', `the arguments of the call to ${JSON.stringify(name)} nest deeper than ${MAX_VALUE_DEPTH} levels: no call (the text stays content)`), name);
      pos = e;
      continue;
    }
    const obj = args as JsonObject;
    for (const key of duplicateKeys(jsonText)) notes.push({ ...(obj.has(key) ? { param: key } : {}), note: { code: 'parse/duplicate-parameter', severity: 'warning', message: `the key ${JSON.stringify(key)} is given twice in the arguments: the last value is used` } });
    calls.push({ name, args: obj, start: p, notes });
    let end = e;
    const k = skipWs(text, e);
    if (text.startsWith(EOS, k)) end = k + EOS.length;
    consumed.push([p, end]);
    pos = end;
  }
  return { calls, consumed, textNotes };
}

export const SYNTAXES: readonly FamilySyntax[] = [
  {
    name: 'mistral',
    example: '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "a1B2c3D4e"}]',
    openers: [BOT],
    controls: MISTRAL_CONTROLS,
    read: readMistral,
  },
  {
    name: 'mistral-v11',
    example: '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}',
    openers: [BOT],
    controls: MISTRAL_CONTROLS,
    read: readMistralV11,
  },
];

export const SERVER_PARSERS: readonly ServerParserEntry[] = [
  {
    server: 'vllm',
    name: 'mistral',
    file: 'vllm/tool_parsers/mistral_tool_parser.py',
    commit: VLLM_COMMIT,
    // the tokenizer is not known here: guessed from the text (vllmMistral takes it when it is known)
    parse: (text) => vllmMistral(text, guessMistralTokenizer(text)),
  },
  {
    server: 'sglang',
    name: 'mistral',
    file: 'python/sglang/srt/function_call/mistral_detector.py',
    commit: SGLANG_COMMIT,
    parse: sglangMistral,
  },
];
