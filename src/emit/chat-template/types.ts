/**
 * The gpt-oss chat template's type printer: IR → the text its `render_typescript_type`
 * macro renders under Jinja2 (spec chat-template-format.md §3.1). Every reference quirk is
 * a named function here with a comment saying which template behaviour it copies.
 *
 * The template reads the schema as written, with Python's truthiness; the IR says what the
 * schema means. Where the two part ways and the IR keeps no trace (a `nullable` of "true", an
 * `enum` or `oneOf` that is not an array, a `required` that is a string, a description that
 * is not a string…), the one fact is read from the schema as written (`rawKeyword`), in a
 * function whose comment says so.
 */
import { CompileError } from '../../diagnostics.js';
import { isJsonArray, isJsonObject, type JsonArray, type JsonValue } from '../../ir/json.js';
import { EMPTY_META, hasNonEmptyEnum, oneOfOf, typeKeywordOf, type IrNode, type IrObject, type IrProperty } from '../../ir/nodes.js';
import { pyConcatOperand, TemplateFailure, undefinedAttribute, type JinjaError } from '../python/errors.js';
import { jinjaIterate, pyContains, pyLen } from '../python/jinja.js';
import { pyJsonDumps } from '../python/json.js';
import { plainType, pyStr, pyTruthy } from '../python/values.js';
import { fail, rawKeyword, schemaContext, type ChatTemplateContext } from './context.js';
import { noteItemsProperty, noteJoinNulls, noteNumberConcat, noteNumbers } from './js-jinja.js';

/**
 * `render_typescript_type(node)` on its own. `source` is the schema as written that the node
 * was lowered from (its pointers index it); without it the IR's reading is used throughout.
 * Throws a CompileError (`chat-template/fails`) where Jinja2 raises.
 */
export function chatTemplateType(node: IrNode, source?: JsonValue): string {
  try {
    return chatTemplateTypeIn(node, schemaContext(source));
  } catch (e) {
    if (!(e instanceof TemplateFailure)) throw e;
    throw new CompileError([{ code: 'chat-template/fails', severity: 'error', path: e.pointer, message: `the gpt-oss chat template fails on this schema: ${e.message}` }]);
  }
}

/** `render_typescript_type` with the printer's context: its branches in the template's order. */
export function chatTemplateTypeIn(node: IrNode, ctx: ChatTemplateContext): string {
  const kw = typeKeyword(node);
  if (kw?.name === 'array') return arrayType(node, kw.member, ctx);
  const names = typeList(node, ctx);
  if (names !== undefined) return typeListText(node, names, ctx);
  const variants = oneOfVariants(node, ctx);
  if (variants !== undefined) return oneOfText(variants, ctx);
  switch (kw?.name) {
    case 'string':
      return stringType(node, kw.member, ctx);
    case 'number':
    case 'integer':
      // enum and nullable are not read for numbers
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'object':
      return objectType(kw.member as IrObject, ctx);
    default:
      // no type, `null`, anyOf, allOf, $ref, const, an enum without type, names JSON Schema lacks
      return 'any';
  }
}

// ---------------------------------------------------------------------------------------
// What the template tests: `type`, a `type` list, `oneOf`

/** The members of a node that came from keywords of one schema object (or the node alone). */
function membersOf(node: IrNode): readonly IrNode[] {
  return node.kind === 'intersection' && node.origin === 'keywords' ? node.members : [node];
}

/** The schema's `type` when it was one string (`param_spec.type == "…"`), and the member it made. */
export function typeKeyword(node: IrNode): { readonly name: string; readonly member: IrNode } | undefined {
  for (const m of membersOf(node)) {
    const name = typeKeywordOf(m);
    if (name !== undefined) return { name, member: m };
  }
  return undefined;
}


/**
 * A non-empty `type` list, entries as written. IR lacks: a list with no string entry (the
 * lowering reads it as no `type`), so that one case is read from the schema as written.
 */
function typeList(node: IrNode, ctx: ChatTemplateContext): JsonArray | undefined {
  for (const m of membersOf(node)) if (m.kind === 'union' && m.origin === 'typeArray' && m.typeNames?.length) return m.typeNames;
  const raw = rawKeyword(node, 'type', ctx);
  return isJsonArray(raw) && raw.length > 0 ? raw : undefined;
}

/**
 * The variants of a truthy `oneOf`. IR lacks: a `oneOf` that is not an array: the template
 * loops over a string's characters or an object's keys (each renders `any`) and fails on a
 * number or boolean.
 */
