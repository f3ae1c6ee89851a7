/**
 * Default-mode parsing of the Hermes/Qwen JSON call format,
 * `<tool_call>\n{"name": "f", "arguments": {…}}\n</tool_call>`, call by call:
 *
 * - each call's JSON object ends where its braces close (strings read as strings), so a
 *   `</tool_call>` inside a JSON string does not cut it
 * - the JSON is RFC 8259 JSON (no NaN, no Infinity, numbers within double range), read
 *   losslessly (number text kept); a call whose JSON fails is dropped with an error and its text
 *   stays content, the other calls are kept
 * - `arguments` must be an object: a JSON string holding an object, `null` or a missing
 *   `arguments` are read with a warning; anything else drops the call
 * - a missing `</tool_call>` before the next `<tool_call>` is a warning; the output ending after
 *   the JSON without `</tool_call>` returns the call marked incomplete (never runnable: it may be
 *   cut off); the output ending inside the JSON drops the call
 * - argument values are checked against the tool's schema (type, enum) and kept as written
 */
import { isJsonObject, JsonSyntaxError, parseJson, type JsonObject, type JsonValue } from '../../ir/json.js';
import { checkValue, declaredParameters, MAX_VALUE_DEPTH, nestsDeeper, parameterSchema, shown, type Note } from './decode.js';
import { finder, type CallDraft, type DialectParse, type TextNote, skipWs } from './draft.js';
import { PythonException, pythonJsonLoads } from './python-values.js';
import { findTool, type ParseTool } from './tools.js';
import { isPlausibleFunctionName } from './vllm-qwen3-coder.js';

const START = '<tool_call>';
const END = '</tool_call>';
/** Index after the JSON object or array starting at `at` (brackets matched outside strings), or -1 when the text ends first. */
export function jsonContainerEnd(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (i >= text.length) return -1;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}


/** The call's `arguments` as an object, with what it took; undefined (and an error) when it cannot be one. */
function argumentsOf(call: JsonObject, notes: Note[]): JsonObject | undefined {
  if (!call.has('arguments')) {
    notes.push({ code: 'parse/coerced', severity: 'warning', message: 'the call has no "arguments": read as {}' });
    return new Map();
  }
  const args = call.get('arguments')!;
  if (isJsonObject(args)) return args;
  if (args === null) {
    notes.push({ code: 'parse/coerced', severity: 'warning', message: '"arguments" is null: read as {}' });
    return new Map();
  }
  if (typeof args === 'string') {
    try {
      const inner = parseJson(args);
      if (isJsonObject(inner)) {
        notes.push({ code: 'parse/coerced', severity: 'warning', message: '"arguments" is a JSON string holding an object: decoded' });
        return inner;
      }
    } catch (e) {
      if (!(e instanceof JsonSyntaxError)) throw e;
    }
  }
  notes.push({ code: 'parse/invalid-call', severity: 'error', message: `"arguments" is not an object (${shown(args)}): no call` });
  return undefined;
}

