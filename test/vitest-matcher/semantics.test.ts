/**
 * toMatchCatalogSnapshot under vitest itself: a small project in a temporary directory (inside the
 * package, so it resolves vitest and the source) run by nested vitest processes: written when new,
 * refused in CI, failing with a diff on drift, rewritten with -u.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderPart } from '../../src/index.js';
import { snapshotExtension, snapshotSlug } from '../../src/testing/vitest.js';
import { ROOT } from '../support/shared.js';

mkdirSync(join(ROOT, '.tmp'), { recursive: true });
const dir = mkdtempSync(join(ROOT, '.tmp', 'matcher-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WEATHER = readFileSync(join(ROOT, 'examples/weather.json'), 'utf8');
const snap = (...p: string[]) => join(dir, 'snapshots', ...p);

writeFileSync(join(dir, 'package.json'), '{"name": "matcher-test", "private": true, "type": "module"}\n');
writeFileSync(join(dir, 'vitest.config.mjs'), "export default { test: { include: ['*.test.ts'] } };\n");
writeFileSync(join(dir, 'tools.json'), WEATHER);
writeFileSync(
  join(dir, 'catalog.test.ts'),
  `import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { setup } from ${JSON.stringify(join(ROOT, 'src/testing/vitest.ts'))};
setup();
const tools = () => readFileSync(new URL('./tools.json', import.meta.url), 'utf8');
it('Weather tools!', async () => {
  await expect(tools()).toMatchCatalogSnapshot();
  await expect(tools()).toMatchCatalogSnapshot({ namespace: 'weather' });
  await expect(tools()).toMatchCatalogSnapshot({ target: 'jsdoc' });
  await expect(tools()).toMatchCatalogSnapshot({ target: 'xml', dialect: 'qwen3-coder' });
  await expect(tools()).toMatchCatalogSnapshot({ file: 'custom/weather.txt' });
});
`,
);

const CI_VARS = ['CI', 'CONTINUOUS_INTEGRATION', 'BUILD_NUMBER', 'RUN_ID', 'GITHUB_ACTIONS', 'GITLAB_CI', 'BUILDKITE', 'CIRCLECI', 'TRAVIS', 'JENKINS_URL', 'TF_BUILD'];

/** Run vitest in the small project; `ci` sets CI=true, else every CI variable is removed. */
function vitest(args: string[], ci: boolean): { code: number; output: string } {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
  for (const k of CI_VARS) delete env[k];
  for (const k of Object.keys(env)) if (k.startsWith('VITEST')) delete env[k];
  if (ci) env.CI = 'true';
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir, ...args], { cwd: dir, env, encoding: 'utf8', timeout: 90_000 });
  return { code: r.status ?? -1, output: `${r.stdout}${r.stderr}` };
}

const FILES = ['catalog/weather-tools.txt', 'catalog/weather-tools-2.txt', 'catalog/weather-tools.d.ts', 'catalog/weather-tools.xml', 'custom/weather.txt'];

describe('toMatchCatalogSnapshot', () => {
  it('names: from the test name, extension from the target', () => {
    expect(snapshotSlug('catalog > Weather tools!')).toBe('catalog-weather-tools');
    expect(snapshotSlug('Ünïcode — names')).toBe('unicode-names');
    expect(snapshotSlug('!!!')).toBe('catalog');
    expect(['harmony', 'jsdoc', 'xml', undefined].map(snapshotExtension)).toEqual(['.txt', '.d.ts', '.xml', '.txt']);
  });

  it('in CI (CI set) a missing snapshot is not written: the test fails, saying so', () => {
    const r = vitest([], true);
    expect(r.code).toBe(1);
    expect(r.output).toContain('does not exist, and vitest writes no new snapshots in CI (CI is set)');
    expect(r.output).toContain('Run the tests locally (or with -u) to write it, review it, and commit it.');
    expect(existsSync(join(dir, 'snapshots'))).toBe(false);
  });

  it('locally a new snapshot is written: one readable file per tool set and target', () => {
    const r = vitest([], false);
    expect(r.output).toMatch(/5 written/);
    expect(r.code).toBe(0);
    const files = readdirSync(snap(), { recursive: true, withFileTypes: false }).map(String).filter((f) => /\.\w+$/.test(f)).sort();
    expect(files).toEqual([...FILES].sort());
    expect(readFileSync(snap('catalog/weather-tools.txt'), 'utf8')).toBe(renderPart(WEATHER, { part: 'catalog' }).text);
    expect(readFileSync(snap('catalog/weather-tools-2.txt'), 'utf8')).toBe(renderPart(WEATHER, { part: 'catalog', namespace: 'weather' }).text);
    const dts = readFileSync(snap('catalog/weather-tools.d.ts'), 'utf8');
    expect(dts.startsWith('declare namespace functions {\n  /** Gets the current weather in the provided location. */\n')).toBe(true);
    expect(renderPart(WEATHER, { part: 'catalog', target: 'jsdoc' }).text.endsWith(dts.trimEnd())).toBe(true); // what the model reads, after its heading
    expect(readFileSync(snap('catalog/weather-tools.xml'), 'utf8')).toBe(renderPart(WEATHER, { part: 'catalog', target: 'xml', dialect: 'qwen3-coder' }).text);
    expect(readFileSync(snap('custom/weather.txt'), 'utf8')).toBe(readFileSync(snap('catalog/weather-tools.txt'), 'utf8'));
  });

  it('in CI, snapshots that match pass', () => {
    const r = vitest([], true);
    expect(r.output).not.toMatch(/written/);
    expect(r.code).toBe(0);
  });

  it('drift fails with a diff and leaves the file alone, locally and in CI', () => {
    const before = readFileSync(snap('catalog/weather-tools.txt'), 'utf8');
    writeFileSync(join(dir, 'tools.json'), WEATHER.replace('Gets the location of the user.', 'Finds the user.'));
    for (const ci of [false, true]) {
      const r = vitest([], ci);
      expect(r.code).toBe(1);
      expect(r.output).toMatch(/mismatched/);
      expect(r.output).toContain('- // Gets the location of the user.');
      expect(r.output).toContain('+ // Finds the user.');
      expect(readFileSync(snap('catalog/weather-tools.txt'), 'utf8')).toBe(before);
    }
  });

  it('-u rewrites the snapshots that drifted', () => {
    const r = vitest(['-u'], false);
    expect(r.code).toBe(0);
    expect(r.output).toMatch(/5 updated/);
    expect(readFileSync(snap('catalog/weather-tools.txt'), 'utf8')).toContain('// Finds the user.');
    expect(vitest([], true).code).toBe(0);
  });
});
