/** Command R7B (`<|START_ACTION|>[…]<|END_ACTION|>`) and Command R+ (`Action: ```json […]````) read strictly: hand-checked cases. */
import { describe, expect, it } from 'vitest';
import { readCommandR7b, readCommandRPlus, SERVER_PARSERS, SYNTAXES } from '../../../src/parse/families/cohere.js';
import { brief } from './brief.js';

const tools = [{ name: 'get_weather' }, { name: 'calc' }];

const r7b = (t: string) => brief(t, readCommandR7b(t, tools));
const rPlus = (t: string) => brief(t, readCommandRPlus(t, tools));

describe('command-r7b strict reading', () => {
  it('two calls as the template writes them', () => {
    const t = '<|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Paris"}},\n    {"tool_call_id": "1", "tool_name": "calc", "parameters": {}}\n]<|END_ACTION|><|END_OF_TURN_TOKEN|>';
    const r = readCommandR7b(t, tools);
    expect(brief(t, r)).toEqual({ calls: ['get_weather {"city": "Paris"}', 'calc {}'], callNotes: [[], []], content: null, notes: [] });
    expect(r.calls.map((c) => c.start)).toEqual([22, 110]);
  });
  it('an answer: the response markers are no content', () => {
    expect(r7b('<|START_RESPONSE|>Paris.<|END_RESPONSE|>')).toEqual({ calls: [], callNotes: [], content: 'Paris.', notes: [] });
  });
  it('no <|END_ACTION|> at the end: incomplete; cut in the second call: the first incomplete, the second dropped', () => {
    expect(r7b('<|START_ACTION|>[{"tool_name": "get_weather", "parameters": {"city": "Paris"}}]')).toEqual({ calls: ['get_weather {"city": "Paris"} [no <|END_ACTION|>]'], callNotes: [[]], content: null, notes: [] });
    const t = '<|START_ACTION|>[{"tool_name": "calc", "parameters": {}}, {"tool_name": "get_weather", "param';
    expect(r7b(t)).toEqual({ calls: ['calc {} [no ] and <|END_ACTION|>]'], callNotes: [[]], content: '{"tool_name": "get_weather", "param', notes: ['parse/truncated@58'] });
  });
  it('invalid JSON: dropped, its text content; a call without "tool_name": no call', () => {
    const t = `<|START_ACTION|>[{"tool_name": "calc", "parameters": {'e': 1}}]<|END_ACTION|>`;
    expect(r7b(t)).toEqual({ calls: [], callNotes: [], content: t, notes: ['parse/invalid-json@54'] });
    expect(r7b('<|START_ACTION|>[{"name": "calc", "parameters": {}}]<|END_ACTION|>').notes).toEqual(['parse/invalid-call@17']);
  });
});

describe('command-r-plus strict reading', () => {
  it('a plan, then the fenced list as the template writes it', () => {
    const t = 'I will look up the weather.\nAction:\n```json\n[\n    {\n        "tool_name": "get_weather",\n        "parameters": {"city": "Paris"}\n    }\n]```';
    const r = readCommandRPlus(t, tools);
    expect(brief(t, r)).toEqual({ calls: ['get_weather {"city": "Paris"}'], callNotes: [[]], content: 'I will look up the weather.\n', notes: [] });
    expect(r.calls[0].start).toBe(50);
  });
  it('two calls, no fence; the output ending inside the second: the first incomplete, the second dropped', () => {
    expect(rPlus('Action: [{"tool_name": "calc", "parameters": {}}, {"tool_name": "get_weather", "parameters": {}}]')).toEqual({ calls: ['calc {}', 'get_weather {}'], callNotes: [[], []], content: null, notes: [] });
    const t = 'Action: ```json\n[{"tool_name": "get_weather", "parameters": {"city": "Paris"}}, {"tool_name": "calc", "param';
    expect(rPlus(t)).toEqual({ calls: ['get_weather {"city": "Paris"} [no ] and ```]'], callNotes: [[]], content: '{"tool_name": "calc", "param', notes: ['parse/truncated@80'] });
  });
  it('no closing fence at the end: incomplete', () => {
    expect(rPlus('Action:\n```json\n[{"tool_name": "calc", "parameters": {}}]').calls).toEqual(['calc {} [no closing ```]']);
  });
  it('invalid JSON: dropped; "Action:" followed by no list: kept as text with a warning; a plain answer', () => {
    const t = 'Action: [{"tool_name": "calc", "parameters": {"e": 1,}}]';
    expect(rPlus(t)).toEqual({ calls: [], callNotes: [], content: t, notes: ['parse/invalid-json@53'] });
    expect(rPlus('Action: none needed')).toEqual({ calls: [], callNotes: [], content: 'Action: none needed', notes: ['parse/empty-tool-call@0'] });
    expect(readCommandRPlus('Paris is the capital.', tools)).toEqual({ calls: [], consumed: [], textNotes: [] });
  });
  it('registered', () => {
    expect(SYNTAXES.map((s) => [s.name, s.openers])).toEqual([['command-r7b', ['<|START_ACTION|>']], ['command-r-plus', ['Action:']]]);
    expect(SERVER_PARSERS).toEqual([]);
  });
});
