/**
 * DeepSeek V3 / R1 and DeepSeek V3.1 tool calls, written with the fullwidth `｜` and `▁` of
 * DeepSeek's special tokens:
 *
 * - `deepseek-v3` (V3-0324, R1): `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\n{…}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
 *   a newline between two calls (the R1 / V3-0324 chat template: the call's type, then the name,
 *   then the arguments in a fenced JSON block);
 * - `deepseek-v3.1`: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`
 *   (models/templates/deepseek-v3.1.ts: the arguments string as given, nothing between calls).
 *
 * DeepSeek reasons in `<think>…</think>` before the answer (split off by the caller).
 *
 * vLLM `deepseek_v3` (`vllm/tool_parsers/deepseekv3_tool_parser.py`) and `deepseek_v31`
 * (`deepseekv31_tool_parser.py`) at {@link VLLM_COMMIT}, `extract_tool_calls`:
 * - nothing unless the text holds `<｜tool▁calls▁begin｜>`; then `tools_called` is true whatever
 *   is found, and the content is the text before it (`""` → None)
 * - the calls are the `regex` module's `findall` anywhere in the text, without DOTALL (no part of
 *   a call may hold a newline but where the format puts one). V3: type and name on the
 *   `<｜tool▁call▁begin｜>` line (the name after its last `<｜tool▁sep｜>`), the next line exactly
 *   ```` ```json ````, the arguments the whole line after it, then a line starting
 *   ```` ```<｜tool▁call▁end｜> ````. V3.1: the name up to the first `<｜tool▁sep｜>`, the arguments up to
 *   the first `<｜tool▁call▁end｜>`, all on one line (so pretty-printed arguments give no call)
 * - name and arguments exactly as written: never parsed, a tool not in the request kept
 * - V3: a type other than `function` fails pydantic's `ToolCall.type` (Literal): the exception is
 *   caught, no calls and the whole text as content
 *
 * SGLang `deepseekv3` (`python/sglang/srt/function_call/deepseekv3_detector.py`) and
 * `deepseekv31` (`deepseekv31_detector.py`) at {@link SGLANG_COMMIT}, `detect_and_parse`:
 * - nothing unless the text holds `<｜tool▁calls▁begin｜>`; `normal_text` the text before it, stripped
 * - each `<｜tool▁call▁begin｜>` up to the first `<｜tool▁call▁end｜>` after it (DOTALL) is a call,
 *   read greedily: the name after the last `<｜tool▁sep｜>` (V3: up to the last ```` \n```json\n ````,
 *   the arguments up to the closing ```` \n``` ````); the arguments go through `json.loads` and back
 *   through `json.dumps(ensure_ascii=False)` (`{}` for a falsy value)
 * - a tool the request does not name is dropped; a call that does not fit the pattern or holds
 *   invalid JSON raises inside the detector's `try`: no calls at all and the whole text as content
 *
 * The strict reading (one reader, the header per syntax): every call in a
 * `<｜tool▁calls▁begin｜>…<｜tool▁calls▁end｜>` section (a call outside one is read with a warning),
 * its arguments one JSON object (RFC JSON; a JSON string holding an object is decoded with a
 * warning). V3: the type `function` (another is read, with a warning), the name up to the end of
 * its line, the arguments inside a ```` ```json ```` fence (a missing fence is read, with a
 * warning). Invalid JSON drops the call; the output ending inside the header or the arguments
 * drops it (truncated), after whole arguments returns it marked incomplete. A stray
 * `<｜tool▁calls▁end｜>` right after a section is dropped from the content with a warning.
 */
import { type Note } from '../xml/decode.js';
import { finder, type DialectParse, type TextNote, JSON_WS, trimWs, lastTextAt, firstOf } from '../xml/draft.js';
import { PythonException, pythonJsonDumps, pythonJsonLoads, pyStrip, type PyValue } from '../xml/python-values.js';
import { findTool, type ParseTool } from '../xml/tools.js';
import { isPlausibleFunctionName } from '../xml/vllm-qwen3-coder.js';
import { SGLANG_COMMIT, VLLM_COMMIT, type FamilySyntax, type ParserResult, type ServerCall, type ServerParserEntry } from './types.js';
import { pyValueTruthy } from '../../emit/python/json-loads.js';
import { readJsonArguments, readSections, type CallRead, type SectionSyntax } from './sections.js';
import { pushAll } from '../../ir/arrays.js';

