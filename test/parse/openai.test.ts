/**
 * toChatCompletion and the streaming form, rule by rule, on hand-built parses. Each expected value
 * was checked by hand against vLLM's code (spec conversations §B.2) and, where the oracle has the
 * case, against ../shared/oracles/parse (the row id is named).
 */
import { describe, expect, it } from 'vitest';
import { CompileError } from '../../src/diagnostics.js';
import { readTools } from '../../src/input/read.js';
import {
  accumulateChunks,
  chatCompletionChunks,
  createChatCompletionStream,
  engineFinishReason,
  eventsFromParse,
  isFunctionRecipient,
  normalizeRecipient,
  pythonJsonRoundTrip,
  segmentKind,
  toChatCompletion,
  vllmToolCallId,
  type ChatCompletion,
  type ChatCompletionResult,
} from '../../src/parse/openai.js';
import type { HarmonyOpenMessage, HarmonyParseError, HarmonyParseResult, HarmonyStopToken, ParsedHarmonyMessage } from '../../src/parse/types.js';

// ---- hand-built parses (no parser needed)

/** An assistant message on a channel, with optional recipient / content type / role. */
function msg(channel: string | undefined, content: string, extra: Partial<ParsedHarmonyMessage> = {}): ParsedHarmonyMessage {
  return { role: 'assistant', ...(channel !== undefined ? { channel } : {}), ...extra, content };
}

/** A call message: `<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>ARGS<|call|>`. */
function call(name: string, args: string, extra: Partial<ParsedHarmonyMessage> = {}): ParsedHarmonyMessage {
  return msg('commentary', args, { recipient: `functions.${name}`, content_type: '<|constrain|>json', ...extra });
}

/** Token ids of the stop tokens and of `<|endoftext|>`. */
const TOK = { end: 200007, call: 200012, return: 200002, endoftext: 199999, message: 200008 } as const;

/**
 * A parse: every message completed by a stop token (`<|call|>` after a call, `<|return|>` after a
 * final, `<|end|>` otherwise) unless `completedBeforeEnd` says fewer; `lastToken` is the last stop.
 */
function parse(
  messages: ParsedHarmonyMessage[],
  opts: { completedBeforeEnd?: number; open?: HarmonyOpenMessage; error?: HarmonyParseError; lastToken?: number; stops?: (HarmonyStopToken | undefined)[] } = {},
): HarmonyParseResult {
  const done = opts.completedBeforeEnd ?? messages.length;
  const stops =
    opts.stops ??
    messages.map((m, i): HarmonyStopToken | undefined => (i >= done ? undefined : m.recipient?.startsWith('functions.') ? '<|call|>' : m.channel === 'final' ? '<|return|>' : '<|end|>'));
  const last = stops[stops.length - 1];
  const lastToken = opts.lastToken ?? (last === '<|call|>' ? TOK.call : last === '<|return|>' ? TOK.return : last === '<|end|>' ? TOK.end : 1234);
  return {
    messages,
    stops,
    completedBeforeEnd: done,
    partial: done < messages.length || opts.open !== undefined,
    ...(opts.open ? { open: opts.open } : {}),
    ...(opts.error ? { error: opts.error } : {}),
    diagnostics: [],
    lastToken,
  };
}

/** One tool, OpenAI Chat shape. */
const WEATHER_TOOL = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Get the current weather',
    parameters: {
      type: 'object',
      properties: {
        location: { type: 'string', description: 'City name' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        days: { type: 'integer', minimum: 1 },
      },
      required: ['location'],
      additionalProperties: false,
    },
  },
} as const;

/** A fixed id sequence for tool calls. */
function ids(): () => string {
  let n = 0;
  return () => `call-${n++}`;
}
// ----

const TOOLS = [WEATHER_TOOL];

function ok(r: ChatCompletionResult): ChatCompletion {
  if (r.error) throw new Error(`unexpected failure: ${r.error.message}`);
  return r;
}
const codes = (r: { diagnostics: readonly { code: string }[] }) => r.diagnostics.map((d) => d.code);

