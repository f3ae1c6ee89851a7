/**
 * Granite 3's `<|tool_call|>[…]` read strictly (hand-checked cases), vLLM's `granite` parser on
 * cases whose expected values come from the real Python code at the oracle's commit, and the
 * family-parse oracle rows.
 */
import { describe, expect, it } from 'vitest';
import { readGranite3, SERVER_PARSERS, SYNTAXES, vllmGranite } from '../../../src/parse/families/granite.js';
import { brief } from './brief.js';

const tools = [{ name: 'get_weather' }, { name: 'calc' }];

const read = (t: string) => brief(t, readGranite3(t, tools));

describe('granite-3 strict reading', () => {
  it('one call, <|end_of_text|> taken with it', () => {
    const t = '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris"}}]<|end_of_text|>';
    const r = readGranite3(t, tools);
    expect(brief(t, r)).toEqual({ calls: ['get_weather {"city": "Paris"}'], callNotes: [[]], content: null, notes: [] });
    expect(r.calls[0].start).toBe(14);
  });
  it('two calls, text before', () => {
    expect(read('Sure. <|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "calc", "arguments": {}}]')).toEqual({ calls: ['get_weather {"city": "Paris"}', 'calc {}'], callNotes: [[], []], content: 'Sure. ', notes: [] });
  });
  it('cut in the second call: the first incomplete, the second dropped', () => {
    const t = 'Hi <|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "calc", "arguments": {"e": ';
    expect(read(t)).toEqual({ calls: ['get_weather {"city": "Paris"} [no ]]'], callNotes: [[]], content: 'Hi {"name": "calc", "arguments": {"e": ', notes: ['parse/truncated@74'] });
  });
  it('invalid JSON: dropped, the text stays content; text after the list is content', () => {
    const t = `<|tool_call|>[{"name": "calc", "arguments": {"e": 1,}}]`;
    expect(read(t)).toEqual({ calls: [], callNotes: [], content: t, notes: ['parse/invalid-json@52'] });
    expect(read('<|tool_call|>[{"name": "calc", "arguments": {}}]\nDone.').content).toBe('\nDone.');
  });
  it('a plain answer', () => {
    expect(readGranite3('The answer is 4.', tools)).toEqual({ calls: [], consumed: [], textNotes: [] });
  });
  it('registered', () => {
    expect(SYNTAXES.map((s) => [s.name, s.openers])).toEqual([['granite-3', ['<|tool_call|>']]]);
    expect(SERVER_PARSERS.map((p) => `${p.server}:${p.name}`)).toEqual(['vllm:granite']);
  });
});

// Expected values from the real parser code at the oracle's commit.
describe('vLLM granite', () => {
  it('whitespace around the token and the list is stripped', () => {
    expect(vllmGranite('  <|tool_call|> [{"name": "calc", "arguments": {"a": 1}}]  ')).toEqual({ content: null, tool_calls: [{ name: 'calc', arguments: '{"a": 1}' }], tools_called: true });
  });
  it('both openers removed; an empty list calls tools with no calls', () => {
    expect(vllmGranite('<|tool_call|><tool_call>[]')).toEqual({ content: null, tool_calls: [], tools_called: true });
  });
  it('text before the token, "parameters" for "arguments", a bare object: no calls, the whole text', () => {
    for (const t of ['Hi <|tool_call|>[{"name": "calc", "arguments": {"a": 1}}]', '<|tool_call|>[{"name": "calc", "parameters": {"a": 1}}]', '<|tool_call|>{"name": "calc", "arguments": {}}']) {
      expect(vllmGranite(t)).toEqual({ content: t, tool_calls: [], tools_called: false });
    }
  });
});

