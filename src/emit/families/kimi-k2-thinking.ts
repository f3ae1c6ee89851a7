/**
 * Kimi K2 Thinking (moonshotai): the same `tool_declare` turn as Kimi K2 Instruct, but the list is
 * dumped with compact separators (`tojson(separators=(',', ':'))`), the default system turn is
 * `You are Kimi, an AI assistant created by Moonshot AI.`, and assistant turns open with `<think></think>`.
 */
import type { ToolDefinition } from '../../input/types.js';
import { pyJsonDumps } from '../python/json.js';
import { wrappedTool } from '../xml/template.js';
import { defineFamily, familyMessages } from './common.js';
import { kimiToolDeclare } from './kimi-k2.js';
import type { FamilyPrinter, FamilyPromptOptions } from './types.js';

/** `tools | tojson(separators=(',', ':'))`: the wrapped tools as one compact JSON list (still ensure_ascii=False). */
export function kimiK2ThinkingToolsJson(tools: readonly ToolDefinition[]): string {
  return pyJsonDumps(tools.map(wrappedTool), { separators: [',', ':'] });
}

// set_roles(): `message.get('name') or message['role']` names the turn (our messages have no name);
// user and assistant have their own tokens, every other role is a system-token turn named by its role
function header(role: string): string {
  if (role === 'user') return '<|im_user|>user<|im_middle|>';
  if (role === 'assistant') return '<|im_assistant|>assistant<|im_middle|>';
  return `<|im_system|>${role}<|im_middle|>`;
}

function render(tools: readonly ToolDefinition[], options: FamilyPromptOptions): string {
  const messages = familyMessages(options);
  let out = tools.length > 0 ? kimiToolDeclare(kimiK2ThinkingToolsJson(tools)) : '';
  // unlike Instruct, the default system turn is outside the loop: printed even with no messages
  if (messages.length === 0 || messages[0].role !== 'system') out += '<|im_system|>system<|im_middle|>You are Kimi, an AI assistant created by Moonshot AI.<|im_end|>';
  // the history/suffix split only matters for reasoning_content and tool calls, which text messages do not have:
  // both loops print an assistant turn as `<think></think>` + content (`<think>{{ rc }}</think>` with rc = '')
  for (const m of messages) {
    out += header(m.role);
    if (m.role === 'assistant') out += `<think></think>${m.content}`;
    // a tool turn: `## Return of {{ tool_call_id }}` then a real newline in the template text (tool_call_id undefined: empty)
    else if (m.role === 'tool') out += `## Return of \n${m.content}`;
    else out += m.content;
    out += '<|im_end|>';
  }
  if (options.addGenerationPrompt ?? true) out += '<|im_assistant|>assistant<|im_middle|>';
  return out;
}

/** The `kimi-k2-thinking` family: moonshotai/Kimi-K2-Thinking. */
export const KIMI_K2_THINKING: FamilyPrinter = defineFamily({
  name: 'kimi-k2-thinking',
  aliases: [],
  models: 'Kimi K2 Thinking (moonshotai/Kimi-K2-Thinking)',
  template: 'moonshotai-Kimi-K2-Thinking',
  source:
    "reconstructed: ggml-org llama.cpp models/templates/moonshotai-Kimi-K2-Thinking.jinja @ 0c3c896ea80643608b4e961eec7e1efcd844e109 (closed PR #17251) with the official `tools | tojson(separators=(',', ':'))` put back (quoted verbatim in huggingface.js#1929)",
  toolsBlock: (tools) => kimiToolDeclare(kimiK2ThinkingToolsJson(tools)),
  render,
  utf8: { label: 'Kimi K2 Thinking', wording: 'cannot-be-encoded', checkCatalog: false },
});
