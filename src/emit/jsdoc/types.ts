/**
 * The JSDoc type printer: IR → TypeScript type text with `/** … *\/` comments, valid for the
 * TypeScript compiler. Meaning comes from the IR; every layout choice is here.
 *
 * Layout, close to what prettier writes: objects one member a line, two spaces a level;
 * intersections as one run `{ … } & { … }`; a union on one line unless a member spans lines
 * or has a long comment, then one member a line after a leading `|`, indented four spaces
 * past the property. Printed text that starts with a newline is such a leading-`|` list.
 */
import { assertNever } from '../../diagnostics.js';
import { JsonNumber, jsonEquals, quoteJsonString, type JsonObject, type JsonValue } from '../../ir/json.js';
import { EMPTY_META, type IrAnyReason, type IrEnum, type IrIntersection, type IrNode, type IrObject, type IrRef, type IrTuple } from '../../ir/nodes.js';
import { compactJson, docBefore, docBlock, docLines, escapeComment, nullPartner } from './doc.js';
import { propertyKey } from './names.js';
import { pushAll } from '../../ir/arrays.js';

/** How tightly printed type text binds: `A | B`, `A & B`, or anything that can take `[]` after it. */
export type Prec = 0 | 1 | 2;
const UNION: Prec = 0;
const INTERSECTION: Prec = 1;
const PRIMARY: Prec = 2;

/** Printed type text and how tightly it binds. */
export interface Printed {
  readonly text: string;
  readonly prec: Prec;
}

/** What the printer knows about the tool it prints. */
export interface JsdocScope {
  /** The alias name of each `$ref` target (a pointer into the tool's parameters). */
  readonly aliases: ReadonlyMap<string, string>;
  /** The lowered `$ref` targets, by pointer. */
  readonly definitions: ReadonlyMap<string, IrNode>;
  /** The tool's parameters node: an object there that names nothing prints `{}` (no arguments). */
  readonly root?: IrNode;
  /** The `$ref` target whose alias is being declared. */
  readonly declaring?: string;
  /** Alias references (`from\u0000to`) printed as `unknown` to break a cycle TypeScript rejects. */
  readonly brokenEdges: ReadonlySet<string>;
}

/** One member of a union or intersection: its comment lines and how to print it at an indent. */
interface Member {
  readonly doc: readonly string[];
  readonly print: (indent: string) => Printed;
}

const STEP = '  ';
/** Members with one-line comments stay on one line up to this many characters. */
const INLINE_WIDTH = 80;
const p = (text: string, prec: Prec = PRIMARY): Printed => ({ text, prec });
const NULL_MEMBER: Member = { doc: [], print: () => p('null') };

/** The type of a node at `indent` (the indent of the line it starts on), `| null` included when it is nullable. */
export function jsdocType(node: IrNode, indent: string, scope: JsdocScope, guarded = false): Printed {
  if (!node.nullable) return bareType(node, indent, scope, guarded);
  if (node.kind !== 'union' && node.kind !== 'enum') {
    // the common `T | null`, without building members
    const t = bareType(node, indent, scope, guarded);
    if (t.text === 'null') return t;
    if (!t.text.includes('\n')) return p(`${t.prec === INTERSECTION ? `(${t.text})` : t.text} | null`, UNION);
  }
  return joinMembers(membersOf(node, scope, guarded, true), '|', indent);
}

/**
 * The type of a node without its own `| null`. `guarded` is true inside an object, array or
 * tuple of the alias being declared: TypeScript allows recursion only there.
 */
function bareType(node: IrNode, indent: string, scope: JsdocScope, guarded: boolean): Printed {
  switch (node.kind) {
    case 'string':
      return p('string');
    case 'number':
      return p('number');
    case 'boolean':
      return p('boolean');
    case 'null':
      return p('null');
    case 'any':
      return anyType(node.reason, node.typeName);
    case 'literal':
      return valueType(node.value);
    case 'enum':
    case 'union':
      return joinMembers(membersOf(node, scope, guarded, false), '|', indent);
    case 'array':
      return p(node.items === undefined ? 'any[]' : arrayOf(node.items, indent, scope));
    case 'tuple':
      return tupleType(node, indent, scope);
    case 'object':
      return objectType(node, indent, scope);
    case 'intersection':
      return intersectionType(node, indent, scope, guarded);
    case 'ref':
      return refType(node, scope, guarded);
    default:
      return assertNever(node);
  }
}

