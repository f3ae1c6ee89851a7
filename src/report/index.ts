/**
 * The report: one self-contained HTML page of what the model reads for a tool set, what each tool
 * costs (the inventory's shares, in the model's own tokens where its tokenizer is known) and what
 * it loses (lint findings), with each tool's rendering under several renderers side by side and the
 * lines where the two gpt-oss renderers differ marked (the `diff` result). Columns that are models
 * (`--model`, `--template`) are each counted with their own tokenizer: the page compares what the
 * same catalog costs on each. Gathering is here; the page is `page.ts`.
 */
import type { Diagnostic } from '../diagnostics.js';
import { asRead, readTools, type ToolsInput } from '../api/compile.js';
import { standaloneTools, toolDocument, valueAt } from '../build/tool-values.js';
import { diffFlavors, type DiffFlavor } from '../diff.js';
import type { ReadResult, ToolDefinition } from '../input/types.js';
import { findControlTokens, findControlTokensInKey } from '../input/control-tokens.js';
import { CompileError, isCompileError } from '../diagnostics.js';
import { inventory, type Inventory, type InventoryOptions, type InventoryTokenizer, type InventoryTotals } from '../inventory.js';
import { isJsonArray, isJsonObject, type JsonValue } from '../ir/json.js';
import type { LintFlavor } from '../lint/index.js';
import { listFindings } from '../lint/report.js';
import { hasInvisibleCharacters } from '../lint/invisible.js';
import { ColumnPrinter, reportColumns, type ColumnEntry, type ReportColumn } from './columns.js';
import { reportPage } from './page.js';

export { dialectColumn, flavorColumn, jsdocColumn, modelColumn, reportColumns, templateColumn, type ColumnOptions, type ColumnRender, type ReportColumn } from './columns.js';

/** Options of `renderReport`: the render options (as for `inventory`), the columns, a token budget. */
export interface ReportOptions extends InventoryOptions {
  /**
   * The renderings shown side by side, in order. Default: the rendering the options choose (the one
   * counted), then the other renderings of its target (`reportColumns(options)`).
   */
  readonly columns?: readonly ReportColumn[];
  /** A token budget for the catalog: drawn as a line in the table and on the catalog's gauge. */
  readonly maxTokens?: number;
  /** What the tools are (a file name, `mcp: <command>`), shown in the title. */
  readonly source?: string;
  /**
   * Put every tool's panel in the page as HTML (found by the browser's search, readable without
   * script), or keep each as text the page's script fills in when it is opened (fast to open).
   * Default: inline up to 200 tools.
   */
  readonly inlinePanels?: boolean;
  /** Told what is being done, and how far (`done` of `total` tools) where it is counted: for a progress line. */
  readonly onProgress?: (what: string, done?: number, total?: number) => void;
  /** The version of harmony-catalog the header says made the page (the CLI gives its own, as `--version` prints it). Default: none shown. */
  readonly version?: string;
  /**
   * When the page was made, shown in the header (ISO 8601, UTC, to the second). Default: the
   * environment's `SOURCE_DATE_EPOCH` when set (seconds since 1970-01-01 UTC, for reproducible
   * output; `reportDate`), else now.
   */
  readonly madeAt?: Date;
  /** The MCP server the tools were listed from, as its `initialize` result names it (`serverInfo`): shown in the header. */
  readonly mcpServer?: McpServerInfo;
}

/** An MCP server's name and version, as its `initialize` result gives them (`serverInfo`). */
export interface McpServerInfo {
  readonly name?: string;
  readonly version?: string;
}

/**
 * The date a page is made at: `SOURCE_DATE_EPOCH` of `env` (a whole number of seconds since
 * 1970-01-01 UTC, https://reproducible-builds.org/specs/source-date-epoch/) when set, else now.
 * Throws a CompileError (`report/bad-source-date-epoch`) when it is set to anything else.
 */
export function reportDate(env: Readonly<Record<string, string | undefined>> = process.env): Date {
  const given = env.SOURCE_DATE_EPOCH;
  if (given === undefined || given === '') return new Date();
  const d = /^\d+$/.test(given) ? new Date(Number(given) * 1000) : undefined;
  if (d === undefined || Number.isNaN(d.getTime())) {
    throw new CompileError([{ code: 'report/bad-source-date-epoch', severity: 'error', path: '', message: `SOURCE_DATE_EPOCH must be a whole number of seconds since 1970-01-01 UTC, not ${JSON.stringify(given)}` }]);
  }
  return d;
}

