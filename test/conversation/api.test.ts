/**
 * Conversations through the public API and the CLI: messages in every shape, the server option,
 * request bodies, `--jsonl` cases. Expected bytes were checked by hand against the rules of
 * ../shared/spec/conversations.md (A.1 vLLM, A.3 the template) and agree with the oracle suites'
 * rows of the same shape (test/oracle/conversations.test.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderPart, renderPrompt, renderRequest } from '../../src/api/render.js';
import { CompileError } from '../../src/diagnostics.js';
import { runCli } from '../support/cli.js';

const WEATHER = JSON.stringify([
  { type: 'function', function: { name: 'get_weather', description: 'Get the weather', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } } },
]);
const TAIL_SYS = '# Valid channels: analysis, commentary, final. Channel must be included for every message.\nCalls to these tools must go to the commentary channel: \'functions\'.<|end|>';
const DEV = '<|start|>developer<|message|># Tools\n\n## functions\n\nnamespace functions {\n\n// Get the weather\ntype get_weather = (_: {\nlocation: string,\n}) => any;\n\n} // namespace functions<|end|>';
const SYS = (effort = 'medium') => `<|start|>system<|message|>You are ChatGPT, a large language model trained by OpenAI.\nKnowledge cutoff: 2024-06\nCurrent date: 2025-08-05\n\nReasoning: ${effort}\n\n${TAIL_SYS}`;

/** The agent loop of the issue, as an OpenAI Chat Completions client writes it. */
const CHAT = [
  { role: 'user', content: 'Weather in SF?' },
  { role: 'assistant', content: null, reasoning: 'Need weather.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"SF"}' } }] },
  { role: 'tool', tool_call_id: 'call_1', content: '{"sunny":true}' },
];
/** What vLLM sends for it (spec A.1: reasoning → analysis kept while the turn is open; the call; the result named through tool_call_id). */
const VLLM_TURNS =
  '<|start|>user<|message|>Weather in SF?<|end|>' +
  '<|start|>assistant<|channel|>analysis<|message|>Need weather.<|end|>' +
  '<|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{"location":"SF"}<|call|>' +
  '<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>{"sunny":true}<|end|>' +
  '<|start|>assistant';

function failure(f: () => unknown): CompileError {
  try {
    f();
  } catch (e) {
    if (e instanceof CompileError) return e;
    throw e;
  }
  throw new Error('expected a CompileError');
}

