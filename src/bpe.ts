/**
 * o200k_base encoding of ordinary text (no special tokens), exact and O(n log n): the pre-tokenizer
 * split of tiktoken's and gpt-oss's tokenizer.json's pattern as the Rust crates read it (`\s` is
 * Unicode White_Space: U+0085 is white space, U+FEFF is not; gpt-tokenizer's JavaScript regex reads
 * both the other way round and gave other ids for about 2% of texts holding them), then for each chunk
 * tiktoken's rule: a chunk that is a token is that token; else its bytes are merged by repeatedly
 * joining the adjacent pair of parts with the lowest rank, the leftmost on ties, until no adjacent
 * pair is a token. gpt-tokenizer applies that rule by scanning every pair after every merge, which
 * is quadratic in a chunk (a 160,000-character run of `=` took 19 s); here the pairs wait in a heap
 * ordered by (rank, position) and the parts form a linked list, so a merge costs O(log n).
 * Tokens are looked up by their bytes, so U+FEFF counts as tiktoken counts it (gpt-tokenizer strips
 * it when it turns bytes back into a string, and never finds the 9 tokens that hold it).
 */
import { o200kRanks } from './o200k-ranks.js';
import { onigRegex } from './tokenizers/regex.js';

/** o200k's pre-tokenizer pattern, as gpt-oss's tokenizer.json (and tiktoken) writes it: an Oniguruma pattern. */
export const O200K_PATTERN = '[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:\'s|\'t|\'re|\'ve|\'m|\'ll|\'d)?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:\'s|\'t|\'re|\'ve|\'m|\'ll|\'d)?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+';

let split: RegExp | undefined;
let splitting = false;

/**
 * Visit each pre-tokenizer piece of ordinary text, in order, covering it all: O200K_PATTERN read as
 * the Rust crates read it (tokenizers/regex.ts translates Oniguruma's `\s` as White_Space).
 */
export function eachO200kPiece(text: string, visit: (piece: string) => void): void {
  split ??= onigRegex(O200K_PATTERN);
  // one compiled regex, its lastIndex reset per text; a walk inside a walk takes a copy
  const re = splitting ? new RegExp(split) : split;
  const outer = !splitting;
  splitting = true;
  try {
    re.lastIndex = 0;
    let prev = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      // the pattern covers every character and matches no empty string: no gaps
      if (m.index !== prev) visit(text.slice(prev, m.index));
      visit(m[0]);
      prev = m.index + m[0].length;
    }
    if (prev < text.length) visit(text.slice(prev));
  } finally {
    if (outer) splitting = false;
  }
}

/** Each pre-tokenizer piece of ordinary text (see eachO200kPiece). */
export function o200kPieces(text: string): string[] {
  const out: string[] = [];
  eachO200kPiece(text, (p) => out.push(p));
  return out;
}

/** Every o200k_base token by its bytes (as a latin1 string: one char a byte), and the longest token's length. */
interface RankTable {
  readonly byBytes: Map<string, number>;
  readonly maxBytes: number;
}

let table: RankTable | undefined;

const ASCII = /^[\x00-\x7f]*$/;

/** The bytes of a string as a latin1 string (one char a byte): the string itself when it is ASCII. */
function byteKey(s: string): string {
  return ASCII.test(s) ? s : Buffer.from(s, 'utf8').toString('latin1');
}

/** The rank table, built on first use (about 0.15 s). */
function rankTable(): RankTable {
  if (table) return table;
  const byBytes = new Map<string, number>();
  let maxBytes = 0;
  o200kRanks().forEach((value, rank) => {
    if (value === undefined) return;
    // gpt-tokenizer's data holds a token as a string when its bytes are UTF-8, else as its bytes
    const key = typeof value === 'string' ? byteKey(value) : Buffer.from(value).toString('latin1');
    byBytes.set(key, rank);
    if (key.length > maxBytes) maxBytes = key.length;
  });
  table = { byBytes, maxBytes };
  return table;
}

const NONE = 0x7fffffff;

/**
 * A bounded cache of pair ranks by the ids of the two tokens (open addressing, linear probing):
 * the rank of the token their bytes make together, NONE when they make none. Cleared when full.
 */
class PairRanks {
  private static readonly SIZE = 1 << 20;
  private readonly left = new Int32Array(PairRanks.SIZE).fill(-1);
  private readonly right = new Int32Array(PairRanks.SIZE);
  private readonly rank = new Int32Array(PairRanks.SIZE);
  private used = 0;

  get(left: number, right: number, bytes: Buffer, from: number, to: number, t: RankTable): number {
    const mask = PairRanks.SIZE - 1;
    let k = (Math.imul(left, 0x9e3779b1) ^ Math.imul(right, 0x85ebca77)) & mask;
    for (;;) {
      const l = this.left[k];
      if (l === -1) break;
      if (l === left && this.right[k] === right) return this.rank[k];
      k = (k + 1) & mask;
    }
    const r = to - from > t.maxBytes ? NONE : (t.byBytes.get(bytes.toString('latin1', from, to)) ?? NONE);
    if (this.used >= PairRanks.SIZE >> 1) {
      this.left.fill(-1);
      this.used = 0;
      return r;
    }
    this.left[k] = left;
    this.right[k] = right;
    this.rank[k] = r;
    this.used++;
    return r;
  }
}

let pairRanks: PairRanks | undefined;

/** Heap keys: rank × 2^32 + start (ranks are below 2^18: exact in a double), so the order is (rank, start). */
const KEY_RANK = 2 ** 32;

/**
 * The parts BPE leaves of these bytes: `next[i]` is the end of the part that starts at byte `i`
 * (parts start at 0 and follow each other through `next`), `token[i]` its token id.
 */
