/** oneOf, anyOf, allOf and `type` arrays. */
import { isJsonArray, type JsonArray, type JsonObject } from '../ir/json.js';
import { EMPTY_META, type IrBase, type IrIntersection, type IrUnion } from '../ir/nodes.js';
import type { LowerContext } from './context.js';
import { lowerAt, lowerByTypeName } from './index.js';

/** `oneOf` / `anyOf`: each variant lowered at its own pointer. */
export function fromUnion(base: IrBase, variants: JsonArray, keyword: 'oneOf' | 'anyOf', pointer: string, depth: number, ctx: LowerContext): IrUnion {
  if (variants.length === 0) ctx.report('warning', 'schema/empty-union', `${pointer}/${keyword}`, `${keyword} is empty: no value can match`);
  return { pointer: base.pointer, meta: base.meta, nullable: base.nullable, kind: 'union', origin: keyword, variants: variants.map((v, k) => lowerAt(v, `${pointer}/${keyword}/${k}`, depth + 1, ctx)) };
}

/** `allOf`: each member lowered at its own pointer. */
export function fromAllOf(base: IrBase, members: JsonArray, pointer: string, depth: number, ctx: LowerContext): IrIntersection {
  return { pointer: base.pointer, meta: base.meta, nullable: base.nullable, kind: 'intersection', origin: 'allOf', members: members.map((v, k) => lowerAt(v, `${pointer}/allOf/${k}`, depth + 1, ctx)) };
}

/**
 * A `type` array: one variant per string entry, each reading the schema's other keywords
 * under that one type. Returns undefined when no entry is a string (treated as no `type`).
 */
export function fromTypeArray(base: IrBase, types: JsonArray, schema: JsonObject, pointer: string, depth: number, ctx: LowerContext): IrUnion | undefined {
  const names = types.filter((t): t is string => typeof t === 'string');
  if (names.length !== types.length) ctx.report('warning', 'schema/invalid-type', `${pointer}/type`, 'a type entry is not a string; it is ignored');
  if (names.length === 0) return undefined;
  const variantBase: IrBase = { pointer: base.pointer, meta: EMPTY_META, nullable: false };
  return {
    pointer: base.pointer, meta: base.meta, nullable: base.nullable,
    kind: 'union',
    origin: 'typeArray',
    typeNames: types,
    variants: names.map((n) => lowerByTypeName(n, variantBase, schema, pointer, depth, ctx, 'typeArray')),
  };
}

export { isJsonArray };
