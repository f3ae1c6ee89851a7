/**
 * IBM Granite 4.0 (micro, tiny-h, small-h): the tools sentence, `<tools>` with one
 * `tool | tojson` line per tool (byte-identical with Qwen2.5's lines), and the `<tool_call>`
 * instructions, in the system turn after the instructions. Documents None.
 */
import type { Diagnostic } from '../../diagnostics.js';
import type { ToolDefinition } from '../../input/types.js';
import { undefinedElement } from '../python/errors.js';
import { collectFindings, qwenFindings } from '../xml/findings.js';
import { qwenToolLine } from '../xml/qwen.js';
import { defineFamily, failChatTemplate, familyMessages } from './common.js';
import type { FamilyPrinter, FamilyPromptOptions } from './types.js';

const NAME = 'granite-4.0';

const TOOLS_PREFIX =
  'You are a helpful assistant with access to the following tools. You may call one or more tools to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>';
const TOOLS_SUFFIX =
  '\n</tools>\n\nFor each tool call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>. If a tool does not exist in the provided list of tools, notify the user that you do not have the ability to fulfill the request.';
const GRANITE4_DEFAULT_SYSTEM = 'You are a helpful assistant. Please ensure responses are professional, accurate, and safe.';

/** The tools system text: prefix, `\n` + one Qwen2.5 line per tool, the `<tool_call>` instructions; empty without tools. */
export function granite4ToolsText(tools: readonly ToolDefinition[]): string {
  if (tools.length === 0) return '';
  return TOOLS_PREFIX + tools.map((t) => `\n${qwenToolLine(t)}`).join('') + TOOLS_SUFFIX;
}

/** `family/unparseable` warnings: the Qwen checks (`</tools>` inside a line, `</tool_call>` in a value), the same layout. */
export function granite4Findings(tools: readonly ToolDefinition[]): Diagnostic[] {
  return collectFindings(tools, qwenFindings).map((d) => ({ ...d, code: 'family/unparseable' }));
}

function renderGranite4(tools: readonly ToolDefinition[], options: FamilyPromptOptions): string {
  const messages = familyMessages(options);
  // `messages[0].role` on an empty list: the Undefined of messages[0] raises when read
  if (messages.length === 0) failChatTemplate(NAME, 'the template reads messages[0].role and there are no messages', undefinedElement([], 0));
  const toolsText = granite4ToolsText(tools);
  let system = '';
  if (messages[0].role === 'system') system = toolsText !== '' ? `${messages[0].content}\n\n${toolsText}` : messages[0].content;
  else system = toolsText;
  // an empty system text (no instructions, no tools) falls back to the default
  let out = `<|start_of_role|>system<|end_of_role|>${system !== '' ? system : GRANITE4_DEFAULT_SYSTEM}<|end_of_text|>\n`;
  messages.forEach((m, i) => {
    if (m.role === 'user' || (m.role === 'system' && i > 0)) out += `<|start_of_role|>${m.role}<|end_of_role|>${m.content}<|end_of_text|>\n`;
    else if (m.role === 'assistant') out += `<|start_of_role|>assistant<|end_of_role|>${m.content}<|end_of_text|>\n`;
    else if (m.role === 'tool') {
      // consecutive tool results share one user turn
      if (i === 0 || messages[i - 1].role !== 'tool') out += '<|start_of_role|>user<|end_of_role|>';
      out += `\n<tool_response>\n${m.content}\n</tool_response>`;
      if (i === messages.length - 1 || messages[i + 1].role !== 'tool') out += '<|end_of_text|>\n';
    }
    // any other role (and the leading system message) prints nothing in the loop
  });
  if (options.addGenerationPrompt ?? true) out += '<|start_of_role|>assistant<|end_of_role|>';
  return out;
}

/** IBM Granite 4.0. */
export const GRANITE_4_0: FamilyPrinter = defineFamily({
  name: NAME,
  aliases: [],
  models: 'IBM Granite 4.0 (micro, tiny-h, small-h)',
  template: 'ibm-granite-granite-4.0',
  source: 'llama.cpp models/templates/ibm-granite-granite-4.0.jinja @ 6137c325a16073c8bf68a52396a815006ccaa9a9 (PR #20804, by IBM)',
  toolsBlock: granite4ToolsText,
  render: renderGranite4,
  findings: granite4Findings,
  utf8: { label: NAME, wording: 'chat-template-fails', checkCatalog: true },
});