describe('renderPrompt with messages', () => {
  it('OpenAI Chat messages go through vLLM by default (openai-harmony flavor): the call, the reasoning and the tool author are kept', () => {
    const p = renderPrompt({ tools: WEATHER, messages: CHAT, date: '2025-08-05' });
    expect(p.text).toBe(SYS() + DEV + VLLM_TURNS);
  });

  it('the same conversation as Responses items, Anthropic messages and Harmony messages renders the same bytes under vLLM', () => {
    const responses = [
      { type: 'message', role: 'user', content: 'Weather in SF?' },
      { type: 'reasoning', content: [{ type: 'reasoning_text', text: 'Need weather.' }] },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"location":"SF"}' },
      { type: 'function_call_output', call_id: 'call_1', output: '{"sunny":true}' },
    ];
    const harmony = [
      { role: 'user', content: 'Weather in SF?' },
      { role: 'assistant', channel: 'analysis', content: 'Need weather.' },
      { role: 'assistant', recipient: 'functions.get_weather', channel: 'commentary', content_type: 'json', content: '{"location":"SF"}' },
      { role: 'tool', name: 'functions.get_weather', recipient: 'assistant', channel: 'commentary', content: '{"sunny":true}' },
    ];
    for (const messages of [responses, harmony]) expect(renderPrompt({ tools: WEATHER, messages, date: '2025-08-05', server: 'vllm' }).text).toBe(SYS() + DEV + VLLM_TURNS);
    const anthropic = [
      { role: 'user', content: 'Weather in SF?' },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'Need weather.', signature: 's' }, { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { location: 'SF' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: '{"sunny":true}' }] },
    ];
    // Anthropic input goes through vLLM's /v1/messages conversion: the arguments are re-dumped by Python's json.dumps
    expect(renderPrompt({ tools: WEATHER, messages: anthropic, date: '2025-08-05' }).text).toBe(SYS() + DEV + VLLM_TURNS.replace('{"location":"SF"}', '{"location": "SF"}'));
  });

  it('transformers: content null beside a call is the template\'s own TypeError, with the pointer', () => {
    const e = failure(() => renderPrompt({ tools: WEATHER, messages: CHAT, flavor: 'chat-template', date: '2025-08-05' }));
    expect(e.diagnostics[0]).toMatchObject({ code: 'chat-template/fails', path: '/messages/1/content' });
    expect(e.message).toContain("TypeError: argument of type 'NoneType' is not iterable");
  });

  it('transformers: `content: ""` and `thinking`, as transformers users write it, renders; string arguments and results are JSON-quoted', () => {
    const messages = [CHAT[0], { ...CHAT[1], content: '', reasoning: undefined, thinking: 'Need weather.' }, CHAT[2]];
    const p = renderPrompt({ tools: WEATHER, messages, server: 'transformers', date: '2025-08-05' });
    expect(p.text.slice(p.text.indexOf('<|start|>user'))).toBe(
      '<|start|>user<|message|>Weather in SF?<|end|>' +
        '<|start|>assistant<|channel|>analysis<|message|>Need weather.<|end|>' +
        '<|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>"{\\"location\\":\\"SF\\"}"<|call|>' +
        '<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>"{\\"sunny\\":true}"<|end|>' +
        '<|start|>assistant',
    );
    expect(p.diagnostics.map((d) => d.code)).toContain('conversation/arguments-double-encoded');
  });

  it('what a server drops is a warning with the pointer, never silent', () => {
    const messages = [{ role: 'user', content: '2+2?' }, { role: 'assistant', content: '4', reasoning: 'Add.' }, { role: 'user', content: '3+3?' }];
    const p = renderPrompt({ messages, date: '2025-08-05' });
    expect(p.text).not.toContain('Add.');
    expect(p.diagnostics).toContainEqual(expect.objectContaining({ code: 'conversation/dropped-reasoning', severity: 'warning', path: '/messages/1/reasoning' }));
  });

  it('what vLLM refuses is refused: user content null, reasoning_effort none', () => {
    expect(failure(() => renderPrompt({ messages: [{ role: 'user', content: null }], date: '2025-08-05' })).diagnostics[0]).toMatchObject({ code: 'conversation/refused', path: '/messages/0/content' });
    expect(failure(() => renderRequest({ messages: [{ role: 'user', content: 'hi' }], reasoning_effort: 'none' }, { date: '2025-08-05' })).message).toContain("reasoning_effort='none'");
  });

  it('instructions given beside chat messages become the first system message (vLLM: # Instructions)', () => {
    const p = renderPrompt({ messages: [{ role: 'user', content: 'hi' }], instructions: 'Be brief.', date: '2025-08-05' });
    expect(p.developer).toBe('# Instructions\n\nBe brief.');
  });

  it('Harmony messages with no server are rendered as openai-harmony renders them (no date added, no preamble mapping)', () => {
    const p = renderPrompt({ messages: [{ role: 'user', content: 'hi', channel: undefined, recipient: undefined } as never, { role: 'assistant', channel: 'final', content: 'hello' }], completion: 'assistant' });
    expect(p.system).not.toContain('Current date');
    expect(p.text.endsWith('<|start|>assistant<|channel|>final<|message|>hello<|end|><|start|>assistant')).toBe(true);
  });

  it('a server names its layout: a server that does not print the chosen flavor is a usage error', () => {
    expect(failure(() => renderPrompt({ messages: CHAT, server: 'transformers', flavor: 'openai-harmony' })).diagnostics[0].code).toBe('usage/server');
    expect(failure(() => renderPrompt({ messages: CHAT, server: 'vllm', target: 'jsdoc' })).diagnostics[0].code).toBe('usage/server');
  });

  it('renderPart: the system and developer parts of a conversation are the server\'s', () => {
    const sys = renderPart(WEATHER, { part: 'system', messages: CHAT, date: '2025-08-05', effort: 'high' }).text;
    expect(sys).toContain('Reasoning: high');
    const dev = renderPart(WEATHER, { part: 'developer', messages: [{ role: 'system', content: 'Rule.' }, ...CHAT], server: 'ollama', date: '2025-08-05' }).text;
    // Ollama writes the tools before the instructions
    expect(dev.indexOf('# Tools')).toBeLessThan(dev.indexOf('# Instructions\n\nRule.'));
  });
});

