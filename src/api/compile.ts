/**
 * Compile once, render many: tools read (any shape), control tokens applied, lowered to the IR,
 * and what each printer made of them, kept.
 *
 * What `readTools` returns is a snapshot of the tools (frozen; JSON text and JavaScript objects are
 * copied into lossless values of its own, a JsonValue of Maps is taken as it is) and the handle of
 * a compiled tool set: `compileTools` keeps, per read result and per
 * lowering options (control-token policy and the family rendered for, lowering, limits), the lowered tools; the render
 * functions keep, per compiled tools and per printer options (target, flavor, dialect, model,
 * namespace…), the printed text (`cachedPrint`). So rendering the same read result again costs
 * a few lookups. JSON text is cached by its text (`asRead`: a bounded LRU), so rendering the
 * same text again is as cheap. A JavaScript value the caller owns is read afresh on every call
 * (it may have changed since): read it once with `readTools` and render the result to cache it.
 *
 * Every cache is keyed by the options that change bytes or diagnostics, and only by options of
 * plain values (strings, numbers, booleans, null); anything else is computed uncached. Errors are
 * never cached. Cached results are frozen (shallowly): they are shared.
 */
import { CompileError, throwIfErrors, type Diagnostic } from '../diagnostics.js';
import { applyControlTokensToRead, type ControlTokenPolicy } from '../input/control-tokens.js';
import { controlSpellingsFor, renderedFamily } from './controls.js';
import { documentSize, readTools as readToolsInput } from '../input/read.js';
import type { ReadResult, ToolDefinition } from '../input/types.js';
import type { ToolsDocument, UnknownInput } from '../input/shapes.js';
import type { IrTool } from '../ir/nodes.js';
import { lowerTool, type LowerLimits } from '../lower/index.js';
import { faithfulLowerTool } from '../lower/faithful.js';
import type { ModelName } from './models.js';

/**
 * Tools as the API takes them: JSON text (a string, or UTF-8 bytes), a JS value in any shape the
 * reader reads (OpenAI Chat / Responses, Anthropic, MCP, Gemini, legacy functions, AI SDK, bare
 * `{name, parameters}`; zod 4 and TypeBox schemas as parameters), or what `readTools` or
 * `compileTools` returned. Any other value, a value typed `unknown` included (JSON read at run
 * time), is accepted and checked when read (`UnknownInput`).
 */
export type ToolsInput = string | ReadResult | CompiledTools | ToolsDocument | UnknownInput;

/**
 * What `readTools` returns: the tool definitions read, and what was noticed (a snapshot: frozen).
 * `definitions` is the list; `tools` is the same list under its former name, kept so that code
 * written for it keeps working.
 */
export interface ReadToolsResult extends ReadResult {
  /** The tools read, one definition each, in input order (name, description, parameters as written, format, JSON Pointers). */
  readonly definitions: readonly ToolDefinition[];
  /**
   * The same list as `definitions`.
   * @deprecated use `definitions`: `compileTools(…)` results have `tools` too, for another list
   * (the lowered tools, now `lowered`), and the two names are being retired.
   */
  readonly tools: readonly ToolDefinition[];
}

/**
 * What is kept for a read result or compiled tools: a hidden property of the object itself, not an
 * entry of a WeakMap, so it is freed with the object by the next young-generation collection
 * (a WeakMap keeps its values until a full collection finds the key gone: thousands of one-off
 * renders would pile up).
 */
const KEPT: unique symbol = Symbol('harmony-catalog kept');

/**
 * What a read result keeps (compiled tools, by compile key) or compiled tools keep (printed
 * results, by print key, and the read result they were compiled from), most recent last.
 */
interface Kept {
  readonly read: ReadResult | undefined;
  entries: Map<string, unknown> | undefined;
}

/** The Kept record of an object of ours; undefined for anything else. */
function keptOf(o: unknown): Kept | undefined {
  return typeof o === 'object' && o !== null ? (o as { [KEPT]?: Kept })[KEPT] : undefined;
}

/** What readTools returned, or what compileTools compiled (its read result); undefined for anything else. */
function readOf(input: unknown): ReadResult | undefined {
  const kept = keptOf(input);
  return kept === undefined ? undefined : (kept.read ?? (input as ReadResult));
}

