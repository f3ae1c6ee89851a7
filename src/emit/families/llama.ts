/**
 * Meta Llama 3.1 / 3.3, 3.2 and 4: one tools block (byte-identical in the four templates), three
 * prompt assemblies that differ in headers, the date line and whether a system turn is printed.
 * Default knobs, as transformers passes none: `tools_in_user_message` true, no `builtin_tools`,
 * no `date_string`.
 */
import type { ToolDefinition } from '../../input/types.js';
import { JinjaError, undefinedElement } from '../python/errors.js';
import { pyJsonDumps } from '../python/json.js';
import { pyStrftime, pyStrip } from '../python/strings.js';
import { wrappedTool } from '../xml/template.js';
import { defineFamily, failChatTemplate, familyDate, familyMessages } from './common.js';
import type { FamilyMessage, FamilyPrinter, FamilyPromptOptions } from './types.js';

const LLAMA_TOOLS_INTRO =
  'Given the following functions, please respond with a JSON for a function call with its proper arguments that best answers the given prompt.\n\n' +
  'Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}.Do not use variables.\n\n';

/**
 * The Llama tools block as it opens the first user message: the calling instructions, then each
 * tool as `t | tojson(indent=4)` (json.dumps of `{"type": "function", "function": tool}`, key order
 * kept, non-ASCII raw) followed by a blank line. Empty without tools (`tools is none`).
 */
export function llamaToolsBlock(tools: readonly ToolDefinition[]): string {
  if (tools.length === 0) return '';
  return LLAMA_TOOLS_INTRO + tools.map((t) => `${pyJsonDumps(wrappedTool(t), { indent: 4 })}\n\n`).join('');
}

/** The header tokens of a Llama generation. */
interface LlamaTokens {
  readonly start: string;
  readonly end: string;
  readonly eot: string;
}

const LLAMA3: LlamaTokens = { start: '<|start_header_id|>', end: '<|end_header_id|>', eot: '<|eot_id|>' };
const LLAMA4: LlamaTokens = { start: '<|header_start|>', end: '<|header_end|>', eot: '<|eot|>' };

/** `messages[0]['role']` on an empty list: Jinja2's Undefined raises when indexed. */
function firstMessage(template: string, messages: readonly FamilyMessage[]): FamilyMessage {
  if (messages.length === 0) failChatTemplate(template, "the template reads messages[0]['role'] and there are no messages", undefinedElement([], 0));
  return messages[0];
}

/** The first remaining message's trimmed content, which the template puts under the tools (whatever its role). */
function toolsUserTurn(template: string, tools: readonly ToolDefinition[], messages: FamilyMessage[], t: LlamaTokens): string {
  if (messages.length === 0) {
    failChatTemplate(template, 'the tools go in the first user message and there is none', new JinjaError('TemplateError', "Cannot put tools in the first user message when there's no first user message!"));
  }
  // `messages[0]['content']|trim`, whatever that message's role
  const first = pyStrip(messages.shift()!.content);
  return `${t.start}user${t.end}\n\n${llamaToolsBlock(tools)}${first}${t.eot}`;
}

/** One message of the loop: tool/ipython results print as `content | tojson` (a string `is iterable`), others as the header and the text. */
function llamaTurn(m: FamilyMessage, t: LlamaTokens, trim: boolean): string {
  if (m.role === 'ipython' || m.role === 'tool') return `${t.start}ipython${t.end}\n\n${pyJsonDumps(m.content)}${t.eot}`;
  return `${t.start}${m.role}${t.end}\n\n${trim ? pyStrip(m.content) : m.content}${t.eot}`;
}

/** Llama 3.1/3.3 and 3.2: the system turn is always printed, with the date line. */
function renderLlama3(template: string, tools: readonly ToolDefinition[], options: FamilyPromptOptions, date: string): string {
  const messages = familyMessages(options);
  let system = '';
  if (firstMessage(template, messages).role === 'system') system = pyStrip(messages.shift()!.content);
  let out = `<|begin_of_text|>${LLAMA3.start}system${LLAMA3.end}\n\n`;
  if (tools.length > 0) out += 'Environment: ipython\n';
  out += `Cutting Knowledge Date: December 2023\nToday Date: ${date}\n\n${system}${LLAMA3.eot}`;
  if (tools.length > 0) out += toolsUserTurn(template, tools, messages, LLAMA3);
  // Llama 3.x trims every message's content (`message['content'] | trim`)
  for (const m of messages) out += llamaTurn(m, LLAMA3, true);
  if (options.addGenerationPrompt ?? true) out += `${LLAMA3.start}assistant${LLAMA3.end}\n\n`;
  return out;
}

