/**
 * The steps of a Hugging Face `tokenizer.json` before its model, as the Rust `tokenizers` crate runs
 * them for `encode(text, add_special_tokens=False)`:
 *
 * 1. added tokens: every added token (special or not) spelled in the text is split out as its one id,
 *    leftmost-longest (the crate's Aho-Corasick), those with `normalized: false` in the raw text,
 *    then the others in each remaining piece once it is normalized; `single_word`, `lstrip`, `rstrip`
 *    as the crate reads them;
 * 2. the normalizer, on each piece between added tokens;
 * 3. the pre-tokenizer: pieces split into words (Split, ByteLevel, Metaspace, Digits, Whitespace…);
 * 4. the model, word by word (bpe-model.ts).
 *
 * Each step is built once from the file's JSON; a step the crate has and this module does not is a
 * PipelineError naming it (never a silent approximation).
 */
import { onigRegex, RegexTranslationError } from './regex.js';

/** A part of the file this module cannot read: `unsupported` (a type or pattern it does not implement) or `invalid` (a malformed field). */
export class PipelineError extends Error {
  readonly kind: 'unsupported' | 'invalid';
  constructor(message: string, kind: 'unsupported' | 'invalid' = 'invalid') {
    super(message);
    this.name = 'PipelineError';
    this.kind = kind;
  }
}

type Json = unknown;
type JsonObject = Record<string, unknown>;

function isObject(v: Json): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(o: JsonObject, key: string, where: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new PipelineError(`${where}: "${key}" must be a string`);
  return v;
}

function bool(o: JsonObject, key: string, fallback: boolean): boolean {
  const v = o[key];
  return typeof v === 'boolean' ? v : fallback;
}

// ---------------------------------------------------------------------------------------------
// Patterns and split behaviours (normalizer.rs: find_matches, split)

/** A Split/Replace pattern: `{"String": s}` or `{"Regex": r}`. */
type Pattern = { readonly kind: 'string'; readonly s: string } | { readonly kind: 'regex'; readonly re: RegExp };

function pattern(v: Json, where: string): Pattern {
  if (!isObject(v)) throw new PipelineError(`${where}: "pattern" must be {"String": …} or {"Regex": …}`);
  if (typeof v.String === 'string') return { kind: 'string', s: v.String };
  if (typeof v.Regex === 'string') {
    try {
      return { kind: 'regex', re: onigRegex(v.Regex) };
    } catch (e) {
      if (e instanceof RegexTranslationError || e instanceof SyntaxError) throw new PipelineError(`${where}: ${e.message}`, 'unsupported');
      throw e;
    }
  }
  throw new PipelineError(`${where}: "pattern" must be {"String": …} or {"Regex": …}`);
}

/** The text cut into [start, end, isMatch] spans covering it all (empty text: one empty non-match). */
function findMatches(text: string, p: Pattern): [number, number, boolean][] {
  if (text === '') return [[0, 0, false]];
  const out: [number, number, boolean][] = [];
  let prev = 0;
  if (p.kind === 'string') {
    if (p.s !== '') {
      for (let at = text.indexOf(p.s); at >= 0; at = text.indexOf(p.s, at + p.s.length)) {
        if (prev !== at) out.push([prev, at, false]);
        out.push([at, at + p.s.length, true]);
        prev = at + p.s.length;
      }
    }
  } else {
    const re = p.re;
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const start = m.index;
      const end = start + m[0].length;
      if (end === start) re.lastIndex = end + ((text.codePointAt(end) ?? 0) > 0xffff ? 2 : 1); // an empty match: go on after it
      if (prev !== start) out.push([prev, start, false]);
      out.push([start, end, true]);
      prev = end;
    }
  }
  if (prev !== text.length) out.push([prev, text.length, false]);
  return out;
}

/** How a split keeps what the pattern matched. */
type Behavior = 'Removed' | 'Isolated' | 'MergedWithPrevious' | 'MergedWithNext' | 'Contiguous';
const BEHAVIORS: readonly Behavior[] = ['Removed', 'Isolated', 'MergedWithPrevious', 'MergedWithNext', 'Contiguous'];

