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
import { finder } from './draft.js';
import { nesting, type Accept, type Nesting } from './nesting.js';
import { firstAtOrAfter } from '../../ir/arrays.js';

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

/**
 * The tags of one text the 00d0a333 functions read (a function's text, or its parameters), found
 * once: vLLM's functions take suffixes of it (`text[i:]`) and search them from the start again and
 * again, which a run of openers makes quadratic; here each search is answered from the tags found,
 * by place (a suffix at `from` is the text from `from`: indexes are the text's own).
 */
class Tags {
  /** The nested-parameter walks (`_find_true_param_end`): openers after a newline; the suffix's first character counts too. */
  readonly walks: Nesting;
  private openers: { all: number[]; byName: Map<string, number[]> } | undefined;
  private functionEnds: number[] | undefined;
  private gts: number[] | undefined;
  private readonly accepts = new Map<string, Map<ReadonlySet<string> | undefined, Accept>>();

  constructor(readonly text: string) {
    this.walks = nesting(text, P_PREFIX, P_END, (i) => i > 0 && text[i - 1] === '\n');
  }

  /** The first `>` at or after `at`, or -1. */
  gtAfter(at: number): number {
    if (this.gts === undefined) {
      this.gts = [];
      for (let i = this.text.indexOf('>'); i >= 0; i = this.text.indexOf('>', i + 1)) this.gts.push(i);
    }
    return firstAtOrAfter(this.gts, at);
  }

  /** A `<parameter=`'s name (up to the first `>` after it), or undefined without one. */
  private nameAt(i: number): string | undefined {
    const nameEnd = this.gtAfter(i + P_PREFIX.length);
    return nameEnd >= 0 ? this.text.slice(i + P_PREFIX.length, nameEnd) : undefined;
  }

  /**
   * `_next_structural_param_start(text[from:], 0, valid)`: the first `<parameter=` at or after
   * `from` that starts a line (or stands at `from` itself, when `fromCounts`: the suffix's index 0)
   * and, when `valid` is given, names one of its names.
   */
  nextOpener(from: number, valid: ReadonlySet<string> | undefined, fromCounts: boolean): number {
    const t = this.text;
    if (fromCounts && t.startsWith(P_PREFIX, from)) {
      if (valid === undefined) return from;
      const name = this.nameAt(from);
      if (name !== undefined && valid.has(name)) return from;
    }
    if (this.openers === undefined) {
      const o = { all: [] as number[], byName: new Map<string, number[]>() };
      for (let i = t.indexOf(P_PREFIX); i >= 0; i = t.indexOf(P_PREFIX, i + P_PREFIX.length)) {
        if (i === 0 || t[i - 1] !== '\n') continue;
        o.all.push(i);
        const name = this.nameAt(i);
        if (name === undefined) continue;
        const list = o.byName.get(name);
        if (list) list.push(i);
        else o.byName.set(name, [i]);
      }
      this.openers = o;
    }
    // at `from` itself it counted above (or not at all): the line-start openers after it
    const after = from + (fromCounts ? 1 : 0);
    if (valid === undefined) return firstAtOrAfter(this.openers.all, after);
    let next = -1;
    for (const name of valid) {
      const list = this.openers.byName.get(name);
      const i = list === undefined ? -1 : firstAtOrAfter(list, after);
      if (i >= 0 && (next < 0 || i < next)) next = i;
    }
    return next;
  }

  /** `_find_true_function_end(text[from:])`, as an index of the text: a `</function>` followed by whitespace then `</tool_call>` or the end. */
  functionEnd(from: number): number {
    if (this.functionEnds === undefined) {
      this.functionEnds = [];
      const t = this.text;
      for (let i = t.indexOf(FN_END); i >= 0; i = t.indexOf(FN_END, i + 1)) {
        const j = pyLstripAt(t, i + FN_END.length);
        if (j === t.length || t.startsWith(TC_END, j)) this.functionEnds.push(i);
      }
    }
    return firstAtOrAfter(this.functionEnds, from);
  }

