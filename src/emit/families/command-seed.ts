/** Model families (filled in by their printers): see registry.ts. */
import type { FamilyPrinter } from './types.js';

/** The families of this module, in the order `harmony-catalog models` lists them. */
export const FAMILIES: readonly FamilyPrinter[] = [];
