/**
 * MiniMax-M2 tool calls (src/parse/families/minimax-m2.ts): the strict reading (the XML reader
 * with MiniMax's block tags) and SGLang's minimax-m2 detector, case by case. Every expected value
 * was worked out by hand from the template's syntax or the detector's Python.
 */
import { describe, expect, it } from 'vitest';
import { SERVER_PARSERS, SYNTAXES } from '../../../src/parse/families/minimax-m2.js';
import type { ParserResult } from '../../../src/parse/families/types.js';
import { stringifyArguments } from '../../../src/parse/xml/decode.js';
import { contentOutside, type DialectParse } from '../../../src/parse/xml/draft.js';
import { readParseTools } from '../../../src/parse/xml/tools.js';

const TOOLS = readParseTools([
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } } } },
  {
    type: 'function',
    function: { name: 'probe', parameters: { type: 'object', properties: { n: { type: 'number' }, b: { type: 'boolean' }, sn: { type: ['string', 'null'] }, o: { type: 'object' }, e: { enum: [1, 2] } } } },
  },
]).tools;
const minimax = SYNTAXES.find((s) => s.name === 'minimax-m2')!;
const sglang = SERVER_PARSERS.find((p) => p.name === 'minimax-m2')!;

const B = '<minimax:tool_call>';
const BE = '</minimax:tool_call>';
const invoke = (name: string, params: [string, string][]) => `<invoke name="${name}">\n${params.map(([k, v]) => `<parameter name="${k}">${v}</parameter>\n`).join('')}</invoke>\n`;

function calls(p: DialectParse): [string, string, string | undefined][] {
  return p.calls.map((c) => [c.name, stringifyArguments(c.args), c.incomplete]);
}
function codes(p: DialectParse): string[] {
  return [...p.textNotes.map((t) => t.note.code), ...p.calls.flatMap((c) => c.notes.map((n) => n.note.code))];
}
function brief(r: ParserResult): unknown {
  return { content: r.content, calls: r.tool_calls.map((c) => [c.name, c.arguments]), has: r.has_tool_call, ...(r.exception !== undefined ? { exception: r.exception } : {}) };
}

describe('minimax-m2 strict reading', () => {
  it('registers the syntax', () => {
    expect(minimax.openers).toEqual([B, '<invoke']);
    expect(minimax.controls).toContain(BE);
  });

  it('reads one call as the template writes it, values by the schema', () => {
    const text = `${B}\n${invoke('get_weather', [['city', 'Paris'], ['days', '3']])}${BE}`;
    const p = minimax.read(text, TOOLS);
    expect(calls(p)).toEqual([['get_weather', '{"city": "Paris", "days": 3}', undefined]]);
    expect(p.consumed).toEqual([[0, text.length]]);
    expect(codes(p)).toEqual([]);
  });

  it('reads two calls in one block, with text before and after', () => {
    const text = `Checking.\n\n${B}\n${invoke('get_weather', [['city', 'Paris']])}${invoke('probe', [['o', '{"k": [1]}'], ['b', 'true']])}${BE}\nDone.`;
    const p = minimax.read(text, TOOLS);
    expect(calls(p)).toEqual([
      ['get_weather', '{"city": "Paris"}', undefined],
      ['probe', '{"o": {"k": [1]}, "b": true}', undefined],
    ]);
    expect(contentOutside(text, p.consumed)).toBe('Checking.\n\n\nDone.');
  });

  it('a plain answer: no calls, nothing consumed', () => {
    expect(minimax.read('Paris.', TOOLS)).toEqual({ calls: [], consumed: [], textNotes: [] });
  });

  it('output cut inside a value: dropped (truncated); after a whole call: returned incomplete', () => {
    const cut = `${B}\n<invoke name="get_weather">\n<parameter name="city">Par`;
    const p = minimax.read(cut, TOOLS);
    expect(p.calls).toEqual([]);
    expect(codes(p)).toEqual(['parse/truncated']);
    expect(contentOutside(cut, p.consumed)).toBe(cut);
    const q = minimax.read(`${B}\n${invoke('get_weather', [['city', 'Paris']])}`, TOOLS);
    expect(calls(q)).toEqual([['get_weather', '{"city": "Paris"}', `no ${BE}`]]);
  });

  it('an object value that is not valid JSON stays text, with an error', () => {
    const p = minimax.read(`${B}\n${invoke('probe', [['o', "{'k': 1}"]])}${BE}`, TOOLS);
    expect(calls(p)).toEqual([['probe', '{"o": "{\'k\': 1}"}', undefined]]);
    expect(codes(p)).toEqual(['parse/type-mismatch']);
  });
});

describe("SGLang's minimax-m2 detector", () => {
  it('content is the text outside the closed blocks, as it is; values by type', () => {
    const r = sglang.parse(`Hi\n${B}\n${invoke('get_weather', [['city', '\nParis\n'], ['days', ' 7 ']])}${BE}\nBye`, TOOLS);
    expect(brief(r)).toEqual({ content: 'Hi\n\nBye', calls: [['get_weather', '{"city": "Paris", "days": 7}']], has: true });
  });
  it('null among the types makes any value None; a number that is integral becomes an int; a boolean reads yes/off', () => {
    const r = sglang.parse(`${B}\n${invoke('probe', [['sn', 'hello'], ['n', '2.0'], ['b', 'off'], ['e', '2']])}${BE}`, TOOLS);
    expect(brief(r)).toEqual({ content: '', calls: [['probe', '{"sn": null, "n": 2, "b": false, "e": 2}']], has: true });
  });
  it('an unclosed block stays content; an unknown tool is dropped', () => {
    const text = `${B}\n${invoke('send_mail', [['to', 'x']])}${BE}${B}\n${invoke('get_weather', [['city', 'Paris']])}`;
    expect(brief(sglang.parse(text, TOOLS))).toEqual({ content: `${B}\n${invoke('get_weather', [['city', 'Paris']])}`, calls: [], has: true });
  });
  it('float("inf") for a number parameter raises OverflowError out of the parser', () => {
    const text = `${B}\n${invoke('probe', [['n', 'inf']])}${BE}`;
    const r = sglang.parse(text, TOOLS);
    expect(brief(r)).toEqual({ content: text, calls: [], has: true, exception: 'OverflowError: cannot convert float infinity to integer' });
  });
});
