/**
 * Kimi K2 (Instruct, Thinking), GLM-4.6, GLM-4.7-Flash, MiniMax-M2 and Nemotron Nano v2: the
 * differential run over the oracle sets (when ../shared is present), then hand-written cases for
 * each rule of each template. Every expected text below was printed by the real template:
 * `render.py <template-folder> IN.jsonl OUT.jsonl` for the tools/instructions cases, and the same
 * Jinja2 environment (render.py's `load`) given the listed `messages` for the conversation cases.
 */
import { describe, expect, it } from 'vitest';
import { isCompileError, type Diagnostic } from '../../src/diagnostics.js';
import { FAMILIES } from '../../src/emit/families/kimi-glm-minimax-nemotron.js';
import type { FamilyPrinter, FamilyPromptOptions } from '../../src/emit/families/types.js';
import { parseJson, type JsonValue } from '../../src/ir/json.js';
import { readTools } from '../../src/input/read.js';
import type { ToolDefinition } from '../../src/input/types.js';
import { OVERFLOW, describeFamily } from '../support/families.js';

// every family prints json.dumps of the tools: only the 1e400 case (Python's inf) cannot be read
const KNOWN = { 'raw-default-1e400-overflow': OVERFLOW };
for (const f of FAMILIES) describeFamily(f, KNOWN);

function family(name: string): FamilyPrinter {
  const f = FAMILIES.find((x) => x.name === name || x.aliases.includes(name));
  if (!f) throw new Error(`no family ${name}`);
  return f;
}

// `strict` is a tool-level key the template receives (it prints the tool object whole); 1.0 keeps its text; Zürich stays raw
const WEATHER = '{"name":"get_weather","description":"Get the weather.","parameters":{"type":"object","properties":{"city":{"type":"string","description":"Z\\u00fcrich"},"days":{"type":"number","default":1.0}},"required":["city"]},"strict":true}';
const PING = '{"name":"ping","description":"Say \\"hi\\"\\n","parameters":{}}';
const TWO_TOOLS = readTools(`[${WEATHER}, ${PING}]`).tools;
const BARE_PING = readTools('[{"name": "ping", "parameters": {}}]').tools;

// the same tools as the template prints them
const W_FN = '{"name": "get_weather", "description": "Get the weather.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "Zürich"}, "days": {"type": "number", "default": 1.0}}, "required": ["city"]}, "strict": true}';
const P_FN = '{"name": "ping", "description": "Say \\"hi\\"\\n", "parameters": {}}';
const W_WRAPPED = `{"type": "function", "function": ${W_FN}}`;
const P_WRAPPED = `{"type": "function", "function": ${P_FN}}`;

const INSTR = '  Be brief. /no_think\n';

/** A conversation touching every role: system (leading and late), user, assistant with reasoning, two tool results, an unknown role. */
const CONVERSATION: FamilyPromptOptions = {
  instructions: '  Be brief /think ',
  messages: [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: '<think>\nplan\n</think>\n\n hello ' },
    { role: 'user', content: 'again' },
    { role: 'system', content: 'late' },
    { role: 'assistant', content: 'x</think>y' },
    { role: 'tool', content: 'r1' },
    { role: 'tool', content: 'r2' },
    { role: 'developer', content: 'dev' },
    { role: 'user', content: 'u3' },
  ],
};

/** No tool results; the last assistant message comes after the last user message (its reasoning is shown); no generation prompt. */
const REASONING: FamilyPromptOptions = {
  addGenerationPrompt: false,
  messages: [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: '<think>\nplan\n</think>\n\n hello ' },
    { role: 'user', content: 'again' },
    { role: 'system', content: 'late' },
    { role: 'developer', content: 'dev' },
    { role: 'assistant', content: '<think>r</think>\nfinal' },
  ],
};

/** The conversation ends with an assistant message (a prefill). */
const PREFILL: FamilyPromptOptions = {
  messages: [
    { role: 'user', content: 'hi /no_think' },
    { role: 'assistant', content: ' <think>a</think> partial ' },
  ],
};

