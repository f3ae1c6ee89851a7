/**
 * A text encoded again beside an earlier one (src/tokenizers/incremental.ts, readahead.ts): what did
 * not change is taken from the earlier encoding, and the ids are those a fresh encoding gives, on
 * random edits of long texts (toy tokenizers here; the real files of ../shared/oracles/tokens when
 * present). The bound on a scan's reading is tested against the engine itself: an attempt before the
 * bound finds the same match whatever follows the changed position.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { HfTokenizer } from '../../src/tokenizers/hf.js';
import type { Encoding, Run } from '../../src/tokenizers/incremental.js';
import { tokenizerFromJson } from '../../src/tokenizers/index.js';
import { Readahead } from '../../src/tokenizers/readahead.js';
import { onigRegex } from '../../src/tokenizers/regex.js';
import { HAVE_SHARED, sharedMissingNote, sharedPath } from '../support/shared.js';
import { seededRandom } from '../support/random.js';
import { caseText, removeTokenizerFiles, tokenCases, tokenizerFile } from './support.js';
import { byteFallbackToy, byteLevelToy } from './toy.js';

// the leading Split patterns of the byte-level files this project's models have (Llama 3, Qwen2/3,
// DeepSeek V3's three, gpt-oss), GPT-2's, and patterns written to stress the bound
const PATTERNS = [
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
  '\\p{N}{1,3}',
  '[\u4e00-\u9fa5\u3040-\u309f\u30a0-\u30ff]+',
  "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+",
  "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
  "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+",
  'ab(?=cde)|a+(?!b{2,3}c)|[xy]{2,4}?z|(?:q|qq)+',
  '\\s+$|\\w+|.',
];

const ALPHABET = ['a', 'b', 'c', 'd', 'e', 'Z', 'x', 'y', 'z', 'q', ' ', '  ', '\n', '\r\n', '\t', '\u0085', '\u00a0', '\u3000', "'", "'s", "'LL", '1', '123', '١', '中文', 'ひら', 'カ', '😀', '\u0301', 'é', 'e\u0301', '.', '"', '{', '}', ':', ',', '/', '\\', '-', '_', '<think>', '<|a|>', '<|im_start|>', '<|eot_id|>', '\ud800', '\udc00', 'Hello', 'WORLD', 'CamelCase', '    "type": "string",\n'];

/** The alphabet without added-token spellings (a toy's long runs stay long). */
const PLAIN = ALPHABET.filter((s) => !s.startsWith('<'));

/** A random text of n pieces of the alphabet (the plain one, mostly, with `plain`). */
function randomText(random: () => number, n: number, plain = false): string {
  let s = '';
  for (let k = 0; k < n; k++) s += plain && random() < 0.998 ? PLAIN[Math.floor(random() * PLAIN.length)] : ALPHABET[Math.floor(random() * ALPHABET.length)];
  return s;
}

/** The text with one random edit: an insertion, a deletion or a replacement, small or not. */
function edit(random: () => number, text: string, plain = false): string {
  const at = Math.floor(random() * (text.length + 1));
  const kind = random();
  const len = Math.floor(random() * (random() < 0.8 ? 8 : 400));
  if (kind < 0.34) return text.slice(0, at) + randomText(random, 1 + Math.floor(random() * 6), plain) + text.slice(at);
  if (kind < 0.67) return text.slice(0, at) + text.slice(at + len);
  return text.slice(0, at) + randomText(random, 1 + Math.floor(random() * 6), plain) + text.slice(at + len);
}

