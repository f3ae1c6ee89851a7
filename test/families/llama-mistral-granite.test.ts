/**
 * Llama 3.1/3.3, 3.2, 4, Mistral Nemo, Ministral 3, Granite 3.3 and 4.0: the oracle comparison over
 * every set, then hand-written cases for each rule of each family. Every expected text below was
 * checked by rendering the real template (render.py's Jinja2 environment) over the same messages.
 */
import { describe, expect, it } from 'vitest';
import { CompileError, isCompileError } from '../../src/diagnostics.js';
import { parseJson, type JsonValue } from '../../src/ir/json.js';
import type { ToolDefinition } from '../../src/input/types.js';
import { GRANITE_3_3 } from '../../src/emit/families/granite-3.3.js';
import { GRANITE_4_0 } from '../../src/emit/families/granite-4.0.js';
import { LLAMA_3_1, LLAMA_3_2, LLAMA_4 } from '../../src/emit/families/llama.js';
import { FAMILIES } from '../../src/emit/families/llama-mistral-granite.js';
import { familyDate } from '../../src/emit/families/common.js';
import { pyStrftime } from '../../src/emit/python/strings.js';
import { MINISTRAL_3 } from '../../src/emit/families/ministral-3.js';
import { MISTRAL_NEMO } from '../../src/emit/families/mistral-nemo.js';
import { familyPrinter } from '../../src/emit/families/registry.js';
import type { FamilyMessage, FamilyPrinter } from '../../src/emit/families/types.js';
import { qwenToolLine } from '../../src/emit/xml/qwen.js';
import { describeFamily, OVERFLOW } from '../support/families.js';
import { bareTool } from '../support/shared.js';

for (const f of FAMILIES) describeFamily(f, { 'raw-default-1e400-overflow': OVERFLOW });

const tool = (json: string, index = 0): ToolDefinition => bareTool(parseJson(json), index);
/** A small tool with a non-ASCII description and a float default (json.dumps keeps `1.0` and `ü`). */
const T = tool('{"name": "f", "description": "Weather in Zürich.", "parameters": {"type": "object", "properties": {"x": {"type": "number", "default": 1.0}}}}');
const G = tool('{"name": "g"}', 1);
const hi: FamilyMessage[] = [{ role: 'user', content: 'hi' }];
const conv: FamilyMessage[] = [
  { role: 'user', content: ' hi ' },
  { role: 'assistant', content: ' ok ' },
  { role: 'tool', content: 'sunny' },
];

function failure(run: () => unknown): CompileError {
  try {
    run();
  } catch (e) {
    if (isCompileError(e)) return e;
    throw e;
  }
  throw new Error('expected a CompileError');
}

/** `json.dumps({"type": "function", "function": T}, indent=4, ensure_ascii=False)`. */
const T_INDENT4 = `{
    "type": "function",
    "function": {
        "name": "f",
        "description": "Weather in Zürich.",
        "parameters": {
            "type": "object",
            "properties": {
                "x": {
                    "type": "number",
                    "default": 1.0
                }
            }
        }
    }
}`;
/** `json.dumps({"type": "function", "function": T}, ensure_ascii=False)`. */
const T_LINE = '{"type": "function", "function": {"name": "f", "description": "Weather in Zürich.", "parameters": {"type": "object", "properties": {"x": {"type": "number", "default": 1.0}}}}}';

const LLAMA_INTRO =
  'Given the following functions, please respond with a JSON for a function call with its proper arguments that best answers the given prompt.\n\nRespond in the format {"name": function name, "parameters": dictionary of argument name and its value}.Do not use variables.\n\n';

