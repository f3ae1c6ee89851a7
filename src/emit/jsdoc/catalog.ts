/**
 * The JSDoc catalog: every tool as `type name = (_: { … }) => any;` inside
 * `declare namespace functions { … }`, with its description and every annotation of its
 * schema as `/** … *\/` comments, and each `$ref` target declared once as a type alias.
 * The text is valid TypeScript (checked with the compiler over the whole corpus).
 */
import type { IrTool } from '../../ir/nodes.js';
import { quoteJsonString } from '../../ir/json.js';
import { commentLines, docBlock, docLines, escapeComment } from './doc.js';
import { NameTable, isIdentifierName, sanitizeIdentifier, targetName } from './names.js';
import { brokenAliasEdges, jsdocType, type JsdocScope } from './types.js';
import { pushAll } from '../../ir/arrays.js';

/** Options of the JSDoc catalog. */
export interface JsdocCatalogOptions {
  /** The namespace the tools are declared in. Default `functions`. */
  readonly namespace?: string;
}

/** The default namespace. */
export const JSDOC_NAMESPACE = 'functions';

const INDENT = '  ';
const NO_ALIASES: ReadonlyMap<string, string> = new Map();
const NO_EDGES: ReadonlySet<string> = new Set();

/** A namespace name as declared: dotted identifiers as they are, anything else sanitized to one identifier. */
export function jsdocNamespaceName(name: string): string {
  const parts = name.split('.');
  if (parts.every((s) => isIdentifierName(s) && sanitizeIdentifier(s) === s)) return name;
  return sanitizeIdentifier(name);
}

/**
 * The catalog: `declare namespace functions {`, one block per tool (blank lines between),
 * `}` and a newline. Each tool's alias is its name when that is an identifier TypeScript
 * allows after `type`; otherwise, and for the second tool of a name, it is sanitized
 * (`get-news` → `get_news`, `delete` → `delete_`, a repeat → `search_2`) and the doc says
 * `@name original`, the name to call.
 */
export function emitJsdocCatalog(tools: readonly IrTool[], options: JsdocCatalogOptions = {}): string {
  const table = new NameTable();
  const names = tools.map((t) => table.claim(t.name));
  const blocks = tools.map((t, k) => emitJsdocTool(t, names[k], table));
  return `declare namespace ${jsdocNamespaceName(options.namespace ?? JSDOC_NAMESPACE)} {\n${blocks.join('\n')}}\n`;
}

/**
 * One tool, declared as `name`: its doc block (description, `@name` when `name` differs from the tool's), the
 * function type, then one alias per `$ref` target, named `<tool>_<target name>` and unique
 * in the catalog. A parameters schema with annotations of its own moves `_` to its own
 * line under them; no parameters is `() => any`.
 */
export function emitJsdocTool(tool: IrTool, name: string, table: NameTable): string {
  const hasDefs = tool.definitions.size > 0;
  const aliases = hasDefs ? new Map<string, string>() : NO_ALIASES;
  for (const target of tool.definitions.keys()) (aliases as Map<string, string>).set(target, table.claim(`${name}_${targetName(target)}`));
  const scope: JsdocScope = {
    aliases,
    definitions: tool.definitions,
    ...(tool.parameters !== undefined ? { root: tool.parameters } : {}),
    brokenEdges: hasDefs ? brokenAliasEdges(tool.definitions) : NO_EDGES,
  };
  const doc = tool.description !== undefined ? commentLines(tool.description) : [];
  if (name !== tool.name) pushAll(doc, nameTag(tool.name));
  let out = docBlock(doc, INDENT);
  out += `${INDENT}type ${name} = ${parametersText(tool, scope)} => any;\n`;
  for (const [target, node] of tool.definitions) {
    const t = jsdocType(node, INDENT, { ...scope, declaring: target }).text;
    out += `${docBlock(docLines(node), INDENT)}${INDENT}type ${aliases.get(target)} =${t.startsWith('\n') ? '' : ' '}${t};\n`;
  }
  return out;
}

/** `@name` and the tool's name: as written, or JSON-quoted when it is empty, has spaces at either end or spans lines. */
function nameTag(name: string): string[] {
  const plain = /^\S(?:.*\S)?$/u.test(name) && !/[\r\n\u2028\u2029]/.test(name);
  return [`@name ${escapeComment(plain ? name : quoteJsonString(name))}`];
}

/** `()`, `(_: T)`, or `(` / doc / `_: T,` / `)` when the parameters schema has annotations. */
function parametersText(tool: IrTool, scope: JsdocScope): string {
  const params = tool.parameters;
  if (params === undefined) return '()';
  const doc = docLines(params);
  if (doc.length === 0) {
    const t = jsdocType(params, INDENT, scope).text;
    return `(_:${t.startsWith('\n') ? '' : ' '}${t})`;
  }
  const inner = `${INDENT}${INDENT}`;
  const t = jsdocType(params, inner, scope).text;
  return `(\n${docBlock(doc, inner)}${inner}_:${t.startsWith('\n') ? '' : ' '}${t},\n${INDENT})`;
}

/** The catalog formatted by prettier (TypeScript parser, its defaults); prettier is loaded only here, on first use. */
export async function formatJsdoc(text: string): Promise<string> {
  const prettier = await import('prettier');
  return prettier.format(text, { parser: 'typescript' });
}
