/** Build outputs: the render options of an output, and its file content (text, an ES/TypeScript module, or JSON). */
import { existsSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { resolveModel } from '../api/models.js';
import type { TemplateOption } from '../api/render.js';
import { inventory, type Inventory, type InventoryOptions, type InventoryTokenizer } from '../inventory.js';
import { fromJs, type JsonValue } from '../ir/json.js';
import { templateFolderTokenizer, type HubCacheOptions } from '../tokenizers/index.js';
import type { OutputConfig } from './config.js';

/**
 * Reads an output's `"template"` (a path already made relative to the config's folder): the CLI's
 * own reader (src/cli/template.ts: a .jinja file, a JSON config, a model folder; `special` over the
 * file's special tokens), handed in by the caller of planBuild.
 */
export type TemplateReader = (path: string, options: { readonly toolsGiven: boolean; readonly special?: Readonly<Record<string, string>>; readonly kwargs?: ReadonlyMap<string, JsonValue> }) => TemplateOption;

/** What an output needs besides its own keys: the config's folder, the template reader, where the Hugging Face cache is. */
export interface OutputContext {
  readonly baseDir: string;
  readonly readTemplate?: TemplateReader;
  readonly hubCache?: HubCacheOptions;
}

/** The file formats. */
export type OutputFormat = 'text' | 'module' | 'json';

/** An output's format: as written, else from its extension (.json → json; .js .mjs .ts .mts → module; else text). */
export function outputFormat(output: OutputConfig): OutputFormat {
  if (output.format) return output.format;
  const ext = extname(output.path).toLowerCase();
  if (ext === '.json') return 'json';
  if (['.js', '.mjs', '.ts', '.mts'].includes(ext)) return 'module';
  return 'text';
}

/** Keys of an output entry that are not render options. */
const NOT_RENDER = new Set(['path', 'format', 'part']);
/** Keys read into render options by `outputRenderOptions` (a file to read, a tokenizer to find), not passed as written. */
const READ_KEYS = new Set(['template', 'special', 'templateKwargs', 'tokenizer']);

/** The render options of an output as written (`completion: true` → the assistant); `template`, `special`, `templateKwargs` and `tokenizer` as written too. */
export function outputOptions(output: OutputConfig): InventoryOptions {
  const options: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(output)) {
    if (NOT_RENDER.has(k) || v === undefined) continue;
    options[k] = k === 'completion' ? (v ? 'assistant' : undefined) : v;
  }
  return options as InventoryOptions;
}

/**
 * The options an output renders and counts with: its render options, its `"template"` read (a path
 * relative to the config, with `special` and `templateKwargs`), its `"tokenizer"` (a path relative
 * to the config when one is there, else a model id or `gpt-oss`). A template read from a model folder
 * that holds a tokenizer.json is counted with it unless `"tokenizer"` says otherwise.
 */
export function outputRenderOptions(output: OutputConfig, context: OutputContext, key = 'output'): InventoryOptions {
  const options: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(outputOptions(output))) if (!READ_KEYS.has(k)) options[k] = v;
  if (output.template !== undefined) {
    if (context.readTemplate === undefined) throw new Error(`${key}.template: no template reader was given to the build (harmony-catalog build gives its own; planBuild takes one as readTemplate)`);
    const kwargs = output.templateKwargs !== undefined ? new Map(Object.entries(output.templateKwargs).map(([k, v]) => [k, fromJs(v)])) : undefined;
    const path = resolve(context.baseDir, output.template);
    options.template = context.readTemplate(path, { toolsGiven: true, ...(output.special !== undefined ? { special: output.special } : {}), ...(kwargs !== undefined ? { kwargs } : {}) });
    const folderTokenizer = output.tokenizer === undefined ? templateFolderTokenizer(path) : undefined;
    if (folderTokenizer !== undefined) options.tokenizer = folderTokenizer;
  }
  if (output.tokenizer !== undefined) {
    const relative = resolve(context.baseDir, output.tokenizer);
    options.tokenizer = existsSync(relative) ? relative : output.tokenizer;
  }
  if (context.hubCache !== undefined) options.hubCache = context.hubCache;
  return options as InventoryOptions;
}

