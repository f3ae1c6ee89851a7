/**
 * Diff of two renderings, tool by tool: each tool rendered alone as its catalog entry (its
 * `// description` lines and `type name = …;` as they sit inside `namespace functions { … }`)
 * under two flavors, compared, and a unified diff (the `diff` package) where they differ.
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { formatDiagnostic, isCompileError, type Diagnostic } from './diagnostics.js';
import type { ModelName } from './models/names.js';
import { emitHarmonyTool } from './emit/harmony/catalog.js';
import { emitFaithfulTool } from './emit/harmony/faithful.js';
import { asRead, readTools, type ToolsInput } from './api/compile.js';
import { resolveModel } from './api/models.js';
import { renderCatalog } from './api/render.js';
import { isReadResult, standaloneTools, toolDocument } from './build/tool-values.js';
import type { JsonValue } from './ir/json.js';
import type { ToolDefinition } from './input/types.js';
import type { IrTool } from './ir/nodes.js';
import { faithfulLowerTool } from './lower/faithful.js';
import { lowerTool } from './lower/index.js';
import { renderChatTemplateDeveloper } from './messages/chat-template.js';
import { pushAll } from './ir/arrays.js';

/** What a tool can be rendered as: openai-harmony, the gpt-oss chat template, or harmony's layout with `--faithful`. */
export type DiffFlavor = 'openai-harmony' | 'chat-template' | 'faithful';

/** The flavors `diff` accepts. */
export const DIFF_FLAVORS: readonly DiffFlavor[] = ['openai-harmony', 'chat-template', 'faithful'];

/**
 * One side of a diff: a flavor, or any name `render --model` takes (`gpt-oss-template`,
 * `gpt-oss-ollama`, `qwen`, `llama-3.1`, `Qwen/Qwen3-8B`…; `ollama` stands for `gpt-oss-ollama`):
 * each tool as that model's catalog prints it alone (a gpt-oss layout without its namespace lines).
 */
export type DiffSide = DiffFlavor | 'ollama' | ModelName;

/** Options of `diffFlavors`. */
export interface DiffOptions {
  /** The left side. Default `openai-harmony`. */
  readonly a?: DiffSide;
  /** The right side. Default `chat-template`. */
  readonly b?: DiffSide;
  /** Lines of context around each change. Default 3. */
  readonly context?: number;
}

/** One side of one tool: its entry text, or why the renderer refuses it. */
export type ToolRendering = { readonly text: string } | { readonly error: string };

/** One tool compared. */
export interface ToolDiff {
  readonly tool: string;
  /** JSON Pointer of the tool in the input. */
  readonly pointer: string;
  /** `error` when either side fails (both may). */
  readonly status: 'identical' | 'differ' | 'error';
  readonly a: ToolRendering;
  readonly b: ToolRendering;
  /** The unified diff (file headers and hunks), when both rendered and differ. */
  readonly patch?: string;
}

/** Every tool compared, with the counts. */
export interface DiffResult {
  readonly a: DiffSide;
  readonly b: DiffSide;
  readonly tools: readonly ToolDiff[];
  readonly identical: number;
  readonly differ: number;
  readonly errors: number;
  /** What reading and lowering noticed (warnings; per-tool errors are in the tool's rendering). */
  readonly diagnostics: readonly Diagnostic[];
}

const NAMESPACE_HEAD = '# Tools\n\n## functions\n\nnamespace functions {\n\n';
const NAMESPACE_TAIL = '} // namespace functions';

/** One tool's catalog entry under a flavor (lowering errors make every flavor fail). */
export function renderToolEntry(def: ToolDefinition, ir: IrTool, flavor: DiffFlavor, lowering: readonly Diagnostic[] = []): ToolRendering {
  const errors = lowering.filter((d) => d.severity === 'error');
  if (errors.length) return { error: errors.map(formatDiagnostic).join('\n') };
  switch (flavor) {
    case 'openai-harmony':
      // inside the section, each tool is followed by the "\n" that joins the namespace's pieces
      return { text: `${emitHarmonyTool(ir)}\n` };
    case 'faithful': {
      // faithful lowering reads type names in another case (`"OBJECT"`) as the type they name
      const f = faithfulLowerTool(def);
      const failed = f.diagnostics.filter((d) => d.severity === 'error');
      if (failed.length) return { error: failed.map(formatDiagnostic).join('\n') };
      return { text: `${emitFaithfulTool(f.tool, { rewritten: true })}\n` };
    }
    case 'chat-template':
      try {
        const text = renderChatTemplateDeveloper([{ def, ir }]).text;
        if (!text.startsWith(NAMESPACE_HEAD) || !text.endsWith(NAMESPACE_TAIL)) return { text };
        return { text: text.slice(NAMESPACE_HEAD.length, text.length - NAMESPACE_TAIL.length) };
      } catch (e) {
        if (!isCompileError(e)) throw e;
        return { error: e.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message).join('\n') || e.message };
      }
  }
}

