/**
 * Lowering: a JSON Schema (lossless JSON) → the IR. One dispatcher; one file per kind.
 *
 * A schema object may combine several keywords that each constrain the value (`type` with
 * `oneOf`, `properties` with `anyOf`, `$ref` with `allOf`…). Each such keyword becomes one
 * node; when there is more than one they are the members of an intersection with origin
 * `keywords`, in this fixed order: type (or what implies it), enum, const, $ref, allOf, anyOf,
 * oneOf. Annotations and `nullable` stay on the outer node.
 */
import { isJsonArray, isJsonObject, jsonTypeOf, type JsonArray, type JsonObject, type JsonValue } from '../ir/json.js';
import { EMPTY_META, type IrBase, type IrNode, type IrOrigin, type IrTool } from '../ir/nodes.js';
import type { ToolDefinition } from '../input/types.js';
import type { Diagnostic } from '../diagnostics.js';
import { fromArray } from './array.js';
import { LowerContext, type LowerOptions } from './context.js';
import { lowerMeta } from './meta.js';
import { fromObject } from './object.js';
import { prepass } from './prepass.js';
import { fromRef, resolvePointer } from './refs.js';
import { fromBoolean, fromNull, fromNumber, fromString } from './scalar.js';
import { fromAllOf, fromTypeArray, fromUnion } from './union.js';

export { DEFAULT_LIMITS, type LowerLimits, type LowerOptions } from './context.js';

const OBJECT_KEYWORDS = ['properties', 'additionalProperties', 'patternProperties', 'required', 'minProperties', 'maxProperties', 'propertyNames'];
const ARRAY_KEYWORDS = ['items', 'prefixItems', 'additionalItems', 'minItems', 'maxItems', 'uniqueItems', 'contains'];

/** Lower one sub-schema found at `pointer` (relative to the tool's parameters). */
export function lowerAt(schema: JsonValue, pointer: string, depth: number, ctx: LowerContext): IrNode {
  ctx.nodes++;
  if (schema === true) return { pointer, meta: EMPTY_META, nullable: false, kind: 'any', reason: 'true' };
  if (schema === false) return { pointer, meta: EMPTY_META, nullable: false, kind: 'any', reason: 'false' };
  if (!isJsonObject(schema)) {
    ctx.report('warning', 'schema/invalid-subschema', pointer, `a schema must be an object or a boolean, found a ${jsonTypeOf(schema)}; it is shown as any`);
    return { pointer, meta: EMPTY_META, nullable: false, kind: 'any', reason: 'invalid' };
  }
  if (depth > ctx.limits.maxDepth) {
    ctx.report('error', 'schema/too-deep', pointer, `the schema nests deeper than ${ctx.limits.maxDepth} levels`);
    return { pointer, meta: EMPTY_META, nullable: false, kind: 'any', reason: 'invalid' };
  }
  const base: IrBase = { pointer, meta: lowerMeta(schema, pointer, ctx), nullable: schema.get('nullable') === true };

  // which keywords constrain the value (each becomes one node)
  const type = schema.get('type');
  const typeArray = isJsonArray(type) && hasString(type);
  const typed = typeof type === 'string' || typeArray;
  const implicit = typed ? undefined : hasAny(schema, OBJECT_KEYWORDS) ? 'object' : hasAny(schema, ARRAY_KEYWORDS) ? 'array' : undefined;
  const en = schema.get('enum');
  const ref = schema.get('$ref');
  const allOf = combiner(schema, 'allOf', pointer, ctx);
  const anyOf = combiner(schema, 'anyOf', pointer, ctx);
  const oneOf = combiner(schema, 'oneOf', pointer, ctx);
  const count = (typed || implicit ? 1 : 0) + (!typed && isJsonArray(en) ? 1 : 0) + (schema.has('const') ? 1 : 0) + (typeof ref === 'string' ? 1 : 0) + (allOf ? 1 : 0) + (anyOf ? 1 : 0) + (oneOf ? 1 : 0);
  if (isJsonArray(type) && !typeArray) ctx.report('warning', 'schema/invalid-type', `${pointer}/type`, 'no entry of the type list is a string; it is ignored');
  if (type !== undefined && !typed && !isJsonArray(type)) ctx.report('warning', 'schema/invalid-type', `${pointer}/type`, `type is a ${jsonTypeOf(type)}, not a name or a list of names; it is ignored`);
  if (en !== undefined && !isJsonArray(en)) ctx.report('warning', 'schema/enum-not-array', `${pointer}/enum`, `enum is a ${jsonTypeOf(en)}, not an array; it is ignored`);
  if (count === 0) {
    const unsupported = schema.has('not') || schema.has('if');
    return { pointer: base.pointer, meta: base.meta, nullable: base.nullable, kind: 'any', reason: unsupported ? 'unsupported' : 'empty' };
  }
  // a single keyword's node carries the schema's meta; several are members of a keywords intersection
  if (count === 1 && typeof type === 'string') return lowerByTypeName(type, base, schema, pointer, depth, ctx, 'type');
  const b: IrBase = count === 1 ? base : { pointer, meta: EMPTY_META, nullable: false };
  const parts: IrNode[] = [];
  if (typeof type === 'string') parts.push(lowerByTypeName(type, b, schema, pointer, depth, ctx, 'type'));
  else if (typeArray) parts.push(fromTypeArray(b, type, schema, pointer, depth, ctx) as IrNode);
  else if (implicit === 'object') parts.push(fromObject(b, schema, pointer, depth, ctx, 'implicit'));
  else if (implicit === 'array') parts.push(fromArray(b, schema, pointer, depth, ctx, 'implicit'));
  if (!typed && isJsonArray(en)) parts.push({ pointer: b.pointer, meta: b.meta, nullable: b.nullable, kind: 'enum', values: en, origin: 'enum' });
  if (schema.has('const')) parts.push({ pointer: b.pointer, meta: b.meta, nullable: b.nullable, kind: 'literal', value: schema.get('const') as JsonValue });
  if (typeof ref === 'string') parts.push(fromRef(b, ref, ctx));
  if (allOf) parts.push(fromAllOf(b, allOf, pointer, depth, ctx));
  if (anyOf) parts.push(fromUnion(b, anyOf, 'anyOf', pointer, depth, ctx));
  if (oneOf) parts.push(fromUnion(b, oneOf, 'oneOf', pointer, depth, ctx));
  if (count === 1) return parts[0];
  return { pointer: base.pointer, meta: base.meta, nullable: base.nullable, kind: 'intersection', origin: 'keywords', members: parts };
}

