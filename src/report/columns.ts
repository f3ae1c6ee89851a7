/**
 * The renderings a report shows side by side, one column each. A column is a name and a function
 * that prints the tools section of some tools; each tool is printed alone and the column's frame
 * (what it prints around every tool: headings, `namespace functions {`, `<tools>`) is cut off, so a
 * column shows the tool's own text. More columns (a `--model` family) are one more list entry:
 * `{ name: f.name, note: f.models, catalog: (read) => f.catalog(read.tools).text }`.
 */
import { formatDiagnostic, isCompileError, type Diagnostic } from '../diagnostics.js';
import { readTools } from '../api/compile.js';
import { listModels, resolveModel } from '../api/models.js';
import { renderCatalog, XML_DIALECTS, type CatalogOptions, type Flavor, type TemplateOption, type XmlDialect } from '../api/render.js';
import type { DiffFlavor } from '../diff.js';
import type { ReadResult } from '../input/types.js';
import { frameOf } from '../inventory.js';
import { fromJs, type JsonValue } from '../ir/json.js';
import type { LintFlavor } from '../lint/index.js';
import type { TokenizerOption } from '../tokenizers/index.js';
import type { ModelName } from '../models/names.js';

/** One rendering shown side by side: its name, a note on who prints it, and how it prints a tools section. */
export interface ReportColumn {
  /** Shown as the column's heading (`openai-harmony`, `qwen3-coder`…). */
  readonly name: string;
  /** Who prints it, in words (`vLLM, TensorRT-LLM`). */
  readonly note?: string;
  /** The tools section of these tools (read by the API's `readTools`); throws a CompileError when the renderer refuses them. */
  readonly catalog: (tools: ReadResult) => string;
  /** The `diff` flavor this column is, if any: the lines that differ between the first two such columns are marked. */
  readonly diff?: DiffFlavor;
  /** The lint flavor of this column, if any: its findings are listed. */
  readonly lint?: LintFlavor;
  /**
   * What this column's renderer itself says it loses or changes of the tools (read by the API's
   * `readTools` from the whole input, pointers into it): listed with each tool's findings under the
   * column's name, and counted, as lint's findings are under its flavor. The Ollama column's are
   * Ollama's `ollama/…` findings (what its Go decoding drops, what its template does not show, the
   * tools it renames or refuses), since lint has no rules of its own for Ollama's layout.
   */
  readonly findings?: (tools: ReadResult) => readonly Diagnostic[];
  /**
   * The model this column renders for (a `--model`, a `--template`): with it the report counts the
   * same tools on this column's model too, with `tokenizer`, and shows what the catalog costs on each.
   */
  readonly render?: ColumnRender;
  /** What counts this column's tokens (as InventoryOptions.tokenizer; default: the model's own when found, else an o200k estimate). */
  readonly tokenizer?: TokenizerOption;
}

/** The render options that make a column's model: a `model` name, or a chat `template` (with the `model` whose special tokens it takes). */
export interface ColumnRender {
  readonly model?: ModelName;
  readonly template?: TemplateOption;
}

/** The render options a column takes from the report's (the tools section's own options). */
export type ColumnOptions = Pick<CatalogOptions, 'namespace' | 'namespaceDescription' | 'limits' | 'controlTokens' | 'lowering'>;

const FLAVOR_NOTES: Record<Flavor, string> = {
  'openai-harmony': "OpenAI's reference renderer: vLLM, TensorRT-LLM, SGLang's Responses API",
  'chat-template': 'the official gpt-oss chat template under Jinja2: transformers, llama.cpp, LM Studio, mlx-lm',
  ollama: "Ollama's own gpt-oss template",
};

const DIALECT_NOTES: Record<XmlDialect, string> = {
  qwen: 'Qwen2.5, Qwen3, QwQ chat template',
  'qwen3-coder': 'Qwen3-Coder chat template',
  hermes: 'Hermes 2 Pro, Hermes 3 chat template',
  anthropic: 'Claude-style tool prompt (the published layout)',
};

