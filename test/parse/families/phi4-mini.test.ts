/**
 * Phi-4-mini's `functools[…]` read strictly (hand-checked cases), vLLM's `phi4_mini_json` parser on
 * cases whose expected values come from the real Python code at the oracle's commit, and the
 * family-parse oracle rows.
 */
import { describe, expect, it } from 'vitest';
import { readPhi4Mini, SERVER_PARSERS, SYNTAXES, vllmPhi4Mini } from '../../../src/parse/families/phi4-mini.js';
import { brief } from './brief.js';

const tools = [{ name: 'get_weather' }, { name: 'calc' }];

const read = (t: string) => brief(t, readPhi4Mini(t, tools));

describe('phi4-mini strict reading', () => {
  it('two calls in one list', () => {
    const t = 'functools[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "calc", "arguments": {"e": "1"}}]';
    const r = readPhi4Mini(t, tools);
    expect(brief(t, r)).toEqual({ calls: ['get_weather {"city": "Paris"}', 'calc {"e": "1"}'], callNotes: [[], []], content: null, notes: [] });
    expect(r.calls.map((c) => c.start)).toEqual([10, 67]);
  });
  it('text before; a space before the list; arrays inside the arguments', () => {
    expect(read('text\nfunctools [{"name": "get_weather", "arguments": {"a": [1]}}]')).toEqual({ calls: ['get_weather {"a": [1]}'], callNotes: [[]], content: 'text\n', notes: [] });
  });
  it('cut in the second call: the first returned incomplete (no ] came), the second dropped', () => {
    const t = 'functools[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "calc", "argu';
    expect(read(t)).toEqual({ calls: ['get_weather {"city": "Paris"} [no ]]'], callNotes: [[]], content: '{"name": "calc", "argu', notes: ['parse/truncated@67'] });
  });
  it('invalid JSON: dropped, its text content', () => {
    const t = `functools[{"name": "calc", "arguments": {'e': 1}}]`;
    expect(read(t)).toEqual({ calls: [], callNotes: [], content: t, notes: ['parse/invalid-json@41'] });
  });
  it('"parameters" read as the arguments', () => {
    expect(read('functools[{"name": "calc", "parameters": {"e": 1}}]').calls).toEqual(['calc {"e": 1}']);
  });
  it('the word functools in a text is no finding', () => {
    for (const t of ['Use functools.lru_cache here.', 'import functools', 'The capital is Paris.']) expect(readPhi4Mini(t, tools)).toEqual({ calls: [], consumed: [], textNotes: [] });
  });
  it('registered', () => {
    expect(SYNTAXES.map((s) => [s.name, s.openers])).toEqual([['phi4-mini', ['functools']]]);
    expect(SERVER_PARSERS.map((p) => `${p.server}:${p.name}`)).toEqual(['vllm:phi4_mini_json']);
  });
});

// Expected values from the real parser code at the oracle's commit.
describe('vLLM phi4_mini_json', () => {
  it('an array inside the arguments ends the list at its `]`: invalid JSON, tools_called with no calls', () => {
    expect(vllmPhi4Mini('functools[{"name": "calc", "arguments": {"a": [1]}}]')).toEqual({ content: null, tool_calls: [], tools_called: true });
  });
  it('text around the list is dropped; "parameters" read when "arguments" is missing', () => {
    expect(vllmPhi4Mini('text functools[{"name": "calc", "parameters": {"a": 1}}] after')).toEqual({ content: null, tool_calls: [{ name: 'calc', arguments: '{"a": 1}' }], tools_called: true });
  });
  it('a call with neither key, or no `]` at all: no calls, the whole text', () => {
    for (const t of ['functools[{"name": "calc"}]', 'functools[{"name": "calc", "arguments": {"a": 1}}']) expect(vllmPhi4Mini(t)).toEqual({ content: t, tool_calls: [], tools_called: false });
  });
});

