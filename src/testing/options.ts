/** The options of `toMatchCatalogSnapshot` (`harmony-catalog/vitest`): a type of its own, so that naming it loads nothing of vitest's. */
import type { PartOptions } from '../api/render.js';

/** Options of `toMatchCatalogSnapshot`: what to render (any render option, passed through) and where to keep it. */
export interface CatalogSnapshotOptions extends Omit<PartOptions, 'tools'> {
  /** The snapshot file: relative to the snapshots directory, or absolute. Default: from the test's name and target. */
  readonly file?: string;
}
