/**
 * The pre-pass (src/lower/prepass.ts: json-schema-traverse on the schema's plain form) against the
 * in-place walk it replaced (reference-prepass.ts), on the corpus and on generated schemas with the
 * keys that make plain objects and json-schema-traverse differ from a Map (integer-like keys,
 * `__proto__`, `constructor`…): the same verdict, the same `$ref` resolutions, the same
 * diagnostics; in the same order too, except that the sub-schemas of the 2020-12 keywords
 * json-schema-traverse 1.0 does not know are now walked before the schema's other sub-schemas.
 * And the two plain forms (the caller's objects, noted by fromJs, and a copy of the lossless value)
 * give the same result, diagnostics in the same order.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromJs, getKey, isJsonObject, JsonNumber, parseJson, plainForm, toJs, type JsonValue } from '../../src/ir/json.js';
import { compileTools } from '../../src/api/compile.js';
import { readTools } from '../../src/input/read.js';
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

/** Keys whose sub-schemas the walk takes before the others: a schema with none is walked in the same order. */
const LATER = /"(prefixItems|dependentSchemas|unevaluatedItems|unevaluatedProperties|contentSchema)"/;

interface Ran {
  ok: boolean;
  diagnostics: { code: string; path: string; message: string }[];
  refs: unknown[];
  cycles: unknown[];
}

/** The ref diagnostics are made once per `$ref` text, at the first place the walk meets it: compared without their place when the order may differ. */
const unordered = (r: Ran) => ({ ...r, diagnostics: r.diagnostics.map((d) => (d.code === 'schema/unknown-keyword' ? d : { ...d, path: '' })).map((d) => JSON.stringify(d)).sort(), refs: r.refs.map((x) => JSON.stringify(x)).sort(), cycles: r.cycles.map((x) => JSON.stringify(x)).sort() });

function same(schema: JsonValue, options: LowerOptions = {}): void {
  const now = run(prepass, schema, options) as Ran;
  const before = run(referencePrepass, schema, options) as Ran;
  if (LATER.test(JSON.stringify(toJs(schema)))) expect(unordered(now)).toEqual(unordered(before));
  else expect(now).toEqual(before);
  // the caller's plain objects (noted by fromJs in this job) walked in place: the same as their JSON
  // text read losslessly (a copy walked), in the same order (a plain object puts integer-like keys first)
  const js = toJs(schema);
  const objects = fromJs(js);
  if (isJsonObject(objects)) expect(plainForm(objects)).toBeDefined();
  expect(run(prepass, objects, options)).toEqual(run(prepass, parseJson(JSON.stringify(js)), options));
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

describe('the pre-pass walks with json-schema-traverse as the in-place walk did', () => {
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
      '{"dependentSchemas": {"a": {"bad": 1}, "b/c": {"$ref": "#/nope"}}, "unevaluatedProperties": {"u": 1}, "contentSchema": {"c": 1}, "unevaluatedItems": {"$ref": "#/nope"}}',
    ]) same(parseJson(text));
  });

  it('the 2020-12 keywords: walked before the schema\'s other sub-schemas, with their pointers', () => {
    const schema = parseJson('{"properties": {"p": {"one": 1}}, "prefixItems": [{"two": 2}, 3], "dependentSchemas": {"a/b": {"three": 3}}, "contentSchema": {"four": 4}}');
    const r = run(prepass, schema, {}) as Ran;
    expect(r.diagnostics.map((d) => d.path)).toEqual(['/0/parameters/prefixItems/0/two', '/0/parameters/dependentSchemas/a~1b/three', '/0/parameters/contentSchema/four', '/0/parameters/properties/p/one']);
  });

  it('objects that are not plain JSON are copied, not walked in place: the same result as their JSON', () => {
    class Box {
      type = 'object';
    }
    const cases: [unknown, JsonValue][] = [
      [{ properties: { a: { bad: 1, gone: undefined } } }, parseJson('{"properties": {"a": {"bad": 1}}}')],
      [{ items: [{ bad: 1 }, undefined] }, parseJson('{"items": [{"bad": 1}, null]}')],
      [{ properties: { d: { toJSON: () => ({ bad: 2 }) } } }, parseJson('{"properties": {"d": {"bad": 2}}}')],
      [{ properties: { m: new Map([['bad', 3]]) } }, parseJson('{"properties": {"m": {"bad": 3}}}')],
      [{ properties: { b: new Box() } }, parseJson('{"properties": {"b": {"type": "object"}}}')],
      [{ properties: { n: { bad: new JsonNumber('1.0', 1) } } }, parseJson('{"properties": {"n": {"bad": 1.0}}}')],
    ];
    for (const [js, json] of cases) {
      const v = fromJs(js);
      expect(plainForm(v as never)).toBeUndefined();
      expect(run(prepass, v, {})).toEqual(run(prepass, json, {}));
    }
    // a plain one is walked in place; the record is for this job only
    const plain = fromJs({ properties: { a: { bad: 1 } } });
    expect(plainForm(plain as never)).toBeDefined();
    return Promise.resolve().then(() => expect(plainForm(plain as never)).toBeUndefined());
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

  if (HAVE_SHARED) it('tools passed as objects: their parameters walked in place, the same diagnostics as the same tools read from JSON text', () => {
    const lines = readFileSync(sharedPath('corpus/tools.jsonl'), 'utf8').split('\n').filter(Boolean);
    const text = `[${lines.map((l) => { const t = JSON.parse(l); return JSON.stringify({ name: t.name, description: t.description, parameters: t.parameters }); }).join(',')}]`;
    const objects = JSON.parse(text) as unknown[];
    const inPlace = readTools(objects).tools.filter((t) => isJsonObject(t.parameters ?? null) && plainForm(t.parameters as never) !== undefined).length;
    expect(inPlace).toBeGreaterThan(1990);
    const codes = (d: readonly { code: string; path: string; message: string }[]) => d.map((x) => `${x.code} ${x.path} ${x.message}`);
    const fromObjects = codes(compileTools(JSON.parse(text)).diagnostics);
    expect(fromObjects.filter((d) => d.startsWith('schema/')).length).toBeGreaterThan(10);
    expect(fromObjects).toEqual(codes(compileTools(text).diagnostics));
  });
});