/** Split a text by pattern matches (`invert` swaps matches and the rest); empty pieces dropped. */
function splitBy(text: string, p: Pattern, behavior: Behavior, invert = false): string[] {
  if (behavior === 'Isolated' && p.kind === 'regex') {
    // the common case (every byte-level file): matches and the text between them, in one pass
    const out: string[] = [];
    const re = p.re;
    re.lastIndex = 0;
    let prev = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const start = m.index;
      const end = start + m[0].length;
      if (prev !== start) out.push(text.slice(prev, start));
      if (end === start) re.lastIndex = end + ((text.codePointAt(end) ?? 0) > 0xffff ? 2 : 1); // an empty match cuts the text, and is dropped
      else out.push(m[0]);
      prev = end;
    }
    if (prev !== text.length) out.push(text.slice(prev));
    return out;
  }
  const matches = findMatches(text, p).map(([s, e, m]): [number, number, boolean] => [s, e, invert ? !m : m]);
  let spans: [number, number, boolean][]; // [start, end, remove]
  switch (behavior) {
    case 'Isolated':
      spans = matches.map(([s, e]) => [s, e, false]);
      break;
    case 'Removed':
      spans = matches;
      break;
    case 'Contiguous': {
      spans = [];
      let previous = false;
      for (const [s, e, m] of matches) {
        const last = spans[spans.length - 1];
        if (m === previous && last) last[1] = e;
        else spans.push([s, e, false]);
        previous = m;
      }
      break;
    }
    case 'MergedWithPrevious': {
      spans = [];
      let previous = false;
      for (const [s, e, m] of matches) {
        const last = spans[spans.length - 1];
        if (m && !previous && last) last[1] = e;
        else spans.push([s, e, false]);
        previous = m;
      }
      break;
    }
    case 'MergedWithNext': {
      spans = [];
      let previous = false;
      for (let k = matches.length - 1; k >= 0; k--) {
        const [s, e, m] = matches[k] as [number, number, boolean];
        const last = spans[spans.length - 1];
        if (m && !previous && last) last[0] = s;
        else spans.push([s, e, false]);
        previous = m;
      }
      spans.reverse();
      break;
    }
  }
  const out: string[] = [];
  for (const [s, e, remove] of spans) if (!remove && e > s) out.push(text.slice(s, e));
  return out;
}

function behavior(o: JsonObject, where: string): Behavior {
  const b = o.behavior;
  if (typeof b !== 'string' || !BEHAVIORS.includes(b as Behavior)) throw new PipelineError(`${where}: unknown split behavior ${JSON.stringify(b)}`);
  return b as Behavior;
}

// ---------------------------------------------------------------------------------------------
// Normalizers

/** A normalizer: text → text. */
export type Normalizer = (text: string) => string;

const NO_NORMALIZER: Normalizer = (t) => t;

/** Rust's char::is_whitespace (Unicode White_Space: all in the BMP, so one UTF-16 unit each). */
const WHITE = /\p{White_Space}/u;

/** The end of the white space that starts at `from` (a loop: a regex `\s+$` is quadratic on long runs). */
function whiteEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && WHITE.test(text.charAt(i))) i++;
  return i;
}

/** The start of the white space that ends at `to`, not before `floor`. */
function whiteStart(text: string, to: number, floor = 0): number {
  let i = to;
  while (i > floor && WHITE.test(text.charAt(i - 1))) i--;
  return i;
}

/** The normalizer of a `tokenizer.json` ("normalizer"), or the identity when it has none. */
export function buildNormalizer(v: Json, where = 'normalizer'): Normalizer {
  if (v === null || v === undefined) return NO_NORMALIZER;
  if (!isObject(v)) throw new PipelineError(`${where} must be an object or null`);
  const type = v.type;
  switch (type) {
    case 'Sequence': {
      const list = v.normalizers;
      if (!Array.isArray(list)) throw new PipelineError(`${where}: a Sequence needs "normalizers"`);
      const steps = list.map((n, k) => buildNormalizer(n, `${where}.normalizers[${k}]`));
      return steps.length === 0 ? NO_NORMALIZER : (t) => steps.reduce((acc, f) => f(acc), t);
    }
    case 'NFC':
    case 'NFD':
    case 'NFKC':
    case 'NFKD':
      return (t) => t.normalize(type);
    case 'Lowercase':
      return (t) => t.toLowerCase();
    case 'Strip': {
      const left = bool(v, 'strip_left', true);
      const right = bool(v, 'strip_right', true);
      return (t) => {
        const start = left ? whiteEnd(t, 0) : 0;
        return t.slice(start, right ? whiteStart(t, t.length, start) : t.length);
      };
    }
    case 'StripAccents':
      return (t) => t.replace(/\p{Mn}/gu, '');
    case 'Replace': {
      const p = pattern(v.pattern, where);
      const content = str(v, 'content', where);
      // a string pattern: its non-overlapping occurrences, left to right (split and join: no `$` patterns)
      if (p.kind === 'string') return p.s === '' ? (t) => t : (t) => t.split(p.s).join(content);
      return (t) => {
        if (t === '') return t;
        let s = '';
        for (const [a, b, m] of findMatches(t, p)) s += m ? content : t.slice(a, b);
        return s;
      };
    }
    case 'Prepend': {
      const prepend = str(v, 'prepend', where);
      return (t) => (t === '' ? t : prepend + t);
    }
    default:
      throw new PipelineError(`${where}: the normalizer type ${JSON.stringify(type)} is not supported`, 'unsupported');
  }
}