/**
 * Read tool definitions in any supported shape (`result.definitions`); throws a CompileError listing
 * every problem. What readTools or compileTools returned is read already.
 */
export function readTools(input: ToolsInput, options: { source?: string } = {}): ReadToolsResult {
  return (readOf(input) as ReadToolsResult | undefined) ?? snapshot(readToolsInput(input, options));
}

/**
 * A read result made a snapshot (frozen, shallowly) and marked as read: the compile and print
 * caches hang on it. `definitions` is a property of its own that is not enumerable: the result's
 * keys stay `tools` and `diagnostics` (what JSON.stringify writes, and what code that tells a read
 * result from tools by its keys looks for).
 */
function snapshot(r: ReadResult): ReadToolsResult {
  for (let i = 0; i < r.tools.length; i++) Object.freeze(r.tools[i]);
  Object.freeze(r.tools);
  Object.freeze(r.diagnostics);
  Object.defineProperty(r, 'definitions', { value: r.tools, enumerable: false });
  Object.defineProperty(r, KEPT, { value: { read: undefined, entries: undefined } satisfies Kept });
  return Object.freeze(r) as ReadToolsResult;
}

/** The entry `key` of what an object keeps (moved to most recent), or undefined. */
function keptEntry(kept: Kept, key: string): unknown {
  const hit = kept.entries?.get(key);
  if (hit !== undefined) {
    kept.entries!.delete(key);
    kept.entries!.set(key, hit);
  }
  return hit;
}

/** Keep `value` under `key`, dropping the least recent entry beyond `max`. */
function keep(kept: Kept, key: string, value: unknown, max: number): void {
  const entries = (kept.entries ??= new Map());
  entries.set(key, value);
  if (entries.size > max) entries.delete(entries.keys().next().value as string);
}

/** False while the caches are off (setCaching). */
let caching = true;

/** Turn the caches on (the default) or off: off, every call reads, lowers and prints afresh, and nothing is kept (what the cache tests compare with). */
export function setCaching(on: boolean): void {
  caching = on;
  if (!on) clearTextCache();
}

/** JSON text read lately, most recent last (bounded by TEXT_CACHE_ENTRIES and TEXT_CACHE_CHARS). */
const TEXT_CACHE = new Map<string, ReadResult>();
let textCacheChars = 0;
/** At most this many texts are kept… */
const TEXT_CACHE_ENTRIES = 16;
/** …of at most this many characters in all (a text longer than that is not kept). */
const TEXT_CACHE_CHARS = 8_000_000;

/** The read result of tools given to a render function: what readTools returned as it is, JSON text through the text cache, anything else read now. */
export function asRead(input: ToolsInput): ReadResult {
  const known = readOf(input);
  if (known !== undefined) return known;
  if (typeof input !== 'string' || !caching) return readTools(input);
  const hit = TEXT_CACHE.get(input);
  if (hit !== undefined) {
    TEXT_CACHE.delete(input);
    TEXT_CACHE.set(input, hit);
    return hit;
  }
  const r = readTools(input);
  if (input.length <= TEXT_CACHE_CHARS) {
    TEXT_CACHE.set(input, r);
    textCacheChars += input.length;
    for (const [text] of TEXT_CACHE) {
      if (TEXT_CACHE.size <= TEXT_CACHE_ENTRIES && textCacheChars <= TEXT_CACHE_CHARS) break;
      TEXT_CACHE.delete(text);
      textCacheChars -= text.length;
    }
  }
  return r;
}

/** Empty the cache of JSON text read by the render functions (read results and what hangs on them are freed with them). */
export function clearTextCache(): void {
  TEXT_CACHE.clear();
  textCacheChars = 0;
}

/** Tools read and lowered: each definition beside its IR, and every diagnostic so far. */
export interface CompiledTools {
  /** The tools read, one definition each, in input order (what `readTools(…).definitions` lists). */
  readonly definitions: readonly ToolDefinition[];
  /** Each definition lowered to the IR the printers print (`lowered[i]` is `definitions[i]`'s). */
  readonly lowered: readonly IrTool[];
  /**
   * The same list as `lowered`.
   * @deprecated use `lowered`: `readTools(…)` results have `tools` too, for the definitions, and the
   * two names are being retired.
   */
  readonly tools: readonly IrTool[];
  readonly diagnostics: readonly Diagnostic[];
}

