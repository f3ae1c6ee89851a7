#!/usr/bin/env node
/**
 * The reading fuzz run (issue 22's "done means"): generated completions and conversations through
 * the built library (dist/; built first when missing), every model, mode and server.
 *
 *   node bench/fuzz-parse.mjs [--completions 1000000] [--conversations 100000] [--seed 1]
 *
 * Completions: random sequences of fragments (every family's control strings and openers,
 * Harmony's tokens, JSON and XML pieces, text with emoji and lone surrogates, whole calls and cut
 * ones), each read whole and streamed in random chunks (gpt-oss: strict, lenient, tolerant, as
 * text and as o200k_harmony ids; the other families: the default reading and the vLLM and SGLang
 * parsers), then turned into the Chat Completions response and checked against the tools.
 * Properties: no exception other than the library's typed CompileError; the streamed reading
 * equals the one-push reading; and no cut call is ever runnable: every strict prefix of a whole
 * call (each syntax's example call with random values, and gpt-oss's call) yields no call that
 * checkToolCalls finds runnable.
 * Conversations: random Chat Completions message lists (roles, content null, "", text or parts,
 * tool calls with good and bad arguments, reasoning fields, tool results by known and unknown ids)
 * rendered by renderPrompt for every gpt-oss server and every family under transformers and vLLM:
 * a prompt or a CompileError, never another exception.
 * Prints the counts, the time and every failure (the first 20 of each kind with its seed and case
 * number); exits 1 when any property failed.
 */
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    completions: { type: 'string', default: '1000000' },
    conversations: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '1' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write('Usage: node bench/fuzz-parse.mjs [--completions N] [--conversations N] [--seed S]\n');
  process.exit(0);
}
if (!existsSync(resolve(ROOT, 'dist/index.js'))) execSync('npm run build', { cwd: ROOT, stdio: 'inherit' });
const lib = await import(pathToFileURL(resolve(ROOT, 'dist/index.js')).href);
const { encodeText, HARMONY_SPECIAL_TOKENS } = await import(pathToFileURL(resolve(ROOT, 'dist/tokens.js')).href);

const SEED = Number(values.seed);
/** mulberry32 */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(SEED);
const int = (n) => Math.floor(random() * n);
const pick = (xs) => xs[int(xs.length)];

const TOOLS = [
  { type: 'function', function: { name: 'get_weather', description: 'Weather in a city.', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } } } },
  { type: 'function', function: { name: 'get_time', description: 'The time in a zone.', parameters: { type: 'object', properties: { zone: { type: 'string' } } } } },
];
const compiled = lib.compileTools(TOOLS);

const failures = new Map();
function fail(kind, detail) {
  const list = failures.get(kind) ?? [];
  list.push(detail);
  failures.set(kind, list);
}
const isTyped = (e) => e instanceof lib.CompileError;

// ---------------------------------------------------------------------------------------
// Fragments

const families = [...new Set(lib.FAMILY_PARSERS.map((f) => f.model))];
const HARMONY = ['<|start|>', '<|end|>', '<|message|>', '<|channel|>', '<|constrain|>', '<|call|>', '<|return|>', 'assistant', 'user', 'tool', 'analysis', 'commentary', 'final', ' to=functions.get_weather', ' to=functions.', 'json', ' ', '<|endoftext|>'];
const JSONISH = ['{', '}', '[', ']', ',', ':', ' ', '"', '"name"', '"arguments"', '"parameters"', '"get_weather"', '"city"', '"Paris"', '1', '-0.5e3', 'true', 'null', 'NaN', '\\', '\\u00e9', '{"city": "Paris"}', '{"name": "get_weather", "arguments": {"city": "Paris"}}'];
const XMLISH = ['<tool_call>', '</tool_call>', '<function=get_weather>', '</function>', '<parameter=city>', '</parameter>', '<arg_key>', '</arg_key>', '<arg_value>', '</arg_value>', '<invoke name="get_weather">', '</invoke>', '<think>', '</think>', '\n', '<', '>', '/', '='];
const TEXT = ['Paris', ' ', '\n', 'é', '😀', '\ud800', '\udc00', 'get_weather', '(', ')', 'city=', '"', "'", '```', 'json', 'Action:', '>>>', 'functools', 'None', 'True'];
const unescape = (s) => s.replace(/\\n/g, '\n');
const EXAMPLES = new Map([...lib.SYNTAXES].map(([name, s]) => [name, unescape(s.example)]));
const CONTROLS = new Map([...lib.SYNTAXES].map(([name, s]) => [name, [...new Set([...s.controls, ...s.openers])]]));

