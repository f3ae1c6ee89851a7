/** `harmony-catalog diff`: each tool rendered under two flavors, and a unified diff where they differ. */
import { diffFlavors, DIFF_FLAVORS, formatDiff, type DiffSide } from '../diff.js';
import { modelNames, resolveModel } from '../api/models.js';
import { guard, MCP_HELP, MCP_OPTIONS, mcpOptionsFrom, printDiagnostics, UsageError, type CliIo, parseCommandArgs, INPUT_HELP, INPUT_OPTIONS, maxInputBytesFrom } from './io.js';
import { inputName, loadToolsArg } from './sources.js';
import { noToolsWarning } from '../diagnostics.js';
import { toolsOfInput } from '../api/render.js';

/** Help text of `diff`. */
export const DIFF_HELP = `Usage: harmony-catalog diff <file|-|--mcp "command args"> [options]

Render each tool of <file> alone, as its catalog entry, under two flavors (or models) and
print a unified diff for every tool whose renderings differ, the tools one side cannot render,
and a summary: \`N tools identical, M differ, K fail\`.

Options:
  --a <side>            left side: a flavor, openai-harmony | chat-template | ollama | faithful, or
                        any name render --model takes (gpt-oss, gpt-oss-template, qwen, llama-3.1,
                        Qwen/Qwen3-8B…: 'harmony-catalog models' lists them) (default: openai-harmony)
  --b <side>            right side, the same names (default: chat-template)
  --model <name>        the right side as render --model names it (the same as --b <name>)
  --context <n>         lines of context around each change (default: 3)
  --identical           also list the tools that render the same
  --format <f>          text | json (default: text)
${MCP_HELP}
${INPUT_HELP}
  --quiet               do not print warnings (--format json still lists them)
  --verbose             print every warning (else 20 of each code, then how many more)
  -h, --help            this help

Exit codes: 0 every tool renders the same, 1 some differ or fail (or the input cannot be
read), 2 usage error.
`;

const OPTIONS = {
  a: { type: 'string' },
  b: { type: 'string' },
  model: { type: 'string' },
  context: { type: 'string' },
  identical: { type: 'boolean' },
  format: { type: 'string' },
  ...MCP_OPTIONS,
  ...INPUT_OPTIONS,
  quiet: { type: 'boolean' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** A side as given: a flavor, `ollama`, or a --model name (checked here, so an unknown one is a usage error naming them all). */
function side(name: string, v: string | undefined, fallback: DiffSide): DiffSide {
  if (v === undefined) return fallback;
  if ((DIFF_FLAVORS as readonly string[]).includes(v) || v === 'ollama') return v;
  try {
    resolveModel(v);
  } catch {
    throw new UsageError(`${name} must be a flavor (${[...DIFF_FLAVORS, 'ollama'].join(', ')}) or a model (${modelNames().join(', ')}, or a Hugging Face id of one of these families), not ${JSON.stringify(v)}`);
  }
  return v;
}

/** Run `diff`. */
export async function diffCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const display = { verbose: false, command: 'diff' };
  return guard(io, async () => {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS, 'diff');
    display.verbose = Boolean(values.verbose);
    if (values.help) {
      io.stdout(DIFF_HELP);
      return 0;
    }
    if (values.model !== undefined && values.b !== undefined) throw new UsageError('--model is the right side: give --b or --model, not both');
    const a = side('--a', values.a, 'openai-harmony');
    const b = values.model !== undefined ? side('--model', values.model, 'chat-template') : side('--b', values.b, 'chat-template');
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, not ${JSON.stringify(format)}`);
    let context = 3;
    if (values.context !== undefined) {
      if (!/^\d+$/.test(values.context)) throw new UsageError(`--context must be a whole number, not ${JSON.stringify(values.context)}`);
      context = Number(values.context);
    }
    // a request body: its function tools
    const loaded = await loadToolsArg(positionals[0], values.mcp, io, mcpOptionsFrom(values, io), maxInputBytesFrom(values));
    const result = diffFlavors(toolsOfInput(loaded.input), { a, b, context });
    const none = result.tools.length === 0 ? noToolsWarning(inputName(loaded.source), 'there is nothing to compare') : undefined;
    const r = none ? { ...result, diagnostics: [none, ...result.diagnostics] } : result;
    if (format === 'json') {
      io.stdout(`${JSON.stringify({ a: r.a, b: r.b, identical: r.identical, differ: r.differ, errors: r.errors, tools: r.tools, diagnostics: r.diagnostics }, null, 2)}\n`);
    } else {
      if (!values.quiet) printDiagnostics(r.diagnostics, io, 'warning', display);
      io.stdout(formatDiff(r, { identical: Boolean(values.identical) }));
    }
    return r.differ > 0 || r.errors > 0 ? 1 : 0;
  }, display);
}
