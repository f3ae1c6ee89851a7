#!/usr/bin/env node
/**
 * The long property-based fuzz run: the properties of test/hardening/properties.mjs over the
 * built library (dist/; built first when missing), many more cases than the test suite runs.
 *
 *   npm run fuzz -- --runs 1000000 [--seed 42] [--workers 2] [--chunk 2000] [--dist dist]
 *
 * Cases run in chunks of fast-check runs; chunk k uses its own seed, a hash of (seed, k), so
 * runs with nearby seeds do not share cases. A failure is shrunk and printed with its chunk
 * seed and fast-check path; replay it with `--chunk-seed <chunk seed> --runs <chunk>`. The run
 * goes on with the next chunk. Failures of known open bugs (KNOWN_ISSUES) are counted, not raised.
 * Prints cases, time, failures and the seed; exits 1 when a new failure was found.
 */
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function options() {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '10000' },
      seed: { type: 'string' },
      workers: { type: 'string', default: '1' },
      chunk: { type: 'string', default: '2000' },
      dist: { type: 'string', default: 'dist' },
      'chunk-seed': { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write('Usage: npm run fuzz -- [--runs N] [--seed S] [--workers W] [--chunk C] [--dist DIR] [--quiet]\n');
    process.exit(0);
  }
  return {
    runs: Number(values.runs),
    seed: values.seed !== undefined ? Number(values.seed) : Date.now() % 2147483647,
    workers: Math.max(1, Number(values.workers)),
    chunk: Math.max(1, Number(values.chunk)),
    dist: resolve(ROOT, values.dist),
    quiet: values.quiet,
    chunkSeed: values['chunk-seed'] !== undefined ? Number(values['chunk-seed']) : undefined,
  };
}

/** The library object of the properties, from the built files. */
async function loadLib(dist) {
  const url = (p) => pathToFileURL(resolve(dist, p)).href;
  const optional = async (p) => (existsSync(resolve(dist, p)) ? import(url(p)) : undefined);
  const api = await import(url('index.js'));
  const tokens = await import(url('tokens.js'));
  const { normalizeGeminiSchema } = await import(url('input/normalize.js'));
  const ts = (await import('typescript')).default;
  let faithful;
  // the public way: renderCatalog with `lowering: 'faithful'` (present when the faithful module is exported)
  if (typeof api.renderFaithfulCatalog === 'function') faithful = (input, o) => api.renderCatalog(input, { ...o, lowering: 'faithful' });
  else {
    const mod = await optional('emit/harmony/faithful.js');
    if (typeof mod?.emitFaithfulToolsSection === 'function') {
      faithful = (input, o) => {
        const c = api.compileTools(input, o);
        return { text: mod.emitFaithfulToolsSection([{ name: 'functions', tools: c.tools }]), diagnostics: c.diagnostics };
      };
    }
  }
  const lintMod = await optional('lint/index.js');
  const lint = typeof lintMod?.lintTools === 'function' ? (input) => lintMod.lintTools(input, { flavors: ['openai-harmony', 'chat-template'] }) : undefined;
  return { api, tokens, ts, normalizeGemini: (s) => normalizeGeminiSchema(s).schema, ...(faithful ? { faithful } : {}), ...(lint ? { lint } : {}) };
}

/** The seed of chunk k of a run (a 32-bit mix of both, so nearby run seeds share no chunk). */
function chunkSeedOf(seed, k) {
  let h = (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(k + 1, 0xc2b2ae35)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
  return (h ^ (h >>> 16)) >>> 1;
}

/** Run chunks `first, first + step, …` below `chunks`; post results to the parent (or return them). */
async function runChunks({ dist, seed, runs, chunk, first, step, chunkSeed }, post) {
  const fc = (await import('fast-check')).default;
  const { caseArb, modelToText } = await import('../test/hardening/arbitraries.mjs');
  const { checkSample, knownIssue } = await import('../test/hardening/properties.mjs');
  const lib = await loadLib(dist);
  const chunks = Math.ceil(runs / chunk);
  for (let k = first; k < chunks; k += step) {
    const n = Math.min(chunk, runs - k * chunk);
    const known = {};
    let renders = 0;
    let failure;
    const started = performance.now();
    const r = fc.check(
      fc.property(caseArb(), (c) => {
        try {
          renders += checkSample(lib, c.sample, c).renders;
          return true;
        } catch (e) {
          const issue = knownIssue(String(e?.message));
          if (issue) {
            known[issue.id] = (known[issue.id] ?? 0) + 1;
            return true;
          }
          failure = e;
          return false;
        }
      }),
      { seed: chunkSeed ?? chunkSeedOf(seed, k), numRuns: n },
    );
    const result = { chunk: k, seed: chunkSeed ?? chunkSeedOf(seed, k), cases: r.numRuns, renders, ms: performance.now() - started, known };
    if (r.failed) {
      const c = r.counterexample[0];
      let again;
      try {
        checkSample(lib, c.sample, c);
      } catch (e) {
        again = e;
      }
      const e = again ?? failure ?? r.errorInstance;
      result.failure = {
        message: String(e?.message ?? r.error),
        input: modelToText(c.sample.model),
        policy: c.policy,
        part: c.part,
        pick: c.pick,
        path: r.counterexamplePath,
        details: JSON.stringify(e?.details ?? {}).slice(0, 4000),
      };
      // the shrinking replays count as cases too, but not as distinct ones: report what fast-check ran
    }
    post(result);
  }
}

function category(message) {
  return message.replace(/"(?:[^"\\]|\\.)*"/g, '"…"').replace(/\/[^\s,)]*/g, '/…').replace(/\d+/g, '#').slice(0, 160);
}

