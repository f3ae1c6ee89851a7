/**
 * `harmony-catalog/vitest`: `await expect(tools).toMatchCatalogSnapshot(options?)` keeps what the model
 * reads for a tool set in one readable file per tool set and target under `snapshots/`, and fails
 * with a diff when it drifts. Built on vitest's own file snapshots (`Snapshots.toMatchFileSnapshot`),
 * so `-u` updates and CI (`CI` set) refuses to write a missing snapshot, as for `toMatchFileSnapshot`;
 * and like it, a call without `await` is awaited when the test ends (a mismatch fails the test) and warned about.
 *
 *   import { setup } from 'harmony-catalog/vitest';
 *   setup(); // in a setup file or at the top of a test file
 *   it('weather tools', async () => { await expect(tools).toMatchCatalogSnapshot(); });
 *
 * The matcher's types (vitest's `expect` augmented) are in `matchers.ts`, which the package entry
 * loads too: they come with any import of the package, not only with this module.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { chai, expect, Snapshots } from 'vitest';
import type { MatcherState } from 'vitest';
import { emitJsdocCatalog } from '../emit/jsdoc/catalog.js';
import { compileTools } from '../api/compile.js';
import { renderPart, type PartOptions } from '../api/render.js';
import type { CatalogSnapshotOptions } from './options.js';

export type { CatalogSnapshotOptions } from './options.js';
// the matcher's types: vitest's expect augmented
export type {} from './matchers.js';

/** What a matcher returns (vitest's custom matcher contract). */
export interface CatalogSnapshotResult {
  readonly pass: boolean;
  readonly message: () => string;
  readonly actual?: unknown;
  readonly expected?: unknown;
}

/** Options of `setup`. */
export interface CatalogSnapshotSetup {
  /** The snapshots directory. Default: `snapshots` in the package root (the nearest directory with a package.json above the test file). */
  readonly dir?: string;
}

let snapshotsDir: string | undefined;

/** The file extension of a target's snapshots. */
export function snapshotExtension(target: string | undefined): string {
  switch (target ?? 'harmony') {
    case 'jsdoc':
      return '.d.ts';
    case 'xml':
      return '.xml';
    default:
      return '.txt';
  }
}

/** A file name from a test name: `tools > Weather API!` → `tools-weather-api`. */
export function snapshotSlug(testName: string): string {
  const slug = testName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug === '' ? 'catalog' : slug;
}

/** The nearest directory at or above `from` with a package.json (else `from`). */
function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return from;
  }
}

// How many snapshots each test has taken, so a second one in the same test gets its own file (`-2`).
const perTask = new WeakMap<object, Map<string, number>>();
const perName = new Map<string, Map<string, number>>();

function nextName(state: MatcherState, slug: string, ext: string): string {
  const task = state.task as object | undefined;
  let counts = task ? perTask.get(task) : perName.get(`${state.testPath}\0${state.currentTestName}`);
  if (!counts) {
    counts = new Map();
    if (task) perTask.set(task, counts);
    else perName.set(`${state.testPath}\0${state.currentTestName}`, counts);
  }
  const n = (counts.get(slug + ext) ?? 0) + 1;
  counts.set(slug + ext, n);
  return `${slug}${n === 1 ? '' : `-${n}`}${ext}`;
}

/** Where a snapshot goes: `file` under the snapshots dir, else `<dir>/<test file stem>/<test name><ext>`. */
function snapshotPath(state: MatcherState, options: CatalogSnapshotOptions): string {
  const testPath = state.testPath ?? join(process.cwd(), 'test');
  const dir = snapshotsDir ?? join(packageRoot(dirname(testPath)), 'snapshots');
  if (options.file !== undefined) return isAbsolute(options.file) ? options.file : resolve(dir, options.file);
  const stem = basename(testPath).replace(/\.(test|spec)\.[cm]?[jt]sx?$/, '').replace(/\.[cm]?[jt]sx?$/, '');
  return join(dir, stem, nextName(state, snapshotSlug(state.currentTestName ?? 'catalog'), snapshotExtension(options.target)));
}

/**
 * The text a snapshot holds: the part asked for (default: the catalog, the tools as the target prints
 * them). For the jsdoc target the catalog is its declarations alone, so the `.d.ts` file is TypeScript
 * (the model also reads a constant `# Tools` heading and calling instructions before them).
 */
