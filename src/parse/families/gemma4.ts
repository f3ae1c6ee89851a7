/**
 * Gemma 4 tool calls: `<|tool_call>call:NAME{key:<|"|>text<|"|>,n:1}<tool_call|>`. The template
 * (models/templates/gemma-4.ts, `format_argument` with `escape_keys=False`) writes the arguments'
 * keys bare and sorted, a string between `<|"|>` delimiters (nothing escaped), `true`/`false`, a
 * mapping as `{k:v,…}` (keys bare, sorted), a sequence as `[v,…]`, and anything else with Python's
 * str() (`5`, `-0.25`, `1e-07`, `None`). Reasoning is `<|channel>thought…<channel|>` before the
 * answer (split off by the caller).
 *
 * SGLang `gemma4` (`python/sglang/srt/function_call/gemma4_detector.py`) at {@link SGLANG_COMMIT},
 * non-streaming `detect_and_parse`:
 * - each `<|tool_call>` up to the first `<tool_call|>` after it (a call never closed ends the
 *   search); its inner text must start with `call:`: the name is what lies before the first `{`,
 *   the arguments run to the matching `}` (braces counted outside `<|"|>` strings), or to the end
 *   of the inner text when it never comes (or a string never closes)
 * - the arguments: keys up to `:` (stripped); a value is a `<|"|>` string (an unterminated one
 *   takes the rest), `{…}` (read again as arguments), `[…]` (a list), or bare text up to `,` `}`
 *   `]`, stripped: `true`, `false`, `float()` when it holds a `.`, else `int()`, else the text
 *   itself (`None`, `1e-07` stay strings); a list reads strings, objects, lists and bare values
 *   the same way (a nested list counts brackets only); a repeated key keeps its first place
 * - every call is returned, a tool the request does not name too; arguments `json.dumps(…,
 *   ensure_ascii=False)`; content is the text before the first `<|tool_call>`, as it is; no call
 *   found: the whole text
 * - nesting deeper than Python's recursion limit raises RecursionError out of the parser; a list
 *   holding a stray `]` makes the detector loop for ever (here: MemoryError)
 *
 * The strict reading: the same syntax read as the template writes it: `call:NAME{`, keys bare (or
 * between `<|"|>`), strings between `<|"|>`, `true`/`false`/`None`, JSON numbers, `{…}`, `[…]`;
 * whitespace between tokens is layout. A bare word is read as a string with a warning; a value the
 * grammar cannot read, a string that never closes before a call marker, or text after the arguments
 * drop the call (`parse/invalid-call`, its text stays content); the output ending inside a call drops
 * it (`parse/truncated`), after its arguments (no `<tool_call|>`) returns it marked incomplete.
 * Values are checked against the tool's schema (type, enum) and kept as written.
 */
import { JsonNumber, type JsonValue } from '../../ir/json.js';
import { checkValue, declaredParameters, MAX_VALUE_DEPTH, parameterSchema, type Note } from '../xml/decode.js';
import type { CallDraft, DialectParse, TextNote } from '../xml/draft.js';
import { PyDict, pyFloat, pyInt, PythonException, pythonFloatOf, pythonIntOf, pythonJsonDumps, pyStrip, type PyValue } from '../xml/python-values.js';
import { findTool, type ParseTool } from '../xml/tools.js';
import { isPlausibleFunctionName } from '../xml/vllm-qwen3-coder.js';
import { finder, withStrayCloses } from '../xml/draft.js';
import { SGLANG_COMMIT, type FamilySyntax, type ParserResult, type ServerCall, type ServerParserEntry } from './types.js';

const START = '<|tool_call>';
const END = '<tool_call|>';
const DELIM = '<|"|>';
const CALL = 'call:';

// ---------------------------------------------------------------------------------------
// SGLang

/** Python's recursion limit, less the frames below detect_and_parse (an approximation, as json.loads's). */
const PY_MAX_NESTING = 990;

function recursionCheck(depth: number): void {
  if (depth > PY_MAX_NESTING) throw new PythonException('RecursionError', 'maximum recursion depth exceeded');
}

/** `_parse_gemma4_value`. */
function sgValue(raw: string): PyValue {
  const s = pyStrip(raw);
  if (s === '') return s;
  if (s === 'true') return true;
  if (s === 'false') return false;
  try {
    return s.includes('.') ? pyFloat(pythonFloatOf(s)) : pyInt(pythonIntOf(s));
  } catch (e) {
    if (!(e instanceof PythonException && e.isA('ValueError'))) throw e;
  }
  return s;
}

