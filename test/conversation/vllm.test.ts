/**
 * The vLLM profile's rules, one case each, without ../shared: expected bytes worked out by hand
 * from spec conversations §A.1/§A.2 (and checked against the oracle's rendering of similar rows).
 */
import { describe, expect, it } from 'vitest';
import { CompileError, type Diagnostic } from '../../src/diagnostics.js';
import { readConversation } from '../../src/conversation/read.js';
import type { MessageFormat, ServerPrompt, ServerRequest } from '../../src/conversation/types.js';
import { renderVllm } from '../../src/conversation/vllm.js';
import { readTools } from '../../src/input/read.js';
import { fromJs } from '../../src/ir/json.js';
import { lowerTool } from '../../src/lower/index.js';

const DATE = '2025-01-02';
const TIME_TOOL = { type: 'function', function: { name: 'get_time', description: 'Current time in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } };
const CATALOG = '# Tools\n\n## functions\n\nnamespace functions {\n\n// Current time in a city\ntype get_time = (_: {\ncity: string,\n}) => any;\n\n} // namespace functions';

/** The system message vLLM writes for DATE. */
function sys(effort = 'medium', tools = false): string {
  const routing = tools ? "\nCalls to these tools must go to the commentary channel: 'functions'." : '';
  return `<|start|>system<|message|>You are ChatGPT, a large language model trained by OpenAI.\nKnowledge cutoff: 2024-06\nCurrent date: ${DATE}\n\nReasoning: ${effort}\n\n# Valid channels: analysis, commentary, final. Channel must be included for every message.${routing}<|end|>`;
}
const dev = (content: string) => `<|start|>developer<|message|>${content}<|end|>`;
const GEN = '<|start|>assistant';

interface Options {
  readonly format?: MessageFormat;
  readonly tools?: unknown[];
  readonly effort?: unknown;
  readonly toolChoice?: unknown;
  readonly builtinTools?: ('browser' | 'python')[];
  readonly instructions?: string;
}

function request(messages: unknown, o: Options = {}): ServerRequest {
  const { conversation } = readConversation(messages, { format: o.format ?? 'auto', pointer: o.format === 'responses' ? '/input' : '/messages' });
  const read = o.tools !== undefined && o.tools.length ? readTools(o.tools) : { tools: [], diagnostics: [] };
  return {
    conversation: o.instructions !== undefined ? { ...conversation, instructions: o.instructions, instructionsPointer: o.format === 'anthropic' ? '/system' : '/instructions' } : conversation,
    tools: { definitions: read.tools, tools: read.tools.map((t) => lowerTool(t).tool) },
    toolsGiven: o.tools === undefined ? 'absent' : o.tools.length ? 'some' : 'empty',
    date: DATE,
    ...(o.effort !== undefined ? { effort: fromJs(o.effort) } : {}),
    ...(o.toolChoice !== undefined ? { toolChoice: fromJs(o.toolChoice) } : {}),
    ...(o.builtinTools !== undefined ? { builtinTools: o.builtinTools } : {}),
  };
}
const vllm = (messages: unknown, o: Options = {}): ServerPrompt => renderVllm(request(messages, o));

/** The diagnostics of the CompileError a render throws. */
function refusal(messages: unknown, o: Options = {}): readonly Diagnostic[] {
  try {
    vllm(messages, o);
  } catch (e) {
    expect(e).toBeInstanceOf(CompileError);
    return (e as CompileError).diagnostics;
  }
  throw new Error('expected vLLM to refuse this request');
}

const codes = (p: ServerPrompt, code: string) => p.diagnostics.filter((d) => d.code === code).map((d) => d.path);

const call = (id: string, name: string, args: string) => ({ id, type: 'function', function: { name, arguments: args } });

describe('vLLM preamble', () => {
  it('system message with date and default effort; no developer message without instructions or tools', () => {
    expect(vllm([{ role: 'user', content: 'Hi' }]).text).toBe(`${sys()}<|start|>user<|message|>Hi<|end|>${GEN}`);
  });

  it('the first system message becomes # Instructions, with no trailing blank line', () => {
    const p = vllm([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }]);
    expect(p.text).toBe(`${sys()}${dev('# Instructions\n\nBe brief.')}<|start|>user<|message|>Hi<|end|>${GEN}`);
    expect(p.developer).toBe('# Instructions\n\nBe brief.');
  });

  it('a first developer message with text parts: parts joined, then the tools; the routing line in the system message', () => {
    const p = vllm([{ role: 'developer', content: [{ type: 'text', text: 'Use ' }, { type: 'text', text: 'tools.' }] }, { role: 'user', content: 'Hi' }], { tools: [TIME_TOOL] });
    expect(p.text).toBe(`${sys('medium', true)}${dev(`# Instructions\n\nUse tools.\n\n${CATALOG}`)}<|start|>user<|message|>Hi<|end|>${GEN}`);
    expect(p.catalog).toBe(CATALOG);
  });

  it('tools without instructions: the developer message holds the tools only', () => {
    expect(vllm([{ role: 'user', content: 'Hi' }], { tools: [TIME_TOOL] }).text).toBe(`${sys('medium', true)}${dev(CATALOG)}<|start|>user<|message|>Hi<|end|>${GEN}`);
  });

  it('an empty first system message: an empty # Instructions heading with tools, no developer message without', () => {
    expect(vllm([{ role: 'system', content: '' }, { role: 'user', content: 'Hi' }], { tools: [TIME_TOOL] }).text).toBe(`${sys('medium', true)}${dev(`# Instructions\n\n\n\n${CATALOG}`)}<|start|>user<|message|>Hi<|end|>${GEN}`);
    const p = vllm([{ role: 'system', content: '' }, { role: 'user', content: 'Hi' }]);
    expect(p.text).toBe(`${sys()}<|start|>user<|message|>Hi<|end|>${GEN}`);
    expect(codes(p, 'conversation/dropped-message')).toEqual(['/messages/0']);
  });

  it('later system and developer messages are extra developer messages where they stand', () => {
    const p = vllm([
      { role: 'system', content: 'First.' },
      { role: 'user', content: 'Hi' },
      { role: 'system', content: 'Second.' },
      { role: 'developer', content: 'Third.' },
      { role: 'user', content: 'Again' },
    ]);
    expect(p.text).toBe(
      `${sys()}${dev('# Instructions\n\nFirst.')}<|start|>user<|message|>Hi<|end|>${dev('# Instructions\n\nSecond.')}${dev('# Instructions\n\nThird.')}<|start|>user<|message|>Again<|end|>${GEN}`,
    );
  });

  it('reasoning effort low/high is written; absent is medium', () => {
    expect(vllm([{ role: 'user', content: 'Hi' }], { effort: 'high' }).text).toBe(`${sys('high')}<|start|>user<|message|>Hi<|end|>${GEN}`);
    expect(vllm([{ role: 'user', content: 'Hi' }], { effort: 'low' }).system).toContain('Reasoning: low');
  });

  it('builtin tools never reach a Chat Completions prompt (supports_browsing is off), with a warning', () => {
    const p = vllm([{ role: 'user', content: 'Hi' }], { builtinTools: ['browser', 'python'] });
    expect(p.text).toBe(`${sys()}<|start|>user<|message|>Hi<|end|>${GEN}`);
    expect(codes(p, 'conversation/ignored-option')).toEqual(['']);
  });

  it('tool_choice "none" keeps the tools (an info says why)', () => {
    const p = vllm([{ role: 'user', content: 'Hi' }], { tools: [TIME_TOOL], toolChoice: 'none' });
    expect(p.catalog).toBe(CATALOG);
    expect(p.diagnostics).toContainEqual(expect.objectContaining({ code: 'conversation/tool-choice', severity: 'info' }));
  });
});

describe('vLLM per-message mapping (Chat Completions)', () => {
  it('user content parts are concatenated; a non-text part gives nothing and a warning', () => {
    const p = vllm([{ role: 'user', content: [{ type: 'text', text: 'A' }, { type: 'image_url', image_url: { url: 'https://example.com/x.png' } }, { type: 'text', text: 'B' }] }]);
    expect(p.text).toBe(`${sys()}<|start|>user<|message|>AB<|end|>${GEN}`);
    expect(codes(p, 'conversation/content-part-dropped')).toEqual(['/messages/0/content/1']);
  });

  it('a user name is ignored, with a warning', () => {
    const p = vllm([{ role: 'user', name: 'ann', content: 'Hi' }]);
    expect(p.text).toBe(`${sys()}<|start|>user<|message|>Hi<|end|>${GEN}`);
    expect(codes(p, 'conversation/ignored-field')).toEqual(['/messages/0/name']);
  });

  const TURN = [
    { role: 'user', content: 'Time in Oslo?' },
    { role: 'assistant', content: 'Checking.', reasoning: 'Need get_time.', tool_calls: [call('c1', 'get_time', '{"city": "Oslo"}')] },
    { role: 'tool', tool_call_id: 'c1', content: '10:00' },
  ];
  const TURN_TEXT =
    '<|start|>user<|message|>Time in Oslo?<|end|>' +
    '<|start|>assistant<|channel|>commentary<|message|>Checking.<|end|>' +
    '<|start|>assistant<|channel|>analysis<|message|>Need get_time.<|end|>' +
    '<|start|>assistant to=functions.get_time<|channel|>commentary json<|message|>{"city": "Oslo"}<|call|>' +
    '<|start|>functions.get_time to=assistant<|channel|>commentary<|message|>10:00<|end|>';

  it('a tool turn: the preamble before the analysis, the call on commentary json, the result named from tool_call_id', () => {
    const p = vllm(TURN, { tools: [TIME_TOOL] });
    expect(p.text).toBe(`${sys('medium', true)}${dev(CATALOG)}${TURN_TEXT}${GEN}`);
    expect(p.messages).toEqual([
      { role: 'user', content: 'Time in Oslo?' },
      { role: 'assistant', channel: 'commentary', content: 'Checking.' },
      { role: 'assistant', channel: 'analysis', content: 'Need get_time.' },
      { role: 'assistant', recipient: 'functions.get_time', channel: 'commentary', contentType: 'json', content: '{"city": "Oslo"}' },
      { role: 'tool', name: 'functions.get_time', recipient: 'assistant', channel: 'commentary', content: '10:00' },
    ]);
    expect(p.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
  });

  it('once a final answer follows, the turn\'s reasoning is dropped (a warning at its pointer)', () => {
    const p = vllm([...TURN, { role: 'assistant', content: 'It is 10:00.' }], { tools: [TIME_TOOL] });
    expect(p.text).toBe(`${sys('medium', true)}${dev(CATALOG)}${TURN_TEXT.replace('<|start|>assistant<|channel|>analysis<|message|>Need get_time.<|end|>', '')}<|start|>assistant<|channel|>final<|message|>It is 10:00.<|end|>${GEN}`);
    expect(codes(p, 'conversation/dropped-reasoning')).toEqual(['/messages/1/reasoning']);
  });

  it('a new user message without a final answer keeps the open reasoning', () => {
    const p = vllm([...TURN, { role: 'user', content: 'And Rome?' }], { tools: [TIME_TOOL] });
    expect(p.text).toContain('<|channel|>analysis<|message|>Need get_time.<|end|>');
    expect(codes(p, 'conversation/dropped-reasoning')).toEqual([]);
  });

  it('several calls: one message each; arguments verbatim (never re-encoded)', () => {
    const p = vllm([{ role: 'user', content: 'x' }, { role: 'assistant', content: null, tool_calls: [call('a', 'f', '{ "k" :1 }'), call('b', 'g', 'not json')] }]);
    expect(p.text).toBe(
      `${sys()}<|start|>user<|message|>x<|end|><|start|>assistant to=functions.f<|channel|>commentary json<|message|>{ "k" :1 }<|call|><|start|>assistant to=functions.g<|channel|>commentary json<|message|>not json<|call|>${GEN}`,
    );
  });

  it('tool results are named through tool_call_id over all calls: later duplicates win, a result before its call is named too', () => {
    const p = vllm([
      { role: 'user', content: 'x' },
      { role: 'tool', tool_call_id: 'early', content: 'r0' },
      { role: 'assistant', tool_calls: [call('dup', 'first', '{}'), call('early', 'e', '{}')] },
      { role: 'tool', tool_call_id: 'dup', content: 'r1' },
      { role: 'assistant', tool_calls: [call('dup', 'second', '{}')] },
      { role: 'tool', tool_call_id: 'dup', content: 'r2' },
    ]);
    expect(p.messages!.filter((m) => m.role === 'tool').map((m) => m.name)).toEqual(['functions.e', 'functions.second', 'functions.second']);
  });

  it('an unknown, missing or null tool_call_id names the result "functions." with a warning', () => {
    const p = vllm([
      { role: 'user', content: 'x' },
      { role: 'assistant', tool_calls: [call('c1', 'f', '{}')] },
      { role: 'tool', tool_call_id: 'nope', content: 'a' },
      { role: 'tool', content: 'b' },
      { role: 'tool', tool_call_id: null, content: 'c' },
    ]);
    expect(p.text).toContain('<|start|>functions. to=assistant<|channel|>commentary<|message|>a<|end|><|start|>functions. to=assistant<|channel|>commentary<|message|>b<|end|>');
    expect(codes(p, 'conversation/unknown-tool-call-id')).toEqual(['/messages/2/tool_call_id', '/messages/3/role', '/messages/4/tool_call_id']);
  });

  it('tool result content: parts joined, empty list → empty text', () => {
    const p = vllm([
      { role: 'assistant', tool_calls: [call('c', 'f', '{}')] },
      { role: 'tool', tool_call_id: 'c', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
      { role: 'tool', tool_call_id: 'c', content: [] },
    ]);
    expect(p.messages!.slice(1).map((m) => m.content)).toEqual(['ab', '']);
  });

  it('reasoning_content is read as reasoning when reasoning is absent (a warning says so); reasoning wins when both are set', () => {
    const open = (extra: object) => [{ role: 'user', content: 'x' }, { role: 'assistant', content: '', ...extra }];
    const renamed = vllm(open({ reasoning_content: 'R' }));
    expect(renamed.text).toBe(`${sys()}<|start|>user<|message|>x<|end|><|start|>assistant<|channel|>analysis<|message|>R<|end|>${GEN}`);
    expect(codes(renamed, 'conversation/reasoning-content-renamed')).toEqual(['/messages/1/reasoning_content']);
    const both = vllm(open({ reasoning: 'kept', reasoning_content: 'lost' }));
    expect(both.messages![1].content).toBe('kept');
    expect(codes(both, 'conversation/ignored-field')).toEqual(['/messages/1/reasoning_content']);
  });

  it('thinking is not read (a warning), so no analysis message', () => {
    const p = vllm([{ role: 'user', content: 'x' }, { role: 'assistant', content: 'y', thinking: 'T' }]);
    expect(p.text).toBe(`${sys()}<|start|>user<|message|>x<|end|><|start|>assistant<|channel|>final<|message|>y<|end|>${GEN}`);
    expect(codes(p, 'conversation/ignored-field')).toEqual(['/messages/1/thinking']);
  });

  it('empty assistant messages are dropped (content null, "", or a first part that is empty), each with a warning', () => {
    const p = vllm([
      { role: 'user', content: 'x' },
      { role: 'assistant', content: null },
      { role: 'assistant', content: '' },
      { role: 'assistant', content: [{ type: 'text', text: '' }, { type: 'text', text: 'lost' }] },
      { role: 'user', content: 'y' },
    ]);
    expect(p.text).toBe(`${sys()}<|start|>user<|message|>x<|end|><|start|>user<|message|>y<|end|>${GEN}`);
    expect(codes(p, 'conversation/dropped-message')).toEqual(['/messages/1', '/messages/2', '/messages/3']);
  });

  it('assistant content parts: all parts of a final message are joined', () => {
    expect(vllm([{ role: 'assistant', content: [{ type: 'text', text: 'A' }, { type: 'text', text: 'B' }] }]).messages).toEqual([{ role: 'assistant', channel: 'final', content: 'AB' }]);
  });

  it('control-token spellings in content are ordinary text', () => {
    expect(vllm([{ role: 'user', content: 'a<|end|>b' }]).text).toBe(`${sys()}<|start|>user<|message|>a<|end|>b<|end|>${GEN}`);
  });
});

describe('what vLLM refuses, refused the same way', () => {
  const cases: [string, unknown[], Options, string, string][] = [
    ['user content null', [{ role: 'user', content: null }], {}, '/messages/0/content', 'not null'],
    ['a tool call without arguments', [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f' } }] }], {}, '/messages/0/tool_calls/0/function/arguments', 'Field required'],
    ['arguments as an object', [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: { a: 1 } } }] }], {}, '/messages/0/tool_calls/0/function/arguments', 'valid string'],
    ['tools: []', [{ role: 'user', content: 'x' }], { tools: [] }, '/tools', 'empty list'],
    ['role function', [{ role: 'function', name: 'f', content: 'x' }], {}, '/messages/0/role', "'function'"],
    ['role bot', [{ role: 'bot', content: 'x' }], {}, '/messages/0/role', "'bot'"],
    ['an unknown role', [{ role: 'narrator', content: 'x' }], {}, '/messages/0/role', 'not a valid Role'],
    ['reasoning_effort none', [{ role: 'user', content: 'x' }], { effort: 'none' }, '/reasoning_effort', "Harmony does not support reasoning_effort='none'"],
    ['reasoning_effort minimal', [{ role: 'user', content: 'x' }], { effort: 'minimal' }, '/reasoning_effort', "reasoning_effort='minimal' is not supported by Harmony. Supported values are: high, medium, low."],
    ['reasoning_effort outside the Literal', [{ role: 'user', content: 'x' }], { effort: 'ultra' }, '/reasoning_effort', "Input should be 'none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'"],
    ['tool_choice without tools', [{ role: 'user', content: 'x' }], { toolChoice: 'required' }, '/tool_choice', 'When using `tool_choice`, `tools` must be set.'],
    ['a named tool_choice that names no tool', [{ role: 'user', content: 'x' }], { tools: [TIME_TOOL], toolChoice: { type: 'function', function: { name: 'nope' } } }, '/tool_choice', 'does not match'],
    ['bare strings as content parts', [{ role: 'user', content: ['a', 'b'] }], {}, '/messages/0/content/0', 'bare string'],
  ];
  for (const [name, messages, options, path, text] of cases) {
    it(name, () => {
      const d = refusal(messages, options);
      const hit = d.find((x) => x.severity === 'error' && x.path === path);
      expect(hit?.code).toBe('conversation/refused');
      expect(hit?.message).toContain(text);
    });
  }

  it('one CompileError carries every problem', () => {
    const d = refusal([{ role: 'user', content: null }, { role: 'bot', content: 'x' }], { effort: 'none' });
    expect(d.filter((x) => x.severity === 'error').map((x) => x.path)).toEqual(['/reasoning_effort', '/messages/0/content', '/messages/1/role']);
  });
});

describe('vLLM Responses input items (§A.2)', () => {
  const R = { format: 'responses' as const };

  it('instructions, message items with input_text parts, a call, its output (named by call_id), an open reasoning item', () => {
    const p = vllm(
      [
        { role: 'user', content: [{ type: 'input_text', text: 'Time in Rome?' }] },
        { type: 'reasoning', content: [{ type: 'reasoning_text', text: 'look' }, { type: 'reasoning_text', text: 'it up' }] },
        { type: 'function_call', call_id: 'k1', name: 'get_time', arguments: '{"city":"Rome"}' },
        { type: 'function_call_output', call_id: 'k1', output: '09:00' },
      ],
      { ...R, tools: [TIME_TOOL], instructions: 'Be brief.', effort: 'low' },
    );
    expect(p.text).toBe(
      `${sys('low', true)}${dev(`# Instructions\n\nBe brief.\n\n${CATALOG}`)}` +
        '<|start|>user<|message|>Time in Rome?<|end|>' +
        '<|start|>assistant<|channel|>analysis<|message|>look\nit up<|end|>' +
        '<|start|>assistant to=functions.get_time<|channel|>commentary json<|message|>{"city":"Rome"}<|call|>' +
        `<|start|>functions.get_time to=assistant<|channel|>commentary<|message|>09:00<|end|>${GEN}`,
    );
  });

  it('a string input is one user message; a first system item gives the instructions', () => {
    expect(vllm('Hello', R).text).toBe(`${sys()}<|start|>user<|message|>Hello<|end|>${GEN}`);
    expect(vllm([{ role: 'system', content: 'Rule.' }, { role: 'user', content: 'Hi' }], R).text).toBe(`${sys()}${dev('# Instructions\n\nRule.')}<|start|>user<|message|>Hi<|end|>${GEN}`);
  });

  it('an assistant message item is a final message even when empty', () => {
    expect(vllm([{ role: 'assistant', content: '' }], R).messages).toEqual([{ role: 'assistant', channel: 'final', content: '' }]);
  });

  it('builtin tools of the Responses API are written in the system message', () => {
    const p = vllm('Plot it', { ...R, builtinTools: ['python'] });
    expect(p.system).toContain('# Tools\n\n## python\n\nUse this tool to execute Python code');
    expect(p.system).not.toContain("Calls to these tools must go to the commentary channel: 'functions'.");
  });

  it('only openai-harmony drops analysis here: before the first final, when the conversation ends with a final', () => {
    const p = vllm(
      [
        { role: 'user', content: 'q1' },
        { type: 'reasoning', content: [{ type: 'reasoning_text', text: 'r1' }] },
        { role: 'assistant', content: 'a1' },
        { role: 'user', content: 'q2' },
        { type: 'reasoning', content: [{ type: 'reasoning_text', text: 'r2' }] },
        { role: 'assistant', content: 'a2' },
      ],
      R,
    );
    expect(p.messages!.filter((m) => m.channel === 'analysis').map((m) => m.content)).toEqual(['r2']);
    expect(codes(p, 'conversation/dropped-reasoning')).toEqual(['/input/1']);
  });

  it('refusals: an output with no earlier call, an unknown item type, effort none', () => {
    expect(refusal([{ type: 'function_call_output', call_id: 'zz', output: 'x' }], R)[0].message).toContain('No call message found for zz');
    expect(refusal([{ type: 'item_reference', id: 'x' }], R)[0].message).toContain('Unknown input type: item_reference');
    expect(refusal('Hi', { ...R, effort: 'none' })[0].message).toContain("reasoning_effort='none' is not supported by Harmony");
  });
});

describe('vLLM Anthropic messages (through vLLM\'s own conversion to chat)', () => {
  it('render the same bytes as the equivalent Chat Completions request', () => {
    const anthropic = vllm(
      [
        { role: 'user', content: 'Time in Oslo?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Need get_time.', signature: 'sig' },
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'tu1', name: 'get_time', input: { city: 'Oslo' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu1', content: '10:00' }] },
      ],
      { format: 'anthropic', instructions: 'Be brief.', tools: [TIME_TOOL] },
    );
    const chat = vllm(
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Time in Oslo?' },
        { role: 'assistant', content: 'Checking.', reasoning: 'Need get_time.', tool_calls: [call('tu1', 'get_time', '{"city": "Oslo"}')] },
        { role: 'tool', tool_call_id: 'tu1', content: '10:00' },
      ],
      { tools: [TIME_TOOL] },
    );
    expect(anthropic.text).toBe(chat.text);
    // warnings point at the Anthropic item, not at fields it does not have
    expect(anthropic.diagnostics.every((d) => !d.path.includes('reasoning'))).toBe(true);
  });
});

describe('vLLM Harmony-native messages (rendered as given)', () => {
  it('messages equivalent to a chat conversation render the same bytes', () => {
    const chat = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Time in Oslo?' },
      { role: 'assistant', content: 'Checking.', reasoning: 'Need get_time.', tool_calls: [call('c1', 'get_time', '{"city": "Oslo"}')] },
      { role: 'tool', tool_call_id: 'c1', content: '10:00' },
      { role: 'assistant', content: 'It is 10:00.', reasoning: 'Done.' },
      { role: 'user', content: 'Thanks' },
    ];
    const harmony = [
      { role: 'developer', content: 'Be brief.' },
      { role: 'user', content: 'Time in Oslo?' },
      { role: 'assistant', channel: 'commentary', content: 'Checking.' },
      { role: 'assistant', channel: 'analysis', content: 'Need get_time.' },
      { role: 'assistant', recipient: 'functions.get_time', channel: 'commentary', content_type: 'json', content: '{"city": "Oslo"}' },
      { role: 'tool', name: 'functions.get_time', recipient: 'assistant', channel: 'commentary', content: '10:00' },
      { role: 'assistant', channel: 'analysis', content: 'Done.' },
      { role: 'assistant', channel: 'final', content: [{ type: 'text', text: 'It is ' }, { type: 'text', text: '10:00.' }] },
      { role: 'user', content: 'Thanks' },
    ];
    const a = vllm(chat, { tools: [TIME_TOOL] });
    const b = vllm(harmony, { tools: [TIME_TOOL] });
    expect(request(harmony).conversation.format).toBe('harmony');
    expect(b.text).toBe(a.text);
    expect(b.messages).toEqual(a.messages);
  });

  it('every field is kept, and only openai-harmony\'s analysis dropping applies (analysis between two finals stays)', () => {
    const p = vllm([
      { role: 'user', content: 'q' },
      { role: 'assistant', channel: 'final', content: 'a1' },
      { role: 'assistant', channel: 'analysis', content: 'r2' },
      { role: 'assistant', channel: 'final', content: 'a2' },
      { role: 'assistant', recipient: 'browser.search', channel: 'analysis', content_type: '<|constrain|>json', content: '{}' },
    ]);
    expect(p.text).toBe(
      `${sys()}<|start|>user<|message|>q<|end|><|start|>assistant<|channel|>final<|message|>a1<|end|><|start|>assistant<|channel|>analysis<|message|>r2<|end|><|start|>assistant<|channel|>final<|message|>a2<|end|>` +
        `<|start|>assistant to=browser.search<|channel|>analysis <|constrain|>json<|message|>{}<|call|>${GEN}`,
    );
  });

  it('a role openai-harmony does not know is refused', () => {
    expect(refusal([{ role: 'narrator', channel: 'final', content: 'x' }])[0].path).toBe('/messages/0/role');
  });
});
