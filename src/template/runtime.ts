/**
 * The template runtime: scopes, Jinja2's sandboxed attribute and item access (`a.b` tries the
 * attribute then the item, `a['b']` the item then the attribute; the mutating methods of list and
 * dict are unsafe), calls, unpacking, and the objects a template meets at run time: loops,
 * macros, namespaces, cyclers, joiners, ranges, generators (the lazy results of `map`,
 * `select`…), dict views and bound methods.
 */
import { JsonNumber } from '../ir/json.js';
import { EngineUnsupported, JinjaError } from '../emit/python/errors.js';
import { Markup, MISSING, PyInstance, PyTuple, Undefined, type PyObject } from '../emit/python/objects.js';
import { isPyInt, jsonNumberValue, pyIter, pyNumber } from '../emit/python/operators.js';
import { codePoints, hasSurrogates, pySliceString, sliceBounds, type PyDate } from '../emit/python/strings.js';
import { pyEquals, pyRepr, pyReprString, pyTypeName } from '../emit/python/values.js';
import { attributeOf, callMethod } from './methods.js';

/** What one render shares: the variables it was given, the globals, today's date, the macro depth. */
export class RenderState {
  /** How deep macro calls are nested now (RecursionError past the limit). */
  depth = 0;
  constructor(
    /** The render's variables. */
    readonly vars: ReadonlyMap<string, PyObject>,
    /** The globals (range, dict, namespace, raise_exception, strftime_now…). */
    readonly globals: ReadonlyMap<string, PyObject>,
    /** `strftime_now`'s date. */
    readonly today: PyDate,
  ) {}
}

/**
 * A scope: the variables a frame sets (the template, one iteration of a for loop, a macro call,
 * a call or filter block), over the scope it is nested in. A name not set anywhere is a render
 * variable, then a global, then Undefined.
 */
export class Scope {
  /** The variables set in this frame (made on the first set). */
  vars: Map<string, PyObject> | undefined = undefined;
  constructor(
    /** The enclosing scope. */
    readonly parent: Scope | undefined,
    /** The render it belongs to. */
    readonly state: RenderState,
  ) {}

  /** A name's value (Undefined when it is nowhere). */
  get(name: string): PyObject {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    let s: Scope | undefined = this;
    do {
      const v = s.vars?.get(name);
      if (v !== undefined) return v;
      s = s.parent;
    } while (s !== undefined);
    let v = this.state.vars.get(name);
    if (v === undefined) v = this.state.globals.get(name);
    return v !== undefined ? v : new Undefined(undefined, MISSING, name);
  }

  /** Set a name in this frame. */
  set(name: string, value: PyObject): void {
    (this.vars ??= new Map()).set(name, value);
  }
}

// ---------------------------------------------------------------------------------------
// Attribute and item access (the sandbox's getattr and getitem)

/** The Undefined the sandbox returns for an attribute it refuses (using it raises SecurityError). */
export function unsafeUndefined(obj: PyObject, name: string): Undefined {
  return new Undefined(`access to attribute ${pyReprString(name)} of ${pyReprString(pyTypeName(obj))} object is unsafe.`, obj, name, 'SecurityError');
}

/** `obj[key]` as Python does it, or undefined where Python raises TypeError or LookupError. */
function item(obj: PyObject, key: PyObject): PyObject | undefined {
  if (obj instanceof Map) {
    const m = obj as ReadonlyMap<PyObject, PyObject>;
    if (typeof key === 'string') return m.get(key);
    return mapGet(m, key);
  }
  if (Array.isArray(obj)) return sequenceItem(obj as readonly PyObject[], key);
  if (typeof obj === 'string') {
    const i = indexOf(key);
    if (i === undefined) return undefined;
    if (!hasSurrogates(obj)) {
      const j = i < 0 ? i + obj.length : i;
      return j >= 0 && j < obj.length ? obj[j] : undefined;
    }
    return codePoints(obj).at(i);
  }
  if (obj instanceof PyTuple) return sequenceItem(obj.items, key);
  if (obj instanceof Markup) {
    // Markup.__getitem__ gives Markup
    const v = item(obj.text, key);
    return typeof v === 'string' ? new Markup(v) : v;
  }
  if (obj instanceof PyInstance) return obj.pyGetItem(key);
  return undefined;
}

