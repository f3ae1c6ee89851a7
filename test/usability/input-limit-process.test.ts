/**
 * Issue 22, item 12, on the built CLI as a shell runs it: /dev/zero on standard input or as the
 * file, and a writer that never stops, end promptly with one line and exit 1 at the input limit
 * (they grew the process to gigabytes until it was killed). dist/ is rebuilt first when a source
 * file is newer than it.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureTscBuild } from '../support/build.js';
import { ROOT } from '../support/shared.js';

const CLI = join(ROOT, 'dist/cli/main.js');

beforeAll(() => ensureTscBuild(CLI), 180_000);

interface Ended {
  readonly code: number | null;
  readonly stderr: string;
  readonly ms: number;
}

/** Run the CLI with this stdin (a file descriptor, or 'spaces': a pipe written to until it closes); killed after `limitMs`. */
function run(args: string[], stdin: number | 'ignore' | 'spaces', limitMs = 30_000): Promise<Ended> {
  const t = Date.now();
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: [stdin === 'spaces' ? 'pipe' : stdin, 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  if (stdin === 'spaces') {
    const block = Buffer.alloc(1 << 16, 0x20);
    const pump = (): void => {
      while (child.stdin!.writable && child.stdin!.write(block));
    };
    child.stdin!.on('drain', pump);
    child.stdin!.on('error', () => {}); // EPIPE once the CLI stops reading
    pump();
  }
  const killer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stderr, ms: Date.now() - t });
    }),
  );
}

describe.runIf(existsSync('/dev/zero'))('the built CLI stops reading at the input limit', () => {
  it('render - < /dev/zero (the default limit, 256 MiB): one line, exit 1, promptly', async () => {
    const zero = openSync('/dev/zero', 'r');
    try {
      const r = await run(['render', '-'], zero);
      expect(r.stderr).toBe('harmony-catalog: standard input is larger than the input limit of 268,435,456 bytes (256 MiB): stopped reading there (--max-input-bytes N reads more)\n');
      expect(r.code).toBe(1);
      expect(r.ms).toBeLessThan(30_000);
    } finally {
      closeSync(zero);
    }
  }, 60_000);

  it('lint /dev/zero --max-input-bytes 1000000: one line naming the file, exit 1', async () => {
    const r = await run(['lint', '/dev/zero', '--max-input-bytes', '1000000'], 'ignore');
    expect(r.stderr).toBe('harmony-catalog: /dev/zero is larger than the input limit of 1,000,000 bytes: stopped reading there (--max-input-bytes N reads more)\n');
    expect(r.code).toBe(1);
  }, 60_000);

  it('tokens - fed spaces forever through a pipe: ends at the limit, exit 1', async () => {
    const r = await run(['tokens', '-', '--max-input-bytes', '4194304'], 'spaces');
    expect(r.stderr).toBe('harmony-catalog: standard input is larger than the input limit of 4,194,304 bytes (4 MiB): stopped reading there (--max-input-bytes N reads more)\n');
    expect(r.code).toBe(1);
  }, 60_000);
});
