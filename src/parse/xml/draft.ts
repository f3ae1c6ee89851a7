/** What the default-mode parsers produce before the result is assembled: calls with their notes, the text they took, notes about the text. */
import type { JsonValue } from '../../ir/json.js';
import type { Note } from './decode.js';

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
