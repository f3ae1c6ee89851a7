/**
 * Hermes / Qwen JSON calls: the strict reading (hand-checked cases), the server parsers on cases
 * read from their Python, and vLLM `hermes`, SGLang `qwen25` and `hermes` against the family-parse
 * oracle rows.
 */
import { describe, expect, it } from 'vitest';
import { SERVER_PARSERS, SYNTAXES } from '../../../src/parse/families/hermes.js';
import { assembleReading } from '../../../src/parse/xml/draft.js';
import { readParseTools } from '../../../src/parse/xml/tools.js';

const TOOLS = readParseTools([
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] } } },
  { type: 'function', function: { name: 'calc', parameters: { type: 'object', properties: { expr: { type: 'string' } } } } },
]).tools;

const syntax = SYNTAXES.find((s) => s.name === 'hermes')!;
const parser = (key: string) => SERVER_PARSERS.find((p) => `${p.server}:${p.name}` === key)!;

function read(text: string) {
  const parse = syntax.read(text, TOOLS);
  const r = assembleReading(text, parse);
  return { content: r.content, calls: r.calls.map((c) => c.function), incomplete: parse.calls.map((c) => c.incomplete), codes: r.diagnostics.map((d) => d.code), consumed: parse.consumed };
}

describe('hermes strict reading', () => {
  it('one complete call', () => {
    const r = read('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}\n</tool_call>');
    expect(r.calls).toEqual([{ name: 'get_weather', arguments: '{"city": "Paris", "days": 3}' }]);
    expect(r.content).toBeNull();
    expect(r.incomplete).toEqual([undefined]);
    expect(r.codes).toEqual([]);
  });

  it('two calls, text before and after', () => {
    const text = 'Let me look.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n<tool_call>\n{"name": "calc", "arguments": {"expr": "1+1"}}\n</tool_call>\nDone.';
    const r = read(text);
    expect(r.calls).toEqual([
      { name: 'get_weather', arguments: '{"city": "Paris"}' },
      { name: 'calc', arguments: '{"expr": "1+1"}' },
    ]);
    expect(r.content).toBe('Let me look.\n\nDone.');
  });

  it('cut off after the JSON: returned, incomplete; cut inside the JSON: dropped, truncated', () => {
    const whole = read('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}');
    expect(whole.calls).toEqual([{ name: 'get_weather', arguments: '{"city": "Paris"}' }]);
    expect(whole.incomplete).toEqual(['no </tool_call>']);
    const cut = read('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Par');
    expect(cut.calls).toEqual([]);
    expect(cut.codes).toEqual(['parse/truncated']);
    expect(cut.content).toBe('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Par');
  });

  it('invalid JSON drops the call, its text stays content', () => {
    const text = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris",}}\n</tool_call>';
    const r = read(text);
    expect(r.calls).toEqual([]);
    expect(r.codes).toEqual(['parse/invalid-json']);
    expect(r.content).toBe(text);
  });

  it('a plain answer: no calls, nothing consumed', () => {
    const r = read('Paris is the capital of France.');
    expect(r).toEqual({ content: 'Paris is the capital of France.', calls: [], incomplete: [], codes: [], consumed: [] });
  });

  it('a stray </tool_call> after a call is left out of the content, with a warning', () => {
    const r = read('<tool_call>\n{"name": "calc", "arguments": {"expr": "2"}}\n</tool_call></tool_call>');
    expect(r.calls).toEqual([{ name: 'calc', arguments: '{"expr": "2"}' }]);
    expect(r.content).toBeNull();
    expect(r.codes).toEqual(['parse/stray-close-tag']);
  });
});

describe('hermes server parsers (read from the Python)', () => {
  it('vLLM: one bad body drops every call; content is the text before the first <tool_call>', () => {
    const p = parser('vllm:hermes');
    expect(p.parse('a<tool_call>{"name": "calc", "arguments": {}}</tool_call><tool_call>{bad</tool_call>', TOOLS)).toEqual({ content: 'a<tool_call>{"name": "calc", "arguments": {}}</tool_call><tool_call>{bad</tool_call>', tool_calls: [], tools_called: false });
    expect(p.parse('a <tool_call>{"name": "nope", "arguments": {"x": 1}}</tool_call>', TOOLS)).toEqual({ content: 'a ', tool_calls: [{ name: 'nope', arguments: '{"x": 1}' }], tools_called: true });
    expect(p.parse('<tool_call>{"name": "calc", "arguments": {"expr": "1"}}', TOOLS).tool_calls).toEqual([{ name: 'calc', arguments: '{"expr": "1"}', incomplete: 'no </tool_call>' }]);
  });

  it('SGLang qwen25: needs the newlines, skips bad JSON, drops unknown tools, strips the content', () => {
    const p = parser('sglang:qwen25');
    const text = ' Hi \n<tool_call>\n{"name": "calc", "arguments": {"expr": "1"}}\n</tool_call>\n<tool_call>\n{bad}\n</tool_call>\n<tool_call>\n{"name": "nope", "arguments": {}}\n</tool_call>';
    expect(p.parse(text, TOOLS)).toEqual({ content: 'Hi', tool_calls: [{ name: 'calc', arguments: '{"expr": "1"}' }], tools_called: true, has_tool_call: true });
    // no newline after <tool_call>: no call at all
    expect(p.parse('<tool_call>{"name": "calc", "arguments": {}}</tool_call>', TOOLS)).toEqual({ content: '<tool_call>{"name": "calc", "arguments": {}}</tool_call>', tool_calls: [], tools_called: false, has_tool_call: false });
    // a list is several calls; "parameters" wins when truthy; a missing "arguments" is {}
    expect(p.parse('<tool_call>\n[{"name": "calc", "parameters": {"expr": "p"}, "arguments": {"expr": "a"}}, {"name": "calc"}]\n</tool_call>', TOOLS).tool_calls).toEqual([
      { name: 'calc', arguments: '{"expr": "p"}' },
      { name: 'calc', arguments: '{}' },
    ]);
    // a body that is no object raises out of the parser (only JSONDecodeError is caught)
    expect(p.parse('<tool_call>\n5\n</tool_call>', TOOLS).exception).toBe("AttributeError: 'int' object has no attribute 'get'");
    expect(p.parse('<tool_call>\n{"name": ["calc"], "arguments": {}}\n</tool_call>', TOOLS).exception).toBe("TypeError: unhashable type: 'list'");
    // "arguments": null is dumped as null
    expect(p.parse('<tool_call>\n{"name": "calc", "arguments": null}\n</tool_call>', TOOLS).tool_calls).toEqual([{ name: 'calc', arguments: 'null' }]);
  });

  it('SGLang hermes: an unclosed call is read; any exception gives the whole text', () => {
    const p = parser('sglang:hermes');
    expect(p.parse('x <tool_call>{"name": "calc", "arguments": {"expr": "1"}}', TOOLS)).toEqual({ content: 'x', tool_calls: [{ name: 'calc', arguments: '{"expr": "1"}', incomplete: 'no </tool_call>' }], tools_called: true, has_tool_call: true });
    expect(p.parse('<tool_call>5</tool_call>', TOOLS)).toEqual({ content: '<tool_call>5</tool_call>', tool_calls: [], tools_called: false, has_tool_call: true });
    expect(p.parse('<tool_call></tool_call>', TOOLS)).toEqual({ content: '', tool_calls: [], tools_called: false, has_tool_call: true });
  });
});

