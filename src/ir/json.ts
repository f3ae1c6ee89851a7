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

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const nativeWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;
/** True when a string has no lone surrogate (so it can be written as UTF-8). */
export const isWellFormed: (s: string) => boolean = nativeWellFormed ? (s) => nativeWellFormed.call(s) : (s) => !LONE_SURROGATE.test(s);

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
  return parse(text, undefined);
}

/**
 * parseJson, and where each element of a top-level array is in the text: `elements` holds a start
 * and an end offset per element, in order (empty when the text is not an array).
 */
export function parseJsonSpans(text: string): { value: JsonValue; elements: number[]; values: number; depth: number } {
  const elements: number[] = [];
  const value = parse(text, elements);
  return { value, elements, values: parsedValues, depth: parsedDepth };
}

/** How many values the last parse read (every one: containers, entries, scalars), and how deep its containers nested. */
let parsedValues = 0;
let parsedDepth = 0;

function parse(text: string, spans: number[] | undefined): JsonValue {
  // One function, its position a local (no closure over it): strings without escapes are sliced
  // from the text, anything unusual (escapes, surrogates, errors) takes stringAt, the exact rules.
  const n = text.length;
  let i = 0;
  specialAt = -1;
  // open containers, and the pending key of each enclosing object
  const stack: (JsonValue[] | Map<string, JsonValue>)[] = [];
  const keys: string[] = [];
  let key = '';
  let value: JsonValue;
  let values = 0;
  let depth = 0;
  for (;;) {
    // a value at i
    values++;
    i = skipWs(text, i, n);
    if (i >= n) return syntaxError(text, 'EOF while parsing a value', i);
    if (spans !== undefined && stack.length === 1 && Array.isArray(stack[0])) spans.push(i);
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      value = commonOrStringFrom(text, i);
      i = stringEnd;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      i++;
      if (stack.length >= MAX_PARSE_DEPTH) return syntaxError(text, 'recursion limit exceeded', i);
      i = skipWs(text, i, n);
      if (c === 91) {
        if (text.charCodeAt(i) === 93 /* ] */) {
          i++;
          value = [];
          // an empty container is a level too
          if (stack.length >= depth) depth = stack.length + 1;
        } else {
          stack.push([]);
          keys.push(key);
          if (stack.length > depth) depth = stack.length;
          continue;
        }
      } else if (text.charCodeAt(i) === 125 /* } */) {
        i++;
        value = new Map<string, JsonValue>();
        if (stack.length >= depth) depth = stack.length + 1;
      } else {
        if (text.charCodeAt(i) !== 34) return syntaxError(text, 'key must be a string', i);
        stack.push(new Map<string, JsonValue>());
        keys.push(key);
        if (stack.length > depth) depth = stack.length;
        key = commonOrStringFrom(text, i);
        i = stringEnd;
        i = skipWs(text, i, n);
        if (text.charCodeAt(i) !== 58 /* : */) return syntaxError(text, 'expected `:`', i);
        i++;
        continue;
      }
    } else if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      const start = i;
      if (c === 45) i++;
      let d = text.charCodeAt(i);
      if (d === 48) i++;
      else if (d >= 49 && d <= 57) {
        i++;
        while ((d = text.charCodeAt(i)) >= 48 && d <= 57) i++;
      } else return syntaxError(text, 'invalid number', i);
      if (text.charCodeAt(i) === 46 /* . */) {
        i++;
        if (!((d = text.charCodeAt(i)) >= 48 && d <= 57)) return syntaxError(text, 'invalid number', i);
        while ((d = text.charCodeAt(i)) >= 48 && d <= 57) i++;
      }
      d = text.charCodeAt(i);
      if (d === 101 /* e */ || d === 69 /* E */) {
        i++;
        d = text.charCodeAt(i);
        if (d === 43 /* + */ || d === 45) i++;
        if (!((d = text.charCodeAt(i)) >= 48 && d <= 57)) return syntaxError(text, 'invalid number', i);
        while ((d = text.charCodeAt(i)) >= 48 && d <= 57) i++;
      }
      const t = text.slice(start, i);
      const v = Number(t);
      if (!Number.isFinite(v)) return syntaxError(text, 'number out of range', start);
      value = new JsonNumber(t, v);
    } else if (c === 116 /* t */ && text.startsWith('true', i)) {
      i += 4;
      value = true;
    } else if (c === 102 /* f */ && text.startsWith('false', i)) {
      i += 5;
      value = false;
    } else if (c === 110 /* n */ && text.startsWith('null', i)) {
      i += 4;
      value = null;
    } else return syntaxError(text, 'expected value', i);

    // `value` is complete: attach it to its container (closing the containers it completes), or finish
    for (;;) {
      const top = stack.length > 0 ? stack[stack.length - 1] : undefined;
      if (top === undefined) {
        i = skipWs(text, i, n);
        if (i < n) return syntaxError(text, 'trailing characters', i);
        parsedValues = values;
        parsedDepth = depth;
        return value;
      }
      if (Array.isArray(top)) {
        top.push(value);
        if (spans !== undefined && stack.length === 1) spans.push(i);
        i = skipWs(text, i, n);
        const d = text.charCodeAt(i);
        if (d === 44 /* , */) {
          i++;
          break;
        }
        if (d !== 93) return syntaxError(text, 'expected `,` or `]`', i);
      } else {
        const obj = top as Map<string, JsonValue>;
        obj.set(key, value);
        i = skipWs(text, i, n);
        const d = text.charCodeAt(i);
        if (d === 44) {
          i = skipWs(text, i + 1, n);
          if (text.charCodeAt(i) !== 34) return syntaxError(text, 'key must be a string', i);
          key = commonOrStringFrom(text, i);
          i = stringEnd;
          i = skipWs(text, i, n);
          if (text.charCodeAt(i) !== 58) return syntaxError(text, 'expected `:`', i);
          i++;
          break;
        }
        if (d !== 125) return syntaxError(text, 'expected `,` or `}`', i);
      }
      // the container closes: it is the value to attach next
      i++;
      stack.pop();
      key = keys.pop() as string;
      value = top;
    }
  }
}

