/**
 * Every family's output read as a user reads it: `harmony-catalog parse FILE --model NAME --tools`,
 * `--tool-parser` with the servers' own names, `--server vllm|sglang`, `--format openai` rows of the
 * same shape for every model, and the API (parseToolCalls → toChatCompletion → checkToolCalls, the
 * streamed chunks). Expected values checked by hand against the syntax and the oracle's rows.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { checkToolCalls } from '../../../src/parse/check.js';
import { parseToolCalls } from '../../../src/parse/families/index.js';
import { openAIChunk } from '../../../src/parse/families/response.js';
import { chatCompletionChunks, toChatCompletion } from '../../../src/parse/response.js';
import { runCli } from '../../support/cli.js';

const TOOLS = [{ type: 'function', function: { name: 'get_weather', description: 'Weather in a city.', parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } }, required: ['city'], additionalProperties: false } } }];
const tmp = mkdtempSync(join(tmpdir(), 'hc-family-parse-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const toolsFile = join(tmp, 'tools.json');
writeFileSync(toolsFile, JSON.stringify(TOOLS));
function file(name: string, text: string): string {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
}

const KIMI = '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris", "unit": "c"}<|tool_call_end|><|tool_calls_section_end|>';
const QWEN3 = '<think>\nThe user wants Paris.\n</think>\n\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';

describe('harmony-catalog parse --model (every family)', () => {
  it('kimi-k2: the call, checked against the tools', async () => {
    const r = await runCli(['parse', file('kimi.txt', KIMI), '--model', 'kimi-k2', '--tools', toolsFile]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ messages: [{ role: 'assistant', content: null, tool_calls: [{ type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris", "unit": "c"}' } }] }] });
    // the checks say what they found, a valid call too (stderr; --quiet leaves it out)
    expect(r.err).toBe('checked 1 tool call against 1 tool: 1 runnable (get_weather)\n');
    expect((await runCli(['parse', file('kimi.txt', KIMI), '--model', 'kimi-k2', '--tools', toolsFile, '--quiet'])).err).toBe('');
  });

  it('qwen3: the reasoning split off, the call read, --format openai the response', async () => {
    const r = await runCli(['parse', file('q3.txt', QWEN3), '--model', 'Qwen/Qwen3-8B', '--tools', toolsFile, '--format', 'openai']);
    expect(r.code).toBe(0);
    const { response } = JSON.parse(r.out);
    expect(response.finish_reason).toBe('tool_calls');
    expect(response.message.reasoning).toBe('\nThe user wants Paris.\n');
    expect(response.message.content).toBeNull();
    expect(response.message.tool_calls[0].function).toEqual({ name: 'get_weather', arguments: '{"city": "Paris"}' });
    expect(response.message.tool_calls[0].id).toMatch(/^chatcmpl-tool-[0-9a-f]{32}$/);
  });

  it('a call the output cut off is never runnable: exit 1, parse/incomplete-call and call/incomplete', async () => {
    const cut = KIMI.replace('<|tool_call_end|><|tool_calls_section_end|>', '');
    const r = await runCli(['parse', file('cut.txt', cut), '--model', 'kimi-k2', '--tools', toolsFile]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('call/incomplete');
    expect(r.err).toContain('checked 1 tool call against 1 tool: 0 runnable, 1 not (the errors above say why)');
  });

  it('an unknown parameter and a value outside the enum are reported, never folded into another value', async () => {
    const r = await runCli(['parse', file('bad.txt', KIMI.replace('"unit": "c"', '"unit": "k", "country": "FR"')), '--model', 'kimi-k2', '--tools', toolsFile]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/country/);
    const args = JSON.parse(JSON.parse(r.out).messages[0].tool_calls[0].function.arguments);
    expect(args).toEqual({ city: 'Paris', unit: 'k', country: 'FR' });
  });

  it('--tool-parser takes the servers\' names; --server gives that server\'s parser exactly', async () => {
    const text = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';
    const strict = await runCli(['parse', file('h.txt', text), '--tool-parser', 'qwen25']);
    expect(strict.code).toBe(0);
    // SGLang returns only calls to the request's tools: without --tools the text stays content
    const none = await runCli(['parse', file('h.txt', text), '--tool-parser', 'qwen25', '--server', 'sglang', '--format', 'openai']);
    expect(JSON.parse(none.out).response.message.content).toBe(text);
    const sg = await runCli(['parse', file('h.txt', text), '--tool-parser', 'qwen25', '--server', 'sglang', '--format', 'openai', '--tools', toolsFile]);
    expect(sg.code).toBe(0);
    expect(JSON.parse(sg.out).response.message.tool_calls[0].function).toEqual({ name: 'get_weather', arguments: '{"city": "Paris"}' });
    const wrong = await runCli(['parse', file('h.txt', text), '--tool-parser', 'qwen25', '--server', 'vllm']);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain('vLLM has no tool parser named qwen25');
    const unknown = await runCli(['parse', file('h.txt', text), '--tool-parser', 'qwen9']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('hermes');
  });

  it('--server vllm is accepted for gpt-oss (the reading given already); sglang is refused plainly', async () => {
    const final = '<|channel|>final<|message|>Hi<|return|>';
    expect((await runCli(['parse', file('g.txt', final), '--server', 'vllm'])).code).toBe(0);
    const sg = await runCli(['parse', file('g.txt', final), '--server', 'sglang']);
    expect(sg.code).toBe(2);
  });

  it('--jsonl --format openai: the same {"id", "response"} rows for gpt-oss and every other family', async () => {
    const rows = [JSON.stringify({ id: 'a', completion: QWEN3 }), JSON.stringify({ id: 'b', completion: 'Just text.' })].join('\n');
    const q = await runCli(['parse', '-', '--model', 'qwen3', '--format', 'openai', '--jsonl'], { stdin: rows });
    const lines = q.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => Object.keys(l).sort())).toEqual([['id', 'response'], ['id', 'response']]);
    expect(lines[1].response).toEqual({ message: { role: 'assistant', content: 'Just text.', reasoning: null }, finish_reason: 'stop' });
    const g = await runCli(['parse', '-', '--format', 'openai', '--jsonl'], { stdin: JSON.stringify({ id: 'c', completion: '<|channel|>final<|message|>Hi<|return|>' }) });
    expect(Object.keys(JSON.parse(g.out)).sort()).toEqual(['id', 'response']);
  });
});

describe('the API: parseToolCalls → toChatCompletion → checkToolCalls, and the stream', () => {
  it('the README loop on a family: a whole call is runnable, a cut one is not', async () => {
    const whole = toChatCompletion(parseToolCalls(KIMI, { model: 'kimi-k2', tools: TOOLS }));
    expect(whole.finish_reason).toBe('tool_calls');
    expect((await checkToolCalls(whole.message!.tool_calls!, TOOLS)).calls[0]!.runnable).toBe(true);
    const cut = toChatCompletion(parseToolCalls(KIMI.replace('<|tool_call_end|><|tool_calls_section_end|>', ''), { model: 'kimi-k2', tools: TOOLS }));
    expect((await checkToolCalls(cut.message!.tool_calls!, TOOLS)).calls[0]!.runnable).toBe(false);
    // an engine that ran out of tokens: the last call may be cut even when it looks whole
    const length = toChatCompletion(parseToolCalls(KIMI, { model: 'kimi-k2', tools: TOOLS }), { finishReason: 'length' });
    expect((await checkToolCalls(length.message!.tool_calls!, TOOLS)).calls[0]!.runnable).toBe(false);
  });

  it('the streamed chunks in OpenAI\'s wire shape', () => {
    const { chunks } = chatCompletionChunks(parseToolCalls(QWEN3, { model: 'qwen3', tools: TOOLS }), { id: () => 'call_0' });
    const wire = chunks.map((c) => openAIChunk(c, { id: 'chatcmpl-1', model: 'qwen3', created: 1 }));
    expect(wire[0]).toEqual({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'qwen3', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }] });
    expect(wire.map((w) => (w as { choices: { delta: unknown; finish_reason: unknown }[] }).choices[0])).toEqual([
      { index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null },
      { index: 0, delta: { reasoning: '\nThe user wants Paris.\n' }, logprobs: null, finish_reason: null },
      { index: 0, delta: { tool_calls: [{ index: 0, id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '' } }] }, logprobs: null, finish_reason: null },
      { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city": "Paris"}' } }] }, logprobs: null, finish_reason: null },
      { index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' },
    ]);
  });
});

describe('the codes only the family readers raise', () => {
  const code = (text: string, options: Parameters<typeof parseToolCalls>[1]) => parseToolCalls(text, options).diagnostics.map((d) => d.code);
  it('parse/unclosed-reasoning: the output ends inside <think>; all of it is reasoning', () => {
    const r = parseToolCalls('<think>still thinking', { model: 'qwen3' });
    expect(r.diagnostics.map((d) => d.code)).toContain('parse/unclosed-reasoning');
    expect(r.reasoning_content).toBe('still thinking');
    expect(r.content).toBeNull();
  });
  it('parse/no-server-parser: SGLang has no parser for Granite 3.3 (an error, the strict reading returned)', () => {
    const r = parseToolCalls('<tool_call>[{"name": "get_weather", "arguments": {"city": "Paris"}}]', { model: 'granite-3.3', server: 'sglang', tools: TOOLS });
    expect(r.diagnostics.find((d) => d.code === 'parse/no-server-parser')?.severity).toBe('error');
  });
  it('parse/sglang-exception and parse/sglang-differs: qwen25 raises on a non-object body after a good call', () => {
    // SGLang's parse_base_json calls .get on each body: [1] raises AttributeError, the whole text comes back
    const codes = code('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n<tool_call>\n[1]\n</tool_call>', { model: 'qwen3', tools: TOOLS });
    expect(codes).toContain('parse/sglang-exception');
    expect(code('<tool_call>\n{"name": "get_weather", "arguments": 5}\n</tool_call>', { model: 'qwen3', tools: TOOLS })).toContain('parse/sglang-differs');
  });
});