/** The options that change the lowered tools and their diagnostics. */
export interface CompileOptions {
  readonly limits?: Partial<LowerLimits>;
  readonly controlTokens?: ControlTokenPolicy;
  readonly lowering?: 'exact' | 'faithful';
  /**
   * The model the tools are rendered for (any `--model` name), or the xml target and its dialect:
   * that family's control strings (`[INST]`, `<tool_call>`, `<seed:eos>`…) join the generic
   * spellings of the control-token policy.
   */
  readonly model?: ModelName;
  readonly target?: string;
  readonly dialect?: string;
}

/** Compile keys kept per read result (an LRU). */
const COMPILED_PER_READ = 4;

/** Read and lower tools (once per read result and options: see the module's note); throws a CompileError when any diagnostic is an error. */
export function compileTools(input: ToolsInput, options: CompileOptions = {}): CompiledTools {
  // tools compiled already (compileTools' own result) are used as they are: compile once, pass them to every render
  if (typeof input === 'object' && input !== null && COMPILED_SETS.has(input)) return input as CompiledTools;
  const read = asRead(input);
  const key = caching ? compileKey(options) : undefined;
  const kept = keptOf(read) as Kept;
  if (key === undefined) return compileRead(read, options);
  const hit = keptEntry(kept, key);
  if (hit !== undefined) return hit as CompiledTools;
  const c = compileRead(read, options);
  keep(kept, key, c, COMPILED_PER_READ);
  return c;
}

/** Every tool set compileTools returned (so a compiled set given back as input is not read again as tools). */
const COMPILED_SETS = new WeakSet<object>();

/** What compileTools computes: control tokens applied, every tool lowered. */
function compileRead(input: ReadResult, options: CompileOptions): CompiledTools {
  const read = applyControlTokensToRead(input, options.controlTokens ?? 'keep', controlSpellingsFor(options));
  const diagnostics: Diagnostic[] = [...read.diagnostics];
  // faithful lowering rewrites the IR as it lowers (tools then print with `rewritten: true`)
  const lower = options.lowering === 'faithful' ? faithfulLowerTool : lowerTool;
  // the document's size bounds every schema in it: the pre-pass then need not measure each one
  const size = documentSize(input);
  const lowerOptions = { ...(options.limits ? { limits: options.limits } : {}), ...(size ? { sizeBound: size } : {}) };
  const tools: IrTool[] = [];
  // indexed loops: no iterator results (this runs before V8 optimises it, in a CLI)
  const defs = read.tools;
  for (let i = 0; i < defs.length; i++) {
    const r = lower(defs[i] as ToolDefinition, lowerOptions);
    for (let k = 0; k < r.diagnostics.length; k++) diagnostics.push(r.diagnostics[k] as Diagnostic);
    tools.push(r.tool);
  }
  throwIfErrors(diagnostics);
  return compiled(input, read.tools, tools, diagnostics);
}

/** Compiled tools, frozen, with room for what is printed of them and the read result they come from. */
function compiled(from: ReadResult, definitions: readonly ToolDefinition[], tools: readonly IrTool[], diagnostics: readonly Diagnostic[]): CompiledTools {
  const lowered = Object.freeze(tools);
  const c: CompiledTools = { definitions: Object.freeze(definitions), lowered, tools: lowered, diagnostics: Object.freeze(diagnostics) };
  Object.defineProperty(c, KEPT, { value: { read: from, entries: undefined } satisfies Kept });
  COMPILED_SETS.add(c);
  return Object.freeze(c);
}

/**
 * The cache key of compile options: the lowering (compileTools tells `faithful` from anything
 * else), the control-token policy, the family rendered for (its control strings), the limits given; undefined (do not cache) when one is not a
 * plain value the key can spell.
 */