const NO_MESSAGES: FamilyPromptOptions = { messages: [] };

function text(name: string, tools: readonly ToolDefinition[], options?: FamilyPromptOptions): string {
  return family(name).prompt(tools, options).text;
}

/** The diagnostic a failing prompt throws. */
function failure(name: string, tools: readonly ToolDefinition[], options?: FamilyPromptOptions): Diagnostic {
  try {
    family(name).prompt(tools, options);
  } catch (e) {
    if (isCompileError(e)) return e.diagnostics[0];
    throw e;
  }
  throw new Error('no error');
}

describe('registry names', () => {
  it('lists the six families by their --model names, with their template folders', () => {
    expect(FAMILIES.map((f) => [f.name, f.template])).toEqual([
      ['kimi-k2', 'moonshotai-Kimi-K2-Instruct'],
      ['kimi-k2-thinking', 'moonshotai-Kimi-K2-Thinking'],
      ['glm-4.6', 'zai-org-GLM-4.6'],
      ['glm-4.7', 'zai-org-GLM-4.7-Flash'],
      ['minimax-m2', 'MiniMaxAI-MiniMax-M2'],
      ['nemotron-nano-2', 'NVIDIA-Nemotron-Nano-v2'],
    ]);
    expect(family('glm-4.7-flash')).toBe(family('glm-4.7'));
    expect(family('kimi-k2-instruct')).toBe(family('kimi-k2'));
    for (const f of FAMILIES) expect(f.source).toMatch(/@ [0-9a-f]{40}/);
  });
});

describe('kimi-k2 (Kimi K2 Instruct, July 2025)', () => {
  const DECLARE = `<|im_system|>tool_declare<|im_middle|>[${W_WRAPPED}, ${P_WRAPPED}]<|im_end|>`;
  it('declares the wrapped tools as one json.dumps list (default separators) before the default system turn (no full stop)', () => {
    expect(text('kimi-k2', TWO_TOOLS)).toBe(
      `${DECLARE}<|im_system|>system<|im_middle|>You are a helpful assistant<|im_end|><|im_user|>user<|im_middle|>hi<|im_end|><|im_assistant|>assistant<|im_middle|>`,
    );
    expect(family('kimi-k2').catalog(TWO_TOOLS).text).toBe(DECLARE);
  });
  it('prints the instructions as they are in place of the default; no tools, no declaration', () => {
    expect(text('kimi-k2', BARE_PING, { instructions: INSTR })).toBe(
      '<|im_system|>tool_declare<|im_middle|>[{"type": "function", "function": {"name": "ping", "parameters": {}}}]<|im_end|><|im_system|>system<|im_middle|>  Be brief. /no_think\n<|im_end|><|im_user|>user<|im_middle|>hi<|im_end|><|im_assistant|>assistant<|im_middle|>',
    );
    expect(text('kimi-k2', [], { instructions: 'Be brief.' })).toBe('<|im_system|>system<|im_middle|>Be brief.<|im_end|><|im_user|>user<|im_middle|>hi<|im_end|><|im_assistant|>assistant<|im_middle|>');
    expect(text('kimi-k2', [], { instructions: '' })).toBe('<|im_system|>system<|im_middle|>You are a helpful assistant<|im_end|><|im_user|>user<|im_middle|>hi<|im_end|><|im_assistant|>assistant<|im_middle|>');
    expect(family('kimi-k2').catalog([]).text).toBe('');
  });
  it('prints a tool result after a literal backslash-n, and an unknown role without a header', () => {
    expect(text('kimi-k2', [], CONVERSATION)).toBe(
      '<|im_system|>system<|im_middle|>  Be brief /think <|im_end|><|im_user|>user<|im_middle|>hi<|im_end|><|im_assistant|>assistant<|im_middle|><think>\nplan\n</think>\n\n hello <|im_end|><|im_user|>user<|im_middle|>again<|im_end|><|im_system|>system<|im_middle|>late<|im_end|><|im_assistant|>assistant<|im_middle|>x</think>y<|im_end|><|im_system|>tool<|im_middle|>## Return of \\nr1<|im_end|><|im_system|>tool<|im_middle|>## Return of \\nr2<|im_end|>dev<|im_end|><|im_user|>user<|im_middle|>u3<|im_end|><|im_assistant|>assistant<|im_middle|>',
    );
    expect(text('kimi-k2', [], REASONING)).toBe(
      '<|im_system|>system<|im_middle|>You are a helpful assistant<|im_end|><|im_user|>user<|im_middle|>hi<|im_end|><|im_assistant|>assistant<|im_middle|><think>\nplan\n</think>\n\n hello <|im_end|><|im_user|>user<|im_middle|>again<|im_end|><|im_system|>system<|im_middle|>late<|im_end|>dev<|im_end|><|im_assistant|>assistant<|im_middle|><think>r</think>\nfinal<|im_end|>',
    );
  });
  it('prints the default system turn inside the message loop: no messages, no system turn', () => {
    expect(text('kimi-k2', [], NO_MESSAGES)).toBe('<|im_assistant|>assistant<|im_middle|>');
  });
});

