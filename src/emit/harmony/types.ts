/**
 * The openai-harmony type printer: IR → the TypeScript-like text openai-harmony v0.0.8
 * writes for a schema (spec harmony-format.md §5). Every reference quirk is a named
 * function here with a comment saying which behaviour it copies.
 *
 * One layout, two sets of rules: `REFERENCE_RULES` (the default) copies the reference byte
 * for byte; the faithful rules (`emit/harmony/faithful.ts`) keep the same layout but write
 * what the reference drops or writes raw (quoted keys, split comments, literal enums, JSON
 * values, TypeScript forms for what it prints as `any`). Each difference is one field of
 * `HarmonyRules`, tested where the reference's choice is made.
 */
import { assertNever } from '../../diagnostics.js';
import { quoteJsonString, stringifyCompactRust, type JsonValue } from '../../ir/json.js';
import { hasNonEmptyEnum, oneOfOf, type IrNode, type IrObject, type IrProperty, type IrRef, type IrTuple, type IrUnion } from '../../ir/nodes.js';

/** Where the printer departs from the reference (every field `false`: the reference's own output). */
export interface HarmonyRules {
  /** Property keys that are not identifiers are written as JSON strings (reference: raw). */
  readonly quoteKeys: boolean;
  /** Comment text is split at every line break into `//` lines, and kept on one line in trailing comments (reference: raw, newlines and all). */
  readonly splitComments: boolean;
  /** Every enum value is written as a literal, strings as JSON strings (reference: a string enum's strings raw in quotes; other enums their type). */
  readonly literalEnums: boolean;
  /** Defaults and examples are written as JSON, non-string examples included (reference: strings raw in quotes, other examples dropped). */
  readonly jsonValues: boolean;
  /**
   * Types by node kind, not by the keyword written: TypeScript forms for what the reference
   * prints as `any` (null, tuples, intersections, literals, unresolved refs as a comment),
   * index signatures for `additionalProperties`/`patternProperties`, nullable array items,
   * unions grouped in parentheses where `[]` or `&` follows.
   */
  readonly fullTypes: boolean;
  /** A property's format, pattern, bounds and `deprecated` as one comment line, and its array items' description (reference: never printed). */
  readonly constraintComments: boolean;
}

/** The reference's rules: openai-harmony v0.0.8, byte for byte. */
export const REFERENCE_RULES: HarmonyRules = Object.freeze({
  quoteKeys: false,
  splitComments: false,
  literalEnums: false,
  jsonValues: false,
  fullTypes: false,
  constraintComments: false,
});

/** The members of a node whose types harmony prints, most precedent first. */
export type HarmonyReading = { readonly node: IrNode; readonly as: 'oneOf' | 'typeArray' | 'type' | 'any' };

/** Harmony's precedence (§5 rules 1–4): a oneOf array, then a type list, then a type name, else any. */
export function harmonyReading(node: IrNode): HarmonyReading {
  const oneOf = oneOfOf(node);
  if (oneOf) return { node: oneOf, as: 'oneOf' };
  const members = node.kind === 'intersection' && node.origin === 'keywords' ? node.members : [node];
  for (const m of members) if (m.kind === 'union' && m.origin === 'typeArray') return { node: m, as: 'typeArray' };
  for (const m of members) if (fromTypeKeyword(m)) return { node: m, as: 'type' };
  return { node, as: 'any' };
}

/** True when the node came from a single `type` string (harmony reads nothing else). */
function fromTypeKeyword(n: IrNode): boolean {
  switch (n.kind) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
    case 'array':
    case 'tuple':
    case 'object':
    case 'enum':
      return n.origin === 'type';
    case 'any':
      return n.reason === 'unknown-type';
    case 'literal':
    case 'union':
    case 'intersection':
    case 'ref':
      return false;
    default:
      return assertNever(n);
  }
}

