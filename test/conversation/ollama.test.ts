/**
 * Ollama's /v1/chat/completions for gpt-oss (src/conversation/ollama.ts): each rule of
 * openai.FromChatRequest, ChatHandler, template.collate and the gpt-oss Go template, with
 * expected prompts written by hand from that template (x/create/client/create.go
 * `gptossDefaultTemplate`, Ollama main @fb30760). These cases run without ../shared.
 */
import { describe, expect, it } from 'vitest';
import { renderOllama } from '../../src/conversation/ollama.js';
import type { ServerPrompt, ServerRequest } from '../../src/conversation/types.js';
import { CompileError, isCompileError, type Diagnostic } from '../../src/diagnostics.js';
import { readTools } from '../../src/input/read.js';
import { fromJs, getKey, isJsonArray, type JsonValue } from '../../src/ir/json.js';
import { lowerTool } from '../../src/lower/index.js';
import { HAVE_SHARED, readJsonl, sharedMissingNote, sharedPath } from '../support/shared.js';

const WEATHER = { type: 'function', function: { name: 'get_weather', description: 'Get the current weather', parameters: { type: 'object', properties: { location: { type: 'string', description: 'City name' } }, required: ['location'] } } };

interface Options {
  tools?: unknown[];
  effort?: unknown;
  date?: string;
  toolChoice?: unknown;
}

/** A request from plain values (messages as a client sends them). */
function request(messages: unknown[], o: Options = {}): ServerRequest {
  const items = fromJs(messages) as readonly JsonValue[];
  const definitions = o.tools && o.tools.length ? readTools(o.tools).tools : [];
  return {
    conversation: { format: 'chat', items, pointers: items.map((_, i) => `/messages/${i}`) },
    tools: { definitions, tools: definitions.map((d) => lowerTool(d).tool) },
    toolsGiven: o.tools === undefined ? 'absent' : o.tools.length ? 'some' : 'empty',
    date: o.date ?? '2025-08-05',
    ...(o.effort !== undefined ? { effort: fromJs(o.effort) } : {}),
    ...(o.toolChoice !== undefined ? { toolChoice: fromJs(o.toolChoice) } : {}),
  };
}

function render(messages: unknown[], o: Options = {}): ServerPrompt {
  return renderOllama(request(messages, o));
}

/** The refusal a request gets. */
function refusal(messages: unknown[], o: Options = {}): Diagnostic {
  try {
    render(messages, o);
  } catch (e) {
    if (!isCompileError(e)) throw e;
    const d = (e as CompileError).diagnostics.find((x) => x.severity === 'error');
    expect(d?.code).toBe('conversation/refused');
    return d!;
  }
  throw new Error('expected a refusal');
}

const codes = (p: ServerPrompt) => p.diagnostics.map((d) => `${d.code} ${d.path}`);

const SYS = (extra = '', reasoning = '\n\nReasoning: medium') =>
  `<|start|>system<|message|>You are ChatGPT, a large language model trained by OpenAI.\nKnowledge cutoff: 2024-06\nCurrent date: 2025-08-05${reasoning}\n\n# Valid channels: analysis, commentary, final. Channel must be included for every message.${extra}<|end|>`;
const ROUTING = "\nCalls to these tools must go to the commentary channel: 'functions'.";
const WEATHER_TOOLS = '# Tools\n\n## functions\n\nnamespace functions {\n\n// Get the current weather\ntype get_weather = (_: {\n  // City name\n  location: string,\n}) => any;\n\n} // namespace functions';
const DEV = (content: string) => `<|start|>developer<|message|>${content}<|end|>`;
const USER = (c: string) => `<|start|>user<|message|>${c}<|end|>`;
const FINAL = (c: string) => `<|start|>assistant<|channel|>final<|message|>${c}<|end|>`;
const ANALYSIS = (c: string) => `<|start|>assistant<|channel|>analysis<|message|>${c}<|end|>`;
const CALL = (name: string, args: string) => `<|start|>assistant<|channel|>commentary to=functions.${name} <|constrain|>json<|message|>${args}<|call|>`;
const RESULT = (name: string, c: string) => `<|start|>functions.${name} to=assistant<|message|>${c}<|end|>`;
const GEN = '<|start|>assistant';
const call = (id: string, name: string, args: string) => ({ id, type: 'function', function: { name, arguments: args } });

