#!/usr/bin/env node
/** The harmony-catalog command line: one file per command, dispatched here. */
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { processIo, type CliIo } from './io.js';

type Command = { readonly summary: string; readonly run: (argv: readonly string[], io: CliIo) => Promise<number> };

/** The commands, by name. */
export const COMMANDS: Record<string, Command> = {
  // each command's module is loaded when it runs: start-up stays small (no tokenizer, MCP SDK or prettier for render)
  render: { summary: 'print the prompt (or a part of it) the model reads for a tool file', run: async (a, io) => (await import('./render.js')).renderCommand(a, io) },
  lint: { summary: 'what the model will not see (or will misread), per tool and flavor', run: async (a, io) => (await import('./lint.js')).lintCommand(a, io) },
  diff: { summary: 'each tool under two flavors (openai-harmony, chat-template, faithful): unified diffs', run: async (a, io) => (await import('./diff.js')).diffCommand(a, io) },
  dump: { summary: 'one row per tool: parameters, tokens, findings; and the token totals', run: async (a, io) => (await import('./dump.js')).dumpCommand(a, io) },
  models: { summary: 'every --model name, the models it covers, where its template comes from', run: async (a, io) => (await import('./models.js')).modelsCommand(a, io) },
  parse: { summary: 'read what the model wrote: Harmony messages, the OpenAI response, tool calls checked', run: async (a, io) => (await import('./parse.js')).parseCommand(a, io) },
  build: { summary: 'render a config\'s sources into its output files (--check for CI)', run: async (a, io) => (await import('./build.js')).buildCommand(a, io) },
  // the page says which version made it: the version is read here, where the bundler writes it in
  report: { summary: 'one self-contained HTML page: token share per tool, renderings side by side, findings', run: async (a, io) => (await import('./report.js')).reportCommand(a, io, version()) },
  tokens: { summary: 'the number of tokens (and ids) of a text under a model\'s own tokenizer.json or gpt-oss', run: async (a, io) => (await import('./tokens.js')).tokensCommand(a, io) },
};

/** The version, written in by the bundler (scripts/bundle.mjs); undeclared in the tsc build. */
declare const __HARMONY_CATALOG_VERSION__: string | undefined;

/** The version of harmony-catalog, as `--version` prints it. */
export function version(): string {
  // the bundled CLI has its version inlined; the tsc build reads package.json beside dist/
  if (typeof __HARMONY_CATALOG_VERSION__ === 'string') return __HARMONY_CATALOG_VERSION__;
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** The top-level help. */
export function mainHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  return `Usage: harmony-catalog <command> [options]

Compile JSON Schema tool definitions into the exact text a model reads
(gpt-oss Harmony as openai-harmony and the official chat template print it, and more).

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`)
  .join('\n')}

Run 'harmony-catalog <command> --help' for a command's options.
Options: -h, --help   this help;  -v, --version   the version
`;
}

/** Run the CLI with these arguments; resolves to the exit code. */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd === undefined || cmd === '-h' || cmd === '--help' || cmd === 'help') {
    io.stdout(mainHelp());
    return cmd === undefined ? 2 : 0;
  }
  if (cmd === '-v' || cmd === '--version') {
    io.stdout(`${version()}\n`);
    return 0;
  }
  const c = COMMANDS[cmd];
  if (!c) {
    io.stderr(`harmony-catalog: unknown command ${JSON.stringify(cmd)}\nRun 'harmony-catalog --help' for the commands.\n`);
    return 2;
  }
  return c.run(rest, io);
}

function isEntry(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (isEntry()) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`harmony-catalog: internal error: ${(e as Error)?.message ?? String(e)}\nPlease report this with the input that caused it.\n`);
      process.exitCode = 70;
    },
  );
}