function oneOfVariants(node: IrNode, ctx: ChatTemplateContext): readonly IrNode[] | undefined {
  const u = oneOfOf(node);
  if (u) return u.variants.length > 0 ? u.variants : undefined;
  const raw = rawKeyword(node, 'oneOf', ctx);
  if (raw === undefined || !pyTruthy(raw)) return undefined;
  const pointer = `${node.pointer}/oneOf`;
  return iterateRaw(raw, pointer, 'its `oneOf` is', ctx).map((): IrNode => ({ pointer, meta: EMPTY_META, nullable: false, kind: 'any', reason: 'invalid' }));
}

/** A `for` loop or `|join` over a value as written: characters, items or keys; fails on a number or boolean. */
function iterateRaw(raw: JsonValue, pointer: string, what: string, ctx: ChatTemplateContext): JsonValue[] {
  try {
    return jinjaIterate(raw);
  } catch (e) {
    return fail(ctx, pointer, `${what} ${plainType(raw)}, which the template loops over`, e as JinjaError);
  }
}

// ---------------------------------------------------------------------------------------
// Facts read with Python truthiness

/** `param_spec.nullable` is truthy. IR lacks: a truthy value other than `true` (`"true"`, `1`). */
function nullableTruthy(node: IrNode, ctx: ChatTemplateContext): boolean {
  return node.nullable || pyTruthy(rawKeyword(node, 'nullable', ctx));
}

/** ` | null` after an array and a plain string when `nullable` is truthy (other branches ignore it). */
function nullableSuffix(node: IrNode, ctx: ChatTemplateContext): string {
  return nullableTruthy(node, ctx) ? ' | null' : '';
}

/** `param_spec.description` as the template reads it. IR lacks: a description that is not a string. */
export function descriptionOf(node: IrNode, ctx: ChatTemplateContext): JsonValue | undefined {
  return node.meta.description ?? rawKeyword(node, 'description', ctx);
}

/**
 * `param_spec.enum` is truthy (what picks the raw default form). IR lacks: an enum beside
 * `type` object, array, null or an unknown name (the lowering drops it), and one that is not
 * an array.
 */
export function enumTruthy(node: IrNode, ctx: ChatTemplateContext): boolean {
  return hasNonEmptyEnum(node) || pyTruthy(rawKeyword(node, 'enum', ctx));
}

/** `param_spec.oneOf` is truthy. IR lacks: a `oneOf` that is not an array. */
export function oneOfTruthy(node: IrNode, ctx: ChatTemplateContext): boolean {
  const u = oneOfOf(node);
  return u ? u.variants.length > 0 : pyTruthy(rawKeyword(node, 'oneOf', ctx));
}

/**
 * `name in (required or [])`. IR lacks: a `required` that is not an array: a string matches
 * any substring, an object its keys, and a number or boolean makes the template fail.
 */
export function isRequired(object: IrNode, prop: IrProperty, ctx: ChatTemplateContext): boolean {
  const raw = rawKeyword(object, 'required', ctx);
  if (raw === undefined || isJsonArray(raw)) return prop.required;
  if (!pyTruthy(raw)) return false;
  try {
    return pyContains(raw, prop.name);
  } catch (e) {
    return fail(ctx, `${object.pointer}/required`, `its \`required\` is ${plainType(raw)}, not a list of names, and the template tests names with \`in\``, e as JinjaError);
  }
}

/** `"…" + value`: Jinja2 adds only a string to a string. */
export function concatenated(value: JsonValue, pointer: string, what: string, ctx: ChatTemplateContext): string {
  try {
    return pyConcatOperand(value);
  } catch (e) {
    noteNumberConcat(ctx, pointer, value);
    return fail(ctx, pointer, `${what} is ${plainType(value)}, and the template adds it to a string`, e as JinjaError);
  }
}

// ---------------------------------------------------------------------------------------
// The branches

/** Array items whose `type` names a primitive print that primitive with `[]` (their enum and description are lost). */
function primitiveArray(itemsType: string | undefined): string | undefined {
  switch (itemsType) {
    case 'string':
      return 'string[]';
    case 'number':
    case 'integer':
      return 'number[]';
    case 'boolean':
      return 'boolean[]';
    default:
      return undefined;
  }
}

/** The template gives up on item types longer than 50 characters (indentation counts) and on `object | object`. */
function collapseLongItems(inner: string): string {
  return inner === 'object | object' || pyLen(inner) > 50 ? 'any[]' : `${inner}[]`;
}

/** The schema the template reads as `items`: an array's item schema, the rest schema after `prefixItems`; a draft-07 tuple list renders `any`. */
function itemsOf(member: IrNode): IrNode | undefined {
  if (member.kind === 'array') return member.items;
  if (member.kind === 'tuple' && member.itemsKeyword === 'prefixItems' && member.rest) return member.rest;
  return undefined;
}

