/**
 * Build outputs with a `"template"` (a path relative to the config, read as render --template reads
 * it, with `"special"` and `"templateKwargs"`) and a `"tokenizer"`: the parts the model has, counted
 * with its own tokenizer (named with its sha256), or labelled o200k_harmony estimates.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { planBuild } from '../../src/build/index.js';
import { inventory } from '../../src/inventory.js';
import { loadTokenizer } from '../../src/tokenizers/index.js';
import { runCli } from '../support/cli.js';
import { ROOT } from '../support/shared.js';
import { byteLevelToy } from '../tokenizers/toy.js';

const tmp = mkdtempSync(join(tmpdir(), 'hc-build-template-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const WEATHER = readFileSync(join(ROOT, 'examples/weather.json'), 'utf8');
const emptyCache = join(tmp, 'empty-hub');
mkdirSync(emptyCache);
const NO_CACHE = { HF_HUB_CACHE: emptyCache };

// a template that reads a special token and a kwarg, so both are seen to arrive
const TEMPLATE = '{{ bos_token }}{%- if tools %}<tools>{% for t in tools %}\n{{ t | tojson }}{% endfor %}\n</tools>\n{% endif %}{% if greet %}hello\n{% endif %}{% for m in messages %}<|a|>{{ m.role }}\n{{ m.content }}<think>\n{% endfor %}';
const toyBytes = Buffer.from(JSON.stringify(byteLevelToy()));
const toySha = createHash('sha256').update(toyBytes).digest('hex');

let projects = 0;
/** A fresh project: the weather tools, a model folder (its template and tokenizer), and the config. */
function project(outputs: unknown[]): { dir: string; cfg: string } {
  const dir = join(tmp, `p${++projects}`);
  const files: Record<string, string | Buffer> = {
    'tools/weather.json': WEATHER,
    'models/Toy/chat_template.jinja': TEMPLATE,
    'models/Toy/tokenizer.json': toyBytes,
    'harmony-catalog.config.json': JSON.stringify({ sources: ['tools/*.json'], outputs }, null, 2),
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return { dir, cfg: join(dir, 'harmony-catalog.config.json') };
}

describe('build outputs with "template" and "tokenizer"', () => {
  it('a template folder relative to the config: its parts, counted with its tokenizer.json; "special" and "templateKwargs" reach the template', async () => {
    const { dir, cfg } = project([
      { path: 'out/prompt.txt', template: 'models/Toy', special: { bos_token: '<|a|>' }, templateKwargs: { greet: true } },
      { path: 'out/catalog.json', template: 'models/Toy/chat_template.jinja' },
      { path: 'out/catalog.mjs', template: 'models/Toy' },
    ]);
    // run from elsewhere: the paths are the config's
    const r = await runCli(['build', '--config', cfg], { env: NO_CACHE });
    expect(r).toEqual({ code: 0, out: 'wrote  out/prompt.txt\nwrote  out/catalog.json\nwrote  out/catalog.mjs\n', err: '' });
    const prompt = readFileSync(join(dir, 'out/prompt.txt'), 'utf8');
    // bos_token from "special", "hello" from "templateKwargs" (trim_blocks eats the line break after each tag)
    expect(prompt.startsWith('<|a|><tools>{"type": "function", "function": {"name": "get_current_weather"')).toBe(true);
    expect(prompt).toContain('</tools>\nhello\n<|a|>user\nhi<think>\n');

    const toy = loadTokenizer(join(dir, 'models/Toy/tokenizer.json'));
    const inv = await inventory(WEATHER, { template: { text: TEMPLATE }, tokenizer: toy });
    const json = JSON.parse(readFileSync(join(dir, 'out/catalog.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(['options', 'parts', 'tokens', 'tokenizer', 'tools']);
    expect(Object.keys(json.parts as object)).toEqual(['catalog', 'prompt']);
    expect(json.tokens).toEqual(inv.totals);
    expect(json.tokens).toEqual({ catalog: expect.any(Number), prompt: toy.count(inv.prompt!) });
    expect(json.tokenizer).toEqual({ name: 'Toy/tokenizer.json', sha256: toySha, from: 'given', exact: true });
    expect(json.options).toEqual({ template: 'models/Toy/chat_template.jinja' });

    const mod = (await import(pathToFileURL(join(dir, 'out/catalog.mjs')).href)) as Record<string, unknown>;
    expect(Object.keys(mod).sort()).toEqual(['catalog', 'prompt', 'tokens', 'tools']);
    expect(mod.tokens).toEqual(inv.totals);
    const text = readFileSync(join(dir, 'out/catalog.mjs'), 'utf8');
    expect(text).toContain(`/** Token counts (tokens of Toy/tokenizer.json, sha256 ${toySha}): the catalog as its share of the whole prompt. */`);

    // the same bytes again: up to date
    expect((await runCli(['build', '--check', '--config', cfg], { env: NO_CACHE })).code).toBe(0);
  });

  it('"tokenizer": a path relative to the config; without one for a model, the counts are labelled estimates', async () => {
    const { dir, cfg } = project([
      { path: 'out/llama.json', model: 'llama-3.1' },
      { path: 'out/llama-own.json', model: 'llama-3.1', tokenizer: 'models/Toy' },
      { path: 'out/llama.ts', model: 'llama-3.1' },
    ]);
    expect((await runCli(['build', '--config', cfg], { env: NO_CACHE })).code).toBe(0);
    const est = JSON.parse(readFileSync(join(dir, 'out/llama.json'), 'utf8')) as Record<string, unknown>;
    expect(est.tokenizer).toEqual({ name: 'o200k_harmony', from: 'estimate', exact: false, wanted: 'meta-llama/Llama-3.1-8B-Instruct' });
    expect(Object.keys(est.tokens as object)).toEqual(['catalog', 'prompt']);
    const own = JSON.parse(readFileSync(join(dir, 'out/llama-own.json'), 'utf8')) as Record<string, unknown>;
    expect(own.tokenizer).toMatchObject({ sha256: toySha, exact: true });
    expect(readFileSync(join(dir, 'out/llama.ts'), 'utf8')).toContain('/** Token counts (o200k_harmony estimates, not the model\'s own tokenizer (meta-llama/Llama-3.1-8B-Instruct was not in the Hugging Face cache)): the catalog as its share of the whole prompt. */');
  });

  it('gpt-oss outputs are as before: no "tokenizer" key, every part', async () => {
    const { dir, cfg } = project([{ path: 'out/catalog.json' }]);
    expect((await runCli(['build', '--config', cfg], { env: NO_CACHE })).code).toBe(0);
    const json = JSON.parse(readFileSync(join(dir, 'out/catalog.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(['options', 'parts', 'tokens', 'tools']);
    expect(json.tokens).toEqual({ system: 64, developer: 101, catalog: 97, prompt: 165 });
  });

  it('config problems name the key: a template that is not there, a template with a target, "special" alone, a system part of a template', async () => {
    const { cfg } = project([
      { path: 'out/a.txt', template: 'models/Nope' },
      { path: 'out/b.txt', template: 'models/Toy', target: 'xml' },
      { path: 'out/c.txt', special: { bos_token: '<s>' } },
      { path: 'out/d.txt', template: 'models/Toy', part: 'system' },
    ]);
    const r = await runCli(['build', '--config', cfg], { env: NO_CACHE });
    expect(r.code).toBe(2);
    expect(r.err).toContain('outputs[1].target: a template prints what it prints');
    expect(r.err).toContain('outputs[2].special: goes with "template" or a family\'s "model"');
    expect(r.err).toContain('outputs[3].part: a template has no system message of its own');
    const only = project([{ path: 'out/a.txt', template: 'models/Nope' }]);
    const missing = await runCli(['build', '--config', only.cfg], { env: NO_CACHE });
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(`outputs[0].template: no such file or folder: ${join(dirname(only.cfg), 'models/Nope')}`);
  });

  it('planBuild as a library: a "template" needs a reader (the CLI gives its own)', async () => {
    const { cfg } = project([{ path: 'out/a.txt', template: 'models/Toy' }]);
    await expect(planBuild(cfg)).rejects.toThrow(/outputs\[0\]\.template: no template reader was given to the build/);
  });
});
