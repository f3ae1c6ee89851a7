/**
 * readTools' one-pass conversion of plain JavaScript values (plainJsonOf) against the long way it
 * skips (prepareJsValue, then fromJs): where it converts a value, the same JsonValue (number
 * text, key order); everything the long way treats specially, it leaves to the long way.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromJs, JsonNumber, parseJson, type JsonValue } from '../../src/ir/json.js';
import { plainJsonOf, readTools } from '../../src/input/read.js';
import { prepareJsValue } from '../../src/input/zod.js';

function canon(v: JsonValue): string {
  if (v instanceof JsonNumber) return `n(${v.text}|${v.value})`;
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (v instanceof Map) return `{${[...v].map(([k, x]) => `${JSON.stringify(k)}:${canon(x)}`).join(',')}}`;
  return JSON.stringify(v);
}

/** The long way: what readTools did for every JavaScript value before the one pass. */
function longWay(v: unknown): string | undefined {
  try {
    return canon(fromJs(prepareJsValue(v, [])));
  } catch {
    return undefined;
  }
}

/** Any JavaScript value: undefined, -0, NaN, bigint, Maps, null prototypes, boxed strings, sparse arrays, odd keys. */
const anyValue = fc.anything({ withBigInt: true, withMap: true, withSet: true, withDate: true, withNullPrototype: true, withObjectString: true, withSparseArray: true, withBoxedValues: true, withTypedArray: true, maxDepth: 4 });

describe('plainJsonOf: the long way’s value where it converts, the long way elsewhere', () => {
  it('on any JavaScript value', () => {
    let converted = 0;
    let left = 0;
    fc.assert(
      fc.property(anyValue, (v) => {
        const fast = plainJsonOf(v);
        if (fast === undefined) left++;
        else {
          converted++;
          expect(canon(fast)).toBe(longWay(v));
        }
      }),
      { seed: 1212, numRuns: 3000 },
    );
    expect(converted).toBeGreaterThan(500);
    expect(left).toBeGreaterThan(500);
  });

  it('converts every JSON value (numbers as JsonNumber.of, integer keys in Object.keys order, __proto__ as a key)', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 5 }), (v) => {
      const fast = plainJsonOf(v);
      expect(fast).toBeDefined();
      expect(canon(fast as JsonValue)).toBe(longWay(v));
    }), { seed: 1213, numRuns: 2000 });
    const o = JSON.parse('{"b": 1, "10": 1.5, "2": -0, "__proto__": {"x": 1e21}}') as unknown;
    expect(canon(plainJsonOf(o) as JsonValue)).toBe('{"2":n(-0.0|0),"10":n(1.5|1.5),"b":n(1|1),"__proto__":{"x":n(1e21|1e+21)}}');
  });

  it('leaves to the long way what it treats specially', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const deep: unknown[] = [];
    let cur = deep;
    for (let k = 0; k < 3_000; k++) cur.push((cur = []));
    for (const v of [
      { name: 't', execute: () => 1 }, // a tool's function (dropped by the long way)
      { _zod: { def: {} } }, // a zod 4 schema
      { _def: { typeName: 'ZodString' }, safeParse: () => 0 }, // zod 3
      { '~standard': { version: 1, vendor: 'x' } }, // Standard Schema
      { [Symbol.for('vercel.ai.schema')]: true, jsonSchema: {} }, // the AI SDK's jsonSchema()
      { toJSON: () => ({ a: 1 }) },
      new Date(0),
      new Map([['a', 1]]),
      [1, undefined, 2],
      // eslint-disable-next-line no-sparse-arrays
      [1, , 2],
      { a: 10n },
      { a: NaN },
      { a: '\ud800' },
      { '\udc00': 1 },
      cyclic,
      deep,
      { a: new JsonNumber('1.0', 1) },
    ]) expect(plainJsonOf(v)).toBeUndefined();
  });

  it('an enumerable key on Object.prototype: left to the long way, which reads own keys only', () => {
    const v = [{ name: 't', parameters: { type: 'object', properties: { a: { type: 'string' } } } }];
    const before = plainJsonOf(v);
    expect(before).not.toBeUndefined();
    (Object.prototype as Record<string, unknown>).polluted = 1;
    try {
      expect(plainJsonOf(v)).toBeUndefined();
      const read = readTools(v);
      expect(read.diagnostics).toEqual([]);
      expect(canon(read.tools[0]!.parameters!)).toBe(canon((((before as JsonValue[])[0] as Map<string, JsonValue>).get('parameters'))!));
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
    expect(plainJsonOf(v)).not.toBeUndefined();
  });

  it('fromJs returns a lossless value as it is, and still converts (or refuses) everything else', () => {
    const parsed = parseJson('[{"a": 1.0, "b": [true, null, "x", {"c": -0}]}]');
    expect(fromJs(parsed)).toBe(parsed);
    const cyclic = new Map<string, unknown>([['a', 1]]);
    cyclic.set('self', cyclic);
    expect(() => fromJs(cyclic)).toThrow(/cycle/);
    const withJsNumber = new Map<string, unknown>([['n', 1.5]]);
    expect(canon(fromJs(withJsNumber))).toBe('{"n":n(1.5|1.5)}');
    expect(fromJs(withJsNumber)).not.toBe(withJsNumber);
    const withUndefined = new Map<string, unknown>([['u', undefined], ['k', 'v']]);
    expect(canon(fromJs(withUndefined))).toBe('{"k":"v"}');
    expect(canon(fromJs([JsonNumber.of(1), undefined]))).toBe('[n(1|1),null]');
  });

  it('readTools reads a plain value as it reads its JSON text when the numbers survive JSON.stringify', () => {
    const tools = [{ name: 'a', description: 'x <|end|>', parameters: { type: 'object', properties: { '1': { type: 'integer', default: 3 }, b: { type: 'string', enum: ['x', 'y'], fooBar: 1 } }, required: ['b'] } }, { name: 'a' }];
    const viaObjects = readTools(tools);
    const viaText = readTools(JSON.stringify(tools));
    expect(viaObjects.diagnostics).toEqual(viaText.diagnostics);
    expect(viaObjects.tools.map((t) => canon(t.parameters ?? null))).toEqual(viaText.tools.map((t) => canon(t.parameters ?? null)));
  });
});
