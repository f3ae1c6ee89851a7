/**
 * The Python objects `json.loads` makes of JSON values (str, int, float, bool, None, list, dict)
 * and what Python does with them in a template: their type names, truthiness, `str()` and
 * `repr()` (Jinja's `{{ }}`, `|string`, `~`, `|join`), `==` and `dict.get`.
 */
import { formatNumberPython, isIntegerText, isJsonArray, isJsonObject, JsonNumber, type JsonObject, type JsonValue } from '../../ir/json.js';

/** The Python type of a JSON value after `json.loads`. */
export type PyTypeName = 'str' | 'int' | 'float' | 'bool' | 'NoneType' | 'list' | 'dict';

/** The Python type name of a value (`json.loads` reads `1` as int, `1.0` and `1e2` as float). */
export function pyType(v: JsonValue): PyTypeName {
  if (v === null) return 'NoneType';
  if (typeof v === 'string') return 'str';
  if (typeof v === 'boolean') return 'bool';
  if (v instanceof JsonNumber) return isIntegerText(v.text) ? 'int' : 'float';
  if (isJsonArray(v)) return 'list';
  return 'dict';
}

/** A value's type in plain words, for messages (`a string`, `a number`, `null`, `an array`…). */
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

/** A number as Python's `repr`/`str` prints what `json.loads` made of it: ints exact, floats shortest (`1e+16`), `inf`, `nan`. */
function pyNumberRepr(n: JsonNumber): string {
  if (!isIntegerText(n.text) && !Number.isFinite(n.value)) {
    // float('inf') from an overflowing literal, or NaN: json.dumps says Infinity/NaN, repr says inf/nan
    return Number.isNaN(n.value) ? 'nan' : n.value > 0 ? 'inf' : '-inf';
  }
  return formatNumberPython(n);
}

// Characters for which Python's str.isprintable() is false: categories Cc Cf Cs Co Cn Zl Zp Zs (tested on non-ASCII only).
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** `repr()` of a Python str: `'…'` (or `"…"` when it holds `'` and no `"`), escapes as CPython's unicode_repr. */
export function pyReprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${hex(cp, 2)}`;
    else if (cp < 0x7f) out += ch;
    else if (NOT_PRINTABLE.test(ch)) out += cp <= 0xff ? `\\x${hex(cp, 2)}` : cp <= 0xffff ? `\\u${hex(cp, 4)}` : `\\U${hex(cp, 8)}`;
    else out += ch;
  }
  return out + quote;
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/** Python's `repr()` of the value `json.loads` makes: `{'a': [1, 2.0]}`, `True`, `None`, `"it's"`. */
export function pyRepr(v: JsonValue): string {
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'string') return pyReprString(v);
  if (v instanceof JsonNumber) return pyNumberRepr(v);
  if (isJsonArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  return `{${[...(v as JsonObject)].map(([k, x]) => `${pyReprString(k)}: ${pyRepr(x)}`).join(', ')}}`;
}

/** Python's `str()` of the value (what `{{ x }}`, `|string`, `~` and `|join` print): a string as itself, anything else its repr. */
export function pyStr(v: JsonValue): string {
  return typeof v === 'string' ? v : pyRepr(v);
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

/** Python `a == b` on the values `json.loads` makes (`1 == 1.0 == True`, dicts by content); Jinja's Undefined (`undefined`) equals only Undefined. */
export function pyEquals(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
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
  if (isJsonArray(a)) return isJsonArray(b) && a.length === b.length && a.every((v, i) => pyEquals(v, b[i]));
  if (!isJsonObject(a)) return a === b;
  if (!isJsonObject(b) || a.size !== b.size) return false;
  for (const [k, v] of a) if (!b.has(k) || !pyEquals(v, b.get(k))) return false;
  return true;
}

/** `dict.get(key, default)`: the member, or the default when absent (never Undefined); the default for what is not a dict. */
export function pyGet(obj: JsonValue, key: string, fallback: JsonValue): JsonValue {
  return isJsonObject(obj) && obj.has(key) ? (obj.get(key) as JsonValue) : fallback;
}