describe('kimi-k2-thinking', () => {
  const DECLARE =
    '<|im_system|>tool_declare<|im_middle|>[{"type":"function","function":{"name":"get_weather","description":"Get the weather.","parameters":{"type":"object","properties":{"city":{"type":"string","description":"Zürich"},"days":{"type":"number","default":1.0}},"required":["city"]},"strict":true}},{"type":"function","function":{"name":"ping","description":"Say \\"hi\\"\\n","parameters":{}}}]<|im_end|>';
  it("declares the tools with separators=(',', ':'), still non-ASCII raw and 1.0 kept, before the Kimi system turn", () => {
    expect(text('kimi-k2-thinking', TWO_TOOLS)).toBe(
      `${DECLARE}<|im_system|>system<|im_middle|>You are Kimi, an AI assistant created by Moonshot AI.<|im_end|><|im_user|>user<|im_middle|>hi<|im_end|><|im_assistant|>assistant<|im_middle|>`,
    );
    expect(family('kimi-k2-thinking').catalog(TWO_TOOLS).text).toBe(DECLARE);
    expect(text('kimi-k2-thinking', BARE_PING, { instructions: INSTR })).toBe(
      '<|im_system|>tool_declare<|im_middle|>[{"type":"function","function":{"name":"ping","parameters":{}}}]<|im_end|><|im_system|>system<|im_middle|>  Be brief. /no_think\n<|im_end|><|im_user|>user<|im_middle|>hi<|im_end|><|im_assistant|>assistant<|im_middle|>',
    );
  });
  it('opens assistant turns with <think></think>, names other roles in a system-token turn, and puts a real newline after `## Return of`', () => {
    expect(text('kimi-k2-thinking', [], CONVERSATION)).toBe(
      '<|im_system|>system<|im_middle|>  Be brief /think <|im_end|><|im_user|>user<|im_middle|>hi<|im_end|><|im_assistant|>assistant<|im_middle|><think></think><think>\nplan\n</think>\n\n hello <|im_end|><|im_user|>user<|im_middle|>again<|im_end|><|im_system|>system<|im_middle|>late<|im_end|><|im_assistant|>assistant<|im_middle|><think></think>x</think>y<|im_end|><|im_system|>tool<|im_middle|>## Return of \nr1<|im_end|><|im_system|>tool<|im_middle|>## Return of \nr2<|im_end|><|im_system|>developer<|im_middle|>dev<|im_end|><|im_user|>user<|im_middle|>u3<|im_end|><|im_assistant|>assistant<|im_middle|>',
    );
    expect(text('kimi-k2-thinking', [], PREFILL)).toBe(
      '<|im_system|>system<|im_middle|>You are Kimi, an AI assistant created by Moonshot AI.<|im_end|><|im_user|>user<|im_middle|>hi /no_think<|im_end|><|im_assistant|>assistant<|im_middle|><think></think> <think>a</think> partial <|im_end|><|im_assistant|>assistant<|im_middle|>',
    );
  });
  it('prints the default system turn even with no messages', () => {
    expect(text('kimi-k2-thinking', [], NO_MESSAGES)).toBe('<|im_system|>system<|im_middle|>You are Kimi, an AI assistant created by Moonshot AI.<|im_end|><|im_assistant|>assistant<|im_middle|>');
  });
});

