/**
 * Issue 22, item 17: command-line conventions. Every usage error exits 2 and ends by pointing at
 * the command's own --help (options that do not go together, found by the API as `usage/…`
 * errors, were exit 1); lint and diff take --model (diff's sides take the names render --model
 * takes); report on a terminal writes report.html instead of a page of HTML; the chat template
 * without messages asks for --user.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { ROOT } from '../support/shared.js';

const tmp = mkdtempSync(join(tmpdir(), 'hc-conventions-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const WEATHER = join(ROOT, 'examples/weather.json');
const REQUEST = join(ROOT, 'examples/agent-loop.json');
/** A tool whose nested descriptions some templates drop. */
const NESTED = join(tmp, 'nested.json');
writeFileSync(
  NESTED,
  JSON.stringify([
    {
      name: 'plan',
      description: 'Make a plan.',
      parameters: {
        type: 'object',
        description: 'Root desc.',
        properties: {
          steps: { type: 'array', description: 'The steps.', items: { type: 'object', description: 'One step.', properties: { title: { type: 'string', description: 'Step title.' } } } },
          mode: { anyOf: [{ type: 'string', description: 'A mode name.' }, { type: 'integer', description: 'A mode number.' }] },
        },
      },
    },
  ]),
);

/** The last line of a usage error: the command's own help. */
const hint = (command: string) => `Run 'harmony-catalog ${command} --help' for usage.\n`;

describe('usage errors exit 2 and point at the command\'s own help', () => {
  const cases: [string, string[], string][] = [
    ['render --server vllm --flavor chat-template', ['render', WEATHER, '--server', 'vllm', '--flavor', 'chat-template'], 'vllm prints the openai-harmony layout, not chat-template'],
    ['render --server transformers --flavor openai-harmony', ['render', WEATHER, '--server', 'transformers', '--flavor', 'openai-harmony'], 'transformers prints the chat-template layout'],
    ['render of a request body with --model gpt-oss --server ollama', ['render', REQUEST, '--model', 'gpt-oss', '--server', 'ollama'], 'ollama prints the ollama layout, not openai-harmony'],
    ['render of a request body with --target jsdoc', ['render', REQUEST, '--target', 'jsdoc'], 'a request body renders as a gpt-oss server builds it'],
    // dump and report printed the parts with system 0, developer 0 and exit 0: the whole prompt's usage error was dropped
    ['dump of a request body with --server vllm --flavor chat-template', ['dump', REQUEST, '--server', 'vllm', '--flavor', 'chat-template'], 'vllm prints the openai-harmony layout, not chat-template'],
    ['report with --server llama.cpp --flavor openai-harmony', ['report', WEATHER, '--server', 'llama.cpp', '--flavor', 'openai-harmony'], 'llama.cpp prints the chat-template layout'],
  ];
  for (const [what, argv, message] of cases) {
    it(what, async () => {
      const r = await runCli(argv);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toContain(`harmony-catalog: ${message}`);
      expect(r.err.endsWith(hint(argv[0] as string))).toBe(true);
      expect(r.err).not.toContain('nothing rendered');
    });
  }

  for (const command of ['render', 'lint', 'diff', 'dump', 'report', 'tokens', 'build', 'models']) {
    it(`${command}: an unknown option`, async () => {
      const r = await runCli([command, '--frobnicate']);
      expect(r.code).toBe(2);
      expect(r.err).toBe(`harmony-catalog: unknown option --frobnicate\n${hint(command)}`);
    });
  }

  it('build and models take no input file', async () => {
    for (const command of ['build', 'models']) {
      const r = await runCli([command, 'x.json']);
      expect(r.code, command).toBe(2);
      expect(r.err, command).toBe(`harmony-catalog: ${command} takes no input file, got x.json\n${hint(command)}`);
    }
  });
});

