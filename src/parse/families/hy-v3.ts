/**
 * Tencent HY v3 (Hy3) tool calls:
 * `<tool_calls>\n<tool_call>NAME<tool_sep>\n<arg_key>K</arg_key>\n<arg_value>V</arg_value>\n</tool_call>\n</tool_calls>`,
 * a string value as it is and any other value with `tojson`. HY v3 reasons in `<think>…</think>`
 * before the answer (split off by the caller).
 *
 * vLLM `hy_v3` (`vllm/tool_parsers/hy_v3_tool_parser.py`) at {@link VLLM_COMMIT}, `extract_tool_calls`
 * (a tokenizer without `token_suffix`: the tags as above):
 * - nothing unless the text holds `<tool_calls>`; then `tools_called` is true whatever is found,
 *   and the content is the text before it (`""` → None)
 * - the calls: every `<tool_call>NAME<tool_sep>ARGS</tool_call>` (lazy, DOTALL) anywhere; after the
 *   last `</tool_call>` (or in the whole text when no call closed) one more unclosed
 *   `<tool_call>NAME<tool_sep>` with the rest of the text as its arguments
 * - name and arguments stripped; each `<arg_key>K</arg_key>` (whitespace) `<arg_value>V</arg_value>`
 *   pair (a value never closed is no pair), the key as written, the value by the schema's types
 *   (`type`, a list of types, `anyOf`, `oneOf`; aliases like `int*`, `num*`): boolean `true`/`false`
 *   in any case, `int()`, a number (`float()` with `.`/`e`, else `int()`), `json.loads` for other
 *   types, the text for a string, else `json.loads`, `ast.literal_eval`, the text
 * - a tool not in the request is kept; arguments are `json.dumps(…, ensure_ascii=False)`; an
 *   exception (a schema it cannot read, a value json.dumps refuses) gives no calls, still `tools_called`
 *
 * SGLang `hunyuan` (`python/sglang/srt/function_call/hunyuan_detector.py`) at {@link SGLANG_COMMIT},
 * `detect_and_parse`:
 * - nothing unless the text holds `<tool_calls>`; `normal_text` the text before it, stripped
 * - only closed calls; the name and each key stripped; a tool not in the request is dropped
 * - values as vLLM but a `type` list is not expanded (a TypeError: unhashable list) and the last
 *   fallback is `json.loads` only; any exception gives no calls and the whole text as content
 *
 * The strict reading: the calls of each `<tool_calls>` block (a call outside one is read with a
 * warning), the name up to `<tool_sep>`, each key/value pair decoded by the parameter's schema as
 * JSON spellings (a string stays as written, a value of an undeclared parameter stays text);
 * whitespace between tags is layout. A value without `</arg_value>` ends at `</tool_call>`
 * (warning); a key without a value drops the call; the output ending inside a name, key or value
 * drops the call (truncated), after a whole value returns it marked incomplete. A stray
 * `</tool_calls>` right after a block is dropped from the content with a warning.
 */
import { isJsonArray, isJsonObject, type JsonValue } from '../../ir/json.js';
import { decodeValue, parameterSchema, type Note } from '../xml/decode.js';
import { finder, type DialectParse, type TextNote, skipWs, trimWs, lastTextAt, firstOf } from '../xml/draft.js';
import { pythonLiteralEval } from '../xml/literal-eval.js';
import { PyDict, pyFloat, pyInt, PythonException, pythonFloatOf, pythonIntOf, pythonJsonDumps, pythonJsonLoads, pyStrip, type PyValue } from '../xml/python-values.js';
import { findTool, type ParseTool } from '../xml/tools.js';
import { isPlausibleFunctionName } from '../xml/vllm-qwen3-coder.js';
import { SGLANG_COMMIT, VLLM_COMMIT, type FamilySyntax, type ParserResult, type ServerCall, type ServerParserEntry } from './types.js';
import { readSections, type CallRead, type SectionSyntax } from './sections.js';

