/**
 * `--template` as a user runs it: a .jinja file, a tokenizer_config.json with named templates, a
 * model folder; `--special`, `--template-kwarg`, `--part catalog`, `--server`; what the template
 * loses of a conversation; a template that raises. Every expected prompt below was printed by
 * Python Jinja2 3.1.6 with ../shared/oracles/families/render.py's compile_template (transformers'
 * environment) on the same template and values.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderPrompt, renderRequest } from '../../src/api/render.js';
import { readTemplateFile } from '../../src/api/template.js';
import { runCli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'hc-template-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// prints each message (calls as `tojson` of their arguments), the tool names, and a knob
const TEMPLATE = `{{- bos_token }}{% for m in messages %}[{{ m.role }}]{{ m.content }}{% if m.tool_calls %}{% for tc in m.tool_calls %}<call>{{ tc.function.arguments|tojson }}</call>{% endfor %}{% endif %}{% endfor %}
{%- if tools %}<T>{% for t in tools %}{{ t.function.name }};{% endfor %}</T>{% endif %}
{%- if shout is defined and shout %}!{% endif %}
{%- if add_generation_prompt %}[assistant]{% endif %}
`;
// prints roles and text only: no call, no reasoning
const FORGETFUL = `{% for m in messages %}[{{ m.role }}]{{ m.content or '' }}{% endfor %}[assistant]`;

const TOOLS = [{ type: 'function', function: { name: 'get_weather', description: 'd', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
const CONVERSATION = [
  { role: 'user', content: 'Weather?' },
  { role: 'assistant', content: null, reasoning_content: 'Call it.', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
  { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
];

const file = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const tplPath = file('t.jinja', TEMPLATE);
const toolsPath = file('tools.json', JSON.stringify(TOOLS));
const requestPath = file('request.json', JSON.stringify({ messages: CONVERSATION, tools: TOOLS }));

describe('--template', () => {
  it('a .jinja file: the tools and one user message "hi", special tokens from --special, the generation prompt on', async () => {
    const r = await runCli(['render', toolsPath, '--template', tplPath, '--special', 'bos_token=<s>']);
    expect(r.err).toBe('');
    expect(r.out).toBe('<s>[user]hi<T>get_weather;</T>[assistant]');
    expect(r.code).toBe(0);
  });

  it('--template-kwarg sets a template variable (JSON)', async () => {
    const r = await runCli(['render', toolsPath, '--template', tplPath, '--special', 'bos_token=<s>', '--template-kwarg', 'shout=true']);
    expect(r.out).toBe('<s>[user]hi<T>get_weather;</T>![assistant]');
    const bad = await runCli(['render', toolsPath, '--template', tplPath, '--template-kwarg', 'shout=yes']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--template-kwarg shout');
  });

  it('--part catalog: the span the tools add', async () => {
    const r = await runCli(['render', toolsPath, '--template', tplPath, '--special', 'bos_token=<s>', '--part', 'catalog']);
    expect(r.out).toBe('<T>get_weather;</T>');
  });

  it('a tokenizer_config.json: tool_use when tools are given, else default; bos_token as an {content} object', async () => {
    const config = file('tokenizer_config.json', JSON.stringify({ bos_token: { content: '<B>' }, chat_template: [{ name: 'default', template: 'D{{ bos_token }}' }, { name: 'tool_use', template: 'U{{ bos_token }}{{ tools|length }}' }] }));
    expect((await runCli(['render', toolsPath, '--template', config])).out).toBe('U<B>1');
    expect(readTemplateFile(JSON.stringify({ chat_template: [{ name: 'default', template: 'D' }, { name: 'tool_use', template: 'U' }] }), 'tokenizer_config.json', { toolsGiven: false }).text).toBe('D');
    const none = await runCli(['render', toolsPath, '--template', file('two.json', JSON.stringify({ chat_template: [{ name: 'a', template: 'A' }, { name: 'b', template: 'B' }] }))]);
    expect(none.code).toBe(1);
    expect(none.err).toContain('none named "default"');
  });

  it('a model folder: chat_template.jinja, with the special tokens of its tokenizer_config.json', async () => {
    const folder = join(dir, 'model');
    mkdirSync(folder);
    writeFileSync(join(folder, 'chat_template.jinja'), TEMPLATE);
    writeFileSync(join(folder, 'tokenizer_config.json'), JSON.stringify({ bos_token: '<|begin|>', eos_token: '<|end|>' }));
    expect((await runCli(['render', toolsPath, '--template', folder])).out).toBe('<|begin|>[user]hi<T>get_weather;</T>[assistant]');
    expect((await runCli(['render', toolsPath, '--template', folder, '--special', 'bos_token=<x>'])).out).toBe('<x>[user]hi<T>get_weather;</T>[assistant]');
  });

  it('a whole conversation: what the template garbles is said with the message pointers', async () => {
    const r = await runCli(['render', requestPath, '--template', tplPath, '--special', 'bos_token=<s>']);
    expect(r.out).toBe('<s>[user]Weather?[assistant]None<call>"{\\"city\\":\\"Paris\\"}"</call>[tool]sunny<T>get_weather;</T>[assistant]');
    expect(r.err).toContain('warning [template/arguments-double-encoded] at /messages/1/tool_calls/0/function/arguments');
    expect(r.err).toContain('warning [template/none-printed] at /messages/1/content');
    expect(r.err).toContain('warning [template/reasoning-dropped] at /messages/1/reasoning_content');
    // it prints the arguments, not the tool's name
    expect(r.err).toContain('warning [template/call-name-not-shown] at /messages/1/tool_calls/0/function/name');
    expect(r.err).not.toContain('template/call-not-shown');
    expect(r.err).not.toContain('template/result-without-call');
  });

  it('a template that prints no call: the call and the result whose call is not shown', () => {
    const p = renderPrompt({ tools: TOOLS, messages: CONVERSATION, template: { text: FORGETFUL } });
    expect(p.text).toBe('[user]Weather?[assistant][tool]sunny[assistant]');
    const codes = p.diagnostics.map((d) => `${d.code} ${d.path}`);
    expect(codes).toContain('template/call-not-shown /messages/1/tool_calls/0');
    expect(codes).toContain('template/result-without-call /messages/2');
  });

  it('under vLLM: arguments parsed into an object before the template, content null handed over as ""', () => {
    const r = renderRequest(JSON.stringify({ messages: CONVERSATION, tools: TOOLS }), { template: { text: TEMPLATE, special: { bos_token: '<s>' } }, server: 'vllm' });
    expect(r.text).toBe('<s>[user]Weather?[assistant]<call>{"city": "Paris"}</call>[tool]sunny<T>get_weather;</T>[assistant]');
    expect(r.diagnostics.map((d) => d.code)).toContain('conversation/arguments-parsed');
    expect(r.diagnostics.map((d) => d.code)).not.toContain('template/arguments-double-encoded');
  });

  it('a template that raises: Jinja2\'s error, at the message it raises on; a gpt-oss-only server is a usage error', async () => {
    const raising = file('raise.jinja', "{% for m in messages %}{% if m.content is none %}{{ raise_exception('no null content') }}{% endif %}{{ m.content }}{% endfor %}");
    const r = await runCli(['render', requestPath, '--template', raising]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('error [template/fails] at /messages/1:');
    expect(r.err).toContain('(Jinja2: TemplateError: no null content)');
    const syntax = await runCli(['render', toolsPath, '--template', file('bad.jinja', '{% if %}')]);
    expect(syntax.code).toBe(1);
    expect(syntax.err).toContain('TemplateSyntaxError');
    const server = await runCli(['render', requestPath, '--template', tplPath, '--server', 'ollama']);
    expect(server.code).toBe(2);
  });
});

describe('--model families through their official template', () => {
  it('render examples/agent-loop.json --model qwen3 --server vllm: the parsed arguments, the reasoning kept', async () => {
    const r = await runCli(['render', 'examples/agent-loop.json', '--model', 'qwen3', '--server', 'vllm', '--date', '2025-08-05']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('<think>\nI need the user\'s location first.\n</think>\n\n<tool_call>\n{"name": "get_location", "arguments": {}}\n</tool_call><|im_end|>');
    expect(r.out.endsWith('<|im_start|>assistant\n')).toBe(true);
  });

  it('names are case-insensitive and Hugging Face ids find their family', async () => {
    const a = await runCli(['render', 'examples/weather.json', '--model', 'llama-3.1', '--date', '2025-08-05']);
    for (const name of ['Llama-3.1', 'meta-llama/Llama-3.1-8B-Instruct', 'meta-llama/Llama-3.3-70B-Instruct']) {
      const b = await runCli(['render', 'examples/weather.json', '--model', name, '--date', '2025-08-05']);
      expect(b.out, name).toBe(a.out);
    }
    const q = await runCli(['render', 'examples/weather.json', '--model', 'Qwen/Qwen3-8B', '--part', 'catalog']);
    const q3 = await runCli(['render', 'examples/weather.json', '--model', 'qwen3', '--part', 'catalog']);
    expect(q.out).toBe(q3.out);
    expect((await runCli(['render', 'examples/weather.json', '--model', 'openai/gpt-oss-20b'])).out).toBe((await runCli(['render', 'examples/weather.json', '--model', 'gpt-oss'])).out);
    // --verbose says which model a name was read as
    const v = await runCli(['render', 'examples/weather.json', '--model', 'Qwen/Qwen3-8B', '--verbose']);
    expect(v.err).toContain('info [usage/model]: --model Qwen/Qwen3-8B is qwen3 (');
  });
});
