/**
 * The pre-pass: visits every sub-schema with its JSON Pointer before lowering. It enforces the
 * limits (depth, size), reports keywords no JSON Schema draft or OpenAPI defines, and resolves
 * every local `$ref` (detecting ref-only cycles) so the lowering only looks answers up.
 *
 * The walk is json-schema-traverse's (the design card's schema walker), run on the schema's plain
 * JavaScript form: the objects the caller passed when the tools came as objects (fromJs noted
 * them, plainForm), else a copy of the lossless value (toJs). The 2020-12 keywords its 1.0 tables
 * lack (prefixItems, dependentSchemas, unevaluatedItems, unevaluatedProperties, contentSchema) are
 * walked from the callback, before the schema's other sub-schemas: its tables are the module's
 * own, shared with every other user of the package (Ajv), and are not changed here.
 */
import traverse from 'json-schema-traverse';
import { escapePointerToken, isJsonArray, isJsonObject, plainForm, toJs, type JsonObject, type JsonValue } from '../ir/json.js';
import type { LowerContext } from './context.js';
import { localRefPointer, resolvePointer } from './refs.js';

/** Keywords of 2020-12 whose value is sub-schemas that json-schema-traverse 1.0 does not walk. */
const LATER_SCHEMA_KEYWORDS = ['unevaluatedItems', 'unevaluatedProperties', 'contentSchema'] as const;

/** Every keyword of JSON Schema drafts 4 to 2020-12, plus OpenAPI's and Gemini's. */
export const KNOWN_KEYWORDS: ReadonlySet<string> = new Set([
  // core and applicators
  '$schema', '$id', 'id', '$ref', '$defs', 'definitions', '$anchor', '$dynamicRef', '$dynamicAnchor', '$recursiveRef', '$recursiveAnchor', '$comment', '$vocabulary',
  'type', 'enum', 'const', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else',
  'properties', 'required', 'additionalProperties', 'patternProperties', 'propertyNames', 'minProperties', 'maxProperties',
  'dependencies', 'dependentRequired', 'dependentSchemas', 'unevaluatedProperties',
  'items', 'prefixItems', 'additionalItems', 'contains', 'minContains', 'maxContains', 'minItems', 'maxItems', 'uniqueItems', 'unevaluatedItems',
  'format', 'pattern', 'minLength', 'maxLength', 'contentMediaType', 'contentEncoding', 'contentSchema',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  // annotations
  'title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly',
  // OpenAPI 3.0 and Gemini
  'nullable', 'example', 'discriminator', 'xml', 'externalDocs', 'propertyOrdering',
]);

/**
 * Run the pre-pass over one tool's parameters schema. Returns false when a limit is
 * exceeded (an error is reported and the schema must not be lowered).
 */
export function prepass(schema: JsonValue, ctx: LowerContext): boolean {
  if (!isJsonObject(schema)) return true;
  // Depth and size first, iteratively: the visit below recurses (at most this deep). A document
  // known to be within the limits holds only schemas that are (boundWithin), so no walk is needed.
  if (!boundWithin(ctx) && !withinLimits(schema, ctx) && !checkLimits(schema, ctx)) return false;
  const plain = plainForm(schema) ?? (toJs(schema) as traverse.SchemaObject);
  walk(plain, '', { root: schema, ctx });
  return true;
}

/**
 * True when the caller's bound on the schema's size keeps it within the limits as withinLimits
 * counts them: that count is at most 1 + 2 × the values (each value is one entry of its container,
 * and one more when it is a container or a number), and a schema nests no deeper than its document.
 */
function boundWithin(ctx: LowerContext): boolean {
  const b = ctx.sizeBound;
  if (b === undefined) return false;
  return 1 + 2 * b.values <= ctx.limits.maxNodes && b.depth <= ctx.limits.maxDepth * 2 + 2;
}

/**
 * The size and depth of a schema within the limits, counted as checkLimits counts them (every
 * container and number one value, plus each container's entries) but without stacking numbers;
 * false when they may not be (checkLimits then finds which limit, as it always did).
 */
function withinLimits(schema: JsonObject, ctx: LowerContext): boolean {
  const maxJsonDepth = ctx.limits.maxDepth * 2 + 2;
  const maxNodes = ctx.limits.maxNodes;
  if (!(maxJsonDepth >= 1) || !(maxNodes >= 1)) return false;
  let count = 1;
  const values: (JsonObject | readonly JsonValue[])[] = [schema];
  const depths: number[] = [0];
  let d = 0;
  let over = false;
  // an object's entries through forEach (no iterator objects: this walk runs before the code is optimised, in a CLI)
  const child = (x: JsonValue): void => {
    if (typeof x !== 'object' || x === null) return;
    count++;
    if (d > maxJsonDepth) over = true;
    else if (isJsonObject(x) || isJsonArray(x)) values.push(x), depths.push(d);
  };
  while (values.length) {
    const v = values.pop() as JsonObject | readonly JsonValue[];
    d = (depths.pop() as number) + 1;
    // each child container or number: one value more, one level deeper (two loops: each iterates one kind)
    if (isJsonObject(v)) {
      v.forEach(child);
      if (over) return false;
      count += v.size;
    } else {
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        if (typeof x !== 'object' || x === null) continue;
        count++;
        if (d > maxJsonDepth) return false;
        if (isJsonObject(x) || isJsonArray(x)) values.push(x), depths.push(d);
      }
      count += v.length;
    }
    if (count > maxNodes) return false;
  }
  return true;
}

