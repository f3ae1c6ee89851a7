import { describe, expect, it } from 'vitest';
import {
  formatNumberPython,
  formatNumberRust,
  fromJs,
  JsonNumber,
  JsonSyntaxError,
  parseJson,
  stringifyCompactRust,
  stringifyPython,
  toJs,
  type JsonObject,
} from '../src/ir/json.js';

describe('parseJson keeps what JSON.parse loses', () => {
  it('keeps number text', () => {
    const v = parseJson('{"a": 1.0, "b": 1E2, "c": -0, "d": 18446744073709551615}') as JsonObject;
    expect((v.get('a') as JsonNumber).text).toBe('1.0');
    expect((v.get('b') as JsonNumber).text).toBe('1E2');
    expect((v.get('c') as JsonNumber).text).toBe('-0');
    expect((v.get('d') as JsonNumber).text).toBe('18446744073709551615');
  });
  it('keeps key order, integer-like keys included', () => {
    const v = parseJson('{"b": 1, "10": 2, "a": 3, "2": 4}') as JsonObject;
    expect([...v.keys()]).toEqual(['b', '10', 'a', '2']);
  });
  it('treats __proto__ as an ordinary key', () => {
    const v = parseJson('{"__proto__": {"x": 1}, "y": 2}') as JsonObject;
    expect([...v.keys()]).toEqual(['__proto__', 'y']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
  it('a duplicate key keeps its first position and takes the last value', () => {
    const v = parseJson('{"a": 1, "b": 2, "a": 3}') as JsonObject;
    expect([...v.keys()]).toEqual(['a', 'b']);
    expect((v.get('a') as JsonNumber).text).toBe('3');
  });
  it.each([
    ['1e400', 'number out of range'],
    ['"\\ud800"', 'lone leading surrogate'],
    ['"\\udc00x"', 'lone trailing surrogate'],
    ['{"a": 1,}', 'key must be a string'],
    ['[1 2]', 'expected `,` or `]`'],
    ['{"a": 1} x', 'trailing characters'],
    ['', 'EOF while parsing a value'],
    ['"a\nb"', 'control character'],
    ['01', 'trailing characters'],
  ])('rejects %j (%s)', (text, message) => {
    expect(() => parseJson(text)).toThrow(JsonSyntaxError);
    expect(() => parseJson(text)).toThrow(message);
  });
  it('reports line and column', () => {
    try {
      parseJson('{\n  "a": 1e999\n}');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(JsonSyntaxError);
      expect((e as JsonSyntaxError).line).toBe(2);
      expect((e as JsonSyntaxError).column).toBe(8);
    }
  });
  it('decodes escapes and surrogate pairs', () => {
    expect(parseJson('"\\u00e9\\ud83d\\ude00\\n\\t\\/"')).toBe('é😀\n\t/');
  });
  it('parses 10,000 levels of nesting without overflowing the stack', () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    let v = parseJson(deep);
    let depth = 0;
    while (Array.isArray(v) && v.length) {
      v = v[0];
      depth++;
    }
    expect(depth).toBe(9_999);
  });
});

describe('number text', () => {
  it.each([
    ['1e15', '1000000000000000.0'],
    ['1e16', '1e16'],
    ['0.00001', '0.00001'],
    ['0.000001', '1e-6'],
    ['1E2', '100.0'],
    ['1.10', '1.1'],
    ['-0', '-0.0'],
    ['18446744073709551615', '18446744073709551615'],
    ['-9223372036854775808', '-9223372036854775808'],
    ['18446744073709551616', '1.8446744073709552e19'],
    ['1.5e300', '1.5e300'],
    ['-1e21', '-1e21'],
    ['0.5', '0.5'],
    ['5', '5'],
  ])('serde_json prints %s as %s', (text, want) => {
    expect(formatNumberRust(new JsonNumber(text, Number(text)))).toBe(want);
  });
  it.each([
    ['1e16', '1e+16'],
    ['1e-5', '1e-05'],
    ['0.0001', '0.0001'],
    ['1.0', '1.0'],
    ['5', '5'],
    ['123456789012345678901234', '123456789012345678901234'],
    ['1E2', '100.0'],
    ['-0.0', '-0.0'],
    ['1e15', '1000000000000000.0'],
  ])('Python json.dumps prints %s as %s', (text, want) => {
    expect(formatNumberPython(new JsonNumber(text, Number(text)))).toBe(want);
  });
});

describe('serialisers', () => {
  const v = parseJson('{"k": 1.0, "a": [1, "x\\"y"], "é": null, "t": true}');
  it('compact like serde_json', () => {
    expect(stringifyCompactRust(v)).toBe('{"k":1.0,"a":[1,"x\\"y"],"é":null,"t":true}');
  });
  it('spaced like Python json.dumps, optionally ASCII-only and sorted', () => {
    expect(stringifyPython(v)).toBe('{"k": 1.0, "a": [1, "x\\"y"], "é": null, "t": true}');
    expect(stringifyPython(v, { ensureAscii: true, sortKeys: true })).toBe('{"a": [1, "x\\"y"], "k": 1.0, "t": true, "\\u00e9": null}');
  });
});

describe('JS values', () => {
  it('fromJs: safe integers as integers, other numbers as shortest doubles, symbol keys skipped', () => {
    const sym = Symbol('kind');
    const v = fromJs({ a: 5, b: 0.1, [sym]: 'x', c: undefined, d: [1, undefined] }) as JsonObject;
    expect([...v.keys()]).toEqual(['a', 'b', 'd']);
    expect(stringifyCompactRust(v)).toBe('{"a":5,"b":0.1,"d":[1,null]}');
  });
  it('fromJs rejects cycles, NaN and functions with a pointer', () => {
    const o: Record<string, unknown> = {};
    o.self = o;
    expect(() => fromJs(o)).toThrow('cycle');
    expect(() => fromJs({ a: [NaN] })).toThrow('NaN');
    try {
      fromJs({ a: { b: () => 1 } });
      expect.unreachable();
    } catch (e) {
      expect((e as { pointer: string }).pointer).toBe('/a/b');
    }
  });
  it('toJs round-trips values, __proto__ as an own property', () => {
    const js = toJs(parseJson('{"__proto__": 1, "a": [true, null]}')) as Record<string, unknown>;
    expect(Object.keys(js)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(js)).toBe(Object.prototype);
  });
});