function mergeParts(bytes: Buffer): { readonly next: Int32Array; readonly token: Int32Array } {
  const t = rankTable();
  const cache = (pairRanks ??= new PairRanks());
  const n = bytes.length;
  const next = new Int32Array(n + 1);
  const prev = new Int32Array(n + 1);
  // every part is a token: single bytes first, then each merge makes the token of the pair's rank
  const token = new Int32Array(n);
  // rank[i]: the rank of the part starting at i merged with the part after it (NONE: not a token, or i
  // is no longer the start of a part). A pair's bytes only grow, so a rank never comes back: a heap
  // entry whose rank is no longer its start's is stale, and skipped (lazy deletion).
  const rank = new Int32Array(n).fill(NONE);
  for (let i = 0; i <= n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  for (let i = 0; i < n; i++) token[i] = byteToken(bytes[i], t);

  // a binary min-heap of keys (rank, start): the lowest rank first, the leftmost on ties
  let heap = new Float64Array(Math.max(16, n));
  let size = 0;
  const push = (key: number) => {
    if (size === heap.length) {
      const grown = new Float64Array(heap.length * 2);
      grown.set(heap);
      heap = grown;
    }
    let k = size++;
    while (k > 0) {
      const p = (k - 1) >> 1;
      if (heap[p] <= key) break;
      heap[k] = heap[p];
      k = p;
    }
    heap[k] = key;
  };
  const pop = (): number => {
    const top = heap[0];
    const last = heap[--size];
    let k = 0;
    for (;;) {
      let c = 2 * k + 1;
      if (c >= size) break;
      if (c + 1 < size && heap[c + 1] < heap[c]) c++;
      if (heap[c] >= last) break;
      heap[k] = heap[c];
      k = c;
    }
    heap[k] = last;
    return top;
  };
  /** Set the pair rank of the part at i (and queue it when it is a token). */
  const update = (i: number) => {
    const j = next[i];
    const r = j >= n ? NONE : cache.get(token[i], token[j], bytes, i, next[j], t);
    rank[i] = r;
    if (r !== NONE) push(r * KEY_RANK + i);
  };

  for (let i = 0; i + 1 < n; i++) update(i);
  while (size > 0) {
    const key = pop();
    const i = key % KEY_RANK;
    const r = (key - i) / KEY_RANK;
    if (rank[i] !== r) continue; // stale
    // merge the part at i with the one after it: together they are the token of their rank
    const j = next[i];
    token[i] = r;
    rank[j] = NONE;
    const after = next[j];
    next[i] = after;
    prev[after] = i;
    update(i);
    if (i > 0) update(prev[i]);
  }
  return { next, token };
}

/** The token of one byte (every byte is one). */
function byteToken(byte: number, t: RankTable): number {
  const id = t.byBytes.get(String.fromCharCode(byte));
  if (id === undefined) throw new Error(`o200k_base has no token for byte ${byte}`);
  return id;
}

// Chunks met again (most are words): their ids, up to CACHE_MAX chunks of up to CACHE_CHUNK chars.
const CACHE_MAX = 100_000;
const CACHE_CHUNK = 256;
const chunkCache = new Map<string, readonly number[]>();

/** The o200k_base token ids of one pre-tokenizer chunk (tiktoken's rule; O(n log n) in its bytes). */
export function encodeChunk(chunk: string): readonly number[] {
  const whole = wholeToken(chunk);
  return whole !== undefined ? [whole] : mergedChunk(chunk);
}

/** The number of o200k_base tokens of one pre-tokenizer chunk (as `encodeChunk(chunk).length`). */
export function countChunk(chunk: string): number {
  return wholeToken(chunk) !== undefined ? 1 : mergedChunk(chunk).length;
}

/** The token a chunk is, when it is one (tiktoken looks the whole piece up before merging). */
function wholeToken(chunk: string): number | undefined {
  const t = rankTable();
  // a token is at most maxBytes bytes, and a chunk has at least as many bytes as UTF-16 units
  return chunk.length <= t.maxBytes ? t.byBytes.get(byteKey(chunk)) : undefined;
}

/** The ids BPE merges a chunk into (a chunk that is no token). */
function mergedChunk(chunk: string): readonly number[] {
  const cached = chunkCache.get(chunk);
  if (cached !== undefined) return cached;
  const bytes = Buffer.from(chunk, 'utf8');
  const { next, token } = mergeParts(bytes);
  const ids: number[] = [];
  for (let i = 0; i < bytes.length; i = next[i]) ids.push(token[i]);
  if (chunk.length <= CACHE_CHUNK) {
    if (chunkCache.size >= CACHE_MAX) chunkCache.clear();
    chunkCache.set(chunk, ids);
  }
  return ids;
}

/** The o200k_base token ids of ordinary text: special-token spellings are plain text. */
export function encodeOrdinary(text: string): number[] {
  const ids: number[] = [];
  eachO200kPiece(text, (piece) => {
    for (const id of encodeChunk(piece)) ids.push(id);
  });
  return ids;
}

/** The number of o200k_base tokens of ordinary text (as `encodeOrdinary(text).length`). */
export function countOrdinary(text: string): number {
  let n = 0;
  eachO200kPiece(text, (piece) => {
    n += countChunk(piece);
  });
  return n;
}

/** Each pre-tokenizer chunk of ordinary text: its length in UTF-16 units and its number of tokens. */
export function countOrdinaryChunks(text: string): { readonly lengths: number[]; readonly counts: number[] } {
  const lengths: number[] = [];
  const counts: number[] = [];
  eachO200kPiece(text, (piece) => {
    lengths.push(piece.length);
    counts.push(countChunk(piece));
  });
  return { lengths, counts };
}