/** `ts(schema, indent)` of spec §5 (with `rules`, the faithful variant: by node kind). */
export function harmonyType(node: IrNode, indent: string, rules: HarmonyRules = REFERENCE_RULES): string {
  if (rules.fullTypes) return typeByKind(node, indent, rules);
  // harmonyReading's precedence, without its result object (this runs once per schema node)
  const oneOf = oneOfOf(node);
  if (oneOf) return topLevelOneOf(oneOf, indent, rules);
  if (node.kind === 'intersection' && node.origin === 'keywords') {
    for (const m of node.members) if (m.kind === 'union' && m.origin === 'typeArray') return typeListNames(m);
    for (const m of node.members) if (fromTypeKeyword(m)) return byTypeName(m, indent, rules);
    return 'any';
  }
  if (node.kind === 'union' && node.origin === 'typeArray') return typeListNames(node);
  return fromTypeKeyword(node) ? byTypeName(node, indent, rules) : 'any';
}

/** Full types: each node kind has its TypeScript form (the faithful rules; the reference never comes here). */
function typeByKind(node: IrNode, indent: string, r: HarmonyRules): string {
  switch (node.kind) {
    case 'union':
      return topLevelOneOf(node, indent, r);
    case 'intersection':
      return node.members.map((m) => grouped(m, harmonyType(m, indent, r))).join(' & ');
    case 'literal':
      return literalText(node.value);
    case 'ref':
      return refComment(node);
    case 'any':
      if (node.reason === 'unknown-type' && typeof node.typeName === 'string') return `any /* type: ${tsString(node.typeName).replace(/\*\//g, '*\\/')} */`;
      return node.reason === 'false' ? 'never' : 'any';
    default:
      return byTypeName(node, indent, r);
  }
}

/** §5 rule 2: the string entries of a `type` list joined by ` | `, `integer` → `number`, others verbatim. */
function typeListNames(u: IrUnion): string {
  return (u.typeNames ?? [])
    .filter((t): t is string => typeof t === 'string')
    .map((t) => (t === 'integer' ? 'number' : t))
    .join(' | ');
}

/** §5 rule 3: a single `type` name. */
function byTypeName(n: IrNode, indent: string, r: HarmonyRules): string {
  switch (n.kind) {
    case 'object':
      return objectType(n, indent, r);
    case 'string':
      return 'string';
    case 'enum':
      return r.literalEnums ? literalUnion(n.values) : enumType(n.type, n.values);
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array': {
      // a missing `items` prints `Array<any>`; an `items` that is not a schema reads as any
      if (n.items === undefined) return n.itemsInvalid ? 'any[]' : 'Array<any>';
      if (r.fullTypes) return `${itemType(n.items, indent, r)}[]`;
      return `${harmonyType(n.items, indent, r)}[]`;
    }
    case 'tuple':
      return r.fullTypes ? tupleForm(n, indent, r) : tupleType(n.itemsKeyword, n.rest, indent, r);
    case 'null':
      return r.fullTypes ? 'null' : 'any';
    default:
      // `type: "null"` and names JSON Schema lacks print any
      return 'any';
  }
}

/** Harmony reads only `items`: a draft-07 tuple (`items: [..]`) is `any[]`; with prefixItems, `items` is the rest. */
function tupleType(keyword: 'prefixItems' | 'items', rest: IrNode | false | undefined, indent: string, r: HarmonyRules): string {
  if (keyword === 'items') return 'any[]';
  if (rest === undefined) return 'Array<any>';
  if (rest === false) return 'any[]';
  return `${harmonyType(rest, indent, r)}[]`;
}

/** Enums: only a string type lists values (string values, raw, unescaped); numbers and booleans print their type. */
function enumType(type: string | undefined, values: readonly JsonValue[]): string {
  switch (type) {
    case 'string': {
      const strings = values.filter((v): v is string => typeof v === 'string');
      return strings.length ? strings.map((s) => `"${s}"`).join(' | ') : 'string';
    }
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'any';
  }
}

