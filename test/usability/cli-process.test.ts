/**
 * Issue 13, items 1 and 3, on the built CLI as a shell runs it: a reader that closes the pipe early
 * (`… | head -1`) ends the command quietly; a CLI killed by SIGTERM or SIGINT stops its MCP server
 * first. dist/ is rebuilt first when a source file is newer than it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureTscBuild } from '../support/build.js';
import { ROOT } from '../support/shared.js';

const CLI = join(ROOT, 'dist/cli/main.js');
const tmp = mkdtempSync(join(tmpdir(), 'hc-process-'));
const strays: number[] = [];

beforeAll(() => ensureTscBuild(CLI), 120_000);

afterEach(() => {
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
  readonly firstChunk: string;
}

/** Run the CLI; with `closeEarly`, destroy the read end of its stdout after the first chunk (what `head -1` does). */
function runCli(args: string[], options: { closeEarly?: boolean; env?: Record<string, string> } = {}): { child: ChildProcess; ended: Promise<Ended> } {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
  let stderr = '';
  let firstChunk = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout!.on('data', (d: Buffer) => {
    if (firstChunk === '') firstChunk = d.toString('utf8');
    if (options.closeEarly) child.stdout!.destroy();
  });
  const ended = new Promise<Ended>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stderr, firstChunk })));
  return { child, ended };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe('a closed output pipe ends the command quietly, as cat does (issue 13, item 1)', () => {
  // 20,000 tools: megabytes of output, far past a pipe's buffer (64 KB)
  const big = join(tmp, 'big.json');
  // the same, each tool's schema with a $ref to nothing: lint finds an error in every tool and exits 1
  const broken = join(tmp, 'broken.json');
  beforeAll(() => {
    writeFileSync(broken, JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ name: `tool_${i}`, description: 'A tool.', parameters: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } } }))));
    const tools = Array.from({ length: 20_000 }, (_, i) => ({
      name: `tool_${i}`,
      description: `Does thing number ${i}, carefully.`,
      parameters: { type: 'object', properties: { a: { type: 'string', description: 'An argument', optional: true }, b: { type: 'integer', minimum: 1 } } },
    }));
    writeFileSync(big, JSON.stringify(tools));
  });

  it.each([
    ['render', ['render', 'BIG', '--quiet'], true, 0],
    ['render --part catalog (warnings on stderr too)', ['render', 'BIG', '--part', 'catalog'], false, 0],
    ['dump --show', ['dump', 'BIG', '--show', '--quiet'], true, 0],
    ['lint --format json', ['lint', 'BIG', '--format', 'json'], true, 0],
    // issue 22 item 13: a failed check stays failed through a closed pipe (exit 1, as without the pipe)
    ['lint, errors found', ['lint', 'BROKEN'], false, 1],
  ])('%s | head -1: no stack trace, the command\'s own exit status', async (_name, args, quiet, status) => {
    const { ended } = runCli(args.map((a) => (a === 'BIG' ? big : a === 'BROKEN' ? broken : a)), { closeEarly: true });
    const r = await ended;
    expect(r.firstChunk.length).toBeGreaterThan(0);
    expect(r.stderr.split('\n').filter((l) => /EPIPE|^\s+at |internal error/.test(l))).toEqual([]);
    if (quiet) expect(r.stderr).toBe('');
    expect({ code: r.code, signal: r.signal }).toEqual({ code: status, signal: null });
  }, 60_000);
});

describe('a CLI ended by a signal stops its MCP server first (issue 13, item 3)', () => {
  // An MCP server that never answers and keeps running after its stdin closes; "stubborn" ignores SIGTERM too.
  const server = join(tmp, 'hang.mjs');
  beforeAll(() => {
    writeFileSync(
      server,
      `import { writeFileSync } from 'node:fs';
writeFileSync(process.argv[2], String(process.pid));
if (process.argv[3] === 'stubborn') process.on('SIGTERM', () => {});
process.stdin.resume();
setInterval(() => {}, 1000);
`,
    );
  });

  it.each([
    ['SIGTERM', 'dump', ''],
    ['SIGINT', 'render', ''],
    ['SIGTERM', 'lint', 'stubborn'],
  ] as const)('%s to `%s --mcp` (%s server): the server is gone, the CLI ends by the signal, quietly', async (signal, command, mode) => {
    const pidFile = join(tmp, `pid-${signal}-${command}`);
    const { child, ended } = runCli([command, '--mcp', `${JSON.stringify(process.execPath)} ${JSON.stringify(server)} ${JSON.stringify(pidFile)} ${mode}`, '--mcp-timeout', '60000']);
    expect(await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', 15_000)).toBe(true);
    const serverPid = Number(readFileSync(pidFile, 'utf8'));
    strays.push(serverPid);
    expect(alive(serverPid)).toBe(true);
    child.kill(signal);
    const r = await ended;
    expect(r.signal).toBe(signal);
    expect(r.stderr).toBe('');
    // stopped before the CLI ended (SIGKILL after 2 s for the stubborn one): gone at once, no orphan left
    expect(await waitFor(() => !alive(serverPid), 1_000)).toBe(true);
  }, 60_000);
});
