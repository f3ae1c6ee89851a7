/** Functionary v3.1 (`<function=NAME>{…}</function>`) and v3.2 (`>>>RECIPIENT\n…`) read strictly: hand-checked cases. */
import { describe, expect, it } from 'vitest';
import { readFunctionary31, readFunctionary32, SERVER_PARSERS, SYNTAXES } from '../../../src/parse/families/functionary.js';
import { brief } from './brief.js';

const tools = [{ name: 'get_weather' }, { name: 'calc' }];

const r31 = (t: string) => brief(t, readFunctionary31(t, tools));
const r32 = (t: string) => brief(t, readFunctionary32(t, tools));

describe('functionary-3.1 strict reading', () => {
  it('text, then two calls and <|eom_id|>', () => {
    const t = 'I will check.<function=get_weather>{"city": "Paris"}</function><function=calc>{"e": "1"}</function><|eom_id|>';
    const r = readFunctionary31(t, tools);
    expect(brief(t, r)).toEqual({ calls: ['get_weather {"city": "Paris"}', 'calc {"e": "1"}'], callNotes: [[], []], content: 'I will check.', notes: [] });
    expect(r.calls.map((c) => c.start)).toEqual([13, 63]);
  });
  it('the output ends after the JSON: returned incomplete; inside it: dropped (truncated)', () => {
    expect(r31('<function=get_weather>{"city": "Paris"}')).toEqual({ calls: ['get_weather {"city": "Paris"} [no </function>]'], callNotes: [[]], content: null, notes: [] });
    const cut = '<function=get_weather>{"city": "Par';
    expect(r31(cut)).toEqual({ calls: [], callNotes: [], content: cut, notes: ['parse/truncated@0'] });
  });
  it('invalid JSON: dropped, its text content', () => {
    const t = '<function=get_weather>{city: 1}</function>';
    expect(r31(t)).toEqual({ calls: [], callNotes: [], content: t, notes: ['parse/invalid-json@23'] });
  });
  it('no </function> before the next call: read with a warning', () => {
    expect(r31('<function=calc>{"e": 1}<function=get_weather>{}</function>')).toEqual({ calls: ['calc {"e": 1}', 'get_weather {}'], callNotes: [['parse/unclosed'], []], content: null, notes: [] });
  });
  it('<|python_tag|>: the code interpreter, read as python {"code": …}', () => {
    expect(r31('<|python_tag|>print(1)<|eom_id|>')).toEqual({ calls: ['python {"code": "print(1)"}'], callNotes: [['parse/coerced']], content: null, notes: [] });
  });
  it('a plain answer', () => {
    expect(readFunctionary31('Plain answer.', tools)).toEqual({ calls: [], consumed: [], textNotes: [] });
  });
});

describe('functionary-3.2 strict reading', () => {
  it('an answer to the user: the all header and the stop token are no content', () => {
    expect(r32('all\nHello there<|eot_id|>')).toEqual({ calls: [], callNotes: [], content: 'Hello there', notes: [] });
  });
  it('two calls, the first recipient right at the start (the prompt wrote its >>>)', () => {
    const t = 'get_weather\n{"city": "Paris"}>>>calc\n{"e": "1"}';
    const r = readFunctionary32(t, tools);
    expect(brief(t, r)).toEqual({ calls: ['get_weather {"city": "Paris"}', 'calc {"e": "1"}'], callNotes: [[], []], content: null, notes: [] });
    expect(r.calls.map((c) => c.start)).toEqual([0, 29]);
  });
  it('text, then a call', () => {
    expect(r32('all\nLet me check.>>>get_weather\n{"city": "Paris"}<|eot_id|>')).toEqual({ calls: ['get_weather {"city": "Paris"}'], callNotes: [[]], content: 'Let me check.', notes: [] });
  });
  it('cut inside the arguments: dropped (truncated)', () => {
    const t = 'get_weather\n{"city": "Par';
    expect(r32(t)).toEqual({ calls: [], callNotes: [], content: t, notes: ['parse/truncated@0'] });
  });
  it('invalid JSON: dropped, its text content', () => {
    const t = 'all\nOK>>>calc\n{e: 1}';
    expect(r32(t)).toEqual({ calls: [], callNotes: [], content: 'OK>>>calc\n{e: 1}', notes: ['parse/invalid-json@15'] });
  });
  it('>>> inside a JSON string is no separator; text after the JSON in its part is content with a warning', () => {
    expect(r32('get_weather\n{"city": "a>>>b"}>>>all\nok')).toEqual({ calls: ['get_weather {"city": "a>>>b"}'], callNotes: [[]], content: 'ok', notes: [] });
    expect(r32('>>>get_weather\n{"city": "Paris"} trailing')).toEqual({ calls: ['get_weather {"city": "Paris"}'], callNotes: [['parse/unexpected-text']], content: ' trailing', notes: [] });
  });
  it('python: the code interpreter', () => {
    expect(r32('python\nprint(1)')).toEqual({ calls: ['python {"code": "print(1)"}'], callNotes: [['parse/coerced']], content: null, notes: [] });
  });
  it('an output with no recipient line is text; a part cut in its recipient line is truncated', () => {
    expect(readFunctionary32('The capital is Paris.', tools)).toEqual({ calls: [], consumed: [], textNotes: [] });
    expect(r32('all\nok>>>get_wea')).toEqual({ calls: [], callNotes: [], content: 'ok>>>get_wea', notes: ['parse/truncated@6'] });
  });
  it('registered', () => {
    expect(SYNTAXES.map((s) => [s.name, s.openers])).toEqual([['functionary-3.1', ['<function=', '<|python_tag|>']], ['functionary-3.2', []]]);
    expect(SERVER_PARSERS).toEqual([]);
  });
});
