/**
 * MeetKai Functionary tool calls, two syntaxes (src/models/templates/functionary-3.1.ts and
 * functionary-3.2.ts; MeetKai's own readers, functionary/prompt_template/llama31_prompt_template.py
 * and llama3_prompt_template_v3.py `parse_assistant_response`, read them the same way):
 * - `functionary-3.1` (v3-llama3.1): the answer's text, then each call
 *   `<function=NAME>{"city": "Paris"}</function>` (the arguments a JSON object as written), one
 *   after another, then `<|eom_id|>`; `<|python_tag|>` and the rest of the output is code for the
 *   code interpreter (a call to `python`);
 * - `functionary-3.2` (v3.llama3): every part of the answer is `>>>RECIPIENT\nBODY`; the generation
 *   prompt ends with `>>>`, so the output starts with the first recipient: `all` for text to the
 *   user (`all\nHello`), a function name for a call (`get_weather\n{"city": "Paris"}`), `python`
 *   for code; `<|eot_id|>` ends the turn.
 * Neither reasons. No server parser: neither vLLM nor SGLang registers one for these.
 *
 * The strict readings: the arguments are one JSON object (invalid JSON drops the call, its text stays
 * content; the output ending inside it drops the call); a code-interpreter call is read as `python`
 * with `{"code": CODE}` (an info note: the format writes the code bare). 3.1: a call whose
 * `</function>` never came is returned marked incomplete when the output ends after its JSON, read
 * with a warning when another call follows. 3.2: the `all` header is no content (its body is);
 * text after a call's JSON in its part is content, with a warning; an output that does not start
 * with a recipient line is read as text up to the first `>>>`.
 */
import type { JsonObject } from '../../ir/json.js';
import type { Note } from '../xml/decode.js';
import { finder, type CallDraft, type DialectParse, type TextNote, skipWs } from '../xml/draft.js';
import { jsonContainerEnd } from '../xml/hermes.js';
import { findTool, type ParseTool } from '../xml/tools.js';
import { isPlausibleFunctionName } from '../xml/vllm-qwen3-coder.js';
import { duplicateKeys, parseCallJson } from './llama3-json.js';
import { badName } from './mistral.js';
import type { FamilySyntax, ServerParserEntry } from './types.js';

const EOT = '<|eot_id|>';
const EOM = '<|eom_id|>';
const END_OF_TEXT = '<|end_of_text|>';
const PYTHON_TAG = '<|python_tag|>';
const LLAMA_CONTROLS = [EOT, EOM, END_OF_TEXT, '<|begin_of_text|>', '<|start_header_id|>', '<|end_header_id|>'];

const err = (code: string, message: string): Note => ({ code, severity: 'error', message });

/** The arguments object at `at` (its `{`): the call's arguments with their notes, or why there is no call. */
function argumentsAt(text: string, at: number, end: number, name: string): { args: JsonObject; notes: { note: Note; param?: string }[] } | { error: Note; at: number } {
  const parsed = parseCallJson(text, at, end);
  if ('error' in parsed) {
    const m = parsed.error.code === 'parse/invalid-call' ? `the arguments of the call to ${JSON.stringify(name)} are not a JSON object: no call (the text stays content)` : parsed.error.message.replace("the call's JSON", `the arguments of the call to ${JSON.stringify(name)}`);
    return { error: { ...parsed.error, message: m }, at: parsed.at };
  }
  const notes: { note: Note; param?: string }[] = [];
  for (const key of duplicateKeys(text.slice(at, end))) notes.push({ ...(parsed.obj.has(key) ? { param: key } : {}), note: { code: 'parse/duplicate-parameter', severity: 'warning', message: `the key ${JSON.stringify(key)} is given twice in the arguments: the last value is used` } });
  return { args: parsed.obj, notes };
}

/** A code-interpreter call: `python` with the code as `{"code": …}`. */
function codeCall(code: string, start: number, how: string): CallDraft {
  return { name: 'python', args: new Map([['code', code]]), start, notes: [{ note: { code: 'parse/coerced', severity: 'info', message: `${how} is code for the code interpreter, written bare: read as a call to "python" with {"code": …}` } }] };
}

/** The index after `<|eom_id|>`, `<|eot_id|>` or `<|end_of_text|>` at `at` (whitespace before it skipped), else -1. */
function stopToken(text: string, at: number): number {
  const k = skipWs(text, at);
  for (const t of [EOM, EOT, END_OF_TEXT]) if (text.startsWith(t, k)) return k + t.length;
  return -1;
}

/** The code after a marker: the rest of the output, a final stop token left out. */
function codeUntilEnd(text: string, from: number): { code: string; end: number } {
  const stop = finalStop(text, from);
  return { code: text.slice(from, stop !== undefined ? stop[0] : text.length), end: text.length };
}

// ---------------------------------------------------------------------------------------
// Functionary v3.1

const FUNC = '<function=';
const END_FUNC = '</function>';

