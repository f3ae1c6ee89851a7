/** Reading conversations and request bodies, and converting other shapes to Chat Completions messages. */
import { describe, expect, it } from 'vitest';
import { CompileError, type Diagnostic } from '../../src/diagnostics.js';
import { readConversation, readRequestBody, toChatMessages } from '../../src/conversation/read.js';
import type { ConversationInput, MessageFormat } from '../../src/conversation/types.js';
import { fromJs, parseJson, toJs } from '../../src/ir/json.js';

/** The CompileError diagnostics a call throws. */
function thrown(f: () => unknown): readonly Diagnostic[] {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CompileError);
    return (e as CompileError).diagnostics;
  }
  throw new Error('expected a CompileError');
}

const formatOf = (messages: unknown) => readConversation(messages).conversation.format;

describe('readConversation: telling the shapes apart', () => {
  const cases: [string, unknown[], MessageFormat][] = [
    ['a plain {role, content} list', [{ role: 'system', content: 'S' }, { role: 'user', content: 'Hi' }], 'chat'],
    ['text parts only', [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], 'chat'],
    ['tool_calls / tool_call_id', [{ role: 'assistant', content: null, tool_calls: [] }, { role: 'tool', tool_call_id: 'c', content: 'r' }], 'chat'],
    ['reasoning_content', [{ role: 'assistant', content: 'a', reasoning_content: 'r' }], 'chat'],
    ['an image_url part', [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'u' } }] }], 'chat'],
    ['a Responses function_call item', [{ role: 'user', content: 'Hi' }, { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' }], 'responses'],
    ['Responses input_text parts', [{ role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }], 'responses'],
    ['a Responses message item', [{ type: 'message', role: 'user', content: 'Hi' }], 'responses'],
    ['Anthropic tool_use blocks', [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] }], 'anthropic'],
    ['an Anthropic image with a source', [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'u' } }] }], 'anthropic'],
    ['a Harmony channel', [{ role: 'assistant', channel: 'final', content: 'x' }], 'harmony'],
    ['a Harmony recipient', [{ role: 'assistant', recipient: 'functions.f', content: '{}' }], 'harmony'],
    ['a tool with a name and no tool_call_id', [{ role: 'tool', name: 'functions.f', content: 'r' }], 'harmony'],
    ['a chat tool with a name and a tool_call_id', [{ role: 'tool', name: 'f', tool_call_id: 'c', content: 'r' }], 'chat'],
    ['no messages', [], 'chat'],
  ];
  for (const [name, messages, format] of cases) it(`${name} → ${format}`, () => expect(formatOf(messages)).toBe(format));

  it('an explicit format wins, and the items are kept as given with their pointers', () => {
    const r = readConversation([{ role: 'user', content: 'Hi' }], { format: 'anthropic', pointer: '/body/messages' });
    expect(r.conversation.format).toBe('anthropic');
    expect(r.conversation.pointers).toEqual(['/body/messages/0']);
    expect(toJs(r.conversation.items[0])).toEqual({ role: 'user', content: 'Hi' });
  });

  it('lossless JSON is accepted as is (number text and key order kept)', () => {
    const r = readConversation(parseJson('[{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}],"x":1.50}]'));
    const item = r.conversation.items[0] as ReadonlyMap<string, unknown>;
    expect([...item.keys()]).toEqual(['role', 'tool_calls', 'x']);
    expect((item.get('x') as { text: string }).text).toBe('1.50');
  });

  it('a string is a Responses input: one user message', () => {
    const r = readConversation('Hello', { pointer: '/input' });
    expect(r.conversation).toEqual({ format: 'responses', items: ['Hello'], pointers: ['/input'] });
  });

  it('mixed shapes across messages are refused with both pointers', () => {
    const d = thrown(() => readConversation([{ role: 'assistant', content: null, tool_calls: [] }, { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' }]));
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ code: 'conversation/mixed-shapes', severity: 'error', path: '/messages/1' });
    expect(d[0].message).toContain('OpenAI Chat Completions at /messages/0');
    expect(d[0].message).toContain('OpenAI Responses at /messages/1');
  });

  it('one message mixing shapes is refused at its pointer', () => {
    const d = thrown(() => readConversation([{ role: 'user', content: [{ type: 'input_text', text: 'a' }, { type: 'tool_result', tool_use_id: 't' }] }]));
    expect(d[0]).toMatchObject({ code: 'conversation/mixed-shapes', path: '/messages/0' });
  });

  it('items that are no message are refused, each at its pointer', () => {
    const d = thrown(() => readConversation([{ role: 'user', content: 'ok' }, 'text', { content: 'no role' }, { type: 'banana' }]));
    expect(d.map((x) => [x.code, x.path])).toEqual([
      ['conversation/unknown-shape', '/messages/1'],
      ['conversation/unknown-shape', '/messages/2'],
      ['conversation/unknown-shape', '/messages/3'],
    ]);
  });

  it('a value that is no list is refused', () => {
    expect(thrown(() => readConversation({ role: 'user' }))[0]).toMatchObject({ code: 'conversation/not-a-list', path: '/messages' });
    expect(thrown(() => readConversation('Hi', { format: 'chat' }))[0].code).toBe('conversation/not-a-list');
  });
});