/** §5.1: a described object prints its description before `{`; it closes at its properties' indent. */
function objectType(o: IrObject, indent: string, r: HarmonyRules): string {
  let out = o.meta.description !== undefined ? `${commentLines(o.meta.description, indent, r)}{\n` : '{\n';
  const props = o.properties;
  // an indexed loop: no iterator results (this runs before V8 optimises it, in a CLI)
  for (let i = 0; i < props.length; i++) {
    const prop = props[i] as IrProperty;
    out += oneOfOf(prop.schema) ? oneOfProperty(prop, indent, r) : property(prop, indent, r);
  }
  if (r.fullTypes) out += indexSignatures(o, indent, r);
  return `${out}${indent}}`;
}

/** The ` | null` suffix: only for `nullable: true` and only when the type text has no `null` substring anywhere. */
function nullableSuffix(node: IrNode, text: string, r: HarmonyRules): string {
  if (!node.nullable) return '';
  if (r.fullTypes) return admitsNull(node) ? '' : ' | null';
  return text.includes('null') ? '' : ' | null';
}

/** `// {text}⏎` at an indent: the reference writes the text raw (a newline in it ends the comment). */
function commentLines(text: string, indent: string, r: HarmonyRules): string {
  if (!r.splitComments) return `${indent}// ${text}\n`;
  let out = '';
  for (const line of commentTextLines(text)) out += `${indent}// ${line}\n`;
  return out;
}

/** Text for a trailing `// …` comment: raw in the reference; on one line under split comments. */
function inlineComment(text: string, r: HarmonyRules): string {
  return r.splitComments ? text.replace(LINE_BREAKS, ' ') : text;
}

/** Title, then a bare `//` line. */
function titleLines(node: IrNode, indent: string, r: HarmonyRules): string {
  return node.meta.title !== undefined ? `${commentLines(node.meta.title, indent, r)}${indent}//\n` : '';
}

/** `// Examples:` whenever examples is non-empty; only string examples get a `// - "…"` line. */
function exampleLines(node: IrNode, indent: string, r: HarmonyRules): string {
  const ex = node.meta.examples;
  if (ex.length === 0) return '';
  let out = `${indent}// Examples:\n`;
  if (r.jsonValues) {
    for (const e of ex) out += `${indent}// - ${jsonText(e)}\n`;
    return out;
  }
  for (const e of ex) if (typeof e === 'string') out += `${indent}// - "${e}"\n`;
  return out;
}

/** The property key: raw in the reference. */
function keyText(name: string, r: HarmonyRules): string {
  return r.quoteKeys && !isIdentifierName(name) ? tsString(name) : name;
}

/** §5.2 one property. */
function property(prop: IrProperty, indent: string, r: HarmonyRules): string {
  const s = prop.schema;
  let out = titleLines(s, indent, r);
  if (s.meta.description !== undefined) out += commentLines(s.meta.description, indent, r);
  if (r.constraintComments) out += constraintLine(s, indent) + itemLines(s, indent, r);
  out += exampleLines(s, indent, r);
  const t = harmonyType(s, `${indent}    `, r);
  out += `${indent}${keyText(prop.name, r)}${prop.required ? '' : '?'}: ${t}${nullableSuffix(s, t, r)},`;
  if (s.meta.default) out += ` // default: ${defaultText(s, s.meta.default.value, 'raw', r)}`;
  return `${out}\n`;
}

/** §5.3 a property whose schema has a oneOf. */
function oneOfProperty(prop: IrProperty, indent: string, r: HarmonyRules): string {
  const s = prop.schema;
  const u = oneOfOf(s) as IrUnion;
  const desc = s.meta.description;
  let out = titleLines(s, indent, r) + exampleLines(s, indent, r);
  // the property description is left out when the first variant says the same
  const printed = desc !== undefined && desc !== u.variants[0]?.meta.description;
  if (printed) out += commentLines(desc, indent, r);
  if (s.meta.default) out += `${indent}// default: ${defaultText(s, s.meta.default.value, 'raw', r)}\n`;
  out += `${indent}${keyText(prop.name, r)}${prop.required ? '' : '?'}:\n`;
  u.variants.forEach((v, k) => {
    const t = harmonyType(v, `${indent}   `, r);
    const parts: string[] = [];
    const vd = v.meta.description;
    // a variant's description is skipped when it repeats the property's (or, for the first, when that was printed)
    if (vd !== undefined && !(k === 0 && printed) && vd !== desc) parts.push(inlineComment(vd, r));
    if (v.meta.default) parts.push(`default: ${defaultText(v, v.meta.default.value, 'raw', r)}`);
    out += `${indent} | ${t}${nullableSuffix(v, t, r)}${parts.length ? ` // ${parts.join(' ')}` : ''}\n`;
  });
  return `${out}${indent},\n`;
}

