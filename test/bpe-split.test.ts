/**
 * src/bpe.ts splits text as the Rust crates (tokenizers, tiktoken) do: `\s` is Unicode White_Space,
 * so U+0085 is white space and U+FEFF is not. gpt-tokenizer's JavaScript regex, which bpe.ts used
 * before, reads both the other way round and gives other ids for such texts.
 */
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { describe, expect, it } from 'vitest';
import { countOrdinaryChunks, encodeChunk, o200kPieces } from '../src/bpe.js';
import { countTextTokens, encodeText } from '../src/tokens.js';
import { GPT_OSS_TOKENIZER } from '../src/tokenizers/index.js';
import { seededRandom } from './support/random.js';

/** The ids gpt-tokenizer's split would give (each of its pieces merged by the same BPE). */
function idsWithJsSplit(text: string): number[] {
  return [...text.matchAll(O200K_TOKEN_SPLIT_REGEX)].flatMap((m) => [...encodeChunk(m[0])]);
}


describe('bpe.ts splits text as the Rust crates do (U+0085 is white space, U+FEFF is not)', () => {
  it.each([
    // U+0085 after a space, before punctuation: the crate cuts " ", "\u0085", "!"; the JS regex kept " \u0085!" whole
    ['a \u0085!', ['a', ' ', '\u0085', '!'], [64, 220, 126, 227, 0]],
    // U+FEFF between a space and punctuation: one piece " \uFEFF," for the crate (FEFF is not white space)
    ['hi \uFEFF,', ['hi', ' \uFEFF,'], [3686, 71280, 11]],
    ['ok \uFEFF\uFEFF!', ['ok', ' \uFEFF\uFEFF!'], [525, 71280, 5574, 0]],
    ['end.\u0085', ['end', '.', '\u0085'], [419, 13, 126, 227]],
  ])('%j: the crate\'s pieces and ids', (text, pieces, ids) => {
    expect([...o200kPieces(text)]).toEqual(pieces);
    expect(encodeText(text)).toEqual(ids);
    expect(countTextTokens(text)).toBe(ids.length);
    const chunks = countOrdinaryChunks(text);
    expect(chunks.lengths).toEqual(pieces.map((p) => p.length));
    expect(chunks.counts.reduce((a, b) => a + b, 0)).toBe(ids.length);
  });

  it('the first two differ from what gpt-tokenizer\'s split gives (this test bites)', () => {
    expect(idsWithJsSplit('a \u0085!')).toEqual([64, 1322, 227, 0]);
    expect(idsWithJsSplit('hi \uFEFF,')).toEqual([3686, 220, 5574, 11]);
  });

  it('random texts of letters, spaces, punctuation, U+0085 and U+FEFF: the same ids as gpt-oss\'s own encoder (checked against the crate), and some differ from gpt-tokenizer\'s split', () => {
    const alphabet = ['a', 'B', ' ', '  ', '!', ',', '.', '(', '\n', '\u0085', '\uFEFF', '1', 'é', '\t'];
    const next = seededRandom(20250805);
    let differ = 0;
    const n = 2000;
    for (let k = 0; k < n; k++) {
      let text = '';
      const len = 1 + Math.floor(next() * 12);
      for (let i = 0; i < len; i++) text += alphabet[Math.floor(next() * alphabet.length)];
      const ids = encodeText(text);
      expect(ids, JSON.stringify(text)).toEqual(GPT_OSS_TOKENIZER.encode(text));
      expect([...o200kPieces(text)].join('')).toBe(text);
      if (idsWithJsSplit(text).join() !== ids.join()) differ++;
    }
    expect(differ).toBeGreaterThan(n / 100);
  });
});
