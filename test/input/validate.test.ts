import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { fromJs, parseJson, type JsonObject } from '../../src/ir/json.js';
import {
  AnthropicToolSchema,
  BareToolSchema,
  GeminiFunctionDeclarationSchema,
  McpListResultSchema,
  McpToolSchema,
  OpenAiChatToolSchema,
  OpenAiResponsesToolSchema,
  plainView,
  validateWrapper,
} from '../../src/input/validate.js';

describe('wrapper schemas', () => {
  const valid: [string, unknown, unknown][] = [
    ['OpenAI Chat', OpenAiChatToolSchema, { type: 'function', function: { name: 'a', description: 'd', parameters: {}, strict: null } }],
    ['OpenAI Responses', OpenAiResponsesToolSchema, { type: 'function', name: 'a', parameters: {}, strict: true }],
    [
      'Anthropic',
      AnthropicToolSchema,
      { type: 'custom', name: 'a', input_schema: {}, cache_control: { type: 'ephemeral' }, defer_loading: true, input_examples: [{}], allowed_callers: ['direct'] },
    ],
    ['MCP', McpToolSchema, { name: 'a', title: 'A', inputSchema: {}, outputSchema: {}, annotations: {}, icons: [], _meta: {}, execution: {} }],
    ['Gemini', GeminiFunctionDeclarationSchema, { name: 'a', behavior: 'BLOCKING', parameters: {}, response: {} }],
    ['bare', BareToolSchema, { name: 'a' }],
    ['MCP list', McpListResultSchema, { tools: [], nextCursor: 'c' }],
  ];
  it.each(valid)('%s accepts a complete wrapper', (_n, schema, value) => {
    expect(Value.Check(schema as never, value)).toBe(true);
  });

  it.each([
    ['OpenAI Chat with a typo', OpenAiChatToolSchema, { type: 'function', function: { name: 'a', paramters: {} } }],
    ['OpenAI Responses of another type', OpenAiResponsesToolSchema, { type: 'file_search', name: 'a' }],
    ['Anthropic without input_schema', AnthropicToolSchema, { name: 'a' }],
    ['MCP with a number title', McpToolSchema, { name: 'a', inputSchema: {}, title: 1 }],
    ['bare with a number name', BareToolSchema, { name: 1 }],
  ])('%s is rejected', (_n, schema, value) => {
    expect(Value.Check(schema as never, value)).toBe(false);
  });
});

describe('validateWrapper', () => {
  it('reports unknown keys, a non-string description and wrong values, with pointers', () => {
    const w = fromJs({ type: 'function', function: { name: 'a', description: 5, strict: 'no', paramters: {} }, extra: true }) as JsonObject;
    const ds = validateWrapper(OpenAiChatToolSchema, w, { pointer: '/3', tool: 'a', descriptionPath: '/function/description' });
    expect(ds.map((d) => [d.code, d.severity, d.path, d.tool])).toEqual([
      ['input/unknown-key', 'warning', '/3/extra', 'a'],
      ['input/unknown-key', 'warning', '/3/function/paramters', 'a'],
      ['input/non-string-description', 'warning', '/3/function/description', 'a'],
      ['input/invalid-key', 'warning', '/3/function/strict', 'a'],
    ]);
    expect(ds[1].message).toContain('did you mean "parameters"?');
  });

  it('skips the paths the caller checks', () => {
    const w = fromJs({ name: 5 }) as JsonObject;
    expect(validateWrapper(BareToolSchema, w, { pointer: '', skip: ['/name'] })).toEqual([]);
    expect(validateWrapper(BareToolSchema, w, { pointer: '' }).map((d) => d.path)).toEqual(['/name']);
  });

  it('does not look inside parameters', () => {
    const w = fromJs({ name: 'a', parameters: { type: 'object', bogus: { deep: [1, { x: 2 }] } } }) as JsonObject;
    expect(validateWrapper(BareToolSchema, w, { pointer: '' })).toEqual([]);
  });

  it('suggests a key only when one is close', () => {
    const w = fromJs({ name: 'a', descripton: 'x', zzz: 1 }) as JsonObject;
    const [near, far] = validateWrapper(BareToolSchema, w, { pointer: '' });
    expect(near.message).toContain('did you mean "description"?');
    expect(far.message).not.toContain('did you mean');
  });
});

describe('plainView', () => {
  it('keeps __proto__ as an own key and cuts deep values to {} and []', () => {
    const v = plainView(parseJson('{"__proto__":1,"a":{"b":{"c":[1]}},"n":1.0}'), 2) as Record<string, unknown>;
    expect(Object.getOwnPropertyNames(v)).toEqual(['__proto__', 'a', 'n']);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(v.a).toEqual({ b: {} });
    expect(v.n).toBe(1);
  });
});