/** `any` for anything (Harmony's word), `never` for the `false` schema, a comment for a `type` name JSON Schema lacks. */
function anyType(reason: IrAnyReason, typeName: JsonValue | undefined): Printed {
  if (reason === 'false') return p('never');
  if (reason === 'unknown-type' && typeName !== undefined) return p(`any /* type ${inlineCommentText(compactJson(typeName))} */`);
  return p('any');
}

/**
 * A JSON value as a literal type: strings JSON-quoted, numbers as written, `true`, `false`,
 * `null`; arrays as tuples and objects as type literals of their values (`{ o: 1 }`), an
 * empty object as `{ [key: string]: never }` since `{}` would accept anything.
 */
export function valueType(v: JsonValue): Printed {
  if (v === null) return p('null');
  if (typeof v === 'boolean') return p(v ? 'true' : 'false');
  if (typeof v === 'string') return p(quoteJsonString(v));
  if (v instanceof JsonNumber) return p(v.text);
  if (Array.isArray(v)) return p(`[${v.map((x) => valueType(x).text).join(', ')}]`);
  const parts: string[] = [];
  for (const [k, x] of v as JsonObject) parts.push(`${propertyKey(k)}: ${valueType(x).text}`);
  return p(parts.length ? `{ ${parts.join('; ')} }` : '{ [key: string]: never }');
}

/** True when a value has the JSON type a `type` name says (`integer` needs a whole number). */
function fitsType(v: JsonValue, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'number':
      return v instanceof JsonNumber;
    case 'integer':
      return v instanceof JsonNumber && Number.isInteger(v.value);
    case 'boolean':
      return typeof v === 'boolean';
    default:
      return true;
  }
}

/** Enum values that fit the enum's `type`; all of them when none does (the values are what the author meant). */
function enumValues(values: readonly JsonValue[], type: string | undefined): readonly JsonValue[] {
  if (type === undefined) return values;
  const kept = values.filter((v) => fitsType(v, type));
  return kept.length ? kept : values;
}

/**
 * The members a union prints: an enum's values; a union's variants, a variant without
 * comment lines of its own spliced in (so nested unions and `type` lists flatten); anything
 * else is one member. `withNull` adds `null` for a nullable node.
 */
function membersOf(node: IrNode, scope: JsdocScope, guarded: boolean, withNull: boolean): Member[] {
  const out: Member[] = [];
  if (node.kind === 'enum') {
    for (const v of enumValues(node.values, node.type)) out.push({ doc: [], print: () => valueType(v) });
  } else if (node.kind === 'union') {
    const partner = nullPartner(node);
    for (const v of node.variants) {
      // a null partner's comment lines are written with the union's (see docLines)
      const doc = v.pointer === node.pointer || v === partner ? [] : docLines(v);
      if (doc.length === 0 && (v.kind === 'union' || v.kind === 'enum' || v.nullable)) pushAll(out, membersOf(v, scope, guarded, true));
      else out.push({ doc, print: (i) => jsdocType(v, i, scope, guarded) });
    }
  } else {
    out.push({ doc: [], print: (i) => bareType(node, i, scope, guarded) });
  }
  if (withNull && node.nullable) out.push(NULL_MEMBER);
  return out;
}

/** Parentheses around text, closing on its own line at `indent` when the text is a leading-operator list. */
function paren(text: string, indent: string): string {
  return text.startsWith('\n') ? `(${text}\n${indent})` : `(${text})`;
}

/**
 * Members joined by `|` or `&`: duplicates dropped; none is `never` (`|`) or `any` (`&`);
 * one without comment is itself. An intersection is one run `A & { … } & B` (objects span
 * lines inside it, as prettier writes them). A union is one line when no member spans lines
 * or has a comment of more than one line (and, with comments, the line stays short); else
 * one member a line after a leading `|`, a comment of several lines on its own lines above
 * it (where prettier leaves it). Inside a union, intersections are parenthesised for
 * clarity; inside an intersection, unions must be; a commented member binding looser than a
 * primary type is parenthesised so the comment plainly covers all of it. A lone commented
 * member binds as a union, so an array or `&` parenthesises it.
 */
