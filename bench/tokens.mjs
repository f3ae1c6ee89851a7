// Token counting on the 2,000-tool corpus catalog (not a test).
//   node bench/tokens.mjs          (builds dist/ first when it is missing; HC_DIST=<dir> to use another build)
// Median over repeated runs after warm-up: counting the whole developer message (o200k_harmony,
// <|start|> to <|end|>), the same with each chunk's position (what the per-tool shares need), and the
// whole inventory (render, each tool alone, shares; with and without the lint findings).
import { corpusCatalog, median } from './support.mjs';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const shared = process.env.SHARED_DIR ?? resolve(root, '../shared');
const corpusPath = join(shared, 'corpus/tools.jsonl');
if (!existsSync(corpusPath)) {
  console.error(`bench: ${corpusPath} not found (set SHARED_DIR); nothing measured`);
  process.exit(1);
}
const dist = resolve(process.env.HC_DIST ?? join(root, 'dist'));
if (!existsSync(join(dist, 'inventory.js'))) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
const load = (p) => import(pathToFileURL(join(dist, p)).href);

const lib = await load('index.js');
const { countMessageTokens, countTextTokens } = await load('tokens.js');
const { inventory, tokenChunks } = await load('inventory.js');

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const WARMUP = 3;
const { text: catalogText, count: N } = corpusCatalog(corpusPath);

async function time(fn, runs = RUNS, warmup = WARMUP) {
  for (let i = 0; i < warmup; i++) await fn();
  const xs = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    xs.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(xs);
}
const row = (name, ms, note = '') => console.log(`${name.padEnd(58)} ${ms.toFixed(1).padStart(9)} ms  ${((ms * 1000) / N).toFixed(1).padStart(7)} µs/tool  ${note}`);

const read = lib.readTools(catalogText);
const developer = lib.renderDeveloperMessage(read).text;
const catalog = lib.renderCatalog(read).text;
const tokens = countMessageTokens({ header: 'developer', content: developer });
console.log(`harmony-catalog token bench: ${N} corpus tools as one catalog (developer message ${developer.length} chars, ${tokens} tokens);`);
console.log(`median of ${RUNS} runs after ${WARMUP} warm-up runs; node ${process.version}\n`);

let inv;
row('countMessageTokens(developer message)', await time(() => countMessageTokens({ header: 'developer', content: developer })), `${tokens} tokens`);
row('countTextTokens(catalog)', await time(() => countTextTokens(catalog)), `${countTextTokens(catalog)} tokens`);
row('tokenChunks(developer content): counts with positions', await time(() => tokenChunks(developer)));
row('inventory(read tools, lint off): parts, each tool alone, shares', await time(async () => (inv = await inventory(read, { lint: false })), 9, 2), `${inv.tools.length} rows, catalog ${inv.totals.catalog}`);
row('inventory(read tools): the same with lint findings (dump)', await time(() => inventory(read), 9, 2));
const shares = inv.tools.reduce((a, t) => a + t.tokens, 0);
console.log(`\nshares: ${shares} of the catalog's ${inv.totals.catalog} tokens are the tools'; ${inv.totals.catalog - shares} are its headings and namespace lines; developer total ${inv.totals.developer} (= countMessageTokens: ${inv.totals.developer === tokens})`);
