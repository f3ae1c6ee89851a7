import { describe, expect, it } from 'vitest';
import { fromJs } from '../../src/ir/json.js';
import { classifyShape, type Shape } from '../../src/input/formats.js';

describe('classifyShape', () => {
  const cases: [string, unknown, Shape['kind'], string | undefined][] = [
    ['OpenAI Chat', { type: 'function', function: {} }, 'tool', 'openai-chat'],
    ['OpenAI Chat without type', { function: { name: 'a' } }, 'tool', 'openai-chat'],
    ['OpenAI Responses', { type: 'function', name: 'a' }, 'tool', 'openai-responses'],
    ['Anthropic', { name: 'a', input_schema: {} }, 'tool', 'anthropic'],
    ['Anthropic custom', { type: 'custom', name: 'a', input_schema: {} }, 'tool', 'anthropic'],
    ['MCP', { name: 'a', inputSchema: {} }, 'tool', 'mcp'],
    ['bare', { name: 'a' }, 'tool', 'bare'],
    ['bare without name', { parameters: {} }, 'tool', 'bare'],
    ['MCP list', { tools: [] }, 'container', 'mcp-list'],
    ['a tool named with a tools key is a tool', { name: 'a', tools: [] }, 'tool', 'bare'],
    ['JSON-RPC', { jsonrpc: '2.0', id: 1, result: {} }, 'container', 'jsonrpc'],
    ['Gemini Tool', { functionDeclarations: [] }, 'container', 'gemini-tool'],
    ['OpenAI file_search', { type: 'file_search' }, 'unknown', undefined],
    ['custom without input_schema', { type: 'custom', name: 'a' }, 'unknown', undefined],
    ['an object with other keys', { foo: 1 }, 'unknown', undefined],
    ['an array', [], 'unknown', undefined],
    ['a string', 's', 'unknown', undefined],
  ];
  it.each(cases)('%s', (_n, value, kind, detail) => {
    const s = classifyShape(fromJs(value));
    expect(s.kind).toBe(kind);
    if (s.kind === 'tool') expect(s.format).toBe(detail);
    if (s.kind === 'container') expect(s.container).toBe(detail);
    if (s.kind === 'unknown') expect(s.reason.length).toBeGreaterThan(0);
  });
});
