/**
 * Jinja2's filters (`filters.py`) and transformers' `tojson`, one small function each in a table,
 * bound as their Python functions are (a wrong call gets Python's TypeError naming the function:
 * `sync_do_join() takes from 2 to 4 positional arguments but 5 were given`). The filters that
 * are generators in Jinja2 (`map`, `select`, `items`, `unique`, `batch`…) give a lazy, one-pass
 * generator here too, so their errors come when they are iterated, as in Python.
 */
import { EngineUnsupported, JinjaError } from '../emit/python/errors.js';
import { pyPercentFormat, pyRoundFloat } from '../emit/python/format.js';
import { markupEscape } from '../emit/python/jinja.js';
import { pyJsonDumps } from '../emit/python/json.js';
import { Markup, PyFloat, PyInstance, PyTuple, Undefined, type PyObject } from '../emit/python/objects.js';
import { isPyInt, normInt, pyAdd, pyCmp, pyCompare, pyHashKey, pyIter, pyLenOf, pyList, pyMul, pyNumber, pyTrueDiv, toDouble } from '../emit/python/operators.js';
import { codePoints, pyCapitalize, pyCenter, pyReplace, pySplitlines, pyStrip } from '../emit/python/strings.js';
import { pyReprString, pyStr, pyTruthy, pyTypeName } from '../emit/python/values.js';
import { attributeOf } from './methods.js';
import { DictView, getAttr, getItem, GroupTuple, PyGenerator, PyRange } from './runtime.js';
import { bindArgs, oneArgument, type Param, type Signature } from './signature.js';
import { FILTER_NAMES, TESTS } from './tests.js';

/** A filter: the value and the call's arguments. */
export type FilterFn = (value: PyObject, args: readonly PyObject[], kwargs: ReadonlyMap<string, PyObject> | undefined) => PyObject;

/** The placeholder for the environment, eval context or context Jinja2 passes a filter first. */
const IMPLICIT: PyObject = null;

/** A filter bound by its Python signature; `implicit` when Jinja2 passes it the environment or context first. */
function filter(name: string, params: readonly Param[], f: (values: PyObject[], rest: readonly PyObject[], restKw: Map<string, PyObject>) => PyObject, o: { implicit?: string; varargs?: boolean; varkw?: boolean } = {}): FilterFn {
  const sig: Signature = { name, params: o.implicit ? [o.implicit, ...params] : params, varargs: o.varargs, varkw: o.varkw };
  const skip = o.implicit ? 1 : 0;
  return (value, args, kwargs) => {
    const positional = o.implicit ? [IMPLICIT, value, ...args] : [value, ...args];
    const b = bindArgs(sig, positional, kwargs);
    return f(b.values.slice(skip), b.rest, b.restKw);
  };
}

/** MarkupSafe's `soft_str`: a str (or Markup) as it is, anything else `str()`. */
function softStr(v: PyObject): string | Markup {
  return typeof v === 'string' || v instanceof Markup ? v : pyStr(v);
}

/** The text of a str or Markup. */
function text(v: string | Markup): string {
  return typeof v === 'string' ? v : v.text;
}

/** A str result that stays Markup when the input was Markup. */
function like(v: string | Markup, s: string): string | Markup {
  return v instanceof Markup ? new Markup(s) : s;
}

/** `ignore_case`: a str lower-cased, anything else as it is. */
function ignoreCase(v: PyObject): PyObject {
  if (typeof v === 'string') return v.toLowerCase();
  if (v instanceof Markup) return new Markup(v.text.toLowerCase());
  return v;
}

/** `_prepare_attribute_parts`: `a.b.0` → ['a', 'b', 0]; an int attribute is one part; None none. */
function attributeParts(attribute: PyObject): PyObject[] {
  if (attribute === null) return [];
  if (typeof attribute === 'string') return attribute.split('.').map((x) => (/^\d+$/.test(x) ? Number(x) : x));
  return [attribute];
}

/** `make_attrgetter`: an item's attribute by the sandbox's getitem (a default replaces Undefined at each step). */
function attrGetter(attribute: PyObject, postprocess?: (v: PyObject) => PyObject, fallback: PyObject = null): (item: PyObject) => PyObject {
  const parts = attributeParts(attribute);
  return (item) => {
    for (const part of parts) {
      item = getItem(item, part);
      if (fallback !== null && item instanceof Undefined) item = fallback;
    }
    return postprocess ? postprocess(item) : item;
  };
}

/** `make_multi_attrgetter`: several comma-separated attributes, as a list key. */
function multiAttrGetter(attribute: PyObject, postprocess?: (v: PyObject) => PyObject): (item: PyObject) => PyObject {
  const split = typeof attribute === 'string' ? attribute.split(',') : [attribute];
  const getters = split.map((a) => attrGetter(a, postprocess));
  if (attribute === null) return (item) => [postprocess ? postprocess(item) : item];
  return (item) => getters.map((g) => g(item));
}

