/**
 * The `qwen3-coder` dialect: Qwen3-Coder's chat template, an XML catalog
 * (`<function><name>…<parameters><parameter>…`) and `<function=NAME><parameter=P>` calls.
 * Values print the way Jinja prints Python objects: `|string` is `str()` (`False`, `None`,
 * `['string', 'null']`), containers through `|tojson` (json.dumps, ensure_ascii=False).
 */
import { isJsonObject, type JsonValue } from '../../ir/json.js';
import type { ToolDefinition } from '../../input/types.js';
import { jinjaItem, jinjaTrim } from '../python/jinja.js';
import { pyJsonDumps } from '../python/json.js';
import { pyStr } from '../python/values.js';
import { chatmlTurn, failTemplate, templateFunction, type XmlMessage } from './template.js';

/** The calling instructions after `</tools>` (a `<tool_call><function=…><parameter=…>` example and the reminder). */
export const QWEN3_CODER_CALLING_INSTRUCTIONS =
  'If you choose to call a function ONLY reply in the following format with NO suffix:\n\n<tool_call>\n<function=example_function_name>\n<parameter=example_parameter_1>\nvalue_1\n</parameter>\n<parameter=example_parameter_2>\nThis is the value for the second parameter\nthat can span\nmultiple lines\n</parameter>\n</function>\n</tool_call>\n\n<IMPORTANT>\nReminder:\n- Function calls MUST follow the specified format: an inner <function=...></function> block must be nested within <tool_call></tool_call> XML tags\n- Required parameters MUST be specified\n- You may provide optional reasoning for your function call in natural language BEFORE the function call, but NOT after\n- If there is no function call available, answer the question like normal with your current knowledge and do not tell the user about function calls\n</IMPORTANT>';

const QWEN3_CODER_DEFAULT_SYSTEM = 'You are Qwen, a helpful AI assistant that can interact with a computer to solve tasks.';

/** Keys each level prints itself; every other key goes through {@link renderExtraKeys}. */
const PARAMETER_HANDLED = ['name', 'type', 'description'];
const PARAMETERS_HANDLED = ['type', 'properties'];
const TOOL_HANDLED = ['type', 'name', 'description', 'parameters'];

/** The template's `render_extra_keys` macro: `\n<KEY>VALUE</KEY>` per unhandled key, containers as tojson, the rest as `|string`. */
export function renderExtraKeys(dict: JsonValue | undefined, handled: readonly string[]): string {
  if (!isJsonObject(dict)) return '';
  let out = '';
  for (const [key, value] of dict) {
    if (handled.includes(key)) continue;
    // `is mapping or (is sequence and is not string)`: objects and arrays as JSON, scalars via str()
    const text = isJsonObject(value) || Array.isArray(value) ? pyJsonDumps(value) : pyStr(value);
    out += `\n<${key}>${text}</${key}>`;
  }
  return out;
}

/** One `<parameter>` block of a property. */
function renderParameter(name: string, fields: JsonValue): string {
  let out = `\n<parameter>\n<name>${name}</name>`;
  const type = jinjaItem(fields, 'type');
  // `param_fields.type | string`: a type list prints as Python's repr, `['string', 'null']`
  if (type !== undefined) out += `\n<type>${pyStr(type)}</type>`;
  const description = jinjaItem(fields, 'description');
  if (description !== undefined) out += `\n<description>${jinjaTrim(description)}</description>`;
  out += renderExtraKeys(fields, PARAMETER_HANDLED);
  return `${out}\n</parameter>`;
}

/** One `<function>` block. */
export function qwen3CoderFunction(tool: ToolDefinition): string {
  let out = `\n<function>\n<name>${tool.name}</name>`;
  if (tool.description !== undefined) out += `\n<description>${jinjaTrim(tool.description)}</description>`;
  out += '\n<parameters>';
  const params = tool.parameters;
  const properties = jinjaItem(params, 'properties');
  // properties print only when parameters and properties are both mappings
  if (isJsonObject(params) && isJsonObject(properties)) {
    for (const [name, fields] of properties) out += renderParameter(name, fields);
  }
  out += renderExtraKeys(params, PARAMETERS_HANDLED);
  out += '\n</parameters>';
  // tool-level extra keys (`strict` → `<strict>True</strict>`), after name, description and parameters
  out += renderExtraKeys(templateFunction(tool), TOOL_HANDLED);
  return `${out}\n</function>`;
}

/** `# Tools` through `</IMPORTANT>`, as the template writes it after the system text. */
export function emitQwen3CoderCatalog(tools: readonly ToolDefinition[]): string {
  if (tools.length === 0) return '';
  return `# Tools\n\nYou have access to the following functions:\n\n<tools>${tools.map(qwen3CoderFunction).join('')}\n</tools>\n\n${QWEN3_CODER_CALLING_INSTRUCTIONS}`;
}

/** The whole prompt as the Qwen3-Coder template renders it. */
export function renderQwen3CoderPrompt(tools: readonly ToolDefinition[], messages: readonly XmlMessage[], addGenerationPrompt: boolean): string {
  if (messages.length === 0) failTemplate(undefined, '', 'the Qwen3-Coder template reads messages[0]["role"] and there are no messages');
  const system = messages[0].role === 'system' ? messages[0].content : undefined;
  const loop = system !== undefined ? messages.slice(1) : messages;
  let out = '';
  if (system !== undefined) out += `<|im_start|>system\n${system}`;
  else if (tools.length > 0) out += `<|im_start|>system\n${QWEN3_CODER_DEFAULT_SYSTEM}`;
  if (tools.length > 0) out += `\n\n${emitQwen3CoderCatalog(tools)}`;
  if (system !== undefined || tools.length > 0) out += '<|im_end|>\n';
  loop.forEach((m, i) => {
    if (m.role === 'tool') {
      // `loop.previtem and …`: a tool message first in the loop gets no `<|im_start|>user` header
      if (i > 0 && loop[i - 1].role !== 'tool') out += '<|im_start|>user\n';
      out += `<tool_response>\n${m.content}\n</tool_response>\n`;
      if (i === loop.length - 1 || loop[i + 1].role !== 'tool') out += '<|im_end|>\n';
    } else {
      out += chatmlTurn(m.role, m.content);
    }
  });
  if (addGenerationPrompt) out += '<|im_start|>assistant\n';
  return out;
}