/** Llama 4: a system turn only when a system message is given, no date, untrimmed turns after the first user message. */
function renderLlama4(template: string, tools: readonly ToolDefinition[], options: FamilyPromptOptions): string {
  const messages = familyMessages(options);
  let out = '<|begin_of_text|>';
  if (firstMessage(template, messages).role === 'system') {
    const system = pyStrip(messages.shift()!.content);
    out += `${LLAMA4.start}system${LLAMA4.end}\n\n${tools.length > 0 ? 'Environment: ipython\n' : ''}${system}${LLAMA4.eot}`;
  }
  if (tools.length > 0) out += toolsUserTurn(template, tools, messages, LLAMA4);
  // Llama 4 prints the loop's contents as they are (no `|trim`)
  for (const m of messages) out += llamaTurn(m, LLAMA4, false);
  if (options.addGenerationPrompt ?? true) out += `${LLAMA4.start}assistant${LLAMA4.end}\n\n`;
  return out;
}

/** Llama 3.1 and 3.3 (one template, same git blob): the built-in `26 Jul 2024` date, never today's. */
export const LLAMA_3_1: FamilyPrinter = defineFamily({
  name: 'llama-3.1',
  aliases: ['llama-3.3'],
  models: 'Meta Llama 3.1 Instruct (8B, 70B, 405B) and Llama 3.3 70B Instruct',
  template: 'meta-llama-Llama-3.1-8B-Instruct',
  source:
    'llama.cpp models/templates/meta-llama-Llama-3.1-8B-Instruct.jinja @ 8b576b6c55bc4e6be898b47522f0ef402b93ef62 (PR #9639), the same blob as meta-llama-Llama-3.3-70B-Instruct.jinja',
  // the template never calls strftime_now: `date_string` defaults to "26 Jul 2024"
  toolsBlock: llamaToolsBlock,
  render: (tools, options) => renderLlama3('llama-3.1', tools, options, '26 Jul 2024'),
  utf8: { label: 'llama-3.1', wording: 'chat-template-fails', checkCatalog: true },
});

/** Llama 3.2: as 3.1, with today's date (`strftime_now("%d %b %Y")`). */
export const LLAMA_3_2: FamilyPrinter = defineFamily({
  name: 'llama-3.2',
  aliases: [],
  models: 'Meta Llama 3.2 Instruct (1B, 3B)',
  template: 'meta-llama-Llama-3.2-3B-Instruct',
  source: 'llama.cpp models/templates/meta-llama-Llama-3.2-3B-Instruct.jinja @ 8b576b6c55bc4e6be898b47522f0ef402b93ef62 (PR #9639)',
  toolsBlock: llamaToolsBlock,
  render: (tools, options) => renderLlama3('llama-3.2', tools, options, pyStrftime(familyDate(options.date), '%d %b %Y')),
  utf8: { label: 'llama-3.2', wording: 'chat-template-fails', checkCatalog: true },
});

/** Llama 4: `<|header_start|>` headers, no system turn unless instructions are given, no date printed. */
export const LLAMA_4: FamilyPrinter = defineFamily({
  name: 'llama-4',
  aliases: [],
  models: 'Meta Llama 4 Scout and Maverick Instruct',
  template: 'meta-llama-Llama-4-Scout-17B-16E-Instruct',
  source:
    'huggingface/transformers src/transformers/models/llama4/processing_llama4.py, the chat_template constant @ 01ad83adc51579a481843f370028b10956a04dd1',
  // the template computes date_string (strftime_now) but never prints it: the date option changes nothing
  toolsBlock: llamaToolsBlock,
  render: (tools, options) => renderLlama4('llama-4', tools, options),
  utf8: { label: 'llama-4', wording: 'chat-template-fails', checkCatalog: true },
});
