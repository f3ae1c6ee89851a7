/**
 * The package's types as a user's project sees them (issue 22, item 20): a throwaway project under
 * the git-ignored `.tmp/` with the package installed in its own `node_modules/harmony-catalog` (the
 * files `npm pack` would ship, copied: package.json, dist/lib, the declarations), compiled by the
 * repository's TypeScript, and asked for completions and deprecations as an editor asks its
 * language service. Other packages the declarations name (vitest, TypeBox, @types/node) are found
 * in the repository's node_modules, above `.tmp/`; or, for a project made `outside` the
 * repository, only those linked into it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ensureBundles } from '../support/build.js';
import { ROOT } from '../support/shared.js';

type TS = typeof import('typescript');
/** The repository's TypeScript. */
export const ts = createRequire(import.meta.url)('typescript') as TS;
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

let shipped: string[] | undefined;

/**
 * The built package (tsc's declarations, the bundles and the CommonJS declarations of
 * scripts/bundle.mjs), rebuilt when a source is newer; and the files `npm pack` would ship.
 */
export function packageFiles(): string[] {
  ensureBundles();
  // a build from before the CommonJS declarations existed: make them
  if (!existsSync(join(ROOT, 'dist/lib/cjs/index.d.cts'))) execFileSync(process.execPath, [join(ROOT, 'scripts/bundle.mjs')], { cwd: ROOT, stdio: 'pipe' });
  if (shipped === undefined) {
    // --ignore-scripts: `prepare` would build again
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    shipped = (JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
  }
  return shipped;
}

/** A throwaway project: its folder, and removing it. */
export interface Project {
  readonly dir: string;
  remove(): void;
}

/**
 * A project with these files (paths relative to it) and the package installed as `npm pack`
 * ships it. `outside`: made in the system's temp folder, where the repository's node_modules is
 * not above it; only the packages named in `link` are linked into its node_modules.
 */
export function makeProject(name: string, files: Readonly<Record<string, string>>, options: { outside?: boolean; link?: readonly string[] } = {}): Project {
  const list = packageFiles();
  const base = options.outside ? join(tmpdir(), 'harmony-catalog-types') : join(ROOT, '.tmp');
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, `${name}-`));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const installed = join(dir, 'node_modules/harmony-catalog');
  for (const path of list) {
    mkdirSync(dirname(join(installed, path)), { recursive: true });
    copyFileSync(join(ROOT, path), join(installed, path));
  }
  for (const pkg of options.link ?? []) {
    mkdirSync(dirname(join(dir, 'node_modules', pkg)), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', pkg), join(dir, 'node_modules', pkg), 'dir');
  }
  return {
    dir,
    remove: () => {
      rmSync(dir, { recursive: true, force: true });
      // the folder made for projects outside the repository, when nothing else is in it
      if (options.outside) {
        try {
          rmdirSync(base);
        } catch {
          /* another project is in it */
        }
      }
    },
  };
}

/** Run the repository's tsc in a project (`-p` the given tsconfig): its exit code and what it printed. */
export function tsc(dir: string, project = 'tsconfig.json', extra: readonly string[] = []): { code: number; out: string } {
  const r = spawnSync(process.execPath, [TSC, '-p', join(dir, project), ...extra], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

/** An editor's view of a project: TypeScript's language service over its tsconfig's files, with files replaceable in memory. */
export function languageService(dir: string, project = 'tsconfig.json'): { service: import('typescript').LanguageService; file: (path: string) => string } {
  const configPath = join(dir, project);
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } });
  if (parsed === undefined) throw new Error(`cannot read ${configPath}`);
  const host: import('typescript').LanguageServiceHost = {
    getScriptFileNames: () => parsed.fileNames,
    getScriptVersion: () => '1',
    getScriptSnapshot: (f) => (ts.sys.fileExists(f) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(f) ?? '') : undefined),
    getCurrentDirectory: () => dir,
    getCompilationSettings: () => parsed.options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    realpath: ts.sys.realpath,
  };
  return { service: ts.createLanguageService(host), file: (path) => ts.sys.resolvePath(join(dir, path)) };
}

/** The completions an editor offers where `marker` (a comment such as `/*here*\/`) stands in a project file. */
export function completionsAt(ls: ReturnType<typeof languageService>, path: string, marker: string): string[] {
  const file = ls.file(path);
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`${marker} is not in ${path}`);
  const c = ls.service.getCompletionsAtPosition(file, at, { includeCompletionsWithInsertText: true });
  return (c?.entries ?? []).filter((e) => e.kind !== ts.ScriptElementKind.keyword).map((e) => e.name);
}

/** `Equal<A, B>`: true when the two types are the same (not merely assignable both ways), for fixtures. */
export const EQUAL = 'type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;\n';

/** Node loads an ES module with require() (unflagged): 20.19+, 22.12+, 23+. */
export function requireEsm(version = process.versions.node): boolean {
  const [major, minor] = version.split('.').map(Number) as [number, number];
  return major > 22 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19);
}
