/**
 * gpt-tokenizer's o200k_base vocabulary (2.4 MB of JavaScript, about 0.1 s to load), loaded the
 * first time a count, an encoding or a token id's decoding needs it, and not when the library is
 * imported: a render never needs it. Loaded synchronously (the parser and the counters are
 * synchronous) through gpt-tokenizer's CommonJS build, the same data as its ES build.
 */
import { createRequire } from 'node:module';

/** Each rank's token: a string when its bytes are UTF-8, else its bytes. */
export type O200kRanks = readonly (string | readonly number[] | undefined)[];

let ranks: O200kRanks | undefined;

/** The vocabulary, loaded on first use. */
export function o200kRanks(): O200kRanks {
  if (ranks === undefined) {
    const loaded = createRequire(import.meta.url)('gpt-tokenizer/bpeRanks/o200k_base') as { default: O200kRanks };
    ranks = loaded.default;
  }
  return ranks;
}
