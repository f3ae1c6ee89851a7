/**
 * Schemas of JavaScript schema libraries, made JSON Schema before a JavaScript value is read (the
 * reading stays synchronous):
 *
 * - zod 4 schemas (classic or mini, recognised by their `_zod` internals) through zod's own
 *   `toJSONSchema`, loaded with `require` only when one is seen (zod is an optional peer dependency);
 * - zod 3 schemas: an error saying how to convert them (zod 3 has no converter of its own);
 * - other Standard JSON Schema libraries (`~standard.jsonSchema.input`);
 * - the Vercel AI SDK's `jsonSchema()` / `zodSchema()` wrapper, written as JSON would show it:
 *   `{jsonSchema: {…}}` (the reader unwraps it where a tool keeps its parameters).
 *
 * A tool object's functions (`execute`, `invoke`, `onInputStart`…) are its code, not its definition:
 * they are dropped. Anything else is left for the reader to convert (and to report).
 */
import { createRequire } from 'node:module';
import { escapePointerToken, JsonNumber } from '../ir/json.js';

/** A problem found while preparing a JavaScript value: an error at a JSON Pointer of the input. */
export interface PrepareProblem {
  readonly code: string;
  readonly path: string;
  readonly message: string;
}

/** The options zod's `toJSONSchema` is called with: the tool's input, draft-07, as the MCP SDK and the AI SDK call it. */
export const ZOD_JSON_SCHEMA_OPTIONS = { target: 'draft-7', io: 'input' } as const;

/** zod's `toJSONSchema`, as this module calls it. */
export type ZodToJsonSchema = (schema: unknown, options: typeof ZOD_JSON_SCHEMA_OPTIONS) => unknown;

/** Options of `prepareJsValue`. */
export interface PrepareOptions {
  /** How zod's `toJSONSchema` is loaded (tests replace it). Default: {@link loadZodToJsonSchema}. */
  readonly loadZod?: () => ZodToJsonSchema;
}

/** Load zod's `toJSONSchema` from where harmony-catalog is installed (`zod/v4/core`: zod 4, and zod 3.25's zod 4 preview). */
export function loadZodToJsonSchema(): ZodToJsonSchema {
  const core = createRequire(import.meta.url)('zod/v4/core') as { toJSONSchema?: unknown };
  if (typeof core.toJSONSchema !== 'function') throw new Error('zod/v4/core has no toJSONSchema');
  return core.toJSONSchema as ZodToJsonSchema;
}

let loaded: ZodToJsonSchema | Error | undefined;

/** The default loader's result, loaded once. */
function defaultZod(): ZodToJsonSchema {
  if (loaded === undefined) {
    try {
      loaded = loadZodToJsonSchema();
    } catch (e) {
      loaded = e instanceof Error ? e : new Error(String(e));
    }
  }
  if (loaded instanceof Error) throw loaded;
  return loaded;
}

/** The AI SDK's mark on the schemas `jsonSchema()` and `zodSchema()` return. */
const AI_SDK_SCHEMA = Symbol.for('vercel.ai.schema');

/** Keys of a tool object that hold its definition: a function there is an error to report, not code to drop. */
const DEFINITION_KEYS = new Set(['name', 'description', 'title', 'parameters', 'inputSchema', 'input_schema', 'function']);
/** A tool object (its functions are code): it has one of these keys. */
const TOOL_KEYS = ['inputSchema', 'parameters', 'input_schema', 'execute', 'invoke'];

/** True for a zod 4 schema (classic or mini): `_zod` internals with a `def`. */
export function isZod4Schema(v: object): boolean {
  const z = (v as { _zod?: unknown })._zod;
  return typeof z === 'object' && z !== null && 'def' in z;
}

/** True for a zod 3 schema: a `_def` with a `typeName` and a `safeParse` method, no `_zod`. */
export function isZod3Schema(v: object): boolean {
  const d = (v as { _def?: unknown })._def;
  return typeof d === 'object' && d !== null && typeof (d as { typeName?: unknown }).typeName === 'string' && typeof (v as { safeParse?: unknown }).safeParse === 'function';
}

/** The Standard Schema properties (`~standard`) of a value, when it has them. */
function standardOf(v: object): { vendor: string; jsonSchema?: { input?: unknown } } | undefined {
  if (!('~standard' in v)) return undefined;
  const s = (v as Record<string, unknown>)['~standard'];
  if (typeof s !== 'object' || s === null) return undefined;
  const { version, vendor } = s as { version?: unknown; vendor?: unknown };
  return version === 1 && typeof vendor === 'string' ? (s as { vendor: string; jsonSchema?: { input?: unknown } }) : undefined;
}

