/** Model families of this group: MeetKai Functionary v3.2 and v3.1, Google Gemma 4 (see registry.ts). */
import { FUNCTIONARY_31 } from './functionary-3.1.js';
import { FUNCTIONARY_32 } from './functionary-3.2.js';
import { GEMMA_4 } from './gemma-4.js';
import type { FamilyPrinter } from './types.js';

/** The families of this module, in the order `harmony-catalog models` lists them. */
export const FAMILIES: readonly FamilyPrinter[] = [FUNCTIONARY_32, FUNCTIONARY_31, GEMMA_4];