function catalogOptions(options: ColumnOptions): CatalogOptions {
  // a column's own model is its own: the report's model, template, target, flavor and dialect are not passed on
  const { lowering: _lowering, model: _m, template: _t, target: _g, flavor: _f, dialect: _d, ...rest } = options as ColumnOptions & Pick<CatalogOptions, 'model' | 'template' | 'target' | 'flavor' | 'dialect'>;
  return rest;
}

/** A gpt-oss flavor as a column (with `lowering: 'faithful'`, the openai-harmony column is the faithful rendering). */
export function flavorColumn(flavor: Flavor, options: ColumnOptions = {}): ReportColumn {
  const base = catalogOptions(options);
  if (flavor === 'openai-harmony' && options.lowering === 'faithful') {
    return { name: 'faithful', note: 'the openai-harmony layout with what it would print as any rewritten (--faithful)', diff: 'faithful', catalog: (read) => renderCatalog(read, { ...base, lowering: 'faithful' }).text };
  }
  return {
    name: flavor,
    note: FLAVOR_NOTES[flavor],
    ...(flavor !== 'ollama' ? { diff: flavor, lint: flavor } : { findings: (read: ReadResult) => ollamaFindings(read, { ...base, target: 'harmony', flavor }) }),
    catalog: (read) => renderCatalog(read, { ...base, target: 'harmony', flavor }).text,
  };
}

/**
 * Ollama's own findings of the tools (`ollama/…`: what its Go decoding drops or case-folds, what
 * its template does not show, the tools it renames, treats as builtins or refuses), from its
 * rendering of the whole tool set: a refused tool's are the refusal's.
 */
function ollamaFindings(read: ReadResult, options: CatalogOptions): Diagnostic[] {
  let diagnostics: readonly Diagnostic[];
  try {
    diagnostics = renderCatalog(read, options).diagnostics;
  } catch (e) {
    if (!isCompileError(e)) throw e;
    diagnostics = e.diagnostics;
  }
  return diagnostics.filter((d) => d.code.startsWith('ollama/'));
}

/** An xml dialect as a column. */
export function dialectColumn(dialect: XmlDialect, options: ColumnOptions = {}): ReportColumn {
  const base = catalogOptions(options);
  return { name: dialect, note: DIALECT_NOTES[dialect], catalog: (read) => renderCatalog(read, { ...base, target: 'xml', dialect }).text };
}

/** The JSDoc-style TypeScript catalog as a column. */
export function jsdocColumn(options: ColumnOptions = {}): ReportColumn {
  const base = catalogOptions(options);
  return { name: 'jsdoc', note: 'TypeScript declarations with JSDoc comments (not formatted)', catalog: (read) => renderCatalog(read, { ...base, target: 'jsdoc' }).text };
}

/** A `--model` name as a column: a gpt-oss layout, an xml dialect, or a family's printer (`harmony-catalog models`); `tokenizer` counts its tokens. */
export function modelColumn(model: ModelName, options: ColumnOptions = {}, tokenizer?: TokenizerOption): ReportColumn {
  const base = catalogOptions(options);
  const r = resolveModel(model); // an unknown name is a CompileError listing the names
  const info = listModels().find((m) => m.name === r.name);
  const flavor = r.kind === 'builtin' && r.model.target === 'harmony' ? r.model.flavor : undefined;
  return {
    name: model,
    ...(info ? { note: info.models } : {}),
    ...(flavor !== undefined && flavor !== 'ollama' ? { diff: flavor, lint: flavor } : {}),
    ...(flavor === 'ollama' ? { findings: (read: ReadResult) => ollamaFindings(read, { ...base, model }) } : {}),
    catalog: (read) => renderCatalog(read, { ...base, model }).text,
    render: { model },
    ...(tokenizer !== undefined ? { tokenizer } : {}),
  };
}

