/**
 * Hunyuan A13B's syntax read strictly (hand-checked cases), vLLM's parser on cases checked against
 * the real Python code, and the family-parse oracle rows of vllm:hunyuan_a13b.
 */
import { describe, expect, it } from 'vitest';
import { readHunyuanA13b, SERVER_PARSERS, SYNTAXES, vllmHunyuanA13b } from '../../../src/parse/families/hunyuan-a13b.js';
import { brief } from './brief.js';

const tools = [{ name: 'get_weather' }, { name: 'calc' }];

describe('hunyuan-a13b strict reading', () => {
  it('one call, two calls after text', () => {
    const one = '<tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris"}}]</tool_calls>';
    const r = readHunyuanA13b(one, tools);
    expect(brief(one, r)).toEqual({ calls: ['get_weather {"city": "Paris"}'], callNotes: [[]], content: null, notes: [] });
    expect(r.calls[0].start).toBe(13);
    const two = 'OK.\n<tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "calc", "arguments": {"x": 1}}]</tool_calls>';
    expect(brief(two, readHunyuanA13b(two, tools))).toEqual({ calls: ['get_weather {"city": "Paris"}', 'calc {"x": 1}'], callNotes: [[], []], content: 'OK.\n', notes: [] });
  });
  it('cut in the only call: no call, the text content; cut after it: incomplete', () => {
    const cut = 'x<tool_calls>[{"name": "get_weather", "arguments": {"city": "Par';
    expect(brief(cut, readHunyuanA13b(cut, tools))).toEqual({ calls: [], callNotes: [], content: cut, notes: ['parse/truncated@14'] });
    const after = '<tool_calls>[{"name": "calc", "arguments": {"x": 1}}]';
    expect(brief(after, readHunyuanA13b(after, tools)).calls).toEqual(['calc {"x": 1} [no </tool_calls>]']);
  });
  it('invalid JSON drops the call; a missing name drops it; missing arguments read as {} with a note', () => {
    const bad = '<tool_calls>[{"name": "calc", "arguments": {"x": 1,}}]</tool_calls>';
    expect(brief(bad, readHunyuanA13b(bad, tools))).toEqual({ calls: [], callNotes: [], content: bad, notes: ['parse/invalid-json@51'] });
    expect(brief('', readHunyuanA13b('<tool_calls>[{"arguments": {}}]</tool_calls>', tools)).notes).toEqual(['parse/invalid-call@13']);
    expect(brief('', readHunyuanA13b('<tool_calls>[{"name": "calc"}]</tool_calls>', tools)).callNotes).toEqual([['parse/coerced']]);
  });
  it('a stray </tool_calls> after the block is dropped with a note; a missing one before text: read, noted', () => {
    const stray = '<tool_calls>[{"name": "calc", "arguments": {"x": 1}}]</tool_calls></tool_calls>';
    expect(brief(stray, readHunyuanA13b(stray, tools))).toEqual({ calls: ['calc {"x": 1}'], callNotes: [[]], content: null, notes: ['parse/stray-close-tag@66'] });
    const open = '<tool_calls>[{"name": "calc", "arguments": {"x": 1}}] tail';
    expect(brief(open, readHunyuanA13b(open, tools))).toEqual({ calls: ['calc {"x": 1}'], callNotes: [[]], content: ' tail', notes: ['parse/unclosed@54'] });
  });
  it('a plain answer', () => {
    expect(readHunyuanA13b('助手：巴黎。', tools)).toEqual({ calls: [], consumed: [], textNotes: [] });
  });
  it('registered', () => {
    expect(SYNTAXES.map((s) => [s.name, s.openers])).toEqual([['hunyuan-a13b', ['<tool_calls>']]]);
    expect(SERVER_PARSERS.map((p) => `${p.server}:${p.name}`)).toEqual(['vllm:hunyuan_a13b']);
  });
});

// Expected values from the real parser code at the oracle's commit.
describe('vLLM hunyuan_a13b', () => {
  it('a block inside <think> is skipped; a block that is no JSON is skipped for the next', () => {
    const t = '<think><tool_calls>[{"name": "a", "arguments": {}}]</tool_calls></think><tool_calls>[{"name": "b", "arguments": {}}]</tool_calls>';
    expect(vllmHunyuanA13b(t)).toEqual({ content: '<think><tool_calls>[{"name": "a", "arguments": {}}]</tool_calls></think>', tool_calls: [{ name: 'b', arguments: '{}' }], tools_called: true });
    expect(vllmHunyuanA13b('<tool_calls>bad</tool_calls> mid <tool_calls>[{"name": "g", "arguments": {}}]</tool_calls> tail')).toEqual({ content: '<tool_calls>bad</tool_calls> mid ', tool_calls: [{ name: 'g', arguments: '{}' }], tools_called: true });
  });
  it('string arguments as they are; a list fails pydantic: no calls, the whole text', () => {
    expect(vllmHunyuanA13b('<tool_calls>[{"name": "f", "arguments": "{\\"a\\": 1}"}]</tool_calls>').tool_calls).toEqual([{ name: 'f', arguments: '{"a": 1}' }]);
    const list = '<tool_calls>[{"name": "f", "arguments": [1]}]</tool_calls>';
    expect(vllmHunyuanA13b(list)).toEqual({ content: list, tool_calls: [], tools_called: false });
  });
  it('no block: the first 助手： removed; a block that is no list: the text before it', () => {
    expect(vllmHunyuanA13b('助手：a 助手：b')).toEqual({ content: 'a 助手：b', tool_calls: [], tools_called: false });
    expect(vllmHunyuanA13b('pre<tool_calls>{"name": "f", "arguments": {}}</tool_calls>')).toEqual({ content: 'pre', tool_calls: [], tools_called: false });
    expect(vllmHunyuanA13b('x<tool_calls>[]</tool_calls>')).toEqual({ content: 'x', tool_calls: [], tools_called: false });
  });
});

