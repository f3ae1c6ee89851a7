/**
 * Jinja2's side of the templates: its Undefined (a missing key; `undefined` here), item and
 * attribute access, `for` loops, `in`, `{{ }}` printing, the filters and tests the templates use
 * (`trim`, `upper`, `length`, `dictsort`, `unique`, `is iterable`), MarkupSafe's escaping, and the
 * dict methods the sandbox lets a lookup reach.
 */
import { isJsonArray, isJsonObject, type JsonValue } from '../../ir/json.js';
import { JinjaError } from './errors.js';
import { pyIn, pyIter, pyLenOf } from './operators.js';
import { compareCodePoints, pyStrip } from './strings.js';
import { pyEquals, pyStr, pyType } from './values.js';

/** A value as a template holds it: a JSON value, or Jinja2's Undefined (`undefined`). */
export type JinjaValue = JsonValue | undefined;

/** `obj[key]` and `obj.key`: a dict's member, a list's or str's element at an int index (negative from the end), else Undefined. */
// Jinja2 falls back to `getattr`, which finds nothing on JSON values for the keys these templates read
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

/** Dict attributes Jinja2's immutable sandbox lets `d[name]` reach when the key is not there (getitem falls back to getattr). */
// a template that looks a type name up in a dict finds a bound method, and prints its repr (a memory address)
export const SANDBOX_DICT_METHODS: ReadonlySet<string> = new Set(['copy', 'fromkeys', 'get', 'items', 'keys', 'values']);

/** Jinja2's `is iterable` (`iter(x)` succeeds): str, list, dict, and Undefined (which iterates as empty). */
export function jinjaIsIterable(v: JinjaValue): boolean {
  return v === undefined || typeof v === 'string' || isJsonArray(v) || isJsonObject(v);
}

/** What a `for` loop (or `|join`) sees: a str's characters, a list's items, a dict's keys, nothing for Undefined; TypeError otherwise. */
export function jinjaIterate(v: JinjaValue): JsonValue[] {
  return v === undefined ? [] : ([...pyIter(v)] as JsonValue[]);
}

/** `len(x)` / `x|length`: code points of a str (not UTF-16 units), items of a list or dict, 0 for Undefined; TypeError otherwise. */
export function pyLen(v: JinjaValue): number {
  return v === undefined ? 0 : pyLenOf(v);
}

/** `item in container` for a str item: substring of a str, member of a list, key of a dict; Undefined (iterable and empty) holds nothing; TypeError for a number, bool or None. */
export function pyContains(container: JinjaValue, item: string): boolean {
  return container === undefined ? false : pyIn(item, container);
}

/** `{{ x }}`: Undefined prints nothing, anything else `str(x)`. */
export function jinjaPrint(v: JinjaValue): string {
  return v === undefined ? '' : pyStr(v);
}

/** `x | trim`: `str(x).strip()`, and Undefined is the empty string. */
export function jinjaTrim(v: JinjaValue): string {
  return pyStrip(jinjaPrint(v));
}

/** `x | upper`: `str(x).upper()`, and Undefined is the empty string. */
export function jinjaUpper(v: JinjaValue): string {
  return jinjaPrint(v).toUpperCase();
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
