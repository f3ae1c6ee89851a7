/**
 * Normalisation of input quirks into plain JSON Schema. Never mutates its input: changed
 * objects are new Maps, unchanged subtrees are shared.
 */
import { escapePointerToken, isJsonArray, isJsonObject, type JsonObject, type JsonValue } from '../ir/json.js';

/** Keywords whose value is an object of sub-schemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Keywords whose value is an array of sub-schemas. */
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
/** Keywords whose value is one sub-schema (`items` may also be an array of them). */
const SCHEMA_ONE = ['items', 'additionalItems', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];

/** One change made by a normalisation. */
export interface NormalizeChange {
  /** JSON Pointer of the changed `type`, relative to the schema. */
  readonly path: string;
  /** The type as written. */
  readonly from: string;
  /** The type now, or undefined when it was removed (`TYPE_UNSPECIFIED`). */
  readonly to: string | undefined;
}

/** The result of normalising a schema. */
export interface NormalizeResult {
  readonly schema: JsonValue;
  readonly changes: readonly NormalizeChange[];
}

/**
 * Gemini `parameters` (an OpenAPI subset) → JSON Schema: every `type` name in a schema
 * position (through properties, items, anyOf and the other sub-schema keywords, never inside
 * `enum`, `default` or `example`) is lower-cased (`STRING` → `string`); `TYPE_UNSPECIFIED`
 * means no type and is removed.
 */
export function normalizeGeminiSchema(schema: JsonValue): NormalizeResult {
  const changes: NormalizeChange[] = [];
  const lower = (t: string, path: string): string | undefined => {
    if (t === 'TYPE_UNSPECIFIED') {
      changes.push({ path, from: t, to: undefined });
      return undefined;
    }
    const l = t.toLowerCase();
    if (l !== t) changes.push({ path, from: t, to: l });
    return l;
  };
  const walk = (s: JsonValue, p: string): JsonValue => {
    if (!isJsonObject(s)) return s;
    let out: Map<string, JsonValue> | undefined;
    const set = (k: string, v: JsonValue | undefined): void => {
      out ??= new Map(s);
      if (v === undefined) out.delete(k);
      else out.set(k, v);
    };
    const type = s.get('type');
    if (typeof type === 'string') {
      const t = lower(type, `${p}/type`);
      if (t !== type) set('type', t);
    } else if (isJsonArray(type)) {
      const ts = type.map((x, i) => (typeof x === 'string' ? lower(x, `${p}/type/${i}`) : x));
      if (ts.some((x, i) => x !== type[i])) set('type', ts.filter((x): x is JsonValue => x !== undefined));
    }
    for (const k of SCHEMA_MAPS) {
      const m = s.get(k);
      if (!isJsonObject(m)) continue;
      const n = mapValues(m, (x, key) => walk(x, `${p}/${k}/${escapePointerToken(key)}`));
      if (n !== m) set(k, n);
    }
    for (const k of SCHEMA_LISTS) {
      const a = s.get(k);
      if (!isJsonArray(a)) continue;
      const n = mapItems(a, (x, i) => walk(x, `${p}/${k}/${i}`));
      if (n !== a) set(k, n);
    }
    for (const k of SCHEMA_ONE) {
      const v = s.get(k);
      if (v === undefined) continue;
      const n = isJsonArray(v) ? mapItems(v, (x, i) => walk(x, `${p}/${k}/${i}`)) : walk(v, `${p}/${k}`);
      if (n !== v) set(k, n);
    }
    return out ?? s;
  };
  const result = walk(schema, '');
  return { schema: result, changes };
}

/** The same object when no value changed, else a new Map in the same key order. */
function mapValues(m: JsonObject, f: (v: JsonValue, k: string) => JsonValue): JsonObject {
  let out: Map<string, JsonValue> | undefined;
  for (const [k, v] of m) {
    const n = f(v, k);
    if (n !== v) (out ??= new Map(m)).set(k, n);
  }
  return out ?? m;
}

/** The same array when no item changed, else a new array. */
function mapItems(a: readonly JsonValue[], f: (v: JsonValue, i: number) => JsonValue): readonly JsonValue[] {
  const n = a.map(f);
  return n.some((x, i) => x !== a[i]) ? n : a;
}