describe('the bound on what a scan reads (readahead.ts)', () => {
  it('an attempt before the bound finds the same match, whatever follows the bound\'s position (9 patterns × 400 texts)', () => {
    const random = seededRandom(7);
    const wrong: string[] = [];
    let checked = 0;
    for (const p of PATTERNS) {
      const re = onigRegex(p);
      const r = Readahead.of(re);
      expect(r, p).toBeDefined();
      const sticky = new RegExp(re.source, 'uy');
      const at = (s: string, k: number) => {
        sticky.lastIndex = k;
        const m = sticky.exec(s);
        return m === null ? -1 : m[0].length;
      };
      for (let n = 0; n < 400; n++) {
        const text = randomText(random, 2 + Math.floor(random() * 30));
        let a = Math.floor(random() * (text.length + 1));
        if (a > 0 && a < text.length && /[\ud800-\udbff]/.test(text.charAt(a - 1)) && /[\udc00-\udfff]/.test(text.charAt(a))) a--;
        const bound = r!.reach(text, a);
        expect(bound).toBeLessThanOrEqual(a);
        for (const suffix of ['', randomText(random, 3), randomText(random, 3), ' ', '\n', 'a', '1', '.']) {
          const other = text.slice(0, a) + suffix;
          for (let k = 0; k < bound; k++) {
            checked++;
            if (at(text, k) !== at(other, k)) wrong.push(`/${p}/ at ${k} of ${JSON.stringify(text)} (bound ${bound} for ${a}), then ${JSON.stringify(suffix)}`);
          }
        }
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(checked).toBeGreaterThan(10_000);
  });

  it('is not far from the change on text such as a catalog\'s (it bounds, it does not give up)', () => {
    const r = Readahead.of(onigRegex(PATTERNS[1] as string))!;
    const text = '{"name": "get_weather", "description": "Get the weather", "parameters": {}}\n'.repeat(3);
    const a = text.indexOf('weather", "par');
    expect(a - r.reach(text, a)).toBeLessThan(12);
    // a white-space run: attempts inside it can read to its end
    const spaces = `x${' '.repeat(500)}y`;
    expect(r.reach(spaces, 400)).toBe(1);
  });

  it('refuses what it cannot bound: a lookbehind, ^, an unbounded lookahead, a pattern matching the empty string', () => {
    for (const p of ['(?<=a)b', '^a', 'a(?=.*b)', 'a*', 'a|', 'x(?!y+)']) expect(Readahead.of(onigRegex(p)), p).toBeUndefined();
    expect(Readahead.of(onigRegex('a(?=bc)'))).toBeDefined();
  });
});

/** A toy byte-level file whose pre-tokenizer is Splits by these patterns (default: Llama 3's), then ByteLevel. */
function splitToy(patterns: readonly string[] = [PATTERNS[0] as string]): HfTokenizer {
  return HfTokenizer.fromJson(
    byteLevelToy({
      pre_tokenizer: {
        type: 'Sequence',
        pretokenizers: [
          ...patterns.map((p) => ({ type: 'Split', pattern: { Regex: p }, behavior: 'Isolated', invert: false })),
          { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: false },
        ],
      },
    }),
  );
}

/** Chains of random edits of long texts, each encoded beside the one before: the ids of a fresh encoding each time. */
function chains(t: HfTokenizer, bases: readonly string[], rounds: number, seed: number, plain = false): { checked: number; wrong: string[] } {
  const random = seededRandom(seed);
  const wrong: string[] = [];
  let checked = 0;
  for (const base of bases) {
    let text = base;
    let enc: Encoding = t.encodeKept(text);
    for (let n = 0; n < rounds; n++) {
      const next = random() < 0.1 ? base : edit(random, text, plain);
      const again = t.encodeKept(next, enc);
      checked++;
      const fresh = t.encode(next);
      if (again.ids.length !== fresh.length || again.ids.some((id, k) => id !== fresh[k])) {
        const at = fresh.findIndex((id, k) => again.ids[k] !== id);
        wrong.push(`round ${n} of a ${base.length}-char text: first differing id at ${at}`);
        break;
      }
      // the pieces too (where each ends, whether matched, where its ids end): a fresh encoding's
      const anew = t.encodeKept(next);
      const shape = (e: Encoding) => JSON.stringify(e.items.map((x) => (typeof x === 'number' ? x : [x.text.length, x.first, [...(x.ends ?? [])], [...(x.matched ?? [])], [...(x.idEnds ?? [])]])));
      if (shape(again) !== shape(anew)) {
        wrong.push(`round ${n} of a ${base.length}-char text: the pieces differ from a fresh encoding's`);
        break;
      }
      text = next;
      enc = again;
    }
  }
  return { checked, wrong };
}

describe('a text encoded again beside an earlier one (incremental.ts)', () => {
  it('a leading Split (Llama 3\'s): the ids of a fresh encoding after each of 600 random edits', () => {
    const random = seededRandom(11);
    const bases = Array.from({ length: 6 }, () => randomText(random, 1500, true));
    const t = splitToy();
    const r = chains(t, bases, 100, 12, true);
    expect(r.wrong).toEqual([]);
    expect(r.checked).toBe(600);
    // the texts are long runs: their pieces were kept, and most of each was taken, not made
    const enc = t.encodeKept(bases[0] as string);
    const again = t.encodeKept(`${bases[0]}x`, enc);
    const run = again.items.find((x): x is Run => typeof x !== 'number' && x.text.length >= 2048);
    expect(run?.made).toBeLessThan(5);
  });

  it('a leading Split with long pieces between its matches (DeepSeek V3\'s digits, then its words): the same after 600 random edits', () => {
    const random = seededRandom(15);
    const bases = Array.from({ length: 6 }, () => randomText(random, 1500, true));
    const r = chains(splitToy([PATTERNS[2] as string, PATTERNS[4] as string]), bases, 100, 16, true);
    expect(r.wrong).toEqual([]);
    expect(r.checked).toBe(600);
  });

  it('pre-tokenizers without a leading Split (GPT-2\'s ByteLevel regex, Gemma\'s one word per run): runs reused whole, the same ids', () => {
    const random = seededRandom(13);
    const bases = Array.from({ length: 3 }, () => randomText(random, 1200));
    for (const json of [byteLevelToy(), byteFallbackToy()]) {
      const r = chains(HfTokenizer.fromJson(json), bases, 60, 14);
      expect(r.wrong).toEqual([]);
    }
  });

  it('through the Tokenizer: a count and spans after an edit are a fresh tokenizer\'s; only the changed part is encoded again', () => {
    const json = JSON.stringify(
      byteLevelToy({
        pre_tokenizer: { type: 'Sequence', pretokenizers: [{ type: 'Split', pattern: { Regex: PATTERNS[0] }, behavior: 'Isolated', invert: false }, { type: 'ByteLevel', add_prefix_space: false, use_regex: false }] },
      }),
    );
    const t = tokenizerFromJson(json);
    const tools = Array.from({ length: 400 }, (_, k) => `{"name": "tool_${k}", "description": "Say hello ${k} times.", "parameters": {"type": "object"}}\n`);
    const catalog = tools.join('');
    const changed = tools.map((x, k) => (k === 200 ? x.replace('Say hello', 'Say hello world') : x)).join('');
    expect(t.count(catalog)).toBe(tokenizerFromJson(json).count(catalog));
    expect(t.count(changed)).toBe(tokenizerFromJson(json).count(changed));
    expect(t.spans!(changed)).toEqual(tokenizerFromJson(json).spans!(changed));
    // what was encoded again: the pieces around tool 200, not the catalog
    const hf = splitToy();
    const first = hf.encodeKept(catalog);
    const again = hf.encodeKept(changed, first);
    expect([...again.ids]).toEqual(hf.encode(changed));
    const run = again.items[0] as Run;
    expect(run.ends!.length).toBe((first.items[0] as Run).ends!.length + 1); // " world"
    expect(run.made).toBeGreaterThan(0);
    expect(run.made).toBeLessThan(12);
  });
});

if (HAVE_SHARED) {
  describe('a text encoded again beside an earlier one, under the real files (shared/oracles/tokens)', () => {
    afterAll(removeTokenizerFiles);
    const NAMES = ['llama3_1', 'qwen3', 'deepseek_v3', 'gemma3'] as const;
    for (const name of NAMES) {
      it(`${name}: the ids of a fresh encoding after random edits of its long oracle texts`, () => {
        const t = HfTokenizer.fromJson(JSON.parse(readFileSync(tokenizerFile(name), 'utf8')));
        // long texts: the oracle's texts (rendered prompts, tricky texts) joined a few at a time
        const texts = tokenCases(name)
          .map(caseText)
          .filter((s) => s.length <= 20_000);
        const random = seededRandom(name.length);
        const bases: string[] = [];
        for (let n = 0; n < 12; n++) {
          let s = '';
          while (s.length < 4000) s += texts[Math.floor(random() * texts.length)];
          bases.push(s);
        }
        const r = chains(t, bases, name === 'gemma3' ? 8 : 40, 99);
        console.log(`incremental ${name}: ${r.checked - r.wrong.length}/${r.checked} edits encoded again exact`);
        expect(r.wrong).toEqual([]);
      });
    }

    it('qwen3: the corpus catalog with one tool changed, the ids of a fresh encoding', () => {
      const t = HfTokenizer.fromJson(JSON.parse(readFileSync(tokenizerFile('qwen3'), 'utf8')));
      const lines = readFileSync(sharedPath('corpus', 'tools.jsonl'), 'utf8').split('\n').slice(0, 400);
      const catalog = lines.join('\n');
      const enc = t.encodeKept(catalog);
      const changed = lines.map((l, k) => (k === 200 ? l.replace('"description": "', '"description": "Changed. ') : l)).join('\n');
      expect(changed).not.toBe(catalog);
      expect([...t.encodeKept(changed, enc).ids]).toEqual(t.encode(changed));
    });
  });
} else {
  describe('a text encoded again beside an earlier one, under the real files (not available)', () => {
    it('says plainly that the real tokenizers are not compared', () => {
      console.warn(sharedMissingNote('test/tokenizers/incremental.test.ts'));
      expect(HAVE_SHARED).toBe(false);
    });
  });
}
