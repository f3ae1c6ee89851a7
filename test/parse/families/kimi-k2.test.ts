/**
 * Kimi K2 tool calls (src/parse/families/kimi-k2.ts): the strict reading and SGLang's kimi_k2
 * detector, case by case. Every expected value was worked out by hand from the template's syntax
 * or the detector's Python.
 */
import { describe, expect, it } from 'vitest';
import { SERVER_PARSERS, SYNTAXES } from '../../../src/parse/families/kimi-k2.js';
import type { ParserResult } from '../../../src/parse/families/types.js';
import { stringifyArguments } from '../../../src/parse/xml/decode.js';
import { contentOutside, type DialectParse } from '../../../src/parse/xml/draft.js';
import { readParseTools } from '../../../src/parse/xml/tools.js';

const TOOLS = readParseTools([{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }]).tools;
const kimi = SYNTAXES.find((s) => s.name === 'kimi-k2')!;
const sglang = SERVER_PARSERS.find((p) => p.name === 'kimi_k2')!;

const SB = '<|tool_calls_section_begin|>';
const SE = '<|tool_calls_section_end|>';
const call = (id: string, args: string) => `<|tool_call_begin|>${id}<|tool_call_argument_begin|>${args}<|tool_call_end|>`;

function calls(p: DialectParse): [string, string, string | undefined][] {
  return p.calls.map((c) => [c.name, stringifyArguments(c.args), c.incomplete]);
}
function codes(p: DialectParse): string[] {
  return [...p.textNotes.map((t) => t.note.code), ...p.calls.flatMap((c) => c.notes.map((n) => n.note.code))];
}
function brief(r: ParserResult): unknown {
  return { content: r.content, calls: r.tool_calls.map((c) => [c.name, c.arguments]), has: r.has_tool_call };
}

