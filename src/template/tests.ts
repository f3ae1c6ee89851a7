/**
 * Jinja2's tests (`x is defined`, `x is string`, `x is divisibleby 3`…), one small function each
 * in a table, named and bound as Jinja2's `tests.py` functions are (their TypeError texts name
 * them: `test_divisibleby() missing 1 required positional argument: 'num'`).
 */
import { JsonNumber } from '../ir/json.js';
import { JinjaError } from '../emit/python/errors.js';
import { Markup, PyFloat, PyInstance, PyTuple, Undefined, type PyObject } from '../emit/python/objects.js';
import { pyMod } from '../emit/python/format.js';
import { isPyFloat, isPyInt, pyCompare, pyIn, pyIsIterable, pyNumber } from '../emit/python/operators.js';
import { PY_STR_PREDICATES } from '../emit/python/strings.js';
import { pyEquals, pyStr } from '../emit/python/values.js';
import { bindArgs, oneArgument, type Param } from './signature.js';

/** A test: the value and the arguments after it. */
export type TestFn = (value: PyObject, args: readonly PyObject[], kwargs: ReadonlyMap<string, PyObject> | undefined) => boolean;

/** A test of the value alone or with fixed parameters, bound as its Python function is. */
function test(name: string, params: readonly Param[], f: (...values: PyObject[]) => boolean): TestFn {
  const sig = { name, params: ['value', ...params] };
  return (value, args, kwargs) => {
    if (params.length === 0 && args.length === 0 && (kwargs === undefined || kwargs.size === 0)) return f(value);
    return f(...bindArgs(sig, [value, ...args], kwargs).values);
  };
}

/** An operator test (`eq`, `lt`…: Python's `operator.eq`, positional only). */
function operatorTest(name: string, f: (a: PyObject, b: PyObject) => boolean): TestFn {
  return (value, args, kwargs) => {
    if (kwargs && kwargs.size) throw new JinjaError('TypeError', `${name}() takes no keyword arguments`);
    if (args.length !== 1) throw new JinjaError('TypeError', `${name} expected 2 arguments, got ${args.length + 1}`);
    return f(value, args[0]);
  };
}

/** `value % n == r` as the tests compute it. */
function modIs(value: PyObject, n: PyObject, r: number): boolean {
  return pyEquals(pyMod(value, n), r);
}

/** Python's `value is other` for the values a template holds (None, bools and small ints are singletons). */
function sameas(a: PyObject, b: PyObject): boolean {
  if (a === null || b === null || typeof a === 'boolean' || typeof b === 'boolean') return a === b;
  // CPython caches the ints -5..256 and interns short strings: the same value is the same object there
  if (isPyInt(a) && isPyInt(b)) {
    const x = pyNumber(a) as number | bigint;
    const y = pyNumber(b) as number | bigint;
    return x === y && Number(x) >= -5 && Number(x) <= 256;
  }
  if (typeof a === 'string' && typeof b === 'string') return a === b;
  return a === b;
}

/** Python's `callable(x)`. */
function isCallable(v: PyObject): boolean {
  // Undefined has __call__ (it raises when called, but callable() is true)
  if (v instanceof Undefined) return true;
  return v instanceof PyInstance && v.pyCallable;
}

/** `test_sequence`: `len(x)` and `x.__getitem__` both exist. */
function isSequence(v: PyObject): boolean {
  if (typeof v === 'string' || Array.isArray(v) || v instanceof Map || v instanceof PyTuple || v instanceof Markup || v instanceof Undefined) return true;
  if (v instanceof PyInstance) {
    // a range, a loop (len, no __getitem__: not a sequence) …
    return v.pyLen() !== undefined && v.pyClass === 'range';
  }
  return false;
}

/** The tests, by name (the names filters.ts's `select` and the compiler look up). */
export const TESTS: ReadonlyMap<string, TestFn> = new Map<string, TestFn>([
  ['odd', test('test_odd', [], (v) => modIs(v, 2, 1))],
  ['even', test('test_even', [], (v) => modIs(v, 2, 0))],
  ['divisibleby', test('test_divisibleby', ['num'], (v, n) => modIs(v, n, 0))],
  ['defined', test('test_defined', [], (v) => !(v instanceof Undefined))],
  ['undefined', test('test_undefined', [], (v) => v instanceof Undefined)],
  ['filter', test('test_filter', [], (v) => typeof v === 'string' && FILTER_NAMES.has(v))],
  ['test', test('test_test', [], (v) => typeof v === 'string' && TESTS.has(v))],
  ['none', test('test_none', [], (v) => v === null)],
  ['boolean', test('test_boolean', [], (v) => typeof v === 'boolean')],
  ['false', test('test_false', [], (v) => v === false)],
  ['true', test('test_true', [], (v) => v === true)],
  ['integer', test('test_integer', [], (v) => isPyInt(v))],
  ['float', test('test_float', [], (v) => isPyFloat(v))],
  ['lower', test('test_lower', [], (v) => (PY_STR_PREDICATES.islower as (s: string) => boolean)(pyStr(v)))],
  ['upper', test('test_upper', [], (v) => (PY_STR_PREDICATES.isupper as (s: string) => boolean)(pyStr(v)))],
  ['string', test('test_string', [], (v) => typeof v === 'string' || v instanceof Markup)],
  ['mapping', test('test_mapping', [], (v) => v instanceof Map)],
  // numbers.Number: ints, floats, and bools (bool is an int)
  ['number', test('test_number', [], (v) => typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' || v instanceof JsonNumber || v instanceof PyFloat)],
  ['sequence', test('test_sequence', [], isSequence)],
  ['iterable', test('test_iterable', [], (v) => pyIsIterable(v))],
  ['callable', (v, args, kwargs) => isCallable(oneArgument('callable', [v, ...args], kwargs))],
  ['sameas', test('test_sameas', ['other'], sameas)],
  ['escaped', test('test_escaped', [], (v) => v instanceof Markup)],
  ['in', test('test_in', ['seq'], (v, seq) => pyIn(v, seq))],
  ['==', operatorTest('eq', pyEquals)],
  ['eq', operatorTest('eq', pyEquals)],
  ['equalto', operatorTest('eq', pyEquals)],
  ['!=', operatorTest('ne', (a, b) => !pyEquals(a, b))],
  ['ne', operatorTest('ne', (a, b) => !pyEquals(a, b))],
  ['>', operatorTest('gt', (a, b) => pyCompare('>', a, b))],
  ['gt', operatorTest('gt', (a, b) => pyCompare('>', a, b))],
  ['greaterthan', operatorTest('gt', (a, b) => pyCompare('>', a, b))],
  ['ge', operatorTest('ge', (a, b) => pyCompare('>=', a, b))],
  ['>=', operatorTest('ge', (a, b) => pyCompare('>=', a, b))],
  ['<', operatorTest('lt', (a, b) => pyCompare('<', a, b))],
  ['lt', operatorTest('lt', (a, b) => pyCompare('<', a, b))],
  ['lessthan', operatorTest('lt', (a, b) => pyCompare('<', a, b))],
  ['<=', operatorTest('le', (a, b) => pyCompare('<=', a, b))],
  ['le', operatorTest('le', (a, b) => pyCompare('<=', a, b))],
]);

/** The names of Jinja2's filters (for `is filter`), set by filters.ts. */
export const FILTER_NAMES = new Set<string>();
