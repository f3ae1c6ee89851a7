/**
 * A Hugging Face `tokenizer.json` read into an encoder that gives the ids the Rust `tokenizers` crate
 * gives for `encode(text, add_special_tokens=False)`: added tokens split out first (each its one id),
 * then normalizer, pre-tokenizer and BPE model (pipeline.ts, bpe-model.ts); no BOS/EOS (the
 * post-processor adds nothing without special tokens), no truncation or padding (a count is the
 * whole text's). Only BPE models are read (every chat model this project renders for has one:
 * byte-level for Llama 3, Qwen3, DeepSeek V3 and gpt-oss, with byte fallback for Gemma 3).
 */
import { BpeModel, BpeModelError, type Vocabulary } from './bpe-model.js';
import { encodeRun, TRACK_FROM, type Encoding, type LeadingSplit, type Run } from './incremental.js';
import {
  AddedTokenMatcher,
  buildNormalizer,
  byteLevelBytes,
  buildPreTokenizer,
  leadingSplit,
  PipelineError,
  readAddedTokens,
  type AddedToken,
  type Normalizer,
  type Piece,
  type PreTokenizer,
} from './pipeline.js';
import { Readahead } from './readahead.js';

/** Why a `tokenizer.json` cannot be read: `unsupported` (a part this project does not implement) or `invalid` (a broken file). */
export class TokenizerFileError extends Error {
  readonly kind: 'unsupported' | 'invalid';
  constructor(kind: 'unsupported' | 'invalid', message: string) {
    super(message);
    this.name = 'TokenizerFileError';
    this.kind = kind;
  }
}

/** A parsed `tokenizer.json`: its encoder and what it holds. */
export class HfTokenizer {
  /** The model's type (always BPE here). */
  readonly modelType: string;
  /** The added tokens of the file. */
  readonly addedTokens: readonly AddedToken[];
  private readonly model: BpeModel;
  private readonly normalize: Normalizer;
  private readonly preTokenize: PreTokenizer;
  private readonly rawMatcher: AddedTokenMatcher;
  private readonly normalizedMatcher: AddedTokenMatcher;
  private readonly addedBySpelling: ReadonlyMap<string, number>;
  private readonly addedById: ReadonlyMap<number, string>;
  private readonly decoding: Decoding;
  private readonly vocabulary: ObjectVocabulary;
  private readonly surfaces = new Map<number, Uint8Array>();
  private readonly split: LeadingSplit | undefined;

  private constructor(json: Record<string, unknown>) {
    const model = json.model;
    if (typeof model !== 'object' || model === null || Array.isArray(model)) throw new TokenizerFileError('invalid', 'it has no "model" object');
    const m = model as Record<string, unknown>;
    // files written by old versions have no "type" but a BPE's "merges"
    const type = typeof m.type === 'string' ? m.type : m.merges !== undefined ? 'BPE' : undefined;
    if (type !== 'BPE') {
      throw new TokenizerFileError('unsupported', `its model type ${type === undefined ? '(none)' : JSON.stringify(type)} is not supported: only BPE models are (Llama 3, Qwen, DeepSeek, Gemma, gpt-oss…)`);
    }
    this.modelType = type;
    if (m.dropout !== null && m.dropout !== undefined && m.dropout !== 0) throw new TokenizerFileError('unsupported', `its BPE dropout (${String(m.dropout)}) makes encoding random: not supported`);
    this.vocabulary = vocabularyOf(m);
    this.model = buildBpe(m, this.vocabulary);
    this.decoding = decodingOf(json);
    try {
      this.normalize = buildNormalizer(json.normalizer);
      this.preTokenize = buildPreTokenizer(json.pre_tokenizer);
      const lead = leadingSplit(json.pre_tokenizer);
      this.split = lead && { ...lead, reach: Readahead.of(lead.re) };
      this.addedTokens = readAddedTokens(json.added_tokens);
    } catch (e) {
      if (e instanceof PipelineError) throw new TokenizerFileError(e.kind, e.message);
      throw e;
    }
    this.rawMatcher = new AddedTokenMatcher(this.addedTokens.filter((t) => !t.normalized).map((t) => ({ spelling: t.content, token: t })));
    this.normalizedMatcher = new AddedTokenMatcher(this.addedTokens.filter((t) => t.normalized).map((t) => ({ spelling: this.normalize(t.content), token: t })));
    const spellings = new Map<string, number>();
    for (const t of this.addedTokens) if (!spellings.has(t.content)) spellings.set(t.content, t.id);
    this.addedBySpelling = spellings;
    const byId = new Map<number, string>();
    // read back as the decoder reads any token (Gemma's `▁▁` is an added token the model also makes from two spaces)
    for (const t of this.addedTokens) if (!byId.has(t.id)) byId.set(t.id, replaced(t.content, this.decoding.replace));
    this.addedById = byId;
  }

