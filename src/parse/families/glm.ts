/**
 * GLM-4.5 / 4.6 and GLM-4.7 / 5 tool calls: `<tool_call>NAME\n<arg_key>K</arg_key>\n<arg_value>V</arg_value>\n</tool_call>`
 * (GLM-4.7: the same without the newlines). The chat templates (models/templates/glm-4.6.ts,
 * glm-4.7.ts) write a string value as it is and any other value with `tojson`. Reasoning is
 * `<think>…</think>` before the calls (split off by the caller).
 *
 * SGLang `glm45` (`python/sglang/srt/function_call/glm4_moe_detector.py`) and `glm47`
 * (`glm47_moe_detector.py`) at {@link SGLANG_COMMIT}, non-streaming `detect_and_parse`:
 * - a call is `<tool_call>` up to the first `</tool_call>` after it; a `<tool_call>` that is never
 *   closed is no call. glm45: the name is the text up to the first newline (or a literal `\n`),
 *   a call without one is skipped; glm47: the name is the text up to the first `<arg_key>`. The
 *   name is not stripped (`get_weather\n` is no tool)
 * - each `<arg_key>K</arg_key>` (whitespace or literal `\n` between) `<arg_value>V</arg_value>`
 *   pair, the key stripped; a key without its value is dropped. The value by the tool's schema type
 *   (`infer_type_from_json_schema`): `json.loads`, else `json.loads` of the text unescaped inside a
 *   JSON string, else `ast.literal_eval`, else the text; `number` turns a string into int/float;
 *   `string` keeps a string, writes a list/dict as JSON and anything else with Python's `str()`
 *   (`null` becomes `"None"`, `true` `"True"`)
 * - a call to a tool not in the request is dropped; arguments are `json.dumps(…, ensure_ascii=False)`
 * - content: glm45 the text before the first `<tool_call>`, stripped; glm47 the text outside the
 *   closed calls, stripped. Any exception (a `TypeError` from a value) gives no calls and the whole text
 *
 * The strict reading (`glm-4.5`, `glm-4.7`: one reader, whitespace between tags is layout): the name
 * up to the first tag or newline; values decoded by the parameter's schema as JSON spellings (a string
 * stays as written); a missing `</arg_value>` ends at `</tool_call>` (warning); a key without a
 * value drops the call; the output ending inside a name, key or value drops the call (truncated),
 * after a whole name or value returns it marked incomplete (`no </tool_call>`).
 */
import { isJsonArray, isJsonObject, JsonNumber, type JsonValue } from '../../ir/json.js';
import { pyFloatRepr, pyReprString, pyTruthy } from '../../emit/python/values.js';
import { decodeValue, parameterSchema, type Note } from '../xml/decode.js';
import { type CallDraft, type DialectParse, type TextNote, finder, firstOf } from '../xml/draft.js';
import { pythonLiteralEval } from '../xml/literal-eval.js';
import { PyDict, pyFloat, pyInt, PythonException, pythonFloatOf, pythonIntOf, pythonJsonDumps, pythonJsonLoads, pyStrip, pyTypeName, type PyValue } from '../xml/python-values.js';
import { findTool, type ParseTool } from '../xml/tools.js';
import { isPlausibleFunctionName } from '../xml/vllm-qwen3-coder.js';
import { SGLANG_COMMIT, type FamilySyntax, type ParserResult, type ServerCall, type ServerParserEntry } from './types.js';

const OPEN = '<tool_call>';
const CLOSE = '</tool_call>';
const KEY = '<arg_key>';
const KEY_END = '</arg_key>';
const VALUE = '<arg_value>';
const VALUE_END = '</arg_value>';

// ---------------------------------------------------------------------------------------
// Python pieces the detectors go through

/** `str.isspace()` of one character (Python's `\s` in a str pattern). */
const isPyWs = (c: string | undefined): boolean => c !== undefined && c !== '' && pyStrip(c) === '';