/** How a side renders: a flavor of renderToolEntry, or a model whose catalog of each tool alone is printed. */
type SideRenderer = { readonly flavor: DiffFlavor } | { readonly model: string };

/** A side's renderer: the flavors as they are; a --model name resolved (a gpt-oss name that is a flavor becomes it). Throws the usage CompileError of an unknown name. */
function sideRenderer(side: DiffSide): SideRenderer {
  if ((DIFF_FLAVORS as readonly string[]).includes(side)) return { flavor: side as DiffFlavor };
  const r = resolveModel(side === 'ollama' ? 'gpt-oss-ollama' : side);
  if (r.kind === 'builtin' && (r.model.flavor === 'openai-harmony' || r.model.flavor === 'chat-template')) return { flavor: r.model.flavor };
  return { model: r.name };
}

/** One tool's catalog under a model, alone (a gpt-oss layout without the namespace lines around it, as the chat-template flavor is shown). */
function modelEntry(value: JsonValue, model: string, lowering: readonly Diagnostic[]): ToolRendering {
  const errors = lowering.filter((d) => d.severity === 'error');
  if (errors.length) return { error: errors.map(formatDiagnostic).join('\n') };
  try {
    const text = renderCatalog(readTools([value]), { model }).text;
    if (!text.startsWith(NAMESPACE_HEAD) || !text.endsWith(NAMESPACE_TAIL)) return { text };
    return { text: text.slice(NAMESPACE_HEAD.length, text.length - NAMESPACE_TAIL.length) };
  } catch (e) {
    if (!isCompileError(e)) throw e;
    return { error: e.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message).join('\n') || e.message };
  }
}

/** Render every tool under two sides (flavors or --model names) and compare them. Throws a CompileError only when the input cannot be read or a side names no model. */
export function diffFlavors(input: ToolsInput, options: DiffOptions = {}): DiffResult {
  const a = options.a ?? 'openai-harmony';
  const b = options.b ?? 'chat-template';
  const ra0 = sideRenderer(a);
  const rb0 = sideRenderer(b);
  const read = asRead(input);
  // a model renders each tool's own value, read alone (as lint --template does)
  const values = 'model' in ra0 || 'model' in rb0 ? standaloneTools(isReadResult(input) ? undefined : toolDocument(input), read.tools) : [];
  const diagnostics: Diagnostic[] = [...read.diagnostics];
  const tools: ToolDiff[] = [];
  let identical = 0;
  let differ = 0;
  let errors = 0;
  for (const [i, def] of read.tools.entries()) {
    const lowered = lowerTool(def);
    pushAll(diagnostics, lowered.diagnostics.filter((d) => d.severity !== 'error'));
    const side = (s: SideRenderer) => ('flavor' in s ? renderToolEntry(def, lowered.tool, s.flavor, lowered.diagnostics) : modelEntry(values[i] as JsonValue, s.model, lowered.diagnostics));
    const ra = side(ra0);
    const rb = side(rb0);
    const base = { tool: def.name, pointer: def.pointer, a: ra, b: rb };
    if (!('text' in ra) || !('text' in rb)) {
      errors++;
      tools.push({ ...base, status: 'error' });
    } else if (ra.text === rb.text) {
      identical++;
      tools.push({ ...base, status: 'identical' });
    } else {
      differ++;
      const patch = createTwoFilesPatch(`${def.name} (${a})`, `${def.name} (${b})`, ra.text, rb.text, undefined, undefined, { context: options.context ?? 3, headerOptions: FILE_HEADERS_ONLY });
      tools.push({ ...base, status: 'differ', patch });
    }
  }
  return { a, b, tools, identical, differ, errors, diagnostics };
}

/** `N tools identical, M differ` and, when some fail, `, K fail` (those tools are listed by `formatDiff`). */
export function diffSummary(r: DiffResult): string {
  const s = `${r.identical} tool${r.identical === 1 ? '' : 's'} identical, ${r.differ} differ`;
  return r.errors ? `${s}, ${r.errors} fail` : s;
}

/** The side names of a failing tool: `chat-template`, or both. */
function failingSides(r: DiffResult, t: ToolDiff): string {
  return [!('text' in t.a) ? r.a : '', !('text' in t.b) ? r.b : ''].filter(Boolean).join(' and ');
}

/** The whole report: each differing tool's unified diff, each failing tool with its error, then the summary line. */
export function formatDiff(r: DiffResult, options: { readonly identical?: boolean } = {}): string {
  let out = '';
  for (const t of r.tools) {
    if (t.status === 'differ') out += t.patch ?? '';
    else if (t.status === 'error') {
      const why = [t.a, t.b].filter((x): x is { error: string } => 'error' in x).map((x) => x.error);
      out += `tool ${t.tool}: fails under ${failingSides(r, t)}\n${[...new Set(why)].map((w) => `  ${w.replace(/\n/g, '\n  ')}`).join('\n')}\n`;
    } else if (options.identical) out += `tool ${t.tool}: identical\n`;
  }
  return `${out}${diffSummary(r)}\n`;
}
