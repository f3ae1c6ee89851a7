/** Model families Llama 3.1/3.3, 3.2 and 4, Mistral Nemo, Ministral 3, Granite 3.3 and 4.0: see registry.ts. */
import { GRANITE_3_3 } from './granite-3.3.js';
import { GRANITE_4_0 } from './granite-4.0.js';
import { LLAMA_3_1, LLAMA_3_2, LLAMA_4 } from './llama.js';
import { MINISTRAL_3 } from './ministral-3.js';
import { MISTRAL_NEMO } from './mistral-nemo.js';
import type { FamilyPrinter } from './types.js';

/** The families of this module, in the order `harmony-catalog models` lists them. */
export const FAMILIES: readonly FamilyPrinter[] = [LLAMA_3_1, LLAMA_3_2, LLAMA_4, MISTRAL_NEMO, MINISTRAL_3, GRANITE_3_3, GRANITE_4_0];