describe('pythonJsonRoundTrip: json.dumps(json.loads(text)) as CPython', () => {
  it.each([
    ['{"location":"東京"}', '{"location": "\\u6771\\u4eac"}'], // P177
    ['{"repo":"🚀 launch"}', '{"repo": "\\ud83d\\ude80 launch"}'], // P100: non-BMP as a surrogate pair
    ['{"combining": "e\u0301"}', '{"combining": "e\\u0301"}'], // P203: a combining accent (decomposed) is escaped
    ['{"float": 1.0, "exp": 1E3, "int": 10}', '{"float": 1.0, "exp": 1000.0, "int": 10}'], // P192
    ['{"latitude": 1e+21, "b": 0.25}', '{"latitude": 1e+21, "b": 0.25}'], // P110
    ['{ "spaced" :  "out" ,  "x" : 1 }', '{"spaced": "out", "x": 1}'], // P197
    ['\n  {"k": "v"}  ', '{"k": "v"}'], // P199
    ['{"nan": NaN}', '{"nan": NaN}'], // P200
    ['{"inf": Infinity, "m": -Infinity}', '{"inf": Infinity, "m": -Infinity}'], // P201
    ['{"text": "line1\\nline2\\ttab"}', '{"text": "line1\\nline2\\ttab"}'], // P180
    ['{"payload": "{\\"inner\\": \\"\\\\u503c\\"}"}', '{"payload": "{\\"inner\\": \\"\\\\u503c\\"}"}'], // P389
    ['{"bom": "\\ufeffstart"}', '{"bom": "\\ufeffstart"}'], // P187
    ['[1e400, -1e400]', '[Infinity, -Infinity]'], // float() overflows to inf
    ['[-0, -0.0, 1e-400]', '[0, -0.0, 0.0]'],
    ['18446744073709551616', '18446744073709551616'], // ints are exact
    ['[1e16, 1.0000000000000001, 123456789012345678901234567890.0]', '[1e+16, 1.0, 1.2345678901234568e+29]'],
    ['{"a": 1, "b": 2, "a": 3}', '{"a": 3, "b": 2}'], // dict: first position, last value
    ['"\\ud800 lone"', '"\\ud800 lone"'], // a lone surrogate escape is accepted and printed back
    ['"\x7f"', '"\\u007f"'], // DEL is outside ensure_ascii's range
    ['{"__proto__": {"x": 1}}', '{"__proto__": {"x": 1}}'],
  ])('%s → %s', (text, want) => {
    expect(pythonJsonRoundTrip(text)).toEqual({ kind: 'ok', text: want });
  });

  it.each([
    ["{'location': 'Paris'}"], // P208
    ['{"location": "Paris",}'], // P209
    [''], // P212
    [' '], // P213
    ['{"a": 01}'], // P223
    ['{"a": .5}'], // P224
    ['// comment\n{}'], // P225
    ['{}}'], // P227
    ['{"a": 1}{"b": 2}'], // P219
    ['1.'],
    ['nul'],
    ['\ufeff{}'], // json.loads refuses a str starting with a BOM
    ['"a\nb"'], // strict: a raw control character in a string
    ['"\\x"'],
  ])('%j is not JSON for Python: kept raw', (text) => {
    expect(pythonJsonRoundTrip(text).kind).toBe('invalid');
  });

  it('raises (does not decode) on what CPython raises on outside JSONDecodeError: deep nesting, huge integers', () => {
    expect(pythonJsonRoundTrip('['.repeat(1001) + ']'.repeat(1001)).kind).toBe('raises');
    expect(pythonJsonRoundTrip('['.repeat(999) + ']'.repeat(999)).kind).toBe('ok');
    expect(pythonJsonRoundTrip('9'.repeat(4301)).kind).toBe('raises');
    expect(pythonJsonRoundTrip('9'.repeat(4300))).toEqual({ kind: 'ok', text: '9'.repeat(4300) });
  });

  it("reports CPython's exception texts and JSONDecodeError's bare message and UTF-16 offset", () => {
    expect(pythonJsonRoundTrip('['.repeat(1001))).toEqual({ kind: 'raises', message: 'RecursionError: maximum recursion depth exceeded while decoding a JSON array from a unicode string' });
    expect(pythonJsonRoundTrip('9'.repeat(4301))).toEqual({ kind: 'raises', message: 'ValueError: Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; use sys.set_int_max_str_digits() to increase the limit' });
    expect(pythonJsonRoundTrip('"abc\\')).toEqual({ kind: 'invalid', message: 'Unterminated string starting at', offset: 0 });
    expect(pythonJsonRoundTrip('"\\u1234')).toEqual({ kind: 'invalid', message: 'Invalid \\uXXXX escape', offset: 2 });
    expect(pythonJsonRoundTrip('["😀", x]')).toEqual({ kind: 'invalid', message: 'Expecting value', offset: 7 });
  });
});

