/**
 * LFM2 calls: the strict `lfm2` reading (hand-checked cases), vLLM `lfm2` and SGLang `lfm2` on
 * cases whose results were read from the real parser code, and both against the family-parse
 * oracle rows.
 */
import { describe, expect, it } from 'vitest';
import { SERVER_PARSERS, SYNTAXES } from '../../../src/parse/families/lfm2.js';
import { assembleReading } from '../../../src/parse/xml/draft.js';
import { readParseTools } from '../../../src/parse/xml/tools.js';

const TOOLS = readParseTools([
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] } } },
  { type: 'function', function: { name: 'calc', parameters: { type: 'object', properties: { expr: { type: 'string' } } } } },
]).tools;
const CALC = readParseTools([{ type: 'function', function: { name: 'calc', parameters: { type: 'object', properties: {} } } }]).tools;
const S = '<|tool_call_start|>';
const E = '<|tool_call_end|>';

const syntax = SYNTAXES.find((s) => s.name === 'lfm2')!;
const parser = (key: string) => SERVER_PARSERS.find((p) => `${p.server}:${p.name}` === key)!;

function read(text: string) {
  const parse = syntax.read(text, TOOLS);
  const r = assembleReading(text, parse);
  return { content: r.content, calls: r.calls.map((c) => c.function), incomplete: parse.calls.map((c) => c.incomplete), codes: r.diagnostics.map((d) => d.code) };
}

describe('lfm2 strict reading', () => {
  it('one complete call', () => {
    const r = read(`${S}[get_weather(city="Paris", days=3)]${E}`);
    expect(r.calls).toEqual([{ name: 'get_weather', arguments: '{"city": "Paris", "days": 3}' }]);
    expect(r.content).toBeNull();
    expect(r.incomplete).toEqual([undefined]);
    expect(r.codes).toEqual([]);
  });

  it('two calls in one block, text before and after, negative numbers read', () => {
    const r = read(`Checking.\n${S}[get_weather(city="Paris", days=-1), calc(expr="2 + 2")]${E}\nDone.`);
    expect(r.calls).toEqual([
      { name: 'get_weather', arguments: '{"city": "Paris", "days": -1}' },
      { name: 'calc', arguments: '{"expr": "2 + 2"}' },
    ]);
    expect(r.content).toBe('Checking.\n\nDone.');
  });

  it('the JSON form LFM2 writes when asked for JSON', () => {
    const r = read(`${S}[{"name": "get_weather", "arguments": {"city": "Paris"}}]${E}`);
    expect(r.calls).toEqual([{ name: 'get_weather', arguments: '{"city": "Paris"}' }]);
    expect(r.content).toBeNull();
  });

  it('cut off: after the list, returned incomplete; inside a call, dropped', () => {
    const whole = read(`${S}[get_weather(city="Paris")]`);
    expect(whole.calls).toEqual([{ name: 'get_weather', arguments: '{"city": "Paris"}' }]);
    expect(whole.incomplete).toEqual([`no ${E}`]);
    expect(whole.content).toBeNull();
    const second = read(`${S}[get_weather(city="Paris"), calc(expr="2 +`);
    expect(second.calls).toEqual([{ name: 'get_weather', arguments: '{"city": "Paris"}' }]);
    expect(second.incomplete).toEqual([`no ] and no ${E}`]);
    expect(second.content).toBe('calc(expr="2 +');
    expect(second.codes).toEqual(['parse/incomplete-call', 'parse/truncated']);
    const name = read(`${S}[get_cur`);
    expect(name.calls).toEqual([]);
    expect(name.codes).toEqual(['parse/truncated']);
    expect(name.content).toBe(`${S}[get_cur`);
  });

  it('not Python, or invalid JSON: no call, the block stays content', () => {
    const bad = read(`${S}[get_weather(city="Paris", days=)]${E}`);
    expect(bad.calls).toEqual([]);
    expect(bad.codes).toEqual(['parse/invalid-call']);
    expect(bad.content).toBe(`${S}[get_weather(city="Paris", days=)]${E}`);
    const json = read(`${S}[{"name": "calc", "arguments": {"expr": "1",}}]${E}`);
    expect(json.calls).toEqual([]);
    expect(json.codes).toEqual(['parse/invalid-json']);
  });

  it('a plain answer; an echoed call after the block: its stray end token dropped, the echo kept as text', () => {
    expect(read('Paris is the capital of France.')).toEqual({ content: 'Paris is the capital of France.', calls: [], incomplete: [], codes: [] });
    const echo = read(`${S}[calc(expr="1")]${E}[calc(expr="1")]${E}`);
    expect(echo.calls).toEqual([{ name: 'calc', arguments: '{"expr": "1"}' }]);
    expect(echo.content).toBe('[calc(expr="1")]');
    expect(echo.codes).toEqual(['parse/stray-close-tag']);
  });
});

