/** `harmony-catalog lint`: what the model will not see, tool by tool, under each flavor. */
import type { Diagnostic } from '../diagnostics.js';
import { lintTools, LINT_FLAVORS, type Finding, type LintFlavor } from '../lint/index.js';
import { countListedFindings, listFindings } from '../lint/report.js';
import { escapeInvisible } from '../lint/invisible.js';
import { guard, mcpOptionsFrom, printDiagnostics, UsageError, type CliIo, parseCommandArgs, INPUT_HELP, INPUT_OPTIONS, maxInputBytesFrom } from './io.js';
import { loadToolsArg, noToolsOf } from './sources.js';
import { asRead } from '../api/compile.js';
import { toolsOfInput } from '../api/render.js';
import { loadTemplateArg, officialTemplate, specialFrom, templateKwargsFrom } from './template.js';
import { modelNames, resolveModel, type ResolvedModel } from '../api/models.js';
import type { TemplateOption } from '../api/render.js';

/** Help text of `lint`. */
export const LINT_HELP = `Usage: harmony-catalog lint <file|-|--mcp "command args"> [options]

For each tool and JSON Pointer in <file>, what the model will not see (or will misread)
under each flavor: keywords shown as \`any\`, descriptions, defaults, titles, enums and
nullables dropped, text that breaks the catalog's layout, control-token spellings, and
(chat-template) where the template raises. Every code is listed, with an example, in docs/lint.md.

With --template, each tool is also read as that chat template prints it (flavor "template"):
where the template raises on the tool (lint/template-error) and each description it does not
print (lint/dropped-description); the gpt-oss flavors are then read only when --flavor or --all
asks for them.

With --model, the tools are read as that model reads them: gpt-oss as openai-harmony, gpt-oss-template
as the official gpt-oss chat template, any other model through its official chat template (flavor
"template", as --template reads a template).

Options:
  --flavor <f>          openai-harmony | chat-template (repeat for both)
  --all                 every gpt-oss flavor (the default without --template or --model)
  --model <name>        the model whose rendering is read, as render --model names it (gpt-oss,
                        gpt-oss-template, qwen, hermes, llama-3.1, Qwen/Qwen3-8B…: 'harmony-catalog
                        models' lists them); with --template, the family whose special tokens it takes
  --template <path>     a chat template (a .jinja file, a tokenizer_config.json or chat_template.json,
                        or a model folder holding one), as render --template reads it
  --special <k=v>       a special token the template reads (repeatable), e.g. bos_token=<s>
  --template-kwarg <k=json>  a template variable (repeatable), e.g. enable_thinking=false
  --format <f>          text | json (default: text)
  --max-warnings <n>    exit 1 when there are more than n warnings
  --quiet               print errors and warnings only (no infos), and no input warnings on stderr
  --verbose             print every input warning (else 20 of each code, then how many more)
  --mcp "<cmd> [args]"  lint the tools of a live MCP server (stdio) instead of a file
  --mcp-timeout <ms>    how long to wait for the server (default 10000)
  --env KEY=VALUE       set a variable in the MCP server's environment (repeatable); the server
                        inherits this environment otherwise, all of it
${INPUT_HELP}
  -h, --help            this help

A finding said the same way under several flavors is listed once with its flavors, and counted
once in the summary and by --max-warnings.

Exit codes: 0 no errors (and no more warnings than --max-warnings), 1 errors found, too many
warnings, or the input cannot be read, 2 usage error.
`;

