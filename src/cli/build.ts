/** `harmony-catalog build`: write the outputs of a config; `--check` writes nothing and fails when any would change. */
import { buildDiff, CONFIG_FILE, ConfigError, planBuild, writeBuild } from '../build/index.js';
import { guard, parseCommandArgs, printDiagnostics, UsageError, type CliIo } from './io.js';
import { mcpTimeoutFrom } from './sources.js';
import { loadTemplateArg } from './template.js';

/** Help text of `build`. */
export const BUILD_HELP = `Usage: harmony-catalog build [--config ${CONFIG_FILE}] [--check]

Render the tools of the config's sources into its outputs. The same input gives the same bytes.

Options:
  --config <file>       the config (default: ./${CONFIG_FILE}); paths in it are relative to it
  --check               write nothing; show the diff and exit 1 when any output would change (CI)
  --mcp-timeout <ms>    time allowed for each MCP server source (default: 10000)
  --quiet               do not print warnings or the list of files
  --verbose             print every warning (else 20 of each code, then how many more)
  -h, --help            this help

Config:
  {
    "sources": [
      "tools/*.json",                                 JSON files or globs (*, ?, **)
      {"files": ["a.json", "more/**/*.json"]},
      {"module": "./tools.mjs", "export": "tools"},   an ES module: tools, TypeBox or JSON schemas
      {"mcp": "node server.js stdio", "timeoutMs": 10000}
    ],
    "outputs": [
      {"path": "out/developer.txt", "part": "developer"},            text: one part (default: prompt)
      {"path": "out/catalog.ts", "format": "module"},                 export const system, developer, …
      {"path": "out/catalog.json", "target": "harmony", "flavor": "openai-harmony"}   parts + tokens
    ]
  }
  The format follows the extension unless given (.json json; .js .mjs .ts .mts module; else text).
  Output keys besides path/format/part are render options (target, flavor, dialect, model,
  instructions, namespace, namespaceDescription, date, effort, identity, cutoff, browser, python,
  completion, controlTokens, messages, server, messageFormat), and:
    "template": "models/Qwen3"        a chat template (.jinja, a JSON config, or a model folder),
    "special": {"bos_token": "<s>"},  "templateKwargs": {"enable_thinking": false}   as render's
                                      --template, --special, --template-kwarg
    "tokenizer": "models/Qwen3"       what counts the tokens: a tokenizer.json or model folder,
                                      a Hugging Face model id in the local cache, or "gpt-oss"
                                      (default: as dump counts; a template's folder's tokenizer.json)
  Paths in them are relative to the config. Without the model's own tokenizer, another model's
  counts are o200k_harmony estimates, and the output says so.

Exit codes: 0 written (or up to date), 1 --check found changes, or the tools cannot be read or
rendered (a source's problems are listed), 2 usage or config error (the key is named).
`;

const OPTIONS = {
  config: { type: 'string' },
  check: { type: 'boolean' },
  'mcp-timeout': { type: 'string' },
  quiet: { type: 'boolean' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function colorDiff(diff: string, on: boolean): string {
  if (!on) return diff;
  return diff
    .split('\n')
    .map((l) => (l.startsWith('+') && !l.startsWith('+++') ? `\u001b[32m${l}\u001b[39m` : l.startsWith('-') && !l.startsWith('---') ? `\u001b[31m${l}\u001b[39m` : l))
    .join('\n');
}

/** Run `build`. */
export async function buildCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const display = { verbose: false, command: 'build' };
  return guard(io, async () => {
    // the config names the sources: no input file
    const { values } = parseCommandArgs(argv, OPTIONS, 'build', 0);
    display.verbose = Boolean(values.verbose);
    if (values.help) {
      io.stdout(BUILD_HELP);
      return 0;
    }
    const timeoutMs = mcpTimeoutFrom(values['mcp-timeout']);
    let plan;
    try {
      plan = await planBuild(values.config ?? CONFIG_FILE, { ...(timeoutMs !== undefined ? { timeoutMs } : {}), readTemplate: loadTemplateArg, hubCache: { env: io.env } });
    } catch (e) {
      if (e instanceof ConfigError) throw new UsageError(e.message);
      throw e;
    }
    const quiet = Boolean(values.quiet);
    if (!quiet) printDiagnostics(plan.diagnostics, io, 'warning', display);
    const color = io.isTTY && (io.env.NO_COLOR === undefined || io.env.NO_COLOR === '');
    if (values.check) {
      const stale = plan.files.filter((f) => f.changed);
      for (const f of stale) io.stdout(colorDiff(buildDiff(f), color));
      if (stale.length) {
        io.stderr(`harmony-catalog: ${stale.length} of ${plan.files.length} output${plan.files.length === 1 ? '' : 's'} would change: ${stale.map((f) => f.name).join(', ')}\nRun 'harmony-catalog build' and commit the result.\n`);
        return 1;
      }
      if (!quiet) io.stdout(`${plan.files.length} output${plan.files.length === 1 ? '' : 's'} up to date\n`);
      return 0;
    }
    const written = new Set(writeBuild(plan));
    if (!quiet) for (const f of plan.files) io.stdout(`${written.has(f) ? 'wrote' : 'up to date'}  ${f.name}\n`);
    return 0;
  }, display);
}
