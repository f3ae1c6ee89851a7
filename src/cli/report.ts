/** `harmony-catalog report`: one self-contained HTML page of what the model reads, what each tool costs and what it loses. */
import { closeSync, openSync, writeSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { modelNames, resolveModel } from '../api/models.js';
import { FLAVORS, toolsOfInput, XML_DIALECTS, type TemplateOption } from '../api/render.js';
import { reportDate, reportModel, dialectColumn, flavorColumn, modelColumn, reportColumns, templateColumn, type ReportColumn, type ReportOptions } from '../report/index.js';
import { guard, MCP_HELP, mcpOptionsFrom, parseCommandArgs, printDiagnostics, UsageError, type CliIo, INPUT_HELP, isUsageCompileError, maxInputBytesFrom } from './io.js';
import { partOptionsFrom, RENDER_OPTIONS } from './render.js';
import { inputName, loadToolsArg } from './sources.js';
import { isCompileError, noToolsWarning } from '../diagnostics.js';
import { loadTemplateArg, specialFrom, templateKwargsFrom } from './template.js';
import { countedWith, templateTokenizer } from './tokenizer.js';
import { reportPageParts } from '../report/page.js';
import { LONG_INPUT, progressLine } from './progress.js';

/** Help text of `report`. */
export const REPORT_HELP = `Usage: harmony-catalog report <file|-|--mcp "command args"> [-o report.html] [options]

One self-contained HTML page (no network, nothing loaded from elsewhere; attach it to a CI run):
the totals (tools; tokens of the parts the model has: gpt-oss's system and developer messages,
the catalog, the whole prompt; lint findings by severity) and the options used; a bar per tool of
its token share, sortable by tokens and by name, with a budget line for --max-tokens; and per
tool, on demand, its rendering under each chosen flavor side by side (the lines where
openai-harmony and the chat template differ marked), its lint findings with the JSON Pointer into
the input and the schema text there. Text that spells a control token and findings of severity
error stand out.

Tokens are the model's own: o200k_harmony for gpt-oss; for another model its tokenizer.json
(--tokenizer, or found in the Hugging Face cache; the file and its sha256 are shown), else an
o200k_harmony estimate, labelled so. With several --model / --template columns, the page shows
what the same catalog costs on each model, each counted with its own tokenizer, and the bars can
be switched between them.

Options:
  -o, --output <file>   write the page to <file> and print its path on stderr (default: stdout; when
                        stdout is a terminal, ./report.html, and stderr says so)
  --flavor <f>          a gpt-oss flavor to show: openai-harmony | chat-template | ollama; repeat
                        for several, the first is the one counted (default: all three, openai-harmony
                        counted)
  --target <t>          harmony (default) | jsdoc | xml
  --dialect <d>         xml target: a dialect to show, qwen | qwen3-coder | hermes | anthropic; repeat
                        for several, the first is counted (default: all four, qwen counted)
  --model <name>        a model to show ('harmony-catalog models' lists them); repeat for several, the
                        first is counted; not with --target, --flavor or --dialect
  --template <path>     a chat template to show as a column (a .jinja file, a tokenizer_config.json or
                        chat_template.json, or a model folder holding one); repeat for several; after
                        the --model columns; --special and --template-kwarg apply to each (as render)
  --tokenizer [<column>=]<t>  what counts a column's tokens: a tokenizer.json, a model folder, a
                        Hugging Face model id in the local cache, or gpt-oss; <column> is a --model
                        name or a --template path as given (repeatable); without it, the first
                        column. Default: the model's tokenizer.json in the Hugging Face cache (the
                        --model as a Hugging Face id, or the family's usual model), a --template
                        folder's tokenizer.json, else an o200k_harmony estimate
  --max-tokens <n>      draw the budget line at n catalog tokens; exit 1 when the catalog is over it
                        (the page is still written)
  --title <text>        what the page names the input (default: the file name, or mcp: <command>)
  --inline-panels       put every tool's panel in the page as HTML, however many tools (default: up
                        to 200; above, each panel is filled in by the page's script when opened)
${MCP_HELP}
${INPUT_HELP}
  --quiet               do not print warnings
  --verbose             print every warning (else 20 of each code, then how many more)
  -h, --help            this help
Render options, as for 'harmony-catalog render' (see its --help): --instructions, --namespace,
  --date, --effort, --identity, --cutoff, --browser, --python, --server, --faithful, --control-tokens,
  --special, --template-kwarg.

The page's header says the harmony-catalog version that made it, when (ISO 8601, UTC) and, with
--mcp, the server's name and version (its serverInfo).

Environment:
  SOURCE_DATE_EPOCH     the date the page says it was made, in seconds since 1970-01-01 UTC (for
                        a page that is the same byte for byte on every run); default: now

Exit codes: 0 written, 1 the input cannot be rendered, the page cannot be written, or the catalog is
over --max-tokens, 2 usage error (SOURCE_DATE_EPOCH that is not a whole number of seconds too).
`;

// the render options of `render`, without those that make no sense here (a part, jsonl cases, a final newline, prettier)
const { part: _part, jsonl: _jsonl, help: _help, newline: _newline, 'no-format': _noFormat, ...RENDER_ONLY } = RENDER_OPTIONS;

const OPTIONS = {
  ...RENDER_ONLY,
  // repeatable here: one column each
  flavor: { type: 'string', multiple: true },
  dialect: { type: 'string', multiple: true },
  model: { type: 'string', multiple: true },
  template: { type: 'string', multiple: true },
  tokenizer: { type: 'string', multiple: true },
  output: { type: 'string', short: 'o' },
  'max-tokens': { type: 'string' },
  title: { type: 'string' },
  'inline-panels': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Where the page goes without -o when stdout is a terminal (in the current folder). */
const TTY_OUTPUT = 'report.html';

/** Run `report`; `version` is the one the page says made it (main's, as `--version` prints it). */
export async function reportCommand(argv: readonly string[], io: CliIo, version?: string): Promise<number> {
  const display = { verbose: false, command: 'report' };
  return guard(io, async () => {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS, 'report');
    display.verbose = Boolean(values.verbose);
    if (values.help) {
      io.stdout(REPORT_HELP);
      return 0;
    }
    const max = values['max-tokens'];
    if (max !== undefined && !/^\d+$/.test(max)) throw new UsageError(`--max-tokens must be a whole number of tokens, not ${JSON.stringify(max)}`);
    if (values.output === '') throw new UsageError('-o needs a file name');
    // the date the page says it was made: SOURCE_DATE_EPOCH for a reproducible page, else now
    let madeAt: Date;
    try {
      madeAt = reportDate(io.env);
    } catch (e) {
      if (!isCompileError(e)) throw e;
      throw new UsageError(e.diagnostics[0]?.message ?? e.message);
    }
    const flavors = distinct('--flavor', values.flavor, FLAVORS);
    const dialects = distinct('--dialect', values.dialect, XML_DIALECTS);
    const models = distinct('--model', values.model);
    for (const m of models) {
      try {
        resolveModel(m);
      } catch {
        throw new UsageError(`--model must be one of ${modelNames().join(', ')} (or a Hugging Face id of one of these families), not ${JSON.stringify(m)}`);
      }
    }
    const templates = distinct('--template', values.template);
    if (models.length > 1 && !templates.length && (values.special?.length || values['template-kwarg']?.length)) throw new UsageError('--special and --template-kwarg apply to the --template columns, or to a single --model');
    if (templates.length && (flavors.length || dialects.length || values.target !== undefined)) throw new UsageError('--template columns go with --model columns, not with --target, --flavor or --dialect');
    // the first column is the rendering counted; the render options check it as for `render`
    const first = models.length ? { model: models[0] } : templates.length ? { template: templates[0] } : {};
    const templateValues = templates.length && models.length ? { special: undefined, 'template-kwarg': undefined } : {};
    const { part: _p, ...given } = partOptionsFrom({ ...values, flavor: flavors[0], dialect: dialects[0], model: undefined, template: undefined, ...templateValues, ...first });
    const tokenizers = tokenizerArgs(values.tokenizer, [...models, ...templates]);
    const tokenizerOf = (column: string, templatePath?: string) => tokenizers.get(column) ?? templateTokenizer(templatePath);
    const loadedTemplates: TemplateOption[] = templates.map((path, k) =>
      k === 0 && !models.length && given.template !== undefined
        ? given.template
        : loadTemplateArg(path, { toolsGiven: true, special: specialFrom(values.special), kwargs: templateKwargsFrom(values['template-kwarg']) }),
    );
    const columns: ReportColumn[] = models.length || templates.length
      ? [
          ...models.map((m) => modelColumn(m, given, tokenizerOf(m))),
          ...templates.map((path, k) => templateColumn(columnName(path, templates), loadedTemplates[k] as TemplateOption, given, { ...(tokenizerOf(path, path) !== undefined ? { tokenizer: tokenizerOf(path, path) } : {}) })),
        ]
      : flavors.length
        ? flavors.map((f) => flavorColumn(f, given))
        : dialects.length
          ? dialects.map((d) => dialectColumn(d, given))
          : reportColumns(given);
    const firstTokenizer = columns[0]?.render !== undefined ? columns[0].tokenizer : tokenizers.get('');

    const loaded = await loadToolsArg(positionals[0], values.mcp, io, mcpOptionsFrom(values, io), maxInputBytesFrom(values));
    const options: ReportOptions = {
      ...given,
      ...(firstTokenizer !== undefined ? { tokenizer: firstTokenizer } : {}),
      hubCache: { env: io.env },
      columns,
      source: values.title ?? loaded.source,
      madeAt,
      ...(version !== undefined ? { version } : {}),
      ...(loaded.server !== undefined ? { mcpServer: loaded.server } : {}),
      ...(max !== undefined ? { maxTokens: Number(max) } : {}),
      ...(values['inline-panels'] ? { inlinePanels: true } : {}),
    };
    // a request body: the report is of its function tools
    const progress = progressLine('report', { eager: typeof loaded.input === 'string' && loaded.input.length >= LONG_INPUT });
    const model = await reportModel(toolsOfInput(loaded.input), { ...options, onProgress: (what, done, total) => progress.update(what, done, total) }).finally(() => progress.end());
    // the whole prompt is left out when it cannot be rendered, but not when the options do not go together
    if (isUsageCompileError(model.inventory.promptError)) throw model.inventory.promptError;
    const none = model.inventory.tools.length === 0 ? [noToolsWarning(inputName(loaded.source), 'the page lists none')] : [];
    if (!values.quiet) printDiagnostics([...none, ...model.inventory.diagnostics, ...model.costs.flatMap((c) => c.notes ?? [])], io, 'warning', display);

    // a page of HTML is no use on a terminal: it goes to report.html there, and the path is said
    const output = values.output ?? (io.isTTY ? TTY_OUTPUT : undefined);
    // the page is written a part at a time (a row, a panel): never held whole, whatever the number of tools
    const parts = reportPageParts(model, (done, total) => progress.update('writing the page', done, total));
    if (output === undefined) {
      try {
        for (const chunk of batched(parts)) io.stdout(chunk);
      } finally {
        progress.end();
      }
    } else {
      const path = resolve(output);
      try {
        writePage(path, parts);
      } catch (e) {
        // the file system's refusal (no such folder, no space…); anything else is no writing problem
        if (typeof (e as NodeJS.ErrnoException).code !== 'string') throw e;
        io.stderr(`harmony-catalog: cannot write ${output}: ${(e as Error).message}\n`);
        return 1;
      } finally {
        progress.end();
      }
      io.stderr(values.output === undefined ? `harmony-catalog: stdout is a terminal: the page is written to ${path} (-o FILE names another file; a pipe or > FILE gets the HTML)\n` : `${path}\n`);
    }
    const catalog = model.inventory.totals.catalog;
    if (max !== undefined && catalog > Number(max)) {
      const t = model.inventory.tokenizer;
      const label = !t.exact ? ' (an o200k estimate)' : t.name === 'o200k_harmony' ? '' : ` (counted with ${countedWith(t)})`;
      io.stderr(`harmony-catalog: over budget: the catalog is ${catalog} tokens${label}, more than --max-tokens ${max}\n`);
      return 1;
    }
    return 0;
  }, display);
}

/** Parts joined into pieces of about a megabyte (fewer writes; never the whole page in one string). */
function* batched(parts: Iterable<string>, size = 1 << 20): Generator<string> {
  let pending: string[] = [];
  let length = 0;
  for (const p of parts) {
    pending.push(p);
    length += p.length;
    if (length >= size) {
      yield pending.join('');
      pending = [];
      length = 0;
    }
  }
  if (pending.length) yield pending.join('');
}

/** Write the page's parts to a file, a megabyte at a time. */
function writePage(path: string, parts: Iterable<string>): void {
  const fd = openSync(path, 'w');
  try {
    for (const chunk of batched(parts)) writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
}

/** A template column's name: its file or folder name, or the path as given when two share a name. */
function columnName(path: string, all: readonly string[]): string {
  const name = basename(path.replace(/[\\/]+$/, '')) || path;
  return all.filter((p) => (basename(p.replace(/[\\/]+$/, '')) || p) === name).length > 1 ? path : name;
}

/**
 * `--tokenizer [<column>=]<t>` values by column (a --model name or a --template path as given);
 * a value without a column is the first column's (key '' when the columns are not models).
 */
function tokenizerArgs(given: readonly string[] | undefined, columns: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  let plain: string | undefined;
  for (const v of given ?? []) {
    if (v === '') throw new UsageError('--tokenizer needs a tokenizer.json, a model folder, a Hugging Face model id or gpt-oss');
    const i = v.indexOf('=');
    const column = i > 0 ? v.slice(0, i) : undefined;
    if (column !== undefined && columns.includes(column)) {
      if (out.has(column)) throw new UsageError(`--tokenizer ${column}=… is given twice`);
      if (v.slice(i + 1) === '') throw new UsageError(`--tokenizer ${column}= needs a tokenizer.json, a model folder, a Hugging Face model id or gpt-oss`);
      out.set(column, v.slice(i + 1));
      continue;
    }
    if (plain !== undefined) throw new UsageError(`--tokenizer is given twice without a column: say which column each counts (--tokenizer ${columns[0] ?? 'MODEL'}=PATH)${columns.length ? `; the columns are ${columns.join(', ')}` : ''}`);
    plain = v;
  }
  if (plain !== undefined) {
    const firstColumn = columns[0] ?? '';
    if (out.has(firstColumn)) throw new UsageError(`--tokenizer for ${firstColumn} is given twice`);
    out.set(firstColumn, plain);
  }
  return out;
}

/** A repeatable option's values, each once, each one of `allowed` when given. */
function distinct<T extends string>(flag: string, given: readonly string[] | undefined, allowed?: readonly T[]): T[] {
  const out: T[] = [];
  for (const v of given ?? []) {
    if (allowed && !allowed.includes(v as T)) throw new UsageError(`${flag} must be one of ${allowed.join(', ')}, not ${JSON.stringify(v)}`);
    if (!out.includes(v as T)) out.push(v as T);
  }
  return out;
}