/** A dict member by a key that is not a str (`1`, `1.0` and `True` are the same key). */
function mapGet(m: ReadonlyMap<PyObject, PyObject>, key: PyObject): PyObject | undefined {
  if (Array.isArray(key) || key instanceof Map) return undefined;
  const n = pyNumber(key);
  for (const [k, v] of m) {
    if (k === key) return v;
    if (n !== undefined ? pyNumber(k) !== undefined && pyEquals(k, key) : pyEquals(k, key)) return v;
  }
  return undefined;
}

/** An int index (a bool is one), or undefined. */
function indexOf(key: PyObject): number | undefined {
  if (typeof key === 'number') return key;
  if (typeof key === 'boolean') return key ? 1 : 0;
  if (key instanceof JsonNumber && isPyInt(key)) {
    const n = jsonNumberValue(key);
    return typeof n === 'number' ? n : undefined;
  }
  return undefined;
}

function sequenceItem(items: readonly PyObject[], key: PyObject): PyObject | undefined {
  const i = indexOf(key);
  if (i === undefined) return undefined;
  const j = i < 0 ? i + items.length : i;
  return j >= 0 && j < items.length ? items[j] : undefined;
}

/** The attributes of Jinja2's Undefined class (dir(Undefined)). */
const UNDEFINED_ATTRS = new Set(
  '__add__ __aiter__ __bool__ __call__ __class__ __complex__ __delattr__ __dir__ __div__ __doc__ __eq__ __float__ __floordiv__ __format__ __ge__ __getattr__ __getattribute__ __getitem__ __getstate__ __gt__ __hash__ __init__ __init_subclass__ __int__ __iter__ __le__ __len__ __lt__ __mod__ __module__ __mul__ __ne__ __neg__ __new__ __pos__ __pow__ __radd__ __rdiv__ __reduce__ __reduce_ex__ __repr__ __rfloordiv__ __rmod__ __rmul__ __rpow__ __rsub__ __rtruediv__ __setattr__ __sizeof__ __slots__ __str__ __sub__ __subclasshook__ __truediv__ _fail_with_undefined_error _undefined_exception _undefined_hint _undefined_message _undefined_name _undefined_obj'.split(' '),
);

/** Jinja2's getattr: the attribute (a method, sandboxed), else the item, else Undefined; Undefined itself raises. */
export function getAttr(obj: PyObject, name: string): PyObject {
  if (obj instanceof Map) {
    const a = attributeOf(obj, name);
    if (a !== undefined) return a;
    const v = (obj as ReadonlyMap<PyObject, PyObject>).get(name);
    return v !== undefined ? v : new Undefined(undefined, obj, name);
  }
  if (obj instanceof Undefined) {
    // Undefined's own attributes exist (and are unsafe); any other name raises its error
    if (UNDEFINED_ATTRS.has(name)) return unsafeUndefined(obj, name);
    obj.fail();
  }
  if (obj instanceof GroupTuple && (name === 'grouper' || name === 'list')) return obj.items[name === 'grouper' ? 0 : 1];
  if (obj instanceof PyInstance) {
    const v = obj.pyGetAttr(name);
    if (v !== undefined) return name.startsWith('_') ? unsafeUndefined(obj, name) : v;
    const i = obj.pyGetItem(name);
    return i !== undefined ? i : new Undefined(undefined, obj, name);
  }
  const a = attributeOf(obj, name);
  if (a !== undefined) return a;
  const i = item(obj, name);
  return i !== undefined ? i : new Undefined(undefined, obj, name);
}

