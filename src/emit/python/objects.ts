/**
 * The Python objects a template meets beyond the ones `json.loads` makes: ints and floats made at
 * run time, tuples, MarkupSafe's Markup, Jinja2's Undefined, and the objects a template engine
 * defines (namespaces, loops, macros, functions), each a {@link PyInstance} that says how Python
 * treats it (its type, repr, truthiness, length, iteration, attributes, call).
 */
import type { JsonValue } from '../../ir/json.js';
import { JinjaError } from './errors.js';
import { pyRepr, pyReprString, pyTypeName } from './values.js';

/** A Python float made at run time (a float read from JSON stays a JsonNumber with its text). */
export class PyFloat {
  constructor(
    /** The double. */
    readonly value: number,
  ) {}
}

/** A Python tuple. */
export class PyTuple {
  constructor(
    /** Its items. */
    readonly items: readonly PyObject[],
  ) {}
}

/** MarkupSafe's `Markup`: a `str` subclass whose `+`, `%`, `join` and `format` escape what is not Markup. */
export class Markup {
  constructor(
    /** The text, already safe. */
    readonly text: string,
  ) {}
}

/** Jinja2's `missing` sentinel: an Undefined made for a name, not for an owner's attribute. */
export const MISSING: unique symbol = Symbol('missing');

/**
 * Jinja2's default `Undefined`: prints empty, is false, iterates empty, has length 0; anything
 * else (attribute, item, call, arithmetic, ordering) raises its error with Jinja2's message.
 */
export class Undefined {
  constructor(
    /** A message of its own (`there is no next item`), else the message is made from owner and name. */
    readonly hint: string | undefined,
    /** The object the name was looked up on, or MISSING for a plain name. */
    readonly owner: PyObject | typeof MISSING = MISSING,
    /** The name or key looked up. */
    readonly name: PyObject | undefined = undefined,
    /** The exception it raises when used: `UndefinedError`, or `SecurityError` for an unsafe attribute. */
    readonly exc: string = 'UndefinedError',
  ) {}

  /** Jinja2's `_undefined_message`. */
  get message(): string {
    if (this.hint) return this.hint;
    if (this.owner === MISSING) return `${reprName(this.name)} is undefined`;
    // an item that is not a str key: `list object has no element 3` (no quotes around the owner)
    if (typeof this.name !== 'string') return `${objectTypeRepr(this.owner)} has no element ${reprName(this.name)}`;
    return `${quote(objectTypeRepr(this.owner))} has no attribute ${quote(this.name)}`;
  }

  /** The error raised where the value is used. */
  error(): JinjaError {
    return new JinjaError(this.exc, this.message);
  }

  /** Raise the error (`_fail_with_undefined_error`). */
  fail(): never {
    throw this.error();
  }
}

/** A Python object the engine defines: its class name and how Python treats it. */
export abstract class PyInstance {
  /** `type(x).__name__`. */
  abstract readonly pyClass: string;
  /** `type(x).__module__` (`builtins` for functions and methods). */
  get pyModule(): string {
    return 'builtins';
  }
  /** `repr(x)`; an object whose repr is a memory address throws (no fixed text exists). */
  abstract pyRepr(): string;
  /** `str(x)`. */
  pyStr(): string {
    return this.pyRepr();
  }
  /** `bool(x)`: by `len()` when it has one, else true. */
  pyTruthy(): boolean {
    const n = this.pyLen();
    return n === undefined ? true : n > 0;
  }
  /** `len(x)`, or undefined when it has none. */
  pyLen(): number | undefined {
    return undefined;
  }
  /** `iter(x)`, or undefined when it is not iterable. */
  pyIter(): Iterable<PyObject> | undefined {
    return undefined;
  }
  /** `getattr(x, name)`, or undefined for an AttributeError. */
  pyGetAttr(_name: string): PyObject | undefined {
    return undefined;
  }
  /** `x[key]`, or undefined for a TypeError or LookupError. */
  pyGetItem(_key: PyObject): PyObject | undefined {
    return undefined;
  }
  /** True when `callable(x)`. */
  get pyCallable(): boolean {
    return false;
  }
  /** `x(*args, **kwargs)`. */
  pyCall(_args: readonly PyObject[], _kwargs: ReadonlyMap<string, PyObject> | undefined): PyObject {
    throw new JinjaError('TypeError', `'${this.pyClass}' object is not callable`);
  }
  /** `x == other` (identity unless the class says otherwise). */
  pyEquals(other: PyObject): boolean {
    return this === other;
  }
}

/** Any value a template holds: a JSON value or one of the objects above. */
export type PyObject =
  | JsonValue
  | number
  | bigint
  | PyFloat
  | PyTuple
  | Markup
  | Undefined
  | PyInstance
  | readonly PyObject[]
  | ReadonlyMap<PyObject, PyObject>;

/** `repr()` of a name as Jinja2 quotes it in an Undefined's message (`'x'`, `3`). */
function reprName(name: PyObject | undefined): string {
  return name === undefined ? 'None' : pyRepr(name);
}

function quote(s: string): string {
  return pyReprString(s);
}

/** Jinja2's `object_type_repr`: `None`, `dict object`, `markupsafe.Markup object`, `jinja2.utils.Namespace object`. */
export function objectTypeRepr(v: PyObject): string {
  if (v === null) return 'None';
  if (v instanceof Markup) return 'markupsafe.Markup object';
  if (v instanceof Undefined) return 'jinja2.runtime.Undefined object';
  if (v instanceof PyInstance) return v.pyModule === 'builtins' ? `${v.pyClass} object` : `${v.pyModule}.${v.pyClass} object`;
  return `${pyTypeName(v)} object`;
}
