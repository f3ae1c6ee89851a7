/**
 * Lint under the official gpt-oss chat template: walk the schema as written the way its
 * `render_typescript_type` macro reads it (spec chat-template-format.md §3.1: `type ==
 * "array"`, a `type` list, `oneOf`, `string`, scalars, `object`, else any) and report what it
 * drops or prints so that it reads wrong; then render the tool with the template printer,
 * and report where the template raises.
 */
import { isCompileError, type Diagnostic } from '../diagnostics.js';
import { chatTemplateType } from '../emit/chat-template/types.js';
import { escapePointerToken, isJsonArray, isJsonObject, type JsonObject, type JsonValue } from '../ir/json.js';
import type { IrNode, IrTool } from '../ir/nodes.js';
import { isIdentifierName } from '../emit/harmony/types.js';
import { renderChatTemplateDeveloper } from '../messages/chat-template.js';
import { pyJsonDumps as pyToJson } from '../emit/python/json.js';
import { toolFieldPointer } from '../input/types.js';
import { DEFAULT_LIMITS } from '../lower/context.js';
import { checkConstraints, checkControlTokens, checkInvisibleCharacters, checkPropertyName, hasLineBreak, quote, type Reporter } from './report.js';
import { pyTruthy } from '../emit/python/values.js';

/** Where a schema sits: a top-level parameter, a nested property, array items, a oneOf variant. */
type Position = 'top' | 'nested' | 'items' | 'variant';

const SCALARS = new Set(['string', 'number', 'integer', 'boolean']);


/** Lint one tool under the chat template; template failures and JavaScript-engine notes come from the printer. */
export function lintChatTemplateTool(ir: IrTool, r: Reporter, diagnostics: Diagnostic[]): void {
  checkControlTokens(r);
  checkInvisibleCharacters(r);
  const def = r.def;
  if (!isIdentifierName(def.name)) {
    r.abs('lint/tool-name-not-identifier', toolFieldPointer(def, 'name'), `the tool name ${quote(def.name)} is printed raw after \`type\`; the model calls it by that name, but the catalog is not valid TypeScript there`);
  }
  if (typeof def.description === 'string' && hasLineBreak(def.description)) {
    r.abs('lint/comment-newline', toolFieldPointer(def, 'description'), 'the tool description has several lines: the template writes `// ` before the first one only, so the others read as part of the catalog');
  }
  new TemplateLint(r, ir).root(def.parameters);
  printerFindings(r, ir, diagnostics);
}

/** Render the tool alone with the template printer: a failure is a `lint/template-error`, an engine note a `lint/js-jinja-differs`. */
function printerFindings(r: Reporter, ir: IrTool, diagnostics: Diagnostic[]): void {
  let ds: readonly Diagnostic[];
  try {
    ds = renderChatTemplateDeveloper([{ def: r.def, ir }]).diagnostics;
  } catch (e) {
    if (!isCompileError(e)) throw e;
    ds = e.diagnostics;
  }
  for (const d of ds) {
    if (d.code === 'chat-template/fails') r.abs('lint/template-error', d.path, d.message);
    else if (d.code === 'chat-template/js-jinja-differs') r.abs('lint/js-jinja-differs', d.path, d.message);
    else diagnostics.push(d);
  }
}

class TemplateLint {
  private index: Map<string, IrNode> | undefined;
  /** Schemas entered by `type` (the walk stops where the lowering did: it reported schema/too-deep there). */
  private depth = 0;
  constructor(
    readonly r: Reporter,
    readonly ir: IrTool,
  ) {}