describe('lint --model', () => {
  const json = async (argv: string[]) => {
    const r = await runCli([...argv, '--format', 'json']);
    return { code: r.code, err: r.err, out: JSON.parse(r.out) as { flavors: string[]; findings: { code: string; path: string; flavor: string; message: string }[] } };
  };

  it('gpt-oss and gpt-oss-template are the openai-harmony and chat-template flavors', async () => {
    expect((await json(['lint', NESTED, '--model', 'gpt-oss'])).out).toEqual((await json(['lint', NESTED, '--flavor', 'openai-harmony'])).out);
    expect((await json(['lint', NESTED, '--model', 'gpt-oss-template'])).out).toEqual((await json(['lint', NESTED, '--flavor', 'chat-template'])).out);
    // names as render takes them: any case, Hugging Face ids
    expect((await json(['lint', NESTED, '--model', 'openai/gpt-oss-20b'])).out).toEqual((await json(['lint', NESTED, '--flavor', 'openai-harmony'])).out);
  });

  it('another family is read through its official template (flavor "template")', async () => {
    const r = await json(['lint', NESTED, '--model', 'gemma-4']);
    expect(r.code).toBe(0);
    expect(r.out.flavors).toEqual(['template']);
    expect(r.out.findings.map((f) => [f.code, f.path])).toEqual([
      ['lint/dropped-description', '/0/parameters/description'],
      ['lint/dropped-description', '/0/parameters/properties/mode/anyOf/0/description'],
      ['lint/dropped-description', '/0/parameters/properties/mode/anyOf/1/description'],
    ]);
    expect(r.out.findings[0]?.message).toBe('the gemma-4 chat template does not print this description: the model never sees it');
    // with --all, the gpt-oss flavors too
    expect((await json(['lint', NESTED, '--model', 'gemma-4', '--all'])).out.flavors).toEqual(['openai-harmony', 'chat-template', 'template']);
  });

  it('an xml name is read through its official template: Hermes prints the whole tool JSON, so no description is dropped', async () => {
    // (the Hermes template loops over `tools` and raises on None: the catalog span is taken against
    // its prompt for tools=[], so that is no error of the tool's)
    const r = await runCli(['lint', NESTED, '--model', 'hermes']);
    expect(r).toEqual({ code: 0, out: '0 errors, 0 warnings, 0 infos in 0 tools (template)\n', err: '' });
    // where the template does raise on the tool, an error
    const t = join(tmp, 'raises.jinja');
    writeFileSync(t, '{% for t in tools %}{{ t.function.parameters.properties.steps.items.nope.x }}{% endfor %}');
    const bad = await runCli(['lint', NESTED, '--template', t]);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('lint/template-error  [template]');
  });

  it('usage errors: an unknown name, Ollama\'s layout, a gpt-oss name with --flavor', async () => {
    const unknown = await runCli(['lint', WEATHER, '--model', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('--model must be one of gpt-oss, gpt-oss-template,');
    const ollama = await runCli(['lint', WEATHER, '--model', 'gpt-oss-ollama']);
    expect(ollama.code).toBe(2);
    expect(ollama.err).toContain("Ollama's own layout (--model gpt-oss-ollama) is not linted");
    const both = await runCli(['lint', WEATHER, '--model', 'gpt-oss', '--flavor', 'chat-template']);
    expect(both.code).toBe(2);
    expect(both.err).toBe(`harmony-catalog: --model gpt-oss names the flavor: drop --flavor\n${hint('lint')}`);
    // every family's template is shipped now: Kimi K2 Thinking's too (restored from llama.cpp's copy)
    const thinking = await runCli(['lint', WEATHER, '--model', 'kimi-k2-thinking']);
    expect(thinking).toEqual({ code: 0, out: '0 errors, 0 warnings, 0 infos in 0 tools (template)\n', err: '' });
  });
});

describe('diff: the sides take the names render --model takes', () => {
  it('a gpt-oss name is its flavor: --b gpt-oss-template is --b chat-template', async () => {
    const byFlavor = await runCli(['diff', WEATHER, '--b', 'chat-template']);
    const byModel = await runCli(['diff', WEATHER, '--b', 'gpt-oss-template']);
    expect(byModel.code).toBe(byFlavor.code);
    expect(byModel.out).toBe(byFlavor.out.replaceAll('(chat-template)', '(gpt-oss-template)'));
    expect(await runCli(['diff', WEATHER, '--a', 'gpt-oss', '--b', 'openai-harmony'])).toEqual({ code: 0, out: '2 tools identical, 0 differ\n', err: '' });
  });

  it('--model (the right side) and --b take any family, Hugging Face ids included', async () => {
    const r = await runCli(['diff', WEATHER, '--model', 'llama-3.1']);
    expect(r.code).toBe(1);
    expect(r.out).toContain('--- get_current_weather (openai-harmony)\n+++ get_current_weather (llama-3.1)\n');
    expect(r.out.endsWith('0 tools identical, 2 differ\n')).toBe(true);
    const hf = await runCli(['diff', WEATHER, '--b', 'meta-llama/Llama-3.1-8B-Instruct']);
    expect(hf.out.replaceAll('meta-llama/Llama-3.1-8B-Instruct', 'llama-3.1')).toBe(r.out);
    // ollama: the flavor's name, as render --flavor takes it
    const ollama = await runCli(['diff', WEATHER, '--b', 'ollama', '--format', 'json']);
    expect((JSON.parse(ollama.out) as { b: string; differ: number }).differ).toBe(1);
  });

  it('usage errors: an unknown side, --b with --model', async () => {
    const r = await runCli(['diff', WEATHER, '--b', 'nope']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--b must be a flavor (openai-harmony, chat-template, faithful, ollama) or a model (gpt-oss, ');
    expect(r.err.endsWith(hint('diff'))).toBe(true);
    const both = await runCli(['diff', WEATHER, '--b', 'faithful', '--model', 'qwen']);
    expect(both.code).toBe(2);
    expect(both.err).toBe(`harmony-catalog: --model is the right side: give --b or --model, not both\n${hint('diff')}`);
  });
});

describe('report without -o', () => {
  it('on a terminal, writes report.html in the current folder and says so on stderr', async () => {
    const dir = mkdtempSync(join(tmp, 'tty-'));
    const before = process.cwd();
    process.chdir(dir);
    try {
      const r = await runCli(['report', WEATHER], { isTTY: true });
      expect(r.code).toBe(0);
      expect(r.out).toBe('');
      const path = join(dir, 'report.html');
      expect(r.err).toBe(`harmony-catalog: stdout is a terminal: the page is written to ${path} (-o FILE names another file; a pipe or > FILE gets the HTML)\n`);
      expect(readFileSync(path, 'utf8')).toMatch(/^<!doctype html>/i);
    } finally {
      process.chdir(before);
    }
  });

  it('into a pipe or a file, prints the page as before', async () => {
    const r = await runCli(['report', WEATHER], { isTTY: false });
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^<!doctype html>/i);
    expect(existsSync(join(process.cwd(), 'report.html'))).toBe(false);
  });
});

describe('render through the chat template without messages', () => {
  it('is a usage error that suggests --user', async () => {
    for (const args of [['--flavor', 'chat-template'], ['--model', 'gpt-oss-template'], ['--server', 'llama.cpp']]) {
      const r = await runCli(['render', WEATHER, ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toBe(`harmony-catalog: the gpt-oss chat template fails on this conversation: the template needs at least one message: give the conversation a first message with --user "…" (or render a whole request body, or ask for --part developer)\n${hint('render')}`);
    }
    const ok = await runCli(['render', WEATHER, '--flavor', 'chat-template', '--user', 'hi', '--date', '2025-01-01']);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('<|start|>user<|message|>hi<|end|>');
  });
});
