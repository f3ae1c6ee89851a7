/** CLI plumbing shared by the commands: reading input, printing diagnostics, usage errors. */
import { readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;
import { formatDiagnostic, isCompileError, type Diagnostic } from '../diagnostics.js';

/** A usage error: printed with a hint, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** What a command writes to (so tests can capture it). */
export interface CliIo {
  readonly stdout: (s: string) => void;
  readonly stderr: (s: string) => void;
  readonly stdin: () => Promise<string>;
  readonly isTTY: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The process's own streams. */
export function processIo(): CliIo {
  return {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    stdin: async () => {
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    isTTY: Boolean(process.stdout.isTTY),
    env: process.env,
  };
}

/** Read a file argument, or stdin for `-`. */
export async function readInputArg(arg: string | undefined, io: CliIo): Promise<string> {
  if (arg === undefined) throw new UsageError('missing input: give a file, or - for standard input');
  if (arg === '-') return io.stdin();
  try {
    return readFileSync(arg, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `no such file: ${arg}` : code === 'EISDIR' ? `${arg} is a directory, not a file` : `cannot read ${arg}: ${(e as Error).message}`);
  }
}

/** Print diagnostics on stderr, one a line. */
export function printDiagnostics(diagnostics: readonly Diagnostic[], io: CliIo, minimum: 'info' | 'warning' | 'error' = 'warning'): void {
  const rank = { info: 0, warning: 1, error: 2 } as const;
  for (const d of diagnostics) if (rank[d.severity] >= rank[minimum]) io.stderr(`${formatDiagnostic(d)}\n`);
}

/** Run a command body, turning CompileErrors into plain messages (exit 1) and usage errors into exit 2. */
export async function guard(io: CliIo, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`harmony-catalog: ${e.message}\nRun 'harmony-catalog --help' for usage.\n`);
      return 2;
    }
    if (isCompileError(e)) {
      printDiagnostics(e.diagnostics, io, 'info');
      const n = e.diagnostics.filter((d) => d.severity === 'error').length;
      io.stderr(`harmony-catalog: ${n} error${n === 1 ? '' : 's'}; nothing rendered\n`);
      return 1;
    }
    throw e;
  }
}

/**
 * Parse a command's arguments strictly (an unknown option is a usage error) with at most one
 * positional input; `--help` is left to the command.
 */
export function parseCommandArgs<const O extends OptionsConfig>(argv: readonly string[], options: O, command: string): ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (parsed.positionals.length > 1) throw new UsageError(`${command} takes one input, got ${parsed.positionals.length}: ${parsed.positionals.join(' ')}`);
  return parsed;
}
