/** Scalars: string, number/integer, boolean, null, and enums written beside a `type`. */
import { isJsonArray, isJsonNumber, type JsonNumber, type JsonObject, type JsonValue } from '../ir/json.js';
import type { IrBase, IrEnum, IrNode, IrOrigin } from '../ir/nodes.js';

const num = (v: JsonValue | undefined): JsonNumber | undefined => (isJsonNumber(v) ? v : undefined);
const str = (v: JsonValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

/** `{type: string|number|integer|boolean, enum: […]}`: an enum that remembers its type. */
export function fromTypedEnum(base: IrBase, type: string, schema: JsonObject, origin: IrOrigin): IrEnum | undefined {
  const values = schema.get('enum');
  if (!isJsonArray(values)) return undefined;
  return { ...base, kind: 'enum', values, type, origin };
}

/** A string schema. */
export function fromString(base: IrBase, schema: JsonObject, origin: IrOrigin): IrNode {
  const e = fromTypedEnum(base, 'string', schema, origin);
  if (e) return e;
  return {
    ...base,
    kind: 'string',
    origin,
    ...opt('format', str(schema.get('format'))),
    ...opt('pattern', str(schema.get('pattern'))),
    ...opt('minLength', num(schema.get('minLength'))),
    ...opt('maxLength', num(schema.get('maxLength'))),
  };
}

/** A number or integer schema. */
export function fromNumber(base: IrBase, schema: JsonObject, origin: IrOrigin, integer: boolean): IrNode {
  const e = fromTypedEnum(base, integer ? 'integer' : 'number', schema, origin);
  if (e) return e;
  return {
    ...base,
    kind: 'number',
    origin,
    integer,
    ...opt('minimum', num(schema.get('minimum'))),
    ...opt('maximum', num(schema.get('maximum'))),
    ...opt('exclusiveMinimum', num(schema.get('exclusiveMinimum'))),
    ...opt('exclusiveMaximum', num(schema.get('exclusiveMaximum'))),
    ...opt('multipleOf', num(schema.get('multipleOf'))),
    ...opt('format', str(schema.get('format'))),
  };
}

/** A boolean schema (`type: boolean`). */
export function fromBoolean(base: IrBase, schema: JsonObject, origin: IrOrigin): IrNode {
  return fromTypedEnum(base, 'boolean', schema, origin) ?? { ...base, kind: 'boolean', origin };
}

/** `type: null`. */
export function fromNull(base: IrBase, origin: IrOrigin): IrNode {
  return { ...base, kind: 'null', origin };
}

/** `{k: v}` when v is defined, `{}` otherwise. */
export function opt<K extends string, V>(k: K, v: V | undefined): { [P in K]?: V } {
  return (v === undefined ? {} : { [k]: v }) as { [P in K]?: V };
}
