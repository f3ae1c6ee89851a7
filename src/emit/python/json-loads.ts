/**
 * Python's `json.loads` (CPython's C scanner: NaN/Infinity, big ints, floats, lone surrogates, its
 * error messages, its recursion limit) and `json.dumps`, on the Python values they make and take
 * ({@link PyValue}: None, bool, str, and tagged int/float/list/tuple/dict/set/bytes/complex/Ellipsis).
 * The one emulation every caller shares: vLLM's tool parsers, vLLM's arguments round trip
 * (`json.dumps(json.loads(…))`), mlx-lm's argument parsing. Python exceptions are thrown as
 * {@link PythonException} and caught where the emulated server catches them.
 */
import { formatPythonFloat, quoteJsonString, quoteJsonStringAscii } from '../../ir/json.js';

/** A Python object: None, bool, str, or a tagged int/float/list/tuple/dict/set/bytes/complex/Ellipsis. */
export type PyValue =
  | null
  | boolean
  | string
  | PyInt
  | PyFloat
  | PyList
  | PyTuple
  | PyDict
  | PySet
  | PyBytes
  | PyComplex
  | PyEllipsis;

/** A Python int (arbitrary precision). */
export interface PyInt {
  readonly t: 'int';
  readonly v: bigint;
}
/** A Python float (a double; nan and ±inf included). */
export interface PyFloat {
  readonly t: 'float';
  readonly v: number;
}
/** A Python list. */
export interface PyList {
  readonly t: 'list';
  readonly items: readonly PyValue[];
}
/** A Python tuple. */
export interface PyTuple {
  readonly t: 'tuple';
  readonly items: readonly PyValue[];
}
/** A Python set (only ever built to be refused by json.dumps or a hash). */
export interface PySet {
  readonly t: 'set';
  readonly items: readonly PyValue[];
}
/** A Python bytes object (its bytes as a latin-1 string). */
export interface PyBytes {
  readonly t: 'bytes';
  readonly v: string;
}
/** A Python complex. */
export interface PyComplex {
  readonly t: 'complex';
  readonly re: number;
  readonly im: number;
}
/** Python's `...`. */
export interface PyEllipsis {
  readonly t: 'ellipsis';
}

/** A Python dict: insertion order, Python key equality (`1 == 1.0 == True`), a re-set key keeps its first position. */
export class PyDict {
  readonly t = 'dict' as const;
  private readonly index = new Map<string, number>();
  private readonly keys: PyValue[] = [];
  private readonly values: PyValue[] = [];
  /** `d[k] = v`: throws TypeError for an unhashable key, as Python does. */
  set(key: PyValue, value: PyValue): void {
    const h = hashKey(key);
    const at = this.index.get(h);
    if (at !== undefined) this.values[at] = value;
    else {
      this.index.set(h, this.keys.length);
      this.keys.push(key);
      this.values.push(value);
    }
  }
  /** `d[k]`, or undefined when absent. */
  get(key: PyValue): PyValue | undefined {
    const at = this.index.get(hashKey(key));
    return at === undefined ? undefined : this.values[at];
  }
  /** `k in d`. */
  has(key: PyValue): boolean {
    return this.index.has(hashKey(key));
  }
  /** `len(d)`. */
  get size(): number {
    return this.keys.length;
  }
  /** `d.items()` in order. */
  *entries(): IterableIterator<[PyValue, PyValue]> {
    for (let i = 0; i < this.keys.length; i++) yield [this.keys[i], this.values[i]];
  }
}

/** A Python exception, thrown by the emulated built-ins and caught where vLLM catches it. */
export class PythonException extends Error {
  constructor(
    /** The exception class name: `JSONDecodeError`, `ValueError`, `KeyError`, … */
    readonly type: string,
    /** `str(exception)`. */
    readonly detail: string,
  ) {
    super(`${type}: ${detail}`);
    this.name = 'PythonException';
  }
  /** True for the classes an `except (A, B)` clause catches (JSONDecodeError is a ValueError). */
  isA(...types: readonly string[]): boolean {
    return types.includes(this.type) || (this.type === 'JSONDecodeError' && types.includes('ValueError'));
  }
}