  /** What `_find_true_param_end` takes as a value's structural `</parameter>` at level 0 (the same function for the same rule). */
  accept(valid: ReadonlySet<string> | undefined, requireLookahead: boolean): Accept {
    const key = requireLookahead ? 'lookahead' : 'end';
    let byValid = this.accepts.get(key);
    if (byValid === undefined) this.accepts.set(key, (byValid = new Map()));
    let a = byValid.get(valid);
    if (a === undefined) {
      const t = this.text;
      a = (close) => {
        const j = pyLstripAt(t, close + P_END.length);
        let nextParam = false;
        if (t.startsWith(P_PREFIX, j)) {
          if (valid !== undefined) {
            const name = this.nameAt(j);
            if (name !== undefined) nextParam = valid.has(name);
          } else nextParam = true;
        }
        return (j === t.length && !requireLookahead) || nextParam || t.startsWith(FN_END, j) || t.startsWith(TC_END, j);
      };
      byValid.set(valid, a);
    }
    return a;
  }

  /** `_find_true_param_end(text[from:], valid, requireLookahead)`, as an index of the text, or -1. */
  paramEnd(from: number, valid: ReadonlySet<string> | undefined, requireLookahead: boolean): number {
    return this.walks.end(from, this.accept(valid, requireLookahead), true);
  }
}

/** Index after Python's `str.lstrip()` of `text[at:]`. */
function pyLstripAt(text: string, at: number): number {
  return text.length - pyLstrip(text.slice(at)).length;
}

/**
 * `_scan_to_structural_function_end(text[bodyStart:])`: walk the parameters to the structural
 * `</function>`; its index in the text, or -1 when incomplete.
 */
function scanToFunctionEnd(tags: Tags, bodyStart: number, valid: ReadonlySet<string> | undefined): number {
  const body = tags.text;
  let pos = bodyStart;
  const n = body.length;
  const seen = new Set<string>();
  while (pos < n) {
    while (pos < n && ' \t\n\r'.includes(body[pos])) pos++;
    if (pos >= n) return -1;
    if (body.startsWith(FN_END, pos)) return pos;
    if (!body.startsWith(P_PREFIX, pos)) return tags.functionEnd(pos);
    const nameEnd = tags.gtAfter(pos + P_PREFIX.length);
    if (nameEnd < 0) return -1;
    const name = body.slice(pos + P_PREFIX.length, nameEnd);
    let valueStart = nameEnd + 1;
    if (valueStart < n && body[valueStart] === '\n') valueStart++;
    const end = tags.paramEnd(valueStart, valid, true);
    if (end < 0) {
      const unseen = valid === undefined ? undefined : new Set([...valid].filter((v) => !seen.has(v) && v !== name));
      const implicit = tags.nextOpener(valueStart, unseen, true);
      if (implicit < 0) return -1;
      pos = implicit;
      seen.add(name);
      continue;
    }
    seen.add(name);
    pos = end + P_END.length;
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
    const tags = new Tags(afterFn);
    const nameEnd = afterFn.indexOf('>');
    let valid: ReadonlySet<string> | undefined;
    let bodyStart = 0;
    if (nameEnd >= 0) {
      valid = validNames(tools, afterFn.slice(0, nameEnd));
      bodyStart = nameEnd + 1;
    }
    const scanEnd = scanToFunctionEnd(tags, bodyStart, valid);
    const fnEnd = scanEnd >= 0 ? scanEnd : tags.functionEnd(0);
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
  const tags = new Tags(parameters);
  const params = new PyDict();
  let pos = 0;
  for (;;) {
    const start = tags.nextOpener(pos, undefined, pos === 0);
    if (start < 0) break;
    const nameStart = start + P_PREFIX.length;
    const nameEnd = tags.gtAfter(nameStart);
    if (nameEnd < 0) break;
    const pname = parameters.slice(nameStart, nameEnd);
    const valueStart = nameEnd + 1;
    const close = tags.paramEnd(valueStart, valid, false);
    let raw: string;
    if (close < 0) {
      // no structural </parameter>: the next declared <parameter= ends it, else </function>, else the end
      const next = tags.nextOpener(valueStart, valid, true);
      if (next >= 0) {
        raw = parameters.slice(valueStart, next);
        pos = next;
      } else {
        const fnEnd = tags.functionEnd(valueStart);
        raw = fnEnd >= 0 ? parameters.slice(valueStart, fnEnd) : parameters.slice(valueStart);
        pos = parameters.length;
      }
    } else {
      raw = parameters.slice(valueStart, close);
      pos = close + P_END.length;
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
  // searches that remember their answer: a run of empty blocks before a far <function= stays linear
  const find = finder(text);
  for (;;) {
    const tc = find(TC_START, search);
    if (tc < 0) break;
    const close = find(TC_END, tc + TC_START.length);
    const limit = close >= 0 ? close : text.length;
    const fn = find(FN_PREFIX, tc + TC_START.length);
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
