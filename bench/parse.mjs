// Benchmark of reading what the model wrote (not a test): node bench/parse.mjs
// One completion per corpus tool, as gpt-oss writes a call: its reasoning (the tool's description),
// then a call to it whose arguments are the tool's parameters schema as JSON (real JSON of real
// size); ~1.2 MB for the 2,000 tools. Each completion is streamed through createHarmonyParser in
// small text chunks (as a server receives deltas), then parsed whole (parseHarmony, as text and as
// o200k_harmony token ids), then turned into the vLLM Chat Completions response. Side by side in
// the same run: JSON.parse of a JSON document of the same completions (the bytes a client parses
// anyway) and the XML dialects' parser on the same calls written as Hermes <tool_call>s.
// Medians over repeated runs after warm-up. Then every other family (below): MB/s streamed in
// 16-character chunks and in one push, and the ratio to JSON.parse of the same texts.
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

// Every other family: each syntax's reader on calls its official template writes. For the first
// FAMILY_TOOLS corpus tools, the assistant turn the family's template prints for one call to the
// tool (its arguments: the tool's parameters schema, real JSON of real size), found as the round
// trip test finds it (the prompt up to the user turn is a prefix of the prompt with the call); a
// family whose template prints no call from the history is left out, as the round trip says.
const FAMILY_TOOLS = Number(process.env.BENCH_FAMILY_TOOLS ?? 200);
function assistantTurn(model, tool) {
  const tools = [{ type: 'function', function: { name: tool.name, description: tool.description ?? '', parameters: tool.parameters ?? { type: 'object' } } }];
  const user = [{ role: 'user', content: 'Go.' }];
  const call = { role: 'assistant', content: '', tool_calls: [{ id: 'call00001', type: 'function', function: { name: tool.name, arguments: JSON.stringify(tool.parameters ?? {}) } }] };
  const result = { role: 'tool', tool_call_id: 'call00001', content: '{}' };
  for (const server of ['vllm', 'transformers']) {
    try {
      const head = lib.renderRequest({ tools, messages: user }, { model, server }).text;
      const whole = lib.renderRequest({ tools, messages: [...user, call, result] }, { model, server }).text;
      let k = 0;
      while (k < head.length && head[k] === whole[k]) k++;
      while (k > 0 && whole[k - 1] !== '\n' && whole[k - 1] !== '>' && whole[k - 1] !== ']') k--;
      const turn = whole.slice(k);
      // the call read back whole, or the family is no use here
      const r = lib.parseToolCalls(turn, { model });
      if (r.tool_calls.length === 1 && r.tool_calls[0].function.name === tool.name) return turn;
    } catch {
      // the template refuses this tool or this hand-off: the other server, or leave it out
    }
  }
  return undefined;
}
const sample = tools.slice(0, FAMILY_TOOLS).filter((t) => typeof t.name === 'string' && /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(t.name));
console.log(`\nEvery family: the calls its template writes for ${sample.length} corpus tools (one call each), read by the family's reader (default: strict, with the vLLM and SGLang comparisons); medians of ${RUNS} runs`);
console.log(`${'family (syntax)'.padEnd(34)} ${'calls'.padStart(5)} ${'KB'.padStart(6)}   ${`stream ${CHUNK} ch`.padStart(16)}   ${'one push'.padStart(16)}   ${'× JSON.parse'.padStart(12)}`);
// Llama 4's template writes a past call as Llama 3 JSON; the model writes pythonic calls: those are written here
const pyLiteral = (v) => (v === null ? 'None' : v === true ? 'True' : v === false ? 'False' : Array.isArray(v) ? `[${v.map(pyLiteral).join(', ')}]` : typeof v === 'object' ? `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${pyLiteral(x)}`).join(', ')}}` : JSON.stringify(v));
const pythonicCall = (t) => (/^[A-Za-z_]\w*$/.test(t.name) ? `[${t.name}(${Object.entries(t.parameters ?? {}).filter(([k]) => /^[A-Za-z_]\w*$/.test(k)).map(([k, v]) => `${k}=${pyLiteral(v)}`).join(', ')})]` : undefined);
for (const f of lib.FAMILY_PARSERS) {
  const texts = sample.map((t) => (f.syntax === 'llama4-pythonic' ? pythonicCall(t) : assistantTurn(f.model, t))).filter((t) => t !== undefined);
  if (texts.length < sample.length / 2) {
    console.log(`${`${f.model} (${f.syntax})`.padEnd(34)} its template writes no readable call for most tools (${texts.length}/${sample.length}): left out`);
    continue;
  }
  const fbytes = texts.reduce((n, c) => n + Buffer.byteLength(c), 0);
  const fjson = JSON.stringify(texts.map((t) => ({ text: t })));
  const onePush = time(() => {
    for (const t of texts) sink += lib.parseToolCalls(t, { model: f.model }).tool_calls.length;
  });
  const streamed = time(() => {
    for (const t of texts) {
      const p = lib.createToolCallParser({ model: f.model });
      for (let i = 0; i < t.length; i += CHUNK) sink += p.push(t.slice(i, i + CHUNK)).length;
      sink += p.end().events.length;
    }
  });
  const json = time(() => {
    sink += JSON.parse(fjson).length;
  });
  const rate = (ms) => `${(fbytes / 1e6 / (ms / 1000)).toFixed(1).padStart(6)} MB/s`;
  console.log(`${`${f.model} (${f.syntax})`.padEnd(34)} ${String(texts.length).padStart(5)} ${(fbytes / 1e3).toFixed(0).padStart(6)}   ${`${streamed.toFixed(1)} ms`.padStart(9)} ${rate(streamed)}   ${`${onePush.toFixed(1)} ms`.padStart(9)} ${rate(onePush)}   ${(onePush / json).toFixed(1).padStart(6)}× / ${(streamed / json).toFixed(1)}×`);
}
if (sink === 0) console.log('');
void mb;
