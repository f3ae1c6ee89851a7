/**
 * Lint under openai-harmony: walk the IR the way the harmony printer reads it
 * (`harmonyReading`: a oneOf, then a type list, then a type name, else any) and report what
 * it drops or writes so that it reads wrong. Nothing under a node shown as `any` is walked:
 * one finding says the whole subtree is lost.
 */
import { getKey, isJsonObject, stringifyCompactRust, type JsonValue } from '../ir/json.js';
import { toolFieldPointer } from '../input/types.js';
import { oneOfOf, type IrNode, type IrTool, type IrUnion } from '../ir/nodes.js';
import { harmonyReading, harmonyType, isIdentifierName } from '../emit/harmony/types.js';
import { rustLines } from '../emit/harmony/catalog.js';
import { checkConstraints, checkControlTokens, checkInvisibleCharacters, checkPropertyName, hasLineBreak, quote, rawAt, type Reporter } from './report.js';

/** Where a node sits, which decides the annotations harmony prints for it. */
type Position = 'root' | 'property' | 'oneOfProperty' | 'variant' | 'items';

/** For a variant of a oneOf property: the property's description, whether it was printed, the variant's index. */
interface UnderProperty {
  readonly desc: string | undefined;
  readonly printed: boolean;
  readonly k: number;
}

const WHERE: Record<Position, string> = {
  root: 'the parameters root',
  property: 'a property',
  oneOfProperty: 'a property',
  variant: 'a oneOf variant',
  items: 'array items',
};

/** Lint one tool under openai-harmony. */
export function lintHarmonyTool(tool: IrTool, r: Reporter): void {
  checkControlTokens(r);
  checkInvisibleCharacters(r);
  if (!isIdentifierName(tool.name)) {
    r.abs('lint/tool-name-not-identifier', toolFieldPointer(r.def, 'name'), `the tool name ${quote(tool.name)} is printed raw after \`type\`; the model calls it by that name, but the catalog is not valid TypeScript there`);
  }
  if (tool.description !== undefined && rustLines(tool.description).some((l) => hasLineBreak(l))) {
    r.abs('lint/comment-newline', toolFieldPointer(r.def, 'description'), 'the tool description holds a line break other than \\n (a lone \\r, U+2028 or U+2029): harmony splits lines on \\n only, so the text after it is not on a `//` line');
  }
  if (tool.parameters !== undefined) new HarmonyLint(r, tool).walk(tool.parameters, 'root');
}

class HarmonyLint {
  constructor(
    readonly r: Reporter,
    readonly tool: IrTool,
  ) {}

  raw(node: IrNode): JsonValue | undefined {
    return rawAt(this.r.def.parameters, node.pointer);
  }

  /** One node at a position; `under` is set for the variants of a oneOf property. */
  walk(node: IrNode, pos: Position, under?: UnderProperty): void {
    const reading = harmonyReading(node);
    const objectDescribed = reading.as === 'type' && reading.node.kind === 'object' && reading.node.meta.description !== undefined;
    this.annotations(node, pos, objectDescribed, under);
    this.ignoredMembers(node, reading.node, reading.as);
    switch (reading.as) {
      case 'any':
        this.shownAsAny(node);
        return;
      case 'typeArray':
        this.typeList(reading.node as IrUnion);
        if (pos === 'items' && (reading.node as IrUnion).variants.length > 1) this.r.at('lint/array-union-precedence', node.pointer, `the items are a \`type\` list: harmony prints \`${harmonyType(node, '')}[]\`, which reads as "the first types, or an array of the last"`);
        return;
      case 'oneOf': {
        const u = reading.node as IrUnion;
        if (node.nullable || u.nullable) this.r.at('lint/dropped-nullable', `${node.pointer}/nullable`, '`nullable: true` beside a oneOf is not shown (harmony writes ` | null` only after a variant that is nullable itself)');
        const desc = node.meta.description;
        const printed = desc !== undefined && desc !== u.variants[0]?.meta.description;
        u.variants.forEach((v, k) => this.walk(v, 'variant', pos === 'oneOfProperty' ? { desc, printed, k } : undefined));
        if (pos === 'items') this.r.at('lint/array-union-precedence', node.pointer, 'the items are a oneOf: harmony prints `| A | B[]`, which reads as "A, or an array of B"');
        return;
      }
      case 'type':
        this.typed(reading.node, node, pos);
        return;
    }
  }