/** Problems of an output the schema cannot see (each names its key). */
export function outputProblems(output: OutputConfig, key: string): string[] {
  const problems: string[] = [];
  const format = outputFormat(output);
  if (output.part !== undefined && format !== 'text') problems.push(`${key}.part: only a text output holds one part; a ${format} output holds them all (remove "part" or use "format": "text")`);
  if (output.flavor !== undefined && (output.target ?? 'harmony') !== 'harmony') problems.push(`${key}.flavor: applies to the harmony target only, not ${JSON.stringify(output.target)}`);
  if (output.dialect !== undefined && output.target !== 'xml') problems.push(`${key}.dialect: applies to "target": "xml" only`);
  if (output.target === 'xml' && format === 'text' && (output.part === 'system' || output.part === 'developer')) {
    problems.push(`${key}.part: the xml target has no ${output.part} message of its own; expected "catalog" or "prompt"`);
  }
  const hasSystem = format !== 'text' || (output.part ?? 'prompt') === 'system' || (output.part ?? 'prompt') === 'prompt';
  const family = output.model !== undefined && resolveModel(output.model).kind === 'family';
  if (output.template !== undefined) {
    for (const k of ['target', 'flavor', 'dialect', 'lowering'] as const) if ((output as Record<string, unknown>)[k] !== undefined) problems.push(`${key}.${k}: a template prints what it prints; remove "${k}" (or "template")`);
    if (output.model !== undefined && !family) problems.push(`${key}.template: goes with a family's "model" (its special tokens), not with ${JSON.stringify(output.model)}`);
  } else if ((output.special !== undefined || output.templateKwargs !== undefined) && !family) {
    problems.push(`${key}.${output.special !== undefined ? 'special' : 'templateKwargs'}: goes with "template" or a family's "model"`);
  }
  if ((output.template !== undefined || family) && format === 'text' && (output.part === 'system' || output.part === 'developer')) {
    problems.push(`${key}.part: ${output.template !== undefined ? 'a template' : `the model ${output.model}`} has no ${output.part} message of its own; expected "catalog" or "prompt"`);
  }
  if (output.flavor === 'chat-template' && output.date === undefined && hasSystem) {
    problems.push(`${key}.date: missing; expected a date (YYYY-MM-DD): the chat-template flavor writes today's date into the system message otherwise, and the build would not be deterministic`);
  }
  return problems;
}

/** The parts of an output, with their token counts. */
async function parts(values: readonly JsonValue[], options: InventoryOptions): Promise<Inventory> {
  return inventory(values, options);
}

/** What counted, in a comment: `o200k_harmony tokens`, `tokens of NAME (sha256 …)`, or `o200k_harmony estimates of …`. */
function countedNote(t: InventoryTokenizer): string {
  if (!t.exact) return `o200k_harmony estimates, not the model's own tokenizer${t.wanted !== undefined ? ` (${t.wanted} was not in the Hugging Face cache)` : ''}`;
  if (t.path === undefined) return 'o200k_harmony tokens';
  return `tokens of ${t.name}, sha256 ${t.sha256 ?? '?'}`;
}

/** The tokenizer as a JSON output writes it (its file's name rather than a path of this machine); undefined for the built-in o200k_harmony on gpt-oss. */
function tokenizerJson(t: InventoryTokenizer): Record<string, unknown> | undefined {
  if (t.exact && t.path === undefined) return undefined;
  return { name: t.name, ...(t.sha256 !== undefined ? { sha256: t.sha256 } : {}), from: t.from, exact: t.exact, ...(t.wanted !== undefined ? { wanted: t.wanted } : {}) };
}

/**
 * A JS string as a template literal, its lines one per line so a diff shows the lines that changed:
 * `\`, `` ` `` and `${` escaped; a carriage return (which a template literal would read as `\n`),
 * other control characters, U+2028/U+2029 and lone surrogates as escapes. Valid JavaScript and TypeScript.
 */
