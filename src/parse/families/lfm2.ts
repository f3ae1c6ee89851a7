/**
 * LFM2 / LFM2.5 (Liquid AI) tool calls: a pythonic call list between special tokens,
 * `<|tool_call_start|>[get_weather(city="Paris")]<|tool_call_end|>`, read with Python's grammar
 * (./pythonic.ts).
 *
 * - vLLM `lfm2` (`vllm/tool_parsers/lfm2_tool_parser.py` @ 93e3bc8f): only the first block, from
 *   the first `<|tool_call_start|>` to the first `<|tool_call_end|>` after it (or to the end);
 *   its text stripped must be `[…]` and a Python module whose first statement is a list of calls
 *   (`utils.handle_single_tool`: constants, lists, dicts with constant keys, null/true/false;
 *   `-0.25` is a UnaryOp and fails it). Content: the text before the block and after it (up to
 *   and through the last orphan `<|tool_call_end|>`, the model's echo), each stripped, joined
 *   by a newline; null when both are empty. Any failure: no calls, the whole output as content.
 * - SGLang `lfm2` (`python/sglang/srt/function_call/lfm2_detector.py` @ 8471c9eb): every
 *   `<|tool_call_start|>(.*?)<|tool_call_end|>` block; a block starting `[{` or `{` is first read
 *   as JSON (`parse_base_json`: `name` in the tools, `parameters` or `arguments`), else as Python:
 *   a list of calls or a single call, negative numbers and tuples read, True/False/None; a call
 *   to an unknown tool or through a dotted name, or with a value it cannot read, is skipped; a
 *   value json.dumps refuses drops the whole block. `normal_text` is only the text before the
 *   first start token, stripped.
 * - `lfm2` (strict): each `<|tool_call_start|>` block holds one `[call, …]` list (Python literals;
 *   a JSON `[{"name": …, "arguments": {…}}]` list is read too, as LFM2 writes it when asked for
 *   JSON); a block the output ends in returns its whole calls marked incomplete; stray
 *   `<|tool_call_end|>` tokens are dropped from the content with a warning.
 */
import { isJsonObject, JsonSyntaxError, parseJson, type JsonValue } from '../../ir/json.js';
import { checkValue, declaredParameters, parameterSchema, shown, type Note } from '../xml/decode.js';
import type { CallDraft, DialectParse, TextNote } from '../xml/draft.js';
import { jsonContainerEnd } from '../xml/hermes.js';
import { PyDict, PythonException, pyFloat, pyInt, pyStrip, pyTypeName, pythonJsonDumps, pythonJsonLoads, type PyValue } from '../xml/python-values.js';
import { findTool, type ParseTool } from '../xml/tools.js';
import { callListAhead, droppedNotes, pythonFirstStatementValue, readCallList, regionMinus, sglangToolNames, strayTokens, forwardFinder, vllmHandleSingleTool, type PyExpr } from './pythonic.js';
import { SGLANG_COMMIT, VLLM_COMMIT, type FamilySyntax, type ParserResult, type ServerCall, type ServerParserEntry } from './types.js';
import { pyValueTruthy } from '../../emit/python/json-loads.js';
import { pushAll } from '../../ir/arrays.js';

const START = '<|tool_call_start|>';
const END = '<|tool_call_end|>';

// ---------------------------------------------------------------------------------------
// vLLM

function vllmLfm2(text: string): ParserResult {
  const fallback: ParserResult = { content: text, tool_calls: [], tools_called: false };
  const s = text.indexOf(START);
  if (s < 0) return fallback;
  const e = text.indexOf(END, s);
  const before = pyStrip(text.slice(0, s));
  let toolText: string;
  let content: string | null;
  if (e < 0) {
    toolText = text.slice(s + START.length);
    content = before === '' ? null : before;
  } else {
    toolText = text.slice(s + START.length, e);
    let after = text.slice(e + END.length);
    const orphan = after.lastIndexOf(END);
    if (orphan >= 0) after = after.slice(orphan + END.length);
    after = pyStrip(after);
    const parts = [before, after].filter((p) => p !== '');
    content = parts.length > 0 ? parts.join('\n') : null;
  }
  toolText = pyStrip(toolText);
  // TOOL_CALL_REGEX `\[.*\]$` (DOTALL), matched at 0: the stripped text is `[` … `]`
  if (toolText.length < 2 || toolText[0] !== '[' || !toolText.endsWith(']')) return fallback;
  try {
    const v = pythonFirstStatementValue(toolText);
    if (v === undefined || v === null || v.k !== 'List' || !v.elts.every((x) => x.k === 'Call')) return fallback;
    const calls = v.elts.map(vllmHandleSingleTool);
    // no <|tool_call_end|>: the rest of the output was read as the block (it may be cut off)
    return { content, tool_calls: e < 0 ? calls.map((c) => ({ ...c, incomplete: `no ${END}` })) : calls, tools_called: true };
  } catch (err) {
    if (err instanceof PythonException) return fallback;
    throw err;
  }
}

