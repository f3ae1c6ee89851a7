/** Scalars: string, number/integer, boolean, null, and enums written beside a `type`. */
import { isJsonArray, isJsonNumber, type JsonNumber, type JsonObject, type JsonValue } from '../ir/json.js';
import type { IrBase, IrEnum, IrNode, IrOrigin } from '../ir/nodes.js';

const num = (v: JsonValue | undefined): JsonNumber | undefined => (isJsonNumber(v) ? v : undefined);
const str = (v: JsonValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

/** `{type: string|number|integer|boolean, enum: […]}`: an enum that remembers its type. */
export function fromTypedEnum(base: IrBase, type: string, schema: JsonObject, origin: IrOrigin): IrEnum | undefined {
  const values = schema.get('enum');
  if (!isJsonArray(values)) return undefined;
  return { pointer: base.pointer, meta: base.meta, nullable: base.nullable, kind: 'enum', values, type, origin };
}

/** A string schema. */
export function fromString(base: IrBase, schema: JsonObject, origin: IrOrigin): IrNode {
  const e = fromTypedEnum(base, 'string', schema, origin);
  if (e) return e;
  return {
    pointer: base.pointer,
    meta: base.meta,
    nullable: base.nullable,
    kind: 'string',
    origin,
    format: str(schema.get('format')),
    pattern: str(schema.get('pattern')),
    minLength: num(schema.get('minLength')),
    maxLength: num(schema.get('maxLength')),
  };
}

/** A number or integer schema. */
export function fromNumber(base: IrBase, schema: JsonObject, origin: IrOrigin, integer: boolean): IrNode {
  const e = fromTypedEnum(base, integer ? 'integer' : 'number', schema, origin);
  if (e) return e;
  return {
    pointer: base.pointer,
    meta: base.meta,
    nullable: base.nullable,
    kind: 'number',
    origin,
    integer,
    minimum: num(schema.get('minimum')),
    maximum: num(schema.get('maximum')),
    exclusiveMinimum: num(schema.get('exclusiveMinimum')),
    exclusiveMaximum: num(schema.get('exclusiveMaximum')),
    multipleOf: num(schema.get('multipleOf')),
    format: str(schema.get('format')),
  };
}

/** A boolean schema (`type: boolean`). */
export function fromBoolean(base: IrBase, schema: JsonObject, origin: IrOrigin): IrNode {
  return fromTypedEnum(base, 'boolean', schema, origin) ?? { pointer: base.pointer, meta: base.meta, nullable: base.nullable, kind: 'boolean', origin };
}

/** `type: null`. */
export function fromNull(base: IrBase, origin: IrOrigin): IrNode {
  return { pointer: base.pointer, meta: base.meta, nullable: base.nullable, kind: 'null', origin };
}

/** `{k: v}` when v is defined, `{}` otherwise. */
export function opt<K extends string, V>(k: K, v: V | undefined): { [P in K]?: V } {
  return (v === undefined ? {} : { [k]: v }) as { [P in K]?: V };
}
