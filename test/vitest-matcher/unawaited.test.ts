/**
 * toMatchCatalogSnapshot without `await`: like vitest's own toMatchFileSnapshot, the assertion is
 * awaited when the test ends, so a mismatch fails the test, and a warning says the `await` is missing.
 * Run by a nested vitest (in CI mode: nothing written) on a fixture project inside the package.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderPart } from '../../src/index.js';
import { ROOT } from '../support/shared.js';

mkdirSync(join(ROOT, '.tmp'), { recursive: true });
const dir = mkdtempSync(join(ROOT, '.tmp', 'unawaited-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ORIGINAL = '[{"name": "ping", "description": "Ping the host."}]';
const CHANGED = '[{"name": "ping", "description": "Ping a host."}]';

writeFileSync(join(dir, 'package.json'), '{"name": "unawaited-test", "private": true, "type": "module"}\n');
writeFileSync(join(dir, 'vitest.config.mjs'), "export default { test: { include: ['*.test.ts'] } };\n");
mkdirSync(join(dir, 'snapshots'), { recursive: true });
writeFileSync(join(dir, 'snapshots', 'ping.txt'), renderPart(ORIGINAL, { part: 'catalog' }).text);

/** A test file with these tests (`it(name, body)` each). */
function testFile(name: string, tests: Record<string, string>): void {
  const body = Object.entries(tests)
    .map(([n, code]) => `it(${JSON.stringify(n)}, async () => {\n  ${code}\n});`)
    .join('\n');
  writeFileSync(
    join(dir, name),
    `import { expect, it } from 'vitest';\nimport { setup } from ${JSON.stringify(join(ROOT, 'src/testing/vitest.ts'))};\nsetup();\n` +
      `const ORIGINAL = ${JSON.stringify(ORIGINAL)};\nconst CHANGED = ${JSON.stringify(CHANGED)};\n${body}\n`,
  );
}

testFile('drift-unawaited.test.ts', { 'unawaited mismatch': "expect(CHANGED).toMatchCatalogSnapshot({ file: 'ping.txt' });" });
testFile('same-unawaited.test.ts', { 'unawaited match': "expect(ORIGINAL).toMatchCatalogSnapshot({ file: 'ping.txt' });" });
testFile('drift-awaited.test.ts', { 'awaited mismatch': "await expect(CHANGED).toMatchCatalogSnapshot({ file: 'ping.txt' });" });
testFile('drift-soft.test.ts', { 'unawaited soft mismatch': "expect.soft(CHANGED).toMatchCatalogSnapshot({ file: 'ping.txt' });" });

/** Run the nested vitest on one fixture file, in CI mode (no snapshot is written). */
function vitest(file: string): { code: number; output: string } {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: 'true' };
  for (const k of Object.keys(env)) if (k.startsWith('VITEST')) delete env[k];
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir, file], { cwd: dir, env, encoding: 'utf8', timeout: 90_000 });
  return { code: r.status ?? -1, output: `${r.stdout}${r.stderr}` };
}

describe('toMatchCatalogSnapshot without await', () => {
  it('a mismatch fails the test, with the diff, and a warning names the missing await', () => {
    const r = vitest('drift-unawaited.test.ts');
    expect(r.output).toMatch(/1 failed/);
    expect(r.output).toContain('- // Ping the host.');
    expect(r.output).toContain('+ // Ping a host.');
    expect(r.output).toContain('toMatchCatalogSnapshot() was not awaited');
    expect(r.output).not.toMatch(/Unhandled/i);
    expect(r.code).toBe(1);
    expect(readFileSync(join(dir, 'snapshots', 'ping.txt'), 'utf8')).toBe(renderPart(ORIGINAL, { part: 'catalog' }).text);
  });

  it('a match passes, with the warning', () => {
    const r = vitest('same-unawaited.test.ts');
    expect(r.output).toMatch(/1 passed/);
    expect(r.output).toContain('toMatchCatalogSnapshot() was not awaited');
    expect(r.code).toBe(0);
  });

  it('awaited, a mismatch fails once, without the warning', () => {
    const r = vitest('drift-awaited.test.ts');
    expect(r.output).toMatch(/1 failed/);
    expect(r.output.match(/- \/\/ Ping the host\./g)).toHaveLength(1);
    expect(r.output).not.toContain('was not awaited');
    expect(r.output).not.toMatch(/Unhandled/i);
    expect(r.code).toBe(1);
  });

  it('expect.soft without await: the mismatch fails the test once', () => {
    const r = vitest('drift-soft.test.ts');
    expect(r.output).toMatch(/1 failed/);
    expect(r.output.match(/- \/\/ Ping the host\./g)).toHaveLength(1);
    expect(r.output).not.toMatch(/Unhandled/i);
    expect(r.code).toBe(1);
  });
});
