import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { ROOT } from '../support/shared.js';

const run = (argv: string[], stdin = '') => runCli(argv, { stdin });

const weather = join(ROOT, 'examples/weather.json');

describe('harmony-catalog render', () => {
  it('prints the whole prompt of the shipped example', async () => {
    const r = await run(['render', weather, '--date', '2025-06-28', '--completion']);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out.startsWith('<|start|>system<|message|>You are ChatGPT')).toBe(true);
    expect(r.out).toContain("Calls to these tools must go to the commentary channel: 'functions'.<|end|><|start|>developer<|message|># Tools");
    expect(r.out).toContain('format?: "celsius" | "fahrenheit", // default: celsius\n');
    expect(r.out.endsWith('<|start|>assistant')).toBe(true); // exactly the prompt: no line break added
  });
  it('--part catalog prints only the tools section; stdin with -', async () => {
    const r = await run(['render', '-', '--part', 'catalog'], readFileSync(weather, 'utf8'));
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      '# Tools\n\n## functions\n\nnamespace functions {\n\n// Gets the current weather in the provided location.\ntype get_current_weather = (_: {\n// The city and state, e.g. San Francisco, CA\nlocation: string,\nformat?: "celsius" | "fahrenheit", // default: celsius\n// Forecast days\ndays?: number, // default: 1\n}) => any;\n\n// Gets the location of the user.\ntype get_location = () => any;\n\n} // namespace functions',
    );
  });
  it('options reach the messages', async () => {
    const r = await run(['render', weather, '--part', 'system', '--effort', 'high', '--identity', 'Bot.', '--cutoff', '2023-01', '--browser']);
    expect(r.out.startsWith('Bot.\nKnowledge cutoff: 2023-01\n\nReasoning: high\n\n# Tools\n\n## browser\n')).toBe(true);
    const d = await run(['render', weather, '--part', 'developer', '--instructions', 'Be brief.', '--namespace', 'weather']);
    expect(d.out.startsWith('# Instructions\n\nBe brief.\n\n# Tools\n\n## weather\n\nnamespace weather {')).toBe(true);
  });
  it('input that cannot be rendered: plain errors naming tool and pointer, exit 1, no stack trace', async () => {
    const r = await run(['render', '-'], '[{"description": "no name"}, {"name": "ok", "parameters": {"type": "object", "properties": {"a": {"default": 1e400}}}}]');
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toContain('error [input/not-json]');
    expect(r.err).toContain('number out of range');
    expect(r.err).not.toMatch(/\n\s+at /);
    const m = await run(['render', '-'], '[{"description": "no name", "parameters": {}}]');
    expect(m.code).toBe(1);
    expect(m.err).toMatch(/error \[input\/missing-name\] tool "#0" at \/0\/name/);
  });
  it('renderable but suspicious input renders and warns on stderr', async () => {
    const r = await run(['render', '-', '--part', 'catalog'], '[{"name": "a", "parameters": {"type": "object", "properties": {"x": {"type": "string", "optional": true}}}}, {"name": "a"}]');
    expect(r.code).toBe(0);
    expect(r.out).toContain('type a = (_: {\nx?: string,\n}) => any;');
    expect(r.err).toContain('warning [input/duplicate-name]');
    expect(r.err).toContain('warning [schema/unknown-keyword] tool "a" at /0/parameters/properties/x/optional');
    const q = await run(['render', '-', '--part', 'catalog', '--quiet'], '[{"name": "a"}, {"name": "a"}]');
    expect(q.err).toBe('');
  });
  it('usage errors exit 2 with a hint', async () => {
    for (const argv of [['render'], ['render', weather, '--part', 'nope'], ['render', weather, '--effort', 'max'], ['render', weather, '--bogus'], ['render', '/no/such/file.json'], ['nope']]) {
      const r = await run(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(/harmony-catalog: .+\n/);
    }
  });
  it('--help documents every option', async () => {
    const r = await run(['render', '--help']);
    expect(r.code).toBe(0);
    for (const o of ['--part', '--instructions', '--date', '--effort', '--identity', '--cutoff', '--browser', '--python', '--completion', '--namespace', '--jsonl']) expect(r.out).toContain(o);
    expect((await run(['--help'])).out).toContain('render');
  });
});

describe('harmony-catalog render --jsonl', () => {
  it('one line per case: text of the part, or the error; case options by name', async () => {
    const input = [
      '{"id": "a", "tools": [{"name": "f", "description": "d"}], "instructions": "Hi."}',
      '{"id": "b", "tools": [{"description": "nameless"}]}',
      '{"id": "c", "tools": [{"name": "g", "parameters": {"type": "object", "properties": {"x": {"type": "number", "default": 1.0}}}}], "effort": "low", "date": "2025-01-01"}',
      '',
      '{"id": "d", "tools": [{"name": "h", "parameters": {"default": 1e400}}]}',
    ].join('\n');
    const dev = await run(['render', '-', '--jsonl', '--part', 'developer'], input);
    const rows = dev.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(rows.map((r) => r.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(rows[0].text).toBe('# Instructions\n\nHi.\n\n# Tools\n\n## functions\n\nnamespace functions {\n\n// d\ntype f = () => any;\n\n} // namespace functions');
    expect(rows[1].error).toMatch(/input\/missing-name/);
    expect(rows[2].text).toContain('x?: number, // default: 1.0\n');
    expect(rows[3].error).toMatch(/number out of range/);
    const sys = await run(['render', '-', '--jsonl', '--part', 'system'], input);
    expect(JSON.parse(sys.out.split('\n')[2]).text).toContain('Current date: 2025-01-01\n\nReasoning: low');
    const whole = await run(['render', '-', '--jsonl', '--part', 'prompt'], '{"id": 1, "tools": [], "messages": [{"role": "user", "content": "yo"}], "completion": true}');
    expect(JSON.parse(whole.out)).toEqual({ id: 1, text: expect.stringMatching(/<\|end\|><\|start\|>user<\|message\|>yo<\|end\|><\|start\|>assistant$/) });
  });
});