const GLM_TOOLS_HEAD = '<|system|>\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>\n';
const GLM_CALL_INTRO = '</tools>\n\nFor each function call, output the function name and arguments within the following XML format:\n';

describe('glm-4.6', () => {
  const EXAMPLE = '<tool_call>{function-name}\n<arg_key>{arg-key-1}</arg_key>\n<arg_value>{arg-value-1}</arg_value>\n<arg_key>{arg-key-2}</arg_key>\n<arg_value>{arg-value-2}</arg_value>\n...\n</tool_call>';
  it("prints Qwen2.5's tool lines (one json.dumps of the wrapped tool a line) and a multi-line call example", () => {
    const block = `${GLM_TOOLS_HEAD}${W_WRAPPED}\n${P_WRAPPED}\n${GLM_CALL_INTRO}${EXAMPLE}`;
    expect(text('glm-4.6', TWO_TOOLS)).toBe(`[gMASK]<sop>${block}<|user|>\nhi<|assistant|>`);
    expect(family('glm-4.6').catalog(TWO_TOOLS).text).toBe(block);
  });
  it('prints the instructions as their own system turn after the tools turn, untouched', () => {
    expect(text('glm-4.6', BARE_PING, { instructions: INSTR })).toBe(
      `[gMASK]<sop>${GLM_TOOLS_HEAD}{"type": "function", "function": {"name": "ping", "parameters": {}}}\n${GLM_CALL_INTRO}${EXAMPLE}<|system|>\n  Be brief. /no_think\n<|user|>\nhi<|assistant|>`,
    );
    expect(text('glm-4.6', [], { instructions: 'Be brief.' })).toBe('[gMASK]<sop><|system|>\nBe brief.<|user|>\nhi<|assistant|>');
    expect(text('glm-4.6', [])).toBe('[gMASK]<sop><|user|>\nhi<|assistant|>');
  });
  it('cuts reasoning out of assistant text (shown only after the last user message), strips content, groups tool results', () => {
    expect(text('glm-4.6', [], CONVERSATION)).toBe(
      '[gMASK]<sop><|system|>\n  Be brief /think <|user|>\nhi<|assistant|>\n<think></think>\nhello<|user|>\nagain<|system|>\nlate<|assistant|>\n<think></think>\ny<|observation|>\n<tool_response>\nr1\n</tool_response>\n<tool_response>\nr2\n</tool_response><|user|>\nu3<|assistant|>',
    );
    expect(text('glm-4.6', [], REASONING)).toBe('[gMASK]<sop><|user|>\nhi<|assistant|>\n<think></think>\nhello<|user|>\nagain<|system|>\nlate<|assistant|>\n<think>r</think>\nfinal');
    expect(text('glm-4.6', [], PREFILL)).toBe('[gMASK]<sop><|user|>\nhi /no_think<|assistant|>\n<think>a</think>\npartial<|assistant|>');
    expect(text('glm-4.6', [], NO_MESSAGES)).toBe('[gMASK]<sop><|assistant|>');
    expect(text('glm-4.6', [], { messages: [{ role: 'tool', content: 'r' }] })).toBe('[gMASK]<sop><|observation|>\n<tool_response>\nr\n</tool_response><|assistant|>');
  });
});

