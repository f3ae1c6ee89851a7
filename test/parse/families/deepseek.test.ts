/**
 * DeepSeek V3 and V3.1 tool calls (src/parse/families/deepseek.ts): the strict readings and the
 * vLLM and SGLang parsers, case by case. Every expected value was worked out by hand from the
 * templates' syntax or the parsers' Python.
 */
import { describe, expect, it } from 'vitest';
import { SERVER_PARSERS, SYNTAXES } from '../../../src/parse/families/deepseek.js';
import type { ParserResult } from '../../../src/parse/families/types.js';
import { stringifyArguments } from '../../../src/parse/xml/decode.js';
import { contentOutside, type DialectParse } from '../../../src/parse/xml/draft.js';
import { readParseTools } from '../../../src/parse/xml/tools.js';

const TOOLS = readParseTools([
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
  { type: 'function', function: { name: 'calc', parameters: { type: 'object', properties: { expr: { type: 'string' } } } } },
]).tools;
const v3 = SYNTAXES.find((s) => s.name === 'deepseek-v3')!;
const v31 = SYNTAXES.find((s) => s.name === 'deepseek-v3.1')!;
const parser = (key: string) => SERVER_PARSERS.find((p) => `${p.server}:${p.name}` === key)!;

const SB = '<｜tool▁calls▁begin｜>';
const SE = '<｜tool▁calls▁end｜>';
const CB = '<｜tool▁call▁begin｜>';
const SEP = '<｜tool▁sep｜>';
const CE = '<｜tool▁call▁end｜>';
/** A V3.1 call as the template writes it. */
const call31 = (name: string, args: string) => `${CB}${name}${SEP}${args}${CE}`;
/** A V3 call as the template writes it. */
const call3 = (name: string, args: string, type = 'function') => `${CB}${type}${SEP}${name}\n\`\`\`json\n${args}\n\`\`\`${CE}`;

function calls(p: DialectParse): [string, string, string | undefined][] {
  return p.calls.map((c) => [c.name, stringifyArguments(c.args), c.incomplete]);
}
function codes(p: DialectParse): string[] {
  return [...p.textNotes.map((t) => t.note.code), ...p.calls.flatMap((c) => c.notes.map((n) => n.note.code))];
}
function brief(r: ParserResult): unknown {
  return { content: r.content, calls: r.tool_calls.map((c) => [c.name, c.arguments, c.incomplete]), called: r.tools_called, ...(r.has_tool_call !== undefined ? { has: r.has_tool_call } : {}), ...(r.exception !== undefined ? { exception: r.exception } : {}) };
}

