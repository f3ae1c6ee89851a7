/**
 * Pythonic calls (Llama 4): the `ast.parse` emulation on inputs checked against CPython 3.11, the
 * strict `llama4-pythonic` reading (hand-checked cases), the server parsers on cases whose results
 * were read from the real vLLM/SGLang code, and vLLM `pythonic`, `llama4_pythonic` and SGLang
 * `pythonic` against the family-parse oracle rows.
 */
import { describe, expect, it } from 'vitest';
import { pythonFirstStatementValue, SERVER_PARSERS, SYNTAXES } from '../../../src/parse/families/pythonic.js';
import { assembleReading } from '../../../src/parse/xml/draft.js';
import { readParseTools } from '../../../src/parse/xml/tools.js';

const TOOLS = readParseTools([
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] } } },
  { type: 'function', function: { name: 'calc', parameters: { type: 'object', properties: { expr: { type: 'string' } } } } },
]).tools;
const CALC = readParseTools([{ type: 'function', function: { name: 'calc', parameters: { type: 'object', properties: {} } } }]).tools;

const syntax = SYNTAXES.find((s) => s.name === 'llama4-pythonic')!;
const parser = (key: string) => SERVER_PARSERS.find((p) => `${p.server}:${p.name}` === key)!;

function read(text: string) {
  const parse = syntax.read(text, TOOLS);
  const r = assembleReading(text, parse);
  return { content: r.content, calls: r.calls.map((c) => c.function), incomplete: parse.calls.map((c) => c.incomplete), codes: r.diagnostics.map((d) => d.code) };
}

describe("Python's ast.parse (emulated)", () => {
  const kind = (src: string) => {
    const v = pythonFirstStatementValue(src);
    return v === undefined ? 'empty' : v === null ? null : v.k;
  };
  it('the first statement and its value, as CPython 3.11 parses them', () => {
    expect(kind('[f(a=1)]')).toBe('List');
    expect(kind('[f(a=1)]\nDone')).toBe('List'); // a second statement that happens to be Python
    expect(kind('x = [f(a=1)]')).toBe('List'); // Assign.value
    expect(kind('f(a=1)')).toBe('Call');
    expect(kind('import os')).toBeNull();
    expect(kind('# only a comment\n')).toBe('empty');
    expect(kind('1if x else 2')).toBe('Other');
  });
  it('what CPython refuses', () => {
    for (const src of ['[f(a=1)]\n\nI asked for the weather.', '[f(a=1)]\n  x', '[f(a=1, 2)]', '[f(a=1)] = x', '0123', 'f"{x!z}"', 'x\u00a0y', '[f(a=1)', 'b"é"', 'def f(a=1, b): pass']) {
      expect(() => pythonFirstStatementValue(src), src).toThrow();
    }
  });
  it('keyword values and numbers', () => {
    const v = pythonFirstStatementValue('[f(a=-1.5, b=0x1F, c="x" "y", **d)]');
    expect(v?.k).toBe('List');
    const call = v?.k === 'List' ? v.elts[0] : undefined;
    expect(call?.k === 'Call' ? call.keywords.map((k) => [k.arg, k.value.k]) : undefined).toEqual([
      ['a', 'UnaryOp'],
      ['b', 'Constant'],
      ['c', 'Constant'],
      [null, 'Name'],
    ]);
  });
});