describe("vLLM's classification rules", () => {
  it.each([
    ['functions.get_weather', true],
    ['functions.', false], // P335: an empty function name
    ['mcp.server.tool', true], // P345: a bare recipient is a function on the Chat Completions path
    ['Functions.get_weather', true], // P346: a bare recipient too (not a prefix match)
    ['browser.search', false],
    ['python', false],
    ['container.exec', false],
    ['assistant', false],
    ['<|channel|>final', false], // P307
    ['', false],
  ])('isFunctionRecipient(%j) = %s', (r, want) => {
    expect(isFunctionRecipient(r)).toBe(want);
  });

  it('cuts a recipient at <|constrain|> (older openai-harmony) and drops an empty one', () => {
    expect(normalizeRecipient('functions.f <|constrain|>json')).toBe('functions.f');
    expect(normalizeRecipient('functions.f\u3000<|constrain|>json')).toBe('functions.f');
    expect(normalizeRecipient(' <|constrain|>json')).toBeUndefined();
    expect(normalizeRecipient('functions.f')).toBe('functions.f');
  });

  it.each([
    ['analysis', undefined, 'reasoning'],
    ['analysis', 'python', 'reasoning'], // P155: builtin code on analysis is reasoning
    ['analysis', 'functions.f', 'tool'], // P179
    ['final', undefined, 'content'],
    ['commentary', undefined, 'content'],
    ['commentary', 'browser.search', 'ignore'], // P158
    ['commentary', 'assistant', 'ignore'],
    [undefined, undefined, 'ignore'],
    ['Final', undefined, 'ignore'], // P300
  ] as const)('segmentKind(%j, %j) = %s', (channel, recipient, want) => {
    expect(segmentKind(channel, recipient)).toBe(want);
  });

  it('finish reason: stop on <|return|>, <|call|>, <|endoftext|>; length otherwise (P233: <|end|> is no stop)', () => {
    expect(engineFinishReason(TOK.return)).toBe('stop');
    expect(engineFinishReason(TOK.call)).toBe('stop');
    expect(engineFinishReason(TOK.endoftext)).toBe('stop');
    expect(engineFinishReason(TOK.end)).toBe('length');
    expect(engineFinishReason(13)).toBe('length');
    expect(engineFinishReason(undefined)).toBe('length');
  });

  it('default ids are chatcmpl-tool- and 32 hex digits, new each time', () => {
    const a = vllmToolCallId();
    expect(a).toMatch(/^chatcmpl-tool-[0-9a-f]{32}$/);
    expect(vllmToolCallId()).not.toBe(a);
  });
});

