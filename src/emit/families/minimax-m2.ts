/**
 * MiniMax-M2 (MiniMaxAI): one system turn `]~!b[]~b]system\n` holding the instructions (or
 * `You are a helpful assistant.`) and the `# Tools` section, where each tool is the bare function
 * (`tool.function | tojson(ensure_ascii=False)`, no `type` wrapper) on its own `<tool>…</tool>` line.
 */
import type { ToolDefinition } from '../../input/types.js';
import { JinjaError } from '../python/errors.js';
import { pyJsonDumps } from '../python/json.js';
import { pySplitFirst, pySplitLast, pyStrip } from '../python/strings.js';
import { templateFunction } from '../xml/template.js';
import { failFamily, familyMessages, lastIndexOfRole } from './common.js';
import type { FamilyPrinter, FamilyPromptOptions } from './types.js';

/** One `<tool>` line: the bare function as `json.dumps` writes it (key order kept, non-ASCII raw). */
export function minimaxToolLine(tool: ToolDefinition): string {
  return `<tool>${pyJsonDumps(templateFunction(tool))}</tool>`;
}

/** The `# Tools` section through the call example (no tools: empty). */
function minimaxCatalog(tools: readonly ToolDefinition[]): string {
  if (tools.length === 0) return '';
  return (
    '# Tools\nYou may call one or more tools to assist with the user query.\nHere are the tools available in JSONSchema format:\n\n<tools>\n' +
    tools.map((t) => `${minimaxToolLine(t)}\n`).join('') +
    '</tools>\n\nWhen making tool calls, use XML format to invoke tools and pass parameters:\n\n<minimax:tool_call>\n<invoke name="tool-name-1">\n<parameter name="param-key-1">param-value-1</parameter>\n<parameter name="param-key-2">param-value-2</parameter>\n...\n</invoke>\n</minimax:tool_call>'
  );
}

function render(tools: readonly ToolDefinition[], options: FamilyPromptOptions): string {
  const messages = familyMessages(options);
  // only a first system message is the system prompt; later system messages print nothing
  const system = messages.length > 0 && messages[0].role === 'system' ? messages[0] : undefined;
  const conversation = system ? messages.slice(1) : messages;
  const lastUser = lastIndexOfRole(conversation, 'user');
  // `system_message.content` falsy (empty): model_identity's default
  let out = `]~!b[]~b]system\n${system && system.content !== '' ? system.content : 'You are a helpful assistant.'}`;
  if (tools.length > 0) out += `\n\n${minimaxCatalog(tools)}`;
  out += '[e~[\n';
  conversation.forEach((m, i) => {
    if (m.role === 'assistant') {
      // reasoning is cut out at `</think>`: split('</think>')[0].strip('\n').split('<think>')[-1].strip('\n')
      let content = m.content;
      let reasoning = '';
      if (content.includes('</think>')) {
        reasoning = pyStrip(pySplitLast(pyStrip(pySplitFirst(content, '</think>'), '\n'), '<think>'), '\n');
        content = pyStrip(pySplitLast(content, '</think>'), '\n');
      }
      out += ']~b]ai\n';
      // shown only after the last user message (interleaved thinking)
      if (reasoning !== '' && i > lastUser) out += `<think>\n${reasoning}\n</think>\n\n`;
      out += `${content}[e~[\n`;
    } else if (m.role === 'tool') {
      // a text message has no tool_calls, so last_tool_call.name is none whenever a tool result comes: the template raises
      failFamily(
        undefined,
        '',
        `the MiniMax-M2 template refuses the tool message at messages[${i + (system ? 1 : 0)}]: it needs an earlier assistant message with a tool call`,
        new JinjaError('TemplateError', 'Message has tool role, but there was no previous assistant message with a tool call!'),
      );
    } else if (m.role === 'user') {
      out += `]~b]user\n${m.content}[e~[\n`;
    }
    // any other role prints nothing
  });
  if (options.addGenerationPrompt ?? true) out += ']~b]ai\n<think>\n';
  return out;
}

/** The `minimax-m2` family: MiniMaxAI/MiniMax-M2. */
export const MINIMAX_M2: FamilyPrinter = { name: 'minimax-m2', prompt: render };