describe('llama4-pythonic strict reading', () => {
  it('one complete call', () => {
    const r = read('[get_weather(city="Paris", days=3)]');
    expect(r.calls).toEqual([{ name: 'get_weather', arguments: '{"city": "Paris", "days": 3}' }]);
    expect(r.content).toBeNull();
    expect(r.incomplete).toEqual([undefined]);
    expect(r.codes).toEqual([]);
  });

  it('two calls after text, inside <|python_start|>…<|python_end|>', () => {
    const r = read('Let me look.\n\n<|python_start|>[get_weather(city="Paris"), calc(expr="1+1")]<|python_end|>');
    expect(r.calls).toEqual([
      { name: 'get_weather', arguments: '{"city": "Paris"}' },
      { name: 'calc', arguments: '{"expr": "1+1"}' },
    ]);
    expect(r.content).toBe('Let me look.\n\n');
    expect(r.codes).toEqual([]);
  });

  it('Python literals as JSON: None, negative numbers, floats as repr, a tuple as an array (noted)', () => {
    const r = read("[get_weather(city='Paris', days=-2, extra=None, opts={\"a\": [1.50, 2e3]}, pair=(True, False))]");
    expect(r.calls).toEqual([{ name: 'get_weather', arguments: '{"city": "Paris", "days": -2, "extra": null, "opts": {"a": [1.5, 2000.0]}, "pair": [true, false]}' }]);
    expect(r.codes).toEqual(['parse/coerced']);
  });

  it('cut off: the whole calls before the cut are returned incomplete (no ]), the cut one is dropped', () => {
    const two = read('[get_weather(city="Paris"), calc(expr="1+');
    expect(two.calls).toEqual([{ name: 'get_weather', arguments: '{"city": "Paris"}' }]);
    expect(two.incomplete).toEqual(['no ]']);
    expect(two.content).toBe('calc(expr="1+');
    expect(two.codes).toEqual(['parse/incomplete-call', 'parse/truncated']);
    const one = read('[get_weather(city="Paris")');
    expect(one.calls).toEqual([{ name: 'get_weather', arguments: '{"city": "Paris"}' }]);
    expect(one.incomplete).toEqual(['no ]']);
    expect(one.content).toBeNull();
    const cut = read('[get_weather(city="Par');
    expect(cut.calls).toEqual([]);
    expect(cut.codes).toEqual(['parse/truncated']);
    expect(cut.content).toBe('[get_weather(city="Par');
    expect(read('[get_wea').codes).toEqual(['parse/truncated']);
  });

  it('not Python: the list stays content; a non-literal value drops only that call', () => {
    const bad = read('[get_weather(city="Paris", days=)]');
    expect(bad.calls).toEqual([]);
    expect(bad.codes).toEqual(['parse/invalid-call']);
    expect(bad.content).toBe('[get_weather(city="Paris", days=)]');
    const mixed = read('[get_weather(city=x + 1), calc(expr="1")]');
    expect(mixed.calls).toEqual([{ name: 'calc', arguments: '{"expr": "1"}' }]);
    expect(mixed.content).toBe('get_weather(city=x + 1)');
    expect(mixed.codes).toEqual(['parse/invalid-call']);
    expect(read('[calc("1")]').calls).toEqual([]); // positional arguments
  });

  it('JSON names are read with a note; values are checked against the schema', () => {
    const r = read('[get_weather(city=null, days="3")]');
    expect(r.calls).toEqual([{ name: 'get_weather', arguments: '{"city": null, "days": "3"}' }]);
    expect(r.codes).toEqual(['parse/coerced', 'parse/type-mismatch', 'parse/type-mismatch']);
  });

  it('text after the list, a plain answer, brackets in prose, a stray <|python_end|>', () => {
    const after = read("[calc(expr=\"1\")] isn't it");
    expect(after.calls).toEqual([{ name: 'calc', arguments: '{"expr": "1"}' }]);
    expect(after.content).toBe(" isn't it");
    expect(read('The capital of France is Paris.')).toEqual({ content: 'The capital of France is Paris.', calls: [], incomplete: [], codes: [] });
    expect(read('See [1] and [the docs].').calls).toEqual([]);
    expect(read('See [1] and [the docs].').codes).toEqual([]);
    const stray = read('The answer is 4.<|python_end|>');
    expect(stray.content).toBe('The answer is 4.');
    expect(stray.codes).toEqual(['parse/stray-close-tag']);
  });
});

