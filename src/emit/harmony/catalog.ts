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

/** One tool: its description as `// ` lines, then `type name = (_: T) => any;` and a newline. */
export function emitHarmonyTool(tool: IrTool): string {
  const lines = tool.description !== undefined ? rustLines(tool.description).map((l) => `// ${l}\n`).join('') : '';
  const sig = tool.parameters === undefined ? '()' : `(_: ${harmonyType(tool.parameters, '')})`;
  return `${lines}type ${tool.name} = ${sig} => any;\n`;
}

/** One namespace block: `## ns`, its description (commented only when it has tools), the `namespace ns { … }` body. */
export function emitHarmonyNamespace(ns: HarmonyNamespace): string {
  const pieces: string[] = [`## ${ns.name}\n`];
  const has = ns.tools.length > 0;
  if (ns.description !== undefined) for (const l of rustLines(ns.description)) pieces.push(has ? `// ${l}` : l);
  if (has) {
    pieces.push(`namespace ${ns.name} {\n`);
    for (const t of ns.tools) pieces.push(emitHarmonyTool(t));
    pieces.push(`} // namespace ${ns.name}`);
  }
  return pieces.join('\n');
}

/** The `# Tools` section: namespaces in byte order of their names, joined by blank lines. */
export function emitHarmonyToolsSection(namespaces: readonly HarmonyNamespace[]): string {
  const sorted = [...namespaces].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return ['# Tools', ...sorted.map(emitHarmonyNamespace)].join('\n\n');
}
