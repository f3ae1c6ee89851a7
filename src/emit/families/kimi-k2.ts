/**
 * Kimi K2 Instruct (moonshotai, July 2025 template): a `tool_declare` system turn holding the tool
 * list as `tools | tojson` (json.dumps, default separators), then the system turn (default
 * `You are a helpful assistant`, no full stop), then the conversation.
 */
import type { ToolDefinition } from '../../input/types.js';
import { qwenToolLine } from '../xml/qwen.js';
import { familyMessages } from './common.js';
import type { FamilyPrinter, FamilyPromptOptions } from './types.js';

/** `<|im_system|>tool_declare<|im_middle|>…<|im_end|>` around a tools JSON list. */
export function kimiToolDeclare(toolsJson: string): string {
  return `<|im_system|>tool_declare<|im_middle|>${toolsJson}<|im_end|>`;
}

/** `tools | tojson` of the wrapped tools: json.dumps of the list, `", "` between the items (each item is Qwen2.5's tool line). */
export function kimiK2ToolsJson(tools: readonly ToolDefinition[]): string {
  return `[${tools.map(qwenToolLine).join(', ')}]`;
}

// the role headers of the Instruct template; any other role gets no header (its content is still printed)
const HEADERS: Readonly<Record<string, string>> = {
  system: '<|im_system|>system<|im_middle|>',
  user: '<|im_user|>user<|im_middle|>',
  assistant: '<|im_assistant|>assistant<|im_middle|>',
  tool: '<|im_system|>tool<|im_middle|>',
};

function render(tools: readonly ToolDefinition[], options: FamilyPromptOptions): string {
  const messages = familyMessages(options);
  // `{%- if tools -%}`: an empty list prints no declaration
  let out = tools.length > 0 ? kimiToolDeclare(kimiK2ToolsJson(tools)) : '';
  messages.forEach((m, i) => {
    // the default system turn is printed inside the loop (`loop.first`): no messages, no system turn
    if (i === 0 && messages[0].role !== 'system') out += '<|im_system|>system<|im_middle|>You are a helpful assistant<|im_end|>';
    out += Object.hasOwn(HEADERS, m.role) ? HEADERS[m.role] : '';
    // `## Return of {{ message.tool_call_id }}\n{{ … }}`: `\n` is template text, so a backslash and an n are printed; tool_call_id is undefined (empty)
    out += m.role === 'tool' ? `## Return of \\n${m.content}` : m.content;
    out += '<|im_end|>';
  });
  if (options.addGenerationPrompt ?? true) out += '<|im_assistant|>assistant<|im_middle|>';
  return out;
}

/** The `kimi-k2` family: moonshotai/Kimi-K2-Instruct (July 2025 chat template). */
export const KIMI_K2: FamilyPrinter = { name: 'kimi-k2', prompt: render };

