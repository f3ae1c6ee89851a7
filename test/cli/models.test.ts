/** `--model` and `harmony-catalog models`: one name for the printer; the built-in names are their target/flavor/dialect. */
import { describe, expect, it } from 'vitest';
import { renderCatalog, renderPart } from '../../src/api/render.js';
import { listModels, modelNames } from '../../src/api/models.js';
import { CompileError } from '../../src/diagnostics.js';
import { runCli } from '../support/cli.js';

const WEATHER = 'examples/weather.json';

describe('--model', () => {
  it('the built-in names are their target, flavor and dialect', async () => {
    const pairs: [string, string[]][] = [
      ['gpt-oss', []],
      ['gpt-oss-template', ['--flavor', 'chat-template']],
      ['gpt-oss-ollama', ['--flavor', 'ollama']],
      ['qwen2.5', ['--target', 'xml', '--dialect', 'qwen']],
      ['qwen3-coder', ['--target', 'xml', '--dialect', 'qwen3-coder']],
      ['hermes-3', ['--target', 'xml', '--dialect', 'hermes']],
    ];
    for (const [model, flags] of pairs) {
      const a = await runCli(['render', WEATHER, '--part', 'catalog', '--model', model]);
      const b = await runCli(['render', WEATHER, '--part', 'catalog', ...flags]);
      // the same bytes, or the same refusal (Hermes' template raises on a tool without parameters)
      expect(a.code, model).toBe(b.code);
      expect(a.out, model).toBe(b.out);
      expect(a.err, model).toBe(b.err);
    }
  });

  it('a model beside a target, flavor or dialect is a usage error; an unknown model lists the names', async () => {
    expect((await runCli(['render', WEATHER, '--model', 'qwen', '--target', 'xml'])).code).toBe(2);
    const r = await runCli(['render', WEATHER, '--model', 'llama-9']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('gpt-oss-template');
    expect(() => renderCatalog('[]', { model: 'qwen', flavor: 'chat-template' })).toThrow(CompileError);
    expect(() => renderCatalog('[]', { model: 'nope' })).toThrow(/unknown model "nope"/);
  });

  it('the API takes model as the CLI does', () => {
    const tools = '[{"name":"f","description":"d","parameters":{"type":"object","properties":{"a":{"type":"string"}}}}]';
    expect(renderPart(tools, { part: 'catalog', model: 'hermes' }).text).toBe(renderPart(tools, { part: 'catalog', target: 'xml', dialect: 'hermes' }).text);
  });
});

describe('harmony-catalog models', () => {
  it('lists every name --model takes, with what it covers and where its template comes from', async () => {
    const r = await runCli(['models', '--format', 'json']);
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.out) as { name: string; aliases: string[]; models: string; source: string }[];
    expect(rows.map((x) => x.name)).toEqual(listModels().map((m) => m.name));
    for (const row of rows) expect(row.models.length * row.source.length, row.name).toBeGreaterThan(0);
    const text = (await runCli(['models'])).out;
    for (const n of modelNames()) expect(text, n).toContain(n);
  });
});

describe('request bodies where tools are read', () => {
  const body = JSON.stringify({ model: 'x', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'f', description: 'd', parameters: { type: 'object', properties: { a: { type: 'integer', minimum: 1 } } } } }] });
  it('lint and diff read a body\'s function tools, pointers into the body', async () => {
    const l = await runCli(['lint', '-', '--format', 'json'], { stdin: body });
    expect(l.code).toBe(0);
    expect(JSON.stringify(JSON.parse(l.out))).toContain('/tools/0/function/parameters/properties/a');
    const d = await runCli(['diff', '-'], { stdin: body });
    expect(d.code).toBe(0);
    expect(d.out).toContain('f');
  });
});

describe('options that would print what no server prints are refused', () => {
  it('completion: true is the assistant; a completion, date or namespace no server takes is an error (API) or a usage error (CLI)', async () => {
    const { renderPrompt } = await import('../../src/api/render.js');
    expect(renderPrompt({ completion: true }).text.endsWith('<|start|>assistant')).toBe(true);
    expect(() => renderPrompt({ completion: 'assistant <|end|>' })).toThrow(/completion is the role/);
    expect(() => renderPrompt({ date: 'tomorrow' })).toThrow(/YYYY-MM-DD/);
    expect(() => renderPrompt({ date: '2025-02-30' })).toThrow(/YYYY-MM-DD/);
    expect(() => renderPrompt({ tools: '[{"name":"f"}]', namespace: ' ' })).toThrow(/namespace must be a name/);
    for (const args of [['--date', 'tomorrow'], ['--namespace', ''], ['--namespace', 'my tools']]) {
      const r = await runCli(['render', WEATHER, ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).not.toMatch(/\n\s+at /);
    }
  });
});