/** The index after a `<|"|>` string whose opening delimiter ends at `i` (the end of `s` when it never closes). */
function skipString(s: string, i: number): number {
  const d = s.indexOf(DELIM, i);
  return d < 0 ? s.length : d + DELIM.length;
}

/** `_parse_gemma4_array`. */
function sgArray(s: string, depth: number): PyValue {
  recursionCheck(depth);
  const items: PyValue[] = [];
  const n = s.length;
  let i = 0;
  while (i < n) {
    while (i < n && ' ,\n\t'.includes(s[i])) i++;
    if (i >= n) break;
    if (s.startsWith(DELIM, i)) {
      i += DELIM.length;
      const e = s.indexOf(DELIM, i);
      if (e < 0) {
        items.push(s.slice(i));
        break;
      }
      items.push(s.slice(i, e));
      i = e + DELIM.length;
    } else if (s[i] === '{') {
      let d = 1;
      const from = ++i;
      while (i < n && d > 0) {
        if (s.startsWith(DELIM, i)) {
          i = skipString(s, i + DELIM.length);
          continue;
        }
        if (s[i] === '{') d++;
        else if (s[i] === '}') d--;
        i++;
      }
      items.push(sgArgs(s.slice(from, i - 1), depth + 1));
    } else if (s[i] === '[') {
      // brackets only: a `]` inside a string counts
      let d = 1;
      const from = ++i;
      while (i < n && d > 0) {
        if (s[i] === '[') d++;
        else if (s[i] === ']') d--;
        i++;
      }
      items.push(sgArray(s.slice(from, i - 1), depth + 1));
    } else {
      const from = i;
      while (i < n && s[i] !== ',' && s[i] !== ']') i++;
      // a bare `]` is read as an empty value without moving on: the Python loop never ends
      if (i === from) throw new PythonException('MemoryError', '');
      items.push(sgValue(s.slice(from, i)));
    }
  }
  return { t: 'list', items };
}

/** `_parse_gemma4_args`. */
function sgArgs(s: string, depth: number): PyDict {
  recursionCheck(depth);
  const result = new PyDict();
  if (pyStrip(s) === '') return result;
  const n = s.length;
  let i = 0;
  while (i < n) {
    while (i < n && ' ,\n\t'.includes(s[i])) i++;
    if (i >= n) break;
    const keyFrom = i;
    while (i < n && s[i] !== ':') i++;
    if (i >= n) break;
    const key = pyStrip(s.slice(keyFrom, i));
    i++;
    if (i >= n) {
      result.set(key, '');
      break;
    }
    while (i < n && ' \n\t'.includes(s[i])) i++;
    if (i >= n) {
      result.set(key, '');
      break;
    }
    if (s.startsWith(DELIM, i)) {
      i += DELIM.length;
      const e = s.indexOf(DELIM, i);
      if (e < 0) {
        result.set(key, s.slice(i));
        break;
      }
      result.set(key, s.slice(i, e));
      i = e + DELIM.length;
    } else if (s[i] === '{' || s[i] === '[') {
      const open = s[i];
      const close = open === '{' ? '}' : ']';
      let d = 1;
      const from = ++i;
      while (i < n && d > 0) {
        if (s.startsWith(DELIM, i)) {
          i = skipString(s, i + DELIM.length);
          continue;
        }
        if (s[i] === open) d++;
        else if (s[i] === close) d--;
        i++;
      }
      const inner = s.slice(from, i - 1);
      result.set(key, open === '{' ? sgArgs(inner, depth + 1) : sgArray(inner, depth + 1));
    } else {
      const from = i;
      while (i < n && s[i] !== ',' && s[i] !== '}' && s[i] !== ']') i++;
      result.set(key, sgValue(s.slice(from, i)));
    }
  }
  return result;
}

/** `_find_matching_brace`: the index of the `}` closing the object whose `{` came just before `s`, or -1. */
function matchingBrace(s: string): number {
  let d = 1;
  let i = 0;
  const n = s.length;
  while (i < n && d > 0) {
    if (s.startsWith(DELIM, i)) {
      const e = s.indexOf(DELIM, i + DELIM.length);
      if (e < 0) return -1;
      i = e + DELIM.length;
      continue;
    }
    if (s[i] === '{') d++;
    else if (s[i] === '}') d--;
    i++;
  }
  return d === 0 ? i - 1 : -1;
}

