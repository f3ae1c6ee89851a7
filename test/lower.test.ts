import { describe, expect, it } from 'vitest';
import { parseJson } from '../src/ir/json.js';
import type { IrIntersection, IrObject, IrRef, IrTuple, IrUnion } from '../src/ir/nodes.js';
import { lowerSchema } from '../src/lower/index.js';

const lower = (text: string, limits?: { maxDepth?: number; maxNodes?: number }) => lowerSchema(parseJson(text), { tool: 't', basePointer: '/0/parameters', ...(limits ? { limits } : {}) });

describe('lowerSchema: meaning in the IR', () => {
  it('an object keeps property order, required flags and names missing from properties', () => {
    const { node } = lower('{"type":"object","properties":{"b":{"type":"string"},"10":{"type":"integer"}},"required":["10","zz"]}');
    const o = node as IrObject;
    expect(o.kind).toBe('object');
    expect(o.properties.map((p) => [p.name, p.required, p.schema.kind])).toEqual([
      ['b', false, 'string'],
      ['10', true, 'number'],
    ]);
    expect(o.extraRequired).toEqual(['zz']);
    expect(o.properties[1].schema.pointer).toBe('/properties/10');
  });
  it('annotations are meta, default is boxed (a null default is a default)', () => {
    const { node } = lower('{"type":"string","title":"T","description":"D","examples":["x"],"default":null,"deprecated":true}');
    expect(node.meta).toMatchObject({ title: 'T', description: 'D', examples: ['x'], default: { value: null }, deprecated: true });
    expect(lower('{"type":"string"}').node.meta.default).toBeUndefined();
  });
  it('a type list is a union that keeps the names as written', () => {
    const u = lower('{"type":["integer","null"]}').node as IrUnion;
    expect(u.kind).toBe('union');
    expect(u.origin).toBe('typeArray');
    expect(u.typeNames).toEqual(['integer', 'null']);
    expect(u.variants.map((v) => v.kind)).toEqual(['number', 'null']);
  });
  it('keywords that each constrain the value become a keywords intersection, meta outside', () => {
    const n = lower('{"type":"object","properties":{"a":{"type":"string"}},"anyOf":[{"required":["a"]}],"description":"d","nullable":true}').node as IrIntersection;
    expect(n.kind).toBe('intersection');
    expect(n.origin).toBe('keywords');
    expect(n.members.map((m) => m.kind)).toEqual(['object', 'union']);
    expect(n.meta.description).toBe('d');
    expect(n.nullable).toBe(true);
    expect(n.members.every((m) => m.meta.description === undefined && !m.nullable)).toBe(true);
  });
  it('enum beside a type remembers the type; enum alone has none', () => {
    expect(lower('{"type":"integer","enum":[1,2]}').node).toMatchObject({ kind: 'enum', type: 'integer', origin: 'type' });
    expect(lower('{"enum":["a"]}').node).toMatchObject({ kind: 'enum', origin: 'enum' });
    expect((lower('{"enum":["a"]}').node as { type?: string }).type).toBeUndefined();
  });
  it('const is a literal; boolean schemas are any with their reason', () => {
    expect(lower('{"const":"x"}').node).toMatchObject({ kind: 'literal', value: 'x' });
    expect(lower('true').node).toMatchObject({ kind: 'any', reason: 'true' });
    expect(lower('false').node).toMatchObject({ kind: 'any', reason: 'false' });
    expect(lower('{}').node).toMatchObject({ kind: 'any', reason: 'empty' });
  });
  it('tuples: prefixItems with items as the rest, draft-07 items arrays with additionalItems', () => {
    const a = lower('{"type":"array","prefixItems":[{"type":"string"}],"items":false}').node as IrTuple;
    expect(a).toMatchObject({ kind: 'tuple', itemsKeyword: 'prefixItems', rest: false });
    const b = lower('{"type":"array","items":[{"type":"string"},{"type":"number"}],"additionalItems":{"type":"boolean"}}').node as IrTuple;
    expect(b.itemsKeyword).toBe('items');
    expect(b.items.map((i) => i.kind)).toEqual(['string', 'number']);
    expect(b.rest).toMatchObject({ kind: 'boolean' });
  });
  it('$ref: targets are lowered once, cycles through $defs never loop', () => {
    const r = lower('{"type":"object","properties":{"tree":{"$ref":"#/$defs/Node"}},"$defs":{"Node":{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#/$defs/Node"}}}}}}');
    const tree = (r.node as IrObject).properties[0].schema as IrRef;
    expect(tree).toMatchObject({ kind: 'ref', target: '/$defs/Node', name: 'Node' });
    expect([...r.definitions.keys()]).toEqual(['/$defs/Node']);
    expect(r.definitions.get('/$defs/Node')?.kind).toBe('object');
    expect(r.diagnostics).toEqual([]);
  });
  it('$ref to itself, ref-only cycles and unresolvable refs are reported, not looped', () => {
    const self = lower('{"$ref":"#"}');
    expect(self.node).toMatchObject({ kind: 'ref', target: '' });
    const cyc = lower('{"properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}');
    expect(cyc.diagnostics.map((d) => d.code)).toContain('schema/ref-cycle');
    const ext = lower('{"properties":{"g":{"$ref":"https://example.com/s.json"}}}');
    expect(ext.diagnostics).toEqual([expect.objectContaining({ code: 'schema/unresolved-ref', path: '/0/parameters/properties/g/$ref', tool: 't' })]);
  });
  it('a long $ref chain resolves without recursion trouble', () => {
    const defs = Array.from({ length: 2000 }, (_, i) => `"D${i}":${i === 1999 ? '{"type":"string"}' : `{"$ref":"#/$defs/D${i + 1}"}`}`).join(',');
    const r = lower(`{"$ref":"#/$defs/D0","$defs":{${defs}}}`);
    expect(r.definitions.size).toBe(2000);
    expect(r.diagnostics).toEqual([]);
  });
  it('unknown keywords are warnings with their pointer; x- extensions are allowed', () => {
    const r = lower('{"type":"object","properties":{"a":{"type":"string","optional":true,"x-ui":1}}}');
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: 'schema/unknown-keyword', severity: 'warning', path: '/0/parameters/properties/a/optional' })]);
  });
  it('limits: too deep and too large are errors, never a stack overflow', () => {
    let s = '{"type":"string"}';
    for (let i = 0; i < 10_000; i++) s = `{"type":"object","properties":{"a":${s}}}`;
    const r = lower(s);
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: 'schema/too-deep', severity: 'error' })]);
    const big = lower(`{"type":"object","properties":{${Array.from({ length: 50 }, (_, i) => `"p${i}":{"type":"string"}`).join(',')}}}`, { maxNodes: 40 });
    expect(big.diagnostics.map((d) => d.code)).toEqual(['schema/too-large']);
  });
  it('too large: the entries of the last container walked count too', () => {
    // root (1) + its 2 entries, properties (1) + 1, a (1) + 1, the enum (1) + its 50 strings: 58 values
    const schema = `{"type":"object","properties":{"a":{"enum":[${Array.from({ length: 50 }, (_, i) => `"v${i}"`).join(',')}]}}}`;
    expect(lower(schema, { maxNodes: 57 }).diagnostics).toEqual([expect.objectContaining({ code: 'schema/too-large', severity: 'error', path: '/0/parameters' })]);
    expect(lower(schema, { maxNodes: 58 }).diagnostics).toEqual([]);
  });
  it('values of the wrong type are warnings, never crashes', () => {
    const r = lower('{"type":"object","properties":[{"name":"a"}],"required":true,"description":5,"examples":"x"}');
    expect(r.diagnostics.map((d) => d.code).sort()).toEqual(['schema/examples-not-array', 'schema/non-string-description', 'schema/properties-not-object', 'schema/required-not-array']);
    expect(r.node).toMatchObject({ kind: 'object', properties: [] });
  });
  it('the IR is immutable data: lowering twice gives equal trees and does not touch the input', () => {
    const text = '{"type":"object","properties":{"a":{"oneOf":[{"type":"string"},{"type":"number"}]}}}';
    const input = parseJson(text);
    const a = lowerSchema(input).node;
    const b = lowerSchema(input).node;
    expect(a).toEqual(b);
    expect(JSON.stringify(input, (_k, v) => (v instanceof Map ? Object.fromEntries(v) : v))).toBe(JSON.stringify(JSON.parse(text)));
  });
});
