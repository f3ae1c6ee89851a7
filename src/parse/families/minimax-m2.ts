/**
 * MiniMax-M2 tool calls: `<minimax:tool_call>\n<invoke name="NAME">\n<parameter name="K">V</parameter>\n</invoke>\n</minimax:tool_call>`
 * (models/templates/minimax-m2.ts: a string value as it is, any other value `tojson`). Reasoning is
 * `<think>…</think>` before the calls (split off by the caller).
 *
 * SGLang `minimax-m2` (`python/sglang/srt/function_call/minimax_m2.py`) at {@link SGLANG_COMMIT},
 * non-streaming `detect_and_parse` (`_extract`):
 * - a block is `<minimax:tool_call>` up to the first `</minimax:tool_call>`; a block never closed
 *   stays content with everything after it; content is the text outside the closed blocks, as it is
 * - in a block, each `<invoke name="` up to the next `</invoke>` (or the block's end): the name up to
 *   the first `">`, stripped; each `<parameter name="` up to the next `</parameter>` (or the end),
 *   the name up to `">`, the value with newlines stripped at both ends; a repeated name keeps its place
 * - a value by the types the tool's schema names (type, type lists, enum, anyOf/oneOf/allOf; none:
 *   string): `null`/`none`/`nil` (any case), or any value when `null` is among the types, is None;
 *   then integer (`int()`), number (`float()`, integral values as int), boolean (`true/1/yes/on`,
 *   `false/0/no/off`), object/array (`json.loads`), string, in that order; else `json.loads`, else
 *   the text. `float()` of an infinity raises OverflowError out of the parser (the server then
 *   returns the text unchanged)
 * - a tool the request does not name is dropped; arguments are `json.dumps(…, ensure_ascii=False)`
 *
 * The strict reading is the XML reader of `<invoke name="…">` calls (../xml/xml-calls.ts) with
 * MiniMax's block tags: values as written (JSON spellings for non-strings, decoded by the schema).
 */
import { isJsonObject, type JsonValue } from '../../ir/json.js';
import { parseXmlCalls, readNameAttribute } from '../xml/xml-calls.js';
import { PyDict, pyFloat, pyInt, PythonException, pythonFloatOf, pythonIntOf, pythonJsonDumps, pythonJsonLoads, pythonTruncate, pyStrip, type PyValue } from '../xml/python-values.js';
import { pyContains, pyGetItem, type ParseTool } from '../xml/tools.js';
import { SGLANG_COMMIT, type FamilySyntax, type ParserResult, type ServerCall, type ServerParserEntry } from './types.js';
import { extractTypesFromSchema } from './vllm-engine/coerce.js';
import { pushAll } from '../../ir/arrays.js';

const BLOCK = '<minimax:tool_call>';
const BLOCK_END = '</minimax:tool_call>';
const INVOKE = '<invoke name="';
const INVOKE_END = '</invoke>';
const PARAM = '<parameter name="';
const PARAM_END = '</parameter>';

// ---------------------------------------------------------------------------------------
// SGLang


/** `_parse_parameter`'s schema lookup: the first tool of the name whose parameters are an object with `properties`. */
function parameterTypes(tools: readonly ParseTool[], fname: string, pname: string): Set<string> {
  let config: JsonValue = new Map();
  for (const tool of tools) {
    if (tool.name !== fname || tool.parameters === undefined || tool.parameters === null) continue;
    if (isJsonObject(tool.parameters) && tool.parameters.has('properties')) {
      config = tool.parameters.get('properties')!;
      break;
    }
  }
  // `param_name not in param_config` / `param_config[param_name]` (TypeError when the properties are no dict)
  if (!pyContains(config, pname)) return new Set(['string']);
  const schema = pyGetItem(config, pname);
  return isJsonObject(schema) ? new Set(extractTypesFromSchema(schema)) : new Set(['string']);
}

/** `json.loads(value)`, or undefined on a JSONDecodeError (any other exception propagates). */
function jsonOrUndefined(value: string): PyValue | undefined {
  try {
    return pythonJsonLoads(value);
  } catch (e) {
    if (e instanceof PythonException && e.type === 'JSONDecodeError') return undefined;
    throw e;
  }
}

const PRIORITY = ['integer', 'int', 'number', 'float', 'boolean', 'bool', 'object', 'array', 'string', 'str', 'text'];

/** `_convert_param_value_with_types`. */
function convertValue(value: string, types: ReadonlySet<string>): PyValue {
  const lower = value.toLowerCase();
  if (lower === 'null') return null;
  const normalized = new Set([...types].map((t) => t.toLowerCase()));
  if (normalized.has('null') || lower === 'none' || lower === 'nil') return null;
  for (const type of PRIORITY) {
    if (!normalized.has(type)) continue;
    switch (type) {
      case 'string':
      case 'str':
      case 'text':
        return value;
      case 'integer':
      case 'int':
        try {
          return pyInt(pythonIntOf(value));
        } catch (e) {
          if (!(e instanceof PythonException && e.isA('ValueError', 'TypeError'))) throw e;
        }
        break;
      case 'number':
      case 'float': {
        let val: number;
        try {
          val = pythonFloatOf(value);
        } catch (e) {
          if (!(e instanceof PythonException && e.isA('ValueError', 'TypeError'))) throw e;
          break;
        }
        // `val if val != int(val) else int(val)`: int(nan) is a ValueError (caught), int(inf) an OverflowError (not)
        if (Number.isNaN(val)) break;
        const whole = pythonTruncate(val);
        return Number.isInteger(val) ? pyInt(whole) : pyFloat(val);
      }
      case 'boolean':
      case 'bool': {
        const b = pyStrip(lower);
        if (b === 'true' || b === '1' || b === 'yes' || b === 'on') return true;
        if (b === 'false' || b === '0' || b === 'no' || b === 'off') return false;
        break;
      }
      case 'object':
      case 'array': {
        const v = jsonOrUndefined(value);
        if (v !== undefined) return v;
        break;
      }
    }
  }
  const v = jsonOrUndefined(value);
  return v === undefined ? value : v;
}

