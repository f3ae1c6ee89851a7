// Each model's own tokenizer (src/tokenizers, issue 23): load time per tokenizer.json and encode
// throughput on the oracle prompts of each tokenizer, beside the project's o200k BPE (the built-in
// gpt-oss encoder) on gpt-oss's prompts. Not a test: it prints medians.
//   node --expose-gc bench/tokenizers.mjs
//   BENCH_RUNS=9 node --expose-gc bench/tokenizers.mjs      (more runs per figure; default 5)
//   HC_DIST=dist node bench/tokenizers.mjs                  (tsc's build of src/tokenizers instead of src/ bundled here)
//
// The tokenizer files are ../shared/oracles/tokens/tokenizers/<name>/tokenizer.json.gz, gunzipped into a
// temp folder (removed at the end). Without HC_DIST, src/tokenizers is bundled by esbuild into that
// folder first (the same code the tests run). Figures:
// - load: tokenizerFromJson(file bytes), uncached: JSON.parse, vocabulary, merges, added tokens (median);
//   then loadTokenizer(path) once (cold) and again (the per-file cache: path, mtime, size). gpt-oss's
//   official file is known by its sha256 and read as the built-in encoder (sha256 only); its generic
//   load (HfTokenizer) is shown beside, for comparison;
// - encode: all prompts of the tokenizer's cases (text_ref rows: 300 rendered prompts; Gemma 3 has
//   none, so Llama 3.1's 300 are used), each encoded once: the first pass on a fresh tokenizer (word
//   cache empty) and the median of later passes (cache warm); MB/s of UTF-8 and tokens per second.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { median } from './support.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const shared = process.env.SHARED_DIR ?? resolve(root, '../shared');
const oracle = join(shared, 'oracles', 'tokens');
if (!existsSync(join(oracle, 'manifest.json'))) {
  console.error(`bench: ${oracle} not found (set SHARED_DIR); nothing measured`);
  process.exit(1);
}
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const NAMES = ['llama3_1', 'qwen3', 'deepseek_v3', 'gemma3', 'gptoss'];
const gc = globalThis.gc ?? (() => {});
const tmp = mkdtempSync(join(tmpdir(), 'hc-bench-tokenizers-'));