describe('kimi-k2 strict reading', () => {
  it('registers the syntax with its openers and special tokens', () => {
    expect(kimi.openers).toEqual([SB, '<|tool_call_begin|>']);
    expect(kimi.controls).toHaveLength(5);
  });

  it('reads one call: functions.NAME:IDX and a JSON object', () => {
    const text = `${SB}${call('functions.get_weather:0', '{"city": "Paris"}')}${SE}`;
    const p = kimi.read(text, TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"city": "Paris"}', undefined]]);
    expect(p.consumed).toEqual([[0, text.length]]);
    expect(codes(p)).toEqual([]);
    expect(contentOutside(text, p.consumed)).toBeNull();
  });

  it('reads two calls, with text before and after the section', () => {
    const text = `Checking.\n${SB}${call('functions.get_weather:0', '{"city": "Paris"}')}${call('functions.get_weather:1', '{"city": "Rome"}')}${SE}\nDone.`;
    const p = kimi.read(text, TOOLS);
    expect(calls(p)).toEqual([
      ['get_weather', '{"city": "Paris"}', undefined],
      ['get_weather', '{"city": "Rome"}', undefined],
    ]);
    expect(p.calls[0].start).toBe(10 + SB.length);
    expect(contentOutside(text, p.consumed)).toBe('Checking.\n\nDone.');
  });

  it('a plain answer: no calls, nothing consumed', () => {
    expect(kimi.read('Paris is the capital.', TOOLS)).toEqual({ calls: [], consumed: [], textNotes: [] });
  });

  it('output cut inside the arguments: dropped (truncated), the text stays content', () => {
    const text = `${SB}<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Par`;
    const p = kimi.read(text, TOOLS);
    expect(p.calls).toEqual([]);
    expect(p.textNotes.map((t) => [t.note.code, t.at])).toEqual([['parse/truncated', SB.length]]);
    expect(contentOutside(text, p.consumed)).toBe(text);
  });

  it('output cut after whole arguments: returned, marked incomplete', () => {
    const p = kimi.read(`${SB}<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}`, TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"city": "Paris"}', 'no <|tool_call_end|>, no <|tool_calls_section_end|>']]);
    const q = kimi.read(`${SB}${call('functions.get_weather:0', '{"city": "Paris"}')}`, TOOLS);
    expect(calls(q)).toEqual([['get_weather', '{"city": "Paris"}', 'no <|tool_calls_section_end|>']]);
  });

  it('invalid JSON drops the call (its text stays content), the other call is kept', () => {
    const bad = call('functions.get_weather:0', "{'city': 'Paris'}");
    const text = `${SB}${bad}${call('functions.get_weather:1', '{"city": "Rome"}')}${SE}`;
    const p = kimi.read(text, TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"city": "Rome"}', undefined]]);
    expect(codes(p)).toEqual(['parse/invalid-json']);
    // the section's markers stay with it: only the good call is taken out
    expect(contentOutside(text, p.consumed)).toBe(`${SB}${bad}${SE}`);
  });

  it('arguments written as a JSON string holding an object are decoded, with a warning', () => {
    const p = kimi.read(`${SB}${call('functions.get_weather:0', '"{\\"city\\": \\"Paris\\"}"')}${SE}`, TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"city": "Paris"}', undefined]]);
    expect(codes(p)).toEqual(['parse/coerced']);
  });

  it('arguments that are no object drop the call', () => {
    expect(codes(kimi.read(`${SB}${call('functions.get_weather:0', '[1]')}${SE}`, TOOLS))).toEqual(['parse/invalid-call']);
  });

  it('an id without functions. or :IDX is read, with a warning each', () => {
    const p = kimi.read(`${SB}${call('get_weather', '{}')}${SE}`, TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{}', undefined]]);
    expect(codes(p)).toEqual(['parse/coerced', 'parse/coerced']);
  });

  it('a call outside a section is read, with a warning; a repeated key keeps the last value', () => {
    const p = kimi.read(call('functions.get_weather:0', '{"city": "A", "city": "B"}'), TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"city": "B"}', undefined]]);
    expect(codes(p)).toEqual(['parse/duplicate-parameter', 'parse/no-wrapper']);
  });
});

describe("SGLang's kimi_k2 detector", () => {
  it('returns the arguments as written and content before the section, unstripped', () => {
    const r = sglang.parse(`Hi \n${SB}${call('functions.get_weather:0', '{ "city" : "Paris" }')}${SE} bye`, TOOLS);
    expect(brief(r)).toEqual({ content: 'Hi \n', calls: [['get_weather', '{ "city" : "Paris" }']], has: true });
  });
  it('keeps a tool the request does not name and invalid JSON between braces; ids without functions. too', () => {
    const r = sglang.parse(`${SB}${call('send_mail:0', "{'to': 1}")}${call('functions.x.y-z:1', '{"a": "}"}')}${SE}`, TOOLS);
    expect(brief(r)).toEqual({ content: '', calls: [['send_mail', "{'to': 1}"], ['x.y-z', '{"a": "}"}']], has: true });
  });
  it('an id without :IDX or arguments without braces match nothing', () => {
    const r = sglang.parse(`${SB}${call('functions.get_weather', '{}')}${call('functions.get_weather:1', '[]')}${SE}`, TOOLS);
    expect(brief(r)).toEqual({ content: '', calls: [], has: true });
  });
  it('a call the output ends right after (no section end) is returned, marked incomplete; one followed by more output is not', () => {
    const one = `${SB}${call('functions.get_weather:0', '{"city": "Paris"}')}\n`;
    expect(sglang.parse(one, TOOLS).tool_calls).toEqual([{ name: 'get_weather', arguments: '{"city": "Paris"}', incomplete: 'no <|tool_calls_section_end|>' }]);
    const cutSecond = `${SB}${call('functions.get_weather:0', '{"city": "Paris"}')}<|tool_call_begin|>functions.get_weather:1<|tool_call_argument_begin|>{"city": "Ro`;
    expect(sglang.parse(cutSecond, TOOLS).tool_calls).toEqual([{ name: 'get_weather', arguments: '{"city": "Paris"}' }]);
  });
  it('nothing without <|tool_calls_section_begin|>, even a whole call', () => {
    const text = call('functions.get_weather:0', '{}');
    expect(brief(sglang.parse(text, TOOLS))).toEqual({ content: text, calls: [], has: false });
  });
});
