/**
 * Qwen3-Coder tool calls: `<tool_call>\n<function=NAME>\n<parameter=K>\nV\n</parameter>\n</function>\n</tool_call>`
 * (models/templates/qwen3-coder.ts: objects and arrays `tojson`, other non-strings Jinja `| string`,
 * `True`, `None`). No reasoning markers.
 *
 * SGLang `qwen3_coder` (`python/sglang/srt/function_call/qwen3_coder_detector.py`) at
 * {@link SGLANG_COMMIT}, non-streaming `detect_and_parse`:
 * - blocks: each `<tool_call>` to the first `</tool_call>` after it; when no block is closed and the
 *   text holds `<function=`, the whole text is one block
 * - in a block, each `<function=` to the first `</function>` (or to the end): the name up to the
 *   first `>` (a body without `>` is no call); each `<parameter=` up to the first `</parameter>`,
 *   `<parameter=`, `</function>` or the end (`$`: also before a final newline), the name up to the
 *   first `>` (none: skipped), one newline stripped at each end of the value; a repeated name keeps
 *   its first place and its last value
 * - values (`_convert_param_value`): `null` in any case is None; a parameter the tool (the first of
 *   the request with the name: its `properties`, or its parameters) does not name stays text; else by
 *   `str(type).strip().lower()`: string types text; `int…` `int()`; `num…`/`float…` `float()`, made an
 *   int when whole and written without `.`/`e`; boolean types `== "true"` (any case); object/array
 *   types `json.loads`, else (and every other type) `ast.literal_eval`, else text
 * - every call is returned, a tool the request does not name too; arguments `json.dumps(…,
 *   ensure_ascii=False)`; content is the text before the first `<tool_call>`, as it is
 * - any exception (a value json.dumps refuses: a set, bytes) gives no calls and the whole text
 *
 * A call the output ended inside of (the last call when no block was closed) is returned as SGLang
 * returns it, marked incomplete: never runnable.
 *
 * The strict reading is the XML reader (../xml/xml-calls.ts, QWEN3_CODER_SYNTAX); a `</tool_call>`
 * right after a call that closes no block is left out of the content with a warning.
 */
import { isJsonObject, type JsonValue } from '../../ir/json.js';
import { pyStr } from '../../emit/python/values.js';
import { pythonLiteralEval } from '../xml/literal-eval.js';
import { PyDict, pyFloat, pyInt, PythonException, pythonFloatOf, pythonIntOf, pythonJsonDumps, pythonJsonLoads, pyStrip, type PyValue } from '../xml/python-values.js';
import { argumentsConfigOld, pyContains, pyGetItem, type ParseTool } from '../xml/tools.js';
import { finder, withStrayCloses } from '../xml/draft.js';
import { parseXmlCalls, QWEN3_CODER_SYNTAX } from '../xml/xml-calls.js';
import { SGLANG_COMMIT, type FamilySyntax, type ParserResult, type ServerCall, type ServerParserEntry } from './types.js';

const TC_START = '<tool_call>';
const TC_END = '</tool_call>';
const FN_PREFIX = '<function=';
const FN_END = '</function>';
const P_PREFIX = '<parameter=';
const P_END = '</parameter>';

const STRING_TYPES = ['string', 'str', 'text', 'varchar', 'char', 'enum'];


/** `_convert_param_value` of the SGLang detector. */
function convertValue(value: string, name: string, config: JsonValue): PyValue {
  if (value.toLowerCase() === 'null') return null;
  if (!pyContains(config, name)) return value;
  const entry = pyGetItem(config, name);
  const type = isJsonObject(entry) && entry.has('type') ? pyStrip(pyStr(entry.get('type')!)).toLowerCase() : 'string';
  if (STRING_TYPES.includes(type)) return value;
  if (type.startsWith('int') || type.startsWith('uint') || type.startsWith('long') || type.startsWith('short') || type.startsWith('unsigned')) {
    try {
      return pyInt(pythonIntOf(value));
    } catch (e) {
      if (e instanceof PythonException) return value;
      throw e;
    }
  }
  if (type.startsWith('num') || type.startsWith('float')) {
    const maybeInt = !(value.includes('.') || value.toLowerCase().includes('e'));
    try {
      const f = pythonFloatOf(value);
      return maybeInt && Number.isInteger(f) ? pyInt(BigInt(f)) : pyFloat(f);
    } catch (e) {
      if (e instanceof PythonException) return value;
      throw e;
    }
  }
  if (type === 'boolean' || type === 'bool' || type === 'binary') return value.toLowerCase() === 'true';
  if (type === 'object' || type === 'array' || type === 'arr' || type.startsWith('dict') || type.startsWith('list')) {
    try {
      return pythonJsonLoads(value);
    } catch (e) {
      if (!(e instanceof PythonException)) throw e;
    }
  }
  try {
    return pythonLiteralEval(value);
  } catch (e) {
    if (e instanceof PythonException) return value;
    throw e;
  }
}

/** A `<parameter=…` match: its text and whether it ran to the end of the function body. */
interface ParamMatch {
  readonly body: string;
  readonly toEnd: boolean;
}

