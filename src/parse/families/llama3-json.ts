/**
 * Llama 3.1 / 3.2 (and 3.3) JSON tool calls: the whole assistant message is one JSON object,
 * `{"name": "get_weather", "parameters": {"city": "Paris"}}` (src/models/templates/llama-3.1.ts and
 * llama-3.2.ts: `{"name": "` + name + `", "parameters": ` + arguments|tojson + `}`, then `<|eot_id|>`,
 * or `<|eom_id|>` in ipython mode), optionally after `<|python_tag|>`; the servers also read
 * `"arguments"` for `"parameters"` and several objects separated by `;`. Llama 3 does not reason.
 *
 * vLLM `vllm/tool_parsers/llama_tool_parser.py` (`llama3_json`, commit {@link VLLM_COMMIT}),
 * `extract_tool_calls`:
 * - nothing unless the text holds `<|python_tag|>` or a `{`; then every `{` of the text, left to
 *   right, through `raw_decode`, skipping a `{` at or before the end of the last object read (so a
 *   `{` right after a `}` is skipped too); the object's `name` and its `arguments` (when the key is
 *   there) else `parameters`, `json.dumps(…, ensure_ascii=False)`;
 * - any failure (a `{` that starts no JSON, a missing key, a name that is no str) gives no calls and
 *   the whole text: one bad brace anywhere spoils every call; calls found: content None (text
 *   around the calls is dropped).
 *
 * SGLang `python/sglang/srt/function_call/llama32_detector.py` (`llama3`, commit
 * {@link SGLANG_COMMIT}), `detect_and_parse`:
 * - `has_tool_call`: `<|python_tag|>` in the text, or the text starts with `{`; else the text as
 *   normal text; the text before the first `<|python_tag|>` is normal text, the rest is read;
 * - from the start of that rest: `raw_decode` (no whitespace skipped); after an object one more
 *   character (the `;` separator, whatever it is) is skipped; when `raw_decode` fails: the text from
 *   there to the first `}` that balances the braces counted from there (strings not minded),
 *   stripped, through `ast.literal_eval` and, when a dict comes out, `json.dumps` and `raw_decode`
 *   (a Python dict literal is read this way); failing that, on to the next `{"name":` after it, or
 *   the end;
 * - `parse_base_json` over every value read (only the request's tools; a value that is no dict
 *   raises AttributeError); normal text: the text before the tag and the stripped rest after the
 *   last value read.
 *
 * The strict reading: a call run starts at the start of the answer or right after
 * `<|python_tag|>`: JSON call objects (`name` and `parameters` or `arguments`) separated by `;` or
 * whitespace, then optionally `<|eot_id|>`/`<|eom_id|>`; a run of calls that begins a line after
 * text and ends the output is read with a warning (no `<|python_tag|>`: the template writes the
 * call as the whole message); a JSON object elsewhere in prose is text. A first object that is no
 * call (no `name`, or neither `parameters` nor `arguments`) is a JSON answer. A cut-off object is
 * dropped (`parse/truncated`), invalid JSON too (`parse/invalid-json`); the format has no closing
 * marker, so a whole object is never incomplete.
 */
import { isJsonObject, JsonSyntaxError, parseJson, type JsonObject, type JsonValue } from '../../ir/json.js';
import { MAX_VALUE_DEPTH, nestsDeeper, shown, type Note } from '../xml/decode.js';
import type { CallDraft, DialectParse, TextNote } from '../xml/draft.js';
import { jsonContainerEnd } from '../xml/hermes.js';
import { pythonLiteralEval } from '../xml/literal-eval.js';
import { PyDict, PythonException, PythonJsonDecodeError, pyStrip, pythonJsonDumps, pythonJsonLoads, type PyValue } from '../xml/python-values.js';
import type { ParseTool } from '../xml/tools.js';
import { argumentsObject, badName, pydanticStr, pyRawDecode, sglangParseBaseJson, type ElementReading } from './mistral.js';
import { SGLANG_COMMIT, VLLM_COMMIT, type FamilySyntax, type ParserResult, type ServerCall, type ServerParserEntry } from './types.js';
import { skipWs } from '../xml/draft.js';
import { pushAll } from '../../ir/arrays.js';

const PYTHON_TAG = '<|python_tag|>';
const EOT = '<|eot_id|>';
const EOM = '<|eom_id|>';
const CONTROLS = [PYTHON_TAG, EOT, EOM, '<|begin_of_text|>', '<|end_of_text|>', '<|start_header_id|>', '<|end_header_id|>'];