/** The size and depth check, value by value: reports the first limit a schema breaks; false then. */
function checkLimits(schema: JsonObject, ctx: LowerContext): boolean {
  const maxJsonDepth = ctx.limits.maxDepth * 2 + 2;
  let count = 0;
  const values: JsonValue[] = [schema];
  const depths: number[] = [0];
  while (values.length) {
    const v = values.pop() as JsonValue;
    const d = depths.pop() as number;
    if (d > maxJsonDepth) {
      ctx.report('error', 'schema/too-deep', '', `the schema nests deeper than ${ctx.limits.maxDepth} levels; it is not rendered`);
      return false;
    }
    count++;
    if (isJsonObject(v)) {
      for (const x of v.values()) if (typeof x === 'object' && x !== null) values.push(x), depths.push(d + 1);
      count += v.size;
    } else if (isJsonArray(v)) {
      for (const x of v) if (typeof x === 'object' && x !== null) values.push(x), depths.push(d + 1);
      count += v.length;
    }
    // the value and its entries, tested once they are all counted (the last container's entries too)
    if (count > ctx.limits.maxNodes) {
      ctx.report('error', 'schema/too-large', '', `the schema has more than ${ctx.limits.maxNodes} values; it is not rendered`);
      return false;
    }
  }
  return true;
}

/** One walk of the pre-pass: the schema's root (the lossless value, where `$ref`s resolve) and the context. */
interface Walk {
  readonly root: JsonValue;
  readonly ctx: LowerContext;
}

/** Walk the sub-schemas of `schema` (plain form), whose pointer is `base`, with json-schema-traverse. */
function walk(schema: unknown, base: string, w: Walk): void {
  traverse(schema as traverse.SchemaObject, { allKeys: false }, (sub, pointer) => visit(sub, base + pointer, w));
}

/** One sub-schema: its unknown keywords, its `$ref`, then the sub-schemas of the 2020-12 keywords json-schema-traverse does not know. */
function visit(sub: traverse.SchemaObject, pointer: string, w: Walk): void {
  for (const key in sub) unknownKeyword(key, pointer, w);
  const ref = sub.$ref;
  if (typeof ref === 'string') resolveRef(ref, pointer, w);
  // as json-schema-traverse treats its own array, object and schema keywords
  const prefixItems: unknown = sub.prefixItems;
  if (Array.isArray(prefixItems)) for (let i = 0; i < prefixItems.length; i++) walk(prefixItems[i], `${pointer}/prefixItems/${i}`, w);
  const dependentSchemas: unknown = sub.dependentSchemas;
  if (typeof dependentSchemas === 'object' && dependentSchemas !== null && !Array.isArray(dependentSchemas)) {
    for (const prop in dependentSchemas) walk((dependentSchemas as Record<string, unknown>)[prop], `${pointer}/dependentSchemas/${escapePointerToken(prop)}`, w);
  }
  for (const k of LATER_SCHEMA_KEYWORDS) if (Object.prototype.hasOwnProperty.call(sub, k)) walk(sub[k], `${pointer}/${k}`, w);
}

/** Report a key no JSON Schema draft or OpenAPI defines (vendor `x-` keys are allowed). */
function unknownKeyword(key: string, pointer: string, w: Walk): void {
  if (KNOWN_KEYWORDS.has(key) || key.startsWith('x-')) return;
  w.ctx.report('warning', 'schema/unknown-keyword', `${pointer}/${escapePointerToken(key)}`, `"${key}" is not a JSON Schema keyword; no renderer reads it`);
}

/** Resolve one `$ref` (of the sub-schema at `pointer`) and record the answer for the lowering. */
function resolveRef(ref: string, pointer: string, w: Walk): void {
  const { root, ctx } = w;
  if (ctx.refs.has(ref)) return;
  const target = localRefPointer(ref);
  const resolved = target === undefined ? undefined : resolvePointer(root, target);
  if (target === undefined || resolved === undefined) {
    ctx.refs.set(ref, { status: 'unresolved' });
    ctx.report('warning', 'schema/unresolved-ref', `${pointer}/$ref`, target === undefined ? `$ref ${JSON.stringify(ref)} is not a local reference ("#/…"); it cannot be resolved and is shown as any` : `$ref ${JSON.stringify(ref)} points to nothing in this schema; it is shown as any`);
    return;
  }
  if (refOnlyCycle(root, target, ctx.refCycles)) {
    ctx.refs.set(ref, { status: 'circular', target });
    ctx.report('warning', 'schema/ref-cycle', `${pointer}/$ref`, `$ref ${JSON.stringify(ref)} only leads to other $refs and back to itself; it is shown as any`);
    return;
  }
  ctx.refs.set(ref, { status: 'ok', target });
}

/**
 * True when following `$ref`s from the target never reaches a schema (the chain loops).
 * Answers are memoised per pointer, so long chains cost linear time.
 */
function refOnlyCycle(root: JsonValue, start: string, memo: Map<string, boolean>): boolean {
  const path: string[] = [];
  const onPath = new Set<string>();
  let p: string | undefined = start;
  let result = false;
  for (;;) {
    if (p === undefined) break;
    const known = memo.get(p);
    if (known !== undefined) {
      result = known;
      break;
    }
    if (onPath.has(p)) {
      result = true;
      break;
    }
    onPath.add(p);
    path.push(p);
    const s = resolvePointer(root, p);
    if (!isJsonObject(s)) break;
    const r = s.get('$ref');
    if (typeof r !== 'string') break;
    p = localRefPointer(r);
  }
  for (const q of path) memo.set(q, result);
  return result;
}