/** §5.4 a oneOf anywhere but directly under a property: each variant on its own line, no final newline. */
function topLevelOneOf(u: IrUnion, indent: string, r: HarmonyRules): string {
  let out = '';
  for (const v of u.variants) {
    const t = harmonyType(v, `${indent}   `, r);
    const parts: string[] = [];
    if (v.meta.description !== undefined) parts.push(inlineComment(v.meta.description, r));
    if (v.meta.default) parts.push(`default: ${defaultText(v, v.meta.default.value, 'json', r)}`);
    out += `\n${indent} | ${t}${nullableSuffix(v, t, r)}${parts.length ? ` // ${parts.join(' ')}` : ''}`;
  }
  // the reference lets what follows (`) => any;`, `[]`, `,`) land on the last variant's comment; faithful ends the line
  const last = u.variants[u.variants.length - 1];
  if (r.splitComments && last !== undefined && (last.meta.description !== undefined || last.meta.default !== undefined)) out += `\n${indent}`;
  return out;
}

/**
 * §5.5 `{D}`: a string default is quoted raw (no escaping) unless the schema has a non-empty
 * enum, where it is printed bare (`raw` mode) or as a JSON string (`json` mode, top-level oneOf
 * variants); anything else is serde_json's compact JSON.
 */
function defaultText(node: IrNode, value: JsonValue, enumMode: 'raw' | 'json', r: HarmonyRules): string {
  if (r.jsonValues) return jsonText(value);
  if (typeof value === 'string') {
    if (!hasNonEmptyEnum(node)) return `"${value}"`;
    return enumMode === 'raw' ? value : quoteJsonString(value);
  }
  return stringifyCompactRust(value);
}

// ---------------------------------------------------------------------------------------
// Beyond the reference (the faithful rules only)

/** Line breaks as TypeScript (and a reader) sees them: a `//` comment ends at any of them. */
const LINE_BREAKS = /\r\n|[\n\r\u2028\u2029]/g;