// ---------------------------------------------------------------------------------------
// Python pieces

/** Python's `d[key]` for a dict read from JSON: the value, or KeyError. */
function pyGet(d: PyDict, key: string): PyValue {
  const v = d.get(key);
  if (v === undefined) throw new PythonException('KeyError', `'${key}'`);
  return v;
}

/** Index one code point after `i` (Python's `+ 1` on a str index). */
function nextCodePoint(s: string, i: number): number {
  const c = s.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? i + 2 : i + 1;
}

// ---------------------------------------------------------------------------------------
// vLLM

/** vLLM's `Llama3JsonToolParser.extract_tool_calls`. */
export function vllmLlama3Json(text: string): ParserResult {
  const none: ParserResult = { content: text, tool_calls: [], tools_called: false };
  if (!text.includes(PYTHON_TAG) && !text.includes('{')) return none;
  const calls: ServerCall[] = [];
  let endIndex = -1;
  for (let s = text.indexOf('{'); s >= 0; s = text.indexOf('{', Math.max(s + 1, endIndex + 1))) {
    if (s <= endIndex) continue;
    try {
      const { value, end } = pyRawDecode(text.slice(s));
      endIndex = s + end;
      // a value read from a `{` is a dict
      const obj = value as PyDict;
      const name = pyGet(obj, 'name');
      const args = obj.has('arguments') ? obj.get('arguments')! : pyGet(obj, 'parameters');
      calls.push({ name: pydanticStr('FunctionCall', 'name', name), arguments: pythonJsonDumps(args) });
    } catch (e) {
      // KeyError and every other exception: no calls, the whole text
      if (e instanceof PythonException) return none;
      throw e;
    }
  }
  return calls.length > 0 ? { content: null, tool_calls: calls, tools_called: true } : none;
}

// ---------------------------------------------------------------------------------------
// SGLang

/**
 * The brace counting of SGLang's fallback: from `idx`, `{` counts up and `}` down (strings not
 * minded), the index after the first `}` that brings the count back to zero, or `idx` when none
 * does. Answered from one pass over the text (the balance before each `}`), so asking again and
 * again from later places stays linear.
 */
class BraceBalance {
  private readonly before: Int32Array;
  /** For each balance value, the ascending indexes of the `}` after which the balance is that value. */
  private readonly closes = new Map<number, number[]>();
  private readonly cursor = new Map<number, number>();

  constructor(private readonly text: string) {
    this.before = new Int32Array(text.length + 1);
    let b = 0;
    for (let i = 0; i < text.length; i++) {
      this.before[i] = b;
      const c = text[i];
      if (c === '{') b++;
      else if (c === '}') {
        b--;
        let list = this.closes.get(b);
        if (list === undefined) this.closes.set(b, (list = []));
        list.push(i);
      }
    }
    this.before[text.length] = b;
  }

  /** Python's `for i in range(idx, n)` brace loop: `dict_end`. Calls come with `idx` never decreasing. */
  dictEnd(idx: number): number {
    if (idx >= this.text.length) return idx;
    const base = this.before[idx];
    const list = this.closes.get(base);
    if (list === undefined) return idx;
    let k = this.cursor.get(base) ?? 0;
    while (k < list.length && list[k] < idx) k++;
    this.cursor.set(base, k);
    return k < list.length ? list[k] + 1 : idx;
  }
}

/** `_convert_python_dict_to_json(text)`: `json.dumps` of the dict `ast.literal_eval` reads from the stripped text, else the text. */
function pythonDictToJson(text: string): string {
  try {
    const parsed = pythonLiteralEval(pyStrip(text));
    if (parsed instanceof PyDict) return pythonJsonDumps(parsed);
  } catch (e) {
    if (!(e instanceof PythonException)) throw e;
  }
  return text;
}