describe('glm-4.7 (GLM-4.7-Flash)', () => {
  const EXAMPLE = '<tool_call>{function-name}<arg_key>{arg-key-1}</arg_key><arg_value>{arg-value-1}</arg_value><arg_key>{arg-key-2}</arg_key><arg_value>{arg-value-2}</arg_value>...</tool_call>';
  it('prints the same tool lines with a one-line call example; no newline after the headers; the generation prompt opens <think>', () => {
    const block = `${GLM_TOOLS_HEAD}${W_WRAPPED}\n${P_WRAPPED}\n${GLM_CALL_INTRO}${EXAMPLE}`;
    expect(text('glm-4.7', TWO_TOOLS)).toBe(`[gMASK]<sop>${block}<|user|>hi<|assistant|><think>`);
    expect(family('glm-4.7').catalog(TWO_TOOLS).text).toBe(block);
    expect(text('glm-4.7', BARE_PING, { instructions: INSTR })).toBe(
      `[gMASK]<sop>${GLM_TOOLS_HEAD}{"type": "function", "function": {"name": "ping", "parameters": {}}}\n${GLM_CALL_INTRO}${EXAMPLE}<|system|>  Be brief. /no_think\n<|user|>hi<|assistant|><think>`,
    );
    expect(text('glm-4.7', [], { instructions: 'Be brief.' })).toBe('[gMASK]<sop><|system|>Be brief.<|user|>hi<|assistant|><think>');
  });
  it('marks assistant turns without shown reasoning with </think>', () => {
    expect(text('glm-4.7', [], CONVERSATION)).toBe(
      '[gMASK]<sop><|system|>  Be brief /think <|user|>hi<|assistant|></think>hello<|user|>again<|system|>late<|assistant|></think>y<|observation|><tool_response>r1</tool_response><tool_response>r2</tool_response><|user|>u3<|assistant|><think>',
    );
    expect(text('glm-4.7', [], REASONING)).toBe('[gMASK]<sop><|user|>hi<|assistant|></think>hello<|user|>again<|system|>late<|assistant|><think>r</think>final');
    expect(text('glm-4.7', [], PREFILL)).toBe('[gMASK]<sop><|user|>hi /no_think<|assistant|><think>a</think>partial<|assistant|><think>');
  });
});

describe('minimax-m2', () => {
  const CALL =
    '\n\nWhen making tool calls, use XML format to invoke tools and pass parameters:\n\n<minimax:tool_call>\n<invoke name="tool-name-1">\n<parameter name="param-key-1">param-value-1</parameter>\n<parameter name="param-key-2">param-value-2</parameter>\n...\n</invoke>\n</minimax:tool_call>';
  const HEAD = '# Tools\nYou may call one or more tools to assist with the user query.\nHere are the tools available in JSONSchema format:\n\n<tools>\n';
  it('prints each bare function (no type wrapper) on its own <tool> line after the default identity', () => {
    const block = `${HEAD}<tool>${W_FN}</tool>\n<tool>${P_FN}</tool>\n</tools>${CALL}`;
    expect(text('minimax-m2', TWO_TOOLS)).toBe(`]~!b[]~b]system\nYou are a helpful assistant.\n\n${block}[e~[\n]~b]user\nhi[e~[\n]~b]ai\n<think>\n`);
    expect(family('minimax-m2').catalog(TWO_TOOLS).text).toBe(block);
  });
  it('puts the instructions in place of the identity, untouched', () => {
    expect(text('minimax-m2', BARE_PING, { instructions: INSTR })).toBe(
      `]~!b[]~b]system\n  Be brief. /no_think\n\n\n${HEAD}<tool>{"name": "ping", "parameters": {}}</tool>\n</tools>${CALL}[e~[\n]~b]user\nhi[e~[\n]~b]ai\n<think>\n`,
    );
    expect(text('minimax-m2', [], { instructions: 'Be brief.' })).toBe(']~!b[]~b]system\nBe brief.[e~[\n]~b]user\nhi[e~[\n]~b]ai\n<think>\n');
    expect(text('minimax-m2', [])).toBe(']~!b[]~b]system\nYou are a helpful assistant.[e~[\n]~b]user\nhi[e~[\n]~b]ai\n<think>\n');
    expect(text('minimax-m2', [], NO_MESSAGES)).toBe(']~!b[]~b]system\nYou are a helpful assistant.[e~[\n]~b]ai\n<think>\n');
  });
  it('drops later system messages and unknown roles; shows reasoning only after the last user message', () => {
    expect(text('minimax-m2', [], REASONING)).toBe(']~!b[]~b]system\nYou are a helpful assistant.[e~[\n]~b]user\nhi[e~[\n]~b]ai\n hello [e~[\n]~b]user\nagain[e~[\n]~b]ai\n<think>\nr\n</think>\n\nfinal[e~[\n');
    expect(text('minimax-m2', [], PREFILL)).toBe(']~!b[]~b]system\nYou are a helpful assistant.[e~[\n]~b]user\nhi /no_think[e~[\n]~b]ai\n<think>\na\n</think>\n\n partial [e~[\n]~b]ai\n<think>\n');
  });
  it('refuses a tool message (no earlier assistant tool call), as the template raises', () => {
    const d = failure('minimax-m2', TWO_TOOLS, CONVERSATION);
    expect(d.code).toBe('family/template-fails');
    expect(d.tool).toBeUndefined();
    expect(d.message).toContain('messages[6]');
    expect(d.message).toContain('(Jinja2: TemplateError: Message has tool role, but there was no previous assistant message with a tool call!)');
  });
});

