/**
 * The faithful rewrite, IR → IR: what openai-harmony would print as `any` (or as bare type
 * names) is rewritten into forms its layout can show, so the schema's meaning survives.
 * New nodes are built; the input IR is never changed.
 *
 *   $ref (local)            → the target, inlined; a target already being expanded (a cycle)
 *                             or past the expansion budget stays a ref (printed with a comment)
 *   oneOf/anyOf with null   → the other variant, nullable (several others: the null stays a variant)
 *   anyOf, type lists       → oneOf (a union variant that is a union flattens into it)
 *   allOf of objects        → one object (properties and required merged); other allOfs → intersection
 *   keywords side by side   → an intersection (an object with a oneOf of objects is distributed)
 *   const                   → a one-value enum
 *   `required` names that are not properties → required properties of any type
 */
import type { Diagnostic } from '../diagnostics.js';
import { normalizeGeminiSchema } from '../input/normalize.js';
import type { ToolDefinition } from '../input/types.js';
import { EMPTY_META, type IrAny, type IrEnum, type IrIntersection, type IrMeta, type IrNode, type IrObject, type IrProperty, type IrRef, type IrTool, type IrUnion } from '../ir/nodes.js';
import { lowerTool, type LowerOptions } from './index.js';
import { pushAll } from '../ir/arrays.js';

/** Options of the faithful rewrite. */
export interface FaithfulOptions {
  /** How many `$ref` expansions one tool may make before refs are left as comments (guards exponential fan-out). Default 1000. */
  readonly maxExpansions?: number;
}

/**
 * Lower a tool for the faithful catalog: type names written in another case (`"OBJECT"`,
 * OpenAPI and Gemini style) are read as the JSON Schema type they name (an info each),
 * then the tool is lowered and rewritten. Use in place of `lowerTool` for `lowering: 'faithful'`.
 */
export function faithfulLowerTool(def: ToolDefinition, options: FaithfulOptions & Omit<LowerOptions, 'tool' | 'basePointer'> = {}): { tool: IrTool; diagnostics: readonly Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  let source = def;
  const limits = options.limits ? { limits: options.limits } : {};
  // the exact lowering first: its pre-pass enforces the limits (depth, size) before the recursive normalisation
  const exact = lowerTool(def, limits);
  if (exact.diagnostics.some((d) => d.severity === 'error')) return exact;
  if (def.parameters !== undefined && def.parameters !== null) {
    const n = normalizeGeminiSchema(def.parameters);
    for (const c of n.changes) {
      if (c.to === undefined || !JSON_SCHEMA_TYPES.has(c.to)) continue;
      diagnostics.push({ code: 'faithful/type-case', severity: 'info', tool: def.name, path: def.parametersPointer + c.path, message: `type ${JSON.stringify(c.from)} is read as ${JSON.stringify(c.to)} (openai-harmony shows it as any)` });
    }
    if (diagnostics.length) source = { ...def, parameters: n.schema };
  }
  const lowered = source === def ? exact : lowerTool(source, limits);
  return { tool: faithfulTool(lowered.tool, options), diagnostics: [...diagnostics, ...lowered.diagnostics] };
}

const JSON_SCHEMA_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);

/** State of one tool's rewrite. */
interface Ctx {
  readonly definitions: ReadonlyMap<string, IrNode>;
  /** Pointers of the nodes being rewritten (ancestors) and of refs being expanded, with counts. */
  readonly open: Map<string, number>;
  expansions: number;
  readonly maxExpansions: number;
}

/** A tool with its parameters rewritten (its definitions are inlined, so none are kept). */
export function faithfulTool(tool: IrTool, options: FaithfulOptions = {}): IrTool {
  if (tool.parameters === undefined) return tool;
  const ctx: Ctx = { definitions: tool.definitions, open: new Map(), expansions: 0, maxExpansions: options.maxExpansions ?? 1000 };
  return { ...tool, parameters: rewrite(tool.parameters, ctx), definitions: new Map() };
}

/** One schema node rewritten on its own, with the definitions its refs point to. */
export function faithfulNode(node: IrNode, definitions: ReadonlyMap<string, IrNode> = new Map(), options: FaithfulOptions = {}): IrNode {
  return rewrite(node, { definitions, open: new Map(), expansions: 0, maxExpansions: options.maxExpansions ?? 1000 });
}

function enter(ctx: Ctx, pointer: string): void {
  ctx.open.set(pointer, (ctx.open.get(pointer) ?? 0) + 1);
}
function leave(ctx: Ctx, pointer: string): void {
  const n = ctx.open.get(pointer) ?? 0;
  if (n <= 1) ctx.open.delete(pointer);
  else ctx.open.set(pointer, n - 1);
}

