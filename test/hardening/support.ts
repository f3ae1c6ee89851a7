/** The library object the hardening properties run over (test/hardening/properties.mjs), built from src/. */
import ts from 'typescript';
import * as api from '../../src/index.js';
import * as tokens from '../../src/tokens.js';
import { normalizeGeminiSchema } from '../../src/input/normalize.js';
import type { JsonValue } from '../../src/ir/json.js';

/** A render function of the faithful catalog, when the faithful mode exists in this checkout. */
type Faithful = (input: unknown, options: Record<string, unknown>) => { text: string; diagnostics: readonly api.Diagnostic[] };
/** The lint, when it exists. */
type Lint = (input: unknown, options?: Record<string, unknown>) => { findings: readonly Record<string, unknown>[] };

/** What the properties need: the API, the tokenizer, TypeScript, and the faithful catalog and the lint when present. */
export interface HardeningLib {
  readonly api: typeof api;
  readonly tokens: typeof tokens;
  readonly ts: typeof ts;
  readonly faithful?: Faithful;
  readonly lint?: Lint;
  readonly normalizeGemini: (schema: JsonValue) => JsonValue;
}

async function optional<T>(path: string): Promise<T | undefined> {
  try {
    return (await import(/* @vite-ignore */ path)) as T;
  } catch {
    return undefined;
  }
}

/** The faithful catalog: the public export when there is one, else the emitter over compiled tools. */
async function faithfulRenderer(): Promise<Faithful | undefined> {
  // the public way: renderCatalog with `lowering: 'faithful'` (present when the faithful module is exported)
  if (typeof (api as Record<string, unknown>).renderFaithfulCatalog === 'function') {
    return (input, options) => api.renderCatalog(input, { ...options, lowering: 'faithful' } as api.CatalogOptions);
  }
  const mod = await optional<{ emitFaithfulToolsSection?: (ns: unknown[]) => string }>('../../src/emit/harmony/faithful.js');
  const emit = mod?.emitFaithfulToolsSection;
  if (typeof emit !== 'function') return undefined;
  return (input, options) => {
    const c = api.compileTools(input, options);
    return { text: emit([{ name: 'functions', tools: c.tools }]), diagnostics: c.diagnostics };
  };
}

/** The lint over every flavor, when it exists. */
async function linter(): Promise<Lint | undefined> {
  const mod = await optional<{ lintTools?: Lint }>('../../src/lint/index.js');
  const lint = mod?.lintTools;
  if (typeof lint !== 'function') return undefined;
  return (input) => lint(input, { flavors: ['openai-harmony', 'chat-template'] });
}

/** Build the library object. */
export async function loadLib(): Promise<HardeningLib> {
  const faithful = await faithfulRenderer();
  const lint = await linter();
  return { api, tokens, ts, normalizeGemini: (s) => normalizeGeminiSchema(s).schema, ...(faithful ? { faithful } : {}), ...(lint ? { lint } : {}) };
}