describe('the group registers its names', () => {
  it('each name and alias finds its printer, with its template folder', () => {
    const names: [string, FamilyPrinter, string][] = [
      ['llama-3.1', LLAMA_3_1, 'meta-llama-Llama-3.1-8B-Instruct'],
      ['llama-3.3', LLAMA_3_1, 'meta-llama-Llama-3.1-8B-Instruct'],
      ['llama-3.2', LLAMA_3_2, 'meta-llama-Llama-3.2-3B-Instruct'],
      ['llama-4', LLAMA_4, 'meta-llama-Llama-4-Scout-17B-16E-Instruct'],
      ['mistral-nemo', MISTRAL_NEMO, 'mistralai-Mistral-Nemo-Instruct-2407'],
      ['ministral-3', MINISTRAL_3, 'mistralai-Ministral-3-14B-Reasoning-2512'],
      ['granite-3.3', GRANITE_3_3, 'ibm-granite-granite-3.3-2B-Instruct'],
      ['granite-4.0', GRANITE_4_0, 'ibm-granite-granite-4.0'],
    ];
    for (const [name, printer, template] of names) {
      expect(familyPrinter(name)).toBe(printer);
      expect(printer.template).toBe(template);
      expect(printer.source).not.toBe('');
    }
    expect(FAMILIES.map((f) => f.name)).toEqual(['llama-3.1', 'llama-3.2', 'llama-4', 'mistral-nemo', 'ministral-3', 'granite-3.3', 'granite-4.0']);
  });

  for (const f of FAMILIES) {
    it(`${f.name}: the catalog stands in the prompt; no tools, no catalog`, () => {
      const catalog = f.catalog([T, G]).text;
      expect(catalog).not.toBe('');
      expect(f.prompt([T, G], { date: '2025-08-05' }).text).toContain(catalog);
      expect(f.catalog([]).text).toBe('');
      expect(f.prompt([], { date: '2025-08-05' }).text).not.toContain(catalog);
    });
    it(`${f.name}: an empty instructions string adds no system message`, () => {
      expect(f.prompt([T], { instructions: '', date: '2025-08-05' }).text).toBe(f.prompt([T], { date: '2025-08-05' }).text);
    });
    it(`${f.name}: no messages at all fails where the template reads messages[0]`, () => {
      const e = failure(() => f.prompt([T], { messages: [], date: '2025-08-05' }));
      expect(e.diagnostics[0]).toMatchObject({ code: 'family/template-fails', severity: 'error', path: '' });
      expect(e.message).toContain('(Jinja2: UndefinedError: list object has no element 0)');
    });
  }
});

describe('Llama 3.1 / 3.3, 3.2, 4: one tools block, three assemblies', () => {
  it('the tools block is byte-identical in the four templates: intro, then each tool at indent=4 and a blank line', () => {
    const block = `${LLAMA_INTRO}${T_INDENT4}\n\n{\n    "type": "function",\n    "function": {\n        "name": "g"\n    }\n}\n\n`;
    for (const f of [LLAMA_3_1, LLAMA_3_2, LLAMA_4]) expect(f.catalog([T, G]).text).toBe(block);
  });

  it('3.1: tools in the first user message, the built-in 26 Jul 2024 date whatever the date option', () => {
    expect(LLAMA_3_1.prompt([T], { date: '2025-08-05' }).text).toBe(
      '<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nEnvironment: ipython\nCutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n<|eot_id|>' +
        `<|start_header_id|>user<|end_header_id|>\n\n${LLAMA_INTRO}${T_INDENT4}\n\nhi<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n`,
    );
  });

  it('3.1: instructions and every message are trimmed; a tool result prints as `content | tojson` (a str is iterable)', () => {
    expect(LLAMA_3_1.prompt([T], { instructions: '  Be brief.\n', messages: conv }).text).toBe(
      '<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nEnvironment: ipython\nCutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\nBe brief.<|eot_id|>' +
        `<|start_header_id|>user<|end_header_id|>\n\n${LLAMA_INTRO}${T_INDENT4}\n\nhi<|eot_id|>` +
        '<|start_header_id|>assistant<|end_header_id|>\n\nok<|eot_id|><|start_header_id|>ipython<|end_header_id|>\n\n"sunny"<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n',
    );
  });

  it('3.1 without tools: no "Environment: ipython" line, no tools turn', () => {
    expect(LLAMA_3_1.prompt([]).text).toBe(
      '<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nhi<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n',
    );
  });

  it('3.2: the date line is strftime_now("%d %b %Y") of the date option; otherwise the same prompt as 3.1', () => {
    const p32 = LLAMA_3_2.prompt([T], { date: '2024-12-31' }).text;
    expect(p32).toContain('\nToday Date: 31 Dec 2024\n\n');
    expect(p32).toBe(LLAMA_3_1.prompt([T]).text.replace('26 Jul 2024', '31 Dec 2024'));
  });

  it('tools need a first message after the system one: the template raises', () => {
    const e = failure(() => LLAMA_3_1.prompt([T], { instructions: 'x', messages: [] }));
    expect(e.message).toContain("(Jinja2: TemplateError: Cannot put tools in the first user message when there's no first user message!)");
  });

  it('addGenerationPrompt false drops only the assistant header', () => {
    expect(LLAMA_3_1.prompt([T]).text).toBe(`${LLAMA_3_1.prompt([T], { addGenerationPrompt: false }).text}<|start_header_id|>assistant<|end_header_id|>\n\n`);
    expect(LLAMA_4.prompt([T]).text).toBe(`${LLAMA_4.prompt([T], { addGenerationPrompt: false }).text}<|header_start|>assistant<|header_end|>\n\n`);
  });

  it('4: no system turn without instructions, no date', () => {
    expect(LLAMA_4.prompt([T], { date: '2025-08-05' }).text).toBe(
      `<|begin_of_text|><|header_start|>user<|header_end|>\n\n${LLAMA_INTRO}${T_INDENT4}\n\nhi<|eot|><|header_start|>assistant<|header_end|>\n\n`,
    );
  });

  it('4: instructions make a system turn after "Environment: ipython"; later turns are not trimmed', () => {
    expect(LLAMA_4.prompt([T], { instructions: '  Be brief.\n', messages: conv }).text).toBe(
      '<|begin_of_text|><|header_start|>system<|header_end|>\n\nEnvironment: ipython\nBe brief.<|eot|>' +
        `<|header_start|>user<|header_end|>\n\n${LLAMA_INTRO}${T_INDENT4}\n\nhi<|eot|>` +
        '<|header_start|>assistant<|header_end|>\n\n ok <|eot|><|header_start|>ipython<|header_end|>\n\n"sunny"<|eot|><|header_start|>assistant<|header_end|>\n\n',
    );
  });

  it('4 without tools: the system turn has no environment line', () => {
    expect(LLAMA_4.prompt([], { instructions: 'Be brief.' }).text).toBe(
      '<|begin_of_text|><|header_start|>system<|header_end|>\n\nBe brief.<|eot|><|header_start|>user<|header_end|>\n\nhi<|eot|><|header_start|>assistant<|header_end|>\n\n',
    );
  });
});

