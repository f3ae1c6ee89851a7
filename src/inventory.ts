/**
 * The inventory of a tool set: one row per tool (name, parameter count, its share of the prompt in
 * tokens, lint findings) and the totals of the parts the layout has (system and developer messages
 * for gpt-oss; the catalog and the whole prompt for every layout).
 *
 * Tokens are the model's own where it is known: gpt-oss's o200k_harmony for the gpt-oss layouts
 * (exact, src/tokens.ts), a `tokenizer.json` given (`tokenizer`) or found in the Hugging Face cache
 * for the model (src/tokenizers/); for another model without one, o200k_harmony counts the text as
 * an estimate, and `tokenizer` says so (`exact: false`).
 *
 * Shares are exact and add up: the text the catalog stands in (the developer message for gpt-oss,
 * the whole prompt for the other layouts) is tokenised once, and every token (every BPE piece of
 * o200k: BPE never merges across one) is given to the tool whose text it starts in. A tool's text
 * is found by rendering it alone and cutting off the catalog's frame (what a catalog prints around
 * its tools, learned from two probe tools), then finding that text in the catalog. What no tool's
 * text covers (headings, instructions, the namespace lines) is overhead.
 */
import { isCompileError, type Diagnostic } from './diagnostics.js';
import { fromJs, isJsonObject, type JsonValue } from './ir/json.js';
import type { ReadResult, ToolDefinition } from './input/types.js';
import { readTools, type ToolsInput } from './api/compile.js';
import { resolveModel } from './api/models.js';
import { renderCatalog, renderPart, renderPrompt, type PartOptions, type PromptOptions, type PromptResult } from './api/render.js';
import { isReadResult, standaloneTools, toolDocument } from './build/tool-values.js';
import { lintTools, type Finding, type LintFlavor } from './lint/index.js';
import { TEMPLATE_OF_BUILTIN } from './models/families.js';
import { countMessageTokens, countPromptTokens, countTextTokens, textTokenChunks } from './tokens.js';
import { findCachedTokenizer, GPT_OSS_TOKENIZER_SHA256, isModelId, loadTokenizer, resolveTokenizer, type HubCacheOptions, type Tokenizer, type TokenizerOption } from './tokenizers/index.js';

/** Options of `inventory`: the render options (as for `renderPart`; `part` and `tools` are not used), the tokenizer. */
export interface InventoryOptions extends Omit<PartOptions, 'part' | 'tools'> {
  /**
   * The lint flavors whose findings are listed, or false for none. Default: the flavor rendered
   * (harmony target); none for the jsdoc and xml targets, which lint does not read.
   */
  readonly lint?: readonly LintFlavor[] | false;
  /**
   * What counts the tokens: a `tokenizer.json` (or a model folder holding one), a model id whose
   * files are in the Hugging Face cache (`Qwen/Qwen3-8B`), `'gpt-oss'`, or a loaded Tokenizer.
   * Default: gpt-oss's o200k_harmony for the gpt-oss layouts; for another model, the tokenizer.json
   * of its Hugging Face id (the `model` given as an id, else the family's usual model) when it is in
   * the cache (nothing is downloaded), else o200k_harmony as an estimate.
   */
  readonly tokenizer?: TokenizerOption;
  /** Where the Hugging Face cache is looked for (default: this process's environment). */
  readonly hubCache?: HubCacheOptions;
}

/** A lint finding shown in the inventory (a Diagnostic, with the flavor it was found for). */
export type InventoryFinding = Finding;

/** One tool of the inventory. */
export interface InventoryTool {
  readonly name: string;
  /** Number of top-level properties of its parameters schema. */
  readonly parameters: number;
  /** Its share of the text the catalog stands in (the developer message, or the prompt), in tokens (see `Inventory.tokenizer`). */
  readonly tokens: number;
  /** Lint findings for this tool. */
  readonly findings: readonly InventoryFinding[];
  /** Its rendering: the text of this tool in the catalog. */
  readonly text: string;
}

/**
 * Token totals of the parts the layout has. gpt-oss layouts: whole messages from `<|start|>` to
 * `<|end|>`, the catalog as its share of the developer message. Other layouts (xml, a family, a
 * template) have no system or developer message of their own: the catalog is its share of the
 * whole prompt.
 */