async function renderSnapshot(tools: unknown, options: CatalogSnapshotOptions): Promise<string> {
  const { file: _file, ...render } = options;
  if (render.target === 'jsdoc' && (render.part ?? 'catalog') === 'catalog') {
    const c = compileTools(tools, render);
    return emitJsdocCatalog(c.lowered, render.namespace !== undefined ? { namespace: render.namespace } : {});
  }
  const r = await renderPart(tools, { part: 'catalog', ...render } as PartOptions);
  return r.text;
}

/** The matchers, for `expect.extend(matchers)`. */
export const matchers = {
  /** Render the tools and compare with (or write) their snapshot file. */
  async toMatchCatalogSnapshot(this: MatcherState, received: unknown, options: CatalogSnapshotOptions = {}): Promise<CatalogSnapshotResult> {
    if (this.isNot) throw new Error('toMatchCatalogSnapshot cannot be used with .not');
    const text = await renderSnapshot(received, options);
    const file = snapshotPath(this, options);
    const mode = (this as { snapshotState?: { snapshotUpdateState?: string } }).snapshotState?.snapshotUpdateState;
    if (mode === 'none' && !existsSync(file)) {
      return {
        pass: false,
        message: () =>
          `catalog snapshot ${file} does not exist, and vitest writes no new snapshots in CI (CI is set).\n` +
          'Run the tests locally (or with -u) to write it, review it, and commit it.',
      };
    }
    return Snapshots.toMatchFileSnapshot.call(this, text, file);
  },
};

/** What vitest keeps on a running test for the assertions it awaits at the end (vitest's `Test.promises`, `Test.onFinished`). */
interface AwaitedTest {
  promises?: Promise<unknown>[];
  onFinished?: (() => unknown)[];
}

/**
 * Have vitest await an assertion's promise when the test ends, as it does for its own
 * `toMatchFileSnapshot` (`recordAsyncExpect`): the promise goes in the test's `promises` (awaited
 * after the test function; a mismatch then fails the test) until it settles, and a warning says when
 * the test finished without an `await` on it. Returns a thenable: awaiting it marks it awaited.
 */
function awaitAtTestEnd<T>(test: AwaitedTest | undefined, promise: Promise<T>, call: Error): PromiseLike<T> {
  if (!test) return promise;
  const tracked: Promise<T> = promise.finally(() => {
    const i = test.promises?.indexOf(tracked) ?? -1;
    if (i !== -1) test.promises!.splice(i, 1);
  });
  (test.promises ??= []).push(tracked);
  let awaited = false;
  (test.onFinished ??= []).push(() => {
    if (awaited) return;
    const filter = (globalThis as { __vitest_worker__?: { onFilterStackTrace?: (s: string) => string } }).__vitest_worker__?.onFilterStackTrace ?? ((s: string) => s);
    console.warn(
      'expect(…).toMatchCatalogSnapshot() was not awaited: vitest awaits it when the test ends, so a mismatch fails the test there, ' +
        'but write `await expect(tools).toMatchCatalogSnapshot()`.\n' +
        filter(call.stack ?? ''),
    );
  });
  return {
    then(onFulfilled, onRejected) {
      awaited = true;
      return tracked.then(onFulfilled, onRejected);
    },
  };
}

/**
 * Register the matchers with vitest's `expect`; optionally set the snapshots directory. A call
 * without `await` is awaited when the test ends (a mismatch fails the test) and warned about, as
 * vitest does for `toMatchFileSnapshot`; `expect.extend(matchers)` alone does not do this.
 */
export function setup(options: CatalogSnapshotSetup = {}): void {
  if (options.dir !== undefined) snapshotsDir = resolve(options.dir);
  expect.extend(matchers);
  // expect.extend hands back the promise of an async matcher untracked: wrap it as vitest wraps its own
  chai.util.overwriteMethod(chai.Assertion.prototype, 'toMatchCatalogSnapshot', (original: (...args: unknown[]) => unknown) => {
    const tracking = function (this: object, ...args: unknown[]): unknown {
      // where the test called it, for the warning
      const call = new Error('toMatchCatalogSnapshot');
      Error.captureStackTrace(call, tracking);
      const result = original.apply(this, args);
      if (!(result instanceof Promise)) return result;
      return awaitAtTestEnd(chai.util.flag(this, 'vitest-test') as AwaitedTest | undefined, result, call);
    };
    return tracking;
  });
}