/** Python's `sorted(items, key, reverse)`: stable in both directions. */
function sorted(items: PyObject[], key: (v: PyObject) => PyObject, reverse: boolean): PyObject[] {
  const keyed = items.map((v) => ({ v, k: key(v) }));
  keyed.sort(reverse ? (a, b) => pyCmp(b.k, a.k) : (a, b) => pyCmp(a.k, b.k));
  return keyed.map((x) => x.v);
}

/** A lazy generator over a JS generator (what a Python generator filter returns). */
function gen(name: string, body: () => Generator<PyObject>): PyGenerator {
  return new PyGenerator(name, body());
}

/** `environment.call_filter(name, value, args, kwargs)`: TemplateRuntimeError for an unknown filter. */
export function callFilter(name: PyObject, value: PyObject, args: readonly PyObject[], kwargs: ReadonlyMap<string, PyObject> | undefined): PyObject {
  const f = typeof name === 'string' ? FILTERS.get(name) : undefined;
  if (f === undefined) throw unknownCallable('filter', name);
  return f(value, args, kwargs);
}

/** `environment.call_test(name, value, args, kwargs)`: TemplateRuntimeError for an unknown test. */
export function callTest(name: PyObject, value: PyObject, args: readonly PyObject[], kwargs: ReadonlyMap<string, PyObject> | undefined): boolean {
  const t = typeof name === 'string' ? TESTS.get(name) : undefined;
  if (t === undefined) throw unknownCallable('test', name);
  return t(value, args, kwargs);
}

/** Jinja2's `No filter named 'x'.` (with the Undefined's message when the name itself is undefined). */
function unknownCallable(kind: string, name: PyObject): JinjaError {
  let msg = `No ${kind} named ${name instanceof Undefined ? 'Undefined' : typeof name === 'string' ? pyReprString(name) : pyStr(name)}.`;
  if (name instanceof Undefined) msg = `${msg} (${name.message}; did you forget to quote the callable name?)`;
  return new JinjaError('TemplateRuntimeError', msg);
}

/** `prepare_map`: an attribute getter (`attribute=`) or a filter applied to each item. */
function prepareMap(args: readonly PyObject[], kwargs: Map<string, PyObject>): (item: PyObject) => PyObject {
  if (!args.length && kwargs.has('attribute')) {
    const attribute = kwargs.get('attribute') as PyObject;
    const fallback = kwargs.get('default') ?? null;
    kwargs.delete('attribute');
    kwargs.delete('default');
    if (kwargs.size) throw new JinjaError('FilterArgumentError', `Unexpected keyword argument ${pyReprString(kwargs.keys().next().value as string)}`);
    return attrGetter(attribute, undefined, fallback);
  }
  if (!args.length) throw new JinjaError('FilterArgumentError', 'map requires a filter argument');
  const [name, ...rest] = args;
  return (item) => callFilter(name, item, rest, kwargs);
}

/** `prepare_select_or_reject`: the test (or truthiness) applied to each item or to its attribute. */
function prepareSelect(args: readonly PyObject[], kwargs: Map<string, PyObject>, reject: boolean, lookupAttr: boolean): (item: PyObject) => boolean {
  let trans: (x: PyObject) => PyObject = (x) => x;
  let off = 0;
  if (lookupAttr) {
    if (!args.length) throw new JinjaError('FilterArgumentError', 'Missing parameter for attribute name');
    trans = attrGetter(args[0]);
    off = 1;
  }
  let f: (x: PyObject) => boolean;
  if (args.length > off) {
    const name = args[off];
    const rest = args.slice(off + 1);
    f = (x) => callTest(name, x, rest, kwargs);
  } else f = (x) => pyTruthy(x);
  return reject ? (item) => !f(trans(item)) : (item) => f(trans(item));
}

/** `select_or_reject`: a generator that checks the value's truthiness only when first iterated. */
function selectOrReject(value: PyObject, args: readonly PyObject[], kwargs: Map<string, PyObject>, reject: boolean, lookupAttr: boolean): PyObject {
  return gen('select_or_reject', function* () {
    if (!pyTruthy(value)) return;
    const f = prepareSelect(args, kwargs, reject, lookupAttr);
    for (const item of pyIter(value)) if (f(item)) yield item;
  });
}

/** `int(s, base)` of a str as Python parses it (whitespace, sign, `_` between digits, a base prefix). */
function parseIntText(s: string, base: number): bigint | undefined {
  let t = pyStrip(s);
  let sign = 1n;
  if (t[0] === '+' || t[0] === '-') {
    if (t[0] === '-') sign = -1n;
    t = t.slice(1);
  }
  let b = base;
  const prefix = /^0([xob])/i.exec(t);
  if (prefix && (b === 0 || b === { x: 16, o: 8, b: 2 }[prefix[1].toLowerCase() as 'x' | 'o' | 'b'])) {
    b = { x: 16, o: 8, b: 2 }[prefix[1].toLowerCase() as 'x' | 'o' | 'b'];
    t = t.slice(2).replace(/^_/, '');
  } else if (b === 0) b = 10;
  const digits = '0123456789abcdefghijklmnopqrstuvwxyz'.slice(0, b);
  if (!t || !new RegExp(`^[${digits}](_?[${digits}])*$`, 'i').test(t)) return undefined;
  let r = 0n;
  for (const c of t.replace(/_/g, '').toLowerCase()) r = r * BigInt(b) + BigInt(digits.indexOf(c));
  return sign * r;
}

