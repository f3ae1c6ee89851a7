/**
 * Reading a family's output as it streams: `push(chunk)` hands on what is already certain,
 * `end()` gives the rest and the result, which is exactly `parseFamilyToolCalls` of the whole
 * text, however the text was split (characters or UTF-8 bytes, split anywhere).
 *
 * What is certain early (the strict reading):
 * - reasoning: after the family's opener, every character that cannot begin its closing marker;
 * - content: the answer's text before the first place a call could open (the syntax's openers,
 *   a partial opener at the end held back), once it holds more than whitespace (an answer of only
 *   whitespace beside a call is no content); for a syntax whose calls have no opener (Llama 3's
 *   bare JSON, pythonic lists) and for a family whose reasoning may have been opened by the
 *   prompt, nothing is certain before the end;
 * - calls: a call is handed on (start, its arguments, end) once another call follows it in the
 *   text read so far, the text being re-read only when it has grown by half (linear in all).
 * With `server`, the server's parser reads the whole text: everything comes at `end()`.
 */
import type { Diagnostic } from '../../diagnostics.js';
import { randomUUID } from 'node:crypto';
import { copyCompleteness, incompleteReason } from '../completeness.js';
import { assembleReading } from '../xml/draft.js';
import { readParseTools } from '../xml/tools.js';
import type { XmlToolCall } from '../xml/types.js';
import { familyParser, parseFamilyToolCalls, TOOL_PARSERS, type FamilyParseOptions, type FamilyParseResult } from './index.js';
import { SYNTAXES } from './registry.js';
import type { FamilySyntax } from './types.js';
import { pushAll } from '../../ir/arrays.js';

/** One piece of what the model wrote, as soon as it is certain. */
export type ToolCallEvent =
  | { readonly type: 'content'; readonly delta: string }
  | { readonly type: 'reasoning'; readonly delta: string }
  | { readonly type: 'call-start'; readonly index: number; readonly name: string; readonly id?: string }
  | { readonly type: 'call-arguments'; readonly index: number; readonly delta: string }
  | { readonly type: 'call-end'; readonly index: number; readonly incomplete?: string };

/** A streaming reader of one output. */
export interface ToolCallStreamParser {
  /** Add the next piece of the output (text, or UTF-8 bytes split anywhere). */
  push(chunk: string | Uint8Array): ToolCallEvent[];
  /** The output is whole: the last events and the result (equal to parseFamilyToolCalls of the whole text). */
  end(): { readonly events: ToolCallEvent[]; readonly result: FamilyParseResult };
}

/** The longest suffix of `text` (from `from`) that is a proper prefix of one of `markers`. */
function partialSuffix(text: string, from: number, markers: readonly string[]): number {
  let best = 0;
  for (const m of markers) {
    for (let k = Math.min(m.length - 1, text.length - from); k > best; k--) {
      if (text.endsWith(m.slice(0, k))) {
        best = k;
        break;
      }
    }
  }
  return best;
}

