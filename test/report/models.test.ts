/**
 * The report compares models: each --model / --template column is counted with its own tokenizer
 * (given, found in the Hugging Face cache, a template folder's), the header shows what the same
 * catalog costs on each, the table's tokens can be switched between them, and counts made without
 * a model's tokenizer are labelled o200k estimates.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inventory } from '../../src/inventory.js';
import { buildReport, modelColumn, templateColumn } from '../../src/report/index.js';
import { loadTokenizer } from '../../src/tokenizers/index.js';
import { runCli } from '../support/cli.js';
import { ROOT } from '../support/shared.js';
import { byteLevelToy } from '../tokenizers/toy.js';

const weather = join(ROOT, 'examples/weather.json');
const weatherText = readFileSync(weather, 'utf8');
const tmp = mkdtempSync(join(tmpdir(), 'hc-report-models-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const emptyCache = join(tmp, 'empty-hub');
mkdirSync(emptyCache);
const NO_CACHE = { HF_HUB_CACHE: emptyCache };
const hubCache = { env: NO_CACHE };

const folder = join(tmp, 'ToyModel');
mkdirSync(folder);
const TEMPLATE = '{%- if tools %}<tools>{% for t in tools %}\n{{ t | tojson }}{% endfor %}\n</tools>\n{% endif %}{% for m in messages %}<|a|>{{ m.role }}\n{{ m.content }}<think>\n{% endfor %}';
writeFileSync(join(folder, 'chat_template.jinja'), TEMPLATE);
const toyBytes = Buffer.from(JSON.stringify(byteLevelToy()));
const toyFile = join(folder, 'tokenizer.json');
writeFileSync(toyFile, toyBytes);
const toySha = createHash('sha256').update(toyBytes).digest('hex');

/** The text between the start and end markers. */
function between(html: string, start: string, end: string): string {
  const a = html.indexOf(start);
  expect(a, `${start} in the page`).toBeGreaterThanOrEqual(0);
  return html.slice(a + start.length, html.indexOf(end, a + start.length));
}