/** Scan one output in the Hermes/Qwen JSON format. */
export function parseJsonCalls(text: string, tools: readonly ParseTool[] | undefined): DialectParse {
  const find = finder(text);
  const calls: CallDraft[] = [];
  const consumed: [number, number][] = [];
  const textNotes: TextNote[] = [];
  const note = (at: number, code: string, severity: Note['severity'], message: string, tool?: string) =>
    textNotes.push({ at, note: { code, severity, message }, ...(tool !== undefined ? { tool } : {}) });

  let pos = 0;
  for (;;) {
    const p = find(START, pos);
    if (p < 0) break;
    const j = skipWs(text, p + START.length);
    if (text[j] !== '{') {
      const c = find(END, p + START.length);
      // only its start is shown: a slice of what may be the rest of a long output would make a run of openers quadratic
      const body = text.slice(j, Math.min(c < 0 ? text.length : c, j + 64));
      if (body.startsWith('<function=')) note(p, 'parse/wrong-dialect', 'warning', 'this <tool_call> holds a <function=…> call, the Qwen3-Coder format: parse it with model "qwen3-coder"; kept as text here');
      else if (body === '') note(p, 'parse/empty-tool-call', 'warning', '<tool_call> holds no call: kept as text');
      else note(p, 'parse/empty-tool-call', 'warning', `<tool_call> is not followed by a JSON object (${JSON.stringify(body.slice(0, 40))}): kept as text`);
      pos = c < 0 ? p + START.length : c + END.length;
      continue;
    }
    const jsonEnd = jsonContainerEnd(text, j);
    if (jsonEnd < 0) {
      note(p, 'parse/truncated', 'error', 'the output ends inside the JSON of a <tool_call>: no call (the text stays content)');
      break;
    }
    const k = skipWs(text, jsonEnd);
    const closed = text.startsWith(END, k);
    let blockEnd = closed ? k + END.length : k;
    if (!closed && k < text.length && !text.startsWith(START, k)) {
      const c = find(END, k);
      blockEnd = c < 0 ? text.length : c + END.length;
      note(k, 'parse/invalid-json', 'error', `text after the call's JSON object inside <tool_call>: ${JSON.stringify(text.slice(k, Math.min(k + 40, blockEnd)))}; no call (the text stays content)`);
      pos = blockEnd;
      continue;
    }
    pos = blockEnd;
    const jsonText = text.slice(j, jsonEnd);
    let call: JsonValue;
    try {
      call = parseJson(jsonText);
    } catch (e) {
      if (!(e instanceof JsonSyntaxError)) throw e;
      note(j + e.offset, 'parse/invalid-json', 'error', `the call's JSON is not valid: ${e.message} (of the call); no call (the text stays content)`);
      continue;
    }
    if (nestsDeeper(call)) {
      note(j, 'parse/invalid-json', 'error', `the call's JSON nests deeper than ${MAX_VALUE_DEPTH} levels: no call (the text stays content)`);
      continue;
    }
    if (!isJsonObject(call)) {
      note(j, 'parse/invalid-call', 'error', 'the call is not a JSON object: no call');
      continue;
    }
    const name = call.get('name');
    if (typeof name !== 'string') {
      note(j, 'parse/invalid-call', 'error', name === undefined ? 'the call has no "name": no call' : `the call's "name" is not a string (${shown(name)}): no call`);
      continue;
    }
    const tool = findTool(tools, name);
    if (!tool && !isPlausibleFunctionName(name)) {
      note(j, 'parse/invalid-name', 'error', `${JSON.stringify(name)} is not a function name (empty, or holding whitespace, quotes, braces or angle brackets) and no tool has it: no call (the text stays content)`);
      continue;
    }
    const notes: Note[] = [];
    const args = argumentsOf(call, notes);
    if (args === undefined) {
      for (const n of notes) note(j, n.code, n.severity, n.message, name);
      continue;
    }
    const drafted: { note: Note; param?: string }[] = notes.map((n) => ({ note: n }));
    const duplicates = new Set<string>();
    try {
      pythonJsonLoads(jsonText, (key) => duplicates.add(key));
    } catch (e) {
      if (!(e instanceof PythonException)) throw e;
    }
    for (const key of duplicates) drafted.push({ ...(args.has(key) ? { param: key } : {}), note: { code: 'parse/duplicate-parameter', severity: 'warning', message: `the key ${JSON.stringify(key)} is given twice in the call's JSON: the last value is used` } });
    for (const key of call.keys()) {
      if (key !== 'name' && key !== 'arguments') drafted.push({ note: { code: 'parse/ignored-key', severity: 'info', message: `the call's ${JSON.stringify(key)} key is not part of the call format: ignored` } });
    }
    if (tools !== undefined && !tool) drafted.push({ note: { code: 'parse/unknown-tool', severity: 'warning', message: `no tool is named ${JSON.stringify(name)}` } });
    const declared = tool ? declaredParameters(tool.parameters) : undefined;
    if (declared) {
      for (const [key, value] of args) {
        if (!declared.has(key)) drafted.push({ param: key, note: { code: 'parse/unknown-parameter', severity: 'warning', message: `${JSON.stringify(name)} declares no parameter ${JSON.stringify(key)}` } });
        else for (const n of checkValue(value, parameterSchema(tool!.parameters, key)!)) drafted.push({ param: key, note: n });
      }
    }
    // the output ends before </tool_call>: the call may be cut off (incomplete); another <tool_call> after it: only the tag is missing
    const incomplete = !closed && k >= text.length;
    if (!closed && !incomplete) drafted.push({ note: { code: 'parse/unclosed', severity: 'warning', message: `no </tool_call> after the call to ${JSON.stringify(name)} (another <tool_call> follows): its JSON is complete, so it is read` } });
    calls.push({ name, args, start: p, notes: drafted, ...(incomplete ? { incomplete: `no ${END}` } : {}) });
    consumed.push([p, blockEnd]);
  }
  return { calls, consumed, textNotes };
}
