#!/usr/bin/env node
/**
 * `dump` and `report` at scale (not a test): N small tools made from the corpus (each tool's name
 * with its index, the first 24 characters of its description, its first parameter), the built CLI
 * run on them in a child per command, its wall time, peak RSS (process.resourceUsage().maxRSS) and
 * exit status printed. Issue 22, item 10: 130,000 tools (about 19 MB) died with "Maximum call stack
 * size exceeded"; both must finish with memory that grows linearly with the tools.
 *
 *   node bench/scale.mjs [--tools 130000,20000] [--dist dist] [--max-old-space-size MB]
 *
 * Build first (`npm run build`). `--max-old-space-size` bounds the child's heap: the live memory
 * (V8 grows its heap lazily, so the RSS of an unbounded run overstates it).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { tools: { type: 'string', default: '20000,130000' }, dist: { type: 'string', default: 'dist' }, 'max-old-space-size': { type: 'string' } } });
const cli = resolve(ROOT, values.dist, 'bin/harmony-catalog.cjs');
if (!existsSync(cli)) {
  console.error(`bench: ${cli} not found: run npm run build first`);
  process.exit(1);
}
const corpusPath = join(process.env.SHARED_DIR ?? resolve(ROOT, '../shared'), 'corpus/tools.jsonl');
if (!existsSync(corpusPath)) {
  console.error(`bench: ${corpusPath} not found (set SHARED_DIR); nothing measured`);
  process.exit(1);
}
const corpus = readFileSync(corpusPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l));

/** N small tools: corpus tools renamed, described in a few words, with their first parameter. */
function smallTools(n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const t = corpus[i % corpus.length];
    const props = t.parameters?.properties ?? {};
    const first = Object.keys(props)[0];
    const p = first !== undefined ? { [first.slice(0, 12)]: { type: typeof props[first]?.type === 'string' ? props[first].type : 'string' } } : {};
    out.push({ name: `${String(t.name).replace(/[^A-Za-z0-9_]/g, '_').slice(0, 20)}_${i}`, description: String(t.description ?? '').slice(0, 24), parameters: { type: 'object', properties: p } });
  }
  return JSON.stringify(out);
}

// the CLI in this process, its peak RSS said on stderr when it exits
const CHILD = `process.on('exit', () => process.stderr.write('\\nbench-maxrss ' + process.resourceUsage().maxRSS + '\\n')); process.argv.splice(1, 0, 'cli'); require(${JSON.stringify(cli)});`;
const dir = mkdtempSync(join(tmpdir(), 'hc-scale-'));
try {
  console.log('tools    | input MB | command | exit | time s | peak RSS MB');
  for (const n of values.tools.split(',').map(Number)) {
    const file = join(dir, `tools-${n}.json`);
    const text = smallTools(n);
    writeFileSync(file, text);
    for (const [name, args] of [['dump', ['dump', file, '--quiet']], ['report', ['report', file, '--quiet', '-o', join(dir, 'report.html')]]]) {
      const heap = values['max-old-space-size'] !== undefined ? [`--max-old-space-size=${values['max-old-space-size']}`] : [];
      const t0 = performance.now();
      const r = spawnSync(process.execPath, [...heap, '-e', CHILD, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
      const s = (performance.now() - t0) / 1000;
      const rss = /bench-maxrss (\d+)/.exec(r.stderr ?? '')?.[1];
      console.log(`${String(n).padEnd(8)} | ${(text.length / 1e6).toFixed(1).padStart(8)} | ${name.padEnd(7)} | ${String(r.status).padStart(4)} | ${s.toFixed(1).padStart(6)} | ${rss ? Math.round(Number(rss) / 1024) : '?'}`);
      if (r.status !== 0) console.log((r.stderr ?? '').trim().split('\n').slice(-3).join('\n'));
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