  /** Titles, descriptions, examples and defaults: printed or dropped, and text that escapes its `//` line. */
  annotations(node: IrNode, pos: Position, objectDescribed: boolean, under: UnderProperty | undefined): void {
    const m = node.meta;
    const p = node.pointer;
    const onProperty = pos === 'property' || pos === 'oneOfProperty';
    if (m.title !== undefined) {
      if (!onProperty) this.r.at('lint/dropped-title', `${p}/title`, `the title ${quote(m.title)} of ${WHERE[pos]} is not shown (harmony prints titles of properties only)`);
      else if (hasLineBreak(m.title)) this.r.at('lint/comment-newline', `${p}/title`, 'the title holds a line break: harmony writes it raw after `//`, so the text after the break reads as part of the schema');
    }
    if (m.description !== undefined) {
      const d = m.description;
      let shown: boolean;
      let why = `harmony prints descriptions of properties, objects and oneOf variants only`;
      if (pos === 'property') shown = true;
      else if (pos === 'oneOfProperty') {
        // the property's description is left out when the first variant's is the same (which the variant then skips too)
        shown = d !== oneOfOf(node)?.variants[0]?.meta.description;
        why = 'it equals the first variant\'s description, and harmony then prints neither';
      } else if (pos === 'variant' && under) {
        // variant 0 is silent when the property's own description was printed; any variant repeating it is silent
        // (one repeating the property's is printed there, or reported there as dropped)
        shown = d === under.desc || !(under.k === 0 && under.printed);
        why = 'harmony leaves out the first variant\'s description when the property has one of its own';
      } else shown = pos === 'variant';
      if (objectDescribed) shown = true;
      if (!shown) this.r.at('lint/dropped-description', `${p}/description`, `the description of ${WHERE[pos]} is not shown: ${why}`);
      else if (hasLineBreak(d)) {
        this.r.at('lint/comment-newline', `${p}/description`, `the description holds a line break: harmony writes it raw after \`//\`${pos === 'variant' && !objectDescribed ? ' (a trailing comment)' : ''}, so the text after the break reads as part of the schema`);
      }
    }
    if (m.examples.length) {
      if (!onProperty) this.r.at('lint/dropped-examples', `${p}/examples`, `the examples of ${WHERE[pos]} are not shown (harmony prints examples of properties only)`);
      else {
        m.examples.forEach((e, i) => {
          if (typeof e !== 'string') this.r.at('lint/dropped-non-string-example', `${p}/examples/${i}`, 'harmony prints string examples only: this one prints nothing (the `// Examples:` heading stays)');
          else if (hasLineBreak(e)) this.r.at('lint/comment-newline', `${p}/examples/${i}`, 'the example holds a line break: harmony writes it raw after `// - "`, so the text after the break reads as part of the schema');
        });
      }
    }
    if (m.default !== undefined) {
      const v = m.default.value;
      if (pos === 'root' || pos === 'items') this.r.at('lint/dropped-default', `${p}/default`, `the default of ${WHERE[pos]} is not shown (harmony prints defaults of properties and oneOf variants only)`);
      else if (typeof v === 'string' && hasLineBreak(v)) this.r.at('lint/comment-newline', `${p}/default`, 'the default holds a line break: harmony writes it raw after `// default: `, so the text after the break reads as part of the schema');
      // other values are printed as JSON (serde), which escapes \n and \r but not U+2028 / U+2029
      else if (typeof v !== 'string' && /[\u2028\u2029]/.test(stringifyCompactRust(v))) this.r.at('lint/comment-newline', `${p}/default`, 'the default holds U+2028 or U+2029: harmony prints it as JSON after `// default: `, which leaves them raw, and a reader takes them as line breaks, so the text after reads as part of the schema');
    }
  }

