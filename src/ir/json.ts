/**
 * JSON values that keep what JavaScript's JSON.parse loses: each number's source text and
 * each object's key order (integer-like keys included, `__proto__` an ordinary key).
 *
 * - numbers are `JsonNumber` (text + value)
 * - objects are `JsonObject` (a Map, insertion order; a duplicate key keeps its first
 *   position and takes the last value, as serde_json's IndexMap and Python's dict do)
 * - arrays are plain readonly arrays, strings and booleans and null are themselves
 */

/** A JSON number with the exact text it was written with. */
export class JsonNumber {
  constructor(
    /** The number as written in the source (`1.0`, `1E2`, `-0`, `18446744073709551615`). */
    readonly text: string,
    /** Its IEEE double value. */
    readonly value: number,
  ) {}
  /** A JsonNumber for a JavaScript number: integer text when it is a safe integer. */
  static of(n: number): JsonNumber {
    if (!Number.isFinite(n)) throw new RangeError(`not a finite number: ${n}`);
    if (Number.isSafeInteger(n) && !Object.is(n, -0)) return new JsonNumber(String(n), n);
    return new JsonNumber(formatShortestRust(n), n);
  }
  toJSON(): number {
    return this.value;
  }
}

/** A JSON object: a Map that keeps key order. */
export type JsonObject = ReadonlyMap<string, JsonValue>;
/** A JSON array. */
export type JsonArray = readonly JsonValue[];
/** Any JSON value, lossless. */
export type JsonValue = null | boolean | string | JsonNumber | JsonArray | JsonObject;

/** True when the value is a JSON object. */
export function isJsonObject(v: unknown): v is JsonObject {
  return v instanceof Map;
}
/** True when the value is a JSON array. */
export function isJsonArray(v: unknown): v is JsonArray {
  return Array.isArray(v);
}
/** True when the value is a JSON number. */
export function isJsonNumber(v: unknown): v is JsonNumber {
  return v instanceof JsonNumber;
}
/** A key of a JSON object, or undefined. */
export function getKey(v: JsonValue | undefined, key: string): JsonValue | undefined {
  return v instanceof Map ? v.get(key) : undefined;
}
/** The JSON type name of a value, for messages. */
export function jsonTypeOf(v: JsonValue | undefined): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'boolean';
  if (v instanceof JsonNumber) return 'number';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