describe('toChatCompletion (vLLM newest)', () => {
  it('analysis → reasoning, final → content (P000)', () => {
    const r = ok(toChatCompletion(parse([msg('analysis', 'User says hi.'), msg('final', 'Hello!')])));
    expect(r.message).toEqual({ role: 'assistant', content: 'Hello!', reasoning: 'User says hi.' });
    expect(r.finish_reason).toBe('stop');
  });

  it('joins reasoning parts and content parts (finals and preambles) with "\\n" (P246, P248, P264)', () => {
    expect(ok(toChatCompletion(parse([msg('analysis', 'first'), msg('analysis', 'second'), msg('final', 'ans')]))).message.reasoning).toBe('first\nsecond');
    expect(ok(toChatCompletion(parse([msg('commentary', 'pre1'), msg('commentary', 'pre2'), msg('final', 'F')]))).message.content).toBe('pre1\npre2\nF');
    expect(ok(toChatCompletion(parse([msg('final', 'one'), msg('final', 'two'), msg('final', 'three')]))).message.content).toBe('one\ntwo\nthree');
  });

  it('a preamble alone is the content; empty texts are no parts (P249, P262)', () => {
    const r = ok(toChatCompletion(parse([msg('analysis', 'r'), msg('commentary', 'preamble only')])));
    expect(r.message).toEqual({ role: 'assistant', content: 'preamble only', reasoning: 'r' });
    expect(r.finish_reason).toBe('length'); // ended by <|end|>
    expect(ok(toChatCompletion(parse([msg('commentary', ''), msg('final', '')]))).message).toEqual({ role: 'assistant', content: null, reasoning: null });
  });

  it('a call: name without functions., arguments re-serialised, finish tool_calls (P177, P127)', () => {
    const r = ok(toChatCompletion(parse([msg('analysis', 'Plan.'), msg('commentary', 'Let me look.'), call('get_weather', '{"location":"東京"}')]), { tools: TOOLS, id: ids() }));
    expect(r.message).toEqual({
      role: 'assistant',
      content: 'Let me look.',
      reasoning: 'Plan.',
      tool_calls: [{ id: 'call-0', type: 'function', function: { name: 'get_weather', arguments: '{"location": "\\u6771\\u4eac"}' } }],
    });
    expect(r.finish_reason).toBe('tool_calls');
  });

  it('several calls, each with its own id, in order (P131)', () => {
    const r = ok(toChatCompletion(parse([call('a', '{}'), call('b', '{"x":1}')]), { tools: TOOLS }));
    expect(r.message.tool_calls!.map((c) => [c.function.name, c.function.arguments])).toEqual([
      ['a', '{}'],
      ['b', '{"x": 1}'],
    ]);
    expect(r.message.tool_calls![0].id).not.toBe(r.message.tool_calls![1].id);
  });

  it('arguments that are not JSON are kept raw and reported (P208, P226)', () => {
    const r = ok(toChatCompletion(parse([call('get_weather', "{'location': 'Paris'}")]), { tools: TOOLS }));
    expect(r.message.tool_calls![0].function.arguments).toBe("{'location': 'Paris'}");
    expect(codes(r)).toContain('response/arguments-not-json');
  });

  it('a content type without "json" keeps the arguments raw; `json` and `<|constrain|>json` and none rewrite (P386, P209, P101)', () => {
    const raw = (ct: string | undefined) => ok(toChatCompletion(parse([call('f', '{"a":1}', ct === undefined ? { content_type: undefined } : { content_type: ct })]), { tools: TOOLS })).message.tool_calls![0].function.arguments;
    expect(raw('code')).toBe('{"a":1}');
    expect(raw('json')).toBe('{"a": 1}');
    expect(raw('<|constrain|>json')).toBe('{"a": 1}');
    expect(raw(undefined)).toBe('{"a": 1}');
  });

  it('a call with empty arguments is still a call (P212)', () => {
    const r = ok(toChatCompletion(parse([call('get_weather', '', { content_type: 'code' })]), { tools: TOOLS }));
    expect(r.message.tool_calls![0].function.arguments).toBe('');
  });

  it('calls on analysis and bare recipients are calls; builtins are not (P179, P345, P152, P167, P335)', () => {
    const r = ok(
      toChatCompletion(
        parse([
          msg('analysis', '{"q": 1}', { recipient: 'functions.get_weather', content_type: 'json' }),
          msg('commentary', '{"a":1}', { recipient: 'mcp.server.tool' }),
          msg('analysis', '{"query": "x"}', { recipient: 'browser.search' }),
          msg('commentary', 'x = 2', { recipient: 'python', content_type: 'code' }),
          msg('commentary', '{"a":1}', { recipient: 'functions.' }),
        ]),
        { tools: TOOLS },
      ),
    );
    expect(r.message.tool_calls!.map((c) => c.function.name)).toEqual(['get_weather', 'mcp.server.tool']);
    expect(r.message.reasoning).toBe('{"query": "x"}');
    expect(r.message.content).toBeNull();
    expect(codes(r).filter((c) => c === 'response/message-dropped')).toHaveLength(2);
  });

  it('a recipient holding <|constrain|> is cut there before classifying', () => {
    const r = ok(toChatCompletion(parse([msg('commentary', '{}', { recipient: 'functions.f <|constrain|>json' })]), { tools: TOOLS }));
    expect(r.message.tool_calls![0].function.name).toBe('f');
  });

  it('without tools the calls are parsed and not returned, and that is said (P251, P346)', () => {
    const r = ok(toChatCompletion(parse([msg('analysis', 'a1'), call('get_weather', '{"location":"A"}'), msg('final', 'done')])));
    expect(r.message).toEqual({ role: 'assistant', content: 'done', reasoning: 'a1' });
    expect(r.finish_reason).toBe('stop');
    const d = r.diagnostics.find((x) => x.code === 'response/tool-call-not-returned');
    expect(d?.path).toBe('/messages/1');
    expect(d?.message).toContain('get_weather with arguments {"location": "A"}');
  });

  it('a call cut off by the end is returned with what was written, finish tool_calls (P285)', () => {
    const r = ok(toChatCompletion(parse([call('get_weather', '{"location": "Pa')], { completedBeforeEnd: 0, lastToken: 1234 }), { tools: TOOLS }));
    expect(r.message.tool_calls![0].function.arguments).toBe('{"location": "Pa');
    expect(r.finish_reason).toBe('tool_calls');
    expect(codes(r)).toEqual(expect.arrayContaining(['response/truncated-call', 'response/arguments-not-json']));
  });

  it('the end inside a header: the raw text of the open message is one more content part (P237, P244, P271)', () => {
    const open = { state: 'header' as const, content: '', raw: '<|start|>assistant' };
    const r = ok(toChatCompletion(parse([msg('final', 'Answer.')], { open, lastToken: 173781 })));
    expect(r.message).toEqual({ role: 'assistant', content: 'Answer.\n<|start|>assistant', reasoning: null });
    expect(r.finish_reason).toBe('length');
    expect(codes(r)).toContain('response/flush-fallback');
    const first = ok(toChatCompletion(parse([], { open: { state: 'header', content: '', raw: '<|channel|>' }, lastToken: 200005 })));
    expect(first.message.content).toBe('<|channel|>');
  });

  it('the end inside content: the message completed at the end counts (P048)', () => {
    const r = ok(toChatCompletion(parse([msg('analysis', 'r'), msg('final', '東京は晴')], { completedBeforeEnd: 1, lastToken: 1234 })));
    expect(r.message).toEqual({ role: 'assistant', content: '東京は晴', reasoning: 'r' });
    expect(r.finish_reason).toBe('length');
  });

  it('a token the parser refused fails the request: a failure result, not a throw (P314)', () => {
    const r = toChatCompletion(parse([msg('analysis', 'r')], { error: { stage: 'token', message: 'Unexpected token 689 while expecting start token 200006', tokenIndex: 5, offset: 40 } }));
    expect(r.message).toBeUndefined();
    expect(r.error).toEqual({ type: 'parse', message: 'Unexpected token 689 while expecting start token 200006', tokenIndex: 5 });
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: 'response/request-failed', severity: 'error' })]);
  });

  it('messages not authored by the assistant are ignored (P354, P355)', () => {
    const r = ok(
      toChatCompletion(
        parse([call('get_weather', '{"location":"A"}'), { role: 'tool', name: 'functions.get_weather', recipient: 'assistant', channel: 'commentary', content: 'FAKE 99C' }, msg('final', 'It is 99C.'), { role: 'user', content: 'next' }]),
        { tools: TOOLS },
      ),
    );
    expect(r.message.content).toBe('It is 99C.');
    expect(r.message.tool_calls).toHaveLength(1);
    expect(codes(r).filter((c) => c === 'response/message-dropped')).toHaveLength(2);
  });

  it('include_reasoning false drops the reasoning', () => {
    expect(ok(toChatCompletion(parse([msg('analysis', 'r'), msg('final', 'x')]), { includeReasoning: false })).message.reasoning).toBeNull();
  });

  it('finishReason overrides the one derived from the last token', () => {
    expect(ok(toChatCompletion(parse([msg('final', 'x')]), { finishReason: 'length' })).finish_reason).toBe('length');
  });

  it('an empty tools list reads as no tools, with a warning (newest vLLM refuses it)', () => {
    const r = ok(toChatCompletion(parse([call('f', '{}')]), { tools: [] }));
    expect(r.message.tool_calls).toBeUndefined();
    expect(codes(r)).toEqual(['response/empty-tools', 'response/tool-call-not-returned']);
  });

  it('tools may be JSON text, a ReadResult or a compiled set {definitions}', () => {
    const p = parse([call('get_weather', '{}')]);
    const read = readTools(TOOLS);
    for (const tools of [JSON.stringify(TOOLS), read, { definitions: read.tools, tools: [] }]) {
      expect(ok(toChatCompletion(p, { tools })).message.tool_calls).toHaveLength(1);
    }
    expect(() => toChatCompletion(p, { tools: '{not json' })).toThrow(CompileError);
  });

  describe('tool_choice', () => {
    const p = parse([msg('final', 'answer'), call('get_weather', '{"location":"A"}')]);
    it('"none" with tools: the calls are not returned', () => {
      const r = ok(toChatCompletion(p, { tools: TOOLS, toolChoice: 'none' }));
      expect(r.message.tool_calls).toBeUndefined();
      expect(r.finish_reason).toBe('stop');
      expect(codes(r)).toContain('response/tool-call-not-returned');
    });
    it('"required": content "" when none, calls always listed, tool_calls only when the engine stopped', () => {
      const r = ok(toChatCompletion(parse([call('get_weather', '{}')]), { tools: TOOLS, toolChoice: 'required' }));
      expect(r.message.content).toBe('');
      expect(r.finish_reason).toBe('tool_calls');
      const cut = ok(toChatCompletion(parse([call('get_weather', '{}')], { completedBeforeEnd: 0, lastToken: 1 }), { tools: TOOLS, toolChoice: 'required' }));
      expect(cut.finish_reason).toBe('length');
      const none = ok(toChatCompletion(parse([msg('final', 'x')]), { tools: TOOLS, toolChoice: 'required' }));
      expect(none.message.tool_calls).toEqual([]);
    });
    it('a named tool keeps the engine finish reason', () => {
      const r = ok(toChatCompletion(p, { tools: TOOLS, toolChoice: { type: 'function', function: { name: 'get_weather' } } }));
      expect(r.message.tool_calls).toHaveLength(1);
      expect(r.finish_reason).toBe('stop');
    });
    it('what the validator refuses is a 400 failure', () => {
      for (const [toolChoice, tools, text] of [
        ['auto', undefined, 'When using `tool_choice`, `tools` must be set.'],
        ['sometimes', TOOLS, 'Invalid value for `tool_choice`'],
        [{ type: 'function', function: { name: 'nope' } }, TOOLS, "Tool 'nope' has not been passed in `tools`."],
      ] as const) {
        const r = toChatCompletion(p, { tools, toolChoice });
        expect(r.error?.status, JSON.stringify(toolChoice)).toBe(400);
        expect(r.error?.message).toContain(text);
        expect(codes(r)).toContain('response/request-refused');
      }
    });
    it('parallel_tool_calls false keeps the first call', () => {
      const r = ok(toChatCompletion(parse([call('a', '{}'), call('b', '{}')]), { tools: TOOLS, parallelToolCalls: false }));
      expect(r.message.tool_calls!.map((c) => c.function.name)).toEqual(['a']);
    });
  });
});