export interface InventoryTotals {
  /** The system message (gpt-oss layouts only). */
  readonly system?: number;
  /** The developer message (gpt-oss layouts only; 0 when there is none). */
  readonly developer?: number;
  readonly catalog: number;
  /** The whole prompt (a conversation included), control tokens counted as such: when the prompt renders (not for jsdoc). */
  readonly prompt?: number;
}

/** What the tokens were counted with. */
export interface InventoryTokenizer {
  /** `o200k_harmony` (gpt-oss's, built in), else the tokenizer's name (`Qwen/Qwen3-8B`, `Qwen3/tokenizer.json`). */
  readonly name: string;
  /** The `tokenizer.json` counted with (an absolute path) and the sha256 of its bytes. */
  readonly path?: string;
  readonly sha256?: string;
  /**
   * How it was chosen: `builtin` (o200k_harmony for a gpt-oss layout), `given` (the tokenizer
   * option), `cache` (the model's tokenizer.json in the Hugging Face cache), `estimate` (none for
   * this model: o200k_harmony counts its text instead).
   */
  readonly from: 'builtin' | 'given' | 'cache' | 'estimate';
  /** True when the counts are the model's own; false for an o200k_harmony estimate of another model's text. */
  readonly exact: boolean;
  /** For a model without a tokenizer: the Hugging Face id whose cached tokenizer.json would have counted. */
  readonly wanted?: string;
}

/** The inventory of a tool set. */
export interface Inventory {
  readonly tools: readonly InventoryTool[];
  readonly totals: InventoryTotals;
  /** What the tokens were counted with, and whether they are the model's own. */
  readonly tokenizer: InventoryTokenizer;
  /** The rendered parts the counts are of ('' for a part the layout does not have). */
  readonly system: string;
  readonly developer: string;
  readonly catalog: string;
  /**
   * The whole prompt (as `renderPart` with part `prompt` prints it); undefined when it cannot be
   * rendered from these options (the chat template needs at least one message), see `promptError`.
   */
  readonly prompt?: string;
  /** Why the whole prompt could not be rendered. */
  readonly promptError?: Error;
  /** Diagnostics of reading and rendering (and of the tokenizer). */
  readonly diagnostics: readonly Diagnostic[];
}