function joinMembers(members: readonly Member[], op: '|' | '&', indent: string): Printed {
  const inner = `${indent}${STEP}${STEP}`;
  const seen = new Set<string>();
  const printed: { doc: readonly string[]; p: Printed }[] = [];
  for (const m of members) {
    const q = m.print(inner);
    const key = m.doc.length ? `${m.doc.join('\n')}\u0000${q.text}` : q.text;
    if (seen.has(key)) continue;
    seen.add(key);
    printed.push({ doc: m.doc, p: q });
  }
  if (printed.length === 0) return p(op === '|' ? 'never' : 'any');
  if (printed.length === 1 && printed[0].doc.length === 0) return { ...printed[0].p, text: reindent(printed[0].p.text, inner, indent) };
  const prec = op === '|' ? UNION : INTERSECTION;
  const needsParen = (x: { doc: readonly string[]; p: Printed }) =>
    x.p.prec < prec || (op === '|' && x.p.prec === INTERSECTION) || (x.doc.length > 0 && x.p.prec < PRIMARY) || x.p.text.startsWith('\n');
  const texts = printed.map((x) => ({ doc: x.doc, text: needsParen(x) ? paren(x.p.text, inner) : x.p.text }));
  const hasDoc = texts.some((x) => x.doc.length > 0);
  const inline = texts.map((x) => docBefore(x.doc, x.text, indent)).join(` ${op} `);
  // an intersection reads as prettier writes it: `{ … } & { … }`, whatever spans lines
  if (op === '&' && !texts.some((x) => x.doc.length > 1)) return p(reindent(inline, inner, indent), printed.length === 1 ? UNION : prec);
  const multi = texts.some((x) => x.doc.length > 1 || x.text.includes('\n')) || (hasDoc && inline.length > INLINE_WIDTH);
  if (!multi) return p(inline, printed.length === 1 ? UNION : prec);
  const pipe = `${indent}${STEP}`;
  // a comment of several lines stands on its own lines above its operator, where prettier leaves it
  const line = (x: { doc: readonly string[]; text: string }) =>
    x.doc.length > 1 ? `\n${docBlock(x.doc, pipe).slice(0, -1)}\n${pipe}${op} ${x.text}` : `\n${pipe}${op} ${docBefore(x.doc, x.text, inner)}`;
  return p(texts.map(line).join(''), prec);
}

/**
 * Text printed at one indent moved to another. Every line after the first of printed type
 * text starts with at least the indent it was printed at (strings are JSON-quoted, comment
 * lines split), so swapping that prefix moves the whole text.
 */
function reindent(text: string, from: string, to: string): string {
  return from === to || !text.includes('\n') ? text : text.split(`\n${from}`).join(`\n${to}`);
}

/**
 * `T[]`, parenthesised when T binds looser. Items with a comment of their own are
 * `Array<…>` with the comment inside, so it plainly describes the items (prettier would
 * drop the parentheses of `(/** c *\/ T)[]`); the catalog keeps the name `Array` free.
 */
function arrayOf(items: IrNode, indent: string, scope: JsdocScope): string {
  const doc = docLines(items);
  const inner = `${indent}${STEP}`;
  const el = jsdocType(items, inner, scope, true);
  if (doc.length === 0) {
    if (el.text.startsWith('\n')) return `${paren(reindent(el.text, inner, indent), indent)}[]`;
    return el.prec < PRIMARY ? `(${el.text})[]` : `${reindent(el.text, inner, indent)}[]`;
  }
  if (doc.length === 1 && !el.text.includes('\n')) return `Array<${docBefore(doc, el.text, indent)}>`;
  return `Array<\n${inner}${docBefore(doc, el.text, inner)}\n${indent}>`;
}

/**
 * A tuple: `[A, B]`. Positions are required as a tuple is written, unless `minItems` asks for
 * fewer: positions from `minItems` on are optional (`B?`). After them `...R[]` for a rest
 * schema, `...any[]` when nothing closes the tuple, nothing when rest is `false`.
 */
