/** o200k_harmony token decoding for the Harmony parser: each id's bytes, the special-token spellings, and UTF-8 checks as Rust does them. */
import { o200kRanks } from '../o200k-ranks.js';
import { encodeText } from '../tokens.js';

/** Ids of the Harmony control tokens the parser reacts to. */
export const TOKEN = Object.freeze({
  startoftext: 199998,
  endoftext: 199999,
  return: 200002,
  constrain: 200003,
  channel: 200005,
  start: 200006,
  end: 200007,
  message: 200008,
  call: 200012,
});

/** The first special id of o200k_harmony (`<|startoftext|>`). */
export const FIRST_SPECIAL_ID = 199998;
/** The last special id: openai-harmony registers `<|reserved_…|>` up to 201088 inclusive. */
export const LAST_SPECIAL_ID = 201088;

// The named specials; every other id in FIRST_SPECIAL_ID..LAST_SPECIAL_ID is `<|reserved_{id}|>`.
// (gpt-tokenizer names 200018 `<|endofprompt|>` and stops at 201087; openai-harmony does neither, so we
// build the table ourselves from openai-harmony's list.)
const NAMED_SPECIALS: ReadonlyMap<number, string> = new Map([
  [199998, '<|startoftext|>'],
  [199999, '<|endoftext|>'],
  [200002, '<|return|>'],
  [200003, '<|constrain|>'],
  [200005, '<|channel|>'],
  [200006, '<|start|>'],
  [200007, '<|end|>'],
  [200008, '<|message|>'],
  [200012, '<|call|>'],
]);

const SPECIAL_SPELLINGS: string[] = [];
const SPECIAL_IDS = new Map<string, number>();
for (let id = FIRST_SPECIAL_ID; id <= LAST_SPECIAL_ID; id++) {
  const spelling = NAMED_SPECIALS.get(id) ?? `<|reserved_${id}|>`;
  SPECIAL_SPELLINGS.push(spelling);
  SPECIAL_IDS.set(spelling, id);
}

/** Longest special spelling (`<|reserved_200000|>`), in UTF-16 units (all ASCII). */
export const MAX_SPECIAL_LENGTH = 19;

/** The id of a special-token spelling (`<|start|>` → 200006), or undefined when the text is no special of o200k_harmony. */
export function specialIdOf(spelling: string): number | undefined {
  return SPECIAL_IDS.get(spelling);
}

/** The spelling of a special id, or undefined when the id is not a special. */
export function specialSpelling(id: number): string | undefined {
  return id >= FIRST_SPECIAL_ID && id <= LAST_SPECIAL_ID ? SPECIAL_SPELLINGS[id - FIRST_SPECIAL_ID] : undefined;
}

/** True for the ids that end a message (openai-harmony's parser stop tokens: `<|return|>`, `<|call|>`, `<|end|>`). */
export function isStopToken(id: number): boolean {
  return id === TOKEN.end || id === TOKEN.call || id === TOKEN.return;
}

const byteCache = new Map<number, Uint8Array>();

/**
 * What a token id decodes to: its text when its bytes are valid UTF-8 on their own (specials as their
 * spelling), its bytes when they are not, undefined for an id the vocabulary does not have.
 */
export function tokenPiece(id: number): string | Uint8Array | undefined {
  if (!Number.isInteger(id) || id < 0) return undefined;
  if (id >= FIRST_SPECIAL_ID) return specialSpelling(id);
  const v = o200kRanks()[id];
  if (typeof v === 'string' || v === undefined) return v;
  let bytes = byteCache.get(id);
  if (bytes === undefined) {
    bytes = Uint8Array.from(v);
    byteCache.set(id, bytes);
  }
  return bytes;
}

/** Byte length of a string's UTF-8 (a lone surrogate counts 3, as its replacement character would). */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // the pair: 4 bytes for 2 units
      i++;
    } else n += 2;
  }
  return n;
}

const encoder = new TextEncoder();
// ignoreBOM: a U+FEFF the model wrote is content, not a byte-order mark to drop
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** UTF-8 bytes of a string. */
export function utf8Bytes(s: string): Uint8Array {
  return encoder.encode(s);
}

/** Decode bytes already known to be valid UTF-8. */
export function decodeValid(bytes: Uint8Array, start: number, end: number): string {
  return start === end ? '' : decoder.decode(bytes.subarray(start, end));
}

/**
 * Rust's `std::str::from_utf8` verdict on `bytes[start, end)`: `validUpTo` (relative to `start`) and
 * `errorLen` (1–3 for an invalid sequence, 0 for a sequence cut by the end; -1 when everything is valid).
 */
export function checkUtf8(bytes: Uint8Array, start: number, end: number): { validUpTo: number; errorLen: number } {
  let i = start;
  while (i < end) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    const at = i - start;
    let width: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) width = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      width = 3;
      if (b === 0xe0) lo = 0xa0;
      else if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      width = 4;
      if (b === 0xf0) lo = 0x90;
      else if (b === 0xf4) hi = 0x8f;
    } else return { validUpTo: at, errorLen: 1 };
    // second byte (with its narrower range), then plain continuation bytes
    if (i + 1 >= end) return { validUpTo: at, errorLen: 0 };
    const b1 = bytes[i + 1];
    if (b1 < lo || b1 > hi) return { validUpTo: at, errorLen: 1 };
    for (let k = 2; k < width; k++) {
      if (i + k >= end) return { validUpTo: at, errorLen: 0 };
      const bk = bytes[i + k];
      if (bk < 0x80 || bk > 0xbf) return { validUpTo: at, errorLen: k };
    }
    i += width;
  }
  return { validUpTo: end - start, errorLen: -1 };
}

/** Rust's `String::from_utf8_lossy`: each invalid or cut sequence becomes one U+FFFD. */
export function decodeLossy(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let out = '';
  let i = start;
  while (i < end) {
    const { validUpTo, errorLen } = checkUtf8(bytes, i, end);
    out += decodeValid(bytes, i, i + validUpTo);
    if (errorLen < 0) break;
    out += '\uFFFD';
    i += validUpTo + (errorLen === 0 ? end - i - validUpTo : errorLen);
  }
  return out;
}

/** Rust's `Utf8Error` display, for the first problem in the bytes (undefined when they are valid). */
export function utf8ErrorText(bytes: Uint8Array): string | undefined {
  const { validUpTo, errorLen } = checkUtf8(bytes, 0, bytes.length);
  if (errorLen < 0) return undefined;
  return errorLen === 0
    ? `incomplete utf-8 byte sequence from index ${validUpTo}`
    : `invalid utf-8 sequence of ${errorLen} bytes from index ${validUpTo}`;
}

/** The first o200k_harmony token of ordinary text (its plain BPE), for naming text the parser refuses. */
export function firstTokenOf(text: string): number | undefined {
  // Only the first pre-tokenizer piece matters, but its end is not known in advance: encode the whole text.
  return encodeText(text)[0];
}
