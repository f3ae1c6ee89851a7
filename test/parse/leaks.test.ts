/** findLeaks: fabricated tool results and turns, control-token spellings in content, calls on analysis. */
import { describe, expect, it } from 'vitest';
import { controlTokenSpellings, findLeaks } from '../../src/parse/leaks.js';
import type { HarmonyOpenMessage, HarmonyParseResult, ParsedHarmonyMessage } from '../../src/parse/types.js';

function parse(messages: ParsedHarmonyMessage[], open?: HarmonyOpenMessage): HarmonyParseResult {
  return { messages, stops: messages.map(() => '<|end|>'), completedBeforeEnd: messages.length, partial: open !== undefined, ...(open ? { open } : {}), diagnostics: [] };
}
const a = (channel: string, content: string, extra: Partial<ParsedHarmonyMessage> = {}): ParsedHarmonyMessage => ({ role: 'assistant', channel, ...extra, content });

describe('findLeaks', () => {
  it('a clean completion has none', () => {
    expect(findLeaks(parse([a('analysis', 'Think.'), a('commentary', '{"location":"A"}', { recipient: 'functions.get_weather', content_type: '<|constrain|>json' }), a('final', 'Done.')]))).toEqual([]);
  });

  it('a message authored by a tool is a fabricated tool result (P354)', () => {
    const d = findLeaks(
      parse([
        a('commentary', '{"location":"A"}', { recipient: 'functions.get_weather' }),
        { role: 'tool', name: 'functions.get_weather', recipient: 'assistant', channel: 'commentary', content: 'FAKE 99C' },
        a('final', 'It is 99C.'),
      ]),
    );
    expect(d).toEqual([
      {
        code: 'leak/fabricated-tool-result',
        severity: 'error',
        path: '/messages/1',
        message: 'the completion contains a message authored by "functions.get_weather" to "assistant": the model wrote a tool result itself ("FAKE 99C"); no tool ran',
      },
    ]);
  });

  it('an unknown author read as a tool (P358) is one too', () => {
    expect(findLeaks(parse([a('final', 'x'), { role: 'tool', name: 'robot', recipient: 'assistant', content: 'beep' }])).map((d) => d.code)).toEqual(['leak/fabricated-tool-result']);
  });

  it('user, system and developer messages are fabricated turns (P355, P356)', () => {
    const d = findLeaks(parse([a('final', 'x'), { role: 'user', content: 'next question' }, { role: 'system', content: 'sys' }, { role: 'developer', content: 'dev' }]));
    expect(d.map((x) => [x.code, x.path])).toEqual([
      ['leak/fabricated-turn', '/messages/1'],
      ['leak/fabricated-turn', '/messages/2'],
      ['leak/fabricated-turn', '/messages/3'],
    ]);
    expect(d[0].message).toContain('a user message ("next question")');
  });

  it('control-token spellings that reached content as text (P365, P367, P381)', () => {
    const d = findLeaks(parse([a('final', 'a<|reserved_200013|>b<|channel|>c<|channel|>'), a('final', 'print <|end|> literally'), a('final', 'x <| not a token |> y')]));
    expect(d.map((x) => [x.code, x.severity, x.path, x.message])).toEqual([
      ['leak/control-token-in-content', 'warning', '/messages/0', 'the content holds control-token spellings <|reserved_200013|>, <|channel|> as text'],
      ['leak/control-token-in-content', 'warning', '/messages/1', 'the content holds control-token spelling <|end|> as text'],
    ]);
  });

  it('a function call on the analysis channel (P179, P386); builtin calls there are normal (P155)', () => {
    const d = findLeaks(
      parse([
        a('analysis', '{"q": 1}', { recipient: 'functions.get_weather', content_type: '<|constrain|>json' }),
        a('analysis', 'print(1)', { recipient: 'python', content_type: 'code' }),
        a('analysis', '{"query": "x"}', { recipient: 'browser.search' }),
        a('analysis', '{}', { recipient: 'mcp.tool' }),
      ]),
    );
    expect(d.map((x) => [x.code, x.path])).toEqual([
      ['leak/call-on-analysis', '/messages/0'],
      ['leak/call-on-analysis', '/messages/3'],
    ]);
  });

  it('the raw header vLLM returns as content when the output ends inside one (P237, P311)', () => {
    const d = findLeaks(parse([a('final', 'Answer.')], { state: 'header', content: '', raw: '<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json{"location":"A"}<|call|>' }));
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ code: 'leak/control-token-in-content', path: '/open' });
    expect(d[0].message).toContain('control tokens <|start|>, <|channel|>, <|constrain|>, <|call|> included');
    expect(findLeaks(parse([], { state: 'content', content: 'x', raw: '<|channel|>final<|message|>x' }))).toEqual([]);
  });

  it('controlTokenSpellings lists each spelling once, in order', () => {
    expect(controlTokenSpellings('<|end|> a <|im_start|> <|end|> <|x y|>')).toEqual(['<|end|>', '<|im_start|>']);
  });
});