/** SGLang `Gemma4Detector.detect_and_parse`. */
function sglangGemma4(text: string, _tools: readonly ParseTool[] | undefined): ParserResult {
  const first = text.indexOf(START);
  if (first < 0) return { content: text, tool_calls: [], tools_called: false, has_tool_call: false };
  // `_extract_tool_calls`
  const matches: [string, string][] = [];
  for (let from = 0; ; ) {
    const s = text.indexOf(START, from);
    if (s < 0) break;
    const e = text.indexOf(END, s);
    if (e < 0) break;
    const inner = text.slice(s + START.length, e);
    if (inner.startsWith(CALL)) {
      const brace = inner.indexOf('{');
      if (brace >= 0) {
        const content = inner.slice(brace + 1);
        const m = matchingBrace(content);
        matches.push([inner.slice(CALL.length, brace), m >= 0 ? content.slice(0, m) : content]);
      }
    }
    from = e + END.length;
  }
  if (matches.length === 0) return { content: text, tool_calls: [], tools_called: false, has_tool_call: true };
  try {
    const calls: ServerCall[] = matches.map(([name, args]) => ({ name, arguments: pythonJsonDumps(sgArgs(args, 0)) }));
    return { content: first > 0 ? text.slice(0, first) : '', tool_calls: calls, tools_called: calls.length > 0, has_tool_call: true };
  } catch (e) {
    if (!(e instanceof PythonException)) throw e;
    // `except (ValueError, IndexError, TypeError, KeyError)`: the whole text; anything else leaves the parser
    if (e.isA('ValueError', 'IndexError', 'TypeError', 'KeyError')) return { content: text, tool_calls: [], tools_called: false, has_tool_call: true };
    return { content: text, tool_calls: [], tools_called: false, has_tool_call: true, exception: e.message };
  }
}

// ---------------------------------------------------------------------------------------
// The strict reading

const LAYOUT = ' \t\n\r';
const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** Why a call could not be read: the output ended inside it, or its text breaks the grammar. */
class Stop {
  constructor(
    readonly kind: 'truncated' | 'invalid',
    readonly at: number,
    readonly message: string,
  ) {}
}