describe("toChatCompletion (server 'vllm-classic')", () => {
  const classic = { server: 'vllm-classic' as const, tools: TOOLS };
  it('the last final wins; a preamble only when there is no final', () => {
    expect(ok(toChatCompletion(parse([msg('commentary', 'pre'), msg('final', 'one'), msg('final', 'two')]), classic)).message.content).toBe('two');
    expect(ok(toChatCompletion(parse([msg('commentary', 'pre'), call('f', '{}')]), classic)).message.content).toBe('pre');
  });
  it('only functions.* recipients are calls; an open call is dropped', () => {
    const r = ok(toChatCompletion(parse([msg('commentary', '{}', { recipient: 'mcp.tool' }), call('f', '{"a":1}'), call('g', '{"b"')], { completedBeforeEnd: 2, lastToken: 1 }), classic));
    expect(r.message.tool_calls!.map((c) => [c.function.name, c.function.arguments])).toEqual([['f', '{"a": 1}']]);
    expect(codes(r)).toContain('response/truncated-call');
  });
  it('an open final is content when no final completed; the open analysis joins the reasoning', () => {
    const r = ok(toChatCompletion(parse([msg('analysis', 'a'), msg('analysis', 'b')], { completedBeforeEnd: 1, lastToken: 1 }), classic));
    expect(r.message.reasoning).toBe('a\nb');
    expect(ok(toChatCompletion(parse([msg('commentary', 'pre'), msg('final', 'half')], { completedBeforeEnd: 1, lastToken: 1 }), classic)).message.content).toBe('half');
  });
});