/** Comment text as lines: split at every line break; a final line break adds no line; empty text is one empty line. */
export function commentTextLines(text: string): string[] {
  const lines = text.split(LINE_BREAKS);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** True when a property key can be written bare in TypeScript (an IdentifierName). */
export function isIdentifierName(name: string): boolean {
  return /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u.test(name);
}

/** A JSON string that is also safe on a `//` line: U+2028 and U+2029 escaped too. */
export function tsString(s: string): string {
  return quoteJsonString(s).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/** Compact JSON (serde_json's), safe on a `//` line. */
function jsonText(v: JsonValue): string {
  return stringifyCompactRust(v).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/** A JSON value as a TypeScript literal type (JSON objects and arrays are object and tuple types). */
function literalText(v: JsonValue): string {
  return jsonText(v);
}

/** Enum values as a union of literal types; an empty enum admits nothing. */
function literalUnion(values: readonly JsonValue[]): string {
  return values.length ? values.map(literalText).join(' | ') : 'never';
}

/** An unresolved (or recursive) `$ref`: any, with the reference in a block comment. */
function refComment(n: IrRef): string {
  const what = n.circular || n.target !== undefined ? `${n.ref} (recursive: not expanded again)` : `${n.ref} (not resolved)`;
  return `any /* $ref: ${what.replace(/\*\//g, '*\\/').replace(LINE_BREAKS, ' ')} */`;
}

/** True when null is one of the values the node's type already admits (so ` | null` would repeat it). */
function admitsNull(n: IrNode): boolean {
  switch (n.kind) {
    case 'null':
    case 'any':
    case 'ref':
      return true;
    case 'enum':
      return n.values.includes(null);
    case 'literal':
      return n.value === null;
    case 'union':
      return n.variants.some(admitsNull);
    default:
      return false;
  }
}

/** A type that needs parentheses before `[]` or around `&`: unions (and a top-level oneOf's line form). */
function grouped(node: IrNode, text: string): string {
  const compound = text.startsWith('\n') || node.kind === 'union' || (node.kind === 'enum' && node.values.length > 1) || text.includes(' & ');
  return compound ? `(${text})` : text;
}

/** An array item type with its nullable, grouped when it is a union. */
function itemType(items: IrNode, indent: string, r: HarmonyRules): string {
  const t = harmonyType(items, indent, r);
  const suffix = nullableSuffix(items, t, r);
  return suffix ? `(${t}${suffix})` : grouped(items, t);
}

/** A tuple: `[A, B]`, with `...T[]` for what may follow the positional items. */
function tupleForm(n: IrTuple, indent: string, r: HarmonyRules): string {
  const parts = n.items.map((m) => itemType(m, indent, r));
  if (n.rest === undefined) parts.push('...any[]');
  else if (n.rest !== false) parts.push(`...${itemType(n.rest, indent, r)}[]`);
  return `[${parts.join(', ')}]`;
}

/** `patternProperties` and a schema `additionalProperties` as index signatures, after the properties. */
function indexSignatures(o: IrObject, indent: string, r: HarmonyRules): string {
  let out = '';
  for (const pp of o.patternProperties) {
    out += commentLines(`keys matching ${tsString(pp.pattern)}`, indent, r);
    if (pp.schema.meta.description !== undefined) out += commentLines(pp.schema.meta.description, indent, r);
    const t = harmonyType(pp.schema, `${indent}    `, r);
    out += `${indent}[key: string]: ${t}${nullableSuffix(pp.schema, t, r)},\n`;
  }
  if (o.additional !== undefined && o.additional !== false) {
    const a = o.additional;
    if (a.meta.description !== undefined) out += commentLines(a.meta.description, indent, r);
    const t = harmonyType(a, `${indent}    `, r);
    out += `${indent}[key: string]: ${t}${nullableSuffix(a, t, r)},\n`;
  }
  return out;
}

/** `// items: {description}` for an array property whose (non-object) items are described: the layout has no other place for it. */
function itemLines(s: IrNode, indent: string, r: HarmonyRules): string {
  if (s.kind !== 'array' || s.items === undefined || s.items.kind === 'object') return '';
  const d = s.items.meta.description;
  return d !== undefined ? commentLines(`items: ${d}`, indent, r) : '';
}

/** `// format: …, pattern: …, minimum: …, deprecated` for a property's own schema; empty when it has none. */
function constraintLine(s: IrNode, indent: string): string {
  const parts: string[] = [];
  const add = (name: string, v: { text: string } | string | undefined, json = false) => {
    if (v !== undefined) parts.push(`${name}: ${typeof v === 'string' ? (json ? tsString(v) : v.replace(LINE_BREAKS, ' ')) : v.text}`);
  };
  switch (s.kind) {
    case 'string':
      add('format', s.format);
      add('pattern', s.pattern, true);
      add('minLength', s.minLength);
      add('maxLength', s.maxLength);
      break;
    case 'number':
      add('format', s.format);
      add('minimum', s.minimum);
      add('maximum', s.maximum);
      add('exclusiveMinimum', s.exclusiveMinimum);
      add('exclusiveMaximum', s.exclusiveMaximum);
      add('multipleOf', s.multipleOf);
      break;
    case 'array':
    case 'tuple':
      add('minItems', s.minItems);
      add('maxItems', s.maxItems);
      if (s.kind === 'array' && s.uniqueItems) parts.push('uniqueItems');
      break;
    case 'object':
      add('minProperties', s.minProperties);
      add('maxProperties', s.maxProperties);
      break;
    default:
      break;
  }
  if (s.meta.deprecated) parts.push('deprecated');
  if (s.meta.readOnly) parts.push('readOnly');
  if (s.meta.writeOnly) parts.push('writeOnly');
  return parts.length ? `${indent}// ${parts.join(', ')}\n` : '';
}
