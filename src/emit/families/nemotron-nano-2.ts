/**
 * Nemotron Nano v2 (NVIDIA): `<SPECIAL_10>System\n` + the instructions (with `/think` and
 * `/no_think` removed, stripped), then the tool list as bare functions (`tool.function | tojson`)
 * joined by `, ` inside `<AVAILABLE_TOOLS>[…]</AVAILABLE_TOOLS>`, then `<SPECIAL_11>` turns.
 */
import type { ToolDefinition } from '../../input/types.js';
import { undefinedElement } from '../python/errors.js';
import { pyJsonDumps } from '../python/json.js';
import { pyStrip } from '../python/strings.js';
import { templateFunction } from '../xml/template.js';
import { defineFamily, failFamily, familyMessages } from './common.js';
import type { FamilyPrinter, FamilyPromptOptions } from './types.js';

/** The tools section, from `You can use the following tools…` to `…respond to the user.` (no tools: empty). */
function nemotronCatalog(tools: readonly ToolDefinition[]): string {
  if (tools.length === 0) return '';
  // the `{{`/`}}` are inside Jinja string literals: printed as they are
  return (
    'You can use the following tools to assist the user if required:\n<AVAILABLE_TOOLS>[' +
    tools.map((t) => pyJsonDumps(templateFunction(t))).join(', ') +
    ']</AVAILABLE_TOOLS>\n\n' +
    'If you decide to call any tool(s), use the following format:\n' +
    '<TOOLCALL>[{{"name": "tool_name1", "arguments": "tool_args1"}}, {{"name": "tool_name2", "arguments": "tool_args2"}}]</TOOLCALL>\n\n' +
    'The user will execute tool-calls and return responses from tool(s) in this format:\n' +
    '<TOOL_RESPONSE>[{{"tool_response1"}}, {{"tool_response2"}}]</TOOL_RESPONSE>\n\n' +
    'Based on the tool responses, you can call additional tools if needed, correct tool calls if any errors are found, or just respond to the user.'
  );
}

// `.replace('/think', '').replace('/no_think', '')`, in that order
function dropThinkSwitches(s: string): string {
  return s.replaceAll('/think', '').replaceAll('/no_think', '');
}

function render(tools: readonly ToolDefinition[], options: FamilyPromptOptions): string {
  let messages = familyMessages(options);
  // thinking is on unless the last user/system message that mentions a switch says `/no_think`
  let thinking = true;
  for (const m of messages) {
    if (m.role !== 'user' && m.role !== 'system') continue;
    if (m.content.includes('/think')) thinking = true;
    else if (m.content.includes('/no_think')) thinking = false;
  }
  if (messages.length === 0) {
    failFamily(undefined, '', 'the Nemotron Nano v2 template reads messages[0] and there are no messages', undefinedElement([], 0));
  }
  // `(content | default('', true))…strip()`: Python's str.strip
  const system = messages[0].role === 'system' ? pyStrip(dropThinkSwitches(messages[0].content)) : '';
  let out = `<SPECIAL_10>System\n${system}`;
  if (tools.length > 0) out += (system !== '' ? '\n\n' : '') + nemotronCatalog(tools);
  out += '\n\n';
  if (messages[0].role === 'system') messages = messages.slice(1);
  if (messages.length === 0) {
    failFamily(undefined, '', 'the Nemotron Nano v2 template reads messages[-1] and there is no message after the system message', undefinedElement([], -1));
  }
  // a final assistant message is held back and continued after the generation prompt
  let lastAssistant = '';
  if (messages[messages.length - 1].role === 'assistant') {
    lastAssistant = pyStrip(messages[messages.length - 1].content);
    messages = messages.slice(0, -1);
  }
  messages.forEach((m, i) => {
    const next = messages[i + 1];
    if (m.role === 'user') {
      out += `<SPECIAL_11>User\n${pyStrip(dropThinkSwitches(m.content))}\n`;
    } else if (m.role === 'tool') {
      // consecutive tool results share one `<TOOL_RESPONSE>[…]` list, joined by `, ` (no newline after it)
      if (i === 0 || messages[i - 1].role !== 'tool') out += '<SPECIAL_11>User\n<TOOL_RESPONSE>[';
      out += m.content;
      if (next !== undefined && next.role === 'tool') out += ', ';
      else out += ']</TOOL_RESPONSE>';
    } else if (m.role === 'assistant') {
      // only the text after the first `</think>` (split('</think>')[1]) is kept
      const content = m.content.includes('</think>') ? pyStrip(m.content.split('</think>')[1]) : m.content;
      out += `<SPECIAL_11>Assistant\n${pyStrip(content)}\n<SPECIAL_12>\n`;
    }
    // later system messages and other roles print nothing
  });
  const think = thinking ? '<think>\n' : '<think></think>';
  if (options.addGenerationPrompt ?? true) out += `<SPECIAL_11>Assistant\n${think}${lastAssistant}`;
  else if (lastAssistant !== '') out += `<SPECIAL_11>Assistant\n${think}${lastAssistant}\n<SPECIAL_12>\n`;
  return out;
}

/** The `nemotron-nano-2` family: nvidia/NVIDIA-Nemotron-Nano-9B-v2 (and the 12B v2). */
export const NEMOTRON_NANO_2: FamilyPrinter = defineFamily({
  name: 'nemotron-nano-2',
  aliases: ['nemotron-nano-v2'],
  models: 'Nemotron Nano v2 (nvidia/NVIDIA-Nemotron-Nano-9B-v2)',
  template: 'NVIDIA-Nemotron-Nano-v2',
  source: 'llama.cpp models/templates/NVIDIA-Nemotron-Nano-v2.jinja @ b2426e469e2fdb6c44216d56baa4cfff4f39ae00 (PR #15676)',
  toolsBlock: nemotronCatalog,
  render,
  utf8: { label: 'Nemotron Nano v2', wording: 'cannot-be-encoded', checkCatalog: false },
});
