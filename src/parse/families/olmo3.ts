/**
 * OLMo 3 (AllenAI) tool calls: one pythonic call per line inside a block,
 * `<function_calls>get_weather(city="Paris")\nget_time(zone="CET")</function_calls>`, values as
 * Python literals or JSON's `null`/`true`/`false`; read with Python's grammar (./pythonic.ts).
 *
 * - vLLM `olmo3` (`vllm/tool_parsers/olmo3_tool_parser.py` @ 93e3bc8f): the body of the first
 *   `<function_calls>…</function_calls>` (non-greedy; without one, the whole output), stripped,
 *   its non-blank lines stripped and joined with `, ` inside `[…]`; that must match the pythonic
 *   `TOOL_CALL_REGEX` and parse as a list of calls (`utils.handle_single_tool`: constants, lists,
 *   dicts with constant keys, null/true/false; `-0.25` is a UnaryOp and fails it). A call spread
 *   over lines breaks. Content is null whenever calls come back (text around the block is
 *   dropped); any failure returns the whole output as content.
 * - `olmo3` (strict): every `<function_calls>` block, each logical line of it one call (Python's
 *   tokenizer: a call may span lines inside its brackets), `null`/`true`/`false` read as JSON;
 *   a line that is not Python ends the block's calls there (its text stays content); a block the
 *   output ends in returns its whole calls marked incomplete and drops a cut one; a stray
 *   `</function_calls>` is dropped from the content with a warning.
 */
import type { CallDraft, DialectParse, TextNote } from '../xml/draft.js';
import { pyStrip } from '../xml/python-values.js';
import type { ParseTool } from '../xml/tools.js';
import { droppedNotes, readCallLines, regionMinus, strayTokens, forwardFinder, vllmPythonicCalls, vllmToolCallRegexMatches } from './pythonic.js';
import { VLLM_COMMIT, type FamilySyntax, type ParserResult, type ServerParserEntry } from './types.js';
import { pushAll } from '../../ir/arrays.js';

const START = '<function_calls>';
const END = '</function_calls>';

/** Python's `str.splitlines()` (no keepends). */
function pySplitlines(s: string): string[] {
  if (s === '') return [];
  const lines = s.split(/\r\n|[\n\r\u000b\u000c\u001c\u001d\u001e\u0085\u2028\u2029]/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function vllmOlmo3(text: string): ParserResult {
  const fallback: ParserResult = { content: text, tool_calls: [], tools_called: false };
  let body = text;
  const s = text.indexOf(START);
  if (s >= 0) {
    const e = text.indexOf(END, s + START.length);
    if (e >= 0) body = pyStrip(text.slice(s + START.length, e));
  }
  const joined = `[${pySplitlines(body)
    .map(pyStrip)
    .filter((l) => l !== '')
    .join(', ')}]`;
  if (!vllmToolCallRegexMatches(joined)) return fallback;
  const calls = vllmPythonicCalls(joined);
  if (calls === undefined) return fallback;
  return { content: null, tool_calls: calls, tools_called: true };
}

const SPELLING = { jsonNames: true };
const blank = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';

function readOlmo3(text: string, tools: readonly ParseTool[] | undefined): DialectParse {
  const calls: CallDraft[] = [];
  const consumed: [number, number][] = [];
  const textNotes: TextNote[] = [];
  const findStart = forwardFinder(text, START);
  const findEnd = forwardFinder(text, END);
  const closers = new Set<number>();
  for (let s = findStart(0); s >= 0; ) {
    const from = s + START.length;
    const nextStart = findStart(from);
    const e = findEnd(from);
    const closed = e >= 0 && (nextStart < 0 || e < nextStart);
    const to = closed ? e : nextStart >= 0 ? nextStart : text.length;
    const blockEnd = closed ? e + END.length : to;
    if (closed) closers.add(e);
    const atEof = !closed && to === text.length;
    const next = closed ? findStart(blockEnd) : nextStart;
    if (!closed && !atEof) textNotes.push({ at: s, note: { code: 'parse/unclosed', severity: 'warning', message: `no ${END} before the next ${START}: the block ends there` } });
    let j = from;
    while (j < to && blank(text[j])) j++;
    if (j >= to) {
      textNotes.push({ at: s, note: atEof ? { code: 'parse/truncated', severity: 'error', message: `the output ends right after ${START}: no call` } : { code: 'parse/empty-tool-call', severity: 'warning', message: `the ${START} block holds no call: kept as text` } });
      s = next;
      continue;
    }
    const r = readCallLines(text, from, to, tools, SPELLING);
    const dropped = [...r.dropped];
    let stop = r.stop;
    // the output ending in a call's name (`get_cur`): cut, not a name
    if (atEof && stop === undefined && dropped.length > 0) {
      const last = dropped[dropped.length - 1];
      let k = last.end;
      while (k < to && blank(text[k])) k++;
      if (k >= to) {
        dropped.pop();
        stop = { at: last.start, lineStart: last.start, why: 'cut', eof: true };
      }
    }
    pushAll(textNotes, droppedNotes(dropped));
    const incomplete = atEof ? `no ${END}` : undefined;
    const blockCalls = r.calls.filter((c) => stop === undefined || c.start < stop.lineStart);
    pushAll(calls, blockCalls.map((c) => (incomplete ? { ...c, incomplete } : c)));
    if (stop === undefined) pushAll(consumed, regionMinus(s, blockEnd, dropped));
    else if (stop.eof) {
      textNotes.push({ at: stop.lineStart, note: { code: 'parse/truncated', severity: 'error', message: 'the output ends inside this call: no call (its text stays content)' } });
      if (blockCalls.length > 0) pushAll(consumed, regionMinus(s, stop.lineStart, dropped));
    } else {
      textNotes.push({ at: stop.at, note: { code: 'parse/invalid-call', severity: 'error', message: `a line of the ${START} block is not a Python call (${stop.why}): the block's calls end before it (the rest stays content)` } });
      if (blockCalls.length > 0) pushAll(consumed, regionMinus(s, stop.lineStart, dropped), (closed ? [[e, blockEnd] as [number, number]] : []));
    }
    s = next;
  }
  strayTokens(text, END, consumed, textNotes, (at) => ({ at, note: { code: 'parse/stray-close-tag', severity: 'warning', message: `${END} closes no ${START} block: dropped from the content` } }), closers);
  return { calls, consumed, textNotes };
}

export const SYNTAXES: readonly FamilySyntax[] = [
  {
    name: 'olmo3',
    example: '<function_calls>get_weather(city="Paris", days=3)\nget_time(zone="CET")</function_calls>',
    openers: [START],
    controls: [START, END],
    read: readOlmo3,
  },
];

export const SERVER_PARSERS: readonly ServerParserEntry[] = [
  {
    server: 'vllm',
    name: 'olmo3',
    file: 'vllm/tool_parsers/olmo3_tool_parser.py',
    commit: VLLM_COMMIT,
    parse: (text) => vllmOlmo3(text),
  },
];
