// The HTML report of the 2,000-tool corpus (not a test).
//   node bench/report.mjs          (builds dist/ first when the report is missing from it; HC_DIST=<dir> to use another build)
// Medians over repeated runs after a warm-up: renderReport (inventory, lint, diff, every tool under the
// three gpt-oss flavors, the page), then the page in headless Chromium (Debian's, driven by playwright-core):
// opening it (first contentful paint, DOMContentLoaded, load) and sorting its 2,000 rows (a click on a
// heading until the reordered rows are painted). Target: under 2 s to open.
import { corpusCatalog, median } from './support.mjs';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
if (!existsSync(join(dist, 'report/index.js'))) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
const { buildReport } = await import(pathToFileURL(join(dist, 'report/index.js')).href);

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const WARMUP = 1;
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const { text: catalogText, count: N } = corpusCatalog(corpusPath);
const options = { source: 'corpus', maxTokens: 100_000 };

const ms = (x) => `${Math.round(x).toLocaleString('en-US')} ms`;

// 1. renderReport
let report;
const renders = [];
for (let i = 0; i < WARMUP + RUNS; i++) {
  const t0 = process.hrtime.bigint();
  report = await buildReport(catalogText, options);
  if (i >= WARMUP) renders.push(Number(process.hrtime.bigint() - t0) / 1e6);
}
const dir = mkdtempSync(join(tmpdir(), 'hc-bench-report-'));
const file = join(dir, 'corpus.html');
writeFileSync(file, report.html);
console.log(`report of ${N.toLocaleString('en-US')} tools: ${(report.html.length / 1e6).toFixed(1)} MB of HTML, ${report.model.columns.length} columns (${report.model.columns.map((c) => c.name).join(', ')})`);
console.log(`renderReport                 median ${ms(median(renders))}   (runs: ${renders.map(ms).join(', ')})`);

// 2. the page in Chromium
if (!existsSync(chromiumPath)) {
  console.log(`no browser at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH): opening and sorting NOT measured`);
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
const { chromium } = await import('playwright-core');
const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
const runs = { fcp: [], dcl: [], load: [], sortTokens: [], sortName: [], openPanel: [] };
for (let i = 0; i < WARMUP + RUNS; i++) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  const nav = await page.evaluate(() => {
    const n = performance.getEntriesByType('navigation')[0];
    const fcp = performance.getEntriesByType('paint').find((p) => p.name === 'first-contentful-paint');
    return { fcp: fcp ? fcp.startTime : NaN, dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd };
  });
  // a click on a heading, then the frame that paints the reordered rows
  const sort = (key) =>
    page.evaluate(
      (k) =>
        new Promise((done) => {
          const t0 = performance.now();
          document.querySelector(`th[data-key="${k}"] button`).click();
          requestAnimationFrame(() => setTimeout(() => done(performance.now() - t0), 0));
        }),
      key,
    );
  const sortTokens = await sort('tokens');
  const sortName = await sort('name');
  const openPanel = await page.evaluate(
    () =>
      new Promise((done) => {
        const d = document.querySelector('details.tool:last-of-type');
        const t0 = performance.now();
        d.open = true;
        const wait = () => (d.querySelector('.panel[data-fill]') ? requestAnimationFrame(wait) : requestAnimationFrame(() => setTimeout(() => done(performance.now() - t0), 0)));
        wait();
      }),
  );
  if (i >= WARMUP) {
    runs.fcp.push(nav.fcp);
    runs.dcl.push(nav.dcl);
    runs.load.push(nav.load);
    runs.sortTokens.push(sortTokens);
    runs.sortName.push(sortName);
    runs.openPanel.push(openPanel);
  }
  await page.close();
}
await browser.close();
rmSync(dir, { recursive: true, force: true });

const line = (label, xs) => console.log(`${label.padEnd(28)} median ${ms(median(xs))}   (runs: ${xs.map(ms).join(', ')})`);
line('open: first contentful paint', runs.fcp);
line('open: DOMContentLoaded', runs.dcl);
line('open: load', runs.load);
line('sort by tokens (click→paint)', runs.sortTokens);
line('sort by name (click→paint)', runs.sortName);
line('open the last panel', runs.openPanel);
const open = median(runs.load);
console.log(`target: open under 2 s: ${open < 2000 ? 'met' : 'NOT met'} (${ms(open)} to load)`);
