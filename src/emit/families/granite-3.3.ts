/**
 * IBM Granite 3.3 Instruct: a system turn (the instructions, or a default holding today's date and
 * a tool-use sentence), then an `available_tools` turn with `tools | tojson(indent=4)` over the
 * whole list. Default knobs: no `controls`, no `thinking`, documents None.
 */
import type { ToolDefinition } from '../../input/types.js';
import { undefinedElement } from '../python/errors.js';
import { pyJsonDumps } from '../python/json.js';
import { pyStrftime } from '../python/strings.js';
import { wrappedTool } from '../xml/template.js';
import { defineFamily, failChatTemplate, familyDate, familyMessages } from './common.js';
import type { FamilyPrinter, FamilyPromptOptions } from './types.js';

const NAME = 'granite-3.3';

const GRANITE_TOOLS_SENTENCE =
  " You are a helpful assistant with access to the following tools. When a tool is required to answer the user's query, respond only with <|tool_call|> followed by a JSON list of tools used. If a tool does not exist in the provided list of tools, notify the user that you do not have the ability to fulfill the request.";

/** The `available_tools` turn: json.dumps of the whole list with indent=4 (each tool one level deeper than Llama's); empty without tools. */
export function granite33ToolsTurn(tools: readonly ToolDefinition[]): string {
  if (tools.length === 0) return '';
  return `<|start_of_role|>available_tools<|end_of_role|>${pyJsonDumps(tools.map(wrappedTool), { indent: 4 })}<|end_of_text|>\n`;
}

function renderGranite33(tools: readonly ToolDefinition[], options: FamilyPromptOptions): string {
  const messages = familyMessages(options);
  if (messages.length === 0) failChatTemplate(NAME, "the template reads messages[0]['role'] and there are no messages", undefinedElement([], 0));
  let system: string;
  let loop = messages;
  if (messages[0].role === 'system') {
    // a system message replaces the default entirely: no date, no tool sentence
    system = messages[0].content;
    loop = messages.slice(1);
  } else {
    const today = pyStrftime(familyDate(options.date), '%B %d, %Y');
    system = `Knowledge Cutoff Date: April 2024. Today's Date: ${today}. You are Granite, developed by IBM.${tools.length > 0 ? GRANITE_TOOLS_SENTENCE : ' You are a helpful AI assistant.'}`;
  }
  let out = `<|start_of_role|>system<|end_of_role|>${system}<|end_of_text|>\n${granite33ToolsTurn(tools)}`;
  for (const m of loop) out += `<|start_of_role|>${m.role}<|end_of_role|>${m.content}<|end_of_text|>\n`;
  // the generation prompt is written inside the loop, after its last message: none without one
  if ((options.addGenerationPrompt ?? true) && loop.length > 0) out += '<|start_of_role|>assistant<|end_of_role|>';
  return out;
}

/** IBM Granite 3.3 Instruct (2B, 8B). */
export const GRANITE_3_3: FamilyPrinter = defineFamily({
  name: NAME,
  aliases: [],
  models: 'IBM Granite 3.3 Instruct (2B, 8B)',
  template: 'ibm-granite-granite-3.3-2B-Instruct',
  source: 'llama.cpp models/templates/ibm-granite-granite-3.3-2B-Instruct.jinja @ 3db4da56a5a00c4b47bbb3b18f85fb4473662adb (PR #14864)',
  toolsBlock: granite33ToolsTurn,
  render: renderGranite33,
  utf8: { label: NAME, wording: 'chat-template-fails', checkCatalog: true },
});
