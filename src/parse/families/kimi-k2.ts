/**
 * Kimi K2 tool calls: `<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>{JSON}<|tool_call_end|><|tool_calls_section_end|>`
 * (models/templates/kimi-k2.ts: the id is `functions.` + name + `:` + the call's index in the
 * message, the arguments `tojson`). Kimi K2 Instruct does not reason; Kimi K2 Thinking reasons in
 * `<think>…</think>` before the calls (split off by the caller).
 *
 * SGLang `kimi_k2` (`python/sglang/srt/function_call/kimik2_detector.py`) at {@link SGLANG_COMMIT},
 * non-streaming `detect_and_parse`:
 * - nothing unless the text holds `<|tool_calls_section_begin|>`; then every
 *   `<|tool_call_begin|> ID <|tool_call_argument_begin|> {…} <|tool_call_end|>` anywhere in the text
 *   (Python's `\s*` around the parts), ID `[\w.\-]+:\d+`, the arguments from `{` to the first `}`
 *   that whitespace and `<|tool_call_end|>` follow
 * - the name is the ID without `functions.` and `:IDX`; the arguments are the text as written (never
 *   parsed: invalid JSON comes back as it is); a tool the request does not name is returned too
 * - content: the text before `<|tool_calls_section_begin|>`, as it is (not stripped)
 * - a call the output ends right after (no `<|tool_calls_section_end|>`) is returned (SGLang never
 *   looks for one), marked incomplete here as the strict reading marks it: the output may have been cut there
 *
 * The strict reading: the section's calls, each with its id (`functions.` and `:IDX` missing: read,
 * with a warning) and its arguments as one JSON object (RFC JSON; a JSON string holding an object is
 * decoded, with a warning); invalid JSON drops the call; the output ending inside the arguments drops
 * the call, after them returns it marked incomplete; a call outside a section is read with a warning.
 */
import { type Note } from '../xml/decode.js';
import { type DialectParse, type TextNote, finder, firstOf, trimWs } from '../xml/draft.js';
import { PythonException, pythonIntOf, pyStrip } from '../xml/python-values.js';
import { findTool, type ParseTool } from '../xml/tools.js';
import { isPlausibleFunctionName } from '../xml/vllm-qwen3-coder.js';
import { SGLANG_COMMIT, type FamilySyntax, type ParserResult, type ServerCall, type ServerParserEntry } from './types.js';
import { readJsonArguments, readSections, type CallRead, type SectionSyntax } from './sections.js';
import { pushAll } from '../../ir/arrays.js';


const SECTION_BEGIN = '<|tool_calls_section_begin|>';
const SECTION_END = '<|tool_calls_section_end|>';
const CALL_BEGIN = '<|tool_call_begin|>';
const ARGUMENT_BEGIN = '<|tool_call_argument_begin|>';
const CALL_END = '<|tool_call_end|>';
const CONTROLS = [SECTION_BEGIN, SECTION_END, CALL_BEGIN, ARGUMENT_BEGIN, CALL_END];

// ---------------------------------------------------------------------------------------
// SGLang

/** Python's `\s` (str.isspace) for one character. */
const isPyWs = (c: string | undefined): boolean => c !== undefined && c !== '' && pyStrip(c) === '';
/** Python's `[\w.\-]` (a `\w` is a letter, a number or `_`). */
const ID_CHAR = /^[\p{L}\p{N}_.-]$/u;
const DIGIT = /^\p{Nd}$/u;

function skipPyWs(text: string, i: number): number {
  while (i < text.length && isPyWs(text[i])) i++;
  return i;
}

/** Index after the run of code points matching `re` from `i`. */
function run(text: string, i: number, re: RegExp): number {
  while (i < text.length) {
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    if (!re.test(ch)) break;
    i += ch.length;
  }
  return i;
}

/**
 * `tool_call_regex.findall(text)`: each match's id and arguments. The arguments end at the first `}`
 * after their `{` that whitespace and `<|tool_call_end|>` follow: every `<|tool_call_end|>` names
 * one such `}` (the last non-space character before it), found in order.
 */