/** The data-t0, data-t1… of each tool row. */
function perModel(html: string): number[][] {
  return [...html.matchAll(/<tr class="tool[^"]*"([^>]*)>/g)].map((m) => [...m[1]!.matchAll(/ data-t(\d+)="(\d+)"/g)].map((a) => Number(a[2])));
}

describe('renderReport: several models, each counted with its own tokenizer', () => {
  it('the costs of the same catalog on each model column, each with what counted it; the table can be switched between them', async () => {
    const toy = loadTokenizer(toyFile);
    const columns = [modelColumn('llama-3.1'), modelColumn('qwen3', {}, toyFile), modelColumn('gpt-oss')];
    const { html, model } = await buildReport(weatherText, { model: 'llama-3.1', columns, hubCache });
    expect(model.costs.map((c) => [c.name, c.tokenizer.exact, c.tokenizer.from])).toEqual([
      ['llama-3.1', false, 'estimate'],
      ['qwen3', true, 'given'],
      ['gpt-oss', true, 'builtin'],
    ]);
    expect(model.costs[0]!.counted).toBe(true);
    // each column's figures are its own inventory's
    const qwen = await inventory(weatherText, { model: 'qwen3', tokenizer: toy });
    expect(model.costs[1]!.totals).toEqual(qwen.totals);
    expect(model.costs[1]!.tools).toEqual(qwen.tools.map((t) => t.tokens));
    const gpt = await inventory(weatherText, {});
    expect(model.costs[2]!.totals).toEqual(gpt.totals);
    expect(model.costs[2]!.totals).toMatchObject({ system: 64, developer: 101, catalog: 97, prompt: 165 });

    // the header: a row per model, the estimate marked ≈, the tokenizer file by its sha256
    const costs = between(html, '<table class="costs" id="cost-table">', '</table>');
    expect(costs.match(/<tr data-k=/g)).toHaveLength(3);
    expect(costs).toContain(`<td class="n cost-catalog">\u2248${model.costs[0]!.totals.catalog}`);
    expect(costs).toContain(`<td class="n cost-catalog">${qwen.totals.catalog}`);
    expect(costs).toContain(`(sha256 <code>${toySha.slice(0, 12)}\u2026</code>)`);
    expect(costs).toContain(`sha256 ${toySha}`);
    expect(costs).toContain('an o200k estimate');
    expect(html).toContain('What the same catalog costs on each of <code>llama-3.1</code>, <code>qwen3</code>, <code>gpt-oss</code>');

    // the switch: one radio per model, the counted one checked; every row carries each model's tokens
    const radios = between(html, '<fieldset class="count-on noprint" id="count-on">', '</fieldset>');
    expect(radios.match(/<input type="radio" name="count-on"/g)).toHaveLength(3);
    expect(radios).toContain('value="0" checked> <code>llama-3.1</code> (o200k estimate)');
    expect(perModel(html)).toEqual(model.tools.map((_, i) => model.costs.map((c) => c.tools[i])));
    const data = JSON.parse(between(html, ' data-costs="', '"').replace(/&quot;/g, '"')) as { name: string; catalog: number; overhead: number; exact: boolean }[];
    expect(data.map((d) => [d.name, d.catalog, d.overhead, d.exact])).toEqual(model.costs.map((c) => [c.name, c.totals.catalog, c.overhead, c.tokenizer.exact]));
    // the counted model's tokens are estimates: marked in the table and the totals
    expect(between(html, '<td role="cell" class="n tokens">', '<')).toMatch(/^\u2248\d+$/);
    expect(between(html, '<span id="total-catalog">', '<')).toBe(`\u2248${model.inventory.totals.catalog}`);
    expect(html).toContain('Token counts for the <code>llama-3.1</code> rendering are o200k estimates');
    // Llama has no system or developer message of its own
    expect(html).not.toContain('id="total-system"');
    expect(html).not.toContain('id="total-developer"');
    expect(html).toContain('id="total-prompt"');
  });

  it('a template column, counted with its folder\'s tokenizer', async () => {
    const toy = loadTokenizer(toyFile);
    const columns = [modelColumn('gpt-oss'), templateColumn('ToyModel', { text: TEMPLATE, name: 'the template ToyModel' }, {}, { tokenizer: toyFile })];
    const { model } = await buildReport(weatherText, { columns, hubCache });
    expect(model.costs.map((c) => c.name)).toEqual(['gpt-oss', 'ToyModel']);
    // the report's options render gpt-oss (no model given): the first column's cost is counted apart
    expect(model.costs[1]!.tokenizer).toMatchObject({ sha256: toySha, exact: true });
    const inv = await inventory(weatherText, { template: { text: TEMPLATE }, tokenizer: toy });
    expect(model.costs[1]!.totals).toEqual(inv.totals);
  });

  it('gpt-oss alone: no cost table, no switch, the counting sentence as before', async () => {
    const { html, model } = await buildReport(weatherText, {});
    expect(model.costs).toEqual([]);
    expect(html).not.toContain('id="costs"');
    expect(html).not.toContain('id="count-on"');
    expect(html).toContain('Token counts are exact (o200k_harmony) for the <code>openai-harmony</code> rendering.');
    expect(between(html, '<span id="total-system">', '<')).toBe('64');
  });
});

describe('harmony-catalog report: --model, --template and --tokenizer columns', () => {
  it('--tokenizer COLUMN=PATH gives a column its tokenizer; --template adds a column counted with its folder\'s', async () => {
    const r = await runCli(['report', weather, '--model', 'llama-3.1', '--model', 'qwen3', '--template', folder, '--tokenizer', `qwen3=${toyFile}`], { env: NO_CACHE });
    expect(r.code, r.err).toBe(0);
    const costs = between(r.out, '<table class="costs" id="cost-table">', '</table>');
    expect(costs.match(/<tr data-k=/g)).toHaveLength(3);
    expect(costs).toContain('<code>llama-3.1</code></th><td class="n cost-catalog">\u2248');
    expect(costs).toContain(`<code>qwen3</code></th><td class="n cost-catalog">`);
    expect(costs).toContain('<code>ToyModel</code></th>');
    expect(costs.split(`(sha256 <code>${toySha.slice(0, 12)}`).length - 1).toBe(2);
    expect(between(r.out, '<dt>columns</dt><dd>', '</dd>')).toBe('<code>llama-3.1</code>, <code>qwen3</code>, <code>ToyModel</code>');
  });

  it('a single --model with its tokenizer: exact, the file named; over --max-tokens says what counted', async () => {
    const r = await runCli(['report', weather, '--model', 'qwen3', '--tokenizer', toyFile, '--max-tokens', '10', '-o', join(tmp, 'q.html')], { env: NO_CACHE });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/the catalog is \d+ tokens \(counted with ToyModel\/tokenizer\.json\), more than --max-tokens 10\n$/);
    const html = readFileSync(join(tmp, 'q.html'), 'utf8');
    expect(html).toContain('Token counts are exact for the <code>qwen3</code> rendering: counted with its own tokenizer, <code>ToyModel/tokenizer.json</code>');
    expect(html).not.toContain('id="costs"');
    const est = await runCli(['report', weather, '--model', 'qwen3', '--max-tokens', '10', '-o', join(tmp, 'e.html')], { env: NO_CACHE });
    expect(est.err).toMatch(/the catalog is \d+ tokens \(an o200k estimate\), more than --max-tokens 10\n$/);
  });

  it('usage errors: two --tokenizer without a column, an empty one, --template with --flavor', async () => {
    for (const argv of [
      ['--model', 'qwen3', '--model', 'llama-3.1', '--tokenizer', toyFile, '--tokenizer', toyFile],
      ['--model', 'qwen3', '--tokenizer', 'qwen3='],
      ['--model', 'qwen3', '--tokenizer', ''],
      ['--template', folder, '--flavor', 'ollama'],
      ['--model', 'qwen3', '--model', 'llama-3.1', '--special', 'bos_token=<s>'],
    ]) {
      const r = await runCli(['report', weather, ...argv], { env: NO_CACHE });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(/^harmony-catalog: .+\nRun 'harmony-catalog report --help' for usage\.\n$/);
    }
  });
});
