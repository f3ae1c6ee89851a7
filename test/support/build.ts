/** For tests that run the built package (dist/): rebuild it with tsc when a source file is newer, and the bundles when tsc's output is. */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './shared.js';

/** The newest modification time of the files with this ending under a directory (less the subdirectories skipped). */
export function newest(dir: string, ending = '.ts', skip: readonly string[] = []): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (!skip.includes(p)) t = Math.max(t, newest(p, ending, skip));
    }
    else if (e.name.endsWith(ending)) t = Math.max(t, statSync(p).mtimeMs);
  }
  return t;
}

/** Run tsc when `built` (a file of dist/) is missing or older than a file of src/. */
export function ensureTscBuild(built: string): void {
  if (existsSync(built) && statSync(built).mtimeMs >= newest(join(ROOT, 'src'))) return;
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: ROOT, stdio: 'pipe' });
  } catch {
    // type errors still emit JavaScript; the tests say whether it works
  }
}

/** tsc's build, then the bundles (scripts/bundle.mjs: the CLI in dist/bin, the library in dist/lib) when tsc's output is newer than them. */
export function ensureBundles(): void {
  ensureTscBuild(join(ROOT, 'dist/index.js'));
  const stamp = join(ROOT, 'dist/.bundled');
  const tscOutput = newest(join(ROOT, 'dist'), '.js', [join(ROOT, 'dist/bin'), join(ROOT, 'dist/lib')]);
  if (!existsSync(stamp) || statSync(stamp).mtimeMs < tscOutput) {
    execFileSync(process.execPath, [join(ROOT, 'scripts/bundle.mjs')], { cwd: ROOT, stdio: 'pipe' });
  }
}
