/**
 * Python's operators on the values a template holds: `+ - * / // % **`, unary `-`/`+`, the
 * orderings `< <= > >=`, `in`, `len()`, `iter()` and hashing, with int arbitrary precision (a
 * JavaScript number while it is a safe integer, a BigInt beyond), floats kept apart from ints,
 * Markup's escaping `+`, Jinja2's Undefined raising where it is used, and Python's own TypeError,
 * ZeroDivisionError and OverflowError texts.
 */
import { isIntegerText, JsonNumber } from '../../ir/json.js';
import { JinjaError, pyAddError } from './errors.js';
import { markupEscape } from './jinja.js';
import { Markup, PyFloat, PyInstance, PyTuple, Undefined, type PyObject } from './objects.js';
import { codePoints, compareCodePoints, hasSurrogates } from './strings.js';
import { pyEquals, pyStr, pyTypeName } from './values.js';

/** A Python number: an int (a safe-integer number, or a BigInt beyond) or a float. */
export type PyNumber = number | bigint | PyFloat;

/** An int as the engine keeps it: a number when it is a safe integer, else a BigInt. */
export function normInt(b: bigint): number | bigint {
  return b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b;
}

/** The number a JSON number is: an int (exact, from its text) or a float. */
export function jsonNumberValue(n: JsonNumber): PyNumber {
  if (isIntegerText(n.text)) {
    // `-0` is the int 0
    if (Number.isSafeInteger(n.value)) return n.value === 0 ? 0 : n.value;
    return normInt(BigInt(n.text));
  }
  return new PyFloat(n.value);
}

/** The int or float a value is in arithmetic (a bool is the int 0 or 1), or undefined for anything else. */
export function pyNumber(v: PyObject | undefined): PyNumber | undefined {
  if (typeof v === 'number' || typeof v === 'bigint' || v instanceof PyFloat) return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof JsonNumber) return jsonNumberValue(v);
  return undefined;
}

/** True when the value is a Python int (not a bool, not a float). */
export function isPyInt(v: PyObject | undefined): boolean {
  return typeof v === 'number' || typeof v === 'bigint' || (v instanceof JsonNumber && isIntegerText(v.text));
}

/** True when the value is a Python float. */
export function isPyFloat(v: PyObject | undefined): boolean {
  return v instanceof PyFloat || (v instanceof JsonNumber && !isIntegerText(v.text));
}

/** A Python number as a double (`float(int)`; OverflowError for an int too large). */
export function toDouble(n: PyNumber): number {
  if (typeof n === 'number') return n;
  if (n instanceof PyFloat) return n.value;
  const d = Number(n);
  if (!Number.isFinite(d)) throw new JinjaError('OverflowError', 'int too large to convert to float');
  return d;
}

/** A text value (str or Markup) as a JavaScript string, or undefined. */
function textOf(v: PyObject): string | undefined {
  return typeof v === 'string' ? v : v instanceof Markup ? v.text : undefined;
}

/** Raise the error of an Undefined operand, left one first (Python tries `left.__add__`, then `right.__radd__`). */
function failUndefined(a: PyObject, b: PyObject): void {
  if (a instanceof Undefined) a.fail();
  if (b instanceof Undefined) b.fail();
}

