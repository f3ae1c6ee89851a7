/**
 * GLM-4.5 / GLM-4.7 tool calls (src/parse/families/glm.ts): the strict reading of both layouts and
 * SGLang's glm45 / glm47 detectors, case by case. Every expected value was worked out by hand from
 * the template's syntax or the detector's Python.
 */
import { describe, expect, it } from 'vitest';
import { SERVER_PARSERS, SYNTAXES } from '../../../src/parse/families/glm.js';
import type { ParserResult } from '../../../src/parse/families/types.js';
import { stringifyArguments } from '../../../src/parse/xml/decode.js';
import { contentOutside, type DialectParse } from '../../../src/parse/xml/draft.js';
import { readParseTools } from '../../../src/parse/xml/tools.js';

const TOOLS = readParseTools([
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] } } },
  {
    type: 'function',
    function: { name: 'probe', parameters: { type: 'object', properties: { s: { type: 'string' }, n: { type: 'number' }, b: { type: 'boolean' }, o: { type: 'object' }, sn: { type: ['string', 'null'] } } } },
  },
]).tools;

const glm45 = SYNTAXES.find((s) => s.name === 'glm-4.5')!;
const glm47 = SYNTAXES.find((s) => s.name === 'glm-4.7')!;
const sglang = (name: string) => SERVER_PARSERS.find((p) => p.name === name)!;

function calls(p: DialectParse): [string, string, string | undefined][] {
  return p.calls.map((c) => [c.name, stringifyArguments(c.args), c.incomplete]);
}
function codes(p: DialectParse): string[] {
  return [...p.textNotes.map((t) => t.note.code), ...p.calls.flatMap((c) => c.notes.map((n) => n.note.code))];
}
function brief(r: ParserResult): unknown {
  return { content: r.content, calls: r.tool_calls.map((c) => [c.name, c.arguments]), has: r.has_tool_call, ...(r.exception !== undefined ? { exception: r.exception } : {}) };
}

describe('glm-4.5 / glm-4.7 strict reading', () => {
  it('registers both syntaxes with their opener and tags', () => {
    expect(glm45.openers).toEqual(['<tool_call>']);
    expect(glm47.controls).toContain('</arg_value>');
  });

  it('reads one call in the GLM-4.5 layout, decoding values by the schema', () => {
    const text = '<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call>';
    const p = glm45.read(text, TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"city": "Paris", "days": 3}', undefined]]);
    expect(p.calls[0].start).toBe(0);
    expect(p.consumed).toEqual([[0, text.length]]);
    expect(codes(p)).toEqual([]);
    expect(contentOutside(text, p.consumed)).toBeNull();
  });

  it('reads two calls in the GLM-4.7 layout (no newlines), with text before and after', () => {
    const first = '<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>';
    const second = '<tool_call>probe<arg_key>o</arg_key><arg_value>{"k": [1, true]}</arg_value><arg_key>b</arg_key><arg_value>false</arg_value></tool_call>';
    const text = `Checking.\n${first}${second}\nDone.`;
    const p = glm47.read(text, TOOLS);
    expect(calls(p)).toEqual([
      ['get_weather', '{"city": "Paris"}', undefined],
      ['probe', '{"o": {"k": [1, true]}, "b": false}', undefined],
    ]);
    expect(p.calls.map((c) => c.start)).toEqual([10, 10 + first.length]);
    expect(contentOutside(text, p.consumed)).toBe('Checking.\n\nDone.');
  });

  it('keeps a string value exactly as written, and a value without a schema as text', () => {
    const text = '<tool_call>probe<arg_key>s</arg_key><arg_value> 0042 </arg_value><arg_key>extra</arg_key><arg_value>7</arg_value></tool_call>';
    expect(calls(glm47.read(text, TOOLS))).toEqual([['probe', '{"s": " 0042 ", "extra": "7"}', undefined]]);
  });

  it('a call with no arguments', () => {
    expect(calls(glm45.read('<tool_call>get_weather\n</tool_call>', TOOLS))).toEqual([['get_weather', '{}', undefined]]);
    expect(calls(glm47.read('<tool_call>get_weather</tool_call>', TOOLS))).toEqual([['get_weather', '{}', undefined]]);
  });

  it('a plain answer: no calls, nothing consumed', () => {
    const p = glm45.read('The capital of France is Paris.', TOOLS);
    expect(p).toEqual({ calls: [], consumed: [], textNotes: [] });
  });

  it('output cut inside a value: the call is dropped (truncated), its text stays content', () => {
    const text = 'Sure.\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Par';
    const p = glm45.read(text, TOOLS);
    expect(p.calls).toEqual([]);
    expect(p.textNotes.map((t) => [t.note.code, t.at])).toEqual([['parse/truncated', 6]]);
    expect(contentOutside(text, p.consumed)).toBe(text);
  });

  it('output cut inside the name: truncated', () => {
    expect(codes(glm47.read('<tool_call>get_wea', TOOLS))).toEqual(['parse/truncated']);
  });

  it('output cut after a whole value, before </tool_call>: returned, marked incomplete', () => {
    const p = glm45.read('<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n', TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"city": "Paris"}', 'no </tool_call>']]);
  });

  it('a second call cut off: the first is kept, the second dropped', () => {
    const first = '<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>';
    const text = `${first}<tool_call>get_weather<arg_key>city</arg_key><arg_value>Ro`;
    const p = glm47.read(text, TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"city": "Paris"}', undefined]]);
    expect(contentOutside(text, p.consumed)).toBe(text.slice(first.length));
  });

  it('a key without a value drops the call (invalid-call)', () => {
    const p = glm47.read('<tool_call>get_weather<arg_key>city</arg_key></tool_call>', TOOLS);
    expect(p.calls).toEqual([]);
    expect(codes(p)).toEqual(['parse/invalid-call']);
  });

  it('a missing </arg_value> ends at </tool_call>, with a warning (the layout newline dropped)', () => {
    const p = glm45.read('<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris\n</tool_call>', TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"city": "Paris"}', undefined]]);
    expect(codes(p)).toEqual(['parse/unclosed']);
  });

  it('a value that fits no type of the schema stays text, with an error; a repeated key keeps the last value', () => {
    const p = glm47.read('<tool_call>get_weather<arg_key>days</arg_key><arg_value>three</arg_value><arg_key>city</arg_key><arg_value>A</arg_value><arg_key>city</arg_key><arg_value>B</arg_value></tool_call>', TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"days": "three", "city": "B"}', undefined]]);
    expect(codes(p)).toEqual(['parse/type-mismatch', 'parse/duplicate-parameter']);
  });

  it('a name that cannot be one drops the call', () => {
    const p = glm47.read('<tool_call>get weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>', TOOLS);
    expect(p.calls).toEqual([]);
    expect(codes(p)).toEqual(['parse/invalid-name']);
  });

  it('a Hermes-style JSON call inside <tool_call> is another dialect: kept as text', () => {
    const p = glm47.read('<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>', TOOLS);
    expect(p.calls).toEqual([]);
    expect(codes(p)).toEqual(['parse/wrong-dialect']);
  });

  it('a call followed by another <tool_call> before its </tool_call>: read, with a warning', () => {
    const p = glm47.read('<tool_call>get_weather<arg_key>city</arg_key><arg_value>A</arg_value><tool_call>get_weather<arg_key>city</arg_key><arg_value>B</arg_value></tool_call>', TOOLS);
    expect(calls(p).map((c) => c[1])).toEqual(['{"city": "A"}', '{"city": "B"}']);
    expect(codes(p)).toEqual(['parse/unclosed']);
  });

  it('literal \\n between the tags (as some GLM outputs carry) is layout, noted', () => {
    const p = glm45.read('<tool_call>get_weather\\n<arg_key>city</arg_key>\\n<arg_value>Paris</arg_value>\\n</tool_call>', TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"city": "Paris"}', undefined]]);
    expect(codes(p)).toEqual(['parse/coerced']);
  });
});