/** The first position at or after `i` that is not JSON whitespace. */
function skipWs(text: string, i: number, n: number): number {
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9) i++;
    else break;
  }
  return i;
}

/** What a string's text needs a rule for: an escape, a control character, a surrogate. */
const SPECIAL = /[\\\u0000-\u001f\ud800-\udfff]/g;
/** The position of the next such character in the text being parsed (its length when none is left; -1 before the first look). */
let specialAt = -1;

/**
 * The string whose opening quote is at `at`; sets stringEnd. A string with nothing special before
 * its closing quote is sliced from the text (both found by native searches: the next quote, and
 * the next special character, looked for again only once passed); any other takes stringAt's rules.
 */
function stringFrom(text: string, at: number): string {
  const end = text.indexOf('"', at + 1);
  if (specialAt <= at) {
    // test, not exec: no match array (the match is one character, just before lastIndex)
    SPECIAL.lastIndex = at + 1;
    specialAt = SPECIAL.test(text) ? SPECIAL.lastIndex - 1 : text.length;
  }
  if (end >= 0 && end < specialAt) {
    stringEnd = end + 1;
    return text.slice(at + 1, end);
  }
  return stringAt(text, at);
}

/**
 * The strings tool schemas repeat most (keywords as keys, type names as values), by their first
 * character: a string of the text that is one of them is that constant, compared in place, not a
 * new string sliced from the text (fewer allocations; Map keys whose hash is already known).
 */
const COMMON: readonly (readonly string[] | undefined)[] = (() => {
  const words = [
    'type', 'description', 'default', 'properties', 'name', 'required', 'parameters', 'enum', 'title', 'items', 'additionalProperties', '$schema',
    'anyOf', 'oneOf', 'allOf', '$ref', '$defs', 'definitions', 'minimum', 'maximum', 'format', 'examples', 'const', 'pattern', 'nullable',
    'minItems', 'maxItems', 'minLength', 'maxLength', 'function', 'inputSchema', 'input_schema', 'strict',
    'string', 'object', 'integer', 'number', 'boolean', 'array', 'null',
  ];
  const table: string[][] = [];
  for (const w of words) (table[w.charCodeAt(0)] ??= []).push(w);
  return table;
})();