function firstOf(text: string, from: number, markers: readonly string[]): number {
  let at = -1;
  for (const m of markers) {
    const i = text.indexOf(m, from);
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  return at;
}

function callEvents(index: number, call: XmlToolCall): ToolCallEvent[] {
  const why = incompleteReason(call);
  return [
    { type: 'call-start', index, name: call.function.name, ...(call.id !== undefined ? { id: call.id } : {}) },
    { type: 'call-arguments', index, delta: call.function.arguments },
    { type: 'call-end', index, ...(why !== undefined ? { incomplete: why } : {}) },
  ];
}

/** Start reading one output as it streams (same options as parseFamilyToolCalls). */
export function createToolCallParser(options: FamilyParseOptions): ToolCallStreamParser {
  const family = options.model !== undefined ? familyParser(options.model) : undefined;
  const syntaxName = options.toolParser !== undefined ? TOOL_PARSERS.get(options.toolParser)?.syntax : family?.syntax;
  const syntax: FamilySyntax | undefined = syntaxName !== undefined ? SYNTAXES.get(syntaxName) : undefined;
  const reasoning = options.toolParser === undefined ? family?.reasoning : undefined;
  // nothing is certain early for a server's reading, an unknown syntax or one without openers
  const early = options.server === undefined && syntax !== undefined && syntax.openers.length > 0;
  const tools = early ? readParseTools(options.tools).tools : undefined;
  const decoder = new TextDecoder('utf-8');
  let buf = '';
  let ended = false;
  // reasoning: 'undecided' until the opener is seen or ruled out
  let phase: 'undecided' | 'reasoning' | 'answer' | 'held' = reasoning ? 'undecided' : 'answer';
  let reasoningFrom = 0;
  let reasoningSent = 0;
  let answerFrom = 0;
  let contentSent = '';
  let callsSent: XmlToolCall[] = [];
  let readAt = 0;
  let opener = -1;
  let scanned = 0;
  const longest = Math.max(1, ...(syntax?.openers ?? []).map((m) => m.length));
  // the answer's text is certain up to the first control string of the syntax, not only its
  // openers: a reading may take markers out of the content anywhere (Command R7B's response
  // markers, a stray close tag)
  const holds = [...new Set([...(syntax?.openers ?? []), ...(syntax?.controls ?? [])])];
  const longestHold = Math.max(1, ...holds.map((m) => m.length));
  let hold = -1;
  let holdScanned = 0;
  const withId = (c: XmlToolCall): XmlToolCall => (options.ids ? copyCompleteness(c, { ...c, id: `chatcmpl-tool-${randomUUID().replaceAll('-', '')}` }) : c);

  function step(): ToolCallEvent[] {
    const out: ToolCallEvent[] = [];
    if (!early) return out;
    if (phase === 'undecided') {
      let i = 0;
      while (i < buf.length && ' \t\n\r'.includes(buf[i])) i++;
      const open = reasoning!.open;
      if (buf.length - i < open.length && open.startsWith(buf.slice(i))) return out;
      if (buf.startsWith(open, i)) {
        phase = 'reasoning';
        reasoningFrom = i + open.length;
      } else phase = 'held'; // the prompt may have opened the reasoning: its close may still come
    }
    if (phase === 'reasoning') {
      const close = reasoning!.close;
      const c = buf.indexOf(close, reasoningFrom + reasoningSent);
      const upto = c >= 0 ? c : buf.length - partialSuffix(buf, reasoningFrom + reasoningSent, [close]);
      if (upto > reasoningFrom + reasoningSent) {
        out.push({ type: 'reasoning', delta: buf.slice(reasoningFrom + reasoningSent, upto) });
        reasoningSent = upto - reasoningFrom;
      }
      if (c < 0) return out;
      phase = 'answer';
      answerFrom = c + close.length;
    }
    if (phase !== 'answer') return out;
    const openers = syntax!.openers;
    if (opener < 0) {
      opener = firstOf(buf, Math.max(answerFrom, scanned - longest + 1), openers);
      scanned = buf.length;
    }
    if (hold < 0) {
      hold = firstOf(buf, Math.max(answerFrom, holdScanned - longestHold + 1), holds);
      holdScanned = buf.length;
    }
    if (callsSent.length === 0) {
      const safe = hold >= 0 ? hold : buf.length - partialSuffix(buf, Math.max(answerFrom, buf.length - longestHold), holds);
      const from = answerFrom + contentSent.length;
      if (safe > from) {
        const text = buf.slice(from, safe);
        // only once it holds more than whitespace: an answer of only whitespace beside a call is no content
        if (contentSent !== '' || /[^ \t\n\r]/.test(text)) {
          out.push({ type: 'content', delta: text });
          contentSent += text;
        }
      }
    }
    if (opener >= 0 && buf.length - answerFrom >= readAt * 1.5 + 64) {
      readAt = buf.length - answerFrom;
      const answer = buf.slice(answerFrom);
      const prefix = assembleReading(answer, syntax!.read(answer, tools));
      // a call the reading had to repair (a missing close, a tag read as text, text left out) may
      // be read otherwise once more text comes (a later close tag can end its value): it waits for the end
      const repaired = new Set<number>();
      for (const d of prefix.diagnostics) {
        const m = /^\/tool_calls\/(\d+)(?:\/|$)/.exec(d.path);
        if (m) repaired.add(Number(m[1]));
      }
      for (let k = callsSent.length; k < prefix.calls.length - 1; k++) {
        const call = withId(prefix.calls[k]);
        if (incompleteReason(call) !== undefined || repaired.has(k)) break;
        pushAll(out, callEvents(k, call));
        callsSent = [...callsSent, call];
      }
    }
    return out;
  }

  return {
    push(chunk) {
      if (ended) throw new Error('push after end()');
      buf += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      return step();
    },
    end() {
      if (ended) throw new Error('end() called twice');
      ended = true;
      buf += decoder.decode();
      const result = parseFamilyToolCalls(buf, options);
      const events: ToolCallEvent[] = [];
      const diagnostics: Diagnostic[] = [];
      const reasoningText = result.reasoning_content ?? '';
      if (reasoningSent < reasoningText.length) events.push({ type: 'reasoning', delta: reasoningText.slice(reasoningSent) });
      const content = result.content ?? '';
      if (!content.startsWith(contentSent)) diagnostics.push(revised('/content', 'content was handed on that the whole output does not hold'));
      else if (content.length > contentSent.length) events.push({ type: 'content', delta: content.slice(contentSent.length) });
      callsSent.forEach((c, k) => {
        const f = result.tool_calls[k];
        if (!f || f.function.name !== c.function.name || f.function.arguments !== c.function.arguments) diagnostics.push(revised(`/tool_calls/${k}`, 'a call was handed on that the whole output reads otherwise'));
      });
      // the calls handed on keep their ids
      const calls = result.tool_calls.map((c, k) => (k < callsSent.length && callsSent[k].id !== undefined ? copyCompleteness(c, { ...c, id: callsSent[k].id }) : c));
      for (let k = callsSent.length; k < calls.length; k++) pushAll(events, callEvents(k, calls[k]));
      return { events, result: { ...result, tool_calls: calls, ...(diagnostics.length ? { diagnostics: [...result.diagnostics, ...diagnostics] } : {}) } };
    },
  };
}

function revised(path: string, what: string): Diagnostic {
  return { code: 'parse/stream-revised', severity: 'error', path, message: `the stream ${what}: report this as a bug of harmony-catalog` };
}

