/**
 * Each family's leak markers are what its official template prints: a conversation with a tool
 * result and a next user turn, rendered through each family's template (vLLM's preprocessing, so
 * string arguments reach the template as objects), holds one of the family's result openings right
 * before the result and one of its turn openings right before the next user message. And the
 * findings themselves: a written result, a written turn, a control string in the content.
 */
import { describe, expect, it } from 'vitest';
import { renderRequest } from '../../../src/api/render.js';
import { FAMILY_PARSERS, parseFamilyToolCalls } from '../../../src/parse/families/index.js';
import { familyLeaks, LEAK_MARKERS } from '../../../src/parse/families/leaks.js';

const TOOL = { type: 'function', function: { name: 'get_weather', description: 'Weather in a city.', parameters: { type: 'object', properties: { city: { type: 'string', description: 'The city.' } }, required: ['city'] } } };

function body(): unknown {
  return {
    tools: [TOOL],
    messages: [
      { role: 'system', content: 'You help.' },
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call00001', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } }] },
      { role: 'tool', tool_call_id: 'call00001', name: 'get_weather', content: 'RESULTMARK' },
      { role: 'assistant', content: 'It is sunny.' },
      { role: 'user', content: 'USER2MARK' },
    ],
  };
}

describe('leak markers come from the templates', () => {
  for (const model of Object.keys(LEAK_MARKERS).filter((m) => m !== 'kimi-k2-thinking')) {
    it(model, async () => {
      // vLLM hands the template object arguments, transformers the string: some templates take only one of them;
      // Command R+'s template refuses JSON Schema parameters it cannot print: then the same conversation without tools
      let prompt: string | undefined;
      const failures: string[] = [];
      for (const [server, b] of [['vllm', body()], ['transformers', body()], ['vllm', { ...(body() as object), tools: undefined }]] as const) {
        try {
          prompt = (await renderRequest(b, { model, server })).text;
          break;
        } catch (e) {
          failures.push((e as Error).message);
        }
      }
      expect(prompt, failures.join('\n')).toBeDefined();
      const r = prompt!.indexOf('RESULTMARK');
      const u = prompt!.indexOf('USER2MARK');
      expect(r).toBeGreaterThan(0);
      const before = prompt!.slice(Math.max(0, r - 120), r);
      expect(LEAK_MARKERS[model]!.results.some((m) => before.includes(m)), `${JSON.stringify(before)} holds none of ${LEAK_MARKERS[model]!.results.join(' ')}`).toBe(true);
      const beforeUser = prompt!.slice(r, u);
      expect(LEAK_MARKERS[model]!.turns.some((m) => beforeUser.includes(m)), `${JSON.stringify(beforeUser)} holds none of ${LEAK_MARKERS[model]!.turns.join(' ')}`).toBe(true);
    });
  }

  it('kimi-k2-thinking (no official template shipped) has the markers of kimi-k2', () => {
    expect(LEAK_MARKERS['kimi-k2-thinking']).toEqual(LEAK_MARKERS['kimi-k2']);
  });

  it('every family with a reader has its markers', () => {
    expect(FAMILY_PARSERS.map((f) => f.model).filter((m) => LEAK_MARKERS[m] === undefined)).toEqual([]);
  });
});

describe('familyLeaks', () => {
  it('a completion that writes the tool result itself, and goes on with the user turn (qwen3)', () => {
    const text = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call><|im_end|>\n<|im_start|>user\n<tool_response>\nsunny\n</tool_response>';
    const r = parseFamilyToolCalls(text, { model: 'qwen3' });
    const codes = familyLeaks(text, r, 'qwen3').map((d) => `${d.code} ${d.path}`);
    expect(codes).toContain(`leak/fabricated-tool-result /text#${text.indexOf('<tool_response>')}`);
    expect(codes).toContain(`leak/fabricated-turn /text#${text.indexOf('<|im_start|>user')}`);
    expect(codes).toContain('leak/control-token-in-content /content');
  });

  it('plain text holds no leak', () => {
    const text = 'The weather in Paris is sunny, 21°C. Use <b>bold</b> | pipes [INSTRUCTIONS] freely.';
    for (const f of FAMILY_PARSERS) {
      const r = parseFamilyToolCalls(text, { model: f.model });
      expect(familyLeaks(text, r, f.model), f.model).toEqual([]);
    }
  });

  it('a Llama 3 completion that writes the ipython turn', () => {
    const text = '{"name": "get_weather", "parameters": {"city": "Paris"}}<|eom_id|><|start_header_id|>ipython<|end_header_id|>\n\n{"temp": 21}';
    const r = parseFamilyToolCalls(text, { model: 'llama-3.1' });
    expect(familyLeaks(text, r, 'llama-3.1').map((d) => d.code)).toContain('leak/fabricated-tool-result');
  });
});