describe('deepseek-v3.1 strict reading', () => {
  it('registers the syntax with its openers and special tokens', () => {
    expect(v31.openers).toEqual([SB, CB]);
    expect(v31.controls).toEqual(expect.arrayContaining([SB, SE, CB, SEP, CE]));
  });

  it('reads one call: NAME<｜tool▁sep｜>{JSON}', () => {
    const text = `${SB}${call31('get_weather', '{"city": "Paris"}')}${SE}`;
    const p = v31.read(text, TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"city": "Paris"}', undefined]]);
    expect(p.calls[0].start).toBe(SB.length);
    expect(p.consumed).toEqual([[0, text.length]]);
    expect(codes(p)).toEqual([]);
    expect(contentOutside(text, p.consumed)).toBeNull();
  });

  it('reads two calls, with text before and after the section', () => {
    const first = call31('get_weather', '{"city": "Paris"}');
    const text = `Checking.\n${SB}${first}${call31('calc', '{"expr": "2+2"}')}${SE}\nDone.`;
    const p = v31.read(text, TOOLS);
    expect(calls(p)).toEqual([
      ['get_weather', '{"city": "Paris"}', undefined],
      ['calc', '{"expr": "2+2"}', undefined],
    ]);
    expect(p.calls.map((c) => c.start)).toEqual([10 + SB.length, 10 + SB.length + first.length]);
    expect(codes(p)).toEqual([]);
    expect(contentOutside(text, p.consumed)).toBe('Checking.\n\nDone.');
  });

  it('a plain answer: no calls, nothing consumed', () => {
    expect(v31.read('Paris is the capital.', TOOLS)).toEqual({ calls: [], consumed: [], textNotes: [] });
  });

  it('output cut inside the arguments or the name: dropped (truncated), the text stays content', () => {
    for (const text of [`${SB}${CB}get_weather${SEP}{"city": "Par`, `${SB}${CB}get_wea`]) {
      const p = v31.read(text, TOOLS);
      expect(p.calls).toEqual([]);
      expect(p.textNotes.map((t) => [t.note.code, t.at])).toEqual([['parse/truncated', SB.length]]);
      expect(contentOutside(text, p.consumed)).toBe(text);
    }
  });

  it('output cut after whole arguments: returned, marked incomplete', () => {
    const p = v31.read(`${SB}${CB}get_weather${SEP}{"city": "Paris"}`, TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"city": "Paris"}', `no ${CE}, no ${SE}`]]);
    const q = v31.read(`${SB}${call31('get_weather', '{"city": "Paris"}')}`, TOOLS);
    expect(calls(q)).toEqual([['get_weather', '{"city": "Paris"}', `no ${SE}`]]);
  });

  it('the output cut in a second call keeps the first, whole', () => {
    const first = call31('get_weather', '{"city": "Paris"}');
    const text = `${SB}${first}${CB}calc${SEP}{"expr": "2 +`;
    const p = v31.read(text, TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"city": "Paris"}', undefined]]);
    expect(codes(p)).toEqual(['parse/truncated']);
    expect(contentOutside(text, p.consumed)).toBe(`${SB}${CB}calc${SEP}{"expr": "2 +`);
  });

  it('invalid JSON drops the call (its text stays content), the other call is kept', () => {
    const bad = call31('get_weather', "{'city': 'Paris'}");
    const text = `${SB}${bad}${call31('get_weather', '{"city": "Rome"}')}${SE}`;
    const p = v31.read(text, TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"city": "Rome"}', undefined]]);
    expect(codes(p)).toEqual(['parse/invalid-json']);
    expect(contentOutside(text, p.consumed)).toBe(`${SB}${bad}${SE}`);
    expect(codes(v31.read(`${SB}${call31('get_weather', '{"city": "Rome",}')}${SE}`, TOOLS))).toEqual(['parse/invalid-json']);
  });

  it('pretty-printed arguments are read; a stray <｜tool▁calls▁end｜> after the section is dropped with a warning', () => {
    const text = `${SB}${call31('get_weather', '{\n  "city": "Paris"\n}')}${SE}${SE}`;
    const p = v31.read(text, TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"city": "Paris"}', undefined]]);
    expect(codes(p)).toEqual(['parse/stray-close-tag']);
    expect(contentOutside(text, p.consumed)).toBeNull();
  });

  it('a stray <｜tool▁calls▁end｜> after plain text is left alone', () => {
    expect(v31.read(`The answer is 4.${SE}`, TOOLS)).toEqual({ calls: [], consumed: [], textNotes: [] });
  });

  it('a call in the V3 layout is the wrong dialect, kept as text; a call outside a section is read with a warning', () => {
    expect(codes(v31.read(`${SB}${call3('get_weather', '{"city": "Paris"}')}${SE}`, TOOLS))).toEqual(['parse/wrong-dialect']);
    const p = v31.read(call31('get_weather', '{"city": "A", "city": "B"}'), TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"city": "B"}', undefined]]);
    expect(codes(p)).toEqual(['parse/duplicate-parameter', 'parse/no-wrapper']);
  });
});