/** Jinja2's getitem: the item, else (for a str key) the attribute, else Undefined; Undefined itself raises. */
export function getItem(obj: PyObject, key: PyObject): PyObject {
  if (obj instanceof Map && typeof key === 'string') {
    const v = (obj as ReadonlyMap<PyObject, PyObject>).get(key);
    if (v !== undefined) return v;
  } else {
    if (obj instanceof Undefined) obj.fail();
    const v = item(obj, key);
    if (v !== undefined) return v;
  }
  if (typeof key === 'string') {
    const a = obj instanceof PyInstance ? obj.pyGetAttr(key) : attributeOf(obj, key);
    if (a !== undefined) return key.startsWith('_') && obj instanceof PyInstance ? unsafeUndefined(obj, key) : a;
  }
  return new Undefined(undefined, obj, key);
}

/** groupby's `_GroupTuple`: a `(grouper, list)` named tuple (printed as a tuple). */
export class GroupTuple extends PyTuple {
  constructor(grouper: PyObject, list: PyObject[]) {
    super([grouper, list]);
  }
}

/** A Python `slice` object. */
class PySlice extends PyInstance {
  override readonly pyClass = 'slice';
  constructor(readonly start: PyObject, readonly stop: PyObject, readonly step: PyObject) {
    super();
  }
  override pyRepr(): string {
    return `slice(${pyRepr(this.start)}, ${pyRepr(this.stop)}, ${pyRepr(this.step)})`;
  }
}

/** A slice bound: an int, None (absent), or undefined when Python would raise TypeError. */
function sliceIndex(v: PyObject): number | null | undefined {
  if (v === null) return null;
  const i = indexOf(v);
  if (i !== undefined) return i;
  if (typeof v === 'bigint') return Number(v);
  return undefined;
}

/** The Undefined the sandbox's getitem gives for a slice Python refuses (`int object has no element slice(1, None, None)`). */
export function sliceUndefined(obj: PyObject, start: PyObject, stop: PyObject, step: PyObject): Undefined {
  return new Undefined(undefined, obj, new PySlice(start, stop, step));
}

/** `obj[start:stop:step]`: Jinja2 compiles a slice to Python's own subscript, not the sandbox's getitem, so its errors are raised. */
export function getSlice(obj: PyObject, start: PyObject, stop: PyObject, step: PyObject): PyObject {
  if (obj instanceof Undefined) obj.fail();
  const seqLike = typeof obj === 'string' || obj instanceof Markup || Array.isArray(obj) || obj instanceof PyTuple || obj instanceof PyRange;
  if (!seqLike) {
    if (obj instanceof Map) throw new JinjaError('TypeError', "unhashable type: 'slice'");
    if (obj instanceof PyInstance && obj.pyGetItem(new PySlice(start, stop, step)) !== undefined) return obj.pyGetItem(new PySlice(start, stop, step)) as PyObject;
    throw new JinjaError('TypeError', `'${pyTypeName(obj)}' object is not subscriptable`);
  }
  const a = sliceIndex(start);
  const b = sliceIndex(stop);
  const c = sliceIndex(step);
  if (a === undefined || b === undefined || c === undefined) throw new JinjaError('TypeError', 'slice indices must be integers or None or have an __index__ method');
  const k = c ?? 1;
  if (k === 0) throw new JinjaError('ValueError', 'slice step cannot be zero');
  if (typeof obj === 'string') return pySliceString(obj, a ?? undefined, b ?? undefined, k);
  if (obj instanceof Markup) return new Markup(pySliceString(obj.text, a ?? undefined, b ?? undefined, k));
  if (obj instanceof PyRange) {
    // a range sliced is a range
    const [from, to] = sliceBounds(obj.pyLen(), a ?? undefined, b ?? undefined, k);
    return new PyRange(obj.start + from * obj.step, obj.start + to * obj.step, obj.step * k);
  }
  const items = Array.isArray(obj) ? (obj as readonly PyObject[]) : (obj as PyTuple).items;
  const [from, to] = sliceBounds(items.length, a ?? undefined, b ?? undefined, k);
  const out: PyObject[] = [];
  if (k > 0) for (let i = from; i < to; i += k) out.push(items[i]);
  else for (let i = from; i > to; i += k) out.push(items[i]);
  return obj instanceof PyTuple ? new PyTuple(out) : out;
}