describe('Mistral Nemo: hand-built JSON before the last user message', () => {
  const Q = tool('{"name": "say", "description": "Say \\"hi\\".\\nThen \\\\ go", "parameters": {"type": "object", "properties": {}}}');

  it('string values are pasted between quotes unescaped; the instructions open the last user message', () => {
    const out = MISTRAL_NEMO.prompt([Q], { instructions: 'Be brief.' });
    expect(out.text).toBe(
      '<s>[AVAILABLE_TOOLS][{"type": "function", "function": {"name": "say", "description": "Say "hi".\nThen \\ go", "parameters": {"type": "object", "properties": {}}}}][/AVAILABLE_TOOLS][INST]Be brief.\n\nhi[/INST]',
    );
    expect(out.diagnostics).toEqual([
      { code: 'family/unparseable', severity: 'warning', tool: 'say', path: '/0/description', message: expect.stringContaining('a double quote') as string },
    ]);
  });

  it('a name that needs no escaping and other values through tojson give no warning', () => {
    expect(MISTRAL_NEMO.prompt([T]).diagnostics).toEqual([]);
  });

  it('other values go through tojson, extra keys follow, a "return" key is dropped', () => {
    const x: ToolDefinition = {
      ...tool('{"name": "f", "description": 5, "parameters": {"type": "object", "properties": {}}}'),
      extra: new Map<string, JsonValue>([
        ['strict', true],
        ['return', parseJson('{"type": "string"}')],
      ]),
    };
    expect(MISTRAL_NEMO.prompt([x]).text).toBe(
      '<s>[AVAILABLE_TOOLS][{"type": "function", "function": {"name": "f", "description": 5, "parameters": {"type": "object", "properties": {}}, "strict": true}}][/AVAILABLE_TOOLS][INST]hi[/INST]',
    );
  });

  it('`message == user_messages[-1]` compares by value: an earlier user message with the same text gets the tools too', () => {
    const messages: FamilyMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'hi' },
    ];
    const tools = '[AVAILABLE_TOOLS][{"type": "function", "function": {"name": "g"}}][/AVAILABLE_TOOLS]';
    expect(MISTRAL_NEMO.prompt([G], { instructions: 'S', messages }).text).toBe(`<s>${tools}[INST]hi[/INST]ok</s>${tools}[INST]S\n\nhi[/INST]`);
  });

  it('the system text is dropped when the last message is not a user message; no generation prompt', () => {
    const messages: FamilyMessage[] = [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
    ];
    expect(MISTRAL_NEMO.prompt([G], { instructions: 'S', messages }).text).toBe('<s>[AVAILABLE_TOOLS][{"type": "function", "function": {"name": "g"}}][/AVAILABLE_TOOLS][INST]a[/INST]b</s>');
    expect(MISTRAL_NEMO.prompt([]).text).toBe('<s>[INST]hi[/INST]');
  });

  it('roles must alternate; a tool result without a call id raises', () => {
    const twoUsers = failure(() => MISTRAL_NEMO.prompt([G], { messages: [{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }] }));
    expect(twoUsers.message).toContain('(Jinja2: TemplateError: After the optional system message, conversation roles must alternate user/assistant/user/assistant/...)');
    const toolResult = failure(() => MISTRAL_NEMO.prompt([G], { messages: [{ role: 'user', content: 'a' }, { role: 'tool', content: 'b' }] }));
    expect(toolResult.message).toContain('(Jinja2: TemplateError: Tool call IDs should be alphanumeric strings with length 9!)');
  });
});

