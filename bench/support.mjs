// What the benchmarks share: the corpus as one catalog, and medians.
import { execFileSync, execSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The corpus as a user would hand it over: one JSON array of bare tools (metadata dropped), and its size. */
export function corpusCatalog(corpusPath) {
  const lines = readFileSync(corpusPath, 'utf8').split('\n').filter(Boolean);
  // numbers go through JSON.parse here only to drop the corpus metadata; the benches read the text losslessly
  const text = `[${lines.map((l) => { const t = JSON.parse(l); return JSON.stringify({ name: t.name, description: t.description, parameters: t.parameters }); }).join(',')}]`;
  return { text, count: lines.length };
}

/** The median of some numbers. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/**
 * The build of an earlier commit, for side-by-side figures: `git archive <ref>` unpacked in a temp
 * directory (kept per commit, reused by later runs), this checkout's node_modules linked in, its
 * own `npm run build` run there. Returns the directory and the commit.
 */
export function baselineBuild(root, ref) {
  const sha = execFileSync('git', ['-C', root, 'rev-parse', '--verify', `${ref}^{commit}`], { encoding: 'utf8' }).trim();
  const dir = join(tmpdir(), `harmony-catalog-baseline-${sha.slice(0, 12)}`);
  if (!existsSync(join(dir, 'dist/index.js'))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    execSync(`git -C ${JSON.stringify(root)} archive ${sha} | tar -x -C ${JSON.stringify(dir)}`);
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
    try {
      execFileSync('npm', ['run', 'build', '--silent'], { cwd: dir, stdio: 'pipe' });
    } catch (e) {
      // type errors still emit JavaScript; without dist/index.js there is nothing to compare with
      if (!existsSync(join(dir, 'dist/index.js'))) throw new Error(`baseline ${ref}: the build failed: ${e.stderr ?? e.message}`);
    }
  }
  return { dir, sha };
}

/**
 * Time several functions alternately (one run of each in turn, so a busy machine slows them
 * alike): medians in ms after `warmup` rounds. With `--expose-gc` (npm run bench), a minor GC runs before
 * each run, so one function's young garbage is not collected on the next one's time.
 */
export async function alternate(fns, { runs, warmup = 3 }) {
  const gc = globalThis.gc;
  const xs = fns.map(() => []);
  for (let r = 0; r < warmup + runs; r++) {
    for (let k = 0; k < fns.length; k++) {
      gc?.({ type: 'minor' });
      const t0 = process.hrtime.bigint();
      await fns[k]();
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (r >= warmup) xs[k].push(ms);
    }
  }
  return xs.map(median);
}