/** `json.JSONDecodeError`: its bare message (`msg`) and where it stopped, as a UTF-16 index into the document. */
export class PythonJsonDecodeError extends PythonException {
  constructor(
    /** The message without its position (`Expecting value`). */
    readonly reason: string,
    /** The position as a UTF-16 index into the document (Python counts code points: see the detail). */
    readonly offset: number,
    detail: string,
  ) {
    super('JSONDecodeError', detail);
  }
}

/** Build a Python int. */
export function pyInt(v: bigint): PyInt {
  return { t: 'int', v };
}
/** Build a Python float. */
export function pyFloat(v: number): PyFloat {
  return { t: 'float', v };
}

/** Python truthiness of a value (undefined: absent, as None). */
export function pyValueTruthy(v: PyValue | undefined): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return v !== '';
  switch (v.t) {
    case 'int':
      return v.v !== 0n;
    case 'float':
      return v.v !== 0;
    case 'list':
    case 'tuple':
    case 'set':
      return v.items.length > 0;
    case 'dict':
      return v.size > 0;
    case 'bytes':
      return v.v !== '';
    case 'complex':
      return v.re !== 0 || v.im !== 0;
    default:
      return true;
  }
}

/** Python's type name of a value (`type(v).__name__`). */
export function pyTypeName(v: PyValue): string {
  if (v === null) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'str';
  return v.t === 'ellipsis' ? 'ellipsis' : v.t;
}

// ---------------------------------------------------------------------------------------
// Hashing (dict keys, set members)

/** A string equal for equal hashable Python values; throws TypeError for list/dict/set. */
function hashKey(v: PyValue): string {
  if (v === null) return 'N';
  if (typeof v === 'boolean') return v ? 'n1' : 'n0';
  if (typeof v === 'string') return `s${v}`;
  switch (v.t) {
    case 'int':
      return `n${v.v}`;
    case 'float':
      return numberKey(v.v);
    case 'complex':
      return v.im === 0 ? numberKey(v.re) : `c${numberKey(v.re)},${numberKey(v.im)}`;
    case 'bytes':
      return `b${v.v}`;
    case 'tuple':
      return `t(${v.items.map(hashKey).join(',')})`;
    case 'ellipsis':
      return 'E';
    default:
      throw new PythonException('TypeError', `unhashable type: '${v.t}'`);
  }
}

function numberKey(x: number): string {
  // 1.0 == 1 and -0.0 == 0 as dict keys
  if (Number.isInteger(x)) return `n${BigInt(x)}`;
  return `f${x}`;
}

/** Python's limit on int ↔ decimal string conversion (`sys.get_int_max_str_digits()`). */
export const INT_MAX_STR_DIGITS = 4300;

// ---------------------------------------------------------------------------------------
// json.loads

// CPython's C scanner recurses once per container and stops at the recursion limit (1000,
// less the frames already on the stack): an approximation of where RecursionError starts.
const MAX_JSON_DEPTH = 990;

function decodeError(doc: string, msg: string, jsPos: number): PythonJsonDecodeError {
  // JSONDecodeError's str(): "msg: line L column C (char P)", positions in code points
  const before = [...doc.slice(0, jsPos)];
  const pos = before.length;
  const lineno = before.filter((c) => c === '\n').length + 1;
  const lastNl = before.lastIndexOf('\n');
  const colno = pos - lastNl;
  return new PythonJsonDecodeError(msg, jsPos, `${msg}: line ${lineno} column ${colno} (char ${pos})`);
}

/** Options of {@link pythonJsonLoads}. */
export interface PythonJsonLoadsOptions {
  /** How many containers may nest before RecursionError (the caller's stack decides it); default 990. */
  readonly maxDepth?: number;
}

const isWs = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/**
 * Python's `json.loads(s)` (CPython's C scanner, strict): NaN, Infinity and -Infinity accepted,
 * integers exact, duplicate keys keep the first position and the last value, lone surrogate
 * escapes kept, and the same JSONDecodeError messages (`Expecting value: line 1 column 1 (char 0)`).
 * Nesting deeper than about a thousand levels raises RecursionError, as CPython does.
 */