/** SGLang's `Llama32Detector.detect_and_parse` and `has_tool_call`. */
export function sglangLlama3(text: string, tools: readonly ParseTool[] | undefined): ParserResult {
  const tagAt = text.indexOf(PYTHON_TAG);
  const has = tagAt >= 0 || text.startsWith('{');
  if (!has) return { content: text, tool_calls: [], tools_called: false, has_tool_call: false };
  const normal = tagAt >= 0 ? text.slice(0, tagAt) : '';
  const action = tagAt >= 0 ? text.slice(tagAt + PYTHON_TAG.length) : text;
  try {
    const n = action.length;
    const actions: PyValue[] = [];
    let idx = 0;
    let safe = 0;
    let braces: BraceBalance | undefined;
    while (idx < n) {
      try {
        const { value, end } = pyRawDecode(action.slice(idx));
        actions.push(value);
        // `idx += end + len(";")`: one character more, whatever it is
        idx = idx + end < n ? nextCodePoint(action, idx + end) : idx + end + 1;
        safe = idx;
        continue;
      } catch (e) {
        // only JSONDecodeError is caught: RecursionError and ValueError (huge integers) propagate
        if (!(e instanceof PythonJsonDecodeError)) throw e;
      }
      try {
        braces ??= new BraceBalance(action);
        const dictEnd = braces.dictEnd(idx);
        if (dictEnd > idx) {
          const potential = action.slice(idx, dictEnd);
          const json = pythonDictToJson(potential);
          if (json !== potential) {
            actions.push(pyRawDecode(json).value);
            idx = dictEnd < n ? nextCodePoint(action, dictEnd) : dictEnd + 1;
            safe = idx;
            continue;
          }
        }
      } catch (e) {
        // a bare `except: pass`
        if (!(e instanceof PythonException)) throw e;
      }
      const next = action.indexOf('{"name":', idx + 1);
      if (next < 0) break;
      idx = next;
    }
    const calls = actions.length > 0 ? sglangParseBaseJson({ t: 'list', items: actions }, tools) : [];
    const trailing = safe < n ? pyStrip(action.slice(safe)) : '';
    return { content: normal + trailing, tool_calls: calls, tools_called: calls.length > 0, has_tool_call: true };
  } catch (e) {
    if (e instanceof PythonException) return { content: text, tool_calls: [], tools_called: false, has_tool_call: true, exception: e.message };
    throw e;
  }
}

// ---------------------------------------------------------------------------------------
// Strict reading: shared pieces for the JSON-call families


const err = (code: string, message: string): Note => ({ code, severity: 'error', message });

/** The keys given twice anywhere in the JSON text (Python's json.loads sees them; the last value is used). */
export function duplicateKeys(jsonText: string): Set<string> {
  const duplicates = new Set<string>();
  try {
    pythonJsonLoads(jsonText, (key) => duplicates.add(key));
  } catch (e) {
    if (!(e instanceof PythonException)) throw e;
  }
  return duplicates;
}

/** How a family spells one call as a JSON object. */
export interface CallObjectSpec {
  /** The key of the function's name (`name`, Cohere's `tool_name`). */
  readonly nameKey: string;
  /** The keys the arguments may come under, the template's first; the first present is used. */
  readonly argKeys: readonly string[];
  /** Other keys the format writes (Cohere's `tool_call_id`): not noted. */
  readonly extraKeys?: readonly string[];
  /** A call with none of `argKeys`: read as `{}` with a warning (true), or no call (false). */
  readonly argumentsOptional: boolean;
}

/** Read one call object (already parsed): the call, or why it is none. `jsonText` is its text, for duplicate keys (undefined: the caller notes them). */
export function readCallObject(obj: JsonObject, jsonText: string | undefined, tools: readonly ParseTool[] | undefined, spec: CallObjectSpec): ElementReading {
  const name = obj.get(spec.nameKey);
  if (typeof name !== 'string') return { error: err('parse/invalid-call', name === undefined ? `the call has no ${JSON.stringify(spec.nameKey)}: no call` : `the call's ${JSON.stringify(spec.nameKey)} is not a string (${shown(name)}): no call`) };
  const bad = badName(name, tools);
  if (bad) return { error: bad };
  const notes: { note: Note; param?: string }[] = [];
  const argKey = spec.argKeys.find((k) => obj.has(k));
  let args: JsonObject | undefined;
  if (argKey === undefined) {
    if (!spec.argumentsOptional) return { error: err('parse/invalid-call', `the call has no ${spec.argKeys.map((k) => JSON.stringify(k)).join(' or ')}: no call`) };
    notes.push({ note: { code: 'parse/coerced', severity: 'warning', message: `the call has no ${JSON.stringify(spec.argKeys[0])}: read as {}` } });
    args = new Map();
  } else {
    const value = obj.get(argKey)!;
    args = argumentsObject(value, notes);
    if (args === undefined) return { error: err('parse/invalid-call', `${JSON.stringify(argKey)} is not an object (${shown(value)}): no call`) };
  }
  for (const key of obj.keys()) {
    if (key === spec.nameKey || key === argKey || spec.extraKeys?.includes(key)) continue;
    notes.push({ note: { code: 'parse/ignored-key', severity: 'info', message: `the call's ${JSON.stringify(key)} key is not part of the call format: ignored` } });
  }
  if (jsonText !== undefined) for (const key of duplicateKeys(jsonText)) notes.push({ ...(args.has(key) ? { param: key } : {}), note: { code: 'parse/duplicate-parameter', severity: 'warning', message: `the key ${JSON.stringify(key)} is given twice in the call's JSON: the last value is used` } });
  return { name, args, notes };
}