const SECTION_BEGIN = '<｜tool▁calls▁begin｜>';
const SECTION_END = '<｜tool▁calls▁end｜>';
const CALL_BEGIN = '<｜tool▁call▁begin｜>';
const SEP = '<｜tool▁sep｜>';
const CALL_END = '<｜tool▁call▁end｜>';
/** The V3 fence before the arguments and the one after them, with the newlines the parsers require. */
const FENCE_OPEN = '\n```json\n';
const FENCE_CLOSE = '\n```';
const CONTROLS = [SECTION_BEGIN, SECTION_END, CALL_BEGIN, SEP, CALL_END, '<｜tool▁outputs▁begin｜>', '<｜tool▁output▁begin｜>', '<｜tool▁output▁end｜>', '<｜tool▁outputs▁end｜>', '<｜end▁of▁sentence｜>'];

type Dialect = 'v3' | 'v31';

// ---------------------------------------------------------------------------------------
// vLLM

/** vLLM V3's `findall` (no DOTALL): `[type, name, arguments, end]` of each match, in order. */
function vllmV3Matches(text: string): [string, string, string, number][] {
  const find = finder(text);
  const out: [string, string, string, number][] = [];
  let pos = 0;
  for (;;) {
    const b = find(CALL_BEGIN, pos);
    if (b < 0) break;
    const hs = b + CALL_BEGIN.length;
    // the first line holds type <sep> name: its newline must come, with a separator before it
    const nl = find('\n', hs);
    if (nl < 0) break;
    const s1 = find(SEP, hs);
    if (s1 < 0) break;
    // a match failing at this opener fails at every later opener of the same line: go to the next line
    if (s1 > nl) {
      pos = nl;
      continue;
    }
    const s = text.lastIndexOf(SEP, nl - SEP.length);
    const a = nl + FENCE_OPEN.length;
    const argsEnd = text.startsWith(FENCE_OPEN, nl) ? find('\n', a) : -1;
    if (argsEnd < 0 || !text.startsWith(FENCE_CLOSE + CALL_END, argsEnd)) {
      pos = nl;
      continue;
    }
    pos = argsEnd + FENCE_CLOSE.length + CALL_END.length;
    out.push([text.slice(hs, s), text.slice(s + SEP.length, nl), text.slice(a, argsEnd), pos]);
  }
  return out;
}

/** vLLM V3.1's `findall` (no DOTALL): `[name, arguments, end]` of each match, in order. */
function vllmV31Matches(text: string): [string, string, number][] {
  const find = finder(text);
  const out: [string, string, number][] = [];
  let pos = 0;
  for (;;) {
    const b = find(CALL_BEGIN, pos);
    if (b < 0) break;
    const hs = b + CALL_BEGIN.length;
    const nl = find('\n', hs);
    const lineEnd = nl < 0 ? text.length : nl;
    const s = find(SEP, hs);
    if (s < 0) break;
    const e = s < lineEnd ? find(CALL_END, s + SEP.length) : lineEnd;
    if (e < 0) break;
    if (s > lineEnd || e > lineEnd) {
      // no match from any opener of this line
      if (nl < 0) break;
      pos = nl;
      continue;
    }
    pos = e + CALL_END.length;
    out.push([text.slice(hs, s), text.slice(s + SEP.length, e), pos]);
  }
  return out;
}

/**
 * A call as a server returns it; whole as the server reads it, but when only whitespace follows
 * its `<｜tool▁call▁end｜>` (no `<｜tool▁calls▁end｜>`) the output may have been cut right there.
 */
function serverCall(name: string, args: string, end: number, lastText: number): ServerCall {
  return end > lastText ? { name, arguments: args, incomplete: `no ${SECTION_END}` } : { name, arguments: args };
}

/** The index of the text's last character that is not whitespace (-1: none). */

function vllmDeepseek(text: string, dialect: Dialect): ParserResult {
  const at = text.indexOf(SECTION_BEGIN);
  if (at < 0) return { content: text, tool_calls: [], tools_called: false };
  const last = lastTextAt(text);
  let calls: ServerCall[];
  if (dialect === 'v3') {
    const matches = vllmV3Matches(text);
    // ToolCall(type=…) is Literal["function"]: any other type is a ValidationError, caught
    if (matches.some(([type]) => type !== 'function')) return { content: text, tool_calls: [], tools_called: false };
    calls = matches.map(([, name, args, end]) => serverCall(name, args, end, last));
  } else calls = vllmV31Matches(text).map(([name, args, end]) => serverCall(name, args, end, last));
  const content = text.slice(0, at);
  return { content: content === '' ? null : content, tool_calls: calls, tools_called: true };
}