try {
  const lib = await loadLibrary();
  const manifest = JSON.parse(readFileSync(join(oracle, 'manifest.json'), 'utf8'));

  // the texts: each tokenizer's rendered prompts (text_ref rows)
  const promptFiles = new Map();
  const promptOf = (ref) => {
    let rows = promptFiles.get(ref.file);
    if (!rows) {
      rows = new Map();
      for (const line of readFileSync(join(shared, 'oracles', ref.file), 'utf8').split('\n')) {
        if (!line.trim()) continue;
        const r = JSON.parse(line);
        if (typeof r.prompt === 'string') rows.set(r.id, r.prompt);
      }
      promptFiles.set(ref.file, rows);
    }
    return rows.get(ref.id);
  };
  const prompts = (name) =>
    readFileSync(join(oracle, `cases-${name}.jsonl`), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l))
      .filter((c) => c.text_ref)
      .map((c) => promptOf(c.text_ref));

  console.log(`harmony-catalog tokenizer bench: median of ${RUNS} runs; node ${process.version}; ${process.env.HC_DIST ? `HC_DIST=${process.env.HC_DIST}` : 'src/ bundled by esbuild'}\n`);
  console.log('load'.padEnd(14) + 'file MB'.padStart(9) + 'parse+build ms'.padStart(16) + 'loadTokenizer cold ms'.padStart(23) + 'cached µs'.padStart(11));
  const files = {};
  gc();
  const memory = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const heapBefore = memory();
  for (const name of NAMES) {
    const dir = join(tmp, name);
    mkdirSync(dir);
    const path = join(dir, 'tokenizer.json');
    writeFileSync(path, gunzipSync(readFileSync(join(oracle, 'tokenizers', name, 'tokenizer.json.gz'))));
    files[name] = path;
    const bytes = readFileSync(path);
    const xs = [];
    for (let i = 0; i < RUNS; i++) {
      gc();
      const t0 = performance.now();
      lib.tokenizerFromJson(bytes);
      xs.push(performance.now() - t0);
    }
    gc();
    const t0 = performance.now();
    const t = lib.loadTokenizer(path);
    const cold = performance.now() - t0;
    const t1 = performance.now();
    lib.loadTokenizer(path);
    const cached = (performance.now() - t1) * 1000;
    if (t.sha256 !== manifest.tokenizers[name].sha256) throw new Error(`${name}: sha256 ${t.sha256}, manifest ${manifest.tokenizers[name].sha256}`);
    console.log(name.padEnd(14) + (bytes.length / 1e6).toFixed(1).padStart(9) + median(xs).toFixed(0).padStart(16) + cold.toFixed(0).padStart(23) + cached.toFixed(0).padStart(11));
  }
  // gpt-oss's own file is recognised by its sha256 and encoded by the built-in BPE (no parse): its generic load, for comparison
  const ys = [];
  for (let i = 0; i < RUNS; i++) {
    gc();
    const t0 = performance.now();
    lib.HfTokenizer.fromJson(JSON.parse(readFileSync(files.gptoss, 'utf8')));
    ys.push(performance.now() - t0);
  }
  console.log(`${'gptoss generic'.padEnd(14)}${(readFileSync(files.gptoss).length / 1e6).toFixed(1).padStart(9)}${median(ys).toFixed(0).padStart(16)}${'(not used: the built-in encoder reads that file)'.padStart(50)}`);
  gc();
  console.log(`(the five loaded tokenizers, held by the per-file cache: ${((memory() - heapBefore) / 1e6).toFixed(0)} MB of heap and array buffers${globalThis.gc ? '' : '; run with --expose-gc for a figure after collection'})`);

  console.log(`\n${'encode'.padEnd(44)}${'texts'.padStart(6)}${'MB'.padStart(7)}${'tokens'.padStart(9)}${'first ms'.padStart(10)}${'warm ms'.padStart(9)}${'warm MB/s'.padStart(11)}${'warm Mtok/s'.padStart(13)}`);
  const row = (label, encoder, texts) => {
    const mb = texts.reduce((n, s) => n + Buffer.byteLength(s, 'utf8'), 0) / 1e6;
    const pass = () => {
      let n = 0;
      for (const s of texts) n += encoder(s).length;
      return n;
    };
    gc();
    const t0 = performance.now();
    const tokens = pass();
    const first = performance.now() - t0;
    const xs = [];
    for (let i = 0; i < RUNS; i++) {
      gc();
      const t = performance.now();
      pass();
      xs.push(performance.now() - t);
    }
    const warm = median(xs);
    console.log(`${label.padEnd(44)}${String(texts.length).padStart(6)}${mb.toFixed(2).padStart(7)}${String(tokens).padStart(9)}${first.toFixed(0).padStart(10)}${warm.toFixed(0).padStart(9)}${(mb / (warm / 1000)).toFixed(1).padStart(11)}${(tokens / 1e6 / (warm / 1000)).toFixed(2).padStart(13)}`);
  };
  for (const name of NAMES) {
    const own = name === 'gemma3' ? prompts('llama3_1') : prompts(name);
    // a fresh tokenizer (empty word cache): from the bytes, not the per-file cache
    const t = lib.tokenizerFromJson(readFileSync(files[name]));
    row(`${name} tokenizer.json${name === 'gemma3' ? " (llama3_1's prompts)" : ''}`, (s) => t.encode(s), own);
  }
  const gptPrompts = prompts('gptoss');
  const generic = lib.HfTokenizer.fromJson(JSON.parse(readFileSync(files.gptoss, 'utf8')));
  row('gptoss tokenizer.json, generic engine', (s) => generic.encode(s), gptPrompts);
  row('gpt-oss built in (project o200k BPE)', (s) => lib.GPT_OSS_TOKENIZER.encode(s), gptPrompts);
  row('gpt-oss built in, count only', (s) => ({ length: lib.GPT_OSS_TOKENIZER.count(s) }), gptPrompts);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

