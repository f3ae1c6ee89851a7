// Benchmark of the core pipeline on the shared corpus (not a test), today's code beside a baseline.
//   npm run bench                              (builds first when dist/ is missing)
//   BASELINE_REF=<commit> npm run bench        (default a83a464, the code before issue 12)
//   BENCH_ROUNDS=7 npm run bench -- --no-suites   (more rounds; skip timing the vitest oracle suites)
//
// The baseline is built from `git archive <ref>` in a temp directory (kept per commit for the next
// run) with this checkout's node_modules. Each side-by-side figure is measured in rounds: a child
// process of the baseline, then one of today's code, each timing the work RUNS times after warm-up
// (a minor GC before each run) and reporting its median; the ratio printed is the median of the
// rounds' ratios, so a machine that gets busier or quieter during the run slows both sides alike.
// Every figure is a median; each ratio is printed beside its target.
//
// - cold: renderCatalog(readTools(objects)) on the 2,000 corpus tools as one catalog, phase by phase;
// - repeated: the same tools rendered again, read once from objects, and from the same JSON text;
// - CLI: a small render and the 2,000-tool render against bare `node -e 0`, each command spawned;
// - nothing slower: lint, the inventory (dump), the oracle sets rendered, the vitest oracle suites;
// - peers: @huggingface/jinja on the official chat template (same bytes); node-llama-cpp's HarmonyChatWrapper
//   on the openai-harmony catalog (bench/peers, installed on first use with --ignore-scripts).
import { alternate, baselineBuild, corpusCatalog, median } from './support.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const self = fileURLToPath(import.meta.url);
const shared = process.env.SHARED_DIR ?? resolve(root, '../shared');
const corpusPath = join(shared, 'corpus/tools.jsonl');
if (!existsSync(corpusPath)) {
  console.error(`bench: ${corpusPath} not found (set SHARED_DIR); nothing measured`);
  process.exit(1);
}
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const load = (dir, p) => import(pathToFileURL(join(dir, 'dist', p)).href);
const { text: catalogText, count: N } = corpusCatalog(corpusPath);

/** The oracle sets' tool lists as JSON text (a line that is not JSON is handed over as it is). */
function oracleSets() {
  return ['oracles/inputs/corpus-single.jsonl', 'oracles/inputs/corpus-groups.jsonl', 'oracles/synthetic/visible/inputs.jsonl'].map((p) =>
    readFileSync(join(shared, p), 'utf8').split('\n').filter(Boolean).map((line) => /"tools"\s*:\s*(\[.*\])\s*(?:,\s*"instructions"|\}\s*$)/.exec(line)?.[1] ?? line),
  );
}

/** The corpus tools with each repeated name suffixed `_2`, `_3`… (node-llama-cpp keys functions by name). */
function uniqueNames(tools) {
  const seen = new Map();
  return tools.map((t) => {
    const k = (seen.get(t.name) ?? 0) + 1;
    seen.set(t.name, k);
    return { ...t, name: k === 1 ? t.name : `${t.name}_${k}` };
  });
}
/** node-llama-cpp's functions object for these tools. */
const llamaFunctions = (tools) => Object.fromEntries(tools.map((t) => [t.name, { description: t.description, params: t.parameters }]));