/** Read Functionary v3.1 output strictly: `<function=NAME>{…}</function>` calls after the text, `<|python_tag|>` code. */
export function readFunctionary31(text: string, tools: readonly ParseTool[] | undefined): DialectParse {
  const calls: CallDraft[] = [];
  const consumed: [number, number][] = [];
  const textNotes: TextNote[] = [];
  const note = (at: number, n: Note, tool?: string) => textNotes.push({ at, note: n, ...(tool !== undefined ? { tool } : {}) });
  const find = finder(text);
  let pos = 0;
  for (;;) {
    const f = find(FUNC, pos);
    const t = find(PYTHON_TAG, pos);
    if (t >= 0 && (f < 0 || t < f)) {
      const { code, end } = codeUntilEnd(text, t + PYTHON_TAG.length);
      calls.push(codeCall(code, t, 'the text after <|python_tag|>'));
      consumed.push([t, end]);
      break;
    }
    if (f < 0) break;
    const nameFrom = f + FUNC.length;
    const gt = find('>', nameFrom);
    if (gt < 0) {
      note(f, err('parse/truncated', 'the output ends inside a <function=…> tag: no call (the text stays content)'));
      break;
    }
    const name = text.slice(nameFrom, gt).trim();
    const bad = isPlausibleFunctionName(name) ? undefined : badName(name, tools);
    if (bad) {
      note(f, bad, name);
      pos = nameFrom;
      continue;
    }
    const j = skipWs(text, gt + 1);
    if (text.startsWith(END_FUNC, j)) {
      // no arguments written
      calls.push({ name, args: new Map(), start: f, notes: [{ note: { code: 'parse/coerced', severity: 'warning', message: `the call to ${JSON.stringify(name)} has no arguments: read as {}` } }] });
      const s = stopToken(text, j + END_FUNC.length);
      consumed.push([f, s >= 0 ? s : j + END_FUNC.length]);
      pos = j + END_FUNC.length;
      continue;
    }
    if (j >= text.length) {
      note(f, err('parse/truncated', `the output ends before the arguments of the call to ${JSON.stringify(name)}: no call (the text stays content)`), name);
      break;
    }
    if (text[j] !== '{') {
      note(j, err('parse/invalid-call', `the arguments of the call to ${JSON.stringify(name)} are not a JSON object: no call (the text stays content)`), name);
      pos = j;
      continue;
    }
    const e = jsonContainerEnd(text, j);
    if (e < 0) {
      note(f, err('parse/truncated', `the output ends inside the arguments of the call to ${JSON.stringify(name)}: no call (the text stays content)`), name);
      break;
    }
    const k = skipWs(text, e);
    const closed = text.startsWith(END_FUNC, k);
    const callEnd = closed ? k + END_FUNC.length : e;
    const r = argumentsAt(text, j, e, name);
    if ('error' in r) {
      note(r.at, r.error, name);
      pos = callEnd;
      continue;
    }
    const notes = [...r.notes];
    let incomplete: string | undefined;
    if (!closed) {
      if (k >= text.length) incomplete = `no ${END_FUNC}`;
      else if (text.startsWith(FUNC, k) || text.startsWith(PYTHON_TAG, k)) notes.push({ note: { code: 'parse/unclosed', severity: 'warning', message: `no ${END_FUNC} after the call to ${JSON.stringify(name)} (another call follows): its JSON is complete, so it is read` } });
      else if (stopToken(text, e) >= 0) notes.push({ note: { code: 'parse/unclosed', severity: 'warning', message: `no ${END_FUNC} after the call to ${JSON.stringify(name)} (the turn ends): its JSON is complete, so it is read` } });
      else notes.push({ note: { code: 'parse/unclosed', severity: 'warning', message: `no ${END_FUNC} after the call to ${JSON.stringify(name)} (text follows): the call is read, the text after it is content` } });
    }
    calls.push({ name, args: r.args, start: f, notes, ...(incomplete !== undefined ? { incomplete } : {}) });
    const s = stopToken(text, callEnd);
    consumed.push([f, s >= 0 ? s : callEnd]);
    pos = callEnd;
  }
  return { calls, consumed, textNotes };
}

// ---------------------------------------------------------------------------------------
// Functionary v3.2

const SEP = '>>>';
const ALL = 'all';
const PYTHON = 'python';