/** A random value for "Paris" that stays a value in every syntax (letters, digits, spaces). */
function city() {
  const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ';
  let s = '';
  for (let n = 1 + int(12); n > 0; n--) s += letters[int(letters.length)];
  return s.trim() === '' ? 'x' : s.trim();
}
/** A whole call of the syntax: its example with other values. */
function wholeCall(syntax) {
  return EXAMPLES.get(syntax).replaceAll('Paris', city()).replaceAll('days=3', `days=${int(100)}`).replaceAll('days:3', `days:${int(100)}`);
}
const GPT_CALL = () => `<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "${city()}"}<|call|>`;

function fragmentText(model, syntax) {
  const pools = model === 'gpt-oss' ? [HARMONY, JSONISH, TEXT] : [CONTROLS.get(syntax), JSONISH, XMLISH, TEXT, CONTROLS.get(pick([...CONTROLS.keys()]))];
  let s = '';
  for (let n = 1 + int(12); n > 0; n--) {
    const r = random();
    if (r < 0.08) s += model === 'gpt-oss' ? GPT_CALL() : wholeCall(syntax);
    else if (r < 0.14) {
      const w = model === 'gpt-oss' ? GPT_CALL() : wholeCall(syntax);
      s += w.slice(0, int(w.length));
    } else s += pick(pick(pools));
  }
  return s;
}

// ---------------------------------------------------------------------------------------
// Reading

