/**
 * Cohere Command tool calls, two syntaxes (the `tool_use` templates, src/models/templates/):
 * - `command-r7b` (Command R7B, command-r7b.ts): `<|START_ACTION|>[{"tool_call_id": "0", "tool_name":
 *   "get_weather", "parameters": {"city": "Paris"}}, …]<|END_ACTION|>`, after the plan in
 *   `<|START_THINKING|>…<|END_THINKING|>` (its reasoning, split off before `read`); an answer is
 *   written `<|START_RESPONSE|>…<|END_RESPONSE|>`, whose markers are no content;
 * - `command-r-plus` (Command R+, command-r-plus.ts): the text (a plan), then `Action:` and a
 *   fenced JSON list, `Action:\n```json\n[{"tool_name": "get_weather", "parameters": {…}}, …]\n```…`;
 *   the template asks for the `directly-answer` tool when no other is needed: it is read as the
 *   call it is written as (no tool of the request has that name).
 *
 * No server parser here: vLLM's `cohere_command3`/`cohere_command4` (cohere_command_tool_parser.py)
 * hand the text to the `cohere_melody` native library, which is not emulated.
 *
 * The strict readings: each element is a call with a string `tool_name` and `parameters` (an object;
 * a JSON string holding one or null read with a warning; missing: `{}` with a warning); invalid JSON
 * drops the element (its text stays content); a list the output ended inside gives its whole calls
 * marked incomplete and drops the cut one; the whole calls of a list whose closing marker
 * (`<|END_ACTION|>`, the closing fence) never came are marked incomplete.
 */
import { strayCloseTags, type CallDraft, type DialectParse, type TextNote, skipWs } from '../xml/draft.js';
import type { Note } from '../xml/decode.js';
import { jsonContainerEnd } from '../xml/hermes.js';
import type { ParseTool } from '../xml/tools.js';
import { parseCallJson, readCallObject, type CallObjectSpec } from './llama3-json.js';
import { readArrayCalls, type ArrayCallSyntax } from './mistral.js';
import type { FamilySyntax, ServerParserEntry } from './types.js';
import { pushAll } from '../../ir/arrays.js';

const START_ACTION = '<|START_ACTION|>';
const END_ACTION = '<|END_ACTION|>';
const START_RESPONSE = '<|START_RESPONSE|>';
const END_RESPONSE = '<|END_RESPONSE|>';
const END_OF_TURN = '<|END_OF_TURN_TOKEN|>';
const TURN_CONTROLS = ['<|START_OF_TURN_TOKEN|>', END_OF_TURN, '<|CHATBOT_TOKEN|>', '<|USER_TOKEN|>', '<|SYSTEM_TOKEN|>'];
const R7B_CONTROLS = [START_ACTION, END_ACTION, '<|START_THINKING|>', '<|END_THINKING|>', START_RESPONSE, END_RESPONSE, '<|START_TOOL_RESULT|>', '<|END_TOOL_RESULT|>', ...TURN_CONTROLS];

const COHERE_CALL: CallObjectSpec = { nameKey: 'tool_name', argKeys: ['parameters'], extraKeys: ['tool_call_id'], argumentsOptional: true };

const err = (code: string, message: string): Note => ({ code, severity: 'error', message });

// ---------------------------------------------------------------------------------------
// Command R7B

const R7B_SYNTAX: ArrayCallSyntax = {
  open: START_ACTION,
  close: END_ACTION,
  trailer: END_OF_TURN,
  element: (obj, tools) => readCallObject(obj, undefined, tools, COHERE_CALL),
};

/** Read Command R7B output strictly: every `<|START_ACTION|>[…]<|END_ACTION|>`; the response markers are no content. */
export function readCommandR7b(text: string, tools: readonly ParseTool[] | undefined): DialectParse {
  const r = readArrayCalls(text, tools, R7B_SYNTAX);
  // the markers outside the calls' blocks (one walk over both, in text order)
  const blocks = [...r.consumed].sort((a, b) => a[0] - b[0]);
  const found: [number, number][] = [];
  for (const m of [START_RESPONSE, END_RESPONSE, END_OF_TURN]) {
    for (let at = text.indexOf(m); at >= 0; at = text.indexOf(m, at + m.length)) found.push([at, at + m.length]);
  }
  found.sort((a, b) => a[0] - b[0]);
  const markers: [number, number][] = [];
  let k = 0;
  for (const [a, b] of found) {
    while (k < blocks.length && blocks[k][1] <= a) k++;
    if (k < blocks.length && blocks[k][0] <= a) continue;
    markers.push([a, b]);
  }
  return { ...r, consumed: [...r.consumed, ...markers] };
}

// ---------------------------------------------------------------------------------------
// Command R+

const ACTION = 'Action:';
const FENCES = ['```json', '```JSON', '```'];
const FENCE = '```';