export function pythonJsonLoads(doc: string, onDuplicateKey?: (key: string) => void, options: PythonJsonLoadsOptions = {}): PyValue {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  if (doc.startsWith('\ufeff')) throw decodeError(doc, 'Unexpected UTF-8 BOM (decode using utf-8-sig)', 0);
  const n = doc.length;
  let i = 0;
  const skipWs = () => {
    while (i < n && isWs(doc[i])) i++;
  };
  // StopIteration in the C scanner: raw_decode turns it into "Expecting value" at that index.
  const expectingValue = (at: number) => decodeError(doc, 'Expecting value', at);

  const scanString = (): string => {
    // doc[i] === '"'
    const begin = i;
    let end = i + 1;
    let out = '';
    for (;;) {
      let next = end;
      let c = '';
      for (; next < n; next++) {
        c = doc[next];
        if (c === '"' || c === '\\') break;
        if (c.charCodeAt(0) <= 0x1f) throw decodeError(doc, 'Invalid control character at', next);
      }
      if (next >= n) throw decodeError(doc, 'Unterminated string starting at', begin);
      out += doc.slice(end, next);
      next++;
      if (c === '"') {
        i = next;
        return out;
      }
      if (next === n) throw decodeError(doc, 'Unterminated string starting at', begin);
      const e = doc[next];
      if (e !== 'u') {
        end = next + 1;
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        const ch = simple[e];
        if (ch === undefined) throw decodeError(doc, 'Invalid \\escape', end - 2);
        out += ch;
        continue;
      }
      next++;
      end = next + 4;
      if (end >= n) throw decodeError(doc, 'Invalid \\uXXXX escape', next - 1);
      const hex4 = (from: number): number => {
        const h = doc.slice(from, from + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(h)) throw decodeError(doc, 'Invalid \\uXXXX escape', from - 1);
        return parseInt(h, 16);
      };
      const cu = hex4(next);
      if (cu >= 0xd800 && cu <= 0xdbff && end + 6 < n && doc[end] === '\\' && doc[end + 1] === 'u') {
        const lo = hex4(end + 2);
        if (lo >= 0xdc00 && lo <= 0xdfff) {
          out += String.fromCharCode(cu, lo);
          end += 6;
          continue;
        }
      }
      out += String.fromCharCode(cu);
    }
  };

  const scanNumber = (): PyValue => {
    const start = i;
    let j = i;
    if (doc[j] === '-') {
      j++;
      if (j >= n) throw expectingValue(start);
    }
    if (doc[j] >= '1' && doc[j] <= '9') {
      j++;
      while (j < n && doc[j] >= '0' && doc[j] <= '9') j++;
    } else if (doc[j] === '0') j++;
    else throw expectingValue(start);
    let isFloat = false;
    if (j < n - 1 && doc[j] === '.' && doc[j + 1] >= '0' && doc[j + 1] <= '9') {
      isFloat = true;
      j += 2;
      while (j < n && doc[j] >= '0' && doc[j] <= '9') j++;
    }
    if (j < n - 1 && (doc[j] === 'e' || doc[j] === 'E')) {
      const eStart = j;
      j++;
      if (j < n - 1 && (doc[j] === '-' || doc[j] === '+')) j++;
      const dStart = j;
      while (j < n && doc[j] >= '0' && doc[j] <= '9') j++;
      if (j > dStart) isFloat = true;
      else j = eStart;
    }
    const text = doc.slice(start, j);
    i = j;
    if (isFloat) return pyFloat(Number(text));
    const digits = text.replace('-', '');
    if (digits.length > INT_MAX_STR_DIGITS) {
      throw new PythonException('ValueError', `Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${digits.length} digits; use sys.set_int_max_str_digits() to increase the limit`);
    }
    return pyInt(BigInt(text));
  };

  const scanOnce = (depth: number): PyValue => {
    if (i >= n) throw expectingValue(i);
    const c = doc[i];
    if (c === '"') return scanString();
    if (c === '{' || c === '[') {
      if (depth >= maxDepth) throw new PythonException('RecursionError', `maximum recursion depth exceeded while decoding a JSON ${c === '{' ? 'object' : 'array'} from a unicode string`);
      return c === '{' ? scanObject(depth + 1) : scanArray(depth + 1);
    }
    const word = (w: string, v: PyValue): PyValue | undefined => {
      if (doc.startsWith(w, i)) {
        i += w.length;
        return v;
      }
      return undefined;
    };
    let v: PyValue | undefined;
    if (c === 'n') v = word('null', null);
    else if (c === 't') v = word('true', true);
    else if (c === 'f') v = word('false', false);
    else if (c === 'N') v = word('NaN', pyFloat(NaN));
    else if (c === 'I') v = word('Infinity', pyFloat(Infinity));
    else if (c === '-' && doc[i + 1] === 'I') v = word('-Infinity', pyFloat(-Infinity));
    if (v !== undefined) return v;
    return scanNumber();
  };

  const scanObject = (depth: number): PyValue => {
    i++;
    const d = new PyDict();
    skipWs();
    if (i < n && doc[i] === '}') {
      i++;
      return d;
    }
    for (;;) {
      if (i >= n || doc[i] !== '"') throw decodeError(doc, 'Expecting property name enclosed in double quotes', i);
      const key = scanString();
      skipWs();
      if (i >= n || doc[i] !== ':') throw decodeError(doc, "Expecting ':' delimiter", i);
      i++;
      skipWs();
      const value = scanOnce(depth);
      if (onDuplicateKey && d.has(key)) onDuplicateKey(key);
      d.set(key, value);
      skipWs();
      if (i < n && doc[i] === '}') {
        i++;
        return d;
      }
      if (i >= n || doc[i] !== ',') throw decodeError(doc, "Expecting ',' delimiter", i);
      i++;
      skipWs();
    }
  };

  const scanArray = (depth: number): PyValue => {
    i++;
    const items: PyValue[] = [];
    skipWs();
    if (i < n && doc[i] === ']') {
      i++;
      return { t: 'list', items };
    }
    for (;;) {
      items.push(scanOnce(depth));
      skipWs();
      if (i < n && doc[i] === ']') {
        i++;
        return { t: 'list', items };
      }
      if (i >= n || doc[i] !== ',') throw decodeError(doc, "Expecting ',' delimiter", i);
      i++;
      skipWs();
    }
  };

  skipWs();
  const value = scanOnce(0);
  skipWs();
  if (i !== n) throw decodeError(doc, 'Extra data', i);
  return value;
}