/** `f(*args, **kwargs)`: a macro, function or method; Undefined raises its error; anything else is not callable. */
export function callValue(f: PyObject, args: readonly PyObject[], kwargs: ReadonlyMap<string, PyObject> | undefined): PyObject {
  if (f instanceof PyInstance && f.pyCallable) return f.pyCall(args, kwargs);
  if (f instanceof Undefined) f.fail();
  throw new JinjaError('TypeError', `'${pyTypeName(f)}' object is not callable`);
}

/** `obj.name(*args, **kwargs)`: a builtin method called directly where the attribute is one, else the attribute called. */
export function callAttr(obj: PyObject, name: string, args: readonly PyObject[], kwargs: ReadonlyMap<string, PyObject> | undefined): PyObject {
  const r = callMethod(obj, name, args, kwargs);
  if (r !== undefined) return r;
  return callValue(getAttr(obj, name), args, kwargs);
}

/** Unpack a value into `n` targets, with Python's ValueError and TypeError texts. */
export function unpack(v: PyObject, n: number): readonly PyObject[] {
  let items: readonly PyObject[];
  if (Array.isArray(v)) items = v as readonly PyObject[];
  else if (v instanceof PyTuple) items = v.items;
  else {
    try {
      items = [...pyIter(v)];
    } catch (e) {
      if (e instanceof JinjaError && e.errorType === 'TypeError') throw new JinjaError('TypeError', `cannot unpack non-iterable ${pyTypeName(v)} object`);
      throw e;
    }
  }
  if (items.length < n) throw new JinjaError('ValueError', `not enough values to unpack (expected ${n}, got ${items.length})`);
  if (items.length > n) throw new JinjaError('ValueError', `too many values to unpack (expected ${n})`);
  return items;
}

// ---------------------------------------------------------------------------------------
// The objects of the runtime

/** An object whose Python repr holds a memory address: printing it has no fixed text. */
function addressRepr(what: string): never {
  throw new EngineUnsupported(`the template prints ${what}, whose Python repr holds a memory address (no fixed text exists)`);
}

/** A callable Python function or builtin (`raise_exception`, `range`, a method bound to its object). */
export class PyFunction extends PyInstance {
  constructor(
    /** Its `__name__`. */
    readonly name: string,
    /** `function` or `builtin_function_or_method`. */
    override readonly pyClass: string,
    private readonly fn: (args: readonly PyObject[], kwargs: ReadonlyMap<string, PyObject> | undefined) => PyObject,
  ) {
    super();
  }
  override pyRepr(): string {
    return addressRepr(`the function ${this.name}`);
  }
  override get pyCallable(): boolean {
    return true;
  }
  override pyCall(args: readonly PyObject[], kwargs: ReadonlyMap<string, PyObject> | undefined): PyObject {
    return this.fn(args, kwargs);
  }
}

/** A lazy iterator (a generator object: what `map`, `select`, `items`, `unique`… return): true, no length, consumed once. */
export class PyGenerator extends PyInstance {
  override readonly pyClass = 'generator';
  constructor(
    /** The function that made it (`sync_do_map`…). */
    readonly name: string,
    private readonly it: Iterator<PyObject>,
  ) {
    super();
  }
  override pyRepr(): string {
    return addressRepr(`a generator object (${this.name})`);
  }
  override pyIter(): Iterable<PyObject> {
    return { [Symbol.iterator]: () => this.it };
  }
}

