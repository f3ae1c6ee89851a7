/**
 * Exactness of each model's own tokenizer against ../shared/oracles/tokens: the Rust `tokenizers`
 * crate's `encode(text, add_special_tokens=False)` on every case (rendered family prompts and tricky
 * texts) under the real tokenizer.json of Llama 3.1, Qwen3, DeepSeek V3, Gemma 3 and gpt-oss; and
 * the built-in gpt-oss encoder (the project's o200k BPE) on gpt-oss's cases.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { HfTokenizer } from '../../src/tokenizers/hf.js';
import { GPT_OSS_TOKENIZER, GPT_OSS_TOKENIZER_SHA256, loadTokenizer, type Tokenizer } from '../../src/tokenizers/index.js';
import { HAVE_SHARED, sharedMissingNote, sharedPath } from '../support/shared.js';
import { caseText, removeTokenizerFiles, sha256, tokenCases, tokenizerFile, tokenManifest } from './support.js';

const NAMES = ['llama3_1', 'qwen3', 'deepseek_v3', 'gemma3', 'gptoss'] as const;

interface Divergence {
  readonly id: string;
  readonly reason: string;
}

/** Every case of a tokenizer through `t`: the number exact and the divergences (by id, with the reason). */
function run(name: string, t: Tokenizer): { exact: number; total: number; divergences: Divergence[] } {
  const cases = tokenCases(name);
  const divergences: Divergence[] = [];
  for (const c of cases) {
    const text = caseText(c);
    if (sha256(text) !== c.text_sha256) {
      divergences.push({ id: c.id, reason: 'the text built from the case does not have its text_sha256' });
      continue;
    }
    const ids = t.encode(text);
    const count = t.count(text);
    let reason: string | undefined;
    if (count !== c.count) reason = `count ${count}, oracle ${c.count}`;
    else if (ids.length !== c.count) reason = `${ids.length} ids, oracle count ${c.count}`;
    else if (c.ids) {
      const at = ids.findIndex((id, k) => id !== c.ids?.[k]);
      if (at >= 0) reason = `id ${at}: ${ids[at]}, oracle ${c.ids[at]} (ids ${JSON.stringify(ids.slice(Math.max(0, at - 2), at + 3))}, oracle ${JSON.stringify(c.ids.slice(Math.max(0, at - 2), at + 3))})`;
    } else if (sha256(ids.join(',')) !== c.ids_sha256) reason = 'ids_sha256 differs (same count)';
    if (reason) divergences.push({ id: c.id, reason });
  }
  return { exact: cases.length - divergences.length, total: cases.length, divergences };
}

function report(label: string, r: { exact: number; total: number; divergences: Divergence[] }): void {
  console.log(`tokens ${label}: ${r.exact}/${r.total} exact`);
  for (const d of r.divergences) console.log(`  ${d.id}: ${d.reason}`);
}

if (HAVE_SHARED) {
  describe('each model\'s own tokenizer against the Rust tokenizers crate (shared/oracles/tokens)', () => {
    afterAll(removeTokenizerFiles);
    const manifest = tokenManifest();
    const loaded = new Map<string, Tokenizer>();
    let genericEngine: HfTokenizer | undefined;
    const generic = {
      encode: (s: string) => (genericEngine ??= HfTokenizer.fromJson(JSON.parse(readFileSync(tokenizerFile('gptoss'), 'utf8')))).encode(s),
    };
    const tokenizer = (name: string): Tokenizer => {
      let t = loaded.get(name);
      if (!t) loaded.set(name, (t = loadTokenizer(tokenizerFile(name))));
      return t;
    };

    for (const name of NAMES) {
      it(`${name}: every case exact`, () => {
        const t = tokenizer(name);
        expect(t.sha256).toBe(manifest.tokenizers[name]?.sha256);
        // gpt-oss's file is encoded by the built-in encoder (tested below): here its tokenizer.json goes through the generic engine
        const r = run(name, name === 'gptoss' ? { ...t, encode: (s) => generic.encode(s), count: (s) => generic.encode(s).length } : t);
        report(name === 'gptoss' ? 'gptoss (tokenizer.json, generic engine)' : name, r);
        expect(r.total).toBe(manifest.counts[name]?.visible);
        expect(r.divergences).toEqual([]);
      });
    }

    it('gpt-oss built in (the project\'s o200k BPE, added tokens split out): every gptoss case exact; gpt-oss\'s own file is encoded by it', () => {
      const r = run('gptoss', GPT_OSS_TOKENIZER);
      report('gptoss (built-in o200k BPE)', r);
      expect(r.divergences).toEqual([]);
      const file = tokenizer('gptoss');
      expect(file.sha256).toBe(GPT_OSS_TOKENIZER_SHA256);
      expect({ source: file.source, encode: file.encode, count: file.count }).toEqual({ source: 'file', encode: GPT_OSS_TOKENIZER.encode, count: GPT_OSS_TOKENIZER.count });
    });

    it('gpt-oss built in and gpt-oss\'s tokenizer.json through the generic engine: the same ids on 5,000 random texts (U+0085 and U+FEFF among them)', () => {
      const alphabet = ['a', 'Z', ' ', '  ', '\n', '\r\n', '\t', '\u0085', '\ufeff', '\u00a0', '\u2028', '\u3000', 'é', 'e\u0301', 'ſ', "'s", "'S", "'ll", '1', '1234', '١', '½', 'Ⅳ', '中', 'ひ', '한', '😀', '🇫🇷', '\u200d', '<|start|>', '<|end', '|>', '<|reserved_200020|>', '.', '/', '//', '\\', '{', '"', 'İ', 'ǅ', 'ß', 'ﬁ', '\u0000', '\u001b', '\u200b', '\ud800', 'Hello', 'WORLD', 'CamelCase', '\u180e', '\u00ad'];
      let seed = 20240823;
      const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 1) / 0x80000000;
      const diverging: string[] = [];
      for (let k = 0; k < 5000; k++) {
        let text = '';
        for (let n = 1 + Math.floor(random() * 12); n > 0; n--) text += alphabet[Math.floor(random() * alphabet.length)];
        if (generic.encode(text).join() !== GPT_OSS_TOKENIZER.encode(text).join() || GPT_OSS_TOKENIZER.count(text) !== GPT_OSS_TOKENIZER.encode(text).length) diverging.push(JSON.stringify(text));
      }
      expect(diverging).toEqual([]);
    });

    it('the comparison bites: Qwen3\'s cases under Llama 3.1\'s file, or under gpt-oss, are far from exact', () => {
      for (const t of [tokenizer('llama3_1'), GPT_OSS_TOKENIZER]) {
        const r = run('qwen3', t);
        expect(r.exact).toBeLessThan(r.total / 2);
      }
    });
  });
} else {
  describe('each model\'s own tokenizer against the Rust tokenizers crate (not available)', () => {
    it('says plainly that the token oracle is not compared', () => {
      console.warn(sharedMissingNote('test/tokenizers/oracle.test.ts'));
      expect(existsSync(sharedPath('oracles'))).toBe(false);
    });
  });
}