  /** Members of a keywords intersection that the reading leaves out. */
  ignoredMembers(node: IrNode, chosen: IrNode, as: string): void {
    if (node.kind !== 'intersection' || node.origin !== 'keywords' || as === 'any') return;
    for (const m of node.members) {
      if (m === chosen) continue;
      const kw = keywordOf(m);
      if (kw === 'type' && !carriesStructure(m)) continue;
      const by = as === 'oneOf' ? 'oneOf' : as === 'typeArray' ? 'the `type` list' : '`type`';
      this.r.at('lint/ignored-keyword', `${node.pointer}/${kw}`, `${kw === 'type' ? 'the `type` (with its properties, items or enum)' : `\`${kw}\``} beside ${by} is ignored: harmony shows only ${by}${kw === 'anyOf' || kw === 'allOf' || kw === '$ref' ? ' (render with --faithful to keep both)' : ''}`);
    }
  }

  /** A node harmony prints as `any`: one finding naming why. */
  shownAsAny(node: IrNode): void {
    const members = node.kind === 'intersection' && node.origin === 'keywords' ? node.members : [node];
    for (const m of members) anyFinding(this.r, m);
  }

  /** A `type` list: harmony prints the names only. */
  typeList(u: IrUnion): void {
    (u.typeNames ?? []).forEach((t, i) => {
      if (typeof t === 'string' && hasLineBreak(t)) this.r.at('lint/property-name-breaks-layout', `${u.pointer}/type/${i}`, `the type name ${quote(t)} is printed raw in the \`type\` list: its line break splits the property line`);
    });
    const lost = u.variants.filter(carriesStructure).map(structureOf);
    if (lost.length) {
      this.r.at('lint/type-list-drops-schema', `${u.pointer}/type`, `a \`type\` list is shown as its names (\`${harmonyType(u, '')}\`); lost: ${[...new Set(lost)].join(', ')}`);
    }
  }

  /** A node read by its `type` name. */
  typed(t: IrNode, outer: IrNode, pos: Position): void {
    checkConstraints(this.r, this.raw(outer), outer.pointer);
    switch (t.kind) {
      case 'object': {
        for (const prop of t.properties) {
          const pp = prop.schema.pointer;
          checkPropertyName(this.r, prop.name, pp);
          this.walk(prop.schema, oneOfOf(prop.schema) ? 'oneOfProperty' : 'property');
        }
        if (t.additional !== undefined && t.additional !== false) this.r.at('lint/dropped-additional-properties', `${t.pointer}/additionalProperties`, 'the `additionalProperties` schema is not shown: the model does not learn that other keys are allowed, nor their type');
        if (t.patternProperties.length) this.r.at('lint/dropped-additional-properties', `${t.pointer}/patternProperties`, '`patternProperties` are not shown: the model does not learn which other keys are allowed, nor their type');
        break;
      }
      case 'enum': {
        const values = t.values;
        if (t.type === 'string') {
          values.forEach((v, i) => {
            if (typeof v !== 'string') this.r.at('lint/enum-non-string-value', `${t.pointer}/enum/${i}`, `the value ${JSON.stringify(v)} of a string enum is dropped: harmony lists string values only`);
            else if (v.includes('"') || hasLineBreak(v)) this.r.at('lint/unescaped-enum-value', `${t.pointer}/enum/${i}`, `the value ${quote(v)} is printed raw inside "…": its ${v.includes('"') ? 'quote ends the string early' : 'line break splits the type'}`);
          });
        } else if (t.type === 'number' || t.type === 'integer' || t.type === 'boolean') {
          this.r.at('lint/enum-as-type', `${t.pointer}/enum`, `the enum is shown as \`${t.type === 'boolean' ? 'boolean' : 'number'}\`: its values (${values.map((v) => JSON.stringify(v)).join(', ')}) are lost (render with --faithful to list them)`);
        }
        break;
      }
      case 'array':
        if (t.items !== undefined) {
          this.walk(t.items, 'items');
          if (t.items.kind === 'enum' && t.items.type === 'string' && harmonyReading(t.items).as === 'type' && t.items.values.filter((v) => typeof v === 'string').length > 1) {
            this.r.at('lint/array-union-precedence', t.items.pointer, `the items are an enum: harmony prints \`${harmonyType(t.items, '')}[]\`, which reads as "the first values, or an array of the last"`);
          }
        }
        break;
      case 'tuple':
        this.r.at('lint/any-tuple', t.pointer, t.itemsKeyword === 'items' ? 'a tuple (`items` as an array) is shown as `any[]`: the positions and their types are lost' : `a tuple (\`prefixItems\`) is shown as \`${harmonyType(t, '')}\`: the positions and their types are lost`);
        break;
      case 'null':
        this.r.at('lint/any-null', `${t.pointer}/type`, '`type: "null"` alone is shown as `any`');
        break;
      default:
        break;
    }
    this.nullable(outer, pos);
  }

  /** `nullable: true` is shown as ` | null` after a property or variant type, unless the type text already holds `null` anywhere. */
  nullable(node: IrNode, pos: Position): void {
    if (!node.nullable) return;
    if (pos === 'root' || pos === 'items') {
      this.r.at('lint/dropped-nullable', `${node.pointer}/nullable`, `\`nullable: true\` on ${WHERE[pos]} is not shown (harmony adds \` | null\` to properties and variants only)`);
      return;
    }
    const t = harmonyType(node, '');
    if (t.includes('null')) this.r.at('lint/dropped-nullable', `${node.pointer}/nullable`, 'harmony adds ` | null` only when the type text has no "null" in it anywhere, and this one has (a value or name containing "null"): the nullable is not shown');
  }
}

/** The keyword a keywords-intersection member came from. */
function keywordOf(m: IrNode): string {
  switch (m.kind) {
    case 'union':
      return m.origin === 'typeArray' ? 'type' : m.origin;
    case 'intersection':
      return 'allOf';
    case 'ref':
      return '$ref';
    case 'literal':
      return 'const';
    case 'enum':
      return m.origin === 'enum' ? 'enum' : 'type';
    default:
      return 'type';
  }
}

