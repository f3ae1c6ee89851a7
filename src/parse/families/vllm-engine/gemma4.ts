/**
 * The Gemma 4 grammar of vLLM's parser engine (`vllm/parser/gemma4.py`, `Gemma4Parser`) as
 * `vllm/tool_parsers/gemma4_engine_tool_parser.py` (`gemma4`) runs it, at commit
 * 93e3bc8f30b1e135b88a2ffc7f219e3428d39293:
 *
 *     <|channel>thought\n…<channel|><|tool_call>call:NAME{key:<|"|>text<|"|>,n:42}<tool_call|>
 *
 * - `<|tool_call>` opens a call, `call:` starts the name, `{` ends it, `<tool_call|>` ends the
 *   call (a stray one is swallowed); text after a call is dropped from content (kept only when
 *   no call name was sent)
 * - `<|channel>…<channel|>` is reasoning (a lone `<channel|>` is swallowed); when the text has no
 *   `<|channel>` but has a `<channel|>` anywhere, starts with `thought\n` or is `thought`, a
 *   `<|channel>` is put in front (`_preprocess_feed`, the vocabulary having both tokens)
 * - reasoning that is only a beginning of `thought\n` makes the parser return no delta: content
 *   null
 * - arguments: Gemma's `key:value` list (strings between `<|"|>`, `{…}` objects, `[…]` arrays,
 *   bare words as strings; an unclosed string runs to the end, an unclosed object or array is
 *   read as a partial one), one trailing `}` dropped, then coerced to the schema
 * - no validation of the name: any name is a call
 */
import { PyDict, PythonException, pythonJsonDumps, pyStrip, type PyValue } from '../../xml/python-values.js';
import type { EngineGrammar } from './engine.js';

const CHANNEL_START = '<|channel>';
const CHANNEL_END = '<channel|>';
const DELIM = '<|"|>';
const DL = DELIM.length;
const THOUGHT_PREFIX = 'thought\n';

/**
 * How deep `_parse_gemma4_args` / `_parse_gemma4_array` may recurse before Python's
 * RecursionError (the limit of 1,000 frames less those of the server around it; measured with
 * the real code: an approximation).
 */
export const GEMMA4_MAX_NESTING = 985;

function recursionError(): PythonException {
  return new PythonException('RecursionError', 'maximum recursion depth exceeded');
}

/** `_strip_partial_delim`: a trailing beginning of `<|"|>` cut off. */
function stripPartialDelim(v: string): string {
  for (let k = DL; k >= 1; k--) if (v.endsWith(DELIM.slice(0, k))) return v.slice(0, v.length - k);
  return v;
}

/** From the character after an opening `{` or `[`, where its match ends (past the closer) and whether it closed. */
function scanNested(s: string, i: number, open: string, close: string): { end: number; closed: boolean } {
  const n = s.length;
  let depth = 1;
  while (i < n && depth > 0) {
    if (s.startsWith(DELIM, i)) {
      i += DL;
      const nd = s.indexOf(DELIM, i);
      i = nd === -1 ? n : nd + DL;
      continue;
    }
    if (s[i] === open) depth++;
    else if (s[i] === close) depth--;
    i++;
  }
  return { end: i, closed: depth === 0 };
}

const isArgSep = (c: string) => c === ' ' || c === ',' || c === '\n' || c === '\t';
const isWsNoComma = (c: string) => c === ' ' || c === '\n' || c === '\t';

/** `_parse_gemma4_args(args_str, partial=…)`. */
function parseArgs(s: string, partial: boolean, depth: number): PyDict {
  if (depth > GEMMA4_MAX_NESTING) throw recursionError();
  const result = new PyDict();
  if (!s || !pyStrip(s)) return result;
  const n = s.length;
  let i = 0;
  while (i < n) {
    while (i < n && isArgSep(s[i])) i++;
    if (i >= n) break;
    const keyStart = i;
    while (i < n && s[i] !== ':') i++;
    if (i >= n) break;
    let key = pyStrip(s.slice(keyStart, i));
    if (key.startsWith(DELIM) && key.endsWith(DELIM)) key = key.slice(DL, key.length - DL);
    i++;
    if (i >= n) {
      if (!partial) result.set(key, '');
      break;
    }
    while (i < n && isWsNoComma(s[i])) i++;
    if (i >= n) {
      if (!partial) result.set(key, '');
      break;
    }
    if (s.startsWith(DELIM, i)) {
      i += DL;
      const valStart = i;
      const endPos = s.indexOf(DELIM, i);
      if (endPos === -1) {
        const value = s.slice(valStart);
        result.set(key, partial ? stripPartialDelim(value) : value);
        break;
      }
      result.set(key, s.slice(valStart, endPos));
      i = endPos + DL;
    } else if (s[i] === '{') {
      const objStart = i + 1;
      const { end, closed } = scanNested(s, i + 1, '{', '}');
      i = end;
      result.set(key, closed ? parseArgs(s.slice(objStart, i - 1), false, depth + 1) : parseArgs(s.slice(objStart, i), true, depth + 1));
    } else if (s[i] === '[') {
      const arrStart = i + 1;
      const { end, closed } = scanNested(s, i + 1, '[', ']');
      i = end;
      result.set(key, closed ? parseArray(s.slice(arrStart, i - 1), false, depth + 1) : parseArray(s.slice(arrStart, i), true, depth + 1));
    } else {
      const valStart = i;
      while (i < n && s[i] !== ',' && s[i] !== '}' && s[i] !== ']') i++;
      if (partial && i >= n) break;
      // no progress on malformed input: give up (vLLM logs a warning)
      if (i === valStart) break;
      const rawVal = pyStrip(s.slice(valStart, i));
      if (partial && rawVal.endsWith('.')) break;
      result.set(key, rawVal);
    }
  }
  return result;
}

