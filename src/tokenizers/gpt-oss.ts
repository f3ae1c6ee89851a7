/**
 * gpt-oss's o200k_harmony with the project's own BPE (src/bpe.ts, the fastest exact encoder for it):
 * the added tokens of gpt-oss's tokenizer.json spelled in the text are their ids (the Harmony envelope
 * of src/tokens.ts, and the reserved ones up to <|endofprompt|>); the text between them is cut by
 * the pre-tokenizer pattern of that file read as the Rust crate reads it (bpe.ts's eachO200kPiece,
 * through regex.ts: `\s` is Unicode White_Space, so U+0085 is white space and U+FEFF is not), and
 * each piece is merged by bpe.ts's encodeChunk.
 */
import type { Tokenizer } from './index.js';
import type { TokenSpans } from './spans.js';
import { countChunk, encodeChunk, eachO200kPiece } from '../bpe.js';
import { HARMONY_SPECIAL_TOKENS } from '../tokens.js';

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

function encode(text: string): number[] {
  const ids: number[] = [];
  for (const part of text.split(ADDED_SPLIT)) {
    if (part === '') continue;
    const special = ADDED[part];
    if (special !== undefined) ids.push(special);
    else
      eachO200kPiece(part, (piece) => {
        for (const id of encodeChunk(piece)) ids.push(id);
      });
  }
  return ids;
}

function count(text: string): number {
  let n = 0;
  for (const part of text.split(ADDED_SPLIT)) {
    if (part === '') continue;
    if (ADDED[part] !== undefined) n++;
    else
      eachO200kPiece(part, (piece) => {
        n += countChunk(piece);
      });
  }
  return n;
}

/** Each added token and each pre-tokenizer piece (BPE never merges across one) by where it starts, with its count. */
function spans(text: string): TokenSpans {
  const starts: number[] = [];
  const counts: number[] = [];
  let at = 0;
  for (const part of text.split(ADDED_SPLIT)) {
    if (part === '') continue;
    if (ADDED[part] !== undefined) {
      starts.push(at);
      counts.push(1);
      at += part.length;
    } else
      eachO200kPiece(part, (piece) => {
        starts.push(at);
        counts.push(countChunk(piece));
        at += piece.length;
      });
  }
  return { starts, counts };
}

function tokenId(spelling: string): number | undefined {
  const special = ADDED[spelling];
  if (special !== undefined) return special;
  const ids = spelling === '' ? [] : encode(spelling);
  return ids.length === 1 ? ids[0] : undefined;
}

/** gpt-oss's o200k_harmony: the project's BPE for text, its added tokens (`<|start|>`, `<|channel|>`…) as their ids. */
export const GPT_OSS_TOKENIZER: Tokenizer = Object.freeze({ name: 'gpt-oss (o200k_harmony)', source: 'builtin' as const, encode, count, tokenId, spans });
