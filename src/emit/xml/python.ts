/**
 * Python value semantics that the Jinja chat templates print through: a JSON value as
 * `json.loads` hands it to the template (dict, list, str, int, float, bool, None), then
 * `str()` / `repr()` (Jinja's `|string`, `~`, `{{ }}`), `str.strip()` (`|trim`) and
 * `json.dumps` (transformers' `|tojson`).
 */
import { JsonNumber, formatNumberPython, isIntegerText, quoteJsonString, quoteJsonStringAscii, type JsonObject, type JsonValue } from '../../ir/json.js';

/** Options for {@link pythonJsonDumps}. */
export interface PythonDumpsOptions {
  /** `ensure_ascii=True`: every non-ASCII character (and DEL) as `\uXXXX`. */
  readonly ensureAscii?: boolean;
  /** `sort_keys=True`: keys in code point order, at every level. */
  readonly sortKeys?: boolean;
  /** `indent=N`: one member a line, N spaces a level (separators then default to `,` and `: `). */
  readonly indent?: number;
  /** `separators=(item, key)`; default `(', ', ': ')`, or `(',', ': ')` with an indent. */
  readonly separators?: readonly [string, string];
}

/** A number as Python's `repr` prints what `json.loads` made of it: ints exact, floats shortest (`1e+16`, `inf`). */
export function pythonNumberRepr(n: JsonNumber): string {
  if (!isIntegerText(n.text) && !Number.isFinite(n.value)) {
    // float('inf') from an overflowing literal; json.dumps says Infinity, repr says inf
    return Number.isNaN(n.value) ? 'nan' : n.value > 0 ? 'inf' : '-inf';
  }
  return formatNumberPython(n);
}

/** Compare two strings by code point, as Python orders `str` (JavaScript's `<` compares UTF-16 units). */
export function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const cx = x.value.codePointAt(0)!;
    const cy = y.value.codePointAt(0)!;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

/** `json.dumps(v, …)` as Python writes it: default separators `, ` and `: `; ensure_ascii off unless asked; `indent`, `separators`, `sort_keys` as Python's. */
export function pythonJsonDumps(v: JsonValue, options: PythonDumpsOptions = {}): string {
  const quote = options.ensureAscii ? quoteJsonStringAscii : quoteJsonString;
  const indent = options.indent;
  const [item, key] = options.separators ?? (indent !== undefined ? [',', ': '] : [', ', ': ']);
  const go = (x: JsonValue, level: number): string => {
    if (x === null) return 'null';
    if (typeof x === 'boolean') return x ? 'true' : 'false';
    if (typeof x === 'string') return quote(x);
    if (x instanceof JsonNumber) return formatNumberPython(x);
    const parts: string[] = [];
    let open = '[';
    let close = ']';
    if (Array.isArray(x)) for (const y of x) parts.push(go(y, level + 1));
    else {
      open = '{';
      close = '}';
      let entries = [...(x as JsonObject)];
      if (options.sortKeys) entries = entries.sort(([a], [b]) => compareCodePoints(a, b));
      for (const [k, y] of entries) parts.push(`${quote(k)}${key}${go(y, level + 1)}`);
    }
    // an empty container is `[]` / `{}` whatever the indent, as Python writes it
    if (parts.length === 0) return open + close;
    if (indent === undefined) return open + parts.join(item) + close;
    const inner = `\n${' '.repeat(indent * (level + 1))}`;
    return `${open}${inner}${parts.join(item + inner)}\n${' '.repeat(indent * level)}${close}`;
  };
  return go(v, 0);
}

// Characters for which Python's str.isprintable() is false: categories Cc Cf Cs Co Cn Zl Zp Zs (tested on non-ASCII only).
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** A string as Python's `repr` writes it: `'…'` (or `"…"` when it holds `'` and no `"`), escapes as CPython's unicode_repr. */
export function pythonStringRepr(s: string): string {
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

/** Python's `repr()` of the value `json.loads` makes: `{'a': [1, 2.0]}`, `True`, `None`, `'it''s'` quoting rules. */
export function pythonRepr(v: JsonValue): string {
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'string') return pythonStringRepr(v);
  if (v instanceof JsonNumber) return pythonNumberRepr(v);
  if (Array.isArray(v)) return `[${v.map(pythonRepr).join(', ')}]`;
  return `{${[...(v as JsonObject)].map(([k, x]) => `${pythonStringRepr(k)}: ${pythonRepr(x)}`).join(', ')}}`;
}

/** Python's `str()` of the value (what Jinja's `|string` and `~` print): a string as itself, anything else its repr. */
export function pythonStr(v: JsonValue): string {
  return typeof v === 'string' ? v : pythonRepr(v);
}

// Python's str.isspace(): the characters str.strip() removes when given no argument.
const PY_SPACE = '\t\n\u000b\u000c\r\u001c\u001d\u001e\u001f \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';

/** Python's `str.strip()` (Jinja's `|trim`): JavaScript's trim() differs (it strips U+FEFF, keeps U+001C–U+001F and U+0085). */
export function pythonStrip(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && PY_SPACE.includes(s[a])) a++;
  while (b > a && PY_SPACE.includes(s[b - 1])) b--;
  return s.slice(a, b);
}