describe('readRequestBody', () => {
  it('a Chat Completions body: tools as given, effort, tool choice, model; unused keys are infos', () => {
    const rb = readRequestBody({
      model: 'gpt-oss-20b',
      messages: [{ role: 'user', content: 'Hi' }],
      tools: [{ type: 'function', function: { name: 'f' } }],
      tool_choice: 'auto',
      reasoning_effort: 'high',
      temperature: 0.2,
    })!;
    expect(rb.kind).toBe('chat');
    expect(rb.model).toBe('gpt-oss-20b');
    expect(toJs(rb.tools!)).toEqual([{ type: 'function', function: { name: 'f' } }]);
    expect(rb.toolsGiven).toBe('some');
    expect(rb.effort).toBe('high');
    expect(rb.effortPointer).toBe('/reasoning_effort');
    expect(rb.toolChoice).toBe('auto');
    expect(rb.conversation.format).toBe('chat');
    expect(rb.diagnostics).toEqual([{ code: 'request/ignored-key', severity: 'info', path: '/temperature', message: '"temperature" does not change the prompt' }]);
  });

  it('tools: [] is told apart from no tools', () => {
    expect(readRequestBody({ messages: [], tools: [] })!.toolsGiven).toBe('empty');
    expect(readRequestBody({ messages: [] })!.toolsGiven).toBe('absent');
  });

  it('a Responses body: string input, instructions, reasoning.effort; builtin tools left out and reported', () => {
    const rb = readRequestBody({
      input: 'Hi',
      instructions: 'Be brief.',
      reasoning: { effort: 'low', summary: 'auto' },
      tools: [{ type: 'web_search_preview' }, { type: 'function', name: 'f', parameters: { type: 'object' } }, { type: 'code_interpreter', container: { type: 'auto' } }],
    })!;
    expect(rb.kind).toBe('responses');
    expect(rb.conversation).toMatchObject({ format: 'responses', items: ['Hi'], pointers: ['/input'], instructions: 'Be brief.', instructionsPointer: '/instructions' });
    expect(toJs(rb.tools!)).toEqual([{ type: 'function', name: 'f', parameters: { type: 'object' } }]);
    expect(rb.toolPointers).toEqual(['/tools/1']);
    expect(rb.builtinTools).toEqual(['browser', 'python']);
    expect(rb.effort).toBe('low');
    expect(rb.effortPointer).toBe('/reasoning/effort');
    expect(rb.diagnostics.map((d) => [d.code, d.severity, d.path])).toEqual([
      ['request/builtin-tool', 'info', '/tools/0'],
      ['request/builtin-tool', 'info', '/tools/2'],
      ['request/ignored-key', 'info', '/reasoning/summary'],
    ]);
  });

  it('a Responses tool type vLLM does not render is refused', () => {
    const d = thrown(() => readRequestBody({ input: 'Hi', tools: [{ type: 'file_search', vector_store_ids: [] }] }));
    expect(d[0]).toMatchObject({ code: 'request/unsupported-tool', path: '/tools/0' });
    expect(d[0].message).toContain('tool type file_search not supported');
  });

  it('previous_response_id is a warning: the stored conversation is not available', () => {
    const rb = readRequestBody({ input: 'Hi', previous_response_id: 'resp_1' })!;
    expect(rb.diagnostics).toContainEqual(expect.objectContaining({ code: 'request/ignored-key', severity: 'warning', path: '/previous_response_id' }));
  });

  it('an Anthropic body: system, tools with input_schema, output_config.effort; server tools left out; max_tokens an info', () => {
    const rb = readRequestBody({
      model: 'm',
      max_tokens: 100,
      system: 'S',
      messages: [{ role: 'user', content: 'Hi' }],
      tools: [{ type: 'web_search_20250305', name: 'web_search' }, { name: 'f', input_schema: { type: 'object' } }],
      output_config: { effort: 'high' },
    })!;
    expect(rb.kind).toBe('anthropic');
    expect(rb.conversation).toMatchObject({ format: 'anthropic', instructions: 'S', instructionsPointer: '/system' });
    expect(toJs(rb.tools!)).toEqual([{ name: 'f', input_schema: { type: 'object' } }]);
    expect(rb.toolPointers).toEqual(['/tools/1']);
    expect(rb.effort).toBe('high');
    expect(rb.diagnostics.map((d) => [d.code, d.severity, d.path])).toEqual([
      ['request/builtin-tool', 'warning', '/tools/0'],
      ['request/ignored-key', 'info', '/max_tokens'],
    ]);
  });

  it('Anthropic content blocks alone make an Anthropic body; plain messages with max_tokens stay Chat Completions', () => {
    expect(readRequestBody({ max_tokens: 5, messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] }] })!.kind).toBe('anthropic');
    expect(readRequestBody({ max_tokens: 5, messages: [{ role: 'user', content: 'Hi' }] })!.kind).toBe('chat');
  });

  it('anything else is no request body', () => {
    expect(readRequestBody({ tools: [] })).toBeUndefined();
    expect(readRequestBody([{ role: 'user', content: 'Hi' }])).toBeUndefined();
    expect(readRequestBody('Hi')).toBeUndefined();
  });
});