/** True when a type-list entry or ignored member says more than its type name. */
function carriesStructure(m: IrNode): boolean {
  switch (m.kind) {
    case 'object':
      return m.properties.length > 0 || m.additional !== undefined || m.patternProperties.length > 0;
    case 'array':
      return m.items !== undefined;
    case 'tuple':
      return true;
    case 'enum':
      return m.values.length > 0;
    case 'union':
      return m.origin === 'typeArray' ? m.variants.some(carriesStructure) : true;
    default:
      return false;
  }
}

function structureOf(m: IrNode): string {
  switch (m.kind) {
    case 'object':
      return 'the properties';
    case 'array':
    case 'tuple':
      return 'the items';
    case 'enum':
      return 'the enum values';
    default:
      return 'the schema';
  }
}

/** The any-* finding for one node (or member) shown as `any`. */
export function anyFinding(r: Reporter, m: IrNode): void {
  const p = m.pointer;
  switch (m.kind) {
    case 'union':
      if (m.origin === 'anyOf') r.at('lint/any-anyof', `${p}/anyOf`, `anyOf is shown as \`any\`${nullableHint(m)}`);
      return;
    case 'intersection':
      if (m.origin === 'allOf') r.at('lint/any-allof', `${p}/allOf`, 'allOf is shown as `any`: merge the members into one schema (or render with --faithful)');
      return;
    case 'ref':
      // a $ref to nothing is lint/unresolved-ref (an error), not something to inline
      if (!r.isBrokenRef(`${p}/$ref`)) r.at('lint/any-ref', `${p}/$ref`, `$ref ${quote(m.ref)} is shown as \`any\`: references are not followed; inline the definition (or render with --faithful)`);
      return;
    case 'literal':
      r.at('lint/any-const', `${p}/const`, `const ${JSON.stringify(m.value)} is shown as \`any\`: write \`"type": ${typeNameOf(m.value)}, "enum": [${JSON.stringify(m.value)}]\``);
      return;
    case 'enum':
      if (m.origin === 'enum') r.at('lint/any-enum', `${p}/enum`, `an enum without \`type\` is shown as \`any\`: ${enumTypeHint(m.values)}`);
      return;
    case 'object':
    case 'array':
    case 'tuple':
      if (m.origin === 'implicit') r.at('lint/any-missing-type', p, `${m.kind === 'object' ? '`properties`' : '`items`'} without \`type\` ${m.kind === 'object' ? 'is' : 'are'} shown as \`any\`: add \`"type": "${m.kind === 'tuple' ? 'array' : m.kind}"\``);
      return;
    case 'any':
      if (m.reason === 'unsupported') {
        const kw = getKey(rawAt(r.def.parameters, p), 'not') !== undefined ? 'not' : 'if';
        r.at('lint/any-unsupported', `${p}/${kw}`, `\`${kw}\` is shown as \`any\`: say the rule in the description`);
      }
      else if (m.reason === 'false') r.at('lint/any-unsupported', p, 'the `false` schema (no value allowed) is shown as `any`');
      return;
    default:
      return;
  }
}

/** For an anyOf of one type and null: the spelling both renderers show. */
function nullableHint(u: IrUnion): string {
  const nonNull = u.variants.filter((v) => v.kind !== 'null');
  if (nonNull.length === 1 && nonNull.length < u.variants.length) {
    const v = nonNull[0];
    const name = v.kind === 'string' || v.kind === 'boolean' ? v.kind : v.kind === 'number' ? (v.integer ? 'integer' : 'number') : undefined;
    if (name) return `: write \`"type": "${name}", "nullable": true\` or \`"type": ["${name}", "null"]\` to show \`${name === 'integer' ? 'number' : name} | null\``;
  }
  return ': write a oneOf, or one schema (or render with --faithful)';
}

function typeNameOf(v: JsonValue): string {
  if (typeof v === 'string') return '"string"';
  if (typeof v === 'boolean') return '"boolean"';
  if (v === null) return '"null"';
  if (Array.isArray(v)) return '"array"';
  if (isJsonObject(v)) return '"object"';
  return '"number"';
}

/** How to make an untyped enum visible: a `type` when its values share one; otherwise, one type for all. */
function enumTypeHint(values: readonly JsonValue[]): string {
  const kinds = [...new Set(values.map(typeNameOf))];
  if (kinds.length === 1) return `add \`"type": ${kinds[0]}\`${kinds[0] === '"string"' ? '' : ' (harmony lists the values of string enums only)'}`;
  return 'its values have several types; harmony lists the values of `"type": "string"` enums only';
}
