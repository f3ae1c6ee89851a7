/**
 * The `anthropic` dialect: Anthropic's published tool-use prompt layout (no chat template
 * exists). The calling guide (`<function_calls><invoke name=…><parameter name=…>`), then
 * `Here are the functions available in JSONSchema format:` and `<functions>`, one
 * `<function>{json}</function>` a line: json.dumps of {"description", "name", "parameters"}
 * with sort_keys and ensure_ascii (Python separators). The user's system prompt follows.
 * Whole prompts use the published Human/Assistant text format.
 */
import type { JsonValue } from '../../ir/json.js';
import type { ToolDefinition } from '../../input/types.js';
import { pyJsonDumps } from '../python/json.js';
import type { XmlMessage } from './template.js';

/** How to call: the `<function_calls>` block (values written as is, lists and objects as JSON). */
export const ANTHROPIC_CALLING_INSTRUCTIONS =
  'In this environment you have access to a set of tools you can use to answer the user\'s question.\nYou can invoke functions by writing a "<function_calls>" block like the following as part of your reply to the user:\n<function_calls>\n<invoke name="$FUNCTION_NAME">\n<parameter name="$PARAMETER_NAME">$PARAMETER_VALUE</parameter>\n...\n</invoke>\n<invoke name="$FUNCTION_NAME2">\n...\n</invoke>\n</function_calls>\n\nString and scalar parameters should be specified as is, while lists and objects should use JSON format.';

/** One `<function>` line's JSON: description, name, parameters (each only when the tool has it), keys sorted at every level, non-ASCII as \uXXXX. */
export function anthropicFunctionJson(tool: ToolDefinition): string {
  const m = new Map<string, JsonValue>();
  if (tool.description !== undefined) m.set('description', tool.description);
  m.set('name', tool.name);
  if (tool.parameters !== undefined) m.set('parameters', tool.parameters);
  return pyJsonDumps(m, { ensureAscii: true, sortKeys: true });
}

/** The `<functions>` block alone. */
export function anthropicFunctionsBlock(tools: readonly ToolDefinition[]): string {
  return `<functions>\n${tools.map((t) => `<function>${anthropicFunctionJson(t)}</function>\n`).join('')}</functions>`;
}

/** The calling guide then the functions, as the tool-use system prompt opens. */
export function emitAnthropicCatalog(tools: readonly ToolDefinition[]): string {
  if (tools.length === 0) return '';
  return `${ANTHROPIC_CALLING_INSTRUCTIONS}\n\nHere are the functions available in JSONSchema format:\n${anthropicFunctionsBlock(tools)}`;
}

/**
 * The whole prompt: the system text (catalog, then a leading system message, joined by a blank
 * line), then `\n\nHuman: …` / `\n\nAssistant: …` turns; a tool result is a Human turn in
 * `<function_results>`, a later system message a Human turn; the generation prompt is `\n\nAssistant:`.
 */
export function renderAnthropicPrompt(tools: readonly ToolDefinition[], messages: readonly XmlMessage[], addGenerationPrompt: boolean): string {
  const leading = messages.length > 0 && messages[0].role === 'system' ? messages[0].content : undefined;
  const rest = leading !== undefined ? messages.slice(1) : messages;
  let out = [emitAnthropicCatalog(tools), leading ?? ''].filter((s) => s !== '').join('\n\n');
  for (const m of rest) {
    if (m.role === 'assistant') out += `\n\nAssistant: ${m.content}`;
    else if (m.role === 'tool') out += `\n\nHuman: <function_results>\n${m.content}\n</function_results>`;
    else out += `\n\nHuman: ${m.content}`;
  }
  if (addGenerationPrompt) out += '\n\nAssistant:';
  return out;
}
