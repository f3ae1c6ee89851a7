/**
 * The lowering pre-pass as it was before issue 12 (src/lower/prepass.ts at a83a464): the schema
 * copied to plain objects and walked by json-schema-traverse. The reference the in-place walk is
 * checked against (test/speed/prepass.test.ts). One change since, made in both: the size check tests
 * the count once a value and its entries are counted, not before its entries (the last container's
 * entries went untested; test/lower.test.ts "too large").
 */
import traverse from 'json-schema-traverse';
import { isJsonArray, isJsonObject, toJs, type JsonValue } from '../../src/ir/json.js';
import type { LowerContext } from '../../src/lower/context.js';
import { localRefPointer, resolvePointer } from '../../src/lower/refs.js';
import { KNOWN_KEYWORDS } from '../../src/lower/prepass.js';

// json-schema-traverse 1.0 predates 2020-12: teach it the sub-schema keywords it lacks.
const tables = traverse as unknown as Record<'arrayKeywords' | 'propsKeywords' | 'keywords', Record<string, boolean>>;
tables.arrayKeywords.prefixItems = true;
tables.propsKeywords.dependentSchemas = true;
tables.keywords.unevaluatedItems = true;
tables.keywords.unevaluatedProperties = true;
tables.keywords.contentSchema = true;


/**
 * Run the pre-pass over one tool's parameters schema. Returns false when a limit is
 * exceeded (an error is reported and the schema must not be lowered).
 */
export function referencePrepass(schema: JsonValue, ctx: LowerContext): boolean {
  if (!isJsonObject(schema)) return true;
  // Depth and size first, iteratively: json-schema-traverse recurses.
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

  traverse(toJs(schema) as traverse.SchemaObject, { allKeys: false }, (sub, pointer) => {
    for (const key of Object.keys(sub)) {
      if (KNOWN_KEYWORDS.has(key)) continue;
      if (key.startsWith('x-')) continue; // vendor extensions are allowed by OpenAPI and ignored
      ctx.report('warning', 'schema/unknown-keyword', `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, `"${key}" is not a JSON Schema keyword; no renderer reads it`);
    }
    const ref = sub.$ref;
    if (typeof ref === 'string') resolveRef(schema, ref, pointer, ctx);
  });
  return true;
}

/** Resolve one `$ref` and record the answer for the lowering. */
function resolveRef(root: JsonValue, ref: string, pointer: string, ctx: LowerContext): void {
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