describe('request bodies', () => {
  const body = { model: 'gpt-oss-20b', messages: CHAT, tools: JSON.parse(WEATHER) as unknown[], reasoning_effort: 'low', temperature: 0.2 };

  it('a Chat Completions body: its tools, messages and reasoning_effort are all used; keys that do not shape the prompt are reported', () => {
    const r = renderRequest(body, { date: '2025-08-05' });
    expect(r.kind).toBe('chat');
    expect(r.text).toBe(SYS('low') + DEV + VLLM_TURNS);
    expect(r.diagnostics).toContainEqual(expect.objectContaining({ code: 'request/ignored-key', path: '/temperature' }));
  });

  it('a Responses body: instructions and reasoning.effort, function tools by pointer', () => {
    const r = renderRequest({ instructions: 'Be brief.', reasoning: { effort: 'high' }, input: 'Weather in SF?', tools: [{ type: 'function', name: 'get_weather', description: 'Get the weather', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } }] }, { date: '2025-08-05' });
    expect(r.kind).toBe('responses');
    expect(r.system).toContain('Reasoning: high');
    expect(r.developer?.startsWith('# Instructions\n\nBe brief.\n\n# Tools')).toBe(true);
    expect(r.text.endsWith('<|start|>user<|message|>Weather in SF?<|end|><|start|>assistant')).toBe(true);
  });

  it('an Anthropic body: system, tools with input_schema, tool pointers into the body', () => {
    const r = renderRequest({ model: 'x', max_tokens: 100, system: 'Be brief.', tools: [{ name: 'get_weather', description: 'Get the weather', input_schema: { type: 'object', properties: { location: { type: 'string', format: 'city' } } } }], messages: [{ role: 'user', content: 'hi' }] }, { date: '2025-08-05' });
    expect(r.kind).toBe('anthropic');
    expect(r.developer).toContain('# Instructions\n\nBe brief.');
    expect(r.partText).toBe(r.text);
  });

  it('tools: [] is refused as vLLM refuses it', () => {
    expect(failure(() => renderRequest({ messages: [{ role: 'user', content: 'hi' }], tools: [] }, { date: '2025-08-05' })).diagnostics[0].code).toBe('conversation/refused');
  });

  it('a tool list is not a request body', () => {
    expect(failure(() => renderRequest(WEATHER)).diagnostics[0].code).toBe('input/not-a-request');
  });
});