/** The work measured side by side: each makes, from one build, the function to time. */
const WORK = {
  // node-llama-cpp takes functions as an object keyed by name: the corpus's repeated names get a suffix, on both sides
  async 'peer-ours'(dir) {
    const lib = await load(dir, 'index.js');
    const unique = uniqueNames(JSON.parse(catalogText));
    return () => lib.renderCatalog(lib.readTools(unique));
  },
  async 'peer-node-llama-cpp'(peers) {
    const { HarmonyChatWrapper } = await import(pathToFileURL(join(peers, 'node_modules/node-llama-cpp/dist/index.js')).href);
    const functions = llamaFunctions(uniqueNames(JSON.parse(catalogText)));
    const wrapper = new HarmonyChatWrapper();
    return () => wrapper.generateAvailableFunctionsSystemText(functions, { documentParams: true }).toString();
  },
  async 'cold-objects'(dir) {
    const lib = await load(dir, 'index.js');
    const objects = JSON.parse(catalogText);
    return () => lib.renderCatalog(lib.readTools(objects));
  },
  async 'cold-text'(dir) {
    const lib = await load(dir, 'index.js');
    return () => lib.renderCatalog(lib.readTools(catalogText));
  },
  async 'read-objects'(dir) {
    const lib = await load(dir, 'index.js');
    const objects = JSON.parse(catalogText);
    return () => lib.readTools(objects);
  },
  async 'read-text'(dir) {
    const lib = await load(dir, 'index.js');
    return () => lib.readTools(catalogText);
  },
  async parse(dir) {
    const lib = await load(dir, 'index.js');
    return () => lib.parseJson(catalogText);
  },
  async compile(dir) {
    const lib = await load(dir, 'index.js');
    const objects = JSON.parse(catalogText);
    // a fresh read each run (read results are cached on), not timed
    let read = lib.readTools(objects);
    return { before: () => (read = lib.readTools(objects)), run: () => lib.compileTools(read) };
  },
  async prepass(dir) {
    // the lowering's pre-pass alone (the baseline's: each schema copied to plain objects, walked by json-schema-traverse)
    const lib = await load(dir, 'index.js');
    const { prepass } = await load(dir, 'lower/prepass.js');
    const { LowerContext } = await load(dir, 'lower/context.js');
    const schemas = lib.readTools(catalogText).tools.map((t) => t.parameters).filter((p) => p !== undefined && p !== null);
    return () => {
      for (const s of schemas) prepass(s, new LowerContext(s, {}));
    };
  },
  async emit(dir) {
    const lib = await load(dir, 'index.js');
    const { emitHarmonyToolsSection } = await load(dir, 'emit/harmony/catalog.js');
    const ns = [{ name: 'functions', tools: lib.compileTools(lib.readTools(catalogText)).tools }];
    return () => emitHarmonyToolsSection(ns);
  },
  async lint(dir) {
    const lib = await load(dir, 'index.js');
    return () => lib.lintTools(catalogText);
  },
  async inventory(dir) {
    const lib = await load(dir, 'index.js');
    return () => lib.inventory(catalogText);
  },
  async 'prompt-tokens'(dir) {
    // today's inventory also counts the whole prompt's tokens (36f0fc1): that count alone
    const lib = await load(dir, 'index.js');
    const { countPromptTokens } = await load(dir, 'tokens.js');
    const prompt = lib.renderPart(lib.readTools(catalogText), { part: 'prompt' }).text;
    return () => countPromptTokens(prompt);
  },
  async oracle(dir) {
    const lib = await load(dir, 'index.js');
    const sets = oracleSets();
    const printers = [{}, { flavor: 'chat-template' }, { target: 'xml', dialect: 'qwen' }, { target: 'xml', dialect: 'qwen3-coder' }, { target: 'xml', dialect: 'hermes' }];
    return () => {
      for (const set of sets) {
        for (const tools of set) {
          for (const o of printers) {
            try {
              lib.renderCatalog(tools, o);
            } catch {
              // some inputs every printer refuses; refusing is work too
            }
          }
        }
      }
    };
  },
};