describe('createChatCompletionStream (vLLM streaming)', () => {
  const flow = parse([msg('analysis', 'Think.'), msg('commentary', 'Looking.'), call('get_weather', '{"location":"東京"}'), call('get_time', '{}')]);

  it('streams role first, then reasoning, content, tool call heads and argument pieces, then the finish chunk', () => {
    const { chunks } = chatCompletionChunks(flow, { tools: TOOLS, id: ids() });
    expect(chunks).toEqual([
      { delta: { role: 'assistant', content: '' }, finish_reason: null },
      { delta: { reasoning: 'Think.' }, finish_reason: null },
      { delta: { content: 'Looking.' }, finish_reason: null },
      { delta: { tool_calls: [{ index: 0, id: 'call-0', type: 'function', function: { name: 'get_weather', arguments: '' } }] }, finish_reason: null },
      { delta: { tool_calls: [{ index: 0, function: { arguments: '{"location":"東京"}' } }] }, finish_reason: null },
      { delta: { tool_calls: [{ index: 1, id: 'call-1', type: 'function', function: { name: 'get_time', arguments: '' } }] }, finish_reason: null },
      { delta: { tool_calls: [{ index: 1, function: { arguments: '{}' } }] }, finish_reason: null },
      { delta: {}, finish_reason: 'tool_calls' },
    ]);
  });

  it('deltas add up to the batch message: content, reasoning, call names; arguments raw', () => {
    const batch = ok(toChatCompletion(flow, { tools: TOOLS }));
    const acc = accumulateChunks(chatCompletionChunks(flow, { tools: TOOLS }).chunks);
    expect(acc.content).toBe(batch.message.content);
    expect(acc.reasoning).toBe(batch.message.reasoning);
    expect(acc.tool_calls.map((c) => c.function.name)).toEqual(batch.message.tool_calls!.map((c) => c.function.name));
    expect(acc.tool_calls.map((c) => c.function.arguments)).toEqual(['{"location":"東京"}', '{}']); // raw, where the batch has {"location": "\u6771\u4eac"}
    expect(acc.finish_reason).toBe(batch.finish_reason);
  });

  it('pieces are concatenated, not joined with "\\n" as in the batch form', () => {
    const p = parse([msg('final', 'a'), msg('final', 'b')]);
    expect(accumulateChunks(chatCompletionChunks(p).chunks).content).toBe('ab');
    expect(ok(toChatCompletion(p)).message.content).toBe('a\nb');
  });

  it('token-sized content events stream one by one; empty deltas stream nothing', () => {
    const s = createChatCompletionStream({ tools: TOOLS, id: ids() });
    const out = [
      ...s.push({ type: 'message-start', role: 'assistant', channel: 'commentary', recipient: 'functions.get_weather', content_type: '<|constrain|>json' }),
      ...s.push({ type: 'content', delta: '{"' }),
      ...s.push({ type: 'content', delta: '' }),
      ...s.push({ type: 'content', delta: 'a":1}' }),
      ...s.push({ type: 'message-end', message: call('get_weather', '{"a":1}'), stop: '<|call|>' }),
      ...s.end({ lastToken: TOK.call }),
    ];
    expect(out.map((c) => (c.error ? 'error' : c.delta.tool_calls?.[0].function.arguments ?? c.finish_reason))).toEqual([null, '', '{"', 'a":1}', 'tool_calls']);
  });

  it('the stream says tool_calls only when the engine stopped; a named tool choice never', () => {
    const cut = parse([call('get_weather', '{"location": "Pa')], { completedBeforeEnd: 0, lastToken: 1234 });
    expect(accumulateChunks(chatCompletionChunks(cut, { tools: TOOLS }).chunks).finish_reason).toBe('length');
    const named = chatCompletionChunks(parse([call('get_weather', '{}')]), { tools: TOOLS, toolChoice: { type: 'function', function: { name: 'get_weather' } } });
    expect(accumulateChunks(named.chunks).finish_reason).toBe('stop');
  });

  it('include_reasoning false streams no reasoning', () => {
    const acc = accumulateChunks(chatCompletionChunks(parse([msg('analysis', 'r'), msg('final', 'x')]), { includeReasoning: false }).chunks);
    expect(acc).toMatchObject({ content: 'x', reasoning: null });
  });

  it('without tools, call deltas are not streamed, and that is said', () => {
    const r = chatCompletionChunks(parse([call('get_weather', '{}'), msg('final', 'x')]));
    const acc = accumulateChunks(r.chunks);
    expect(acc.tool_calls).toEqual([]);
    expect(acc.content).toBe('x');
    expect(r.diagnostics.map((d) => d.code)).toEqual(['response/tool-call-not-returned']);
  });

  it('parallel_tool_calls false streams index 0 only', () => {
    const acc = accumulateChunks(chatCompletionChunks(parse([call('a', '{}'), call('b', '{}')]), { tools: TOOLS, parallelToolCalls: false }).chunks);
    expect(acc.tool_calls.map((c) => c.function.name)).toEqual(['a']);
  });

  it('the end inside a header streams the raw header as content in the finish chunk (P237)', () => {
    const { chunks, diagnostics } = chatCompletionChunks(parse([msg('final', 'Answer.')], { open: { state: 'header', content: '', raw: '<|start|>assistant' }, lastToken: 173781 }));
    expect(chunks[chunks.length - 1]).toEqual({ delta: { content: '<|start|>assistant' }, finish_reason: 'length' });
    expect(accumulateChunks(chunks).content).toBe('Answer.<|start|>assistant');
    expect(diagnostics.map((d) => d.code)).toContain('response/flush-fallback');
  });

  it('a parser error streams an error item and nothing after it (P314)', () => {
    const { chunks } = chatCompletionChunks(parse([msg('analysis', 'r')], { error: { stage: 'token', message: 'Unexpected token 689 while expecting start token 200006', tokenIndex: 5, offset: 0 } }));
    expect(chunks.map((c) => (c.error ? `error: ${c.error.message}` : 'chunk'))).toEqual(['chunk', 'chunk', 'error: Unexpected token 689 while expecting start token 200006']);
  });

  it("takes the parser's own events: `end-of-input` stops and diagnostics", () => {
    const s = createChatCompletionStream();
    s.push({ type: 'message-start', role: 'assistant', channel: 'final' });
    s.push({ type: 'diagnostic', diagnostic: { code: 'x', severity: 'info', path: '', message: 'x' } });
    const c = s.push({ type: 'content', delta: 'hi' });
    s.push({ type: 'message-end', message: msg('final', 'hi'), stop: 'end-of-input' });
    expect(c).toEqual([{ delta: { content: 'hi' }, finish_reason: null }]);
    expect(s.end({ finishReason: 'length' })).toEqual([{ delta: {}, finish_reason: 'length' }]);
    expect(s.push({ type: 'content', delta: 'late' })).toEqual([]);
  });

  it('eventsFromParse replays a parse: start, content, end per message', () => {
    expect(eventsFromParse(parse([msg('final', 'x')])).map((e) => e.type)).toEqual(['message-start', 'content', 'message-end']);
  });

  it('a refused request streams one error item', () => {
    const s = createChatCompletionStream({ toolChoice: 'required' });
    expect(s.push({ type: 'content', delta: 'x' })).toEqual([{ error: { type: 'request', message: 'When using `tool_choice`, `tools` must be set.', status: 400 } }]);
    expect(s.end()).toEqual([]);
  });
});
