/**
 * Issue 22, item 18: no silent or misleading results. An input with no tools is said, as a warning,
 * by every command that reads tools (the exit status stays what it was); `render --jsonl` on a file
 * that is one JSON document says what --jsonl reads instead of rendering one case with "id": null;
 * --jsonl warnings name their case; a failed case makes the exit status 1 (render and tokens alike).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { ROOT } from '../support/shared.js';

const tmp = mkdtempSync(join(tmpdir(), 'hc-silent-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const WEATHER = join(ROOT, 'examples/weather.json');
const WEATHER_TOOLS = JSON.parse(readFileSync(WEATHER, 'utf8')) as unknown[];

describe('an input with no tools is said, in every command that reads tools', () => {
  const inputs: [string, string][] = [
    ['[]', '[]'],
    ['{"tools": []}', '{"tools": []}'],
  ];
  const commands: [string, string[], number, string][] = [
    ['render', [], 0, 'the prompt has no tools section'],
    ['render', ['--part', 'catalog'], 0, 'the prompt has no tools section'],
    ['lint', [], 0, 'there is nothing to lint'],
    ['diff', [], 0, 'there is nothing to compare'],
    ['dump', [], 0, 'there is nothing to count'],
    ['report', [], 0, 'the page lists none'],
  ];
  for (const [label, stdin] of inputs) {
    for (const [command, args, code, consequence] of commands) {
      it(`${command} ${args.join(' ')} on ${label}: a warning, exit ${code}`, async () => {
        const r = await runCli([command, '-', ...args], { stdin });
        expect(r.code).toBe(code);
        expect(r.err.split('\n')).toContain(`warning [input/no-tools]: standard input holds no tools: ${consequence}`);
        const quiet = await runCli([command, '-', ...args, '--quiet'], { stdin });
        expect(quiet.code).toBe(code);
        expect(quiet.err).toBe('');
      });
    }
  }

  it('a file is named by its path', async () => {
    const file = join(tmp, 'none.json');
    writeFileSync(file, '[]');
    expect((await runCli(['lint', file])).err).toContain(`warning [input/no-tools]: ${file} holds no tools: there is nothing to lint\n`);
  });

  it('the --format json outputs hold it too', async () => {
    for (const command of ['lint', 'diff', 'dump']) {
      const r = await runCli([command, '-', '--format', 'json'], { stdin: '[]' });
      const diagnostics = (JSON.parse(r.out) as { diagnostics: { code: string }[] }).diagnostics;
      expect(diagnostics.map((d) => d.code), command).toContain('input/no-tools');
    }
  });

  it('tools present: no such warning', async () => {
    for (const command of ['render', 'lint', 'diff', 'dump', 'report']) expect((await runCli([command, WEATHER])).err, command).not.toContain('input/no-tools');
  });

  it('build: a source that holds no tools', async () => {
    const dir = mkdtempSync(join(tmp, 'build-'));
    writeFileSync(join(dir, 'weather.json'), JSON.stringify(WEATHER_TOOLS));
    writeFileSync(join(dir, 'empty.json'), '{"tools": []}');
    writeFileSync(join(dir, 'harmony-catalog.config.json'), JSON.stringify({ sources: ['weather.json', 'empty.json'], outputs: [{ path: 'out/catalog.txt', part: 'catalog' }] }));
    const r = await runCli(['build', '--config', join(dir, 'harmony-catalog.config.json')]);
    expect(r.code).toBe(0);
    expect(r.err).toBe('warning [input/no-tools]: empty.json holds no tools: it adds nothing to the outputs\n');
    expect(readFileSync(join(dir, 'out/catalog.txt'), 'utf8')).toContain('type get_current_weather');
  });
});

describe('render --jsonl on a file that is not one case a line', () => {
  const pretty = JSON.stringify(WEATHER_TOOLS, null, 2);
  const cases: [string, string, string][] = [
    ['a tools list, pretty-printed', pretty, 'a list of 2 values (tools?)'],
    ['a tools list on one line', JSON.stringify(WEATHER_TOOLS), 'a list of 2 values (tools?)'],
    ['{"tools": [...]} on one line', JSON.stringify({ tools: WEATHER_TOOLS }), 'one JSON document'],
    ['a request body, pretty-printed', readFileSync(join(ROOT, 'examples/agent-loop.json'), 'utf8'), 'a request body'],
  ];
  for (const [what, text, is] of cases) {
    it(`${what}: a usage error saying what --jsonl reads`, async () => {
      const file = join(tmp, 'big.json');
      writeFileSync(file, text);
      const r = await runCli(['render', file, '--jsonl']);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toBe(`harmony-catalog: --jsonl reads one case a line ({"id", "tools", "messages"?, …}), and ${file} is ${is}: render it without --jsonl\nRun 'harmony-catalog render --help' for usage.\n`);
    });
  }

  it('one case on one line (it has an "id") is read as a case', async () => {
    const r = await runCli(['render', '-', '--jsonl', '--part', 'catalog'], { stdin: JSON.stringify({ id: 'only', tools: WEATHER_TOOLS }) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ id: 'only', text: expect.stringContaining('type get_location') });
  });

  it('a line that is JSON but not an object is a failed case, not an empty one', async () => {
    const r = await runCli(['render', '-', '--jsonl'], { stdin: `${JSON.stringify({ id: 'a', tools: WEATHER_TOOLS })}\n[1, 2]\n` });
    expect(r.out.trim().split('\n').map((l) => JSON.parse(l))[1]).toEqual({ id: null, error: 'line 2 is not a case: a case is an object ({"id", "tools", …}), not a list' });
    expect(r.code).toBe(1);
  });
});

describe('--jsonl: warnings name their case; a failed case makes the exit status 1', () => {
  const dup = { name: 'get_location', description: 'Again.', parameters: { type: 'object', properties: {} } };
  const ok = JSON.stringify({ id: 'ok', tools: WEATHER_TOOLS });
  const warned = JSON.stringify({ id: 'dup', tools: [...WEATHER_TOOLS, dup] });
  const noId = JSON.stringify({ tools: [...WEATHER_TOOLS, dup] });
  const failing = JSON.stringify({ id: 'bad', tools: [{ description: 'no name' }] });

  it('each warning line starts with its case', async () => {
    const r = await runCli(['render', '-', '--jsonl', '--part', 'catalog'], { stdin: [ok, warned, noId].join('\n') });
    expect(r.code).toBe(0);
    const lines = r.err.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.filter((l) => l.includes('input/duplicate-name')).map((l) => l.slice(0, l.indexOf(':')))).toEqual(['case "dup"', 'line 3']);
    for (const l of lines) expect(l).toMatch(/^(case "dup"|line 3): warning \[/);
  });

  it('render: a failed case is an error line, the others are rendered, exit 1 and a count on stderr', async () => {
    const r = await runCli(['render', '-', '--jsonl', '--part', 'catalog', '--quiet'], { stdin: [ok, failing, ok.replace('"ok"', '"ok2"')].join('\n') });
    expect(r.code).toBe(1);
    const rows = r.out.trim().split('\n').map((l) => JSON.parse(l) as { id: string; error?: string });
    expect(rows.map((x) => [x.id, x.error === undefined])).toEqual([['ok', true], ['bad', false], ['ok2', true]]);
    const loud = await runCli(['render', '-', '--jsonl', '--part', 'catalog'], { stdin: [ok, failing].join('\n') });
    expect(loud.err.endsWith('harmony-catalog: 1 of 2 cases failed (their lines hold "error")\n')).toBe(true);
  });

  it('every case rendered: exit 0', async () => {
    expect((await runCli(['render', '-', '--jsonl', '--part', 'catalog'], { stdin: [ok, ok.replace('"ok"', '"ok2"')].join('\n') })).code).toBe(0);
  });

  it('tokens --jsonl keeps the same rule', async () => {
    const good = await runCli(['tokens', '-', '--jsonl'], { stdin: `${JSON.stringify({ id: 'a', text: 'hi' })}\n` });
    expect(good.code).toBe(0);
    const bad = await runCli(['tokens', '-', '--jsonl'], { stdin: `${JSON.stringify({ id: 'a', text: 'hi' })}\n${JSON.stringify({ id: 'b', text: 5 })}\n` });
    expect(bad.code).toBe(1);
    expect(bad.out.trim().split('\n').map((l) => JSON.parse(l))).toEqual([{ id: 'a', count: 1 }, { id: 'b', error: 'line 2: "text" must be a string' }]);
  });

  it('parse --jsonl keeps the same rule: a refused case is its error line, the run exits 1 and says how many', async () => {
    const good = JSON.stringify({ id: 'a', completion: '<|channel|>final<|message|>Hi<|return|>' });
    const refused = JSON.stringify({ id: 'b', completion: '<|channel|>final<|message|>Hi<|end|>oops' });
    expect((await runCli(['parse', '-', '--jsonl'], { stdin: `${good}\n${good}\n` })).code).toBe(0);
    const r = await runCli(['parse', '-', '--jsonl'], { stdin: `${good}\n${refused}\n` });
    expect(r.code).toBe(1);
    expect(r.out.trim().split('\n').map((l) => Object.keys(JSON.parse(l)).sort())).toEqual([['id', 'messages'], ['error', 'id', 'messages']]);
    expect(r.err.endsWith('harmony-catalog: 1 of 2 cases failed (refused, or a call invalid or cut off, as a single parse would exit 1)\n')).toBe(true);
  });

  it('parse --jsonl: a case\'s warnings start with its case', async () => {
    const cut = JSON.stringify({ id: 'cut', completion: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Par' });
    const r = await runCli(['parse', '-', '--jsonl', '--model', 'qwen3'], { stdin: `${cut}\n` });
    expect(r.code).toBe(1);
    const warnings = r.err.trimEnd().split('\n').slice(0, -1);
    expect(warnings.length).toBeGreaterThan(0);
    for (const l of warnings) expect(l.startsWith('case "cut": ')).toBe(true);
  });
});