// ---------------------------------------------------------------------------------------
// SGLang


/** `func_detail_regex` searched in one `<｜tool▁call▁begin｜>…<｜tool▁call▁end｜>` match (DOTALL, greedy): name and arguments, or undefined (None). */
function sglangDetail(m: string, dialect: Dialect): [string, string] | undefined {
  // m starts with CALL_BEGIN and ends with its only CALL_END
  if (dialect === 'v31') {
    const e = m.length - CALL_END.length;
    const s = m.lastIndexOf(SEP, e - SEP.length);
    if (s < CALL_BEGIN.length) return undefined;
    return [m.slice(CALL_BEGIN.length, s), m.slice(s + SEP.length, e)];
  }
  const f = m.length - (FENCE_CLOSE + CALL_END).length;
  if (f < CALL_BEGIN.length || !m.startsWith(FENCE_CLOSE, f)) return undefined;
  const j = f - FENCE_OPEN.length >= 0 ? m.lastIndexOf(FENCE_OPEN, f - FENCE_OPEN.length) : -1;
  if (j < CALL_BEGIN.length) return undefined;
  const s = j - SEP.length >= 0 ? m.lastIndexOf(SEP, j - SEP.length) : -1;
  if (s < CALL_BEGIN.length) return undefined;
  return [m.slice(s + SEP.length, j), m.slice(j + FENCE_OPEN.length, f)];
}

function sglangDeepseek(text: string, tools: readonly ParseTool[] | undefined, dialect: Dialect): ParserResult {
  const at = text.indexOf(SECTION_BEGIN);
  if (at < 0) return { content: text, tool_calls: [], tools_called: false, has_tool_call: false };
  const normal = pyStrip(text.slice(0, at));
  const fallback: ParserResult = { content: text, tool_calls: [], tools_called: false, has_tool_call: true };
  const find = finder(text);
  const last = lastTextAt(text);
  const calls: ServerCall[] = [];
  let pos = 0;
  for (;;) {
    const b = find(CALL_BEGIN, pos);
    if (b < 0) break;
    const e = find(CALL_END, b + CALL_BEGIN.length);
    if (e < 0) break;
    pos = e + CALL_END.length;
    const detail = sglangDetail(text.slice(b, pos), dialect);
    // func_detail.group(…) of None: AttributeError, caught
    if (detail === undefined) return fallback;
    const [name, argsText] = detail;
    let args: PyValue;
    try {
      args = pythonJsonLoads(argsText);
    } catch (e) {
      if (!(e instanceof PythonException)) throw e;
      return fallback;
    }
    // parse_base_json: _get_tool_indices(None) is a TypeError, caught
    if (tools === undefined) return fallback;
    if (name === '' || !tools.some((t) => t.name !== '' && t.name === name)) continue;
    calls.push(serverCall(name, pyValueTruthy(args) ? pythonJsonDumps(args) : '{}', pos, last));
  }
  return { content: normal, tool_calls: calls, tools_called: calls.length > 0, has_tool_call: true };
}

// ---------------------------------------------------------------------------------------
// The strict reading

/** The index after the last character of `s` (before `end`) that is not in `chars`. */
function trimmedEnd(s: string, chars: string, end = s.length): number {
  while (end > 0 && chars.includes(s[end - 1])) end--;
  return end;
}

/** The control tokens that end a call's header or arguments. */
const STOPS = [CALL_END, CALL_BEGIN, SECTION_END, SECTION_BEGIN, SEP];

const SECTIONS: SectionSyntax = { open: SECTION_BEGIN, close: SECTION_END, callOpen: CALL_BEGIN, word: 'section', strayCloses: true };