function sglangMatches(text: string): [string, string, number][] {
  const ends: { brace: number; end: number }[] = [];
  for (let e = text.indexOf(CALL_END); e >= 0; e = text.indexOf(CALL_END, e + CALL_END.length)) {
    let q = e - 1;
    while (q >= 0 && isPyWs(text[q])) q--;
    if (q >= 0 && text[q] === '}') ends.push({ brace: q, end: e + CALL_END.length });
  }
  let k = 0;
  const out: [string, string, number][] = [];
  let pos = 0;
  for (;;) {
    const p = text.indexOf(CALL_BEGIN, pos);
    if (p < 0) break;
    pos = p + 1;
    const i = skipPyWs(text, p + CALL_BEGIN.length);
    const colon = run(text, i, ID_CHAR);
    if (colon === i || text[colon] !== ':') continue;
    const idEnd = run(text, colon + 1, DIGIT);
    if (idEnd === colon + 1) continue;
    const a = skipPyWs(text, idEnd);
    if (!text.startsWith(ARGUMENT_BEGIN, a)) continue;
    const b = skipPyWs(text, a + ARGUMENT_BEGIN.length);
    if (text[b] !== '{') continue;
    while (k < ends.length && ends[k].brace <= b) k++;
    if (k >= ends.length) continue;
    out.push([text.slice(i, idEnd), text.slice(b, ends[k].brace + 1), ends[k].end]);
    pos = ends[k].end;
  }
  return out;
}

function sglangKimiK2(text: string): ParserResult {
  if (!text.includes(SECTION_BEGIN)) return { content: text, tool_calls: [], tools_called: false, has_tool_call: false };
  try {
    const calls: ServerCall[] = [];
    let lastText = text.length - 1;
    while (lastText >= 0 && ' \t\n\r'.includes(text[lastText])) lastText--;
    for (const [id, args, end] of sglangMatches(text)) {
      // `^(?:functions\.)?(?P<name>[\w.\-]+):(?P<index>\d+)$`: the id always fits it
      const colon = id.lastIndexOf(':');
      const name = id.startsWith('functions.') && colon > 'functions.'.length ? id.slice('functions.'.length, colon) : id.slice(0, colon);
      pythonIntOf(id.slice(colon + 1)); // int(index): a ValueError past 4,300 digits
      // whole as SGLang reads it, but the output ends right after it (no <|tool_calls_section_end|>): it may have been cut there
      calls.push(end > lastText ? { name, arguments: args, incomplete: `no ${SECTION_END}` } : { name, arguments: args });
    }
    return { content: text.slice(0, text.indexOf(SECTION_BEGIN)), tool_calls: calls, tools_called: calls.length > 0, has_tool_call: true };
  } catch (e) {
    if (!(e instanceof PythonException)) throw e;
    return { content: text, tool_calls: [], tools_called: false, has_tool_call: true };
  }
}

// ---------------------------------------------------------------------------------------
// The strict reading



const SECTIONS: SectionSyntax = { open: SECTION_BEGIN, close: SECTION_END, callOpen: CALL_BEGIN, word: 'section', emptyStaysText: true };

