/**
 * vLLM's Qwen3-Coder tool parser (`vllm/tool_parsers/qwen3coder_tool_parser.py`,
 * non-streaming `extract_tool_calls`) at two commits, as behaviour.
 *
 * 0b13f933 (regular expressions):
 * - calls: each `<tool_call>` to the first `</tool_call>` (or to the end), each `<function=` in
 *   it to the first `</function>` (or to the end); without any `<tool_call>`, the whole output
 * - parameters: `<parameter=NAME>` up to the first `</parameter>`, `<parameter=`, `</function>`
 *   or end, so a literal `</parameter>` in a value cuts it; a name without `>` raises
 * - values: `null` in any case → None for every parameter; then by the schema's `type`
 * - content: the text before the first `<tool_call>` (else before the first `<function=`)
 *
 * 00d0a333 (structural scanning):
 * - a `</tool_call>` ends a call only when followed (after whitespace) by `<tool_call>` or the end
 * - a `</parameter>` ends a value only when followed by a declared `<parameter=NAME>`,
 *   `</function>`, `</tool_call>` or the end; `<parameter=` opens only at a line start, and nested
 *   literal blocks are balanced; one missing `</parameter>` ends at the next declared parameter
 * - one `<function=` per `<tool_call>`; a name that is empty or holds `{}<>"'` or whitespace is no call
 * - values: `null`/`None` → None when the schema admits null or the type is not a string
 *   type; `anyOf` takes its first non-null type; arrays/objects decode a JSON string once more
 * - content: the text before the first `<tool_call>` that holds a `<function=`
 *
 * Both: json.dumps(ensure_ascii=False) of the parameters; an unknown parameter, an unknown
 * function or a request without tools keeps every value a string; any exception (`inf` for a
 * number: `int(inf)`) drops every call and returns the whole output as content.
 *
 * A call the output ended inside of (the last call of a `<tool_call>` never closed; without any
 * `<tool_call>`, a `<function=` never closed) is returned as vLLM returns it, marked incomplete
 * beside its object (completeness.ts): never runnable.
 */
import { isJsonObject, JsonNumber, type JsonObject, type JsonValue } from '../../ir/json.js';
import { pyStr as pythonStr } from '../../emit/python/values.js';
import { markIncomplete } from '../completeness.js';
import { pythonLiteralEval } from './literal-eval.js';
import { PyDict, PythonException, pyFloat, pyInt, pyLstrip, pyStrip, pythonFloatOf, pythonIntOf, pythonJsonDumps, pythonJsonLoads, pythonTruncate, type PyValue } from './python-values.js';
import { argumentsConfigOld, pyContains, pyGetItem, toolProperties, type ParseTool } from './tools.js';
import { vllmFallback, type VllmExtraction, type VllmToolCall } from './vllm-types.js';

const TC_START = '<tool_call>';
const TC_END = '</tool_call>';
const FN_PREFIX = '<function=';
const FN_END = '</function>';
const P_PREFIX = '<parameter=';
const P_END = '</parameter>';

const STRING_TYPES = ['string', 'str', 'text', 'varchar', 'char', 'enum'];

/** Which commit. */
export type Qwen3CoderCommit = '0b13f933' | '00d0a333';

/** Strip one leading and one trailing newline ("Remove prefix and trailing \n"). */
function stripOneNewline(v: string): string {
  let s = v;
  if (s.startsWith('\n')) s = s.slice(1);
  if (s.endsWith('\n')) s = s.slice(0, -1);
  return s;
}

// ---------------------------------------------------------------------------------------
// Value conversion (_convert_param_value)

/** The schema `type` as vLLM reads it: `str(type).strip().lower()`. */
function typeName(t: JsonValue): string {
  return pyStrip(pythonStr(t)).toLowerCase();
}

