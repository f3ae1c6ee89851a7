/** Arrays and tuples: `items`, `prefixItems`, draft-07 `items: [..]` with `additionalItems`. */
import { isJsonArray, isJsonNumber, isJsonObject, type JsonObject, type JsonValue } from '../ir/json.js';
import type { IrBase, IrNode, IrOrigin } from '../ir/nodes.js';
import type { LowerContext } from './context.js';
import { lowerAt } from './index.js';

/** An array schema (`type: array`, or implied by `items` / `prefixItems`). */
export function fromArray(base: IrBase, schema: JsonObject, pointer: string, depth: number, ctx: LowerContext, origin: IrOrigin): IrNode {
  const items = schema.get('items');
  const prefix = schema.get('prefixItems');
  const minItems = num(schema.get('minItems'));
  const maxItems = num(schema.get('maxItems'));
  const rest = (v: JsonValue | undefined, p: string): IrNode | false | undefined =>
    v === undefined ? undefined : v === false ? false : lowerAt(v, p, depth + 1, ctx);
  if (isJsonArray(prefix)) {
    return {
      pointer: base.pointer, meta: base.meta, nullable: base.nullable,
      kind: 'tuple',
      origin,
      itemsKeyword: 'prefixItems',
      items: prefix.map((s, k) => lowerAt(s, `${pointer}/prefixItems/${k}`, depth + 1, ctx)),
      rest: rest(items, `${pointer}/items`),
      minItems,
      maxItems,
    };
  }
  if (isJsonArray(items)) {
    return {
      pointer: base.pointer, meta: base.meta, nullable: base.nullable,
      kind: 'tuple',
      origin,
      itemsKeyword: 'items',
      items: items.map((s, k) => lowerAt(s, `${pointer}/items/${k}`, depth + 1, ctx)),
      rest: rest(schema.get('additionalItems'), `${pointer}/additionalItems`),
      minItems,
      maxItems,
    };
  }
  const itemsValid = items === undefined || isJsonObject(items) || typeof items === 'boolean';
  if (!itemsValid) ctx.report('warning', 'schema/invalid-subschema', `${pointer}/items`, 'items is not a schema (an object or a boolean); it is ignored');
  return {
    pointer: base.pointer, meta: base.meta, nullable: base.nullable,
    kind: 'array',
    origin,
    items: items !== undefined && itemsValid ? lowerAt(items, `${pointer}/items`, depth + 1, ctx) : undefined,
    itemsInvalid: !itemsValid,
    minItems,
      maxItems,
    uniqueItems: schema.get('uniqueItems') === true,
  };
}

function num(v: JsonValue | undefined) {
  return isJsonNumber(v) ? v : undefined;
}
