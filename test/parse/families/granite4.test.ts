/**
 * Granite 4's `<tool_call>{…}</tool_call>` read strictly (the Hermes reading; hand-checked cases),
 * vLLM's `granite4` parser on cases whose expected values come from the real Python code at the
 * oracle's commit, and the family-parse oracle rows.
 */
import { describe, expect, it } from 'vitest';
import { SERVER_PARSERS, SYNTAXES, vllmGranite4 } from '../../../src/parse/families/granite4.js';
import { brief } from './brief.js';

const tools = [{ name: 'get_weather' }, { name: 'calc' }];
const readGranite4 = SYNTAXES[0].read;

const read = (t: string) => brief(t, readGranite4(t, tools));

describe('granite-4 strict reading', () => {
  it('text, then two calls a newline apart (the template\'s layout)', () => {
    const t = 'Hi\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n<tool_call>\n{"name": "calc", "arguments": {}}\n</tool_call>';
    const r = readGranite4(t, tools);
    expect(brief(t, r)).toEqual({ calls: ['get_weather {"city": "Paris"}', 'calc {}'], callNotes: [[], []], content: 'Hi\n', notes: [] });
    expect(r.calls.map((c) => c.start)).toEqual([3, 84]);
  });
  it('the output ends after the JSON: returned incomplete; inside it: dropped', () => {
    expect(read('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}')).toEqual({ calls: ['get_weather {"city": "Paris"} [no </tool_call>]'], callNotes: [[]], content: null, notes: [] });
    const cut = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Par';
    expect(read(cut)).toEqual({ calls: [], callNotes: [], content: cut, notes: ['parse/truncated@0'] });
  });
  it('invalid JSON: dropped, its text content', () => {
    const t = `<tool_call>\n{"name": "calc", "arguments": {'e': 1}}\n</tool_call>`;
    expect(read(t)).toEqual({ calls: [], callNotes: [], content: t, notes: ['parse/invalid-json@43'] });
  });
  it('a plain answer', () => {
    expect(readGranite4('The answer is 4.', tools)).toEqual({ calls: [], consumed: [], textNotes: [] });
  });
  it('registered', () => {
    expect(SYNTAXES.map((s) => [s.name, s.openers])).toEqual([['granite-4', ['<tool_call>']]]);
    expect(SERVER_PARSERS.map((p) => `${p.server}:${p.name}`)).toEqual(['vllm:granite4']);
  });
});

// Expected values from the real parser code at the oracle's commit.
describe('vLLM granite4', () => {
  it('a string "arguments" is kept as it is; null fails FunctionCall (no calls, the whole text)', () => {
    expect(vllmGranite4('<tool_call>{"name": "calc", "arguments": "raw"}</tool_call>')).toEqual({ content: null, tool_calls: [{ name: 'calc', arguments: 'raw' }], tools_called: true });
    const t = '<tool_call>{"name": "calc", "arguments": null}</tool_call>';
    expect(vllmGranite4(t)).toEqual({ content: t, tool_calls: [], tools_called: false });
  });
  it('the text between calls joined as it is', () => {
    expect(vllmGranite4('a<tool_call>{"name": "calc", "arguments": {}}</tool_call>b<tool_call>{"name": "get_weather", "arguments": {"c": 1}}</tool_call>c')).toEqual({ content: 'abc', tool_calls: [{ name: 'calc', arguments: '{}' }, { name: 'get_weather', arguments: '{"c": 1}' }], tools_called: true });
  });
  it('an empty call or a call never closed fails an assertion: no calls, the whole text', () => {
    for (const t of ['<tool_call></tool_call>', '<tool_call>{"name": "calc", "arguments": {}}']) expect(vllmGranite4(t)).toEqual({ content: t, tool_calls: [], tools_called: false });
  });
  it('no calls: the text as content, an empty text None', () => {
    expect(vllmGranite4('  \n')).toEqual({ content: '  \n', tool_calls: [], tools_called: false });
    expect(vllmGranite4('')).toEqual({ content: null, tool_calls: [], tools_called: false });
  });
});

