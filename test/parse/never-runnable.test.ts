/**
 * Issue 22: a call the model did not finish is never runnable, by any documented route (the
 * README's agent loop, docs/parsing.md, `harmony-catalog parse --tools`), while the response stays
 * what the server returns, byte for byte; a stray `</tool_call>` is not content; a call whose
 * schema cannot be compiled is unchecked and never runnable, and lint says the broken `$ref` is an
 * error. Expected values worked out by hand from the rules (docs/parsing.md, vLLM's parsers).
 */
import { describe, expect, it } from 'vitest';
import { compileTools } from '../../src/api/compile.js';
import { parseCompletion } from '../../src/api/parse.js';
import { lintTools } from '../../src/lint/index.js';
import { checkToolCalls } from '../../src/parse/check.js';
import { createHarmonyParser, parseHarmony } from '../../src/parse/harmony.js';
import { accumulateChunks, chatCompletionChunks, createChatCompletionStream, toChatCompletion } from '../../src/parse/openai.js';
import { parseToolCalls } from '../../src/parse/xml/index.js';
import { runCli } from '../support/cli.js';

const WEATHER = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Get the weather',
    parameters: {
      type: 'object',
      properties: { location: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
      additionalProperties: false,
    },
  },
};
const TOOLS = [WEATHER];

// cut by max_tokens after the arguments, before <|call|>
const CUT = '<|channel|>analysis<|message|>Need weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"location": "Paris"}';
const DONE = `${CUT}<|call|>`;

const codes = (d: readonly { code: string }[]) => d.map((x) => x.code);

describe('issue 22 item 1: a Harmony call cut before <|call|>', () => {
  it("the README's agent loop: toChatCompletion returns it as vLLM does, checkToolCalls says not runnable", async () => {
    const tools = compileTools(JSON.stringify(TOOLS));
    const parsed = parseHarmony(CUT);
    expect(codes(parsed.diagnostics)).toContain('parse/incomplete-call');
    const res = toChatCompletion(parsed, { tools, id: () => 'call_0' });
    // the response is vLLM's, byte for byte: the cut call is returned, finish_reason tool_calls, no extra keys
    expect(JSON.stringify({ message: res.message, finish_reason: res.finish_reason })).toBe(
      '{"message":{"role":"assistant","content":null,"reasoning":"Need weather.","tool_calls":[{"id":"call_0","type":"function","function":{"name":"get_weather","arguments":"{\\"location\\": \\"Paris\\"}"}}]},"finish_reason":"tool_calls"}',
    );
    const { calls, diagnostics } = await checkToolCalls(res.message!.tool_calls!, tools);
    expect(calls[0]).toMatchObject({ name: 'get_weather', runnable: false });
    expect(diagnostics).toContainEqual(expect.objectContaining({ code: 'call/incomplete', severity: 'error', path: '/tool_calls/0' }));
    // the same call finished by <|call|> runs
    const done = toChatCompletion(parseHarmony(DONE), { tools, id: () => 'call_0' });
    expect(JSON.stringify(done.message)).toBe(JSON.stringify(res.message));
    expect((await checkToolCalls(done.message!.tool_calls!, tools)).calls[0].runnable).toBe(true);
  });

  it('the assistant message the loop pushes keeps the calls (the same objects): still not runnable', async () => {
    const res = toChatCompletion(parseHarmony(CUT), { tools: TOOLS });
    const pushed = { role: 'assistant', content: res.message!.content, tool_calls: res.message!.tool_calls };
    expect((await checkToolCalls(pushed.tool_calls!, TOOLS)).calls[0].runnable).toBe(false);
  });

  it('tool_choice required keeps finish_reason length; the JSON is unchanged, the call not runnable', async () => {
    const res = toChatCompletion(parseHarmony(CUT), { tools: TOOLS, toolChoice: 'required', id: () => 'x' });
    expect(res.finish_reason).toBe('length');
    expect(Object.keys(res.message!.tool_calls![0])).toEqual(['id', 'type', 'function']);
    expect((await checkToolCalls(res.message!.tool_calls!, TOOLS)).calls[0].runnable).toBe(false);
  });

  it('calls that came as JSON (from a server): finishReason "length" makes the last call not runnable', async () => {
    const json = JSON.parse(JSON.stringify(toChatCompletion(parseHarmony(CUT), { tools: TOOLS, toolChoice: 'required' }).message!.tool_calls));
    expect((await checkToolCalls(json, TOOLS)).calls[0].runnable).toBe(true);
    const r = await checkToolCalls(json, TOOLS, { finishReason: 'length' });
    expect(r.calls[0].runnable).toBe(false);
    expect(r.diagnostics).toContainEqual(expect.objectContaining({ code: 'call/incomplete', severity: 'error', path: '/tool_calls/0' }));
    expect((await checkToolCalls(json, TOOLS, { finishReason: 'tool_calls' })).calls[0].runnable).toBe(true);
  });

  it('streaming: the accumulated chunks give the call, not runnable; the chunks are unchanged', async () => {
    const { chunks } = chatCompletionChunks(parseHarmony(CUT), { tools: TOOLS, id: () => 'c' });
    const acc = accumulateChunks(chunks);
    expect(acc.tool_calls).toEqual([{ id: 'c', type: 'function', function: { name: 'get_weather', arguments: '{"location": "Paris"}' } }]);
    expect((await checkToolCalls(acc.tool_calls, TOOLS)).calls[0].runnable).toBe(false);
    const done = accumulateChunks(chatCompletionChunks(parseHarmony(DONE), { tools: TOOLS, id: () => 'c' }).chunks);
    expect((await checkToolCalls(done.tool_calls, TOOLS)).calls[0].runnable).toBe(true);
    expect(JSON.stringify(chunks.slice(0, -1))).toBe(JSON.stringify(chatCompletionChunks(parseHarmony(DONE), { tools: TOOLS, id: () => 'c' }).chunks.slice(0, -1)));
  });

  it('streaming from the parser itself (createHarmonyParser → createChatCompletionStream), cut anywhere: not runnable', async () => {
    for (const [chunks, endEvents] of [
      [[CUT.slice(0, 60), CUT.slice(60)], true],
      [[CUT], false], // the stream ended without the parser's end(): the call is still open
    ] as const) {
      const parser = createHarmonyParser();
      const stream = createChatCompletionStream({ tools: TOOLS, id: () => 'c' });
      const out = [];
      for (const c of chunks) for (const e of parser.push(c)) out.push(...stream.push(e));
      if (endEvents) for (const e of parser.end()) out.push(...stream.push(e));
      out.push(...stream.end({ finishReason: 'length' }));
      const acc = accumulateChunks(out);
      expect(acc.tool_calls.map((c) => c.function.arguments)).toEqual(['{"location": "Paris"}']);
      expect((await checkToolCalls(acc.tool_calls, TOOLS)).calls[0].runnable, String(endEvents)).toBe(false);
    }
  });

  it('harmony-catalog parse --tools (and --format openai): call/incomplete, exit 1', async () => {
    const dir = await import('node:os').then((os) => os.tmpdir());
    const { writeFileSync } = await import('node:fs');
    const t = `${dir}/nr-tools-${process.pid}.json`;
    writeFileSync(t, JSON.stringify(TOOLS));
    for (const format of ['harmony', 'openai']) {
      const r = await runCli(['parse', '-', '--tools', t, '--format', format], { stdin: CUT });
      expect(r.code, format).toBe(1);
      expect(r.err, format).toContain('call/incomplete');
    }
  });
});

