/**
 * The attributes of Python's builtin types as a sandboxed template reaches them: the methods of
 * str (and MarkupSafe's Markup, which escapes its str arguments), dict, list and tuple, and the
 * attributes of int and float. A method that mutates a list or dict is unsafe (Jinja2's immutable
 * sandbox: calling it raises SecurityError); an attribute Python has but this engine does not
 * reproduce raises an Unsupported error when used; a name Python does not have is missing
 * (`undefined` here: the caller falls back to the item).
 */
import { JsonNumber } from '../ir/json.js';
import { EngineUnsupported, JinjaError } from '../emit/python/errors.js';
import { pyStrFormat } from '../emit/python/format.js';
import { markupEscape } from '../emit/python/jinja.js';
import { Markup, PyFloat, PyTuple, type PyObject } from '../emit/python/objects.js';
import { isPyFloat, isPyInt, pyHashKey, pyIter, pyNumber } from '../emit/python/operators.js';
import {
  PY_STR_PREDICATES,
  pyCapitalize,
  pyCenter,
  pyCount,
  pyExpandtabs,
  pyFind,
  pyJustify,
  pyLstrip,
  pyReplace,
  pyRsplit,
  pyRstrip,
  pySplit,
  pySplitlines,
  pyStrip,
  pySubBounds,
  pySwapcase,
  pyTitle,
  pyZfill,
} from '../emit/python/strings.js';
import { pyEquals, pyRepr, pyStr, pyTypeName } from '../emit/python/values.js';
import { DictView, getAttr, getItem, PyFunction, unsafeUndefined } from './runtime.js';

/** A builtin method's implementation: the receiver, the positional and keyword arguments. */
type Method<T> = (self: T, args: readonly PyObject[], kwargs: ReadonlyMap<string, PyObject> | undefined) => PyObject;

/** The TypeError of a builtin given keyword arguments it does not take. */
function noKeywords(name: string, kwargs: ReadonlyMap<string, PyObject> | undefined): void {
  if (kwargs && kwargs.size) throw new JinjaError('TypeError', `${name}() takes no keyword arguments`);
}

/** Check a builtin method's positional argument count (CPython's `expected at most N arguments, got M`). */
function arity(name: string, args: readonly PyObject[], min: number, max: number): void {
  if (args.length > max) {
    if (max === 0) throw new JinjaError('TypeError', `${name}() takes no arguments (${args.length} given)`);
    if (min === max) throw new JinjaError('TypeError', `${name}() takes exactly one argument (${args.length} given)`);
    throw new JinjaError('TypeError', `${name} expected at most ${max} argument${max === 1 ? '' : 's'}, got ${args.length}`);
  }
  if (args.length < min) {
    if (min === max && min === 1) throw new JinjaError('TypeError', `${name}() takes exactly one argument (${args.length} given)`);
    throw new JinjaError('TypeError', `${name} expected at least ${min} argument${min === 1 ? '' : 's'}, got ${args.length}`);
  }
}

/** A str argument (a Markup counts), or the TypeError `must be str, not int`. */
function strArg(v: PyObject, message = 'must be str'): string {
  if (typeof v === 'string') return v;
  if (v instanceof Markup) return v.text;
  throw new JinjaError('TypeError', `${message}, not ${pyTypeName(v)}`);
}

/** An optional str argument (None for absent). */
function optStr(v: PyObject | undefined, message = 'must be str or None'): string | undefined {
  if (v === undefined || v === null) return undefined;
  return strArg(v, message);
}

/** A justifying fill character: exactly one character (TypeError otherwise). */
function fillArg(v: PyObject | undefined): string {
  if (v === undefined) return ' ';
  const s = strArg(v, 'The fill character must be a unicode character');
  if ([...s].length !== 1) throw new JinjaError('TypeError', 'The fill character must be exactly one character long');
  return s;
}

/** An int argument (`__index__`), or the TypeError Python gives. */
function intArg(v: PyObject | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (isPyInt(v)) return Number(pyNumber(v) as number | bigint);
  throw new JinjaError('TypeError', `'${pyTypeName(v)}' object cannot be interpreted as an integer`);
}