/** A combiner's array of schemas; undefined when absent, and when it is not an array (reported, ignored). */
function combiner(schema: JsonObject, kw: 'allOf' | 'anyOf' | 'oneOf', pointer: string, ctx: LowerContext): JsonArray | undefined {
  const v = schema.get(kw);
  if (v === undefined || isJsonArray(v)) return v;
  ctx.report('warning', 'schema/invalid-subschema', `${pointer}/${kw}`, `${kw} is a ${jsonTypeOf(v)}, not an array of schemas; it is ignored`);
  return undefined;
}

/** True when the object has one of the keys. */
function hasAny(schema: JsonObject, keys: readonly string[]): boolean {
  for (let i = 0; i < keys.length; i++) if (schema.has(keys[i])) return true;
  return false;
}

/** True when the array has a string. */
function hasString(a: JsonArray): boolean {
  for (let i = 0; i < a.length; i++) if (typeof a[i] === 'string') return true;
  return false;
}

/** The node for one `type` name, reading the schema's other keywords under that type. */
export function lowerByTypeName(name: string, base: IrBase, schema: JsonObject, pointer: string, depth: number, ctx: LowerContext, origin: IrOrigin): IrNode {
  switch (name) {
    case 'string':
      return fromString(base, schema, origin);
    case 'number':
      return fromNumber(base, schema, origin, false);
    case 'integer':
      return fromNumber(base, schema, origin, true);
    case 'boolean':
      return fromBoolean(base, schema, origin);
    case 'null':
      return fromNull(base, origin);
    case 'object':
      return fromObject(base, schema, pointer, depth, ctx, origin);
    case 'array':
      return fromArray(base, schema, pointer, depth, ctx, origin);
    default:
      ctx.report('warning', 'schema/unknown-type', `${pointer}/type`, `type ${JSON.stringify(name)} is not a JSON Schema type (string, number, integer, boolean, null, object, array); it is shown as any`);
      return { pointer: base.pointer, meta: base.meta, nullable: base.nullable, kind: 'any', reason: 'unknown-type', typeName: name };
  }
}

/** Result of lowering one schema. */
export interface LowerResult {
  readonly node: IrNode;
  /** Lowered `$ref` targets by pointer. */
  readonly definitions: ReadonlyMap<string, IrNode>;
  readonly diagnostics: readonly Diagnostic[];
}

/** Lower a JSON Schema (lossless JSON) to the IR; every `$ref` target is lowered once. */
export function lowerSchema(schema: JsonValue, options: LowerOptions = {}): LowerResult {
  const ctx = new LowerContext(schema, options);
  if (!prepass(schema, ctx)) {
    return { node: { pointer: '', meta: EMPTY_META, nullable: false, kind: 'any', reason: 'invalid' }, definitions: ctx.definitionsOrNone(), diagnostics: ctx.diagnostics };
  }
  const node = lowerAt(schema, '', 0, ctx);
  for (let k = 0; k < ctx.pending.length; k++) {
    const target = ctx.pending[k];
    ctx.definitions.set(target, target === '' ? node : lowerAt(resolvePointer(schema, target) ?? true, target, 1, ctx));
  }
  // a ref target inside the schema's own tree is lowered twice: report its findings once
  let diagnostics = ctx.diagnostics;
  if (diagnostics.length > 1) {
    const seen = new Set<string>();
    diagnostics = diagnostics.filter((d) => {
      const key = `${d.code}\u0000${d.path}`;
      return seen.has(key) ? false : (seen.add(key), true);
    });
  }
  return { node, definitions: ctx.definitionsOrNone(), diagnostics };
}

/** Lower one tool: its parameters (when present and not null) and its description. */
export function lowerTool(tool: ToolDefinition, options: Omit<LowerOptions, 'tool' | 'basePointer'> = {}): { tool: IrTool; diagnostics: readonly Diagnostic[] } {
  const params = tool.parameters;
  const description = typeof tool.description === 'string' ? tool.description : undefined;
  // (the IR tool's keys assigned in order, not spread: this runs once a tool)
  const ir: { -readonly [K in keyof IrTool]: IrTool[K] } = { name: tool.name } as IrTool;
  if (description !== undefined) ir.description = description;
  if (params === undefined || params === null) {
    ir.definitions = new Map();
    ir.pointer = tool.pointer;
    return { tool: ir, diagnostics: [] };
  }
  const r = lowerSchema(params, { limits: options.limits, sizeBound: options.sizeBound, tool: tool.name, basePointer: tool.parametersPointer });
  ir.parameters = r.node;
  ir.definitions = r.definitions;
  ir.pointer = tool.pointer;
  return { tool: ir, diagnostics: r.diagnostics };
}