describe('system and developer messages', () => {
  it('tools, then instructions, in the developer message; the routing line in the system message', () => {
    const p = render([{ role: 'system', content: 'You are terse.' }, { role: 'user', content: 'Weather in Paris?' }], { tools: [WEATHER] });
    expect(p.text).toBe(SYS(ROUTING) + DEV(`${WEATHER_TOOLS}\n\n# Instructions\n\nYou are terse.`) + USER('Weather in Paris?') + GEN);
    expect(p.catalog).toBe(WEATHER_TOOLS);
    expect(p.developer).toBe(`${WEATHER_TOOLS}\n\n# Instructions\n\nYou are terse.`);
    expect(p.diagnostics).toEqual([]);
  });

  it('no tools: the developer message starts with a blank line; no system message: no developer message', () => {
    expect(render([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }]).text).toBe(SYS() + DEV('\n\n# Instructions\n\nBe brief.') + USER('Hi') + GEN);
    expect(render([{ role: 'user', content: 'Hi' }]).text).toBe(SYS() + USER('Hi') + GEN);
    expect(render([{ role: 'system', content: '' }, { role: 'user', content: 'Hi' }]).text).toBe(SYS() + USER('Hi') + GEN);
  });

  it('gathers every system message, wherever it stands, into the instructions', () => {
    const p = render([{ role: 'system', content: 'A.' }, { role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello!' }, { role: 'system', content: 'B.' }, { role: 'user', content: 'Again' }]);
    expect(p.text).toBe(SYS() + DEV('\n\n# Instructions\n\nA.\n\nB.') + USER('Hi') + FINAL('Hello!') + USER('Again') + GEN);
    expect(codes(p)).toEqual(['conversation/merged-message /messages/3']);
  });

  it('drops developer messages, which still keep the user messages around them apart', () => {
    const p = render([{ role: 'user', content: 'Hi' }, { role: 'developer', content: 'New rule.' }, { role: 'user', content: 'Again' }]);
    expect(p.text).toBe(SYS() + USER('Hi') + USER('Again') + GEN);
    expect(codes(p)).toEqual(['conversation/dropped-message /messages/1']);
  });

  it('Reasoning line: medium by default, the effort as mapped, none when effort is none', () => {
    const line = (effort: unknown) => /Current date: 2025-08-05(.*?)\n\n# Valid/s.exec(render([{ role: 'user', content: 'Hi' }], { effort }).system)?.[1];
    expect(line(undefined)).toBe('\n\nReasoning: medium');
    expect(line(null)).toBe('\n\nReasoning: medium');
    expect(line('')).toBe('\n\nReasoning: medium');
    expect(line('low')).toBe('\n\nReasoning: low');
    expect(line('minimal')).toBe('\n\nReasoning: low');
    expect(line('high')).toBe('\n\nReasoning: high');
    expect(line('max')).toBe('\n\nReasoning: high');
    expect(line('xhigh')).toBe('\n\nReasoning: high');
    expect(line('ultra')).toBe('\n\nReasoning: high');
    expect(line('none')).toBe('');
    expect(codes(render([{ role: 'user', content: 'Hi' }], { effort: 'minimal' }))).toEqual(['conversation/effort-mapped /reasoning_effort']);
  });

  it('refuses an unknown effort with Ollama\'s message, and a non-string one', () => {
    expect(refusal([{ role: 'user', content: 'Hi' }], { effort: 'extreme' }).message).toBe('invalid reasoning value: "extreme" (must be "minimal", "low", "medium", "high", "xhigh", "ultra", "max", or "none")');
    expect(refusal([{ role: 'user', content: 'Hi' }], { effort: 3 }).path).toBe('/reasoning_effort');
  });

  it('builtin tools given as function tools: their sections in the system message, no routing line without other tools', () => {
    const py = { type: 'function', function: { name: 'python', description: 'ignored' } };
    const search = { type: 'function', function: { name: 'browser.search' } };
    const p = render([{ role: 'user', content: 'Hi' }], { tools: [search, py] });
    expect(p.developer).toBeUndefined();
    expect(p.system).toContain('\n\nReasoning: medium\n\n# Tools\n\n## browser\n\n// Tool for browsing.');
    expect(p.system).toContain('namespace browser {\n\n// Searches for information related to query and displays topn results.\ntype search = (_: {\nquery: string,\ntopn?: number, // default: 10\nsource?: string,\n}) => any;\n\n} // namespace browser\n\n## python\n\nUse this tool');
    expect(p.system).not.toContain('type open');
    expect(p.system.endsWith('Depends on the cluster.\n\n# Valid channels: analysis, commentary, final. Channel must be included for every message.')).toBe(true);
    const both = render([{ role: 'user', content: 'Hi' }], { tools: [py, WEATHER] });
    expect(both.system.endsWith(ROUTING)).toBe(true);
    expect(both.developer).toBe(WEATHER_TOOLS);
  });

  it('warns for options Ollama has no field for', () => {
    expect(codes(render([{ role: 'user', content: 'Hi' }], { toolChoice: 'auto' }))).toEqual(['conversation/ignored-field /tool_choice']);
  });
});

describe('messages', () => {
  it('merges consecutive messages of one role, and list content parts, with blank lines', () => {
    expect(render([{ role: 'user', content: [{ type: 'text', text: 'Hello ' }, { type: 'text', text: 'world' }] }]).text).toBe(SYS() + USER('Hello \n\nworld') + GEN);
    const p = render([{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }]);
    expect(p.text).toBe(SYS() + USER('a\n\nb') + GEN);
    expect(codes(p)).toEqual(['conversation/merged-message /messages/1']);
  });

  it('lower-cases roles and reads keys case-insensitively, as Go does', () => {
    expect(render([{ ROLE: 'User', Content: 'Hi' }]).text).toBe(SYS() + USER('Hi') + GEN);
  });

  it('drops the later message\'s tool calls when two assistant messages merge', () => {
    const p = render([{ role: 'user', content: 'Go' }, { role: 'assistant', content: 'Sure.' }, { role: 'assistant', content: 'Calling.', tool_calls: [call('c1', 'get_weather', '{}')] }], { tools: [WEATHER] });
    expect(p.text).toBe(SYS(ROUTING) + DEV(WEATHER_TOOLS) + USER('Go') + '<|start|>assistant<|channel|>final<|message|>Sure.\n\nCalling.');
    const merged = p.diagnostics.find((d) => d.code === 'conversation/merged-message');
    expect(merged?.path).toBe('/messages/2');
    expect(merged?.message).toContain('tool call is dropped');
  });

  it('shows reasoning only after the last user message, and reads only `reasoning`', () => {
    const p = render([
      { role: 'user', content: '2+2?' },
      { role: 'assistant', content: '4', reasoning: 'Add.' },
      { role: 'user', content: '3+3?' },
      { role: 'assistant', reasoning: 'Tool.', tool_calls: [call('c1', 'get_weather', '{"location":"X"}')] },
      { role: 'tool', tool_call_id: 'c1', content: 'r' },
      { role: 'assistant', content: '6', reasoning_content: 'lost', thinking: 'lost too' },
      { role: 'tool', tool_call_id: 'c1', content: 'r2' },
    ], { tools: [WEATHER] });
    expect(p.text).toBe(SYS(ROUTING) + DEV(WEATHER_TOOLS) + USER('2+2?') + FINAL('4') + USER('3+3?') + ANALYSIS('Tool.') + CALL('get_weather', '{"location":"X"}') + RESULT('get_weather', 'r') + FINAL('6') + RESULT('get_weather', 'r2') + GEN);
    expect(codes(p).filter((c) => c.startsWith('conversation/dropped-reasoning'))).toEqual([
      'conversation/dropped-reasoning /messages/5/reasoning_content',
      'conversation/dropped-reasoning /messages/5/thinking',
      'conversation/dropped-reasoning /messages/1/reasoning',
    ]);
  });

  it('writes content beside tool calls on the final channel, then every call', () => {
    const p = render([{ role: 'user', content: 'Two cities' }, { role: 'assistant', content: 'Let me check.', tool_calls: [call('a', 'get_weather', '{"location": "Paris"}'), call('b', 'get_weather', '{"location": "Rome"}')] }, { role: 'tool', tool_call_id: 'b', content: '25C' }, { role: 'tool', tool_call_id: 'a', content: '18C' }], { tools: [WEATHER] });
    expect(p.text).toBe(SYS(ROUTING) + DEV(WEATHER_TOOLS) + USER('Two cities') + FINAL('Let me check.') + CALL('get_weather', '{"location":"Paris"}') + CALL('get_weather', '{"location":"Rome"}') + RESULT('get_weather', '25C') + RESULT('get_weather', '18C') + GEN);
    expect(codes(p)).toContain('conversation/preamble-as-final /messages/1');
    expect(p.messages?.[2]).toEqual({ role: 'assistant', channel: 'commentary', recipient: 'functions.get_weather', contentType: '<|constrain|>json', content: '{"location":"Paris"}' });
    expect(p.messages?.[4]).toEqual({ role: 'tool', name: 'functions.get_weather', recipient: 'assistant', content: '25C' });
  });

  it('re-serialises arguments as Go\'s json.Marshal of a map: sorted keys, compact, float64 numbers, <>& escaped', () => {
    const args = '{"z": 1.0, "a": {"y": [1E2, -0, 1e21], "b": "<x&y>"}, "u": "東京\u2028"}';
    const p = render([{ role: 'user', content: 'x' }, { role: 'assistant', tool_calls: [call('a', 'f', args)] }]);
    expect(p.text.endsWith(CALL('f', '{"a":{"b":"\\u003cx\\u0026y\\u003e","y":[100,-0,1e+21]},"u":"東京\\u2028","z":1}') + GEN)).toBe(true);
    expect(codes(p)).toContain('conversation/rewritten-arguments /messages/1/tool_calls/0/function/arguments');
  });

  it('says whether the re-serialisation only dropped whitespace (info) or rewrote the text (warning)', () => {
    const sev = (args: string) => render([{ role: 'user', content: 'x' }, { role: 'assistant', tool_calls: [call('a', 'f', args)] }]).diagnostics.filter((d) => d.code === 'conversation/rewritten-arguments').map((d) => d.severity);
    expect(sev('{"a": "b c", "b": [1, 2]}')).toEqual(['info']);
    expect(sev('{"a":"b","b":[1,2]}')).toEqual([]);
    expect(sev('{"b": 1, "a": 2}')).toEqual(['warning']);
    expect(sev('{"a": 1.5e3}')).toEqual(['warning']);
    expect(sev('{"a": "<"}')).toEqual(['warning']);
  });

  it('refuses a request whose messages all have empty content lists (Ollama replies "load" without a prompt)', () => {
    expect(refusal([{ role: 'user', content: [] }]).path).toBe('/messages');
  });

  it('prints JSON null arguments as {} and reads an escaped lone surrogate as U+FFFD', () => {
    const p = render([{ role: 'user', content: 'x' }, { role: 'assistant', tool_calls: [call('a', 'f', 'null'), call('b', 'f', '{"s":"\\ud800"}')] }]);
    expect(p.text.endsWith(CALL('f', '{}') + CALL('f', '{"s":"\ufffd"}') + GEN)).toBe(true);
  });

  it.each([[''], ['{'], ['[1]'], ['"text"'], ['5'], ['{} x']])('refuses arguments %j: invalid tool call arguments', (args) => {
    const d = refusal([{ role: 'user', content: 'x' }, { role: 'assistant', tool_calls: [call('a', 'f', args)] }]);
    expect(d).toMatchObject({ path: '/messages/1/tool_calls/0/function/arguments', message: 'invalid tool call arguments' });
  });

  it('refuses arguments given as an object (Go decodes them into a string)', () => {
    const d = refusal([{ role: 'user', content: 'x' }, { role: 'assistant', tool_calls: [{ id: 'a', function: { name: 'f', arguments: { a: 1 } } }] }]);
    expect(d.path).toBe('/messages/1/tool_calls/0/function/arguments');
    expect(d.message).toContain('cannot unmarshal object');
  });

  it('names a tool result from `name`, else from the last tool call with its id; unknown: "functions."', () => {
    const p = render([
      { role: 'user', content: 'x' },
      { role: 'assistant', tool_calls: [call('dup', 'first', '{}')] },
      { role: 'tool', tool_call_id: 'dup', content: '1' },
      { role: 'assistant', tool_calls: [call('dup', 'second', '{}')] },
      { role: 'tool', tool_call_id: 'dup', name: 'named', content: '2' },
      { role: 'tool', tool_call_id: 'nope', content: '3' },
    ]);
    expect(p.text).toBe(SYS() + USER('x') + CALL('first', '{}') + RESULT('second', '1') + CALL('second', '{}') + RESULT('named', '2') + RESULT('', '3') + GEN);
    expect(codes(p)).toContain('conversation/unnamed-tool-result /messages/5');
  });

  it('keeps tool results apart (never merged); a tool result with list content loses its name', () => {
    const p = render([{ role: 'user', content: 'x' }, { role: 'assistant', tool_calls: [call('a', 'f', '{}')] }, { role: 'tool', tool_call_id: 'a', content: [{ type: 'text', text: 'p1' }, { type: 'text', text: 'p2' }] }]);
    expect(p.text).toBe(SYS() + USER('x') + CALL('f', '{}') + RESULT('', 'p1') + RESULT('', 'p2') + GEN);
  });

  it('builtin calls and results: analysis channel, no functions. prefix', () => {
    const p = render([{ role: 'user', content: 'x' }, { role: 'assistant', tool_calls: [call('a', 'python', '{"code":"1"}')] }, { role: 'tool', tool_call_id: 'a', content: '1' }]);
    expect(p.text).toBe(SYS() + USER('x') + '<|start|>assistant<|channel|>analysis to=python <|constrain|>json<|message|>{"code":"1"}<|call|>' + '<|start|>python to=assistant<|message|>1<|end|>' + GEN);
  });

  it('does not rename tools in the history (only in the tool list), and says so', () => {
    const tool = { type: 'function', function: { name: 'get-weather' } };
    const p = render([{ role: 'user', content: 'x' }, { role: 'assistant', tool_calls: [call('a', 'get-weather', '{}')] }, { role: 'tool', tool_call_id: 'a', content: '1' }], { tools: [tool] });
    expect(p.text).toBe(SYS(ROUTING) + DEV('# Tools\n\n## functions\n\nnamespace functions {\n\ntype get_weather = () => any;\n\n} // namespace functions') + USER('x') + CALL('get-weather', '{}') + RESULT('get-weather', '1') + GEN);
    expect(codes(p)).toEqual(expect.arrayContaining(['ollama/tool-renamed /0', 'conversation/tool-renamed /messages/1/tool_calls/0/function/name', 'conversation/tool-renamed /messages/2']));
  });

  it('prefill: a last assistant message with content stays open, and so does every final before it (one template flag)', () => {
    const p = render([{ role: 'user', content: 'x' }, { role: 'assistant', content: 'A', tool_calls: [call('a', 'f', '{}')] }, { role: 'tool', tool_call_id: 'a', content: 'r' }, { role: 'assistant', content: 'B', reasoning: 'T' }]);
    expect(p.text).toBe(SYS() + USER('x') + '<|start|>assistant<|channel|>final<|message|>A' + CALL('f', '{}') + RESULT('f', 'r') + ANALYSIS('T') + '<|start|>assistant<|channel|>final<|message|>B');
    expect(codes(p)).toContain('conversation/prefill /messages/3');
  });

  it('prefill with reasoning only: the analysis stays open', () => {
    const p = render([{ role: 'user', content: 'x' }, { role: 'assistant', content: '', reasoning: 'Thinking' }]);
    expect(p.text).toBe(SYS() + USER('x') + '<|start|>assistant<|channel|>analysis<|message|>Thinking');
  });

  it('content: null is refused without tool calls (Go prints the type with %T), fine with them, even an empty list', () => {
    expect(refusal([{ role: 'user', content: 'Hi' }, { role: 'assistant', content: null }, { role: 'user', content: 'Hello?' }])).toMatchObject({ path: '/messages/1/content', message: 'invalid message content type: <nil>' });
    expect(refusal([{ role: 'user' }]).message).toBe('invalid message content type: <nil>');
    expect(refusal([{ role: 'user', content: 5 }]).message).toBe('invalid message content type: float64');
    expect(refusal([{ role: 'user', content: { a: 1 } }]).message).toBe('invalid message content type: map[string]interface {}');
    expect(refusal([{ role: 'user', content: true }]).message).toBe('invalid message content type: bool');
    const p = render([{ role: 'user', content: 'Hi' }, { role: 'assistant', content: null, tool_calls: [] }, { role: 'user', content: 'Hello?' }]);
    expect(p.text).toBe(SYS() + USER('Hi') + USER('Hello?') + GEN);
    expect(codes(p)).toEqual(['conversation/dropped-message /messages/1']);
  });

  it('refuses list content that is not text, image or audio parts', () => {
    expect(refusal([{ role: 'user', content: [{ type: 'file', file: {} }] }])).toMatchObject({ message: 'invalid message format', path: '/messages/0/content/0' });
    expect(refusal([{ role: 'user', content: ['text'] }]).message).toBe('invalid message format');
    expect(refusal([{ role: 'user', content: [{ type: 'text', text: 5 }] }]).message).toBe('invalid message format');
  });

  it('writes an [img-N] tag for each image (numbered over the request) and refuses image URLs', () => {
    const img = (url: string) => ({ type: 'image_url', image_url: { url } });
    const p = render([{ role: 'user', content: [{ type: 'text', text: 'Describe' }, img('data:image/png;base64,AAAA')] }, { role: 'assistant', content: 'ok' }, { role: 'user', content: [img('data:;base64,'), { type: 'text', text: 'and [img] this' }, { type: 'image_url', image_url: 'data:image/jpeg;base64,QQ==' }] }]);
    expect(p.text).toBe(SYS() + USER('Describe\n\n[img-0]') + FINAL('ok') + USER('[img-1]\n\nand [img] this\n\n[img-2]') + GEN);
    expect(codes(p).filter((c) => c.startsWith('conversation/image-placeholder'))).toHaveLength(3);
    expect(refusal([{ role: 'user', content: [img('https://x/y.png')] }]).message).toBe('image URLs are not currently supported, please use base64 encoded data instead');
    expect(refusal([{ role: 'user', content: [img('data:image/gif;base64,AAAA')] }]).message).toBe('invalid image input');
    expect(refusal([{ role: 'user', content: [img('data:image/png;base64,AAA')] }]).message).toBe('invalid image input');
  });

  it('attaches the tool calls of a message with an empty content list to the message before it', () => {
    const p = render([{ role: 'user', content: 'x' }, { role: 'assistant', content: [], tool_calls: [call('a', 'f', '{}')] }]);
    expect(p.text).toBe(SYS() + USER('x') + GEN);
    expect(codes(p)).toEqual(expect.arrayContaining(['conversation/merged-message /messages/1', 'conversation/ignored-field /messages/1/tool_calls']));
  });

  it('warns for fields Ollama does not read', () => {
    const p = render([{ role: 'user', content: 'Hi', name: 'bob', refusal: null }]);
    expect(codes(p).sort()).toEqual(['conversation/ignored-field /messages/0/name', 'conversation/ignored-field /messages/0/refusal']);
  });

  it('drops messages of roles the template has no branch for', () => {
    const p = render([{ role: 'user', content: 'x' }, { role: 'function', content: 'y' }]);
    expect(p.text).toBe(SYS() + USER('x') + GEN);
    expect(codes(p)).toEqual(['conversation/dropped-message /messages/1']);
  });

  it('refuses a message field of the wrong JSON type, as Go\'s decoder does', () => {
    expect(refusal([{ role: 5, content: 'x' }]).path).toBe('/messages/0/role');
    expect(refusal([{ role: 'assistant', content: 'x', reasoning: ['r'] }]).path).toBe('/messages/0/reasoning');
    expect(refusal([{ role: 'assistant', content: 'x', tool_calls: {} }]).path).toBe('/messages/0/tool_calls');
    expect(refusal([{ role: 'assistant', content: 'x', tool_calls: [{ index: 1.5, function: { name: 'f', arguments: '{}' } }] }]).path).toBe('/messages/0/tool_calls/0/index');
    expect(refusal(['hello']).path).toBe('/messages/0');
  });

  it('refuses tools Go cannot decode, as conversation/refused', () => {
    const bad = { type: 'function', function: { name: 'f', parameters: { type: 'object', properties: { p: true } } } };
    expect(refusal([{ role: 'user', content: 'x' }], { tools: [bad] }).path).toBe('/0/function/parameters/properties/p');
  });

  it('renders an empty conversation (Ollama\'s endpoint would refuse it; the system and developer parts are still useful)', () => {
    expect(render([], { tools: [WEATHER] }).text).toBe(SYS(ROUTING) + DEV(WEATHER_TOOLS) + GEN);
  });
});

if (HAVE_SHARED) describe('every conversation of the oracle inputs', () => {
  it('renders or is refused with a CompileError, never a crash', () => {
    const rows = readJsonl(sharedPath('oracles/conversations/inputs.jsonl'));
    let rendered = 0;
    let refusedCount = 0;
    for (const row of rows) {
      const messages = getKey(row, 'messages');
      const items = isJsonArray(messages) ? messages : [];
      const toolsRaw = getKey(row, 'tools');
      const options = getKey(row, 'options');
      let definitions;
      try {
        definitions = isJsonArray(toolsRaw) && toolsRaw.length ? readTools(toolsRaw).tools : [];
      } catch {
        continue;
      }
      const effort = getKey(options, 'reasoning_effort');
      try {
        const p = renderOllama({
          conversation: { format: 'chat', items, pointers: items.map((_, i) => `/messages/${i}`) },
          tools: { definitions, tools: definitions.map((d) => lowerTool(d).tool) },
          toolsGiven: isJsonArray(toolsRaw) ? (toolsRaw.length ? 'some' : 'empty') : 'absent',
          date: '2025-08-05',
          ...(effort !== undefined ? { effort } : {}),
        });
        expect(p.text.startsWith('<|start|>system<|message|>')).toBe(true);
        rendered++;
      } catch (e) {
        expect(isCompileError(e)).toBe(true);
        refusedCount++;
      }
    }
    console.log(`ollama on conversations/inputs.jsonl: ${rendered} rendered, ${refusedCount} refused, of ${rows.length}`);
    expect(rendered + refusedCount).toBeGreaterThan(140);
  });
});
else it('every conversation of the oracle inputs', () => {
  console.log(sharedMissingNote('ollama conversations smoke'));
  expect(HAVE_SHARED).toBe(false);
});