/** A Python `range` (Jinja2's sandbox refuses one longer than 100000). */
export class PyRange extends PyInstance {
  override readonly pyClass = 'range';
  constructor(
    readonly start: number,
    readonly stop: number,
    readonly step: number,
  ) {
    super();
  }
  /** Its length. */
  override pyLen(): number {
    const n = this.step > 0 ? Math.ceil((this.stop - this.start) / this.step) : Math.ceil((this.start - this.stop) / -this.step);
    return Math.max(0, n);
  }
  /** Its values. */
  *values(): Generator<number> {
    const n = this.pyLen();
    for (let i = 0; i < n; i++) yield this.start + i * this.step;
  }
  override pyIter(): Iterable<PyObject> {
    return this.values();
  }
  override pyGetItem(key: PyObject): PyObject | undefined {
    const i = indexOf(key);
    if (i === undefined) return undefined;
    const n = this.pyLen();
    const j = i < 0 ? i + n : i;
    return j >= 0 && j < n ? this.start + j * this.step : undefined;
  }
  override pyGetAttr(name: string): PyObject | undefined {
    if (name === 'start' || name === 'stop' || name === 'step') return this[name];
    return undefined;
  }
  override pyRepr(): string {
    return this.step === 1 ? `range(${this.start}, ${this.stop})` : `range(${this.start}, ${this.stop}, ${this.step})`;
  }
  override pyEquals(other: PyObject): boolean {
    if (!(other instanceof PyRange)) return false;
    const a = [...this.values()];
    const b = [...other.values()];
    return a.length === b.length && a.every((x, i) => x === b[i]);
  }
}

/** A dict's `items()`, `keys()` or `values()` view. */
export class DictView extends PyInstance {
  constructor(
    readonly dict: ReadonlyMap<PyObject, PyObject>,
    readonly which: 'items' | 'keys' | 'values',
  ) {
    super();
  }
  override get pyClass(): string {
    return `dict_${this.which}`;
  }
  override pyLen(): number {
    return this.dict.size;
  }
  *entries(): Generator<PyObject> {
    for (const [k, v] of this.dict) yield this.which === 'items' ? new PyTuple([k, v]) : this.which === 'keys' ? k : v;
  }
  override pyIter(): Iterable<PyObject> {
    return this.entries();
  }
  override pyRepr(): string {
    return `${this.pyClass}([${[...this.entries()].map(pyRepr).join(', ')}])`;
  }
}

/** Jinja2's `Namespace`: attributes set with `{% set ns.x = … %}`. */
export class Namespace extends PyInstance {
  override readonly pyClass = 'Namespace';
  /** Its attributes, in order. */
  readonly attrs = new Map<string, PyObject>();
  override get pyModule(): string {
    return 'jinja2.utils';
  }
  override pyGetAttr(name: string): PyObject | undefined {
    return this.attrs.get(name);
  }
  override pyRepr(): string {
    return `<Namespace ${pyRepr(this.attrs)}>`;
  }
}

/** Jinja2's `Cycler` (`cycler(a, b)`: `.next()`, `.current`, `.reset()`). */
export class Cycler extends PyInstance {
  override readonly pyClass = 'Cycler';
  private pos = 0;
  constructor(private readonly items: readonly PyObject[]) {
    super();
  }
  override get pyModule(): string {
    return 'jinja2.utils';
  }
  override pyRepr(): string {
    return addressRepr('a cycler');
  }
  override pyGetAttr(name: string): PyObject | undefined {
    switch (name) {
      case 'items':
        return [...this.items];
      case 'pos':
        return this.pos;
      case 'current':
        return this.items[this.pos];
      case 'next':
        return new PyFunction('next', 'method', () => {
          const rv = this.items[this.pos];
          this.pos = (this.pos + 1) % this.items.length;
          return rv;
        });
      case 'reset':
        return new PyFunction('reset', 'method', () => {
          this.pos = 0;
          return null;
        });
      default:
        return undefined;
    }
  }
}

/** Jinja2's `Joiner`: empty on the first call, the separator after. */
export class Joiner extends PyInstance {
  override readonly pyClass = 'Joiner';
  private used = false;
  constructor(private readonly sep: PyObject) {
    super();
  }
  override get pyModule(): string {
    return 'jinja2.utils';
  }
  override pyRepr(): string {
    return addressRepr('a joiner');
  }
  override get pyCallable(): boolean {
    return true;
  }
  override pyCall(): PyObject {
    if (!this.used) {
      this.used = true;
      return '';
    }
    return this.sep;
  }
}