function tupleType(t: IrTuple, indent: string, scope: JsdocScope): Printed {
  const inner = `${indent}${STEP}`;
  const min = t.minItems !== undefined ? t.minItems.value : t.items.length;
  const elems: { doc: readonly string[]; text: string }[] = t.items.map((it, k) => {
    const q = jsdocType(it, inner, scope, true);
    const opt = k >= min;
    const wrapped = q.text.startsWith('\n') || (opt && q.prec < PRIMARY) ? paren(q.text, inner) : q.text;
    const text = opt ? `${wrapped}?` : wrapped;
    return { doc: docLines(it), text };
  });
  if (t.rest === undefined) elems.push({ doc: [], text: '...any[]' });
  else if (t.rest !== false) elems.push({ doc: [], text: `...${arrayOf(t.rest, inner, scope)}` });
  const multi = elems.some((e) => e.doc.length > 0 || e.text.includes('\n'));
  if (!multi) return p(`[${elems.map((e) => e.text).join(', ')}]`);
  return p(`[\n${elems.map((e) => `${inner}${docBefore(e.doc, e.text, inner)},\n`).join('')}${indent}]`);
}

/** True when an object names nothing: no properties, no required names, no additional or pattern schema. */
function namesNothing(o: IrObject): boolean {
  return o.properties.length === 0 && o.extraRequired.length === 0 && o.additional === undefined && o.patternProperties.length === 0;
}

/**
 * An object type literal. Named properties, `?` when not required; names listed in
 * `required` without a schema as `name: any`. `additionalProperties` and
 * `patternProperties` become one `[key: string]: T` signature (each pattern labelled in a
 * comment); beside named properties it is a separate literal joined by `&`, since TypeScript
 * checks every property against a signature in the same literal. An object that names
 * nothing is a free-form `{ [key: string]: any }`, or `{}` as a tool's parameters (no
 * arguments) or when `additionalProperties` is `false`.
 */
function objectType(o: IrObject, indent: string, scope: JsdocScope): Printed {
  if (namesNothing(o)) return p(o === scope.root ? '{}' : '{ [key: string]: any }');
  const hasProps = o.properties.length > 0 || o.extraRequired.length > 0;
  const inner = `${indent}${STEP}`;
  const sig = indexSignature(o, inner, scope);
  if (!hasProps && sig === undefined) return p('{}');
  if (!hasProps || sig === undefined || sig.value === 'any' || sig.value === 'unknown') return objectBody(o, sig, indent, scope);
  return joinMembers(
    [
      { doc: [], print: (i) => objectBody(o, undefined, i, scope) },
      { doc: [], print: (i) => objectBody({ ...o, properties: [], extraRequired: [] }, { doc: sig.doc, value: reindent(sig.value, inner, `${i}${STEP}`) }, i, scope) },
    ],
    '&',
    indent,
  );
}

/** A printed index signature: its comment lines and its value type text. */
interface IndexSignature {
  readonly doc: readonly string[];
  readonly value: string;
}

/** The index signature of an object, printed at `indent`: its pattern and additional schemas as one value type. */
function indexSignature(o: IrObject, indent: string, scope: JsdocScope): IndexSignature | undefined {
  const entries: { label?: string; schema: IrNode }[] = o.patternProperties.map((pp) => ({ label: escapeComment(`Keys matching /${pp.pattern}/`), schema: pp.schema }));
  if (o.additional !== undefined && o.additional !== false) entries.push({ ...(entries.length ? { label: 'Other keys' } : {}), schema: o.additional });
  if (entries.length === 0) return undefined;
  if (entries.length === 1) {
    const e = entries[0];
    return { doc: [...(e.label !== undefined ? [e.label] : []), ...docLines(e.schema)], value: jsdocType(e.schema, indent, scope, true).text };
  }
  const members = entries.map((e) => ({ doc: [e.label as string, ...docLines(e.schema)], print: (i: string) => jsdocType(e.schema, i, scope, true) }));
  return { doc: [], value: joinMembers(members, '|', indent).text };
}