// ---------------------------------------------------------------------------------------
// A child: time one piece of work of one build, print its median.
if (process.argv[2] === '--child') {
  const [dir, name, runs] = process.argv.slice(3);
  const made = await WORK[name](dir);
  const { before, run } = typeof made === 'function' ? { before: undefined, run: made } : made;
  const gc = globalThis.gc;
  const xs = [];
  for (let r = 0; r < 3 + Number(runs); r++) {
    before?.();
    gc?.({ type: 'minor' });
    const t0 = process.hrtime.bigint();
    await run();
    if (r >= 3) xs.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  process.stdout.write(JSON.stringify(median(xs)));
  process.exit(0);
}

// ---------------------------------------------------------------------------------------
if (!existsSync(join(root, 'dist/index.js'))) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
const REF = process.env.BASELINE_REF ?? 'a83a464';
const SUITES = !process.argv.includes('--no-suites');
const base = baselineBuild(root, REF);
const now = await load(root, 'index.js');
const old = await load(base.dir, 'index.js');
const objects = JSON.parse(catalogText);

/** One piece of work in rounds of a baseline child and a today child: the medians, and the median of the rounds' ratios. */
function sideBySide(name, { rounds = ROUNDS, runs = RUNS, nowOnly = false, against = undefined } = {}) {
  const child = (dir, work = name) => {
    const r = spawnSync(process.execPath, ['--expose-gc', self, '--child', dir, work, String(runs)], { encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, SHARED_DIR: shared } });
    if (r.status !== 0) throw new Error(`bench child ${work} (${dir}): ${r.stderr}`);
    return Number(r.stdout);
  };
  const b = [];
  const n = [];
  for (let k = 0; k < rounds; k++) {
    // against: [dir, work] timed in the baseline's place (a peer)
    if (!nowOnly) b.push(against ? child(...against) : child(base.dir));
    n.push(child(root));
  }
  return { b: nowOnly ? NaN : median(b), n: median(n), ratio: nowOnly ? NaN : median(b.map((x, k) => x / n[k])) };
}

const pad = (s, n) => String(s).padEnd(n);
const ms = (x) => (x >= 10 ? x.toFixed(1) : x >= 0.1 ? x.toFixed(2) : x.toFixed(4)).padStart(9);
const results = [];
/** One row: what, baseline ms, today's ms, the ratio (baseline / today), and the target with its verdict. */
function row(what, b, n, ratio, target = '', ok = undefined) {
  const r = ratio !== undefined ? `${ratio.toFixed(2)}×` : '';
  const verdict = ok === undefined ? '' : ok ? '  met' : '  NOT MET';
  console.log(`${pad(what, 60)}${b !== undefined ? ms(b) : ''.padStart(9)} ${ms(n)}  ${r.padStart(8)}  ${target}${verdict}`);
  if (ok !== undefined) results.push({ what, ok });
}
const side = (what, name, target, okOf, options) => {
  const s = sideBySide(name, options);
  row(what, s.b, s.n, s.ratio, target, okOf?.(s.ratio));
};
const section = (title) => console.log(`\n${title}\n${pad('', 60)}${'baseline'.padStart(9)} ${'now'.padStart(9)}  ${'ratio'.padStart(8)}  target`);

console.log(`harmony-catalog bench: ${N} corpus tools as one catalog (${catalogText.length} characters of JSON); node ${process.version}`);
console.log(`baseline ${REF} (${base.sha.slice(0, 12)}, built in ${base.dir}) beside today's tree`);
console.log(`side by side: ${ROUNDS} rounds of a baseline process and a today process, ${RUNS} runs each after warm-up, a minor GC before each run; ratio = median of the rounds' baseline/now`);
console.log(`load average at start ${loadavg().map((x) => x.toFixed(1)).join(' ')} (${process.env.BENCH_NOTE ?? 'on a shared machine every figure is noisier; the ratios are taken round by round'})`);

// ---------------------------------------------------------------------------------------
section('cold: every call reads, lowers and prints (ms)');
side('renderCatalog(readTools(objects)), 2,000 tools', 'cold-objects', '≥ 1.5× faster', (r) => r >= 1.5);
side('renderCatalog(readTools(JSON text))', 'cold-text');
side('  read objects (convert, check shapes)', 'read-objects');
side('  read JSON text (parse, check shapes)', 'read-text');
side('    of which the lossless parse', 'parse');
side('  compile (control tokens, pre-pass, lower)', 'compile');
side('    of which the pre-pass (baseline: json-schema-traverse on a plain copy)', 'prepass');
side(`  print the openai-harmony catalog (${now.renderCatalog(catalogText).text.length} chars)`, 'emit');
console.log(`  (the two builds print ${old.renderCatalog(catalogText).text === now.renderCatalog(catalogText).text ? 'the same bytes' : 'DIFFERENT BYTES'} for the corpus)`);

