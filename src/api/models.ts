/**
 * `--model NAME`: one name for the printer and the whole prompt assembly. The gpt-oss and XML
 * names stand for a target/flavor/dialect; the other families are their official chat templates
 * (src/models/), run by the template engine.
 */
import { CompileError } from '../diagnostics.js';
import { MODEL_FAMILIES, type ModelFamily } from '../models/families.js';
import { TEMPLATES, type TemplateName } from '../models/templates/index.js';

import type { ModelName } from '../models/names.js';
export type { KnownModelName, ModelName } from '../models/names.js';

/** A model name that stands for an existing target, flavor and dialect. */
interface BuiltinModel {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly models: string;
  readonly source: string;
  readonly target: 'harmony' | 'xml';
  readonly flavor?: 'openai-harmony' | 'chat-template' | 'ollama';
  readonly dialect?: 'qwen' | 'qwen3-coder' | 'hermes';
  /** Hugging Face model names (lower case, no organisation) that mean this model. */
  readonly ids?: RegExp;
}

/** The names that existed before the families: gpt-oss in its layouts, and the XML dialects. */
export const BUILTIN_MODELS: readonly BuiltinModel[] = [
  { name: 'gpt-oss', aliases: [], models: 'gpt-oss-20b, gpt-oss-120b as openai-harmony renders them (vLLM, TensorRT-LLM)', source: 'openai-harmony v0.0.8 (Rust), ../shared/oracles/openai-harmony', target: 'harmony', flavor: 'openai-harmony', ids: /^gpt-oss(?:-\d+b)?$/ },
  { name: 'gpt-oss-template', aliases: [], models: 'gpt-oss through the official chat template (transformers, llama.cpp, LM Studio, mlx-lm)', source: 'openai/gpt-oss-20b chat_template.jinja, ../shared/oracles/chat-template', target: 'harmony', flavor: 'chat-template' },
  { name: 'gpt-oss-ollama', aliases: [], models: "gpt-oss through Ollama's own template", source: "Ollama's gptossDefaultTemplate (Go template)", target: 'harmony', flavor: 'ollama' },
  { name: 'qwen', aliases: ['qwen2.5'], models: 'Qwen2.5, QwQ', source: 'Qwen/Qwen2.5-7B-Instruct chat template, ../shared/oracles/xml', target: 'xml', dialect: 'qwen', ids: /^(?:qwen2\.5-(?!coder)[\w.-]*|qwq-[\w.-]+)$/ },
  { name: 'qwen3-coder', aliases: [], models: 'Qwen3-Coder', source: 'Qwen3-Coder chat template, ../shared/oracles/xml', target: 'xml', dialect: 'qwen3-coder', ids: /^qwen3-coder(?:-[\w.-]+)?$/ },
  { name: 'hermes', aliases: ['hermes-3'], models: 'Hermes 2 Pro, Hermes 3', source: 'NousResearch/Hermes-2-Pro-Llama-3-8B tool_use template, ../shared/oracles/xml', target: 'xml', dialect: 'hermes', ids: /^hermes-[23](?:-[\w.-]+)?$/ },
];

/** One row of `harmony-catalog models`. */
export interface ModelInfo {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly models: string;
  readonly source: string;
}

/** Where a family's template comes from, in words. */
function familySource(f: ModelFamily): string {
  const s = TEMPLATES[f.template as TemplateName].source;
  const restored = s.restored !== undefined ? ` with ${s.restored.to} put back, as quoted from the official file` : '';
  return `the official template: ${s.repo} ${s.path} @ ${s.commit} (blob ${s.blob.slice(0, 10)}${restored}; ${s.model}, ${s.licence})`;
}

/** Every model name with the models it covers and where its template comes from. */
export function listModels(): ModelInfo[] {
  return [
    ...BUILTIN_MODELS.map(({ name, aliases, models, source }) => ({ name, aliases, models, source })),
    ...MODEL_FAMILIES.map((f) => ({ name: f.name, aliases: f.aliases, models: f.models, source: familySource(f) })),
  ];
}

/** Every accepted name (aliases included), for validation and help. */
export function modelNames(): string[] {
  return listModels().flatMap((m) => [m.name, ...m.aliases]);
}

/** What a model name resolves to: target options for the built-in names, or a family (its official template). */
export type ResolvedModel =
  | { readonly kind: 'builtin'; readonly name: string; readonly model: BuiltinModel }
  | { readonly kind: 'family'; readonly name: string; readonly family: ModelFamily };

/**
 * A name as users type it, for matching: lower case, without a Hugging Face organisation
 * (`meta-llama/Llama-3.1-8B-Instruct` → `llama-3.1-8b-instruct`) or a GGUF/quantisation suffix.
 */
function normalName(name: string): string {
  return name.trim().toLowerCase().replace(/^[\w.-]+\//, '').replace(/[-_.](?:gguf|awq|gptq|fp8|bf16|mlx|[qQ]\d[\w]*)$/, '');
}

/** Resolve a model name (case-insensitive; a Hugging Face model id such as `Qwen/Qwen3-8B` resolves to its family); an unknown name is a usage error listing the names. */
export function resolveModel(name: string): ResolvedModel {
  const n = normalName(name);
  const exact = (names: readonly string[]) => names.includes(name.trim().toLowerCase()) || names.includes(n);
  const builtin = BUILTIN_MODELS.find((m) => exact([m.name, ...m.aliases])) ?? BUILTIN_MODELS.find((m) => m.ids?.test(n));
  if (builtin) return { kind: 'builtin', name: builtin.name, model: builtin };
  const family = MODEL_FAMILIES.find((f) => exact([f.name, ...f.aliases])) ?? MODEL_FAMILIES.find((f) => f.ids?.test(n));
  if (family !== undefined) return { kind: 'family', name: family.name, family };
  throw new CompileError([{ code: 'usage/model', severity: 'error', path: '', message: `unknown model ${JSON.stringify(name)}; the models are: ${modelNames().join(', ')} (harmony-catalog models lists them; Hugging Face ids of these families are accepted too)` }]);
}

/** Options that name a model and may also name a target/flavor/dialect. */
interface ModelOptions {
  readonly model?: ModelName;
  readonly target?: string;
  readonly flavor?: string;
  readonly dialect?: string;
}

/**
 * The options with `model` turned into target/flavor/dialect for the built-in names (a family
 * keeps its `model`); a target, flavor or dialect given beside a model must agree with it.
 */
export function withModel<T extends ModelOptions>(options: T): T {
  if (options.model === undefined) return options;
  const r = resolveModel(options.model);
  const clash = (what: string, given: string | undefined, wanted: string | undefined) => {
    if (given !== undefined && given !== wanted) throw new CompileError([{ code: 'usage/model', severity: 'error', path: '', message: `--model ${options.model} ${wanted === undefined ? `has no ${what}` : `is ${what} ${wanted}`}: drop --${what} ${given}` }]);
  };
  if (r.kind === 'family') {
    clash('target', options.target, undefined);
    clash('flavor', options.flavor, undefined);
    clash('dialect', options.dialect, undefined);
    return options;
  }
  const m = r.model;
  clash('target', options.target, m.target);
  clash('flavor', options.flavor, m.flavor);
  clash('dialect', options.dialect, m.dialect);
  const { model: _model, ...rest } = options;
  return { ...rest, target: m.target, ...(m.flavor ? { flavor: m.flavor } : {}), ...(m.dialect ? { dialect: m.dialect } : {}) } as T;
}
