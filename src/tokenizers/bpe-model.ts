/**
 * The BPE model of a Hugging Face `tokenizer.json`, as the Rust `tokenizers` crate applies it to one
 * pre-tokenized word (models/bpe/model.rs, word.rs):
 *
 * - `ignore_merges`: a word that is a token of the vocabulary is that token;
 * - else each character is a symbol (with `continuing_subword_prefix` after the first,
 *   `end_of_word_suffix` on the last); one missing from the vocabulary is its UTF-8 bytes as
 *   `<0xXX>` tokens with `byte_fallback`, else `unk_token` (consecutive ones fused with `fuse_unk`);
 * - then the adjacent pair of lowest merge rank is merged, the leftmost on ties, until no adjacent
 *   pair is a merge. The pairs wait in a heap keyed by (rank, position) and the symbols form a linked
 *   list, so a word of n symbols costs O(n log n) (a 100,000-character run is one word for Gemma).
 */

/** The options of a BPE model, as `tokenizer.json` names them. */
export interface BpeOptions {
  readonly ignoreMerges: boolean;
  readonly byteFallback: boolean;
  readonly unkToken: string | null;
  readonly fuseUnk: boolean;
  readonly continuingSubwordPrefix: string | null;
  readonly endOfWordSuffix: string | null;
}

/** Why a BPE model cannot be built from its vocabulary and merges. */
export class BpeModelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BpeModelError';
  }
}

const NONE = -1;
/** Heap keys: rank × 2^32 + position (ranks below 2^21: exact in a double), ordered (rank, position). */
const KEY_RANK = 2 ** 32;

/** Merges by the ids of their two tokens (open addressing, linear probing): rank and the id they make. */
class PairTable {
  private readonly left: Int32Array;
  private readonly right: Int32Array;
  private readonly rank: Int32Array;
  private readonly mask: number;

  constructor(capacity: number) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.left = new Int32Array(size).fill(-1);
    this.right = new Int32Array(size);
    this.rank = new Int32Array(size);
    this.mask = size - 1;
  }

  private slot(a: number, b: number): number {
    let k = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77)) & this.mask;
    for (;;) {
      const l = this.left[k];
      if (l === -1 || (l === a && this.right[k] === b)) return k;
      k = (k + 1) & this.mask;
    }
  }

  /** Set a pair's rank (a later line of the same pair replaces an earlier one, as a Rust HashMap collect does). */
  set(a: number, b: number, rank: number): void {
    const k = this.slot(a, b);
    this.left[k] = a;
    this.right[k] = b;
    this.rank[k] = rank;
  }

  /** The pair's rank, or NONE. */
  get(a: number, b: number): number {
    const k = this.slot(a, b);
    return this.left[k] === -1 ? NONE : (this.rank[k] as number);
  }
}

// Words met again (most are): their ids, up to CACHE_MAX words of up to CACHE_WORD chars.
const CACHE_MAX = 100_000;
const CACHE_WORD = 256;

/** A vocabulary: each token's id by its spelling. */
export interface Vocabulary {
  get(token: string): number | undefined;
}

/** The two tokens of a merge line: `"a b"` or `["a", "b"]`; undefined when it is neither. */
function mergePair(line: unknown): readonly [string, string] | undefined {
  if (typeof line === 'string') {
    const space = line.indexOf(' ');
    if (space < 0 || line.indexOf(' ', space + 1) >= 0) return undefined;
    return [line.slice(0, space), line.slice(space + 1)];
  }
  if (Array.isArray(line) && line.length === 2 && typeof line[0] === 'string' && typeof line[1] === 'string') return [line[0], line[1]];
  return undefined;
}

/** A BPE model: a vocabulary, ranked merges and options. */
export class BpeModel {
  readonly vocab: Vocabulary;
  private readonly pairs: PairTable;
  /** The id each merge rank makes. */
  private readonly made: Int32Array;
  private readonly options: BpeOptions;
  private readonly unkId: number;
  private readonly byteIds: Int32Array | undefined;
  private readonly cache = new Map<string, readonly number[]>();
  /** The id of each character met that is a token by itself (no prefix or suffix added). */
  private readonly charIds = new Map<number, number>();

