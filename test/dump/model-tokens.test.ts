/**
 * dump, --max-tokens and the inventory count another model's prompt with that model's own tokenizer
 * (given with --tokenizer, found in the Hugging Face cache, or the --template folder's), say which
 * file (name and sha256), print only the parts the model has, and label every count made without
 * one an o200k estimate.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderPart } from '../../src/api/render.js';
import { inventory } from '../../src/inventory.js';
import { loadTokenizer } from '../../src/tokenizers/index.js';
import { countTextTokens } from '../../src/tokens.js';
import { runCli } from '../support/cli.js';
import { HAVE_SHARED, ROOT, sharedMissingNote } from '../support/shared.js';
import { removeTokenizerFiles, tokenizerFile } from '../tokenizers/support.js';
import { byteLevelToy } from '../tokenizers/toy.js';

const weather = join(ROOT, 'examples/weather.json');
const weatherText = readFileSync(weather, 'utf8');
const tmp = mkdtempSync(join(tmpdir(), 'hc-model-tokens-'));
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
  removeTokenizerFiles();
});

/** An empty Hugging Face cache: the counts of a model without a tokenizer are estimates whatever this machine holds. */
const emptyCache = join(tmp, 'empty-hub');
mkdirSync(emptyCache);
const NO_CACHE = { HF_HUB_CACHE: emptyCache };

/** A model folder: a chat template whose control tokens are the toy tokenizer's added tokens (<|a|> and <think>), and that tokenizer. */
const folder = join(tmp, 'ToyModel');
mkdirSync(folder);
const TEMPLATE = '{%- if tools %}<tools>{% for t in tools %}\n{{ t | tojson }}{% endfor %}\n</tools>\n{% endif %}{% for m in messages %}<|a|>{{ m.role }}\n{{ m.content }}<think>\n{% endfor %}';
writeFileSync(join(folder, 'chat_template.jinja'), TEMPLATE);
const toyBytes = Buffer.from(JSON.stringify(byteLevelToy()));
writeFileSync(join(folder, 'tokenizer.json'), toyBytes);
const toySha = createHash('sha256').update(toyBytes).digest('hex');
const toy = loadTokenizer(join(folder, 'tokenizer.json'));

/** A Hugging Face cache holding the toy tokenizer as Qwen/Qwen3-8B (the qwen3 family's usual model) and as Org/Other. */
const cache = join(tmp, 'hub');
for (const repo of ['models--Qwen--Qwen3-8B', 'models--Org--Other']) {
  const snap = join(cache, repo, 'snapshots', 'r1');
  mkdirSync(snap, { recursive: true });
  writeFileSync(join(snap, 'tokenizer.json'), toyBytes);
}

type Dumped = { tools: { name: string; tokens: number }[]; totals: Record<string, number>; tokenizer: Record<string, unknown>; diagnostics: { code: string }[] };
const json = async (args: string[], env: Record<string, string> = NO_CACHE): Promise<Dumped> => {
  const r = await runCli(['dump', weather, '--format', 'json', ...args], { env });
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out) as Dumped;
};