function jsonTypeName(v: JsonValue): string {
  if (v === null) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'str';
  if (v instanceof JsonNumber) return /[.eE]/.test(v.text) ? 'float' : 'int';
  return isJsonArray(v) ? 'list' : 'dict';
}

/** A key equal for values Python's set() holds as one (`1 == 1.0 == True`); TypeError for a list or dict. */
function hashOf(v: JsonValue): string {
  if (typeof v === 'string') return `s${v}`;
  if (typeof v === 'boolean') return `n${v ? 1 : 0}`;
  if (v instanceof JsonNumber) return `n${v.value}`;
  if (v === null) return 'N';
  throw new PythonException('TypeError', `unhashable type: '${jsonTypeName(v)}'`);
}

/** SGLang `utils.infer_type_from_json_schema` (undefined: None). */
function inferType(schema: JsonValue | undefined): JsonValue | undefined {
  if (!isJsonObject(schema)) return undefined;
  if (schema.has('type')) {
    const t = schema.get('type')!;
    if (typeof t === 'string') return t;
    if (isJsonArray(t) && t.length > 0) {
      const nonNull = t.filter((x) => x !== 'null');
      if (nonNull.length > 0) return nonNull[0] === null ? undefined : nonNull[0];
      return 'string';
    }
  }
  if (schema.has('anyOf') || schema.has('oneOf')) {
    const anyOf = schema.get('anyOf');
    const schemas = pyTruthy(anyOf) ? anyOf : schema.get('oneOf');
    if (isJsonArray(schemas)) {
      const types: JsonValue[] = [];
      for (const s of schemas) {
        const t = inferType(s);
        if (pyTruthy(t)) types.push(t!);
      }
      if (types.length > 0) {
        if (new Set(types.map(hashOf)).size === 1) return types[0];
        if (types.includes('string')) return 'string';
        return types[0];
      }
    }
  }
  const en = schema.get('enum');
  if (isJsonArray(en)) {
    if (en.length === 0) return 'string';
    const kinds = new Set(en.map((v) => (v === null ? 'null' : typeof v === 'boolean' ? 'boolean' : typeof v === 'string' ? 'string' : v instanceof JsonNumber ? (/[.eE]/.test(v.text) ? 'number' : 'integer') : isJsonArray(v) ? 'array' : 'object')));
    return kinds.size === 1 ? [...kinds][0] : 'string';
  }
  const allOf = schema.get('allOf');
  if (isJsonArray(allOf)) {
    for (const s of allOf) {
      const t = inferType(s);
      if (pyTruthy(t) && t !== 'string') return t;
    }
    return 'string';
  }
  if (schema.has('properties')) return 'object';
  if (schema.has('items')) return 'array';
  return undefined;
}

/** `{tool.function.name: tool for tool in tools}[name]`: the last tool with the name. */
function lastTool(tools: readonly ParseTool[], name: string): ParseTool | undefined {
  for (let i = tools.length - 1; i >= 0; i--) if (tools[i].name === name) return tools[i];
  return undefined;
}

/** glm4_moe_detector `get_argument_type`. */
function argumentType45(name: string, key: string, tools: readonly ParseTool[]): JsonValue | undefined {
  const tool = lastTool(tools, name);
  if (!tool) return undefined;
  const params: JsonValue = pyTruthy(tool.parameters) ? tool.parameters! : new Map();
  if (!isJsonObject(params)) throw new PythonException('AttributeError', `'${jsonTypeName(params)}' object has no attribute 'get'`);
  const props = params.has('properties') ? params.get('properties')! : new Map<string, JsonValue>();
  if (!isJsonObject(props) || !props.has(key)) return undefined;
  return inferType(props.get(key));
}