export function templateLiteral(s: string): string {
  const body = s.replace(/[\\`]|\$\{|[\u0000-\u0008\u000b-\u001f\u007f\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (c) => {
    if (c === '\\' || c === '`') return `\\${c}`;
    if (c === '${') return '\\${';
    if (c === '\r') return '\\r';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return `\`${body}\``;
}

/** A text as JSON-ready chunks, one per line (each keeps its `\n`): joined with `""` they give the text back. */
export function lineChunks(s: string): string[] {
  return s.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/**
 * The content of an output file for these tools. Module and JSON outputs hold every part; the whole
 * prompt only when it can be rendered from the options (the chat template needs a message: set `messages`).
 * Both are written line by line so a diff is readable: a module's parts are template literals, a JSON
 * output's parts arrays of lines (`parts.developer.join('')` is the text).
 */
export async function renderOutput(values: readonly JsonValue[], output: OutputConfig, configName: string, options: InventoryOptions | OutputContext = { baseDir: process.cwd() }): Promise<{ content: string; inventory: Inventory }> {
  const inv = await parts(values, 'baseDir' in options ? outputRenderOptions(output, options) : options);
  const format = outputFormat(output);
  const t = inv.totals;
  const harmony = t.system !== undefined;
  const counted = inv.tokenizer;
  switch (format) {
    case 'text': {
      const part = output.part ?? 'prompt';
      if (part === 'prompt' && inv.prompt === undefined) throw inv.promptError ?? new Error('the whole prompt cannot be rendered');
      return { content: inv[part] ?? '', inventory: inv };
    }
    case 'module': {
      const builtin = counted.exact && counted.path === undefined;
      const tokens = [...(t.system !== undefined ? [`system: ${t.system}`] : []), ...(t.developer !== undefined ? [`developer: ${t.developer}`] : []), `catalog: ${t.catalog}`, ...(t.prompt !== undefined ? [`prompt: ${t.prompt}`] : [])];
      const lines = [
        `// Generated by harmony-catalog build from ${configName}. Do not edit: change the tools and run the build.`,
        ...(harmony
          ? [
              `/** The system message content (${t.system} ${builtin ? 'o200k_harmony tokens' : 'tokens'} as a whole message). */`,
              `export const system = ${templateLiteral(inv.system)};`,
              `/** The developer message content (${t.developer} tokens as a whole message). */`,
              `export const developer = ${templateLiteral(inv.developer)};`,
              `/** The tools section (${t.catalog} tokens of the developer message). */`,
            ]
          : [`/** The tools section (${t.catalog} tokens of the whole prompt). */`]),
        `export const catalog = ${templateLiteral(inv.catalog)};`,
        ...(inv.prompt !== undefined ? [harmony ? '/** The whole prompt: the messages with their envelopes. */' : '/** The whole prompt, as the template renders it. */', `export const prompt = ${templateLiteral(inv.prompt)};`] : []),
        harmony && builtin
          ? '/** Token counts (o200k_harmony): messages whole, <|start|> to <|end|>; the catalog as its share of the developer message. */'
          : `/** Token counts (${countedNote(counted)}): ${harmony ? 'messages whole, <|start|> to <|end|>; the catalog as its share of the developer message' : 'the catalog as its share of the whole prompt'}. */`,
        `export const tokens = { ${tokens.join(', ')} };`,
        `/** Each tool: name, top-level parameter count, its share of the ${harmony ? 'developer message' : 'whole prompt'} in tokens. */`,
        // one tool per line
        'export const tools = [',
        ...inv.tools.map((x) => `  ${JSON.stringify({ name: x.name, parameters: x.parameters, tokens: x.tokens })},`),
        '];',
        '',
      ];
      return { content: lines.join('\n'), inventory: inv };
    }
    case 'json': {
      // each part as its lines (join them with "" for the text): a one-word change is a one-line diff
      const json = {
        options: outputOptions(output),
        parts: {
          ...(harmony ? { system: lineChunks(inv.system), developer: lineChunks(inv.developer) } : {}),
          catalog: lineChunks(inv.catalog),
          ...(inv.prompt !== undefined ? { prompt: lineChunks(inv.prompt) } : {}),
        },
        tokens: { ...(harmony ? { system: t.system, developer: t.developer } : {}), catalog: t.catalog, ...(t.prompt !== undefined ? { prompt: t.prompt } : {}) },
        ...(tokenizerJson(counted) !== undefined ? { tokenizer: tokenizerJson(counted) } : {}),
        tools: inv.tools.map((x) => ({ name: x.name, parameters: x.parameters, tokens: x.tokens })),
      };
      return { content: `${JSON.stringify(json, null, 2)}\n`, inventory: inv };
    }
  }
}
