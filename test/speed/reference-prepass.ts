/**
 * The lowering pre-pass as it was before issue 22, item 24 (src/lower/prepass.ts at 36d6d07): an
 * in-place walk written to do what json-schema-traverse 1.0 does (its tables, its order, with the
 * 2020-12 keywords in key order), checked then against json-schema-traverse on a plain copy. The
 * pre-pass walks with json-schema-traverse again; test/speed/prepass.test.ts compares the two.
 */
import { escapePointerToken, isJsonArray, isJsonObject, type JsonObject, type JsonValue } from '../../src/ir/json.js';
import type { LowerContext } from '../../src/lower/context.js';
import { KNOWN_KEYWORDS } from '../../src/lower/prepass.js';
import { localRefPointer, resolvePointer } from '../../src/lower/refs.js';

// json-schema-traverse 1.0's tables, with the 2020-12 keywords it lacks. Looked up with `in`, as it
// does: a key Object.prototype has (`constructor`, `toString`, `__proto__`…) counts as one too.
/** Keywords whose value is one sub-schema. */
const SCHEMA_KEYWORDS: Record<string, boolean> = {
  additionalItems: true, items: true, contains: true, additionalProperties: true, propertyNames: true, not: true, if: true, then: true, else: true,
  unevaluatedItems: true, unevaluatedProperties: true, contentSchema: true,
};
/** Keywords whose value is an array of sub-schemas. */
const ARRAY_KEYWORDS: Record<string, boolean> = { items: true, allOf: true, anyOf: true, oneOf: true, prefixItems: true };
/** Keywords whose value is an object of sub-schemas. */
const PROPS_KEYWORDS: Record<string, boolean> = { $defs: true, definitions: true, properties: true, patternProperties: true, dependencies: true, dependentSchemas: true };
/** Every key `in` finds in one of the tables above (their own keys, and Object.prototype's): any other key holds no sub-schema. */
const MAY_HOLD_SCHEMAS: ReadonlySet<string> = new Set([...Object.keys(SCHEMA_KEYWORDS), ...Object.keys(ARRAY_KEYWORDS), ...Object.keys(PROPS_KEYWORDS), ...Object.getOwnPropertyNames(Object.prototype)]);


/**
 * Run the pre-pass over one tool's parameters schema. Returns false when a limit is
 * exceeded (an error is reported and the schema must not be lowered).
 */