/** glm47_moe_detector `get_argument_type`. */
function argumentType47(name: string, key: string, tools: readonly ParseTool[]): JsonValue | undefined {
  const tool = lastTool(tools, name);
  if (!tool || !isJsonObject(tool.parameters)) return undefined;
  const props = tool.parameters.get('properties');
  if (!isJsonObject(props)) return undefined;
  const spec = props.get(key);
  return isJsonObject(spec) ? inferType(spec) : undefined;
}

function catching<T>(f: () => T, ...types: string[]): T | undefined {
  try {
    return f();
  } catch (e) {
    if (e instanceof PythonException && e.isA(...types)) return undefined;
    throw e;
  }
}

/** `_convert_to_number`: float when the text has `.` or `e`, else int; the text itself when neither reads it. */
function convertToNumber(s: string): PyValue {
  return catching(() => (s.includes('.') || s.toLowerCase().includes('e') ? pyFloat(pythonFloatOf(s)) : pyInt(pythonIntOf(s))), 'ValueError') ?? s;
}

/** `parse_arguments(json_value, arg_type)[0]` (its second item is always True). */
function parseArguments(value: string, type: JsonValue | undefined): PyValue {
  const coerce = (p: PyValue): PyValue => (type === 'number' && typeof p === 'string' ? convertToNumber(p) : p);
  const direct = catching(() => ({ v: coerce(pythonJsonLoads(value)) }), 'ValueError');
  if (direct) return direct.v;
  const unescaped = catching(() => {
    const wrapped = pythonJsonLoads(`{"tmp": "${value}"}`) as PyDict;
    const tmp = wrapped.get('tmp');
    if (tmp === undefined) throw new PythonException('KeyError', "'tmp'");
    if (typeof tmp !== 'string') throw new PythonException('TypeError', `the JSON object must be str, bytes or bytearray, not ${pyTypeName(tmp)}`);
    return { v: coerce(pythonJsonLoads(tmp)) };
  }, 'ValueError', 'KeyError');
  if (unescaped) return unescaped.v;
  const literal = catching(() => ({ v: pythonLiteralEval(value) }), 'ValueError', 'SyntaxError');
  if (literal) return literal.v;
  return value;
}

const INT_MAX_STR_DIGITS = 4300;

/** A float inside a complex's repr: no `.0` on integral values. */
function complexPart(x: number): string {
  const s = pyFloatRepr(x);
  return s.endsWith('.0') ? s.slice(0, -2) : s;
}

/** Python's `repr()` of a value that json.loads or ast.literal_eval made. */
function pyReprOf(v: PyValue): string {
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'string') return pyReprString(v);
  switch (v.t) {
    case 'int': {
      const s = v.v.toString();
      if (s.replace('-', '').length > INT_MAX_STR_DIGITS) throw new PythonException('ValueError', `Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit`);
      return s;
    }
    case 'float':
      return pyFloatRepr(v.v);
    case 'list':
      return `[${v.items.map(pyReprOf).join(', ')}]`;
    case 'tuple':
      return v.items.length === 1 ? `(${pyReprOf(v.items[0])},)` : `(${v.items.map(pyReprOf).join(', ')})`;
    case 'set':
      return v.items.length === 0 ? 'set()' : `{${v.items.map(pyReprOf).join(', ')}}`;
    case 'dict':
      return `{${[...v.entries()].map(([k, x]) => `${pyReprOf(k)}: ${pyReprOf(x)}`).join(', ')}}`;
    case 'bytes': {
      const q = v.v.includes("'") && !v.v.includes('"') ? '"' : "'";
      let out = `b${q}`;
      for (const ch of v.v) {
        const c = ch.charCodeAt(0);
        if (ch === q || ch === '\\') out += `\\${ch}`;
        else if (ch === '\t') out += '\\t';
        else if (ch === '\n') out += '\\n';
        else if (ch === '\r') out += '\\r';
        else if (c < 0x20 || c >= 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
        else out += ch;
      }
      return out + q;
    }
    case 'complex': {
      const im = `${complexPart(v.im)}j`;
      if (v.re === 0 && !Object.is(v.re, -0)) return im;
      const sign = v.im < 0 || Object.is(v.im, -0) ? '-' : '+';
      return `(${complexPart(v.re)}${sign}${complexPart(Math.abs(v.im))}j)`;
    }
    case 'ellipsis':
      return 'Ellipsis';
  }
}