/**
 * A chat template as a column (`--template`): its tools block as the template prints it, named
 * `name`; with `model`, that family's special tokens apply (as for render). `tokenizer` counts its tokens.
 */
export function templateColumn(name: string, template: TemplateOption, options: ColumnOptions = {}, more: { readonly model?: ModelName; readonly tokenizer?: TokenizerOption } = {}): ReportColumn {
  const base = catalogOptions(options);
  const render: ColumnRender = { template, ...(more.model !== undefined ? { model: more.model } : {}) };
  return {
    name,
    note: `${template.name ?? 'a chat template'}${more.model !== undefined ? ` (with --model ${more.model}'s special tokens)` : ''}`,
    catalog: (read) => renderCatalog(read, { ...base, ...render }).text,
    render,
    ...(more.tokenizer !== undefined ? { tokenizer: more.tokenizer } : {}),
  };
}

/**
 * The columns a report shows by default: the rendering counted first, then the other renderings
 * of its target (the three gpt-oss flavors; the four xml dialects; jsdoc alone; a `model` alone).
 */
export function reportColumns(options: ColumnOptions & Pick<CatalogOptions, 'target' | 'flavor' | 'dialect' | 'model'> = {}): ReportColumn[] {
  if (options.model !== undefined) return [modelColumn(options.model, options)];
  const target = options.target ?? 'harmony';
  if (target === 'jsdoc') return [jsdocColumn(options)];
  if (target === 'xml') {
    const first = options.dialect ?? 'qwen';
    return [first, ...XML_DIALECTS.filter((d) => d !== first)].map((d) => dialectColumn(d, options));
  }
  const first = options.flavor ?? 'openai-harmony';
  const flavors: Flavor[] = [first, ...(['openai-harmony', 'chat-template', 'ollama'] as const).filter((f) => f !== first)];
  return flavors.map((f) => flavorColumn(f, options));
}

/** A tool's text in one column, or why the column's renderer refuses it. */
export type ColumnEntry = { readonly text: string } | { readonly error: string };

/** What a column prints before its first tool and after its last, learned from two unlike probe tools. */
interface Frame {
  readonly prefix: string;
  readonly suffix: string;
}

// two tools unlike each other at both ends, each with a description and parameters (some templates fail without them)
const PROBE_A: JsonValue = fromJs({ name: 'probe_a', description: 'First probe.', parameters: { type: 'object', properties: { n: { type: 'integer', description: 'N.' } }, required: ['n'] } });
const PROBE_B: JsonValue = fromJs({ name: 'zz_other', description: 'Other.', parameters: { type: 'object', properties: { s: { type: 'string', description: 'S.' } } } });

/** Prints each tool of a column alone, without the column's frame. */
export class ColumnPrinter {
  private readonly frame: Frame | undefined;

  constructor(readonly column: ReportColumn) {
    let frame: Frame | undefined;
    try {
      const cat = (tools: JsonValue[]) => column.catalog(readTools(tools));
      frame = frameOf(cat([PROBE_A]), cat([PROBE_B]), cat([PROBE_A, PROBE_B]));
    } catch {
      frame = undefined; // a column that cannot print the probes: each tool is shown with its frame
    }
    this.frame = frame;
  }

  /** One tool (read alone) as this column prints it, without blank lines at either end. */
  entry(tool: ReadResult): ColumnEntry {
    let text: string;
    try {
      text = this.column.catalog(tool);
    } catch (e) {
      if (!isCompileError(e)) throw e;
      const errors = e.diagnostics.filter((d) => d.severity === 'error');
      return { error: (errors.length ? errors : e.diagnostics).map((d) => d.message || formatDiagnostic(d)).join('\n') };
    }
    const f = this.frame;
    if (f && text.length >= f.prefix.length + f.suffix.length && text.startsWith(f.prefix) && text.endsWith(f.suffix)) {
      text = text.slice(f.prefix.length, text.length - f.suffix.length);
    }
    return { text: text.replace(/^(?:[ \t]*\n)+|\s+$/g, '') };
  }
}