/** An optional slice bound (`None` or absent is none). */
function optIndex(v: PyObject | undefined): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (isPyInt(v)) return Number(pyNumber(v) as number | bigint);
  throw new JinjaError('TypeError', 'slice indices must be integers or None or have an __index__ method');
}

/** A keyword-or-positional argument of a builtin that takes keywords (`split(sep=…, maxsplit=…)`). */
function param(name: string, args: readonly PyObject[], kwargs: ReadonlyMap<string, PyObject> | undefined, names: readonly string[]): (PyObject | undefined)[] {
  if (args.length > names.length) throw new JinjaError('TypeError', `${name}() takes at most ${names.length} argument${names.length === 1 ? '' : 's'} (${args.length} given)`);
  const out: (PyObject | undefined)[] = [...args];
  for (const [k, v] of kwargs ?? []) {
    const i = names.indexOf(k);
    if (i < 0) throw new JinjaError('TypeError', `${name}() got an unexpected keyword argument '${k}'`);
    if (i < args.length) throw new JinjaError('TypeError', `argument for ${name}() given by name ('${k}') and position (${i + 1})`);
    out[i] = v;
  }
  return out;
}

/** `startswith`/`endswith`: a str or a tuple of str. */
function affixes(name: string, v: PyObject): string[] {
  if (v instanceof PyTuple) return v.items.map((x) => strArg(x, `tuple for ${name} must only contain str`));
  if (typeof v === 'string' || v instanceof Markup) return [typeof v === 'string' ? v : v.text];
  throw new JinjaError('TypeError', `${name} first arg must be str or a tuple of str, not ${pyTypeName(v)}`);
}

/** `str.join(iterable)`: every item a str. */
function joinStrings(sep: string, iterable: PyObject): string {
  const parts: string[] = [];
  let i = 0;
  for (const x of pyIter(iterable)) {
    if (typeof x === 'string') parts.push(x);
    else if (x instanceof Markup) parts.push(x.text);
    else throw new JinjaError('TypeError', `sequence item ${i}: expected str instance, ${pyTypeName(x)} found`);
    i++;
  }
  return parts.join(sep);
}

/** The sandbox's lookups, for `str.format` fields. */
const LOOKUPS = { getattr: getAttr, getitem: getItem };

/** The kwargs of a call as a Map (empty when none). */
function kw(kwargs: ReadonlyMap<string, PyObject> | undefined): ReadonlyMap<string, PyObject> {
  return kwargs ?? new Map();
}