  /** Read a `tokenizer.json`'s parsed JSON (TokenizerFileError when it cannot be read). */
  static fromJson(json: unknown): HfTokenizer {
    if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new TokenizerFileError('invalid', 'it is not a JSON object');
    return new HfTokenizer(json as Record<string, unknown>);
  }

  /** The token ids of a text. */
  encode(text: string): number[] {
    const out: number[] = [];
    for (const seg of this.rawMatcher.split(text)) {
      if ('id' in seg) {
        out.push(seg.id);
        continue;
      }
      const normalized = this.normalize(seg.text);
      const pieces: Piece[] = [];
      let firstPiece = seg.start === 0;
      for (const sub of this.normalizedMatcher.split(normalized)) {
        if ('id' in sub) {
          this.flush(pieces, out);
          out.push(sub.id);
        } else {
          pieces.push({ text: sub.text, first: firstPiece && sub.start === 0 });
          this.flush(pieces, out);
        }
        firstPiece = false;
      }
    }
    return out;
  }

  /**
   * The ids of a text with its runs kept (incremental.ts); with `base` (an earlier text's
   * encoding), what did not change is taken from it: the same ids as encode(text).
   */
  encodeKept(text: string, base?: Encoding): Encoding {
    const items: (number | Run)[] = [];
    const parts: (Int32Array | number)[] = [];
    const baseRuns = base ? base.items.filter((x): x is Run => typeof x !== 'number') : [];
    let byText: Map<string, Run> | undefined;
    const same = (t: string, first: boolean): Run | undefined => {
      if (baseRuns.length === 0) return undefined;
      if (byText === undefined) {
        byText = new Map();
        for (const r of baseRuns) if (!r.first && !byText.has(r.text)) byText.set(r.text, r);
      }
      if (first) return baseRuns.find((r) => r.first && r.text === t);
      return byText.get(t);
    };
    let runs = 0;
    const order: (number | { text: string; first: boolean })[] = [];
    for (const seg of this.rawMatcher.split(text)) {
      if ('id' in seg) {
        order.push(seg.id);
        continue;
      }
      const normalized = this.normalize(seg.text);
      let firstPiece = seg.start === 0;
      for (const sub of this.normalizedMatcher.split(normalized)) {
        if ('id' in sub) order.push(sub.id);
        else {
          order.push({ text: sub.text, first: firstPiece && sub.start === 0 });
          runs++;
        }
        firstPiece = false;
      }
    }
    let k = 0;
    let encoded = 0;
    try {
      for (const x of order) {
        if (typeof x === 'number') {
          items.push(x);
          parts.push(x);
          continue;
        }
        const index = k++;
        let run = same(x.text, x.first);
        if (run === undefined) {
          if (this.split !== undefined && x.text.length >= TRACK_FROM) {
            // the run it replaces: the one at its place counted from the start, else from the end
            const near = baseRuns[index] ?? baseRuns[baseRuns.length - (runs - index)];
            run = encodeRun(x.text, x.first, this.split, (word, out) => this.model.tokenize(word, out), near);
            encoded += run.made ?? 0;
          } else {
            encoded++;
            const out: number[] = [];
            this.flush([{ text: x.text, first: x.first }], out);
            run = { text: x.text, first: x.first, ids: Int32Array.from(out) };
          }
        }
        items.push(run);
        parts.push(run.ids);
      }
    } catch (e) {
      if (e instanceof BpeModelError) throw new TokenizerFileError('invalid', e.message);
      throw e;
    }
    // one array of the runs' ids and the added tokens' (each run's copied at once)
    let total = 0;
    for (const p of parts) total += typeof p === 'number' ? 1 : p.length;
    const ids = parts.length === 1 && typeof parts[0] !== 'number' ? (parts[0] as Int32Array) : new Int32Array(total);
    if (ids !== parts[0]) {
      let at = 0;
      for (const p of parts) {
        if (typeof p === 'number') ids[at++] = p;
        else {
          ids.set(p, at);
          at += p.length;
        }
      }
    }
    return { text, ids, items, encoded };
  }