describe('lfm2 server parsers (results read from the real vLLM and SGLang code)', () => {
  const calc = (args: string) => ({ name: 'calc', arguments: args });
  it('vLLM lfm2: the first block; text around it stripped and joined; the echo through the last end token dropped', () => {
    const p = parser('vllm:lfm2');
    expect(p.parse(`${S}[calc(expr="1")]${E}`, CALC)).toEqual({ content: null, tool_calls: [calc('{"expr": "1"}')], tools_called: true });
    expect(p.parse(`${S}[calc(expr="1")]${E}[calc(expr="1")]${E} ok`, CALC)).toEqual({ content: 'ok', tool_calls: [calc('{"expr": "1"}')], tools_called: true });
    // -1 and tuples are not constants for vLLM
    const neg = `Hi\n${S}[calc(n=-1, t=(1, 2))]${E}\nBye`;
    expect(p.parse(neg, CALC)).toEqual({ content: neg, tool_calls: [], tools_called: false });
    // no end token: the rest is the block (returned, marked incomplete)
    expect(p.parse(`${S}[calc(expr="1")]`, CALC)).toEqual({ content: null, tool_calls: [{ ...calc('{"expr": "1"}'), incomplete: `no ${E}` }], tools_called: true });
    // not a list
    expect(p.parse(`${S}calc(expr="1")${E}`, CALC).tools_called).toBe(false);
  });

  it('SGLang lfm2: every closed block, Python or JSON; normal_text is only the text before the first block', () => {
    const p = parser('sglang:lfm2');
    expect(p.parse(`Hi\n${S}[calc(n=-1, t=(1, 2))]${E}\nBye`, CALC)).toEqual({ content: 'Hi', tool_calls: [calc('{"n": -1, "t": [1, 2]}')], tools_called: true, has_tool_call: true });
    expect(p.parse(`${S}calc(expr="1")${E}`, CALC).tool_calls).toEqual([calc('{"expr": "1"}')]);
    expect(p.parse(`${S}[{"name": "calc", "arguments": {"expr": "1"}}]${E}`, CALC).tool_calls).toEqual([calc('{"expr": "1"}')]);
    // a value it cannot read skips that call; an unhashable key drops the block; an unclosed block is not read
    expect(p.parse(`${S}[calc(x=y), calc(expr="2")]${E}`, CALC).tool_calls).toEqual([calc('{"expr": "2"}')]);
    expect(p.parse(`${S}[calc(d={[1]: 2})]${E}`, CALC)).toEqual({ content: '', tool_calls: [], tools_called: false, has_tool_call: true });
    expect(p.parse(`${S}[calc(expr="1")]`, CALC)).toEqual({ content: '', tool_calls: [], tools_called: false, has_tool_call: true });
    // parse_base_json's exceptions escape detect_and_parse
    expect(p.parse(`${S}{"name": ["calc"]}${E}`, CALC).exception).toBe("TypeError: unhashable type: 'list'");
  });

  it('linear in the text', () => {
    const time = (f: () => void) => {
      const t = performance.now();
      f();
      return performance.now() - t;
    };
    for (const unit of [S, `${S}[f(a=1)]${E}`, `${S}{`, E, `${S}[f(`]) {
      for (const run of [(t: string) => syntax.read(t, TOOLS), (t: string) => parser('vllm:lfm2').parse(t, TOOLS), (t: string) => parser('sglang:lfm2').parse(t, TOOLS)]) {
        run(unit.repeat(2000));
        const a = time(() => run(unit.repeat(20000)));
        const b = time(() => run(unit.repeat(40000)));
        expect(b, `${unit}: ${a.toFixed(0)}ms → ${b.toFixed(0)}ms`).toBeLessThan(Math.max(6 * a, 300));
      }
    }
  });
});