describe('Ministral 3: system prompt, then the tools list as one json.dumps', () => {
  it('without instructions the built-in system prompt is printed; no generation suffix', () => {
    expect(MINISTRAL_3.prompt([T]).text).toBe(
      '<s>[SYSTEM_PROMPT]# HOW YOU SHOULD THINK AND ANSWER\n\nFirst draft your thinking process (inner monologue) until you arrive at a response. Format your response using Markdown, and use LaTeX for any mathematical equations. Write both your thoughts and the response in the same language as the input.\n\nYour thinking process must follow the template below:[THINK]Your thoughts or/and draft, like working through an exercise on scratch paper. Be as casual and as long as you want until you are confident to generate the response to the user.[/THINK]Here, provide a self-contained response.[/SYSTEM_PROMPT]' +
        `[AVAILABLE_TOOLS][${T_LINE}][/AVAILABLE_TOOLS][INST]hi[/INST]`,
    );
  });

  it('instructions replace it; tools are joined ", " inside one list; assistant and tool turns', () => {
    const messages: FamilyMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'ok' },
      { role: 'tool', content: 'sunny' },
      { role: 'user', content: 'more' },
    ];
    expect(MINISTRAL_3.prompt([T, G], { instructions: 'Be brief.', messages }).text).toBe(
      `<s>[SYSTEM_PROMPT]Be brief.[/SYSTEM_PROMPT][AVAILABLE_TOOLS][${T_LINE}, {"type": "function", "function": {"name": "g"}}][/AVAILABLE_TOOLS][INST]hi[/INST]ok</s>[TOOL_RESULTS]sunny[/TOOL_RESULTS][INST]more[/INST]`,
    );
  });

  it('the template raises on a second system message, an empty assistant message and roles out of turn', () => {
    const cases: [FamilyMessage[], string][] = [
      [[{ role: 'system', content: 'S' }, { role: 'user', content: 'a' }, { role: 'system', content: 'b' }], 'Only user, assistant and tool roles are supported, got system.'],
      [[{ role: 'user', content: 'a' }, { role: 'assistant', content: '' }], 'Assistant message must have a string or a list of chunks in content or a list of tool calls.'],
      [[{ role: 'assistant', content: 'a' }], 'After the optional system message, conversation roles must alternate user and assistant roles except for tool calls and results.'],
    ];
    for (const [messages, error] of cases) expect(failure(() => MINISTRAL_3.prompt([], { messages })).message).toContain(`(Jinja2: TemplateError: ${error})`);
  });
});