/** The JSON object at `at` parsed strictly: the object, or the note that drops it. */
export function parseCallJson(text: string, at: number, end: number): { obj: JsonObject } | { error: Note; at: number } {
  let value: JsonValue;
  try {
    value = parseJson(text.slice(at, end));
  } catch (x) {
    if (!(x instanceof JsonSyntaxError)) throw x;
    return { error: err('parse/invalid-json', `the call's JSON is not valid: ${x.message} (of the call); no call (the text stays content)`), at: at + x.offset };
  }
  if (nestsDeeper(value)) return { error: err('parse/invalid-json', `the call's JSON nests deeper than ${MAX_VALUE_DEPTH} levels: no call (the text stays content)`), at };
  if (!isJsonObject(value)) return { error: err('parse/invalid-call', 'the call is not a JSON object: no call'), at };
  return { obj: value };
}

// ---------------------------------------------------------------------------------------
// Llama 3 strict reading

const LLAMA_CALL: CallObjectSpec = { nameKey: 'name', argKeys: ['parameters', 'arguments'], argumentsOptional: false };

/** A JSON object shaped as a Llama call: a `name` and `parameters` or `arguments`. */
function callShaped(obj: JsonObject): boolean {
  return obj.has('name') && (obj.has('parameters') || obj.has('arguments'));
}

/** Where a run of calls starts: the answer's start, after `<|python_tag|>`, or a line after text. */
type RunKind = 'start' | 'tag' | 'line';

interface Run {
  readonly calls: CallDraft[];
  readonly consumed: [number, number][];
  readonly textNotes: TextNote[];
  /** Index after the run (its last object, separators and end-of-turn marker), past `first` in any case. */
  readonly end: number;
  /** Whether the run ends the output (only whitespace after it). */
  readonly reachesEnd: boolean;
  /** The output ended inside an object of the run: nothing after it can be read. */
  readonly cut: boolean;
}

/** `<|eot_id|>` or `<|eom_id|>` at `at` (whitespace before it skipped): the index after it, else -1. */
function endOfTurn(text: string, at: number): number {
  const k = skipWs(text, at);
  if (text.startsWith(EOT, k)) return k + EOT.length;
  if (text.startsWith(EOM, k)) return k + EOM.length;
  return -1;
}