/** A date as the page shows it: ISO 8601 in UTC, to the second (`2025-06-28T12:00:00Z`). */
export function isoSeconds(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** One finding as the page lists it: under the flavors that say it, with the schema text its pointer points at. */
export interface ReportFinding {
  readonly code: string;
  readonly severity: Diagnostic['severity'];
  readonly path: string;
  readonly message: string;
  /** The lint flavors that say it (`openai-harmony`, `chat-template`, `template`), or the columns whose renderer says it (`ollama`: ReportColumn.findings). */
  readonly flavors: readonly string[];
  /** The input value at `path`, when it resolves. */
  readonly fragment?: JsonValue;
}

/** One tool as the page shows it. */
export interface ReportTool {
  readonly index: number;
  readonly name: string;
  readonly title?: string;
  /** JSON Pointer of the tool in the input. */
  readonly pointer: string;
  readonly parameters: number;
  readonly tokens: number;
  readonly findings: readonly ReportFinding[];
  readonly counts: { readonly errors: number; readonly warnings: number; readonly infos: number };
  /** Diagnostics of reading and rendering under this tool's pointer. */
  readonly notes: readonly Diagnostic[];
  /** The control-token spellings in the tool's own text (name, title, description, schema strings and keys). */
  readonly controlTokens: readonly string[];
  /** True when the tool's own text (name, title, description, schema strings and keys) holds an invisible character (`lint/invisible-character`). */
  readonly invisible: boolean;
  /** Its text in each column. */
  readonly entries: readonly ColumnEntry[];
  /** Per column, the lines (0-based) that differ between the two diffed columns; empty for the others. */
  readonly changed: readonly ReadonlySet<number>[];
  /** The diff of the two diffed columns, when there are two: identical, differ, error (one side fails). */
  readonly diff?: 'identical' | 'differ' | 'error';
  /** The unified diff, when the differing lines could not be placed in the columns' text. */
  readonly patch?: string;
}

/** What the same tools cost on one column's model, counted with its tokenizer. */
export interface ColumnCost {
  /** The column's place in `columns`. */
  readonly column: number;
  readonly name: string;
  /** The totals of the parts that model has (its inventory's). */
  readonly totals: InventoryTotals;
  /** What counted, and whether the counts are the model's own. */
  readonly tokenizer: InventoryTokenizer;
  /** Each tool's tokens on this model, in input order. */
  readonly tools: readonly number[];
  /** Catalog tokens outside any tool. */
  readonly overhead: number;
  /** Why this model could not be counted (its renderer refuses the tools). */
  readonly error?: string;
  /** True for the cost that is the report's own inventory (the rendering counted). */
  readonly counted?: boolean;
  /** What counting on this model noticed (a tokenizer without the template's control tokens). */
  readonly notes?: readonly Diagnostic[];
}

/** Everything the page is made of. */
export interface ReportModel {
  readonly source?: string;
  /** The rendering whose tokens are counted (`openai-harmony`, `chat-template`, `qwen`…). */
  readonly counted: string;
  readonly columns: readonly ReportColumn[];
  /** The two columns whose differing lines are marked, when there are two. */
  readonly diffed?: readonly [number, number];
  readonly inventory: Inventory;
  /** What the catalog costs on each column that is a model (`--model`, `--template`), in column order; empty when no column is. */
  readonly costs: readonly ColumnCost[];
  readonly tools: readonly ReportTool[];
  readonly counts: { readonly errors: number; readonly warnings: number; readonly infos: number };
  /** Catalog tokens outside any tool (headings, namespace lines). */
  readonly overhead: number;
  readonly lint: readonly LintFlavor[];
  /** Whose findings the page lists: the lint flavors, then the columns that say their own (ReportColumn.findings: `ollama`). */
  readonly checked: readonly string[];
  /** Diagnostics that belong to no tool. */
  readonly notes: readonly Diagnostic[];
  readonly options: ReportOptions;
  readonly maxTokens?: number;
  /** See ReportOptions.inlinePanels. */
  readonly inlinePanels?: boolean;
  /** When the page was made (ReportOptions.madeAt), ISO 8601 in UTC to the second. */
  readonly madeAt: string;
  /** See ReportOptions.version. */
  readonly version?: string;
  /** See ReportOptions.mcpServer. */
  readonly mcpServer?: McpServerInfo;
}

/** A rendered report: the page and what it was made of. */
export interface Report {
  readonly html: string;
  readonly model: ReportModel;
}

/** The HTML report of a tool set (any input `readTools` accepts): one self-contained page. */
export async function renderReport(tools: ToolsInput, options: ReportOptions = {}): Promise<string> {
  return (await buildReport(tools, options)).html;
}

/** The report and its model (the totals, per tool data), for a caller that needs both (the CLI's budget check). */
export async function buildReport(input: ToolsInput, options: ReportOptions = {}): Promise<Report> {
  const model = await reportModel(input, options);
  return { html: reportPage(model), model };
}

/** The name of the rendering the options choose (the one the inventory counts). */
export function countedRendering(options: InventoryOptions): string {
  if (options.template !== undefined) return options.template.name ?? 'the chat template';
  if (options.model !== undefined) return options.model;
  const target = options.target ?? 'harmony';
  if (target === 'xml') return options.dialect ?? 'qwen';
  if (target === 'jsdoc') return 'jsdoc';
  return options.lowering === 'faithful' ? 'faithful' : (options.flavor ?? 'openai-harmony');
}

/** Gather what the page shows. */
export async function reportModel(input: ToolsInput, options: ReportOptions = {}): Promise<ReportModel> {
  const columns = options.columns ?? reportColumns(options);
  const lint = options.lint === false ? [] : (options.lint ?? lintOfColumns(columns));
  const madeAt = isoSeconds(options.madeAt ?? reportDate());
  const { columns: _c, maxTokens: _m, source: _s, inlinePanels: _i, onProgress, version: _v, madeAt: _a, mcpServer: _r, ...inventoryOptions } = options;
  onProgress?.('counting tokens and linting');
  const inv = await inventory(input, { ...inventoryOptions, lint });
  const costs = await columnCosts(input, columns, inventoryOptions, inv, onProgress);

  const read = asRead(input);
  const doc = input === read ? undefined : documentOf(input); // what readTools returned: no document to cut tools from
  const values = standaloneTools(doc, read.tools);
  const printers = columns.map((c) => new ColumnPrinter(c));
  const diffed = diffedColumns(columns);
  if (diffed) onProgress?.(`comparing ${columns[diffed[0]].name} and ${columns[diffed[1]].name}`);
  const diff = diffed ? diffFlavors(input, { a: diffed[2], b: diffed[3] }) : undefined;
  // what the columns that say their own findings (Ollama's) say of the whole tool set, by tool; lint: false turns them off too
  const saying = options.lint === false ? [] : columns.filter((c) => c.findings !== undefined);
  if (saying.length) onProgress?.(`reading the tools as ${saying.map((c) => c.name).join(', ')}`);
  const said = saying.flatMap((c) => c.findings!(read).map((d) => ({ finding: { ...d }, column: c.name })));
  const saidOf = toolNotes(said.map((x) => x.finding), read.tools);
  const columnOf = new Map(said.map((x) => [x.finding, x.column]));
  // a diagnostic a column lists as a finding is not a note too (Ollama counted: the same diagnostics)
  const saidKeys = new Set(said.map((x) => findingKey(x.finding)));
  const noteOf = toolNotes(inv.diagnostics.filter((d) => !saidKeys.has(findingKey(d))), read.tools);

  const tools: ReportTool[] = read.tools.map((def, i) => {
    onProgress?.('rendering each tool', i, read.tools.length);
    const row = inv.tools[i];
    const alone = readAlone(values[i]);
    const entries: ColumnEntry[] = printers.map((p) => (alone ? p.entry(alone) : { error: 'this tool cannot be read alone' }));
    const changed: Set<number>[] = columns.map(() => new Set<number>());
    let patch: string | undefined;
    const d = diff?.tools[i];
    if (diff && diffed && d && d.status === 'differ') {
      const placed = placeChanges(d.patch ?? '', d.a, d.b, entries[diffed[0]], entries[diffed[1]]);
      if (placed) [changed[diffed[0]], changed[diffed[1]]] = placed;
      else patch = d.patch;
    }
    const listed: { finding: Diagnostic; flavors: readonly string[] }[] = [...listFindings(row.findings), ...columnFindings(saidOf[i], columnOf)];
    const findings = listed.map(({ finding: f, flavors }) => {
      const fragment = fragmentAt(doc, def, f.path);
      return { code: f.code, severity: f.severity, path: f.path, message: f.message, flavors, ...(fragment !== undefined ? { fragment } : {}) };
    });
    findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
    return {
      index: i,
      name: def.name,
      ...(def.title !== undefined ? { title: def.title } : {}),
      pointer: def.pointer,
      parameters: row.parameters,
      tokens: row.tokens,
      findings,
      counts: countReported(findings),
      notes: noteOf[i],
      controlTokens: controlTokensOf(def),
      invisible: invisibleIn(def),
      entries,
      changed,
      ...(d ? { diff: d.status } : {}),
      ...(patch !== undefined ? { patch } : {}),
    };
  });

  const counts = { errors: 0, warnings: 0, infos: 0 };
  for (const t of tools) {
    counts.errors += t.counts.errors;
    counts.warnings += t.counts.warnings;
    counts.infos += t.counts.infos;
  }
  // a column's findings that belong to no tool are notes on the whole input
  const unplaced = saidOf[read.tools.length];
  return {
    ...(options.source !== undefined ? { source: options.source } : {}),
    counted: columns[0]?.render !== undefined && sameRender(columns[0], options) ? columns[0].name : countedRendering(options),
    columns,
    ...(diffed ? { diffed: [diffed[0], diffed[1]] as const } : {}),
    inventory: inv,
    costs,
    tools,
    counts,
    overhead: inv.totals.catalog - inv.tools.reduce((a, t) => a + t.tokens, 0),
    lint,
    checked: [...lint, ...saying.map((c) => c.name)],
    notes: [...noteOf[read.tools.length], ...unplaced],
    options,
    ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
    ...(options.inlinePanels !== undefined ? { inlinePanels: options.inlinePanels } : {}),
    madeAt,
    ...(options.version !== undefined ? { version: options.version } : {}),
    ...(options.mcpServer !== undefined ? { mcpServer: options.mcpServer } : {}),
  };
}

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

/** What makes two diagnostics the same finding (as lint's listing merges them): pointer, code, severity, message. */
function findingKey(d: Diagnostic): string {
  return [d.path, d.code, d.severity, d.message].join('\u0000');
}

/** A tool's findings said by columns (ReportColumn.findings), each once with every column that says it. */
function columnFindings(said: readonly Diagnostic[], columnOf: ReadonlyMap<Diagnostic, string>): { finding: Diagnostic; flavors: string[] }[] {
  const merged = new Map<string, { finding: Diagnostic; flavors: string[] }>();
  for (const d of said) {
    const column = columnOf.get(d) ?? '';
    const key = findingKey(d);
    const had = merged.get(key);
    if (had === undefined) merged.set(key, { finding: d, flavors: [column] });
    else if (!had.flavors.includes(column)) had.flavors.push(column);
  }
  return [...merged.values()];
}

/** Counts by severity of a tool's findings as the page lists them (each once, whatever number of flavors say it). */
function countReported(findings: readonly { readonly severity: Diagnostic['severity'] }[]): { errors: number; warnings: number; infos: number } {
  const counts = { errors: 0, warnings: 0, infos: 0 };
  for (const f of findings) {
    if (f.severity === 'error') counts.errors++;
    else if (f.severity === 'warning') counts.warnings++;
    else counts.infos++;
  }
  return counts;
}

/** True when a column renders what the options render, counted with the same tokenizer (its cost is the inventory's). */
function sameRender(column: ReportColumn, options: InventoryOptions): boolean {
  const r = column.render;
  return r !== undefined && r.model === options.model && r.template === options.template && column.tokenizer === options.tokenizer;
}

/** The cost of each column that is a model: the inventory of the same tools under its render options and tokenizer. */
async function columnCosts(input: ToolsInput, columns: readonly ReportColumn[], options: InventoryOptions, counted: Inventory, onProgress?: ReportOptions['onProgress']): Promise<ColumnCost[]> {
  const out: ColumnCost[] = [];
  const { model: _m, template: _t, target: _g, flavor: _f, dialect: _d, tokenizer: _k, lowering: _l, ...shared } = options;
  for (const [k, c] of columns.entries()) {
    if (c.render === undefined) continue;
    let inv: Inventory;
    const same = k === 0 && sameRender(c, options);
    if (!same) onProgress?.(`counting tokens on ${c.name}`);
    try {
      inv = same ? counted : await inventory(input, { ...shared, ...c.render, ...(c.tokenizer !== undefined ? { tokenizer: c.tokenizer } : {}), lint: false });
    } catch (e) {
      if (!isCompileError(e)) throw e;
      out.push({ column: k, name: c.name, totals: { catalog: 0 }, tokenizer: { name: 'o200k_harmony', from: 'estimate', exact: false }, tools: [], overhead: 0, error: e.diagnostics.find((d) => d.severity === 'error')?.message ?? e.message });
      continue;
    }
    const notes = same ? [] : inv.diagnostics.filter((d) => d.code.startsWith('tokenizer/'));
    out.push({
      column: k,
      name: c.name,
      totals: inv.totals,
      tokenizer: inv.tokenizer,
      tools: inv.tools.map((t) => t.tokens),
      overhead: inv.totals.catalog - inv.tools.reduce((a, t) => a + t.tokens, 0),
      ...(same ? { counted: true } : {}),
      ...(notes.length ? { notes } : {}),
    });
  }
  return out;
}

/** The lint flavors of the columns (lint reads the gpt-oss flavors only), in lint's order. */
function lintOfColumns(columns: readonly ReportColumn[]): LintFlavor[] {
  const wanted = new Set(columns.map((c) => c.lint).filter((f): f is LintFlavor => f !== undefined));
  return (['openai-harmony', 'chat-template'] as const).filter((f) => wanted.has(f));
}

/** The first two columns that are `diff` flavors (two different ones), if any: their places and flavors. */
function diffedColumns(columns: readonly ReportColumn[]): [number, number, DiffFlavor, DiffFlavor] | undefined {
  const a = columns.findIndex((c) => c.diff !== undefined);
  const fa = columns[a]?.diff;
  if (fa === undefined) return undefined;
  const b = columns.findIndex((c, k) => k > a && c.diff !== undefined && c.diff !== fa);
  const fb = columns[b]?.diff;
  return fb === undefined ? undefined : [a, b, fa, fb];
}

/** The input as one lossless JSON document, or undefined when it cannot be had (the tools are then shown from what was read). */
function documentOf(input: ToolsInput): JsonValue | undefined {
  try {
    return toolDocument(input);
  } catch {
    return undefined;
  }
}

/** A tool's own value read alone (as the inventory renders it), or undefined when it cannot be. */
function readAlone(value: JsonValue): ReadResult | undefined {
  try {
    return readTools([value]);
  } catch {
    return undefined;
  }
}

/** Diagnostics by tool (by JSON Pointer: the tool's own or under it); the last list holds those of no tool. Exported for its test. */
export function toolNotes(diagnostics: readonly Diagnostic[], tools: readonly ToolDefinition[]): Diagnostic[][] {
  const out: Diagnostic[][] = [...tools.map(() => []), []];
  // each tool by its pointer (the first, where two share one): a diagnostic's tool is found by the
  // prefixes of its path, not by a look at every tool (linear in tools and diagnostics)
  const byPointer = new Map<string, number>();
  tools.forEach((t, i) => {
    if (!byPointer.has(t.pointer)) byPointer.set(t.pointer, i);
  });
  for (const d of diagnostics) {
    let i = -1;
    const take = (prefix: string) => {
      const k = byPointer.get(prefix);
      if (k !== undefined && (i < 0 || k < i)) i = k;
    };
    take(d.path);
    for (let cut = d.path.lastIndexOf('/'); cut >= 0; cut = cut === 0 ? -1 : d.path.lastIndexOf('/', cut - 1)) take(d.path.slice(0, cut));
    out[i < 0 ? tools.length : i].push(d);
  }
  return out;
}

/** The input value a finding points at: in the input document, else under the tool's parameters. */
function fragmentAt(doc: JsonValue | undefined, def: ToolDefinition, path: string): JsonValue | undefined {
  if (doc !== undefined) {
    const v = valueAt(doc, path);
    if (v !== undefined) return v;
  }
  if (def.parameters !== undefined && (path === def.parametersPointer || path.startsWith(`${def.parametersPointer}/`))) {
    return valueAt(def.parameters, path.slice(def.parametersPointer.length));
  }
  return undefined;
}

/** True when a tool's own text (its name, title, description, and the strings and keys of its schema) holds an invisible character. */
function invisibleIn(def: ToolDefinition): boolean {
  // iterative: a deep schema cannot overflow the stack
  const stack: (JsonValue | undefined)[] = [def.description, def.parameters, def.extra];
  if (hasInvisibleCharacters(def.name) || (def.title !== undefined && hasInvisibleCharacters(def.title))) return true;
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (hasInvisibleCharacters(v)) return true;
    } else if (isJsonArray(v)) {
      for (const x of v) stack.push(x);
    } else if (isJsonObject(v)) {
      for (const [k, x] of v) {
        if (hasInvisibleCharacters(k)) return true;
        stack.push(x);
      }
    }
  }
  return false;
}

