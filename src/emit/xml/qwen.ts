/**
 * The `qwen` dialect: Qwen2.5 / Qwen3 / QwQ chat templates (their tools blocks are byte-identical;
 * the reference is Qwen2.5-7B-Instruct's tokenizer_config.json template).
 */
import type { ToolDefinition } from '../../input/types.js';
import { pyJsonDumps } from '../python/json.js';
import { chatmlTurn, failTemplate, wrappedTool, type XmlMessage } from './template.js';

/** The `<tool_call>` instructions that close the Qwen system message. */
export const QWEN_CALLING_INSTRUCTIONS =
  'For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>';

const QWEN_DEFAULT_SYSTEM = 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.';

/** One `<tools>` line: `tool | tojson` of `{"type": "function", "function": tool}` (json.dumps, ensure_ascii=False, key order kept; `strict` and other keys included). */
export function qwenToolLine(tool: ToolDefinition): string {
  return pyJsonDumps(wrappedTool(tool));
}

/** The `# Tools` section through the calling instructions, as the template writes it after the system text. */
export function emitQwenCatalog(tools: readonly ToolDefinition[]): string {
  // `{%- if tools %}`: no tools, no section
  if (tools.length === 0) return '';
  return (
    '# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>' +
    tools.map((t) => `\n${qwenToolLine(t)}`).join('') +
    '\n</tools>\n\n' +
    QWEN_CALLING_INSTRUCTIONS
  );
}

/** The whole prompt as the Qwen2.5 template renders it. */
export function renderQwenPrompt(tools: readonly ToolDefinition[], messages: readonly XmlMessage[], addGenerationPrompt: boolean): string {
  // `messages[0]['role']` on an empty list raises UndefinedError
  if (messages.length === 0) failTemplate(undefined, '', "the Qwen template reads messages[0]['role'] and there are no messages");
  const first = messages[0];
  let out = '';
  if (tools.length > 0) {
    // the first system message's content (or the default) opens the system turn, the tools follow
    out += `<|im_start|>system\n${first.role === 'system' ? first.content : QWEN_DEFAULT_SYSTEM}\n\n${emitQwenCatalog(tools)}<|im_end|>\n`;
  } else {
    out += chatmlTurn('system', first.role === 'system' ? first.content : QWEN_DEFAULT_SYSTEM);
  }
  messages.forEach((m, i) => {
    if (m.role === 'user' || (m.role === 'system' && i > 0) || m.role === 'assistant') {
      out += chatmlTurn(m.role, m.content);
    } else if (m.role === 'tool') {
      // consecutive tool results share one user turn
      if (i === 0 || messages[i - 1].role !== 'tool') out += '<|im_start|>user';
      out += `\n<tool_response>\n${m.content}\n</tool_response>`;
      if (i === messages.length - 1 || messages[i + 1].role !== 'tool') out += '<|im_end|>\n';
    }
    // any other role (and the leading system message) prints nothing in the loop
  });
  if (addGenerationPrompt) out += '<|im_start|>assistant\n';
  return out;
}