const OPTIONS = {
  flavor: { type: 'string', multiple: true },
  all: { type: 'boolean' },
  template: { type: 'string' },
  model: { type: 'string' },
  special: { type: 'string', multiple: true },
  'template-kwarg': { type: 'string', multiple: true },
  format: { type: 'string' },
  'max-warnings': { type: 'string' },
  quiet: { type: 'boolean' },
  mcp: { type: 'string' },
  'mcp-timeout': { type: 'string' },
  env: { type: 'string', multiple: true },
  ...INPUT_OPTIONS,
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The gpt-oss flavors chosen on the command line (none by default when a template is read: --template, or a model's). */
function flavorsFrom(values: { flavor?: string[]; all?: boolean }, templated: boolean): LintFlavor[] {
  if (values.all && values.flavor?.length) throw new UsageError('--all and --flavor exclude each other');
  if (!values.flavor?.length) return templated && !values.all ? [] : [...LINT_FLAVORS];
  for (const f of values.flavor) if (!(LINT_FLAVORS as readonly string[]).includes(f)) throw new UsageError(`--flavor must be ${LINT_FLAVORS.join(' or ')}, not ${JSON.stringify(f)}`);
  return LINT_FLAVORS.filter((f) => values.flavor!.includes(f));
}

/** `--model`, resolved (an unknown name is a usage error listing them); `gpt-oss-ollama` is refused: lint has no reader of Ollama's layout. */
function modelFrom(values: { model?: string }): ResolvedModel | undefined {
  if (values.model === undefined) return undefined;
  let r: ResolvedModel;
  try {
    r = resolveModel(values.model);
  } catch {
    throw new UsageError(`--model must be one of ${modelNames().join(', ')} (or a Hugging Face id of one of these families), not ${JSON.stringify(values.model)} (harmony-catalog models lists them)`);
  }
  if (r.kind === 'builtin' && r.model.flavor === 'ollama') throw new UsageError(`lint reads gpt-oss as openai-harmony (--model gpt-oss) or the official chat template (--model gpt-oss-template); Ollama's own layout (--model ${values.model}) is not linted`);
  return r;
}

/** The one gpt-oss flavor a gpt-oss --model name is (--flavor and --all then say the same thing twice). */
function modelFlavor(r: ResolvedModel, values: { model?: string; flavor?: string[]; all?: boolean; template?: string }): LintFlavor[] {
  if (values.flavor?.length || values.all) throw new UsageError(`--model ${values.model} names the flavor: drop --${values.all ? 'all' : 'flavor'}`);
  if (values.template !== undefined) throw new UsageError(`--template goes with a family's --model (its special tokens), not with --model ${values.model}`);
  return r.kind === 'builtin' && r.model.flavor === 'chat-template' ? ['chat-template'] : ['openai-harmony'];
}

/** Run `lint`. */
export async function lintCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const display = { verbose: false, command: 'lint' };
  return guard(io, async () => {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS, 'lint');
    display.verbose = Boolean(values.verbose);
    if (values.help) {
      io.stdout(LINT_HELP);
      return 0;
    }
    const model = modelFrom(values);
    // a gpt-oss --model is a flavor; another model (or --template) is read through a template, and the gpt-oss flavors then only with --flavor or --all
    const gptOss = model?.kind === 'builtin' && model.model.target === 'harmony' ? modelFlavor(model, values) : flavorsFrom(values, values.template !== undefined || model !== undefined);
    const special = specialFrom(values.special);
    const kwargs = templateKwargsFrom(values['template-kwarg']);
    if (values.template === undefined && (model === undefined || model.kind === 'builtin' && model.model.target === 'harmony') && (values.special !== undefined || values['template-kwarg'] !== undefined)) throw new UsageError(`--special and --template-kwarg go with --template${model === undefined ? " or a template's --model" : ''}`);
    if (values.template !== undefined && model !== undefined && model.kind !== 'family') throw new UsageError(`--template goes with a family's --model (its special tokens), not with --model ${values.model}`);
    // a family's --model beside --template lends it its special tokens (lintTools' model option), as render does
    const template: TemplateOption | undefined =
      values.template !== undefined ? loadTemplateArg(values.template, { toolsGiven: true, special, kwargs }) : model !== undefined ? officialTemplate(model, { special, kwargs }) : undefined;
    const flavors: LintFlavor[] = [...gptOss, ...(template !== undefined ? ['template' as const] : [])];
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, not ${JSON.stringify(format)}`);
    let maxWarnings: number | undefined;
    if (values['max-warnings'] !== undefined) {
      const raw = values['max-warnings'];
      if (!/^\d+$/.test(raw)) throw new UsageError(`--max-warnings must be a whole number, not ${JSON.stringify(raw)}`);
      maxWarnings = Number(raw);
    }
    // a request body: its function tools
    const loaded = await loadToolsArg(positionals[0], values.mcp, io, mcpOptionsFrom(values, io), maxInputBytesFrom(values));
    const text = toolsOfInput(loaded.input);
    // read once (JSON text is kept by its text: lintTools reads it from there)
    const none = noToolsOf(asRead(text), loaded.source, 'there is nothing to lint');
    const lint = lintTools(text, { flavors: gptOss, ...(template !== undefined ? { template } : {}), ...(model?.kind === 'family' ? { model: model.name } : {}) });
    const r = none ? { ...lint, diagnostics: [none, ...lint.diagnostics] } : lint;
    const shown = values.quiet ? r.findings.filter((f) => f.severity !== 'info') : r.findings;
    // one rule for the listing and the counts: a finding the flavors say the same way is one finding
    const counts = countListedFindings(r.findings);
    const tools = new Set(r.findings.map((f) => f.tool)).size;
    if (format === 'json') {
      io.stdout(`${JSON.stringify({ flavors, findings: shown, diagnostics: r.diagnostics, summary: { ...counts, tools } }, null, 2)}\n`);
    } else {
      printDiagnostics(r.diagnostics, io, values.quiet ? 'error' : 'warning', display);
      io.stdout(formatFindings(shown));
      io.stdout(`${summaryLine(counts, tools, flavors)}\n`);
    }
    const tooMany = maxWarnings !== undefined && counts.warnings > maxWarnings;
    if (tooMany && format === 'text') io.stderr(`harmony-catalog: ${counts.warnings} warnings, more than --max-warnings ${maxWarnings}\n`);
    return counts.errors > 0 || tooMany || hasErrors(r.diagnostics) ? 1 : 0;
  }, display);
}

function hasErrors(ds: readonly Diagnostic[]): boolean {
  return ds.some((d) => d.severity === 'error');
}

/** `2 errors, 5 warnings, 9 infos in 3 tools (openai-harmony, chat-template)`. */
function summaryLine(c: { errors: number; warnings: number; infos: number }, tools: number, flavors: readonly LintFlavor[]): string {
  const n = (k: number, w: string) => `${k} ${w}${k === 1 ? '' : 's'}`;
  return `${n(c.errors, 'error')}, ${n(c.warnings, 'warning')}, ${n(c.infos, 'info')} in ${n(tools, 'tool')} (${flavors.join(', ')})`;
}

/**
 * Findings grouped by tool, one line each: `  path  severity  code  [flavors]  message`. A
 * finding said the same way under several flavors is one line listing them all.
 */
export function formatFindings(findings: readonly Finding[]): string {
  const merged = listFindings(findings).map(({ finding, flavors }) => ({ f: finding, flavors }));
  // within a tool, the findings at one pointer stay together, in the order pointers were first met
  const firstSeen = new Map<string, number>();
  for (const f of findings) {
    const k = `${f.tool}\u0000${f.path}`;
    if (!firstSeen.has(k)) firstSeen.set(k, firstSeen.size);
  }
  const rank = (f: Finding) => firstSeen.get(`${f.tool}\u0000${f.path}`) ?? 0;
  const entries = merged.sort((a, b) => rank(a.f) - rank(b.f));
  let out = '';
  let tool: string | undefined;
  for (const { f, flavors } of entries) {
    if (f.tool !== tool) {
      tool = f.tool;
      out += `${out ? '\n' : ''}tool ${escapeInvisible(JSON.stringify(f.tool ?? ''))}\n`;
    }
    // a bidi control or another invisible character in a name would reorder or hide the line on a
    // terminal: each is shown as its escape (--format json keeps the text as it is)
    out += `  ${escapeInvisible(f.path || '/')}  ${f.severity}  ${f.code}  [${flavors.join(', ')}]  ${escapeInvisible(f.message)}\n`;
  }
  return out ? `${out}\n` : '';
}