// ---------------------------------------------------------------------------------------
// SGLang

/** `Lfm2Detector._get_parameter_value`: constants, dicts (None keys of `**` skipped), lists, tuples, True/False/None names, `-number`; ValueError otherwise. */
function sglangValue(n: PyExpr): PyValue {
  switch (n.k) {
    case 'Constant':
      return n.v;
    case 'Dict': {
      const d = new PyDict();
      n.keys.forEach((k, i) => {
        if (k === null) return;
        const key = sglangValue(k);
        const value = sglangValue(n.values[i]);
        d.set(key, value);
      });
      return d;
    }
    case 'List':
      return { t: 'list', items: n.elts.map(sglangValue) };
    case 'Tuple':
      return { t: 'tuple', items: n.elts.map(sglangValue) };
    case 'Name':
      if (n.id === 'True') return true;
      if (n.id === 'False') return false;
      if (n.id === 'None') return null;
      throw new PythonException('ValueError', `Unsupported name reference: ${n.id}`);
    case 'UnaryOp':
      if (n.op === 'USub') {
        const inner = sglangValue(n.operand);
        if (typeof inner === 'boolean') return pyInt(inner ? -1n : 0n);
        if (inner !== null && typeof inner === 'object' && inner.t === 'int') return pyInt(-inner.v);
        if (inner !== null && typeof inner === 'object' && inner.t === 'float') return pyFloat(-inner.v);
        throw new PythonException('ValueError', `Cannot negate non-numeric value: ${pyTypeName(inner)}`);
      }
  }
  throw new PythonException('ValueError', `Tool call arguments must be literals, got: ${n.k}`);
}

/** `_parse_pythonic_call`: undefined when the call is skipped. */
function sglangPythonicCall(call: PyExpr, names: ReadonlySet<string>): ServerCall | undefined {
  if (call.k !== 'Call' || call.func.k !== 'Name') return undefined;
  const name = call.func.id;
  if (!names.has(name)) return undefined;
  const args = new PyDict();
  for (const kw of call.keywords) {
    if (kw.arg === null) continue;
    try {
      args.set(kw.arg, sglangValue(kw.value));
    } catch (e) {
      if (e instanceof PythonException && e.type === 'ValueError') return undefined;
      throw e;
    }
  }
  return { name, arguments: pythonJsonDumps(args, { ensureAscii: false }) };
}

/** `_parse_pythonic_content`: a list of calls or one call; any exception inside returns no calls. */
function sglangPythonicContent(content: string, tools: readonly ParseTool[] | undefined): ServerCall[] {
  const names = sglangToolNames(tools);
  try {
    const v = pythonFirstStatementValue(pyStrip(content));
    if (v === undefined || v === null) return [];
    const nodes = v.k === 'List' ? v.elts : v.k === 'Call' ? [v] : undefined;
    if (nodes === undefined || !nodes.every((x) => x.k === 'Call')) return [];
    const calls: ServerCall[] = [];
    for (const node of nodes) {
      const c = sglangPythonicCall(node, names);
      if (c) calls.push(c);
    }
    return calls;
  } catch (e) {
    if (e instanceof PythonException) return [];
    throw e;
  }
}


/** `BaseFormatDetector.parse_base_json` (its exceptions propagate out of detect_and_parse). */
function sglangParseBaseJson(action: PyValue, tools: readonly ParseTool[] | undefined): ServerCall[] {
  const names = sglangToolNames(tools);
  const acts = action !== null && typeof action === 'object' && action.t === 'list' ? action.items : [action];
  const out: ServerCall[] = [];
  for (const act of acts) {
    if (!(act instanceof PyDict)) throw new PythonException('AttributeError', `'${pyTypeName(act)}' object has no attribute 'get'`);
    const name = act.get('name') ?? null;
    if (!pyValueTruthy(name)) continue;
    if (name !== null && typeof name === 'object' && (name.t === 'list' || name.t === 'dict')) throw new PythonException('TypeError', `unhashable type: '${name.t}'`);
    if (typeof name !== 'string' || !names.has(name)) continue;
    const params = act.get('parameters') ?? null;
    const args = pyValueTruthy(params) ? params : act.has('arguments') ? act.get('arguments')! : new PyDict();
    out.push({ name, arguments: pythonJsonDumps(args, { ensureAscii: false }) });
  }
  return out;
}