/** `float(s)` of a str as Python parses it (`inf`, `nan`, `1_000.5`, `1e3`), or undefined. */
function parseFloatText(s: string): number | undefined {
  const t = pyStrip(s);
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(t);
  if (special) return special[2].toLowerCase() === 'nan' ? NaN : special[1] === '-' ? -Infinity : Infinity;
  if (!/^[+-]?(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?$/.test(t)) return undefined;
  return Number(t.replace(/_/g, ''));
}

/** `int(value)` as do_int tries it, or undefined where Python raises TypeError or ValueError. */
function toIntValue(v: PyObject, base: number): PyObject | undefined {
  if (typeof v === 'string' || v instanceof Markup) {
    const r = parseIntText(text(v), base);
    if (r !== undefined) return normInt(r);
    // this quirk is necessary so that "42.23"|int gives 42: int(float(value))
    const f = parseFloatText(text(v));
    if (f === undefined || !Number.isFinite(f)) return undefined;
    return normInt(BigInt(Math.trunc(f)));
  }
  const n = pyNumber(v);
  if (n === undefined) return undefined;
  if (n instanceof PyFloat) return Number.isFinite(n.value) ? normInt(BigInt(Math.trunc(n.value))) : undefined;
  return n;
}

/** Jinja2's `do_indent` (3.1: `first`, `blank`; a Markup stays Markup). */
function indent(s: PyObject, width: PyObject, first: PyObject, blank: PyObject): PyObject {
  if (s instanceof Undefined) s.fail();
  if (!(typeof s === 'string' || s instanceof Markup)) {
    if (Array.isArray(s)) throw new JinjaError('AttributeError', "'list' object has no attribute 'splitlines'");
    if (s instanceof PyTuple) throw new JinjaError('TypeError', 'can only concatenate tuple (not "str") to tuple');
    throw new JinjaError('TypeError', `unsupported operand type(s) for +=: '${pyTypeName(s)}' and 'str'`);
  }
  const markup = s instanceof Markup;
  const ind = typeof width === 'string' ? width : width instanceof Markup ? width.text : ' '.repeat(Math.max(0, Number(pyNumber(width) ?? 0)));
  // s += newline: this quirk is necessary for splitlines
  const src = `${text(s)}\n`;
  let rv: string;
  if (pyTruthy(blank)) rv = pySplitlines(src).join(`\n${ind}`);
  else {
    const lines = pySplitlines(src);
    rv = lines.shift() ?? '';
    if (lines.length) rv += `\n${lines.map((l) => (l ? ind + l : l)).join('\n')}`;
  }
  if (pyTruthy(first)) rv = ind + rv;
  return markup ? new Markup(rv) : rv;
}

/** Jinja2's `do_truncate` (leeway 5 by default, as the environment's policy says). */
function truncate(s: PyObject, length: PyObject, killwords: PyObject, end: PyObject, leeway: PyObject): PyObject {
  if (typeof s !== 'string' && !(s instanceof Markup)) {
    // len(s) first: a value without a length raises there
    const n = pyLenOf(s);
    const lw = leeway === null ? 5 : Number(pyNumber(leeway));
    if (n <= Number(pyNumber(length)) + lw) return s;
    throw new EngineUnsupported('the truncate filter over something that is not a str is not reproduced by the template engine');
  }
  const str = text(s);
  const n = Number(pyNumber(length));
  const e = pyStr(end);
  const lw = leeway === null ? 5 : Number(pyNumber(leeway));
  const cps = codePoints(str);
  const ecps = codePoints(e).length;
  if (n < ecps) throw new JinjaError('AssertionError', `expected length >= ${ecps}, got ${n}`);
  if (lw < 0) throw new JinjaError('AssertionError', `expected leeway >= 0, got ${lw}`);
  if (cps.length <= n + lw) return s;
  const head = cps.slice(0, n - ecps).join('');
  if (pyTruthy(killwords)) return head + e;
  const i = head.lastIndexOf(' ');
  return (i < 0 ? head : head.slice(0, i)) + e;
}

/** Python's `round(value, precision)` (an int stays an int; a float is rounded half to even). */
function pyRound(value: PyObject, precision: PyObject): PyObject {
  const n = pyNumber(value);
  if (n === undefined || typeof value === 'boolean') {
    if (typeof value === 'boolean') return value ? 1 : 0;
    throw new JinjaError('TypeError', `type ${pyTypeName(value)} doesn't define __round__ method`);
  }
  const p = Number(pyNumber(precision) ?? 0);
  if (n instanceof PyFloat) return new PyFloat(pyRoundFloat(n.value, p));
  if (p >= 0) return n;
  const m = 10n ** BigInt(-p);
  const i = BigInt(n);
  let q = i / m;
  const r = i - q * m;
  if (r * 2n > m || (r * 2n === m && q % 2n !== 0n)) q += 1n;
  else if (r * 2n < -m || (r * 2n === -m && q % 2n !== 0n)) q -= 1n;
  return normInt(q * m);
}

/** `do_round` with `method`. */
function round(value: PyObject, precision: PyObject, method: PyObject): PyObject {
  if (method !== 'common' && method !== 'ceil' && method !== 'floor') throw new JinjaError('FilterArgumentError', 'method must be common, ceil or floor');
  if (method === 'common') return pyRound(value, precision);
  // math.ceil/floor(value * 10**precision) / 10**precision
  const scale = pyNumber(precision) !== undefined ? (Number(pyNumber(precision)) >= 0 ? normInt(10n ** BigInt(Number(pyNumber(precision)))) : new PyFloat(10 ** Number(pyNumber(precision)))) : 1;
  const scaled = pyNumber(pyMul(value, scale)) as number | bigint | PyFloat;
  const x = toDouble(scaled);
  if (!Number.isFinite(x)) throw new JinjaError(Number.isNaN(x) ? 'ValueError' : 'OverflowError', Number.isNaN(x) ? 'cannot convert float NaN to integer' : 'cannot convert float infinity to integer');
  const r = scaled instanceof PyFloat ? normInt(BigInt(method === 'ceil' ? Math.ceil(x) : Math.floor(x))) : scaled;
  return pyTrueDiv(r, scale);
}

/** Jinja2's `_min_or_max`: Undefined for an empty sequence, else the first smallest (largest) by key. */
function minOrMax(value: PyObject, caseSensitive: PyObject, attribute: PyObject, max: boolean): PyObject {
  const items = [...pyIter(value)];
  if (!items.length) return new Undefined('No aggregated item, sequence was empty.');
  const key = attrGetter(attribute, pyTruthy(caseSensitive) ? undefined : ignoreCase);
  let best = items[0];
  let bestKey = key(best);
  for (let i = 1; i < items.length; i++) {
    const k = key(items[i]);
    if (pyCompare(max ? '>' : '<', k, bestKey)) {
      best = items[i];
      bestKey = k;
    }
  }
  return best;
}

/** `dict.items()` as the filters call it on the object itself (AttributeError on what is not a dict). */
function itemsOf(v: PyObject, what: string): [PyObject, PyObject][] {
  if (v instanceof Map) return [...(v as ReadonlyMap<PyObject, PyObject>)];
  if (v instanceof Undefined) v.fail();
  throw new JinjaError('AttributeError', `'${pyTypeName(v)}' object has no attribute '${what}'`);
}

/** A Jinja2 filter this engine does not reproduce. */
function unsupported(name: string, why: string): FilterFn {
  return () => {
    throw new EngineUnsupported(`the filter '${name}' is not reproduced by the template engine (${why})`);
  };
}

/** `json.dumps` as transformers' `tojson` calls it: `ensure_ascii=False`, and indent/separators/sort_keys as given. */
function tojson(x: PyObject, ensureAscii: PyObject, indentArg: PyObject, separators: PyObject, sortKeys: PyObject): PyObject {
  let indentOpt: number | string | undefined;
  if (indentArg !== null) {
    if (typeof indentArg === 'string') indentOpt = indentArg;
    else if (isPyInt(indentArg) || typeof indentArg === 'boolean') indentOpt = Number(pyNumber(indentArg));
    else throw new JinjaError('TypeError', `can't multiply sequence by non-int of type '${pyTypeName(indentArg)}'`);
  }
  let seps: [string, string] | undefined;
  if (separators !== null) {
    const items = pyList(separators);
    if (items.length !== 2) throw new JinjaError('ValueError', items.length < 2 ? `not enough values to unpack (expected 2, got ${items.length})` : 'too many values to unpack (expected 2)');
    seps = [pyStr(items[0]), pyStr(items[1])];
  }
  return pyJsonDumps(x, { ensureAscii: pyTruthy(ensureAscii), indent: indentOpt, separators: seps, sortKeys: pyTruthy(sortKeys) });
}

/** The filters, by name. */
export const FILTERS: ReadonlyMap<string, FilterFn> = new Map<string, FilterFn>([
  [
    'abs',
    (v, a, k) => {
      const x = oneArgument('abs', [v, ...a], k);
      const n = pyNumber(x);
      // Undefined has no __abs__: a TypeError, not its UndefinedError
      if (n === undefined) throw new JinjaError('TypeError', `bad operand type for abs(): '${pyTypeName(x)}'`);
      if (n instanceof PyFloat) return new PyFloat(Math.abs(n.value));
      return typeof n === 'bigint' ? normInt(n < 0n ? -n : n) : Math.abs(n);
    },
  ],
  [
    'attr',
    filter('do_attr', ['obj', 'name'], ([obj, name]) => {
      if (obj instanceof Undefined) obj.fail();
      if (typeof name !== 'string') throw new JinjaError('TypeError', `attribute name must be string, not '${pyTypeName(name)}'`);
      // only a real attribute, never the item getattr falls back to
      if (obj instanceof PyInstance) return obj.pyGetAttr(name) === undefined ? new Undefined(undefined, obj, name) : getAttr(obj, name);
      const a = attributeOf(obj, name);
      return a === undefined ? new Undefined(undefined, obj, name) : a;
    }, { implicit: 'environment' }),
  ],
  [
    'batch',
    filter('do_batch', ['value', 'linecount', ['fill_with', null]], ([value, linecount, fillWith]) =>
      gen('do_batch', function* () {
        const n = Number(pyNumber(linecount));
        let tmp: PyObject[] = [];
        for (const item of pyIter(value)) {
          if (tmp.length === n) {
            yield tmp;
            tmp = [];
          }
          tmp.push(item);
        }
        if (tmp.length) {
          if (fillWith !== null && tmp.length < n) while (tmp.length < n) tmp.push(fillWith);
          yield tmp;
        }
      }),
    ),
  ],
  ['capitalize', filter('do_capitalize', ['s'], ([s]) => {
    const t = softStr(s);
    return like(t, pyCapitalize(text(t)));
  })],
  ['center', filter('do_center', ['value', ['width', 80]], ([v, w]) => {
    const t = softStr(v);
    return like(t, pyCenter(text(t), Number(pyNumber(w) ?? 0)));
  })],
  ['count', (v, a, k) => pyLenOf(oneArgument('len', [v, ...a], k))],
  ['length', (v, a, k) => pyLenOf(oneArgument('len', [v, ...a], k))],
  ['default', filter('do_default', ['value', ['default_value', ''], ['boolean', false]], ([v, d, b]) => (v instanceof Undefined || (pyTruthy(b) && !pyTruthy(v)) ? d : v))],
  ['d', filter('do_default', ['value', ['default_value', ''], ['boolean', false]], ([v, d, b]) => (v instanceof Undefined || (pyTruthy(b) && !pyTruthy(v)) ? d : v))],
  [
    'dictsort',
    filter('do_dictsort', ['value', ['case_sensitive', false], ['by', 'key'], ['reverse', false]], ([value, cs, by, reverse]) => {
      let pos: 0 | 1;
      if (by === 'key') pos = 0;
      else if (by === 'value') pos = 1;
      else throw new JinjaError('FilterArgumentError', 'You can only sort by either "key" or "value"');
      const items = itemsOf(value, 'items').map(([k, v]) => new PyTuple([k, v]));
      return sorted(items, (t) => (pyTruthy(cs) ? (t as PyTuple).items[pos] : ignoreCase((t as PyTuple).items[pos])), pyTruthy(reverse));
    }),
  ],
  ['escape', (v, a, k) => escape(oneArgument('escape', [v, ...a], k))],
  ['e', (v, a, k) => escape(oneArgument('escape', [v, ...a], k))],
  [
    'filesizeformat',
    filter('do_filesizeformat', ['value', ['binary', false]], ([value, binary]) => {
      const bytes = toDouble(pyNumber(typeof value === 'string' ? new PyFloat(parseFloatText(value) ?? NaN) : value) ?? new PyFloat(NaN));
      const base = pyTruthy(binary) ? 1024 : 1000;
      const prefixes = pyTruthy(binary) ? ['KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB', 'ZiB', 'YiB'] : ['kB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];
      if (bytes === 1) return '1 Byte';
      if (bytes < base) return `${Math.trunc(bytes)} Bytes`;
      let unit = 0;
      for (let i = 0; i < prefixes.length; i++) {
        unit = base ** (i + 2);
        if (bytes < unit) return `${pyPercentFormat('%.1f', new PyFloat((base * bytes) / unit)) as string} ${prefixes[i]}`;
      }
      return `${pyPercentFormat('%.1f', new PyFloat((base * bytes) / unit)) as string} ${prefixes[prefixes.length - 1]}`;
    }),
  ],
  [
    'first',
    filter('sync_do_first', ['seq'], ([seq]) => {
      for (const x of pyIter(seq)) return x;
      return new Undefined('No first item, sequence was empty.');
    }, { implicit: 'environment' }),
  ],
  [
    'float',
    filter('do_float', ['value', ['default', new PyFloat(0)]], ([value, d]) => {
      // float(Undefined) calls Undefined.__float__, which raises its UndefinedError
      if (value instanceof Undefined) value.fail();
      if (typeof value === 'string' || value instanceof Markup) {
        const f = parseFloatText(text(value));
        return f === undefined ? d : new PyFloat(f);
      }
      const n = pyNumber(value);
      return n === undefined ? d : new PyFloat(toDouble(n));
    }),
  ],
  ['forceescape', filter('do_forceescape', ['value'], ([v]) => new Markup(markupEscape(v instanceof Markup ? v.text : pyStr(v))))],
  [
    'format',
    filter('do_format', ['value'], ([value], args, kwargs) => {
      if (args.length && kwargs.size) throw new JinjaError('FilterArgumentError', "can't handle positional and keyword arguments at the same time");
      return pyPercentFormat(softStr(value), kwargs.size ? kwargs : new PyTuple(args));
    }, { varargs: true, varkw: true }),
  ],
  [
    'groupby',
    filter('sync_do_groupby', ['value', 'attribute', ['default', null], ['case_sensitive', false]], ([value, attribute, d, cs]) => {
      const expr = attrGetter(attribute, pyTruthy(cs) ? undefined : ignoreCase, d);
      const items = sorted([...pyIter(value)], expr, false);
      const out: PyObject[] = [];
      let group: PyObject[] = [];
      let key: PyObject | undefined;
      for (const it of items) {
        const k = expr(it);
        if (key !== undefined && pyCmp(k, key) === 0 && pyHashKeySafe(k) === pyHashKeySafe(key)) group.push(it);
        else {
          if (key !== undefined) out.push(groupTuple(key, group));
          key = k;
          group = [it];
        }
      }
      if (key !== undefined) out.push(groupTuple(key, group));
      if (pyTruthy(cs)) return out;
      const real = attrGetter(attribute, undefined, d);
      return out.map((g) => groupTuple(real(((g as PyTuple).items[1] as PyObject[])[0]), (g as PyTuple).items[1] as PyObject[]));
    }, { implicit: 'environment' }),
  ],
  ['indent', filter('do_indent', ['s', ['width', 4], ['first', false], ['blank', false]], ([s, w, f, b]) => indent(s, w, f, b))],
  [
    'int',
    filter('do_int', ['value', ['default', 0], ['base', 10]], ([value, d, base]) => {
      // int(Undefined) calls Undefined.__int__, which raises its UndefinedError
      if (value instanceof Undefined) value.fail();
      const r = toIntValue(value, Number(pyNumber(base) ?? 10));
      return r === undefined ? d : r;
    }),
  ],
  [
    'items',
    filter('do_items', ['value'], ([value]) =>
      gen('do_items', function* () {
        if (value instanceof Undefined) return;
        if (!(value instanceof Map)) throw new JinjaError('TypeError', 'Can only get item pairs from a mapping.');
        for (const [k, v] of value as ReadonlyMap<PyObject, PyObject>) yield new PyTuple([k, v]);
      }),
    ),
  ],
  [
    'join',
    filter('sync_do_join', ['value', ['d', ''], ['attribute', null]], ([value, d, attribute]) => {
      const get = attribute !== null ? attrGetter(attribute) : undefined;
      const parts: string[] = [];
      for (const x of pyIter(value)) parts.push(pyStr(get ? get(x) : x));
      return parts.join(pyStr(d));
    }, { implicit: 'eval_ctx' }),
  ],
  [
    'last',
    filter('do_last', ['seq'], ([seq]) => {
      // next(iter(reversed(seq))): a sequence, a dict, Undefined (its len and getitem); not an iterator or a number
      const reversible = typeof seq === 'string' || Array.isArray(seq) || seq instanceof Map || seq instanceof PyTuple || seq instanceof Markup || seq instanceof Undefined || seq instanceof DictView || seq instanceof PyRange;
      if (!reversible) throw new JinjaError('TypeError', `'${pyTypeName(seq)}' object is not reversible`);
      const items = [...pyIter(seq)];
      if (!items.length) return new Undefined('No last item, sequence was empty.');
      // reversed() reads a Markup through Markup.__getitem__, which gives Markup
      return seq instanceof Markup ? new Markup(items[items.length - 1] as string) : items[items.length - 1];
    }, { implicit: 'environment' }),
  ],
  ['list', filter('sync_do_list', ['value'], ([v]) => pyList(v))],
  ['lower', filter('do_lower', ['s'], ([s]) => {
    const t = softStr(s);
    return like(t, text(t).toLowerCase());
  })],
  ['upper', filter('do_upper', ['s'], ([s]) => {
    const t = softStr(s);
    return like(t, text(t).toUpperCase());
  })],
  [
    'map',
    filter('sync_do_map', ['value'], ([value], args, kwargs) =>
      gen('sync_do_map', function* () {
        if (!pyTruthy(value)) return;
        const f = prepareMap(args, kwargs);
        for (const item of pyIter(value)) yield f(item);
      }),
    { implicit: 'context', varargs: true, varkw: true }),
  ],
  ['max', filter('do_max', ['value', ['case_sensitive', false], ['attribute', null]], ([v, cs, at]) => minOrMax(v, cs, at, true), { implicit: 'environment' })],
  ['min', filter('do_min', ['value', ['case_sensitive', false], ['attribute', null]], ([v, cs, at]) => minOrMax(v, cs, at, false), { implicit: 'environment' })],
  ['pprint', unsupported('pprint', "Python's pprint.pformat line breaking")],
  ['random', unsupported('random', 'its choice is random')],
  ['reject', filter('sync_do_reject', ['value'], ([v], a, k) => selectOrReject(v, a, k, true, false), { implicit: 'context', varargs: true, varkw: true })],
  ['rejectattr', filter('sync_do_rejectattr', ['value'], ([v], a, k) => selectOrReject(v, a, k, true, true), { implicit: 'context', varargs: true, varkw: true })],
  ['select', filter('sync_do_select', ['value'], ([v], a, k) => selectOrReject(v, a, k, false, false), { implicit: 'context', varargs: true, varkw: true })],
  ['selectattr', filter('sync_do_selectattr', ['value'], ([v], a, k) => selectOrReject(v, a, k, false, true), { implicit: 'context', varargs: true, varkw: true })],
  [
    'replace',
    filter('do_replace', ['s', 'old', 'new', ['count', null]], ([s, old, repl, count]) => {
      const n = count === null ? -1 : Number(pyNumber(count));
      // no autoescape: str(s).replace(str(old), str(new), count)
      const src = pyStr(s);
      const o = pyStr(old);
      const r = pyStr(repl);
      return pyReplace(src, o, r, n);
    }, { implicit: 'eval_ctx' }),
  ],
  [
    'reverse',
    filter('do_reverse', ['value'], ([value]) => {
      if (typeof value === 'string') return codePoints(value).reverse().join('');
      if (value instanceof Markup) return new Markup(codePoints(value.text).reverse().join(''));
      if (Array.isArray(value)) return new PyGenerator('list_reverseiterator', [...(value as readonly PyObject[])].reverse()[Symbol.iterator]());
      if (value instanceof PyGenerator) return pyList(value).reverse();
      if (value instanceof Map || value instanceof PyTuple || value instanceof Undefined || value instanceof PyInstance) {
        try {
          return new PyGenerator('reversed', pyList(value).reverse()[Symbol.iterator]());
        } catch {
          throw new JinjaError('FilterArgumentError', 'argument must be iterable');
        }
      }
      throw new JinjaError('FilterArgumentError', 'argument must be iterable');
    }),
  ],
  ['round', filter('do_round', ['value', ['precision', 0], ['method', 'common']], ([v, p, m]) => round(v, p, m))],
  ['safe', filter('do_mark_safe', ['value'], ([v]) => (v instanceof Markup ? v : new Markup(pyStr(v))))],
  [
    'slice',
    filter('sync_do_slice', ['value', 'slices', ['fill_with', null]], ([value, slicesArg, fillWith]) =>
      gen('sync_do_slice', function* () {
        const seq = pyList(value);
        const slices = Number(pyNumber(slicesArg));
        const per = Math.floor(seq.length / slices);
        const extra = seq.length % slices;
        let offset = 0;
        for (let i = 0; i < slices; i++) {
          const start = offset + i * per;
          if (i < extra) offset += 1;
          const end = offset + (i + 1) * per;
          const tmp = seq.slice(start, end);
          if (fillWith !== null && i >= extra) tmp.push(fillWith);
          yield tmp;
        }
      }),
    ),
  ],
  [
    'sort',
    filter('do_sort', ['value', ['reverse', false], ['case_sensitive', false], ['attribute', null]], ([value, reverse, cs, attribute]) => {
      const key = multiAttrGetter(attribute, pyTruthy(cs) ? undefined : ignoreCase);
      return sorted([...pyIter(value)], key, pyTruthy(reverse));
    }, { implicit: 'environment' }),
  ],
  ['string', (v, a, k) => softStr(oneArgument('soft_str', [v, ...a], k))],
  [
    'striptags',
    filter('do_striptags', ['value'], ([v]) => {
      const s = v instanceof Markup ? v.text : pyStr(v);
      // Markup.striptags: comments and tags removed, whitespace collapsed, entities unescaped
      const stripped = s.replace(/<!--[\s\S]*?(?:-->|$)/g, '').replace(/<[^>]*?>/g, '');
      return unescapeEntities(stripped.split(/\s+/).filter(Boolean).join(' '));
    }),
  ],
  [
    'sum',
    filter('sync_do_sum', ['iterable', ['attribute', null], ['start', 0]], ([iterable, attribute, start]) => {
      const get = attribute !== null ? attrGetter(attribute) : undefined;
      if (typeof start === 'string') throw new JinjaError('TypeError', "sum() can't sum strings [use ''.join(seq) instead]");
      let rv: PyObject = start;
      for (const x of pyIter(iterable)) rv = pyAdd(rv, get ? get(x) : x);
      return rv;
    }, { implicit: 'environment' }),
  ],
  [
    'title',
    filter('do_title', ['s'], ([s]) => {
      // re.split(r"([-\s({\[<]+)") keeps the separators; each piece's first character upper-cased, the rest lower
      const parts = text(softStr(s)).split(/([-\s({[<]+)/u);
      return parts.filter((p) => p).map((p) => {
        const cps = codePoints(p);
        return cps[0].toUpperCase() + cps.slice(1).join('').toLowerCase();
      }).join('');
    }),
  ],
  ['tojson', filter('tojson', ['x', ['ensure_ascii', false], ['indent', null], ['separators', null], ['sort_keys', false]], ([x, e, i, s, k]) => tojson(x, e, i, s, k))],
  [
    'trim',
    filter('do_trim', ['value', ['chars', null]], ([value, chars]) => {
      const t = softStr(value);
      const c = chars === null ? undefined : typeof chars === 'string' ? chars : chars instanceof Markup ? chars.text : undefined;
      if (chars !== null && c === undefined) throw new JinjaError('TypeError', 'strip arg must be None or str');
      return like(t, pyStrip(text(t), c));
    }),
  ],
  ['truncate', filter('do_truncate', ['s', ['length', 255], ['killwords', false], ['end', '...'], ['leeway', null]], ([s, l, kw, e, lw]) => truncate(s, l, kw, e, lw), { implicit: 'env' })],
  [
    'unique',
    filter('sync_do_unique', ['value', ['case_sensitive', false], ['attribute', null]], ([value, cs, attribute]) =>
      gen('sync_do_unique', function* () {
        const key = attrGetter(attribute, pyTruthy(cs) ? undefined : ignoreCase);
        const seen = new Set<string>();
        for (const item of pyIter(value)) {
          const h = pyHashKey(key(item));
          if (!seen.has(h)) {
            seen.add(h);
            yield item;
          }
        }
      }),
    { implicit: 'environment' }),
  ],
  [
    'urlencode',
    filter('do_urlencode', ['value'], ([value]) => {
      if (typeof value === 'string' || value instanceof Markup || !(value instanceof Map || Array.isArray(value) || value instanceof PyTuple || value instanceof PyInstance)) return urlQuote(value, false);
      const items = value instanceof Map ? itemsOf(value, 'items') : pyList(value).map((x) => pyList(x) as [PyObject, PyObject]);
      return items.map(([k, v]) => `${urlQuote(k, true)}=${urlQuote(v, true)}`).join('&');
    }),
  ],
  ['urlize', unsupported('urlize', "Jinja2's URL recognition rules")],
  ['wordcount', filter('do_wordcount', ['s'], ([s]) => (text(softStr(s)).match(/[\p{L}\p{N}_]+/gu) ?? []).length)],
  ['wordwrap', unsupported('wordwrap', "Python's textwrap line breaking")],
  [
    'xmlattr',
    filter('do_xmlattr', ['d', ['autospace', true]], ([d, autospace]) => {
      const parts: string[] = [];
      for (const [k, v] of itemsOf(d, 'items')) {
        if (v === null || v instanceof Undefined) continue;
        const key = pyStr(k);
        if (/[\s/>=]/.test(key)) throw new JinjaError('ValueError', `Invalid character in attribute name: ${pyReprString(key)}`);
        parts.push(`${markupEscape(key)}="${v instanceof Markup ? v.text : markupEscape(pyStr(v))}"`);
      }
      const rv = parts.join(' ');
      return pyTruthy(autospace) && rv ? ` ${rv}` : rv;
    }, { implicit: 'eval_ctx' }),
  ],
]);
for (const name of FILTERS.keys()) FILTER_NAMES.add(name);

/** MarkupSafe's `escape(x)`: Markup as it is, anything else `str()` escaped. */
export function escape(v: PyObject): Markup {
  if (v instanceof Markup) return v;
  return new Markup(markupEscape(pyStr(v)));
}

/** groupby's `_GroupTuple`: a (grouper, list) tuple. */
function groupTuple(key: PyObject, list: PyObject[]): PyTuple {
  return new GroupTuple(key, list);
}

/** A hash key, or a marker for the unhashable (groupby compares keys by order, not hash). */
function pyHashKeySafe(v: PyObject): string {
  try {
    return pyHashKey(v);
  } catch {
    return '';
  }
}

/** `urllib.parse.quote` (safe `/` for a path, nothing for a query part; UTF-8). */
function urlQuote(v: PyObject, forQs: boolean): string {
  const s = typeof v === 'string' ? v : v instanceof Markup ? v.text : pyStr(v);
  let out = '';
  for (const b of new TextEncoder().encode(s)) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9_.~-]/.test(c) || (!forQs && c === '/')) out += c;
    else if (forQs && c === ' ') out += '+';
    else out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The HTML entities MarkupSafe's `unescape` knows here (the five it writes, numeric ones). */
function unescapeEntities(s: string): string {
  return s.replace(/&(#\d+|#x[0-9a-f]+|amp|lt|gt|quot|apos);/gi, (all, e: string) => {
    const l = e.toLowerCase();
    if (l === 'amp') return '&';
    if (l === 'lt') return '<';
    if (l === 'gt') return '>';
    if (l === 'quot') return '"';
    if (l === 'apos') return "'";
    if (l.startsWith('#x')) return String.fromCodePoint(parseInt(l.slice(2), 16));
    if (l.startsWith('#')) return String.fromCodePoint(parseInt(l.slice(1), 10));
    return all;
  });
}
