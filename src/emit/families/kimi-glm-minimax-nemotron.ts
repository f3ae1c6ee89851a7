/** Model families Kimi K2 (Instruct, Thinking), GLM-4.6, GLM-4.7-Flash, MiniMax-M2 and Nemotron Nano v2: see registry.ts. */
import { GLM_4_6, GLM_4_7 } from './glm.js';
import { KIMI_K2 } from './kimi-k2.js';
import { KIMI_K2_THINKING } from './kimi-k2-thinking.js';
import { MINIMAX_M2 } from './minimax-m2.js';
import { NEMOTRON_NANO_2 } from './nemotron-nano-2.js';
import type { FamilyPrinter } from './types.js';

/** The families of this module, in the order `harmony-catalog models` lists them. */
export const FAMILIES: readonly FamilyPrinter[] = [KIMI_K2, KIMI_K2_THINKING, GLM_4_6, GLM_4_7, MINIMAX_M2, NEMOTRON_NANO_2];
