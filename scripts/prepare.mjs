// `npm ci` and `npx harmony-catalog` run `prepare`. npx installs this checkout into its own cache the
// first time it is run here and runs `prepare` again: build only when a source is newer than the
// build, so that second run costs a file walk, not a whole tsc build (`npm run build` always builds).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist/bin/harmony-catalog.cjs');

/** The newest modification time of the files under a path. */
function newest(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let t = 0;
  for (const f of readdirSync(path)) t = Math.max(t, newest(join(path, f)));
  return t;
}

const sources = ['src', 'scripts', 'package.json', 'tsconfig.json'].map((p) => join(root, p)).filter(existsSync);
const stale = !existsSync(built) || Math.max(...sources.map(newest)) > statSync(built).mtimeMs;
if (stale) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
