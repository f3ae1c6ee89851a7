/**
 * Gemma 4 calls: the strict reading (hand-checked cases), SGLang `gemma4` on cases read from its
 * Python, and against the family-parse oracle rows.
 */
import { describe, expect, it } from 'vitest';
import { SERVER_PARSERS, SYNTAXES } from '../../../src/parse/families/gemma4.js';
import { assembleReading } from '../../../src/parse/xml/draft.js';
import { readParseTools } from '../../../src/parse/xml/tools.js';

const TOOLS = readParseTools([
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] } } },
  { type: 'function', function: { name: 'probe', parameters: { type: 'object', properties: { b: { type: 'boolean' }, arr: { type: 'array' }, obj: { type: 'object' }, nul: { type: ['string', 'null'] }, n: { type: 'number' } } } } },
]).tools;

const syntax = SYNTAXES.find((s) => s.name === 'gemma-4')!;
const sglang = SERVER_PARSERS.find((p) => p.server === 'sglang' && p.name === 'gemma4')!;
const Q = '<|"|>';

function read(text: string) {
  const parse = syntax.read(text, TOOLS);
  const r = assembleReading(text, parse);
  return { content: r.content, calls: r.calls.map((c) => c.function), incomplete: parse.calls.map((c) => c.incomplete), codes: r.diagnostics.map((d) => d.code), consumed: parse.consumed };
}

describe('gemma-4 strict reading', () => {
  it('one complete call as the template writes it', () => {
    const r = read(`<|tool_call>call:get_weather{city:${Q}Paris, FR${Q},days:3}<tool_call|>`);
    expect(r.calls).toEqual([{ name: 'get_weather', arguments: '{"city": "Paris, FR", "days": 3}' }]);
    expect(r.content).toBeNull();
    expect(r.incomplete).toEqual([undefined]);
    expect(r.codes).toEqual([]);
  });

  it('every value form: booleans, None, numbers, nested objects and arrays (keys bare)', () => {
    const r = read(`<|tool_call>call:probe{arr:[${Q}a${Q},1,[true]],b:false,n:1e-07,nul:None,obj:{k:{z:None},l:[]}}<tool_call|>`);
    expect(r.calls).toEqual([{ name: 'probe', arguments: '{"arr": ["a", 1, [true]], "b": false, "n": 1e-07, "nul": null, "obj": {"k": {"z": null}, "l": []}}' }]);
    expect(r.codes).toEqual([]);
  });

  it('two calls, text before and after', () => {
    const r = read(`Checking.\n<|tool_call>call:get_weather{city:${Q}Oslo${Q}}<tool_call|><|tool_call>call:probe{b:true}<tool_call|>\nDone.`);
    expect(r.calls).toEqual([
      { name: 'get_weather', arguments: '{"city": "Oslo"}' },
      { name: 'probe', arguments: '{"b": true}' },
    ]);
    expect(r.content).toBe('Checking.\n\nDone.');
  });

  it('cut off after the arguments: incomplete; inside them: dropped, truncated', () => {
    const whole = read(`<|tool_call>call:get_weather{city:${Q}Paris${Q}}`);
    expect(whole.calls).toEqual([{ name: 'get_weather', arguments: '{"city": "Paris"}' }]);
    expect(whole.incomplete).toEqual(['no <tool_call|>']);
    for (const cut of [`<|tool_call>call:get_weather{city:${Q}Par`, '<|tool_call>call:get_wea', '<|tool_call>call:get_weather{days:1', '<|tool_call>cal']) {
      const r = read(cut);
      expect(r.calls).toEqual([]);
      expect(r.codes).toEqual(['parse/truncated']);
      expect(r.content).toBe(cut);
    }
  });

  it('malformed arguments drop the call (its text stays content); the next call is read', () => {
    for (const bad of [`<|tool_call>call:get_weather{city:${Q}Paris}<tool_call|>`, '<|tool_call>call:get_weather{city:}<tool_call|>', `<|tool_call>call:get_weather{city:${Q}x${Q}} junk<tool_call|>`]) {
      const text = `${bad}<|tool_call>call:probe{b:true}<tool_call|>`;
      const r = read(text);
      expect(r.calls).toEqual([{ name: 'probe', arguments: '{"b": true}' }]);
      expect(r.codes).toEqual(['parse/invalid-call']);
      expect(r.content).toBe(bad);
    }
  });

  it('a bare word is read as a string, with a warning; a wrong type is kept, with an error', () => {
    const r = read('<|tool_call>call:get_weather{city:Paris,days:x}<tool_call|>');
    expect(r.calls).toEqual([{ name: 'get_weather', arguments: '{"city": "Paris", "days": "x"}' }]);
    expect(r.codes).toEqual(['parse/coerced', 'parse/coerced', 'parse/type-mismatch']);
  });

  it('a plain answer; a stray <tool_call|> after a call', () => {
    expect(read('Nothing to call.')).toEqual({ content: 'Nothing to call.', calls: [], incomplete: [], codes: [], consumed: [] });
    const r = read(`<|tool_call>call:probe{b:true}<tool_call|><tool_call|>`);
    expect(r.content).toBeNull();
    expect(r.codes).toEqual(['parse/stray-close-tag']);
  });

  it('reads in linear time (four times the calls: far less than sixteen times the time)', () => {
    const one = `<|tool_call>call:get_weather{city:${Q}x${Q}`;
    const time = (n: number) => {
      const text = one.repeat(n);
      let best = Infinity;
      for (let k = 0; k < 3; k++) {
        const t = performance.now();
        syntax.read(text, TOOLS);
        best = Math.min(best, performance.now() - t);
      }
      return best;
    };
    time(1000);
    expect(time(40000)).toBeLessThan(time(10000) * 8 + 50);
  });
});

describe('SGLang gemma4 (read from the Python)', () => {
  it('bare values: int(), float() only with a dot, else the text; unknown tools returned', () => {
    const text = `x<|tool_call>call:nope{a:1e-07,b:None,c:1.5,d: 7 ,e:${Q}s${Q},f:[1,${Q}t${Q},{g:true}]}<tool_call|>`;
    expect(sglang.parse(text, TOOLS)).toEqual({
      content: 'x',
      tool_calls: [{ name: 'nope', arguments: '{"a": "1e-07", "b": "None", "c": 1.5, "d": 7, "e": "s", "f": [1, "t", {"g": true}]}' }],
      tools_called: true,
      has_tool_call: true,
    });
  });

  it('an unterminated string takes the rest; a call never closed ends the search', () => {
    expect(sglang.parse(`<|tool_call>call:probe{s:${Q}a}<tool_call|><|tool_call>call:probe{b:true}`, TOOLS).tool_calls).toEqual([{ name: 'probe', arguments: '{"s": "a}"}' }]);
    expect(sglang.parse('<|tool_call>call:probe{b:true}', TOOLS)).toEqual({ content: '<|tool_call>call:probe{b:true}', tool_calls: [], tools_called: false, has_tool_call: true });
  });

  it('a stray ] in a list: the Python loop never ends (reported as MemoryError)', () => {
    expect(sglang.parse(`<|tool_call>call:probe{a:[[${Q}a]b${Q}]]}<tool_call|>`, TOOLS).exception).toBe('MemoryError: ');
  });
});