describe('Granite 3.3: an available_tools turn with the whole list at indent=4', () => {
  const TOOLS_TURN = `<|start_of_role|>available_tools<|end_of_role|>[\n${T_INDENT4.replace(/^/gm, '    ')}\n]<|end_of_text|>\n`;

  it('the default system prompt holds strftime_now("%B %d, %Y") and the tool-use sentence', () => {
    expect(GRANITE_3_3.prompt([T], { date: '2025-08-05' }).text).toBe(
      "<|start_of_role|>system<|end_of_role|>Knowledge Cutoff Date: April 2024. Today's Date: August 05, 2025. You are Granite, developed by IBM. You are a helpful assistant with access to the following tools. When a tool is required to answer the user's query, respond only with <|tool_call|> followed by a JSON list of tools used. If a tool does not exist in the provided list of tools, notify the user that you do not have the ability to fulfill the request.<|end_of_text|>\n" +
        `${TOOLS_TURN}<|start_of_role|>user<|end_of_role|>hi<|end_of_text|>\n<|start_of_role|>assistant<|end_of_role|>`,
    );
  });

  it('without tools the default ends "You are a helpful AI assistant."', () => {
    expect(GRANITE_3_3.prompt([], { date: '2024-01-09' }).text).toBe(
      "<|start_of_role|>system<|end_of_role|>Knowledge Cutoff Date: April 2024. Today's Date: January 09, 2024. You are Granite, developed by IBM. You are a helpful AI assistant.<|end_of_text|>\n<|start_of_role|>user<|end_of_role|>hi<|end_of_text|>\n<|start_of_role|>assistant<|end_of_role|>",
    );
  });

  it('instructions replace the default entirely: no date, no tool sentence', () => {
    expect(GRANITE_3_3.prompt([T], { instructions: 'Be brief.' }).text).toBe(
      `<|start_of_role|>system<|end_of_role|>Be brief.<|end_of_text|>\n${TOOLS_TURN}<|start_of_role|>user<|end_of_role|>hi<|end_of_text|>\n<|start_of_role|>assistant<|end_of_role|>`,
    );
  });

  it('the generation prompt follows the last message inside the loop: none without messages after the system one', () => {
    expect(GRANITE_3_3.prompt([G], { instructions: 'S', messages: [] }).text).toBe(
      '<|start_of_role|>system<|end_of_role|>S<|end_of_text|>\n<|start_of_role|>available_tools<|end_of_role|>[\n    {\n        "type": "function",\n        "function": {\n            "name": "g"\n        }\n    }\n]<|end_of_text|>\n',
    );
    expect(GRANITE_3_3.prompt([], { date: '2025-08-05', addGenerationPrompt: false, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'ok' }] }).text).toBe(
      "<|start_of_role|>system<|end_of_role|>Knowledge Cutoff Date: April 2024. Today's Date: August 05, 2025. You are Granite, developed by IBM. You are a helpful AI assistant.<|end_of_text|>\n<|start_of_role|>user<|end_of_role|>hi<|end_of_text|>\n<|start_of_role|>assistant<|end_of_role|>ok<|end_of_text|>\n",
    );
  });
});