/** `_parse_gemma4_array(arr_str, partial=…)`. */
function parseArray(s: string, partial: boolean, depth: number): PyValue {
  if (depth > GEMMA4_MAX_NESTING) throw recursionError();
  const items: PyValue[] = [];
  const n = s.length;
  let i = 0;
  while (i < n) {
    while (i < n && isArgSep(s[i])) i++;
    if (i >= n) break;
    if (s.startsWith(DELIM, i)) {
      i += DL;
      const endPos = s.indexOf(DELIM, i);
      if (endPos === -1) {
        items.push(s.slice(i));
        break;
      }
      items.push(s.slice(i, endPos));
      i = endPos + DL;
    } else if (s[i] === '{') {
      const objStart = i + 1;
      const { end, closed } = scanNested(s, i + 1, '{', '}');
      i = end;
      items.push(closed ? parseArgs(s.slice(objStart, i - 1), false, depth + 1) : parseArgs(s.slice(objStart, i), true, depth + 1));
    } else if (s[i] === '[') {
      const subStart = i + 1;
      const { end, closed } = scanNested(s, i + 1, '[', ']');
      i = end;
      items.push(closed ? parseArray(s.slice(subStart, i - 1), false, depth + 1) : parseArray(s.slice(subStart, i), true, depth + 1));
    } else {
      const valStart = i;
      while (i < n && s[i] !== ',' && s[i] !== ']') i++;
      if (partial && i >= n) break;
      if (i === valStart) break;
      const rawVal = pyStrip(s.slice(valStart, i));
      if (partial && rawVal.endsWith('.')) break;
      items.push(rawVal);
    }
  }
  return { t: 'list', items };
}

/** `_gemma4_arg_converter(raw, partial=False)`: strip, drop one trailing `}`, parse, `json.dumps`. */
export function gemma4ArgConverter(raw: string): string {
  let text = pyStrip(raw);
  if (text.endsWith('}')) text = text.slice(0, -1);
  return pythonJsonDumps(parseArgs(text, false, 1));
}

/** `Gemma4Parser._preprocess_feed` on the one feed of the whole text (CONTENT, both reasoning tokens in the vocabulary). */
function gemma4Preprocess(text: string): string {
  if (!text || text.includes(CHANNEL_START)) return text;
  const inject = text.includes(CHANNEL_END) || text.startsWith(THOUGHT_PREFIX) || text === 'thought';
  return inject ? CHANNEL_START + text : text;
}

/** `gemma4_config()` with `Gemma4Parser`'s overrides. */
export const GEMMA4_GRAMMAR: EngineGrammar = {
  name: 'gemma4',
  terminals: {
    THINK_START: CHANNEL_START,
    THINK_END: CHANNEL_END,
    TOOL_START: '<|tool_call>',
    TOOL_END: '<tool_call|>',
    CALL_PREFIX: 'call:',
    OPEN_BRACE: '{',
  },
  transitions: [
    ['CONTENT', 'THINK_START', 'REASONING', ['REASONING_START']],
    ['REASONING', 'THINK_START', 'REASONING', []],
    ['REASONING', 'THINK_END', 'CONTENT', ['REASONING_END']],
    ['REASONING', 'TOOL_START', 'TOOL_PREAMBLE', ['REASONING_END', 'TOOL_CALL_START']],
    ['CONTENT', 'TOOL_START', 'TOOL_PREAMBLE', ['REASONING_END', 'TOOL_CALL_START']],
    ['TOOL_PREAMBLE', 'TOOL_END', 'CONTENT', ['TOOL_CALL_END']],
    ['TOOL_PREAMBLE', 'CALL_PREFIX', 'TOOL_NAME', []],
    ['TOOL_NAME', 'OPEN_BRACE', 'TOOL_ARGS', []],
    ['TOOL_ARGS', 'TOOL_END', 'CONTENT', ['TOOL_CALL_END']],
    ['CONTENT', 'TOOL_END', 'CONTENT', []],
    ['CONTENT', 'THINK_END', 'CONTENT', []],
  ],
  argConverter: gemma4ArgConverter,
  preprocess: gemma4Preprocess,
  // `_events_to_delta`: reasoning that is still only a beginning of "thought\n" holds the whole delta back
  dropsDelta: (reasoning, content, toolDeltas) => reasoning !== null && (reasoning === THOUGHT_PREFIX ? content === null && !toolDeltas : THOUGHT_PREFIX.startsWith(reasoning)),
  callClosers: ['TOOL_END'],
  callCloseText: '<tool_call|>',
};