/** The string whose opening quote is at `at` (as stringFrom reads it), the constant when it is a common one; sets stringEnd. */
function commonOrStringFrom(text: string, at: number): string {
  const words = COMMON[text.charCodeAt(at + 1)];
  if (words !== undefined) {
    for (let k = 0; k < words.length; k++) {
      const w = words[k] as string;
      if (text.charCodeAt(at + 1 + w.length) === 34 /* " */ && text.startsWith(w, at + 1)) {
        stringEnd = at + 2 + w.length;
        return w;
      }
    }
  }
  return stringFrom(text, at);
}

/** Where the last string read by stringAt ended (after its closing quote). */
let stringEnd = 0;

/** The string whose opening quote is at `at`, by every rule (escapes, surrogates, errors); sets stringEnd. */
function stringAt(text: string, at: number): string {
  const n = text.length;
  let i = at + 1;
  let out = '';
  let start = i;
  const hex4 = (): number => {
    if (i + 4 > n) syntaxError(text, 'unexpected end of hex escape', i);
    let v = 0;
    for (let k = 0; k < 4; k++) {
      const h = text.charCodeAt(i + k);
      let d: number;
      if (h >= 48 && h <= 57) d = h - 48;
      else if (h >= 65 && h <= 70) d = h - 55;
      else if (h >= 97 && h <= 102) d = h - 87;
      else return syntaxError(text, 'invalid hex escape', i + k);
      v = v * 16 + d;
    }
    i += 4;
    return v;
  };
  for (;;) {
    if (i >= n) syntaxError(text, 'EOF while parsing a string', i);
    const c = text.charCodeAt(i);
    if (c === 34) {
      out += text.slice(start, i);
      stringEnd = i + 1;
      return out;
    }
    if (c === 92) {
      out += text.slice(start, i);
      i++;
      if (i >= n) syntaxError(text, 'EOF while parsing a string', i);
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
            if (text[i] !== '\\' || text[i + 1] !== 'u') syntaxError(text, 'lone leading surrogate in hex escape', i);
            i += 2;
            const lo = hex4();
            if (lo < 0xdc00 || lo > 0xdfff) syntaxError(text, 'lone leading surrogate in hex escape', i);
            out += String.fromCharCode(cu, lo);
          } else if (cu >= 0xdc00 && cu <= 0xdfff) {
            syntaxError(text, 'lone trailing surrogate in hex escape', i);
          } else out += String.fromCharCode(cu);
          break;
        }
        default:
          syntaxError(text, 'invalid escape', i - 1);
      }
      start = i;
      continue;
    }
    if (c < 0x20) syntaxError(text, 'control character (\\u0000-\\u001F) found while parsing a string', i);
    if (c >= 0xd800 && c <= 0xdfff) {
      // a raw lone surrogate in the JS string (not from valid UTF-8 text)
      const next = text.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i += 2;
        continue;
      }
      syntaxError(text, 'invalid Unicode (lone surrogate) in a string', i);
    }
    i++;
  }
}

