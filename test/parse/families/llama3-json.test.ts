/**
 * Llama 3 JSON calls read strictly (hand-checked cases), vLLM's `llama3_json` and SGLang's `llama3`
 * parsers on cases whose expected values come from the real Python code at the oracle's commits,
 * and the family-parse oracle rows of both.
 */
import { describe, expect, it } from 'vitest';
import { readLlama3Json, SERVER_PARSERS, sglangLlama3, SYNTAXES, vllmLlama3Json } from '../../../src/parse/families/llama3-json.js';
import { brief } from './brief.js';

const tools = [{ name: 'get_weather' }, { name: 'calc' }];

const read = (t: string) => brief(t, readLlama3Json(t, tools));

describe('llama3-json strict reading', () => {
  it('one call, the whole message', () => {
    const t = '{"name": "get_weather", "parameters": {"city": "Paris"}}';
    const r = readLlama3Json(t, tools);
    expect(brief(t, r)).toEqual({ calls: ['get_weather {"city": "Paris"}'], callNotes: [[]], content: null, notes: [] });
    expect(r.calls[0].start).toBe(0);
    expect(r.consumed).toEqual([[0, t.length]]);
  });
  it('two calls after <|python_tag|>, "; " between them, <|eom_id|> after: all taken', () => {
    const t = '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}; {"name": "calc", "arguments": {"e": "1+1"}}<|eom_id|>';
    const r = readLlama3Json(t, tools);
    expect(brief(t, r)).toEqual({ calls: ['get_weather {"city": "Paris"}', 'calc {"e": "1+1"}'], callNotes: [[], []], content: null, notes: [] });
    expect(r.calls.map((c) => c.start)).toEqual([14, 72]);
  });
  it('cut in the second call: the first kept (no closing marker exists, so it is whole), the cut one dropped as truncated', () => {
    const t = '{"name": "get_weather", "parameters": {"city": "Paris"}}; {"name": "calc", "parameters": {"e": "1+';
    expect(read(t)).toEqual({ calls: ['get_weather {"city": "Paris"}'], callNotes: [[]], content: '{"name": "calc", "parameters": {"e": "1+', notes: ['parse/truncated@58'] });
  });
  it('cut in the only call: no call, the text stays content', () => {
    const t = '{"name": "get_weather", "parameters": {"city": "Par';
    expect(read(t)).toEqual({ calls: [], callNotes: [], content: t, notes: ['parse/truncated@0'] });
  });
  it('invalid JSON (a Python dict inside): dropped, the text stays content', () => {
    const t = `{"name": "get_weather", "parameters": {'city': 'Paris'}}`;
    expect(read(t)).toEqual({ calls: [], callNotes: [], content: t, notes: ['parse/invalid-json@39'] });
  });
  it('text before (a line of its own) and the call ending the output: read with a warning', () => {
    const t = 'Let me check.\n\n{"name": "get_weather", "parameters": {"city": "Paris"}}';
    const r = readLlama3Json(t, tools);
    expect(brief(t, r)).toEqual({ calls: ['get_weather {"city": "Paris"}'], callNotes: [['parse/no-wrapper']], content: 'Let me check.\n\n', notes: [] });
    expect(r.calls[0].start).toBe(15);
  });
  it('text after a call: content', () => {
    expect(read('{"name": "calc", "parameters": {}}\n\nDone.')).toEqual({ calls: ['calc {}'], callNotes: [[]], content: '\n\nDone.', notes: [] });
  });
  it('plain answers: no call, nothing consumed (JSON in prose, a JSON answer, a call-shaped line followed by text)', () => {
    for (const t of ['The capital of France is Paris.', 'Set it as {"name": "get_weather", "arguments": {"city": "x"}} in the config.', '{"result": 4}', 'Here:\n{"name": "calc", "parameters": {}}\nok']) {
      expect(readLlama3Json(t, tools)).toEqual({ calls: [], consumed: [], textNotes: [] });
    }
  });
  it('<|python_tag|> before a built-in tool call: kept as text with a warning', () => {
    const t = '<|python_tag|>brave_search.call(query="x")';
    expect(read(t)).toEqual({ calls: [], callNotes: [], content: t, notes: ['parse/wrong-dialect@0'] });
  });
  it('"parameters" and "arguments" both: "parameters" (the template\'s) is read, the other noted; a name that is no string: no call', () => {
    expect(read('{"name": "calc", "arguments": {"a": 1}, "parameters": {"p": 2}}').calls).toEqual(['calc {"p": 2}']);
    expect(read('{"name": "calc", "arguments": {"a": 1}, "parameters": {"p": 2}}').callNotes).toEqual([['parse/ignored-key']]);
    expect(read('<|python_tag|>{"name": 5, "parameters": {}}').notes).toEqual(['parse/invalid-call@14']);
  });
  it('registered', () => {
    expect(SYNTAXES.map((s) => [s.name, s.openers])).toEqual([['llama3-json', []]]);
    expect(SERVER_PARSERS.map((p) => `${p.server}:${p.name}`)).toEqual(['vllm:llama3_json', 'sglang:llama3']);
  });
});

