/** The names `--model` and every `model` option know, as types (their values: `modelNames()`, src/api/models.ts). */

/**
 * Every name `--model` (and the API's `model` option) knows, aliases included: what
 * `modelNames()` returns, as a type (test/types/model-name.test.ts checks that the two are the
 * same list). Names are matched case-insensitively, and Hugging Face ids of these families
 * (`Qwen/Qwen3-8B`, `meta-llama/Llama-3.1-8B-Instruct`…) are accepted too: see `ModelName`.
 */
export type KnownModelName =
  | 'gpt-oss'
  | 'gpt-oss-template'
  | 'gpt-oss-ollama'
  | 'qwen'
  | 'qwen2.5'
  | 'qwen3-coder'
  | 'hermes'
  | 'hermes-3'
  | 'llama-3.1'
  | 'llama-3.3'
  | 'llama-3.2'
  | 'llama-4'
  | 'mistral-nemo'
  | 'ministral-3'
  | 'granite-3.3'
  | 'granite-4.0'
  | 'kimi-k2'
  | 'kimi-k2-instruct'
  | 'glm-4.6'
  | 'glm-4.7'
  | 'glm-4.7-flash'
  | 'minimax-m2'
  | 'nemotron-nano-2'
  | 'nemotron-nano-v2'
  | 'functionary-3.2'
  | 'functionary-3.1'
  | 'gemma-4'
  | 'command-r7b'
  | 'command-r-plus'
  | 'seed-oss'
  | 'deepseek-v3.1'
  | 'qwen3'
  | 'phi-4-mini'
  | 'kimi-k2-thinking';

/**
 * A `model` option: one of the known names (editors complete them), or any other string (another
 * spelling, a Hugging Face id such as `openai/gpt-oss-20b`), resolved when rendering; an unknown
 * name is a `usage/model` CompileError listing the names.
 */
// `string & {}` keeps the known names in the type (a plain `| string` would absorb them)
export type ModelName = KnownModelName | (string & {});
