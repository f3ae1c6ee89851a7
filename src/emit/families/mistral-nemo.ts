/**
 * Mistral Nemo Instruct 2407: `[AVAILABLE_TOOLS][…][/AVAILABLE_TOOLS]` before the last user
 * message, written by hand from each function's items: string values (and every key) pasted
 * between quotes unescaped, other values through `tojson`, a `return` key dropped.
 */
import type { JsonValue } from '../../ir/json.js';
import type { ToolDefinition } from '../../input/types.js';
import { JinjaError, undefinedElement } from '../python/errors.js';
import { pyJsonDumps } from '../python/json.js';
import { templateFunction } from '../xml/template.js';
import { failChatTemplate, familyMessages } from './common.js';
import type { FamilyMessage, FamilyPrinter, FamilyPromptOptions } from './types.js';

const NAME = 'mistral-nemo';

/** The function's items as the template's loop sees them: `tool.items() if key != "return"`. */
function printedItems(tool: ToolDefinition): [string, JsonValue][] {
  return [...templateFunction(tool)].filter(([k]) => k !== 'return');
}

/** One tool: `{"type": "function", "function": {` + `"key": "string"` pasted raw, or `"key": ` + `val|tojson` + `}}`. */
function nemoTool(tool: ToolDefinition): string {
  // `'"' + key + '": "' + val + '"'`: neither the key nor a string value is escaped
  const items = printedItems(tool).map(([k, v]) => (typeof v === 'string' ? `"${k}": "${v}"` : `"${k}": ${pyJsonDumps(v)}`));
  return `{"type": "function", "function": {${items.join(', ')}}}`;
}

/** The `[AVAILABLE_TOOLS]` block (empty without tools: `tools is none`). */
export function nemoToolsBlock(tools: readonly ToolDefinition[]): string {
  if (tools.length === 0) return '';
  return `[AVAILABLE_TOOLS][${tools.map(nemoTool).join(', ')}][/AVAILABLE_TOOLS]`;
}

/** Jinja2 `message == user_messages[-1]`: dict equality, so an earlier user message with the same text also gets the tools. */
function sameMessage(a: FamilyMessage, b: FamilyMessage): boolean {
  return a.role === b.role && a.content === b.content;
}

function renderNemo(tools: readonly ToolDefinition[], options: FamilyPromptOptions): string {
  const messages = familyMessages(options);
  if (messages.length === 0) failChatTemplate(NAME, 'the template reads messages[0]["role"] and there are no messages', undefinedElement([], 0));
  const system = messages[0].role === 'system' ? messages[0].content : undefined;
  const loop = system !== undefined ? messages.slice(1) : messages;
  const users = loop.filter((m) => m.role === 'user');
  // roles must alternate user/assistant, tool results aside
  let index = 0;
  for (const m of loop) {
    if (m.role === 'tool' || m.role === 'tool_results') continue;
    if ((m.role === 'user') !== (index % 2 === 0)) {
      failChatTemplate(NAME, 'the messages do not alternate user/assistant', new JinjaError('TemplateError', 'After the optional system message, conversation roles must alternate user/assistant/user/assistant/...'));
    }
    index++;
  }
  let out = '<s>';
  loop.forEach((m, i) => {
    if (m.role === 'user') {
      if (tools.length > 0 && sameMessage(m, users[users.length - 1])) out += nemoToolsBlock(tools);
      // the system text joins the user message only when that message is the conversation's last
      out += i === loop.length - 1 && system !== undefined ? `[INST]${system}\n\n${m.content}[/INST]` : `[INST]${m.content}[/INST]`;
    } else if (m.role === 'assistant') {
      out += `${m.content}</s>`;
    } else if (m.role === 'tool' || m.role === 'tool_results') {
      // a text message has no tool_call_id, which the template requires
      failChatTemplate(NAME, 'a tool result needs a tool_call_id of 9 characters', new JinjaError('TemplateError', 'Tool call IDs should be alphanumeric strings with length 9!'));
    } else {
      failChatTemplate(NAME, `the role ${JSON.stringify(m.role)} is not supported`, new JinjaError('TemplateError', 'Only user and assistant roles are supported, with the exception of an initial optional system message!'));
    }
  });
  // no generation prompt: the template never reads add_generation_prompt
  return out;
}

/** Mistral Nemo Instruct 2407. */
export const MISTRAL_NEMO: FamilyPrinter = { name: NAME, prompt: renderNemo };
