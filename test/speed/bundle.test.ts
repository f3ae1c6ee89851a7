/**
 * The bundled CLI (dist/bin/harmony-catalog.js, what `bin` names; scripts/bundle.mjs): a render
 * loads that one file and nothing from node_modules; every command prints what the tsc build
 * (dist/cli/main.js) prints; the version is written in. dist/ is rebuilt first when a source file
 * is newer than it, and the bundle when dist/ is newer than the bundle.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/shared.js';

const BUNDLE = join(ROOT, 'dist/bin/harmony-catalog.js');
const TSC_CLI = join(ROOT, 'dist/cli/main.js');
const tmp = mkdtempSync(join(tmpdir(), 'hc-bundle-'));

/** The newest modification time of the files with this ending under a directory. */
function newest(dir: string, ending: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) t = Math.max(t, newest(p, ending));
    else if (e.name.endsWith(ending)) t = Math.max(t, statSync(p).mtimeMs);
  }
  return t;
}

beforeAll(() => {
  if (!existsSync(TSC_CLI) || statSync(TSC_CLI).mtimeMs < newest(join(ROOT, 'src'), '.ts')) {
    try {
      execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: ROOT, stdio: 'pipe' });
    } catch {
      // type errors still emit JavaScript; the tests below say whether the CLI works
    }
  }
  if (!existsSync(BUNDLE) || statSync(BUNDLE).mtimeMs < newest(join(ROOT, 'dist'), '.js') - 1) {
    execFileSync(process.execPath, [join(ROOT, 'scripts/bundle.mjs')], { cwd: ROOT, stdio: 'pipe' });
  }
}, 180_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function run(cli: string, args: readonly string[], nodeArgs: readonly string[] = []) {
  const r = spawnSync(process.execPath, [...nodeArgs, cli, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the bundled CLI', () => {
  it('is what package.json names as bin', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(join(ROOT, pkg.bin['harmony-catalog'])).toBe(BUNDLE);
  });

  it('renders from its one file: no other module of the package, nothing from node_modules', () => {
    const hooks = join(tmp, 'hooks.mjs');
    const log = join(tmp, 'loaded.txt');
    writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }\n`);
    const register = join(tmp, 'register.mjs');
    writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const r = run(BUNDLE, ['render', 'examples/weather.json', '--date', '2025-06-28'], ['--import', register]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('type get_current_weather');
    const files = readFileSync(log, 'utf8').split('\n').filter((u) => u.startsWith('file:'));
    expect(files).toEqual([pathToFileURL(BUNDLE).href]);
  });

  it('prints its version from the bundle (package.json is not read)', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(run(BUNDLE, ['--version']).stdout).toBe(`${pkg.version}\n`);
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
