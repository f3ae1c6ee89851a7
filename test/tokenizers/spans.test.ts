/**
 * Where a tokenizer's tokens stand in the text (Tokenizer.spans): what the inventory gives each
 * tool's text its share by. The spans always add up to the count; each token is placed on the text
 * it stands for (its bytes as the file's decoder reads it back), checked on the shared oracle texts.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { GPT_OSS_TOKENIZER, loadTokenizer, tokenizerFromJson } from '../../src/tokenizers/index.js';
import { HfTokenizer } from '../../src/tokenizers/hf.js';
import { placeTokens } from '../../src/tokenizers/spans.js';
import { countOrdinaryChunks } from '../../src/bpe.js';
import { HAVE_SHARED, sharedMissingNote, sharedPath } from '../support/shared.js';
import { caseText, removeTokenizerFiles, tokenCases, tokenizerFile } from './support.js';
import { added, byteFallbackToy, byteLevelToy } from './toy.js';

afterAll(() => removeTokenizerFiles());

/** The text each span covers (from its start to the next one's). */
function pieces(text: string, spans: { starts: readonly number[]; counts: readonly number[] }): string[] {
  return spans.starts.map((s, i) => text.slice(s, spans.starts[i + 1] ?? text.length) + (spans.counts[i]! > 1 ? `×${spans.counts[i]}` : ''));
}

describe('Tokenizer.spans on small files (always run)', () => {
  it('byte-level: each token at the text it stands for; added tokens at their spelling', () => {
    const t = tokenizerFromJson(JSON.stringify(byteLevelToy()));
    const text = '<|a|>hello world<think>x';
    expect(t.encode(text)).toEqual([300, 259, 260, 111, 114, 108, 100, 301, 120]);
    const spans = t.spans!(text);
    expect(pieces(text, spans)).toEqual(['<|a|>', 'hello', ' w', 'o', 'r', 'l', 'd', '<think>', 'x']);
    expect(spans.counts.reduce((a, b) => a + b, 0)).toBe(t.count(text));
  });

  it('byte fallback and ▁ (a SentencePiece-style file): bytes of one character share its start, ▁ is a space', () => {
    const t = tokenizerFromJson(JSON.stringify(byteFallbackToy()));
    const text = 'ab ab é';
    const ids = t.encode(text);
    const spans = t.spans!(text);
    expect(spans.counts.reduce((a, b) => a + b, 0)).toBe(ids.length);
    // "ab", " ab", " " then é as two <0x..> byte tokens that both start at é
    expect(pieces(text, spans)).toEqual(['ab', ' ab', ' ', 'é×2']);
  });

  it('a token the pre-tokenizer gave a leading space, and white space an added token took (rstrip), are placed right', () => {
    const t = tokenizerFromJson(JSON.stringify(byteLevelToy({ added_tokens: [added(300, '<|a|>', { special: true, rstrip: true })], pre_tokenizer: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true } })));
    const text = 'world<|a|>   hello';
    const spans = t.spans!(text);
    expect(spans.counts.reduce((a, b) => a + b, 0)).toBe(t.count(text));
    expect(pieces(text, spans)[0]).toBe('w'); // ' world' with the space the pre-tokenizer added: Ġw starts at w
    expect(spans.starts).toContain(text.indexOf('<|a|>'));
    expect(spans.starts).toContain(text.indexOf('hello'));
  });

  it('a text the normalizer changed throughout (lowercase): the spans still add up, in linear time', () => {
    const t = tokenizerFromJson(JSON.stringify(byteLevelToy({ normalizer: { type: 'Lowercase' } })));
    const text = 'HELLO WORLD '.repeat(20_000);
    const started = performance.now();
    const spans = t.spans!(text);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(spans.counts.reduce((a, b) => a + b, 0)).toBe(t.count(text));
    expect(spans.starts.every((s, i) => i === 0 || s > spans.starts[i - 1]!)).toBe(true);
  });

  it('gpt-oss built in: one span per added token and per pre-tokenizer piece, as the o200k chunks', () => {
    const text = '<|start|>developer<|message|># Tools\n\nnamespace functions {<|end|>';
    const spans = GPT_OSS_TOKENIZER.spans!(text);
    expect(spans.counts.reduce((a, b) => a + b, 0)).toBe(GPT_OSS_TOKENIZER.count(text));
    expect(pieces(text, spans).slice(0, 4)).toEqual(['<|start|>', 'developer', '<|message|>', '#']);
    const inner = '# Tools\n\nnamespace functions {';
    expect(spans.counts.slice(3, -1)).toEqual(countOrdinaryChunks(inner).counts);
  });
});

if (HAVE_SHARED) {
  describe('Tokenizer.spans on the real tokenizer files (shared/oracles/tokens)', () => {
    it.each(['llama3_1', 'qwen3', 'deepseek_v3', 'gemma3', 'gptoss'])('%s: the spans add up to the crate\'s count on every case, and place (nearly) every token on its own text', (name) => {
      const path = tokenizerFile(name);
      const t = loadTokenizer(path);
      const hf = HfTokenizer.fromJson(JSON.parse(readFileSync(path, 'utf8')));
      let tokens = 0;
      let placed = 0;
      for (const c of tokenCases(name)) {
        const text = caseText(c);
        if (text.length > 20_000) continue; // long repeated runs: the counts are checked by oracle.test.ts
        const spans = t.spans!(text);
        expect(spans.counts.reduce((a, b) => a + b, 0), c.id).toBe(c.count);
        for (let i = 1; i < spans.starts.length; i++) expect(spans.starts[i]! > spans.starts[i - 1]!, c.id).toBe(true);
        // each token's bytes where it was placed (a token inside a character, or one a normalizer changed, aside)
        const ids = hf.encode(text);
        const own = placeTokens(text, ids.map((id) => hf.surface(id)));
        const bytes = Buffer.from(text, 'utf8');
        let k = 0;
        own.starts.forEach((start, j) => {
          for (let m = 0; m < own.counts[j]!; m++, k++) {
            const surface = Buffer.from(hf.surface(ids[k]!));
            tokens++;
            const at = Buffer.byteLength(text.slice(0, start), 'utf8');
            if (m > 0 || bytes.subarray(at, at + surface.length).equals(surface) || surface.toString('utf8').includes('\uFFFD') || surface.length === 0) placed++;
            else if (surface[0] === 0x20 && bytes.subarray(at, at + surface.length - 1).equals(surface.subarray(1))) placed++;
          }
        });
      }
      console.log(`spans ${name}: ${placed}/${tokens} tokens placed on their own text`);
      expect(placed / tokens).toBeGreaterThan(0.999);
    });
  });
} else {
  describe('Tokenizer.spans on the real tokenizer files (not available)', () => {
    it('says plainly that the real tokenizer files are not used', () => {
      console.warn(sharedMissingNote('test/tokenizers/spans.test.ts'));
      expect(HAVE_SHARED).toBe(false);
      expect(sharedPath('oracles')).toContain('oracles');
    });
  });
}