/** Read Command R+ output strictly: every `Action:` and its (fenced) JSON list of `{"tool_name": …, "parameters": {…}}`. */
export function readCommandRPlus(text: string, tools: readonly ParseTool[] | undefined): DialectParse {
  const calls: CallDraft[] = [];
  const consumed: [number, number][] = [];
  const textNotes: TextNote[] = [];
  const note = (at: number, n: Note, tool?: string) => textNotes.push({ at, note: n, ...(tool !== undefined ? { tool } : {}) });
  let pos = 0;
  while (pos < text.length) {
    const p = text.indexOf(ACTION, pos);
    if (p < 0) break;
    let j = skipWs(text, p + ACTION.length);
    const fence = FENCES.find((f) => text.startsWith(f, j));
    if (fence !== undefined) j = skipWs(text, j + fence.length);
    if (j >= text.length) {
      note(p, err('parse/truncated', `the output ends right after ${ACTION}: no call`));
      break;
    }
    if (text[j] !== '[') {
      note(p, { code: 'parse/empty-tool-call', severity: 'warning', message: `${ACTION} is not followed by a JSON list of actions: kept as text` });
      pos = p + ACTION.length;
      continue;
    }
    // the list, element by element
    const elements: [number, number][] = [];
    let listEnd = -1;
    let cutAt = -1;
    let malformedAt = -1;
    let i = skipWs(text, j + 1);
    if (text[i] === ']') listEnd = i + 1;
    while (listEnd < 0) {
      if (i >= text.length) break;
      if (text[i] !== '{') {
        malformedAt = i;
        break;
      }
      const e = jsonContainerEnd(text, i);
      if (e < 0) {
        cutAt = i;
        break;
      }
      elements.push([i, e]);
      const k = skipWs(text, e);
      if (k >= text.length) break;
      if (text[k] === ']') listEnd = k + 1;
      else if (text[k] !== ',') {
        malformedAt = k;
        break;
      } else i = skipWs(text, k + 1);
    }
    if (malformedAt >= 0) {
      note(malformedAt, err('parse/invalid-json', `the list of actions after ${ACTION} is not valid JSON here (${JSON.stringify(text.slice(malformedAt, malformedAt + 20))}): no call from it (the text stays content)`));
      pos = Math.max(malformedAt, p + ACTION.length);
      continue;
    }
    if (listEnd >= 0 && elements.length === 0) {
      note(p, { code: 'parse/empty-tool-call', severity: 'warning', message: `${ACTION} holds an empty list: no call, kept as text` });
      pos = listEnd;
      continue;
    }
    let blockEnd: number;
    let incomplete: string | undefined;
    if (listEnd >= 0) {
      blockEnd = listEnd;
      if (fence !== undefined) {
        const k = skipWs(text, listEnd);
        if (text.startsWith(FENCE, k)) blockEnd = k + FENCE.length;
        else if (k >= text.length) incomplete = `no closing ${FENCE}`;
        // the output stops inside the closing fence (one or two backticks): cut off while it was being written
        else if (FENCE.startsWith(text.slice(k))) {
          blockEnd = text.length;
          incomplete = `no closing ${FENCE} (the output ends inside it)`;
        }
        else note(k, { code: 'parse/unclosed', severity: 'warning', message: `no closing ${FENCE} after the list of actions (text follows): the calls are read, the text after them is content` });
      }
    } else {
      blockEnd = cutAt >= 0 ? cutAt : text.length;
      incomplete = `no ]${fence !== undefined ? ` and ${FENCE}` : ''}`;
      if (cutAt >= 0) note(cutAt, err('parse/truncated', "the output ends inside an action's JSON: no call (the text stays content)"));
      else if (elements.length === 0) note(p, err('parse/truncated', `the output ends inside the list of actions after ${ACTION}: no call`));
    }
    const kept: CallDraft[] = [];
    const dropped: [number, number][] = [];
    for (const [s, e] of elements) {
      const parsed = parseCallJson(text, s, e);
      if ('error' in parsed) {
        note(parsed.at, parsed.error);
        dropped.push([s, e]);
        continue;
      }
      const r = readCallObject(parsed.obj, text.slice(s, e), tools, COHERE_CALL);
      if ('error' in r) {
        note(s, r.error);
        dropped.push([s, e]);
        continue;
      }
      kept.push({ name: r.name, args: r.args, start: s, notes: r.notes, ...(incomplete !== undefined ? { incomplete } : {}) });
    }
    if (kept.length > 0) {
      pushAll(calls, kept);
      let from = p;
      for (const [s, e] of dropped) {
        if (s > from) consumed.push([from, s]);
        from = e;
      }
      if (blockEnd > from) consumed.push([from, blockEnd]);
    }
    if (listEnd < 0) break;
    pos = blockEnd;
  }
  if (consumed.length > 0) {
    for (const at of strayCloseTags(text, consumed, END_OF_TURN)) consumed.push([at, at + END_OF_TURN.length]);
  }
  return { calls, consumed, textNotes };
}

export const SYNTAXES: readonly FamilySyntax[] = [
  {
    name: 'command-r7b',
    example: '<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Paris"}}]<|END_ACTION|>',
    openers: [START_ACTION],
    controls: R7B_CONTROLS,
    read: readCommandR7b,
  },
  {
    name: 'command-r-plus',
    example: 'Action:\n```json\n[{"tool_name": "get_weather", "parameters": {"city": "Paris"}}]\n```',
    openers: [ACTION],
    controls: [ACTION, ...TURN_CONTROLS, '<results>', '</results>'],
    read: readCommandRPlus,
  },
];

export const SERVER_PARSERS: readonly ServerParserEntry[] = [];
