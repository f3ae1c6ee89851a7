/** Small tokenizer.json files made in the tests (no shared data needed): a byte-level BPE and a byte-fallback BPE. */

/** GPT-2's bytes → characters (bytes_to_unicode). */
function byteChars(): string[] {
  const printable = (b: number) => (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  let extra = 0;
  return Array.from({ length: 256 }, (_, b) => String.fromCharCode(printable(b) ? b : 256 + extra++));
}

/** An added token entry. */
export function added(id: number, content: string, flags: { special?: boolean; lstrip?: boolean; rstrip?: boolean; single_word?: boolean; normalized?: boolean } = {}): Record<string, unknown> {
  const special = flags.special ?? false;
  return { id, content, single_word: flags.single_word ?? false, lstrip: flags.lstrip ?? false, rstrip: flags.rstrip ?? false, normalized: flags.normalized ?? false, special };
}

/**
 * A byte-level BPE: byte b is id b; merges h+e=256, l+l=257, he+ll=258, hell+o=259, Ġ+w=260;
 * added tokens `<|a|>` 300 (special) and `<think>` 301.
 */
export function byteLevelToy(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const chars = byteChars();
  const vocab: Record<string, number> = {};
  chars.forEach((c, b) => (vocab[c] = b));
  const G = chars[0x20] as string; // Ġ
  Object.assign(vocab, { he: 256, ll: 257, hell: 258, hello: 259, [`${G}w`]: 260 });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [added(300, '<|a|>', { special: true }), added(301, '<think>')],
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: null,
    decoder: null,
    model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: null, end_of_word_suffix: null, fuse_unk: false, byte_fallback: false, ignore_merges: false, vocab, merges: ['h e', 'l l', 'he ll', 'hell o', `${G} w`] },
    ...overrides,
  };
}

/** A SentencePiece-style BPE (as Gemma's): spaces → ▁, characters missing from the vocabulary as <0xXX> bytes. */
export function byteFallbackToy(): Record<string, unknown> {
  const vocab: Record<string, number> = { '<unk>': 0 };
  for (let b = 0; b < 256; b++) vocab[`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`] = 1 + b;
  Object.assign(vocab, { a: 300, b: 301, '▁': 302, ab: 303, '▁ab': 304 });
  return {
    version: '1.0',
    added_tokens: [added(0, '<unk>', { special: true })],
    normalizer: { type: 'Replace', pattern: { String: ' ' }, content: '▁' },
    pre_tokenizer: { type: 'Split', pattern: { String: ' ' }, behavior: 'MergedWithPrevious', invert: false },
    model: { type: 'BPE', dropout: null, unk_token: '<unk>', fuse_unk: true, byte_fallback: true, ignore_merges: false, vocab, merges: [['a', 'b'], ['▁', 'ab']] },
  };
}
