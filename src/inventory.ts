/**
 * The inventory of a tool set: one row per tool (name, parameter count, its share of the developer
 * message in o200k_harmony tokens, lint findings) and the totals (system, developer, catalog tokens).
 *
 * Shares are exact and add up: the developer message is tokenised once, and every BPE piece (a
 * pre-tokenizer chunk: BPE never merges across chunks) is given to the tool whose text it starts in.
 * A tool's text is found by rendering it alone and cutting off the catalog's frame (what a catalog
 * prints around its tools, learned from two probe tools), then finding that text in the catalog.
 * What no tool's text covers (headings, instructions, the namespace lines) is overhead.
 */
import { isCompileError, type Diagnostic } from './diagnostics.js';
import { fromJs, isJsonObject, type JsonValue } from './ir/json.js';
import type { ReadResult, ToolDefinition } from './input/types.js';
import { readTools, type ToolsInput } from './api/compile.js';
import { renderCatalog, renderPart, renderPrompt, type PartOptions, type PromptOptions, type PromptResult } from './api/render.js';
import { isReadResult, standaloneTools, toolDocument } from './build/tool-values.js';
import { lintTools, type Finding, type LintFlavor } from './lint/index.js';
import { countMessageTokens, countPromptTokens, countTextTokens, textTokenChunks } from './tokens.js';

/** Options of `inventory`: the render options (as for `renderPart`; `part` and `tools` are not used). */
export interface InventoryOptions extends Omit<PartOptions, 'part' | 'tools'> {
  /**
   * The lint flavors whose findings are listed, or false for none. Default: the flavor rendered
   * (harmony target); none for the jsdoc and xml targets, which lint does not read.
   */
  readonly lint?: readonly LintFlavor[] | false;
}

/** A lint finding shown in the inventory (a Diagnostic, with the flavor it was found for). */
export type InventoryFinding = Finding;

/** One tool of the inventory. */
export interface InventoryTool {
  readonly name: string;
  /** Number of top-level properties of its parameters schema. */
  readonly parameters: number;
  /** Its share of the developer message, in o200k_harmony tokens. */
  readonly tokens: number;
  /** Lint findings for this tool. */
  readonly findings: readonly InventoryFinding[];
  /** Its rendering: the text of this tool in the catalog. */
  readonly text: string;
}

/**
 * Token totals (o200k_harmony): whole messages from `<|start|>` to `<|end|>` (0 when the target has no
 * such message: xml has neither); the catalog as its share of the developer message (or alone).
 */
export interface InventoryTotals {
  readonly system: number;
  readonly developer: number;
  readonly catalog: number;
  /** The whole prompt (a conversation included), envelope tokens counted as such: gpt-oss layouts only, when the prompt renders. */
  readonly prompt?: number;
}

/** The inventory of a tool set. */
export interface Inventory {
  readonly tools: readonly InventoryTool[];
  readonly totals: InventoryTotals;
  /** The rendered parts the counts are of. */
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
  /** Diagnostics of reading and rendering. */
  readonly diagnostics: readonly Diagnostic[];
}

/** Build the inventory of a tool set (any input `readTools` accepts) under these render options. */
export async function inventory(input: ToolsInput, options: InventoryOptions = {}): Promise<Inventory> {
  const read = isReadResult(input) ? input : readTools(input);
  const base = renderOptions(options);
  const parts = await partsOf(read, options);
  const system = parts.system;
  const developer = parts.developer ?? '';
  const catalog = parts.catalog;

  const values = standaloneTools(isReadResult(input) ? undefined : toolDocument(input), read.tools);
  const frame = await catalogFrame(base);
  const blocks: string[] = [];
  for (const v of values) blocks.push(toolBlock((await renderCatalog([v], base)).text, frame));

  // The text the shares are taken of: the developer message when the catalog is in it, else the catalog alone.
  const catalogAt = catalog === '' ? -1 : developer.indexOf(catalog);
  const host = catalogAt >= 0 ? developer : catalog;
  const catalogStart = Math.max(catalogAt, 0);
  const regions = locate(host, blocks, catalogStart);
  const chunks = tokenChunks(host);
  const shares = attribute(chunks, regions.filter((r): r is Region => r !== undefined), blocks.length);
  const catalogTokens = sumIn(chunks, catalogStart, catalogStart + catalog.length);

  const findings = findingsByTool(values, read.tools, options);
  const tools: InventoryTool[] = read.tools.map((t, i) => ({
    name: t.name,
    parameters: parameterCount(t),
    tokens: regions[i] !== undefined ? shares[i] : countTextTokens(blocks[i]),
    findings: findings[i],
    text: blocks[i],
  }));
  return {
    tools,
    totals: {
      system: system === '' ? 0 : countMessageTokens({ header: 'system', content: system }), // the xml target has none of its own
      developer: parts.developer === undefined ? 0 : developerTokens(developer, host === developer ? chunks : undefined),
      catalog: catalogTokens,
      // the text counted above (the developer message, or the catalog) is not counted again where the prompt holds it whole
      ...(parts.prompt !== undefined && isGptOss(options) ? { prompt: countPromptTokens(parts.prompt, new Map([[host, sumIn(chunks, 0, host.length)]])) } : {}),
    },
    system,
    developer,
    catalog,
    ...(parts.prompt !== undefined ? { prompt: parts.prompt } : {}),
    ...(parts.promptError !== undefined ? { promptError: parts.promptError } : {}),
    diagnostics: parts.diagnostics,
  };
}

/** True when the options render a gpt-oss layout (its prompt is Harmony, counted with o200k_harmony's envelope tokens). */
function isGptOss(options: InventoryOptions): boolean {
  if (options.model !== undefined) return options.model.startsWith('gpt-oss');
  return (options.target ?? 'harmony') === 'harmony';
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

async function partsOf(read: ReadResult, options: InventoryOptions): Promise<Parts> {
  let prompt: PromptResult | undefined;
  let promptError: Error | undefined;
  try {
    prompt = await renderPrompt({ ...options, tools: read });
  } catch (e) {
    if (!isCompileError(e)) throw e;
    promptError = e;
  }
  if (prompt) return { system: prompt.system, ...(prompt.developer !== undefined ? { developer: prompt.developer } : {}), catalog: prompt.catalog ?? '', prompt: prompt.text, diagnostics: prompt.diagnostics };
  // The whole prompt failed (the chat template needs a message): the parts alone.
  const catalog = read.tools.length ? await renderPart(read, { ...options, part: 'catalog' }) : { text: '', diagnostics: [] };
  const developer = await optional(() => renderPart(read, { ...options, part: 'developer' }));
  const system = await optional(() => renderPart(read, { ...options, part: 'system' }));
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

/** The lint flavors for these options (see InventoryOptions.lint). */
function lintFlavors(options: InventoryOptions): readonly LintFlavor[] {
  if (options.lint !== undefined) return options.lint === false ? [] : options.lint;
  if ((options.target ?? 'harmony') !== 'harmony') return [];
  // lint reads the gpt-oss flavors; another family's printer has no lint rules (its template errors are errors)
  if (options.model !== undefined && !options.model.startsWith('gpt-oss')) return [];
  if (options.model === 'gpt-oss-template') return ['chat-template'];
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
  for (const f of lintTools(values, { flavors }).findings) {
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
  const { messages: _messages, lint: _lint, ...rest } = options as PromptOptions & { lint?: unknown };
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
