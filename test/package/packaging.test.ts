/**
 * Issue 22, item 21: what `npm publish` would ship. A LICENSE the licence field names; where the
 * project lives (repository, homepage, bugs); `engines` that is where every documented route works
 * (`require()` of this ES module needs Node ≥ 20.19 on 20, ≥ 22.12 on 22); README links that resolve
 * inside the package (docs/ ships); no compiled file that nothing loads (tsc's .js outside dist/lib
 * and dist/bin, the CLI's declarations); and the size the README states, measured.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBundles } from '../support/build.js';
import { ROOT } from '../support/shared.js';

interface Pkg {
  license: string;
  repository: { type: string; url: string };
  homepage: string;
  bugs: { url: string };
  engines: { node: string };
  bin: Record<string, string>;
  main: string;
  types: string;
  exports: Record<string, string | Record<string, string>>;
}
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Pkg;

/** Does `version` satisfy a range of `^a.b.c`, `>=a.b.c` and `<a.b.c` terms joined by `||` (what engines uses here)? */
function satisfies(version: string, range: string): boolean {
  const v = version.split('.').map(Number) as [number, number, number];
  const cmp = (a: number[], b: number[]) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;
  return range.split('||').some((alt) =>
    alt.trim().split(/\s+/).every((term) => {
      const m = /^(\^|>=|<)(\d+)\.(\d+)\.(\d+)$/.exec(term);
      if (!m) throw new Error(`unsupported range term ${term}`);
      const w = [Number(m[2]), Number(m[3]), Number(m[4])];
      if (m[1] === '>=') return cmp(v, w) >= 0;
      if (m[1] === '<') return cmp(v, w) < 0;
      return cmp(v, w) >= 0 && v[0] === w[0];
    }),
  );
}

/** Where Node loads an ES module with require() (unflagged): 20.19+, 22.12+, 23+. */
function requireEsm(version: string): boolean {
  const [major, minor] = version.split('.').map(Number) as [number, number];
  return major > 22 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19);
}

describe('package.json and LICENSE', () => {
  it('LICENSE is the licence the licence field names', () => {
    expect(pkg.license).toBe('MIT');
    const text = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
    expect(text.startsWith('MIT License\n\nCopyright (c) ')).toBe(true);
    expect(text).toContain('harmony-catalog contributors');
    expect(text).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
  });

  it('repository, homepage and bugs say where the project lives', () => {
    expect(pkg.repository).toEqual({ type: 'git', url: 'git+https://github.com/harmony-catalog/harmony-catalog.git' });
    expect(pkg.homepage).toBe('https://github.com/harmony-catalog/harmony-catalog#readme');
    expect(pkg.bugs).toEqual({ url: 'https://github.com/harmony-catalog/harmony-catalog/issues' });
  });

  it('engines is exactly the Node versions where import and require() both work', () => {
    const versions = ['18.20.0', '20.0.0', '20.18.3', '20.19.0', '20.20.2', '21.7.3', '22.0.0', '22.11.0', '22.12.0', '23.0.0', '24.4.1', '26.0.0'];
    for (const v of versions) expect(satisfies(v, pkg.engines.node), `${v} in ${pkg.engines.node}`).toBe(requireEsm(v) && !v.startsWith('21.'));
    // the Node running the tests is one of them (the require tests run require for real)
    expect(satisfies(process.versions.node, pkg.engines.node)).toBe(true);
  });
});

describe('npm pack', () => {
  let files: { path: string; size: number }[] = [];
  let size = 0;
  let unpackedSize = 0;
  beforeAll(() => {
    ensureBundles();
    // --ignore-scripts: `prepare` would build again; the bundles are fresh already
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const r = (JSON.parse(out) as { files: { path: string; size: number }[]; size: number; unpackedSize: number }[])[0]!;
    files = r.files;
    size = r.size;
    unpackedSize = r.unpackedSize;
  }, 300_000);
  const has = (p: string) => files.some((f) => f.path === normalize(p).replace(/\\/g, '/').replace(/^\.\//, ''));

  it('ships every file package.json names: bin, main, types, each export', () => {
    const named = [...Object.values(pkg.bin), pkg.main, pkg.types, ...Object.values(pkg.exports).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e)))];
    for (const p of named) expect(has(p), p).toBe(true);
    expect(has('LICENSE')).toBe(true);
  });

  it('no JavaScript outside dist/lib and dist/bin (tsc\'s copies that nothing loads), no CLI declarations, no build stamp', () => {
    const js = files.filter((f) => /\.[cm]?js$/.test(f.path));
    expect(js.filter((f) => !f.path.startsWith('dist/lib/') && !f.path.startsWith('dist/bin/')).map((f) => f.path)).toEqual([]);
    expect(files.filter((f) => f.path.startsWith('dist/cli/') || f.path === 'dist/.bundled').map((f) => f.path)).toEqual([]);
  });

  it('every relative link of the README and of the docs it ships resolves to a shipped file', () => {
    const docs = files.filter((f) => /^docs\/.*\.md$/.test(f.path)).map((f) => f.path);
    expect(docs.length).toBeGreaterThan(5);
    for (const doc of ['README.md', ...docs]) {
      for (const m of readFileSync(join(ROOT, doc), 'utf8').matchAll(/\]\(([^)#:\s]+)(#[^)]*)?\)/g)) {
        const target = join(dirname(doc), m[1]!);
        expect(has(target) || files.some((f) => f.path.startsWith(`${target.replace(/\/$/, '')}/`)), `${doc}: ${m[1]}`).toBe(true);
      }
    }
  });

  it('the README states the size, measured (within 25%)', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const m = /npm pack: ([\d.]+) MB packed, ([\d.]+) MB unpacked/.exec(readme);
    expect(m, 'README: "npm pack: X MB packed, Y MB unpacked"').not.toBeNull();
    console.log(`npm pack: ${(size / 1e6).toFixed(2)} MB packed, ${(unpackedSize / 1e6).toFixed(2)} MB unpacked, ${files.length} files`);
    expect(Math.abs(Number(m![1]) * 1e6 - size) / size).toBeLessThan(0.25);
    expect(Math.abs(Number(m![2]) * 1e6 - unpackedSize) / unpackedSize).toBeLessThan(0.25);
  });
});