/** str's methods (on a plain str). */
const STR_METHODS: Readonly<Record<string, Method<string>>> = {
  capitalize: (s, a, k) => (noKeywords('str.capitalize', k), arity('str.capitalize', a, 0, 0), pyCapitalize(s)),
  casefold: (s, a, k) => (noKeywords('str.casefold', k), arity('str.casefold', a, 0, 0), s.toLowerCase().replace(/ß/g, 'ss')),
  center: (s, a, k) => {
    noKeywords('center', k);
    arity('center', a, 1, 2);
    return pyCenter(s, intArg(a[0], 0), fillArg(a[1]));
  },
  count: (s, a, k) => (noKeywords('count', k), arity('count', a, 1, 3), pyCount(s, strArg(a[0]), optIndex(a[1]), optIndex(a[2]))),
  endswith: (s, a, k) => {
    noKeywords('endswith', k);
    arity('endswith', a, 1, 3);
    const [from, to] = pySubBounds(s, optIndex(a[1]), optIndex(a[2]));
    const part = s.slice(from, to);
    return affixes('endswith', a[0]).some((x) => part.endsWith(x) && to - from >= x.length);
  },
  startswith: (s, a, k) => {
    noKeywords('startswith', k);
    arity('startswith', a, 1, 3);
    const [from, to] = pySubBounds(s, optIndex(a[1]), optIndex(a[2]));
    const part = s.slice(from, to);
    return affixes('startswith', a[0]).some((x) => part.startsWith(x));
  },
  expandtabs: (s, a, k) => {
    const [t] = param('expandtabs', a, k, ['tabsize']);
    return pyExpandtabs(s, intArg(t, 8));
  },
  find: (s, a, k) => (noKeywords('find', k), arity('find', a, 1, 3), pyFind(s, strArg(a[0]), optIndex(a[1]), optIndex(a[2]))),
  rfind: (s, a, k) => (noKeywords('rfind', k), arity('rfind', a, 1, 3), pyFind(s, strArg(a[0]), optIndex(a[1]), optIndex(a[2]), true)),
  index: (s, a, k) => {
    noKeywords('index', k);
    arity('index', a, 1, 3);
    const i = pyFind(s, strArg(a[0]), optIndex(a[1]), optIndex(a[2]));
    if (i < 0) throw new JinjaError('ValueError', 'substring not found');
    return i;
  },
  rindex: (s, a, k) => {
    noKeywords('rindex', k);
    arity('rindex', a, 1, 3);
    const i = pyFind(s, strArg(a[0]), optIndex(a[1]), optIndex(a[2]), true);
    if (i < 0) throw new JinjaError('ValueError', 'substring not found');
    return i;
  },
  format: (s, a, k) => pyStrFormat(s, a, kw(k), LOOKUPS),
  format_map: (s, a, k) => {
    if (k && k.size) throw new JinjaError('TypeError', 'format_map() takes no keyword arguments');
    if (a.length !== 1) throw new JinjaError('TypeError', `format_map() takes exactly one argument (${a.length} given)`);
    const m = a[0];
    if (!(m instanceof Map)) throw new JinjaError('Unsupported', 'str.format_map over something that is not a dict is not reproduced by the template engine');
    return pyStrFormat(s, [], m as ReadonlyMap<string, PyObject>, LOOKUPS);
  },
  join: (s, a, k) => (noKeywords('str.join', k), arity('str.join', a, 1, 1), joinStrings(s, a[0])),
  ljust: (s, a, k) => (noKeywords('ljust', k), arity('ljust', a, 1, 2), pyJustify(s, intArg(a[0], 0), fillArg(a[1]), false)),
  rjust: (s, a, k) => (noKeywords('rjust', k), arity('rjust', a, 1, 2), pyJustify(s, intArg(a[0], 0), fillArg(a[1]), true)),
  lower: (s, a, k) => (noKeywords('str.lower', k), arity('str.lower', a, 0, 0), s.toLowerCase()),
  upper: (s, a, k) => (noKeywords('str.upper', k), arity('str.upper', a, 0, 0), s.toUpperCase()),
  lstrip: (s, a, k) => (noKeywords('lstrip', k), arity('lstrip', a, 0, 1), pyLstrip(s, optStr(a[0], 'lstrip arg must be None or str'))),
  rstrip: (s, a, k) => (noKeywords('rstrip', k), arity('rstrip', a, 0, 1), pyRstrip(s, optStr(a[0], 'rstrip arg must be None or str'))),
  strip: (s, a, k) => (noKeywords('strip', k), arity('strip', a, 0, 1), pyStrip(s, optStr(a[0], 'strip arg must be None or str'))),
  partition: (s, a, k) => {
    noKeywords('str.partition', k);
    arity('str.partition', a, 1, 1);
    const sep = strArg(a[0]);
    if (sep === '') throw new JinjaError('ValueError', 'empty separator');
    const i = s.indexOf(sep);
    return i < 0 ? new PyTuple([s, '', '']) : new PyTuple([s.slice(0, i), sep, s.slice(i + sep.length)]);
  },
  rpartition: (s, a, k) => {
    noKeywords('str.rpartition', k);
    arity('str.rpartition', a, 1, 1);
    const sep = strArg(a[0]);
    if (sep === '') throw new JinjaError('ValueError', 'empty separator');
    const i = s.lastIndexOf(sep);
    return i < 0 ? new PyTuple(['', '', s]) : new PyTuple([s.slice(0, i), sep, s.slice(i + sep.length)]);
  },
  removeprefix: (s, a, k) => {
    noKeywords('str.removeprefix', k);
    arity('str.removeprefix', a, 1, 1);
    const p = strArg(a[0], 'removeprefix() argument must be str');
    return s.startsWith(p) ? s.slice(p.length) : s;
  },
  removesuffix: (s, a, k) => {
    noKeywords('str.removesuffix', k);
    arity('str.removesuffix', a, 1, 1);
    const p = strArg(a[0], 'removesuffix() argument must be str');
    return p && s.endsWith(p) ? s.slice(0, -p.length) : s;
  },
  replace: (s, a, k) => {
    noKeywords('replace', k);
    arity('replace', a, 2, 3);
    return pyReplace(s, strArg(a[0], 'replace() argument 1 must be str'), strArg(a[1], 'replace() argument 2 must be str'), intArg(a[2], -1));
  },
  split: (s, a, k) => {
    const [sep, max] = param('split', a, k, ['sep', 'maxsplit']);
    const sp = optStr(sep);
    if (sp === '') throw new JinjaError('ValueError', 'empty separator');
    return pySplit(s, sp, intArg(max, -1));
  },
  rsplit: (s, a, k) => {
    const [sep, max] = param('rsplit', a, k, ['sep', 'maxsplit']);
    const sp = optStr(sep);
    if (sp === '') throw new JinjaError('ValueError', 'empty separator');
    return pyRsplit(s, sp, intArg(max, -1));
  },
  splitlines: (s, a, k) => {
    const [keep] = param('splitlines', a, k, ['keepends']);
    return pySplitlines(s, keep !== undefined && !!intArg(keep, 0));
  },
  swapcase: (s, a, k) => (noKeywords('str.swapcase', k), arity('str.swapcase', a, 0, 0), pySwapcase(s)),
  title: (s, a, k) => (noKeywords('str.title', k), arity('str.title', a, 0, 0), pyTitle(s)),
  zfill: (s, a, k) => (noKeywords('str.zfill', k), arity('str.zfill', a, 1, 1), pyZfill(s, intArg(a[0], 0))),
  ...Object.fromEntries(
    Object.entries(PY_STR_PREDICATES).map(([name, test]) => [name, (s: string, a: readonly PyObject[], k: ReadonlyMap<string, PyObject> | undefined) => (noKeywords(`str.${name}`, k), arity(`str.${name}`, a, 0, 0), test(s))]),
  ),
};