/**
 * `re.findall(rf"{open}(.*?){close}|{open}(.*?)$", s, re.DOTALL)` (lazy: the second alternative ends
 * before a final newline) or, with `greedy`, `…|{open}(.*)$` (to the end): each match's text.
 */
function tagBodies(s: string, open: string, close: string, greedy: boolean): string[] {
  const out: string[] = [];
  let pos = 0;
  for (;;) {
    const p = s.indexOf(open, pos);
    if (p < 0) break;
    const from = p + open.length;
    const c = s.indexOf(close, from);
    if (c >= 0) {
      out.push(s.slice(from, c));
      pos = c + close.length;
      continue;
    }
    const end = !greedy && s.endsWith('\n') && s.length - 1 >= from ? s.length - 1 : s.length;
    out.push(s.slice(from, end));
    break;
  }
  return out;
}

/** Python's `s.lstrip("\n").rstrip("\n")`. */
function stripNewlines(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s[a] === '\n') a++;
  while (b > a && s[b - 1] === '\n') b--;
  return s.slice(a, b);
}

function parseBlock(block: string, tools: readonly ParseTool[], known: ReadonlySet<string>): ServerCall[] {
  const out: ServerCall[] = [];
  for (const txt of tagBodies(block, INVOKE, INVOKE_END, true)) {
    const idx = txt.indexOf('">');
    if (idx < 0) continue;
    const fname = pyStrip(txt.slice(0, idx));
    const body = txt.slice(idx + 2);
    const params = new PyDict();
    for (const ptxt of tagBodies(body, PARAM, PARAM_END, false)) {
      const pidx = ptxt.indexOf('">');
      if (pidx < 0) continue;
      const pname = pyStrip(ptxt.slice(0, pidx));
      const pval = stripNewlines(ptxt.slice(pidx + 2));
      params.set(pname, convertValue(pval, parameterTypes(tools, fname, pname)));
    }
    // parse_base_json: a tool the request does not name is dropped (its exceptions are logged and the call dropped)
    if (fname === '' || !known.has(fname)) continue;
    try {
      out.push({ name: fname, arguments: pythonJsonDumps(params) });
    } catch (e) {
      if (!(e instanceof PythonException)) throw e;
    }
  }
  return out;
}

function sglangMinimaxM2(text: string, toolList: readonly ParseTool[] | undefined): ParserResult {
  const tools = toolList ?? [];
  const has = text.includes(BLOCK);
  const known = new Set(tools.map((t) => t.name).filter((n) => n !== ''));
  try {
    let normal = '';
    const calls: ServerCall[] = [];
    let cursor = 0;
    for (;;) {
      const s = text.indexOf(BLOCK, cursor);
      if (s < 0) {
        normal += text.slice(cursor);
        break;
      }
      normal += text.slice(cursor, s);
      const e = text.indexOf(BLOCK_END, s);
      if (e < 0) {
        normal += text.slice(s);
        break;
      }
      cursor = e + BLOCK_END.length;
      pushAll(calls, parseBlock(text.slice(s, cursor), tools, known));
    }
    return { content: normal, tool_calls: calls, tools_called: calls.length > 0, has_tool_call: has };
  } catch (e) {
    // nothing in detect_and_parse catches it: the server logs it and returns the text unchanged
    if (!(e instanceof PythonException)) throw e;
    return { content: text, tool_calls: [], tools_called: false, has_tool_call: has, exception: e.message };
  }
}

// ---------------------------------------------------------------------------------------
// The strict reading

/** MiniMax-M2's call syntax for the XML reader. */
const MINIMAX_M2_SYNTAX = {
  dialect: 'minimax-m2',
  wrapperOpen: BLOCK,
  wrapperClose: BLOCK_END,
  callOpen: '<invoke',
  callClose: INVOKE_END,
  paramOpen: '<parameter',
  paramClose: PARAM_END,
  readCallName: readNameAttribute('<invoke'),
  readParamName: readNameAttribute('<parameter'),
  layoutNewlines: false,
  lineStartOpens: false,
  spelling: 'json',
  literalTags: [PARAM_END, '<parameter ', INVOKE_END, '<invoke ', BLOCK_END, BLOCK],
} satisfies Parameters<typeof parseXmlCalls>[2];

export const SYNTAXES: readonly FamilySyntax[] = [
  {
    name: 'minimax-m2',
    example: '<minimax:tool_call>\\n<invoke name="get_weather">\\n<parameter name="city">Paris</parameter>\\n</invoke>\\n</minimax:tool_call>',
    openers: [BLOCK, '<invoke'],
    controls: [BLOCK, BLOCK_END, '<invoke', INVOKE_END, '<parameter', PARAM_END],
    read: (text, tools) => parseXmlCalls(text, tools, MINIMAX_M2_SYNTAX),
  },
];

export const SERVER_PARSERS: readonly ServerParserEntry[] = [
  { server: 'sglang', name: 'minimax-m2', file: 'python/sglang/srt/function_call/minimax_m2.py', commit: SGLANG_COMMIT, parse: sglangMinimaxM2 },
];