/** toChatMessages over a conversation given as JS values, with the messages back as JS values. */
function chatOf(format: MessageFormat, items: unknown[], extra: Partial<ConversationInput> = {}) {
  const c: ConversationInput = {
    format,
    items: items.map((x) => fromJs(x)),
    pointers: items.map((_, i) => `/messages/${i}`),
    ...extra,
    ...(extra.instructions !== undefined ? { instructions: fromJs(extra.instructions) } : {}),
  };
  const r = toChatMessages(c);
  return { messages: r.messages.map(toJs), pointers: r.pointers, diagnostics: r.diagnostics };
}

describe('toChatMessages', () => {
  it('chat messages are returned as given (request-level instructions first)', () => {
    const r = chatOf('chat', [{ role: 'user', content: 'Hi' }], { instructions: 'S', instructionsPointer: '/instructions' });
    expect(r.messages).toEqual([{ role: 'system', content: 'S' }, { role: 'user', content: 'Hi' }]);
    expect(r.pointers).toEqual(['/instructions', '/messages/0']);
  });

  it('Anthropic, as vLLM converts it: system first, tool_use → tool_calls (Python json.dumps), tool_result → tool before the user text, thinking → reasoning', () => {
    const r = chatOf(
      'anthropic',
      [
        { role: 'user', content: 'Time in Zürich?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Need it.', signature: 's' },
            { type: 'redacted_thinking', data: 'xx' },
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'tu1', name: 'get_time', input: { city: 'Zürich', n: 1.5 } },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'and then' }, { type: 'tool_result', tool_use_id: 'tu1', content: [{ type: 'text', text: '10:00' }, { type: 'text', text: 'CET' }] }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu1', content: 'again' }] },
      ],
      { instructions: [{ type: 'text', text: 'Be ' }, { type: 'text', text: 'brief.' }], instructionsPointer: '/system' },
    );
    expect(r.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Time in Zürich?' },
      { role: 'assistant', content: 'Checking.', reasoning: 'Need it.', tool_calls: [{ id: 'tu1', type: 'function', function: { name: 'get_time', arguments: '{"city": "Z\\u00fcrich", "n": 1.5}' } }] },
      { role: 'tool', tool_call_id: 'tu1', content: '10:00\nCET' },
      { role: 'user', content: 'and then' },
      { role: 'tool', tool_call_id: 'tu1', content: 'again' },
    ]);
    expect(r.pointers).toEqual(['/system', '/messages/0', '/messages/1', '/messages/2/content/1', '/messages/2', '/messages/3/content/0']);
    expect(r.diagnostics).toContainEqual(expect.objectContaining({ code: 'conversation/no-chat-equivalent', severity: 'warning', path: '/messages/1/content/1' }));
    expect(r.diagnostics).toContainEqual(expect.objectContaining({ code: 'conversation/reasoning-field', severity: 'info', path: '/messages/1/content/0' }));
  });

  it('Responses: instructions → system, consecutive calls merged with the reasoning before them, outputs → tool messages', () => {
    const r = chatOf(
      'responses',
      [
        'Hi',
        { role: 'user', content: [{ type: 'input_text', text: 'A' }, { type: 'input_image', image_url: 'u' }, { type: 'input_text', text: 'B' }] },
        { type: 'reasoning', content: [{ type: 'reasoning_text', text: 'r' }] },
        { type: 'function_call', call_id: 'k1', name: 'f', arguments: '{}' },
        { type: 'function_call', call_id: 'k2', name: 'g', arguments: '{"a":1}' },
        { type: 'function_call_output', call_id: 'k1', output: 'one' },
        { type: 'function_call_output', call_id: 'k2', output: 'two' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] },
      ],
      { instructions: 'S' },
    );
    expect(r.messages).toEqual([
      { role: 'system', content: 'S' },
      { role: 'user', content: 'Hi' },
      { role: 'user', content: 'AB' },
      {
        role: 'assistant',
        content: null,
        reasoning: 'r',
        tool_calls: [
          { id: 'k1', type: 'function', function: { name: 'f', arguments: '{}' } },
          { id: 'k2', type: 'function', function: { name: 'g', arguments: '{"a":1}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'k1', content: 'one' },
      { role: 'tool', tool_call_id: 'k2', content: 'two' },
      { role: 'assistant', content: 'Done.' },
    ]);
    expect(r.diagnostics.map((d) => [d.code, d.path])).toEqual([['conversation/content-part-dropped', '/messages/1/content/1']]);
  });

  it('Harmony-native: analysis → reasoning, a preamble and calls → one assistant message with tool_calls, tool authors → tool messages', () => {
    const r = chatOf('harmony', [
      { role: 'user', content: 'Time?' },
      { role: 'assistant', channel: 'analysis', content: 'Need it.' },
      { role: 'assistant', channel: 'commentary', content: 'Checking.' },
      { role: 'assistant', recipient: 'functions.get_time', channel: 'commentary', content_type: 'json', content: '{}' },
      { role: 'tool', name: 'functions.get_time', recipient: 'assistant', channel: 'commentary', content: '10:00' },
      { role: 'assistant', channel: 'final', content: 'Ten.' },
    ]);
    expect(r.messages).toEqual([
      { role: 'user', content: 'Time?' },
      { role: 'assistant', content: 'Checking.', reasoning: 'Need it.', tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'get_time', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_0', content: '10:00' },
      { role: 'assistant', content: 'Ten.' },
    ]);
    expect(r.pointers).toEqual(['/messages/0', '/messages/3', '/messages/4', '/messages/5']);
    expect(r.diagnostics).toContainEqual(expect.objectContaining({ code: 'conversation/no-chat-equivalent', severity: 'info' }));
  });

  it('Harmony-native with no chat equivalent: a result with no call, a call to a builtin', () => {
    const r = chatOf('harmony', [
      { role: 'assistant', recipient: 'browser.search', channel: 'analysis', content: '{}' },
      { role: 'tool', name: 'functions.other', content: 'r' },
    ]);
    expect(r.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.path)).toEqual(['/messages/0/recipient', '/messages/1']);
  });
});