describe('issue 22 item 2: XML calls whose closing tags never came', () => {
  const tools = TOOLS;
  const cases: [string, Parameters<typeof parseToolCalls>[1]['model'], string, string][] = [
    ['qwen3-coder, cut between two parameters', 'qwen3-coder', '<tool_call>\n<function=get_weather>\n<parameter=unit>\ncelsius\n</parameter>\n', '{"unit": "celsius"}'],
    ['anthropic, cut after a parameter', 'anthropic', '<function_calls><invoke name="get_weather"><parameter name="unit">celsius</parameter>', '{"unit": "celsius"}'],
    ['hermes, complete JSON without </tool_call>', 'hermes', '<tool_call>\n{"name": "get_weather", "arguments": {"unit": "celsius"}}', '{"unit": "celsius"}'],
    ['qwen3-coder, </function> but no </tool_call>', 'qwen3-coder', '<tool_call>\n<function=get_weather>\n<parameter=unit>\ncelsius\n</parameter>\n</function>\n', '{"unit": "celsius"}'],
  ];

  for (const [name, model, text, args] of cases) {
    it(`${name}: incomplete (an error), never runnable`, async () => {
      const r = parseToolCalls(text, { model, tools });
      expect(r.tool_calls.map((c) => c.function.arguments)).toEqual([args]);
      expect(r.diagnostics).toContainEqual(expect.objectContaining({ code: 'parse/incomplete-call', severity: 'error', path: '/tool_calls/0' }));
      const checked = await checkToolCalls(r.tool_calls, tools);
      expect(checked.calls[0].runnable).toBe(false);
      expect(codes(checked.diagnostics)).toContain('call/incomplete');
      // closed, the same call runs
      const closed = model === 'anthropic' ? `${text}</invoke></function_calls>` : model === 'hermes' ? `${text}\n</tool_call>` : text.endsWith('</function>\n') ? `${text}</tool_call>` : `${text}</function>\n</tool_call>`;
      const ok = parseToolCalls(closed, { model, tools });
      expect(codes(ok.diagnostics), closed).not.toContain('parse/incomplete-call');
      expect((await checkToolCalls(ok.tool_calls, tools)).calls[0].runnable, closed).toBe(true);
    });
  }

  it("server: 'vllm' returns exactly vLLM's calls, but a cut one is never runnable", async () => {
    for (const [model, text] of [
      ['qwen3-coder', '<tool_call>\n<function=get_weather>\n<parameter=unit>\ncelsius\n</parameter>\n'],
      ['hermes', '<tool_call>\n{"name": "get_weather", "arguments": {"unit": "celsius"}}'],
    ] as const) {
      for (const version of model === 'hermes' ? (['hermes@02bb669b', 'hermes@becf329d'] as const) : (['qwen3_coder@00d0a333', 'qwen3_coder@0b13f933'] as const)) {
        const r = parseToolCalls(text, { model, tools, server: 'vllm', version });
        expect(JSON.stringify({ content: r.content, tool_calls: r.tool_calls }), version).toBe('{"content":null,"tool_calls":[{"type":"function","function":{"name":"get_weather","arguments":"{\\"unit\\": \\"celsius\\"}"}}]}');
        expect(codes(r.diagnostics), version).toContain('parse/incomplete-call');
        expect((await checkToolCalls(r.tool_calls, tools)).calls[0].runnable, version).toBe(false);
        const ids = parseToolCalls(text, { model, tools, server: 'vllm', version, ids: true });
        expect((await checkToolCalls(ids.tool_calls, tools)).calls[0].runnable, `${version} ids`).toBe(false);
      }
    }
  });

  it('parseCompletion / harmony-catalog parse --model … --tools: failed, call/incomplete', async () => {
    const r = await parseCompletion('<tool_call>\n<function=get_weather>\n<parameter=unit>\ncelsius\n</parameter>\n', { model: 'qwen3-coder', tools: compileTools(JSON.stringify(TOOLS)) });
    expect(r.failed).toBe(true);
    expect(codes(r.diagnostics)).toContain('call/incomplete');
    const v = await parseCompletion('<tool_call>\n{"name": "get_weather", "arguments": {"unit": "celsius"}}', { model: 'hermes', server: 'vllm', tools: compileTools(JSON.stringify(TOOLS)) });
    expect(v.failed).toBe(true);
    expect(codes(v.diagnostics)).toContain('call/incomplete');
  });
});

