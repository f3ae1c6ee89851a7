/**
 * Apertus' syntax read strictly (hand-checked cases), vLLM's parser on cases checked against the
 * real Python code, and the family-parse oracle rows of vllm:apertus.
 */
import { describe, expect, it } from 'vitest';
import { readApertus, SERVER_PARSERS, SYNTAXES, vllmApertus } from '../../../src/parse/families/apertus.js';
import { brief } from './brief.js';

const tools = [{ name: 'get_weather' }, { name: 'calc' }];

describe('apertus strict reading', () => {
  it('two calls', () => {
    const t = '<|tools_prefix|>[{"get_weather": {"city": "Paris"}}, {"calc": {"x": 1}}]<|tools_suffix|>';
    const r = readApertus(t, tools);
    expect(brief(t, r)).toEqual({ calls: ['get_weather {"city": "Paris"}', 'calc {"x": 1}'], callNotes: [[], []], content: null, notes: [] });
    expect(r.calls.map((c) => c.start)).toEqual([17, 53]);
  });
  it('text before; the output ends before <|tools_suffix|>: the call returned incomplete', () => {
    const t = 'Hi <|tools_prefix|>[{"get_weather": {"city": "Paris"}}]';
    expect(brief(t, readApertus(t, tools))).toEqual({ calls: ['get_weather {"city": "Paris"} [no <|tools_suffix|>]'], callNotes: [[]], content: 'Hi ', notes: [] });
  });
  it('cut in the second call: the first incomplete, the second dropped (truncated)', () => {
    const t = '<|tools_prefix|>[{"get_weather": {"city": "Paris"}}, {"calc": {"x": ';
    expect(brief(t, readApertus(t, tools))).toEqual({ calls: ['get_weather {"city": "Paris"} [no ] and <|tools_suffix|>]'], callNotes: [[]], content: '{"calc": {"x": ', notes: ['parse/truncated@53'] });
  });
  it('invalid JSON: the call dropped, its text content', () => {
    const t = `<|tools_prefix|>[{"get_weather": {'city': 'Paris'}}]<|tools_suffix|>`;
    expect(brief(t, readApertus(t, tools))).toEqual({ calls: [], callNotes: [], content: t, notes: ['parse/invalid-json@34'] });
  });
  it('an object with two keys is no call; a stray suffix after a call is dropped with a note; text after is content', () => {
    const two = '<|tools_prefix|>[{"get_weather": {}, "calc": {}}]<|tools_suffix|>';
    expect(brief(two, readApertus(two, tools)).notes).toEqual(['parse/invalid-call@17']);
    const t = '<|tools_prefix|>[{"calc": {"x": 1}}]<|tools_suffix|><|tools_suffix|>\nDone.';
    expect(brief(t, readApertus(t, tools))).toEqual({ calls: ['calc {"x": 1}'], callNotes: [[]], content: '\nDone.', notes: ['parse/stray-close-tag@52'] });
  });
  it('arguments written as a JSON string: decoded with a note', () => {
    const t = '<|tools_prefix|>[{"calc": "{\\"x\\": 1}"}]<|tools_suffix|>';
    expect(brief(t, readApertus(t, tools)).callNotes).toEqual([['parse/coerced']]);
  });
  it('a plain answer', () => {
    expect(readApertus('Paris is the capital.', tools)).toEqual({ calls: [], consumed: [], textNotes: [] });
  });
  it('registered', () => {
    expect(SYNTAXES.map((s) => [s.name, s.openers])).toEqual([['apertus', ['<|tools_prefix|>']]]);
    expect(SERVER_PARSERS.map((p) => `${p.server}:${p.name}`)).toEqual(['vllm:apertus']);
  });
});

// Expected values from the real parser code at the oracle's commit (the stub partial_json_parser).
describe('vLLM apertus', () => {
  it('text after the JSON inside the block and after it: content, a newline between', () => {
    expect(vllmApertus('<|tools_prefix|>[{"calc": {"x": 1}}] trailing<|tools_suffix|>after')).toEqual({ content: 'trailing\nafter', tool_calls: [{ name: 'calc', arguments: '{"x": 1}' }], tools_called: true });
  });
  it('only the first block; the second is content', () => {
    expect(vllmApertus('A <|tools_prefix|>[{"a": {}}]<|tools_suffix|> B <|tools_prefix|>[{"b": {}}]<|tools_suffix|> C')).toEqual({ content: 'A\nB <|tools_prefix|>[{"b": {}}] C', tool_calls: [{ name: 'a', arguments: '{}' }], tools_called: true });
  });
  it('items that are no non-empty object are skipped; an empty list still calls tools', () => {
    expect(vllmApertus('<|tools_prefix|>[{}, 5, {"f": {}}, "x", [1]]<|tools_suffix|>')).toEqual({ content: null, tool_calls: [{ name: 'f', arguments: '{}' }], tools_called: true });
    expect(vllmApertus('<|tools_prefix|>[]<|tools_suffix|>')).toEqual({ content: null, tool_calls: [], tools_called: true });
  });
  it('no suffix: the call returned, marked incomplete; cut JSON: no calls, the whole text', () => {
    expect(vllmApertus('<|tools_prefix|>[{"calc": {"x": 1}}]\n').tool_calls).toEqual([{ name: 'calc', arguments: '{"x": 1}', incomplete: 'no <|tools_suffix|>' }]);
    const cut = '<|tools_prefix|>[{"calc": {"x": 1';
    expect(vllmApertus(cut)).toEqual({ content: cut, tool_calls: [], tools_called: false });
  });
});

