/**
 * A small glob for config sources (Node 20 has no fs.glob): `*` and `?` within one path segment,
 * `**` for any number of directories. Paths use `/`; results are sorted (byte order) so builds are
 * deterministic. `*`, `?` and `**` do not match names starting with `.` unless the pattern segment
 * does, and `**` does not enter `node_modules`.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** True when the pattern has a wildcard (`*` or `?`). */
export function isGlob(pattern: string): boolean {
  return /[*?]/.test(pattern);
}

/** A regular expression for one path segment of a pattern. */
function segmentRegex(segment: string): RegExp {
  let re = '';
  for (const c of segment) re += c === '*' ? '[^/]*' : c === '?' ? '[^/]' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${re}$`);
}

/** Does a directory entry's name match a pattern segment (dot-names only when the segment starts with `.`)? */
function matchSegment(segment: string, name: string): boolean {
  if (name.startsWith('.') && !segment.startsWith('.')) return false;
  return segmentRegex(segment).test(name);
}

function entries(dir: string): { name: string; dir: boolean }[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).map((e) => ({ name: e.name, dir: e.isDirectory() || (e.isSymbolicLink() && isDir(join(dir, e.name))) }));
  } catch {
    return [];
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The files matching a pattern, relative to `cwd` (or absolute, for an absolute pattern), sorted.
 * A pattern without wildcards names one file: returned when it exists.
 */
export function expandGlob(pattern: string, cwd: string): string[] {
  const normalized = pattern.replace(/\\/g, '/');
  const absolute = normalized.startsWith('/');
  const segments = normalized.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.at(-1) === '**') segments.push('*'); // `dir/**`: every file under dir
  const root = absolute ? '/' : cwd;
  const found = new Set<string>();
  const walk = (dir: string, rel: string, k: number): void => {
    if (k === segments.length) return;
    const seg = segments[k];
    const last = k === segments.length - 1;
    const at = (name: string) => (rel === '' ? name : `${rel}/${name}`);
    if (seg === '**') {
      walk(dir, rel, k + 1); // zero directories
      for (const e of entries(dir)) {
        if (!e.dir || e.name.startsWith('.') || e.name === 'node_modules') continue;
        walk(join(dir, e.name), at(e.name), k); // one more
      }
      return;
    }
    if (!isGlob(seg)) {
      const path = join(dir, seg);
      if (last) {
        if (isFile(path)) found.add(at(seg));
      } else if (isDir(path)) walk(path, at(seg), k + 1);
      return;
    }
    for (const e of entries(dir)) {
      if (!matchSegment(seg, e.name)) continue;
      if (last) {
        if (!e.dir) found.add(at(e.name));
      } else if (e.dir) walk(join(dir, e.name), at(e.name), k + 1);
    }
  };
  if (segments.length === 0) return [];
  walk(root, '', 0);
  const out = [...found].map((p) => (absolute ? `/${p}` : p));
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
