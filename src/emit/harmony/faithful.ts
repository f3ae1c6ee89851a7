/**
 * The faithful catalog: openai-harmony's layout, with the meaning the reference drops kept
 * (`harmony-catalog render --faithful`, API `lowering: 'faithful'`). The IR is first rewritten
 * by `lower/faithful.ts` (refs inlined, anyOf → oneOf, allOf merged, const → enum…), then
 * printed by the harmony printer under `FAITHFUL_RULES`. The text parses as TypeScript: a tool
 * name that is not an identifier (`get-weather`) is printed as one (`get_weather`) under a
 * `// name: "get-weather"` line that gives the name to call.
 */
import type { IrTool } from '../../ir/nodes.js';
import { faithfulTool, type FaithfulOptions } from '../../lower/faithful.js';
import { emitHarmonyNamespace, emitHarmonyToolsSection, type HarmonyNamespace, type NamespaceLayout } from './catalog.js';
import { sanitizeIdentifier } from '../jsdoc/names.js';
import { commentTextLines, harmonyType, type HarmonyRules } from './types.js';

/** Every departure from the reference switched on. */
export const FAITHFUL_RULES: HarmonyRules = Object.freeze({
  quoteKeys: true,
  splitComments: true,
  literalEnums: true,
  jsonValues: true,
  fullTypes: true,
  constraintComments: true,
});

/** Options of the faithful printer. */
export interface EmitFaithfulOptions extends FaithfulOptions {
  /** The tools were rewritten already (by `faithfulLowerTool` or `faithfulTool`): print them as they are. */
  readonly rewritten?: boolean;
}

/** `// ` lines of a tool or namespace description: like the reference's, split at every line break (a lone `\r` too). */
function descriptionLines(text: string): string[] {
  return text === '' ? [] : commentTextLines(text);
}

/** One tool, already rewritten: description lines, then `type name = (_: T) => any;` and a newline. */
function toolText(tool: IrTool): string {
  const lines = tool.description !== undefined ? descriptionLines(tool.description).map((l) => `// ${l}\n`).join('') : '';
  const p = tool.parameters;
  // a described root that is not an object gets its description the way an object does: `(_: // …⏎T)`
  const lead = p !== undefined && p.kind !== 'object' && p.meta.description !== undefined ? commentTextLines(p.meta.description).map((l) => `// ${l}\n`).join('') : '';
  const sig = p === undefined ? '()' : `(_: ${lead}${harmonyType(p, '', FAITHFUL_RULES)})`;
  // a name TypeScript cannot take after `type` is made an identifier; the real name, which the model calls, is said above it
  const alias = sanitizeIdentifier(tool.name);
  const nameLine = alias === tool.name ? '' : `// name: ${JSON.stringify(tool.name)} (call the tool by this name)\n`;
  return `${lines}${nameLine}type ${alias} = ${sig} => any;\n`;
}

/** One tool, faithful: the IR rewritten (unless it was already), then printed under the faithful rules. */
export function emitFaithfulTool(tool: IrTool, options: EmitFaithfulOptions = {}): string {
  return toolText(options.rewritten ? tool : faithfulTool(tool, options));
}

/** The reference's namespace layout with faithful tools and description lines. */
const FAITHFUL_LAYOUT: NamespaceLayout = { tool: toolText, lines: descriptionLines };

/** One namespace block in the reference's layout, its tools faithful. */
export function emitFaithfulNamespace(ns: HarmonyNamespace, options: EmitFaithfulOptions = {}): string {
  return emitHarmonyNamespace(options.rewritten ? ns : { ...ns, tools: ns.tools.map((t) => faithfulTool(t, options)) }, FAITHFUL_LAYOUT);
}

/** The `# Tools` section, faithful: namespaces in byte order of their names, joined by blank lines. */
export function emitFaithfulToolsSection(namespaces: readonly HarmonyNamespace[], options: EmitFaithfulOptions = {}): string {
  return emitHarmonyToolsSection(options.rewritten ? namespaces : namespaces.map((ns) => ({ ...ns, tools: ns.tools.map((t) => faithfulTool(t, options)) })), FAITHFUL_LAYOUT);
}
