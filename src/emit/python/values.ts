/**
 * The Python objects `json.loads` makes of JSON values (str, int, float, bool, None, list, dict),
 * and the ones a template makes beside them (objects.ts: run-time ints and floats, tuples,
 * Markup, Undefined, engine objects), and what Python does with them in a template: their type
 * names, truthiness, `str()` and `repr()` (Jinja's `{{ }}`, `|string`, `~`, `|join`), `==` and
 * `dict.get`.
 */
import { formatNumberPython, formatPythonFloat, isIntegerText, isJsonArray, isJsonObject, JsonNumber, type JsonValue } from '../../ir/json.js';
import { Markup, PyFloat, PyInstance, PyTuple, Undefined, type PyObject } from './objects.js';

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

/** `type(x).__name__` of any value a template holds (`int`, `tuple`, `Markup`, `Undefined`, `Namespace`…). */
export function pyTypeName(v: PyObject): string {
  if (typeof v === 'string') return 'str';
  if (typeof v === 'number' || typeof v === 'bigint') return 'int';
  if (v === null) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (v instanceof JsonNumber) return isIntegerText(v.text) ? 'int' : 'float';
  if (v instanceof PyFloat) return 'float';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Map) return 'dict';
  if (v instanceof PyTuple) return 'tuple';
  if (v instanceof Markup) return 'Markup';
  if (v instanceof Undefined) return 'Undefined';
  if (v instanceof PyInstance) return v.pyClass;
  return 'object';
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

/** Python truthiness; `undefined` (and an Undefined object) is Jinja2's Undefined, which is false. */
export function pyTruthy(v: PyObject | undefined): boolean {
  if (typeof v === 'string') return v.length > 0;
  if (typeof v === 'boolean') return v;
  if (v === undefined || v === null) return false;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'bigint') return v !== 0n;
  if (v instanceof JsonNumber) return v.value !== 0;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof Map) return v.size > 0;
  if (v instanceof PyFloat) return v.value !== 0;
  if (v instanceof PyTuple) return v.items.length > 0;
  if (v instanceof Markup) return v.text.length > 0;
  if (v instanceof Undefined) return false;
  if (v instanceof PyInstance) return v.pyTruthy();
  return true;
}

/** A float as Python's `repr` prints it: shortest round trip (`1e+16`, `0.1`), `inf`, `-inf`, `nan`. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  return formatPythonFloat(x);
}

/** A number as Python's `repr`/`str` prints what `json.loads` made of it: ints exact, floats shortest (`1e+16`), `inf`, `nan`. */
function pyNumberRepr(n: JsonNumber): string {
  if (!isIntegerText(n.text) && !Number.isFinite(n.value)) {
    // float('inf') from an overflowing literal, or NaN: json.dumps says Infinity/NaN, repr says inf/nan
    return pyFloatRepr(n.value);
  }
  return formatNumberPython(n);
}

// Characters for which Python's str.isprintable() is false: categories Cc Cf Cs Co Cn Zl Zp Zs (tested on non-ASCII only).
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;
// a string that needs no escape in its repr: printable ASCII only, no quote or backslash
const PLAIN_REPR = /^[\x20-\x26\x28-\x5b\x5d-\x7e]*$/;

/** `repr()` of a Python str: `'…'` (or `"…"` when it holds `'` and no `"`), escapes as CPython's unicode_repr. */
export function pyReprString(s: string): string {
  if (PLAIN_REPR.test(s)) return `'${s}'`;
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

/** Python's `repr()`: `{'a': [1, 2.0]}`, `True`, `None`, `"it's"`, `(1,)`, `Markup('x')`, `Undefined`. */
export function pyRepr(v: PyObject): string {
  if (typeof v === 'string') return pyReprString(v);
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (v instanceof JsonNumber) return pyNumberRepr(v);
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i ? ', ' : '') + pyRepr(v[i]);
    return out + ']';
  }
  if (v instanceof Map) {
    let out = '{';
    let first = true;
    for (const [k, x] of v as ReadonlyMap<PyObject, PyObject>) {
      out += `${first ? '' : ', '}${pyRepr(k)}: ${pyRepr(x)}`;
      first = false;
    }
    return out + '}';
  }
  if (v instanceof PyFloat) return pyFloatRepr(v.value);
  // a one-item tuple keeps its comma: `(1,)`
  if (v instanceof PyTuple) return v.items.length === 1 ? `(${pyRepr(v.items[0])},)` : `(${v.items.map(pyRepr).join(', ')})`;
  if (v instanceof Markup) return `Markup(${pyReprString(v.text)})`;
  if (v instanceof Undefined) return 'Undefined';
  if (v instanceof PyInstance) return v.pyRepr();
  return String(v);
}