const BLOCK = '<tool_calls>';
const BLOCK_END = '</tool_calls>';
const OPEN = '<tool_call>';
const CLOSE = '</tool_call>';
const SEP = '<tool_sep>';
const KEY = '<arg_key>';
const KEY_END = '</arg_key>';
const VALUE = '<arg_value>';
const VALUE_END = '</arg_value>';
const TAGS = [BLOCK, BLOCK_END, OPEN, CLOSE, SEP, KEY, KEY_END, VALUE, VALUE_END];

type Flavor = 'vllm' | 'sglang';

// ---------------------------------------------------------------------------------------
// The servers' regular expressions

/** Python `re`'s `\s` (str.isspace()). */
const isReWs = (c: string | undefined): boolean => c !== undefined && c !== '' && pyStrip(c) === '';
/** The `regex` module's `\s`: Unicode White_Space, which leaves out U+001C–U+001F. */
const isRegexWs = (c: string | undefined): boolean => isReWs(c) && !(c! >= '\u001c' && c! <= '\u001f');

/** `<tool_call>(.*?)<tool_sep>(.*?)</tool_call>` (DOTALL) `findall`: `[name, arguments, end]`. */
function closedCalls(text: string): [string, string, number][] {
  const find = finder(text);
  const out: [string, string, number][] = [];
  let pos = 0;
  for (;;) {
    const c = find(OPEN, pos);
    if (c < 0) break;
    const s = find(SEP, c + OPEN.length);
    if (s < 0) break;
    // no close after the first separator: none after a later one, nor for a later opener
    const e = find(CLOSE, s + SEP.length);
    if (e < 0) break;
    pos = e + CLOSE.length;
    out.push([text.slice(c + OPEN.length, s), text.slice(s + SEP.length, e), pos]);
  }
  return out;
}

/** The index of the text's last character that is not whitespace (-1: none). */

/**
 * Why a call the server returns may be cut off: a call never closed (vLLM reads it to the end of
 * the text), or a closed call with only whitespace after it (no `</tool_calls>`).
 */
function cutReason(end: number | undefined, lastText: number): string | undefined {
  if (end === undefined) return `no ${CLOSE}, no ${BLOCK_END}`;
  return end > lastText ? `no ${BLOCK_END}` : undefined;
}

