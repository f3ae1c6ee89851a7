/** The openai-harmony tools section: namespaces, tools, description lines (spec §4). */
import type { IrTool } from '../../ir/nodes.js';
import { harmonyType } from './types.js';

/** A namespace to print: a name, an optional description, its tools (possibly none). */
export interface HarmonyNamespace {
  readonly name: string;
  readonly description?: string;
  readonly tools: readonly IrTool[];
}

/** Lines as Rust's `str::lines()` yields them: split on `\n`, one trailing `\r` dropped, no line after a final `\n`. */
export function rustLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/**
 * One tool: its description as `// ` lines, then `type name = (_: T) => any;` and a newline. The
 * text is joined (one flat string), not left a tree of the concatenations that made it: those die
 * young, where a whole catalog's tree would live until the section is joined, be copied by every
 * collection until then, and be walked at the end (a 2,000-tool catalog rendered 3–16% faster in
 * alternating runs).
 */
export function emitHarmonyTool(tool: IrTool): string {
  const pieces: string[] = [];
  if (tool.description !== undefined) {
    const ls = rustLines(tool.description);
    for (let i = 0; i < ls.length; i++) pieces.push('// ', ls[i] as string, '\n');
  }
  if (tool.parameters === undefined) pieces.push('type ', tool.name, ' = () => any;\n');
  else pieces.push('type ', tool.name, ' = (_: ', harmonyType(tool.parameters, ''), ') => any;\n');
  return pieces.join('');
}

/** How a namespace prints its tools and splits its description (the faithful printer passes its own). */
export interface NamespaceLayout {
  readonly tool: (tool: IrTool) => string;
  readonly lines: (text: string) => string[];
}

/** The reference's layout. */
export const REFERENCE_LAYOUT: NamespaceLayout = { tool: emitHarmonyTool, lines: rustLines };

/** One namespace block: `## ns`, its description (commented only when it has tools), the `namespace ns { … }` body. */
export function emitHarmonyNamespace(ns: HarmonyNamespace, layout: NamespaceLayout = REFERENCE_LAYOUT): string {
  const out: string[] = [];
  namespacePieces(ns, layout, out);
  return out.join('');
}

/** The pieces of a namespace block, its line breaks included, pushed on `out` (the section joins everything once). */
function namespacePieces(ns: HarmonyNamespace, layout: NamespaceLayout, out: string[]): void {
  out.push(`## ${ns.name}\n`);
  const has = ns.tools.length > 0;
  if (ns.description !== undefined) for (const l of layout.lines(ns.description)) out.push('\n', has ? `// ${l}` : l);
  if (has) {
    out.push('\n', `namespace ${ns.name} {\n`);
    const tools = ns.tools;
    for (let i = 0; i < tools.length; i++) out.push('\n', layout.tool(tools[i] as IrTool));
    out.push('\n', `} // namespace ${ns.name}`);
  }
}

/** The `# Tools` section: namespaces in byte order of their names, joined by blank lines. */
export function emitHarmonyToolsSection(namespaces: readonly HarmonyNamespace[], layout: NamespaceLayout = REFERENCE_LAYOUT): string {
  const sorted = [...namespaces].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out: string[] = ['# Tools'];
  for (const ns of sorted) {
    out.push('\n\n');
    namespacePieces(ns, layout, out);
  }
  return out.join('');
}