function sglangBlock(block: string, tools: readonly ParseTool[] | undefined): ServerCall[] {
  const content = pyStrip(block);
  if (content.startsWith('[{') || content.startsWith('{')) {
    let parsed: PyValue | undefined;
    try {
      parsed = pythonJsonLoads(content);
    } catch (e) {
      if (!(e instanceof PythonException && e.type === 'JSONDecodeError')) throw e;
    }
    if (parsed !== undefined) {
      const calls = sglangParseBaseJson(parsed, tools);
      if (calls.length > 0) return calls;
    }
  }
  return sglangPythonicContent(content, tools);
}

function sglangLfm2(text: string, tools: readonly ParseTool[] | undefined): ParserResult {
  const s = text.indexOf(START);
  if (s < 0) return { content: text, tool_calls: [], tools_called: false, has_tool_call: false };
  const normal = pyStrip(text.slice(0, s));
  const calls: ServerCall[] = [];
  try {
    // re.findall(START(.*?)END, DOTALL)
    for (let p = s; p >= 0; p = text.indexOf(START, p)) {
      const e = text.indexOf(END, p + START.length);
      if (e < 0) break;
      pushAll(calls, sglangBlock(text.slice(p + START.length, e), tools));
      p = e + END.length;
    }
  } catch (e) {
    if (e instanceof PythonException) return { content: text, tool_calls: [], tools_called: false, has_tool_call: true, exception: `${e.type}: ${e.detail}` };
    throw e;
  }
  return { content: normal, tool_calls: calls, tools_called: calls.length > 0, has_tool_call: true };
}

// ---------------------------------------------------------------------------------------
// The strict reading

const SPELLING = { jsonNames: false };

/** A JSON call list (`[{"name": …, "arguments": {…}}, …]` or one object) read strictly; undefined when it is no JSON. */
function readJsonCalls(text: string, at: number, end: number, tools: readonly ParseTool[] | undefined): { calls: CallDraft[]; notes: TextNote[] } | { invalid: string } {
  let v: JsonValue;
  try {
    v = parseJson(text.slice(at, end));
  } catch (e) {
    if (e instanceof JsonSyntaxError) return { invalid: `the JSON is not valid: ${e.message}` };
    throw e;
  }
  const items = Array.isArray(v) ? v : [v];
  const calls: CallDraft[] = [];
  const notes: TextNote[] = [];
  for (const item of items) {
    const name = isJsonObject(item) ? item.get('name') : undefined;
    const args = isJsonObject(item) ? (item.get('arguments') ?? item.get('parameters')) : undefined;
    if (!isJsonObject(item) || typeof name !== 'string' || (args !== undefined && !isJsonObject(args))) {
      notes.push({ at, note: { code: 'parse/invalid-call', severity: 'error', message: `a JSON call must be {"name": string, "arguments": object}, not ${shown(item)}: no call` } });
      continue;
    }
    const drafted: { note: Note; param?: string }[] = [];
    const obj = isJsonObject(args) ? args : new Map<string, JsonValue>();
    const tool = findTool(tools, name);
    const declared = tool ? declaredParameters(tool.parameters) : undefined;
    if (declared) for (const [k, x] of obj) if (declared.has(k)) for (const n of checkValue(x, parameterSchema(tool!.parameters, k)!)) drafted.push({ param: k, note: n });
    calls.push({ name, args: obj, start: at, notes: drafted });
  }
  return { calls, notes };
}