// ---------------------------------------------------------------------------------------------
// Pre-tokenizers

/** A piece of text on its way to the model; `first` when it starts the original text (Metaspace's prepend_scheme "first"). */
export interface Piece {
  readonly text: string;
  readonly first: boolean;
}

/** A pre-tokenizer: pieces → pieces. */
export type PreTokenizer = (pieces: readonly Piece[]) => Piece[];

function eachPiece(f: (p: Piece) => string[]): PreTokenizer {
  return (pieces) => {
    const out: Piece[] = [];
    for (const p of pieces) {
      const parts = f(p);
      parts.forEach((text, k) => {
        if (text !== '') out.push({ text, first: p.first && k === 0 });
      });
    }
    return out;
  };
}

/** GPT-2's bytes → printable characters (bytes_to_unicode): the alphabet of byte-level BPE. */
const BYTE_CHARS: readonly string[] = (() => {
  const printable: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) printable.push(b);
  for (let b = 0xa1; b <= 0xac; b++) printable.push(b);
  for (let b = 0xae; b <= 0xff; b++) printable.push(b);
  const chars: string[] = new Array(256);
  let extra = 0;
  for (let b = 0; b < 256; b++) chars[b] = String.fromCharCode(printable.includes(b) ? b : 256 + extra++);
  return chars;
})();

const BYTE_CODES = Uint16Array.from(BYTE_CHARS, (c) => c.charCodeAt(0));
const ASCII_ONLY = /^[\x00-\x7f]*$/;
const CHUNK = 4096;

/** A text's UTF-8 bytes as byte-level characters. */
export function byteLevel(text: string): string {
  const bytes: ArrayLike<number> = ASCII_ONLY.test(text) ? { length: text.length } : Buffer.from(text, 'utf8');
  const ascii = !(bytes instanceof Uint8Array);
  const codes = new Uint16Array(bytes.length);
  for (let i = 0; i < codes.length; i++) codes[i] = BYTE_CODES[ascii ? text.charCodeAt(i) : (bytes[i] as number)] as number;
  if (codes.length <= CHUNK) return String.fromCharCode.apply(null, codes as unknown as number[]);
  let s = '';
  for (let i = 0; i < codes.length; i += CHUNK) s += String.fromCharCode.apply(null, codes.subarray(i, i + CHUNK) as unknown as number[]);
  return s;
}

/** The byte each byte-level character stands for (-1: not a byte-level character): byte-level tokens decoded back to bytes. */
const BYTE_OF: Int16Array = (() => {
  const out = new Int16Array(512).fill(-1);
  BYTE_CODES.forEach((code, b) => {
    out[code] = b;
  });
  return out;
})();

/** The bytes a byte-level token spells (its characters back to bytes); undefined when a character is not byte-level. */
export function byteLevelBytes(token: string): Uint8Array | undefined {
  const out = new Uint8Array(token.length);
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    const b = c < 512 ? BYTE_OF[c] : -1;
    if (b === undefined || b < 0) return undefined;
    out[i] = b;
  }
  return out;
}

