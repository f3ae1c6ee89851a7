import { describe, expect, it } from 'vitest';
import { fromJs, parseJson, toJs, type JsonObject } from '../../src/ir/json.js';
import { normalizeGeminiSchema } from '../../src/input/normalize.js';

describe('normalizeGeminiSchema', () => {
  const cases: [string, unknown, unknown, string[]][] = [
    ['a scalar type', { type: 'STRING' }, { type: 'string' }, ['/type']],
    [
      'nested properties and items',
      { type: 'OBJECT', properties: { a: { type: 'ARRAY', items: { type: 'NUMBER' } } } },
      { type: 'object', properties: { a: { type: 'array', items: { type: 'number' } } } },
      ['/type', '/properties/a/type', '/properties/a/items/type'],
    ],
    [
      'anyOf, oneOf, allOf and prefixItems',
      { anyOf: [{ type: 'INTEGER' }], oneOf: [{ type: 'BOOLEAN' }], allOf: [{ type: 'NULL' }], prefixItems: [{ type: 'STRING' }] },
      { anyOf: [{ type: 'integer' }], oneOf: [{ type: 'boolean' }], allOf: [{ type: 'null' }], prefixItems: [{ type: 'string' }] },
      ['/anyOf/0/type', '/oneOf/0/type', '/allOf/0/type', '/prefixItems/0/type'],
    ],
    [
      'additionalProperties, $defs and an items array',
      { additionalProperties: { type: 'STRING' }, $defs: { 'a/b': { type: 'OBJECT' } }, items: [{ type: 'NUMBER' }] },
      { additionalProperties: { type: 'string' }, $defs: { 'a/b': { type: 'object' } }, items: [{ type: 'number' }] },
      ['/$defs/a~1b/type', '/items/0/type', '/additionalProperties/type'],
    ],
    ['a type list', { type: ['STRING', 'NULL'] }, { type: ['string', 'null'] }, ['/type/0', '/type/1']],
    ['TYPE_UNSPECIFIED removed', { type: 'TYPE_UNSPECIFIED', description: 'x' }, { description: 'x' }, ['/type']],
    [
      'a property named type',
      { properties: { type: { type: 'STRING' } } },
      { properties: { type: { type: 'string' } } },
      ['/properties/type/type'],
    ],
    [
      'values inside enum, default and example untouched',
      { type: 'STRING', enum: ['OBJECT'], default: { type: 'STRING' }, example: { type: 'NUMBER' } },
      { type: 'string', enum: ['OBJECT'], default: { type: 'STRING' }, example: { type: 'NUMBER' } },
      ['/type'],
    ],
    ['lower-case types unchanged', { type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { a: { type: 'string' } } }, []],
    ['a non-schema value', 'STRING', 'STRING', []],
  ];

  it.each(cases)('%s', (_n, input, want, paths) => {
    const r = normalizeGeminiSchema(fromJs(input));
    expect(toJs(r.schema)).toEqual(want);
    expect(r.changes.map((c) => c.path)).toEqual(paths);
  });

  it('records what each type was and became', () => {
    const r = normalizeGeminiSchema(fromJs({ type: 'OBJECT', properties: { a: { type: 'TYPE_UNSPECIFIED' } } }));
    expect(r.changes).toEqual([
      { path: '/type', from: 'OBJECT', to: 'object' },
      { path: '/properties/a/type', from: 'TYPE_UNSPECIFIED', to: undefined },
    ]);
  });

  it('returns new Maps and leaves the input as it was', () => {
    const input = parseJson('{"type":"OBJECT","properties":{"a":{"type":"STRING"},"b":{"type":"string"}}}') as JsonObject;
    const before = JSON.stringify(toJs(input));
    const r = normalizeGeminiSchema(input);
    expect(JSON.stringify(toJs(input))).toBe(before);
    expect(r.schema).not.toBe(input);
    const props = (r.schema as JsonObject).get('properties') as JsonObject;
    expect(props).not.toBe(input.get('properties'));
    // an unchanged subtree is shared, not copied
    expect(props.get('b')).toBe((input.get('properties') as JsonObject).get('b'));
  });

  it('returns the same object when nothing changes', () => {
    const input = parseJson('{"type":"object","properties":{"a":{"type":"string"}}}');
    expect(normalizeGeminiSchema(input).schema).toBe(input);
  });

  it('keeps key order', () => {
    const input = parseJson('{"properties":{"b":{"type":"STRING"},"10":{"type":"STRING"}},"type":"OBJECT"}');
    const r = normalizeGeminiSchema(input).schema as JsonObject;
    expect([...r.keys()]).toEqual(['properties', 'type']);
    expect([...(r.get('properties') as JsonObject).keys()]).toEqual(['b', '10']);
  });
});
