/**
 * The Harmony parser's own cases: hand-written completions, one or more per rule of openai-harmony's
 * StreamableParser (spec conversations §B.1, ../shared/oracles/parse/README.md "What the real parser
 * does on bad input"). Each expectation was checked against the engine: the oracle row it mirrors is
 * named (`P…`), or, where no row has it, the step of the reference's parser that gives it. They run
 * without ../shared.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderEnvelope } from '../../src/messages/envelope.js';
import {
  createHarmonyParser,
  harmonyMessageToEnvelope,
  parseHarmony,
  type HarmonyParseEvent,
  type HarmonyParseOptions,
} from '../../src/parse/harmony.js';
import type { HarmonyParseMode } from '../../src/parse/types.js';

const A = (channel: string, content: string) => ({ role: 'assistant', channel, content });
const bytes = (s: string) => new TextEncoder().encode(s);
const codes = (r: { diagnostics: readonly { code: string }[] }) => r.diagnostics.map((d) => d.code);

describe('messages: what the engine reads', () => {
  it('analysis then final, ended by <|end|> and <|return|> (P000)', () => {
    const r = parseHarmony('<|channel|>analysis<|message|>User says hi.<|end|><|start|>assistant<|channel|>final<|message|>Hello!<|return|>');
    expect(r.messages).toEqual([A('analysis', 'User says hi.'), A('final', 'Hello!')]);
    expect(r.stops).toEqual(['<|end|>', '<|return|>']);
    expect(r.error).toBeUndefined();
    expect(r.partial).toBe(false);
    expect(r.completedBeforeEnd).toBe(2);
    expect(r.lastToken).toBe(200002);
    expect(r.diagnostics).toEqual([]);
  });

  it('recipient in the channel part, with <|constrain|>json (call_channel rows)', () => {
    const r = parseHarmony('<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"location":"Paris"}<|call|>');
    expect(r.messages).toEqual([{ role: 'assistant', recipient: 'functions.get_weather', channel: 'commentary', content_type: '<|constrain|>json', content: '{"location":"Paris"}' }]);
    expect(r.stops).toEqual(['<|call|>']);
  });

  it('recipient in the role part, plain `json` content type (call_role rows)', () => {
    const r = parseHarmony(' to=functions.get_weather<|channel|>commentary json<|message|>{}<|call|>');
    expect(r.messages).toEqual([{ role: 'assistant', recipient: 'functions.get_weather', channel: 'commentary', content_type: 'json', content: '{}' }]);
  });

  it('a later message names its role; `assistant` is dropped from the words', () => {
    const r = parseHarmony('<|channel|>analysis<|message|>a<|end|><|start|>assistant to=functions.f<|channel|>commentary <|constrain|>json<|message|>{}<|call|>');
    expect(r.messages[1]).toEqual({ role: 'assistant', recipient: 'functions.f', channel: 'commentary', content_type: '<|constrain|>json', content: '{}' });
  });

  it('<|constrain|> glued to the recipient gets its space back (P342)', () => {
    const r = parseHarmony('<|channel|>commentary to=functions.get_weather<|constrain|>json<|message|>{"location":"A"}<|call|>');
    expect(r.messages[0]).toMatchObject({ recipient: 'functions.get_weather', content_type: '<|constrain|>json' });
  });

  it('odd recipients: bare `to=` is "" (P339), a lone word is the recipient (P340, `commentary json`)', () => {
    expect(parseHarmony('<|channel|>commentary to=<|message|>x<|call|>').messages[0]).toEqual({ role: 'assistant', recipient: '', channel: 'commentary', content: 'x' });
    expect(parseHarmony('<|channel|>commentary functions.get_weather<|message|>{}<|call|>').messages[0]).toMatchObject({ recipient: 'functions.get_weather' });
    expect(parseHarmony('<|channel|>commentary json<|message|>{}<|call|>').messages[0]).toEqual({ role: 'assistant', recipient: 'json', channel: 'commentary', content: '{}' });
  });

  it('a tab separates header words (P353); the channel name runs to whitespace or `<` (P309 `finalHello`)', () => {
    expect(parseHarmony('<|channel|>commentary\tto=functions.get_weather\tjson<|message|>{}<|call|>').messages[0]).toMatchObject({ channel: 'commentary', recipient: 'functions.get_weather', content_type: 'json' });
    expect(parseHarmony('<|channel|>finalHello<|message|>x<|end|>').messages[0]).toEqual(A('finalHello', 'x'));
  });

  it('two channel markers: the first names the channel, the rest of the header is the recipient (P307)', () => {
    expect(parseHarmony('<|channel|>analysis<|channel|>final<|message|>x<|return|>').messages).toEqual([{ role: 'assistant', recipient: '<|channel|>final', channel: 'analysis', content: 'x' }]);
  });

  it('no channel at all, any channel name', () => {
    expect(parseHarmony('<|message|>hi<|end|>').messages).toEqual([{ role: 'assistant', content: 'hi' }]);
    expect(parseHarmony('<|channel|>thoughts<|message|>hi<|end|>').messages).toEqual([A('thoughts', 'hi')]);
  });

  it('every stop token ends every message (P234 `<|call|>` on final, P321 `<|end|>` on a call)', () => {
    for (const stop of ['<|end|>', '<|call|>', '<|return|>'] as const) {
      const r = parseHarmony(`<|channel|>final<|message|>Answer.${stop}`);
      expect(r.messages).toEqual([A('final', 'Answer.')]);
      expect(r.stops).toEqual([stop]);
    }
    const call = parseHarmony('<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"location":"A"}<|end|>');
    expect(call.messages[0].content).toBe('{"location":"A"}');
    expect(call.diagnostics).toMatchObject([{ code: 'parse/call-not-ended-by-call', severity: 'warning' }]);
  });

  it('other control tokens inside content stay text (P236 <|endoftext|>, P328 <|start|> in a call body)', () => {
    expect(parseHarmony('<|channel|>final<|message|>Answer.<|endoftext|>').messages).toEqual([A('final', 'Answer.<|endoftext|>')]);
    const r = parseHarmony('<|channel|>commentary to=functions.f <|constrain|>json<|message|>{"a":<|start|>assistant<|channel|>final<|message|>x<|return|>');
    expect(r.messages).toHaveLength(1);
    expect(r.messages[0].content).toBe('{"a":<|start|>assistant<|channel|>final<|message|>x');
  });

  it('a stop token inside a JSON string ends the message; what follows is refused (P369)', () => {
    const r = parseHarmony('<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"location": "x<|call|>y"}<|call|>');
    expect(r.messages[0].content).toBe('{"location": "x');
    expect(r.error).toEqual({ message: 'Unexpected token 88 while expecting start token 200006', stage: 'token', offset: 98 });
  });

  it('tool, user and system messages in the output (P354, P355, P358, P359)', () => {
    const r = parseHarmony(
      '<|channel|>final<|message|>x<|end|><|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>FAKE<|end|>' +
        '<|start|>user<|message|>next<|end|><|start|>robot to=assistant<|message|>beep<|end|><|start|>tool<|message|>t<|end|>',
    );
    expect(r.messages.slice(1)).toEqual([
      { role: 'tool', name: 'functions.get_weather', recipient: 'assistant', channel: 'commentary', content: 'FAKE' },
      { role: 'user', content: 'next' },
      { role: 'tool', name: 'robot', recipient: 'assistant', content: 'beep' },
      // a role read from the header is the author's name when it is `tool`
      { role: 'tool', name: 'tool', content: 't' },
    ]);
  });

  it('a stream cut inside content completes the message at the end (P235, P285)', () => {
    const r = parseHarmony('<|channel|>final<|message|>Answer.');
    expect(r.messages).toEqual([A('final', 'Answer.')]);
    expect(r.stops).toEqual([undefined]);
    expect(r.partial).toBe(true);
    expect(r.completedBeforeEnd).toBe(0);
    expect(r.open).toEqual({ state: 'content', role: 'assistant', channel: 'final', content: 'Answer.', raw: '<|channel|>final<|message|>Answer.' });
    expect(r.diagnostics).toMatchObject([{ code: 'parse/cut-in-content', severity: 'warning', path: '/completion#34' }]);
  });

  it('a cut call is never complete: no stop, and parse/incomplete-call', () => {
    const r = parseHarmony('<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"location": "Pa');
    expect(r.messages[0]).toMatchObject({ recipient: 'functions.get_weather', content: '{"location": "Pa' });
    expect(r.stops).toEqual([undefined]);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({ code: 'parse/incomplete-call', severity: 'error', path: '/completion#91' });
    expect(r.diagnostics[0].message).toContain('byte 91');
  });

  it('role option: null when the completion opens its own message', () => {
    const r = parseHarmony('<|start|>assistant<|channel|>final<|message|>x<|end|>', { role: null });
    expect(r.messages).toEqual([A('final', 'x')]);
    // with the default role, the same text after `<|start|>assistant` is header text: one word left → recipient
    expect(parseHarmony('<|start|>assistant<|channel|>final<|message|>x<|end|>').messages[0]).toEqual({ role: 'assistant', recipient: '<|start|>assistant', channel: 'final', content: 'x' });
    expect(parseHarmony('<|channel|>final<|message|>x<|end|>', { role: 'user' }).messages[0]).toEqual({ role: 'user', channel: 'final', content: 'x' });
  });
});

describe('errors: the engine text, where it stops', () => {
  const cases: [string, string, string, 'token' | 'eos', number][] = [
    // [rule, completion, message, stage, byte offset]
    ['text after a message (P314)', '<|channel|>analysis<|message|>r<|end|>stray text<|start|>assistant<|channel|>final<|message|>x<|return|>', 'Unexpected token 689 while expecting start token 200006', 'token', 38],
    ['a newline after a message (P315)', '<|channel|>final<|message|>r<|end|>\n<|start|>assistant<|channel|>final<|message|>x<|return|>', 'Unexpected token 198 while expecting start token 200006', 'token', 35],
    ['a space after <|call|> (P318)', '<|channel|>commentary to=functions.f<|message|>{}<|call|> ', 'Unexpected token 220 while expecting start token 200006', 'token', 57],
    ['a missing <|start|> (P316)', '<|channel|>final<|message|>r<|end|>assistant<|channel|>final<|message|>x<|return|>', 'Unexpected token 173781 while expecting start token 200006', 'token', 35],
    ['a control token after a message', '<|channel|>final<|message|>r<|end|><|end|>', 'Unexpected token 200007 while expecting start token 200006', 'token', 35],
    ['a reserved token after a message', '<|channel|>final<|message|>r<|end|><|reserved_201088|>', 'Unexpected token 201088 while expecting start token 200006', 'token', 35],
    ['an empty channel (P306)', '<|channel|> <|message|>x<|return|>', 'channel marker present but no channel value found in header', 'token', 12],
    ['extra header words (P308)', '<|channel|>final extra words here<|message|>x<|return|>', 'unexpected tokens remaining in message header: Some("extra")', 'token', 33],
    ['two recipients (P349)', ' to=functions.a<|channel|>commentary to=functions.b json<|message|>{}<|call|>', 'unexpected tokens remaining in message header: Some("to=functions.a")', 'token', 56],
    ['leftover words as Rust prints them', '<|channel|>final a"b\\c \u000b to=x json<|message|>x<|end|>', 'unexpected tokens remaining in message header: Some("a\\"b\\\\c \\u{b}")', 'token', 34],
    ['an unknown role (P357)', '<|channel|>final<|message|>x<|end|><|start|>robot<|message|>beep<|end|>', 'Unknown role: robot', 'token', 49],
    ['<|start|> with no role (P360)', '<|channel|>final<|message|>x<|end|><|start|><|message|>no role<|end|>', 'message header did not contain a role', 'token', 44],
    ['a doubled <|start|>: the second is header text', '<|channel|>final<|message|>x<|end|><|start|><|start|>assistant<|channel|>final<|message|>y<|end|>', 'Unknown role: <|start|>assistant', 'token', 78],
    ['end of input inside a header (P237)', '<|channel|>final<|message|>Answer.<|end|><|start|>assistant', 'Unexpected EOS while waiting for message header to complete', 'eos', 59],
    ['end of input right after <|start|> (P283)', '<|channel|>analysis<|message|>ok<|end|><|start|>', 'Unexpected EOS while waiting for message header to complete', 'eos', 48],
    ['a stop token in a header is header text, strict (P309)', '<|channel|>finalHello<|return|>', 'Unexpected EOS while waiting for message header to complete', 'eos', 31],
  ];
  it.each(cases)('%s', (_rule, completion, message, stage, offset) => {
    const r = parseHarmony(completion);
    expect(r.error).toEqual({ message, stage, offset });
    // the offset points at the refused token: the <|message|> that closed a bad header, or what follows a message
    const at = Buffer.from(completion).subarray(offset).toString();
    if (stage === 'eos') expect(at).toBe('');
    else if (message.startsWith('Unexpected token')) expect(completion.slice(0, completion.length - at.length)).toMatch(/<\|(end|call|return)\|>$/);
    else expect(at.startsWith('<|message|>')).toBe(true);
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('messages before the error are kept; the parser refuses what follows', () => {
    const p = createHarmonyParser();
    const events = p.push('<|channel|>analysis<|message|>r<|end|>\n');
    expect(events.map((e) => e.type)).toEqual(['message-start', 'content', 'message-end']);
    // the newline is held until its token is known (the next control token or the end)
    const more = p.push('<|start|>assistant<|channel|>final<|message|>x<|return|>');
    expect(more).toEqual([{ type: 'error', error: { message: 'Unexpected token 198 while expecting start token 200006', stage: 'token', offset: 38 } }]);
    expect(p.push('<|start|>assistant<|channel|>final<|message|>y<|return|>')).toEqual([]);
    p.end();
    expect(p.result().messages).toEqual([A('analysis', 'r')]);
    expect(p.result().partial).toBe(false);
  });

  it('token input: the error carries the refused token index', () => {
    // <|channel|> final <|message|> x <|end|> y
    const r = parseHarmony([200005, 17196, 200008, 87, 200007, 88]);
    expect(r.error).toEqual({ message: 'Unexpected token 88 while expecting start token 200006', stage: 'token', tokenIndex: 5, offset: 35 });
    const h = parseHarmony([200005, 200008]);
    expect(h.error).toEqual({ message: 'channel marker present but no channel value found in header', stage: 'token', tokenIndex: 1, offset: 11 });
    // after a header error the engine is left expecting <|start|>, with the prompt's role still set
    const p = createHarmonyParser();
    p.push([200005, 200008]);
    expect(p.state.currentRole).toBe('assistant');
    expect(p.result().partial).toBe(false);
  });

  it('an end-of-input error leaves the open header for a raw fallback (P272, P271)', () => {
    const later = parseHarmony('<|channel|>analysis<|message|>ok<|end|><|start|>assistant<|channel|>');
    expect(later.messages).toEqual([A('analysis', 'ok')]);
    expect(later.partial).toBe(true);
    expect(later.open).toEqual({ state: 'header', role: 'assistant', content: '', raw: '<|start|>assistant<|channel|>' });
    const first = parseHarmony('<|channel|>commentary to=functions.get_weather');
    expect(first.open).toMatchObject({ state: 'header', role: 'assistant', channel: 'commentary', recipient: 'functions.get_weather', raw: '<|channel|>commentary to=functions.get_weather' });
  });

  it('undecodable headers (token input): strict `could not decode header`; lenient salvage names the bytes or the id', () => {
    // 172 is the lone byte F0: a header ending in half a character
    expect(parseHarmony([200005, 17196, 172, 200008, 87, 200007]).error?.message).toBe('could not decode header');
    expect(parseHarmony([200005, 17196, 300000, 200008]).error?.message).toBe('could not decode header');
    expect(parseHarmony([200005, 17196, 172, 200007], { mode: 'lenient' }).error?.message).toBe('Could not decode tokens: Invalid utf-8 sequence: incomplete utf-8 byte sequence from index 16');
    expect(parseHarmony([200005, 17196, 172, 64, 200007], { mode: 'lenient' }).error?.message).toBe('Could not decode tokens: Invalid utf-8 sequence: invalid utf-8 sequence of 1 bytes from index 16');
    expect(parseHarmony([200005, 17196, 300000, 200007], { mode: 'lenient' }).error?.message).toBe('Could not decode tokens: Invalid token error: Invalid token for decoding: 300000');
  });
});

describe('lenient (strict=False): a stop token inside a header', () => {
  it('first message: channel kept, the other words become the content (P309, P311, P333)', () => {
    const a = parseHarmony('<|channel|>finalHello<|return|>', { mode: 'lenient' });
    expect(a.messages).toEqual([A('finalHello', '')]);
    expect(a.stops).toEqual(['<|return|>']);
    expect(a.error).toBeUndefined();
    const b = parseHarmony('<|channel|>commentary to=functions.get_weather <|constrain|>json{"location":"A"}<|call|>', { mode: 'lenient' });
    expect(b.messages).toEqual([A('commentary', 'to=functions.get_weather <|constrain|>json{"location":"A"}')]);
    const c = parseHarmony('<|channel|>commentary to=functions.get_weather<|call|>', { mode: 'lenient' });
    expect(c.messages).toEqual([A('commentary', 'to=functions.get_weather')]);
  });

  it('a later message is dropped (P312); strict reads on and fails at the end', () => {
    const text = '<|channel|>analysis<|message|>r<|end|><|start|>assistant<|channel|>finalHello<|return|>';
    expect(parseHarmony(text, { mode: 'lenient' })).toMatchObject({ messages: [A('analysis', 'r')], partial: false });
    expect(parseHarmony(text, { mode: 'lenient' }).error).toBeUndefined();
    expect(parseHarmony(text).error?.stage).toBe('eos');
  });

  it('<|end|> then <|message|>: strict makes <|end|> the recipient, lenient refuses the <|message|> (P331)', () => {
    const text = '<|channel|>final<|end|><|message|>x<|return|>';
    expect(parseHarmony(text).messages).toEqual([{ role: 'assistant', recipient: '<|end|>', channel: 'final', content: 'x' }]);
    const l = parseHarmony(text, { mode: 'lenient' });
    expect(l.messages).toEqual([A('final', '')]);
    expect(l.error).toEqual({ message: 'Unexpected token 200008 while expecting start token 200006', stage: 'token', offset: 23 });
  });

  it('an empty first header with a stop token gives no message', () => {
    expect(parseHarmony('<|end|>', { mode: 'lenient' })).toMatchObject({ messages: [], partial: false });
  });

  it('otherwise lenient equals strict', () => {
    const text = '<|channel|>analysis<|message|>a<|end|><|start|>assistant<|channel|>final<|message|>b<|return|>';
    expect(parseHarmony(text, { mode: 'lenient' })).toEqual(parseHarmony(text));
  });
});

describe('tolerant: never refuses, problems become diagnostics with byte offsets', () => {
  const T: HarmonyParseOptions = { mode: 'tolerant' };

  it('stray text between messages is skipped (offset of its first byte)', () => {
    const r = parseHarmony('<|channel|>analysis<|message|>r<|end|>stray text<|start|>assistant<|channel|>final<|message|>x<|return|>', T);
    expect(r.error).toBeUndefined();
    expect(r.messages).toEqual([A('analysis', 'r'), A('final', 'x')]);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({ code: 'parse/stray-text', severity: 'error', path: '/completion#38' });
    expect(r.diagnostics[0].message).toContain('"stray text"');
    expect(r.diagnostics[0].message).toContain('byte 38');
  });

  it('stray control tokens and trailing text too, one diagnostic per run', () => {
    const r = parseHarmony('<|channel|>final<|message|>é<|end|><|end|> \n', T);
    expect(r.messages).toEqual([A('final', 'é')]);
    expect(r.diagnostics).toMatchObject([{ code: 'parse/stray-text', path: '/completion#36' }]);
  });

  it('a stop token inside a header: parse/stop-in-header, its words read as content (for every message)', () => {
    const r = parseHarmony('<|channel|>analysis<|message|>r<|end|><|start|>assistant<|channel|>commentary to=functions.f<|call|>', T);
    expect(r.messages).toEqual([A('analysis', 'r'), A('commentary', 'to=functions.f')]);
    expect(r.stops).toEqual(['<|end|>', '<|call|>']);
    expect(codes(r)).toEqual(['parse/stop-in-header']);
    expect(r.diagnostics[0].path).toBe('/completion#92');
  });

  it('end of input inside a header: parse/cut-in-header, the open header kept', () => {
    const r = parseHarmony('<|channel|>final<|message|>Answer.<|end|><|start|>assistant', T);
    expect(r.error).toBeUndefined();
    expect(r.messages).toEqual([A('final', 'Answer.')]);
    expect(codes(r)).toEqual(['parse/cut-in-header']);
    expect(r.diagnostics[0].path).toBe('/completion#59');
    expect(r.open?.raw).toBe('<|start|>assistant');
  });

  it('an unknown role: parse/unknown-role, read as a tool author', () => {
    const r = parseHarmony('<|channel|>final<|message|>x<|end|><|start|>robot<|message|>beep<|end|>', T);
    expect(r.messages[1]).toEqual({ role: 'tool', name: 'robot', content: 'beep' });
    expect(r.diagnostics).toMatchObject([{ code: 'parse/unknown-role', path: '/completion#35' }]);
    expect(r.diagnostics[0].message).toContain('Unknown role: robot');
  });

  it('header problems: empty channel, missing role, extra words, each read anyway', () => {
    expect(codes(parseHarmony('<|channel|> <|message|>x<|return|>', T))).toEqual(['parse/empty-channel']);
    expect(parseHarmony('<|channel|> <|message|>x<|return|>', T).messages).toEqual([{ role: 'assistant', content: 'x' }]);
    const m = parseHarmony('<|channel|>final<|message|>x<|end|><|start|><|message|>y<|end|>', T);
    expect(m.messages[1]).toEqual({ role: 'assistant', content: 'y' });
    expect(codes(m)).toEqual(['parse/missing-role']);
    const e = parseHarmony('<|channel|>final extra words here<|message|>x<|return|>', T);
    expect(e.messages).toEqual([{ role: 'assistant', recipient: 'words', channel: 'final', content_type: 'here', content: 'x' }]);
    // read as a call (recipient `words`) ended by <|return|>: noted too
    expect(codes(e)).toEqual(['parse/extra-header-words', 'parse/call-not-ended-by-call']);
  });

  it('<|start|> inside a header starts the message again (doubled <|start|>)', () => {
    const r = parseHarmony('<|channel|>final<|message|>x<|end|><|start|><|start|>assistant<|channel|>final<|message|>y<|end|>', T);
    expect(r.messages).toEqual([A('final', 'x'), A('final', 'y')]);
    expect(r.diagnostics).toMatchObject([{ code: 'parse/start-in-header', path: '/completion#44' }]);
    // a completion that opens its own message after the prompt's <|start|>assistant is read without a word
    const own = parseHarmony('<|start|>assistant<|channel|>final<|message|>x<|end|>', T);
    expect(own.messages).toEqual([A('final', 'x')]);
    expect(own.diagnostics).toEqual([]);
  });

  it('a cut call: parse/incomplete-call, stop undefined', () => {
    const r = parseHarmony('<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"a', T);
    expect(r.stops).toEqual([undefined]);
    expect(codes(r)).toEqual(['parse/incomplete-call']);
  });

  it('a clean completion gives what strict gives, with no diagnostics', () => {
    const text = '<|channel|>analysis<|message|>a<|end|><|start|>assistant to=functions.f<|channel|>commentary json<|message|>{}<|call|>';
    expect(parseHarmony(text, T)).toEqual(parseHarmony(text));
    expect(parseHarmony(text, T).diagnostics).toEqual([]);
  });
});

describe('token input and UTF-8', () => {
  it('ids decode as the engine decodes them (P000 tokens)', () => {
    const r = parseHarmony([200005, 35644, 200008, 1844, 5003, 5911, 13, 200007, 200006, 173781, 200005, 17196, 200008, 13225, 0, 200002]);
    expect(r.messages).toEqual([A('analysis', 'User says hi.'), A('final', 'Hello!')]);
    expect(r.lastToken).toBe(200002);
  });

  it('a character split over tokens is held until it decodes: 🦄 = [F0 9F][A6][84]', () => {
    const p = createHarmonyParser();
    p.push([200005, 17196, 200008, 4103]);
    expect(p.state.lastContentDelta).toBeNull();
    expect(p.state.currentContent).toBe('');
    p.push([99]);
    expect(p.state.lastContentDelta).toBeNull();
    const ev = p.push([226]);
    expect(ev).toEqual([{ type: 'content', delta: '🦄' }]);
    expect(p.state.currentContent).toBe('🦄');
    p.push([200007]);
    expect(p.state.lastContentDelta).toBeNull();
    expect(p.result().messages).toEqual([A('final', '🦄')]);
  });

  it('cut at the end: the held bytes become one U+FFFD (P398)', () => {
    const r = parseHarmony([200005, 17196, 200008, 9804, 9552, 99]);
    expect(r.messages).toEqual([A('final', 'cut \uFFFD')]);
  });

  it('an invalid byte becomes U+FFFD at once; bytes after it wait for the next token (the reference drains one error per token)', () => {
    const p = createHarmonyParser();
    p.push([200005, 17196, 200008]);
    p.push([172]); // F0: the start of a 4-byte character, held
    expect(p.state.lastContentDelta).toBeNull();
    p.push([64]); // `a`: F0 61 is one invalid sequence → U+FFFD; the `a` itself stays held
    expect(p.state.lastContentDelta).toBe('\uFFFD');
    expect(p.state.currentContent).toBe('\uFFFD');
    p.end();
    expect(p.result().messages[0].content).toBe('\uFFFDa');
    const q = createHarmonyParser();
    q.push([200005, 17196, 200008, 172]);
    expect(q.state.lastContentDelta).toBeNull();
    q.push([187]); // F0 FF: one invalid sequence (F0), FF stays held
    expect(q.state.lastContentDelta).toBe('\uFFFD');
    expect(q.state.currentContent).toBe('\uFFFD');
    q.push([64]); // FF a: FF is invalid, `a` stays held
    expect(q.state.lastContentDelta).toBe('\uFFFD');
    q.push([65]); // a b: valid now
    expect(q.state.lastContentDelta).toBe('ab');
    q.end();
    expect(q.result().messages[0].content).toBe('\uFFFD\uFFFDab');
  });

  it('a control token while bytes are held joins them (its spelling is bytes too)', () => {
    const r = parseHarmony([200005, 17196, 200008, 4103, 200006, 200007]);
    // F0 9F before `<`: one invalid sequence, then `<|start|>` waits and is flushed at the stop
    expect(r.messages[0].content).toBe('\uFFFD<|start|>');
  });

  it('an id outside the vocabulary: the rest of the content is lost as one U+FFFD', () => {
    const r = parseHarmony([200005, 17196, 200008, 87, 300000, 88, 200007, 200006, 173781, 200005, 17196, 200008, 88, 200007]);
    expect(r.messages).toEqual([A('final', 'x\uFFFD'), A('final', 'y')]);
  });

  it('header bytes split over tokens decode as a whole (P392)', () => {
    // 東 = E6 9D B1 as three byte tokens in the recipient
    const r = parseHarmony([200005, 12606, 815, 316, 28, 44580, 13, 162, 251, 109, 200008, 12083, 200012]);
    expect(r.messages[0]).toEqual({ role: 'assistant', recipient: 'functions.東', channel: 'commentary', content: '{}' });
  });

  it('reserved ids are specials spelled <|reserved_N|>; 200018 too (not gpt-tokenizer’s <|endofprompt|>)', () => {
    expect(parseHarmony([200005, 17196, 200008, 200018, 201088, 200007]).messages[0].content).toBe('<|reserved_200018|><|reserved_201088|>');
    expect(parseHarmony('<|channel|>final<|message|>x<|end|><|reserved_200018|>').error?.message).toBe('Unexpected token 200018 while expecting start token 200006');
    // a spelling that is no o200k_harmony special is text
    expect(parseHarmony('<|channel|>final<|message|>x<|end|><|endofprompt|>').error?.message).toBe('Unexpected token 27 while expecting start token 200006');
  });
});

describe('streaming', () => {
  const samples = [
    '<|channel|>analysis<|message|>思考：用户在问天气 🙂👍🏽<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"location":"東京"}<|call|>',
    '<|channel|>final<|message|>print <|end|> literally<|return|>',
    '<|channel|>analysis<|message|>r<|end|>stray<|start|>assistant<|channel|>finalHello<|return|>',
    ' to=functions.f<|channel|>commentary json<|message|>{"a": "x<|call|>y"}<|call|><|start|>robot<|message|>z',
    '<|channel|>final<|message|>a<|reserved_200100|>b<|res',
  ];

  it('events: message-start when the header completes, deltas, message-end with its stop', () => {
    const p = createHarmonyParser();
    const seen: HarmonyParseEvent[] = [];
    for (const chunk of ['<|channel|>comm', 'entary to=functions.f <|constrain|>js', 'on<|message|>{"a"', ':1}<|ca', 'll|>']) seen.push(...p.push(chunk));
    seen.push(...p.end());
    expect(seen).toEqual([
      { type: 'message-start', role: 'assistant', channel: 'commentary', recipient: 'functions.f', content_type: '<|constrain|>json' },
      { type: 'content', delta: '{"a"' },
      { type: 'content', delta: ':1}' },
      { type: 'message-end', message: { role: 'assistant', recipient: 'functions.f', channel: 'commentary', content_type: '<|constrain|>json', content: '{"a":1}' }, stop: '<|call|>' },
    ]);
  });

  it('state: what openai-harmony exposes while the stream runs', () => {
    const p = createHarmonyParser();
    expect(p.state).toMatchObject({ currentRole: 'assistant', currentChannel: null, lastContentDelta: null, currentContent: '' });
    p.push('<|channel|>commentary to=functions.f json<|message|>{"a"');
    expect(p.state).toEqual({ currentRole: 'assistant', currentChannel: 'commentary', currentRecipient: 'functions.f', currentContentType: 'json', lastContentDelta: '{"a"', currentContent: '{"a"', messages: [] });
    p.push('}<|call|><|start|>');
    // after the first header the prompt's role is spent: null until the next header is read
    expect(p.state).toMatchObject({ currentRole: null, currentRecipient: null, lastContentDelta: null, currentContent: '' });
    expect(p.state.messages).toHaveLength(1);
  });

  it('a chunk cut inside <|call|>, inside a character, inside a surrogate pair gives one push’s result', () => {
    const text = '<|channel|>final<|message|>🦄 x<|call|>';
    const whole = parseHarmony(text);
    for (let k = 0; k <= text.length; k++) {
      const p = createHarmonyParser();
      p.push(text.slice(0, k));
      p.push(text.slice(k));
      p.end();
      expect(p.result()).toEqual(whole);
    }
    const b = bytes(text);
    for (let k = 0; k <= b.length; k++) {
      const p = createHarmonyParser();
      p.push(b.subarray(0, k));
      p.push(b.subarray(k));
      p.end();
      expect(p.result()).toEqual(whole);
    }
  });

  it('end() flushes a held `<|res` as text; a lone `<` too', () => {
    expect(parseHarmony('<|channel|>final<|message|>a<|res').messages[0].content).toBe('a<|res');
    const p = createHarmonyParser();
    p.push('<|channel|>final<|message|>a<');
    expect(p.state.currentContent).toBe('a');
    p.end();
    expect(p.result().messages[0].content).toBe('a<');
  });

  for (const mode of ['strict', 'lenient', 'tolerant'] as HarmonyParseMode[]) {
    it(`${mode}: any chunking of text or bytes equals one push (property)`, () => {
      fc.assert(
        fc.property(fc.constantFrom(...samples), fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), (text, cuts, asBytes) => {
          const whole = JSON.stringify(parseHarmony(text, { mode }));
          const input: string | Uint8Array = asBytes ? bytes(text) : text;
          const points = [...new Set(cuts.map((c) => c % (input.length + 1)))].sort((x, y) => x - y);
          const p = createHarmonyParser({ mode });
          let at = 0;
          for (const c of [...points, input.length]) {
            p.push(input.slice(at, c));
            at = c;
          }
          p.end();
          return JSON.stringify(p.result()) === whole;
        }),
        { numRuns: 300, seed: 42 },
      );
    });
  }

  it('token chunks equal one push, and mixing text then tokens reads on', () => {
    const ids = [200005, 17196, 200008, 4103, 99, 226, 200007, 200006, 173781, 200005, 17196, 200008, 87];
    const whole = parseHarmony(ids);
    for (let k = 0; k <= ids.length; k++) {
      const p = createHarmonyParser();
      p.push(ids.slice(0, k));
      p.push(ids.slice(k));
      p.end();
      expect(p.result()).toEqual(whole);
    }
    const mixed = createHarmonyParser();
    mixed.push('<|channel|>final<|message|>a<|');
    mixed.push([88, 200007]);
    mixed.end();
    expect(mixed.result().messages).toEqual([A('final', 'a<|y')]);
  });

  it('end() once; push after end does nothing', () => {
    const p = createHarmonyParser();
    p.push('<|channel|>final<|message|>x');
    expect(p.end().map((e) => e.type)).toEqual(['message-end', 'diagnostic']);
    expect(p.end()).toEqual([]);
    expect(p.push('more')).toEqual([]);
    expect(p.result().messages).toEqual([A('final', 'x')]);
  });
});

describe('back to the envelope', () => {
  const canonical = [
    '<|channel|>analysis<|message|>Need weather.<|end|><|start|>assistant to=functions.get_weather<|channel|>commentary <|constrain|>json<|message|>{"location":"Paris"}<|call|>',
    '<|channel|>final<|message|>Hello!<|return|>',
    ' to=functions.f<|channel|>commentary json<|message|>{}<|call|>',
    '<|channel|>final<|message|>x<|end|><|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>FAKE<|end|>',
  ];
  it.each(canonical)('renders back byte for byte: %s', (completion) => {
    const r = parseHarmony(completion);
    const rendered = r.messages.map((m, i) => renderEnvelope(harmonyMessageToEnvelope(m), r.stops[i] === '<|return|>')).join('');
    expect(rendered).toBe(`<|start|>assistant${completion}`);
    expect(parseHarmony(rendered, { role: null }).messages).toEqual(r.messages);
  });

  it('maps content_type to contentType; the recipient in the channel part is re-printed in the role part', () => {
    const r = parseHarmony('<|channel|>commentary to=functions.f <|constrain|>json<|message|>{}<|call|>');
    const env = harmonyMessageToEnvelope(r.messages[0]);
    expect(env).toEqual({ role: 'assistant', recipient: 'functions.f', channel: 'commentary', contentType: '<|constrain|>json', content: '{}' });
    expect(renderEnvelope(env)).toBe('<|start|>assistant to=functions.f<|channel|>commentary <|constrain|>json<|message|>{}<|call|>');
  });
});
