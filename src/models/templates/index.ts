/**
 * Every official chat template the package ships, by family name (the `template` of a `ModelFamily`
 * in ../families.ts). Each module holds the exact text and its provenance (see ../types.ts); they are
 * written by scripts/import-template.mjs and checked by test/models/templates.test.ts.
 *
 * kimi-k2-thinking's official file (moonshotai/Kimi-K2-Thinking chat_template.jinja) is in no public
 * source here: its text is llama.cpp's copy with the one argument that copy removed put back
 * (`source.restored`, and the note that says where the official line is quoted).
 */
import type { OfficialTemplate } from '../types.js';
import { TEMPLATE as llama31 } from './llama-3.1.js';
import { TEMPLATE as llama32 } from './llama-3.2.js';
import { TEMPLATE as llama4 } from './llama-4.js';
import { TEMPLATE as mistralNemo } from './mistral-nemo.js';
import { TEMPLATE as ministral3 } from './ministral-3.js';
import { TEMPLATE as kimiK2 } from './kimi-k2.js';
import { TEMPLATE as kimiK2Thinking } from './kimi-k2-thinking.js';
import { TEMPLATE as glm46 } from './glm-4.6.js';
import { TEMPLATE as glm47 } from './glm-4.7.js';
import { TEMPLATE as minimaxM2 } from './minimax-m2.js';
import { TEMPLATE as functionary32 } from './functionary-3.2.js';
import { TEMPLATE as functionary31 } from './functionary-3.1.js';
import { TEMPLATE as commandR7b } from './command-r7b.js';
import { TEMPLATE as commandRPlus } from './command-r-plus.js';
import { TEMPLATE as granite33 } from './granite-3.3.js';
import { TEMPLATE as granite40 } from './granite-4.0.js';
import { TEMPLATE as nemotronNano2 } from './nemotron-nano-2.js';
import { TEMPLATE as seedOss } from './seed-oss.js';
import { TEMPLATE as gemma4 } from './gemma-4.js';
import { TEMPLATE as deepseekV31 } from './deepseek-v3.1.js';
import { TEMPLATE as qwen3 } from './qwen3.js';
import { TEMPLATE as phi4Mini } from './phi-4-mini.js';
import { TEMPLATE as qwen25 } from './qwen2.5.js';
import { TEMPLATE as qwen3Coder } from './qwen3-coder.js';
import { TEMPLATE as hermes } from './hermes.js';
import { TEMPLATE as gptOss } from './gpt-oss.js';

/** The family names that have a shipped template. */
export type TemplateName =
  | 'llama-3.1'
  | 'llama-3.2'
  | 'llama-4'
  | 'mistral-nemo'
  | 'ministral-3'
  | 'kimi-k2'
  | 'kimi-k2-thinking'
  | 'glm-4.6'
  | 'glm-4.7'
  | 'minimax-m2'
  | 'functionary-3.2'
  | 'functionary-3.1'
  | 'command-r7b'
  | 'command-r-plus'
  | 'granite-3.3'
  | 'granite-4.0'
  | 'nemotron-nano-2'
  | 'seed-oss'
  | 'gemma-4'
  | 'deepseek-v3.1'
  | 'qwen3'
  | 'phi-4-mini'
  | 'qwen2.5'
  | 'qwen3-coder'
  | 'hermes'
  | 'gpt-oss';

/** Each shipped official template, by family name. */
export const TEMPLATES: Readonly<Record<TemplateName, OfficialTemplate>> = Object.freeze({
  'llama-3.1': llama31,
  'llama-3.2': llama32,
  'llama-4': llama4,
  'mistral-nemo': mistralNemo,
  'ministral-3': ministral3,
  'kimi-k2': kimiK2,
  'kimi-k2-thinking': kimiK2Thinking,
  'glm-4.6': glm46,
  'glm-4.7': glm47,
  'minimax-m2': minimaxM2,
  'functionary-3.2': functionary32,
  'functionary-3.1': functionary31,
  'command-r7b': commandR7b,
  'command-r-plus': commandRPlus,
  'granite-3.3': granite33,
  'granite-4.0': granite40,
  'nemotron-nano-2': nemotronNano2,
  'seed-oss': seedOss,
  'gemma-4': gemma4,
  'deepseek-v3.1': deepseekV31,
  'qwen3': qwen3,
  'phi-4-mini': phi4Mini,
  'qwen2.5': qwen25,
  'qwen3-coder': qwen3Coder,
  'hermes': hermes,
  'gpt-oss': gptOss,
});

/** The template of a family name, or undefined when none is shipped under that name. */
export function officialTemplate(name: string): OfficialTemplate | undefined {
  return Object.prototype.hasOwnProperty.call(TEMPLATES, name) ? TEMPLATES[name as TemplateName] : undefined;
}
