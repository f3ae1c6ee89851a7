/**
 * HY v3 tool calls (src/parse/families/hy-v3.ts): the strict reading and vLLM's hy_v3 and SGLang's
 * hunyuan parsers, case by case. Every expected value was worked out by hand from the format or
 * the parsers' Python.
 */
import { describe, expect, it } from 'vitest';
import { SERVER_PARSERS, SYNTAXES } from '../../../src/parse/families/hy-v3.js';
import type { ParserResult } from '../../../src/parse/families/types.js';
import { stringifyArguments } from '../../../src/parse/xml/decode.js';
import { contentOutside, type DialectParse } from '../../../src/parse/xml/draft.js';
import { readParseTools } from '../../../src/parse/xml/tools.js';

const TOOLS = readParseTools([
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } } } },
  {
    type: 'function',
    function: {
      name: 'typed',
      parameters: { type: 'object', properties: { i: { type: 'integer' }, n: { type: 'number' }, b: { type: 'boolean' }, o: { type: 'object' }, nul: { type: ['string', 'null'] }, t: { type: 'null' } } },
    },
  },
]).tools;
const hy = SYNTAXES.find((s) => s.name === 'hy-v3')!;
const vllm = SERVER_PARSERS.find((p) => p.server === 'vllm' && p.name === 'hy_v3')!;
const sglang = SERVER_PARSERS.find((p) => p.server === 'sglang' && p.name === 'hunyuan')!;

const arg = (k: string, v: string) => `<arg_key>${k}</arg_key>\n<arg_value>${v}</arg_value>\n`;
/** A call as the format writes it. */
const call = (name: string, ...args: [string, string][]) => `<tool_call>${name}<tool_sep>\n${args.map(([k, v]) => arg(k, v)).join('')}</tool_call>`;
const block = (...calls: string[]) => `<tool_calls>\n${calls.join('\n')}\n</tool_calls>`;

function calls(p: DialectParse): [string, string, string | undefined][] {
  return p.calls.map((c) => [c.name, stringifyArguments(c.args), c.incomplete]);
}
function codes(p: DialectParse): string[] {
  return [...p.textNotes.map((t) => t.note.code), ...p.calls.flatMap((c) => c.notes.map((n) => n.note.code))];
}
function brief(r: ParserResult): unknown {
  return { content: r.content, calls: r.tool_calls.map((c) => [c.name, c.arguments, c.incomplete]), called: r.tools_called, ...(r.has_tool_call !== undefined ? { has: r.has_tool_call } : {}), ...(r.exception !== undefined ? { exception: r.exception } : {}) };
}

