/** Loading a tokenizer.json (errors, the per-file cache), the encoder's steps on small files, the API, and the Hugging Face cache lookup. */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CompileError, isCompileError } from '../../src/diagnostics.js';
import { countTextTokens, encodeText } from '../../src/tokens.js';
import { countTokens, encode, findCachedTokenizer, GPT_OSS_TOKENIZER, hubCacheDir, loadTokenizer, resolveTokenizer, tokenizerFromJson } from '../../src/tokenizers/index.js';
import { buildNormalizer, buildPreTokenizer } from '../../src/tokenizers/pipeline.js';
import { translateOnigRegex } from '../../src/tokenizers/regex.js';
import { added, byteFallbackToy, byteLevelToy } from './toy.js';

const tmp = mkdtempSync(join(tmpdir(), 'hc-tokenizer-load-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
/** Write a file in a folder of its own; the file's path. */
function file(content: string | object, name = 'tokenizer.json'): string {
  const dir = join(tmp, `t${n++}`);
  mkdirSync(dir);
  const p = join(dir, name);
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  return p;
}

/** The one diagnostic of the CompileError `f` throws. */
function failure(f: () => unknown): { code: string; message: string } {
  try {
    f();
  } catch (e) {
    if (!isCompileError(e)) throw e;
    expect(e.diagnostics).toHaveLength(1);
    const d = e.diagnostics[0]!;
    expect(d.severity).toBe('error');
    return { code: d.code, message: d.message };
  }
  throw new Error('no error thrown');
}

describe('loadTokenizer: bad input is one plain error naming the file', () => {
  it('a missing file or folder', () => {
    const missing = join(tmp, 'nope', 'tokenizer.json');
    expect(failure(() => loadTokenizer(missing))).toEqual({ code: 'tokenizer/not-found', message: `${missing}: no such tokenizer file or folder` });
  });

  it('a folder that holds no tokenizer.json', () => {
    const dir = join(tmp, 'empty-model');
    mkdirSync(dir);
    expect(failure(() => loadTokenizer(dir))).toEqual({ code: 'tokenizer/not-found', message: `${dir}: the folder holds no tokenizer.json` });
  });

  it('an unreadable file (here a folder where the file should be)', () => {
    const dir = join(tmp, 'odd-model');
    mkdirSync(join(dir, 'tokenizer.json'), { recursive: true });
    const f = failure(() => loadTokenizer(dir));
    expect(f.code).toBe('tokenizer/unreadable');
    expect(f.message).toContain(join(dir, 'tokenizer.json'));
  });

  it('a file that is not JSON, or not UTF-8', () => {
    const p = file('{"model": ');
    const f = failure(() => loadTokenizer(p));
    expect(f.code).toBe('tokenizer/not-json');
    expect(f.message).toMatch(new RegExp(`^${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not a tokenizer.json: it is not JSON`));
    const q = file(Buffer.from([0x7b, 0xff, 0x7d]).toString('latin1'));
    writeFileSync(q, Buffer.from([0x7b, 0xff, 0x7d]));
    expect(failure(() => loadTokenizer(q)).code).toBe('tokenizer/not-json');
  });

  it('an unknown model type, normalizer or pre-tokenizer: unsupported, saying which', () => {
    const wordpiece = file({ model: { type: 'WordPiece', vocab: { a: 0 } } });
    const f = failure(() => loadTokenizer(wordpiece));
    expect(f.code).toBe('tokenizer/unsupported');
    expect(f.message).toBe(`${wordpiece}: its model type "WordPiece" is not supported: only BPE models are (Llama 3, Qwen, DeepSeek, Gemma, gpt-oss…)`);
    const pre = file(byteLevelToy({ pre_tokenizer: { type: 'BertPreTokenizer' } }));
    expect(failure(() => loadTokenizer(pre))).toEqual({ code: 'tokenizer/unsupported', message: `${pre}: pre_tokenizer: the pre-tokenizer type "BertPreTokenizer" is not supported` });
    const norm = file(byteLevelToy({ normalizer: { type: 'Sequence', normalizers: [{ type: 'Precompiled', precompiled_charsmap: 'AA==' }] } }));
    expect(failure(() => loadTokenizer(norm)).message).toBe(`${norm}: normalizer.normalizers[0]: the normalizer type "Precompiled" is not supported`);
    const possessive = file(byteLevelToy({ pre_tokenizer: { type: 'Split', pattern: { Regex: 'a++' }, behavior: 'Isolated', invert: false } }));
    const g = failure(() => loadTokenizer(possessive));
    expect(g.code).toBe('tokenizer/unsupported');
    expect(g.message).toContain('a possessive quantifier');
  });

  it('a broken file: no model, no vocab, a merge of tokens not in the vocabulary', () => {
    expect(failure(() => loadTokenizer(file({ added_tokens: [] })))).toMatchObject({ code: 'tokenizer/invalid', message: expect.stringContaining('not a usable tokenizer.json: it has no "model" object') });
    expect(failure(() => loadTokenizer(file({ model: { type: 'BPE', merges: [] } }))).message).toContain('its BPE model has no "vocab" object');
    const toy = byteLevelToy();
    (toy.model as { merges: string[] }).merges.push('zz q');
    const p = file(toy);
    expect(failure(() => loadTokenizer(p))).toEqual({ code: 'tokenizer/invalid', message: `${p}: not a usable tokenizer.json: merge 6 ("zz" "q"): "zz" is not in the vocabulary` });
    expect(failure(() => loadTokenizer(file('[1, 2]'))).message).toContain('it is not a JSON object');
  });

  it('errors are CompileErrors (exit 1 in the CLI), named tokenizer/…', () => {
    expect(() => loadTokenizer(join(tmp, 'nothing'))).toThrow(CompileError);
  });
});

describe('loadTokenizer: read once per version of a file', () => {
  it('the same file, or its folder, gives the same tokenizer until the file changes', () => {
    const p = file(byteLevelToy());
    const a = loadTokenizer(p);
    expect(loadTokenizer(p)).toBe(a);
    expect(loadTokenizer(join(p, '..'))).toBe(a);
    expect(a.source).toBe('file');
    expect(a.path).toBe(p);
    expect(a.sha256).toMatch(/^[0-9a-f]{64}$/);
    // a new version of the file (another size and time): read again
    const toy = byteLevelToy();
    (toy.added_tokens as unknown[]).push(added(302, '<tool>'));
    writeFileSync(p, JSON.stringify(toy));
    utimesSync(p, new Date(), new Date(Date.now() + 5000));
    const b = loadTokenizer(p);
    expect(b).not.toBe(a);
    expect(b.sha256).not.toBe(a.sha256);
    expect(b.encode('<tool>')).toEqual([302]);
    expect(a.encode('<tool>')).not.toEqual([302]);
  });
});

describe('encoding: added tokens first, then normalizer, pre-tokenizer and BPE', () => {
  const t = tokenizerFromJson(JSON.stringify(byteLevelToy()));

  it('byte-level BPE: merges by rank, bytes as ids', () => {
    expect(t.encode('hello world')).toEqual([259, 260, 111, 114, 108, 100]);
    expect(t.count('hello world')).toBe(6);
    expect(t.encode('')).toEqual([]);
    expect(t.encode('é')).toEqual([0xc3, 0xa9]);
  });

  it('every added token spelled in the text is its one id, special or not; nothing is added around the text', () => {
    expect(t.encode('<|a|>hello<think>')).toEqual([300, 259, 301]);
    expect(t.encode('<|a|<think>>')).toEqual([...t.encode('<|a|'), 301, ...t.encode('>')]);
    expect(t.tokenId('<|a|>')).toBe(300);
    expect(t.tokenId('hello')).toBe(259);
    expect(t.tokenId('nothing')).toBeUndefined();
  });

  it('leftmost-longest among added tokens; single_word, lstrip and rstrip as the crate reads them', () => {
    const toy = byteLevelToy({
      added_tokens: [added(300, '<a>'), added(301, '<a><b>'), added(302, 'ab', { single_word: true }), added(303, '<m>', { lstrip: true, rstrip: true })],
    });
    const u = tokenizerFromJson(JSON.stringify(toy));
    expect(u.encode('<a><b>')).toEqual([301]);
    expect(u.encode('<a><c>')).toEqual([300, ...u.encode('<c>')]);
    expect(u.encode('ab')).toEqual([302]);
    expect(u.encode('x ab y')).toEqual([...u.encode('x '), 302, ...u.encode(' y')]);
    expect(u.encode('xab')).not.toContain(302);
    expect(u.encode('x  <m>  y')).toEqual([...u.encode('x'), 303, ...u.encode('y')]);
  });

  it('normalized added tokens are found in the normalized text', () => {
    const toy = byteLevelToy({ normalizer: { type: 'Lowercase' }, added_tokens: [added(300, '<Q>', { normalized: true }), added(301, '<R>')] });
    const u = tokenizerFromJson(JSON.stringify(toy));
    expect(u.encode('<Q>')).toEqual([300]);
    expect(u.encode('<q>')).toEqual([300]);
    expect(u.encode('<R>')).toEqual([301]);
    expect(u.encode('<r>')).not.toContain(301);
  });

  it('ignore_merges: a word that is a token is that token', () => {
    const toy = byteLevelToy();
    const m = toy.model as { vocab: Record<string, number>; merges: string[]; ignore_merges: boolean };
    m.vocab.hel = 270; // reachable by no merge
    expect(tokenizerFromJson(JSON.stringify(toy)).encode('hel')).toEqual([256, 108]);
    m.ignore_merges = true;
    expect(tokenizerFromJson(JSON.stringify(toy)).encode('hel')).toEqual([270]);
  });

  it('SentencePiece-style BPE (Gemma): spaces as ▁, byte fallback for what the vocabulary lacks', () => {
    const g = tokenizerFromJson(JSON.stringify(byteFallbackToy()));
    expect(g.encode('ab ab€')).toEqual([303, 304, 1 + 0xe2, 1 + 0x82, 1 + 0xac]);
    expect(g.encode(' ab')).toEqual([304]);
  });
});

describe('Oniguruma patterns in JavaScript', () => {
  const re = (p: string) => new RegExp(translateOnigRegex(p), 'gu');
  it('\\s is Unicode White_Space (U+0085 yes, U+FEFF no); (?i:…) folds ſ to s', () => {
    expect(re('\\s').test('\u0085')).toBe(true);
    expect(re('\\s').test('\ufeff')).toBe(false);
    expect(re('[^\\s\\p{L}]').test('\ufeff')).toBe(true);
    expect('ſ\'S \'LL \'Re'.match(re("(?i:'s|'ll|'re)"))).toEqual(["'S", "'LL", "'Re"]);
    expect('\'ſ'.match(re("(?i:'s)"))).toEqual(['\'ſ']);
    expect(re('[!\\"#\\-]+').exec('a"#-b')?.[0]).toBe('"#-');
  });
  it('what has no faithful translation is refused', () => {
    for (const p of ['a*+', '(?>a)', '\\bword', '[a[b]]', '(?m:a)']) expect(() => translateOnigRegex(p), p).toThrow(/no faithful JavaScript translation/);
  });
});

describe('countTokens and encode', () => {
  it('by default, or with "gpt-oss", o200k_harmony through the project\'s BPE; control-token spellings count one each', () => {
    const text = 'The weather in Paris, «today» 🌧️';
    expect(countTokens(text)).toBe(countTextTokens(text));
    expect(encode(text)).toEqual(encodeText(text));
    expect(encode(text, { tokenizer: 'gpt-oss' })).toEqual(encodeText(text));
    expect(resolveTokenizer(undefined)).toBe(GPT_OSS_TOKENIZER);
    expect(encode('<|start|>user<|message|>hi<|end|>')).toEqual([200006, ...encodeText('user'), 200008, ...encodeText('hi'), 200007]);
    expect(countTokens('<|endofprompt|><|reserved_200013|><|reserved_200100|>')).toBe(2 + countTextTokens('<|reserved_200100|>'));
    expect(GPT_OSS_TOKENIZER.tokenId('<|channel|>')).toBe(200005);
  });

  it('a path, a folder or a loaded tokenizer', () => {
    const p = file(byteLevelToy());
    const t = loadTokenizer(p);
    expect(encode('hello', { tokenizer: p })).toEqual([259]);
    expect(countTokens('hello world', { tokenizer: join(p, '..') })).toBe(6);
    expect(encode('hello', { tokenizer: t })).toEqual([259]);
    expect(failure(() => countTokens('x', { tokenizer: join(tmp, 'missing.json') })).code).toBe('tokenizer/not-found');
  });
});

describe('the Hugging Face cache: a model id found without a flag, never the network', () => {
  const cache = join(tmp, 'hub');
  const repo = join(cache, 'models--Org--Model-1.5B');
  const snap = (rev: string, t: number) => {
    const dir = join(repo, 'snapshots', rev);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(byteLevelToy({ added_tokens: [added(300 + t, `<rev-${rev}>`)] })));
    utimesSync(dir, new Date(t * 1000), new Date(t * 1000));
  };
  snap('aaa111', 1);
  snap('bbb222', 3);
  snap('ccc333', 2);
  mkdirSync(join(repo, 'snapshots', 'ddd444'), { recursive: true }); // a snapshot with no tokenizer.json, the newest
  const env = { HF_HUB_CACHE: cache };

  it('the cache folder: HF_HUB_CACHE, else HF_HOME/hub, else XDG_CACHE_HOME/huggingface/hub, else ~/.cache/huggingface/hub', () => {
    expect(hubCacheDir({ env: { HF_HUB_CACHE: '/a', HF_HOME: '/b' } })).toBe('/a');
    expect(hubCacheDir({ env: { HF_HOME: '/b', XDG_CACHE_HOME: '/c' } })).toBe(join('/b', 'hub'));
    expect(hubCacheDir({ env: { XDG_CACHE_HOME: '/c' } })).toBe(join('/c', 'huggingface', 'hub'));
    expect(hubCacheDir({ env: {}, home: '/home/u' })).toBe(join('/home/u', '.cache', 'huggingface', 'hub'));
  });

  it('the snapshot refs/main names, else the newest one that holds a tokenizer.json', () => {
    expect(findCachedTokenizer('Org/Model-1.5B', { env })).toBe(join(repo, 'snapshots', 'bbb222', 'tokenizer.json'));
    mkdirSync(join(repo, 'refs'), { recursive: true });
    writeFileSync(join(repo, 'refs', 'main'), 'aaa111\n');
    expect(findCachedTokenizer('Org/Model-1.5B', { env })).toBe(join(repo, 'snapshots', 'aaa111', 'tokenizer.json'));
    writeFileSync(join(repo, 'refs', 'main'), 'ddd444');
    expect(findCachedTokenizer('Org/Model-1.5B', { env })).toBe(join(repo, 'snapshots', 'bbb222', 'tokenizer.json'));
    expect(findCachedTokenizer('Org/Other', { env })).toBeUndefined();
    expect(findCachedTokenizer('not a model id', { env })).toBeUndefined();
    expect(findCachedTokenizer('Org/Model-1.5B', { env: { HF_HUB_CACHE: join(tmp, 'no-cache') } })).toBeUndefined();
  });

  it('a model id as the tokenizer: loaded from the cache and named by its id; not cached, a plain error naming the cache', () => {
    writeFileSync(join(repo, 'refs', 'main'), 'ccc333');
    const t = resolveTokenizer('Org/Model-1.5B', { env });
    expect(t.name).toBe('Org/Model-1.5B');
    expect(t.encode('<rev-ccc333>')).toEqual([302]);
    expect(countTokens('<rev-ccc333>hello', { tokenizer: 'Org/Model-1.5B', hubCache: { env } })).toBe(2);
    const f = failure(() => resolveTokenizer('Org/Missing', { env }));
    expect(f.code).toBe('tokenizer/not-found');
    expect(f.message).toContain(`the Hugging Face cache (${cache}) holds no tokenizer.json for the model Org/Missing`);
  });
});

describe('pre-tokenizers and normalizers the oracle files do not use (the crate\'s split behaviours)', () => {
  const words = (pre: object, text: string) => buildPreTokenizer(pre)([{ text, first: true }]).map((p) => p.text);
  it('Split: Isolated, Removed, MergedWithPrevious, MergedWithNext, Contiguous, invert', () => {
    const split = (behavior: string, invert = false) => words({ type: 'Split', pattern: { String: ' ' }, behavior, invert }, 'a b  c');
    expect(split('Isolated')).toEqual(['a', ' ', 'b', ' ', ' ', 'c']);
    expect(split('Removed')).toEqual(['a', 'b', 'c']);
    expect(split('MergedWithPrevious')).toEqual(['a ', 'b ', ' ', 'c']);
    expect(split('MergedWithNext')).toEqual(['a', ' b', ' ', ' c']);
    expect(split('Contiguous')).toEqual(['a', ' ', 'b', '  ', 'c']);
    expect(split('Removed', true)).toEqual([' ', ' ', ' ']); // each space is a match of its own
  });
  it('Metaspace (spaces as ▁, prepended, split before each ▁), Digits, WhitespaceSplit', () => {
    expect(words({ type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true }, 'hello world')).toEqual(['▁hello', '▁world']);
    expect(words({ type: 'Metaspace', replacement: '▁', prepend_scheme: 'never', split: false }, 'hello world')).toEqual(['hello▁world']);
    expect(words({ type: 'Digits', individual_digits: true }, 'a123')).toEqual(['a', '1', '2', '3']);
    expect(words({ type: 'Digits', individual_digits: false }, 'a123b')).toEqual(['a', '123', 'b']);
    expect(words({ type: 'WhitespaceSplit' }, ' a \u0085b ')).toEqual(['a', 'b']);
  });
  it('normalizers: Sequence of NFC, Strip, Prepend, Replace, Lowercase', () => {
    const n = buildNormalizer({ type: 'Sequence', normalizers: [{ type: 'NFC' }, { type: 'Strip', strip_left: true, strip_right: true }, { type: 'Prepend', prepend: '▁' }, { type: 'Replace', pattern: { Regex: '\\s+' }, content: '▁' }, { type: 'Lowercase' }] });
    expect(n('  Cafe\u0301  Noir \u3000')).toBe('▁café▁noir');
    expect(n('   ')).toBe('');
  });
});

describe('a pattern that matches the empty string cuts the text there (as the crate\'s find_matches does)', () => {
  it('Isolated and Removed', () => {
    const words = (behavior: string) => buildPreTokenizer({ type: 'Split', pattern: { Regex: 'x*' }, behavior, invert: false })([{ text: 'abxxc', first: true }]).map((p) => p.text);
    expect(words('Isolated')).toEqual(['a', 'b', 'xx', 'c']);
    expect(words('Removed')).toEqual(['a', 'b', 'c']);
  });
});