function compileKey(options: CompileOptions): string | undefined {
  const policy = options.controlTokens ?? 'keep';
  if (policy !== 'keep' && policy !== 'escape' && policy !== 'error') return undefined;
  // the family whose control strings join the policy (resolved: two names of one family share the entry)
  const family = renderedFamily(options);
  let key = `${options.lowering === 'faithful' ? 'faithful' : 'exact'} ${policy} ${JSON.stringify(family ?? null)}`;
  const limits = options.limits as Record<string, unknown> | undefined;
  if (limits) {
    if (typeof limits !== 'object') return undefined;
    // the lowering spreads the limits over the defaults: every own key counts, an undefined one too
    for (const k of Object.keys(limits).sort()) {
      const v = limits[k];
      if (typeof v !== 'number' && v !== undefined) return undefined;
      key += ` ${k}=${String(v)}`;
    }
  }
  return key;
}

/** Print keys kept per compiled tools (an LRU). */
const PRINTED_PER_COMPILE = 16;

/**
 * A printer's result for compiled tools, computed once per print key: `make` gets the options
 * with only `keys` kept (so it reads nothing the key leaves out) and its result is kept (frozen,
 * with its diagnostics). The key is `what` and those options; when one of them is not a plain
 * value (a string, number, boolean or null), the result is computed and not kept.
 */
export function cachedPrint<O extends object, R extends object>(c: CompiledTools, what: string, options: O, keys: readonly (keyof O & string)[], make: (picked: O) => R): R {
  // caches off: the printer sees every option, as before there was a cache
  if (!caching) return make(options);
  const picked = {} as Record<string, unknown>;
  let key: string | undefined = what;
  for (const k of keys) {
    const v = (options as Record<string, unknown>)[k];
    if (v === undefined) continue;
    picked[k] = v;
    if (key === undefined) continue;
    const t = typeof v;
    // the type is part of the key (1 and "1" print differently); a string is quoted (no separator inside it can match)
    if (t === 'string') key += ` ${k}=${JSON.stringify(v)}`;
    else if (t === 'number' || t === 'boolean' || v === null) key += ` ${k}=${t}:${String(v)}`;
    else key = undefined;
  }
  const kept = keptOf(c);
  if (key === undefined || kept === undefined) return make(picked as O);
  const hit = keptEntry(kept, key);
  if (hit !== undefined) return hit as R;
  const r = make(picked as O);
  const diagnostics = (r as { diagnostics?: unknown }).diagnostics;
  if (Array.isArray(diagnostics)) Object.freeze(diagnostics);
  keep(kept, key, Object.freeze(r), PRINTED_PER_COMPILE);
  return r;
}

/** No tools. */
export const NO_TOOLS: CompiledTools = compiled(snapshot({ tools: [], diagnostics: [] }), [], [], []);


/** A pointer with its `/tools/<i>` prefix moved to where that tool really stands in the caller's document. */
function remapPointer(p: string, pointers: readonly string[]): string {
  const m = /^\/tools\/(\d+)(?=\/|$)/.exec(p);
  if (!m) return p;
  const to = pointers[Number(m[1])];
  return to === undefined ? p : to + p.slice(m[0].length);
}

/**
 * Read tools that were taken out of a larger list (a request body's function tools, its builtin
 * tools set aside): `pointers[i]` is where the i-th given tool stands in the caller's document,
 * and every pointer of the result (tools, parameters, diagnostics) says so.
 */
export function readToolsAt(tools: readonly unknown[], pointers: readonly string[], notes: readonly Diagnostic[] = []): ReadToolsResult {
  let r: ReadResult;
  try {
    // a JsonValue list is read as it is (number text kept); JS values are converted by readTools
    r = readToolsInput(new Map<string, unknown>([['tools', tools]]));
  } catch (e) {
    if (e instanceof CompileError) throw new CompileError(e.diagnostics.map((d) => ({ ...d, path: remapPointer(d.path, pointers) })));
    throw e;
  }
  const out: ReadResult = {
    tools: r.tools.map((t) => ({ ...t, pointer: remapPointer(t.pointer, pointers), parametersPointer: remapPointer(t.parametersPointer, pointers) })),
    diagnostics: [...notes, ...r.diagnostics.map((d) => ({ ...d, path: remapPointer(d.path, pointers) }))],
  };
  return snapshot(out);
}