describe('CLI', () => {
  it('render <request.json> renders the body; --server picks whose mapping; --part works on it', async () => {
    const v = await runCli(['render', 'examples/agent-loop.json', '--date', '2025-08-05']);
    expect(v.code).toBe(0);
    expect(v.out).toContain('# Instructions\n\nYou are a concise weather assistant.');
    expect(v.out).toContain('<|start|>functions.get_location to=assistant<|channel|>commentary<|message|>{"city": "Lisbon, Portugal"}<|end|>');
    const o = await runCli(['render', 'examples/agent-loop.json', '--date', '2025-08-05', '--server', 'ollama', '--part', 'developer']);
    expect(o.code).toBe(0);
    expect(o.out.startsWith('# Tools\n\n## functions')).toBe(true);
    const t = await runCli(['render', 'examples/agent-loop.json', '--date', '2025-08-05', '--server', 'transformers']);
    expect(t.code).toBe(1);
    expect(t.err).toContain('error [chat-template/fails] at /messages/2/content');
    expect(t.err).not.toMatch(/\n\s+at /);
  });

  it('--jsonl cases carry messages in any shape, a server, reasoning_effort and a whole request', async () => {
    const lines = [
      { id: 'a', tools: JSON.parse(WEATHER), messages: CHAT, date: '2025-08-05' },
      { id: 'b', tools: JSON.parse(WEATHER), messages: CHAT, date: '2025-08-05', server: 'transformers' },
      { id: 'c', request: { messages: [{ role: 'user', content: 'hi' }], reasoning_effort: 'none' }, date: '2025-08-05' },
      { id: 'd', request: { messages: CHAT, tools: JSON.parse(WEATHER) }, date: '2025-08-05' },
    ];
    const r = await runCli(['render', '-', '--jsonl', '--quiet'], { stdin: lines.map((l) => JSON.stringify(l)).join('\n') });
    const rows = r.out.trim().split('\n').map((l) => JSON.parse(l) as { id: string; text?: string; error?: string });
    expect(rows[0]).toEqual({ id: 'a', text: SYS() + DEV + VLLM_TURNS });
    expect(rows[1].error).toContain("TypeError: argument of type 'NoneType' is not iterable");
    expect(rows[2].error).toContain("reasoning_effort='none'");
    expect(rows[3]).toEqual({ id: 'd', text: SYS() + DEV + VLLM_TURNS });
  });

  it('render --help documents --server and request bodies', async () => {
    const h = await runCli(['render', '--help']);
    expect(h.out).toContain('--server <s>');
    expect(h.out).toContain('request body');
  });

  it('the shipped agent loop example is a Chat Completions body', () => {
    const body = JSON.parse(readFileSync('examples/agent-loop.json', 'utf8')) as { messages: unknown[] };
    expect(body.messages.length).toBeGreaterThan(4);
  });
});

describe('renderPrompt for the other families: messages and --server as renderRequest takes them', () => {
  // vLLM and transformers hand the conversation to the family's template; renderPrompt and
  // renderRequest are two doors to the same render (they once disagreed: renderPrompt refused --server)
  for (const model of ['llama-3.1', 'qwen3', 'qwen3-coder', 'kimi-k2']) {
    for (const server of ['transformers', 'vllm'] as const) {
      it(`${model} ${server}`, () => {
        // content "" beside the call: null is a TypeError in Qwen3's template under transformers (both doors say so)
        const messages = CHAT.map((m) => (m.content === null ? { ...m, content: '' } : m));
        const outcome = (f: () => { text: string }) => {
          try {
            return f().text;
          } catch (e) {
            return `error: ${(e as Error).message}`;
          }
        };
        for (const m of [messages, CHAT]) {
          const prompt = outcome(() => renderPrompt({ model, server, tools: JSON.parse(WEATHER), messages: m, date: '2025-08-05' }));
          expect(prompt).toBe(outcome(() => renderRequest({ tools: JSON.parse(WEATHER), messages: m }, { model, server, date: '2025-08-05' })));
        }
        // the call and its result reach the prompt (Qwen3-Coder's template under transformers cannot take string arguments: Jinja2's TypeError)
        const text = outcome(() => renderPrompt({ model, server, tools: JSON.parse(WEATHER), messages, date: '2025-08-05' }));
        if (model === 'qwen3-coder' && server === 'transformers') expect(text).toMatch(/Can only get item pairs from a mapping/);
        else expect(text).toMatch(/get_weather[^]*sunny/);
      });
    }
  }
  it('vLLM parses string arguments into an object (a warning); transformers hands them over as given', () => {
    const codes = (server: 'vllm' | 'transformers') => renderPrompt({ model: 'qwen3', server, tools: JSON.parse(WEATHER), messages: CHAT.map((m) => (m.content === null ? { ...m, content: '' } : m)) }).diagnostics.map((d) => d.code);
    expect(codes('vllm')).toContain('conversation/arguments-parsed');
    expect(codes('transformers')).not.toContain('conversation/arguments-parsed');
  });
  it('a server of gpt-oss prompts is refused for a family, plainly', () => {
    expect(() => renderPrompt({ model: 'qwen3', server: 'ollama', messages: CHAT })).toThrow(/transformers or vllm/);
  });
});