describe('hy-v3 strict reading', () => {
  it('registers the syntax with its openers and tags', () => {
    expect(hy.openers).toEqual(['<tool_calls>', '<tool_call>']);
    expect(hy.controls).toHaveLength(9);
  });

  it('reads one call, decoding values by the schema (a string as written, others as JSON)', () => {
    const text = block(call('get_weather', ['city', 'Paris'], ['days', '3']));
    const p = hy.read(text, TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"city": "Paris", "days": 3}', undefined]]);
    expect(p.calls[0].start).toBe('<tool_calls>\n'.length);
    expect(p.consumed).toEqual([[0, text.length]]);
    expect(codes(p)).toEqual([]);
    expect(contentOutside(text, p.consumed)).toBeNull();
  });

  it('reads two calls written without newlines, with text before and after', () => {
    const first = '<tool_call>get_weather<tool_sep><arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>';
    const second = '<tool_call>typed<tool_sep><arg_key>o</arg_key><arg_value>{"k": [1, true]}</arg_value><arg_key>b</arg_key><arg_value>false</arg_value></tool_call>';
    const text = `Checking.\n<tool_calls>${first}${second}</tool_calls>\nDone.`;
    const p = hy.read(text, TOOLS);
    expect(calls(p)).toEqual([
      ['get_weather', '{"city": "Paris"}', undefined],
      ['typed', '{"o": {"k": [1, true]}, "b": false}', undefined],
    ]);
    expect(p.calls.map((c) => c.start)).toEqual([22, 22 + first.length]);
    expect(codes(p)).toEqual([]);
    expect(contentOutside(text, p.consumed)).toBe('Checking.\n\nDone.');
  });

  it('a plain answer: no calls, nothing consumed', () => {
    expect(hy.read('Paris is the capital.', TOOLS)).toEqual({ calls: [], consumed: [], textNotes: [] });
  });

  it('output cut inside a name or value: dropped (truncated), the text stays content', () => {
    for (const text of ['<tool_calls>\n<tool_call>get_wea', '<tool_calls>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>\n<arg_value>Par']) {
      const p = hy.read(text, TOOLS);
      expect(p.calls).toEqual([]);
      expect(p.textNotes.map((t) => [t.note.code, t.at])).toEqual([['parse/truncated', 13]]);
      expect(contentOutside(text, p.consumed)).toBe(text);
    }
  });

  it('output cut after a whole value or call: returned, marked incomplete', () => {
    const head = `<tool_calls>\n<tool_call>get_weather<tool_sep>\n${arg('city', 'Paris')}`;
    expect(calls(hy.read(head, TOOLS))).toEqual([['get_weather', '{"city": "Paris"}', 'no </tool_call>, no </tool_calls>']]);
    expect(calls(hy.read(`${head}</tool_call>\n`, TOOLS))).toEqual([['get_weather', '{"city": "Paris"}', 'no </tool_calls>']]);
  });

  it('a key without a value drops the call (the text stays content); the other call is kept', () => {
    const bad = '<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>\n</tool_call>';
    const text = block(bad, call('get_weather', ['city', 'Rome']));
    const p = hy.read(text, TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"city": "Rome"}', undefined]]);
    expect(codes(p)).toEqual(['parse/invalid-call']);
    expect(contentOutside(text, p.consumed)).toBe(`<tool_calls>\n${bad}\n\n</tool_calls>`);
  });

  it('a value that fits no type of its schema stays text, with an error; an undeclared parameter stays text', () => {
    const p = hy.read(block(call('get_weather', ['days', 'three'], ['note', '5'])), TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"days": "three", "note": "5"}', undefined]]);
    expect(codes(p)).toEqual(['parse/type-mismatch']);
  });

  it('a value without </arg_value> ends at </tool_call>, with a warning; a stray </tool_calls> is dropped', () => {
    const text = '<tool_calls>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>\n<arg_value>Lisbon, PT\n</tool_call>\n</tool_calls></tool_calls>';
    const p = hy.read(text, TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"city": "Lisbon, PT"}', undefined]]);
    expect(codes(p)).toEqual(['parse/stray-close-tag', 'parse/unclosed']);
    expect(contentOutside(text, p.consumed)).toBeNull();
  });

  it('a call outside a block is read with a warning; Hermes JSON inside <tool_call> is the wrong dialect', () => {
    const p = hy.read(call('get_weather', ['city', 'A'], ['city', 'B']), TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"city": "B"}', undefined]]);
    expect(codes(p)).toEqual(['parse/duplicate-parameter', 'parse/no-wrapper']);
    const q = hy.read('<tool_calls><tool_call>{"name": "get_weather", "arguments": {}}</tool_call></tool_calls>', TOOLS);
    expect(q.calls).toEqual([]);
    expect(codes(q)).toEqual(['parse/wrong-dialect']);
  });
});

