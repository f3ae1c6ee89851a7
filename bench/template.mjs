// Benchmark of the template engine (not a test): the official chat templates over the 2,000 corpus
// tools, our engine beside @huggingface/jinja in the same run, and the families beside their
// hand-written printers. Medians in ms; each pair timed alternately (support.mjs `alternate`).
//   npm run build && node --expose-gc bench/template.mjs        (BENCH_RUNS=N for more runs; BENCH_PART=families for the families alone)
//
// - engine cold: the template compiled and rendered (a fresh text each run, so the compile cache
//   does not answer); @huggingface/jinja cold: new Template(text) and render.
// - engine warm: a compiled template rendered again; @huggingface/jinja warm: the same Template rendered again.
// - bytes: whether @huggingface/jinja prints what Jinja2 prints (its own strftime_now prints today: Llama 3.2 and Granite 3.3 differ by the date alone) (ours is checked against the
//   oracles by test/template/oracle-families.test.ts).
// - families: the whole first-turn prompt from compiled tools through the engine (renderWithTemplate,
//   uncached), the family's kept printer where there is one (src/emit/families/registry.ts), and the
//   former hand port of the family from an earlier build (BENCH_PORTS_FROM, default 9330d30, the last
//   commit that had one for every family) in the same run; and a repeated renderPrompt from a
//   compiled tool set (the print cache).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { alternate, baselineBuild, corpusCatalog, median } from './support.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const shared = process.env.SHARED_DIR ?? resolve(root, '../shared');
const corpusPath = join(shared, 'corpus/tools.jsonl');
if (!existsSync(corpusPath)) {
  console.error(`bench: ${corpusPath} not found (set SHARED_DIR); nothing measured`);
  process.exit(1);
}
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const lib = await import(pathToFileURL(join(root, 'dist/lib/index.js')).href);
const { Template } = await import('@huggingface/jinja');
const { text: catalogText } = corpusCatalog(corpusPath);
const plainTools = JSON.parse(catalogText);
const read = lib.readTools(catalogText);
const compiled = lib.compileTools(read);
const ms = (x) => `${x.toFixed(2)} ms`.padStart(11);
const pad = (s, n) => s.padEnd(n);

const TODAY = { year: 2025, month: 8, day: 5 };
const wrap = (t) => ({ type: 'function', function: t });

/** The tools a template renders alone (some raise on a few corpus tools, as under Jinja2), as JSON text for our side and objects for theirs. */
function renderable(t) {
  const ok = [];
  for (let i = 0; i < plainTools.length; i++) {
    try {
      t.render(vars([wrap(plainTools[i])].map((x) => lib.parseJson(JSON.stringify(x)))), { today: TODAY });
      ok.push(i);
    } catch {
      // the template raises on this tool: left out on both sides
    }
  }
  return ok;
}

/** Our variables: lossless values (Maps) as the API hands them over. */
function vars(tools) {
  return new Map([
    ['messages', [new Map([['role', 'user'], ['content', 'hi']])]],
    ['tools', tools],
    ['documents', null],
    ['add_generation_prompt', true],
    ['bos_token', '<s>'],
    ['eos_token', '</s>'],
  ]);
}

console.log(`template engine vs @huggingface/jinja 0.5.11, ${plainTools.length} corpus tools, first turn, medians of ${RUNS} runs`);
console.log(`${pad('template', 20)}${pad('tools', 7)}${'ours cold'.padStart(11)}${'hf cold'.padStart(11)}${'ratio'.padStart(8)}${'ours warm'.padStart(11)}${'hf warm'.padStart(11)}${'ratio'.padStart(8)}  hf bytes`);
const ratios = { cold: [], warm: [] };
// BENCH_PART=families: the families' table alone
for (const [name, t] of process.env.BENCH_PART === 'families' ? [] : Object.entries(lib.TEMPLATES)) {
  const ours = lib.compileTemplate(t.text);
  const keep = renderable(ours);
  const ourTools = keep.map((i) => lib.parseJson(JSON.stringify(wrap(plainTools[i]))));
  const theirTools = keep.map((i) => wrap(plainTools[i]));
  const ctx = { messages: [{ role: 'user', content: 'hi' }], tools: theirTools, documents: null, add_generation_prompt: true, bos_token: '<s>', eos_token: '</s>' };
  let theirs;
  let theirText;
  try {
    theirs = new Template(t.text);
    theirText = theirs.render(ctx);
  } catch (e) {
    theirs = undefined;
    theirText = `fails: ${String(e.message).split('\n')[0].slice(0, 50)}`;
  }
  const ourText = ours.render(vars(ourTools), { today: TODAY });
  let n = 0;
  const [oc, hc] = theirs ? await alternate([() => lib.compileTemplate(`${t.text}{# ${n++} #}`).render(vars(ourTools), { today: TODAY }), () => new Template(t.text).render(ctx)], { runs: RUNS }) : [NaN, NaN];
  const [ow, hw] = theirs ? await alternate([() => ours.render(vars(ourTools), { today: TODAY }), () => theirs.render(ctx)], { runs: RUNS }) : [NaN, NaN];
  if (theirs) {
    ratios.cold.push(hc / oc);
    ratios.warm.push(hw / ow);
  }
  const bytes = theirs === undefined ? theirText : theirText === ourText ? 'same as Jinja2' : 'DIFFER from Jinja2';
  console.log(`${pad(name, 20)}${pad(String(keep.length), 7)}${ms(oc)}${ms(hc)}${`${(hc / oc).toFixed(2)}×`.padStart(8)}${ms(ow)}${ms(hw)}${`${(hw / ow).toFixed(2)}×`.padStart(8)}  ${bytes}`);
}
console.log(`median speed-up over @huggingface/jinja: cold ${median(ratios.cold).toFixed(2)}×, warm ${median(ratios.warm).toFixed(2)}× (target ≥ 3×)`);

