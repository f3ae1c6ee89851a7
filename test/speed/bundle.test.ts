/**
 * The bundled CLI (scripts/bundle.mjs): dist/bin/harmony-catalog.cjs, what `bin` names, a CommonJS
 * launcher that compiles one script (cli.cjs) from V8's code cache made by the build. A render
 * loads that script and nothing from node_modules, and V8 takes the cache; every command prints what the tsc build
 * (dist/cli/main.js) prints; the version is written in. dist/ is rebuilt first when a source file
 * is newer than it, and the bundle when dist/ is newer than the bundle.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBundles } from '../support/build.js';
import { ROOT } from '../support/shared.js';

const BUNDLE = join(ROOT, 'dist/bin/harmony-catalog.cjs');
const SCRIPT = join(ROOT, 'dist/bin/cli.cjs');
const TSC_CLI = join(ROOT, 'dist/cli/main.js');
const tmp = mkdtempSync(join(tmpdir(), 'hc-bundle-'));

beforeAll(() => ensureBundles(), 180_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function run(cli: string, args: readonly string[], nodeArgs: readonly string[] = []) {
  const r = spawnSync(process.execPath, [...nodeArgs, cli, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the bundled CLI', () => {
  it('is what package.json names as bin', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(join(ROOT, pkg.bin['harmony-catalog'])).toBe(BUNDLE);
    // CommonJS (node's synchronous loader): an ES module entry goes through node 20's asynchronous
    // loader, which made the 2,000-tool render about 29 ms slower
    expect(BUNDLE.endsWith('.cjs')).toBe(true);
    expect(readFileSync(BUNDLE, 'utf8')).not.toMatch(/^\s*(import|export)\s/m);
  });

  it('renders from its one script: no other module of the package, nothing from node_modules, the code cache taken', () => {
    // ES modules are seen by a loader hook, CommonJS requires by a wrapper of Module._load, and the
    // launcher's vm.Script by a subclass that says whether V8 rejected the cache
    const log = join(tmp, 'loaded.txt');
    const hooks = join(tmp, 'hooks.mjs');
    writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, 'load ' + url + '\\n'); return next(url, context); }\n`);
    const preload = join(tmp, 'preload.mjs');
    writeFileSync(
      preload,
      `import { appendFileSync } from 'node:fs';
import Module, { register, syncBuiltinESMExports } from 'node:module';
import vm from 'node:vm';
register(${JSON.stringify(pathToFileURL(hooks).href)});
const load = Module._load;
Module._load = function (request, ...rest) { appendFileSync(${JSON.stringify(log)}, 'require ' + request + '\\n'); return load.call(this, request, ...rest); };
const Script = vm.Script;
vm.Script = class extends Script {
  constructor(code, options) {
    super(code, options);
    appendFileSync(${JSON.stringify(log)}, 'script ' + options.filename + ' cache ' + (options.cachedData === undefined ? 'none' : this.cachedDataRejected ? 'rejected' : 'taken') + '\\n');
  }
};
syncBuiltinESMExports();
`,
    );
    const r = run(BUNDLE, ['render', 'examples/weather.json', '--date', '2025-06-28'], ['--import', preload]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('type get_current_weather');
    const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    expect(lines.filter((l) => l.startsWith('load file:'))).toEqual([`load ${pathToFileURL(BUNDLE).href}`]);
    expect(lines.filter((l) => l.startsWith('script '))).toEqual([`script ${SCRIPT} cache taken`]);
    const required = lines.filter((l) => l.startsWith('require ')).map((l) => l.slice('require '.length));
    expect(required.length).toBeGreaterThan(0);
    // the launcher is the one file of the package node's CommonJS loader loads (it is the main module)
    expect(required.filter((m) => !isBuiltin(m))).toEqual([BUNDLE]);
  });

  it('still runs when the code cache is missing or does not fit', () => {
    const cache = `${SCRIPT}.cache`;
    const kept = readFileSync(cache);
    const args = ['render', 'examples/weather.json', '--date', '2025-06-28'];
    const want = run(BUNDLE, args);
    try {
      writeFileSync(cache, Buffer.from('not a code cache'));
      expect(run(BUNDLE, args)).toEqual(want);
      rmSync(cache);
      expect(run(BUNDLE, args)).toEqual(want);
    } finally {
      writeFileSync(cache, kept);
    }
  });

  it('an MCP server that fails is one plain error and exit 1 in every command (the error classes hold across the bundle\'s chunks)', () => {
    // the MCP source is a chunk of its own, with its own copy of CompileError: render once called
    // this an internal error (exit 70)
    for (const server of ['hc-no-such-program-xyz', `${process.execPath} -e process.exit(3)`]) {
      for (const command of ['render', 'dump', 'lint', 'report', 'diff']) {
        const r = run(BUNDLE, [command, '--mcp', server, ...(command === 'report' ? ['-o', join(tmp, 'r.html')] : [])]);
        expect(r.stderr, `${command} ${server}`).not.toMatch(/internal error|Please report/);
        expect(r.stderr, `${command} ${server}`).toMatch(/^error \[mcp\/(spawn-failed|exited)\]: MCP server /m);
        expect(r.code, `${command} ${server}`).toBe(1);
      }
    }
  });

  it('prints its version from the bundle (package.json is not read)', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(run(BUNDLE, ['--version']).stdout).toBe(`${pkg.version}\n`);
    expect(readFileSync(SCRIPT, 'utf8')).not.toContain('package.json');
    expect(readFileSync(BUNDLE, 'utf8')).not.toContain('package.json');
  });

  it.each([
    [['--help']],
    [['no-such-command']],
    [['render', 'examples/weather.json', '--date', '2025-06-28', '--completion']],
    [['render', 'examples/weather.json', '--flavor', 'chat-template', '--part', 'catalog']],
    [['render', 'examples/weather.json', '--target', 'xml', '--dialect', 'qwen3-coder']],
    [['render', 'examples/agent-loop.json', '--date', '2025-08-05', '--server', 'ollama']],
    [['render', 'examples/weather.json', '--target', 'jsdoc', '--part', 'catalog']],
    [['render', 'no-such-file.json']],
    [['lint', 'examples/weather.json']],
    [['dump', 'examples/weather.json']],
    [['diff', 'examples/weather.json']],
    [['parse', 'examples/completion-call.txt', '--tools', 'examples/weather.json']],
    [['models']],
  ])('%j: the same output and exit code as the tsc build', (args) => {
    const bundled = run(BUNDLE, args);
    const plain = run(TSC_CLI, args);
    expect(bundled).toEqual(plain);
  });
});