/** Read Gemma 4 calls strictly. */
function readGemmaCalls(text: string, tools: readonly ParseTool[] | undefined): DialectParse {
  const calls: CallDraft[] = [];
  const consumed: [number, number][] = [];
  const textNotes: TextNote[] = [];
  const find = finder(text);
  const n = text.length;
  const note = (at: number, code: string, severity: Note['severity'], message: string, tool?: string) => textNotes.push({ at, note: { code, severity, message }, ...(tool !== undefined ? { tool } : {}) });

  const skipWs = (i: number): number => {
    while (i < n && LAYOUT.includes(text[i])) i++;
    return i;
  };
  /** The first call marker (`<|tool_call>`, `<tool_call|>`) at or after `from`, or -1. */
  const nextMarker = (from: number): number => {
    const a = find(START, from);
    const b = find(END, from);
    return a < 0 ? b : b < 0 ? a : Math.min(a, b);
  };
  const isMarkerAt = (i: number): boolean => text[i] === '<' && (text.startsWith(START, i) || text.startsWith(END, i) || text.startsWith(DELIM, i));
  const endOr = (i: number, what: string): never => {
    throw i >= n ? new Stop('truncated', i, `the output ends inside ${what}`) : new Stop('invalid', i, `${what} is not well-formed at ${JSON.stringify(text.slice(i, i + 20))}`);
  };

  /** A `<|"|>…<|"|>` string whose opening delimiter is at `i`: the text and the index after it. */
  const readString = (i: number): [string, number] => {
    const from = i + DELIM.length;
    const close = find(DELIM, from);
    const marker = nextMarker(from);
    if (close < 0 && marker < 0) throw new Stop('truncated', n, 'the output ends inside a <|"|> string');
    if (close < 0 || (marker >= 0 && marker < close)) throw new Stop('invalid', i, 'a <|"|> string never closes before the next call marker');
    return [text.slice(from, close), close + DELIM.length];
  };

  /** A bare token from `i`: up to `,` `}` `]` `:` `{` `[`, a marker or the end; the token (trimmed) and where it stopped. */
  const readBare = (i: number, stops: string): [string, number] => {
    let j = i;
    while (j < n && !stops.includes(text[j]) && !isMarkerAt(j)) j++;
    return [text.slice(i, j).replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, ''), j];
  };

  /** A value at `i` (whitespace skipped): the value, the index after it; `notes` gathers coercions. */
  const readValue = (i: number, depth: number, notes: Note[]): [JsonValue, number] => {
    i = skipWs(i);
    if (i >= n) throw new Stop('truncated', n, 'the output ends before a value');
    if (text.startsWith(DELIM, i)) return readString(i);
    if (text[i] === '{') return readObject(i, depth + 1, notes);
    if (text[i] === '[') return readArray(i, depth + 1, notes);
    const [token, j] = readBare(i, ',}]:{[');
    if (j >= n) throw new Stop('truncated', n, 'the output ends inside a value');
    if (token === '') return endOr(i, 'a value');
    if (token === 'true' || token === 'false') return [token === 'true', j];
    if (token === 'None') return [null, j];
    if (token === 'null') {
      notes.push({ code: 'parse/coerced', severity: 'info', message: "JSON's null where the template writes None: read as null" });
      return [null, j];
    }
    if (NUMBER.test(token) && Number.isFinite(Number(token))) return [new JsonNumber(token, Number(token)), j];
    notes.push({ code: 'parse/coerced', severity: 'warning', message: `${JSON.stringify(token)} is written without <|"|> delimiters (the template writes every string between them): read as a string` });
    return [token, j];
  };

  /** `{k:v,…}` at `i`: the object (a repeated key: the last value, noted) and the index after `}`. */
  const readObject = (i: number, depth: number, notes: Note[], duplicates?: Set<string>): [Map<string, JsonValue>, number] => {
    if (depth > MAX_VALUE_DEPTH) throw new Stop('invalid', i, `the arguments nest deeper than ${MAX_VALUE_DEPTH} levels`);
    const out = new Map<string, JsonValue>();
    let j = skipWs(i + 1);
    if (text[j] === '}') return [out, j + 1];
    for (;;) {
      let key: string;
      if (text.startsWith(DELIM, j)) [key, j] = readString(j);
      else {
        const [k, stop] = readBare(j, ',}]:{[');
        if (text[stop] !== ':' || k === '') endOr(stop >= n ? n : j, 'a key');
        key = k;
        j = stop;
      }
      j = skipWs(j);
      if (text[j] !== ':') endOr(j, 'a key');
      const [value, after] = readValue(j + 1, depth, notes);
      if (out.has(key)) {
        if (duplicates !== undefined) duplicates.add(key);
        else notes.push({ code: 'parse/duplicate-parameter', severity: 'warning', message: `the key ${JSON.stringify(key)} is given twice in a nested object: the last value is used` });
      }
      out.set(key, value);
      j = skipWs(after);
      if (text[j] === ',') {
        j = skipWs(j + 1);
        continue;
      }
      if (text[j] === '}') return [out, j + 1];
      return endOr(j, 'the arguments');
    }
  };

  /** `[v,…]` at `i`. */
  const readArray = (i: number, depth: number, notes: Note[]): [JsonValue[], number] => {
    if (depth > MAX_VALUE_DEPTH) throw new Stop('invalid', i, `the arguments nest deeper than ${MAX_VALUE_DEPTH} levels`);
    const out: JsonValue[] = [];
    let j = skipWs(i + 1);
    if (text[j] === ']') return [out, j + 1];
    for (;;) {
      const [value, after] = readValue(j, depth, notes);
      out.push(value);
      j = skipWs(after);
      if (text[j] === ',') {
        j++;
        continue;
      }
      if (text[j] === ']') return [out, j + 1];
      return endOr(j, 'an array');
    }
  };

  /** One call at `p`: the draft and where it ends, or none (a note says why). */
  const readCall = (p: number): { draft?: CallDraft; end: number; truncated?: boolean } => {
    const i = p + START.length;
    if (!text.startsWith(CALL, i)) {
      if (n - i < CALL.length && CALL.startsWith(text.slice(i))) {
        note(p, 'parse/truncated', 'error', 'the output ends inside a <|tool_call>: no call (the text stays content)');
        return { end: n, truncated: true };
      }
      note(p, 'parse/invalid-call', 'error', `a <|tool_call> not followed by call:NAME{…}: no call (the text stays content)`);
      return { end: i };
    }
    const [name, brace] = readBare(i + CALL.length, '{}');
    if (brace >= n) {
      note(p, 'parse/truncated', 'error', 'the output ends inside the name of a <|tool_call>: no call (the text stays content)');
      return { end: n, truncated: true };
    }
    if (text[brace] !== '{' || name !== text.slice(i + CALL.length, brace)) {
      note(p, 'parse/invalid-call', 'error', `a <|tool_call> whose name is not followed by {: no call (the text stays content)`);
      return { end: i };
    }
    const tool = findTool(tools, name);
    if (!tool && !isPlausibleFunctionName(name)) {
      note(p, 'parse/invalid-name', 'error', `${JSON.stringify(name)} is not a function name (empty, or holding whitespace, quotes, braces or angle brackets) and no tool has it: no call (the text stays content)`);
      return { end: i };
    }
    const valueNotes: Note[] = [];
    const duplicates = new Set<string>();
    let args: Map<string, JsonValue>;
    let after: number;
    try {
      [args, after] = readObject(brace, 1, valueNotes, duplicates);
    } catch (e) {
      if (!(e instanceof Stop)) throw e;
      if (e.kind === 'truncated') {
        note(p, 'parse/truncated', 'error', `${e.message} of the call to ${JSON.stringify(name)}: no call (the text stays content)`, name);
        return { end: n, truncated: true };
      }
      note(e.at, 'parse/invalid-call', 'error', `the arguments of the call to ${JSON.stringify(name)} cannot be read: ${e.message}; no call (the text stays content)`, name);
      return { end: i };
    }
    const k = skipWs(after);
    let end: number;
    let incomplete: string | undefined;
    const notes: { note: Note; param?: string }[] = valueNotes.map((v) => ({ note: v }));
    if (text.startsWith(END, k)) end = k + END.length;
    else if (k >= n) {
      end = n;
      incomplete = `no ${END}`;
    } else if (text.startsWith(START, k)) {
      end = k;
      notes.push({ note: { code: 'parse/unclosed', severity: 'warning', message: `no ${END} after the call to ${JSON.stringify(name)} (another <|tool_call> follows): its arguments are whole, so it is read` } });
    } else {
      note(k, 'parse/invalid-call', 'error', `text after the arguments of the call to ${JSON.stringify(name)}, before ${END}: ${JSON.stringify(text.slice(k, k + 40))}; no call (the text stays content)`, name);
      return { end: i };
    }
    for (const key of duplicates) notes.push({ param: key, note: { code: 'parse/duplicate-parameter', severity: 'warning', message: `${JSON.stringify(key)} is given twice: the last value is used` } });
    if (tools !== undefined && !tool) notes.push({ note: { code: 'parse/unknown-tool', severity: 'warning', message: `no tool is named ${JSON.stringify(name)}` } });
    const declared = tool ? declaredParameters(tool.parameters) : undefined;
    if (declared) {
      for (const [key, value] of args) {
        if (!declared.has(key)) notes.push({ param: key, note: { code: 'parse/unknown-parameter', severity: 'warning', message: `${JSON.stringify(name)} declares no parameter ${JSON.stringify(key)}` } });
        else for (const x of checkValue(value, parameterSchema(tool!.parameters, key)!)) notes.push({ param: key, note: x });
      }
    }
    return { end, draft: { name, args, start: p, notes, ...(incomplete !== undefined ? { incomplete } : {}) } };
  };

  for (let pos = 0; ; ) {
    const p = find(START, pos);
    if (p < 0) break;
    const r = readCall(p);
    if (r.draft) {
      calls.push(r.draft);
      consumed.push([p, r.end]);
    }
    if (r.truncated) break;
    pos = Math.max(r.end, p + 1);
  }
  return { calls, consumed, textNotes };
}

export const SYNTAXES: readonly FamilySyntax[] = [
  {
    name: 'gemma-4',
    example: '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>,days:3}<tool_call|>',
    openers: [START],
    controls: [START, END, DELIM, '<|tool_response>', '<tool_response|>', '<|channel>', '<channel|>'],
    read: (text, tools) => withStrayCloses(text, readGemmaCalls(text, tools), END, START),
  },
];

export const SERVER_PARSERS: readonly ServerParserEntry[] = [
  { server: 'sglang', name: 'gemma4', file: 'python/sglang/srt/function_call/gemma4_detector.py', commit: SGLANG_COMMIT, parse: sglangGemma4 },
];