/** How a macro's body runs: the bound arguments (MISSING where not given) and the special `caller`, `kwargs`, `varargs`. */
export type MacroBody = (args: (PyObject | typeof MISSING)[], caller: PyObject | undefined, kwargs: Map<string, PyObject> | undefined, varargs: PyTuple | undefined) => string;

/** Jinja2's `Macro`: a `{% macro %}` or a call block's `caller`, bound as `Macro.__call__` binds its arguments. */
export class Macro extends PyInstance {
  override readonly pyClass = 'Macro';
  constructor(
    /** Its name (null for a call block's caller). */
    readonly name: string | null,
    /** Its declared arguments. */
    readonly args: readonly string[],
    /** It reads `kwargs`. */
    readonly catchKwargs: boolean,
    /** It reads `varargs`. */
    readonly catchVarargs: boolean,
    /** It reads `caller`. */
    readonly caller: boolean,
    private readonly body: MacroBody,
  ) {
    super();
  }
  override get pyModule(): string {
    return 'jinja2.runtime';
  }
  override pyRepr(): string {
    return `<Macro ${this.name === null ? 'anonymous' : pyReprString(this.name)}>`;
  }
  override get pyCallable(): boolean {
    return true;
  }
  override pyGetAttr(name: string): PyObject | undefined {
    switch (name) {
      case 'name':
        return this.name;
      case 'arguments':
        return new PyTuple([...this.args]);
      case 'catch_kwargs':
        return this.catchKwargs;
      case 'catch_varargs':
        return this.catchVarargs;
      case 'caller':
        return this.caller;
      default:
        return undefined;
    }
  }
  override pyCall(args: readonly PyObject[], kwargsIn: ReadonlyMap<string, PyObject> | undefined): PyObject {
    const argc = this.args.length;
    if ((kwargsIn === undefined || kwargsIn.size === 0) && args.length <= argc) {
      // the common call: positional arguments only, none too many (what the general path below
      // does then, without its copies: the rest are missing; `caller`, when the macro reads it
      // and does not declare it, is undefined; nothing can raise)
      const bound: (PyObject | typeof MISSING)[] = args.slice();
      while (bound.length < argc) bound.push(MISSING);
      const caller = this.caller ? new Undefined('No caller defined', MISSING, 'caller') : undefined;
      return this.body(bound, caller, this.catchKwargs ? new Map() : undefined, this.catchVarargs ? new PyTuple([]) : undefined);
    }
    const kwargs = new Map(kwargsIn ?? []);
    const bound: (PyObject | typeof MISSING)[] = args.slice(0, argc);
    let foundCaller = false;
    if (bound.length !== argc) {
      for (const name of this.args.slice(bound.length)) {
        const v = kwargs.get(name);
        kwargs.delete(name);
        if (name === 'caller') foundCaller = true;
        bound.push(v === undefined ? MISSING : v);
      }
    } else foundCaller = this.args.includes('caller');
    let caller: PyObject | undefined;
    if (this.caller && !foundCaller) {
      const c = kwargs.get('caller');
      kwargs.delete('caller');
      caller = c === undefined || c === null ? new Undefined('No caller defined', MISSING, 'caller') : c;
    }
    const name = this.name === null ? 'None' : pyReprString(this.name);
    if (!this.catchKwargs && kwargs.size) {
      if (kwargs.has('caller')) throw new JinjaError('TypeError', `macro ${name} was invoked with two values for the special caller argument. This is most likely a bug.`);
      throw new JinjaError('TypeError', `macro ${name} takes no keyword argument ${pyReprString(kwargs.keys().next().value as string)}`);
    }
    if (!this.catchVarargs && args.length > argc) throw new JinjaError('TypeError', `macro ${name} takes not more than ${argc} argument(s)`);
    return this.body(bound, caller, this.catchKwargs ? kwargs : undefined, this.catchVarargs ? new PyTuple(args.slice(argc)) : undefined);
  }
}