// the hand ports as they were before the engine took their families over (every family had one), built from
// that commit beside this build: BENCH_PORTS_FROM=REF (default 9330d30, the last commit with all of them)
const portsRef = process.env.BENCH_PORTS_FROM ?? '9330d30';
const former = await (async () => {
  try {
    const base = baselineBuild(root, portsRef);
    const m = await import(pathToFileURL(join(base.dir, 'dist/emit/families/registry.js')).href);
    // that build reads its own tools: its values are its own classes
    const baseLib = await import(pathToFileURL(join(base.dir, 'dist/index.js')).href);
    return { ports: m.FAMILY_PRINTERS, lib: baseLib, sha: base.sha };
  } catch (e) {
    console.log(`\n(former hand ports not measured: ${String(e.message).split('\n')[0]})`);
    return { ports: [], sha: undefined };
  }
})();
// the families' table runs the tsc output (dist/index.js), the module graph the kept printers are in (the
// bundle has its own copies of the value classes); the former ports run their own build's likewise
const kept = await import(pathToFileURL(join(root, 'dist/emit/families/registry.js')).href);
const cur = await import(pathToFileURL(join(root, 'dist/index.js')).href);
const { firstLoneSurrogate } = await import(pathToFileURL(join(root, 'dist/emit/python/errors.js')).href);

console.log(`\nfamilies: the whole first-turn prompt from compiled tools; "ours" is what renderPrompt runs (the kept printer where there is one, else the engine)${former.sha ? `; former hand ports from ${former.sha.slice(0, 10)}` : ''}`);
console.log(`${pad('model', 18)}${'engine'.padStart(11)}${'kept'.padStart(11)}${'former port'.padStart(13)}${'former/ours'.padStart(13)}${'cached'.padStart(12)}`);
const formerRatios = [];
const sameCode = [];
const curCompiled = cur.compileTools(cur.readTools(catalogText));
for (const f of cur.MODEL_FAMILIES) {
  const printer = kept.familyPrinter(f.name);
  const port = former.ports.find((p) => p.name === f.name);
  let tools = curCompiled;
  let text = catalogText;
  try {
    cur.renderPrompt({ model: f.name, tools, date: '2025-08-05' });
  } catch {
    // the template raises on some corpus tools: the tools it renders alone
    text = JSON.stringify(plainTools.filter((t) => { try { cur.renderPrompt({ model: f.name, tools: [t], date: '2025-08-05' }); return true; } catch { return false; } }));
    tools = cur.compileTools(cur.readTools(text));
  }
  const formerTools = port ? former.lib.compileTools(former.lib.readTools(text)).definitions : undefined;
  const spec = { text: cur.TEMPLATES[f.template].text, special: f.special };
  // ours as renderPrompt runs it uncached: the text, the lone-surrogate check and the family's findings (a former port did all three too)
  const findings = () => f.findings?.(tools.definitions);
  const fns = [() => (cur.renderWithTemplate({ template: spec, tools, date: TODAY }), findings())];
  if (printer) fns.push(() => (firstLoneSurrogate(printer.prompt(tools.definitions, { date: '2025-08-05' })), findings()));
  if (port) fns.push(() => port.prompt(formerTools, { date: '2025-08-05' }));
  const times = await alternate(fns, { runs: RUNS });
  const e = times[0];
  const k = printer ? times[1] : NaN;
  const h = port ? times[printer ? 2 : 1] : NaN;
  const ours = printer ? k : e;
  if (port && !printer) formerRatios.push(h / ours);
  if (port && printer) sameCode.push(h / k);
  cur.renderPrompt({ model: f.name, tools, date: '2025-08-05' });
  const xs = [];
  for (let i = 0; i < 200; i++) {
    const t0 = process.hrtime.bigint();
    cur.renderPrompt({ model: f.name, tools, date: '2025-08-05' });
    xs.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  console.log(`${pad(f.name, 18)}${ms(e)}${printer ? ms(k) : '—'.padStart(11)}${port ? `${h.toFixed(2)} ms`.padStart(13) : 'none'.padStart(13)}${port ? `${(h / ours).toFixed(2)}×`.padStart(13) : ''.padStart(13)}${`${median(xs).toFixed(4)} ms`.padStart(12)}`);
}
// the kept printers are the former ports' own code: their ratio is this run's noise on identical work
if (sameCode.length) console.log(`identical code (a kept printer beside its own former port): ${Math.min(...sameCode).toFixed(2)}–${Math.max(...sameCode).toFixed(2)}×, the noise of this run`);
if (formerRatios.length) console.log(`former hand port / ours: min ${Math.min(...formerRatios).toFixed(2)}×, median ${median(formerRatios).toFixed(2)}× over the ${formerRatios.length} families the engine now renders (target: no slower, ≥ 1×; a cached render ≤ 0.05 ms)`);
