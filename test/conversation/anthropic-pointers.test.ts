/**
 * Issue 22, item 23: an Anthropic request's diagnostics point into the request as it was given. Its
 * messages are converted to Chat Completions messages for the template servers, Ollama and the
 * other families' templates; a finding about a converted field (`reasoning` made from a `thinking`
 * block, `tool_calls` from `tool_use` blocks) was reported at the converted pointer
 * (`/messages/1/reasoning`), which does not exist in the input. Now it is the block's
 * (`/messages/1/content/0`).
 */
import { describe, expect, it } from 'vitest';
import { renderRequest } from '../../src/api/render.js';
import { valueAt } from '../../src/build/tool-values.js';
import { parseJson } from '../../src/ir/json.js';
import { inputPointer } from '../../src/conversation/read.js';

const BODY = JSON.stringify({
  model: 'claude',
  max_tokens: 100,
  system: 'Be brief.',
  tools: [{ name: 'get_weather', description: 'Weather for a city.', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }],
  messages: [
    { role: 'user', content: 'Weather in Lisbon?' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'I should call the tool.', signature: 'sig' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Lisbon' } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '17 C, rain' }] },
    { role: 'assistant', content: [{ type: 'thinking', thinking: 'Rain: umbrella.' }, { type: 'text', text: 'Take an umbrella.' }] },
    { role: 'user', content: 'Thanks!' },
  ],
});
const DOC = parseJson(BODY);

/** Every diagnostic of the request rendered so, as [code, path]. */
function paths(options: Parameters<typeof renderRequest>[1]): [string, string][] {
  return renderRequest(BODY, { date: '2025-08-05', ...options }).diagnostics.map((d) => [d.code, d.path]);
}

describe('Anthropic request: diagnostics point into the input', () => {
  const setups: [string, Parameters<typeof renderRequest>[1]][] = [
    ['vllm', { server: 'vllm' }],
    ['transformers', { server: 'transformers' }],
    ['llama.cpp', { server: 'llama.cpp' }],
    ['mlx-lm', { server: 'mlx-lm' }],
    ['ollama', { server: 'ollama' }],
    ['--model qwen3 (transformers)', { model: 'qwen3' }],
    ['--model llama-3.1 (vllm)', { model: 'llama-3.1', server: 'vllm' }],
  ];
  for (const [name, options] of setups) {
    it(`${name}: every pointer exists in the request`, () => {
      const all = paths(options);
      expect(all.length).toBeGreaterThan(0);
      for (const [code, path] of all) expect(valueAt(DOC, path), `${code} at ${path}`).not.toBeUndefined();
    });
  }

  it('the thinking a server does not read is reported at its block, /messages/1/content/0', () => {
    for (const server of ['transformers', 'llama.cpp', 'mlx-lm'] as const) {
      expect(paths({ server }).filter(([code]) => code === 'conversation/ignored-field'), server).toContainEqual(['conversation/ignored-field', '/messages/1/content/0']);
    }
    expect(paths({ server: 'ollama' })).toContainEqual(['conversation/dropped-reasoning', '/messages/1/content/0']);
    for (const setup of [{ server: 'transformers' }, { server: 'ollama' }] as const) expect(paths(setup).map(([, p]) => p), setup.server).not.toContain('/messages/1/reasoning');
  });

  it('inputPointer: the longest moved prefix, whole tokens only', () => {
    const moved = new Map([
      ['/messages/1/reasoning', '/messages/1/content/0'],
      ['/messages/1/tool_calls/0', '/messages/1/content/2'],
      ['/messages/1/tool_calls/0/function/arguments', '/messages/1/content/2/input'],
    ]);
    expect(inputPointer(moved, '/messages/1/reasoning')).toBe('/messages/1/content/0');
    expect(inputPointer(moved, '/messages/1/tool_calls/0/function/arguments/city')).toBe('/messages/1/content/2/input/city');
    expect(inputPointer(moved, '/messages/1/tool_calls/0/id')).toBe('/messages/1/content/2/id');
    expect(inputPointer(moved, '/messages/1/tool_calls/01')).toBe('/messages/1/tool_calls/01');
    expect(inputPointer(moved, '/messages/1/reasoning_content')).toBe('/messages/1/reasoning_content');
    expect(inputPointer(undefined, '/x')).toBe('/x');
  });
});