/** Read Functionary v3.2 output strictly: `RECIPIENT\nBODY` parts, each after `>>>` (the first one's is in the prompt). */
export function readFunctionary32(text: string, tools: readonly ParseTool[] | undefined): DialectParse {
  const calls: CallDraft[] = [];
  const consumed: [number, number][] = [];
  const textNotes: TextNote[] = [];
  const note = (at: number, n: Note, tool?: string) => textNotes.push({ at, note: n, ...(tool !== undefined ? { tool } : {}) });
  const find = finder(text);
  // a part: its `>>>` (or the text's start) at `from`, its recipient at `head`
  let from = 0;
  let head = text.startsWith(SEP) ? SEP.length : 0;
  let first = head === 0;
  while (head <= text.length) {
    const nextSep = find(SEP, head);
    const partEnd = nextSep < 0 ? text.length : nextSep;
    const nl = find('\n', head);
    const advance = () => {
      if (nextSep < 0) return false;
      from = nextSep;
      head = nextSep + SEP.length;
      first = false;
      return true;
    };
    if (nl < 0 || nl > partEnd) {
      // no recipient line in this part
      const written = text.slice(head, partEnd).trim();
      if (!first || (isPlausibleFunctionName(written) && (written === ALL || written === PYTHON || findTool(tools, written) !== undefined))) {
        if (partEnd >= text.length) note(from, err('parse/truncated', `the output ends in the recipient line ${JSON.stringify(written)}: no call`));
        else note(from, err('parse/invalid-call', `a >>> part with no newline after its recipient (${JSON.stringify(written.slice(0, 40))}): kept as text`));
      }
      if (!advance()) break;
      continue;
    }
    const recipient = text.slice(head, nl).trim();
    const bodyAt = nl + 1;
    if (recipient === ALL) {
      // text to the user: the header is no content, the body is (a final stop token is not)
      consumed.push([from, bodyAt]);
      if (partEnd >= text.length) {
        const stop = finalStop(text, bodyAt);
        if (stop !== undefined) consumed.push(stop);
      }
      if (!advance()) break;
      continue;
    }
    if (recipient === PYTHON) {
      const code = text.slice(bodyAt, partEnd);
      const end = partEnd >= text.length ? codeUntilEnd(text, bodyAt) : { code, end: partEnd };
      calls.push(codeCall(end.code.trim(), from, 'the part for "python"'));
      consumed.push([from, end.end]);
      if (!advance()) break;
      continue;
    }
    const j = skipWs(text, bodyAt);
    if (first && (!isPlausibleFunctionName(recipient) || (text[j] !== '{' && findTool(tools, recipient) === undefined))) {
      // no recipient line: the output is text up to the first >>>
      if (!advance()) break;
      continue;
    }
    const bad = badName(recipient, tools);
    if (bad) {
      note(from, bad, recipient);
      if (!advance()) break;
      continue;
    }
    if (j >= text.length) {
      note(from, err('parse/truncated', `the output ends before the arguments of the call to ${JSON.stringify(recipient)}: no call`), recipient);
      break;
    }
    if (text[j] !== '{') {
      note(j, err('parse/invalid-call', `the arguments of the call to ${JSON.stringify(recipient)} are not a JSON object: no call (the text stays content)`), recipient);
      if (!advance()) break;
      continue;
    }
    const e = jsonContainerEnd(text, j);
    if (e < 0) {
      note(from, err('parse/truncated', `the output ends inside the arguments of the call to ${JSON.stringify(recipient)}: no call (the text stays content)`), recipient);
      break;
    }
    const r = argumentsAt(text, j, e, recipient);
    // the part goes on after the JSON (a `>>>` inside a JSON string is no separator)
    const after = e > partEnd ? find(SEP, e) : nextSep;
    const restEnd = after < 0 ? text.length : after;
    if ('error' in r) {
      note(r.at, r.error, recipient);
    } else {
      const notes = [...r.notes];
      let callEnd = e;
      const s = stopToken(text, e);
      if (s >= 0 && skipWs(text, s) >= restEnd) callEnd = s;
      else {
        const k = skipWs(text, e);
        if (k < restEnd) notes.push({ note: { code: 'parse/unexpected-text', severity: 'warning', message: `text after the arguments of the call to ${JSON.stringify(recipient)} in its part: kept as content` } });
      }
      calls.push({ name: recipient, args: r.args, start: from, notes });
      consumed.push([from, callEnd]);
    }
    if (after < 0) break;
    from = after;
    head = after + SEP.length;
    first = false;
  }
  return { calls, consumed, textNotes };
}

/** A stop token ending the text (whitespace after it allowed), at or after `from`: its range. */
function finalStop(text: string, from: number): [number, number] | undefined {
  let end = text.length;
  while (end > from && ' \t\n\r'.includes(text[end - 1])) end--;
  for (const t of [EOT, EOM, END_OF_TEXT]) if (text.endsWith(t, end) && end - t.length >= from) return [end - t.length, text.length];
  return undefined;
}

export const SYNTAXES: readonly FamilySyntax[] = [
  {
    name: 'functionary-3.1',
    example: '<function=get_weather>{"city": "Paris"}</function>',
    openers: [FUNC, PYTHON_TAG],
    controls: [FUNC, END_FUNC, PYTHON_TAG, ...LLAMA_CONTROLS],
    read: readFunctionary31,
  },
  {
    name: 'functionary-3.2',
    example: 'get_weather\n{"city": "Paris"}',
    openers: [],
    controls: [SEP, ...LLAMA_CONTROLS],
    read: readFunctionary32,
  },
];

export const SERVER_PARSERS: readonly ServerParserEntry[] = [];