/** Python's `str()`: a str as itself, anything else its repr. */
function pyStrOf(v: PyValue): string {
  return typeof v === 'string' ? v : pyReprOf(v);
}

/** `_parse_argument_pairs`. */
function parseArgumentPairs(pairs: readonly (readonly [string, string])[], name: string, tools: readonly ParseTool[], argumentType: typeof argumentType45): PyDict {
  const args = new PyDict();
  for (const [rawKey, rawValue] of pairs) {
    const key = pyStrip(rawKey);
    const type = argumentType(name, key, tools);
    const parsed = parseArguments(rawValue, type);
    if (type === 'string') {
      if (typeof parsed === 'string') args.set(key, parsed);
      else if (parsed !== null && typeof parsed === 'object' && (parsed.t === 'dict' || parsed.t === 'list')) args.set(key, pythonJsonDumps(parsed));
      else args.set(key, pyStrOf(parsed));
    } else args.set(key, parsed);
  }
  return args;
}

/** `re.findall(r"<tool_call>.*?</tool_call>", text, re.DOTALL)` as [start, end) ranges. */
function closedCalls(text: string): [number, number][] {
  const out: [number, number][] = [];
  let pos = 0;
  for (;;) {
    const s = text.indexOf(OPEN, pos);
    if (s < 0) break;
    const e = text.indexOf(CLOSE, s + OPEN.length);
    if (e < 0) break;
    out.push([s, e + CLOSE.length]);
    pos = e + CLOSE.length;
  }
  return out;
}

/** Sorted positions of `needle` in `s`. */
function occurrences(s: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = s.indexOf(needle); i >= 0; i = s.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

/** The first item of a sorted list that is at least `min`, or undefined. */
function firstAtLeast<T>(list: readonly T[], min: number, at: (x: T) => number): T | undefined {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (at(list[mid]) < min) lo = mid + 1;
    else hi = mid;
  }
  return list[lo];
}

/**
 * `re.findall(r"<arg_key>(.*?)</arg_key>(?:\\n|\s)*<arg_value>(.*?)</arg_value>", s, re.DOTALL)`:
 * from each `<arg_key>`, the first `</arg_key>` that whitespace (or literal `\n`) and `<arg_value>`
 * follow, with a `</arg_value>` somewhere after; the value up to the first `</arg_value>`.
 */
function argumentPairs(s: string): [string, string][] {
  const valueEnds = occurrences(s, VALUE_END);
  const keyEnds: { at: number; value: number; valueEnd: number }[] = [];
  for (const c of occurrences(s, KEY_END)) {
    let j = c + KEY_END.length;
    for (;;) {
      if (s[j] === '\\' && s[j + 1] === 'n') j += 2;
      else if (isPyWs(s[j])) j++;
      else break;
    }
    if (!s.startsWith(VALUE, j)) continue;
    const ve = firstAtLeast(valueEnds, j + VALUE.length, (x) => x);
    if (ve === undefined) continue;
    keyEnds.push({ at: c, value: j + VALUE.length, valueEnd: ve });
  }
  const out: [string, string][] = [];
  let pos = 0;
  for (;;) {
    const k = s.indexOf(KEY, pos);
    if (k < 0) break;
    const c = firstAtLeast(keyEnds, k + KEY.length, (x) => x.at);
    if (c === undefined) break;
    out.push([s.slice(k + KEY.length, c.at), s.slice(c.value, c.valueEnd)]);
    pos = c.valueEnd + VALUE_END.length;
  }
  return out;
}