/** `<arg_key>(.*?)</arg_key>\s*<arg_value>(.*?)</arg_value>` (DOTALL) `findall`: `[key, value]`. */
function argPairs(text: string, isWs: (c: string | undefined) => boolean): [string, string][] {
  const find = finder(text);
  const out: [string, string][] = [];
  let pos = 0;
  for (;;) {
    const k = find(KEY, pos);
    if (k < 0) break;
    // the key runs to the first </arg_key> that whitespace and <arg_value> follow
    let q = k + KEY.length;
    let keyEnd = -1;
    let v = -1;
    for (;;) {
      const ke = find(KEY_END, q);
      if (ke < 0) break;
      let j = ke + KEY_END.length;
      while (j < text.length && isWs(text[j])) j++;
      if (text.startsWith(VALUE, j)) {
        keyEnd = ke;
        v = j + VALUE.length;
        break;
      }
      q = ke + KEY_END.length;
    }
    // a failed start fails at every later <arg_key> too
    if (keyEnd < 0) break;
    const ve = find(VALUE_END, v);
    if (ve < 0) break;
    out.push([text.slice(k + KEY.length, keyEnd), text.slice(v, ve)]);
    pos = ve + VALUE_END.length;
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// The value by the schema (both servers' `_parse_value`)

const TYPE_ALIASES: Readonly<Record<string, string>> = {
  str: 'string', text: 'string', varchar: 'string', char: 'string', enum: 'string',
  bool: 'boolean', binary: 'boolean',
  int: 'integer',
  float: 'number', double: 'number',
  list: 'array',
  dict: 'object', map: 'object',
};
const INTEGER_PREFIXES = ['int', 'uint', 'long', 'short', 'unsigned'];
const NUMBER_PREFIXES = ['num', 'float'];
const EMPTY: JsonValue = new Map();
const STRING_SCHEMA: JsonValue = new Map([['type', 'string']]);

const pyTypeOf = (v: JsonValue): string => (v === null ? 'NoneType' : typeof v === 'boolean' ? 'bool' : typeof v === 'string' ? 'str' : isJsonArray(v) ? 'list' : isJsonObject(v) ? 'dict' : /[.eE]/.test(v.text) ? 'float' : 'int');
const noAttribute = (v: JsonValue, attr: string): never => {
  throw new PythonException('AttributeError', `'${pyTypeOf(v)}' object has no attribute '${attr}'`);
};

/** `_get_arg_schema`: the parameter's schema, `{}` when the tool or the parameter is not there. */
function argSchema(flavor: Flavor, name: string, key: string, tools: readonly ParseTool[] | undefined): JsonValue {
  if (tools === undefined || (flavor === 'sglang' && tools.length === 0)) return EMPTY;
  const tool = tools.find((t) => t.name === name);
  if (!tool) return EMPTY;
  const params = tool.parameters;
  if (params === undefined || params === null) return EMPTY;
  if (!isJsonObject(params)) return noAttribute(params, 'get');
  const props = params.has('properties') ? params.get('properties')! : EMPTY;
  if (!isJsonObject(props)) return noAttribute(props, 'get');
  return props.has(key) ? props.get(key)! : EMPTY;
}

/** Python's `k in container` for a schema that is not a dict (str: substring; list: an equal item). */
function pyIn(container: JsonValue, k: string): boolean {
  if (typeof container === 'string') return container.includes(k);
  if (isJsonArray(container)) return container.some((x) => x === k);
  if (isJsonObject(container)) return container.has(k);
  throw new PythonException('TypeError', `argument of type '${pyTypeOf(container)}' is not iterable`);
}

/** `_get_schema_options`. */
function schemaOptions(flavor: Flavor, schema: JsonValue): JsonValue {
  const has = (k: string) => pyIn(schema, k);
  if (has('type')) {
    // a str or list holding "type": subscripting it (vLLM) or `.get` on it (SGLang) raises
    if (!isJsonObject(schema)) throw new PythonException('TypeError', `${pyTypeOf(schema)} indices must be integers or slices, not str`);
    const t = schema.get('type')!;
    if (flavor === 'vllm' && isJsonArray(t)) return t.map((x) => new Map([['type', x]]));
    return [schema];
  }
  for (const k of ['anyOf', 'oneOf']) {
    if (has(k)) {
      if (!isJsonObject(schema)) throw new PythonException('TypeError', `${pyTypeOf(schema)} indices must be integers or slices, not str`);
      return schema.get(k)!;
    }
  }
  return [STRING_SCHEMA];
}

/** `_normalize_type`. */
function normalizeType(t: JsonValue): string {
  if (isJsonArray(t) || isJsonObject(t)) throw new PythonException('TypeError', `unhashable type: '${pyTypeOf(t)}'`);
  if (typeof t !== 'string') return noAttribute(t, 'lower');
  if (Object.hasOwn(TYPE_ALIASES, t)) return TYPE_ALIASES[t];
  const lower = t.toLowerCase();
  if (INTEGER_PREFIXES.some((p) => lower.startsWith(p))) return 'integer';
  if (NUMBER_PREFIXES.some((p) => lower.startsWith(p))) return 'number';
  return t;
}

/** `_get_types`: the normalized types of the options, but `null`. */
function schemaTypes(options: JsonValue): Set<string> {
  let items: JsonValue[];
  if (isJsonArray(options)) items = [...options];
  else if (isJsonObject(options)) items = [...options.keys()];
  else if (typeof options === 'string') items = [...options];
  else throw new PythonException('TypeError', `'${pyTypeOf(options)}' object is not iterable`);
  const types = new Set<string>();
  for (const s of items) {
    if (!isJsonObject(s)) noAttribute(s, 'get');
    const m = s as Map<string, JsonValue>;
    types.add(normalizeType(m.has('type') ? m.get('type')! : 'string'));
  }
  types.delete('null');
  return types;
}

/** `json.loads(value)`, undefined where the parser's `except (JSONDecodeError, ValueError)` catches. */
function loadsOrUndefined(value: string): PyValue | undefined {
  try {
    return pythonJsonLoads(value);
  } catch (e) {
    if (e instanceof PythonException && e.isA('JSONDecodeError', 'ValueError')) return undefined;
    throw e;
  }
}

/** `_parse_value`. */
function parseValue(flavor: Flavor, value: string, name: string, key: string, tools: readonly ParseTool[] | undefined): PyValue {
  const types = schemaTypes(schemaOptions(flavor, argSchema(flavor, name, key, tools)));
  if (types.has('boolean')) {
    const lower = value.toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
  }
  const tryNumber = (f: () => PyValue): PyValue | undefined => {
    try {
      return f();
    } catch (e) {
      if (e instanceof PythonException && e.isA('ValueError', 'TypeError')) return undefined;
      throw e;
    }
  };
  if (types.has('integer')) {
    const r = tryNumber(() => pyInt(pythonIntOf(value)));
    if (r !== undefined) return r;
  }
  if (types.has('number')) {
    const r = tryNumber(() => (/[.eE]/.test(value) ? pyFloat(pythonFloatOf(value)) : pyInt(pythonIntOf(value))));
    if (r !== undefined) return r;
  }
  if ([...types].some((t) => t !== 'string' && t !== 'boolean' && t !== 'integer' && t !== 'number')) {
    const r = loadsOrUndefined(value);
    if (r !== undefined) return r;
  }
  if (types.has('string')) return value;
  // _deserialize
  if (flavor === 'sglang') {
    const r = loadsOrUndefined(value);
    return r === undefined ? value : r;
  }
  for (const f of [pythonJsonLoads, pythonLiteralEval]) {
    try {
      return f(value);
    } catch (e) {
      if (!(e instanceof PythonException)) throw e;
    }
  }
  return value;
}

function argumentsJson(flavor: Flavor, args: string, name: string, tools: readonly ParseTool[] | undefined): string {
  const d = new PyDict();
  for (const [rawKey, value] of argPairs(args, flavor === 'vllm' ? isRegexWs : isReWs)) {
    const key = flavor === 'vllm' ? rawKey : pyStrip(rawKey);
    d.set(key, parseValue(flavor, value, name, key, tools));
  }
  return pythonJsonDumps(d);
}

// ---------------------------------------------------------------------------------------
// vLLM

/** `<tool_call>(.*?)<tool_sep>(.*)` (DOTALL) `findall`: at most one match, to the end of the text. */
function openCall(text: string): [string, string] | undefined {
  const c = text.indexOf(OPEN);
  if (c < 0) return undefined;
  const s = text.indexOf(SEP, c + OPEN.length);
  return s < 0 ? undefined : [text.slice(c + OPEN.length, s), text.slice(s + SEP.length)];
}

function vllmHyV3(text: string, tools: readonly ParseTool[] | undefined): ParserResult {
  const at = text.indexOf(BLOCK);
  if (at < 0) return { content: text, tool_calls: [], tools_called: false };
  let calls: ServerCall[];
  try {
    const found: [string, string, number | undefined][] = closedCalls(text);
    const open = found.length > 0 ? openCall(text.slice(text.lastIndexOf(CLOSE) + CLOSE.length)) : openCall(text);
    if (open) found.push([...open, undefined]);
    const lastText = lastTextAt(text);
    calls = found.map(([rawName, rawArgs, end]) => {
      const name = pyStrip(rawName);
      const why = cutReason(end, lastText);
      return { name, arguments: argumentsJson('vllm', pyStrip(rawArgs), name, tools), ...(why !== undefined ? { incomplete: why } : {}) };
    });
  } catch (e) {
    if (!(e instanceof PythonException)) throw e;
    calls = [];
  }
  const content = text.slice(0, at);
  return { content: content === '' ? null : content, tool_calls: calls, tools_called: true };
}

// ---------------------------------------------------------------------------------------
// SGLang

function sglangHunyuan(text: string, tools: readonly ParseTool[] | undefined): ParserResult {
  const at = text.indexOf(BLOCK);
  if (at < 0) return { content: text, tool_calls: [], tools_called: false, has_tool_call: false };
  const normal = at > 0 ? pyStrip(text.slice(0, at)) : '';
  // _get_tool_indices(None), outside the detector's try
  if (tools === undefined) return { content: text, tool_calls: [], tools_called: false, has_tool_call: true, exception: "TypeError: 'NoneType' object is not iterable" };
  const known = new Set(tools.map((t) => t.name).filter((n) => n !== ''));
  const calls: ServerCall[] = [];
  const lastText = lastTextAt(text);
  try {
    for (const [rawName, args, end] of closedCalls(text)) {
      const name = pyStrip(rawName);
      if (!known.has(name)) continue;
      const why = cutReason(end, lastText);
      calls.push({ name, arguments: argumentsJson('sglang', args, name, tools), ...(why !== undefined ? { incomplete: why } : {}) });
    }
  } catch (e) {
    if (!(e instanceof PythonException)) throw e;
    return { content: text, tool_calls: [], tools_called: false, has_tool_call: true };
  }
  return { content: normal, tool_calls: calls, tools_called: calls.length > 0, has_tool_call: true };
}

// ---------------------------------------------------------------------------------------
// The strict reading


const SECTIONS: SectionSyntax = { open: BLOCK, close: BLOCK_END, callOpen: OPEN, word: 'block', strayCloses: true };

function readHyCalls(text: string, tools: readonly ParseTool[] | undefined): DialectParse {
  const textNotes: TextNote[] = [];
  const nextAt = finder(text);
  const first = (markers: readonly string[], from: number) => firstOf(nextAt, markers, from);
  const n = text.length;
  const note = (at: number, code: string, severity: Note['severity'], message: string, tool?: string) => textNotes.push({ at, note: { code, severity, message }, ...(tool !== undefined ? { tool } : {}) });

  /** The call at `p` (a `<tool_call>`). */
  const readCall = (p: number, inSection: boolean): CallRead => {
    const after = p + OPEN.length;
    const truncated = (what: string, tool?: string): CallRead => {
      note(p, 'parse/truncated', 'error', `the output ends inside ${what}: no call (the text stays content)`, tool);
      return { ok: false, end: n, truncated: true };
    };
    const dropped = (code: string, message: string, tool?: string): CallRead => {
      note(p, code, 'error', `${message}: no call (the text stays content)`, tool);
      // the dropped call runs to its </tool_call>, or to the next call or block
      const k = first([CLOSE, OPEN, BLOCK, BLOCK_END], after);
      return { ok: false, end: k === undefined ? n : k[1] === CLOSE ? k[0] + CLOSE.length : k[0], truncated: false };
    };
    const notes: { note: Note; param?: string }[] = [];
    // the name: up to <tool_sep>
    const stop = first([SEP, KEY, CLOSE, OPEN, BLOCK_END, BLOCK, VALUE, KEY_END, VALUE_END], after);
    if (stop === undefined) return truncated(`the name of a ${OPEN} call`);
    const name = trimWs(text.slice(after, stop[0]));
    const tool = findTool(tools, name);
    if (!tool && name.startsWith('{')) return dropped('parse/wrong-dialect', `this ${OPEN} holds JSON, the Hermes/Qwen call format, not a HY v3 call: kept as text`);
    let i: number;
    if (stop[1] === SEP) i = stop[0] + SEP.length;
    else if (stop[1] === KEY || stop[1] === CLOSE) {
      notes.push({ note: { code: 'parse/unclosed', severity: 'warning', message: `no ${SEP} after the name ${JSON.stringify(name)}: it ends where ${stop[1]} starts` } });
      i = stop[0];
    } else return dropped('parse/invalid-call', `a ${OPEN} without ${SEP} after its name (${stop[1]} follows)`);
    if (!tool && !isPlausibleFunctionName(name)) return dropped('parse/invalid-name', `${JSON.stringify(name)} is not a function name (empty, or holding whitespace, quotes, braces or angle brackets) and no tool has it`);
    const args = new Map<string, JsonValue>();
    let end: number;
    let incomplete: string | undefined;
    for (;;) {
      i = skipWs(text, i);
      if (i >= n) {
        incomplete = `no ${CLOSE}`;
        end = n;
        break;
      }
      if (text.startsWith(CLOSE, i)) {
        end = i + CLOSE.length;
        break;
      }
      if (text.startsWith(OPEN, i) || text.startsWith(BLOCK_END, i) || text.startsWith(BLOCK, i)) {
        const tag = [OPEN, BLOCK_END, BLOCK].find((t) => text.startsWith(t, i))!;
        notes.push({ note: { code: 'parse/unclosed', severity: 'warning', message: `no ${CLOSE} after the call to ${JSON.stringify(name)} (${tag} follows): the call ends after its last argument` } });
        end = i;
        break;
      }
      if (text.startsWith(KEY, i)) {
        const ks = i + KEY.length;
        const kstop = first([KEY_END, VALUE, CLOSE, OPEN, KEY, BLOCK_END], ks);
        if (kstop === undefined) return truncated(`an ${KEY} of ${JSON.stringify(name)}`, name);
        const [ke, tag] = kstop;
        const rawKey = text.slice(ks, ke);
        const key = trimWs(rawKey);
        if (tag === VALUE) {
          notes.push({ param: key, note: { code: 'parse/unclosed', severity: 'warning', message: `no ${KEY_END} after the key ${JSON.stringify(key)}: it ends where ${VALUE} starts` } });
          i = ke;
        } else if (tag === KEY_END) i = ke + KEY_END.length;
        else return dropped('parse/invalid-call', `the key ${JSON.stringify(key)} of ${JSON.stringify(name)} is not closed and no ${VALUE} follows`, name);
        if (key !== rawKey) notes.push({ param: key, note: { code: 'parse/coerced', severity: 'info', message: `whitespace around the key ${JSON.stringify(key)} was dropped` } });
        i = skipWs(text, i);
        if (i >= n) return truncated(`the call to ${JSON.stringify(name)}, after the key ${JSON.stringify(key)} and before its value`, name);
        if (!text.startsWith(VALUE, i)) return dropped('parse/invalid-call', `the key ${JSON.stringify(key)} of ${JSON.stringify(name)} has no ${VALUE}`, name);
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
        } else return truncated(`the value of ${JSON.stringify(key)} of ${JSON.stringify(name)}`, name);
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
      const k = first([KEY, CLOSE, OPEN, BLOCK_END, BLOCK], i + 1);
      if (k === undefined) {
        notes.push({ note: { code: 'parse/unclosed', severity: 'warning', message: `no ${CLOSE} after the call to ${JSON.stringify(name)}: it ends after its last argument, the text after it is content` } });
        end = i;
        break;
      }
      notes.push({ note: { code: 'parse/unexpected-text', severity: 'warning', message: `text inside the call to ${JSON.stringify(name)} that is no argument, left out: ${JSON.stringify(text.slice(i, k[0]).slice(0, 80))}` } });
      i = k[0];
    }
    if (!inSection) notes.push({ note: { code: 'parse/no-wrapper', severity: 'warning', message: `the call to ${JSON.stringify(name)} is not inside ${BLOCK}…${BLOCK_END}: read as a call all the same` } });
    return { ok: true, end, truncated: false, draft: { name, args, start: p, notes, ...(incomplete !== undefined ? { incomplete } : {}) } };
  };

  return readSections(text, SECTIONS, nextAt, readCall, textNotes);
}

export const SYNTAXES: readonly FamilySyntax[] = [
  {
    name: 'hy-v3',
    example: '<tool_calls>\\n<tool_call>get_weather<tool_sep>\\n<arg_key>city</arg_key>\\n<arg_value>Paris</arg_value>\\n</tool_call>\\n</tool_calls>',
    openers: [BLOCK, OPEN],
    controls: TAGS,
    read: readHyCalls,
  },
];

export const SERVER_PARSERS: readonly ServerParserEntry[] = [
  { server: 'vllm', name: 'hy_v3', file: 'vllm/tool_parsers/hy_v3_tool_parser.py', commit: VLLM_COMMIT, parse: vllmHyV3 },
  { server: 'sglang', name: 'hunyuan', file: 'python/sglang/srt/function_call/hunyuan_detector.py', commit: SGLANG_COMMIT, parse: sglangHunyuan },
];