/** Python's `str()` (what `{{ x }}`, `|string`, `~` and `|join` print): a string as itself, Undefined as nothing, anything else its repr. */
export function pyStr(v: PyObject): string {
  if (typeof v === 'string') return v;
  if (v instanceof Markup) return v.text;
  if (v instanceof Undefined) return '';
  if (v instanceof PyInstance) return v.pyStr();
  return pyRepr(v);
}

/** The exact integer of a Python int or of an integral float (BigInt), or undefined for a fraction/inf/nan. */
function exactInteger(v: number | bigint | JsonNumber | PyFloat): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return BigInt(v);
  if (v instanceof JsonNumber && isIntegerText(v.text)) return BigInt(v.text);
  return Number.isInteger(v.value) ? BigInt(v.value) : undefined;
}

/** A bool or number as Python compares it numerically (`True == 1 == 1.0`). */
function numeric(v: PyObject): number | bigint | JsonNumber | PyFloat | undefined {
  if (typeof v === 'number' || typeof v === 'bigint' || v instanceof JsonNumber || v instanceof PyFloat) return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return undefined;
}

/** True for a float (not an int): its value can be fractional, infinite or NaN. */
function isFloatNumber(v: number | bigint | JsonNumber | PyFloat): v is JsonNumber | PyFloat {
  return v instanceof PyFloat || (v instanceof JsonNumber && !isIntegerText(v.text));
}

/** Python `a == b` (`1 == 1.0 == True`, dicts by content, a list never equals a tuple); Jinja's Undefined (`undefined` or an Undefined object) equals only Undefined. */
export function pyEquals(a: PyObject | undefined, b: PyObject | undefined): boolean {
  if (typeof a === 'string') return typeof b === 'string' ? a === b : b instanceof Markup && b.text === a;
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  const ua = a === undefined || a instanceof Undefined;
  const ub = b === undefined || b instanceof Undefined;
  if (ua || ub) return ua && ub;
  const x = numeric(a);
  const y = numeric(b);
  if (x !== undefined || y !== undefined) {
    if (x === undefined || y === undefined) return false;
    if (typeof x === 'number' && typeof y === 'number') return x === y;
    if (isFloatNumber(x) || isFloatNumber(y)) {
      const fx = isFloatNumber(x) ? x.value : undefined;
      const fy = isFloatNumber(y) ? y.value : undefined;
      if (fx !== undefined && fy !== undefined) return fx === fy;
      // an int against a float: equal only when the float is that exact integer
      const f = (fx ?? fy) as number;
      const i = exactInteger((fx === undefined ? x : y) as number | bigint | JsonNumber);
      return Number.isInteger(f) && i === BigInt(f);
    }
    return exactInteger(x) === exactInteger(y);
  }
  if (a instanceof Markup) return (typeof b === 'string' && a.text === b) || (b instanceof Markup && a.text === b.text);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!pyEquals(a[i], b[i])) return false;
    return true;
  }
  if (a instanceof PyTuple) return b instanceof PyTuple && a.items.length === b.items.length && a.items.every((v, i) => pyEquals(v, b.items[i]));
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    const bm = b as ReadonlyMap<PyObject, PyObject>;
    for (const [k, v] of a as ReadonlyMap<PyObject, PyObject>) if (!bm.has(k) || !pyEquals(v, bm.get(k))) return false;
    return true;
  }
  if (a instanceof PyInstance) return a.pyEquals(b);
  if (b instanceof PyInstance) return b.pyEquals(a);
  return a === b;
}

/** `dict.get(key, default)`: the member, or the default when absent (never Undefined); the default for what is not a dict. */
export function pyGet(obj: JsonValue, key: string, fallback: JsonValue): JsonValue {
  return isJsonObject(obj) && obj.has(key) ? (obj.get(key) as JsonValue) : fallback;
}