/** The first newline or literal `\n` (backslash, n) in `s`: its index and length. */
function firstNewline(s: string): [number, number] | undefined {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && s[i + 1] === 'n') return [i, 2];
    if (s[i] === '\n') return [i, 1];
  }
  return undefined;
}

function sglangGlm(text: string, toolList: readonly ParseTool[] | undefined, v47: boolean): ParserResult {
  const tools = toolList ?? [];
  if (!text.includes(OPEN)) return { content: text, tool_calls: [], tools_called: false, has_tool_call: false };
  const matches = closedCalls(text);
  let normal: string;
  if (v47) {
    let outside = '';
    let last = 0;
    for (const [s, e] of matches) {
      outside += text.slice(last, s);
      last = e;
    }
    normal = pyStrip(outside + text.slice(last));
  } else normal = pyStrip(text.slice(0, text.indexOf(OPEN)));
  const known = new Set(tools.map((t) => t.name).filter((n) => n !== ''));
  try {
    const calls: ServerCall[] = [];
    for (const [s, e] of matches) {
      const body = text.slice(s + OPEN.length, e - CLOSE.length);
      let name: string;
      let args: PyDict;
      if (v47) {
        const k = body.indexOf(KEY);
        name = k < 0 ? body : body.slice(0, k);
        args = k < 0 ? new PyDict() : parseArgumentPairs(argumentPairs(body.slice(k)), name, tools, argumentType47);
      } else {
        const nl = firstNewline(body);
        if (nl === undefined) continue;
        name = body.slice(0, nl[0]);
        args = parseArgumentPairs(argumentPairs(body.slice(nl[0] + nl[1])), name, tools, argumentType45);
      }
      // parse_base_json: a tool the request does not name is dropped
      if (name === '' || !known.has(name)) continue;
      calls.push({ name, arguments: pythonJsonDumps(args) });
    }
    return { content: normal, tool_calls: calls, tools_called: calls.length > 0, has_tool_call: true };
  } catch (e) {
    if (!(e instanceof PythonException)) throw e;
    // logged; normal_text is the whole text, no calls
    return { content: text, tool_calls: [], tools_called: false, has_tool_call: true };
  }
}

// ---------------------------------------------------------------------------------------
// The strict reading


const LAYOUT = ' \t\n\r';
const NAME_STOPS = [KEY, CLOSE, OPEN, VALUE, KEY_END, VALUE_END];
const TAGS = [OPEN, CLOSE, KEY, KEY_END, VALUE, VALUE_END];