/** Markup's methods that give Markup (MarkupSafe 3 wraps their result). */
const MARKUP_WRAPPED = new Set(['capitalize', 'title', 'lower', 'upper', 'replace', 'ljust', 'rjust', 'lstrip', 'rstrip', 'center', 'strip', 'expandtabs', 'swapcase', 'zfill', 'casefold', 'removeprefix', 'removesuffix']);
/** The argument MarkupSafe 3 escapes before the str method runs: `replace`'s new text, the justifying fill character. */
const MARKUP_ESCAPED_ARG: Readonly<Record<string, number>> = { replace: 1, ljust: 1, rjust: 1, center: 1 };

/** MarkupSafe's `escape(x)` as text: a Markup as it is, anything else `str()` escaped. */
function escapeText(v: PyObject): string {
  return v instanceof Markup ? v.text : markupEscape(typeof v === 'string' ? v : pyStr(v));
}

/** A method called on a Markup (MarkupSafe 3's overrides of the str methods). */
function markupMethod(m: Markup, name: string, args: readonly PyObject[], kwargs: ReadonlyMap<string, PyObject> | undefined): PyObject {
  const f = STR_METHODS[name];
  if (MARKUP_WRAPPED.has(name)) {
    const at = MARKUP_ESCAPED_ARG[name];
    const a = at !== undefined && args.length > at ? args.map((x, i) => (i === at ? escapeText(x) : x)) : args;
    return new Markup(f(m.text, a, kwargs) as string);
  }
  switch (name) {
    case 'split':
    case 'rsplit':
    case 'splitlines':
      return (f(m.text, args, kwargs) as string[]).map((x) => new Markup(x));
    case 'partition':
    case 'rpartition':
      return new PyTuple((f(m.text, args, kwargs) as PyTuple).items.map((x) => new Markup(x as string)));
    case 'join': {
      // Markup.join escapes each item (whatever its type) before joining
      noKeywords('str.join', kwargs);
      arity('str.join', args, 1, 1);
      return new Markup([...pyIter(args[0])].map(escapeText).join(m.text));
    }
    case 'format':
      return new Markup(pyStrFormat(m.text, args, kw(kwargs), LOOKUPS, true));
    case 'format_map':
      throw new EngineUnsupported('Markup.format_map is not reproduced by the template engine');
    default:
      return f(m.text, args, kwargs);
  }
}

