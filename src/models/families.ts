/**
 * The model families behind `--model` whose official chat template the engine runs: one record a
 * family (its names, the models it covers, its template, the special tokens its tokenizer gives
 * the template, and what its servers do differently). The template text and its provenance are
 * in `./templates/`.
 */
import { commandR7bFindings, commandRPlusFindings, functionary31Findings, gemma4Findings, granite4Findings, mistralNemoFindings, seedOssFindings, type FamilyFindings } from './findings.js';

/** One model family: what `--model NAME` renders with. */
export interface ModelFamily {
  /** The `--model` name, e.g. `llama-3.1`. */
  readonly name: string;
  /** Other names for it, e.g. `llama-3.3`. */
  readonly aliases: readonly string[];
  /** The models it covers, in words. */
  readonly models: string;
  /** Hugging Face model names (lower case, without the organisation) of the models it covers: `--model meta-llama/Llama-3.1-8B-Instruct` finds it. */
  readonly ids?: RegExp;
  /**
   * The Hugging Face model whose `tokenizer.json` counts this family's tokens when it is in the local
   * Hugging Face cache (never downloaded): one usual model of the family. Only where the file is a
   * `tokenizer.json` the project reads (Kimi K2 ships a tiktoken file; Granite 4.0's models differ).
   */
  readonly hf?: string;
  /** Its official template: a key of `TEMPLATES` (./templates/index.ts). */
  readonly template: string;
  /** The folder of ../shared/oracles it is checked against (`families/NAME`, `xml/NAME`). */
  readonly oracle: string;
  /** The special tokens transformers hands the template (`tokenizer.special_tokens_map`: those the template reads). */
  readonly special: Readonly<Record<string, string>>;
  /** The template's knobs and what they default to, in words (`harmony-catalog models`). */
  readonly knobs?: string;
  /** Said as a warning when vLLM renders this family: what a default vLLM server does instead of this template. */
  readonly vllmNote?: string;
  /** Its lint rules: where its template prints a tool so that it cannot be read back (./findings.ts). */
  readonly findings?: FamilyFindings;
}

const LLAMA3 = { bos_token: '<|begin_of_text|>' };
const MISTRAL = { bos_token: '<s>', eos_token: '</s>', unk_token: '<unk>' };
const COHERE = { bos_token: '<BOS_TOKEN>' };
const QWEN = { eos_token: '<|im_end|>', pad_token: '<|endoftext|>' };
// vLLM's default --tokenizer-mode auto renders Mistral repositories that ship tekken.json with mistral_common
const MISTRAL_COMMON = 'a default vLLM server (--tokenizer-mode auto) renders this model with mistral_common, not with its chat template: this is the --tokenizer-mode hf prompt';