/** GPT-2's split (the ByteLevel pre-tokenizer with use_regex). */
const GPT2_SPLIT: Pattern = { kind: 'regex', re: onigRegex("'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+") };
const DIGIT: Pattern = { kind: 'regex', re: /[0-9]/gu };
const WHITESPACE_WORDS: Pattern = { kind: 'regex', re: onigRegex('\\w+|[^\\w\\s]+') };
const WHITE_CHAR: Pattern = { kind: 'regex', re: /\p{White_Space}/gu };
/** Rust's char::is_ascii_punctuation or Unicode punctuation (the Punctuation pre-tokenizer). */
const PUNCTUATION: Pattern = { kind: 'regex', re: /[\p{P}!-/:-@[-`{-~]/gu };

/** The pre-tokenizer of a `tokenizer.json` ("pre_tokenizer"), or none. */
export function buildPreTokenizer(v: Json, where = 'pre_tokenizer'): PreTokenizer {
  if (v === null || v === undefined) return (pieces) => [...pieces];
  if (!isObject(v)) throw new PipelineError(`${where} must be an object or null`);
  const type = v.type;
  switch (type) {
    case 'Sequence': {
      const list = v.pretokenizers;
      if (!Array.isArray(list)) throw new PipelineError(`${where}: a Sequence needs "pretokenizers"`);
      const steps = list.map((p, k) => buildPreTokenizer(p, `${where}.pretokenizers[${k}]`));
      return (pieces) => steps.reduce<Piece[]>((acc, f) => f(acc), [...pieces]);
    }
    case 'Split': {
      const p = pattern(v.pattern, where);
      const b = behavior(v, where);
      const invert = bool(v, 'invert', false);
      return eachPiece((piece) => splitBy(piece.text, p, b, invert));
    }
    case 'ByteLevel': {
      const addPrefixSpace = bool(v, 'add_prefix_space', true);
      const useRegex = bool(v, 'use_regex', true);
      return eachPiece((piece) => {
        const text = addPrefixSpace && !piece.text.startsWith(' ') ? ` ${piece.text}` : piece.text;
        return (useRegex ? splitBy(text, GPT2_SPLIT, 'Isolated') : [text]).map(byteLevel);
      });
    }
    case 'Metaspace': {
      const replacement = str(v, 'replacement', where);
      if ([...replacement].length !== 1) throw new PipelineError(`${where}: "replacement" must be one character`);
      // prepend_scheme (tokenizers ≥ 0.19), else the older add_prefix_space
      const scheme = typeof v.prepend_scheme === 'string' ? v.prepend_scheme : bool(v, 'add_prefix_space', true) ? 'always' : 'never';
      if (scheme !== 'always' && scheme !== 'first' && scheme !== 'never') throw new PipelineError(`${where}: unknown prepend_scheme ${JSON.stringify(scheme)}`);
      const split = bool(v, 'split', true);
      const rep: Pattern = { kind: 'string', s: replacement };
      return eachPiece((piece) => {
        let text = piece.text.split(' ').join(replacement);
        if ((scheme === 'always' || (scheme === 'first' && piece.first)) && !text.startsWith(replacement)) text = replacement + text;
        return split ? splitBy(text, rep, 'MergedWithNext') : [text];
      });
    }
    case 'Digits': {
      const individual = bool(v, 'individual_digits', false);
      return eachPiece((piece) => splitBy(piece.text, DIGIT, individual ? 'Isolated' : 'Contiguous'));
    }
    case 'Whitespace':
      return eachPiece((piece) => splitBy(piece.text, WHITESPACE_WORDS, 'Removed', true));
    case 'WhitespaceSplit':
      return eachPiece((piece) => splitBy(piece.text, WHITE_CHAR, 'Removed'));
    case 'Punctuation': {
      const b = v.behavior === undefined ? 'Isolated' : behavior(v, where);
      return eachPiece((piece) => splitBy(piece.text, PUNCTUATION, b));
    }
    default:
      throw new PipelineError(`${where}: the pre-tokenizer type ${JSON.stringify(type)} is not supported`, 'unsupported');
  }
}

/**
 * When a pre-tokenizer starts with a Split by a regular expression that keeps matches and the text
 * between them as pieces (`Isolated`, not inverted: every byte-level file of this project's models),
 * that pattern and the rest of the pre-tokenizer (run on each piece the split makes): the pieces can
 * then be made again for a changed part of a text alone (incremental.ts). Undefined otherwise.
 */
export function leadingSplit(v: Json): { readonly re: RegExp; readonly rest: PreTokenizer } | undefined {
  if (!isObject(v)) return undefined;
  const steps = v.type === 'Sequence' && Array.isArray(v.pretokenizers) ? (v.pretokenizers as Json[]) : [v];
  const head = steps[0];
  if (!isObject(head) || head.type !== 'Split' || head.behavior !== 'Isolated' || bool(head, 'invert', false)) return undefined;
  const p = pattern(head.pattern, 'pre_tokenizer');
  if (p.kind !== 'regex') return undefined;
  const rest = steps.slice(1).map((s, k) => buildPreTokenizer(s, `pre_tokenizer.pretokenizers[${k + 1}]`));
  return { re: p.re, rest: (pieces) => rest.reduce<Piece[]>((acc, f) => f(acc), [...pieces]) };
}

// ---------------------------------------------------------------------------------------------
// Added tokens (added_vocabulary.rs)

/** An added token of the file, as `added_tokens` lists it. */
export interface AddedToken {
  readonly id: number;
  readonly content: string;
  readonly special: boolean;
  readonly singleWord: boolean;
  readonly lstrip: boolean;
  readonly rstrip: boolean;
  readonly normalized: boolean;
}

interface TrieNode {
  readonly next: Map<number, TrieNode>;
  token: AddedToken | undefined;
}

/** A text cut at the added tokens spelled in it: text pieces and token ids, in order. */
export type Segment = { readonly text: string; readonly start: number } | { readonly id: number };

// Rust's char::is_alphanumeric (ends_with_word / starts_with_word of single_word tokens)
const WORD_BEFORE = /[\p{Alphabetic}\p{N}]$/u;
const WORD_AFTER = /^[\p{Alphabetic}\p{N}]/u;

/** Leftmost-longest matching of a set of added tokens (the crate's Aho-Corasick, MatchKind::LeftmostLongest). */
export class AddedTokenMatcher {
  private readonly root: TrieNode = { next: new Map(), token: undefined };
  /** 1 for each UTF-16 unit some spelling starts with: the others are passed over without a look-up. */
  private readonly starts = new Uint8Array(65536);
  readonly size: number;

  constructor(tokens: readonly { readonly spelling: string; readonly token: AddedToken }[]) {
    let size = 0;
    for (const { spelling, token } of tokens) {
      if (spelling === '') continue;
      let node = this.root;
      for (let i = 0; i < spelling.length; i++) {
        const c = spelling.charCodeAt(i);
        let n = node.next.get(c);
        if (!n) {
          n = { next: new Map(), token: undefined };
          node.next.set(c, n);
        }
        node = n;
      }
      this.starts[spelling.charCodeAt(0)] = 1;
      // two tokens with one spelling: the first pattern wins in the crate's automaton
      if (!node.token) {
        node.token = token;
        size++;
      }
    }
    this.size = size;
  }

  /** Cut a text at the added tokens spelled in it (`start` of a text piece is its offset in `text`). */
  split(text: string): Segment[] {
    if (this.size === 0 || text === '') return text === '' ? [] : [{ text, start: 0 }];
    const out: Segment[] = [];
    let from = 0; // the end of the last token split out (start_offset)
    let i = 0;
    const root = this.root;
    const starts = this.starts;
    while (i < text.length) {
      if (starts[text.charCodeAt(i)] === 0) {
        i++;
        continue;
      }
      let node = root.next.get(text.charCodeAt(i));
      if (!node) {
        i++;
        continue;
      }
      let match: AddedToken | undefined;
      let matchEnd = i;
      for (let j = i + 1; ; j++) {
        if (node.token) {
          match = node.token;
          matchEnd = j;
        }
        if (j >= text.length) break;
        const n: TrieNode | undefined = node.next.get(text.charCodeAt(j));
        if (!n) break;
        node = n;
      }
      if (!match) {
        i++;
        continue;
      }
      let start = i;
      let stop = matchEnd;
      i = matchEnd; // the automaton goes on after the match, whether or not it is kept
      if (match.singleWord) {
        const startSpace = start === 0 || !WORD_BEFORE.test(text.slice(Math.max(0, start - 2), start));
        const stopSpace = stop === text.length || !WORD_AFTER.test(text.slice(stop, stop + 2));
        if (!startSpace || !stopSpace) continue;
      }
      // the white space before (lstrip) and after (rstrip) goes with the token; not what an earlier token took
      if (match.lstrip) start = whiteStart(text, start, from);
      if (match.rstrip) {
        stop = whiteEnd(text, stop);
        i = stop;
      }
      if (from < start) out.push({ text: text.slice(from, start), start: from });
      out.push({ id: match.id });
      from = stop;
    }
    if (from < text.length) out.push({ text: text.slice(from), start: from });
    return out;
  }
}

/** The added tokens of a file (its `added_tokens` array). */
export function readAddedTokens(v: Json): AddedToken[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new PipelineError('"added_tokens" must be an array');
  return v.map((t, k) => {
    if (!isObject(t) || typeof t.content !== 'string' || typeof t.id !== 'number' || !Number.isInteger(t.id) || t.id < 0) {
      throw new PipelineError(`added_tokens[${k}] must be {"id": integer, "content": string, …}`);
    }
    return {
      id: t.id,
      content: t.content,
      special: bool(t, 'special', false),
      singleWord: bool(t, 'single_word', false),
      lstrip: bool(t, 'lstrip', false),
      rstrip: bool(t, 'rstrip', false),
      normalized: bool(t, 'normalized', !bool(t, 'special', false)),
    };
  });
}
