/**
 * The strict reading's walk over syntaxes whose calls stand inside a section of special tokens
 * (DeepSeek `<｜tool▁calls▁begin｜>…<｜tool▁calls▁end｜>`, Kimi K2
 * `<|tool_calls_section_begin|>…`, Hunyuan `<tool_calls>…</tool_calls>`): bare calls outside a
 * section are read too (the call says `parse/no-wrapper`); a section whose calls all read, with
 * nothing else inside, is consumed whole, else only its good calls are; an output that ends inside
 * a section marks its last call incomplete (never runnable). Each syntax reads its own calls.
 */
import { isJsonObject, JsonSyntaxError, parseJson, type JsonObject, type JsonValue } from '../../ir/json.js';
import { MAX_VALUE_DEPTH, nestsDeeper, shown, type Note } from '../xml/decode.js';
import { jsonContainerEnd } from '../xml/hermes.js';
import { PythonException, pythonJsonLoads } from '../xml/python-values.js';
import { firstOf, skipWs, type CallDraft, type DialectParse, type TextNote } from '../xml/draft.js';

/** One call read at a call opener. */
export interface CallRead {
  readonly ok: boolean;
  readonly draft?: CallDraft;
  /** Where the call's text ends (past its closing token, or before the token that stopped it). */
  readonly end: number;
  /** The output ended inside the call. */
  readonly truncated: boolean;
}

/** A section syntax. */
export interface SectionSyntax {
  /** What opens a section, closes it, and opens a call. */
  readonly open: string;
  readonly close: string;
  readonly callOpen: string;
  /** What the messages call a section: `section` or `block`. */
  readonly word: string;
  /**
   * Kimi K2: text before a section's first call makes it no section: it stays text up to its
   * close (the section is only `parse/empty-tool-call`). Else such text is `parse/unexpected-text`
   * and the walk looks for calls after it.
   */
  readonly emptyStaysText?: boolean;
  /** A close repeated right after a closed section closes nothing: dropped, `parse/stray-close-tag`. */
  readonly strayCloses?: boolean;
}

/** The text's calls; `readCall(at, inSection)` reads the call at a call opener (its notes about the text through `textNotes`). */
export function readSections(text: string, syntax: SectionSyntax, next: (needle: string, from: number) => number, readCall: (at: number, inSection: boolean) => CallRead, textNotes: TextNote[]): DialectParse {
  const { open, close, callOpen, word } = syntax;
  const calls: CallDraft[] = [];
  const consumed: [number, number][] = [];
  const n = text.length;
  const note = (at: number, code: string, severity: Note['severity'], message: string, tool?: string) => textNotes.push({ at, note: { code, severity, message }, ...(tool !== undefined ? { tool } : {}) });
  let pos = 0;
  for (;;) {
    const hit = firstOf(next, [open, callOpen], pos);
    if (hit === undefined) break;
    const [w, tag] = hit;
    if (tag === callOpen) {
      const r = readCall(w, false);
      if (r.ok) {
        calls.push(r.draft!);
        consumed.push([w, r.end]);
      }
      pos = Math.max(r.end, w + 1);
      continue;
    }
    const read: CallRead[] = [];
    let i = w + open.length;
    let blockEnd = n;
    let closed = false;
    let unexpected = false;
    for (;;) {
      const j = skipWs(text, i);
      if (text.startsWith(callOpen, j)) {
        const r = readCall(j, true);
        read.push(r);
        if (r.truncated) break;
        i = Math.max(r.end, j + 1);
        continue;
      }
      if (text.startsWith(close, j)) {
        blockEnd = j + close.length;
        closed = true;
        break;
      }
      if (j >= n || text.startsWith(open, j)) {
        blockEnd = j;
        break;
      }
      if (syntax.emptyStaysText && read.length === 0) {
        const c = next(close, j);
        blockEnd = c < 0 ? n : c + close.length;
        closed = c >= 0;
        break;
      }
      const k = firstOf(next, [callOpen, close, open], j + 1);
      const between = syntax.emptyStaysText ? `text between the calls of a ${open} ${word}` : `text inside a ${open} ${word} that is no call`;
      note(j, 'parse/unexpected-text', 'warning', `${between}, kept as content: ${JSON.stringify(text.slice(j, k === undefined ? n : k[0]).slice(0, 80))}`);
      unexpected = true;
      i = k === undefined ? n : k[0];
    }
    if (read.length === 0) {
      if (!syntax.emptyStaysText && blockEnd >= n && !closed) note(w, 'parse/truncated', 'error', `the output ends inside a ${open} ${word} before any call: no call (the text stays content)`);
      else note(w, 'parse/empty-tool-call', 'warning', `${open} holds no ${callOpen} call: kept as text`);
    }
    // the output ends inside the section: its last call may be cut off
    const cutAtEnd = !closed && blockEnd >= n;
    const last = read[read.length - 1];
    if (cutAtEnd && last?.ok) {
      const d = last.draft!;
      read[read.length - 1] = { ...last, draft: { ...d, incomplete: `${d.incomplete !== undefined ? `${d.incomplete}, ` : ''}no ${close}` } };
    }
    const good = read.filter((r) => r.ok);
    for (const r of good) calls.push(r.draft!);
    if (good.length > 0 && good.length === read.length && !unexpected) {
      consumed.push([w, blockEnd]);
      if (!closed && !cutAtEnd) note(w, 'parse/unclosed', 'warning', `no ${close} after this ${word} (another ${word} starts): its calls are read all the same`, good[0].draft!.name);
      for (let j = skipWs(text, blockEnd); syntax.strayCloses && closed && text.startsWith(close, j); j = skipWs(text, j + close.length)) {
        note(j, 'parse/stray-close-tag', 'warning', `a ${close} after the ${word} closes nothing: dropped from the content`);
        consumed.push([j, j + close.length]);
        blockEnd = j + close.length;
      }
    } else for (const r of good) consumed.push([r.draft!.start, r.end]);
    pos = Math.max(blockEnd, w + 1);
  }
  return { calls, consumed, textNotes };
}

