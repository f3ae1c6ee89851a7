/** What the default-mode parsers produce before the result is assembled: calls with their notes, the text they took, notes about the text. */
import type { Diagnostic } from '../../diagnostics.js';
import { escapePointerToken, type JsonValue } from '../../ir/json.js';
import { markIncomplete } from '../completeness.js';
import { stringifyArguments, type Note } from './decode.js';
import type { XmlToolCall } from './types.js';

/** A parsed call, with where it stands in the text and what was noticed about it. */
export interface CallDraft {
  readonly name: string;
  readonly args: ReadonlyMap<string, JsonValue>;
  /** Index of the call's first character (its `<function=`, `<invoke`, or `<tool_call>`). */
  readonly start: number;
  /** Findings about the call (`param` set for one parameter's). */
  readonly notes: readonly { readonly note: Note; readonly param?: string }[];
  /** Set when the output ended before the call was closed: the closing tags that never came (`no </tool_call>`). The call is returned, marked incomplete: never runnable. */
  readonly incomplete?: string;
}

/** A finding about a place in the text (a dropped call, stray text). */
export interface TextNote {
  readonly note: Note;
  /** Index in the text. */
  readonly at: number;
  readonly tool?: string;
}

/** One dialect's parse of a whole output. */
export interface DialectParse {
  readonly calls: readonly CallDraft[];
  /** Text ranges [start, end) taken by the calls: the content is everything else. */
  readonly consumed: readonly (readonly [number, number])[];
  readonly textNotes: readonly TextNote[];
}

const BLANK = /^[ \t\n\r]*$/;

/**
 * The content: the text outside the calls, or null when that is empty or only whitespace.
 * The text before the first call is kept as is; after it, a run of only whitespace between
 * or after calls is the calls' layout (the templates put a newline between calls) and is left out.
 */
export function contentOutside(text: string, consumed: readonly (readonly [number, number])[]): string | null {
  const ranges = [...consumed].sort((a, b) => a[0] - b[0]);
  let out = '';
  let pos = 0;
  for (const [a, b] of ranges) {
    if (a > pos && (pos === 0 || !BLANK.test(text.slice(pos, a)))) out += text.slice(pos, a);
    pos = Math.max(pos, b);
  }
  if (pos === 0 || !BLANK.test(text.slice(pos))) out += text.slice(pos);
  return BLANK.test(out) ? null : out;
}

/**
 * Closing tags of a call block (`</tool_call>`, `</function_calls>`) that close nothing: each right
 * after a call or block (whitespace between), with no block open, as a model writes when it leaves
 * out the opener (Qwen3-Coder's `<function=…>…</function>\n</tool_call>`) or closes twice. Their
 * indexes, in text order. They are no text of the answer: vLLM's parsers return no text after a call.
 */
export function strayCloseTags(text: string, consumed: readonly (readonly [number, number])[], close: string): number[] {
  const out = new Set<number>();
  for (const [, end] of consumed) {
    for (let j = skipBlank(text, end); text.startsWith(close, j); j = skipBlank(text, j + close.length)) out.add(j);
  }
  return [...out].sort((a, b) => a - b);
}

function skipBlank(text: string, i: number): number {
  while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  return i;
}

/** The JSON Pointer of a returned call, or of a parameter inside it. */
export function argumentPointer(index: number, param?: string): string {
  return param === undefined ? `/tool_calls/${index}` : `/tool_calls/${index}/function/arguments/${escapePointerToken(param)}`;
}

/** The UTF-8 byte offset of index `at` of the text. */
export function byteOffset(text: string, at: number): number {
  return Buffer.byteLength(text.slice(0, at), 'utf8');
}

/** The error for a returned call the output ended inside of (`why`: the closing markers that never came; `server`: who returns it as whole). */
export function incompleteCall(index: number, name: string, why: string, server: string | undefined): Diagnostic {
  const how = server !== undefined ? `${server} returns it as if it were whole; it is marked incomplete here` : 'it is returned marked incomplete';
  return { code: 'parse/incomplete-call', severity: 'error', tool: name, path: argumentPointer(index), message: `the output ends before the call to ${JSON.stringify(name)} is closed (${why}), so it may be cut off (max_tokens): ${how}, and must never be run` };
}