function chunks(text) {
  const out = [];
  for (let i = 0; i < text.length; ) {
    const n = 1 + int(random() < 0.5 ? 4 : 40);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}
function idsOf(text) {
  return text.split(/(<\|(?:start|end|message|channel|constrain|call|return)\|>)/).filter(Boolean).flatMap((p) => (HARMONY_SPECIAL_TOKENS[p] !== undefined ? [HARMONY_SPECIAL_TOKENS[p]] : encodeText(p)));
}
const stable = (v) => JSON.stringify(v, (k, x) => (k === 'id' && typeof x === 'string' && x.startsWith('chatcmpl-tool-') ? 'ID' : x));

/** Read one completion every way; returns the responses' calls for the runnable check. */
function readAll(model, text, caseNo) {
  const responses = [];
  if (model === 'gpt-oss') {
    for (const mode of ['strict', 'lenient', 'tolerant']) {
      for (const input of [text, idsOf(text)]) {
        const whole = lib.parseHarmony(input, { mode });
        const p = lib.createHarmonyParser({ mode });
        if (typeof input === 'string') for (const c of chunks(input)) p.push(c);
        else for (let i = 0; i < input.length; ) { const n = 1 + int(8); p.push(input.slice(i, i + n)); i += n; }
        p.end();
        if (stable(p.result()) !== stable(whole)) fail('stream ≠ whole', `gpt-oss ${mode} case ${caseNo}: ${JSON.stringify(text).slice(0, 300)}`);
        if (mode !== 'tolerant' && whole.error !== undefined) continue;
        responses.push(lib.toChatCompletion(whole, { tools: compiled }));
      }
    }
    return responses;
  }
  const parser = lib.FAMILY_PARSERS.find((f) => f.model === model);
  for (const server of [undefined, ...(parser.vllm ? ['vllm'] : []), ...(parser.sglang ? ['sglang'] : [])]) {
    const options = { model, tools: TOOLS, ...(server ? { server } : {}) };
    const whole = lib.parseToolCalls(text, options);
    const p = lib.createToolCallParser(options);
    const pieces = chunks(text);
    for (const c of pieces) p.push(c);
    const { result } = p.end();
    // the chunks whole: the case is reproduced by pushing them
    if (stable(result) !== stable(whole)) fail('stream ≠ whole', `${model} ${server ?? 'default'} case ${caseNo}: chunks ${JSON.stringify(pieces)}`);
    responses.push(lib.toChatCompletion(whole));
  }
  return responses;
}

async function runnableCalls(responses) {
  let n = 0;
  for (const r of responses) {
    const calls = r.message?.tool_calls ?? [];
    if (calls.length === 0) continue;
    const checked = await lib.checkToolCalls(calls, compiled);
    n += checked.calls.filter((c) => c.runnable).length;
  }
  return n;
}

const t0 = Date.now();
const N = Number(values.completions);
let cutCases = 0;
let untyped = 0;
const syntaxOf = new Map(lib.FAMILY_PARSERS.map((f) => [f.model, f.syntax]));
const models = ['gpt-oss', ...families];
for (let k = 0; k < N; k++) {
  const model = models[k % models.length];
  const syntax = syntaxOf.get(model);
  // one case in four: a whole call cut strictly before its end, after some text
  const cut = k % 4 === 3;
  let text;
  if (cut) {
    const w = model === 'gpt-oss' ? GPT_CALL() : wholeCall(syntax);
    const before = random() < 0.5 ? '' : pick(['Sure. ', 'x\n', '<think>\nok\n</think>\n\n']);
    text = before + w.slice(0, 1 + int(w.length - 1));
    cutCases++;
  } else text = fragmentText(model, syntax);
  try {
    const responses = readAll(model, text, k);
    if (cut) {
      // a whole call before the cut one is not part of the property: only the cut call is
      const runnable = await runnableCalls(responses);
      if (runnable > 0) fail('cut call runnable', `${model} case ${k}: ${JSON.stringify(text)}`);
    } else await runnableCalls(responses);
  } catch (e) {
    if (isTyped(e)) continue;
    untyped++;
    fail('untyped exception (completion)', `${model} case ${k}: ${e?.stack?.split('\n').slice(0, 3).join(' | ')} :: ${JSON.stringify(text).slice(0, 300)}`);
  }
  if (k > 0 && k % 100000 === 0) process.stderr.write(`  ${k} completions, ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
}
const completionSeconds = (Date.now() - t0) / 1000;

// ---------------------------------------------------------------------------------------
// Conversations

const GPT_SERVERS = ['vllm', 'transformers', 'llama.cpp', 'mlx-lm', 'ollama'];
function randomContent() {
  const r = random();
  if (r < 0.15) return null;
  if (r < 0.25) return '';
  if (r < 0.4) return [{ type: 'text', text: pick(TEXT) + pick(HARMONY) }, ...(random() < 0.3 ? [{ type: 'image_url', image_url: { url: 'x' } }] : [])];
  return fragmentText(pick(models), pick([...CONTROLS.keys()])).slice(0, 60);
}
function randomConversation() {
  const messages = [];
  const ids = [];
  if (random() < 0.3) messages.push({ role: pick(['system', 'developer']), content: randomContent() ?? 'Be brief.' });
  for (let n = 1 + int(6); n > 0; n--) {
    const r = random();
    if (r < 0.35) messages.push({ role: 'user', content: randomContent() });
    else if (r < 0.7) {
      const m = { role: 'assistant', content: randomContent() };
      if (random() < 0.5) {
        m.tool_calls = [];
        for (let c = 1 + int(2); c > 0; c--) {
          const id = random() < 0.9 ? `call_${int(1e6)}` : undefined;
          if (id) ids.push(id);
          m.tool_calls.push({ ...(id ? { id } : {}), type: 'function', function: { name: pick(['get_weather', 'get_time', 'nope', '']), arguments: pick(['{"city": "Paris"}', '{}', '', '{bad', '"x"', '[1]']) } });
        }
      }
      if (random() < 0.3) m[pick(['reasoning', 'reasoning_content', 'thinking'])] = pick(TEXT) + 'because';
      messages.push(m);
    } else if (r < 0.9) messages.push({ role: 'tool', tool_call_id: random() < 0.8 && ids.length ? pick(ids) : 'call_unknown', content: randomContent() ?? '{}' });
    else messages.push({ role: pick(['bogus', 'function', 'user']), content: randomContent(), ...(random() < 0.5 ? { name: 'x' } : {}) });
  }
  return messages;
}
const t1 = Date.now();
const C = Number(values.conversations);
let rendered = 0;
let refused = 0;
for (let k = 0; k < C; k++) {
  const messages = randomConversation();
  const model = models[k % models.length];
  const server = model === 'gpt-oss' ? GPT_SERVERS[int(GPT_SERVERS.length)] : pick(['transformers', 'vllm']);
  try {
    lib.renderPrompt({ ...(model !== 'gpt-oss' ? { model } : {}), server, tools: random() < 0.8 ? TOOLS : undefined, messages, date: '2025-08-05' });
    rendered++;
  } catch (e) {
    if (isTyped(e)) {
      refused++;
      continue;
    }
    untyped++;
    fail('untyped exception (conversation)', `${model} ${server} case ${k}: ${e?.stack?.split('\n').slice(0, 3).join(' | ')} :: ${JSON.stringify(messages).slice(0, 400)}`);
  }
  if (k > 0 && k % 20000 === 0) process.stderr.write(`  ${k} conversations, ${((Date.now() - t1) / 1000).toFixed(0)} s\n`);
}
const conversationSeconds = (Date.now() - t1) / 1000;

console.log(`seed ${SEED}, node ${process.version}`);
console.log(`completions: ${N} (${models.length} models, every mode and server, whole and streamed), ${cutCases} of them a call cut before its end; ${completionSeconds.toFixed(0)} s`);
console.log(`conversations: ${C} (${rendered} rendered, ${refused} refused with a CompileError); ${conversationSeconds.toFixed(0)} s`);
console.log(`untyped exceptions: ${untyped}; cut calls runnable: ${(failures.get('cut call runnable') ?? []).length}; streamed ≠ one push: ${(failures.get('stream ≠ whole') ?? []).length}`);
for (const [kind, list] of failures) {
  console.log(`\n${kind}: ${list.length}`);
  for (const d of list.slice(0, 20)) console.log(`  ${d}`);
}
process.exit(failures.size ? 1 : 0);
