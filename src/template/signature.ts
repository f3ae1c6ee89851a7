/**
 * Python's binding of call arguments to a function's parameters, with its TypeError texts
 * (`f() takes from 2 to 4 positional arguments but 5 were given`, `f() got an unexpected keyword
 * argument 'x'`, `f() missing 1 required positional argument: 'y'`): what a filter or test
 * (a Python function in Jinja2) says when a template calls it wrongly.
 */
import { JinjaError } from '../emit/python/errors.js';
import type { PyObject } from '../emit/python/objects.js';

/** A parameter: its name, and its default when it has one. */
export type Param = string | readonly [string, PyObject];

/** A Python function's signature: name, parameters (the implicit environment/context ones first), `*args`, `**kwargs`. */
export interface Signature {
  readonly name: string;
  readonly params: readonly Param[];
  readonly varargs?: boolean;
  readonly varkw?: boolean;
}

/** Python's `'a', 'b' and 'c'` list of names in a message. */
function nameList(names: readonly string[]): string {
  const q = names.map((n) => `'${n}'`);
  if (q.length === 1) return q[0];
  if (q.length === 2) return `${q[0]} and ${q[1]}`;
  return `${q.slice(0, -1).join(', ')}, and ${q[q.length - 1]}`;
}

/** The bound call: a value per parameter, the extra positional arguments and the extra keyword arguments. */
export interface Bound {
  readonly values: PyObject[];
  readonly rest: readonly PyObject[];
  readonly restKw: Map<string, PyObject>;
}

/** Bind positional arguments (the implicit ones included) and keyword arguments as Python binds them. */
export function bindArgs(sig: Signature, positional: readonly PyObject[], kwargs: ReadonlyMap<string, PyObject> | undefined): Bound {
  const names = sig.params.map((p) => (typeof p === 'string' ? p : p[0]));
  const n = names.length;
  const values: (PyObject | undefined)[] = new Array(n).fill(undefined);
  const given = Math.min(positional.length, n);
  for (let i = 0; i < given; i++) values[i] = positional[i];
  if (positional.length > n && !sig.varargs) {
    const required = sig.params.filter((p) => typeof p === 'string').length;
    const kwGiven = kwargs ? [...kwargs.keys()].filter((k) => names.includes(k)).length : 0;
    const takes = required === n ? `${n} positional argument${n === 1 ? '' : 's'}` : `from ${required} to ${n} positional arguments`;
    const were = positional.length === 1 ? 'was' : 'were';
    const extra = kwGiven ? ` positional argument${positional.length === 1 ? '' : 's'} (and ${kwGiven} keyword-only argument${kwGiven === 1 ? '' : 's'})` : '';
    throw new JinjaError('TypeError', `${sig.name}() takes ${takes} but ${positional.length}${extra} ${were} given`);
  }
  const restKw = new Map<string, PyObject>();
  for (const [k, v] of kwargs ?? []) {
    const i = names.indexOf(k);
    if (i < 0) {
      if (!sig.varkw) throw new JinjaError('TypeError', `${sig.name}() got an unexpected keyword argument '${k}'`);
      restKw.set(k, v);
    } else if (values[i] !== undefined) throw new JinjaError('TypeError', `${sig.name}() got multiple values for argument '${k}'`);
    else values[i] = v;
  }
  const missing: string[] = [];
  for (let i = 0; i < n; i++) {
    if (values[i] !== undefined) continue;
    const p = sig.params[i];
    if (typeof p === 'string') missing.push(p);
    else values[i] = p[1];
  }
  if (missing.length) throw new JinjaError('TypeError', `${sig.name}() missing ${missing.length} required positional argument${missing.length === 1 ? '' : 's'}: ${nameList(missing)}`);
  return { values: values as PyObject[], rest: positional.slice(n), restKw };
}

/** A builtin of one argument (`len`, `abs`, `callable`): CPython's `takes exactly one argument (N given)`. */
export function oneArgument(name: string, positional: readonly PyObject[], kwargs: ReadonlyMap<string, PyObject> | undefined): PyObject {
  if (kwargs && kwargs.size) throw new JinjaError('TypeError', `${name}() takes no keyword arguments`);
  if (positional.length !== 1) throw new JinjaError('TypeError', `${name}() takes exactly one argument (${positional.length} given)`);
  return positional[0];
}
