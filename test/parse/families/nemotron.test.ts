/** Nemotron Nano 2's `<TOOLCALL>[…]</TOOLCALL>` read strictly: hand-checked cases. */
import { describe, expect, it } from 'vitest';
import { readNemotronNano2, SERVER_PARSERS, SYNTAXES } from '../../../src/parse/families/nemotron.js';
import { brief } from './brief.js';

const tools = [{ name: 'get_weather' }, { name: 'calc' }];

const read = (t: string) => brief(t, readNemotronNano2(t, tools));

describe('nemotron-nano-2 strict reading', () => {
  it('text, a newline, two calls as the template writes them', () => {
    const t = 'Sure.\n<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "calc", "arguments": {}}]</TOOLCALL>';
    const r = readNemotronNano2(t, tools);
    expect(brief(t, r)).toEqual({ calls: ['get_weather {"city": "Paris"}', 'calc {}'], callNotes: [[], []], content: 'Sure.\n', notes: [] });
    expect(r.calls.map((c) => c.start)).toEqual([17, 74]);
  });
  it('arguments written as a JSON string (the instructions\' example): decoded with a warning; no </TOOLCALL> at the end: incomplete', () => {
    expect(read('<TOOLCALL>[{"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}]')).toEqual({ calls: ['get_weather {"city": "Paris"} [no </TOOLCALL>]'], callNotes: [['parse/coerced']], content: null, notes: [] });
  });
  it('cut in the second call: the first incomplete, the second dropped', () => {
    const t = '<TOOLCALL>[{"name": "calc", "arguments": {}}, {"name": "get_weather", "arguments": {"ci';
    expect(read(t)).toEqual({ calls: ['calc {} [no ] and </TOOLCALL>]'], callNotes: [[]], content: '{"name": "get_weather", "arguments": {"ci', notes: ['parse/truncated@46'] });
  });
  it('invalid JSON: dropped, its text content; text after the block is content', () => {
    const t = `<TOOLCALL>[{"name": "calc", "arguments": {'e': 1}}]</TOOLCALL>`;
    expect(read(t)).toEqual({ calls: [], callNotes: [], content: t, notes: ['parse/invalid-json@42'] });
    expect(read('<TOOLCALL>[{"name": "calc", "arguments": {}}]</TOOLCALL>\nDone.').content).toBe('\nDone.');
  });
  it('a plain answer', () => {
    expect(readNemotronNano2('The answer is 4.', tools)).toEqual({ calls: [], consumed: [], textNotes: [] });
  });
  it('registered', () => {
    expect(SYNTAXES.map((s) => [s.name, s.openers])).toEqual([['nemotron-nano-2', ['<TOOLCALL>']]]);
    expect(SERVER_PARSERS).toEqual([]);
  });
});
