/**
 * Each model's own tokenizer: a Hugging Face `tokenizer.json` (a file, a model folder holding one,
 * or a model id whose files are in the Hugging Face cache), encoded exactly as the Rust `tokenizers`
 * crate encodes a rendered prompt (`encode(text, add_special_tokens=False)`: every added token spelled
 * in the text is its one id, no BOS/EOS); or gpt-oss's o200k_harmony through the project's own BPE
 * (gpt-oss.ts over src/bpe.ts), which is the default, the fastest exact encoder for gpt-oss, and what
 * gpt-oss's own tokenizer.json is read as (known by its sha256).
 *
 * A file is read once per version (path, modification time and size): loading again is free until
 * the file changes. Bad input is one CompileError whose diagnostic names the file (`tokenizer/…`).
 */
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CompileError } from '../diagnostics.js';
import { GPT_OSS_TOKENIZER } from './gpt-oss.js';
import { HfTokenizer, TokenizerFileError } from './hf.js';
import type { Encoding } from './incremental.js';
import { findCachedTokenizer, hubCacheDir, isModelId, type HubCacheOptions } from './hub.js';
import { placeTokens, type TokenSpans } from './spans.js';

/** The built-in gpt-oss encoder (gpt-oss.ts). */
export { GPT_OSS_TOKENIZER } from './gpt-oss.js';
/** The Hugging Face cache lookup (hub.ts): a model id's cached tokenizer.json, and the cache folder. */
export { findCachedTokenizer, hubCacheDir, isModelId, type HubCacheOptions } from './hub.js';
/** Where an encoding's tokens stand in its text (spans.ts). */
export type { TokenSpans } from './spans.js';

/** An encoder of text into one model's token ids. */
export interface Tokenizer {
  /** A short name: `gpt-oss (o200k_harmony)`, a cached model's id, or the file's folder and name. */
  readonly name: string;
  /** `builtin` for gpt-oss's o200k_harmony, `file` for a `tokenizer.json`. */
  readonly source: 'builtin' | 'file';
  /** The file's absolute path (a file tokenizer). */
  readonly path?: string;
  /** The sha256 of the file's bytes, hex (a file tokenizer). */
  readonly sha256?: string;
  /** The token ids of a text; added-token spellings are their one id, nothing is added around the text. */
  encode(text: string): number[];
  /** The number of tokens of a text (`encode(text).length`). */
  count(text: string): number;
  /** The id of a token by its spelling (an added token such as `<|im_start|>`, or a vocabulary entry), else undefined. */
  tokenId(spelling: string): number | undefined;
  /**
   * The tokens of a text by where they start in it (UTF-16 offsets, ascending; the counts add up to
   * `count(text)`): what the inventory gives each tool's text its share by. A Tokenizer written by
   * hand may leave it out (shares are then counted text piece by text piece).
   */
  spans?(text: string): TokenSpans;
}

/** Which tokenizer to count with: a `tokenizer.json` path or folder, a cached model id (`Qwen/Qwen3-8B`), `'gpt-oss'`, a loaded Tokenizer; undefined is gpt-oss. */
export type TokenizerOption = string | Tokenizer | undefined;

/** Options of countTokens and encode. */
export interface TokenizeOptions {
  /** The tokenizer (default: gpt-oss's o200k_harmony). */
  readonly tokenizer?: TokenizerOption;
  /** Where the Hugging Face cache is looked for, for a model id (default: this process's environment). */
  readonly hubCache?: HubCacheOptions;
}

/** The sha256 of gpt-oss's official tokenizer.json (openai/gpt-oss-20b, -120b): that file is encoded by the built-in encoder (the same ids, faster, no parse). */
export const GPT_OSS_TOKENIZER_SHA256 = '0614fe83cadab421296e664e1f48f4261fa8fef6e03e63bb75c20f38e37d07d3';

/** The names that mean the built-in gpt-oss tokenizer. */
const GPT_OSS_NAMES = new Set(['gpt-oss', 'o200k_harmony']);

function tokenizerError(code: string, message: string): CompileError {
  return new CompileError([{ code: `tokenizer/${code}`, severity: 'error', path: '', message }]);
}

/** Tokenizers read from files, by path, modification time and size (the few last ones used). */
const CACHE_MAX = 6;
const cache = new Map<string, Tokenizer>();

/** A short name for a file: `ORG/NAME` for the Hugging Face cache, else its folder and name. */
function fileLabel(path: string): string {
  const hub = /models--([^/\\]+?)--([^/\\]+)[/\\]snapshots[/\\]/.exec(path);
  if (hub) return `${hub[1]}/${hub[2]}`;
  return join(basename(dirname(path)), basename(path));
}

