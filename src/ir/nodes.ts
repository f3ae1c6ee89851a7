/**
 * The intermediate representation: what a schema means, immutable, one kind per node.
 *
 * Meaning lives here; layout lives in the emitters. Where a reference renderer reacts to
 * how a schema was written rather than what it means (harmony's oneOf-before-type
 * precedence, its `nullable` substring test, a `type` list printed by name), the node keeps
 * that fact in a field named for it (`origin`, `typeNames`, `nullable`), never by changing
 * what another field means.
 */
import { assertNever } from '../diagnostics.js';
import type { JsonNumber, JsonValue } from './json.js';

/** Annotations of a schema, kept apart from its type. */
export interface IrMeta {
  /** `title`, when it is a string. */
  readonly title?: string;
  /** `description`, when it is a string. */
  readonly description?: string;
  /** `examples`, when it is an array (possibly empty). */
  readonly examples: readonly JsonValue[];
  /** `default`, boxed: `{ value: null }` is a null default, absence is no default. */
  readonly default?: { readonly value: JsonValue };
  /** `deprecated: true`. */
  readonly deprecated: boolean;
  /** `readOnly` / `writeOnly`. */
  readonly readOnly: boolean;
  readonly writeOnly: boolean;
}

/** Where a node's type came from in the schema as written. */
export type IrOrigin =
  /** the `type` keyword, a single string */
  | 'type'
  /** one entry of a `type` array (the node is a variant of an `IrUnion` with origin `typeArray`) */
  | 'typeArray'
  /** no `type`: implied by other keywords (`properties` → object, `items` → array) */
  | 'implicit';

/** Fields every node has. */
export interface IrBase {
  /** JSON Pointer of the schema this node comes from, relative to the tool's input document. */
  readonly pointer: string;
  readonly meta: IrMeta;
  /** OpenAPI `nullable: true` on this schema. */
  readonly nullable: boolean;
}

/** A string. */
export interface IrString extends IrBase {
  readonly kind: 'string';
  readonly origin: IrOrigin;
  readonly format?: string;
  readonly pattern?: string;
  readonly minLength?: JsonNumber;
  readonly maxLength?: JsonNumber;
}

/** A number or an integer. */
export interface IrNumber extends IrBase {
  readonly kind: 'number';
  readonly origin: IrOrigin;
  /** `type: integer`. */
  readonly integer: boolean;
  readonly minimum?: JsonNumber;
  readonly maximum?: JsonNumber;
  readonly exclusiveMinimum?: JsonNumber;
  readonly exclusiveMaximum?: JsonNumber;
  readonly multipleOf?: JsonNumber;
  readonly format?: string;
}

/** A boolean. */
export interface IrBoolean extends IrBase {
  readonly kind: 'boolean';
  readonly origin: IrOrigin;
}

/** JSON null (`type: "null"`). */
export interface IrNull extends IrBase {
  readonly kind: 'null';
  readonly origin: IrOrigin;
}

/** Why a node accepts anything (or, for `false`, nothing). */
export type IrAnyReason =
  /** `{}` or a schema with only annotations */
  | 'empty'
  /** the boolean schema `true` */
  | 'true'
  /** the boolean schema `false`: nothing is valid */
  | 'false'
  /** a `type` name JSON Schema does not define (kept in `typeName`) */
  | 'unknown-type'
  /** `not`, or other keywords whose meaning is not a type */
  | 'unsupported'
  /** not a schema at all (a string, number, array where a schema should be) */
  | 'invalid';

/** Any value. */
export interface IrAny extends IrBase {
  readonly kind: 'any';
  readonly reason: IrAnyReason;
  /** The `type` value as written, for `unknown-type`. */
  readonly typeName?: JsonValue;
}

/** One constant value (`const`). */
export interface IrLiteral extends IrBase {
  readonly kind: 'literal';
  readonly value: JsonValue;
}

/** One of a list of values (`enum`), with the `type` written beside it, if any. */
export interface IrEnum extends IrBase {
  readonly kind: 'enum';
  readonly values: readonly JsonValue[];
  /** The sibling `type` keyword's string value (`string`, `integer`…), absent when there was none. */
  readonly type?: string;
  readonly origin: IrOrigin | 'enum';
}

/** An array of one item type. */
export interface IrArray extends IrBase {
  readonly kind: 'array';
  readonly origin: IrOrigin;
  /** The item schema; absent when the schema has no `items`. */
  readonly items?: IrNode;
  /** True when `items` was present but not a schema object (so it could not be read). */
  readonly itemsInvalid: boolean;
  readonly minItems?: JsonNumber;
  readonly maxItems?: JsonNumber;
  readonly uniqueItems: boolean;
}

/** A fixed-length or prefixed array (`prefixItems`, or draft-04 `items: [..]`). */
export interface IrTuple extends IrBase {
  readonly kind: 'tuple';
  readonly origin: IrOrigin;
  readonly items: readonly IrNode[];
  /** Where the positional items were written. */
  readonly itemsKeyword: 'prefixItems' | 'items';
  /** Items after the prefix: a schema (`true` as an `any` node), `false` (none allowed), or absent (not written: anything). */
  readonly rest?: IrNode | false;
  readonly minItems?: JsonNumber;
  readonly maxItems?: JsonNumber;
}