/** `{`, one member a line (properties, then required names without a schema, then the index signature), `}`. */
function objectBody(o: IrObject, sig: IndexSignature | undefined, indent: string, scope: JsdocScope): Printed {
  const inner = `${indent}${STEP}`;
  let out = '{\n';
  for (const prop of o.properties) {
    const t = jsdocType(prop.schema, inner, scope, true).text;
    out += `${docBlock(docLines(prop.schema), inner)}${inner}${propertyKey(prop.name)}${prop.required ? '' : '?'}:${t.startsWith('\n') ? '' : ' '}${t};\n`;
  }
  for (const name of o.extraRequired) out += `${inner}${propertyKey(name)}: any;\n`;
  if (sig !== undefined) out += `${docBlock(sig.doc, inner)}${inner}[key: string]:${sig.value.startsWith('\n') ? '' : ' '}${sig.value};\n`;
  return p(`${out}${indent}}`);
}

/**
 * `allOf` members joined by `&`. A `keywords` intersection (one schema combining `type`,
 * `enum`, `const`, `$ref`, `anyOf`…) first drops a bare `type` member (`string`, an object
 * that names nothing…) that another member already refines: `{type: string, const: "x"}`
 * is `"x"`, `{type: object, oneOf: [{…}, {…}]}` is the union of the two objects.
 */
function intersectionType(node: IrIntersection, indent: string, scope: JsdocScope, guarded: boolean): Printed {
  let members = node.members;
  if (node.origin === 'keywords') {
    members = mergeFinite(members, node.pointer);
    members = members.filter((m) => {
      const k = bareKind(m);
      if (k === undefined) return true;
      return !members.some((o) => {
        if (o === m) return false;
        const ks = kindsOf(o, scope, new Set());
        return ks !== undefined && ks.size > 0 && [...ks].every((x) => x === k);
      });
    });
  }
  const list: Member[] = members.map((m) => ({ doc: m.pointer === node.pointer ? [] : docLines(m), print: (i) => jsdocType(m, i, scope, guarded) }));
  return joinMembers(list, '&', indent);
}

/**
 * Members that list values (`enum`, `const`) merged into one enum of the values they all
 * list, in the first one's order: `{type: string, enum: ["a", "b"], const: "a"}` is `"a"`.
 */
function mergeFinite(members: readonly IrNode[], pointer: string): readonly IrNode[] {
  const values = (m: IrNode): readonly JsonValue[] | undefined =>
    m.nullable ? undefined : m.kind === 'enum' ? enumValues(m.values, m.type) : m.kind === 'literal' ? [m.value] : undefined;
  const finite = members.filter((m) => values(m) !== undefined);
  if (finite.length < 2) return members;
  let common = values(finite[0]) as readonly JsonValue[];
  for (const m of finite.slice(1)) {
    const vs = values(m) as readonly JsonValue[];
    common = common.filter((v) => vs.some((w) => jsonEquals(v, w)));
  }
  const merged: IrEnum = { pointer, meta: EMPTY_META, nullable: false, kind: 'enum', values: common, origin: 'enum' };
  return [merged, ...members.filter((m) => !finite.includes(m))];
}

/** The JSON type of a `type` member that says nothing but its type, else undefined. */
function bareKind(n: IrNode): string | undefined {
  if (n.nullable) return undefined;
  switch (n.kind) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
      return n.kind;
    case 'object':
      return namesNothing(n) ? 'object' : undefined;
    case 'array':
      return n.items === undefined ? 'array' : undefined;
    default:
      return undefined;
  }
}

/** The JSON type of a value (`integer` is `number`). */
function jsonKind(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'boolean';
  if (v instanceof JsonNumber) return 'number';
  return Array.isArray(v) ? 'array' : 'object';
}