describe('Granite 4.0: the Qwen2.5 tool lines inside its own system text', () => {
  const TOOLS_TEXT =
    'You are a helpful assistant with access to the following tools. You may call one or more tools to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>\n' +
    T_LINE +
    '\n</tools>\n\nFor each tool call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>. If a tool does not exist in the provided list of tools, notify the user that you do not have the ability to fulfill the request.';
  const DEFAULT = 'You are a helpful assistant. Please ensure responses are professional, accurate, and safe.';
  const USER_HI = '<|start_of_role|>user<|end_of_role|>hi<|end_of_text|>\n<|start_of_role|>assistant<|end_of_role|>';

  it('each tool line is the qwen dialect\'s line', () => {
    expect(qwenToolLine(T)).toBe(T_LINE);
    expect(GRANITE_4_0.catalog([T]).text).toBe(TOOLS_TEXT);
  });

  it('tools without instructions: the tools text is the system turn', () => {
    expect(GRANITE_4_0.prompt([T]).text).toBe(`<|start_of_role|>system<|end_of_role|>${TOOLS_TEXT}<|end_of_text|>\n${USER_HI}`);
  });

  it('instructions come first, a blank line, then the tools text', () => {
    expect(GRANITE_4_0.prompt([T], { instructions: 'Be brief.' }).text).toBe(`<|start_of_role|>system<|end_of_role|>Be brief.\n\n${TOOLS_TEXT}<|end_of_text|>\n${USER_HI}`);
  });

  it('no tools: the instructions alone, or the default system text', () => {
    expect(GRANITE_4_0.prompt([], { instructions: 'Be brief.' }).text).toBe(`<|start_of_role|>system<|end_of_role|>Be brief.<|end_of_text|>\n${USER_HI}`);
    expect(GRANITE_4_0.prompt([]).text).toBe(`<|start_of_role|>system<|end_of_role|>${DEFAULT}<|end_of_text|>\n${USER_HI}`);
  });

  it('consecutive tool results share one user turn; an unknown role prints nothing; a later system message is a turn', () => {
    const messages: FamilyMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'ok' },
      { role: 'tool', content: 'a' },
      { role: 'tool', content: 'b' },
      { role: 'ipython', content: 'c' },
      { role: 'system', content: 'late' },
    ];
    expect(GRANITE_4_0.prompt([], { messages }).text).toBe(
      `<|start_of_role|>system<|end_of_role|>${DEFAULT}<|end_of_text|>\n<|start_of_role|>user<|end_of_role|>hi<|end_of_text|>\n<|start_of_role|>assistant<|end_of_role|>ok<|end_of_text|>\n` +
        '<|start_of_role|>user<|end_of_role|>\n<tool_response>\na\n</tool_response>\n<tool_response>\nb\n</tool_response><|end_of_text|>\n<|start_of_role|>system<|end_of_role|>late<|end_of_text|>\n<|start_of_role|>assistant<|end_of_role|>',
    );
  });

  it('"</tools>" inside a line ends the block early: a family/unparseable warning', () => {
    const bad = tool('{"name": "f", "description": "see </tools> here"}');
    expect(GRANITE_4_0.prompt([bad]).diagnostics).toMatchObject([{ code: 'family/unparseable', severity: 'warning', tool: 'f', path: '/0/description' }]);
    expect(GRANITE_4_0.prompt([T]).diagnostics).toEqual([]);
  });
});

describe('what the UTF-8 encoding refuses: a lone surrogate', () => {
  const lone = tool(`{"name": "f", "description": "a"}`);
  const withSurrogate: ToolDefinition = { ...lone, description: 'a\ud83db' };

  it("fails as Python's encoder does, at the code point position in the whole text, naming the tool and pointer", () => {
    const e = failure(() => LLAMA_3_1.prompt([withSurrogate]));
    expect(e.diagnostics[0]).toMatchObject({ code: 'family/template-fails', tool: 'f', path: '/0/description' });
    expect(e.message).toContain("(Jinja2: UnicodeEncodeError: 'utf-8' codec can't encode character '\\ud83d' in position 554: surrogates not allowed)");
  });

  it('every family refuses it, in the prompt and in the catalog; one in the instructions names no tool', () => {
    for (const f of FAMILIES) {
      expect(failure(() => f.prompt([withSurrogate], { date: '2025-08-05' })).diagnostics[0].path).toBe('/0/description');
      expect(failure(() => f.catalog([withSurrogate])).message).toContain('UnicodeEncodeError');
      const e = failure(() => f.prompt([T], { instructions: 'x\udc00', date: '2025-08-05' }));
      expect(e.diagnostics[0].tool).toBeUndefined();
      expect(e.message).toContain("can't encode character '\\udc00'");
    }
  });
});

describe('dates: Python strftime in the C locale', () => {
  it('formats the two directives the templates use, and a few more', () => {
    const d = familyDate('2025-08-05');
    expect(pyStrftime(d, '%d %b %Y')).toBe('05 Aug 2025');
    expect(pyStrftime(d, '%B %d, %Y')).toBe('August 05, 2025');
    expect(pyStrftime(d, '%A %a %j %m/%y %%')).toBe('Tuesday Tue 217 08/25 %');
  });

  it('refuses a date that is not YYYY-MM-DD or not in the calendar', () => {
    for (const bad of ['2025-02-30', '5 Aug 2025', '2025-8-5']) expect(failure(() => familyDate(bad)).diagnostics[0].code).toBe('family/invalid-date');
    expect(failure(() => LLAMA_3_2.prompt([T], { date: '2025-13-01' })).diagnostics[0].code).toBe('family/invalid-date');
  });

  it('without a date option, today', () => {
    const now = new Date();
    expect(familyDate(undefined)).toEqual({ year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() });
  });
});