/** `dict.fromkeys(iterable, value=None)`. */
function fromkeys(args: readonly PyObject[]): PyObject {
  arity('fromkeys', args, 1, 2);
  const out = new Map<PyObject, PyObject>();
  for (const k of pyIter(args[0])) {
    pyHashKey(k);
    out.set(k, args[1] ?? null);
  }
  return out;
}

/** A dict member by key (any hashable key), or undefined. */
function dictGet(d: ReadonlyMap<PyObject, PyObject>, key: PyObject): PyObject | undefined {
  if (typeof key === 'string') return d.get(key);
  const h = pyHashKey(key);
  for (const [k, v] of d) if (pyHashKey(k) === h) return v;
  return undefined;
}

/** dict's safe methods. */
const DICT_METHODS: Readonly<Record<string, Method<ReadonlyMap<PyObject, PyObject>>>> = {
  get: (d, a, k) => {
    noKeywords('dict.get', k);
    arity('get', a, 1, 2);
    const v = dictGet(d, a[0]);
    return v !== undefined ? v : (a[1] ?? null);
  },
  items: (d, a, k) => (noKeywords('dict.items', k), arity('dict.items', a, 0, 0), new DictView(d, 'items')),
  keys: (d, a, k) => (noKeywords('dict.keys', k), arity('dict.keys', a, 0, 0), new DictView(d, 'keys')),
  values: (d, a, k) => (noKeywords('dict.values', k), arity('dict.values', a, 0, 0), new DictView(d, 'values')),
  copy: (d, a, k) => (noKeywords('dict.copy', k), arity('dict.copy', a, 0, 0), new Map(d)),
  fromkeys: (_d, a, k) => (noKeywords('fromkeys', k), fromkeys(a)),
};

/** `seq.index(x, start, end)` / `seq.count(x)` for list and tuple. */
function seqMethods(kind: 'list' | 'tuple'): Readonly<Record<string, Method<readonly PyObject[]>>> {
  return {
    count: (l, a, k) => {
      noKeywords(`${kind}.count`, k);
      arity(`${kind}.count`, a, 1, 1);
      return l.filter((x) => pyEquals(x, a[0])).length;
    },
    index: (l, a, k) => {
      noKeywords(`${kind}.index`, k);
      arity('index', a, 1, 3);
      let from = optIndex(a[1]) ?? 0;
      let to = optIndex(a[2]) ?? l.length;
      if (from < 0) from = Math.max(0, from + l.length);
      if (to < 0) to = Math.max(0, to + l.length);
      for (let i = from; i < Math.min(to, l.length); i++) if (pyEquals(l[i], a[0])) return i;
      throw new JinjaError('ValueError', kind === 'list' ? `${pyRepr(a[0])} is not in list` : 'tuple.index(x): x not in tuple');
    },
  };
}
const LIST_METHODS = { ...seqMethods('list'), copy: ((l, a, k) => (noKeywords('list.copy', k), arity('list.copy', a, 0, 0), [...l])) as Method<readonly PyObject[]> };
const TUPLE_METHODS = seqMethods('tuple');

/** int's methods and value attributes. */
const INT_METHODS: Readonly<Record<string, Method<number | bigint>>> = {
  conjugate: (n, a) => (arity('int.conjugate', a, 0, 0), n),
  bit_length: (n, a) => (arity('int.bit_length', a, 0, 0), n === 0 || n === 0n ? 0 : (BigInt(n) < 0n ? -BigInt(n) : BigInt(n)).toString(2).length),
  bit_count: (n, a) => (arity('int.bit_count', a, 0, 0), [...(BigInt(n) < 0n ? -BigInt(n) : BigInt(n)).toString(2)].filter((c) => c === '1').length),
  as_integer_ratio: (n, a) => (arity('int.as_integer_ratio', a, 0, 0), new PyTuple([n, 1])),
};

/** float's methods. */
const FLOAT_METHODS: Readonly<Record<string, Method<number>>> = {
  conjugate: (x, a) => (arity('float.conjugate', a, 0, 0), new PyFloat(x)),
  is_integer: (x, a) => (arity('float.is_integer', a, 0, 0), Number.isInteger(x)),
};

