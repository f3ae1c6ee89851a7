/**
 * Issue 22, item 23: the build suites leave nothing in the temporary folder. Each suite is run in a
 * child vitest whose TMPDIR is a fresh folder; that folder is empty afterwards (test/build/
 * sources-more.test.ts left an hc-build-* folder behind on every run).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/shared.js';

const fresh = mkdtempSync(join(tmpdir(), 'hc-tmpdir-'));
afterAll(() => rmSync(fresh, { recursive: true, force: true }));

describe('the build suites clean up their temporary folders', () => {
  for (const suite of ['test/build/sources-more.test.ts']) {
    it(suite, () => {
      const tmp = mkdtempSync(join(fresh, 'run-'));
      const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', suite], { cwd: ROOT, env: { ...process.env, TMPDIR: tmp, TMP: tmp, TEMP: tmp }, encoding: 'utf8', timeout: 240_000 });
      expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
      expect(readdirSync(tmp).filter((f) => f.startsWith('hc-'))).toEqual([]);
    }, 300_000);
  }
});
