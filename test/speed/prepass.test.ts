/**
 * The in-place pre-pass (src/lower/prepass.ts) against the one it replaced (reference-prepass.ts:
 * the schema copied to plain objects, walked by json-schema-traverse): the same verdict, the same
 * diagnostics in the same order, the same `$ref` resolutions, on the corpus and on generated
 * schemas with the keys that make plain objects and json-schema-traverse differ from a Map
 * (integer-like keys, `__proto__`, `constructor`…).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getKey, JsonNumber, parseJson, type JsonValue } from '../../src/ir/json.js';
import { LowerContext, type LowerOptions } from '../../src/lower/context.js';
import { prepass } from '../../src/lower/prepass.js';
import { HAVE_SHARED, sharedPath } from '../support/shared.js';
import { referencePrepass } from './reference-prepass.js';

/** What a pre-pass leaves on its context: verdict, diagnostics, resolutions, cycle answers. */
function run(pass: typeof prepass, schema: JsonValue, options: LowerOptions): unknown {
  const ctx = new LowerContext(schema, { tool: 't', basePointer: '/0/parameters', ...options });
  const ok = pass(schema, ctx);
  return { ok, diagnostics: ctx.diagnostics, refs: [...ctx.refs], cycles: [...ctx.refCycles] };
}

function same(schema: JsonValue, options: LowerOptions = {}): void {
  expect(run(prepass, schema, options)).toEqual(run(referencePrepass, schema, options));
}

const KEYS = [
  'type', 'properties', 'items', 'prefixItems', 'allOf', 'anyOf', 'oneOf', '$defs', 'definitions', 'patternProperties', 'dependencies', 'dependentSchemas',
  'additionalProperties', 'additionalItems', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'contentSchema', '$ref', 'enum', 'default', 'description',
  // keys Object.prototype has (json-schema-traverse's `in` finds them), integer-like keys (plain objects put them first), odd ones
  'constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', '0', '1', '2', '10', '01', '-1', '4294967294', '4294967295', 'a/b', 'x~y', 'x-vendor', 'foo', 'Items',
];
const REFS = ['#', '#/$defs/a', '#/$defs/b', '#/definitions/0', '#/properties/10', '#/$defs/a~1b', '#/$defs/x%7Ey', '#/nope', 'http://example.com/s.json', '#/$defs/%zz', '#/items/0'];

/** A JSON value built as the parser builds it (a Map keeps the order written, integer-like keys too). */
const schemaArb: fc.Arbitrary<JsonValue> = fc.letrec<{ schema: JsonValue; value: JsonValue }>((tie) => ({
  schema: fc
    .array(fc.tuple(fc.constantFrom(...KEYS), fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('value'), fc.constantFrom(...REFS).map((r): JsonValue => r))), { maxLength: 6 })
    .map((entries) => new Map<string, JsonValue>(entries)),
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<JsonValue>(null, true, false, 'string', new JsonNumber('1.0', 1)),
    tie('schema'),
    fc.array(tie('schema'), { maxLength: 3 }),
  ),
})).schema;

describe('the in-place pre-pass does what json-schema-traverse did', () => {
  it('on generated schemas (prototype keys, integer-like keys, refs and cycles)', () => {
    let warnings = 0;
    fc.assert(
      fc.property(schemaArb, (s) => {
        same(s);
        warnings += (run(prepass, s, {}) as { diagnostics: unknown[] }).diagnostics.length;
      }),
      { seed: 120, numRuns: 3000 },
    );
    expect(warnings).toBeGreaterThan(1000);
  });

  it('with tight limits (the depth and size errors)', () => {
    fc.assert(fc.property(schemaArb, fc.integer({ min: 0, max: 4 }), fc.integer({ min: 1, max: 40 }), (s, maxDepth, maxNodes) => same(s, { limits: { maxDepth, maxNodes } })), { seed: 121, numRuns: 1000 });
  });

  it('on hand-picked schemas', () => {
    for (const text of [
      '{"properties": {"b": {"foo": 1}, "10": {"bar": 2}, "2": {"$ref": "#/properties/10"}}}',
      '{"constructor": {"x": {"y": 1}}, "toString": [{"z": 1}], "__proto__": {"p": {"q": 1}}}',
      '{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}',
      '{"items": [{"a~b": 1}, {"c/d": 2}], "prefixItems": [{"$ref": "#"}]}',
      '{"1": 1, "0": 0, "x-ok": 1, "properties": {"0": {"1": {}}}}',
    ]) same(parseJson(text));
  });

  if (HAVE_SHARED) it('on every corpus and oracle schema', () => {
    let schemas = 0;
    for (const file of ['corpus/tools.jsonl', 'corpus/edge-cases.jsonl', 'oracles/synthetic/visible/inputs.jsonl']) {
      for (const line of readFileSync(sharedPath(file), 'utf8').split('\n')) {
        if (line === '') continue;
        let v: JsonValue;
        try {
          v = parseJson(line);
        } catch {
          continue;
        }
        const tools = getKey(v, 'tools');
        for (const t of Array.isArray(tools) ? tools : [v]) {
          const p = getKey(t, 'parameters') ?? getKey(t, 'input_schema') ?? getKey(t, 'inputSchema');
          if (p === undefined) continue;
          same(p);
          schemas++;
        }
      }
    }
    expect(schemas).toBeGreaterThan(2400);
  });
});