describe('deepseek-v3 strict reading', () => {
  it('reads one call: function<｜tool▁sep｜>NAME and a ```json block', () => {
    const text = `${SB}${call3('get_weather', '{"city": "Paris"}')}${SE}`;
    const p = v3.read(text, TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"city": "Paris"}', undefined]]);
    expect(p.consumed).toEqual([[0, text.length]]);
    expect(codes(p)).toEqual([]);
  });

  it('reads two calls a newline apart, with text before and after', () => {
    const text = `Sure.${SB}${call3('get_weather', '{"city": "Paris"}')}\n${call3('calc', '{"expr": "1"}')}${SE}\n\nDone.`;
    const p = v3.read(text, TOOLS);
    expect(calls(p)).toEqual([
      ['get_weather', '{"city": "Paris"}', undefined],
      ['calc', '{"expr": "1"}', undefined],
    ]);
    expect(codes(p)).toEqual([]);
    expect(contentOutside(text, p.consumed)).toBe('Sure.\n\nDone.');
  });

  it('a plain answer: no calls, nothing consumed', () => {
    expect(v3.read('Set it as {"name": "x"} in the file.', TOOLS)).toEqual({ calls: [], consumed: [], textNotes: [] });
  });

  it('output cut inside the name or the JSON: truncated; after the JSON: incomplete, naming every missing marker', () => {
    expect(codes(v3.read(`${SB}${CB}function${SEP}get_wea`, TOOLS))).toEqual(['parse/truncated']);
    expect(codes(v3.read(`${SB}${CB}function${SEP}get_weather\n\`\`\`json\n{"city": "Lis`, TOOLS))).toEqual(['parse/truncated']);
    const head = `${SB}${CB}function${SEP}get_weather\n\`\`\`json\n{"city": "Paris"}`;
    expect(calls(v3.read(`${head}\n\`\``, TOOLS))).toEqual([['get_weather', '{"city": "Paris"}', `no \`\`\`, no ${CE}, no ${SE}`]]);
    expect(calls(v3.read(`${head}\n\`\`\``, TOOLS))).toEqual([['get_weather', '{"city": "Paris"}', `no ${CE}, no ${SE}`]]);
    expect(calls(v3.read(`${head}\n\`\`\`${CE}`, TOOLS))).toEqual([['get_weather', '{"city": "Paris"}', `no ${SE}`]]);
  });

  it('invalid JSON drops the call', () => {
    const p = v3.read(`${SB}${call3('get_weather', "{'city': 'Paris'}")}${SE}`, TOOLS);
    expect(p.calls).toEqual([]);
    expect(codes(p)).toEqual(['parse/invalid-json']);
  });

  it('another type than function, or no fence: read, with a warning; the V3.1 layout is the wrong dialect', () => {
    const p = v3.read(`${SB}${call3('get_weather', '{"city": "Paris"}', 'tool')}${SE}`, TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"city": "Paris"}', undefined]]);
    expect(codes(p)).toEqual(['parse/coerced']);
    const q = v3.read(`${SB}${CB}function${SEP}get_weather\n{"city": "Paris"}${CE}${SE}`, TOOLS);
    expect(calls(q)).toEqual([['get_weather', '{"city": "Paris"}', undefined]]);
    expect(codes(q)).toEqual(['parse/coerced']);
    expect(codes(v3.read(`${SB}${call31('get_weather', '{"city": "Paris"}')}${SE}`, TOOLS))).toEqual(['parse/wrong-dialect']);
  });
});

