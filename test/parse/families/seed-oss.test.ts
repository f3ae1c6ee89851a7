/** Seed-OSS XML calls: the strict reading, hand-checked. */
import { describe, expect, it } from 'vitest';
import { SERVER_PARSERS, SYNTAXES } from '../../../src/parse/families/seed-oss.js';
import { assembleReading } from '../../../src/parse/xml/draft.js';
import { readParseTools } from '../../../src/parse/xml/tools.js';

const TOOLS = readParseTools([
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] } } },
  { type: 'function', function: { name: 'probe', parameters: { type: 'object', properties: { b: { type: 'boolean' }, arr: { type: 'array' }, obj: { type: 'object' }, nul: { type: ['integer', 'null'] }, s: { type: 'string' } } } } },
]).tools;

const syntax = SYNTAXES.find((s) => s.name === 'seed-oss')!;

function read(text: string) {
  const parse = syntax.read(text, TOOLS);
  const r = assembleReading(text, parse);
  return { content: r.content, calls: r.calls.map((c) => c.function), incomplete: parse.calls.map((c) => c.incomplete), codes: r.diagnostics.map((d) => d.code), consumed: parse.consumed };
}

// as the template writes them: the value right after `>`, `</parameter>` right after the value
const call = (name: string, params: string) => `<seed:tool_call>\n<function=${name}>\n${params}</function>\n</seed:tool_call>`;
const param = (k: string, v: string) => `<parameter=${k}>${v}</parameter>\n`;

describe('seed-oss strict reading', () => {
  it('registers no server parser of its own (vLLM seed_oss is the engine parser)', () => {
    expect(SERVER_PARSERS).toEqual([]);
  });

  it('one complete call; a string keeps its newlines exactly', () => {
    const r = read(call('get_weather', param('city', 'New\nYork\n') + param('days', '2')));
    expect(r.calls).toEqual([{ name: 'get_weather', arguments: '{"city": "New\\nYork\\n", "days": 2}' }]);
    expect(r.content).toBeNull();
    expect(r.codes).toEqual([]);
  });

  it("non-strings in Python's spelling (`| string`): True, None, Python lists and dicts", () => {
    const r = read(call('probe', param('b', 'True') + param('arr', "['a', 1]") + param('obj', "{'k': None}") + param('nul', 'None')));
    expect(r.calls).toEqual([{ name: 'probe', arguments: '{"b": true, "arr": ["a", 1], "obj": {"k": null}, "nul": null}' }]);
    expect(r.codes).toEqual(['parse/coerced', 'parse/coerced', 'parse/coerced', 'parse/coerced']);
  });

  it('two calls, text before and after', () => {
    const r = read(`Sure.\n${call('get_weather', param('city', 'Oslo'))}\n${call('probe', param('s', 'x'))}\nBye.`);
    expect(r.calls.map((c) => c.name)).toEqual(['get_weather', 'probe']);
    expect(r.content).toBe('Sure.\n\nBye.');
  });

  it('cut off after the parameters: incomplete; inside a value: dropped, truncated', () => {
    const whole = read('<seed:tool_call>\n<function=get_weather>\n<parameter=city>Paris</parameter>\n</function>\n');
    expect(whole.calls).toEqual([{ name: 'get_weather', arguments: '{"city": "Paris"}' }]);
    expect(whole.incomplete).toEqual(['no </seed:tool_call>']);
    const cut = read('<seed:tool_call>\n<function=get_weather>\n<parameter=city>Par');
    expect(cut.calls).toEqual([]);
    expect(cut.codes).toEqual(['parse/truncated']);
    expect(cut.content).toBe('<seed:tool_call>\n<function=get_weather>\n<parameter=city>Par');
  });

  it('a value that fits no type of the schema stays text, with an error', () => {
    const r = read(call('probe', param('b', 'maybe')));
    expect(r.calls).toEqual([{ name: 'probe', arguments: '{"b": "maybe"}' }]);
    expect(r.codes).toEqual(['parse/type-mismatch']);
  });

  it('a plain answer; a stray </seed:tool_call> after a call', () => {
    expect(read('Just text.')).toEqual({ content: 'Just text.', calls: [], incomplete: [], codes: [], consumed: [] });
    const r = read(`${call('get_weather', param('city', 'Rome'))}</seed:tool_call>`);
    expect(r.content).toBeNull();
    expect(r.codes).toEqual(['parse/stray-close-tag']);
  });
});
