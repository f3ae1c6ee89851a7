/**
 * Reading the model's output through the public API and `harmony-catalog parse`. Expected values
 * were checked by hand against spec §B (openai-harmony's parser, vLLM's response) and agree with
 * the parse oracle's rows of the same shape (test/parse/*-oracle.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { compileTools } from '../../src/api/compile.js';
import { parseCompletion } from '../../src/api/parse.js';
import { runCli } from '../support/cli.js';

const TOOLS = JSON.stringify([
  { type: 'function', function: { name: 'get_weather', description: 'Get the weather', parameters: { type: 'object', properties: { location: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } }, required: ['location'], additionalProperties: false } } },
]);
const CALL = '<|channel|>analysis<|message|>Need weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"location":"Paris","unit":"c"}<|call|>';

describe('parseCompletion', () => {
  it('gpt-oss: messages as openai-harmony writes them', async () => {
    const r = await parseCompletion(CALL);
    expect(r.output).toEqual({
      messages: [
        { role: 'assistant', channel: 'analysis', content: 'Need weather.' },
        { role: 'assistant', recipient: 'functions.get_weather', channel: 'commentary', content_type: '<|constrain|>json', content: '{"location":"Paris","unit":"c"}' },
      ],
    });
    expect(r.failed).toBe(false);
  });

  it('gpt-oss --format openai: the vLLM response (arguments re-serialised by json.dumps, finish_reason tool_calls)', async () => {
    const r = await parseCompletion(CALL, { format: 'openai', tools: compileTools(TOOLS) });
    const resp = (r.output as { response: { message: { tool_calls: { function: { name: string; arguments: string } }[]; reasoning: string; content: null }; finish_reason: string } }).response;
    expect(resp.finish_reason).toBe('tool_calls');
    expect(resp.message.reasoning).toBe('Need weather.');
    expect(resp.message.content).toBeNull();
    expect(resp.message.tool_calls[0].function).toEqual({ name: 'get_weather', arguments: '{"location": "Paris", "unit": "c"}' });
  });

  it('calls are checked against the tools: a value outside the enum and an unknown key are errors with pointers', async () => {
    const bad = CALL.replace('"unit":"c"', '"unit":"k","extra":1');
    const r = await parseCompletion(bad, { tools: compileTools(TOOLS) });
    expect(r.failed).toBe(true);
    const codes = r.diagnostics.filter((d) => d.code === 'call/invalid-arguments').map((d) => d.path);
    expect(codes).toContain('/tool_calls/0/function/arguments/unit');
    expect(codes.some((p) => p.startsWith('/tool_calls/0/function/arguments'))).toBe(true);
  });

  it('a call cut off by the end of the stream is never runnable', async () => {
    const r = await parseCompletion('<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"location":"Par', { tools: compileTools(TOOLS) });
    expect(r.diagnostics.map((d) => d.code)).toContain('call/incomplete');
  });

  it('strict refuses text after a message with the engine\'s words; tolerant reads on and says where', async () => {
    const text = '<|channel|>final<|message|>Hi<|end|>stray<|start|>assistant<|channel|>final<|message|>There<|return|>';
    const strict = await parseCompletion(text);
    expect(strict.failed).toBe(true);
    expect((strict.output as { error: string }).error).toMatch(/Unexpected token .* while expecting start token/);
    const tolerant = await parseCompletion(text, { mode: 'tolerant' });
    expect(tolerant.failed).toBe(false);
    expect((tolerant.output as { messages: unknown[] }).messages).toHaveLength(2);
    expect(tolerant.diagnostics.find((d) => d.code === 'parse/stray-text')?.path).toMatch(/^\/completion#\d+$/);
  });

  it('leaks: a completion that writes a tool result itself is flagged', async () => {
    const r = await parseCompletion('<|channel|>final<|message|>ok<|end|><|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>{"sunny":true}<|end|>');
    expect(r.diagnostics.map((d) => d.code)).toContain('leak/fabricated-tool-result');
  });

  it('xml dialects: hermes calls, checked against the tools', async () => {
    const r = await parseCompletion('Let me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"location": "Paris"}}\n</tool_call>', { model: 'hermes', tools: compileTools(TOOLS) });
    expect(r.output).toEqual({ messages: [{ role: 'assistant', content: 'Let me check.\n', tool_calls: [{ type: 'function', function: { name: 'get_weather', arguments: '{"location": "Paris"}' } }] }] });
    expect(r.failed).toBe(false);
  });
});

describe('harmony-catalog parse', () => {
  it('prints the messages; token ids work as input too', async () => {
    const r = await runCli(['parse', '-'], { stdin: CALL });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).messages).toHaveLength(2);
    const ids = await runCli(['parse', '-'], { stdin: '[200005, 17196, 200008, 13225, 0, 200002]' });
    expect(JSON.parse(ids.out)).toEqual({ messages: [{ role: 'assistant', channel: 'final', content: 'Hello!' }] });
  });

  it('--format openai --tools: the vLLM response; an invalid call exits 1 and names the pointer', async () => {
    const ok = await runCli(['parse', '-', '--format', 'openai', '--tools', 'examples/weather.json'], { stdin: CALL.replaceAll('get_weather', 'get_current_weather') });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out).response.finish_reason).toBe('tool_calls');
    const bad = await runCli(['parse', '-', '--tools', 'examples/weather.json'], { stdin: CALL });
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('error [call/unknown-tool]');
  });

  it('--jsonl reads the oracle\'s format and writes one result a line', async () => {
    const lines = [
      { id: 'x', completion: '<|channel|>final<|message|>Hi<|return|>' },
      { id: 'y', tokens: [200005, 17196, 200008, 13225, 0, 200002], engine_finish_reason: 'stop' },
      { id: 'z', completion: '<|channel|>final<|message|>Hi<|end|>oops' },
    ];
    const r = await runCli(['parse', '-', '--jsonl', '--format', 'openai'], { stdin: lines.map((l) => JSON.stringify(l)).join('\n') });
    const rows = r.out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows[0]).toEqual({ id: 'x', response: { message: { role: 'assistant', content: 'Hi', reasoning: null }, finish_reason: 'stop' } });
    expect(rows[1]).toEqual({ id: 'y', response: { message: { role: 'assistant', content: 'Hello!', reasoning: null }, finish_reason: 'stop' } });
    expect(rows[2].error).toMatch(/Unexpected token/);
  });

  it('usage errors exit 2', async () => {
    expect((await runCli(['parse', '-', '--mode', 'loose'], { stdin: '' })).code).toBe(2);
    expect((await runCli(['parse', '-', '--model', 'hermes', '--mode', 'strict'], { stdin: '' })).code).toBe(2);
    expect((await runCli(['parse', '--help'])).out).toContain('--format <f>');
  });
});
