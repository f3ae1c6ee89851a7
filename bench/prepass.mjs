#!/usr/bin/env node
/**
 * The lowering's pre-pass on the 2,000 corpus tools (issue 22, item 24), today's build beside a
 * baseline's, in one process, alternately (medians of RUNS runs after warm-up):
 *
 *   node --expose-gc bench/prepass.mjs [--baseline REF] [--runs N]
 *
 * The baseline (default e4d0d2a) walks in place with a hand-written copy of json-schema-traverse's
 * rules; today's walks with json-schema-traverse itself, on the caller's objects when the tools
 * came as objects, else on a plain copy of the lossless value. Two inputs:
 * - JSON text (what the CLI reads): every parameters schema of readTools(text), each walked;
 * - objects (what an API user passes): readTools(objects) then the walk, in the same synchronous
 *   job (the time of the walk alone; the read is timed apart, as its bookkeeping of the objects is
 *   part of the cost).
 */
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { baselineBuild, corpusCatalog, median } from './support.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { baseline: { type: 'string', default: 'e4d0d2a' }, runs: { type: 'string', default: '31' }, help: { type: 'boolean', short: 'h' } } });
if (values.help) {
  process.stdout.write('Usage: node --expose-gc bench/prepass.mjs [--baseline REF] [--runs N]\n');
  process.exit(0);
}
const shared = process.env.SHARED_DIR ?? resolve(root, '../shared');
const corpusPath = join(shared, 'corpus/tools.jsonl');
if (!existsSync(corpusPath)) {
  console.log(`bench/prepass: ${corpusPath} is not there (set SHARED_DIR): nothing measured`);
  process.exit(0);
}
if (!existsSync(join(root, 'dist/index.js'))) execSync('npm run build', { cwd: root, stdio: 'inherit' });
const { text } = corpusCatalog(corpusPath);
const RUNS = Number(values.runs);
const base = baselineBuild(root, values.baseline);

async function side(dir) {
  const load = (f) => import(pathToFileURL(join(dir, 'dist', f)).href);
  const lib = await load('index.js');
  const { prepass } = await load('lower/prepass.js');
  const { LowerContext } = await load('lower/context.js');
  const schemasOf = (read) => read.tools.map((t) => t.parameters).filter((p) => p !== undefined && p !== null);
  const fromText = schemasOf(lib.readTools(text));
  const walk = (schemas) => {
    for (const s of schemas) prepass(s, new LowerContext(s, {}));
  };
  return {
    text: () => {
      const t0 = process.hrtime.bigint();
      walk(fromText);
      return Number(process.hrtime.bigint() - t0) / 1e6;
    },
    objects: () => {
      const objects = JSON.parse(text); // fresh objects: the reader keeps what it read of the same ones
      const t0 = process.hrtime.bigint();
      const schemas = schemasOf(lib.readTools(objects));
      const t1 = process.hrtime.bigint();
      walk(schemas);
      const t2 = process.hrtime.bigint();
      return [Number(t1 - t0) / 1e6, Number(t2 - t1) / 1e6];
    },
  };
}

const now = await side(root);
const old = await side(base.dir);
const xs = { oldText: [], nowText: [], oldRead: [], nowRead: [], oldWalk: [], nowWalk: [] };
for (let r = 0; r < 5 + RUNS; r++) {
  const keep = r >= 5;
  for (const [who, s] of [['old', old], ['now', now]]) {
    globalThis.gc?.({ type: 'minor' });
    const t = s.text();
    globalThis.gc?.({ type: 'minor' });
    const [read, walk] = s.objects();
    if (keep) xs[`${who}Text`].push(t), xs[`${who}Read`].push(read), xs[`${who}Walk`].push(walk);
  }
}
const ms = (x) => x.toFixed(2).padStart(8);
console.log(`pre-pass over the ${fromCount()} parameters schemas of the 2,000 corpus tools; medians of ${RUNS} runs, ms`);
console.log(`baseline ${values.baseline} (${base.sha.slice(0, 12)}: the in-place walk) beside today's tree (json-schema-traverse)`);
console.log(`${''.padEnd(44)}${'baseline'.padStart(8)}${'now'.padStart(8)}  now/baseline`);
const row = (what, a, b) => console.log(`${what.padEnd(44)}${ms(median(a))}${ms(median(b))}  ${(median(b) / median(a)).toFixed(2)}×`);
row('walk, tools read from JSON text (a copy)', xs.oldText, xs.nowText);
row('walk, tools read from objects (in place)', xs.oldWalk, xs.nowWalk);
row('readTools(objects) (today: notes the objects)', xs.oldRead, xs.nowRead);
console.log(`node ${process.version}${globalThis.gc ? '' : ' (run with --expose-gc for a minor GC before each run)'}`);

function fromCount() {
  return JSON.parse(text).filter((t) => t.parameters !== undefined && t.parameters !== null).length;
}
