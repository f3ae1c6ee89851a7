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

// A repeated count of the same catalog, and of the catalog with one tool changed (what dump, the
// report and the inventory API do again for a compiled tool set): a file tokenizer keeps its last
// long texts' encodings; the same text is not encoded again, and a changed text is encoded beside
// the last one (src/tokenizers/incremental.ts): only the pieces the change can reach are encoded.
// Beside it, a fresh tokenizer (a copy of the file: nothing kept, no word cache) on the same text,
// which must give the same ids. The catalog: the shared corpus as its JSON lines (3.2 M chars).
{
  const lib = await loadLibrary();
  mkdirSync(tmp, { recursive: true });
  const catalog = readFileSync(join(shared, 'corpus', 'tools.jsonl'), 'utf8');
  const lines = catalog.split('\n');
  const changedAt = (i) => [...lines.slice(0, 1000 + i), lines[1000 + i].replace('"description": "', `"description": "Changed ${i}. `), ...lines.slice(1001 + i)].join('\n');
  console.log(`\n${'the corpus as one text'.padEnd(24)}${'first ms'.padStart(10)}${'same again ms'.padStart(15)}${'one tool changed ms'.padStart(21)}${'pieces encoded'.padStart(16)}${'fresh tokenizer ms'.padStart(20)}`);
  for (const name of ['llama3_1', 'qwen3', 'deepseek_v3', 'gemma3']) {
    const file = join(tmp, `repeat-${name}.json`);
    writeFileSync(file, gunzipSync(readFileSync(join(oracle, 'tokenizers', name, 'tokenizer.json.gz'))));
    const t = lib.loadTokenizer(file);
    gc();
    const t0 = performance.now();
    const n = t.count(catalog);
    const first = performance.now() - t0;
    const again = [];
    const changed = [];
    const fresh = [];
    const made = [];
    for (let i = 0; i < RUNS; i++) {
      const t1 = performance.now();
      if (t.count(catalog) !== n) throw new Error('a repeated count differs');
      again.push(performance.now() - t1);
      const text = changedAt(i);
      // what the kept encoding beside it does (the pieces it encodes), on the library's own encoder
      const hf = lib.HfTokenizer.fromJson(JSON.parse(readFileSync(file, 'utf8')));
      const e = hf.encodeKept(text, hf.encodeKept(catalog));
      made.push(e.encoded);
      gc();
      const t2 = performance.now();
      const c = t.count(text);
      changed.push(performance.now() - t2);
      // back to the catalog (itself kept): the next change is again one tool away
      t.count(catalog);
      const copy = join(tmp, `repeat-${name}-${i}.json`);
      writeFileSync(copy, readFileSync(file));
      const f = lib.loadTokenizer(copy);
      gc();
      const t3 = performance.now();
      const ids = f.encode(text);
      fresh.push(performance.now() - t3);
      if (ids.length !== c || ids.join() !== Array.from(e.ids).join()) throw new Error(`${name}: one tool changed: ${c} tokens kept, a fresh tokenizer says ${ids.length}`);
    }
    console.log(`${name.padEnd(24)}${first.toFixed(0).padStart(10)}${median(again).toFixed(3).padStart(15)}${median(changed).toFixed(1).padStart(21)}${String(median(made)).padStart(16)}${median(fresh).toFixed(0).padStart(20)}`);
  }
  console.log('(pieces encoded: what was encoded again for one changed tool, the rest taken from the kept encoding: pre-tokenizer pieces; Gemma 3 has no leading regex split, so a run between its added tokens, here the changed tool\'s line, is encoded whole: 1)');
  rmSync(tmp, { recursive: true, force: true });
}
