/** Run the CLI in-process with captured output (shared by the CLI tests). */
import { main } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/io.js';

/** What a run printed and returned. */
export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** Run `harmony-catalog argv…`; stdin, TTY and environment as given. */
export async function runCli(argv: string[], opts: { stdin?: string; isTTY?: boolean; env?: Record<string, string | undefined> } = {}): Promise<CliRun> {
  let out = '';
  let err = '';
  const io: CliIo = { stdout: (s) => void (out += s), stderr: (s) => void (err += s), stdin: async () => opts.stdin ?? '', isTTY: opts.isTTY ?? false, env: opts.env ?? {} };
  const code = await main(argv, io);
  return { code, out, err };
}

/** A CliIo that records what a command writes (`io.out`, `io.err`), for tests that call `main` themselves. */
export function captureIo(stdin = ''): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout: (s: string) => void (io.out += s),
    stderr: (s: string) => void (io.err += s),
    stdin: async () => stdin,
    isTTY: false,
    env: {},
  };
  return io;
}