describe("vLLM's deepseek_v3 and deepseek_v31 parsers", () => {
  const vllm3 = parser('vllm:deepseek_v3');
  const vllm31 = parser('vllm:deepseek_v31');

  it('V3: arguments as written, content before the section, tools_called whatever is found', () => {
    const text = `Hi ${SB}${call3('send_mail', '{ "to" : 1 ')}${SE}`;
    expect(brief(vllm3.parse(text, TOOLS))).toEqual({ content: 'Hi ', calls: [['send_mail', '{ "to" : 1 ', undefined]], called: true });
    // pretty-printed JSON spans lines: no match without DOTALL, still tools_called
    expect(brief(vllm3.parse(`${SB}${call3('get_weather', '{\n"city": "Paris"}')}${SE}`, TOOLS))).toEqual({ content: null, calls: [], called: true });
  });

  it('V3: the name follows the last <｜tool▁sep｜> of its line; a type other than function is a ValidationError (no calls, the text)', () => {
    const text = `${SB}${CB}function${SEP}x${SEP}calc\n\`\`\`json\n{}\n\`\`\`${CE}${SE}`;
    // the type is "function<｜tool▁sep｜>x": pydantic refuses it
    expect(brief(vllm3.parse(text, TOOLS))).toEqual({ content: text, calls: [], called: false });
    const ok = `${SB}${CB}function${SEP}calc\n\`\`\`json\n{}\n\`\`\`${CE}`;
    expect(brief(vllm3.parse(ok, TOOLS))).toEqual({ content: null, calls: [['calc', '{}', `no ${SE}`]], called: true });
  });

  it('nothing without <｜tool▁calls▁begin｜>, even a whole call', () => {
    const text = call31('get_weather', '{}');
    expect(brief(vllm31.parse(text, TOOLS))).toEqual({ content: text, calls: [], called: false });
  });

  it('V3.1: the name up to the first separator, the arguments up to the first <｜tool▁call▁end｜>, on one line', () => {
    const text = `${SB}${CB}calc${SEP}{"expr": "${SEP}"}${CE}${CB}calc${SEP}{\n}${CE}${SE}`;
    expect(brief(vllm31.parse(text, TOOLS))).toEqual({ content: null, calls: [['calc', `{"expr": "${SEP}"}`, undefined]], called: true });
  });
});

describe("SGLang's deepseekv3 and deepseekv31 detectors", () => {
  const sg3 = parser('sglang:deepseekv3');
  const sg31 = parser('sglang:deepseekv31');

  it('arguments through json.loads/json.dumps, content stripped, unknown tools dropped', () => {
    const text = ` Hi \n${SB}${call3('get_weather', '{ "city" : "Paris" }')}\n${call3('send_mail', '{}')}${SE}`;
    expect(brief(sg3.parse(text, TOOLS))).toEqual({ content: 'Hi', calls: [['get_weather', '{"city": "Paris"}', undefined]], called: true, has: true });
    // a falsy value comes back as {}
    expect(brief(sg31.parse(`${SB}${call31('calc', '[]')}${SE}`, TOOLS))).toEqual({ content: '', calls: [['calc', '{}', undefined]], called: true, has: true });
  });

  it('V3.1: pretty-printed arguments are read (DOTALL); a call at the very end may be cut (no <｜tool▁calls▁end｜>)', () => {
    expect(brief(sg31.parse(`${SB}${call31('calc', '{\n  "expr": "1+1"\n}')}\n`, TOOLS))).toEqual({ content: '', calls: [['calc', '{"expr": "1+1"}', `no ${SE}`]], called: true, has: true });
  });

  it('invalid JSON or a call without separator anywhere: no calls at all, the whole text as content', () => {
    const bad = `${SB}${call31('calc', '{"expr": "1"}')}${call31('calc', '{"expr": 1,}')}${SE}`;
    expect(brief(sg31.parse(bad, TOOLS))).toEqual({ content: bad, calls: [], called: false, has: true });
    const noSep = `${SB}${call31('calc', '{}')}${CB}calc${CE}${SE}`;
    expect(brief(sg31.parse(noSep, TOOLS))).toEqual({ content: noSep, calls: [], called: false, has: true });
  });

  it('V3: the name after the last separator, greedy, the arguments inside the last fence', () => {
    const text = `${SB}${CB}function${SEP}calc\n\`\`\`json\n{"expr": "a"}\n\`\`\`${CE}${SE}`;
    expect(brief(sg3.parse(text, TOOLS))).toEqual({ content: '', calls: [['calc', '{"expr": "a"}', undefined]], called: true, has: true });
    const two = `${SB}${CB}function${SEP}x${SEP}calc\n\`\`\`json\n{}\n\`\`\`${CE}${SE}`;
    expect(brief(sg3.parse(two, TOOLS))).toEqual({ content: '', calls: [['calc', '{}', undefined]], called: true, has: true });
  });

  it('nothing without <｜tool▁calls▁begin｜>', () => {
    expect(brief(sg3.parse('The answer is 4.', TOOLS))).toEqual({ content: 'The answer is 4.', calls: [], called: false, has: false });
  });
});

