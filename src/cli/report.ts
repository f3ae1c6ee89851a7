/** `harmony-catalog report`: one self-contained HTML page of what the model reads, what each tool costs and what it loses. */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { modelNames } from '../api/models.js';
import { FLAVORS, toolsOfInput, XML_DIALECTS } from '../api/render.js';
import { buildReport, dialectColumn, flavorColumn, modelColumn, reportColumns, type ReportColumn, type ReportOptions } from '../report/index.js';
import { guard, MCP_HELP, mcpOptionsFrom, parseCommandArgs, printDiagnostics, UsageError, type CliIo } from './io.js';
import { partOptionsFrom, RENDER_OPTIONS } from './render.js';
import { loadToolsArg } from './sources.js';

/** Help text of `report`. */
export const REPORT_HELP = `Usage: harmony-catalog report <file|-|--mcp "command args"> [-o report.html] [options]

One self-contained HTML page (no network, nothing loaded from elsewhere; attach it to a CI run):
the totals (tools; tokens of the system message, the developer message and the catalog; lint
findings by severity) and the options used; a bar per tool of its token share (o200k_harmony,
exact), sortable by tokens and by name, with a budget line for --max-tokens; and per tool, on
demand, its rendering under each chosen flavor side by side (the lines where openai-harmony and
the chat template differ marked), its lint findings with the JSON Pointer into the input and the
schema text there. Text that spells a control token and findings of severity error stand out.

Options:
  -o, --output <file>   write the page to <file> and print its path on stderr (default: stdout)
  --flavor <f>          a gpt-oss flavor to show: openai-harmony | chat-template | ollama; repeat
                        for several, the first is the one counted (default: all three, openai-harmony
                        counted)
  --target <t>          harmony (default) | jsdoc | xml
  --dialect <d>         xml target: a dialect to show, qwen | qwen3-coder | hermes | anthropic; repeat
                        for several, the first is counted (default: all four, qwen counted)
  --model <name>        a model to show ('harmony-catalog models' lists them); repeat for several, the
                        first is counted; not with --target, --flavor or --dialect
  --max-tokens <n>      draw the budget line at n catalog tokens; exit 1 when the catalog is over it
                        (the page is still written)
  --title <text>        what the page names the input (default: the file name, or mcp: <command>)
  --inline-panels       put every tool's panel in the page as HTML, however many tools (default: up
                        to 200; above, each panel is filled in by the page's script when opened)
${MCP_HELP}
  --quiet               do not print warnings
  --verbose             print every warning (else 20 of each code, then how many more)
  -h, --help            this help
Render options, as for 'harmony-catalog render' (see its --help): --instructions, --namespace,
  --date, --effort, --identity, --cutoff, --browser, --python, --server, --faithful, --control-tokens.

Exit codes: 0 written, 1 the input cannot be rendered, the page cannot be written, or the catalog is
over --max-tokens, 2 usage error.
`;

// the render options of `render`, without those that make no sense here (a part, jsonl cases, a final newline, prettier)
const { part: _part, jsonl: _jsonl, help: _help, newline: _newline, 'no-format': _noFormat, ...RENDER_ONLY } = RENDER_OPTIONS;

const OPTIONS = {
  ...RENDER_ONLY,
  // repeatable here: one column each
  flavor: { type: 'string', multiple: true },
  dialect: { type: 'string', multiple: true },
  model: { type: 'string', multiple: true },
  output: { type: 'string', short: 'o' },
  'max-tokens': { type: 'string' },
  title: { type: 'string' },
  'inline-panels': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Run `report`. */
export async function reportCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const display = { verbose: false };
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
    const flavors = distinct('--flavor', values.flavor, FLAVORS);
    const dialects = distinct('--dialect', values.dialect, XML_DIALECTS);
    const models = distinct('--model', values.model, modelNames());
    // the first of each is the rendering counted; the render options check it as for `render`
    const { part: _p, ...given } = partOptionsFrom({ ...values, flavor: flavors[0], dialect: dialects[0], model: models[0] });
    const columns: ReportColumn[] = models.length
      ? models.map((m) => modelColumn(m, given))
      : flavors.length
        ? flavors.map((f) => flavorColumn(f, given))
        : dialects.length
          ? dialects.map((d) => dialectColumn(d, given))
          : reportColumns(given);

    const loaded = await loadToolsArg(positionals[0], values.mcp, io, mcpOptionsFrom(values, io));
    const options: ReportOptions = {
      ...given,
      columns,
      source: values.title ?? loaded.source,
      ...(max !== undefined ? { maxTokens: Number(max) } : {}),
      ...(values['inline-panels'] ? { inlinePanels: true } : {}),
    };
    // a request body: the report is of its function tools
    const report = await buildReport(toolsOfInput(loaded.input), options);
    if (!values.quiet) printDiagnostics(report.model.inventory.diagnostics, io, 'warning', display);

    if (values.output === undefined) io.stdout(report.html);
    else {
      const path = resolve(values.output);
      try {
        writeFileSync(path, report.html);
      } catch (e) {
        io.stderr(`harmony-catalog: cannot write ${values.output}: ${(e as Error).message}\n`);
        return 1;
      }
      io.stderr(`${path}\n`);
    }
    const catalog = report.model.inventory.totals.catalog;
    if (max !== undefined && catalog > Number(max)) {
      io.stderr(`harmony-catalog: over budget: the catalog is ${catalog} tokens, more than --max-tokens ${max}\n`);
      return 1;
    }
    return 0;
  }, display);
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
