/**
 * The first-turn printers kept beside the engine (see ./types.ts): the families whose official
 * template the engine renders slower than the printer (bench/template.mjs prints both).
 */
import { COMMAND_R_PLUS } from './command-r-plus.js';
import { FUNCTIONARY_32 } from './functionary-3.2.js';
import { GEMMA_4 } from './gemma-4.js';
import { KIMI_K2 } from './kimi-k2.js';
import { MINIMAX_M2 } from './minimax-m2.js';
import { MISTRAL_NEMO } from './mistral-nemo.js';
import { SEED_OSS } from './seed-oss.js';
import type { FamilyPrinter } from './types.js';

export type { FamilyPrinter, FamilyPromptOptions, FamilyMessage } from './types.js';

/** Every kept printer. */
export const FAMILY_PRINTERS: readonly FamilyPrinter[] = [MISTRAL_NEMO, KIMI_K2, MINIMAX_M2, FUNCTIONARY_32, GEMMA_4, COMMAND_R_PLUS, SEED_OSS];

/** The printer of a family (its `--model` name), or undefined. */
export function familyPrinter(name: string): FamilyPrinter | undefined {
  return FAMILY_PRINTERS.find((f) => f.name === name);
}