/** Build the inventory of a tool set (any input `readTools` accepts) under these render options. */
export async function inventory(input: ToolsInput, options: InventoryOptions = {}): Promise<Inventory> {
  const read = isReadResult(input) ? input : readTools(input);
  const harmony = isHarmonyLayout(options);
  const counter = counterOf(options, harmony);
  const base = renderOptions(options);
  const parts = await partsOf(read, options, harmony);
  const system = parts.system;
  const developer = parts.developer ?? '';
  const catalog = parts.catalog;
  const prompt = parts.prompt;

  const values = standaloneTools(isReadResult(input) ? undefined : toolDocument(input), read.tools);
  const frame = await catalogFrame(base);
  const blocks: string[] = [];
  for (const v of values) blocks.push(toolBlock((await renderCatalog([v], base)).text, frame));

  // The text the shares are taken of: the developer message (gpt-oss) or the whole prompt (the
  // other layouts) when the catalog is in it, else the catalog alone.
  const container = harmony ? developer : (prompt ?? '');
  const catalogAt = catalog === '' ? -1 : container.indexOf(catalog);
  const host = catalogAt >= 0 ? container : catalog;
  const catalogStart = Math.max(catalogAt, 0);
  const regions = locate(host, blocks, catalogStart);
  const found = regions.filter((r): r is Region => r !== undefined);
  const chunks = counter.file ? fileChunks(counter.file, host, found, catalogStart, catalog.length) : tokenChunks(host);
  const shares = attribute(chunks, found, blocks.length);
  const catalogTokens = sumIn(chunks, catalogStart, catalogStart + catalog.length);
  const hostTokens = sumIn(chunks, 0, host.length);
  const count = (text: string) => (counter.file ? counter.file.count(text) : countTextTokens(text));

  const findings = findingsByTool(values, read.tools, options);
  const tools: InventoryTool[] = read.tools.map((t, i) => ({
    name: t.name,
    parameters: parameterCount(t),
    tokens: regions[i] !== undefined ? shares[i] : count(blocks[i]),
    findings: findings[i],
    text: blocks[i],
  }));
  let totals: InventoryTotals;
  if (harmony && !counter.file) {
    totals = {
      system: system === '' ? 0 : countMessageTokens({ header: 'system', content: system }),
      developer: parts.developer === undefined ? 0 : developerTokens(developer, host === developer ? chunks : undefined),
      catalog: catalogTokens,
      // the text counted above (the developer message, or the catalog) is not counted again where the prompt holds it whole
      ...(prompt !== undefined && countsPrompt(options) ? { prompt: countPromptTokens(prompt, new Map([[host, hostTokens]])) } : {}),
    };
  } else if (harmony && counter.file) {
    const file = counter.file;
    totals = {
      system: system === '' ? 0 : file.count(`<|start|>system<|message|>${system}<|end|>`),
      developer: parts.developer === undefined ? 0 : file.count(`<|start|>developer<|message|>${developer}<|end|>`),
      catalog: catalogTokens,
      ...(prompt !== undefined && countsPrompt(options) ? { prompt: file.count(prompt) } : {}),
    };
  } else {
    totals = { catalog: catalogTokens, ...(prompt !== undefined ? { prompt: host === prompt ? hostTokens : count(prompt) } : {}) };
  }
  const diagnostics = [...parts.diagnostics];
  if (counter.file && prompt !== undefined) {
    const missing = missingControlTokens(counter.file, prompt, found.length && host === prompt ? found : [], options);
    if (missing.length) diagnostics.push(missingTokensWarning(counter, missing));
  }
  return {
    tools,
    totals,
    tokenizer: counter.info,
    system,
    developer,
    catalog,
    ...(prompt !== undefined ? { prompt } : {}),
    ...(parts.promptError !== undefined ? { promptError: parts.promptError } : {}),
    diagnostics,
  };
}

/** True when the options render a gpt-oss layout (system and developer messages in the Harmony envelope): the harmony and jsdoc targets, the gpt-oss model names. */
function isHarmonyLayout(options: InventoryOptions): boolean {
  if (options.template !== undefined) return false;
  if (options.model !== undefined) {
    const r = resolveModel(options.model);
    return r.kind === 'builtin' && r.model.target === 'harmony';
  }
  const target = options.target ?? 'harmony';
  return target === 'harmony' || target === 'jsdoc';
}

/** True when the whole prompt's tokens are given for a gpt-oss layout (the harmony target: the jsdoc target's prompt is not counted). */
function countsPrompt(options: InventoryOptions): boolean {
  return options.model !== undefined || (options.target ?? 'harmony') === 'harmony';
}

/** The tokenizer of the counts: `file` counts (a tokenizer.json); without it, o200k_harmony through src/tokens.ts. */
interface Counter {
  readonly info: InventoryTokenizer;
  readonly file?: Tokenizer;
}

/** True for gpt-oss's o200k_harmony: the built-in encoder, or gpt-oss's own tokenizer.json (known by its sha256). */
function isGptOssTokenizer(t: Tokenizer): boolean {
  return t.source === 'builtin' || t.sha256 === GPT_OSS_TOKENIZER_SHA256;
}

function fileInfo(t: Tokenizer): Pick<InventoryTokenizer, 'path' | 'sha256'> {
  return { ...(t.path !== undefined ? { path: t.path } : {}), ...(t.sha256 !== undefined ? { sha256: t.sha256 } : {}) };
}

/** The Hugging Face id whose cached tokenizer.json counts for the options' model: the model given as an id, else its family's usual model. */
function hubIdOf(options: Pick<InventoryOptions, 'model' | 'target' | 'dialect'>): string | undefined {
  const model = options.model;
  if (model === undefined) return options.target === 'xml' ? TEMPLATE_OF_BUILTIN[options.dialect ?? 'qwen']?.hf : undefined;
  if (isModelId(model.trim())) return model.trim();
  const r = resolveModel(model);
  return r.kind === 'family' ? r.family?.hf : TEMPLATE_OF_BUILTIN[r.name]?.hf;
}

