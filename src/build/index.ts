/**
 * `build`: a config's sources → its output files. Planning reads and renders everything and
 * compares with the files on disk; writing and checking are two uses of one plan.
 *
 *   readConfig (TypeBox schema, errors name the key) → loadSources → renderOutput per output → compare
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { isCompileError, type Diagnostic } from '../diagnostics.js';
import type { InventoryOptions } from '../inventory.js';
import type { HubCacheOptions } from '../tokenizers/index.js';
import { ConfigError, readConfig, type BuildConfig } from './config.js';
import { outputProblems, outputRenderOptions, renderOutput, type TemplateReader } from './outputs.js';
import { loadSources, relabel } from './sources.js';
import { pushAll } from '../ir/arrays.js';

export { CONFIG_FILE, ConfigError, readConfig, validateConfig, type BuildConfig, type OutputConfig, type SourceConfig } from './config.js';
export { expandGlob } from './glob.js';
export type { TemplateReader } from './outputs.js';

/** One output file of a build: what it would hold and what it holds now. */
export interface BuildFile {
  /** Absolute path. */
  readonly path: string;
  /** The path as written in the config. */
  readonly name: string;
  readonly content: string;
  /** The file's content now; undefined when it does not exist. */
  readonly current: string | undefined;
  /** True when writing would change the file (or create it). */
  readonly changed: boolean;
}

/** A planned build. */
export interface BuildPlan {
  readonly configFile: string;
  readonly files: readonly BuildFile[];
  /** Warnings of reading and rendering, pointed back at their sources. */
  readonly diagnostics: readonly Diagnostic[];
}

/** Options of `planBuild`. */
export interface BuildOptions {
  /** Default time allowed for each MCP server, in ms. */
  readonly timeoutMs?: number;
  /** Reads an output's `"template"` (harmony-catalog build gives the CLI's reader: a .jinja file, a JSON config or a model folder). */
  readonly readTemplate?: TemplateReader;
  /** Where the Hugging Face cache is looked for, for a model's tokenizer (default: this process's environment). */
  readonly hubCache?: HubCacheOptions;
}

function readIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** Read the config and its sources and render every output; nothing is written. Throws ConfigError or CompileError. */
export async function planBuild(configFile: string, options: BuildOptions = {}): Promise<BuildPlan> {
  const file = resolve(configFile);
  const config: BuildConfig = readConfig(file);
  const baseDir = dirname(file);
  const problems: string[] = [];
  const seen = new Map<string, number>();
  config.outputs.forEach((o, i) => {
    pushAll(problems, outputProblems(o, `outputs[${i}]`));
    const abs = resolve(baseDir, o.path);
    const first = seen.get(abs);
    if (first !== undefined) problems.push(`outputs[${i}].path: ${JSON.stringify(o.path)} is also outputs[${first}]'s path; each output needs its own file`);
    else seen.set(abs, i);
  });
  // each output's options: its template read and its tokenizer found (a problem there names its key)
  const renderOptions: InventoryOptions[] = [];
  config.outputs.forEach((o, i) => {
    try {
      renderOptions.push(outputRenderOptions(o, { baseDir, ...(options.readTemplate !== undefined ? { readTemplate: options.readTemplate } : {}), ...(options.hubCache !== undefined ? { hubCache: options.hubCache } : {}) }, `outputs[${i}]`));
    } catch (e) {
      if (!(e instanceof Error) || (isCompileError(e) && !e.diagnostics.some((d) => d.code === 'template/file'))) throw e;
      const message = isCompileError(e) ? e.diagnostics.map((d) => d.message).join('; ') : e.message;
      problems.push(message.startsWith(`outputs[${i}]`) ? message : `outputs[${i}].template: ${message.replace(/^--template: /, '')}`);
    }
  });
  if (problems.length) throw new ConfigError(file, problems);

  const sources = await loadSources(config.sources, baseDir, options);
  const files: BuildFile[] = [];
  const diagnostics = new Map<string, Diagnostic>();
  for (const d of sources.diagnostics ?? []) diagnostics.set(JSON.stringify(d), d);
  for (const [i, o] of config.outputs.entries()) {
    const path = resolve(baseDir, o.path);
    const { content, inventory } = await renderOutput(sources.values, o, basename(file), renderOptions[i] as InventoryOptions);
    for (const d of relabel(inventory.diagnostics, sources.origins)) diagnostics.set(JSON.stringify(d), d);
    const current = readIfExists(path);
    files.push({ path, name: o.path, content, current, changed: current !== content });
  }
  return { configFile: file, files, diagnostics: [...diagnostics.values()] };
}

/** Write the files that would change; returns them. */
export function writeBuild(plan: BuildPlan): BuildFile[] {
  const changed = plan.files.filter((f) => f.changed);
  for (const f of changed) {
    mkdirSync(dirname(f.path), { recursive: true });
    writeFileSync(f.path, f.content);
  }
  return changed;
}

/** A unified diff of a file from what it holds to what the build would write. */
export function buildDiff(file: BuildFile): string {
  return createTwoFilesPatch(file.name, file.name, file.current ?? '', file.content, file.current === undefined ? '(missing)' : 'on disk', 'build', { context: 3 });
}