function rewrite(node: IrNode, ctx: Ctx): IrNode {
  switch (node.kind) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
    case 'any':
    case 'enum':
      return node;
    case 'literal':
      // const → a one-value enum (no `type` was written beside it)
      return { pointer: node.pointer, meta: node.meta, nullable: node.nullable, kind: 'enum', values: [node.value], origin: 'enum' };
    case 'ref':
      return expandRef(node, ctx);
    default:
      break;
  }
  enter(ctx, node.pointer);
  try {
    switch (node.kind) {
      case 'array':
        return node.items === undefined ? node : { ...node, items: rewrite(node.items, ctx) };
      case 'tuple':
        return { ...node, items: node.items.map((m) => rewrite(m, ctx)), ...(node.rest !== undefined && node.rest !== false ? { rest: rewrite(node.rest, ctx) } : {}) };
      case 'object':
        return rewriteObject(node, ctx);
      case 'union':
        return rewriteUnion(node, ctx);
      case 'intersection':
        return rewriteIntersection(node, ctx);
    }
  } finally {
    leave(ctx, node.pointer);
  }
}

/** Properties rewritten; `required` names without a property become required properties of any type. */
function rewriteObject(o: IrObject, ctx: Ctx): IrObject {
  const properties: IrProperty[] = o.properties.map((p) => ({ ...p, schema: rewrite(p.schema, ctx) }));
  for (const name of o.extraRequired) properties.push({ name, required: true, schema: anyNode(`${o.pointer}/required`, 'empty') });
  return {
    ...o,
    properties,
    extraRequired: [],
    ...(o.additional !== undefined && o.additional !== false ? { additional: rewrite(o.additional, ctx) } : {}),
    patternProperties: o.patternProperties.map((pp) => ({ pattern: pp.pattern, schema: rewrite(pp.schema, ctx) })),
  };
}

/**
 * A local ref: the target inlined, the ref's own annotations over the target's. A target
 * that is an ancestor (a cycle) is met for the second time: it stays a ref, printed as a comment.
 */
function expandRef(r: IrRef, ctx: Ctx): IrNode {
  if (r.target === undefined || r.circular) return r;
  const def = ctx.definitions.get(r.target);
  if (def === undefined || ctx.open.has(r.target) || ctx.expansions >= ctx.maxExpansions) return r;
  ctx.expansions++;
  enter(ctx, r.target);
  try {
    return withOuter(rewrite(def, ctx), r.meta, r.nullable);
  } finally {
    leave(ctx, r.target);
  }
}

/** oneOf, anyOf and type lists → a oneOf; a null variant → nullable when one other variant is left. */
function rewriteUnion(u: IrUnion, ctx: Ctx): IrNode {
  // a variant that is itself a union flattens (`| | T` is not TypeScript); its annotations go to each of its variants
  let variants: readonly IrNode[] = u.variants.map((v) => rewrite(v, ctx)).flatMap((v) => (v.kind === 'union' ? v.variants.map((x) => withOuter(x, v.meta, v.nullable)) : [v]));
  if (u.origin === 'typeArray') variants = sharedEnums(variants);
  const others = variants.filter((v) => !isPlainNull(v));
  const nulls = variants.filter(isPlainNull);
  const nullable = u.nullable || nulls.length > 0;
  if (variants.length === 0) return { ...anyNode(u.pointer, 'false'), meta: u.meta };
  if (others.length === 0) return withOuter(nulls[0], u.meta, false, nulls.slice(1).map((n) => n.meta));
  if (others.length === 1) return withOuter(others[0], u.meta, nullable, nulls.map((n) => n.meta));
  if (u.nullable && nulls.length === 0) variants = [...variants, { pointer: u.pointer, meta: EMPTY_META, nullable: false, kind: 'null', origin: 'type' }];
  return { pointer: u.pointer, meta: u.meta, nullable: false, kind: 'union', origin: 'oneOf', variants };
}

/** A type list with an enum reads the enum under each type: one enum (values as written, no one type) is enough. */
function sharedEnums(variants: readonly IrNode[]): readonly IrNode[] {
  const enums = variants.filter((v): v is IrEnum => v.kind === 'enum');
  if (enums.length < 2 || !enums.every((e) => e.values === enums[0].values)) return variants;
  const first = variants.indexOf(enums[0]);
  return variants.flatMap((v, k): IrNode[] => (v.kind !== 'enum' ? [v] : k === first ? [{ ...v, type: undefined }] : []));
}

/** A `type: null` node with nothing else to say. */
function isPlainNull(n: IrNode): boolean {
  return n.kind === 'null' && n.meta.title === undefined && n.meta.default === undefined && n.meta.examples.length === 0;
}

/** allOf and keywords side by side: merged where the members allow it, else an intersection. */
function rewriteIntersection(n: IrIntersection, ctx: Ctx): IrNode {
  const members: IrNode[] = [];
  for (const m of n.members.map((x) => rewrite(x, ctx))) {
    // nested allOfs flatten (their annotations join the outer ones below)
    if (m.kind === 'intersection') pushAll(members, m.members.map((x, k) => (k === 0 ? withOuter(x, m.meta, m.nullable) : x)));
    else members.push(m);
  }
  return simplifyAll(members, n.pointer, n.meta, n.nullable);
}