/** Rule 1, `type: array`: primitive items by name, others rendered and collapsed when long, `any[]` without items. */
function arrayType(node: IrNode, member: IrNode, ctx: ChatTemplateContext): string {
  const items = itemsOf(member);
  let text: string;
  if (items === undefined) text = 'any[]';
  else text = primitiveArray(typeKeyword(items)?.name) ?? collapseLongItems(chatTemplateTypeIn(items, ctx));
  return text + nullableSuffix(node, ctx);
}

/** Rule 2, a `type` list: the names as written (`integer` stays), Python's `str()` for anything else, joined by ` | `. */
function typeListText(node: IrNode, names: JsonArray, ctx: ChatTemplateContext): string {
  const pointer = `${node.pointer}/type`;
  names.forEach((n, k) => noteNumbers(ctx, names.length > 1 ? `${pointer}/${k}` : `${pointer}/0`, n));
  if (names.length === 1) return pyStr(names[0]);
  noteJoinNulls(ctx, pointer, names);
  return names.map(pyStr).join(' | ');
}

/** The run of spaces before a oneOf variant's `// default:`: the template's own source indentation (line 62). */
const VARIANT_DEFAULT_INDENT = ' '.repeat(20);

/**
 * Rule 3, `oneOf`: every variant inline (the template's "any for object variants" fallback
 * never fires: its `set` inside the loop does not leave the loop), each followed by
 * `// description` glued on, the padded `// default: json`, and ` | ⏎` between variants.
 */
function oneOfText(variants: readonly IrNode[], ctx: ChatTemplateContext): string {
  return variants
    .map((v, k) => {
      let out = chatTemplateTypeIn(v, ctx);
      const d = descriptionOf(v, ctx);
      if (pyTruthy(d)) out += `// ${concatenated(d as JsonValue, `${v.pointer}/description`, 'the description of a oneOf variant', ctx)}`;
      if (v.meta.default) {
        noteNumbers(ctx, `${v.pointer}/default`, v.meta.default.value);
        out += `${VARIANT_DEFAULT_INDENT}// default: ${pyJsonDumps(v.meta.default.value)}`;
      }
      return k < variants.length - 1 ? `${out} | \n` : out;
    })
    .join('');
}

/**
 * The values of a truthy `enum` under `type: string`. IR lacks: an enum that is not an array
 * (a string's characters or an object's keys are joined; a number or boolean fails).
 */
function stringEnumValues(node: IrNode, member: IrNode, ctx: ChatTemplateContext): readonly JsonValue[] | undefined {
  if (member.kind === 'enum' && member.values.length > 0) return member.values;
  const raw = rawKeyword(node, 'enum', ctx);
  if (raw === undefined || isJsonArray(raw) || !pyTruthy(raw)) return undefined;
  return iterateRaw(raw, `${node.pointer}/enum`, 'its `enum` is', ctx);
}

/** Rule 4, `type: string`: enum values in double quotes, unescaped, Python's `str()` for non-strings (`None`); else `string` and the nullable suffix. */
function stringType(node: IrNode, member: IrNode, ctx: ChatTemplateContext): string {
  const values = stringEnumValues(node, member, ctx);
  if (values === undefined) return `string${nullableSuffix(node, ctx)}`;
  const pointer = `${node.pointer}/enum`;
  noteJoinNulls(ctx, pointer, values);
  values.forEach((v, k) => noteNumbers(ctx, `${pointer}/${k}`, v));
  return `"${values.map(pyStr).join('" | "')}"`;
}

/** Between a nested property's `: ` and its type: a newline and the 16 spaces of the template's source indentation (line 94). */
const NESTED_BREAK = `\n${' '.repeat(16)}`;

/**
 * A `properties` that is there but is not an object: the template calls `.items()` on it
 * and fails. IR lacks it (the lowering reads it as no properties).
 */
function checkPropertiesMap(object: IrNode, ctx: ChatTemplateContext): void {
  const raw = rawKeyword(object, 'properties', ctx);
  if (raw !== undefined && pyTruthy(raw) && !isJsonObject(raw)) {
    fail(ctx, `${object.pointer}/properties`, `its \`properties\` is ${plainType(raw)}, not an object of schemas`, undefinedAttribute(raw, 'items'));
  }
}

/** Rule 6, `type: object`: properties inline as `{⏎name?: ⏎<16 spaces>T, …}` (no descriptions, no defaults); `object` without. */
function objectType(o: IrObject, ctx: ChatTemplateContext): string {
  checkPropertiesMap(o, ctx);
  if (o.properties.length === 0) return 'object';
  noteItemsProperty(
    ctx,
    o.pointer,
    o.properties.map((p) => p.name),
  );
  const parts = o.properties.map((p) => {
    const mark = isRequired(o, p, ctx) ? '' : '?';
    return `${p.name}${mark}: ${NESTED_BREAK}${chatTemplateTypeIn(p.schema, ctx)}`;
  });
  return `{\n${parts.join(', ')}}`;
}
