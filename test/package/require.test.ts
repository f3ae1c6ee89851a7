/**
 * `require('harmony-catalog')` from CommonJS: the package is ESM, and its `exports` give every entry a
 * `default` condition, which `require` takes. Node ≥ 20.19 (and ≥ 22.12) loads an ES module with
 * `require`; older Node throws ERR_REQUIRE_ESM (use `await import('harmony-catalog')` there).
 * Runs the built package (dist/, built by `npm ci` / `npm run build`) in child processes.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/shared.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; exports: Record<string, string | Record<string, string>> };
const entries = Object.keys(pkg.exports).filter((k) => k !== './package.json');
const [major, minor] = process.versions.node.split('.').map(Number);
const requireEsm = major > 22 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19);

mkdirSync(join(ROOT, '.tmp'), { recursive: true });
const dir = mkdtempSync(join(ROOT, '.tmp', 'require-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function node(args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

describe('require() from CommonJS', () => {
  it('every export entry has a condition require takes (default), pointing at the import file', () => {
    for (const k of entries) {
      const e = pkg.exports[k] as Record<string, string>;
      expect(e.default, k).toBe(e.import);
      expect(existsSync(join(ROOT, e.default)), `${e.default}: run npm run build`).toBe(true);
    }
  });

  it(`node -e "require('${pkg.name}')" ${requireEsm ? 'works' : 'fails with ERR_REQUIRE_ESM'} on Node ${process.versions.node}`, () => {
    const r = node(['-e', `const hc = require(${JSON.stringify(pkg.name)}); process.stdout.write(hc.renderCatalog(hc.readTools('[{"name": "ping", "description": "Ping."}]')).text);`]);
    if (requireEsm) {
      expect(r.err).toBe('');
      expect(r.out).toBe('# Tools\n\n## functions\n\nnamespace functions {\n\n// Ping.\ntype ping = () => any;\n\n} // namespace functions');
      expect(r.code).toBe(0);
    } else {
      expect(r.err).toContain('ERR_REQUIRE_ESM');
      expect(r.code).not.toBe(0);
    }
  });

  it('a .cjs file requires every entry point', () => {
    const file = join(dir, 'check.cjs');
    writeFileSync(
      file,
      `'use strict';\nconst names = ${JSON.stringify(entries.map((k) => pkg.name + k.slice(1)))};\n` +
        "const out = {};\nfor (const n of names) out[n] = Object.keys(require(n)).length;\nprocess.stdout.write(JSON.stringify(out));\n",
    );
    const r = node([file]);
    if (!requireEsm) {
      expect(r.err).toContain('ERR_REQUIRE_ESM');
      return;
    }
    expect(r.err).toBe('');
    const counts = JSON.parse(r.out) as Record<string, number>;
    expect(Object.keys(counts)).toEqual(entries.map((k) => pkg.name + k.slice(1)));
    for (const [n, c] of Object.entries(counts)) expect(c, n).toBeGreaterThan(0);
  });
});