// ---------------------------------------------------------------------------------------
section('repeated: the same tools rendered again, in this process (ms)');
{
  const oldRead = old.readTools(objects);
  const nowRead = now.readTools(objects);
  const many = { runs: 200, warmup: 2 };
  // the baseline keeps nothing: each of its renders is a cold one
  const [b] = await alternate([() => old.renderCatalog(oldRead)], { runs: RUNS });
  const [n] = await alternate([() => now.renderCatalog(nowRead)], many);
  row('renderCatalog(read) again, read = readTools(objects) once', b, n, b / n, '≤ 1 ms', n <= 1);
  const [bt] = await alternate([() => old.renderCatalog(catalogText)], { runs: RUNS });
  const [nt] = await alternate([() => now.renderCatalog(catalogText)], many);
  row('renderCatalog(the same JSON text) again', bt, nt, bt / nt, '≤ 1 ms', nt <= 1);
  // a server that reads the file again each time: another string, the same text
  const copies = Array.from({ length: 8 }, (_, k) => `${' '.repeat(k % 2)}${catalogText}`.slice(k % 2));
  copies.forEach((c) => c.charCodeAt(c.length - 1));
  let k = 0;
  const [nc] = await alternate([() => now.renderCatalog(copies[k++ % copies.length])], many);
  row('renderCatalog(another string of the same text) again', undefined, nc, undefined, '≤ 1 ms', nc <= 1);
  const [nd] = await alternate([() => now.renderDeveloperMessage(nowRead)], many);
  row('renderDeveloperMessage(read) again', undefined, nd);
  const renderable = JSON.stringify(objects.filter((t) => {
    try {
      now.renderCatalog([t], { flavor: 'chat-template' });
      return true;
    } catch {
      return false;
    }
  }));
  const [nct] = await alternate([() => now.renderCatalog(renderable, { flavor: 'chat-template' })], many);
  row('renderCatalog(the same text, chat-template) again', undefined, nct);
  const messages = [{ role: 'user', content: 'What is the weather?' }];
  const [bpr, npr] = await alternate([() => old.renderPrompt({ tools: oldRead, messages }), () => now.renderPrompt({ tools: nowRead, messages })], { runs: RUNS });
  row('renderPrompt({tools: read, chat messages}) again (vLLM profile)', bpr, npr, bpr / npr, '(the profile keeps the tools\' print)');
  // the other servers, on the tools every profile renders (the template raises on some corpus tools)
  const servable = now.readTools(JSON.parse(renderable));
  for (const server of ['transformers', 'llama.cpp', 'mlx-lm', 'ollama']) {
    const [ns] = await alternate([() => now.renderPrompt({ tools: servable, messages, server })], many);
    row(`  the same through ${server} again`, undefined, ns);
  }
}