/** A default reading assembled: the content, the calls (a cut one marked incomplete) and every finding, in the order of the text. */
export interface AssembledReading {
  readonly content: string | null;
  readonly calls: readonly XmlToolCall[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * A dialect's reading with the closing tags that close nothing taken out of the content: a `close`
 * (`</tool_call>`, `</function_calls>`) right after a call with no block open, as a model writes when
 * it leaves out the opener or closes twice, with a `parse/stray-close-tag` warning giving its byte
 * offset (`open`: the block's opening tag, named in the message). One in prose, after no call, stays.
 */
export function withStrayCloses(text: string, parse: DialectParse, close: string, open: string): DialectParse {
  const stray = strayCloseTags(text, parse.consumed, close);
  if (stray.length === 0) return parse;
  return {
    calls: parse.calls,
    consumed: [...parse.consumed, ...stray.map((at) => [at, at + close.length] as const)],
    textNotes: [...parse.textNotes, ...stray.map((at) => ({ at, note: { code: 'parse/stray-close-tag', severity: 'warning' as const, message: `a ${close} at byte ${byteOffset(text, at)} closes no block (it follows a call, with no ${open} open): dropped from the content` } }))],
  };
}

/**
 * Assemble a dialect's reading of `text`: the calls in the OpenAI shape (a call whose closing
 * markers never came marked incomplete, with a `parse/incomplete-call` error), the content
 * outside them, and every note in the order of the text (`/text#I` for a place in the text, the
 * call's pointer for a call's).
 */
export function assembleReading(text: string, parse: DialectParse): AssembledReading {
  const calls: XmlToolCall[] = parse.calls.map((c) => {
    const call: XmlToolCall = { type: 'function', function: { name: c.name, arguments: stringifyArguments(c.args) } };
    return c.incomplete === undefined ? call : markIncomplete(call, c.incomplete);
  });
  const content = contentOutside(text, parse.consumed);
  const found: { at: number; d: Diagnostic }[] = [];
  for (const t of parse.textNotes) found.push({ at: t.at, d: { ...t.note, ...(t.tool !== undefined ? { tool: t.tool } : {}), path: `/text#${t.at}` } });
  parse.calls.forEach((c, i) => {
    if (c.incomplete !== undefined) found.push({ at: c.start, d: incompleteCall(i, c.name, c.incomplete, undefined) });
    for (const n of c.notes) found.push({ at: c.start, d: { ...n.note, tool: c.name, path: argumentPointer(i, n.param) } });
  });
  return { content, calls, diagnostics: found.sort((a, b) => a.at - b.at).map((f) => f.d) };
}

/** JSON's whitespace (and the servers' `strip()` of tags): space, tab, line feed, carriage return. */
export const JSON_WS = ' \t\n\r';

/** The index of the first character at or after `i` that is no JSON whitespace. */
export function skipWs(text: string, i: number): number {
  while (i < text.length && JSON_WS.includes(text[i])) i++;
  return i;
}

/** The index of the last character that is no JSON whitespace (-1: none). */
export function lastTextAt(text: string): number {
  let i = text.length - 1;
  while (i >= 0 && JSON_WS.includes(text[i])) i--;
  return i;
}

/** `s` without JSON whitespace at either end. */
export function trimWs(s: string): string {
  const a = skipWs(s, 0);
  return s.slice(a, Math.max(a, lastTextAt(s) + 1));
}

/**
 * `text.indexOf(needle, from)` that remembers its last answer per needle: a search from a later
 * place answers from memory while the remembered match is still ahead (or there was none), so a
 * reader that searches forward again and again (a run of unclosed openers) stays linear.
 */
export function finder(text: string): (needle: string, from: number) => number {
  const memo = new Map<string, { from: number; at: number }>();
  return (needle, from) => {
    const m = memo.get(needle);
    if (m !== undefined && from >= m.from && (m.at < 0 || m.at >= from)) return m.at;
    const at = text.indexOf(needle, from);
    memo.set(needle, { from, at });
    return at;
  };
}

/** The first of `markers` at or after `from` by `next` (a {@link finder}): [index, marker], or undefined. */
export function firstOf(next: (needle: string, from: number) => number, markers: readonly string[], from: number): [number, string] | undefined {
  let best: [number, string] | undefined;
  for (const mk of markers) {
    const i = next(mk, from);
    if (i >= 0 && (best === undefined || i < best[0])) best = [i, mk];
  }
  return best;
}
