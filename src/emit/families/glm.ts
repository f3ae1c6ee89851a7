/**
 * GLM-4.6 and GLM-4.7-Flash (zai-org): `[gMASK]<sop>`, then a `<|system|>` turn with the `# Tools`
 * section (one Qwen2.5 tool line per tool: `tool | tojson(ensure_ascii=False)` of the wrapped tool)
 * and an XML call example, then every message as its own turn. The two templates differ in the call
 * example (one line in 4.7), the newlines after the headers, the thinking markers and the
 * generation prompt (4.7 ends `<|assistant|><think>`).
 */
import type { ToolDefinition } from '../../input/types.js';
import { pyLstrip, pyRstrip, pySplitFirst, pySplitLast, pyStrip } from '../python/strings.js';
import { qwenToolLine } from '../xml/qwen.js';
import { defineFamily, familyMessages, lastIndexOfRole } from './common.js';
import type { FamilyPrinter, FamilyPromptOptions } from './types.js';

/** What differs between the GLM-4.6 and GLM-4.7-Flash templates. */
interface GlmVariant {
  /** The call example that closes the tools section. */
  readonly callExample: string;
  /** Text between a header (`<|user|>`, `<|system|>`, an assistant's think marker) and the content: `\n` in 4.6, nothing in 4.7. */
  readonly nl: string;
  /** An assistant turn without reasoning to show: `\n<think></think>` (4.6) or `</think>` (4.7). */
  readonly noThink: string;
  /** The generation prompt. */
  readonly generation: string;
}

const GLM_46: GlmVariant = {
  callExample:
    '<tool_call>{function-name}\n<arg_key>{arg-key-1}</arg_key>\n<arg_value>{arg-value-1}</arg_value>\n<arg_key>{arg-key-2}</arg_key>\n<arg_value>{arg-value-2}</arg_value>\n...\n</tool_call>',
  nl: '\n',
  noThink: '\n<think></think>',
  // enable_thinking is undefined: nothing after `<|assistant|>`
  generation: '<|assistant|>',
};

const GLM_47: GlmVariant = {
  callExample:
    '<tool_call>{function-name}<arg_key>{arg-key-1}</arg_key><arg_value>{arg-value-1}</arg_value><arg_key>{arg-key-2}</arg_key><arg_value>{arg-value-2}</arg_value>...</tool_call>',
  nl: '',
  noThink: '</think>',
  // enable_thinking is undefined: the generation prompt opens a think block
  generation: '<|assistant|><think>',
};

/** The `<|system|>` tools turn (no tools: empty), as the template prints it after `[gMASK]<sop>`. */
function glmToolsTurn(tools: readonly ToolDefinition[], v: GlmVariant): string {
  if (tools.length === 0) return '';
  return (
    '<|system|>\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>\n' +
    tools.map((t) => `${qwenToolLine(t)}\n`).join('') +
    '</tools>\n\nFor each function call, output the function name and arguments within the following XML format:\n' +
    v.callExample
  );
}

function render(tools: readonly ToolDefinition[], options: FamilyPromptOptions, v: GlmVariant): string {
  const messages = familyMessages(options);
  const lastUser = lastIndexOfRole(messages, 'user');
  let out = `[gMASK]<sop>${glmToolsTurn(tools, v)}`;
  messages.forEach((m, i) => {
    if (m.role === 'user') {
      // 4.6 appends '/nothink' only when enable_thinking is defined and false: never here
      out += `<|user|>${v.nl}${m.content}`;
    } else if (m.role === 'assistant') {
      // reasoning is cut out of the content at the last `</think>`: content.split('</think>')[0].rstrip('\n').split('<think>')[-1].lstrip('\n')
      let content = m.content;
      let reasoning = '';
      if (content.includes('</think>')) {
        reasoning = pyLstrip(pySplitLast(pyRstrip(pySplitFirst(content, '</think>'), '\n'), '<think>'), '\n');
        content = pyLstrip(pySplitLast(content, '</think>'), '\n');
      }
      out += '<|assistant|>';
      // the reasoning is shown only after the last user message (clear_thinking is undefined in 4.7)
      out += i > lastUser && reasoning !== '' ? `${v.nl}<think>${pyStrip(reasoning)}</think>` : v.noThink;
      if (pyStrip(content) !== '') out += v.nl + pyStrip(content);
    } else if (m.role === 'tool') {
      // consecutive tool results share one `<|observation|>` header
      if (i === 0 || messages[i - 1].role !== 'tool') out += '<|observation|>';
      out += `${v.nl}<tool_response>${v.nl}${m.content}${v.nl}</tool_response>`;
    } else if (m.role === 'system') {
      // every system message is its own turn, after the tools turn
      out += `<|system|>${v.nl}${m.content}`;
    }
    // any other role prints nothing
  });
  if (options.addGenerationPrompt ?? true) out += v.generation;
  return out;
}

function glmPrinter(name: string, label: string, aliases: readonly string[], models: string, template: string, source: string, v: GlmVariant): FamilyPrinter {
  return defineFamily({
    name,
    aliases,
    models,
    template,
    source,
    toolsBlock: (tools) => glmToolsTurn(tools, v),
    render: (tools, options) => render(tools, options, v),
    utf8: { label, wording: 'cannot-be-encoded', checkCatalog: false },
  });
}

/** The `glm-4.6` family: zai-org/GLM-4.6. */
export const GLM_4_6: FamilyPrinter = glmPrinter(
  'glm-4.6',
  'GLM-4.6',
  [],
  'GLM-4.6 (zai-org/GLM-4.6)',
  'zai-org-GLM-4.6',
  'llama.cpp models/templates/GLM-4.6.jinja @ 1920345c3bcec451421bb6abc4981678cc721154 (PR #16932, which keeps the template files official)',
  GLM_46,
);

/** The `glm-4.7` family: zai-org/GLM-4.7-Flash. */
export const GLM_4_7: FamilyPrinter = glmPrinter(
  'glm-4.7',
  'GLM-4.7-Flash',
  ['glm-4.7-flash'],
  'GLM-4.7-Flash (zai-org/GLM-4.7-Flash)',
  'zai-org-GLM-4.7-Flash',
  'llama.cpp models/templates/GLM-4.7-Flash.jinja @ 566059a26b0ce8faec4ea053605719d399c64cc5 (PR #18675)',
  GLM_47,
);
