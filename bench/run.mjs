// Benchmark of the core pipeline on the shared corpus (not a test).
//   npm run bench            (builds first: npm run build)
// Renders the 2,000 corpus tools as ONE catalog, median over repeated runs after warm-up,
// phase by phase, and side by side with a peer in the same run: the official gpt-oss chat
// template rendered by @huggingface/jinja (what JavaScript servers use to make these bytes today).
import { corpusCatalog, median } from './support.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const shared = process.env.SHARED_DIR ?? resolve(root, '../shared');
const corpusPath = join(shared, 'corpus/tools.jsonl');
if (!existsSync(corpusPath)) {
  console.error(`bench: ${corpusPath} not found (set SHARED_DIR); nothing measured`);
  process.exit(1);
}
if (!existsSync(join(root, 'dist/index.js'))) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });

const lib = await import(join(root, 'dist/index.js'));
const { lowerTool } = await import(join(root, 'dist/lower/index.js'));
const { emitHarmonyToolsSection } = await import(join(root, 'dist/emit/harmony/catalog.js'));

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARMUP = 5;
const { text: catalogText, count: N } = corpusCatalog(corpusPath);

function time(fn) {
  for (let i = 0; i < WARMUP; i++) fn();
  const xs = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    xs.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(xs);
}
const row = (name, ms, note = '', n = N) => console.log(`${name.padEnd(48)} ${ms.toFixed(2).padStart(9)} ms  ${((ms * 1000) / n).toFixed(2).padStart(7)} µs/tool  ${note}`);

console.log(`harmony-catalog bench: ${N} corpus tools as one catalog; median of ${RUNS} runs after ${WARMUP} warm-up runs; node ${process.version}\n`);
const read = lib.readTools(catalogText);
const lowered = read.tools.map((t) => lowerTool(t).tool);
const ns = [{ name: 'functions', tools: lowered }];
let out = '';
const tRead = time(() => lib.readTools(catalogText));
const tLower = time(() => read.tools.map((t) => lowerTool(t).tool));
const tEmit = time(() => (out = emitHarmonyToolsSection(ns)));
const tCatalog = time(() => lib.renderCatalog(read));
const tAll = time(() => lib.renderCatalog(catalogText));
row('read (parse JSON text + validate shapes)', tRead);
row('lower (pre-pass + IR)', tLower);
row('emit harmony catalog from the IR', tEmit, `${out.length} chars`);
row('renderCatalog(read tools) = lower + emit', tCatalog, '(target ≤ 2 ms)');
row('renderCatalog(JSON text) = read + lower + emit', tAll);

// Peer, same run: the official gpt-oss chat template as JavaScript servers render it
// (@huggingface/jinja), against our chat-template flavor, on the same tools: those the template
// can render (it raises on 24 corpus tools under Jinja2; @huggingface/jinja crashes on a few others,
// e.g. a property named `items`): only tools both render alone are in the catalog.
try {
  const { Template } = await import('@huggingface/jinja');
  const tpl = new Template(readFileSync(join(shared, 'oracles/chat-template/chat_template.jinja'), 'utf8'));
  const all = JSON.parse(catalogText);
  const renderable = all.filter((t) => {
    try {
      lib.renderCatalog([t], { flavor: 'chat-template' });
      tpl.render({ messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: t }], add_generation_prompt: true });
      return true;
    } catch {
      return false;
    }
  });
  const renderableText = JSON.stringify(renderable);
  const renderableRead = lib.readTools(renderableText);
  const ctx = { messages: [{ role: 'user', content: 'hi' }], tools: renderable.map((t) => ({ type: 'function', function: t })), add_generation_prompt: true };
  const options = { tools: renderableRead, flavor: 'chat-template', date: new Date().toISOString().slice(0, 10), messages: [{ role: 'user', content: 'hi' }], completion: 'assistant' };
  const theirs = tpl.render(ctx);
  const ours = lib.renderPrompt(options).text;
  console.log(`\nside by side: the gpt-oss chat template over the ${renderable.length} tools it can render (whole prompt)`);
  row('ours: renderPrompt({flavor: chat-template})', time(() => lib.renderPrompt(options)), `${ours.length} chars`, renderable.length);
  row('peer: @huggingface/jinja Template.render', time(() => tpl.render(ctx)), `${theirs.length} chars${theirs === ours ? ', same bytes' : ', differs from Jinja2 (see chat-template/js-jinja-differs)'}`, renderable.length);
} catch (e) {
  console.log(`peer not run: ${e.message}`);
}

// CLI end to end on the same file
const dir = mkdtempSync(join(tmpdir(), 'hc-bench-'));
const file = join(dir, 'corpus.json');
writeFileSync(file, catalogText);
const cli = join(root, 'dist/cli/main.js');
const e2e = [];
for (let i = 0; i < Math.max(10, Math.floor(RUNS / 2)); i++) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, 'render', file, '--part', 'catalog', '--quiet'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  e2e.push(Number(process.hrtime.bigint() - t0) / 1e6);
  if (r.status !== 0) throw new Error(`CLI failed: ${r.stderr}`);
}
const nodeStart = [];
for (let i = 0; i < 10; i++) {
  const t0 = process.hrtime.bigint();
  spawnSync(process.execPath, ['-e', '0']);
  nodeStart.push(Number(process.hrtime.bigint() - t0) / 1e6);
}
row(`CLI end to end: render --part catalog (${e2e.length} runs)`, median(e2e), '(target ≤ 150 ms)');
row('  of which: bare `node -e 0` start-up', median(nodeStart));