async function main() {
  const o = options();
  if (!existsSync(resolve(o.dist, 'index.js'))) {
    process.stderr.write(`fuzz: ${o.dist}/index.js is missing: building (npm run build)\n`);
    execSync('npm run build', { cwd: ROOT, stdio: 'inherit' });
  }
  const t0 = performance.now();
  const totals = { cases: 0, renders: 0, chunks: 0, known: {}, failures: [] };
  if (o.chunkSeed !== undefined) o.runs = Math.min(o.runs, o.chunk);
  const chunks = Math.ceil(o.runs / o.chunk);
  let lastPrint = 0;
  const onResult = (r) => {
    totals.cases += r.cases;
    totals.renders += r.renders;
    totals.chunks++;
    for (const [id, n] of Object.entries(r.known)) totals.known[id] = (totals.known[id] ?? 0) + n;
    if (r.failure) {
      totals.failures.push({ ...r.failure, seed: r.seed });
      process.stdout.write(`\nFAILURE (chunk seed ${r.seed}, path ${r.failure.path}): ${r.failure.message}\n  policy ${r.failure.policy}, part ${r.failure.part}, pick ${r.failure.pick}\n  input ${r.failure.input.slice(0, 2000)}\n`);
    }
    const now = performance.now();
    if (!o.quiet && (now - lastPrint > 30000 || totals.chunks === chunks)) {
      lastPrint = now;
      const s = (now - t0) / 1000;
      process.stdout.write(`[${s.toFixed(0)} s] ${totals.cases} cases (${totals.chunks}/${chunks} chunks), ${(totals.cases / s).toFixed(0)} cases/s, ${totals.failures.length} failures\n`);
    }
  };
  process.stdout.write(`fuzz: ${o.runs} cases, seed ${o.chunkSeed !== undefined ? `(one chunk) ${o.chunkSeed}` : o.seed}, ${o.workers} worker(s), chunks of ${o.chunk}, library ${o.dist}\n`);
  if (o.workers === 1 || o.chunkSeed !== undefined) await runChunks({ ...o, first: 0, step: 1 }, onResult);
  else {
    await Promise.all(
      Array.from({ length: o.workers }, (_, w) =>
        new Promise((done, fail) => {
          const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { dist: o.dist, seed: o.seed, runs: o.runs, chunk: o.chunk, first: w, step: o.workers, chunkSeed: undefined } });
          worker.on('message', onResult);
          worker.on('error', fail);
          worker.on('exit', (code) => (code === 0 ? done() : fail(new Error(`worker ${w} exited with ${code}`))));
        }),
      ),
    );
  }
  const seconds = (performance.now() - t0) / 1000;
  const distinct = new Map();
  for (const f of totals.failures) distinct.set(category(f.message), [...(distinct.get(category(f.message)) ?? []), f]);
  process.stdout.write(
    [
      '',
      '== fuzz summary',
      `seed        ${o.chunkSeed !== undefined ? `chunk seed ${o.chunkSeed}` : `${o.seed} (${o.chunk} cases a chunk, each with its own seed, a hash of the seed and the chunk's index)`}`,
      `cases       ${totals.cases}`,
      `renders     ${totals.renders}`,
      `time        ${seconds.toFixed(1)} s (${(totals.cases / seconds).toFixed(0)} cases/s, ${o.workers} worker(s))`,
      `failures    ${totals.failures.length} (${distinct.size} distinct)`,
      ...[...distinct].map(([c, fs]) => `  ${fs.length}× ${c}  [first: chunk seed ${fs[0].seed}]`),
      `known open  ${Object.entries(totals.known).map(([id, n]) => `${id} ${n}×`).join(', ') || 'none'}`,
      '',
    ].join('\n'),
  );
  process.exitCode = totals.failures.length ? 1 : 0;
}

if (isMainThread) {
  main().catch((e) => {
    process.stderr.write(`fuzz: ${e?.stack ?? e}\n`);
    process.exitCode = 2;
  });
} else {
  runChunks(workerData, (r) => parentPort.postMessage(r)).catch((e) => {
    parentPort.postMessage({ chunk: -1, seed: -1, cases: 0, renders: 0, ms: 0, known: {}, failure: { message: `worker crashed: ${e?.stack ?? e}`, input: '', policy: '', part: '', pick: 0, path: '', details: '' } });
  });
}