  /** Pre-tokenize and encode the waiting pieces. */
  private flush(pieces: Piece[], out: number[]): void {
    if (pieces.length === 0) return;
    try {
      for (const word of this.preTokenize(pieces)) this.model.tokenize(word.text, out);
    } catch (e) {
      if (e instanceof BpeModelError) throw new TokenizerFileError('invalid', e.message);
      throw e;
    }
    pieces.length = 0;
  }

  /**
   * The bytes a token stands for in text, as the file's decoder reads it back: an added token's
   * content; a byte-level token's bytes; `▁` (or what the decoder replaces) as a space, `<0xNN>` as
   * its byte. Empty for an id the file does not have. Used to place tokens in the text they encode.
   */
  surface(id: number): Uint8Array {
    let s = this.surfaces.get(id);
    if (s === undefined) {
      const added = this.addedById.get(id);
      const token = this.vocabulary.spelling(id);
      s = added !== undefined ? Buffer.from(added, 'utf8') : token === undefined ? new Uint8Array(0) : decodeToken(token, this.decoding);
      if (this.surfaces.size >= 200_000) this.surfaces.clear();
      this.surfaces.set(id, s);
    }
    return s;
  }

  /** The id of a token by its spelling: an added token, else a vocabulary entry; undefined when neither. */
  tokenId(spelling: string): number | undefined {
    return this.addedBySpelling.get(spelling) ?? this.model.vocab.get(spelling);
  }
}

/** The vocabulary of a BPE model: the file's own "vocab" object, read in place (no copy into a Map: 0.5 s less on Gemma's 262,144 tokens). */
class ObjectVocabulary implements Vocabulary {
  private readonly tokens: Record<string, number>;
  constructor(tokens: Record<string, unknown>) {
    // no prototype: a token spelled "constructor" or "__proto__" is only ever an own entry
    Object.setPrototypeOf(tokens, null);
    for (const token of Object.keys(tokens)) {
      const id = tokens[token];
      if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) throw new TokenizerFileError('invalid', `vocab[${JSON.stringify(token)}] is not a token id`);
    }
    this.tokens = tokens as Record<string, number>;
  }
  get(token: string): number | undefined {
    return this.tokens[token];
  }
  private byId: string[] | undefined;
  /** The spelling of a token by its id (the reverse table is built on first use). */
  spelling(id: number): string | undefined {
    if (this.byId === undefined) {
      const byId: string[] = [];
      for (const token of Object.keys(this.tokens)) byId[this.tokens[token] as number] = token;
      this.byId = byId;
    }
    return this.byId[id];
  }
}

/** How the file's decoder turns a token back into text: byte-level characters, replaced strings, `<0xNN>` bytes. */
interface Decoding {
  readonly byteLevel: boolean;
  readonly byteFallback: boolean;
  readonly replace: readonly (readonly [string, string])[];
}

/**
 * The decoding of a file: its `decoder` (ByteLevel, Metaspace, Replace, ByteFallback, in a Sequence);
 * without one, what its steps imply: a ByteLevel pre-tokenizer, the model's byte_fallback, a
 * Metaspace pre-tokenizer's or a normalizer's replacement of the space read back as a space.
 */
