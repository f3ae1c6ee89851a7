// Benchmark of reading what the model wrote (not a test): node bench/parse.mjs
// One completion per corpus tool, as gpt-oss writes a call: its reasoning (the tool's description),
// then a call to it whose arguments are the tool's parameters schema as JSON (real JSON of real
// size); ~1.2 MB for the 2,000 tools. Each completion is streamed through createHarmonyParser in
// small text chunks (as a server receives deltas), then parsed whole (parseHarmony, as text and as
// o200k_harmony token ids), then turned into the vLLM Chat Completions response. Side by side in
// the same run: JSON.parse of a JSON document of the same completions (the bytes a client parses
// anyway) and the XML dialects' parser on the same calls written as Hermes <tool_call>s.
// Medians over repeated runs after warm-up.
import { corpusCatalog, median } from './support.mjs';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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
const { encodeText, HARMONY_SPECIAL_TOKENS } = await import(join(root, 'dist/tokens.js'));

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const WARMUP = 3;
const CHUNK = Number(process.env.BENCH_CHUNK ?? 16);

const tools = JSON.parse(corpusCatalog(corpusPath).text);
const safeName = (n) => n.replace(/[^A-Za-z0-9_.-]/g, '_');
const completions = tools.map((t) => {
  const reasoning = typeof t.description === 'string' && t.description !== '' ? t.description : `Call ${t.name}.`;
  const args = JSON.stringify(t.parameters ?? {});
  return `<|channel|>analysis<|message|>${reasoning.replaceAll('<|', '<')}<|end|><|start|>assistant<|channel|>commentary to=functions.${safeName(t.name)} <|constrain|>json<|message|>${args.replaceAll('<|', '<')}<|call|>`;
});
const bytes = completions.reduce((n, c) => n + Buffer.byteLength(c), 0);
const asJson = JSON.stringify(completions);
const hermes = tools.map((t) => `<tool_call>\n${JSON.stringify({ name: t.name, arguments: t.parameters ?? {} })}\n</tool_call>`);
const hermesBytes = hermes.reduce((n, c) => n + Buffer.byteLength(c), 0);
// token ids: the text pieces BPE'd, the control tokens as their ids
const SPECIAL = /(<\|(?:start|end|message|channel|constrain|call|return)\|>)/;
const tokenized = completions.map((c) => c.split(SPECIAL).filter(Boolean).flatMap((p) => (HARMONY_SPECIAL_TOKENS[p] !== undefined ? [HARMONY_SPECIAL_TOKENS[p]] : encodeText(p))));
const tokenCount = tokenized.reduce((n, t) => n + t.length, 0);

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

let sink = 0;
const streamText = () => {
  for (const c of completions) {
    const p = lib.createHarmonyParser();
    for (let i = 0; i < c.length; i += CHUNK) sink += p.push(c.slice(i, i + CHUNK)).length;
    sink += p.end().length;
  }
};
const streamTokens = () => {
  for (const ids of tokenized) {
    const p = lib.createHarmonyParser();
    for (const id of ids) sink += p.push([id]).length;
    sink += p.end().length;
  }
};
const batchText = () => {
  for (const c of completions) sink += lib.parseHarmony(c).messages.length;
};
const toResponse = () => {
  for (const c of completions) sink += lib.toChatCompletion(lib.parseHarmony(c), { tools: [{ name: 'x' }], id: () => 'id' }).finish_reason.length;
};
const jsonParse = () => {
  sink += JSON.parse(asJson).length;
};
const hermesParse = () => {
  for (const h of hermes) sink += lib.parseToolCalls(h, { model: 'hermes' }).tool_calls.length;
};

const mb = bytes / 1e6;
const results = [
  [`stream, text in ${CHUNK}-character chunks`, time(streamText), bytes],
  ['stream, token ids one at a time', time(streamTokens), bytes],
  ['parseHarmony, whole text', time(batchText), bytes],
  ['parseHarmony + toChatCompletion (vLLM response)', time(toResponse), bytes],
  ['peer: JSON.parse of the same completions as JSON', time(jsonParse), Buffer.byteLength(asJson)],
  ['XML: parseToolCalls (hermes) on the same calls', time(hermesParse), hermesBytes],
];
console.log(`${completions.length} completions, ${(bytes / 1e6).toFixed(2)} MB, ${tokenCount} o200k_harmony tokens; medians of ${RUNS} runs (node ${process.version})`);
const jsonMs = results[4][1];
for (const [name, ms, n] of results) {
  console.log(`${name.padEnd(50)} ${ms.toFixed(1).padStart(8)} ms  ${(n / 1e6 / (ms / 1000)).toFixed(1).padStart(7)} MB/s  ${(ms / jsonMs).toFixed(1).padStart(6)}× JSON.parse`);
}
if (sink === 0) console.log('');
void mb;
