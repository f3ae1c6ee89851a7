/** Objects: properties in document order, required, additionalProperties, patternProperties. */
import { escapePointerToken, isJsonArray, isJsonNumber, isJsonObject, jsonTypeOf, type JsonObject, type JsonValue } from '../ir/json.js';
import type { IrBase, IrNode, IrObject, IrOrigin, IrProperty } from '../ir/nodes.js';
import type { LowerContext } from './context.js';
import { lowerAt } from './index.js';

const NONE: string[] = [];
/** No required names (shared; never written). */
const NO_NAMES: ReadonlySet<string> = new Set();

/** An object schema (`type: object`, or implied by `properties` and its kin). */
export function fromObject(base: IrBase, schema: JsonObject, pointer: string, depth: number, ctx: LowerContext, origin: IrOrigin): IrObject {
  const requiredRaw = schema.get('required');
  let required: ReadonlySet<string> = NO_NAMES;
  if (isJsonArray(requiredRaw)) {
    const names = new Set<string>();
    required = names;
    requiredRaw.forEach((r, k) => {
      if (typeof r === 'string') names.add(r);
      else ctx.report('warning', 'schema/required-not-string', `${pointer}/required/${k}`, `a required entry is a ${jsonTypeOf(r)}, not a property name; it is ignored`);
    });
  } else if (requiredRaw !== undefined) {
    ctx.report('warning', 'schema/required-not-array', `${pointer}/required`, `required is a ${jsonTypeOf(requiredRaw)}, not an array of names; no property is marked required by it`);
  }

  const props = schema.get('properties');
  const properties: IrProperty[] = [];
  if (isJsonObject(props)) {
    // forEach, not for-of: no iterator results (this runs before V8 optimises it, in a CLI)
    props.forEach((sub, name) => {
      const p = `${pointer}/properties/${escapePointerToken(name)}`;
      if (isJsonObject(sub) && sub.get('required') === true) {
        ctx.report('warning', 'schema/required-boolean', `${p}/required`, '`required: true` on a property is draft-03 style; list the name in the parent\'s `required` array instead (the property is shown as optional)');
      }
      properties.push({ name, required: required.has(name), schema: lowerAt(sub, p, depth + 1, ctx) });
    });
  } else if (props !== undefined && props !== null) {
    ctx.report('warning', 'schema/properties-not-object', `${pointer}/properties`, `properties is a ${jsonTypeOf(props)}, not an object of schemas; no property can be shown`);
  }
  let extraRequired: string[] = NONE;
  if (required.size > 0) {
    // the properties are the keys of `properties` (none when it is not an object)
    const named = isJsonObject(props) ? props : undefined;
    required.forEach((r) => {
      if (named === undefined || !named.has(r)) (extraRequired === NONE ? (extraRequired = []) : extraRequired).push(r);
    });
  }

  const addRaw = schema.get('additionalProperties');
  let additional: IrNode | false | undefined;
  if (addRaw === false) additional = false;
  else if (addRaw !== undefined && addRaw !== true) additional = lowerAt(addRaw, `${pointer}/additionalProperties`, depth + 1, ctx);

  const patternProperties: { pattern: string; schema: IrNode }[] = [];
  const pp = schema.get('patternProperties');
  if (isJsonObject(pp)) {
    for (const pattern of pp.keys()) patternProperties.push({ pattern, schema: lowerAt(pp.get(pattern) as JsonValue, `${pointer}/patternProperties/${escapePointerToken(pattern)}`, depth + 1, ctx) });
  }
  const minP = schema.get('minProperties');
  const maxP = schema.get('maxProperties');
  return {
    pointer: base.pointer, meta: base.meta, nullable: base.nullable,
    kind: 'object',
    origin,
    properties,
    extraRequired,
    additional: additional,
    patternProperties,
    minProperties: isJsonNumber(minP) ? minP : undefined,
    maxProperties: isJsonNumber(maxP) ? maxP : undefined,
  };
}