/**
 * Jinja2's `LoopContext`: the `loop` variable. It pulls items lazily from its source (a list, or
 * an iterator such as a filtered loop's), so `loop.length` and `loop.last` read ahead only when
 * asked, as Jinja2's does.
 */
export class Loop extends PyInstance {
  override readonly pyClass = 'LoopContext';
  /** The current iteration, from 0. */
  index0 = -1;
  private readonly items: PyObject[];
  private it: Iterator<PyObject> | undefined;
  private lastChanged: PyObject[] | undefined;
  constructor(
    source: readonly PyObject[] | Iterator<PyObject>,
    /** How deep a recursive loop is, from 0. */
    readonly depth0: number,
    /** The loop body, for a `recursive` loop (`loop(children)`). */
    private readonly recurse: ((iterable: PyObject, depth: number) => string) | undefined,
  ) {
    super();
    if (Array.isArray(source)) {
      this.items = source as PyObject[];
      this.it = undefined;
    } else {
      this.items = [];
      this.it = source as Iterator<PyObject>;
    }
  }
  override get pyModule(): string {
    return 'jinja2.runtime';
  }
  /** The next item, or MISSING at the end (advances index0). */
  next(): PyObject | typeof MISSING {
    const i = this.index0 + 1;
    if (i >= this.items.length && !this.pull()) return MISSING;
    this.index0 = i;
    return this.items[i];
  }
  /** Pull one more item from an iterator source. */
  private pull(): boolean {
    if (this.it === undefined) return false;
    const r = this.it.next();
    if (r.done) {
      this.it = undefined;
      return false;
    }
    (this.items as PyObject[]).push(r.value);
    return true;
  }
  /** The number of items (reads the whole source). */
  get length(): number {
    while (this.pull());
    return this.items.length;
  }
  /** True on the last iteration (reads one item ahead). */
  get last(): boolean {
    return this.index0 + 1 >= this.items.length && !this.pull();
  }
  override pyLen(): number {
    return this.length;
  }
  override pyRepr(): string {
    return `<LoopContext ${this.index0 + 1}/${this.length}>`;
  }
  override get pyCallable(): boolean {
    return true;
  }
  override pyCall(args: readonly PyObject[]): PyObject {
    if (this.recurse === undefined) throw new JinjaError('TypeError', "The loop must have the 'recursive' marker to be called recursively.");
    if (args.length !== 1) throw new JinjaError('TypeError', `LoopContext.__call__() takes 2 positional arguments but ${args.length + 1} were given`);
    return this.recurse(args[0], this.depth0 + 1);
  }
  override pyGetAttr(name: string): PyObject | undefined {
    switch (name) {
      case 'index0':
        return this.index0;
      case 'index':
        return this.index0 + 1;
      case 'revindex0':
        return this.length - this.index0 - 1;
      case 'revindex':
        return this.length - this.index0;
      case 'first':
        return this.index0 === 0;
      case 'last':
        return this.last;
      case 'length':
        return this.length;
      case 'depth0':
        return this.depth0;
      case 'depth':
        return this.depth0 + 1;
      case 'previtem':
        return this.index0 === 0 ? new Undefined('there is no previous item') : this.items[this.index0 - 1];
      case 'nextitem':
        return this.last ? new Undefined('there is no next item') : this.items[this.index0 + 1];
      case 'cycle':
        return new PyFunction('cycle', 'method', (args) => {
          if (!args.length) throw new JinjaError('TypeError', 'no items for cycling given');
          return args[this.index0 % args.length];
        });
      case 'changed':
        return new PyFunction('changed', 'method', (args) => {
          const same = this.lastChanged !== undefined && this.lastChanged.length === args.length && this.lastChanged.every((v, i) => pyEquals(v, args[i]));
          if (same) return false;
          this.lastChanged = [...args];
          return true;
        });
      default:
        return undefined;
    }
  }
}
