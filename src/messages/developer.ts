/** The Harmony developer message content (spec §3). */
import { fromJs, stringifyCompactRust } from '../ir/json.js';
import type { ResponseFormat } from './options.js';

/**
 * `# Instructions` (when instructions are set, even empty), the tools section, and
 * `# Response Formats` (not in the reference code; OpenAI's docs layout), joined by blank lines.
 */
export function renderHarmonyDeveloperContent(instructions: string | undefined, toolsSection: string | undefined, responseFormats: readonly ResponseFormat[] = []): string {
  const sections: string[] = [];
  if (instructions !== undefined) sections.push(`# Instructions\n\n${instructions}`);
  if (toolsSection) sections.push(toolsSection);
  if (responseFormats.length) sections.push(renderResponseFormats(responseFormats));
  return sections.join('\n\n');
}

/** `# Response Formats`, then per format `## name`, `// description` lines and the schema as compact JSON. */
export function renderResponseFormats(formats: readonly ResponseFormat[]): string {
  const blocks = formats.map((f) => {
    const desc = f.description !== undefined ? `// ${f.description.split('\n').join('\n// ')}\n` : '';
    return `## ${f.name}\n\n${desc}${stringifyCompactRust(fromJs(f.schema))}`;
  });
  return ['# Response Formats', ...blocks].join('\n\n');
}
