/** Model families (filled in by their printers): see registry.ts. Cohere Command R7B and R+, ByteDance Seed-OSS. */
import { COMMAND_R_PLUS } from './command-r-plus.js';
import { COMMAND_R7B } from './command-r7b.js';
import { SEED_OSS } from './seed-oss.js';
import type { FamilyPrinter } from './types.js';

/** The families of this module, in the order `harmony-catalog models` lists them. */
export const FAMILIES: readonly FamilyPrinter[] = [COMMAND_R7B, COMMAND_R_PLUS, SEED_OSS];
