#!/usr/bin/env node
/**
 * Time and peak memory of each hostile input (test/hardening/hostile-cases.mjs), each in its own
 * child process, and the growth of the time with the number of tools (10k vs 100k).
 *
 *   node bench/hostile.mjs [--case NAME] [--dist dist] [--repeat 3] [--no-growth]
 *
 * A child builds the input (timed apart), renders every printer the case is about, and reports
 * the render time, its outcomes, the RSS before rendering and the peak RSS
 * (process.resourceUsage().maxRSS). The parent prints one table row a case.
 *
 * Then token counting on a description holding one long run of `=` (one pre-tokenizer chunk: the
 * case that made gpt-tokenizer's BPE quadratic): 160,000, 1,000,000 and 5,000,000 characters, each
 * in its own child, through countTextTokens and through inventory (what `dump`, `build` and
 * `--max-tokens` run). `--compare` also times gpt-tokenizer's own countTokens on 160,000 (about 20 s);
 * `--no-tokens` skips the section, `--tokens-only` runs only it.
 */
import { execFileSync, execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SELF = fileURLToPath(import.meta.url);
const MB = 1024 * 1024;

const { values } = parseArgs({
  options: {
    case: { type: 'string' },
    child: { type: 'string' },
    tools: { type: 'string' },
    dist: { type: 'string', default: 'dist' },
    repeat: { type: 'string', default: '3' },
    'no-growth': { type: 'boolean', default: false },
    'no-tokens': { type: 'boolean', default: false },
    'tokens-only': { type: 'boolean', default: false },
    compare: { type: 'boolean', default: false },
    run: { type: 'string' },
  },
});
const dist = resolve(ROOT, values.dist);

async function api() {
  return import(pathToFileURL(resolve(dist, 'index.js')).href);
}

/** Child: one hostile case. */
async function child(name) {
  const lib = await api();
  const { hostileCase, runHostileCase } = await import('../test/hardening/hostile-cases.mjs');
  const c = hostileCase(name);
  const t0 = performance.now();
  // build once to time it; runHostileCase builds again (inputs are cheap next to rendering)
  const input = c.build();
  const buildMs = performance.now() - t0;
  const inputBytes = typeof input === 'string' ? Buffer.byteLength(input) : undefined;
  const rssBefore = process.memoryUsage().rss;
  const t1 = performance.now();
  let r;
  let crash;
  try {
    r = runHostileCase(lib, { ...c, build: () => input });
  } catch (e) {
    crash = `${e?.name}: ${String(e?.message).slice(0, 200)}`;
  }
  const ms = performance.now() - t1;
  const peak = process.resourceUsage().maxRSS * 1024;
  const outcomes = r ? [...new Set(r.results.map((x) => x.outcome))] : [];
  process.stdout.write(
    JSON.stringify({ name, what: c.what, renders: r?.results.length ?? 0, buildMs, ms, inputBytes, rssBefore, peak, outcomes, ok: !crash && r.bad.length === 0, crash, bad: r?.bad ?? [], maxOutput: r ? Math.max(0, ...r.results.map((x) => x.length ?? 0)) : 0 }),
  );
}

/** Child: render n tools (harmony catalog), median of `repeat` timed runs after one warm-up. */
async function toolsChild(n, repeat) {
  const lib = await api();
  const { manyToolsText } = await import('../test/hardening/hostile-cases.mjs');
  const text = manyToolsText(n);
  lib.renderCatalog(manyToolsText(1000));
  const times = [];
  for (let i = 0; i < repeat; i++) {
    const t = performance.now();
    // read afresh each run: renderCatalog keeps what it rendered for the same text
    lib.renderCatalog(lib.readTools(text));
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  process.stdout.write(JSON.stringify({ n, median: times[Math.floor(times.length / 2)], times, peak: process.resourceUsage().maxRSS * 1024 }));
}

/** The token-counting runs: one long run of `=` as a tool description. */
const RUN_SIZES = [160_000, 1_000_000, 5_000_000];

/** Child: count the tokens of a run of n `=` (countTextTokens, then inventory of a tool holding it; or gpt-tokenizer's countTokens with --compare). */
async function runChildTokens(n, compare) {
  const text = '='.repeat(n);
  const out = { n };
  if (compare) {
    const { countTokens } = await import('gpt-tokenizer/encoding/o200k_harmony');
    const t = performance.now();
    out.gptTokens = countTokens(text, { disallowedSpecial: new Set() });
    out.gptMs = performance.now() - t;
  } else {
    const { countTextTokens } = await import(pathToFileURL(resolve(dist, 'tokens.js')).href);
    const { inventory } = await import(pathToFileURL(resolve(dist, 'inventory.js')).href);
    countTextTokens('warm up: load the rank table ==');
    let t = performance.now();
    out.tokens = countTextTokens(text);
    out.countMs = performance.now() - t;
    t = performance.now();
    const inv = await inventory([{ name: 'f', description: text, parameters: { type: 'object', properties: {} } }]);
    out.inventoryMs = performance.now() - t;
    out.catalog = inv.totals.catalog;
  }
  out.peak = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(JSON.stringify(out));
}

function runChild(args) {
  const out = execFileSync(process.execPath, ['--max-old-space-size=4096', SELF, ...args, '--dist', values.dist], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * MB });
  return JSON.parse(out);
}

const mb = (b) => (b === undefined ? '' : `${(b / MB).toFixed(1)} MB`);

async function parent() {
  if (!existsSync(resolve(dist, 'index.js'))) {
    process.stderr.write(`hostile: ${dist}/index.js is missing: building (npm run build)\n`);
    execSync('npm run build', { cwd: ROOT, stdio: 'inherit' });
  }
  if (values['tokens-only']) return tokenRuns();
  const { HOSTILE_CASES } = await import('../test/hardening/hostile-cases.mjs');
  const cases = values.case ? HOSTILE_CASES.filter((c) => c.name === values.case) : HOSTILE_CASES;
  const rows = ['| case | input | renders | time (render) | peak RSS | outcome |', '|---|---|---|---|---|---|'];
  let failed = false;
  for (const c of cases) {
    let r;
    try {
      r = runChild(['--child', c.name]);
    } catch (e) {
      r = { name: c.name, what: c.what, crash: `child failed: ${String(e.message).split('\n')[0]}`, outcomes: [] };
    }
    failed ||= !r.ok;
    const outcome = r.crash ? `CRASH ${r.crash}` : r.ok ? r.outcomes.join(', ') : `UNEXPECTED ${JSON.stringify(r.bad).slice(0, 200)}`;
    const row = `| ${c.name}: ${c.what} | ${r.inputBytes !== undefined ? mb(r.inputBytes) : 'JS value'} | ${r.renders ?? ''} | ${r.ms !== undefined ? `${(r.ms / 1000).toFixed(2)} s` : ''} | ${mb(r.peak)} | ${outcome} |`;
    rows.push(row);
    process.stdout.write(`${row}\n`);
  }
  process.stdout.write(`\n${rows.join('\n')}\n`);
  if (!values['no-growth']) {
    const repeat = values.repeat;
    const small = runChild(['--tools', '10000', '--repeat', repeat]);
    const large = runChild(['--tools', '100000', '--repeat', repeat]);
    const ratio = large.median / small.median;
    process.stdout.write(
      `\nlinear growth (harmony catalog, median of ${repeat}): 10,000 tools ${(small.median / 1000).toFixed(3)} s (peak ${mb(small.peak)}), ` +
        `100,000 tools ${(large.median / 1000).toFixed(3)} s (peak ${mb(large.peak)}): ratio ${ratio.toFixed(2)} for 10× the tools\n`,
    );
    failed ||= ratio > 11;
  }
  if (!values['no-tokens']) failed = (await tokenRuns()) || failed;
  process.exitCode = failed ? 1 : 0;
}

/** The token-counting table; true when a count is wrong (n / 64: 64 `=` make one o200k token). */
async function tokenRuns() {
  const rows = ['| run of `=` | countTextTokens | inventory (dump) | tokens | peak RSS |', '|---|---|---|---|---|'];
  let failed = false;
  for (const n of RUN_SIZES) {
    const r = runChild(['--run', String(n)]);
    const ok = r.tokens === n / 64 && r.catalog > r.tokens;
    failed ||= !ok;
    rows.push(`| ${n.toLocaleString('en')} | ${(r.countMs / 1000).toFixed(2)} s | ${(r.inventoryMs / 1000).toFixed(2)} s | ${r.tokens}${ok ? '' : ' WRONG'} | ${mb(r.peak)} |`);
    process.stdout.write(`${rows.at(-1)}\n`);
  }
  if (values.compare) {
    const r = runChild(['--run', String(RUN_SIZES[0]), '--compare']);
    rows.push(`| ${RUN_SIZES[0].toLocaleString('en')}, gpt-tokenizer countTokens | ${(r.gptMs / 1000).toFixed(2)} s | | ${r.gptTokens} | ${mb(r.peak)} |`);
    process.stdout.write(`${rows.at(-1)}\n`);
  }
  process.stdout.write(`\ntoken counting on one long chunk:\n${rows.join('\n')}\n`);
  if (values['tokens-only']) process.exitCode = failed ? 1 : 0;
  return failed;
}

if (values.run) await runChildTokens(Number(values.run), values.compare);
else if (values.child) await child(values.child);
else if (values.tools) await toolsChild(Number(values.tools), Number(values.repeat));
else await parent();