function decodingOf(json: Record<string, unknown>): Decoding {
  const steps = (v: unknown, key: string): Record<string, unknown>[] => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return [];
    const o = v as Record<string, unknown>;
    const list = o[key];
    return [o, ...(Array.isArray(list) ? list.flatMap((x) => steps(x, key)) : [])];
  };
  const stringPattern = (o: Record<string, unknown>): string | undefined => {
    const p = o.pattern;
    return typeof p === 'object' && p !== null && typeof (p as Record<string, unknown>).String === 'string' ? ((p as Record<string, string>).String as string) : undefined;
  };
  const decoder = steps(json.decoder, 'decoders');
  const pre = steps(json.pre_tokenizer, 'pretokenizers');
  const replace: [string, string][] = [];
  const metaspace = (o: Record<string, unknown>) => replace.push([typeof o.replacement === 'string' ? o.replacement : '\u2581', ' ']);
  if (decoder.length) {
    for (const o of decoder) {
      const from = stringPattern(o);
      if (o.type === 'Replace' && from !== undefined && typeof o.content === 'string') replace.push([from, o.content]);
      if (o.type === 'Metaspace') metaspace(o);
    }
  } else {
    for (const o of pre) if (o.type === 'Metaspace') metaspace(o);
    // a normalizer that writes the space as another character (Gemma's "▁"): that character reads back as a space
    for (const o of steps(json.normalizer, 'normalizers')) {
      if (o.type === 'Replace' && stringPattern(o) === ' ' && typeof o.content === 'string' && o.content !== '') replace.push([o.content, ' ']);
    }
  }
  const model = typeof json.model === 'object' && json.model !== null ? (json.model as Record<string, unknown>) : {};
  return {
    byteLevel: (decoder.length ? decoder : pre).some((o) => o.type === 'ByteLevel'),
    byteFallback: decoder.some((o) => o.type === 'ByteFallback') || model.byte_fallback === true,
    replace,
  };
}

/** A vocabulary token's bytes in text under a decoding. */
function decodeToken(token: string, d: Decoding): Uint8Array {
  if (d.byteLevel) {
    const bytes = byteLevelBytes(token);
    if (bytes !== undefined) return bytes;
  }
  if (d.byteFallback) {
    const m = /^<0x([0-9A-Fa-f]{2})>$/.exec(token);
    if (m) return Uint8Array.of(parseInt(m[1] as string, 16));
  }
  return Buffer.from(replaced(token, d.replace), 'utf8');
}

/** A text with the decoder's replacements made. */
function replaced(text: string, replace: Decoding['replace']): string {
  let out = text;
  for (const [from, to] of replace) if (from !== '') out = out.split(from).join(to);
  return out;
}

/** The vocabulary of the file's "model" object (its vocab object is taken over, not copied). */
function vocabularyOf(m: Record<string, unknown>): ObjectVocabulary {
  const vocabJson = m.vocab;
  if (typeof vocabJson !== 'object' || vocabJson === null || Array.isArray(vocabJson)) throw new TokenizerFileError('invalid', 'its BPE model has no "vocab" object');
  return new ObjectVocabulary(vocabJson as Record<string, unknown>);
}

/** The BPE model of the file's "model" object over its vocabulary. */
function buildBpe(m: Record<string, unknown>, vocab: ObjectVocabulary): BpeModel {
  const merges = m.merges ?? [];
  if (!Array.isArray(merges)) throw new TokenizerFileError('invalid', 'its BPE "merges" is not an array');
  const optString = (key: string): string | null => {
    const v = m[key];
    if (v === null || v === undefined) return null;
    if (typeof v !== 'string') throw new TokenizerFileError('invalid', `its BPE "${key}" is not a string`);
    return v;
  };
  try {
    return new BpeModel(vocab, merges, {
      ignoreMerges: m.ignore_merges === true,
      byteFallback: m.byte_fallback === true,
      unkToken: optString('unk_token'),
      fuseUnk: m.fuse_unk === true,
      continuingSubwordPrefix: optString('continuing_subword_prefix'),
      endOfWordSuffix: optString('end_of_word_suffix'),
    });
  } catch (e) {
    if (e instanceof BpeModelError) throw new TokenizerFileError('invalid', e.message);
    throw e;
  }
}