/** What counts the tokens, and how it was chosen (see InventoryOptions.tokenizer). */
function counterOf(options: InventoryOptions, harmony: boolean): Counter {
  const o200k = (from: InventoryTokenizer['from'], exact: boolean, t?: Tokenizer, wanted?: string): Counter => ({
    info: { name: 'o200k_harmony', ...(t !== undefined ? fileInfo(t) : {}), from, exact, ...(wanted !== undefined ? { wanted } : {}) },
  });
  if (options.tokenizer !== undefined) {
    const t = resolveTokenizer(options.tokenizer, options.hubCache);
    // gpt-oss's own tokenizer counts a gpt-oss layout exactly through src/tokens.ts; another model's text it only estimates
    if (isGptOssTokenizer(t)) return o200k(harmony ? (t.source === 'builtin' ? 'builtin' : 'given') : 'given', harmony, t.source === 'builtin' ? undefined : t);
    return { info: { name: t.name, ...fileInfo(t), from: 'given', exact: true }, file: t };
  }
  if (harmony) return o200k('builtin', true);
  const id = hubIdOf(options);
  const cached = id !== undefined ? findCachedTokenizer(id, options.hubCache) : undefined;
  if (cached !== undefined) {
    const t = loadTokenizer(cached);
    if (isGptOssTokenizer(t)) return o200k('cache', false, t);
    return { info: { name: t.name, ...fileInfo(t), from: 'cache', exact: true }, file: t };
  }
  return o200k('estimate', false, undefined, id);
}

/** The parts of the prompt, each on its own (a target may lack a system or developer message; the whole prompt may fail). */
interface Parts {
  readonly system: string;
  readonly developer?: string;
  readonly catalog: string;
  readonly prompt?: string;
  readonly promptError?: Error;
  readonly diagnostics: readonly Diagnostic[];
}

async function partsOf(read: ReadResult, options: InventoryOptions, harmony: boolean): Promise<Parts> {
  const { tokenizer: _t, hubCache: _h, lint: _l, ...renderable } = options;
  let prompt: PromptResult | undefined;
  let promptError: Error | undefined;
  try {
    prompt = await renderPrompt({ ...renderable, tools: read });
  } catch (e) {
    if (!isCompileError(e)) throw e;
    promptError = e;
  }
  const catalogPart = async () => (read.tools.length ? await renderPart(read, { ...renderable, part: 'catalog' }) : { text: '', diagnostics: [] });
  if (prompt) {
    // a template's prompt does not say where its tools are: its catalog is rendered on its own
    const catalog = prompt.catalog ?? (harmony ? '' : (await catalogPart()).text);
    return { system: prompt.system, ...(prompt.developer !== undefined ? { developer: prompt.developer } : {}), catalog, prompt: prompt.text, diagnostics: prompt.diagnostics };
  }
  // The whole prompt failed (the chat template needs a message): the parts alone.
  const catalog = await catalogPart();
  const developer = harmony ? await optional(() => renderPart(read, { ...renderable, part: 'developer' })) : undefined;
  const system = harmony ? await optional(() => renderPart(read, { ...renderable, part: 'system' })) : undefined;
  return {
    system: system?.text ?? '',
    ...(developer !== undefined && developer.text !== '' ? { developer: developer.text } : {}),
    catalog: catalog.text,
    ...(promptError ? { promptError } : {}),
    diagnostics: [...catalog.diagnostics, ...(developer?.diagnostics ?? [])],
  };
}

/** A part, or undefined when the target has no such part (a CompileError). */
async function optional<T>(render: () => T | Promise<T>): Promise<T | undefined> {
  try {
    return await render();
  } catch (e) {
    if (isCompileError(e)) return undefined;
    throw e;
  }
}

// Control-token spellings a template writes: `<|…|>`, `<|…>`, `<…|>` (Llama, Qwen, Gemma 4, gpt-oss…)
const CONTROL_SPELLING = /<\|[^<>|\s]{1,40}\|?>|<[^<>|\s]{1,40}\|>/g;

