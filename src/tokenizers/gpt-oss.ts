/**
 * gpt-oss's o200k_harmony with the project's own BPE (src/bpe.ts, the fastest exact encoder for it):
 * the added tokens of gpt-oss's tokenizer.json spelled in the text are their ids (the Harmony envelope
 * of src/tokens.ts, and the reserved ones up to <|endofprompt|>); the text between them is cut by
 * the pre-tokenizer pattern of that file read as the Rust crate reads it (regex.ts: `\s` is Unicode
 * White_Space, so U+0085 is white space and U+FEFF is not; gpt-tokenizer's pattern, which
 * encodeText uses, reads both the other way), and each piece is merged by bpe.ts's encodeChunk.
 */
import type { Tokenizer } from './index.js';
import { countChunk, encodeChunk } from '../bpe.js';
import { HARMONY_SPECIAL_TOKENS } from '../tokens.js';
import { onigRegex } from './regex.js';

// every other <|reserved_…|> spelling is ordinary text in gpt-oss's tokenizer.json
const ADDED: Readonly<Record<string, number>> = Object.freeze({
  ...HARMONY_SPECIAL_TOKENS,
  ...Object.fromEntries([200000, 200001, 200004, 200009, 200010, 200011, 200013, 200014, 200015, 200016, 200017].map((id) => [`<|reserved_${id}|>`, id])),
  '<|endofprompt|>': 200018,
});
const ADDED_SPLIT = new RegExp(
  `(${Object.keys(ADDED)
    .sort((a, b) => b.length - a.length)
    .map((s) => s.replace(/[|]/g, '\\|'))
    .join('|')})`,
);

/** o200k's pre-tokenizer pattern, as gpt-oss's tokenizer.json (and tiktoken) writes it. */
const O200K_PATTERN = '[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:\'s|\'t|\'re|\'ve|\'m|\'ll|\'d)?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:\'s|\'t|\'re|\'ve|\'m|\'ll|\'d)?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+';
let split: RegExp | undefined;

/** Each pre-tokenizer piece of ordinary text. */
function* pieces(text: string): Generator<string> {
  const re = (split ??= onigRegex(O200K_PATTERN));
  re.lastIndex = 0;
  let prev = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    // the pattern covers every character and matches no empty string: no gaps
    if (m.index !== prev) yield text.slice(prev, m.index);
    yield m[0];
    prev = m.index + m[0].length;
  }
  if (prev < text.length) yield text.slice(prev);
}

function encode(text: string): number[] {
  const ids: number[] = [];
  for (const part of text.split(ADDED_SPLIT)) {
    if (part === '') continue;
    const special = ADDED[part];
    if (special !== undefined) ids.push(special);
    else for (const piece of pieces(part)) for (const id of encodeChunk(piece)) ids.push(id);
  }
  return ids;
}

function count(text: string): number {
  let n = 0;
  for (const part of text.split(ADDED_SPLIT)) {
    if (part === '') continue;
    if (ADDED[part] !== undefined) n++;
    else for (const piece of pieces(part)) n += countChunk(piece);
  }
  return n;
}

function tokenId(spelling: string): number | undefined {
  const special = ADDED[spelling];
  if (special !== undefined) return special;
  const ids = spelling === '' ? [] : encode(spelling);
  return ids.length === 1 ? ids[0] : undefined;
}

/** gpt-oss's o200k_harmony: the project's BPE for text, its added tokens (`<|start|>`, `<|channel|>`…) as their ids. */
export const GPT_OSS_TOKENIZER: Tokenizer = Object.freeze({ name: 'gpt-oss (o200k_harmony)', source: 'builtin' as const, encode, count, tokenId });
