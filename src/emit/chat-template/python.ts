/**
 * Python semantics of JSON values, as the chat template sees them: transformers hands the
 * template what `json.loads` returned (str, int, float, bool, None, list, dict), and Jinja2
 * evaluates `+`, `in`, `|join`, truthiness and printing with Python's own rules. These
 * functions reproduce those rules on lossless JSON values, and the error texts Python and
 * Jinja2 give when a rule fails.
 */
import { formatNumberPython, isIntegerText, isJsonArray, isJsonObject, JsonNumber, stringifyPython, type JsonValue } from '../../ir/json.js';

/** The Python type of a JSON value after `json.loads`. */
export type PyTypeName = 'str' | 'int' | 'float' | 'bool' | 'NoneType' | 'list' | 'dict';

/** A Jinja2 or Python error, as `render.py` prints it: `{type}: {message}`. */
export class JinjaError extends Error {
  constructor(
    /** `TypeError`, `UndefinedError`, `TemplateError`, `UnicodeEncodeError`. */
    readonly errorType: string,
    message: string,
  ) {
    super(message);
    this.name = 'JinjaError';
  }
  /** The error line: `TypeError: can only concatenate str (not "int") to str`. */
  get text(): string {
    return `${this.errorType}: ${this.message}`;
  }
}

/** The Python type name of a value (`json.loads` reads `1` as int, `1.0` and `1e2` as float). */
export function pyType(v: JsonValue): PyTypeName {
  if (v === null) return 'NoneType';
  if (typeof v === 'string') return 'str';
  if (typeof v === 'boolean') return 'bool';
  if (v instanceof JsonNumber) return isIntegerText(v.text) ? 'int' : 'float';
  if (isJsonArray(v)) return 'list';
  return 'dict';
}

/** A type name for messages in plain words. */
export function plainType(v: JsonValue): string {
  switch (pyType(v)) {
    case 'str':
      return 'a string';
    case 'int':
    case 'float':
      return 'a number';
    case 'bool':
      return 'a boolean';
    case 'NoneType':
      return 'null';
    case 'list':
      return 'an array';
    case 'dict':
      return 'an object';
  }
}

/** Python truthiness; `undefined` is Jinja2's Undefined, which is false. */
export function pyTruthy(v: JsonValue | undefined): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'string') return v.length > 0;
  if (typeof v === 'boolean') return v;
  if (v instanceof JsonNumber) return v.value !== 0;
  if (isJsonArray(v)) return v.length > 0;
  return v.size > 0;
}

/** `len(s)` of a Python str: code points, not UTF-16 units. */
export function pyLen(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

// Python's str.isprintable() is false for these categories (the space character excepted).
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** `repr()` of a Python str: single quotes unless the text has `'` and no `"`, escapes for what is not printable. */
export function pyReprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch !== ' ' && NON_PRINTABLE.test(ch)) {
      const hex = cp.toString(16);
      out += cp < 0x100 ? `\\x${hex.padStart(2, '0')}` : cp < 0x10000 ? `\\u${hex.padStart(4, '0')}` : `\\U${hex.padStart(8, '0')}`;
    } else out += ch;
  }
  return out + quote;
}

/** `repr()` of a value (how a list or dict shows its members). */
export function pyRepr(v: JsonValue): string {
  return typeof v === 'string' ? pyReprString(v) : pyStr(v);
}

/** `str()` of a value: what `{{ x }}` and `|join` print (`None`, `True`, `1.0`, `{'a': [1, 'b']}`). */
export function pyStr(v: JsonValue): string {
  if (v === null) return 'None';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (v instanceof JsonNumber) return Number.isFinite(v.value) || isIntegerText(v.text) ? formatNumberPython(v) : v.value > 0 ? 'inf' : '-inf';
  if (isJsonArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  return `{${[...v].map(([k, x]) => `${pyReprString(k)}: ${pyRepr(x)}`).join(', ')}}`;
}

/** The template's `tojson` filter: `json.dumps(x, ensure_ascii=False)`. */
export function pyToJson(v: JsonValue): string {
  return stringifyPython(v, { ensureAscii: false });
}

/** `"..." + v` in Jinja2: only a str may be added to a str. */
export function pyConcatOperand(v: JsonValue): string {
  if (typeof v === 'string') return v;
  throw new JinjaError('TypeError', `can only concatenate str (not "${pyType(v)}") to str`);
}

/** The members a `for` loop (or `|join`) sees: a str's characters, a list's items, a dict's keys. */
export function pyIterate(v: JsonValue): JsonValue[] {
  if (typeof v === 'string') return [...v];
  if (isJsonArray(v)) return [...v];
  if (isJsonObject(v)) return [...v.keys()];
  throw new JinjaError('TypeError', `'${pyType(v)}' object is not iterable`);
}

/** `item in container` for a str item: substring of a str, member of a list, key of a dict. */
export function pyContains(container: JsonValue, item: string): boolean {
  if (typeof container === 'string') return container.includes(item);
  if (isJsonArray(container)) return container.some((x) => x === item);
  if (isJsonObject(container)) return container.has(item);
  throw new JinjaError('TypeError', `argument of type '${pyType(container)}' is not iterable`);
}

/** Jinja2's `object_type_repr`: `dict object`, `list object`, `None`. */
function objectTypeRepr(v: JsonValue): string {
  return v === null ? 'None' : `${pyType(v)} object`;
}

/** The UndefinedError Jinja2 raises when an attribute that is not there is used. */
export function undefinedAttribute(owner: JsonValue, name: string): JinjaError {
  return new JinjaError('UndefinedError', `'${objectTypeRepr(owner)}' has no attribute '${name}'`);
}

/** The UndefinedError for an index that is not there (`messages[0]` of an empty list). */
export function undefinedElement(owner: JsonValue, index: number): JinjaError {
  return new JinjaError('UndefinedError', `${objectTypeRepr(owner)} has no element ${index}`);
}

/** The first lone surrogate in a string: its code point and its position in code points (as Python counts). */
export function firstLoneSurrogate(s: string): { codePoint: number; position: number } | undefined {
  let position = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (cp >= 0xd800 && cp <= 0xdfff) return { codePoint: cp, position };
    position++;
  }
  return undefined;
}

/** The error Python gives when text with a lone surrogate is encoded as UTF-8. */
export function surrogateError(codePoint: number, position: number): JinjaError {
  return new JinjaError('UnicodeEncodeError', `'utf-8' codec can't encode character '\\u${codePoint.toString(16)}' in position ${position}: surrogates not allowed`);
}
