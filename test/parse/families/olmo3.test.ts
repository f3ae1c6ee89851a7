/**
 * OLMo 3 calls: the strict `olmo3` reading (hand-checked cases), vLLM `olmo3` on cases whose
 * results were read from the real parser code, and against the family-parse oracle rows.
 */
import { describe, expect, it } from 'vitest';
import { SERVER_PARSERS, SYNTAXES } from '../../../src/parse/families/olmo3.js';
import { assembleReading } from '../../../src/parse/xml/draft.js';
import { readParseTools } from '../../../src/parse/xml/tools.js';

const TOOLS = readParseTools([
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] } } },
  { type: 'function', function: { name: 'calc', parameters: { type: 'object', properties: { expr: { type: 'string' } } } } },
]).tools;
const CALC = readParseTools([{ type: 'function', function: { name: 'calc', parameters: { type: 'object', properties: {} } } }]).tools;
const S = '<function_calls>';
const E = '</function_calls>';

const syntax = SYNTAXES.find((s) => s.name === 'olmo3')!;
const vllm = SERVER_PARSERS.find((p) => p.server === 'vllm' && p.name === 'olmo3')!;

function read(text: string) {
  const parse = syntax.read(text, TOOLS);
  const r = assembleReading(text, parse);
  return { content: r.content, calls: r.calls.map((c) => c.function), incomplete: parse.calls.map((c) => c.incomplete), codes: r.diagnostics.map((d) => d.code) };
}

describe('olmo3 strict reading', () => {
  it('one complete call', () => {
    const r = read(`${S}get_weather(city="Paris", days=3)${E}`);
    expect(r.calls).toEqual([{ name: 'get_weather', arguments: '{"city": "Paris", "days": 3}' }]);
    expect(r.content).toBeNull();
    expect(r.incomplete).toEqual([undefined]);
    expect(r.codes).toEqual([]);
  });

  it('two calls one per line, text before and after; JSON null/true/false are the family spelling', () => {
    const r = read(`Let me check.\n${S}\nget_weather(city="Paris", days=null)\ncalc(expr="1+1")\n${E}\nDone.`);
    expect(r.calls).toEqual([
      { name: 'get_weather', arguments: '{"city": "Paris", "days": null}' },
      { name: 'calc', arguments: '{"expr": "1+1"}' },
    ]);
    expect(r.content).toBe('Let me check.\n\nDone.');
    // null where the schema says integer: reported, not coerced
    expect(r.codes).toEqual(['parse/type-mismatch']);
  });

  it('a call spread over lines inside its brackets is one call', () => {
    expect(read(`${S}calc(\n  expr="1"\n)${E}`).calls).toEqual([{ name: 'calc', arguments: '{"expr": "1"}' }]);
  });

  it('cut off: whole calls returned incomplete, the cut one (or a cut name) dropped', () => {
    const whole = read(`${S}get_weather(city="Paris")`);
    expect(whole.calls).toEqual([{ name: 'get_weather', arguments: '{"city": "Paris"}' }]);
    expect(whole.incomplete).toEqual([`no ${E}`]);
    expect(whole.content).toBeNull();
    const second = read(`${S}get_weather(city="Paris")\ncalc(expr="2 +`);
    expect(second.calls).toEqual([{ name: 'get_weather', arguments: '{"city": "Paris"}' }]);
    expect(second.content).toBe('calc(expr="2 +');
    expect(second.codes).toEqual(['parse/incomplete-call', 'parse/truncated']);
    const name = read(`${S}get_cur`);
    expect(name.calls).toEqual([]);
    expect(name.codes).toEqual(['parse/truncated']);
    expect(name.content).toBe(`${S}get_cur`);
  });

  it('not Python: the block stays content; prose after a call ends the calls there', () => {
    const bad = read(`${S}get_weather(city="Paris", days=)${E}`);
    expect(bad.calls).toEqual([]);
    expect(bad.codes).toEqual(['parse/invalid-call']);
    expect(bad.content).toBe(`${S}get_weather(city="Paris", days=)${E}`);
    const prose = read(`${S}calc(expr="1")\nThis is prose.${E} after`);
    expect(prose.calls).toEqual([{ name: 'calc', arguments: '{"expr": "1"}' }]);
    expect(prose.content).toBe('This is prose. after');
    expect(prose.codes).toEqual(['parse/invalid-call']);
  });

  it('a plain answer; a stray closing tag', () => {
    expect(read('The capital of France is Paris.')).toEqual({ content: 'The capital of France is Paris.', calls: [], incomplete: [], codes: [] });
    const stray = read(`${S}calc(expr="1")${E}${E}`);
    expect(stray.calls).toEqual([{ name: 'calc', arguments: '{"expr": "1"}' }]);
    expect(stray.content).toBeNull();
    expect(stray.codes).toEqual(['parse/stray-close-tag']);
  });
});

describe('vLLM olmo3 (results read from the real vLLM code)', () => {
  const calc = (args: string) => ({ name: 'calc', arguments: args });
  it('lines joined into a list; the text around the block is dropped', () => {
    expect(vllm.parse(`${S}calc(expr="1")\ncalc(expr="2")${E}`, CALC)).toEqual({ content: null, tool_calls: [calc('{"expr": "1"}'), calc('{"expr": "2"}')], tools_called: true });
    expect(vllm.parse(`Hi ${S}calc(n=null)${E} bye`, CALC)).toEqual({ content: null, tool_calls: [calc('{"n": null}')], tools_called: true });
    // without the tags, the whole output is read as call lines
    expect(vllm.parse('calc(expr="1")', CALC).tool_calls).toEqual([calc('{"expr": "1"}')]);
  });
  it('a call over two lines breaks the join; -1 is not a constant', () => {
    const two = `${S}calc(expr="1",\n  n=2)${E}`;
    expect(vllm.parse(two, CALC)).toEqual({ content: two, tool_calls: [], tools_called: false });
    expect(vllm.parse(`${S}calc(n=-1)${E}`, CALC).tools_called).toBe(false);
  });
  it('linear in the text', () => {
    const time = (f: () => void) => {
      const t = performance.now();
      f();
      return performance.now() - t;
    };
    for (const unit of [S, E, `${S}f(a=1)${E}`, `${S}f(a=1)\n`, 'f(a=1)\n']) {
      for (const run of [(t: string) => syntax.read(t, TOOLS), (t: string) => vllm.parse(t, TOOLS)]) {
        run(unit.repeat(2000));
        const a = time(() => run(unit.repeat(20000)));
        const b = time(() => run(unit.repeat(40000)));
        expect(b, `${unit}: ${a.toFixed(0)}ms → ${b.toFixed(0)}ms`).toBeLessThan(Math.max(6 * a, 300));
      }
    }
  });
});