describe('dump counts another model with its own tokenizer, or says it estimates', () => {
  it('without a tokenizer, --model llama-3.1: "o200k estimate", no system or developer message, nothing of <|start|>', async () => {
    const r = await runCli(['dump', weather, '--model', 'llama-3.1'], { env: NO_CACHE });
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toMatch(/^tool +params +est\. tokens +findings$/);
    expect(lines[4]).toMatch(/^2 tools; tokens \(o200k estimate\): catalog \d+; the whole prompt \d+$/);
    expect(r.out).not.toMatch(/system \d|developer \d|<\|start\|>|exact/);
    expect(r.out).toContain('an estimate: ');
    expect(r.out).toContain('have meta-llama/Llama-3.1-8B-Instruct in the Hugging Face cache');
    const j = await json(['--model', 'llama-3.1']);
    expect(Object.keys(j.totals)).toEqual(['catalog', 'prompt']);
    expect(j.tokenizer).toEqual({ name: 'o200k_harmony', from: 'estimate', exact: false, wanted: 'meta-llama/Llama-3.1-8B-Instruct' });
    // the estimate is o200k_harmony's count of the prompt the family renders
    expect(j.totals.prompt).toBe(countTextTokens(renderPart(weatherText, { model: 'llama-3.1', part: 'prompt' }).text));
    const md = await runCli(['dump', weather, '--model', 'llama-3.1', '--format', 'markdown'], { env: NO_CACHE });
    expect(md.out).toContain('| tool | parameters | est. tokens | findings |');
    expect(md.out).toContain('**Totals** (o200k estimates): catalog ');
  });

  it('--tokenizer FILE: exact counts of the prompt, the file named with its sha256; the shares add up to the catalog', async () => {
    const j = await json(['--template', join(folder, 'chat_template.jinja'), '--tokenizer', join(folder, 'tokenizer.json')]);
    const prompt = renderPart(weatherText, { template: { text: TEMPLATE }, part: 'prompt' }).text;
    expect(j.totals.prompt).toBe(toy.count(prompt));
    expect(j.tokenizer).toEqual({ name: 'ToyModel/tokenizer.json', path: join(folder, 'tokenizer.json'), sha256: toySha, from: 'given', exact: true });
    // the toy tokenizer: one token a byte but for a few merges, <|a|> and <think> one each
    const catalog = renderPart(weatherText, { template: { text: TEMPLATE }, part: 'catalog' }).text;
    expect(j.totals.catalog).toBe(toy.count(catalog));
    expect(j.tools.reduce((a, t) => a + t.tokens, 0)).toBeLessThanOrEqual(j.totals.catalog);
    expect(j.tools[1].tokens).toBe(toy.count('{"type": "function", "function": {"name": "get_location", "description": "Gets the location of the user."}}'));
    const text = await runCli(['dump', weather, '--template', join(folder, 'chat_template.jinja'), '--tokenizer', join(folder, 'tokenizer.json')], { env: NO_CACHE });
    expect(text.out).toContain(`2 tools; tokens (ToyModel/tokenizer.json): catalog ${j.totals.catalog}; the whole prompt ${j.totals.prompt}\n`);
    expect(text.out).toContain(`(tokens counted with ToyModel/tokenizer.json: ${join(folder, 'tokenizer.json')} (sha256 ${toySha}))`);
    expect(text.out).not.toContain('estimate');
  });

  it('--template FOLDER: the folder\'s tokenizer.json counts, without --tokenizer', async () => {
    const j = await json(['--template', folder]);
    expect(j.tokenizer).toMatchObject({ path: join(folder, 'tokenizer.json'), sha256: toySha, exact: true });
    expect(j.totals.prompt).toBe(toy.count(renderPart(weatherText, { template: { text: TEMPLATE }, part: 'prompt' }).text));
  });

  it('the Hugging Face cache: the family\'s usual model (qwen3 → Qwen/Qwen3-8B), or the id given as --model; nothing found is an estimate', async () => {
    const env = { HF_HUB_CACHE: cache };
    const family = await json(['--model', 'qwen3'], env);
    expect(family.tokenizer).toMatchObject({ name: 'Qwen/Qwen3-8B', sha256: toySha, from: 'cache', exact: true });
    expect(family.totals.prompt).toBe(toy.count(renderPart(weatherText, { model: 'qwen3', part: 'prompt' }).text));
    const byId = await json(['--model', 'Qwen/Qwen3-8B'], env);
    expect(byId.tokenizer).toMatchObject({ name: 'Qwen/Qwen3-8B', from: 'cache' });
    const notThere = await json(['--model', 'Qwen/Qwen3-4B'], env);
    expect(notThere.tokenizer).toEqual({ name: 'o200k_harmony', from: 'estimate', exact: false, wanted: 'Qwen/Qwen3-4B' });
    // --tokenizer MODEL-ID: any cached model
    const other = await json(['--model', 'qwen3', '--tokenizer', 'Org/Other'], env);
    expect(other.tokenizer).toMatchObject({ name: 'Org/Other', from: 'given', exact: true });
  });

  it('--max-tokens says how the catalog was counted: an estimate, or the tokenizer', async () => {
    const est = await runCli(['dump', weather, '--model', 'llama-3.1', '--max-tokens', '10'], { env: NO_CACHE });
    expect(est.code).toBe(1);
    expect(est.err).toMatch(/^harmony-catalog: over budget: the catalog is \d+ tokens \(an o200k estimate\), more than --max-tokens 10\n$/);
    const own = await runCli(['dump', weather, '--template', folder, '--max-tokens', '10'], { env: NO_CACHE });
    expect(own.code).toBe(1);
    expect(own.err).toMatch(/the catalog is \d+ tokens \(counted with ToyModel\/tokenizer\.json\), more than --max-tokens 10/);
    const fits = await runCli(['dump', weather, '--template', folder, '--max-tokens', '100000'], { env: NO_CACHE });
    expect(fits.code).toBe(0);
    // gpt-oss: as before, no label
    const gpt = await runCli(['dump', weather, '--max-tokens', '10'], { env: NO_CACHE });
    expect(gpt.err).toBe('harmony-catalog: over budget: the catalog is 97 tokens, more than --max-tokens 10\n');
  });

  it('gpt-oss keeps its own o200k_harmony, exact; its own tokenizer.json given is the same counts, named', async () => {
    const j = await json([]);
    expect(j.totals).toEqual({ system: 64, developer: 101, catalog: 97, prompt: 165 });
    expect(j.tokenizer).toEqual({ name: 'o200k_harmony', from: 'builtin', exact: true });
    const named = await json(['--tokenizer', 'gpt-oss']);
    expect(named.totals).toEqual(j.totals);
  });

  it('a tokenizer that cannot be read: exit 1, one message naming it', async () => {
    const r = await runCli(['dump', weather, '--model', 'qwen3', '--tokenizer', join(tmp, 'nope')], { env: NO_CACHE });
    expect(r.code).toBe(1);
    expect(r.err).toContain(`error [tokenizer/not-found]: ${join(tmp, 'nope')}: no such tokenizer file or folder`);
    expect((await runCli(['dump', weather, '--tokenizer', ''], { env: NO_CACHE })).code).toBe(2);
  });

  it('a tokenizer without the template\'s control tokens: a warning naming them', async () => {
    const plain = join(tmp, 'plain');
    mkdirSync(plain);
    writeFileSync(join(plain, 'tokenizer.json'), JSON.stringify(byteLevelToy({ added_tokens: [] })));
    const r = await runCli(['dump', weather, '--model', 'llama-3.1', '--tokenizer', plain], { env: NO_CACHE });
    expect(r.code).toBe(0);
    expect(r.err).toContain('warning [tokenizer/missing-control-token]: the tokenizer ');
    expect(r.err).toContain('has no token for <|begin_of_text|>, <|start_header_id|>, <|end_header_id|>, <|eot_id|>');
    // the toy's own template spells only its own control tokens
    expect((await runCli(['dump', weather, '--template', folder], { env: NO_CACHE })).err).toBe('');
  });

  it('the inventory API: tokenizer and hubCache options, and `tokenizer` in the result', async () => {
    const inv = await inventory(weatherText, { model: 'qwen3', hubCache: { env: { HF_HUB_CACHE: cache } } });
    expect(inv.tokenizer).toMatchObject({ name: 'Qwen/Qwen3-8B', exact: true, from: 'cache' });
    expect(inv.totals.system).toBeUndefined();
    expect(inv.totals.developer).toBeUndefined();
    expect(inv.totals.prompt).toBe(toy.count(inv.prompt!));
    const given = await inventory(weatherText, { model: 'qwen3', tokenizer: toy });
    expect(given.totals).toEqual(inv.totals);
    expect(given.tools.map((t) => t.tokens)).toEqual(inv.tools.map((t) => t.tokens));
    const est = await inventory(weatherText, { model: 'qwen3', hubCache: { env: NO_CACHE } });
    expect(est.tokenizer.exact).toBe(false);
    expect(est.totals.prompt).toBe(countTextTokens(est.prompt!));
  });
});