/** src/tokenizers as a module: HC_DIST's tsc build, else src/ bundled by esbuild into the temp folder. */
async function loadLibrary() {
  if (process.env.HC_DIST) {
    const built = join(resolve(process.env.HC_DIST), 'tokenizers', 'index.js');
    if (!existsSync(built)) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    const { HfTokenizer } = await import(pathToFileURL(join(dirname(built), 'hf.js')).href);
    return { ...(await import(pathToFileURL(built).href)), HfTokenizer };
  }
  const { build } = await import('esbuild');
  const out = join(tmp, 'tokenizers.mjs');
  await build({
    stdin: { contents: "export * from './src/tokenizers/index.ts';\nexport { HfTokenizer } from './src/tokenizers/hf.ts';\n", resolveDir: root, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: out,
    logLevel: 'warning',
    // o200k-ranks.ts loads gpt-tokenizer's data with createRequire(import.meta.url): resolve it from src/
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(join(root, 'src', 'o200k-ranks.ts')).href) },
  });
  return import(pathToFileURL(out).href);
}

// A repeated count of the same catalog (what dump and the report do again for a compiled tool set,
// whose print cache hands back the same text): the tokenizer keeps the ids of its last long texts.
{
  const lib = await loadLibrary();
  const file = join(tmp, 'repeat-qwen3.json');
  mkdirSync(tmp, { recursive: true });
  writeFileSync(file, gunzipSync(readFileSync(join(oracle, 'tokenizers', 'qwen3', 'tokenizer.json.gz'))));
  const t = lib.loadTokenizer(file);
  const catalog = readFileSync(join(shared, 'corpus', 'tools.jsonl'), 'utf8');
  gc();
  const t0 = performance.now();
  const n = t.count(catalog);
  const first = performance.now() - t0;
  const xs = [];
  for (let i = 0; i < RUNS; i++) {
    const t1 = performance.now();
    if (t.count(catalog) !== n) throw new Error('a repeated count differs');
    xs.push(performance.now() - t1);
  }
  console.log(`\nrepeated count of the same text (the corpus, ${(catalog.length / 1e6).toFixed(1)} M chars, ${n} qwen3 tokens): first ${first.toFixed(0)} ms, again ${median(xs).toFixed(3)} ms (no re-encoding)`);
  // one tool changed (its line's description gets a word more): not the same text, so it is
  // encoded again; the word cache spares the BPE merges of every piece met before, the normaliser
  // and the pre-tokenizer split still run over the whole text. Beside it, a fresh tokenizer (a copy
  // of the file: no word cache) on the same changed text, which must give the same count.
  const lines = catalog.split('\n');
  const ys = [];
  let changedCount = 0;
  for (let i = 0; i < RUNS; i++) {
    const k = 1000 + i;
    const changed = [...lines.slice(0, k), lines[k].replace('"description": "', `"description": "Changed ${i}. `), ...lines.slice(k + 1)].join('\n');
    const t1 = performance.now();
    changedCount = t.count(changed);
    ys.push(performance.now() - t1);
  }
  const copy = join(tmp, 'repeat-qwen3-copy.json');
  writeFileSync(copy, readFileSync(file));
  const fresh = lib.loadTokenizer(copy);
  const last = [...lines.slice(0, 1000 + RUNS - 1), lines[1000 + RUNS - 1].replace('"description": "', `"description": "Changed ${RUNS - 1}. `), ...lines.slice(1000 + RUNS)].join('\n');
  const t2 = performance.now();
  const freshCount = fresh.count(last);
  const freshMs = performance.now() - t2;
  if (freshCount !== changedCount) throw new Error(`one tool changed: ${changedCount} tokens, a fresh tokenizer says ${freshCount}`);
  console.log(`one tool changed: ${median(ys).toFixed(0)} ms (word cache warm), a fresh tokenizer on the same text ${freshMs.toFixed(0)} ms; the same count (${freshCount})`);
  rmSync(tmp, { recursive: true, force: true });
}