/** Read GLM calls strictly (both layouts). */
function readGlmCalls(text: string, tools: readonly ParseTool[] | undefined): DialectParse {
  const calls: CallDraft[] = [];
  const consumed: [number, number][] = [];
  const textNotes: TextNote[] = [];
  const nextAt = finder(text);
  const first = (markers: readonly string[], from: number) => firstOf(nextAt, markers, from);
  const n = text.length;
  const note = (at: number, code: string, severity: Note['severity'], message: string, tool?: string) => textNotes.push({ at, note: { code, severity, message }, ...(tool !== undefined ? { tool } : {}) });

  /** Skip whitespace and literal `\n`s; `literal` is set when one was a literal `\n`. */
  const skipLayout = (i: number, seen: { literal: boolean }): number => {
    for (;;) {
      if (i < n && LAYOUT.includes(text[i])) i++;
      else if (text[i] === '\\' && text[i + 1] === 'n') {
        seen.literal = true;
        i += 2;
      } else return i;
    }
  };

  /** One call at `p`: the draft and where it ends, or no draft (a note says why; its text stays content). */
  const readCall = (p: number): { draft?: CallDraft; end: number } => {
    const layout = { literal: false };
    let i = skipLayout(p + OPEN.length, layout);
    // the name: up to the first tag or newline
    const stop = first(NAME_STOPS, i);
    let nameEnd = stop === undefined ? n : stop[0];
    const nl = nextAt('\n', i);
    if (nl >= 0 && nl < nameEnd) nameEnd = nl;
    const lit = nextAt('\\n', i);
    if (lit >= 0 && lit < nameEnd) {
      nameEnd = lit;
      layout.literal = true;
    }
    const name = text.slice(i, nameEnd).replace(/[ \t\r]+$/, '');
    if (stop === undefined && nameEnd === n) {
      note(p, 'parse/truncated', 'error', `the output ends inside the name of a ${OPEN} call: no call (the text stays content)`);
      return { end: n };
    }
    const tool = findTool(tools, name);
    if (!tool && name.startsWith('{')) {
      note(p, 'parse/wrong-dialect', 'warning', `this ${OPEN} holds JSON, the Hermes/Qwen call format, not a GLM call: kept as text`);
      return { end: p + OPEN.length };
    }
    if (!tool && !isPlausibleFunctionName(name)) {
      note(p, 'parse/invalid-name', 'error', `${JSON.stringify(name)} is not a function name (empty, or holding whitespace, quotes, braces or angle brackets) and no tool has it: no call (the text stays content)`);
      return { end: p + OPEN.length };
    }
    const args = new Map<string, JsonValue>();
    const notes: { note: Note; param?: string }[] = [];
    const drop = (code: string, message: string): { end: number } => {
      note(p, code, 'error', message, name);
      return { end: p + OPEN.length };
    };
    i = nameEnd;
    let end: number;
    let incomplete: string | undefined;
    for (;;) {
      i = skipLayout(i, layout);
      if (i >= n) {
        incomplete = `no ${CLOSE}`;
        end = n;
        break;
      }
      if (text.startsWith(CLOSE, i)) {
        end = i + CLOSE.length;
        break;
      }
      if (text.startsWith(OPEN, i)) {
        notes.push({ note: { code: 'parse/unclosed', severity: 'warning', message: `no ${CLOSE} after the call to ${JSON.stringify(name)} (another ${OPEN} follows): the call ends after its last argument` } });
        end = i;
        break;
      }
      if (text.startsWith(KEY, i)) {
        // the key
        const ks = i + KEY.length;
        const next = first([KEY_END, VALUE, CLOSE, OPEN, KEY], ks);
        if (next === undefined) return drop('parse/truncated', `the output ends inside an ${KEY} of ${JSON.stringify(name)}: no call (the text stays content)`);
        const [ke, tag] = next;
        let key = text.slice(ks, ke);
        if (tag === VALUE) {
          notes.push({ param: key.trim(), note: { code: 'parse/unclosed', severity: 'warning', message: `no ${KEY_END} after the key ${JSON.stringify(key.trim())}: it ends where ${VALUE} starts` } });
          i = ke;
        } else if (tag === KEY_END) i = ke + KEY_END.length;
        else return drop('parse/invalid-call', `the key ${JSON.stringify(key)} of ${JSON.stringify(name)} is not closed and no ${VALUE} follows: no call (the text stays content)`);
        const trimmed = key.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, '');
        if (trimmed !== key) notes.push({ param: trimmed, note: { code: 'parse/coerced', severity: 'info', message: `whitespace around the key ${JSON.stringify(trimmed)} was dropped` } });
        key = trimmed;
        // its value
        i = skipLayout(i, layout);
        if (i >= n) return drop('parse/truncated', `the output ends after the key ${JSON.stringify(key)} of ${JSON.stringify(name)}, before its value: no call (the text stays content)`);
        if (!text.startsWith(VALUE, i)) return drop('parse/invalid-call', `the key ${JSON.stringify(key)} of ${JSON.stringify(name)} has no ${VALUE}: no call (the text stays content)`);
        const vs = i + VALUE.length;
        const ve = nextAt(VALUE_END, vs);
        const ct = nextAt(CLOSE, vs);
        let raw: string;
        if (ve >= 0 && (ct < 0 || ve < ct)) {
          raw = text.slice(vs, ve);
          i = ve + VALUE_END.length;
        } else if (ct >= 0) {
          raw = text.slice(vs, ct);
          if (raw.endsWith('\n')) raw = raw.slice(0, -1);
          notes.push({ param: key, note: { code: 'parse/unclosed', severity: 'warning', message: `no ${VALUE_END} after the value of ${JSON.stringify(key)}: it ends at ${CLOSE}` } });
          i = ct;
        } else return drop('parse/truncated', `the output ends inside the value of ${JSON.stringify(key)} of ${JSON.stringify(name)}: no call (the text stays content)`);
        const literal = TAGS.filter((t) => raw.includes(t));
        if (literal.length > 0) notes.push({ param: key, note: { code: 'parse/literal-tag-in-value', severity: 'warning', message: `the value of ${JSON.stringify(key)} holds ${literal.join(', ')} as text: read as part of the value, but a reader that cuts at the first one reads something else` } });
        if (args.has(key)) notes.push({ param: key, note: { code: 'parse/duplicate-parameter', severity: 'warning', message: `${JSON.stringify(key)} is given twice: the last value is used` } });
        const schema = tool ? parameterSchema(tool.parameters, key) : undefined;
        if (schema) {
          const d = decodeValue(raw, schema, 'json');
          args.set(key, d.value);
          for (const x of d.notes) notes.push({ param: key, note: x });
        } else args.set(key, raw);
        continue;
      }
      // text that is no tag of the call: up to the next tag of the call, or the call ends here
      const next = first([KEY, CLOSE, OPEN], i + 1);
      if (next === undefined) {
        notes.push({ note: { code: 'parse/unclosed', severity: 'warning', message: `no ${CLOSE} after the call to ${JSON.stringify(name)}: it ends after its last argument, the text after it is content` } });
        end = i;
        break;
      }
      notes.push({ note: { code: 'parse/unexpected-text', severity: 'warning', message: `text inside the call to ${JSON.stringify(name)} that is no argument, left out: ${JSON.stringify(text.slice(i, next[0]).slice(0, 80))}` } });
      i = next[0];
    }
    if (layout.literal) notes.push({ note: { code: 'parse/coerced', severity: 'info', message: `a literal \\n (backslash, n) between the tags of the call to ${JSON.stringify(name)} is read as a newline` } });
    return { end, draft: { name, args, start: p, notes, ...(incomplete !== undefined ? { incomplete } : {}) } };
  };

  let pos = 0;
  for (;;) {
    const p = nextAt(OPEN, pos);
    if (p < 0) break;
    const r = readCall(p);
    if (r.draft) {
      calls.push(r.draft);
      consumed.push([p, r.end]);
    }
    pos = Math.max(r.end, p + OPEN.length);
  }
  return { calls, consumed, textNotes };
}

export const SYNTAXES: readonly FamilySyntax[] = [
  {
    name: 'glm-4.5',
    example: '<tool_call>get_weather\\n<arg_key>city</arg_key>\\n<arg_value>Paris</arg_value>\\n</tool_call>',
    openers: [OPEN],
    controls: TAGS,
    read: readGlmCalls,
  },
  {
    name: 'glm-4.7',
    example: '<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>',
    openers: [OPEN],
    controls: TAGS,
    read: readGlmCalls,
  },
];

export const SERVER_PARSERS: readonly ServerParserEntry[] = [
  { server: 'sglang', name: 'glm45', file: 'python/sglang/srt/function_call/glm4_moe_detector.py', commit: SGLANG_COMMIT, parse: (text, tools) => sglangGlm(text, tools, false) },
  { server: 'sglang', name: 'glm47', file: 'python/sglang/srt/function_call/glm47_moe_detector.py', commit: SGLANG_COMMIT, parse: (text, tools) => sglangGlm(text, tools, true) },
];