// Expected values from the real parser code at the oracle's commits.
describe('vLLM llama3_json', () => {
  it('a `{` right after a call is skipped (it is at the end index): the second object is never read', () => {
    const t = '{"name": "calc", "parameters": {"e": 1}}{"name": "get_weather", "parameters": {}}';
    expect(vllmLlama3Json(t)).toEqual({ content: t, tool_calls: [], tools_called: false });
  });
  it('a call inside prose is read, and the text dropped', () => {
    expect(vllmLlama3Json('Set it as {"name": "get_weather", "arguments": {"city": "x"}} in the config.')).toEqual({ content: null, tool_calls: [{ name: 'get_weather', arguments: '{"city": "x"}' }], tools_called: true });
  });
  it('one brace that starts no JSON spoils every call', () => {
    const t = '{"name": "calc", "parameters": {"e": 1}}; {oops}';
    expect(vllmLlama3Json(t)).toEqual({ content: t, tool_calls: [], tools_called: false });
  });
  it('"arguments" wins over "parameters"; a name that is no str: no calls; the tag alone: no calls', () => {
    expect(vllmLlama3Json('{"name": "calc", "arguments": {"a": 1}, "parameters": {"p": 2}}').tool_calls).toEqual([{ name: 'calc', arguments: '{"a": 1}' }]);
    expect(vllmLlama3Json('{"name": 5, "parameters": {}}').tools_called).toBe(false);
    expect(vllmLlama3Json('<|python_tag|>')).toEqual({ content: '<|python_tag|>', tool_calls: [], tools_called: false });
  });
});

describe('SGLang llama3', () => {
  it('two objects with no separator: the character after the first is skipped, the rest read as a string, which has no .get', () => {
    expect(sglangLlama3('{"name": "calc", "parameters": {"e": 1}}{"name": "get_weather", "parameters": {}}', tools)).toEqual({ content: '{"name": "calc", "parameters": {"e": 1}}{"name": "get_weather", "parameters": {}}', tool_calls: [], tools_called: false, has_tool_call: true, exception: "AttributeError: 'str' object has no attribute 'get'" });
    expect(sglangLlama3('{"name": "calc", "parameters": {"e": 1}};[1]', tools).exception).toBe("AttributeError: 'list' object has no attribute 'get'");
  });
  it('a Python dict after the tag is read through ast.literal_eval', () => {
    expect(sglangLlama3("<|python_tag|>{'name': 'calc', 'parameters': {'e': 2}}", tools)).toEqual({ content: '', tool_calls: [{ name: 'calc', arguments: '{"e": 2}' }], tools_called: true, has_tool_call: true });
  });
  it('normal text: before the tag, and the stripped rest after the separator character', () => {
    expect(sglangLlama3('Hi <|python_tag|>{"name": "calc", "parameters": {"e": 1}}Xtrailing', tools)).toEqual({ content: 'Hi trailing', tool_calls: [{ name: 'calc', arguments: '{"e": 1}' }], tools_called: true, has_tool_call: true });
  });
  it('no tag and not starting with `{`: no tool call at all', () => {
    const t = ' {"name": "calc", "parameters": {}}';
    expect(sglangLlama3(t, tools)).toEqual({ content: t, tool_calls: [], tools_called: false, has_tool_call: false });
  });
  it('unknown tools dropped; "parameters" wins when truthy, else "arguments"', () => {
    expect(sglangLlama3('{"name": "send", "parameters": {}}; {"name": "calc", "parameters": {"ok": true}}', tools).tool_calls).toEqual([{ name: 'calc', arguments: '{"ok": true}' }]);
    expect(sglangLlama3('{"name": "calc", "parameters": {}, "arguments": {"a": 1}}', tools).tool_calls).toEqual([{ name: 'calc', arguments: '{"a": 1}' }]);
  });
});

