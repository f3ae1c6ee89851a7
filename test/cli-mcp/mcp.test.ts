/**
 * `--mcp "<command> [args]"`: dump, render and build read the tools of a live MCP server, here the real
 * @modelcontextprotocol/server-everything (a devDependency, started as `node <its bin> stdio`, no network).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planBuild } from '../../src/build/index.js';
import { readTools, renderPart } from '../../src/index.js';
import { listMcpTools } from '../../src/mcp/client.js';
import { countMessageTokens } from '../../src/tokens.js';
import { ROOT } from '../support/shared.js';
import { runCli } from '../support/cli.js';

/** Quote one word for the command line (POSIX single quotes). */
function q(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

const EVERYTHING_DIR = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything');
const pkg = JSON.parse(readFileSync(join(EVERYTHING_DIR, 'package.json'), 'utf8')) as { bin: Record<string, string> };
const EVERYTHING = `${q(process.execPath)} ${q(join(EVERYTHING_DIR, pkg.bin['mcp-server-everything']))} stdio`;
const NODE = q(process.execPath);

let listed: unknown[];
beforeAll(async () => {
  listed = (await listMcpTools(EVERYTHING, { timeoutMs: 30_000 })).tools;
});

const tmp = mkdtempSync(join(tmpdir(), 'hc-cli-mcp-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('--mcp against @modelcontextprotocol/server-everything', () => {
  it('dump --mcp lists every tool of the server, read as MCP tools', async () => {
    const r = await runCli(['dump', '--mcp', EVERYTHING, '--mcp-timeout', '30000', '--format', 'json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out) as { tools: { name: string; parameters: number; tokens: number }[]; totals: { developer: number; catalog: number } };
    const read = readTools(listed);
    expect(read.tools.every((t) => t.format === 'mcp')).toBe(true);
    expect(json.tools.map((t) => t.name)).toEqual(read.tools.map((t) => t.name));
    expect(json.tools.length).toBeGreaterThan(5);
    expect(json.tools.find((t) => t.name === 'echo')).toMatchObject({ parameters: 1 });
    expect(json.tools.every((t) => t.tokens > 0)).toBe(true);
    expect(json.totals.developer).toBe(countMessageTokens({ header: 'developer', content: renderPart(listed, { part: 'developer' }).text }));
  });

  it('dump --mcp prints the table in text too', async () => {
    const r = await runCli(['dump', '--mcp', EVERYTHING, '--mcp-timeout', '30000', '--sort', 'name']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^tool +params +tokens +findings\n/);
    expect(r.out).toMatch(/\necho +1 +\d+ +0\n/);
  });

  it('render --mcp prints what render prints for the same tools in a file', async () => {
    const r = await runCli(['render', '--mcp', EVERYTHING, '--part', 'catalog']);
    expect(r.code).toBe(0);
    expect(r.out).toBe(renderPart(listed, { part: 'catalog' }).text); // exactly the rendered bytes
    expect(r.out).toContain('// Echoes back the input string\ntype echo = (_: {\n// Message to echo\nmessage: string,\n}) => any;');
  });

  it('lint --mcp lints the server\'s tools as lint does the same tools in a file', async () => {
    const r = await runCli(['lint', '--mcp', EVERYTHING, '--mcp-timeout', '30000', '--format', 'json']);
    const file = join(tmp, 'everything.json');
    writeFileSync(file, JSON.stringify(listed));
    const f = await runCli(['lint', file, '--format', 'json']);
    expect(r.code).toBe(f.code);
    const findings = (out: string) => (JSON.parse(out) as { findings: { code: string; path: string }[] }).findings.map((x) => `${x.code} ${x.path}`);
    expect(findings(r.out)).toEqual(findings(f.out));
    expect(findings(r.out).length).toBeGreaterThan(0);
  });

  it('build reads an {"mcp": …} source', async () => {
    const cfg = join(tmp, 'harmony-catalog.config.json');
    writeFileSync(cfg, JSON.stringify({ sources: [{ mcp: EVERYTHING, timeoutMs: 30000 }], outputs: [{ path: 'catalog.txt', part: 'catalog' }] }));
    const plan = await planBuild(cfg);
    expect(plan.files[0].content).toBe(renderPart(listed, { part: 'catalog' }).text);
  });
});

describe('--mcp errors: printed plainly, exit 1', () => {
  it.each<[string, string[], RegExp]>([
    ['the server exits', ['--mcp', `${NODE} -e 'process.exit(3)'`], /^error \[mcp\/exited\]: MCP server ".*" exited with code 3 before answering initialize\nharmony-catalog: 1 error; nothing rendered\n$/],
    ['the server does not answer', ['--mcp', `${NODE} -e 'setInterval(() => {}, 1000)'`, '--mcp-timeout', '400'], /^error \[mcp\/timeout\]: MCP server ".*" did not answer initialize within 400 ms\n/],
    ['the program does not exist', ['--mcp', 'no-such-mcp-server-program'], /^error \[mcp\/spawn-failed\]: MCP server "no-such-mcp-server-program" could not be started: program "no-such-mcp-server-program" not found \(ENOENT\)\n/],
  ])('dump: %s', async (_name, args, message) => {
    const r = await runCli(['dump', ...args]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(message);
    expect(r.err).not.toMatch(/\n\s+at /); // no stack trace
    expect(r.out).toBe('');
  });

  it('render: the server exits', async () => {
    const r = await runCli(['render', '--mcp', `${NODE} -e 'process.exit(2)'`]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^error \[mcp\/exited\]: MCP server ".*" exited with code 2 before answering initialize\n/);
  });

  it.each<[string[], RegExp]>([
    [['dump', '--mcp', ''], /--mcp needs a command/],
    [['dump', '--mcp', 'x', '--mcp-timeout', 'soon'], /--mcp-timeout must be a positive number of milliseconds/],
    [['render', '--mcp', 'x', '--jsonl'], /--jsonl reads cases from a file, not from --mcp/],
    [['render', 'tools.json', '--mcp', 'x'], /give either a file or --mcp, not both/],
  ])('usage error %j: exit 2', async (argv, message) => {
    const r = await runCli(argv);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
  });
});