/** A problem found while parsing JSON text: a message and the 0-based offset. */
export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${message} at line ${line} column ${column}`);
    this.name = 'JsonSyntaxError';
  }
}

const MAX_PARSE_DEPTH = 100_000;

/**
 * Parse JSON text (RFC 8259) keeping number text and key order. Rejects what serde_json
 * rejects: numbers out of double range (`1e400`), lone surrogate escapes, trailing data.
 * Iterative, so deep nesting cannot overflow the stack.
 */
export function parseJson(text: string): JsonValue {
  let i = 0;
  const n = text.length;
  const fail = (msg: string, at = i): never => {
    let line = 1;
    let col = 1;
    for (let k = 0; k < at && k < n; k++) {
      if (text.charCodeAt(k) === 10) {
        line++;
        col = 1;
      } else col++;
    }
    throw new JsonSyntaxError(msg, at, line, col);
  };
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else break;
    }
  };
  const parseString = (): string => {
    // text[i] === '"'
    i++;
    let out = '';
    let start = i;
    for (;;) {
      if (i >= n) fail('EOF while parsing a string');
      const c = text.charCodeAt(i);
      if (c === 34) {
        out += text.slice(start, i);
        i++;
        return out;
      }
      if (c === 92) {
        out += text.slice(start, i);
        i++;
        if (i >= n) fail('EOF while parsing a string');
        const e = text[i];
        i++;
        switch (e) {
          case '"': out += '"'; break;
          case '\\': out += '\\'; break;
          case '/': out += '/'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'n': out += '\n'; break;
          case 'r': out += '\r'; break;
          case 't': out += '\t'; break;
          case 'u': {
            const cu = hex4();
            if (cu >= 0xd800 && cu <= 0xdbff) {
              if (text[i] !== '\\' || text[i + 1] !== 'u') fail('lone leading surrogate in hex escape');
              i += 2;
              const lo = hex4();
              if (lo < 0xdc00 || lo > 0xdfff) fail('lone leading surrogate in hex escape');
              out += String.fromCharCode(cu, lo);
            } else if (cu >= 0xdc00 && cu <= 0xdfff) {
              fail('lone trailing surrogate in hex escape');
            } else out += String.fromCharCode(cu);
            break;
          }
          default:
            fail('invalid escape', i - 1);
        }
        start = i;
        continue;
      }
      if (c < 0x20) fail('control character (\\u0000-\\u001F) found while parsing a string');
      if (c >= 0xd800 && c <= 0xdfff) {
        // a raw lone surrogate in the JS string (not from valid UTF-8 text)
        const next = text.charCodeAt(i + 1);
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          i += 2;
          continue;
        }
        fail('invalid Unicode (lone surrogate) in a string');
      }
      i++;
    }
  };
  const hex4 = (): number => {
    if (i + 4 > n) fail('unexpected end of hex escape');
    let v = 0;
    for (let k = 0; k < 4; k++) {
      const h = text.charCodeAt(i + k);
      let d: number;
      if (h >= 48 && h <= 57) d = h - 48;
      else if (h >= 65 && h <= 70) d = h - 55;
      else if (h >= 97 && h <= 102) d = h - 87;
      else return fail('invalid hex escape', i + k);
      v = v * 16 + d;
    }
    i += 4;
    return v;
  };
  const parseNumber = (): JsonNumber => {
    const start = i;
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else if (text[i] >= '1' && text[i] <= '9') while (text[i] >= '0' && text[i] <= '9') i++;
    else fail('invalid number');
    if (text[i] === '.') {
      i++;
      if (!(text[i] >= '0' && text[i] <= '9')) fail('invalid number');
      while (text[i] >= '0' && text[i] <= '9') i++;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!(text[i] >= '0' && text[i] <= '9')) fail('invalid number');
      while (text[i] >= '0' && text[i] <= '9') i++;
    }
    const t = text.slice(start, i);
    const v = Number(t);
    if (!Number.isFinite(v)) fail('number out of range', start);
    return new JsonNumber(t, v);
  };
  const literal = (word: string, value: JsonValue): JsonValue => {
    if (text.startsWith(word, i)) {
      i += word.length;
      return value;
    }
    return fail('expected value');
  };

  // Explicit stack of open containers.
  type Frame = { arr: JsonValue[] } | { obj: Map<string, JsonValue>; key: string };
  const stack: Frame[] = [];
  let result: JsonValue | undefined;

  const parseScalarOrOpen = (): JsonValue | Frame => {
    ws();
    if (i >= n) fail('EOF while parsing a value');
    const c = text[i];
    if (c === '{') {
      i++;
      return { obj: new Map<string, JsonValue>(), key: '' };
    }
    if (c === '[') {
      i++;
      return { arr: [] };
    }
    if (c === '"') return parseString();
    if (c === '-' || (c >= '0' && c <= '9')) return parseNumber();
    if (c === 't') return literal('true', true);
    if (c === 'f') return literal('false', false);
    if (c === 'n') return literal('null', null);
    return fail('expected value');
  };
  const isFrame = (v: JsonValue | Frame): v is Frame =>
    v !== null && typeof v === 'object' && !(v instanceof JsonNumber) && !Array.isArray(v) && !(v instanceof Map);

  // Returns true when a new value is expected after this step.
  let value = parseScalarOrOpen();
  for (;;) {
    if (isFrame(value)) {
      if (stack.length >= MAX_PARSE_DEPTH) fail('recursion limit exceeded');
      stack.push(value);
      ws();
      if ('arr' in value) {
        if (text[i] === ']') {
          i++;
          stack.pop();
          value = value.arr;
        } else {
          value = parseScalarOrOpen();
          continue;
        }
      } else {
        if (text[i] === '}') {
          i++;
          stack.pop();
          value = value.obj;
        } else {
          if (text[i] !== '"') fail('key must be a string');
          value.key = parseString();
          ws();
          if (text[i] !== ':') fail('expected `:`');
          i++;
          value = parseScalarOrOpen();
          continue;
        }
      }
    }
    // `value` is complete: attach it to the parent, or finish.
    for (;;) {
      const top = stack[stack.length - 1];
      if (!top) {
        result = value as JsonValue;
        break;
      }
      if ('arr' in top) top.arr.push(value as JsonValue);
      else top.obj.set(top.key, value as JsonValue);
      ws();
      if ('arr' in top) {
        if (text[i] === ',') {
          i++;
          value = parseScalarOrOpen();
          break;
        }
        if (text[i] === ']') {
          i++;
          stack.pop();
          value = top.arr;
          continue;
        }
        fail('expected `,` or `]`');
      } else {
        if (text[i] === ',') {
          i++;
          ws();
          if (text[i] !== '"') fail('key must be a string');
          top.key = parseString();
          ws();
          if (text[i] !== ':') fail('expected `:`');
          i++;
          value = parseScalarOrOpen();
          break;
        }
        if (text[i] === '}') {
          i++;
          stack.pop();
          value = top.obj;
          continue;
        }
        fail('expected `,` or `}`');
      }
    }
    if (result !== undefined) break;
  }
  ws();
  if (i < n) fail('trailing characters');
  return result;
}

/** A problem converting a JavaScript value into JSON: what and where (JSON Pointer). */
export class JsValueError extends Error {
  constructor(
    message: string,
    readonly pointer: string,
  ) {
    super(message);
    this.name = 'JsValueError';
  }
}

/** Escape one JSON Pointer reference token. */
export function escapePointerToken(token: string): string {
  if (token.indexOf('~') < 0 && token.indexOf('/') < 0) return token;
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Convert a JavaScript value (a plain object tree, possibly a TypeBox schema) into a
 * JsonValue. Symbol keys (TypeBox's `[Kind]`) are skipped, `undefined` properties are left
 * out as JSON.stringify does; functions, bigint beyond 64 bits, NaN and cycles are errors.
 */
export function fromJs(value: unknown, pointer = ''): JsonValue {
  const seen = new Set<object>();
  const go = (v: unknown, p: string): JsonValue => {
    if (v === null) return null;
    switch (typeof v) {
      case 'string':
        return v;
      case 'boolean':
        return v;
      case 'number':
        if (!Number.isFinite(v)) throw new JsValueError(`${v} is not a JSON number`, p);
        return JsonNumber.of(v);
      case 'bigint':
        return new JsonNumber(v.toString(), Number(v));
      case 'object':
        break;
      default:
        throw new JsValueError(`a ${typeof v} is not a JSON value`, p);
    }
    const o = v as object;
    if (o instanceof JsonNumber) return o;
    if (seen.has(o)) throw new JsValueError('the value refers to itself (a cycle)', p);
    seen.add(o);
    try {
      if (Array.isArray(o)) return o.map((x, k) => (x === undefined ? null : go(x, `${p}/${k}`)));
      if (o instanceof Map) {
        const m = new Map<string, JsonValue>();
        for (const [k, x] of o) {
          if (typeof k !== 'string') throw new JsValueError('a Map key is not a string', p);
          if (x !== undefined) m.set(k, go(x, `${p}/${escapePointerToken(k)}`));
        }
        return m;
      }
      const toJSON = (o as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') return go(toJSON.call(o), p);
      const m = new Map<string, JsonValue>();
      for (const k of Object.keys(o)) {
        const x = (o as Record<string, unknown>)[k];
        if (x !== undefined) m.set(k, go(x, `${p}/${escapePointerToken(k)}`));
      }
      return m;
    } finally {
      seen.delete(o);
    }
  };
  return go(value, pointer);
}

/** Convert a JsonValue back to a plain JavaScript value (numbers as doubles). */
export function toJs(v: JsonValue): unknown {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (v instanceof JsonNumber) return v.value;
  if (Array.isArray(v)) return v.map(toJs);
  const out: Record<string, unknown> = {};
  for (const [k, x] of v as JsonObject) {
    // `__proto__` must be an own property, not the prototype setter
    if (k === '__proto__') Object.defineProperty(out, k, { value: toJs(x), enumerable: true, writable: true, configurable: true });
    else out[k] = toJs(x);
  }
  return out;
}

/** Structural equality of two JSON values (numbers by value). */
export function jsonEquals(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (a instanceof JsonNumber) return b instanceof JsonNumber && a.value === b.value;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, k) => jsonEquals(x, (b as JsonArray)[k]));
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    for (const [k, x] of a) {
      const y = b.get(k);
      if (y === undefined || !jsonEquals(x, y)) return false;
    }
    return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------
// Number text

/** Shortest round-trip digits and decimal exponent k (value = 0.d1d2… × 10^k). */
function shortestDigits(x: number): { neg: boolean; digits: string; k: number } {
  const neg = x < 0 || Object.is(x, -0);
  const a = Math.abs(x);
  if (a === 0) return { neg, digits: '0', k: 1 };
  const s = a.toExponential(); // shortest round-trip digits: d.ddde±x
  const [mant, exp] = s.split('e');
  const digits = mant.replace('.', '');
  return { neg, digits, k: Number(exp) + 1 };
}

/** A double as Rust's serde_json (ryu) prints it: `100.0`, `1e16`, `1e-6`, `-0.0`. */
export function formatShortestRust(x: number): string {
  const { neg, digits, k } = shortestDigits(x);
  const sign = neg ? '-' : '';
  if (digits === '0') return `${sign}0.0`;
  if (k > -5 && k <= 16) {
    if (k <= 0) return `${sign}0.${'0'.repeat(-k)}${digits}`;
    if (k >= digits.length) return `${sign}${digits}${'0'.repeat(k - digits.length)}.0`;
    return `${sign}${digits.slice(0, k)}.${digits.slice(k)}`;
  }
  const e = k - 1;
  const m = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
  return `${sign}${m}e${e}`;
}

/** A double as Python's repr/json.dumps prints it: `100.0`, `1e+16`, `1e-06`, `-0.0`. */
export function formatPythonFloat(x: number): string {
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (Number.isNaN(x)) return 'NaN';
  const { neg, digits, k } = shortestDigits(x);
  const sign = neg ? '-' : '';
  if (digits === '0') return `${sign}0.0`;
  const e = k - 1;
  if (e >= -4 && e < 16) {
    if (k <= 0) return `${sign}0.${'0'.repeat(-k)}${digits}`;
    if (k >= digits.length) return `${sign}${digits}${'0'.repeat(k - digits.length)}.0`;
    return `${sign}${digits.slice(0, k)}.${digits.slice(k)}`;
  }
  const m = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
  const es = Math.abs(e) < 10 ? `0${Math.abs(e)}` : String(Math.abs(e));
  return `${sign}${m}e${e < 0 ? '-' : '+'}${es}`;
}

const U64_MAX = 18446744073709551615n;
const I64_MIN = -9223372036854775808n;

/** True when number text is an integer literal (no `.`, `e`, `E`). */
export function isIntegerText(text: string): boolean {
  return !/[.eE]/.test(text);
}

/** A number as serde_json prints it (harmony §5.6). */
export function formatNumberRust(n: JsonNumber): string {
  const t = n.text;
  if (isIntegerText(t) && t !== '-0') {
    const b = BigInt(t);
    if (b >= I64_MIN && b <= U64_MAX) return b.toString();
  }
  return formatShortestRust(n.value);
}

/** A number as Python's json.dumps prints it (ints exact, floats per repr). */
export function formatNumberPython(n: JsonNumber): string {
  const t = n.text;
  if (isIntegerText(t)) return BigInt(t).toString();
  return formatPythonFloat(n.value);
}

// ---------------------------------------------------------------------------------------
// Serialisers

const ESC: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A string as a JSON string literal, escaping only what JSON requires (serde_json / ensure_ascii=False). */
export function quoteJsonString(s: string): string {
  // eslint-disable-next-line no-control-regex
  return `"${s.replace(/["\\\u0000-\u001f]/g, (c) => ESC[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

/** A string as Python json.dumps(ensure_ascii=True) writes it: non-ASCII as \uXXXX. */
export function quoteJsonStringAscii(s: string): string {
  // eslint-disable-next-line no-control-regex
  return `"${s.replace(/["\\\u0000-\u001f\u007f-\uffff]/g, (c) => ESC[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

/** Compact JSON as serde_json writes it: `{"k":1,"a":[1,"x"]}`. */
export function stringifyCompactRust(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return quoteJsonString(v);
  if (v instanceof JsonNumber) return formatNumberRust(v);
  if (Array.isArray(v)) return `[${v.map(stringifyCompactRust).join(',')}]`;
  const parts: string[] = [];
  for (const [k, x] of v as JsonObject) parts.push(`${quoteJsonString(k)}:${stringifyCompactRust(x)}`);
  return `{${parts.join(',')}}`;
}

/** Options for Python-style json.dumps. */
export interface PythonJsonOptions {
  /** Escape non-ASCII as \uXXXX (Python's default ensure_ascii=True). */
  ensureAscii?: boolean;
  /** Sort object keys (sort_keys=True). */
  sortKeys?: boolean;
}

/** JSON as Python's json.dumps writes it with default separators: `{"k": 1, "a": [1, "x"]}`. */
export function stringifyPython(v: JsonValue, options: PythonJsonOptions = {}): string {
  const q = options.ensureAscii ? quoteJsonStringAscii : quoteJsonString;
  const go = (x: JsonValue): string => {
    if (x === null) return 'null';
    if (typeof x === 'boolean') return x ? 'true' : 'false';
    if (typeof x === 'string') return q(x);
    if (x instanceof JsonNumber) return formatNumberPython(x);
    if (Array.isArray(x)) return `[${x.map(go).join(', ')}]`;
    let entries = [...(x as JsonObject)];
    if (options.sortKeys) entries = entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, y]) => `${q(k)}: ${go(y)}`).join(', ')}}`;
  };
  return go(v);
}