  /** `tool.parameters and tool.parameters.properties`: a non-empty properties map, else `() => any`. */
  root(params: JsonValue | undefined): void {
    if (params === undefined || params === null) return;
    const props = isJsonObject(params) ? params.get('properties') : undefined;
    if (!isJsonObject(params) || !pyTruthy(props) || !isJsonObject(props)) {
      const said = isJsonObject(params) ? [...params.keys()].filter((k) => SAYS_SOMETHING.has(k) && saysSomething(k, params.get(k) as JsonValue)) : ['the schema'];
      const type = isJsonObject(params) ? params.get('type') : undefined;
      const what = typeof type === 'string' && type !== 'object' ? `a \`${type}\` schema` : `${said.map((k) => (k === 'the schema' ? k : `\`${k}\``)).join(', ')}`;
      if (said.length) this.r.at('lint/parameters-not-shown', '', `the parameters have no non-empty \`properties\`, so the template prints \`() => any\`; not shown: ${what}`);
      return;
    }
    const m = params;
    if (typeof m.get('description') === 'string') this.r.at('lint/dropped-description', '/description', 'the description of the parameters root is not shown (the template prints the tool description and top-level parameter descriptions only)');
    this.titleExamples(m, '', 'the parameters root');
    if (m.has('default')) this.r.at('lint/dropped-default', '/default', 'the default of the parameters root is not shown');
    for (const kw of ['anyOf', 'oneOf', 'allOf', '$ref', 'not', 'if']) {
      if (m.has(kw)) this.r.at('lint/ignored-keyword', `/${kw}`, `\`${kw}\` at the parameters root is ignored: the template reads only \`properties\` and \`required\` there`);
    }
    this.extraKeys(m, '');
    for (const [name, spec] of props) {
      const p = `/properties/${escapePointerToken(name)}`;
      checkPropertyName(this.r, name, p);
      this.topProperty(spec, p);
    }
  }

  /** One top-level parameter: its description (first line commented), `name?: TYPE`, its default. */
  topProperty(spec: JsonValue, p: string): void {
    if (isJsonObject(spec)) {
      const d = spec.get('description');
      if (typeof d === 'string' && hasLineBreak(d)) this.r.at('lint/comment-newline', `${p}/description`, 'the description has several lines: the template writes `// ` before the first one only, so the others read as part of the schema');
      const dflt = spec.get('default');
      // beside an enum or a oneOf the default is added raw (only a string can be); elsewhere it is JSON
      if (typeof dflt === 'string' && hasLineBreak(dflt) && (pyTruthy(spec.get('enum')) || pyTruthy(spec.get('oneOf')))) {
        this.r.at('lint/comment-newline', `${p}/default`, 'the default holds a line break: beside an enum or oneOf the template writes it raw after `// default: `, so the text after the break reads as part of the schema');
      } else if (dflt !== undefined && !(pyTruthy(spec.get('enum')) || pyTruthy(spec.get('oneOf')))) this.jsonDefault(dflt, `${p}/default`);
    }
    this.type(spec, p, 'top');
  }

  /** A default printed with `tojson`, which escapes \n and \r but not U+2028 / U+2029 (line breaks to a reader). */
  jsonDefault(v: JsonValue, pointer: string): void {
    if (/[\u2028\u2029]/.test(pyToJson(v))) this.r.at('lint/comment-newline', pointer, 'the default holds U+2028 or U+2029: the template prints it with `tojson` after `// default: `, which leaves them raw, and a reader takes them as line breaks, so the text after reads as part of the schema');
  }

  /** Title and examples: never printed by the template. */
  titleExamples(m: JsonObject, p: string, where: string): void {
    const t = m.get('title');
    if (typeof t === 'string') this.r.at('lint/dropped-title', `${p}/title`, `the title ${quote(t)} of ${where} is not shown (the template prints no titles)`);
    if (isJsonArray(m.get('examples')) && (m.get('examples') as JsonValue[]).length) this.r.at('lint/dropped-examples', `${p}/examples`, `the examples of ${where} are not shown (the template prints no examples)`);
  }

  /** Annotations by position (top-level ones are printed by `topProperty`). */
  annotations(m: JsonObject, p: string, pos: Position, last: boolean): void {
    const where = pos === 'top' ? 'a parameter' : pos === 'nested' ? 'a nested property' : pos === 'items' ? 'array items' : 'a oneOf variant';
    this.titleExamples(m, p, where);
    const d = m.get('description');
    const hasDefault = m.has('default');
    switch (pos) {
      case 'nested':
        if (pyTruthy(d)) this.r.at('lint/dropped-nested-description', `${p}/description`, 'the description of a nested property is not shown (the template prints descriptions of top-level parameters only)');
        if (hasDefault) this.r.at('lint/dropped-nested-default', `${p}/default`, 'the default of a nested property is not shown (the template prints defaults of top-level parameters only)');
        break;
      case 'items':
        if (pyTruthy(d)) this.r.at('lint/dropped-description', `${p}/description`, 'the description of array items is not shown');
        if (hasDefault) this.r.at('lint/dropped-default', `${p}/default`, 'the default of array items is not shown');
        break;
      case 'variant':
        if (typeof d === 'string' && d !== '') {
          if (hasLineBreak(d)) this.r.at('lint/comment-newline', `${p}/description`, 'the variant description holds a line break: the template glues it on after `//`, so the text after the break reads as part of the schema');
          if (!last) this.r.at('lint/variant-comment', `${p}/description`, 'the template glues the variant\'s description on as `// …` and then writes ` | ` and a newline: the separator before the next variant lands inside the comment');
        }
        if (hasDefault) this.jsonDefault(m.get('default') as JsonValue, `${p}/default`);
        if (hasDefault && !last) this.r.at('lint/variant-comment', `${p}/default`, 'the template writes the variant\'s default as `// default: …` right after its type: the ` | ` before the next variant lands inside the comment');
        break;
      case 'top':
        break;
    }
  }

  /** `render_typescript_type(spec)`, branch by branch, reporting what each branch loses. */
  type(spec: JsonValue, p: string, pos: Position, last = true): void {
    if (this.depth > DEFAULT_LIMITS.maxDepth) return;
    this.depth++;
    try {
      this.typeAt(spec, p, pos, last);
    } finally {
      this.depth--;
    }
  }

  typeAt(spec: JsonValue, p: string, pos: Position, last: boolean): void {
    if (spec === false) {
      this.r.at('lint/any-unsupported', p, 'the `false` schema (no value allowed) is shown as `any`');
      return;
    }
    if (!isJsonObject(spec)) return;
    this.annotations(spec, p, pos, last);
    checkConstraints(this.r, spec, p);
    const type = spec.get('type');
    const nullable = spec.get('nullable') === true;
    if (type === 'array') {
      this.array(spec, p);
      this.ignoredBeside(spec, p, 'array');
      return;
    }
    if (isJsonArray(type)) {
      this.typeList(spec, type, p, nullable);
      return;
    }
    const oneOf = spec.get('oneOf');
    if (pyTruthy(oneOf) && isJsonArray(oneOf)) {
      oneOf.forEach((v, k) => this.type(v, `${p}/oneOf/${k}`, 'variant', k === oneOf.length - 1));
      if (nullable) this.r.at('lint/dropped-nullable', `${p}/nullable`, '`nullable: true` beside a oneOf is not shown');
      if (typeof type === 'string' && (spec.has('properties') || spec.has('enum'))) this.r.at('lint/ignored-keyword', `${p}/type`, `\`type: "${type}"\` (with its properties or enum) beside oneOf is ignored: the template reads the oneOf`);
      this.ignoredBeside(spec, p, 'oneOf');
      return;
    }
    switch (type) {
      case 'string':
        this.stringType(spec, p, nullable);
        break;
      case 'number':
      case 'integer':
      case 'boolean': {
        const en = spec.get('enum');
        if (pyTruthy(en) && isJsonArray(en)) this.r.at('lint/enum-as-type', `${p}/enum`, `the enum is shown as \`${type === 'boolean' ? 'boolean' : 'number'}\`: its values (${en.map((v) => JSON.stringify(v)).join(', ')}) are lost`);
        if (nullable) this.r.at('lint/dropped-nullable', `${p}/nullable`, `\`nullable: true\` is not shown for ${type === 'integer' ? 'an' : 'a'} ${type}`);
        break;
      }
      case 'object': {
        const props = spec.get('properties');
        if (pyTruthy(props) && isJsonObject(props)) {
          for (const [name, sub] of props) {
            const pp = `${p}/properties/${escapePointerToken(name)}`;
            checkPropertyName(this.r, name, pp);
            this.type(sub, pp, 'nested');
          }
        }
        this.extraKeys(spec, p);
        if (nullable) this.r.at('lint/dropped-nullable', `${p}/nullable`, '`nullable: true` is not shown for an object');
        break;
      }
      default:
        this.shownAsAny(spec, p, type);
        return;
    }
    this.ignoredBeside(spec, p, `type: "${String(type)}"`);
  }

  /** Rule 4: a string enum's values joined raw between quotes; nullable ignored when there is an enum. */
  stringType(spec: JsonObject, p: string, nullable: boolean): void {
    const en = spec.get('enum');
    if (!(pyTruthy(en) && isJsonArray(en))) return;
    en.forEach((v, i) => {
      if (typeof v !== 'string') {
        this.r.at('lint/enum-non-string-value', `${p}/enum/${i}`, `the value ${JSON.stringify(v)} of a string enum is printed as ${v === null ? '"None"' : `"${typeof v === 'boolean' ? (v ? 'True' : 'False') : JSON.stringify(v)}"`}, a string: the template joins the values as text`);
      } else if (v.includes('"') || hasLineBreak(v)) {
        this.r.at('lint/unescaped-enum-value', `${p}/enum/${i}`, `the value ${quote(v)} is printed raw inside "…": its ${v.includes('"') ? 'quote ends the string early' : 'line break splits the type'}`);
      }
    });
    if (nullable) this.r.at('lint/dropped-nullable', `${p}/nullable`, '`nullable: true` is not shown for a string enum');
  }

  /** Rule 1: scalar items print `T[]` (their enum lost); others print their type unless it is `object | object` or longer than 50 characters. */
  array(spec: JsonObject, p: string): void {
    const items = spec.get('items');
    if (spec.has('prefixItems') || isJsonArray(items)) {
      this.r.at('lint/any-tuple', p, 'a tuple (`prefixItems`, or `items` as an array) is shown as `any[]`: the positions and their types are lost');
      return;
    }
    if (!isJsonObject(items) || !pyTruthy(items)) return;
    const ip = `${p}/items`;
    const it = items.get('type');
    if (typeof it === 'string' && SCALARS.has(it)) {
      const en = items.get('enum');
      if (pyTruthy(en)) this.r.at('lint/dropped-item-enum', `${ip}/enum`, `the items' enum is dropped: the template prints \`${it === 'integer' ? 'number' : it}[]\``);
      this.annotations(items, ip, 'items', true);
      checkConstraints(this.r, items, ip);
      if (items.get('nullable') === true) this.r.at('lint/dropped-nullable', `${ip}/nullable`, '`nullable: true` on scalar items is not shown');
      return;
    }
    const inner = this.innerText(ip);
    if (inner !== undefined && (inner === 'object | object' || [...inner].length > 50)) {
      const what = it === 'object' ? 'an array of objects' : 'an array';
      this.r.at('lint/array-collapsed', ip, `${what} is shown as \`any[]\`: the item type is ${inner === 'object | object' ? '`object | object`' : `${[...inner].length} characters long (over 50)`}, so the template drops it`);
      return;
    }
    const oneOf = items.get('oneOf');
    const union = isJsonArray(it) ? it.length > 1 : it !== 'array' && pyTruthy(oneOf) && isJsonArray(oneOf) && oneOf.length > 1;
    if (union && inner !== undefined) this.r.at('lint/array-union-precedence', ip, `the items are a union: the template prints \`${inner.replace(/\n/g, '')}[]\`, which reads as "the first types, or an array of the last"`);
    this.type(items, ip, 'items');
  }

  /** The template's text for the items (from the printer), or undefined when it fails there. */
  innerText(pointer: string): string | undefined {
    const node = this.nodeAt(pointer);
    if (node === undefined) return undefined;
    try {
      return chatTemplateType(node, this.r.def.parameters);
    } catch (e) {
      if (isCompileError(e)) return undefined;
      throw e;
    }
  }

  /** The outermost IR node lowered from a pointer (relative to the parameters). */
  nodeAt(pointer: string): IrNode | undefined {
    if (!this.index) {
      const index = new Map<string, IrNode>();
      const visit = (n: IrNode | false | undefined): void => {
        if (!n) return;
        if (!index.has(n.pointer)) index.set(n.pointer, n);
        switch (n.kind) {
          case 'object':
            n.properties.forEach((p) => visit(p.schema));
            visit(n.additional);
            n.patternProperties.forEach((pp) => visit(pp.schema));
            break;
          case 'array':
            visit(n.items);
            break;
          case 'tuple':
            n.items.forEach(visit);
            visit(n.rest);
            break;
          case 'union':
            n.variants.forEach(visit);
            break;
          case 'intersection':
            n.members.forEach(visit);
            break;
          default:
            break;
        }
      };
      visit(this.ir.parameters);
      this.index = index;
    }
    return this.index.get(pointer);
  }

  /** Rule 2: a `type` list prints the names as written; nothing else of the schema. */
  typeList(spec: JsonObject, names: readonly JsonValue[], p: string, nullable: boolean): void {
    const lost: string[] = [];
    if (names.includes('object') && pyTruthy(spec.get('properties'))) lost.push('the properties');
    if (names.includes('array') && pyTruthy(spec.get('items'))) lost.push('the items');
    if (pyTruthy(spec.get('enum'))) lost.push('the enum values');
    if (pyTruthy(spec.get('oneOf'))) lost.push('the oneOf');
    names.forEach((t, i) => {
      if (typeof t === 'string' && hasLineBreak(t)) this.r.at('lint/property-name-breaks-layout', `${p}/type/${i}`, `the type name ${quote(t)} is printed raw in the \`type\` list: its line break splits the property line`);
    });
    const text = names.length === 1 ? String(names[0]) : names.map(String).join(' | ');
    if (lost.length) this.r.at('lint/type-list-drops-schema', `${p}/type`, `a \`type\` list is shown as its names (\`${text}\`); lost: ${lost.join(', ')}`);
    if (nullable && !names.includes('null')) this.r.at('lint/dropped-nullable', `${p}/nullable`, '`nullable: true` beside a `type` list is not shown');
  }

  /** `additionalProperties` schemas and `patternProperties`: never printed. */
  extraKeys(m: JsonObject, p: string): void {
    const add = m.get('additionalProperties');
    if (add !== undefined && add !== true && add !== false) this.r.at('lint/dropped-additional-properties', `${p}/additionalProperties`, 'the `additionalProperties` schema is not shown: the model does not learn that other keys are allowed, nor their type');
    if (isJsonObject(m.get('patternProperties')) && pyTruthy(m.get('patternProperties'))) this.r.at('lint/dropped-additional-properties', `${p}/patternProperties`, '`patternProperties` are not shown: the model does not learn which other keys are allowed, nor their type');
  }

  /** Keywords beside the branch the template took, which it never reads. */
  ignoredBeside(m: JsonObject, p: string, by: string): void {
    for (const kw of ['anyOf', 'allOf', '$ref', 'const']) {
      if (m.has(kw)) this.r.at('lint/ignored-keyword', `${p}/${kw}`, `\`${kw}\` beside ${by === 'oneOf' ? 'oneOf' : `\`${by}\``} is ignored: the template reads only ${by === 'oneOf' ? 'the oneOf' : 'the type'}`);
    }
    if (by === 'oneOf' || by === 'array' || by.startsWith('type: "object"')) {
      const en = m.get('enum');
      if (pyTruthy(en)) this.r.at('lint/ignored-keyword', `${p}/enum`, `\`enum\` beside ${by === 'oneOf' ? 'oneOf' : `\`${by}\``} is ignored`);
    }
  }

  /** Rule 7: everything else is `any`. */
  shownAsAny(m: JsonObject, p: string, type: JsonValue | undefined): void {
    let said = false;
    const at = (code: Parameters<Reporter['at']>[0], kw: string, message: string) => {
      said = true;
      this.r.at(code, `${p}/${kw}`, message);
    };
    if (m.has('anyOf')) at('lint/any-anyof', 'anyOf', `anyOf is shown as \`any\`${anyOfHint(m.get('anyOf'))}`);
    if (m.has('allOf')) at('lint/any-allof', 'allOf', 'allOf is shown as `any`: merge the members into one schema');
    // a $ref to nothing is lint/unresolved-ref (an error), not something to inline
    if (m.has('$ref') && !this.r.isBrokenRef(`${p}/$ref`)) at('lint/any-ref', '$ref', `$ref ${quote(String(m.get('$ref')))} is shown as \`any\`: references are not followed; inline the definition`);
    if (m.has('const')) at('lint/any-const', 'const', 'const is shown as `any`: write `"type"` and a one-value `"enum"`');
    if (m.has('enum') && type === undefined) at('lint/any-enum', 'enum', 'an enum without `type` is shown as `any`: add a `"type"`');
    if (m.has('not') || m.has('if')) {
      const kw = m.has('not') ? 'not' : 'if';
      at('lint/any-unsupported', kw, `\`${kw}\` is shown as \`any\`: say the rule in the description`);
    }
    if (type === 'null') at('lint/any-null', 'type', '`type: "null"` alone is shown as `any`');
    if (!said && type === undefined && (m.has('properties') || m.has('items') || m.has('prefixItems'))) {
      const obj = m.has('properties');
      this.r.at('lint/any-missing-type', p, `${obj ? '`properties`' : '`items`'} without \`type\` ${obj ? 'is' : 'are'} shown as \`any\`: add \`"type": "${obj ? 'object' : 'array'}"\``);
    }
  }
}

/** Keys that say something about the parameters beyond "an object". */
const SAYS_SOMETHING = new Set(['type', 'properties', 'anyOf', 'oneOf', 'allOf', '$ref', 'enum', 'const', 'items', 'prefixItems', 'additionalProperties', 'patternProperties', 'not', 'if']);

/** False for the values that say only "an object": `type: object`, empty `properties`, boolean `additionalProperties`. */
function saysSomething(key: string, v: JsonValue): boolean {
  if (key === 'type') return v !== 'object';
  if (key === 'properties') return pyTruthy(v);
  if (key === 'additionalProperties') return typeof v !== 'boolean';
  return true;
}

/** For an anyOf of one type and null: the spelling the template shows. */
function anyOfHint(v: JsonValue | undefined): string {
  if (!isJsonArray(v)) return '';
  const types = v.map((x) => (isJsonObject(x) ? x.get('type') : undefined));
  const others = types.filter((t) => t !== 'null');
  if (v.length === 2 && others.length === 1 && typeof others[0] === 'string' && SCALARS.has(others[0])) {
    return `: write \`"type": ["${others[0]}", "null"]\` (or \`"nullable": true\` on a string) to show it`;
  }
  return ': write a oneOf, or one schema';
}