describe('nemotron-nano-2', () => {
  const HOWTO =
    '</AVAILABLE_TOOLS>\n\nIf you decide to call any tool(s), use the following format:\n<TOOLCALL>[{{"name": "tool_name1", "arguments": "tool_args1"}}, {{"name": "tool_name2", "arguments": "tool_args2"}}]</TOOLCALL>\n\nThe user will execute tool-calls and return responses from tool(s) in this format:\n<TOOL_RESPONSE>[{{"tool_response1"}}, {{"tool_response2"}}]</TOOL_RESPONSE>\n\nBased on the tool responses, you can call additional tools if needed, correct tool calls if any errors are found, or just respond to the user.';
  const INTRO = 'You can use the following tools to assist the user if required:\n<AVAILABLE_TOOLS>[';
  it('lists the bare functions joined by ", "; no instructions, no blank line before the tools', () => {
    const block = `${INTRO}${W_FN}, ${P_FN}]${HOWTO}`;
    expect(text('nemotron-nano-2', TWO_TOOLS)).toBe(`<SPECIAL_10>System\n${block}\n\n<SPECIAL_11>User\nhi\n<SPECIAL_11>Assistant\n<think>\n`);
    expect(family('nemotron-nano-2').catalog(TWO_TOOLS).text).toBe(block);
    expect(text('nemotron-nano-2', [])).toBe('<SPECIAL_10>System\n\n\n<SPECIAL_11>User\nhi\n<SPECIAL_11>Assistant\n<think>\n');
  });
  it('strips the instructions and removes /no_think from them, which turns thinking off', () => {
    expect(text('nemotron-nano-2', BARE_PING, { instructions: INSTR })).toBe(
      `<SPECIAL_10>System\nBe brief.\n\n${INTRO}{"name": "ping", "parameters": {}}]${HOWTO}\n\n<SPECIAL_11>User\nhi\n<SPECIAL_11>Assistant\n<think></think>`,
    );
    expect(text('nemotron-nano-2', [], { instructions: 'Be brief.' })).toBe('<SPECIAL_10>System\nBe brief.\n\n<SPECIAL_11>User\nhi\n<SPECIAL_11>Assistant\n<think>\n');
  });
  it('keeps only the text after </think> in assistant turns, groups tool results in one list, drops later system messages', () => {
    expect(text('nemotron-nano-2', [], CONVERSATION)).toBe(
      '<SPECIAL_10>System\nBe brief\n\n<SPECIAL_11>User\nhi\n<SPECIAL_11>Assistant\nhello\n<SPECIAL_12>\n<SPECIAL_11>User\nagain\n<SPECIAL_11>Assistant\ny\n<SPECIAL_12>\n<SPECIAL_11>User\n<TOOL_RESPONSE>[r1, r2]</TOOL_RESPONSE><SPECIAL_11>User\nu3\n<SPECIAL_11>Assistant\n<think>\n',
    );
    expect(text('nemotron-nano-2', [], { messages: [{ role: 'tool', content: 'r' }] })).toBe('<SPECIAL_10>System\n\n\n<SPECIAL_11>User\n<TOOL_RESPONSE>[r]</TOOL_RESPONSE><SPECIAL_11>Assistant\n<think>\n');
  });
  it('continues a final assistant message after the generation prompt (stripped, </think> kept), or closes it without one', () => {
    expect(text('nemotron-nano-2', [], PREFILL)).toBe('<SPECIAL_10>System\n\n\n<SPECIAL_11>User\nhi\n<SPECIAL_11>Assistant\n<think></think><think>a</think> partial');
    expect(text('nemotron-nano-2', [], REASONING)).toBe(
      '<SPECIAL_10>System\n\n\n<SPECIAL_11>User\nhi\n<SPECIAL_11>Assistant\nhello\n<SPECIAL_12>\n<SPECIAL_11>User\nagain\n<SPECIAL_11>Assistant\n<think>\n<think>r</think>\nfinal\n<SPECIAL_12>\n',
    );
  });
  it('fails as the template does without a message to read', () => {
    expect(failure('nemotron-nano-2', [], NO_MESSAGES).message).toContain('(Jinja2: UndefinedError: list object has no element 0)');
    expect(failure('nemotron-nano-2', [], { instructions: 's', messages: [] }).message).toContain('(Jinja2: UndefinedError: list object has no element -1)');
  });
});

