/**
 * Qwen3-Coder XML calls: the strict reading (hand-checked cases), SGLang `qwen3_coder` on cases
 * read from its Python, and against the family-parse oracle rows.
 */
import { describe, expect, it } from 'vitest';
import { SERVER_PARSERS, SYNTAXES } from '../../../src/parse/families/qwen3-coder.js';
import { assembleReading } from '../../../src/parse/xml/draft.js';
import { readParseTools } from '../../../src/parse/xml/tools.js';

const TOOLS = readParseTools([
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] } } },
  { type: 'function', function: { name: 'probe', parameters: { type: 'object', properties: { n: { type: 'number' }, b: { type: 'boolean' }, o: { type: 'object' }, t: { type: ['string', 'null'] }, s: { type: 'string' } } } } },
]).tools;

const syntax = SYNTAXES.find((s) => s.name === 'qwen3-coder')!;
const sglang = SERVER_PARSERS.find((p) => p.server === 'sglang' && p.name === 'qwen3_coder')!;

function read(text: string) {
  const parse = syntax.read(text, TOOLS);
  const r = assembleReading(text, parse);
  return { content: r.content, calls: r.calls.map((c) => c.function), incomplete: parse.calls.map((c) => c.incomplete), codes: r.diagnostics.map((d) => d.code), consumed: parse.consumed };
}

const call = (name: string, params: string) => `<tool_call>\n<function=${name}>\n${params}</function>\n</tool_call>`;
const param = (k: string, v: string) => `<parameter=${k}>\n${v}\n</parameter>\n`;

describe('qwen3-coder strict reading', () => {
  it('one complete call, values decoded by the schema', () => {
    const r = read(call('get_weather', param('city', 'Paris') + param('days', '3')));
    expect(r.calls).toEqual([{ name: 'get_weather', arguments: '{"city": "Paris", "days": 3}' }]);
    expect(r.content).toBeNull();
    expect(r.codes).toEqual([]);
  });

  it('two calls with text before and after', () => {
    const r = read(`Looking.\n${call('get_weather', param('city', 'Oslo'))}\n${call('probe', param('b', 'True'))}\nDone.`);
    expect(r.calls).toEqual([
      { name: 'get_weather', arguments: '{"city": "Oslo"}' },
      { name: 'probe', arguments: '{"b": true}' },
    ]);
    expect(r.content).toBe('Looking.\n\nDone.');
    expect(r.codes).toEqual(['parse/coerced']);
  });

  it('cut off after the parameters: incomplete; inside a value: dropped, truncated', () => {
    const whole = read('<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n');
    expect(whole.calls).toEqual([{ name: 'get_weather', arguments: '{"city": "Paris"}' }]);
    expect(whole.incomplete).toEqual(['no </function>, no </tool_call>']);
    const cut = read('<tool_call>\n<function=get_weather>\n<parameter=city>\nPar');
    expect(cut.calls).toEqual([]);
    expect(cut.codes).toEqual(['parse/truncated']);
    expect(cut.content).toBe('<tool_call>\n<function=get_weather>\n<parameter=city>\nPar');
  });

  it('an object that is no JSON nor Python literal is kept as text, with an error', () => {
    const r = read(call('probe', param('o', '{a: 1')));
    expect(r.calls).toEqual([{ name: 'probe', arguments: '{"o": "{a: 1"}' }]);
    expect(r.codes).toEqual(['parse/type-mismatch']);
  });

  it('a plain answer: no calls, nothing consumed', () => {
    expect(read('No tool needed.')).toEqual({ content: 'No tool needed.', calls: [], incomplete: [], codes: [], consumed: [] });
  });

  it('a stray </tool_call> after a call is left out of the content', () => {
    const r = read(`${call('get_weather', param('city', 'Rome'))}</tool_call>`);
    expect(r.content).toBeNull();
    expect(r.codes).toEqual(['parse/stray-close-tag']);
  });
});

describe('SGLang qwen3_coder (read from the Python)', () => {
  it('values by the schema type; null in any case; unknown tools returned', () => {
    const text = `pre ${call('probe', param('n', '5') + param('t', 'NULL') + param('s', '007') + param('b', 'yes') + param('o', "{'k': (1, 2)}"))}${call('nope', param('x', '1'))}`;
    expect(sglang.parse(text, TOOLS)).toEqual({
      content: 'pre ',
      tool_calls: [
        { name: 'probe', arguments: '{"n": 5, "t": null, "s": "007", "b": false, "o": {"k": [1, 2]}}' },
        { name: 'nope', arguments: '{"x": "1"}' },
      ],
      tools_called: true,
      has_tool_call: true,
    });
    // `float()`, made an int only when written without . or e
    expect(sglang.parse(call('probe', param('n', '1e3')), TOOLS).tool_calls[0].arguments).toBe('{"n": 1000.0}');
    expect(sglang.parse(call('probe', param('n', 'inf')), TOOLS).tool_calls[0].arguments).toBe('{"n": Infinity}');
  });

  it('no block closed: the whole text is one block, its last call marked incomplete', () => {
    expect(sglang.parse('<tool_call>\n<function=get_weather>\n<parameter=city>\nPar', TOOLS)).toEqual({
      content: '',
      tool_calls: [{ name: 'get_weather', arguments: '{"city": "Par"}', incomplete: 'no </parameter>, no </function>, no </tool_call>' }],
      tools_called: true,
      has_tool_call: true,
    });
  });

  it('a value json.dumps refuses (a set) gives no calls and the whole text', () => {
    const text = call('probe', param('o', '{1, 2}'));
    expect(sglang.parse(text, TOOLS)).toEqual({ content: text, tool_calls: [], tools_called: false, has_tool_call: true });
  });
});

