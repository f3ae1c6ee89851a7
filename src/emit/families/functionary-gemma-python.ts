/**
 * Python and Jinja2 behaviours the Functionary and Gemma templates need that the shared layer
 * (emit/xml/python.ts, emit/chat-template/python.ts) does not have yet: Python `==`, `len()`,
 * `+` errors, the sandbox's `obj[key]` lookup, `is iterable`, `dictsort`, `unique`, `upper`,
 * MarkupSafe's escaping, and the failure every family printer throws where its template raises.
 */
import { CompileError, type Diagnostic } from '../../diagnostics.js';
import { isIntegerText, isJsonArray, isJsonObject, JsonNumber, type JsonValue } from '../../ir/json.js';
import { toolFieldPointer, type ToolDefinition } from '../../input/types.js';
import { firstLoneSurrogate, JinjaError, pyType, surrogateError } from '../chat-template/python.js';
import { compareCodePoints, pythonStr } from '../xml/python.js';
import { childPointer } from '../xml/template.js';

/** A value as a template holds it: a JSON value, or Jinja2's Undefined (`undefined`). */
export type JinjaValue = JsonValue | undefined;

/** Jinja2's `object_type_repr`, as its Undefined messages print it: `None`, `int object`, `dict object`. */
export function objectTypeRepr(v: JsonValue): string {
  return v === null ? 'None' : `${pyType(v)} object`;
}

/**
 * The sandbox's `obj[key]` (and `obj.key`) on a JSON value: a dict's member, a list's or str's
 * element at an int index (negative from the end); anything else is Undefined (Jinja2 falls back
 * to `getattr`, which finds nothing on JSON values for the keys these templates read).
 */
export function jinjaItem(obj: JinjaValue, key: string | number): JinjaValue {
  if (isJsonObject(obj)) return typeof key === 'string' ? obj.get(key) : undefined;
  if (typeof key !== 'number') return undefined;
  if (isJsonArray(obj)) return obj.at(key);
  if (typeof obj === 'string') {
    const chars = [...obj];
    return chars.at(key);
  }
  return undefined;
}

/** `dict.get(key, default)`: the member, or the default when absent (never Undefined). */
export function pyGet(obj: JsonValue, key: string, fallback: JsonValue): JsonValue {
  return isJsonObject(obj) && obj.has(key) ? (obj.get(key) as JsonValue) : fallback;
}

/** The exact integer of a Python int or of an integral float (BigInt), or undefined for a fraction/inf/nan. */
function exactInteger(n: JsonNumber): bigint | undefined {
  if (isIntegerText(n.text)) return BigInt(n.text);
  return Number.isInteger(n.value) ? BigInt(n.value) : undefined;
}

/** A bool or number as Python compares it numerically (`True == 1 == 1.0`). */
function numeric(v: JsonValue): JsonNumber | undefined {
  if (typeof v === 'boolean') return new JsonNumber(v ? '1' : '0', v ? 1 : 0);
  return v instanceof JsonNumber ? v : undefined;
}

/** Python `a == b` on the values `json.loads` makes (`1 == 1.0 == True`, dicts by content); Undefined equals only Undefined. */
export function pyEquals(a: JinjaValue, b: JinjaValue): boolean {
  if (a === undefined || b === undefined) return a === b;
  const x = numeric(a);
  const y = numeric(b);
  if (x !== undefined || y !== undefined) {
    if (x === undefined || y === undefined) return false;
    const ix = exactInteger(x);
    const iy = exactInteger(y);
    if (ix !== undefined && iy !== undefined) return ix === iy;
    return x.value === y.value;
  }
  if (a === null || typeof a === 'string') return a === b;
  if (isJsonArray(a)) return isJsonArray(b) && a.length === b.length && a.every((v, i) => pyEquals(v, b[i]));
  if (!isJsonObject(b) || a.size !== b.size) return false;
  for (const [k, v] of a) if (!b.has(k) || !pyEquals(v, b.get(k))) return false;
  return true;
}