function readKimiCalls(text: string, tools: readonly ParseTool[] | undefined): DialectParse {
  const textNotes: TextNote[] = [];
  const nextAt = finder(text);
  const first = (markers: readonly string[], from: number) => firstOf(nextAt, markers, from);
  const n = text.length;
  const note = (at: number, code: string, severity: Note['severity'], message: string, tool?: string) => textNotes.push({ at, note: { code, severity, message }, ...(tool !== undefined ? { tool } : {}) });

  /** The call at `p` (a `<|tool_call_begin|>`). */
  const readCall = (p: number, inSection: boolean): CallRead => {
    const after = p + CALL_BEGIN.length;
    const stop = first([ARGUMENT_BEGIN, CALL_END, CALL_BEGIN, SECTION_END, SECTION_BEGIN], after);
    if (stop === undefined) {
      note(p, 'parse/truncated', 'error', `the output ends inside the id of a ${CALL_BEGIN} call: no call (the text stays content)`);
      return { ok: false, end: n, truncated: true };
    }
    if (stop[1] !== ARGUMENT_BEGIN) {
      note(p, 'parse/invalid-call', 'error', `a ${CALL_BEGIN} without ${ARGUMENT_BEGIN} before ${stop[1]}: no call (the text stays content)`);
      return { ok: false, end: stop[1] === CALL_END ? stop[0] + CALL_END.length : stop[0], truncated: false };
    }
    const notes: { note: Note; param?: string }[] = [];
    // the id: functions.NAME:IDX
    const id = trimWs(text.slice(after, stop[0]));
    let name = id;
    const m = /^(functions\.)?([^]+?)(?::([0-9]+))?$/.exec(id);
    if (m) {
      name = m[2];
      if (m[1] === undefined) notes.push({ note: { code: 'parse/coerced', severity: 'warning', message: `the call id ${JSON.stringify(id)} has no "functions." prefix: read as the name ${JSON.stringify(name)}` } });
      if (m[3] === undefined) notes.push({ note: { code: 'parse/coerced', severity: 'warning', message: `the call id ${JSON.stringify(id)} has no ":index": read as the name ${JSON.stringify(name)}` } });
    }
    const tool = findTool(tools, name);
    if (!tool && !isPlausibleFunctionName(name)) {
      note(p, 'parse/invalid-name', 'error', `${JSON.stringify(name)} is not a function name (empty, or holding whitespace, quotes, braces or angle brackets) and no tool has it: no call (the text stays content)`);
      return { ok: false, end: stop[0] + ARGUMENT_BEGIN.length, truncated: false };
    }
    // the arguments: up to the next control token
    const from = stop[0] + ARGUMENT_BEGIN.length;
    const next = first([CALL_END, CALL_BEGIN, SECTION_END, SECTION_BEGIN, ARGUMENT_BEGIN], from);
    const regionEnd = next === undefined ? n : next[0];
    const json = trimWs(text.slice(from, regionEnd));
    const end = next === undefined ? n : next[1] === CALL_END ? next[0] + CALL_END.length : next[0];
    const truncated = (): CallRead => {
      note(p, 'parse/truncated', 'error', `the output ends inside the arguments of ${JSON.stringify(name)}: no call (the text stays content)`, name);
      return { ok: false, end: n, truncated: true };
    };
    const read = readJsonArguments(json, next === undefined);
    if ('truncated' in read) return truncated();
    if ('invalid' in read) {
      note(p, read.code, 'error', `the arguments of ${JSON.stringify(name)} are ${read.invalid}: no call (the text stays content)`, name);
      return { ok: false, end, truncated: false };
    }
    const args = read.args;
    pushAll(notes, read.notes);
    let incomplete: string | undefined;
    if (next === undefined) incomplete = `no ${CALL_END}`;
    else if (next[1] !== CALL_END) notes.push({ note: { code: 'parse/unclosed', severity: 'warning', message: `no ${CALL_END} after the arguments of ${JSON.stringify(name)} (${next[1]} follows): read` } });
    if (!inSection) notes.push({ note: { code: 'parse/no-wrapper', severity: 'warning', message: `the call to ${JSON.stringify(name)} is not inside ${SECTION_BEGIN}…${SECTION_END}: read as a call all the same` } });
    return { ok: true, end, truncated: false, draft: { name, args, start: p, notes, ...(incomplete !== undefined ? { incomplete } : {}) } };
  };

  return readSections(text, SECTIONS, nextAt, readCall, textNotes);
}

export const SYNTAXES: readonly FamilySyntax[] = [
  {
    name: 'kimi-k2',
    example: '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>',
    openers: [SECTION_BEGIN, CALL_BEGIN],
    controls: CONTROLS,
    read: readKimiCalls,
  },
];

export const SERVER_PARSERS: readonly ServerParserEntry[] = [
  { server: 'sglang', name: 'kimi_k2', file: 'python/sglang/srt/function_call/kimik2_detector.py', commit: SGLANG_COMMIT, parse: (text) => sglangKimiK2(text) },
];