/** A Tokenizer around a parsed file. */
function fileTokenizer(hf: HfTokenizer, name: string, path: string | undefined, sha256: string): Tokenizer {
  const wrap = <T>(f: () => T): T => {
    try {
      return f();
    } catch (e) {
      if (e instanceof TokenizerFileError) throw tokenizerError(e.kind, `${path ?? name}: ${e.message}`);
      throw e;
    }
  };
  // a catalog counted again (count, spans: the same text, as a compiled tool set's print cache hands
  // back the same string) is not encoded again: the last few long texts' encodings are kept (a Map
  // of strings: a string's hash is computed once and kept on it, so the look-up of the same string
  // costs no rescan); a text not kept is encoded beside the last one used (a catalog with a tool
  // changed: what did not change is taken from it, incremental.ts). encode always encodes afresh.
  const kept = new Map<string, Encoding>();
  let keptChars = 0;
  const keptEncoding = (text: string): Encoding => {
    const hit = kept.get(text);
    if (hit !== undefined) {
      kept.delete(text);
      kept.set(text, hit);
      return hit;
    }
    let base: Encoding | undefined;
    for (const e of kept.values()) base = e; // the last used
    const made = hf.encodeKept(text, base);
    kept.set(text, made);
    keptChars += text.length;
    while (kept.size > KEEP_TEXTS || (kept.size > 1 && keptChars > KEEP_CHARS)) {
      const oldest = kept.keys().next().value as string;
      kept.delete(oldest);
      keptChars -= oldest.length;
    }
    return made;
  };
  const ids = (text: string): ArrayLike<number> => (text.length < KEEP_FROM ? hf.encode(text) : keptEncoding(text).ids);
  // a kept text's spans are kept with it (frozen: every caller gets the same lists)
  const keptSpans = new WeakMap<Encoding, TokenSpans>();
  const spans = (text: string): TokenSpans => {
    const place = (list: ArrayLike<number>) => placeTokens(text, Array.from(list, (id) => hf.surface(id)));
    if (text.length < KEEP_FROM) return place(hf.encode(text));
    const e = keptEncoding(text);
    let s = keptSpans.get(e);
    if (s === undefined) {
      const made = place(e.ids);
      s = Object.freeze({ starts: Object.freeze(made.starts), counts: Object.freeze(made.counts) });
      keptSpans.set(e, s);
    }
    return s;
  };
  return Object.freeze({
    name,
    source: 'file' as const,
    ...(path !== undefined ? { path } : {}),
    sha256,
    encode: (text: string) => wrap(() => hf.encode(text)),
    count: (text: string) => wrap(() => ids(text).length),
    tokenId: (spelling: string) => hf.tokenId(spelling),
    spans: (text: string) => wrap(() => spans(text)),
  });
}

/** Texts at least this long have their ids kept for the next count of the same text. */
const KEEP_FROM = 4096;
/** How many such texts a tokenizer keeps (the most recently used), and how many characters in all (the last one is kept whatever its length). */
const KEEP_TEXTS = 16;
const KEEP_CHARS = 8_000_000;

/** Parse a `tokenizer.json`'s bytes or text; `where` names it in errors. */
function parseTokenizer(bytes: Uint8Array | string, where: string, path: string | undefined, name: string): Tokenizer {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sha256 = createHash('sha256').update(buffer).digest('hex');
  if (sha256 === GPT_OSS_TOKENIZER_SHA256) {
    // gpt-oss keeps the project's own BPE (test/tokenizers/oracle.test.ts: both exact on every case)
    const { encode: enc, count, tokenId, spans } = GPT_OSS_TOKENIZER;
    return Object.freeze({ name, source: 'file' as const, ...(path !== undefined ? { path } : {}), sha256, encode: enc, count, tokenId, ...(spans ? { spans } : {}) });
  }
  if (typeof bytes !== 'string' && !isUtf8(buffer)) throw tokenizerError('not-json', `${where}: not a tokenizer.json: it is not UTF-8 text`);
  const text = typeof bytes === 'string' ? bytes : buffer.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    throw tokenizerError('not-json', `${where}: not a tokenizer.json: it is not JSON (${(e as Error).message})`);
  }
  let hf: HfTokenizer;
  try {
    hf = HfTokenizer.fromJson(json);
  } catch (e) {
    if (e instanceof TokenizerFileError) throw tokenizerError(e.kind, `${where}: ${e.kind === 'unsupported' ? '' : 'not a usable tokenizer.json: '}${e.message}`);
    throw e;
  }
  return fileTokenizer(hf, name, path, sha256);
}

