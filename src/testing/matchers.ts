/**
 * The types of `toMatchCatalogSnapshot` (`harmony-catalog/vitest`), apart from its code: vitest's
 * `expect(…)` learns the matcher here (`declare module 'vitest'`). The package entry
 * (`harmony-catalog`) loads this module's declarations (`export type {} from`), so a test file
 * that reaches the package by any import (its tools module, say) sees the matcher typed, without
 * the setup file that calls `setup()` being in the tsconfig's `include`.
 *
 * Types only, importing nothing of vitest's: where vitest is not installed (it is an optional peer
 * dependency), the augmentation of a module that does not resolve is ignored in a declaration file,
 * so the package's types still check without it. (The entry's CommonJS declarations do not load
 * it: see scripts/bundle.mjs, step 6.)
 */
import type { CatalogSnapshotOptions } from './options.js';

declare module 'vitest' {
  // vitest's Assertion<T> extends Matchers<T> (its documented place for custom matchers); the type
  // parameter is vitest's own, as a merged declaration must have it
  interface Matchers<T = any> {
    /** Render these tools (any input `readTools` accepts) and match the snapshot file of this tool set and target: `await` it. */
    toMatchCatalogSnapshot(options?: CatalogSnapshotOptions): Promise<void>;
  }
}