/** Every control-token spelling in a tool's own text: its name, title, description, and the strings and keys of its schema. */
function controlTokensOf(def: ToolDefinition): string[] {
  const found = new Set<string>();
  const add = (xs: readonly string[]) => xs.forEach((x) => found.add(x));
  const walk = (v: JsonValue | undefined): void => {
    if (typeof v === 'string') add(findControlTokens(v));
    else if (isJsonArray(v)) v.forEach(walk);
    else if (isJsonObject(v)) {
      for (const [k, x] of v) {
        add(findControlTokensInKey(k));
        walk(x);
      }
    }
  };
  add(findControlTokens(def.name));
  if (def.title !== undefined) add(findControlTokens(def.title));
  walk(def.description);
  walk(def.parameters);
  walk(def.extra);
  return [...found];
}

/**
 * The lines a unified diff changes, placed in the two columns' texts: per side, the 0-based lines
 * of the column's text. Undefined when a side's diffed text is not found in its column (render
 * options the diff does not take, such as escaped control tokens).
 */
function placeChanges(patch: string, a: { text: string } | { error: string }, b: { text: string } | { error: string }, ca: ColumnEntry, cb: ColumnEntry): [Set<number>, Set<number>] | undefined {
  if (!('text' in a) || !('text' in b) || !('text' in ca) || !('text' in cb)) return undefined;
  const { a: la, b: lb } = changedLines(patch);
  const sa = shift(a.text, ca.text, la);
  const sb = shift(b.text, cb.text, lb);
  return sa && sb ? [sa, sb] : undefined;
}