// an object that begins like a call (a Python dict's quotes too): its failures are a call's
const CALL_LIKE = /^\{\s*["']?(?:name|parameters|arguments)["']?\s*:/;

/** Read the run of call objects whose first `{` is at `first`; `from` is where the run's text starts (the tag). */
function readRun(text: string, tools: readonly ParseTool[] | undefined, from: number, first: number, kind: RunKind): Run {
  const calls: CallDraft[] = [];
  const ranges: [number, number][] = [];
  const textNotes: TextNote[] = [];
  // a failure of the first object is a call's only after the tag or when it begins like one
  const firstIsCall = kind === 'tag' || CALL_LIKE.test(text.slice(first, first + 64));
  let spanFrom = from;
  let at = first;
  let last = first + 1; // index after the last object read
  let whole = true;
  let cut = false;
  for (let k = 0; ; k++) {
    const e = jsonContainerEnd(text, at);
    if (e < 0) {
      if (k > 0 || firstIsCall) textNotes.push({ at, note: err('parse/truncated', "the output ends inside a call's JSON object: no call (the text stays content)") });
      // the separator before the cut object belongs to the run
      if (k > 0) last = at;
      whole = false;
      cut = true;
      break;
    }
    const parsed = parseCallJson(text, at, e);
    let dropped = false;
    if (k === 0 && !firstIsCall && ('error' in parsed || !callShaped(parsed.obj))) {
      // a JSON answer (or text in braces), not a call
      last = e;
      whole = false;
      break;
    }
    if ('error' in parsed) {
      textNotes.push({ at: parsed.at, note: parsed.error });
      dropped = true;
    } else {
      const r = readCallObject(parsed.obj, text.slice(at, e), tools, LLAMA_CALL);
      if ('error' in r) {
        textNotes.push({ at, note: r.error, ...(typeof parsed.obj.get('name') === 'string' ? { tool: parsed.obj.get('name') as string } : {}) });
        dropped = true;
      } else {
        const notes = [...r.notes];
        if (kind === 'line' && calls.length === 0) notes.unshift({ note: { code: 'parse/no-wrapper', severity: 'warning', message: 'the call follows text with no <|python_tag|> before it (the template writes a call as the whole message): read, as it ends the output' } });
        calls.push({ name: r.name, args: r.args, start: at, notes });
      }
    }
    if (dropped) {
      if (at > spanFrom) ranges.push([spanFrom, at]);
      spanFrom = e;
    }
    last = e;
    // the next call: after `;` and/or whitespace
    let j = skipWs(text, e);
    if (text[j] === ';') j = skipWs(text, j + 1);
    if (text[j] !== '{') break;
    at = j;
  }
  let end = last;
  if (whole) {
    const t = endOfTurn(text, last);
    if (t >= 0) end = t;
  }
  if (end > spanFrom) ranges.push([spanFrom, end]);
  const reachesEnd = whole && skipWs(text, end) >= text.length;
  return { calls, consumed: calls.length > 0 ? ranges : [], textNotes, end, reachesEnd, cut };
}

/** Read Llama 3.1/3.2 output strictly: `{"name": …, "parameters": {…}}` (after `<|python_tag|>` or not), `;` between calls. */
export function readLlama3Json(text: string, tools: readonly ParseTool[] | undefined): DialectParse {
  const calls: CallDraft[] = [];
  const consumed: [number, number][] = [];
  const textNotes: TextNote[] = [];
  const take = (r: Run) => {
    pushAll(calls, r.calls);
    pushAll(consumed, r.consumed);
    pushAll(textNotes, r.textNotes);
  };
  const done = (): DialectParse => ({ calls, consumed, textNotes });
  let pos = 0;
  const i = skipWs(text, 0);
  if (text[i] === '{') {
    const r = readRun(text, tools, i, i, 'start');
    take(r);
    if (r.cut) return done();
    pos = r.end;
  }
  // every <|python_tag|> after that
  for (let p = text.indexOf(PYTHON_TAG, pos); p >= 0; p = text.indexOf(PYTHON_TAG, pos)) {
    const j = skipWs(text, p + PYTHON_TAG.length);
    if (text[j] === '{') {
      const r = readRun(text, tools, p, j, 'tag');
      take(r);
      if (r.cut) return done();
      pos = r.end;
      continue;
    }
    if (j >= text.length) textNotes.push({ at: p, note: err('parse/truncated', 'the output ends right after <|python_tag|>: no call') });
    else textNotes.push({ at: p, note: { code: 'parse/wrong-dialect', severity: 'warning', message: '<|python_tag|> is followed by no JSON call (a built-in tool call such as brave_search.call(…), or code for the code interpreter, which this reading does not take): kept as text' } });
    pos = p + PYTHON_TAG.length;
  }
  // a run of calls that begins a line after text and ends the output
  for (let p = text.indexOf('\n{', Math.max(pos - 1, 0)); p >= 0; p = text.indexOf('\n{', pos)) {
    const r = readRun(text, tools, p + 1, p + 1, 'line');
    if (r.cut || r.reachesEnd) {
      // a run that ends the output: its calls, or the notes that tell why none came
      take(r);
      break;
    }
    pos = r.end;
  }
  return done();
}

export const SYNTAXES: readonly FamilySyntax[] = [
  {
    name: 'llama3-json',
    example: '{"name": "get_weather", "parameters": {"city": "Paris"}}',
    openers: [],
    controls: CONTROLS,
    read: readLlama3Json,
  },
];

export const SERVER_PARSERS: readonly ServerParserEntry[] = [
  {
    server: 'vllm',
    name: 'llama3_json',
    file: 'vllm/tool_parsers/llama_tool_parser.py',
    commit: VLLM_COMMIT,
    parse: (text) => vllmLlama3Json(text),
  },
  {
    server: 'sglang',
    name: 'llama3',
    file: 'python/sglang/srt/function_call/llama32_detector.py',
    commit: SGLANG_COMMIT,
    parse: sglangLlama3,
  },
];
