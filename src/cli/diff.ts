/** `harmony-catalog diff`: each tool rendered under two flavors, and a unified diff where they differ. */
import { diffFlavors, DIFF_FLAVORS, formatDiff, type DiffFlavor } from '../diff.js';
import { guard, MCP_HELP, MCP_OPTIONS, mcpOptionsFrom, printDiagnostics, UsageError, type CliIo, parseCommandArgs } from './io.js';
import { loadToolsArg } from './sources.js';
import { toolsOfInput } from '../api/render.js';

/** Help text of `diff`. */
export const DIFF_HELP = `Usage: harmony-catalog diff <file|-|--mcp "command args"> [options]

Render each tool of <file> alone, as its catalog entry, under two flavors and print a
unified diff for every tool whose renderings differ, the tools one side cannot render, and
a summary: \`N tools identical, M differ, K fail\`.

Options:
  --a <flavor>          left side: openai-harmony | chat-template | faithful (default: openai-harmony)
  --b <flavor>          right side (default: chat-template)
  --context <n>         lines of context around each change (default: 3)
  --identical           also list the tools that render the same
  --format <f>          text | json (default: text)
${MCP_HELP}
  --quiet               do not print warnings (--format json still lists them)
  --verbose             print every warning (else 20 of each code, then how many more)
  -h, --help            this help

Exit codes: 0 every tool renders the same, 1 some differ or fail (or the input cannot be
read), 2 usage error.
`;

const OPTIONS = {
  a: { type: 'string' },
  b: { type: 'string' },
  context: { type: 'string' },
  identical: { type: 'boolean' },
  format: { type: 'string' },
  ...MCP_OPTIONS,
  quiet: { type: 'boolean' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function flavor(name: string, v: string | undefined, fallback: DiffFlavor): DiffFlavor {
  if (v === undefined) return fallback;
  if (!DIFF_FLAVORS.includes(v as DiffFlavor)) throw new UsageError(`--${name} must be one of ${DIFF_FLAVORS.join(', ')}, not ${JSON.stringify(v)}`);
  return v as DiffFlavor;
}

/** Run `diff`. */
export async function diffCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const display = { verbose: false };
  return guard(io, async () => {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS, 'diff');
    display.verbose = Boolean(values.verbose);
    if (values.help) {
      io.stdout(DIFF_HELP);
      return 0;
    }
    const a = flavor('a', values.a, 'openai-harmony');
    const b = flavor('b', values.b, 'chat-template');
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, not ${JSON.stringify(format)}`);
    let context = 3;
    if (values.context !== undefined) {
      if (!/^\d+$/.test(values.context)) throw new UsageError(`--context must be a whole number, not ${JSON.stringify(values.context)}`);
      context = Number(values.context);
    }
    // a request body: its function tools
    const text = toolsOfInput((await loadToolsArg(positionals[0], values.mcp, io, mcpOptionsFrom(values, io))).input);
    const r = diffFlavors(text, { a, b, context });
    if (format === 'json') {
      io.stdout(`${JSON.stringify({ a: r.a, b: r.b, identical: r.identical, differ: r.differ, errors: r.errors, tools: r.tools, diagnostics: r.diagnostics }, null, 2)}\n`);
    } else {
      if (!values.quiet) printDiagnostics(r.diagnostics, io, 'warning', display);
      io.stdout(formatDiff(r, { identical: Boolean(values.identical) }));
    }
    return r.differ > 0 || r.errors > 0 ? 1 : 0;
  }, display);
}
