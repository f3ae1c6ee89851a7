/**
 * What Ollama's template prints of a tool, and how: its Go `api.ToolFunction` reduced to the
 * fields the gpt-oss template reads (name, description, the top-level properties with their
 * description, `anyOf` and `type`), and `ToolProperty.ToTypeScriptType` (api/types.go).
 *
 * A view comes from the IR (`ollamaViewFromIr`) or, where the tool as written is known, from
 * the schema as Go's decoder reads it (`decode.ts`), which also sees what JSON Schema does not
 * (keys matched case-insensitively).
 */
import { typeKeywordOf, type IrNode, type IrObject, type IrTool } from '../../ir/nodes.js';

/** A schema as `api.ToolProperty` holds what ToTypeScriptType reads: its `anyOf` and its `type` list. */
export interface OllamaTypeView {
  readonly anyOf: readonly OllamaTypeView[];
  /** `PropertyType`: a `type` string is a one-entry list; JSON null reads as `[""]`. */
  readonly type: readonly string[];
}

/** One top-level property as the template reads it. */
export interface OllamaPropertyView extends OllamaTypeView {
  readonly name: string;
  /** `""` when there is none (the template tests it for truth). */
  readonly description: string;
}

/** One tool as the template reads it. */
export interface OllamaToolView {
  readonly name: string;
  readonly description: string;
  /** `Parameters.Properties` in document order (Ollama's ordered map; the template sorts them). */
  readonly properties: readonly OllamaPropertyView[];
}

/** `mapToTypeScriptType`: JSON Schema type names as TypeScript; anything else (`""`, unknown names) is `any`. */
export function ollamaTypeName(jsonType: string): string {
  switch (jsonType) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return 'any[]';
    case 'object':
      return 'Record<string, any>';
    case 'null':
      return 'null';
    default:
      return 'any';
  }
}

/**
 * `ToTypeScriptType`: a non-empty `anyOf` wins (its variants joined by ` | `, nested anyOfs
 * flattened into the same text); else no type is `any`; else each type name mapped and joined
 * by ` | ` (duplicates kept: `["integer", "number"]` is `number | number`). Enums, items,
 * nested properties and formats are never read.
 */
export function ollamaTypeScriptType(t: OllamaTypeView): string {
  if (t.anyOf.length > 0) return t.anyOf.map(ollamaTypeScriptType).join(' | ');
  if (t.type.length === 0) return 'any';
  return t.type.map(ollamaTypeName).join(' | ');
}

// ---------------------------------------------------------------------------------------
// From the IR


/** The members of a schema that combines keywords (a keywords intersection), or the node alone. */
function keywordMembers(n: IrNode): readonly IrNode[] {
  return n.kind === 'intersection' && n.origin === 'keywords' ? n.members : [n];
}

/**
 * A node as `api.ToolProperty` reads its schema: only `anyOf` and `type` count (a oneOf, an
 * allOf, a `$ref`, an enum or properties without `type` are `any`; `nullable` is not read).
 */
export function ollamaTypeViewOfIr(node: IrNode): OllamaTypeView {
  const members = keywordMembers(node);
  let anyOf: readonly OllamaTypeView[] = [];
  let type: readonly string[] = [];
  for (const m of members) {
    if (m.kind === 'union' && m.origin === 'anyOf') anyOf = m.variants.map(ollamaTypeViewOfIr);
    else if (m.kind === 'union' && m.origin === 'typeArray') type = (m.typeNames ?? []).filter((t): t is string => typeof t === 'string');
    else {
      const name = typeKeywordOf(m);
      if (name !== undefined) type = [name];
    }
  }
  return { anyOf, type };
}

/** The object node whose `properties` Ollama reads: the parameters schema, a member of its keywords, or a variant of its type list. */
function parametersObject(node: IrNode | undefined): IrObject | undefined {
  if (node === undefined) return undefined;
  if (node.kind === 'object') return node;
  const candidates = node.kind === 'intersection' && node.origin === 'keywords' ? node.members : node.kind === 'union' && node.origin === 'typeArray' ? node.variants : [];
  for (const c of candidates) if (c.kind === 'object') return c;
  return undefined;
}

/** A lowered tool as Ollama's template reads it (from the IR: JSON Schema's reading of the keys). */
export function ollamaViewFromIr(tool: IrTool): OllamaToolView {
  const o = parametersObject(tool.parameters);
  return {
    name: tool.name,
    description: tool.description ?? '',
    properties: (o?.properties ?? []).map((p) => ({ name: p.name, description: p.schema.meta.description ?? '', ...ollamaTypeViewOfIr(p.schema) })),
  };
}