/** The conversion both commits share once the type is known: ints, floats, booleans, containers, else `ast.literal_eval`. */
function convertByType(value: string, type: string, commit: Qwen3CoderCommit): PyValue {
  if (type.startsWith('int') || type.startsWith('uint') || type.startsWith('long') || type.startsWith('short') || type.startsWith('unsigned')) {
    try {
      return pyInt(pythonIntOf(value));
    } catch (e) {
      if (e instanceof PythonException && e.isA('ValueError', 'TypeError')) return value;
      throw e;
    }
  }
  if (type.startsWith('num') || type.startsWith('float')) {
    try {
      const f = pythonFloatOf(value);
      // `f if f - int(f) != 0 else int(f)`: int(inf) raises OverflowError, which nobody catches
      const whole = pythonTruncate(f);
      return f - Number(whole) !== 0 ? pyFloat(f) : pyInt(whole);
    } catch (e) {
      if (e instanceof PythonException && e.isA('ValueError', 'TypeError')) return value;
      throw e;
    }
  }
  if (type === 'boolean' || type === 'bool' || type === 'binary') {
    // anything but "true"/"false" (any case) degenerates to False
    return value.toLowerCase() === 'true';
  }
  const container = type === 'object' || type === 'array' || type === 'arr' || type.startsWith('dict') || type.startsWith('list');
  if (container) {
    try {
      const parsed = pythonJsonLoads(value);
      if (commit === '00d0a333' && typeof parsed === 'string') {
        // "a JSON-encoded Python repr": one more ast.literal_eval, kept as is when it fails
        try {
          return pythonLiteralEval(parsed);
        } catch (e) {
          if (e instanceof PythonException && e.isA('ValueError', 'SyntaxError', 'TypeError')) return parsed;
          throw e;
        }
      }
      return parsed;
    } catch (e) {
      if (!(e instanceof PythonException && e.isA('JSONDecodeError', 'TypeError', 'ValueError'))) throw e;
    }
  }
  try {
    const v = pythonLiteralEval(value);
    if (commit === '00d0a333' && container && typeof v === 'string') {
      try {
        return pythonLiteralEval(v);
      } catch (e) {
        if (e instanceof PythonException && e.isA('ValueError', 'SyntaxError', 'TypeError')) return v;
        throw e;
      }
    }
    return v;
  } catch (e) {
    if (e instanceof PythonException && e.isA('ValueError', 'SyntaxError', 'TypeError')) return value;
    throw e;
  }
}

/** `_convert_param_value` at 0b13f933: `null` first, then `type` (anything without one is a string). */
function convertOld(value: string, name: string, config: JsonValue): PyValue {
  if (value.toLowerCase() === 'null') return null;
  if (!pyContains(config, name)) return value;
  const entry = pyGetItem(config, name);
  const type = isJsonObject(entry) && entry.has('type') ? typeName(entry.get('type')!) : 'string';
  if (STRING_TYPES.includes(type)) return value;
  return convertByType(value, type, '0b13f933');
}

/** `_convert_param_value` at 00d0a333: nullable schemas and `anyOf` read, `None` accepted. */
function convertNew(value: string, name: string, config: JsonObject): PyValue {
  const entry = config.get(name);
  if (entry === undefined) return value;
  let type = 'string';
  let allowsNull = false;
  if (isJsonObject(entry) && entry.has('type')) {
    type = typeName(entry.get('type')!);
    allowsNull = type === 'null';
  } else if (isJsonObject(entry) && entry.has('anyOf')) {
    const options = entry.get('anyOf')!;
    let picked = false;
    // `for option in anyOf`: a string iterates its characters, an object its keys (never dicts: skipped)
    if (options === null || typeof options === 'boolean' || options instanceof JsonNumber) {
      const t = options === null ? 'NoneType' : typeof options === 'boolean' ? 'bool' : /[.eE]/.test(options.text) ? 'float' : 'int';
      throw new PythonException('TypeError', `'${t}' object is not iterable`);
    }
    if (Array.isArray(options)) {
      for (const option of options) {
        if (isJsonObject(option) && option.has('type')) {
          const t = typeName(option.get('type')!);
          if (t === 'null') allowsNull = true;
          else if (!picked) {
            type = t;
            picked = true;
          }
        }
      }
    }
  }
  const lower = value.toLowerCase();
  if (allowsNull && (lower === 'null' || lower === 'none')) return null;
  if (STRING_TYPES.includes(type)) return value;
  if (lower === 'null' || lower === 'none') return null;
  return convertByType(value, type, '00d0a333');
}

// ---------------------------------------------------------------------------------------
// 0b13f933: regular expressions

/** A matched body, and whether its closing tag came. */
interface Body {
  readonly body: string;
  readonly closed: boolean;
}

/** `<tool_call>(.*?)</tool_call>|<tool_call>(.*?)$` findall (DOTALL; `$` also matches before a final newline). */
function toolCallBodiesOld(text: string): Body[] {
  const out: Body[] = [];
  let pos = 0;
  for (;;) {
    const p = text.indexOf(TC_START, pos);
    if (p < 0) break;
    const from = p + TC_START.length;
    const c = text.indexOf(TC_END, from);
    if (c >= 0) {
      out.push({ body: text.slice(from, c), closed: true });
      pos = c + TC_END.length;
    } else {
      const end = text.endsWith('\n') && text.length - 1 >= from ? text.length - 1 : text.length;
      out.push({ body: text.slice(from, end), closed: false });
      pos = end;
    }
  }
  return out;
}