function readDeepseekCalls(text: string, tools: readonly ParseTool[] | undefined, dialect: Dialect): DialectParse {
  const textNotes: TextNote[] = [];
  const nextAt = finder(text);
  const first = (markers: readonly string[], from: number) => firstOf(nextAt, markers, from);
  const n = text.length;
  const note = (at: number, code: string, severity: Note['severity'], message: string, tool?: string) => textNotes.push({ at, note: { code, severity, message }, ...(tool !== undefined ? { tool } : {}) });
  /** Where a call stopped by `stop` ends: past a `<｜tool▁call▁end｜>`, before any other token. */
  const endAt = (stop: [number, string] | undefined): number => (stop === undefined ? n : stop[1] === CALL_END ? stop[0] + CALL_END.length : stop[0]);

  /** The call at `p` (a `<｜tool▁call▁begin｜>`). */
  const readCall = (p: number, inSection: boolean): CallRead => {
    const after = p + CALL_BEGIN.length;
    const truncated = (what: string, tool?: string): CallRead => {
      note(p, 'parse/truncated', 'error', `the output ends inside ${what}: no call (the text stays content)`, tool);
      return { ok: false, end: n, truncated: true };
    };
    const dropped = (code: string, message: string, end: number, tool?: string): CallRead => {
      note(p, code, 'error', `${message}: no call (the text stays content)`, tool);
      return { ok: false, end, truncated: false };
    };
    const stop = first([SEP, CALL_END, CALL_BEGIN, SECTION_END, SECTION_BEGIN], after);
    if (stop === undefined) return truncated(`the header of a ${CALL_BEGIN} call`);
    if (stop[1] !== SEP) return dropped('parse/invalid-call', `a ${CALL_BEGIN} without ${SEP} before ${stop[1]}`, endAt(stop));
    const header = trimWs(text.slice(after, stop[0]));
    const sepEnd = stop[0] + SEP.length;
    const notes: { note: Note; param?: string }[] = [];
    let name: string;
    let argStart: number;
    /** V3: the arguments are inside a fence that must close. */
    let fenced = false;
    if (dialect === 'v31') {
      name = header;
      argStart = sepEnd;
      if (name === 'function' && !findTool(tools, name) && /^[^\n{]*\n```/.test(text.slice(sepEnd, sepEnd + 200))) {
        return dropped('parse/wrong-dialect', `this call is written in the DeepSeek V3 format (function${SEP}NAME and a \`\`\`json block), not V3.1's NAME${SEP}{…}: kept as text`, endAt(first(STOPS, sepEnd)));
      }
    } else {
      // type <sep> name \n ```json \n arguments \n ```
      const nl = nextAt('\n', sepEnd);
      const ctl = first(STOPS, sepEnd);
      if (nl < 0 && ctl === undefined) return truncated(`the name of a ${CALL_BEGIN} call`);
      if (ctl !== undefined && (nl < 0 || ctl[0] < nl)) {
        if (trimWs(text.slice(sepEnd, ctl[0])).startsWith('{')) {
          return dropped('parse/wrong-dialect', `this call is written in the DeepSeek V3.1 format (NAME${SEP}{…}), not V3's function${SEP}NAME and a \`\`\`json block: kept as text`, endAt(ctl));
        }
        return dropped('parse/invalid-call', `no line break and \`\`\`json block after the name of a ${CALL_BEGIN} call (${ctl[1]} follows)`, endAt(ctl));
      }
      name = trimWs(text.slice(sepEnd, nl));
      if (header !== 'function') notes.push({ note: { code: 'parse/coerced', severity: 'warning', message: `the call's type is ${JSON.stringify(header)}, not "function": read as a function call` } });
      // the opening fence: ``` and a language tag on the next line
      let j = nl + 1;
      if (text.startsWith('```', j) || (j + 3 > n && '```'.startsWith(text.slice(j)))) {
        j += 3;
        const lineEnd = nextAt('\n', Math.min(j, n));
        if (lineEnd < 0) {
          // the output ends on the fence line (a stop token there means no line break came)
          const c = first(STOPS, Math.min(j, n));
          if (c === undefined) return truncated(`the \`\`\`json line of the call to ${JSON.stringify(name)}`, name);
          return dropped('parse/invalid-call', `no line break after the \`\`\`json of the call to ${JSON.stringify(name)}`, endAt(c), name);
        }
        const c = first(STOPS, j);
        if (c !== undefined && c[0] < lineEnd) return dropped('parse/invalid-call', `no line break after the \`\`\`json of the call to ${JSON.stringify(name)} (${c[1]} follows)`, endAt(c), name);
        const lang = trimWs(text.slice(j, lineEnd));
        if (lang !== 'json') notes.push({ note: { code: 'parse/coerced', severity: 'info', message: `the arguments' code block is marked ${JSON.stringify(lang)}, not json: read as JSON` } });
        argStart = lineEnd + 1;
        fenced = true;
      } else {
        argStart = nl + 1;
        notes.push({ note: { code: 'parse/coerced', severity: 'warning', message: `no \`\`\`json block around the arguments of ${JSON.stringify(name)}: read as JSON all the same` } });
      }
    }
    const tool = findTool(tools, name);
    if (!tool && !isPlausibleFunctionName(name)) {
      return dropped('parse/invalid-name', `${JSON.stringify(name)} is not a function name (empty, or holding whitespace, quotes, braces or angle brackets) and no tool has it`, endAt(first([CALL_END, CALL_BEGIN, SECTION_END, SECTION_BEGIN], sepEnd)));
    }
    // the arguments: up to the next control token
    const stopArgs = first(STOPS, Math.min(argStart, n));
    const atEnd = stopArgs === undefined;
    let body = text.slice(Math.min(argStart, n), atEnd ? n : stopArgs[0]);
    let fenceClosed = false;
    if (fenced) {
      // valid JSON never ends in a backtick: the closing fence (cut short when the output ends)
      const t = trimmedEnd(body, JSON_WS);
      const ticks = t - trimmedEnd(body, '`', t);
      if (ticks === 3 || (atEnd && ticks > 0 && ticks < 3)) {
        body = body.slice(0, t - ticks);
        fenceClosed = ticks === 3;
      }
    }
    const read = readJsonArguments(trimWs(body), atEnd);
    if ('truncated' in read) return truncated(`the arguments of ${JSON.stringify(name)}`, name);
    if ('invalid' in read) return dropped(read.code, `the arguments of ${JSON.stringify(name)} are ${read.invalid}`, endAt(stopArgs), name);
    pushAll(notes, read.notes);
    const missing: string[] = [];
    if (fenced && !fenceClosed) missing.push('no ```');
    if (atEnd) missing.push(`no ${CALL_END}`);
    else {
      if (fenced && !fenceClosed) notes.push({ note: { code: 'parse/unclosed', severity: 'warning', message: `no closing \`\`\` after the arguments of ${JSON.stringify(name)}: read` } });
      if (stopArgs[1] !== CALL_END) notes.push({ note: { code: 'parse/unclosed', severity: 'warning', message: `no ${CALL_END} after the arguments of ${JSON.stringify(name)} (${stopArgs[1]} follows): read` } });
    }
    if (!inSection) notes.push({ note: { code: 'parse/no-wrapper', severity: 'warning', message: `the call to ${JSON.stringify(name)} is not inside ${SECTION_BEGIN}…${SECTION_END}: read as a call all the same` } });
    const incomplete = atEnd ? missing.join(', ') : undefined;
    return { ok: true, end: endAt(stopArgs), truncated: false, draft: { name, args: read.args, start: p, notes, ...(incomplete !== undefined ? { incomplete } : {}) } };
  };

  return readSections(text, SECTIONS, nextAt, readCall, textNotes);
}

export const SYNTAXES: readonly FamilySyntax[] = [
  {
    name: 'deepseek-v3',
    example: '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\\n```json\\n{"city": "Paris"}\\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    openers: [SECTION_BEGIN, CALL_BEGIN],
    controls: CONTROLS,
    read: (text, tools) => readDeepseekCalls(text, tools, 'v3'),
  },
  {
    name: 'deepseek-v3.1',
    example: '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    openers: [SECTION_BEGIN, CALL_BEGIN],
    controls: CONTROLS,
    read: (text, tools) => readDeepseekCalls(text, tools, 'v31'),
  },
];

export const SERVER_PARSERS: readonly ServerParserEntry[] = [
  { server: 'vllm', name: 'deepseek_v3', file: 'vllm/tool_parsers/deepseekv3_tool_parser.py', commit: VLLM_COMMIT, parse: (text) => vllmDeepseek(text, 'v3') },
  { server: 'vllm', name: 'deepseek_v31', file: 'vllm/tool_parsers/deepseekv31_tool_parser.py', commit: VLLM_COMMIT, parse: (text) => vllmDeepseek(text, 'v31') },
  { server: 'sglang', name: 'deepseekv3', file: 'python/sglang/srt/function_call/deepseekv3_detector.py', commit: SGLANG_COMMIT, parse: (text, tools) => sglangDeepseek(text, tools, 'v3') },
  { server: 'sglang', name: 'deepseekv31', file: 'python/sglang/srt/function_call/deepseekv31_detector.py', commit: SGLANG_COMMIT, parse: (text, tools) => sglangDeepseek(text, tools, 'v31') },
];
