/**
 * `--template FILE`, `--special NAME=STRING` and `--template-kwarg NAME=JSON`: a chat template a
 * user brings (a `.jinja` file, a `tokenizer_config.json` / `chat_template.json`, or a model folder
 * holding one), with its special tokens and template variables.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ResolvedModel } from '../api/models.js';
import { readConfigSpecialTokens, readTemplateFile, type TemplateSpec } from '../api/template.js';
import { TEMPLATE_OF_BUILTIN } from '../models/families.js';
import { TEMPLATES, type TemplateName } from '../models/templates/index.js';
import { parseJson, type JsonValue } from '../ir/json.js';
import { UsageError } from './io.js';

/** The files a model folder may hold its template in, in the order transformers prefers them. */
const FOLDER_FILES = ['chat_template.jinja', 'chat_template.json', 'tokenizer_config.json'] as const;

/** Read a file as UTF-8 text, or a usage error naming it. */
function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `--template: no such file: ${path}` : `--template: cannot read ${path}: ${(e as Error).message}`);
  }
}

/** The special tokens of a model folder's tokenizer_config.json (none when it has none). */
function folderSpecial(dir: string): Readonly<Record<string, string>> {
  const config = join(dir, 'tokenizer_config.json');
  return existsSync(config) ? readConfigSpecialTokens(readText(config)) : {};
}

/** Parse `--special NAME=STRING` (repeatable). */
export function specialFrom(values: readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values ?? []) {
    const i = v.indexOf('=');
    if (i <= 0) throw new UsageError(`--special takes NAME=STRING (e.g. bos_token=<s>), not ${JSON.stringify(v)}`);
    out[v.slice(0, i)] = v.slice(i + 1);
  }
  return out;
}

/** Parse `--template-kwarg NAME=JSON` (repeatable): the value is JSON (`enable_thinking=false`, `reasoning_effort="high"`). */
export function templateKwargsFrom(values: readonly string[] | undefined): Map<string, JsonValue> {
  const out = new Map<string, JsonValue>();
  for (const v of values ?? []) {
    const i = v.indexOf('=');
    if (i <= 0) throw new UsageError(`--template-kwarg takes NAME=JSON (e.g. enable_thinking=false or reasoning_effort='"high"'), not ${JSON.stringify(v)}`);
    try {
      out.set(v.slice(0, i), parseJson(v.slice(i + 1)));
    } catch (e) {
      throw new UsageError(`--template-kwarg ${v.slice(0, i)}: the value is JSON (a string needs its quotes: ${v.slice(0, i)}='"${v.slice(i + 1)}"'): ${(e as Error).message}`);
    }
  }
  return out;
}

/**
 * The template of `--template PATH`: a `.jinja` file, a JSON config, or a folder holding
 * `chat_template.jinja`, `chat_template.json` or `tokenizer_config.json` (special tokens from the
 * folder's tokenizer_config.json); `--special` tokens override the file's.
 */
export function loadTemplateArg(path: string, options: { readonly toolsGiven: boolean; readonly special?: Readonly<Record<string, string>>; readonly kwargs?: ReadonlyMap<string, JsonValue> }): TemplateSpec {
  let file = path;
  let special: Readonly<Record<string, string>> = {};
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    throw new UsageError(`--template: no such file or folder: ${path}`);
  }
  if (isDir) {
    const found = FOLDER_FILES.map((f) => join(path, f)).find((f) => existsSync(f));
    if (found === undefined) throw new UsageError(`--template: ${path} holds none of ${FOLDER_FILES.join(', ')}`);
    file = found;
    special = folderSpecial(path);
  }
  const spec = readTemplateFile(readText(file), basename(file), { toolsGiven: options.toolsGiven });
  return {
    ...spec,
    name: `the template ${isDir ? join(basename(path), basename(file)) : basename(file)}`,
    special: { ...special, ...spec.special, ...options.special },
    ...(options.kwargs !== undefined && options.kwargs.size ? { kwargs: options.kwargs } : {}),
  };
}

/**
 * The official chat template a `--model` name prints with (a family's, or the Qwen2.5 / Qwen3-Coder /
 * Hermes template of an xml name), with `--special` tokens over its own and `--template-kwarg`s;
 * undefined for the gpt-oss names (their flavors are printers, not templates).
 */
export function officialTemplate(r: ResolvedModel, options: { readonly special?: Readonly<Record<string, string>>; readonly kwargs?: ReadonlyMap<string, JsonValue> } = {}): TemplateSpec | undefined {
  const source = r.kind === 'family' ? r.family : r.model.target === 'xml' ? TEMPLATE_OF_BUILTIN[r.model.dialect ?? 'qwen'] : undefined;
  if (source === undefined) return undefined;
  return {
    text: TEMPLATES[source.template as TemplateName].text,
    name: `the ${r.name} chat template`,
    special: { ...source.special, ...options.special },
    ...(options.kwargs !== undefined && options.kwargs.size ? { kwargs: options.kwargs } : {}),
  };
}