/** The JSON types a node can produce; undefined for any. */
function kindsOf(n: IrNode, scope: JsdocScope, seen: Set<string>): Set<string> | undefined {
  let out: Set<string> | undefined;
  switch (n.kind) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
    case 'object':
      out = new Set([n.kind]);
      break;
    case 'array':
    case 'tuple':
      out = new Set(['array']);
      break;
    case 'any':
      out = n.reason === 'false' ? new Set() : undefined;
      break;
    case 'literal':
      out = new Set([jsonKind(n.value)]);
      break;
    case 'enum':
      out = new Set(enumValues(n.values, n.type).map(jsonKind));
      break;
    case 'union': {
      out = new Set();
      for (const v of n.variants) {
        const k = kindsOf(v, scope, seen);
        if (k === undefined) return undefined;
        for (const x of k) out.add(x);
      }
      break;
    }
    case 'intersection': {
      for (const m of n.members) {
        const k = kindsOf(m, scope, seen);
        if (k === undefined) continue;
        out = out === undefined ? k : new Set([...out].filter((x) => k.has(x)));
      }
      break;
    }
    case 'ref': {
      const def = n.target !== undefined && !n.circular && !seen.has(n.target) ? scope.definitions.get(n.target) : undefined;
      if (def === undefined) return undefined;
      seen.add(n.target as string);
      out = kindsOf(def, scope, seen);
      break;
    }
    default:
      return assertNever(n);
  }
  if (out !== undefined && n.nullable) out.add('null');
  return out;
}

/**
 * JSON text for a `/* … *\/` comment inside a type: no star-slash, and U+2028/U+2029 as `\u2028`
 * escapes (JSON keeps them raw; TypeScript reads them as line breaks, and a line break before
 * `[]` ends the type there).
 */
function inlineCommentText(json: string): string {
  const text = escapeComment(json);
  return /[\u2028\u2029]/.test(text) ? text.replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`) : text;
}

/**
 * A `$ref`: the target's alias name. A ref that does not resolve, or that only leads to
 * other refs and back (`circular`), is `unknown` with a comment saying so; so is a ref that
 * would close a cycle of aliases outside any object, array or tuple, which TypeScript rejects.
 */
function refType(r: IrRef, scope: JsdocScope, guarded: boolean): Printed {
  const quoted = inlineCommentText(quoteJsonString(r.ref));
  if (r.target === undefined) return p(`unknown /* unresolved $ref ${quoted} */`);
  if (r.circular) return p(`unknown /* circular $ref ${quoted} */`);
  if (!guarded && scope.declaring !== undefined && scope.brokenEdges.has(`${scope.declaring}\u0000${r.target}`)) return p(`unknown /* circular $ref ${quoted} */`);
  const alias = scope.aliases.get(r.target);
  return alias !== undefined ? p(alias) : p(`unknown /* unresolved $ref ${quoted} */`);
}

/** The alias targets a node refers to outside any object, array or tuple (where TypeScript needs the alias resolved at once). */
function unguardedTargets(n: IrNode, out: string[]): string[] {
  switch (n.kind) {
    case 'ref':
      if (n.target !== undefined && !n.circular) out.push(n.target);
      break;
    case 'union':
      for (const v of n.variants) unguardedTargets(v, out);
      break;
    case 'intersection':
      for (const m of n.members) unguardedTargets(m, out);
      break;
    default:
      break;
  }
  return out;
}

/**
 * The alias references to break so that no alias refers to itself outside an object, array
 * or tuple (`type A = A | string` is an error; `type A = { a?: A }` is fine): the back edges
 * of a depth-first walk, as `from\u0000to`.
 */
export function brokenAliasEdges(definitions: ReadonlyMap<string, IrNode>): Set<string> {
  const broken = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  // an explicit stack, not recursion: a chain of 10,000 aliases must not overflow the call stack
  const open = (from: string) => {
    state.set(from, 'open');
    const node = definitions.get(from);
    return { from, targets: node ? unguardedTargets(node, []) : [], next: 0 };
  };
  for (const k of definitions.keys()) {
    if (state.has(k)) continue;
    const stack = [open(k)];
    while (stack.length) {
      const f = stack[stack.length - 1];
      if (f.next === f.targets.length) {
        state.set(f.from, 'done');
        stack.pop();
        continue;
      }
      const to = f.targets[f.next++];
      const s = state.get(to);
      if (s === 'open') broken.add(`${f.from}\u0000${to}`);
      else if (s === undefined && definitions.has(to)) stack.push(open(to));
    }
  }
  return broken;
}