// ---------------------------------------------------------------------------------------
// json.dumps

function intRepr(v: bigint): string {
  const s = v.toString();
  if (s.replace('-', '').length > INT_MAX_STR_DIGITS) {
    throw new PythonException('ValueError', `Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit`);
  }
  return s;
}

/**
 * Python's `json.dumps(v, ensure_ascii=False)` (or `ensure_ascii=True` when asked: non-ASCII and DEL
 * as `\uXXXX`): `, ` and `: ` separators, floats as `repr`
 * (`1.0`, `1e-05`, `NaN`, `Infinity`), tuples as lists, dict keys converted (`1` → `"1"`,
 * `True` → `"true"`); TypeError for sets, bytes, complex, Ellipsis and tuple keys.
 */
export function pythonJsonDumps(v: PyValue, options: { readonly ensureAscii?: boolean } = {}): string {
  const quote = options.ensureAscii ? quoteJsonStringAscii : quoteJsonString;
  const go = (x: PyValue): string => {
    if (x === null) return 'null';
    if (x === true) return 'true';
    if (x === false) return 'false';
    if (typeof x === 'string') return quote(x);
    switch (x.t) {
      case 'int':
        return intRepr(x.v);
      case 'float':
        return formatPythonFloat(x.v);
      case 'list':
      case 'tuple':
        return `[${x.items.map(go).join(', ')}]`;
      case 'dict': {
        const parts: string[] = [];
        for (const [k, y] of x.entries()) parts.push(`${quote(keyString(k))}: ${go(y)}`);
        return `{${parts.join(', ')}}`;
      }
      default:
        throw new PythonException('TypeError', `Object of type ${pyTypeName(x)} is not JSON serializable`);
    }
  };
  return go(v);
}

function keyString(k: PyValue): string {
  if (typeof k === 'string') return k;
  if (k === null) return 'null';
  if (k === true) return 'true';
  if (k === false) return 'false';
  if (k.t === 'float') return formatPythonFloat(k.v);
  if (k.t === 'int') return intRepr(k.v);
  throw new PythonException('TypeError', `keys must be str, int, float, bool or None, not ${pyTypeName(k)}`);
}