/** One property of an object. */
export interface IrProperty {
  readonly name: string;
  readonly required: boolean;
  readonly schema: IrNode;
}

/** An object with named properties. */
export interface IrObject extends IrBase {
  readonly kind: 'object';
  readonly origin: IrOrigin;
  /** Properties in document order. */
  readonly properties: readonly IrProperty[];
  /** Names in `required` that are not among the properties. */
  readonly extraRequired: readonly string[];
  /** `additionalProperties`: a schema, `false`, or absent (allowed, unconstrained). */
  readonly additional?: IrNode | false;
  /** `patternProperties`, in document order. */
  readonly patternProperties: readonly { readonly pattern: string; readonly schema: IrNode }[];
  readonly minProperties?: JsonNumber;
  readonly maxProperties?: JsonNumber;
}

/** One of several schemas. */
export interface IrUnion extends IrBase {
  readonly kind: 'union';
  /** `oneOf`, `anyOf`, or a `type` array. */
  readonly origin: 'oneOf' | 'anyOf' | 'typeArray';
  readonly variants: readonly IrNode[];
  /** For a `type` array: its entries exactly as written (strings or not). */
  readonly typeNames?: readonly JsonValue[];
}

/** All of several schemas. */
export interface IrIntersection extends IrBase {
  readonly kind: 'intersection';
  /**
   * `allOf`, or `keywords`: one schema object that combines keywords each of which
   * constrains the value (e.g. `type: object` with `anyOf`, or `type` with `oneOf`). The
   * members of a `keywords` intersection share the schema's pointer and carry no meta; the
   * schema's meta and `nullable` are on the intersection.
   */
  readonly origin: 'allOf' | 'keywords';
  readonly members: readonly IrNode[];
}

/** A local reference (`$ref`). */
export interface IrRef extends IrBase {
  readonly kind: 'ref';
  /** The reference as written. */
  readonly ref: string;
  /** The JSON Pointer (within the parameters schema) it resolves to; absent when it does not resolve. */
  readonly target?: string;
  /** A short name for the target (the last pointer token), for printers that declare aliases. */
  readonly name?: string;
  /** True when the target is only more `$ref`s leading back here (meaningless; printers show any). */
  readonly circular?: boolean;
}

/** Any IR node. */
export type IrNode =
  | IrString
  | IrNumber
  | IrBoolean
  | IrNull
  | IrAny
  | IrLiteral
  | IrEnum
  | IrArray
  | IrTuple
  | IrObject
  | IrUnion
  | IrIntersection
  | IrRef;

/** The kinds of IR nodes. */
export type IrKind = IrNode['kind'];

/** A lowered tool. */
export interface IrTool {
  readonly name: string;
  /** The tool description when it is a string. */
  readonly description?: string;
  /**
   * The parameters schema: absent when the tool has none (or JSON null). Any other value,
   * object schema or not, is lowered.
   */
  readonly parameters?: IrNode;
  /** Definitions reachable by `$ref`, keyed by their pointer within the parameters schema. */
  readonly definitions: ReadonlyMap<string, IrNode>;
  /** JSON Pointer of the tool in the input document. */
  readonly pointer: string;
}

/** A lowered catalog: tools grouped in a namespace. */
export interface IrCatalog {
  readonly namespace: string;
  readonly description?: string;
  readonly tools: readonly IrTool[];
}

/** An empty meta. */
export const EMPTY_META: IrMeta = Object.freeze({ title: undefined, description: undefined, examples: Object.freeze([]) as readonly JsonValue[], default: undefined, deprecated: false, readOnly: false, writeOnly: false });

/** True when the schema had a non-empty `enum` (the node, a member of its keywords intersection, or a variant of its type list). */
export function hasNonEmptyEnum(node: IrNode): boolean {
  if (node.kind === 'enum') return node.values.length > 0;
  if (node.kind === 'intersection' && node.origin === 'keywords') return node.members.some(hasNonEmptyEnum);
  if (node.kind === 'union' && node.origin === 'typeArray') return node.variants.some(hasNonEmptyEnum);
  return false;
}

/** For a keywords intersection, its oneOf member; for a oneOf union, itself. */
export function oneOfOf(node: IrNode): IrUnion | undefined {
  if (node.kind === 'union' && node.origin === 'oneOf') return node;
  if (node.kind === 'intersection' && node.origin === 'keywords') {
    for (const m of node.members) if (m.kind === 'union' && m.origin === 'oneOf') return m;
  }
  return undefined;
}

/** The JSON Schema `type` string a node was built from, when it came from a single `type` keyword (`integer` for an integer number; an unknown type's own name). */
export function typeKeywordOf(n: IrNode): string | undefined {
  switch (n.kind) {
    case 'string':
    case 'boolean':
    case 'null':
    case 'object':
    case 'array':
      return n.origin === 'type' ? n.kind : undefined;
    case 'tuple':
      return n.origin === 'type' ? 'array' : undefined;
    case 'number':
      return n.origin === 'type' ? (n.integer ? 'integer' : 'number') : undefined;
    case 'enum':
      return n.origin === 'type' ? n.type : undefined;
    case 'any':
      return n.reason === 'unknown-type' && typeof n.typeName === 'string' ? n.typeName : undefined;
    case 'literal':
    case 'union':
    case 'intersection':
    case 'ref':
      return undefined;
    default:
      return assertNever(n);
  }
}