describe('issue 22 item 3: a stray </tool_call> is not content', () => {
  it('qwen3-coder: a call without its opener and a stray </tool_call>: no content (as vLLM), a diagnostic with the byte offset', () => {
    const text = 'Sure, 東京.\n<function=get_weather>\n<parameter=unit>\ncelsius\n</parameter>\n</function>\n</tool_call>';
    const r = parseToolCalls(text, { model: 'qwen3-coder', tools: TOOLS });
    expect(r.content).toBe('Sure, 東京.\n');
    expect(r.tool_calls.map((c) => c.function.arguments)).toEqual(['{"unit": "celsius"}']);
    const at = text.lastIndexOf('</tool_call>');
    const stray = r.diagnostics.find((d) => d.code === 'parse/stray-close-tag');
    expect(stray).toMatchObject({ severity: 'warning', path: `/text#${at}` });
    expect(stray!.message).toContain(`byte ${Buffer.byteLength(text.slice(0, at))}`);
    expect(codes(r.diagnostics)).not.toContain('parse/vllm-differs');
    const bare = parseToolCalls(text.slice('Sure, 東京.\n'.length), { model: 'qwen3-coder', tools: TOOLS });
    expect(bare.content).toBeNull();
    for (const version of ['qwen3_coder@00d0a333', 'qwen3_coder@0b13f933'] as const) {
      expect(parseToolCalls(text, { model: 'qwen3-coder', tools: TOOLS, server: 'vllm', version }).content, version).toBe('Sure, 東京.\n');
    }
  });

  it('a double </tool_call> after a closed block is dropped too; one in prose stays text', () => {
    const r = parseToolCalls('<tool_call>\n<function=get_weather>\n</function>\n</tool_call>\n</tool_call>', { model: 'qwen3-coder', tools: TOOLS });
    expect(r.content).toBeNull();
    expect(codes(r.diagnostics)).toContain('parse/stray-close-tag');
    const prose = parseToolCalls('Close it with </tool_call> like this.', { model: 'qwen3-coder', tools: TOOLS });
    expect(prose.content).toBe('Close it with </tool_call> like this.');
    expect(codes(prose.diagnostics)).not.toContain('parse/stray-close-tag');
  });
});

describe('issue 22 item 4: a schema that cannot be compiled', () => {
  const BROKEN = [{ name: 'f', description: 'd', parameters: { type: 'object', properties: { a: { $ref: '#/$defs/Nope' } } } }];

  it('checkToolCalls: the call is unchecked, not valid, never runnable (an error)', async () => {
    const r = await checkToolCalls([{ name: 'f', arguments: '{"a": 1, "anything": [true]}' }], BROKEN);
    expect(r.calls[0]).toMatchObject({ unchecked: true, valid: false, runnable: false });
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: 'call/schema-not-compiled', severity: 'error', path: '/0/parameters' })]);
  });

  it('lint: the broken $ref is an error under each flavor, with no advice to inline it', () => {
    const r = lintTools(BROKEN);
    const at = r.findings.filter((f) => f.path === '/0/parameters/properties/a/$ref');
    expect(at.map((f) => `${f.severity} ${f.code} ${f.flavor}`)).toEqual(['error lint/unresolved-ref openai-harmony', 'error lint/unresolved-ref chat-template']);
    for (const f of at) expect(f.message).not.toMatch(/inline/);
  });
});