if (HAVE_SHARED) {
  describe('dump on the real tokenizers (shared/oracles/tokens)', () => {
    it('--model qwen3 --tokenizer Qwen3\'s file: the exact count of the prompt, other than the o200k estimate', async () => {
      const qwen = tokenizerFile('qwen3');
      const t = loadTokenizer(qwen);
      const j = await json(['--model', 'qwen3', '--tokenizer', qwen]);
      const prompt = renderPart(weatherText, { model: 'qwen3', part: 'prompt' }).text;
      expect(j.totals.prompt).toBe(t.count(prompt));
      expect(j.tokenizer).toMatchObject({ sha256: 'aeb13307a71acd8fe81861d94ad54ab689df773318809eed3cbe794b4492dae4', exact: true });
      const est = await json(['--model', 'qwen3']);
      expect(est.totals.prompt).not.toBe(j.totals.prompt);
      // <|im_start|> and <|im_end|> are one token each under Qwen3's file
      expect(j.totals.prompt).toBeLessThan(est.totals.prompt);
    });

    it('--model gemma-4 with Gemma 3\'s tokenizer.json: a warning that its control tokens are not in that vocabulary', async () => {
      const r = await runCli(['dump', weather, '--model', 'gemma-4', '--tokenizer', tokenizerFile('gemma3')], { env: NO_CACHE });
      expect(r.code).toBe(0);
      expect(r.err).toMatch(/warning \[tokenizer\/missing-control-token\]: .* has no token for <\|turn>/);
    });
  });
} else {
  describe('dump on the real tokenizers (not available)', () => {
    it('says plainly that the real tokenizer files are not used', () => {
      console.warn(sharedMissingNote('test/dump/model-tokens.test.ts'));
      expect(HAVE_SHARED).toBe(false);
    });
  });
}