/** A tokenizer from a `tokenizer.json`'s content (bytes or text), not from a file; `name` is what it is called. */
export function tokenizerFromJson(json: Uint8Array | string, name = 'tokenizer.json'): Tokenizer {
  return parseTokenizer(json, name, undefined, name);
}

/** Load a `tokenizer.json` (a file, or a model folder holding one), read once per version of the file; bad input is a CompileError naming it. */
export function loadTokenizer(pathOrFolder: string): Tokenizer {
  let file = resolve(pathOrFolder);
  let stat;
  try {
    stat = statSync(file);
    if (stat.isDirectory()) {
      const inside = join(file, 'tokenizer.json');
      if (!existsSync(inside)) throw tokenizerError('not-found', `${pathOrFolder}: the folder holds no tokenizer.json`);
      file = inside;
      stat = statSync(file);
    }
  } catch (e) {
    if (e instanceof CompileError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw tokenizerError(code === 'ENOENT' || code === 'ENOTDIR' ? 'not-found' : 'unreadable', code === 'ENOENT' || code === 'ENOTDIR' ? `${pathOrFolder}: no such tokenizer file or folder` : `${pathOrFolder}: cannot read it (${(e as Error).message})`);
  }
  let real = file;
  try {
    real = realpathSync(file);
  } catch {
    // keep the path as given
  }
  const key = `${real}\0${stat.mtimeMs}\0${stat.size}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw tokenizerError(code === 'ENOENT' ? 'not-found' : 'unreadable', `${file}: cannot read it (${(e as Error).message})`);
  }
  const t = parseTokenizer(bytes, file, file, fileLabel(file));
  for (const k of cache.keys()) if (k.startsWith(`${real}\0`)) cache.delete(k); // an older version of the file
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(key, t);
  return t;
}

// A Tokenizer is itself; undefined, 'gpt-oss' or 'o200k_harmony' the built-in one; a path (file or
// folder) is loaded; a model id (Qwen/Qwen3-8B) that is not a path is looked for in the Hugging Face
// cache (never the network).
/** The tokenizer an option names: built in, a loaded one, a path (file or folder), or a model id in the Hugging Face cache. */
export function resolveTokenizer(option: TokenizerOption, hubCache: HubCacheOptions = {}): Tokenizer {
  if (option === undefined) return GPT_OSS_TOKENIZER;
  if (typeof option !== 'string') return option;
  if (GPT_OSS_NAMES.has(option)) return GPT_OSS_TOKENIZER;
  if (option === '') throw tokenizerError('not-found', 'the tokenizer path is empty');
  if (!existsSync(option) && isModelId(option)) {
    const cached = findCachedTokenizer(option, hubCache);
    if (cached) return loadTokenizer(cached);
    throw tokenizerError('not-found', `${option}: no such tokenizer file or folder, and the Hugging Face cache (${hubCacheDir(hubCache)}) holds no tokenizer.json for the model ${option} (nothing is downloaded: fetch it with huggingface-cli, or give the path)`);
  }
  return loadTokenizer(option);
}

/** The files a model folder keeps its chat template in. */
const TEMPLATE_FILES = new Set(['chat_template.jinja', 'chat_template.json', 'tokenizer_config.json']);

/**
 * The tokenizer.json of the model folder a chat template path names, when there is one: the folder
 * itself, or the folder of its chat_template.jinja, chat_template.json or tokenizer_config.json.
 */
export function templateFolderTokenizer(templatePath: string): string | undefined {
  let folder: string;
  try {
    folder = statSync(templatePath).isDirectory() ? templatePath : TEMPLATE_FILES.has(basename(templatePath)) ? dirname(templatePath) : '';
  } catch {
    return undefined;
  }
  return folder !== '' && existsSync(join(folder, 'tokenizer.json')) ? join(folder, 'tokenizer.json') : undefined;
}

/** The number of tokens of a text under a tokenizer (default: gpt-oss's o200k_harmony); added-token spellings count one each. */
export function countTokens(text: string, options: TokenizeOptions = {}): number {
  return resolveTokenizer(options.tokenizer, options.hubCache).count(text);
}

/** The token ids of a text under a tokenizer (default: gpt-oss's o200k_harmony); added-token spellings are their one id. */
export function encode(text: string, options: TokenizeOptions = {}): number[] {
  return resolveTokenizer(options.tokenizer, options.hubCache).encode(text);
}