/** Jinja2's `is iterable` (`iter(x)` succeeds): str, list, dict, and Undefined (which iterates as empty). */
export function pyIsIterable(v: JinjaValue): boolean {
  return v === undefined || typeof v === 'string' || isJsonArray(v) || isJsonObject(v);
}

/** What a `for` loop sees: a str's characters, a list's items, a dict's keys, nothing for Undefined; TypeError otherwise. */
export function jinjaIterate(v: JinjaValue): JsonValue[] {
  if (v === undefined) return [];
  if (typeof v === 'string') return [...v];
  if (isJsonArray(v)) return [...v];
  if (isJsonObject(v)) return [...v.keys()];
  throw new JinjaError('TypeError', `'${pyType(v)}' object is not iterable`);
}

/** `x|length` (Python `len()`): code points of a str, items of a list or dict, 0 for Undefined; TypeError otherwise. */
export function pyLength(v: JinjaValue): number {
  if (v === undefined) return 0;
  if (typeof v === 'string') return [...v].length;
  if (isJsonArray(v)) return v.length;
  if (isJsonObject(v)) return v.size;
  throw new JinjaError('TypeError', `object of type '${pyType(v)}' has no len()`);
}

/** Python's TypeError for `left + right` where the operands cannot be added (`can only concatenate str (not "int") to str`, `unsupported operand type(s) for +: 'int' and 'str'`). */
export function pyAddError(left: JsonValue, right: JsonValue): JinjaError {
  const l = pyType(left);
  const r = pyType(right);
  if (l === 'str' || l === 'list') return new JinjaError('TypeError', `can only concatenate ${l} (not "${r}") to ${l}`);
  return new JinjaError('TypeError', `unsupported operand type(s) for +: '${l}' and '${r}'`);
}

/** `str + str` in Python: the text, or the TypeError Python raises for another left operand. */
export function pyAddString(left: JsonValue, right: string): string {
  if (typeof left === 'string') return left + right;
  throw pyAddError(left, right);
}

/** Python's `str.upper()` (Jinja's `|upper` prints `str()` of the value first; Undefined is empty). */
export function pyUpper(v: JinjaValue): string {
  return v === undefined ? '' : pythonStr(v).toUpperCase();
}

/** The AttributeError Python raises for `value.items()` on what is not a dict (Jinja's `dictsort` calls it directly). */
function noItems(v: JinjaValue): JinjaError {
  const type = v === undefined ? 'Undefined' : pyType(v);
  return new JinjaError('AttributeError', `'${type}' object has no attribute 'items'`);
}

/** Jinja's `|dictsort`: the members sorted by key, ignoring case (`str.lower()`), stable; AttributeError on a non-dict. */
export function jinjaDictsort(v: JinjaValue): [string, JsonValue][] {
  if (!isJsonObject(v)) throw noItems(v);
  const entries = [...v].map(([k, x]) => ({ k, x, low: k.toLowerCase() }));
  // Array.prototype.sort is stable, as Python's sorted
  entries.sort((a, b) => compareCodePoints(a.low, b.low));
  return entries.map((e) => [e.k, e.x]);
}

/** Jinja's `|unique` (case-insensitive for strings, first occurrence kept, `1 == 1.0 == True` the same key); TypeError for a list or dict member. */
export function jinjaUnique(values: readonly JsonValue[]): JsonValue[] {
  const seen: JsonValue[] = [];
  const out: JsonValue[] = [];
  for (const v of values) {
    if (isJsonArray(v) || isJsonObject(v)) throw new JinjaError('TypeError', `unhashable type: '${pyType(v)}'`);
    const key = typeof v === 'string' ? v.toLowerCase() : v;
    if (seen.some((s) => pyEquals(s, key))) continue;
    seen.push(key);
    out.push(v);
  }
  return out;
}

const MARKUP_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&#34;' };