describe('a lone surrogate (UnicodeEncodeError when the prompt is written as UTF-8)', () => {
  // only reachable from JavaScript values: JSON text with one is refused by the reader
  const description: JsonValue = 'bad \ud83d here';
  const params = new Map<string, JsonValue>([
    ['type', 'object'],
    ['properties', new Map<string, JsonValue>([['x', new Map<string, JsonValue>([['type', 'string'], ['description', description]])]])],
  ]);
  const tools: ToolDefinition[] = [
    { name: 'ping', parameters: parseJson('{}'), format: 'bare', pointer: '/0', parametersPointer: '/0/parameters' },
    { name: 'f', description: 'Test tool.', parameters: params, format: 'bare', pointer: '/1', parametersPointer: '/1/parameters' },
  ];
  // the position is the character index in the whole prompt, as Python counts it
  const positions: [string, number][] = [
    ['kimi-k2', 277],
    ['kimi-k2-thinking', 255],
    ['glm-4.6', 419],
    ['glm-4.7', 419],
    ['minimax-m2', 365],
    ['nemotron-nano-2', 272],
  ];
  it.each(positions)('%s names the tool, the pointer and Python\'s error', (name, position) => {
    const d = failure(name, tools);
    expect(d.code).toBe('family/template-fails');
    expect(d.tool).toBe('f');
    expect(d.path).toBe('/1/parameters/properties/x/description');
    expect(d.message).toContain(`(Jinja2: UnicodeEncodeError: 'utf-8' codec can't encode character '\\ud83d' in position ${position}: surrogates not allowed)`);
  });
  it('says so without a tool when the surrogate is in the instructions', () => {
    const k = failure('kimi-k2', [], { instructions: 'x \ud83d' });
    expect(k.tool).toBeUndefined();
    expect(k.message).toContain("in position 34: surrogates not allowed");
    expect(failure('nemotron-nano-2', [], { instructions: 'x \ud83d' }).message).toContain("in position 21: surrogates not allowed");
  });
});