/** `<function=(.*?)</function>|<function=(.*)$` findall. */
function functionBodiesOld(text: string): Body[] {
  const out: Body[] = [];
  let pos = 0;
  for (;;) {
    const f = text.indexOf(FN_PREFIX, pos);
    if (f < 0) break;
    const from = f + FN_PREFIX.length;
    const c = text.indexOf(FN_END, from);
    out.push({ body: c >= 0 ? text.slice(from, c) : text.slice(from), closed: c >= 0 });
    pos = c >= 0 ? c + FN_END.length : text.length;
  }
  return out;
}

/**
 * What never came for a call the output ended inside of, or undefined: in a `<tool_call>` block, the
 * last call of a block never closed (the calls before it were followed by more); without any block,
 * a `<function=` never closed.
 */
function cutOff(fn: Body, block: Body | undefined, last: boolean): string | undefined {
  if (block === undefined) return fn.closed ? undefined : `no ${FN_END}`;
  if (block.closed || !last) return undefined;
  return `${fn.closed ? '' : `no ${FN_END}, `}no ${TC_END}`;
}

/** `<parameter=(.*?)(?:</parameter>|(?=<parameter=)|(?=</function>)|$)` findall. */
function parameterMatchesOld(text: string): string[] {
  const out: string[] = [];
  const n = text.length;
  let pos = 0;
  for (;;) {
    const p = text.indexOf(P_PREFIX, pos);
    if (p < 0) break;
    const from = p + P_PREFIX.length;
    let e = from;
    while (e < n && !text.startsWith(P_END, e) && !text.startsWith(P_PREFIX, e) && !text.startsWith(FN_END, e) && !(e === n - 1 && text[e] === '\n')) e++;
    out.push(text.slice(from, e));
    pos = text.startsWith(P_END, e) ? e + P_END.length : e;
  }
  return out;
}

function indexOrRaise(s: string, sub: string): number {
  const i = s.indexOf(sub);
  if (i < 0) throw new PythonException('ValueError', 'substring not found');
  return i;
}

function parseFunctionOld(fc: string, tools: readonly ParseTool[] | undefined): VllmToolCall {
  const end = indexOrRaise(fc, '>');
  const name = fc.slice(0, end);
  const config = argumentsConfigOld(tools, name);
  const params = new PyDict();
  for (const match of parameterMatchesOld(fc.slice(end + 1))) {
    const idx = indexOrRaise(match, '>');
    params.set(match.slice(0, idx), convertOld(stripOneNewline(match.slice(idx + 1)), match.slice(0, idx), config));
  }
  return { type: 'function', function: { name, arguments: pythonJsonDumps(params) } };
}

function extractOld(text: string, tools: readonly ParseTool[] | undefined): VllmExtraction {
  const blocks = toolCallBodiesOld(text);
  const functions =
    blocks.length === 0
      ? functionBodiesOld(text).map((fn) => ({ fc: fn.body, cut: cutOff(fn, undefined, false) }))
      : blocks.flatMap((block) => functionBodiesOld(block.body).map((fn, k, all) => ({ fc: fn.body, cut: cutOff(fn, block, k === all.length - 1) })));
  if (functions.length === 0) return { tools_called: false, tool_calls: [], content: text };
  const calls = functions.map(({ fc, cut }) => {
    const call = parseFunctionOld(fc, tools);
    return cut === undefined ? call : markIncomplete(call, cut);
  });
  const tc = text.indexOf(TC_START);
  const at = tc >= 0 ? tc : text.indexOf(FN_PREFIX);
  const content = text.slice(0, at);
  return { tools_called: calls.length > 0, tool_calls: calls, content: content || null };
}

// ---------------------------------------------------------------------------------------
// 00d0a333: structural scanning

/** `_next_structural_param_start`: a `<parameter=` at index 0 or after `\n` (and naming a declared parameter, when `valid` is given). */
function nextStructuralParamStart(text: string, start: number, valid: ReadonlySet<string> | undefined): number {
  let ni = start;
  for (;;) {
    ni = text.indexOf(P_PREFIX, ni);
    if (ni < 0) return -1;
    if (ni === 0 || text[ni - 1] === '\n') {
      if (valid === undefined) return ni;
      const nameEnd = text.indexOf('>', ni + P_PREFIX.length);
      if (nameEnd >= 0 && valid.has(text.slice(ni + P_PREFIX.length, nameEnd))) return ni;
    }
    ni++;
  }
}

