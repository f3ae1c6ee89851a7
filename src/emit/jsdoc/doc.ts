/**
 * JSDoc comments of the JSDoc target: what a schema's annotations and bounds become
 * (description lines, then tags in a fixed order), and how lines are laid out as a block.
 */
import { JsonNumber, quoteJsonString, type JsonObject, type JsonValue } from '../../ir/json.js';
import { EMPTY_META, type IrNode } from '../../ir/nodes.js';
import { pushAll } from '../../ir/arrays.js';

/** Every star-slash becomes `*\/`, so text can never close the comment it stands in (`\/` is also a valid JSON escape for `/`). */
export function escapeComment(text: string): string {
  return text.includes('*/') ? text.replace(/\*\//g, '*\\/') : text;
}

const LINE_BREAK = /[\n\r\u2028\u2029]/;
const NON_BLANK = /\S/;
const NO_LINES: readonly string[] = Object.freeze([]);

/** Text split into lines (`\r\n`, `\n`, `\r`, U+2028, U+2029), trailing blank lines dropped. */
export function commentLines(text: string): string[] {
  const escaped = escapeComment(text);
  if (!LINE_BREAK.test(escaped)) return NON_BLANK.test(escaped) ? [escaped] : [];
  const lines = escaped.split(/\r\n|[\n\r\u2028\u2029]/);
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
  return lines;
}

/** Compact JSON with every number printed as written (`1.0` stays `1.0`), for `@default` and `@example`. */
export function compactJson(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return quoteJsonString(v);
  if (v instanceof JsonNumber) return v.text;
  if (Array.isArray(v)) return `[${v.map(compactJson).join(',')}]`;
  const parts: string[] = [];
  for (const [k, x] of v as JsonObject) parts.push(`${quoteJsonString(k)}:${compactJson(x)}`);
  return `{${parts.join(',')}}`;
}

/** Push a tag whose text may span lines: `@tag first`, then the other lines as they are. */
function pushTag(out: string[], name: string, text?: string): void {
  const lines = text === undefined ? NO_LINES : commentLines(text);
  if (lines.length === 0) out.push(`@${name}`);
  else {
    out.push(`@${name} ${lines[0]}`);
    for (let k = 1; k < lines.length; k++) out.push(lines[k]);
  }
}

/**
 * The bounds and formats a node states, as tags. Members that share the node's pointer (the
 * parts of a `type` list or of one schema's combined keywords) are the same schema object:
 * their tags are gathered here, once, so `{type: ["string", "null"], maxLength: 5}` says
 * `@maxLength 5` on the property rather than inside the union.
 */
export function constraintTags(node: IrNode): string[] {
  const out: string[] = [];
  pushConstraints(node, out, false);
  return out;
}

/** Push one bound: `@name text`, unless a shared member already did. */
function pushBound(out: string[], name: string, v: JsonNumber | undefined, dedupe: boolean): void {
  if (v === undefined) return;
  const line = `@${name} ${v.text}`;
  if (!dedupe || !out.includes(line)) out.push(line);
}

/** Push a format or pattern tag (it may span lines), unless a shared member already did. */
function pushText(out: string[], name: string, v: string | undefined, dedupe: boolean): void {
  if (v === undefined) return;
  const lines: string[] = [];
  pushTag(lines, name, v);
  if (dedupe && out.includes(lines[0])) return;
  pushAll(out, lines);
}

/** Push the tags of `constraintTags`; `dedupe` once members sharing a pointer are visited. */
function pushConstraints(x: IrNode, out: string[], dedupe: boolean): void {
  switch (x.kind) {
    case 'string':
      pushText(out, 'format', x.format, dedupe);
      pushText(out, 'pattern', x.pattern, dedupe);
      pushBound(out, 'minLength', x.minLength, dedupe);
      pushBound(out, 'maxLength', x.maxLength, dedupe);
      return;
    case 'number':
      if (x.integer && !(dedupe && out.includes('@integer'))) out.push('@integer');
      pushText(out, 'format', x.format, dedupe);
      pushBound(out, 'minimum', x.minimum, dedupe);
      pushBound(out, 'exclusiveMinimum', x.exclusiveMinimum, dedupe);
      pushBound(out, 'maximum', x.maximum, dedupe);
      pushBound(out, 'exclusiveMaximum', x.exclusiveMaximum, dedupe);
      pushBound(out, 'multipleOf', x.multipleOf, dedupe);
      return;
    case 'array':
      pushBound(out, 'minItems', x.minItems, dedupe);
      pushBound(out, 'maxItems', x.maxItems, dedupe);
      if (x.uniqueItems && !(dedupe && out.includes('@uniqueItems'))) out.push('@uniqueItems');
      return;
    case 'tuple':
      pushBound(out, 'minItems', x.minItems, dedupe);
      pushBound(out, 'maxItems', x.maxItems, dedupe);
      return;
    case 'object':
      pushBound(out, 'minProperties', x.minProperties, dedupe);
      pushBound(out, 'maxProperties', x.maxProperties, dedupe);
      return;
    case 'union':
      for (const v of x.variants) if (v.pointer === x.pointer) pushConstraints(v, out, true);
      return;
    case 'intersection':
      for (const m of x.members) if (m.pointer === x.pointer) pushConstraints(m, out, true);
      return;
    default:
      return;
  }
}

/** True when a node is `{type: "null"}` and nothing else (no annotation, not nullable). */
function isPlainNull(n: IrNode): boolean {
  const m = n.meta;
  return n.kind === 'null' && !n.nullable && m.description === undefined && m.title === undefined && m.default === undefined && m.examples.length === 0 && !m.deprecated && !m.readOnly && !m.writeOnly;
}

/**
 * For a union of one schema and a plain `null` (pydantic's `Optional[X]`: `anyOf: [X, {type: "null"}]`),
 * that schema: its comment lines are written with the union's, as for a nullable X.
 */
export function nullPartner(node: IrNode): IrNode | undefined {
  if (node.kind !== 'union' || node.variants.length !== 2) return undefined;
  const [a, b] = node.variants;
  if (a.pointer === node.pointer || b.pointer === node.pointer) return undefined;
  if (isPlainNull(b) && !isPlainNull(a)) return a;
  if (isPlainNull(a) && !isPlainNull(b)) return b;
  return undefined;
}

/**
 * The doc lines of a node: its description, then `@title`, `@deprecated`, `@readOnly`,
 * `@writeOnly`, the bounds and formats, `@default`, and one `@example` per example; then
 * those of its `nullPartner`, less the lines already written.
 */
export function docLines(node: IrNode): readonly string[] {
  if (node.meta === EMPTY_META && !statesBounds(node)) return NO_LINES;
  const lines: string[] = [];
  pushHead(node, lines);
  const partner = nullPartner(node);
  if (partner !== undefined) {
    const own = node.meta;
    const tail: string[] = [];
    pushTail(node, tail);
    for (const l of docLines(partner)) if (l === '' || (!lines.includes(l) && !tail.includes(l))) lines.push(l);
    if (own.default !== undefined || own.examples.length > 0) pushAll(lines, tail);
  } else pushTail(node, lines);
  return lines.length ? lines : NO_LINES;
}

/** True when a node may have tags of its own: bounds, formats, `@integer`, or a null partner's lines. */
function statesBounds(n: IrNode): boolean {
  switch (n.kind) {
    case 'string':
      return n.format !== undefined || n.pattern !== undefined || n.minLength !== undefined || n.maxLength !== undefined;
    case 'number':
    case 'array':
    case 'tuple':
    case 'object':
    case 'union':
    case 'intersection':
      return true;
    default:
      return false;
  }
}

/** Push a node's description, `@title`, `@deprecated`, `@readOnly`, `@writeOnly`, bounds and formats. */
function pushHead(node: IrNode, out: string[]): void {
  const m = node.meta;
  if (m.description !== undefined) pushAll(out, commentLines(m.description));
  if (m.title !== undefined) pushTag(out, 'title', m.title);
  if (m.deprecated) out.push('@deprecated');
  if (m.readOnly) out.push('@readOnly');
  if (m.writeOnly) out.push('@writeOnly');
  pushConstraints(node, out, false);
}

/** Push a node's `@default` and `@example`s. */
function pushTail(node: IrNode, out: string[]): void {
  const m = node.meta;
  if (m.default !== undefined) pushTag(out, 'default', compactJson(m.default.value));
  for (const e of m.examples) pushTag(out, 'example', compactJson(e));
}

/** A doc block on its own lines at `indent` (one line, or an opening line, ` * line`s and a closing line), with a final newline; empty for no lines. */
export function docBlock(lines: readonly string[], indent: string): string {
  if (lines.length === 0) return '';
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => (l === '' ? `${indent} *\n` : `${indent} * ${l}\n`)).join('')}${indent} */\n`;
}

/**
 * A doc comment inside a type, before the type it describes: one line then T on the same
 * line, or a block whose opening stands at column `indent` with T on the next line there.
 */
export function docBefore(lines: readonly string[], text: string, indent: string): string {
  if (lines.length === 0) return text;
  if (lines.length === 1) return `/** ${lines[0]} */${text.startsWith('\n') ? '' : ' '}${text}`;
  const block = docBlock(lines, indent).slice(indent.length);
  return text.startsWith('\n') ? `${block.slice(0, -1)}${text}` : `${block}${indent}${text}`;
}