/**
 * The control-token spellings of the prompt (outside the tools' own text) and the template's special
 * tokens that are no token of the tokenizer: a tokenizer of another model (Gemma 3's file with Gemma
 * 4's template) counts them as text.
 */
function missingControlTokens(t: Tokenizer, prompt: string, regions: readonly Region[], options: InventoryOptions): string[] {
  // the text between the tools' own texts, piece by piece (one copy of the prompt at most)
  const spellings = new Set<string>();
  let at = 0;
  for (const r of [...regions].sort((a, b) => a.start - b.start)) {
    for (const m of prompt.slice(at, r.start).matchAll(CONTROL_SPELLING)) spellings.add(m[0]);
    at = Math.max(at, r.end);
  }
  for (const m of prompt.slice(at).matchAll(CONTROL_SPELLING)) spellings.add(m[0]);
  for (const v of Object.values(options.template?.special ?? {})) if (v !== '' && prompt.includes(v)) spellings.add(v);
  return [...spellings].filter((s) => t.tokenId(s) === undefined);
}

function missingTokensWarning(counter: Counter, missing: readonly string[]): Diagnostic {
  const list = missing.slice(0, 6).join(', ') + (missing.length > 6 ? ` and ${missing.length - 6} more` : '');
  return {
    code: 'tokenizer/missing-control-token',
    severity: 'warning',
    path: '',
    message: `the tokenizer ${counter.info.path ?? counter.info.name} has no token for ${list}, which the prompt spells as control tokens: it counts them as text. Is it this model's tokenizer? (Gemma 3's tokenizer.json with Gemma 4's template is such a mismatch.)`,
  };
}

/** The lint flavors for these options (see InventoryOptions.lint). */
function lintFlavors(options: InventoryOptions): readonly LintFlavor[] {
  if (options.lint !== undefined) return options.lint === false ? [] : options.lint;
  if ((options.target ?? 'harmony') !== 'harmony') return [];
  // a template is read as it prints each tool (where it raises, the descriptions it drops)
  if (options.template !== undefined) return ['template'];
  // lint reads the gpt-oss flavors; another family's printer has no lint rules (its template errors are errors)
  if (options.model !== undefined) {
    const r = resolveModel(options.model);
    if (r.kind !== 'builtin' || r.model.target !== 'harmony') return [];
    if (r.model.flavor === 'chat-template') return ['chat-template'];
    if (r.model.flavor === 'ollama') return [];
  }
  // lint reads the two flavors it knows; Ollama's layout has no lint rules of its own
  const flavor = options.flavor ?? 'openai-harmony';
  return flavor === 'ollama' ? [] : [flavor];
}

/**
 * Each tool's lint findings. The tools are linted as standalone values (tool i at `/i`); paths are
 * given back as pointers into the input (a Gemini declaration was wrapped: that step is dropped).
 */
function findingsByTool(values: readonly JsonValue[], tools: readonly ToolDefinition[], options: InventoryOptions): Finding[][] {
  const out: Finding[][] = tools.map(() => []);
  const flavors = lintFlavors(options);
  if (flavors.length === 0 || tools.length === 0) return out;
  const template = flavors.includes('template') && options.template !== undefined ? { template: options.template, ...(options.model !== undefined ? { model: options.model } : {}) } : {};
  for (const f of lintTools(values, { flavors: flavors.filter((f) => f !== 'template'), ...template }).findings) {
    const m = /^\/(\d+)(\/.*)?$/.exec(f.path);
    const i = m ? Number(m[1]) : -1;
    if (!m || !out[i]) continue;
    let rest = m[2] ?? '';
    if (tools[i].format === 'gemini') rest = rest.replace(/^\/functionDeclarations\/0(?=\/|$)/, '');
    if (tools[i].format === 'ai-sdk') rest = rest.replace(/^\/[^/]*(?=\/|$)/, '');
    out[i].push({ ...f, path: `${tools[i].pointer}${rest}` });
  }
  return out;
}

/** The options that shape the catalog (no conversation: it is not needed to print one tool). */
function renderOptions(options: InventoryOptions): PromptOptions {
  const { messages: _messages, lint: _lint, tokenizer: _tokenizer, hubCache: _hubCache, ...rest } = options;
  return rest;
}

