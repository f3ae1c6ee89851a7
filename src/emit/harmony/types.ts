/**
 * The openai-harmony type printer: IR → the TypeScript-like text openai-harmony v0.0.8
 * writes for a schema (spec harmony-format.md §5). Every reference quirk is a named
 * function here with a comment saying which behaviour it copies.
 */
import { assertNever } from '../../diagnostics.js';
import { quoteJsonString, stringifyCompactRust, type JsonValue } from '../../ir/json.js';
import { hasNonEmptyEnum, oneOfOf, type IrNode, type IrObject, type IrProperty, type IrUnion } from '../../ir/nodes.js';

/** The members of a node whose types harmony prints, most precedent first. */
type Printable = { readonly node: IrNode; readonly as: 'oneOf' | 'typeArray' | 'type' | 'any' };

/** Harmony's precedence (§5 rules 1–4): a oneOf array, then a type list, then a type name, else any. */
function pickPrintable(node: IrNode): Printable {
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

/** `ts(schema, indent)` of spec §5. */
export function harmonyType(node: IrNode, indent: string): string {
  const p = pickPrintable(node);
  switch (p.as) {
    case 'oneOf':
      return topLevelOneOf(p.node as IrUnion, indent);
    case 'typeArray':
      return typeListNames(p.node as IrUnion);
    case 'any':
      return 'any';
    case 'type':
      return byTypeName(p.node, indent);
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
function byTypeName(n: IrNode, indent: string): string {
  switch (n.kind) {
    case 'object':
      return objectType(n, indent);
    case 'string':
      return 'string';
    case 'enum':
      return enumType(n.type, n.values);
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      // a missing `items` prints `Array<any>`; an `items` that is not a schema reads as any
      if (n.items === undefined) return n.itemsInvalid ? 'any[]' : 'Array<any>';
      return `${harmonyType(n.items, indent)}[]`;
    case 'tuple':
      return tupleType(n.itemsKeyword, n.rest, indent);
    default:
      // `type: "null"` and names JSON Schema lacks print any
      return 'any';
  }
}

/** Harmony reads only `items`: a draft-07 tuple (`items: [..]`) is `any[]`; with prefixItems, `items` is the rest. */
function tupleType(keyword: 'prefixItems' | 'items', rest: IrNode | false | undefined, indent: string): string {
  if (keyword === 'items') return 'any[]';
  if (rest === undefined) return 'Array<any>';
  if (rest === false) return 'any[]';
  return `${harmonyType(rest, indent)}[]`;
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
function objectType(o: IrObject, indent: string): string {
  let out = o.meta.description !== undefined ? `${indent}// ${o.meta.description}\n{\n` : '{\n';
  for (const prop of o.properties) out += oneOfOf(prop.schema) ? oneOfProperty(prop, indent) : property(prop, indent);
  return `${out}${indent}}`;
}

/** The ` | null` suffix: only for `nullable: true` and only when the type text has no `null` substring anywhere. */
function nullableSuffix(node: IrNode, text: string): string {
  return node.nullable && !text.includes('null') ? ' | null' : '';
}

/** Title, then a bare `//` line. */
function titleLines(node: IrNode, indent: string): string {
  return node.meta.title !== undefined ? `${indent}// ${node.meta.title}\n${indent}//\n` : '';
}

/** `// Examples:` whenever examples is non-empty; only string examples get a `// - "…"` line. */
function exampleLines(node: IrNode, indent: string): string {
  const ex = node.meta.examples;
  if (ex.length === 0) return '';
  let out = `${indent}// Examples:\n`;
  for (const e of ex) if (typeof e === 'string') out += `${indent}// - "${e}"\n`;
  return out;
}

/** §5.2 one property. */
function property(prop: IrProperty, indent: string): string {
  const s = prop.schema;
  let out = titleLines(s, indent);
  if (s.meta.description !== undefined) out += `${indent}// ${s.meta.description}\n`;
  out += exampleLines(s, indent);
  const t = harmonyType(s, `${indent}    `);
  out += `${indent}${prop.name}${prop.required ? '' : '?'}: ${t}${nullableSuffix(s, t)},`;
  if (s.meta.default) out += ` // default: ${defaultText(s, s.meta.default.value, 'raw')}`;
  return `${out}\n`;
}

/** §5.3 a property whose schema has a oneOf. */
function oneOfProperty(prop: IrProperty, indent: string): string {
  const s = prop.schema;
  const u = oneOfOf(s) as IrUnion;
  const desc = s.meta.description;
  let out = titleLines(s, indent) + exampleLines(s, indent);
  // the property description is left out when the first variant says the same
  const printed = desc !== undefined && desc !== u.variants[0]?.meta.description;
  if (printed) out += `${indent}// ${desc}\n`;
  if (s.meta.default) out += `${indent}// default: ${defaultText(s, s.meta.default.value, 'raw')}\n`;
  out += `${indent}${prop.name}${prop.required ? '' : '?'}:\n`;
  u.variants.forEach((v, k) => {
    const t = harmonyType(v, `${indent}   `);
    const parts: string[] = [];
    const vd = v.meta.description;
    // a variant's description is skipped when it repeats the property's (or, for the first, when that was printed)
    if (vd !== undefined && !(k === 0 && printed) && vd !== desc) parts.push(vd);
    if (v.meta.default) parts.push(`default: ${defaultText(v, v.meta.default.value, 'raw')}`);
    out += `${indent} | ${t}${nullableSuffix(v, t)}${parts.length ? ` // ${parts.join(' ')}` : ''}\n`;
  });
  return `${out}${indent},\n`;
}

/** §5.4 a oneOf anywhere but directly under a property: each variant on its own line, no final newline. */
function topLevelOneOf(u: IrUnion, indent: string): string {
  let out = '';
  for (const v of u.variants) {
    const t = harmonyType(v, `${indent}   `);
    const parts: string[] = [];
    if (v.meta.description !== undefined) parts.push(v.meta.description);
    if (v.meta.default) parts.push(`default: ${defaultText(v, v.meta.default.value, 'json')}`);
    out += `\n${indent} | ${t}${nullableSuffix(v, t)}${parts.length ? ` // ${parts.join(' ')}` : ''}`;
  }
  return out;
}

/**
 * §5.5 `{D}`: a string default is quoted raw (no escaping) unless the schema has a non-empty
 * enum, where it is printed bare (`raw` mode) or as a JSON string (`json` mode, top-level oneOf
 * variants); anything else is serde_json's compact JSON.
 */
function defaultText(node: IrNode, value: JsonValue, enumMode: 'raw' | 'json'): string {
  if (typeof value === 'string') {
    if (!hasNonEmptyEnum(node)) return `"${value}"`;
    return enumMode === 'raw' ? value : quoteJsonString(value);
  }
  return stringifyCompactRust(value);
}