export function referencePrepass(schema: JsonValue, ctx: LowerContext): boolean {
  if (!isJsonObject(schema)) return true;
  // Depth and size first, iteratively: the visit below recurses (at most this deep). A document
  // known to be within the limits holds only schemas that are (boundWithin), so no walk is needed.
  if (!boundWithin(ctx) && !withinLimits(schema, ctx) && !checkLimits(schema, ctx)) return false;
  visit(schema, { root: schema, ctx, path: [] });
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

/**
 * One walk of the pre-pass: the schema's root, the context, and the path to the sub-schema being
 * visited, as reference tokens (unescaped; indices as numbers). The path is one array, pushed and
 * popped as the walk goes down and up, and made a JSON Pointer only for a diagnostic: most schemas
 * have none, and a pointer string a sub-schema was a fifth of what a render allocated.
 */
interface Walk {
  readonly root: JsonValue;
  readonly ctx: LowerContext;
  readonly path: (string | number)[];
}

/** The JSON Pointer of the walk's path. */
function pointerOf(path: readonly (string | number)[]): string {
  let p = '';
  for (let i = 0; i < path.length; i++) {
    const t = path[i] as string | number;
    p += `/${typeof t === 'number' ? t : escapePointerToken(t)}`;
  }
  return p;
}

// The entries of a Map are walked with forEach and a function of the module, the walk its `this`:
// no iterator results (the pass runs before V8 optimises it, in a CLI) and no closure a visit.

/** One sub-schema (an object; anything else is not visited): its unknown keywords, its `$ref`, then its sub-schemas. */
function visit(sub: JsonObject, w: Walk): void {
  const order = indexFirstOrder(sub);
  if (order !== undefined) {
    for (let i = 0; i < order.length; i++) unknownKeyword(order[i] as string, w);
  } else {
    sub.forEach(unknownKeywordEntry, w);
  }
  const ref = sub.get('$ref');
  if (typeof ref === 'string') resolveRef(ref, w);
  if (order !== undefined) {
    for (let i = 0; i < order.length; i++) {
      const key = order[i] as string;
      visitKeyword(sub.get(key) as JsonValue, key, w);
    }
  } else {
    sub.forEach(visitKeywordEntry, w);
  }
}

function unknownKeywordEntry(this: Walk, _value: JsonValue, key: string): void {
  unknownKeyword(key, this);
}

/** Report a key no JSON Schema draft or OpenAPI defines (vendor `x-` keys are allowed). */
function unknownKeyword(key: string, w: Walk): void {
  if (KNOWN_KEYWORDS.has(key) || key.startsWith('x-')) return;
  w.ctx.report('warning', 'schema/unknown-keyword', `${pointerOf(w.path)}/${escapePointerToken(key)}`, `"${key}" is not a JSON Schema keyword; no renderer reads it`);
}

function visitKeywordEntry(this: Walk, value: JsonValue, key: string): void {
  visitKeyword(value, key, this);
}

/** Visit the sub-schemas one keyword of a schema holds (`sch`, its value), as json-schema-traverse does. */
function visitKeyword(sch: JsonValue, key: string, w: Walk): void {
  if (!MAY_HOLD_SCHEMAS.has(key)) return;
  const path = w.path;
  if (isJsonArray(sch)) {
    if (key in ARRAY_KEYWORDS) {
      for (let i = 0; i < sch.length; i++) {
        const x = sch[i];
        if (isJsonObject(x)) {
          path.push(key, i);
          visit(x, w);
          path.length -= 2;
        }
      }
    }
  } else if (key in PROPS_KEYWORDS) {
    if (isJsonObject(sch)) {
      path.push(key);
      const order = indexFirstOrder(sch);
      if (order !== undefined) {
        for (let i = 0; i < order.length; i++) {
          const prop = order[i] as string;
          visitProperty(sch.get(prop) as JsonValue, prop, w);
        }
      } else {
        sch.forEach(visitPropertyEntry, w);
      }
      path.pop();
    }
  } else if (key in SCHEMA_KEYWORDS) {
    if (isJsonObject(sch)) {
      path.push(key);
      visit(sch, w);
      path.pop();
    }
  }
}

function visitPropertyEntry(this: Walk, value: JsonValue, prop: string): void {
  visitProperty(value, prop, this);
}

/** One entry of an object of sub-schemas (`properties`, `$defs`…): `x`, the schema under `prop`. */
function visitProperty(x: JsonValue, prop: string, w: Walk): void {
  if (isJsonObject(x)) {
    w.path.push(prop);
    visit(x, w);
    w.path.pop();
  }
}

/**
 * The keys of an object in the order a plain JavaScript object enumerates them when that differs
 * from the Map's: array indices (`0` … `4294967294`) first, ascending, then the others as
 * written. Undefined when the object has no array-index key (the Map's order is that order).
 */
function indexFirstOrder(m: JsonObject): string[] | undefined {
  // the common case (no such key) in one forEach with a function of the module: nothing allocated
  sawIndexKey = false;
  m.forEach(noteIndexKey);
  if (!sawIndexKey) return undefined;
  const indices: string[] = [];
  const others: string[] = [];
  m.forEach((_, k) => {
    const c = k.charCodeAt(0);
    (c >= 48 && c <= 57 && isArrayIndex(k) ? indices : others).push(k);
  });
  indices.sort((a, b) => Number(a) - Number(b));
  for (let i = 0; i < others.length; i++) indices.push(others[i] as string);
  return indices;
}

/** Set by noteIndexKey when a key it is given is an array index. */
let sawIndexKey = false;

function noteIndexKey(_value: JsonValue, k: string): void {
  if (sawIndexKey) return;
  const c = k.charCodeAt(0);
  if (c >= 48 && c <= 57 && isArrayIndex(k)) sawIndexKey = true;
}

/** True for an array index as JavaScript objects order them: a canonical decimal integer up to 2^32 − 2. */
function isArrayIndex(k: string): boolean {
  if (k.length > 10 || (k.length > 1 && k.charCodeAt(0) === 48)) return false;
  for (let i = 0; i < k.length; i++) {
    const c = k.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return Number(k) <= 4294967294;
}

/** Resolve one `$ref` (of the sub-schema at the walk's path) and record the answer for the lowering. */
function resolveRef(ref: string, w: Walk): void {
  const { root, ctx } = w;
  if (ctx.refs.has(ref)) return;
  const target = localRefPointer(ref);
  const resolved = target === undefined ? undefined : resolvePointer(root, target);
  if (target === undefined || resolved === undefined) {
    ctx.refs.set(ref, { status: 'unresolved' });
    ctx.report('warning', 'schema/unresolved-ref', `${pointerOf(w.path)}/$ref`, target === undefined ? `$ref ${JSON.stringify(ref)} is not a local reference ("#/…"); it cannot be resolved and is shown as any` : `$ref ${JSON.stringify(ref)} points to nothing in this schema; it is shown as any`);
    return;
  }
  if (refOnlyCycle(root, target, ctx.refCycles)) {
    ctx.refs.set(ref, { status: 'circular', target });
    ctx.report('warning', 'schema/ref-cycle', `${pointerOf(w.path)}/$ref`, `$ref ${JSON.stringify(ref)} only leads to other $refs and back to itself; it is shown as any`);
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