describe("vLLM's hy_v3 and SGLang's hunyuan", () => {
  it('values by the schema: int(), float() with . or e, booleans in any case, JSON for objects, a string untouched', () => {
    const text = `Hi <tool_calls>${call('typed', ['i', '007'], ['n', '1e3'], ['b', 'TRUE'], ['o', '{"k": [1]}'], ['u', ' x '])}</tool_calls>`;
    const args = '{"i": 7, "n": 1000.0, "b": true, "o": {"k": [1]}, "u": " x "}';
    expect(brief(vllm.parse(text, TOOLS))).toEqual({ content: 'Hi ', calls: [['typed', args, undefined]], called: true });
    expect(brief(sglang.parse(text, TOOLS))).toEqual({ content: 'Hi', calls: [['typed', args, undefined]], called: true, has: true });
  });

  it('vLLM keeps the key as written, SGLang strips it', () => {
    const text = block('<tool_call>typed<tool_sep><arg_key> i </arg_key><arg_value>7</arg_value></tool_call>');
    expect(brief(vllm.parse(text, TOOLS))).toEqual({ content: null, calls: [['typed', '{" i ": "7"}', undefined]], called: true });
    expect(brief(sglang.parse(text, TOOLS))).toEqual({ content: '', calls: [['typed', '{"i": 7}', undefined]], called: true, has: true });
  });

  it('a type list: vLLM reads each type, SGLang raises (unhashable list): no calls, the whole text', () => {
    const text = block(call('typed', ['nul', 'x']));
    expect(brief(vllm.parse(text, TOOLS))).toEqual({ content: null, calls: [['typed', '{"nul": "x"}', undefined]], called: true });
    expect(brief(sglang.parse(text, TOOLS))).toEqual({ content: text, calls: [], called: false, has: true });
  });

  it('an unclosed call: vLLM reads it to the end (marked incomplete), SGLang returns nothing', () => {
    const text = '<tool_calls>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>\n<arg_value>Paris';
    expect(brief(vllm.parse(text, TOOLS))).toEqual({ content: null, calls: [['get_weather', '{}', 'no </tool_call>, no </tool_calls>']], called: true });
    expect(brief(sglang.parse(text, TOOLS))).toEqual({ content: '', calls: [], called: false, has: true });
  });

  it('a tool not in the request: vLLM keeps it, SGLang drops it', () => {
    const text = block(call('send_mail', ['to', 'a@b.c']), call('get_weather', ['city', 'Rome']));
    expect(brief(vllm.parse(text, TOOLS))).toEqual({ content: null, calls: [['send_mail', '{"to": "a@b.c"}', undefined], ['get_weather', '{"city": "Rome"}', undefined]], called: true });
    expect(brief(sglang.parse(text, TOOLS))).toEqual({ content: '', calls: [['get_weather', '{"city": "Rome"}', undefined]], called: true, has: true });
  });

  it('no usable type: vLLM falls back to ast.literal_eval (a set: json.dumps raises, no calls), SGLang to the text', () => {
    const tuple = block(call('typed', ['t', '(1, 2)']));
    expect(brief(vllm.parse(tuple, TOOLS))).toEqual({ content: null, calls: [['typed', '{"t": [1, 2]}', undefined]], called: true });
    expect(brief(sglang.parse(tuple, TOOLS))).toEqual({ content: '', calls: [['typed', '{"t": "(1, 2)"}', undefined]], called: true, has: true });
    expect(brief(vllm.parse(block(call('typed', ['t', '{1, 2}'])), TOOLS))).toEqual({ content: null, calls: [], called: true });
  });

  it("U+001C between </arg_key> and <arg_value>: whitespace to Python's re (SGLang), not to the regex module (vLLM)", () => {
    const text = block('<tool_call>typed<tool_sep><arg_key>i</arg_key>\u001c<arg_value>7</arg_value></tool_call>');
    expect(brief(vllm.parse(text, TOOLS))).toEqual({ content: null, calls: [['typed', '{}', undefined]], called: true });
    expect(brief(sglang.parse(text, TOOLS))).toEqual({ content: '', calls: [['typed', '{"i": 7}', undefined]], called: true, has: true });
  });

  it('nothing without <tool_calls>; SGLang without tools raises in _get_tool_indices', () => {
    const bare = call('get_weather', ['city', 'Rome']);
    expect(brief(vllm.parse(bare, TOOLS))).toEqual({ content: bare, calls: [], called: false });
    expect(brief(sglang.parse(bare, TOOLS))).toEqual({ content: bare, calls: [], called: false, has: false });
    const text = block(bare);
    expect(brief(sglang.parse(text, undefined))).toEqual({ content: text, calls: [], called: false, has: true, exception: "TypeError: 'NoneType' object is not iterable" });
    expect(brief(vllm.parse(text, undefined))).toEqual({ content: null, calls: [['get_weather', '{"city": "Rome"}', undefined]], called: true });
  });
});

