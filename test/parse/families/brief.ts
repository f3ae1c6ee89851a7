/**
 * A strict reading in brief, for the family tests' hand-checked cases: each call as
 * `name {arguments}` (with `[what never came]` when cut off), each call's note codes (`:param`
 * where a parameter is named), the content outside what was read, the text notes as `code@offset`.
 */
import { stringifyArguments } from '../../../src/parse/xml/decode.js';
import { contentOutside, type DialectParse } from '../../../src/parse/xml/draft.js';

export function brief(text: string, r: DialectParse) {
  return {
    calls: r.calls.map((c) => `${c.name} ${stringifyArguments(c.args)}${c.incomplete ? ` [${c.incomplete}]` : ''}`),
    callNotes: r.calls.map((c) => c.notes.map((n) => n.note.code + (n.param !== undefined ? `:${n.param}` : ''))),
    content: contentOutside(text, r.consumed),
    notes: r.textNotes.map((n) => `${n.note.code}@${n.at}`),
  };
}