// The attribute names Python's builtin types have (dir()): a name here without an implementation is Unsupported.
const COMMON_DUNDERS = '__class__ __delattr__ __dir__ __doc__ __eq__ __format__ __ge__ __getattribute__ __getstate__ __gt__ __hash__ __init__ __init_subclass__ __le__ __lt__ __ne__ __new__ __reduce__ __reduce_ex__ __repr__ __setattr__ __sizeof__ __str__ __subclasshook__';
const NAMES = (s: string) => new Set(`${COMMON_DUNDERS} ${s}`.split(' '));
const STR_NAMES = NAMES('__add__ __contains__ __getitem__ __getnewargs__ __iter__ __len__ __mod__ __mul__ __rmod__ __rmul__ capitalize casefold center count encode endswith expandtabs find format format_map index isalnum isalpha isascii isdecimal isdigit isidentifier islower isnumeric isprintable isspace istitle isupper join ljust lower lstrip maketrans partition removeprefix removesuffix replace rfind rindex rjust rpartition rsplit rstrip split splitlines startswith strip swapcase title translate upper zfill');
const MARKUP_NAMES = new Set([...STR_NAMES, '__html__', '__html_format__', 'escape', 'striptags', 'unescape']);
const DICT_NAMES = NAMES('__class_getitem__ __contains__ __delitem__ __getitem__ __ior__ __iter__ __len__ __or__ __reversed__ __ror__ __setitem__ clear copy fromkeys get items keys pop popitem setdefault update values');
const LIST_NAMES = NAMES('__add__ __class_getitem__ __contains__ __delitem__ __getitem__ __iadd__ __imul__ __iter__ __len__ __mul__ __reversed__ __rmul__ __setitem__ append clear copy count extend index insert pop remove reverse sort');
const TUPLE_NAMES = NAMES('__add__ __class_getitem__ __contains__ __getitem__ __getnewargs__ __iter__ __len__ __mul__ __rmul__ count index');
const INT_NAMES = NAMES('__abs__ __add__ __and__ __bool__ __ceil__ __divmod__ __float__ __floor__ __floordiv__ __getnewargs__ __index__ __int__ __invert__ __lshift__ __mod__ __mul__ __neg__ __or__ __pos__ __pow__ __radd__ __rand__ __rdivmod__ __rfloordiv__ __rlshift__ __rmod__ __rmul__ __ror__ __round__ __rpow__ __rrshift__ __rshift__ __rsub__ __rtruediv__ __rxor__ __sub__ __truediv__ __trunc__ __xor__ as_integer_ratio bit_count bit_length conjugate denominator from_bytes imag numerator real to_bytes');
const FLOAT_NAMES = NAMES('__abs__ __add__ __bool__ __ceil__ __divmod__ __float__ __floor__ __floordiv__ __getformat__ __getnewargs__ __int__ __mod__ __mul__ __neg__ __pos__ __pow__ __radd__ __rdivmod__ __rfloordiv__ __rmod__ __rmul__ __round__ __rpow__ __rsub__ __rtruediv__ __sub__ __truediv__ __trunc__ as_integer_ratio conjugate fromhex hex imag is_integer real');
const NONE_NAMES = NAMES('__bool__');
/** dict and list methods the immutable sandbox refuses (they modify the object). */
const MUTATING_DICT = new Set(['clear', 'pop', 'popitem', 'setdefault', 'update']);
const MUTATING_LIST = new Set(['append', 'clear', 'pop', 'reverse', 'insert', 'sort', 'extend', 'remove']);

/** A bound method that raises Unsupported when called (Python has it; this engine does not reproduce it). */
function unsupportedMethod(type: string, name: string): PyFunction {
  return new PyFunction(name, 'builtin_function_or_method', () => {
    throw new EngineUnsupported(`${type}.${name}() is not reproduced by the template engine`);
  });
}

/** A bound method of a builtin receiver. */
function bind<T>(self: T, name: string, m: Method<T>): PyFunction {
  return new PyFunction(name, 'builtin_function_or_method', (args, kwargs) => m(self, args, kwargs));
}