  /** `merges` as the file has them: `"a b"` strings or `["a", "b"]` pairs, the first the highest in rank. */
  constructor(vocab: Vocabulary, merges: readonly unknown[], options: BpeOptions) {
    this.vocab = vocab;
    this.options = options;
    this.pairs = new PairTable(merges.length);
    this.made = new Int32Array(merges.length);
    const prefix = options.continuingSubwordPrefix ?? '';
    for (let rank = 0; rank < merges.length; rank++) {
      const pair = mergePair(merges[rank]);
      if (!pair) throw new BpeModelError(`merges[${rank}] is not "a b" nor ["a", "b"]`);
      const [a, b] = pair;
      const ia = vocab.get(a);
      const ib = vocab.get(b);
      const joined = a + (prefix !== '' && b.startsWith(prefix) ? b.slice(prefix.length) : b);
      const id = vocab.get(joined);
      if (ia === undefined || ib === undefined || id === undefined) {
        const missing = ia === undefined ? a : ib === undefined ? b : joined;
        throw new BpeModelError(`merge ${rank + 1} (${JSON.stringify(a)} ${JSON.stringify(b)}): ${JSON.stringify(missing)} is not in the vocabulary`);
      }
      this.pairs.set(ia, ib, rank);
      this.made[rank] = id;
    }
    if (options.unkToken !== null) {
      const unk = vocab.get(options.unkToken);
      this.unkId = unk ?? NONE;
    } else this.unkId = NONE;
    if (options.byteFallback) {
      const ids = new Int32Array(256).fill(NONE);
      for (let b = 0; b < 256; b++) ids[b] = vocab.get(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`) ?? NONE;
      this.byteIds = ids;
    }
  }

  /** Append the ids of one pre-tokenized word to `out`. */
  tokenize(word: string, out: number[]): void {
    if (word === '') return;
    // a word met again: its ids (the same whether they came from ignore_merges or from merging)
    const cacheable = word.length <= CACHE_WORD;
    if (cacheable) {
      const hit = this.cache.get(word);
      if (hit) {
        for (const id of hit) out.push(id);
        return;
      }
    }
    let ids: readonly number[];
    const whole = this.options.ignoreMerges ? this.vocab.get(word) : undefined;
    if (whole !== undefined) ids = [whole];
    else ids = this.merge(this.symbols(word));
    if (cacheable) {
      if (this.cache.size >= CACHE_MAX) this.cache.clear();
      this.cache.set(word, ids);
    }
    for (const id of ids) out.push(id);
  }

  /** The word's symbols before any merge (merge_word's loop). */
  private symbols(word: string): number[] {
    const { continuingSubwordPrefix: prefix, endOfWordSuffix: suffix, fuseUnk } = this.options;
    const ids: number[] = [];
    let unk = false; // an unknown symbol waits (fuse_unk joins the next ones to it)
    let i = 0;
    while (i < word.length) {
      const cp = word.codePointAt(i) as number;
      const width = cp > 0xffff ? 2 : 1;
      const plain = (i === 0 || !prefix) && (i + width < word.length || !suffix);
      let id = plain ? this.charIds.get(cp) : undefined;
      let s = word.slice(i, i + width);
      if (i > 0 && prefix !== null) s = prefix + s;
      i += width;
      if (i >= word.length && suffix !== null) s += suffix;
      if (id === undefined) {
        id = this.vocab.get(s);
        if (plain && id !== undefined) this.charIds.set(cp, id);
      }
      if (id !== undefined) {
        if (unk) {
          ids.push(this.unkId);
          unk = false;
        }
        ids.push(id);
        continue;
      }
      if (this.byteIds) {
        const bytes = Buffer.from(s, 'utf8');
        let all = true;
        for (const b of bytes) if (this.byteIds[b] === NONE) all = false;
        if (all) {
          // as the crate does: a waiting unknown symbol is not flushed before the bytes
          for (const b of bytes) ids.push(this.byteIds[b] as number);
          continue;
        }
      }
      if (this.options.unkToken !== null) {
        if (this.unkId === NONE) throw new BpeModelError(`the unk_token ${JSON.stringify(this.options.unkToken)} is not in the vocabulary`);
        if (unk && !fuseUnk) ids.push(this.unkId);
        unk = true;
      }
      // no unk_token: the character is dropped, as the crate drops it
    }
    if (unk) ids.push(this.unkId);
    return ids;
  }

  /** Merge the symbols: the lowest-ranked adjacent pair first, the leftmost on ties. */
  private merge(ids: number[]): number[] {
    const n = ids.length;
    if (n < 2) return ids;
    const token = Int32Array.from(ids);
    const next = new Int32Array(n);
    const prev = new Int32Array(n);
    // rank[i]: the merge rank of the symbol at i with the one after it (NONE: none, or i is merged away)
    const rank = new Int32Array(n).fill(NONE);
    for (let i = 0; i < n; i++) {
      next[i] = i + 1;
      prev[i] = i - 1;
    }
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
        if ((heap[p] as number) <= key) break;
        heap[k] = heap[p] as number;
        k = p;
      }
      heap[k] = key;
    };
    const pop = (): number => {
      const topKey = heap[0] as number;
      const last = heap[--size] as number;
      let k = 0;
      for (;;) {
        let c = 2 * k + 1;
        if (c >= size) break;
        if (c + 1 < size && (heap[c + 1] as number) < (heap[c] as number)) c++;
        if ((heap[c] as number) >= last) break;
        heap[k] = heap[c] as number;
        k = c;
      }
      heap[k] = last;
      return topKey;
    };
    const update = (i: number) => {
      const j = next[i] as number;
      const r = j >= n ? NONE : this.pairs.get(token[i] as number, token[j] as number);
      rank[i] = r;
      if (r !== NONE) push(r * KEY_RANK + i);
    };
    for (let i = 0; i + 1 < n; i++) update(i);
    while (size > 0) {
      const key = pop();
      const i = key % KEY_RANK;
      const r = (key - i) / KEY_RANK;
      if (rank[i] !== r) continue; // stale: the pair at i changed since
      const j = next[i] as number;
      token[i] = this.made[r] as number;
      rank[j] = NONE;
      const after = next[j] as number;
      next[i] = after;
      if (after < n) prev[after] = i;
      update(i);
      if (prev[i] as number >= 0) update(prev[i] as number);
    }
    const merged: number[] = [];
    for (let i = 0; i < n; i = next[i] as number) merged.push(token[i] as number);
    return merged;
  }
}
