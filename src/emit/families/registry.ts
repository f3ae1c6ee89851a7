/** The registry behind `--model`: every family printer, by name and alias. */
import { FAMILIES as COMMAND_SEED } from './command-seed.js';
import { FAMILIES as FUNCTIONARY_GEMMA } from './functionary-gemma.js';
import { FAMILIES as KIMI_GLM_MINIMAX_NEMOTRON } from './kimi-glm-minimax-nemotron.js';
import { FAMILIES as LLAMA_MISTRAL_GRANITE } from './llama-mistral-granite.js';
import type { FamilyPrinter } from './types.js';

export type { FamilyPrinter, FamilyPromptOptions, FamilyText, FamilyMessage } from './types.js';

/** Every family printer. */
export const FAMILY_PRINTERS: readonly FamilyPrinter[] = [...LLAMA_MISTRAL_GRANITE, ...KIMI_GLM_MINIMAX_NEMOTRON, ...FUNCTIONARY_GEMMA, ...COMMAND_SEED];

/** The family printer of a `--model` name or alias, or undefined. */
export function familyPrinter(name: string): FamilyPrinter | undefined {
  return FAMILY_PRINTERS.find((f) => f.name === name || f.aliases.includes(name));
}