/** `<parameter=(.*?)(?:</parameter>|(?=<parameter=)|(?=</function>)|$)` findall (DOTALL). */
function parameterMatches(s: string): ParamMatch[] {
  const out: ParamMatch[] = [];
  const find = finder(s);
  const n = s.length;
  // `$` matches at the end and before a final newline
  const dollar = s.endsWith('\n') ? n - 1 : n;
  for (let p = find(P_PREFIX, 0); p >= 0; ) {
    const from = p + P_PREFIX.length;
    let end = n;
    let toEnd = true;
    for (const m of [P_END, P_PREFIX, FN_END]) {
      const i = find(m, from);
      if (i >= 0 && i < end) end = i;
    }
    const eos = dollar >= from ? dollar : n;
    if (eos < end) end = eos;
    else toEnd = end >= dollar;
    out.push({ body: s.slice(from, end), toEnd });
    const resume = s.startsWith(P_END, end) ? end + P_END.length : end;
    p = find(P_PREFIX, resume);
  }
  return out;
}

/** A matched body, and whether its closing tag came. */
interface Body {
  readonly body: string;
  readonly closed: boolean;
}

/** `<function=(.*?)</function>|<function=(.*)$` findall (DOTALL: the second takes the rest). */
function functionBodies(s: string): Body[] {
  const out: Body[] = [];
  for (let f = s.indexOf(FN_PREFIX); f >= 0; ) {
    const from = f + FN_PREFIX.length;
    const c = s.indexOf(FN_END, from);
    if (c < 0) {
      out.push({ body: s.slice(from), closed: false });
      break;
    }
    out.push({ body: s.slice(from, c), closed: true });
    f = s.indexOf(FN_PREFIX, c + FN_END.length);
  }
  return out;
}

/** SGLang `Qwen3CoderDetector.detect_and_parse`. */
function sglangQwen3Coder(text: string, tools: readonly ParseTool[] | undefined): ParserResult {
  const start = text.indexOf(TC_START);
  if (start < 0) return { content: text, tool_calls: [], tools_called: false, has_tool_call: false };
  try {
    // `<tool_call>(.*?)</tool_call>` findall
    let blocks: Body[] = [];
    for (let p = start; p >= 0; ) {
      const c = text.indexOf(TC_END, p + TC_START.length);
      if (c < 0) break;
      blocks.push({ body: text.slice(p + TC_START.length, c), closed: true });
      p = text.indexOf(TC_START, c + TC_END.length);
    }
    if (blocks.length === 0 && text.includes(FN_PREFIX)) blocks = [{ body: text, closed: false }];
    const calls: ServerCall[] = [];
    for (const block of blocks) {
      const funcs = functionBodies(block.body);
      funcs.forEach((fn, k) => {
        const gt = fn.body.indexOf('>');
        if (gt < 0) return;
        const name = fn.body.slice(0, gt);
        const config = argumentsConfigOld(tools, name);
        const params = new PyDict();
        let lastToEnd = false;
        for (const m of parameterMatches(fn.body.slice(gt + 1))) {
          const i = m.body.indexOf('>');
          if (i < 0) continue;
          let value = m.body.slice(i + 1);
          if (value.startsWith('\n')) value = value.slice(1);
          if (value.endsWith('\n')) value = value.slice(0, -1);
          params.set(m.body.slice(0, i), convertValue(value, m.body.slice(0, i), config));
          lastToEnd = m.toEnd;
        }
        const call: ServerCall = { name, arguments: pythonJsonDumps(params) };
        // the output ended in the last call of a text whose block never closed
        if (!block.closed && k === funcs.length - 1) {
          const missing = [...(!fn.closed && lastToEnd ? [P_END] : []), ...(!fn.closed ? [FN_END] : []), TC_END];
          calls.push({ ...call, incomplete: missing.map((m) => `no ${m}`).join(', ') });
        } else calls.push(call);
      });
    }
    return { content: start > 0 ? text.slice(0, start) : '', tool_calls: calls, tools_called: calls.length > 0, has_tool_call: true };
  } catch (e) {
    if (!(e instanceof PythonException)) throw e;
    // `except Exception` (logged): the whole text, no calls
    return { content: text, tool_calls: [], tools_called: false, has_tool_call: true };
  }
}

export const SYNTAXES: readonly FamilySyntax[] = [
  {
    name: 'qwen3-coder',
    example: '<tool_call>\\n<function=get_weather>\\n<parameter=city>\\nParis\\n</parameter>\\n</function>\\n</tool_call>',
    openers: [TC_START, FN_PREFIX],
    controls: [TC_START, TC_END, FN_PREFIX, FN_END, P_PREFIX, P_END],
    read: (text, tools) => withStrayCloses(text, parseXmlCalls(text, tools, QWEN3_CODER_SYNTAX), TC_END, TC_START),
  },
];

export const SERVER_PARSERS: readonly ServerParserEntry[] = [
  { server: 'sglang', name: 'qwen3_coder', file: 'python/sglang/srt/function_call/qwen3_coder_detector.py', commit: SGLANG_COMMIT, parse: sglangQwen3Coder },
];
