/**
 * Message assembly for the JSDoc target, as src/messages/developer.ts does it for Harmony:
 * sections joined by a blank line. Models that were not trained on Harmony's tool section
 * need to be told how to call what the catalog declares: `jsdocRoutingLines` says it.
 */
import type { IrTool } from '../../ir/nodes.js';
import { JSDOC_NAMESPACE, emitJsdocCatalog, jsdocNamespaceName, type JsdocCatalogOptions } from './catalog.js';

/**
 * The calling instructions, one sentence a line: the catalog is TypeScript, a call is the
 * function's name and a JSON object of its arguments, what the comments and `@name` mean.
 */
export function jsdocRoutingLines(options: JsdocCatalogOptions = {}): string[] {
  const ns = jsdocNamespaceName(options.namespace ?? JSDOC_NAMESPACE);
  return [
    `The functions you can call are declared below as TypeScript types in \`namespace ${ns}\`: \`type name = (_: Arguments) => any\`.`,
    'Call a function by writing its name and a JSON object of its arguments that matches its Arguments type; a function typed `() => any` takes no arguments (`{}`).',
    'The /** */ comments describe functions and arguments; tags such as @default, @minimum or @format constrain values, and @name gives the name to call when it differs from the type name.',
  ];
}

/** `# Tools`, the calling instructions, and the catalog, joined by blank lines (the catalog without its final newline). */
export function renderJsdocToolsSection(tools: readonly IrTool[], options: JsdocCatalogOptions = {}): string {
  return ['# Tools', jsdocRoutingLines(options).join('\n'), emitJsdocCatalog(tools, options).trimEnd()].join('\n\n');
}

/** Options of the JSDoc developer message. */
export interface JsdocDeveloperOptions extends JsdocCatalogOptions {
  /** `# Instructions` text (an empty string still writes the heading). */
  readonly instructions?: string;
}

/**
 * The developer message content: `# Instructions` (when instructions are set, even empty),
 * then the tools section (when there are tools), joined by a blank line.
 */
export function renderJsdocDeveloperMessage(tools: readonly IrTool[], options: JsdocDeveloperOptions = {}): string {
  const sections: string[] = [];
  if (options.instructions !== undefined) sections.push(`# Instructions\n\n${options.instructions}`);
  if (tools.length > 0) sections.push(renderJsdocToolsSection(tools, options));
  return sections.join('\n\n');
}