/** Every family the engine renders, in the order `harmony-catalog models` lists them. */
export const MODEL_FAMILIES: readonly ModelFamily[] = [
  { name: 'llama-3.1', aliases: ['llama-3.3'], ids: /^(?:meta-)?llama-3\.[13]-\d+b(?:-instruct)?$/, models: 'Meta Llama 3.1 Instruct (8B, 70B, 405B) and Llama 3.3 70B Instruct', hf: 'meta-llama/Llama-3.1-8B-Instruct', template: 'llama-3.1', oracle: 'families/meta-llama-Llama-3.1-8B-Instruct', special: LLAMA3, knobs: 'tools_in_user_message=true, date_string=26 Jul 2024, builtin_tools' },
  { name: 'llama-3.2', aliases: [], ids: /^llama-3\.2-\d+b(?:-instruct)?$/, models: 'Meta Llama 3.2 Instruct (1B, 3B)', hf: 'meta-llama/Llama-3.2-3B-Instruct', template: 'llama-3.2', oracle: 'families/meta-llama-Llama-3.2-3B-Instruct', special: LLAMA3, knobs: 'tools_in_user_message=true, date_string=strftime_now("%d %b %Y")' },
  { name: 'llama-4', aliases: [], ids: /^llama-4-(?:scout|maverick)[\w.-]*$/, models: 'Meta Llama 4 Scout and Maverick Instruct', hf: 'meta-llama/Llama-4-Scout-17B-16E-Instruct', template: 'llama-4', oracle: 'families/meta-llama-Llama-4-Scout-17B-16E-Instruct', special: LLAMA3, knobs: 'tools_in_user_message=true' },
  { name: 'mistral-nemo', aliases: [], ids: /^mistral-nemo-instruct[\w.-]*$/, models: 'Mistral Nemo Instruct 2407', hf: 'mistralai/Mistral-Nemo-Instruct-2407', template: 'mistral-nemo', oracle: 'families/mistralai-Mistral-Nemo-Instruct-2407', special: MISTRAL, vllmNote: MISTRAL_COMMON, findings: mistralNemoFindings },
  { name: 'ministral-3', aliases: [], ids: /^ministral-3-\d+b[\w.-]*$/, models: 'Ministral 3 14B Reasoning 2512', hf: 'mistralai/Ministral-3-14B-Reasoning-2512', template: 'ministral-3', oracle: 'families/mistralai-Ministral-3-14B-Reasoning-2512', special: MISTRAL, vllmNote: MISTRAL_COMMON },
  { name: 'granite-3.3', aliases: [], ids: /^granite-3\.3-\d+b-instruct$/, models: 'IBM Granite 3.3 Instruct (2B, 8B)', hf: 'ibm-granite/granite-3.3-8b-instruct', template: 'granite-3.3', oracle: 'families/ibm-granite-granite-3.3-2B-Instruct', special: {}, knobs: 'available_tools, controls, thinking' },
  { name: 'granite-4.0', aliases: [], ids: /^granite-4\.0-(?:micro|tiny|small|h-)[\w.-]*$/, models: 'IBM Granite 4.0 (micro, tiny-h, small-h)', template: 'granite-4.0', oracle: 'families/ibm-granite-granite-4.0', special: {}, knobs: 'available_tools, documents', findings: granite4Findings },
  { name: 'kimi-k2', aliases: ['kimi-k2-instruct'], ids: /^kimi-k2-instruct(?:-\d+)?$/, models: 'Kimi K2 Instruct (moonshotai/Kimi-K2-Instruct, the July 2025 chat template)', template: 'kimi-k2', oracle: 'families/moonshotai-Kimi-K2-Instruct', special: {} },
  { name: 'kimi-k2-thinking', aliases: [], ids: /^kimi-k2-thinking$/, models: 'Kimi K2 Thinking (moonshotai/Kimi-K2-Thinking, the November 2025 chat template)', template: 'kimi-k2-thinking', oracle: 'families/moonshotai-Kimi-K2-Thinking', special: {} },
  { name: 'glm-4.6', aliases: [], ids: /^glm-4\.6(?:-fp8)?$/, models: 'GLM-4.6 (zai-org/GLM-4.6)', hf: 'zai-org/GLM-4.6', template: 'glm-4.6', oracle: 'families/zai-org-GLM-4.6', special: {}, knobs: 'enable_thinking (default on)' },
  { name: 'glm-4.7', aliases: ['glm-4.7-flash'], ids: /^glm-4\.7(?:-flash)?$/, models: 'GLM-4.7-Flash (zai-org/GLM-4.7-Flash)', hf: 'zai-org/GLM-4.7-Flash', template: 'glm-4.7', oracle: 'families/zai-org-GLM-4.7-Flash', special: {}, knobs: 'enable_thinking (default on), clear_thinking' },
  { name: 'minimax-m2', aliases: [], ids: /^minimax-m2$/, models: 'MiniMax-M2 (MiniMaxAI/MiniMax-M2)', hf: 'MiniMaxAI/MiniMax-M2', template: 'minimax-m2', oracle: 'families/MiniMaxAI-MiniMax-M2', special: {}, knobs: 'model_identity' },
  { name: 'nemotron-nano-2', aliases: ['nemotron-nano-v2'], ids: /^nvidia-nemotron-nano-\d+b-v2$/, models: 'Nemotron Nano v2 (nvidia/NVIDIA-Nemotron-Nano-9B-v2)', hf: 'nvidia/NVIDIA-Nemotron-Nano-9B-v2', template: 'nemotron-nano-2', oracle: 'families/NVIDIA-Nemotron-Nano-v2', special: {}, knobs: '/think and /no_think in a message' },
  { name: 'functionary-3.2', aliases: [], ids: /^functionary-(?:small|medium)-v3\.2$/, models: 'MeetKai Functionary medium/small v3.2 (Llama 3 based)', hf: 'meetkai/functionary-medium-v3.2', template: 'functionary-3.2', oracle: 'families/meetkai-functionary-medium-v3.2', special: LLAMA3 },
  { name: 'functionary-3.1', aliases: [], ids: /^functionary-(?:small|medium)-v3\.1$/, models: 'MeetKai Functionary medium/small v3.1 (Llama 3.1 based)', hf: 'meetkai/functionary-medium-v3.1', template: 'functionary-3.1', oracle: 'families/meetkai-functionary-medium-v3.1', special: LLAMA3, findings: functionary31Findings },
  { name: 'gemma-4', aliases: [], ids: /^gemma-4-[\w.-]+$/, models: 'Google Gemma 4 instruction-tuned models (gemma-4-31B-it and the same template)', hf: 'google/gemma-4-31B-it', template: 'gemma-4', oracle: 'families/google-gemma-4-31B-it', special: { bos_token: '<bos>' }, knobs: 'enable_thinking (default off)', findings: gemma4Findings },
  { name: 'command-r7b', aliases: [], ids: /^c4ai-command-r7b-[\w.-]+$/, models: 'Cohere Command R7B (CohereForAI/c4ai-command-r7b-12-2024), its tool_use chat template', hf: 'CohereForAI/c4ai-command-r7b-12-2024', template: 'command-r7b', oracle: 'families/CohereForAI-c4ai-command-r7b-12-2024-tool_use', special: COHERE, knobs: 'enable_citations, documents', findings: commandR7bFindings },
  { name: 'command-r-plus', aliases: [], ids: /^c4ai-command-r-plus(?:-\d+)?$/, models: 'Cohere Command R+ (CohereForAI/c4ai-command-r-plus), its tool_use chat template', hf: 'CohereForAI/c4ai-command-r-plus', template: 'command-r-plus', oracle: 'families/CohereForAI-c4ai-command-r-plus-tool_use', special: COHERE, findings: commandRPlusFindings },
  { name: 'seed-oss', aliases: [], ids: /^seed-oss-36b-(?:instruct|base)[\w.-]*$/, models: 'ByteDance Seed-OSS-36B (ByteDance-Seed/Seed-OSS-36B-Instruct and Base)', hf: 'ByteDance-Seed/Seed-OSS-36B-Instruct', template: 'seed-oss', oracle: 'families/ByteDance-Seed-OSS', special: {}, knobs: 'thinking_budget=-1, use_json_tooldef', findings: seedOssFindings },
  { name: 'deepseek-v3.1', aliases: [], ids: /^deepseek-v3\.1(?:-base|-terminus)?$/, models: 'DeepSeek V3.1 (deepseek-ai/DeepSeek-V3.1); its template prints no tool definitions', hf: 'deepseek-ai/DeepSeek-V3.1', template: 'deepseek-v3.1', oracle: 'families/deepseek-ai-DeepSeek-V3.1', special: { bos_token: '<｜begin▁of▁sentence｜>' }, knobs: 'thinking (default off)' },
  { name: 'qwen3', aliases: [], ids: /^qwen3-(?!coder)\d+(?:\.\d+)?b(?:-a\d+b)?(?:-base)?$/, models: 'Qwen3 dense and MoE models of April 2025 (Qwen/Qwen3-0.6B … Qwen3-235B-A22B)', hf: 'Qwen/Qwen3-8B', template: 'qwen3', oracle: 'families/Qwen-Qwen3-0.6B', special: QWEN, knobs: 'enable_thinking (default on)' },
  { name: 'phi-4-mini', aliases: [], ids: /^phi-4-mini-instruct$/, models: 'Microsoft Phi-4-mini-instruct; its template prints no tool definitions given as tools', hf: 'microsoft/Phi-4-mini-instruct', template: 'phi-4-mini', oracle: 'families/microsoft-Phi-4-mini-instruct', special: {} },
];

/** The XML families' and gpt-oss's official templates, for conversations (their catalogs have printers of their own). */
export const TEMPLATE_OF_BUILTIN: Readonly<Record<string, { readonly template: string; readonly oracle: string; readonly special: Readonly<Record<string, string>>; readonly hf?: string }>> = {
  qwen: { hf: 'Qwen/Qwen2.5-7B-Instruct', template: 'qwen2.5', oracle: 'xml/Qwen-Qwen2.5-7B-Instruct', special: QWEN },
  'qwen3-coder': { hf: 'Qwen/Qwen3-Coder-30B-A3B-Instruct', template: 'qwen3-coder', oracle: 'xml/Qwen3-Coder', special: QWEN },
  hermes: { hf: 'NousResearch/Hermes-2-Pro-Llama-3-8B', template: 'hermes', oracle: 'xml/NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use', special: { bos_token: '<|begin_of_text|>', eos_token: '<|im_end|>' } },
};

/** The family of a `--model` name or alias (case-insensitive), or undefined. */
export function modelFamily(name: string): ModelFamily | undefined {
  const n = name.toLowerCase();
  return MODEL_FAMILIES.find((f) => f.name === n || f.aliases.includes(n));
}
