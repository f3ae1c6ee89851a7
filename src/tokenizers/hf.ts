/**
 * A Hugging Face `tokenizer.json` read into an encoder that gives the ids the Rust `tokenizers` crate
 * gives for `encode(text, add_special_tokens=False)`: added tokens split out first (each its one id),
 * then normalizer, pre-tokenizer and BPE model (pipeline.ts, bpe-model.ts); no BOS/EOS (the
 * post-processor adds nothing without special tokens), no truncation or padding (a count is the
 * whole text's). Only BPE models are read (every chat model this project renders for has one:
 * byte-level for Llama 3, Qwen3, DeepSeek V3 and gpt-oss, with byte fallback for Gemma 3).
 */
import { BpeModel, BpeModelError, type Vocabulary } from './bpe-model.js';
import {
  AddedTokenMatcher,
  buildNormalizer,
  buildPreTokenizer,
  PipelineError,
  readAddedTokens,
  type AddedToken,
  type Normalizer,
  type Piece,
  type PreTokenizer,
} from './pipeline.js';

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
    this.model = buildBpe(m);
    try {
      this.normalize = buildNormalizer(json.normalizer);
      this.preTokenize = buildPreTokenizer(json.pre_tokenizer);
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
}

/** The BPE model of the file's "model" object (its vocab object is taken over, not copied). */
function buildBpe(m: Record<string, unknown>): BpeModel {
  const vocabJson = m.vocab;
  if (typeof vocabJson !== 'object' || vocabJson === null || Array.isArray(vocabJson)) throw new TokenizerFileError('invalid', 'its BPE model has no "vocab" object');
  const vocab = new ObjectVocabulary(vocabJson as Record<string, unknown>);
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