/** `_find_true_function_end`: a `</function>` followed by whitespace then `</tool_call>` or the end. */
function trueFunctionEnd(text: string): number {
  let from = 0;
  for (;;) {
    const idx = text.indexOf(FN_END, from);
    if (idx < 0) return -1;
    const rest = pyLstrip(text.slice(idx + FN_END.length));
    if (rest === '' || rest.startsWith(TC_END)) return idx;
    from = idx + FN_END.length;
  }
}

/** `_find_true_param_end`: the structural `</parameter>` of a value, balancing nested literal blocks. */
function trueParamEnd(value: string, valid: ReadonlySet<string> | undefined, requireLookahead: boolean): number {
  let depth = 0;
  let pos = 0;
  while (pos < value.length) {
    const open = nextStructuralParamStart(value, pos, undefined);
    const close = value.indexOf(P_END, pos);
    if (close < 0) return -1;
    if (open >= 0 && open < close) {
      depth++;
      pos = open + P_PREFIX.length;
    } else if (depth === 0) {
      const rest = pyLstrip(value.slice(close + P_END.length));
      let nextParam = false;
      if (rest.startsWith(P_PREFIX)) {
        if (valid !== undefined) {
          const nameEnd = rest.indexOf('>', P_PREFIX.length);
          if (nameEnd >= 0) nextParam = valid.has(rest.slice(P_PREFIX.length, nameEnd));
        } else nextParam = true;
      }
      if ((rest === '' && !requireLookahead) || nextParam || rest.startsWith(FN_END) || rest.startsWith(TC_END)) return close;
      pos = close + P_END.length;
    } else {
      depth--;
      pos = close + P_END.length;
    }
  }
  return -1;
}

/** `_scan_to_structural_function_end`: walk the parameters to the structural `</function>`; -1 when incomplete. */
function scanToFunctionEnd(body: string, valid: ReadonlySet<string> | undefined): number {
  let pos = 0;
  const n = body.length;
  const seen = new Set<string>();
  while (pos < n) {
    while (pos < n && ' \t\n\r'.includes(body[pos])) pos++;
    if (pos >= n) return -1;
    if (body.startsWith(FN_END, pos)) return pos;
    if (!body.startsWith(P_PREFIX, pos)) {
      const rest = trueFunctionEnd(body.slice(pos));
      return rest >= 0 ? pos + rest : -1;
    }
    const nameEnd = body.indexOf('>', pos + P_PREFIX.length);
    if (nameEnd < 0) return -1;
    const name = body.slice(pos + P_PREFIX.length, nameEnd);
    let valueStart = nameEnd + 1;
    if (valueStart < n && body[valueStart] === '\n') valueStart++;
    const end = trueParamEnd(body.slice(valueStart), valid, true);
    if (end < 0) {
      const unseen = valid === undefined ? undefined : new Set([...valid].filter((v) => !seen.has(v) && v !== name));
      const implicit = nextStructuralParamStart(body.slice(valueStart), 0, unseen);
      if (implicit < 0) return -1;
      pos = valueStart + implicit;
      seen.add(name);
      continue;
    }
    seen.add(name);
    pos = valueStart + end + P_END.length;
  }
  return -1;
}

function validNames(tools: readonly ParseTool[] | undefined, name: string): ReadonlySet<string> | undefined {
  const props = toolProperties(tools, name);
  return props.size > 0 ? new Set(props.keys()) : undefined;
}

function functionCallsNew(text: string, tools: readonly ParseTool[] | undefined): { readonly fc: string; readonly cut?: string }[] {
  const raw: Body[] = [];
  let search = 0;
  for (;;) {
    const start = text.indexOf(TC_START, search);
    if (start < 0) break;
    const afterOpen = text.slice(start + TC_START.length);
    let end = -1;
    let inner = 0;
    for (;;) {
      const idx = afterOpen.indexOf(TC_END, inner);
      if (idx < 0) break;
      const rest = pyLstrip(afterOpen.slice(idx + TC_END.length));
      if (rest === '' || rest.startsWith(TC_START)) {
        end = idx;
        break;
      }
      inner = idx + TC_END.length;
    }
    if (end < 0) {
      raw.push({ body: afterOpen, closed: false });
      break;
    }
    raw.push({ body: afterOpen.slice(0, end), closed: true });
    search = start + TC_START.length + end + TC_END.length;
  }
  const wrapped = raw.length > 0;
  if (!wrapped) raw.push({ body: text, closed: false });
  const out: { fc: string; cut?: string }[] = [];
  for (const block of raw) {
    const call = block.body;
    const f = call.indexOf(FN_PREFIX);
    if (f < 0) continue;
    const afterFn = call.slice(f + FN_PREFIX.length);
    const nameEnd = afterFn.indexOf('>');
    let valid: ReadonlySet<string> | undefined;
    let bodyStart = 0;
    if (nameEnd >= 0) {
      valid = validNames(tools, afterFn.slice(0, nameEnd));
      bodyStart = nameEnd + 1;
    }
    const scanEnd = scanToFunctionEnd(afterFn.slice(bodyStart), valid);
    const fnEnd = scanEnd >= 0 ? bodyStart + scanEnd : trueFunctionEnd(afterFn);
    // one call per block: the call is the block's last
    const cut = cutOff({ body: '', closed: fnEnd >= 0 }, wrapped ? block : undefined, true);
    out.push({ fc: fnEnd < 0 ? afterFn : afterFn.slice(0, fnEnd), ...(cut !== undefined ? { cut } : {}) });
  }
  return out;
}

