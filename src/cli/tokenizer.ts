/**
 * `--tokenizer PATH|FOLDER|MODEL-ID|gpt-oss` for the commands that count (dump, report): which
 * tokenizer counts a model's text, and how the counts are labelled (the model's own, with the file
 * and its sha256, or an o200k estimate).
 */
import type { InventoryTokenizer } from '../inventory.js';
import { templateFolderTokenizer } from '../tokenizers/index.js';
import { UsageError } from './io.js';

/** The help lines of `--tokenizer`. */
export const TOKENIZER_HELP = `  --tokenizer <t>       count with this tokenizer: a tokenizer.json, or a model folder holding one;
                        a Hugging Face model id whose files are in the local Hugging Face cache
                        (Qwen/Qwen3-8B; nothing is downloaded); or gpt-oss. Default: o200k_harmony for
                        gpt-oss; else the --template folder's tokenizer.json when it holds one; else,
                        for a --model, its tokenizer.json in the Hugging Face cache (the --model given
                        as a Hugging Face id, or the family's usual model); else an o200k_harmony
                        estimate, labelled so`;

/** The tokenizer.json of a `--template` path's model folder, when it has one (see templateFolderTokenizer). */
export function templateTokenizer(templatePath: string | undefined): string | undefined {
  return templatePath === undefined ? undefined : templateFolderTokenizer(templatePath);
}

/** The `--tokenizer` value checked (a usage error when empty). */
export function tokenizerArg(value: string | undefined): string | undefined {
  if (value === '') throw new UsageError('--tokenizer needs a tokenizer.json, a model folder, a Hugging Face model id or gpt-oss');
  return value;
}

/** Where the counts come from, in words: `o200k_harmony`, `o200k estimate`, or the tokenizer's name. */
export function countedWith(t: InventoryTokenizer): string {
  if (!t.exact && t.name === 'o200k_harmony') return 'o200k estimate';
  return t.name;
}

/** The line that says which file counted (its path and sha256), or why the counts are an estimate; undefined for the built-in o200k_harmony on gpt-oss. */
export function tokenizerNote(t: InventoryTokenizer, model: string | undefined): string | undefined {
  const file = t.path !== undefined ? `${t.path}${t.sha256 !== undefined ? ` (sha256 ${t.sha256})` : ''}` : undefined;
  if (t.exact) return file !== undefined ? `tokens counted with ${t.name}: ${file}` : undefined;
  const whose = model !== undefined ? `${model}'s` : "the model's";
  const hint = `for ${whose} own counts give --tokenizer (its tokenizer.json or model folder)${t.wanted !== undefined ? `, or have ${t.wanted} in the Hugging Face cache` : ''}`;
  const by = file !== undefined ? `gpt-oss's tokenizer (${file})` : "gpt-oss's o200k_harmony";
  return `an estimate: ${by} counted the prompt, not ${whose} own tokenizer; ${hint}`;
}