/** The meaning of "all of these", in the simplest form the printer can show. */
function simplifyAll(members: readonly IrNode[], pointer: string, meta: IrMeta, nullable: boolean): IrNode {
  if (members.some((m) => m.kind === 'any' && m.reason === 'false')) return { ...anyNode(pointer, 'false'), meta };
  // members that allow anything add only their annotations
  const extra: IrMeta[] = [];
  let kept = members.filter((m) => {
    const open = m.kind === 'any' && (m.reason === 'empty' || m.reason === 'true');
    if (open) extra.push(m.meta);
    return !open;
  });
  // an enum says more than a bare scalar type beside it
  if (kept.some((m) => m.kind === 'enum')) {
    kept = kept.filter((m) => {
      const bare = (m.kind === 'string' || m.kind === 'number' || m.kind === 'boolean') && !m.nullable;
      if (bare) extra.push(m.meta);
      return !bare;
    });
  }
  // objects merge into the first one's place
  const objects = kept.filter((m): m is IrObject => m.kind === 'object');
  if (objects.length > 1) {
    const merged = mergeObjects(objects);
    let placed = false;
    kept = kept.flatMap((m): IrNode[] => (m.kind !== 'object' ? [m] : placed ? [] : ((placed = true), [merged])));
  }
  // one object and a union of objects: the object's properties go into each variant
  if (kept.length === 2) {
    const o = kept.find((m): m is IrObject => m.kind === 'object');
    const u = kept.find((m): m is IrUnion => m.kind === 'union');
    if (o && u && u.variants.every((v) => v.kind === 'object')) {
      const variants = u.variants.map((v) => mergeObjects([{ ...o, meta: EMPTY_META }, v as IrObject], v.meta));
      kept = [withOuter({ ...u, variants }, o.meta, false)];
    }
  }
  if (kept.length === 0) return { ...anyNode(pointer, 'empty'), meta: mergeMeta(meta, extra), nullable };
  if (kept.length === 1) return withOuter(kept[0], meta, nullable, extra);
  return { pointer, meta: mergeMeta(meta, extra), nullable, kind: 'intersection', origin: 'allOf', members: kept };
}

/** Several objects as one: properties in order of first appearance, a name in two merged again, required if required anywhere. */
function mergeObjects(objects: readonly IrObject[], meta?: IrMeta): IrObject {
  const first = objects[0];
  const byName = new Map<string, IrProperty>();
  for (const o of objects) {
    for (const p of o.properties) {
      const had = byName.get(p.name);
      if (!had) byName.set(p.name, p);
      else byName.set(p.name, { name: p.name, required: had.required || p.required, schema: simplifyAll([had.schema, p.schema], had.schema.pointer, EMPTY_META, false) });
    }
  }
  const additional = objects.some((o) => o.additional === false) ? false : objects.find((o) => o.additional !== undefined)?.additional;
  return {
    ...first,
    meta: meta ?? mergeMeta(EMPTY_META, objects.map((o) => o.meta)),
    nullable: objects.every((o) => o.nullable),
    properties: [...byName.values()],
    extraRequired: [],
    additional,
    patternProperties: objects.flatMap((o) => o.patternProperties),
  };
}

/** A node with outer annotations over its own (and more, from members folded into it), nullable when either is. */
function withOuter(node: IrNode, outer: IrMeta, nullable: boolean, more: readonly IrMeta[] = []): IrNode {
  if (outer === EMPTY_META && more.every((m) => m === EMPTY_META)) return nullable && !node.nullable ? { ...node, nullable: true } : node;
  return { ...node, meta: mergeMeta(outer, [node.meta, ...more]), nullable: node.nullable || nullable };
}

/**
 * Annotations of several schemas as one: the first title and default (outer first), every
 * distinct description (joined by line breaks, so each shows as its own `//` line), all
 * examples, and the flags of any.
 */
export function mergeMeta(outer: IrMeta, inner: readonly IrMeta[]): IrMeta {
  const all = [outer, ...inner];
  const descriptions: string[] = [];
  for (const m of all) if (m.description !== undefined && !descriptions.includes(m.description)) descriptions.push(m.description);
  const title = all.find((m) => m.title !== undefined)?.title;
  const dflt = all.find((m) => m.default !== undefined)?.default;
  return {
    ...(title !== undefined ? { title } : {}),
    ...(descriptions.length ? { description: descriptions.join('\n') } : {}),
    examples: all.flatMap((m) => m.examples),
    ...(dflt !== undefined ? { default: dflt } : {}),
    deprecated: all.some((m) => m.deprecated),
    readOnly: all.some((m) => m.readOnly),
    writeOnly: all.some((m) => m.writeOnly),
  };
}

function anyNode(pointer: string, reason: IrAny['reason']): IrAny {
  return { pointer, meta: EMPTY_META, nullable: false, kind: 'any', reason };
}