/** Throw the JsonSyntaxError of a message at an offset (line and column counted from the text). */
function syntaxError(text: string, message: string, at: number): never {
  let line = 1;
  let col = 1;
  for (let k = 0; k < at && k < text.length; k++) {
    if (text.charCodeAt(k) === 10) {
      line++;
      col = 1;
    } else col++;
  }
  throw new JsonSyntaxError(message, at, line, col);
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
 * out as JSON.stringify does; functions, bigint beyond 64 bits, NaN and cycles are errors. A value
 * that is a lossless JsonValue already (Maps, arrays, JsonNumbers…) is returned as it is, not copied.
 */
export function fromJs(value: unknown, pointer = ''): JsonValue {
  // a lossless JsonValue already (what parseJson makes): the conversion would only copy it
  if (isLossless(value)) return value as JsonValue;
  // iterative (a frame per open array, Map, object or toJSON result), so that any depth converts;
  // the values are read in the order a recursive walk reads them, and the first problem is thrown
  const seen = new Set<object>();
  const stack: FromJsFrame[] = [];
  /** The value of a scalar, or PENDING after pushing the frame of a container. */
  const start = (v: unknown, p: string): JsonValue | typeof PENDING => {
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
    if (o instanceof JsonNumber) {
      lastPlain = false;
      return o;
    }
    if (seen.has(o)) throw new JsValueError('the value refers to itself (a cycle)', p);
    seen.add(o);
    if (Array.isArray(o)) stack.push({ kind: 'array', o, p, i: 0, out: [], key: '', entries: undefined, keys: undefined, result: null, plain: true });
    else if (o instanceof Map) stack.push({ kind: 'map', o, p, i: 0, out: new Map(), key: '', entries: (o as Map<unknown, unknown>).entries(), keys: undefined, result: null, plain: false });
    else {
      const toJSON = (o as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') stack.push({ kind: 'wrap', o, p, i: 0, out: null, key: '', entries: undefined, keys: [toJSON.call(o)], result: null, plain: false });
      else {
        const proto = Object.getPrototypeOf(o);
        stack.push({ kind: 'object', o, p, i: 0, out: new Map(), key: '', entries: undefined, keys: Object.keys(o), result: null, plain: proto === Object.prototype || proto === null });
      }
    }
    return PENDING;
  };
  /** Whether the value just converted (`last`) is plain JSON as JavaScript writes it (see plainForm). */
  let lastPlain = true;
  let last = start(value, pointer);
  while (stack.length) {
    const f = stack[stack.length - 1];
    // the value just converted goes where the frame asked for it
    if (last !== PENDING) {
      if (!lastPlain) f.plain = false;
      lastPlain = true;
      if (f.kind === 'array') (f.out as JsonValue[])[f.i - 1] = last;
      else if (f.kind === 'wrap') f.result = last;
      else (f.out as Map<string, JsonValue>).set(f.key, last);
      last = PENDING;
    }
    let next: unknown = undefined;
    let nextPointer = '';
    let found = false;
    switch (f.kind) {
      case 'array': {
        const a = f.o as unknown[];
        const out = f.out as JsonValue[];
        while (f.i < a.length && !found) {
          const k = f.i++;
          // a hole stays a hole (as Array.prototype.map leaves it); undefined is null
          if (!(k in a)) {
            f.plain = false;
            continue;
          }
          const x = a[k];
          if (x === undefined) (out[k] = null), (f.plain = false);
          else (next = x), (nextPointer = `${f.p}/${k}`), (found = true);
        }
        if (!found) out.length = a.length;
        break;
      }
      case 'map': {
        const entries = f.entries as Iterator<[unknown, unknown]>;
        for (let r = entries.next(); !r.done; r = entries.next()) {
          const [k, x] = r.value;
          if (typeof k !== 'string') throw new JsValueError('a Map key is not a string', f.p);
          if (x !== undefined) {
            f.key = k;
            next = x;
            nextPointer = `${f.p}/${escapePointerToken(k)}`;
            found = true;
            break;
          }
        }
        break;
      }
      case 'object': {
        const keys = f.keys as string[];
        while (f.i < keys.length && !found) {
          const k = keys[f.i++];
          const x = (f.o as Record<string, unknown>)[k];
          if (x !== undefined) (f.key = k), (next = x), (nextPointer = `${f.p}/${escapePointerToken(k)}`), (found = true);
          else f.plain = false;
        }
        break;
      }
      case 'wrap':
        if (f.i === 0) (f.i = 1), (next = (f.keys as unknown[])[0]), (nextPointer = f.p), (found = true);
        break;
    }
    if (found) {
      last = start(next, nextPointer);
      continue;
    }
    // the frame is done: its value goes to the frame below
    stack.pop();
    seen.delete(f.o);
    last = f.kind === 'wrap' ? f.result : (f.out as JsonValue);
    lastPlain = f.plain;
    if (f.plain && f.kind === 'object') notePlainForm(f.out as JsonObject, f.o as Record<string, unknown>);
  }
  return last as JsonValue;
}

/**
 * The plain objects a reader converted, by the Map it made of each, each with the job it was
 * noted in: an entry counts only in that job (until the synchronous code that made it has run;
 * a microtask ends it), so an object its owner changes later is never taken for the Map made of
 * it before. One WeakMap for the process (a new one each job would grow its table again each time).
 */
const PLAIN_FORMS = new WeakMap<JsonObject, { readonly o: Record<string, unknown>; readonly job: object }>();
let currentJob: object | undefined;

/** Note that `m` was made from the plain object `o` and equals it (see plainForm). */
export function notePlainForm(m: JsonObject, o: Record<string, unknown>): void {
  if (currentJob === undefined) {
    const job = {};
    currentJob = job;
    queueMicrotask(() => {
      if (currentJob === job) currentJob = undefined;
    });
  }
  PLAIN_FORMS.set(m, { o, job: currentJob });
}

/**
 * The plain JavaScript object a JsonObject was made from by fromJs in the current job, when that
 * object and everything in it is JSON as JavaScript writes it (objects of Object.prototype or
 * null prototype without toJSON, arrays without holes, strings, finite numbers, booleans, null;
 * no `undefined` value, Map, JsonNumber or other class): walking it is walking the Map (the same
 * keys in the order a plain object enumerates them). Undefined otherwise: use toJs for a copy.
 */
export function plainForm(m: JsonObject): Record<string, unknown> | undefined {
  const e = PLAIN_FORMS.get(m);
  return e !== undefined && e.job === currentJob ? e.o : undefined;
}

/** What fromJs still has to do for one container: its kind, where it stands, its output, the next entry. */
interface FromJsFrame {
  readonly kind: 'array' | 'map' | 'object' | 'wrap';
  readonly o: object;
  readonly p: string;
  /** The next element (array), key (object) to read; wrap: 1 once the toJSON result was started. */
  i: number;
  readonly out: JsonValue[] | Map<string, JsonValue> | null;
  /** The key the value being converted goes to (Map, object). */
  key: string;
  readonly entries: Iterator<[unknown, unknown]> | undefined;
  /** The object's keys; wrap: the toJSON result. */
  readonly keys: readonly unknown[] | undefined;
  /** wrap: the converted toJSON result. */
  result: JsonValue;
  /** True while the container and what it holds are plain JSON as JavaScript writes it (see plainForm). */
  plain: boolean;
}

/** Returned by fromJs' start for a container whose frame was pushed. */
const PENDING: unique symbol = Symbol('pending');

/** Deeper than this, isLossless gives up (fromJs then tells a cycle from depth). */
const LOSSLESS_MAX_DEPTH = 10_000;

/**
 * True when fromJs would return a copy of the value, equal to it: Maps (not subclasses) with string
 * keys, arrays without holes or `undefined`, JsonNumbers, strings, booleans and null; false for
 * anything else (a JavaScript number or object, a cycle, nesting deeper than LOSSLESS_MAX_DEPTH).
 */
function isLossless(root: unknown): boolean {
  const values: unknown[] = [root];
  const depths: number[] = [0];
  while (values.length) {
    const v = values.pop();
    const d = depths.pop() as number;
    if (v === null || typeof v === 'string' || typeof v === 'boolean' || v instanceof JsonNumber) continue;
    if (typeof v !== 'object' || d > LOSSLESS_MAX_DEPTH) return false;
    const proto = Object.getPrototypeOf(v) as unknown;
    if (proto === Map.prototype) {
      for (const k of (v as Map<unknown, unknown>).keys()) if (typeof k !== 'string') return false;
      for (const x of (v as Map<unknown, unknown>).values()) {
        if (x === undefined) return false;
        if (typeof x === 'object' && x !== null) values.push(x), depths.push(d + 1);
        else if (typeof x !== 'string' && typeof x !== 'boolean' && x !== null) return false;
      }
    } else if (proto === Array.prototype) {
      const a = v as unknown[];
      for (let i = 0; i < a.length; i++) {
        const x = a[i];
        if (x === undefined) return false;
        if (typeof x === 'object' && x !== null) values.push(x), depths.push(d + 1);
        else if (typeof x !== 'string' && typeof x !== 'boolean' && x !== null) return false;
      }
    } else return false;
  }
  return true;
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