function readLfm2(text: string, tools: readonly ParseTool[] | undefined): DialectParse {
  const calls: CallDraft[] = [];
  const consumed: [number, number][] = [];
  const textNotes: TextNote[] = [];
  const blank = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
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
    const following = nextStart >= 0 && (!closed || nextStart >= blockEnd) ? nextStart : -1;
    const next = () => (s = following >= 0 ? following : findStart(blockEnd));
    let j = from;
    while (j < to && blank(text[j])) j++;
    const unclosed = !closed && to < text.length;
    if (unclosed) textNotes.push({ at: s, note: { code: 'parse/unclosed', severity: 'warning', message: `no ${END} before the next ${START}: the block ends there` } });
    const incomplete = !closed && to === text.length ? `no ${END}` : undefined;
    if (text.startsWith('[{', j) || text[j] === '{') {
      const inBlock = jsonContainerEnd(text.slice(j, to), 0);
      const jsonEnd = inBlock < 0 ? -1 : j + inBlock;
      if (jsonEnd < 0) {
        textNotes.push({ at: s, note: incomplete ? { code: 'parse/truncated', severity: 'error', message: 'the output ends inside the JSON of a call: no call (the text stays content)' } : { code: 'parse/invalid-json', severity: 'error', message: 'the JSON of the block is not closed before the block ends: no call (the text stays content)' } });
        if (incomplete) break;
        next();
        continue;
      }
      const r = readJsonCalls(text, j, jsonEnd, tools);
      if ('invalid' in r) {
        textNotes.push({ at: j, note: { code: 'parse/invalid-json', severity: 'error', message: `${r.invalid}: no call (the text stays content)` } });
        next();
        continue;
      }
      pushAll(textNotes, r.notes);
      let k = jsonEnd;
      while (k < to && blank(text[k])) k++;
      if (k < to) textNotes.push({ at: k, note: { code: 'parse/unexpected-text', severity: 'warning', message: `text after the calls inside the block: ${JSON.stringify(text.slice(k, Math.min(to, k + 40)))} (kept as content)` } });
      pushAll(calls, r.calls.map((c) => (incomplete ? { ...c, start: s, incomplete } : { ...c, start: s })));
      pushAll(consumed, (k < to ? [[s, k] as [number, number], ...(closed ? [[e, blockEnd] as [number, number]] : [])] : [[s, blockEnd] as [number, number]]));
      next();
      continue;
    }
    if (text[j] !== '[') {
      const what = j >= to ? 'nothing' : JSON.stringify(text.slice(j, Math.min(to, j + 40)));
      if (j >= to && incomplete) textNotes.push({ at: s, note: { code: 'parse/truncated', severity: 'error', message: `the output ends right after ${START}: no call` } });
      else textNotes.push({ at: s, note: { code: 'parse/empty-tool-call', severity: 'warning', message: `${START} is followed by ${what}, not a call list: kept as text` } });
      if (incomplete) break;
      next();
      continue;
    }
    const ahead = callListAhead(text, j, to);
    if (ahead === 'cut' && incomplete) {
      textNotes.push({ at: j, note: { code: 'parse/truncated', severity: 'error', message: 'the output ends inside the call list, before a call is whole: no call (the text stays content)' } });
      break;
    }
    const r = ahead === 'yes' ? readCallList(text, j, to, tools, SPELLING) : undefined;
    if (r === undefined || r.kind === 'invalid') {
      const why = r === undefined ? 'it holds no `name(` call' : r.why;
      textNotes.push({ at: j, note: { code: 'parse/invalid-call', severity: 'error', message: `the call list is not valid Python (${why}): no call (the text stays content)` } });
      next();
      continue;
    }
    pushAll(textNotes, droppedNotes(r.dropped));
    if (r.kind === 'cut') {
      pushAll(calls, r.calls.map((c) => ({ ...c, incomplete: `no ] and no ${END}` })));
      if (r.cutAt !== undefined) textNotes.push({ at: r.cutAt, note: { code: 'parse/truncated', severity: 'error', message: 'the output ends inside this call: no call (its text stays content)' } });
      if (r.calls.length > 0 || r.cutAt === undefined) pushAll(consumed, regionMinus(s, r.cutAt ?? text.length, r.dropped));
      break;
    }
    let k = r.end;
    while (k < to && blank(text[k])) k++;
    if (k < to) textNotes.push({ at: k, note: { code: 'parse/unexpected-text', severity: 'warning', message: `text after the call list inside the block: ${JSON.stringify(text.slice(k, Math.min(to, k + 40)))} (kept as content)` } });
    pushAll(calls, r.calls.map((c) => (incomplete ? { ...c, incomplete } : c)));
    if (k < to) pushAll(consumed, regionMinus(s, k, r.dropped), (closed ? [[e, blockEnd] as [number, number]] : []));
    else pushAll(consumed, regionMinus(s, blockEnd, r.dropped));
    next();
  }
  strayTokens(text, END, consumed, textNotes, (at) => ({ at, note: { code: 'parse/stray-close-tag', severity: 'warning', message: `${END} closes no ${START} block: dropped from the content` } }), closers);
  return { calls, consumed, textNotes };
}

export const SYNTAXES: readonly FamilySyntax[] = [
  {
    name: 'lfm2',
    example: '<|tool_call_start|>[get_weather(city="Paris", days=3)]<|tool_call_end|>',
    openers: [START],
    controls: [START, END],
    read: readLfm2,
  },
];

export const SERVER_PARSERS: readonly ServerParserEntry[] = [
  {
    server: 'vllm',
    name: 'lfm2',
    file: 'vllm/tool_parsers/lfm2_tool_parser.py',
    commit: VLLM_COMMIT,
    parse: (text) => vllmLfm2(text),
  },
  {
    server: 'sglang',
    name: 'lfm2',
    file: 'python/sglang/srt/function_call/lfm2_detector.py',
    commit: SGLANG_COMMIT,
    parse: sglangLfm2,
  },
];