/** MarkupSafe's `escape()` (what `Markup + str` does to the str): `& < > ' "` as `&amp; &lt; &gt; &#39; &#34;`. */
export function markupEscape(s: string): string {
  return s.replace(/[&<>'"]/g, (c) => MARKUP_ESCAPES[c]);
}

/** Where a template raises: the JSON Pointer of the value, a plain reason, and Jinja2's own error. */
export class FamilyFailure extends Error {
  constructor(
    /** JSON Pointer into the input. */
    readonly pointer: string,
    /** What went wrong, in plain words. */
    readonly reason: string,
    /** The error Python raised. */
    readonly error: JinjaError,
  ) {
    super(`${reason} (Jinja2: ${error.text})`);
    this.name = 'FamilyFailure';
  }
}

/** Run `body`; a JinjaError it throws becomes a FamilyFailure at `pointer` with `reason`. */
export function at<T>(pointer: string, reason: string, body: () => T): T {
  try {
    return body();
  } catch (e) {
    if (e instanceof JinjaError) throw new FamilyFailure(pointer, reason, e);
    throw e;
  }
}

/** Throw the FamilyFailure for a place where the template raises `error`. */
export function failAt(pointer: string, reason: string, error: JinjaError): never {
  throw new FamilyFailure(pointer, reason, error);
}

/** The `family/template-fails` diagnostic of a failure (the message ends with the template's own error). */
export function familyFailureDiagnostic(family: string, tool: ToolDefinition | undefined, f: FamilyFailure): Diagnostic {
  return {
    code: 'family/template-fails',
    severity: 'error',
    ...(tool !== undefined ? { tool: tool.name } : {}),
    path: f.pointer,
    message: `the ${family} template fails${tool !== undefined ? ' on this tool' : ''}: ${f.message}`,
  };
}

/** Render each tool with `body`; a FamilyFailure becomes a CompileError (`family/template-fails`) naming the tool. */
export function perTool<T>(family: string, tools: readonly ToolDefinition[], body: (tool: ToolDefinition) => T): T[] {
  return tools.map((tool) => {
    try {
      return body(tool);
    } catch (e) {
      if (e instanceof FamilyFailure) throw new CompileError([familyFailureDiagnostic(family, tool, e)]);
      throw e;
    }
  });
}

/** The pointer of the first string (or key) holding a lone surrogate in a value. */
function surrogateIn(v: JsonValue | undefined, pointer: string): string | undefined {
  if (typeof v === 'string') return firstLoneSurrogate(v) ? pointer : undefined;
  if (isJsonArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = surrogateIn(v[i], childPointer(pointer, i));
      if (p !== undefined) return p;
    }
  } else if (isJsonObject(v)) {
    for (const [k, x] of v) {
      const here = childPointer(pointer, k);
      const p = firstLoneSurrogate(k) ? here : surrogateIn(x, here);
      if (p !== undefined) return p;
    }
  }
  return undefined;
}

/**
 * transformers' caller writes the prompt as UTF-8 (render.py encodes it): a lone surrogate (only
 * possible from JavaScript strings or `\ud83d` escapes) fails there with UnicodeEncodeError,
 * positioned in code points of the whole prompt. Throws that failure, naming the first tool
 * that holds one (or the instructions).
 */
export function assertUtf8Prompt(family: string, text: string, tools: readonly ToolDefinition[]): void {
  const s = firstLoneSurrogate(text);
  if (s === undefined) return;
  const error = surrogateError(s.codePoint, s.position);
  const reason = `the prompt holds a lone surrogate (U+${s.codePoint.toString(16).toUpperCase()}), which cannot be written as UTF-8`;
  for (const tool of tools) {
    const name = toolFieldPointer(tool, 'name');
    const p =
      surrogateIn(tool.name, name) ??
      surrogateIn(tool.description, toolFieldPointer(tool, 'description')) ??
      surrogateIn(tool.parameters, tool.parametersPointer) ??
      surrogateIn(tool.extra, name.slice(0, name.lastIndexOf('/')));
    if (p !== undefined) throw new CompileError([familyFailureDiagnostic(family, tool, new FamilyFailure(p, reason, error))]);
  }
  throw new CompileError([familyFailureDiagnostic(family, undefined, new FamilyFailure('', reason, error))]);
}