/** The line numbers (0-based) a unified diff removes from its old text and adds to its new one. */
export function changedLines(patch: string): { a: Set<number>; b: Set<number> } {
  const a = new Set<number>();
  const b = new Set<number>();
  let ia = -1;
  let ib = -1;
  for (const line of patch.split('\n')) {
    const h = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (h) {
      // a hunk of length 0 names the line before it: its first line is the next one
      ia = Number(h[1]) - 1 + (/^@@ -\d+,0 /.test(line) ? 1 : 0);
      ib = Number(h[2]) - 1 + (/ \+\d+,0 @@/.test(line) ? 1 : 0);
      continue;
    }
    if (ia < 0) continue; // the file headers
    if (line.startsWith('-')) a.add(ia++);
    else if (line.startsWith('+')) b.add(ib++);
    else if (line.startsWith(' ')) {
      ia++;
      ib++;
    }
  }
  return { a, b };
}

/** Lines of `text` moved to where `text` (without its blank ends) sits in `shown`; undefined when it is not there. */
function shift(text: string, shown: string, lines: ReadonlySet<number>): Set<number> | undefined {
  const lead = /^(?:[ \t]*\n)*/.exec(text)?.[0] ?? '';
  const core = text.slice(lead.length).replace(/\s+$/, '');
  const at = shown.indexOf(core);
  if (at < 0) return undefined;
  const offset = count(shown.slice(0, at), '\n') - count(lead, '\n');
  const total = count(shown, '\n') + 1;
  const out = new Set<number>();
  for (const n of lines) if (n + offset >= 0 && n + offset < total) out.add(n + offset);
  return out;
}

function count(s: string, ch: string): number {
  let n = 0;
  for (let i = s.indexOf(ch); i >= 0; i = s.indexOf(ch, i + 1)) n++;
  return n;
}