// ---------------------------------------------------------------------------------------
section('nothing slower: the other workloads (ms)');
side('lint (lintTools, both flavors), 2,000 tools', 'lint', 'no slower', (r) => r >= 0.95, { runs: 5 });
{
  const inv = sideBySide('inventory', { runs: 3 });
  row('dump (inventory: render, tokens, shares), 2,000 tools', inv.b, inv.n, inv.ratio);
  // the baseline's inventory did not count the whole prompt; today's does: the same work is today's less that count
  const { countPromptTokens } = await load(root, 'tokens.js');
  const { countPromptTokens: baseHas } = await load(base.dir, 'tokens.js');
  if (countPromptTokens !== undefined && baseHas === undefined) {
    const p = sideBySide('prompt-tokens', { rounds: 3, runs: 3, nowOnly: true }).n;
    row(`  the baseline's work (less today's whole-prompt count, ${p.toFixed(0)} ms)`, inv.b, inv.n - p, inv.b / (inv.n - p), 'no slower', inv.b / (inv.n - p) >= 0.95);
  } else results.push({ what: 'dump (inventory)', ok: inv.ratio >= 0.95 });
}
side(`oracle sets rendered: ${oracleSets().reduce((a, s) => a + s.length, 0)} cases × 5 printers`, 'oracle', 'no slower', (r) => r >= 0.95, { runs: 3 });
if (SUITES) {
  const files = readdirSync(join(root, 'test/oracle')).filter((f) => f.endsWith('.test.ts') && existsSync(join(base.dir, 'test/oracle', f)));
  const vitest = (dir, clear = false) => () => {
    // clear: today's tree with its transform cache (vitest's experimental.fsModuleCache) emptied
    // first, outside the time, as on a fresh clone; the baseline has no such cache
    if (clear) spawnSync(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), '--clearCache'], { cwd: dir, encoding: 'utf8' });
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...files.map((f) => `test/oracle/${f}`)], { cwd: dir, env: { ...process.env, SHARED_DIR: shared }, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`vitest in ${dir}: ${r.stdout.slice(-2000)}${r.stderr.slice(-2000)}`);
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  const runsOf = { b: [], cold: [], warm: [] };
  for (let i = 0; i < 5; i++) {
    runsOf.b.push(vitest(base.dir)());
    runsOf.cold.push(vitest(root, true)());
    runsOf.warm.push(vitest(root)());
  }
  const [bs, cs, ws] = [runsOf.b, runsOf.cold, runsOf.warm].map(median);
  const suites = `vitest ${files.map((f) => f.replace('.test.ts', '')).join(', ')}`;
  row(`${suites}, transform cache warm`, bs, ws, bs / ws, 'no slower', ws <= bs * 1.05);
  row(`  the same from an empty transform cache (a fresh clone, CI)`, bs, cs, bs / cs);
}
{
  // importing the library in a fresh node (what every user of the API pays once): the file each tree's package.json exports
  const imp = (dir) => () => {
    const entry = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).exports['.'].import;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(join(dir, entry)).href)}); console.log(performance.now() - t);`], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    return Number(r.stdout);
  };
  const xs = { b: [], n: [] };
  for (let i = 0; i < 15; i++) xs.b.push(imp(base.dir)()), xs.n.push(imp(root)());
  const [b, n] = [median(xs.b), median(xs.n)];
  row("import the library (the package's export) in a fresh node", b, n, b / n, 'no slower', n <= b * 1.05);
}

// ---------------------------------------------------------------------------------------
console.log('\nCLI end to end, each command spawned in turn with bare `node -e 0` (ms; ratio = to bare node)');
{
  const dir = mkdtempSync(join(tmpdir(), 'hc-bench-'));
  const file = join(dir, 'corpus.json');
  writeFileSync(file, catalogText);
  const binOf = (d) => join(d, JSON.parse(readFileSync(join(d, 'package.json'), 'utf8')).bin['harmony-catalog']);
  const nowCli = binOf(root);
  const oldCli = binOf(base.dir);
  const small = ['render', join(root, 'examples/weather.json'), '--part', 'catalog'];
  const big = ['render', file, '--part', 'catalog', '--quiet'];
  const spawnOk = (args) => () => {
    const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
    if (r.status !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`);
  };
  const [bare, os, ns, ob, nb] = await alternate([spawnOk(['-e', '0']), spawnOk([oldCli, ...small]), spawnOk([nowCli, ...small]), spawnOk([oldCli, ...big]), spawnOk([nowCli, ...big])], { runs: Math.max(15, RUNS), warmup: 2 });
  console.log(`${pad('bare `node -e 0`', 60)}${ms(bare)}`);
  console.log(`${pad('', 60)}${'baseline'.padStart(9)} ${'now'.padStart(9)}  ${'now/bare'.padStart(8)}  target`);
  const cli = (what, b, n, limit) => {
    const r = n / bare;
    console.log(`${pad(what, 60)}${ms(b)} ${ms(n)}  ${`${r.toFixed(2)}×`.padStart(8)}  ≤ ${limit}× bare node (baseline ${(b / bare).toFixed(2)}×)${r <= limit ? '  met' : '  NOT MET'}`);
    results.push({ what, ok: r <= limit });
  };
  cli('CLI small render (examples/weather.json, catalog)', os, ns, 1.7);
  cli('CLI 2,000-tool render (catalog)', ob, nb, 4);
  console.log(`  (now: ${nowCli.slice(root.length + 1)}; baseline: ${oldCli.slice(base.dir.length + 1)})`);
}

