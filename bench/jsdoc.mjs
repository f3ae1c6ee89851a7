// JSDoc target vs json-schema-to-typescript on the corpus tools (run `npm run build` first).
//
//   node bench/jsdoc.mjs [runs]
//
// Both sides get the same tools (those with a parameters schema), already parsed (ours:
// lossless JSON, theirs: JSON.parse), and neither formats with prettier. Ours: lowerTool for
// each tool + one emitJsdocCatalog of all, and the printer alone on tools lowered once.
// Theirs: compile() per schema with { format: false, bannerComment: '' }, on a fresh copy
// each run. One warm-up run each, then the median of N runs (default 7).
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { compile } from 'json-schema-to-typescript';
import { emitJsdocCatalog } from '../dist/emit/jsdoc/catalog.js';
import { parseJson } from '../dist/ir/json.js';
import { lowerTool } from '../dist/lower/index.js';

const CORPUS = new URL(process.env.SHARED_DIR ? `file://${process.env.SHARED_DIR}/corpus/tools.jsonl` : '../../shared/corpus/tools.jsonl', import.meta.url);
const RUNS = Math.max(5, Number(process.argv[2] ?? 7));

const lines = readFileSync(CORPUS, 'utf8').split('\n').filter((l) => l.trim() !== '');
const plain = lines.map((l) => JSON.parse(l)).filter((t) => t.parameters !== undefined && t.parameters !== null);
const lossless = lines.map((l) => parseJson(l)).filter((t) => t.get('parameters') !== undefined && t.get('parameters') !== null);

const toolDefs = lossless.map((t, k) => ({
  name: t.get('name'),
  ...(t.has('description') ? { description: t.get('description') } : {}),
  parameters: t.get('parameters'),
  format: 'bare',
  pointer: `/${k}`,
  parametersPointer: `/${k}/parameters`,
}));

function ours() {
  const tools = toolDefs.map((d) => lowerTool(d).tool);
  return emitJsdocCatalog(tools).length;
}
// the printer alone, on tools lowered once beforehand
const lowered = toolDefs.map((d) => lowerTool(d).tool);
const oursEmitOnly = () => emitJsdocCatalog(lowered).length;

let theirFailures = 0;
async function theirs(schemas) {
  let chars = 0;
  theirFailures = 0;
  for (const { name, schema } of schemas) {
    try {
      chars += (await compile(schema, name, { format: false, bannerComment: '' })).length;
    } catch {
      theirFailures++;
    }
  }
  return chars;
}
// json-schema-to-typescript may annotate the schemas it is given: a fresh copy for every run
const freshSchemas = () => plain.map((t) => ({ name: t.name, schema: structuredClone(t.parameters) }));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function measure(label, fn, prepare) {
  await fn(prepare());
  const times = [];
  let out = 0;
  for (let k = 0; k < RUNS; k++) {
    const input = prepare();
    const t0 = performance.now();
    out = await fn(input);
    times.push(performance.now() - t0);
  }
  const ms = median(times);
  console.log(`${label.padEnd(28)} median ${ms.toFixed(1).padStart(8)} ms over ${RUNS} runs  (${times.map((t) => t.toFixed(0)).join(', ')})  ${out} chars`);
  return ms;
}

console.log(`${plain.length} tools with parameters, node ${process.version}`);
const a = await measure('jsdoc (lower + emit)', ours, () => undefined);
const e = await measure('jsdoc (emit only)', oursEmitOnly, () => undefined);
const b = await measure('json-schema-to-typescript', theirs, freshSchemas);
if (theirFailures) console.log(`json-schema-to-typescript failed on ${theirFailures} schemas (excluded from its output, not its time)`);
console.log(`ratio: lower + emit ${(b / a).toFixed(1)}x faster, emit only ${(b / e).toFixed(1)}x faster (target: at least 50x)`);
