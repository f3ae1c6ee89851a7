import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listMcpTools, McpClientError, splitCommand } from '../../src/mcp/client.js';
import { ROOT } from '../support/shared.js';

/** Quote one word for splitCommand (POSIX single quotes). */
function q(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

const NODE = q(process.execPath);
const EVERYTHING_DIR = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything');
const everythingPkg = JSON.parse(readFileSync(join(EVERYTHING_DIR, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };
const EVERYTHING_BIN = join(EVERYTHING_DIR, everythingPkg.bin['mcp-server-everything']);
const PAGED_SERVER = join(ROOT, 'test/support/mcp-paged-server.mjs');

const tmp = mkdtempSync(join(tmpdir(), 'mcp-client-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** True when no process with this pid exists (not even as a zombie). */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Child-process and pipe handles this process holds. */
function processHandles(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'ProcessWrap' || r === 'PipeWrap').length;
}

async function rejection(p: Promise<unknown>): Promise<McpClientError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(McpClientError);
    return e as McpClientError;
  }
  throw new Error('expected a rejection');
}

describe('splitCommand', () => {
  it.each<[string, string[]]>([
    ['npx foo', ['npx', 'foo']],
    ['  node   server.js\tstdio ', ['node', 'server.js', 'stdio']],
    [`node -e "process.exit(3)"`, ['node', '-e', 'process.exit(3)']],
    [`node -e 'console.log("hi there")'`, ['node', '-e', 'console.log("hi there")']],
    [`a "b c" 'd e' f\\ g`, ['a', 'b c', 'd e', 'f g']],
    [`a "" ''`, ['a', '', '']],
    [`a "say \\"hi\\" \\\\ \\$HOME \\n"`, ['a', 'say "hi" \\ $HOME \\n']],
    [`a 'it'\\''s'`, ['a', "it's"]],
    [`pre"mid"'post'`, ['premidpost']],
    ['', []],
    ['   ', []],
  ])('%j', (input, want) => {
    expect(splitCommand(input)).toEqual(want);
  });

  it.each(['node "unterminated', "node 'unterminated", 'node trailing\\'])('refuses %j', (input) => {
    expect(() => splitCommand(input)).toThrow(McpClientError);
    try {
      splitCommand(input);
    } catch (e) {
      expect((e as McpClientError).code).toBe('mcp/bad-command');
    }
  });
});

describe('listMcpTools against real stdio MCP servers', () => {
  it(`lists the tools of @modelcontextprotocol/server-everything ${everythingPkg.version}`, async () => {
    const before = processHandles();
    const { tools, server } = await listMcpTools(`${NODE} ${q(EVERYTHING_BIN)} stdio`);
    expect(tools.length).toBeGreaterThanOrEqual(5);
    for (const tool of tools as Array<{ name?: unknown; inputSchema?: { type?: unknown } }>) {
      expect(typeof tool.name).toBe('string');
      expect(tool.inputSchema?.type).toBe('object');
    }
    const echo = (tools as Array<{ name: string; inputSchema: { properties?: Record<string, unknown> } }>).find((t) => t.name === 'echo');
    expect(echo?.inputSchema.properties).toHaveProperty('message');
    expect(typeof server.name).toBe('string');
    console.log(`server-everything: ${tools.length} tools (${(tools as Array<{ name: string }>).map((t) => t.name).join(', ')}); server ${server.name} ${server.version}`);
    expect(processHandles()).toBeLessThanOrEqual(before); // child and its pipes are gone
  }, 15_000);

  it('follows nextCursor over 3 pages, keeps order and tools as sent, and leaves no process behind', async () => {
    const pidFile = join(tmp, 'paged.pid');
    const { tools, server } = await listMcpTools(`${NODE} ${q(PAGED_SERVER)}`, { env: { MCP_PAGED_PID_FILE: pidFile } });
    expect((tools as Array<{ name: string }>).map((t) => t.name)).toEqual(['alpha', 'beta', 'gamma', 'delta', 'epsilon']);
    expect(server).toEqual({ name: 'paged-test-server', version: '1.2.3' });
    const delta = tools[3] as { inputSchema: Record<string, unknown> };
    expect(Object.keys(delta.inputSchema)).toEqual(['properties', 'required', 'type']); // not re-ordered by a schema parse
    expect(delta.inputSchema.properties).toEqual({ n: { type: 'number', default: 1.5 } });
    expect(gone(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
  }, 15_000);

  it('reports a JSON-RPC error from tools/list as mcp/protocol', async () => {
    const err = await rejection(listMcpTools(`${NODE} ${q(PAGED_SERVER)}`, { env: { MCP_PAGED_MODE: 'error' } }));
    expect(err.code).toBe('mcp/protocol');
    expect(err.message).toContain('during tools/list');
    expect(err.message).toContain('tools are unavailable today');
  }, 15_000);

  it('a command that does not exist → mcp/spawn-failed', async () => {
    const err = await rejection(listMcpTools('harmony-catalog-no-such-program --stdio'));
    expect(err.code).toBe('mcp/spawn-failed');
    expect(err.command).toBe('harmony-catalog-no-such-program --stdio');
    expect(err.message).toBe('MCP server "harmony-catalog-no-such-program --stdio" could not be started: program "harmony-catalog-no-such-program" not found (ENOENT)');
  });

  it('a server that exits at once → mcp/exited with its code and the end of its stderr', async () => {
    const err = await rejection(listMcpTools(`${NODE} -e "console.error('first line'); console.error('config missing: boom'); process.exit(3)"`));
    expect(err.code).toBe('mcp/exited');
    expect(err.exitCode).toBe(3);
    expect(err.stderrTail).toEqual(['first line', 'config missing: boom']);
    expect(err.message).toContain('exited with code 3 before answering initialize');
    expect(err.message).toContain('config missing: boom');
  });

  it('a server that never answers → mcp/timeout after timeoutMs, and it is killed', async () => {
    const started = Date.now();
    const err = await rejection(listMcpTools(`${NODE} -e "console.error(process.pid); setInterval(() => {}, 1000)"`, { timeoutMs: 1500 }));
    const elapsed = Date.now() - started;
    expect(err.code).toBe('mcp/timeout');
    expect(err.message.split('\n')[0]).toBe(`MCP server ${JSON.stringify(`${NODE} -e "console.error(process.pid); setInterval(() => {}, 1000)"`)} did not answer initialize within 1500 ms`);
    expect(elapsed).toBeGreaterThanOrEqual(1400);
    expect(elapsed).toBeLessThan(6000);
    const pid = Number(err.stderrTail[0]);
    expect(pid).toBeGreaterThan(0);
    expect(gone(pid)).toBe(true);
  }, 10_000);

  it('refuses an empty command', async () => {
    const err = await rejection(listMcpTools('   '));
    expect(err.code).toBe('mcp/bad-command');
  });
});