/** The message of an exception. */
function reason(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

const NOT_A_SCHEMA = Symbol('not a schema');

/**
 * Replace the schema-library schemas inside a JavaScript value by JSON Schema, and drop tool objects'
 * functions. Returns the value itself when nothing changed (objects are copied only on the way to a
 * change). A schema that cannot be converted is reported in `problems` and becomes null.
 */
export function prepareJsValue(input: unknown, problems: PrepareProblem[], options: PrepareOptions = {}): unknown {
  const ancestors = new Set<object>();
  const walk = (v: unknown, p: string): unknown => {
    if (typeof v !== 'object' || v === null || v instanceof JsonNumber || ancestors.has(v)) return v;
    const converted = librarySchema(v, p, problems, options);
    if (converted !== NOT_A_SCHEMA) return converted;
    // the reader calls toJSON itself
    if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return v;
    ancestors.add(v);
    try {
      if (Array.isArray(v)) {
        let out: unknown[] | undefined;
        for (let i = 0; i < v.length; i++) {
          const x: unknown = v[i];
          const y = walk(x, `${p}/${i}`);
          if (y !== x && !out) out = v.slice(0, i);
          if (out) out.push(y);
        }
        return out ?? v;
      }
      if (v instanceof Map) {
        let changed = false;
        const out = new Map<unknown, unknown>();
        for (const [k, x] of v) {
          const y = typeof k === 'string' ? walk(x, `${p}/${escapePointerToken(k)}`) : x;
          if (y !== x) changed = true;
          out.set(k, y);
        }
        return changed ? out : v;
      }
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o);
      const tool = TOOL_KEYS.some((k) => Object.prototype.hasOwnProperty.call(o, k));
      let changed = false;
      const entries: [string, unknown][] = [];
      for (const k of keys) {
        const x = o[k];
        if (tool && typeof x === 'function' && !DEFINITION_KEYS.has(k)) {
          changed = true;
          continue;
        }
        const y = walk(x, `${p}/${escapePointerToken(k)}`);
        if (y !== x) changed = true;
        entries.push([k, y]);
      }
      if (!changed) return v;
      const out: Record<string, unknown> = {};
      // own data properties, so `__proto__` stays an ordinary key
      for (const [k, y] of entries) Object.defineProperty(out, k, { value: y, enumerable: true, writable: true, configurable: true });
      return out;
    } finally {
      ancestors.delete(v);
    }
  };
  return walk(input, '');
}

/** A schema library's schema made JSON Schema (null with a problem when it cannot be), or NOT_A_SCHEMA. */
function librarySchema(v: object, p: string, problems: PrepareProblem[], options: PrepareOptions): unknown {
  if (isZod4Schema(v)) return fromZod4(v, p, problems, options);
  if (isZod3Schema(v)) {
    problems.push({
      code: 'input/zod-3',
      path: p,
      message:
        'a zod 3 schema, which has no JSON Schema converter of its own: upgrade to zod 4 (npm install zod@4), ' +
        'or convert it first (zodToJsonSchema(schema) from the zod-to-json-schema package) and pass the JSON Schema',
    });
    return null;
  }
  if ((v as Record<symbol, unknown>)[AI_SDK_SCHEMA] === true) {
    let schema: unknown;
    try {
      schema = (v as { jsonSchema?: unknown }).jsonSchema;
    } catch (e) {
      problems.push({ code: 'input/schema-conversion', path: p, message: `the AI SDK schema's jsonSchema failed: ${reason(e)}` });
      return null;
    }
    if (typeof (schema as { then?: unknown } | null)?.then === 'function') {
      problems.push({ code: 'input/schema-conversion', path: p, message: "the AI SDK schema's jsonSchema is a promise: await it and pass the JSON Schema ({ inputSchema: await schema.jsonSchema })" });
      return null;
    }
    return { jsonSchema: prepareJsValue(schema, problems, options) };
  }
  const std = standardOf(v);
  if (std) {
    const input = std.jsonSchema?.input;
    if (typeof input !== 'function') {
      problems.push({
        code: 'input/schema-conversion',
        path: p,
        message: `a ${std.vendor} schema (Standard Schema) without a JSON Schema converter (~standard.jsonSchema): convert it to JSON Schema first and pass that`,
      });
      return null;
    }
    try {
      return input.call(std.jsonSchema, { target: 'draft-07' });
    } catch (e) {
      problems.push({ code: 'input/schema-conversion', path: p, message: `the ${std.vendor} schema cannot be converted to JSON Schema: ${reason(e)}` });
      return null;
    }
  }
  return NOT_A_SCHEMA;
}

/** A zod 4 schema through zod's own `toJSONSchema` (else the schema's own Standard JSON Schema converter). */
function fromZod4(v: object, p: string, problems: PrepareProblem[], options: PrepareOptions): unknown {
  let convert: ZodToJsonSchema | undefined;
  let whyNot = '';
  try {
    convert = (options.loadZod ?? defaultZod)();
  } catch (e) {
    whyNot = reason(e);
  }
  try {
    if (convert) return convert(v, ZOD_JSON_SCHEMA_OPTIONS);
    // zod cannot be loaded from here, but zod ≥ 4.2 schemas carry their converter (same options: input, draft-07)
    const input = standardOf(v)?.jsonSchema?.input;
    if (typeof input === 'function') return input.call(standardOf(v)!.jsonSchema, { target: 'draft-07' });
  } catch (e) {
    problems.push({ code: 'input/schema-conversion', path: p, message: `zod's toJSONSchema cannot convert this schema: ${reason(e)}` });
    return null;
  }
  problems.push({
    code: 'input/zod-unavailable',
    path: p,
    message:
      `a zod schema, but zod cannot be loaded from harmony-catalog (${whyNot.split('\n')[0]}): install zod 4 beside harmony-catalog (npm install zod), ` +
      "or pass JSON Schema: z.toJSONSchema(schema, { target: 'draft-7', io: 'input' })",
  });
  return null;
}