export type ArgsRead = { readonly args: JsonObject; readonly notes: { note: Note; param?: string }[] } | { readonly truncated: true } | { readonly invalid: string; readonly code: string };

/**
 * The arguments text of one call as a JSON object; `atEnd`: the output ends in it (an unclosed
 * JSON text is then cut off, not invalid). A JSON string holding an object is decoded (a note);
 * keys given twice are noted, the last value kept (as Python's json.loads does).
 */
export function readJsonArguments(json: string, atEnd: boolean): ArgsRead {
  if (json === '' && atEnd) return { truncated: true };
  let value: JsonValue;
  try {
    value = parseJson(json);
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    // the output ends inside the JSON (an unclosed string, object or literal)
    if (atEnd && (e.offset >= json.length || (json[0] === '{' && jsonContainerEnd(json, 0) < 0))) return { truncated: true };
    return { code: 'parse/invalid-json', invalid: `not valid JSON: ${e.message}` };
  }
  if (nestsDeeper(value)) return { code: 'parse/invalid-json', invalid: `nesting deeper than ${MAX_VALUE_DEPTH} levels` };
  const notes: { note: Note; param?: string }[] = [];
  let args: JsonObject | undefined = isJsonObject(value) ? value : undefined;
  let argsText = json;
  if (typeof value === 'string') {
    try {
      const inner = parseJson(value);
      if (isJsonObject(inner) && !nestsDeeper(inner)) {
        args = inner;
        argsText = value;
        notes.push({ note: { code: 'parse/coerced', severity: 'warning', message: 'the arguments are a JSON string holding an object: decoded' } });
      }
    } catch (e) {
      if (!(e instanceof JsonSyntaxError)) throw e;
    }
  }
  if (args === undefined) return { code: 'parse/invalid-call', invalid: `not an object (${shown(value)})` };
  const duplicates = new Set<string>();
  try {
    pythonJsonLoads(argsText, (key) => duplicates.add(key));
  } catch (e) {
    if (!(e instanceof PythonException)) throw e;
  }
  for (const key of duplicates) notes.push({ ...(args.has(key) ? { param: key } : {}), note: { code: 'parse/duplicate-parameter', severity: 'warning', message: `the key ${JSON.stringify(key)} is given twice in the arguments: the last value is used` } });
  return { args, notes };
}