describe("SGLang's glm45 detector", () => {
  const p = sglang('glm45');
  it('content is the stripped text before the first <tool_call>; what follows the calls is dropped', () => {
    const r = p.parse('  Sure.\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>\nBye', TOOLS);
    expect(brief(r)).toEqual({ content: 'Sure.', calls: [['get_weather', '{"city": "Paris"}']], has: true });
  });
  it('a string-typed parameter gets str() of what json.loads read: null → "None", true → "True"; a number-typed one int/float', () => {
    const r = p.parse('<tool_call>probe\n<arg_key>sn</arg_key>\n<arg_value>null</arg_value>\n<arg_key>s</arg_key>\n<arg_value>true</arg_value>\n<arg_key>n</arg_key>\n<arg_value>"2.50"</arg_value>\n</tool_call>', TOOLS);
    expect(brief(r)).toEqual({ content: '', calls: [['probe', '{"sn": "None", "s": "True", "n": 2.5}']], has: true });
  });
  it('no newline after the name: the call is skipped; an unknown tool is dropped', () => {
    const r = p.parse('<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call><tool_call>send\n</tool_call>', TOOLS);
    expect(brief(r)).toEqual({ content: '', calls: [], has: true });
  });
  it('a TypeError while reading a value (json.loads of a non-string) gives the whole text and no calls', () => {
    const text = '<tool_call>probe\n<arg_key>s</arg_key>\n<arg_value>", "tmp": 5, "x": "</arg_value>\n</tool_call>';
    expect(brief(p.parse(text, TOOLS))).toEqual({ content: text, calls: [], has: true });
  });
  it('no <tool_call>: the text as it is', () => {
    expect(brief(p.parse(' Paris. ', TOOLS))).toEqual({ content: ' Paris. ', calls: [], has: false });
  });
});

describe("SGLang's glm47 detector", () => {
  const p = sglang('glm47');
  it('content is the text outside the closed calls, stripped; an unclosed call stays content', () => {
    const r = p.parse('A <tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call> B <tool_call>get_weather<arg_key>ci', TOOLS);
    expect(brief(r)).toEqual({ content: 'A  B <tool_call>get_weather<arg_key>ci', calls: [['get_weather', '{"city": "Paris"}']], has: true });
  });
  it('the name is not stripped: get_weather\\n is no tool', () => {
    const r = p.parse('<tool_call>get_weather\n<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>', TOOLS);
    expect(brief(r)).toEqual({ content: '', calls: [], has: true });
  });
  it('a key whose value never closes is dropped, the call kept', () => {
    const r = p.parse('<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</tool_call>', TOOLS);
    expect(brief(r)).toEqual({ content: '', calls: [['get_weather', '{}']], has: true });
  });
});
