/**
 * Python's `json.dumps` on the values `json.loads` made (what transformers' `|tojson` filter
 * calls), and on what a template makes beside them (ints, floats, tuples, Markup): key order kept,
 * Python's separators, `ensure_ascii`, `sort_keys`, `indent` and `separators` as Python reads
 * them, and its TypeError for what it cannot serialize.
 */
import { formatNumberPython, formatPythonFloat, JsonNumber, quoteJsonString, quoteJsonStringAscii } from '../../ir/json.js';
import { JinjaError } from './errors.js';
import { Markup, PyFloat, PyTuple, type PyObject } from './objects.js';
import { compareCodePoints } from './strings.js';
import { pyFloatRepr, pyTypeName } from './values.js';

/** Options for {@link pyJsonDumps}, named after `json.dumps`'s. */
export interface PyJsonDumpsOptions {
  /** `ensure_ascii=True`: every non-ASCII character (and DEL) as `\uXXXX`. */
  readonly ensureAscii?: boolean;
  /** `sort_keys=True`: keys in code point order, at every level. */
  readonly sortKeys?: boolean;
  /** `indent=N` (N spaces a level) or `indent="…"` (that text a level): one member a line (separators then default to `,` and `: `). */
  readonly indent?: number | string;
  /** `separators=(item, key)`; default `(', ', ': ')`, or `(',', ': ')` with an indent. */
  readonly separators?: readonly [string, string];
}

/** A dict key as json.dumps writes it: str as is; int, float, bool and None as their JSON text; TypeError otherwise. */
function jsonKey(k: PyObject): string {
  if (typeof k === 'string') return k;
  if (k instanceof Markup) return k.text;
  if (typeof k === 'number' || typeof k === 'bigint') return String(k);
  if (typeof k === 'boolean') return k ? 'true' : 'false';
  if (k === null) return 'null';
  if (k instanceof JsonNumber) return formatNumberPython(k);
  if (k instanceof PyFloat) return floatText(k.value);
  throw new JinjaError('TypeError', `keys must be str, int, float, bool or None, not ${pyTypeName(k)}`);
}

/** A float as json.dumps writes it (`allow_nan=True`: `NaN`, `Infinity`, `-Infinity`). */
function floatText(x: number): string {
  return Number.isFinite(x) ? pyFloatRepr(x) : formatPythonFloat(x);
}

// a string with nothing JSON escapes (ensure_ascii off): written as it is between quotes
const PLAIN_JSON = /^[^"\\\u0000-\u001f]*$/;
// the same with ensure_ascii: printable ASCII only, less `"` and `\`
const PLAIN_JSON_ASCII = /^[\u0020\u0021\u0023-\u005b\u005d-\u007e]*$/;

/** A JSON number's text as json.dumps writes it: an int's text as is (JSON ints are canonical; `-0` is 0), a float by repr. */
function numberText(n: JsonNumber): string {
  const t = n.text;
  if (t.indexOf('.') < 0 && t.indexOf('e') < 0 && t.indexOf('E') < 0) return t === '-0' ? '0' : t;
  return formatNumberPython(n);
}

/** `json.dumps(v, …)` as Python writes it (ensure_ascii off unless asked, as transformers' `tojson` calls it). */
export function pyJsonDumps(v: PyObject, options: PyJsonDumpsOptions = {}): string {
  const ascii = options.ensureAscii === true;
  const quoteAny = ascii ? quoteJsonStringAscii : quoteJsonString;
  const plain = ascii ? PLAIN_JSON_ASCII : PLAIN_JSON;
  const indent = options.indent;
  // an int indent is that many spaces; a negative one is none (Python: ' ' * -1 == '')
  const step = indent === undefined ? undefined : typeof indent === 'string' ? indent : ' '.repeat(Math.max(0, indent));
  const [item, key] = options.separators ?? (indent !== undefined ? [',', ': '] : [', ', ': ']);
  // the newline and indentation before an item at each level
  const newlines: string[] = [];
  const nl = (level: number): string => (newlines[level] ??= `\n${(step as string).repeat(level)}`);
  // the separator before a later item, with its newline and indentation
  const seps: string[] = [];
  const sepAt = (level: number): string => (seps[level] ??= step === undefined ? item : item + nl(level));
  const sortKeys = options.sortKeys === true;
  // the text built by `+=` on one string (V8 makes a rope of it and flattens it once at the end,
  // which is faster than pushing small pieces to arrays and joining them)
  let out = '';
  const str = (x: string): void => {
    if (plain.test(x)) out += '"' + x + '"';
    else out += quoteAny(x);
  };
  let memberLevel = 0;
  let memberFirst = true;
  const member = (y: PyObject, k: PyObject): void => {
    const level = memberLevel;
    if (!memberFirst) out += sepAt(level + 1);
    else if (step !== undefined) out += nl(level + 1);
    memberFirst = false;
    str(typeof k === 'string' ? k : jsonKey(k));
    out += key;
    go(y, level + 1);
  };
  const go = (x: PyObject, level: number): void => {
    if (typeof x === 'string') str(x);
    else if (x === null) out += 'null';
    else if (typeof x === 'boolean') out += x ? 'true' : 'false';
    else if (x instanceof JsonNumber) out += numberText(x);
    else if (typeof x === 'number' || typeof x === 'bigint') out += String(x);
    else if (x instanceof PyFloat) out += floatText(x.value);
    else if (x instanceof Markup) out += quoteAny(x.text);
    else if (Array.isArray(x) || x instanceof PyTuple) {
      // a tuple is written as a list
      const items = Array.isArray(x) ? (x as readonly PyObject[]) : x.items;
      // an empty container is `[]` whatever the indent, as Python writes it
      if (items.length === 0) {
        out += '[]';
        return;
      }
      out += '[';
      for (let i = 0; i < items.length; i++) {
        if (i) out += sepAt(level + 1);
        else if (step !== undefined) out += nl(level + 1);
        go(items[i], level + 1);
      }
      if (step !== undefined) out += nl(level);
      out += ']';
    } else if (x instanceof Map) {
      const m = x as ReadonlyMap<PyObject, PyObject>;
      if (m.size === 0) {
        out += '{}';
        return;
      }
      out += '{';
      // one member function for the whole call (forEach: no [key, value] array made per member), its
      // dict's level and first-member flag set around each dict and put back after it
      const outerLevel = memberLevel;
      const outerFirst = memberFirst;
      memberLevel = level;
      memberFirst = true;
      if (sortKeys) for (const [k, y] of [...m].sort(([a], [b]) => compareKeys(a, b))) member(y, k);
      else m.forEach(member);
      memberLevel = outerLevel;
      memberFirst = outerFirst;
      if (step !== undefined) out += nl(level);
      out += '}';
    } else throw new JinjaError('TypeError', `Object of type ${pyTypeName(x)} is not JSON serializable`);
  };
  go(v, 0);
  // flatten the rope once here (reading a character of a rope makes V8 flatten it in place), so
  // what keeps the text keeps one flat string, not a tree of small pieces
  out.charCodeAt(0);
  return out;
}

/** `sort_keys`: keys in Python's order (str by code point; a str against a number raises TypeError). */
function compareKeys(a: PyObject, b: PyObject): number {
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  throw new JinjaError('TypeError', `'<' not supported between instances of '${pyTypeName(b)}' and '${pyTypeName(a)}'`);
}