// ---------------------------------------------------------------------------------------
console.log('\npeers, same run');
try {
  const { Template } = await import('@huggingface/jinja');
  const tpl = new Template(readFileSync(join(shared, 'oracles/chat-template/chat_template.jinja'), 'utf8'));
  // only the tools both render alone: the template raises on 24 corpus tools under Jinja2, @huggingface/jinja crashes on a few others
  const renderable = objects.filter((t) => {
    try {
      now.renderCatalog([t], { flavor: 'chat-template' });
      tpl.render({ messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: t }], add_generation_prompt: true });
      return true;
    } catch {
      return false;
    }
  });
  const ctx = { messages: [{ role: 'user', content: 'hi' }], tools: renderable.map((t) => ({ type: 'function', function: t })), add_generation_prompt: true };
  const options = { flavor: 'chat-template', date: new Date().toISOString().slice(0, 10), messages: [{ role: 'user', content: 'hi' }], completion: 'assistant' };
  const theirs = tpl.render(ctx);
  const ours = now.renderPrompt({ ...options, tools: renderable }).text;
  const [o, t] = await alternate([() => now.renderPrompt({ ...options, tools: now.readTools(renderable) }), () => tpl.render(ctx)], { runs: RUNS });
  console.log(`${pad(`chat-template prompt, ${renderable.length} tools: ours (cold) / @huggingface/jinja`, 60)}${ms(o)} ${ms(t)}  ${`${(t / o).toFixed(2)}×`.padStart(8)}  ${theirs === ours ? 'same bytes' : 'differs from Jinja2 (see chat-template/js-jinja-differs)'}`);
} catch (e) {
  console.log(`@huggingface/jinja not run: ${e.message}`);
}
{
  // node-llama-cpp's Harmony renderer (HarmonyChatWrapper), a peer of the bench only: bench/peers/package.json,
  // installed on first use with --ignore-scripts --omit=optional (its install script and its optional packages
  // fetch or hold llama.cpp binaries; the chat wrappers are plain JavaScript and need neither)
  const peers = join(root, 'bench/peers');
  const entry = join(peers, 'node_modules/node-llama-cpp/dist/index.js');
  if (!existsSync(entry)) {
    const r = spawnSync('npm', ['install', '--ignore-scripts', '--omit=optional', '--no-audit', '--no-fund', '--silent'], { cwd: peers, encoding: 'utf8' });
    if (r.status !== 0) console.log(`node-llama-cpp: not run (npm install in bench/peers failed: ${r.stderr.trim().split('\n').pop()})`);
  }
  if (existsSync(entry)) {
    const { HarmonyChatWrapper } = await import(pathToFileURL(entry).href);
    const version = JSON.parse(readFileSync(join(peers, 'node_modules/node-llama-cpp/package.json'), 'utf8')).version;
    const unique = uniqueNames(objects);
    const functions = llamaFunctions(unique);
    const wrapper = new HarmonyChatWrapper();
    const theirs = (fns) => wrapper.generateAvailableFunctionsSystemText(fns, { documentParams: true }).toString();
    // timed as the baseline is: rounds of a fresh process of each, each side's median, the median of the rounds' ratios
    const timed = sideBySide('peer-ours', { against: [peers, 'peer-node-llama-cpp'], runs: Math.max(15, RUNS) });
    const [o, t, ratio] = [timed.n, timed.b, 1 / timed.ratio];
    // the bytes, tool by tool: its catalog of one tool beside ours
    let same = 0;
    for (const tool of unique) {
      try {
        if (theirs({ [tool.name]: functions[tool.name] }) === now.renderCatalog([tool]).text) same++;
      } catch {
        // a tool we refuse is not the same bytes
      }
    }
    console.log(`${pad(`openai-harmony catalog, ${unique.length} tools: ours (cold, from objects) / node-llama-cpp ${version}`, 60)}${ms(o)} ${ms(t)}  ${`${ratio.toFixed(2)}×`.padStart(8)}  ≤ 1.5× node-llama-cpp's time${ratio <= 1.5 ? '  met' : '  NOT MET'}; it prints openai-harmony's bytes for ${same}/${unique.length} tools`);
    results.push({ what: 'cold render vs node-llama-cpp', ok: ratio <= 1.5 });
  }
}

console.log(`\nload average at end ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
const missed = results.filter((r) => !r.ok);
console.log(missed.length ? `targets not met: ${missed.map((r) => r.what).join('; ')}` : `every target met (${results.length})`);
