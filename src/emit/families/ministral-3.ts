/**
 * Ministral 3 (14B Reasoning 2512): `[SYSTEM_PROMPT]…[/SYSTEM_PROMPT]` (the instructions, or the
 * built-in "HOW YOU SHOULD THINK AND ANSWER" text), then `[AVAILABLE_TOOLS]` + `tools | tojson` +
 * `[/AVAILABLE_TOOLS]`, then the `[INST]` turns. No generation suffix.
 */
import type { ToolDefinition } from '../../input/types.js';
import { JinjaError, undefinedElement } from '../python/errors.js';
import { pyJsonDumps } from '../python/json.js';
import { wrappedTool } from '../xml/template.js';
import { defineFamily, failChatTemplate, familyMessages } from './common.js';
import type { FamilyPrinter, FamilyPromptOptions } from './types.js';

const NAME = 'ministral-3';

const MINISTRAL_DEFAULT_SYSTEM =
  '# HOW YOU SHOULD THINK AND ANSWER\n\nFirst draft your thinking process (inner monologue) until you arrive at a response. Format your response using Markdown, and use LaTeX for any mathematical equations. Write both your thoughts and the response in the same language as the input.\n\nYour thinking process must follow the template below:[THINK]Your thoughts or/and draft, like working through an exercise on scratch paper. Be as casual and as long as you want until you are confident to generate the response to the user.[/THINK]Here, provide a self-contained response.';

/** `[AVAILABLE_TOOLS]` + json.dumps of the whole tools list (`, ` between tools, ensure_ascii=False) + `[/AVAILABLE_TOOLS]`; empty without tools. */
export function ministralToolsBlock(tools: readonly ToolDefinition[]): string {
  if (tools.length === 0) return '';
  return `[AVAILABLE_TOOLS]${pyJsonDumps(tools.map(wrappedTool))}[/AVAILABLE_TOOLS]`;
}

function renderMinistral(tools: readonly ToolDefinition[], options: FamilyPromptOptions): string {
  const messages = familyMessages(options);
  if (messages.length === 0) failChatTemplate(NAME, "the template reads messages[0]['role'] and there are no messages", undefinedElement([], 0));
  let out = '<s>';
  let loop = messages;
  if (messages[0].role === 'system') {
    out += `[SYSTEM_PROMPT]${messages[0].content}[/SYSTEM_PROMPT]`;
    loop = messages.slice(1);
  } else {
    out += `[SYSTEM_PROMPT]${MINISTRAL_DEFAULT_SYSTEM}[/SYSTEM_PROMPT]`;
  }
  out += ministralToolsBlock(tools);
  // user and (call-less) assistant messages must alternate; tool results do not count
  let index = 0;
  for (const m of loop) {
    if (m.role !== 'user' && m.role !== 'assistant') continue;
    if ((m.role === 'user') !== (index % 2 === 0)) {
      failChatTemplate(NAME, 'the messages do not alternate user/assistant', new JinjaError('TemplateError', 'After the optional system message, conversation roles must alternate user and assistant roles except for tool calls and results.'));
    }
    index++;
  }
  for (const m of loop) {
    if (m.role === 'user') out += `[INST]${m.content}[/INST]`;
    else if (m.role === 'assistant') {
      if (m.content === '') {
        failChatTemplate(NAME, 'an assistant message has no content', new JinjaError('TemplateError', 'Assistant message must have a string or a list of chunks in content or a list of tool calls.'));
      }
      out += `${m.content}</s>`;
    } else if (m.role === 'tool') out += `[TOOL_RESULTS]${m.content}[/TOOL_RESULTS]`;
    else failChatTemplate(NAME, `the role ${JSON.stringify(m.role)} is not supported`, new JinjaError('TemplateError', `Only user, assistant and tool roles are supported, got ${m.role}.`));
  }
  // no generation prompt: the template never reads add_generation_prompt
  return out;
}

/** Ministral 3 14B Reasoning 2512 (lower confidence: llama.cpp's copy carries an unstated minja fix). */
export const MINISTRAL_3: FamilyPrinter = defineFamily({
  name: NAME,
  aliases: [],
  models: 'Ministral 3 14B Reasoning 2512',
  template: 'mistralai-Ministral-3-14B-Reasoning-2512',
  source:
    'llama.cpp models/templates/mistralai-Ministral-3-14B-Reasoning-2512.jinja @ 2fbe3b7bb7814621477d658a81f0d0cca08761cf (PR #17713, which carries an unstated "temporary fix" for minja: lower confidence)',
  toolsBlock: ministralToolsBlock,
  render: renderMinistral,
  utf8: { label: NAME, wording: 'chat-template-fails', checkCatalog: true },
});