describe('pythonic server parsers (results read from the real vLLM and SGLang code)', () => {
  const calc = (args: string) => ({ name: 'calc', arguments: args });
  it('vLLM pythonic: the whole output must be one list of calls with constant values', () => {
    const p = parser('vllm:pythonic');
    expect(p.parse('[calc(expr="1")]', CALC)).toEqual({ content: null, tool_calls: [calc('{"expr": "1"}')], tools_called: true });
    // a second line that is Python itself (a name) passes; prose does not
    expect(p.parse('[calc(expr="1")]\nDone', CALC).tools_called).toBe(true);
    expect(p.parse('[calc(expr="1")]\n\nI asked.', CALC)).toEqual({ content: '[calc(expr="1")]\n\nI asked.', tool_calls: [], tools_called: false });
    // -1 is a UnaryOp: refused; null/true are read
    expect(p.parse('[calc(n=-1)]', CALC).tools_called).toBe(false);
    expect(p.parse('[calc(n=null, m=true)]', CALC).tool_calls).toEqual([calc('{"n": null, "m": true}')]);
    // the regex wants the list at the first character, a plain name
    expect(p.parse('  [calc(expr="é")]\n', CALC).tools_called).toBe(false);
    expect(p.parse('[a.b(x=1)]', CALC).tools_called).toBe(false);
    expect(p.parse('<|python_start|>[calc(expr="1")]<|python_end|>', CALC).tools_called).toBe(false);
    // unknown tools are returned
    expect(p.parse('[calc(expr="1"), nope(x=1)]', CALC).tool_calls).toEqual([calc('{"expr": "1"}'), { name: 'nope', arguments: '{"x": 1}' }]);
  });

  it('vLLM llama4_pythonic: a leading <|python_start|> and every <|python_end|> dropped first', () => {
    const p = parser('vllm:llama4_pythonic');
    expect(p.parse('<|python_start|>[calc(expr="1")]<|python_end|>', CALC)).toEqual({ content: null, tool_calls: [calc('{"expr": "1"}')], tools_called: true });
    expect(p.parse('<|python_start|>[calc(n=-1)]<|python_end|>', CALC)).toEqual({ content: '[calc(n=-1)]', tool_calls: [], tools_called: false });
  });

  it('SGLang pythonic: the first regex match anywhere (its greedy span), known tools only', () => {
    const p = parser('sglang:pythonic');
    expect(p.parse('Sure. [calc(expr="1")] done', CALC)).toEqual({ content: 'Sure.  done', tool_calls: [calc('{"expr": "1"}')], tools_called: true, has_tool_call: true });
    expect(p.parse('[calc(expr="1"), nope(x=1)]', CALC).tool_calls).toEqual([calc('{"expr": "1"}')]);
    // the span runs to the last `)]`: `[…] and […]` is a BoolOp, no list
    expect(p.parse('[calc(expr="1")] and [calc(expr="2")]', CALC)).toEqual({ content: '', tool_calls: [], tools_called: false, has_tool_call: true });
    expect(p.parse('[calc(n=-1)]', CALC)).toEqual({ content: '', tool_calls: [], tools_called: false, has_tool_call: true });
    expect(p.parse('[calc(n=null)]', CALC).tools_called).toBe(false);
    expect(p.parse('<|tool_call_start|>[calc(expr="1")]', CALC)).toEqual({ content: '<|tool_call_start|>', tool_calls: [calc('{"expr": "1"}')], tools_called: true, has_tool_call: true });
    expect(p.parse('The answer is 4.<|python_end|>', CALC)).toEqual({ content: 'The answer is 4.', tool_calls: [], tools_called: false, has_tool_call: false });
  });

  it('linear in the text: 40,000 openers take about twice as long as 20,000', () => {
    const time = (f: () => void) => {
      const t = performance.now();
      f();
      return performance.now() - t;
    };
    for (const unit of ['[f(a=1), ', '[f(a=1)] x ', '[f(']) {
      for (const run of [(t: string) => syntax.read(t, TOOLS), (t: string) => parser('vllm:pythonic').parse(t, TOOLS), (t: string) => parser('sglang:pythonic').parse(t, TOOLS)]) {
        run(unit.repeat(2000));
        const a = time(() => run(unit.repeat(20000)));
        const b = time(() => run(unit.repeat(40000)));
        expect(b, `${unit}: ${a.toFixed(0)}ms → ${b.toFixed(0)}ms`).toBeLessThan(Math.max(6 * a, 300));
      }
    }
  });
});