/** The TypeError of a binary operator Python has no method for. */
function unsupported(op: string, a: PyObject, b: PyObject): JinjaError {
  return new JinjaError('TypeError', `unsupported operand type(s) for ${op}: '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
}

/** `int + int` etc. on two ints, exact. */
function intOp(a: number | bigint, b: number | bigint, op: (x: bigint, y: bigint) => bigint, fast: (x: number, y: number) => number): number | bigint {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = fast(a, b);
    if (Number.isSafeInteger(r)) return r === 0 ? 0 : r;
  }
  return normInt(op(BigInt(a), BigInt(b)));
}

/** A float result. */
function float(x: number): PyFloat {
  return new PyFloat(x);
}

/** Python `a + b`: numbers, str + str, list + list, tuple + tuple, Markup escaping the other str (`Markup + str`, `str + Markup`). */
export function pyAdd(a: PyObject, b: PyObject): PyObject {
  if (typeof a === 'string' && typeof b === 'string') return a + b;
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a + b;
    if (Number.isSafeInteger(r)) return r;
  }
  failUndefined(a, b);
  // MarkupSafe: Markup.__add__ and __radd__ escape a plain str operand
  if (a instanceof Markup) {
    const t = textOf(b);
    if (t !== undefined) return new Markup(a.text + (b instanceof Markup ? t : markupEscape(t)));
    throw unsupported('+', a, b);
  }
  if (b instanceof Markup) {
    if (typeof a === 'string') return new Markup(markupEscape(a) + b.text);
    // Markup.__radd__ declines: the left operand's own message (`can only concatenate list (not "Markup") to list`)
    throw pyAddError(a, b);
  }
  const x = pyNumber(a);
  const y = pyNumber(b);
  if (x !== undefined && y !== undefined) {
    if (x instanceof PyFloat || y instanceof PyFloat) return float(toDouble(x) + toDouble(y));
    return intOp(x, y, (p, q) => p + q, (p, q) => p + q);
  }
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  if (a instanceof PyTuple && b instanceof PyTuple) return new PyTuple([...a.items, ...b.items]);
  throw pyAddError(a, b);
}

/** Python `a - b` on numbers. */
export function pySub(a: PyObject, b: PyObject): PyObject {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a - b;
    if (Number.isSafeInteger(r)) return r === 0 ? 0 : r;
  }
  failUndefined(a, b);
  const x = pyNumber(a);
  const y = pyNumber(b);
  if (x === undefined || y === undefined) throw unsupported('-', a, b);
  if (x instanceof PyFloat || y instanceof PyFloat) return float(toDouble(x) - toDouble(y));
  return intOp(x, y, (p, q) => p - q, (p, q) => p - q);
}

/** `seq * n`: a str, list or tuple repeated (n <= 0 gives an empty one). */
function repeat(seq: PyObject, n: number | bigint): PyObject {
  // a count beyond a C ssize_t does not fit; a huge result is a MemoryError (its message empty)
  if (BigInt(n) > 9223372036854775807n || BigInt(n) < -9223372036854775808n) throw new JinjaError('OverflowError', "cannot fit 'int' into an index-sized integer");
  const k = Number(n) > 0 ? Number(n) : 0;
  if (k > 1e8) throw new JinjaError('MemoryError', '');
  if (typeof seq === 'string') return seq.repeat(k);
  if (seq instanceof Markup) return new Markup(seq.text.repeat(k));
  if (Array.isArray(seq)) return Array.from({ length: k }, () => seq as readonly PyObject[]).flat() as PyObject[];
  const items = (seq as PyTuple).items;
  return new PyTuple(Array.from({ length: k }, () => items).flat());
}

/** True for a str, Markup, list or tuple (what `*` repeats). */
function isSequence(v: PyObject): boolean {
  return typeof v === 'string' || v instanceof Markup || Array.isArray(v) || v instanceof PyTuple;
}

/** Python `a * b`: numbers, or a str/list/tuple times an int. */
export function pyMul(a: PyObject, b: PyObject): PyObject {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a * b;
    if (Number.isSafeInteger(r)) return r === 0 ? 0 : r;
  }
  // Markup.__mul__ runs first and hands the operand to str.__mul__, which wants an int (even of Undefined)
  if (a instanceof Markup && !(isPyInt(b) || typeof b === 'boolean')) throw new JinjaError('TypeError', `'${pyTypeName(b)}' object cannot be interpreted as an integer`);
  failUndefined(a, b);
  const x = pyNumber(a);
  const y = pyNumber(b);
  if (x !== undefined && y !== undefined) {
    if (x instanceof PyFloat || y instanceof PyFloat) return float(toDouble(x) * toDouble(y));
    return intOp(x, y, (p, q) => p * q, (p, q) => p * q);
  }
  if (isSequence(a) && y !== undefined && !(y instanceof PyFloat)) return repeat(a, y);
  if (isSequence(b) && x !== undefined && !(x instanceof PyFloat)) return repeat(b, x);
  // Markup.__mul__ / __rmul__ call str.__mul__ with the other operand: it must be an int
  if (a instanceof Markup || b instanceof Markup) throw new JinjaError('TypeError', `'${pyTypeName(a instanceof Markup ? b : a)}' object cannot be interpreted as an integer`);
  // `'a' * 'b'`, `'a' * 1.5`, `None * 'a'`: the sequence's own message, naming the other operand
  if (isSequence(a)) throw new JinjaError('TypeError', `can't multiply sequence by non-int of type '${pyTypeName(b)}'`);
  if (isSequence(b)) throw new JinjaError('TypeError', `can't multiply sequence by non-int of type '${pyTypeName(a)}'`);
  throw unsupported('*', a, b);
}

/** Python `a / b`: true division, always a float. */
export function pyTrueDiv(a: PyObject, b: PyObject): PyObject {
  failUndefined(a, b);
  const x = pyNumber(a);
  const y = pyNumber(b);
  if (x === undefined || y === undefined) throw unsupported('/', a, b);
  const isFloat = x instanceof PyFloat || y instanceof PyFloat;
  const d = toDouble(y);
  if (d === 0) throw new JinjaError('ZeroDivisionError', isFloat ? 'float division by zero' : 'division by zero');
  return float(toDouble(x) / d);
}

/** Floor of a / b on ints (Python rounds toward negative infinity). */
function floorDivInt(p: bigint, q: bigint): bigint {
  const d = p / q;
  return (p % q !== 0n && (p < 0n) !== (q < 0n)) ? d - 1n : d;
}

/** Python's float `divmod`: the floor quotient and a remainder with the divisor's sign. */
function floatDivmod(x: number, y: number): [number, number] {
  let mod = x % y;
  let div = (x - mod) / y;
  if (mod) {
    if ((y < 0) !== (mod < 0)) {
      mod += y;
      div -= 1;
    }
  } else mod = y < 0 ? -0 : 0;
  let floordiv: number;
  if (div) {
    floordiv = Math.floor(div);
    if (div - floordiv > 0.5) floordiv += 1;
  } else floordiv = x / y < 0 ? -0 : 0;
  return [floordiv, mod];
}

/** Python `a // b`. */
export function pyFloorDiv(a: PyObject, b: PyObject): PyObject {
  failUndefined(a, b);
  const x = pyNumber(a);
  const y = pyNumber(b);
  if (x === undefined || y === undefined) throw unsupported('//', a, b);
  if (x instanceof PyFloat || y instanceof PyFloat) {
    const d = toDouble(y);
    if (d === 0) throw new JinjaError('ZeroDivisionError', 'float floor division by zero');
    return float(floatDivmod(toDouble(x), d)[0]);
  }
  if (y === 0 || y === 0n) throw new JinjaError('ZeroDivisionError', 'integer division or modulo by zero');
  if (typeof x === 'number' && typeof y === 'number') return Math.floor(x / y) || 0;
  return normInt(floorDivInt(BigInt(x), BigInt(y)));
}

/** Python `a % b` on numbers (the result takes the divisor's sign). */
export function pyNumberMod(a: PyObject, b: PyObject): PyObject {
  failUndefined(a, b);
  const x = pyNumber(a);
  const y = pyNumber(b);
  if (x === undefined || y === undefined) throw unsupported('%', a, b);
  if (x instanceof PyFloat || y instanceof PyFloat) {
    const d = toDouble(y);
    if (d === 0) throw new JinjaError('ZeroDivisionError', 'float modulo');
    return float(floatDivmod(toDouble(x), d)[1]);
  }
  if (y === 0 || y === 0n) throw new JinjaError('ZeroDivisionError', 'integer modulo by zero');
  if (typeof x === 'number' && typeof y === 'number') {
    const r = x % y;
    return r !== 0 && (r < 0) !== (y < 0) ? r + y : r === 0 ? 0 : r;
  }
  const p = BigInt(x);
  const q = BigInt(y);
  const r = p % q;
  return normInt(r !== 0n && (r < 0n) !== (q < 0n) ? r + q : r);
}

/** Python `a ** b`. */
export function pyPow(a: PyObject, b: PyObject): PyObject {
  failUndefined(a, b);
  const x = pyNumber(a);
  const y = pyNumber(b);
  if (x === undefined || y === undefined) throw unsupported('** or pow()', a, b);
  if (!(x instanceof PyFloat) && !(y instanceof PyFloat)) {
    const e = BigInt(y);
    if (e >= 0n) {
      if (e > 100000n && BigInt(x) !== 0n && BigInt(x) !== 1n && BigInt(x) !== -1n) throw new JinjaError('Unsupported', 'an integer power this large is not computed by the template engine');
      return normInt(BigInt(x) ** e);
    }
    if (BigInt(x) === 0n) throw new JinjaError('ZeroDivisionError', '0.0 cannot be raised to a negative power');
    return float(toDouble(x) ** toDouble(y));
  }
  const fx = toDouble(x);
  const fy = toDouble(y);
  if (fx === 0 && fy < 0) throw new JinjaError('ZeroDivisionError', '0.0 cannot be raised to a negative power');
  if (fx < 0 && !Number.isInteger(fy)) throw new JinjaError('Unsupported', 'a negative number raised to a fractional power is a complex number, which the template engine does not make');
  const r = fx ** fy;
  if (!Number.isFinite(r) && Number.isFinite(fx) && Number.isFinite(fy)) throw new JinjaError('OverflowError', '(34, \'Numerical result out of range\')');
  return float(r);
}

/** Python unary `-x`. */
export function pyNeg(v: PyObject): PyObject {
  if (typeof v === 'number') return v === 0 ? 0 : -v;
  if (v instanceof Undefined) v.fail();
  const n = pyNumber(v);
  if (n === undefined) throw new JinjaError('TypeError', `bad operand type for unary -: '${pyTypeName(v)}'`);
  if (n instanceof PyFloat) return float(-n.value);
  return typeof n === 'bigint' ? normInt(-n) : -n || 0;
}

/** Python unary `+x`. */
export function pyPos(v: PyObject): PyObject {
  if (v instanceof Undefined) v.fail();
  const n = pyNumber(v);
  if (n === undefined) throw new JinjaError('TypeError', `bad operand type for unary +: '${pyTypeName(v)}'`);
  return n;
}

/** Python's `<` between two numbers (exact between ints and floats). */
function numberLess(x: PyNumber, y: PyNumber): boolean {
  if (typeof x === 'number' && typeof y === 'number') return x < y;
  if (x instanceof PyFloat || y instanceof PyFloat) {
    const fx = x instanceof PyFloat ? x.value : undefined;
    const fy = y instanceof PyFloat ? y.value : undefined;
    if (fx !== undefined && fy !== undefined) return fx < fy;
    if (fx !== undefined) {
      // float < int: exactly when floor(float) < int
      if (Number.isNaN(fx)) return false;
      if (!Number.isFinite(fx)) return fx < 0;
      return BigInt(Math.floor(fx)) < BigInt(y as number | bigint);
    }
    // int < float: exactly when int < ceil(float)
    const g = fy as number;
    if (Number.isNaN(g)) return false;
    if (!Number.isFinite(g)) return g > 0;
    return BigInt(x as number | bigint) < BigInt(Math.ceil(g));
  }
  return BigInt(x) < BigInt(y);
}

/** The result of comparing two values with `op` (`<`, `<=`, `>`, `>=`) as Python does, or its TypeError. */
export function pyCompare(op: '<' | '<=' | '>' | '>=', a: PyObject, b: PyObject): boolean {
  if (typeof a === 'number' && typeof b === 'number') {
    return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
  }
  failUndefined(a, b);
  const x = pyNumber(a);
  const y = pyNumber(b);
  if (x !== undefined && y !== undefined) {
    switch (op) {
      case '<':
        return numberLess(x, y);
      case '>':
        return numberLess(y, x);
      case '<=':
        return !numberLess(y, x) && !isNaNNumber(x) && !isNaNNumber(y);
      case '>=':
        return !numberLess(x, y) && !isNaNNumber(x) && !isNaNNumber(y);
    }
  }
  const ta = textOf(a);
  const tb = textOf(b);
  if (ta !== undefined && tb !== undefined) {
    const c = compareCodePoints(ta, tb);
    return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
  }
  const sa = Array.isArray(a) ? (a as readonly PyObject[]) : a instanceof PyTuple ? a.items : undefined;
  const sb = Array.isArray(b) ? (b as readonly PyObject[]) : b instanceof PyTuple ? b.items : undefined;
  if (sa !== undefined && sb !== undefined && Array.isArray(a) === Array.isArray(b)) {
    // lexicographic: the first items that differ decide, else the lengths
    const n = Math.min(sa.length, sb.length);
    for (let i = 0; i < n; i++) {
      if (!pyEquals(sa[i], sb[i])) {
        if (op === '<' || op === '<=') return pyCompare('<', sa[i], sb[i]);
        return pyCompare('>', sa[i], sb[i]);
      }
    }
    const c = sa.length - sb.length;
    return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
  }
  throw new JinjaError('TypeError', `'${op}' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
}

function isNaNNumber(n: PyNumber): boolean {
  return n instanceof PyFloat && Number.isNaN(n.value);
}

/** A three-way comparison built on Python's `<` (for sorting: stable sorts need only this). */
export function pyCmp(a: PyObject, b: PyObject): number {
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  if (pyCompare('<', a, b)) return -1;
  if (pyCompare('<', b, a)) return 1;
  return 0;
}

/** `len(x)`: code points of a str, items of a list, tuple or dict, 0 for Undefined; TypeError otherwise. */
export function pyLenOf(v: PyObject): number {
  if (typeof v === 'string') return hasSurrogates(v) ? codePoints(v).length : v.length;
  if (Array.isArray(v)) return v.length;
  if (v instanceof Map) return v.size;
  if (v instanceof PyTuple) return v.items.length;
  if (v instanceof Markup) return pyLenOf(v.text);
  if (v instanceof Undefined) return 0;
  if (v instanceof PyInstance) {
    const n = v.pyLen();
    if (n !== undefined) return n;
  }
  throw new JinjaError('TypeError', `object of type '${pyTypeName(v)}' has no len()`);
}

const NO_ITEMS: readonly PyObject[] = [];

/** `iter(x)`: a str's characters, a list's or tuple's items, a dict's keys, nothing for Undefined; TypeError otherwise. */
export function pyIter(v: PyObject): Iterable<PyObject> {
  if (Array.isArray(v)) return v as readonly PyObject[];
  if (typeof v === 'string') return codePoints(v);
  if (v instanceof Map) return (v as ReadonlyMap<PyObject, PyObject>).keys();
  if (v instanceof PyTuple) return v.items;
  if (v instanceof Undefined) return NO_ITEMS;
  // iterating a Markup gives plain one-character strs
  if (v instanceof Markup) return codePoints(v.text);
  if (v instanceof PyInstance) {
    const it = v.pyIter();
    if (it !== undefined) return it;
  }
  throw new JinjaError('TypeError', `'${pyTypeName(v)}' object is not iterable`);
}

/** True when `iter(x)` succeeds. */
export function pyIsIterable(v: PyObject): boolean {
  if (typeof v === 'string' || Array.isArray(v) || v instanceof Map || v instanceof PyTuple || v instanceof Undefined || v instanceof Markup) return true;
  return v instanceof PyInstance && v.pyIter() !== undefined;
}

/** A list of what `iter(x)` yields. */
export function pyList(v: PyObject): PyObject[] {
  return Array.isArray(v) ? [...(v as readonly PyObject[])] : [...pyIter(v)];
}

/** The key a hashable value has in a dict or set (`1`, `1.0` and `True` the same key); TypeError for a list or dict. */
export function pyHashKey(v: PyObject): string {
  if (typeof v === 'string') return `s${v}`;
  if (v instanceof Markup) return `s${v.text}`;
  if (v === null) return 'n';
  const n = pyNumber(v);
  if (n !== undefined) {
    if (n instanceof PyFloat) return Number.isInteger(n.value) ? `i${BigInt(n.value)}` : `f${n.value}`;
    return `i${n}`;
  }
  if (v instanceof PyTuple) return `t(${v.items.map(pyHashKey).join(',')})`;
  if (Array.isArray(v) || v instanceof Map) throw new JinjaError('TypeError', `unhashable type: '${pyTypeName(v)}'`);
  if (v instanceof Undefined) return 'u';
  return `o${pyTypeName(v)}`;
}

/** `item in container`: a substring of a str, a member of a list or tuple, a key of a dict; Undefined holds nothing; TypeError otherwise. */
export function pyIn(item: PyObject, container: PyObject): boolean {
  const text = textOf(container);
  if (text !== undefined) {
    const t = textOf(item);
    if (t === undefined) {
      throw new JinjaError('TypeError', `'in <string>' requires string as left operand, not ${pyTypeName(item)}`);
    }
    return text.includes(t);
  }
  if (Array.isArray(container)) {
    if (typeof item === 'string') return container.includes(item) || container.some((x) => x instanceof Markup && x.text === item);
    return container.some((x) => pyEquals(x, item));
  }
  if (container instanceof Map) {
    if (typeof item === 'string' && container.has(item)) return true;
    const key = pyHashKey(item);
    for (const k of (container as ReadonlyMap<PyObject, PyObject>).keys()) if (pyHashKey(k) === key) return true;
    return false;
  }
  if (container instanceof PyTuple) return container.items.some((x) => pyEquals(x, item));
  if (container instanceof Undefined) return false;
  if (container instanceof PyInstance) {
    const it = container.pyIter();
    if (it !== undefined) {
      for (const x of it) if (pyEquals(x, item)) return true;
      return false;
    }
  }
  throw new JinjaError('TypeError', `argument of type '${pyTypeName(container)}' is not iterable`);
}

/** `str(x)` of what `~` and `join` print (Undefined as nothing). */
export function pyText(v: PyObject): string {
  return typeof v === 'string' ? v : pyStr(v);
}