/** Top-level properties of a tool's parameters schema. */
function parameterCount(tool: ToolDefinition): number {
  const props = isJsonObject(tool.parameters) ? tool.parameters.get('properties') : undefined;
  return isJsonObject(props) ? props.size : 0;
}

// ---------------------------------------------------------------------------------------
// Finding each tool's text in the catalog

/** What a catalog prints before its first tool and after its last. */
interface Frame {
  readonly prefix: string;
  readonly suffix: string;
}

// Two tools unlike each other at both ends (names, descriptions, parameters), each with a description
// and parameters (some templates fail without them).
const PROBE_A: JsonValue = fromJs({ name: 'probe_a', description: 'First probe.', parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } });
const PROBE_B: JsonValue = fromJs({ name: 'zz_other', description: 'Other.', parameters: { type: 'object', properties: { s: { type: 'string', description: 'S.' } } } });
const FRAMES = new Map<string, Frame | undefined>();

/**
 * The frame of a catalog under these options, from two unlike probe tools: A alone, B alone, A and B.
 * Text every tool's rendering starts or ends with (`) => any;` in Harmony) is given to the tools,
 * and the separator between tools to the tool after it.
 */
async function catalogFrame(options: PromptOptions): Promise<Frame | undefined> {
  const key = JSON.stringify(options, (_k, v: unknown) => (v instanceof Map ? Object.fromEntries(v) : v));
  if (FRAMES.has(key)) return FRAMES.get(key);
  let frame: Frame | undefined;
  try {
    const cat = async (tools: JsonValue[]) => (await renderCatalog(tools, options)).text;
    frame = frameOf(await cat([PROBE_A]), await cat([PROBE_B]), await cat([PROBE_A, PROBE_B]));
  } catch {
    frame = undefined; // a target that cannot print the probes: tools are then counted alone
  }
  if (FRAMES.size > 64) FRAMES.clear();
  FRAMES.set(key, frame);
  return frame;
}

/** The frame, from the catalogs of A alone, B alone and A then B. */
export function frameOf(a: string, b: string, both: string): Frame | undefined {
  const p = commonPrefix(a, b, Math.min(a.length, b.length));
  const s = commonSuffix(a, b, Math.min(a.length, b.length) - p);
  const P = a.slice(0, p);
  const S = a.slice(a.length - s);
  if (!both.startsWith(P) || !both.endsWith(S) || both.length < p + s) return undefined;
  const coreA = a.slice(p, a.length - s);
  const coreB = b.slice(p, b.length - s);
  const mid = both.slice(p, both.length - s);
  if (mid.length < coreA.length + coreB.length || !mid.startsWith(coreA) || !mid.endsWith(coreB)) return undefined;
  const gap = mid.slice(coreA.length, mid.length - coreB.length);
  let x = commonSuffix(P, gap, gap.length); // every tool starts with this (and the separator): the tools'
  // when that spans lines, it starts at a line break (`>` of `<functions>` and of `</function>` is not the tool's)
  const nl = gap.indexOf('\n', gap.length - x);
  if (nl > gap.length - x) x = gap.length - nl;
  const y = commonPrefix(S, gap.slice(0, gap.length - x), gap.length - x); // every tool ends with this: the tools'
  return { prefix: P.slice(0, P.length - x), suffix: S.slice(y) };
}