/** The int, float or neither a number is. */
function numberKind(v: PyObject): 'int' | 'float' | undefined {
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return 'int';
  if (v instanceof PyFloat) return 'float';
  if (v instanceof JsonNumber) return isPyFloat(v) ? 'float' : 'int';
  return undefined;
}

/**
 * `getattr(obj, name)` on a builtin value as the immutable sandbox gives it: a bound method, a
 * value attribute (`int.real`), the unsafe Undefined for a mutating or underscore attribute, or
 * undefined when Python has no such attribute (AttributeError).
 */
export function attributeOf(obj: PyObject, name: string): PyObject | undefined {
  if (typeof obj === 'string') {
    if (!STR_NAMES.has(name)) return undefined;
    if (name.startsWith('_')) return unsafeUndefined(obj, name);
    const m = STR_METHODS[name];
    return m !== undefined ? bind(obj, name, m) : unsupportedMethod('str', name);
  }
  if (obj instanceof Map) {
    if (!DICT_NAMES.has(name)) return undefined;
    if (name.startsWith('_') || MUTATING_DICT.has(name)) return unsafeUndefined(obj, name);
    return bind(obj as ReadonlyMap<PyObject, PyObject>, name, DICT_METHODS[name]);
  }
  if (Array.isArray(obj)) {
    if (!LIST_NAMES.has(name)) return undefined;
    if (name.startsWith('_') || MUTATING_LIST.has(name)) return unsafeUndefined(obj, name);
    return bind(obj as readonly PyObject[], name, (LIST_METHODS as Record<string, Method<readonly PyObject[]>>)[name]);
  }
  if (obj instanceof PyTuple) {
    if (!TUPLE_NAMES.has(name)) return undefined;
    if (name.startsWith('_')) return unsafeUndefined(obj, name);
    return bind(obj.items, name, TUPLE_METHODS[name]);
  }
  if (obj instanceof Markup) {
    if (!MARKUP_NAMES.has(name)) return undefined;
    if (name.startsWith('_')) return unsafeUndefined(obj, name);
    if (STR_METHODS[name] === undefined) return unsupportedMethod('Markup', name);
    return new PyFunction(name, 'builtin_function_or_method', (args, kwargs) => markupMethod(obj, name, args, kwargs));
  }
  if (obj === null) return NONE_NAMES.has(name) ? unsafeUndefined(obj, name) : undefined;
  const kind = numberKind(obj);
  if (kind !== undefined) {
    if (!(kind === 'int' ? INT_NAMES : FLOAT_NAMES).has(name)) return undefined;
    if (name.startsWith('_')) return unsafeUndefined(obj, name);
    const n = pyNumber(obj) as number | bigint | PyFloat;
    if (kind === 'int') {
      const i = n as number | bigint;
      switch (name) {
        case 'real':
        case 'numerator':
          return i;
        case 'imag':
          return 0;
        case 'denominator':
          return 1;
      }
      const m = INT_METHODS[name];
      return m !== undefined ? bind(i, name, m) : unsupportedMethod('int', name);
    }
    const x = (n as PyFloat).value;
    if (name === 'real') return new PyFloat(x);
    if (name === 'imag') return new PyFloat(0);
    const m = FLOAT_METHODS[name];
    return m !== undefined ? bind(x, name, m) : unsupportedMethod('float', name);
  }
  return undefined;
}

/**
 * `obj.name(*args, **kwargs)` without making the bound method, where `obj.name` is a builtin
 * method of a str, dict or list; undefined when it is not (the caller then looks the attribute up).
 */
export function callMethod(obj: PyObject, name: string, args: readonly PyObject[], kwargs: ReadonlyMap<string, PyObject> | undefined): PyObject | undefined {
  if (typeof obj === 'string') {
    const m = STR_METHODS[name];
    return m !== undefined ? m(obj, args, kwargs) : undefined;
  }
  if (obj instanceof Map) {
    const m = DICT_METHODS[name];
    return m !== undefined ? m(obj as ReadonlyMap<PyObject, PyObject>, args, kwargs) : undefined;
  }
  if (obj instanceof Markup && STR_METHODS[name] !== undefined) return markupMethod(obj, name, args, kwargs);
  return undefined;
}