/** `_is_valid_function_name`: non-empty, none of `{}<>"'` or space/tab/newline/CR. */
export function isPlausibleFunctionName(name: string): boolean {
  return name !== '' && !/[{}<>"' \t\n\r]/.test(name);
}

function parseFunctionNew(fc: string, tools: readonly ParseTool[] | undefined): VllmToolCall | undefined {
  const end = fc.indexOf('>');
  if (end < 0) return undefined;
  const name = fc.slice(0, end);
  if (!isPlausibleFunctionName(name)) return undefined;
  const config = toolProperties(tools, name);
  const valid = config.size > 0 ? new Set(config.keys()) : undefined;
  const parameters = fc.slice(end + 1);
  const params = new PyDict();
  let pos = 0;
  for (;;) {
    const start = nextStructuralParamStart(parameters, pos, undefined);
    if (start < 0) break;
    const nameStart = start + P_PREFIX.length;
    const nameEnd = parameters.indexOf('>', nameStart);
    if (nameEnd < 0) break;
    const pname = parameters.slice(nameStart, nameEnd);
    const value = parameters.slice(nameEnd + 1);
    const close = trueParamEnd(value, valid, false);
    let raw: string;
    if (close < 0) {
      // no structural </parameter>: the next declared <parameter= ends it, else </function>, else the end
      const next = nextStructuralParamStart(value, 0, valid);
      if (next >= 0) {
        raw = value.slice(0, next);
        pos = nameEnd + 1 + next;
      } else {
        const fnEnd = trueFunctionEnd(value);
        raw = fnEnd >= 0 ? value.slice(0, fnEnd) : value;
        pos = parameters.length;
      }
    } else {
      raw = value.slice(0, close);
      pos = nameEnd + 1 + close + P_END.length;
    }
    params.set(pname, convertNew(stripOneNewline(raw), pname, config));
  }
  return { type: 'function', function: { name, arguments: pythonJsonDumps(params) } };
}

function extractNew(text: string, tools: readonly ParseTool[] | undefined): VllmExtraction {
  const functions = functionCallsNew(text, tools);
  if (functions.length === 0) return { tools_called: false, tool_calls: [], content: text };
  const calls = functions
    .map(({ fc, cut }) => {
      const call = parseFunctionNew(fc, tools);
      return call === undefined || cut === undefined ? call : markIncomplete(call, cut);
    })
    .filter((c): c is VllmToolCall => c !== undefined);
  // content: before the first <tool_call> holding a <function= (a bare <tool_call>…</tool_call> in prose stays content)
  let at = -1;
  let search = 0;
  for (;;) {
    const tc = text.indexOf(TC_START, search);
    if (tc < 0) break;
    const close = text.indexOf(TC_END, tc + TC_START.length);
    const limit = close >= 0 ? close : text.length;
    const fn = text.indexOf(FN_PREFIX, tc + TC_START.length);
    if (fn >= 0 && fn + FN_PREFIX.length <= limit) {
      at = tc;
      break;
    }
    search = close >= 0 ? close + TC_END.length : limit;
  }
  if (at < 0) at = text.indexOf(FN_PREFIX);
  const content = at >= 0 ? text.slice(0, at) : text;
  return { tools_called: calls.length > 0, tool_calls: calls, content: content || null };
}

/** vLLM's Qwen3-Coder `extract_tool_calls` at the given commit. */
export function vllmQwen3Coder(text: string, tools: readonly ParseTool[] | undefined, commit: Qwen3CoderCommit): VllmExtraction {
  if (!text.includes(FN_PREFIX)) return { tools_called: false, tool_calls: [], content: text };
  try {
    return commit === '0b13f933' ? extractOld(text, tools) : extractNew(text, tools);
  } catch (e) {
    if (e instanceof PythonException) return vllmFallback(text, e.message);
    throw e;
  }
}