function commonPrefix(a: string, b: string, max: number): number {
  let i = 0;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function commonSuffix(a: string, b: string, max: number): number {
  let i = 0;
  while (i < max && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
  return i;
}

/** A tool's text: its one-tool catalog without the frame (the whole catalog when there is no frame). */
function toolBlock(single: string, frame: Frame | undefined): string {
  if (frame && single.length >= frame.prefix.length + frame.suffix.length && single.startsWith(frame.prefix) && single.endsWith(frame.suffix)) {
    return single.slice(frame.prefix.length, single.length - frame.suffix.length);
  }
  return single;
}

/** A span of the host text, [start, end). */
interface Region {
  readonly tool: number;
  readonly start: number;
  readonly end: number;
}

/** Where each tool's text is in the host: in order from the catalog's start, else anywhere free; undefined when not found. */
function locate(host: string, blocks: readonly string[], from: number): (Region | undefined)[] {
  const out: (Region | undefined)[] = [];
  const taken: Region[] = [];
  let pos = from;
  blocks.forEach((b, tool) => {
    if (b === '') return out.push(undefined);
    let at = host.indexOf(b, pos);
    if (at < 0) {
      // not in order (a printer that sorts its tools): any place that overlaps no other tool
      for (let k = host.indexOf(b, from); k >= 0; k = host.indexOf(b, k + 1)) {
        if (!taken.some((r) => k < r.end && r.start < k + b.length)) {
          at = k;
          break;
        }
      }
      if (at < 0) return out.push(undefined);
    } else pos = at + b.length;
    const r = { tool, start: at, end: at + b.length };
    taken.push(r);
    return out.push(r);
  });
  return out;
}

// ---------------------------------------------------------------------------------------
// Tokens by position

/** The host's BPE pieces: where each pre-tokenizer chunk starts and how many tokens it is. */
interface Chunks {
  readonly starts: readonly number[];
  readonly counts: readonly number[];
}

/** Tokenise once, chunk by chunk (BPE never crosses a chunk), keeping each chunk's start offset. */
export function tokenChunks(text: string): Chunks {
  const starts: number[] = [];
  const counts: number[] = [];
  let at = 0;
  const chunks = textTokenChunks(text);
  chunks.lengths.forEach((length, k) => {
    starts.push(at);
    counts.push(chunks.counts[k]);
    at += length;
  });
  return { starts, counts };
}

/**
 * The host's tokens under a tokenizer.json, by where each starts (the tokenizer's spans). A
 * Tokenizer without spans: the text cut at the tools' edges and the catalog's, each piece counted
 * alone; the first piece takes what counting apart changes, so the pieces add up to the whole.
 */
function fileChunks(t: Tokenizer, host: string, regions: readonly Region[], catalogStart: number, catalogLength: number): Chunks {
  if (host === '') return { starts: [], counts: [] };
  if (t.spans) return t.spans(host);
  const cuts = new Set<number>([0, catalogStart, catalogStart + catalogLength]);
  for (const r of regions) {
    cuts.add(r.start);
    cuts.add(r.end);
  }
  const sorted = [...cuts].filter((c) => c >= 0 && c < host.length).sort((a, b) => a - b);
  const starts: number[] = [];
  const counts: number[] = [];
  sorted.forEach((a, k) => {
    starts.push(a);
    counts.push(t.count(host.slice(a, sorted[k + 1] ?? host.length)));
  });
  counts[0] += t.count(host) - counts.reduce((x, y) => x + y, 0);
  return { starts, counts };
}

/** Tokens of the whole developer message; the content's chunks, when at hand, are not counted again. */
function developerTokens(content: string, chunks: Chunks | undefined): number {
  if (!chunks) return countMessageTokens({ header: 'developer', content });
  // the envelope and the content are tokenised apart: <|start|>developer<|message|> … <|end|>
  return countMessageTokens({ header: 'developer', content: '' }) + chunks.counts.reduce((a, b) => a + b, 0);
}

/** Tokens of the chunks that start in [from, to). */
function sumIn(chunks: Chunks, from: number, to: number): number {
  let n = 0;
  for (let i = 0; i < chunks.starts.length; i++) if (chunks.starts[i] >= from && chunks.starts[i] < to) n += chunks.counts[i];
  return n;
}

/** Each tool's tokens: the chunks that start in its region. */
function attribute(chunks: Chunks, regions: readonly Region[], tools: number): number[] {
  const shares = new Array<number>(tools).fill(0);
  const sorted = [...regions].sort((a, b) => a.start - b.start);
  let r = 0;
  for (let i = 0; i < chunks.starts.length; i++) {
    const at = chunks.starts[i];
    while (r < sorted.length && sorted[r].end <= at) r++;
    if (r < sorted.length && sorted[r].start <= at) shares[sorted[r].tool] += chunks.counts[i];
  }
  return shares;
}
