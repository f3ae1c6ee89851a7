/**
 * The MCP server's environment (issue 13, item 12) and the signal watch that stops a server when the
 * process is told to end (item 3), at the library level: what inheritedEnvironment keeps, what
 * loadMcpTools hands over, and that the signal listeners exist only while a server runs.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMcpTools } from '../../src/build/sources.js';
import { inheritedEnvironment, listMcpTools } from '../../src/mcp/client.js';
import { ROOT } from '../support/shared.js';

const NODE = `'${process.execPath}'`;
const PAGED_SERVER = join(ROOT, 'test/support/mcp-paged-server.mjs');
// a server whose one tool's description is the JSON of its environment (as the SDK spawned it)
const ENV_SERVER = `${NODE} -e '${[
  'const rl = require("node:readline").createInterface({ input: process.stdin });',
  'const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\\n");',
  'rl.on("line", (l) => { const m = JSON.parse(l); if (m.id === undefined) return;',
  'if (m.method === "initialize") return send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "e", version: "1" } } });',
  'send({ id: m.id, result: { tools: [{ name: "env", description: JSON.stringify(process.env), inputSchema: { type: "object" } }] } }); });',
].join(' ')}'`;

async function serverEnv(p: Promise<unknown[]>): Promise<Record<string, string>> {
  const tools = (await p) as { description: string }[];
  return JSON.parse(tools[0].description) as Record<string, string>;
}

describe('the environment an MCP server gets', () => {
  it('inheritedEnvironment keeps every set variable but exported shell functions', () => {
    expect(inheritedEnvironment({ A: '1', B: undefined, BASH_FUNC_f: '() { echo hi; }', EMPTY: '' })).toEqual({ A: '1', EMPTY: '' });
    expect(inheritedEnvironment().PATH).toBe(process.env.PATH);
  });

  it('loadMcpTools: the inherited environment (default: this process\'s) plus env, env winning', async () => {
    const env = await serverEnv(loadMcpTools(ENV_SERVER, { inheritEnv: { PATH: process.env.PATH, HC_SHELL_VAR: 'from-shell', HC_BOTH: 'shell' }, env: { HC_TOKEN: 't0ken', HC_BOTH: 'flag' } }));
    expect(env).toMatchObject({ HC_SHELL_VAR: 'from-shell', HC_TOKEN: 't0ken', HC_BOTH: 'flag' });
    process.env.HC_ENV_TEST_VAR = 'this-process';
    try {
      expect((await serverEnv(loadMcpTools(ENV_SERVER))).HC_ENV_TEST_VAR).toBe('this-process');
    } finally {
      delete process.env.HC_ENV_TEST_VAR;
    }
  });

  it('listMcpTools keeps the SDK\'s rule: its safe set plus env, nothing else of this process', async () => {
    process.env.HC_ENV_TEST_VAR = 'this-process';
    try {
      const tools = (await listMcpTools(ENV_SERVER, { env: { HC_TOKEN: 'x' } })).tools as { description: string }[];
      const env = JSON.parse(tools[0].description) as Record<string, string>;
      expect(env.HC_TOKEN).toBe('x');
      expect(env.HC_ENV_TEST_VAR).toBeUndefined();
    } finally {
      delete process.env.HC_ENV_TEST_VAR;
    }
  });
});

describe('the signal watch', () => {
  it('SIGINT/SIGTERM/SIGHUP listeners are added while a server runs and removed when it is gone', async () => {
    const before = ['SIGINT', 'SIGTERM', 'SIGHUP', 'exit'].map((s) => process.listenerCount(s));
    let during: number[] = [];
    const listing = listMcpTools(`${NODE} '${PAGED_SERVER}'`);
    // the server is spawned synchronously inside connect(): sample once it is under way
    await new Promise((r) => setTimeout(r, 50));
    during = ['SIGINT', 'SIGTERM', 'SIGHUP', 'exit'].map((s) => process.listenerCount(s));
    expect((await listing).tools).toHaveLength(5);
    expect(during).toEqual(before.map((n) => n + 1));
    expect(['SIGINT', 'SIGTERM', 'SIGHUP', 'exit'].map((s) => process.listenerCount(s))).toEqual(before);
  });
});
