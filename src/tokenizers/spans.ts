/**
 * Where the tokens of an encoding stand in the text they encode: each token's bytes (what the
 * file's decoder reads it back as) are found in the text's UTF-8 bytes, in order. A token that is
 * not where the previous one ended is looked for a little further on (white space an added token's
 * lstrip/rstrip took, characters a pre-tokenizer removed), or without a leading space the
 * pre-tokenizer added (ByteLevel's add_prefix_space, Metaspace's prepend); a token the normalizer
 * changed (NFC, lowercase) is placed where the previous one ended. The places only say which part
 * of the text a token belongs to (a tool's share of the catalog): the count is the encoding's.
 */

/** Runs of tokens by where they start in the text: `starts[i]` (a UTF-16 offset, ascending) and how many tokens start there. */
export interface TokenSpans {
  readonly starts: readonly number[];
  readonly counts: readonly number[];
}

/** How far ahead a token that is not where the previous one ended is looked for, in bytes. */
const LOOK_AHEAD = 256;

/** The UTF-16 offset of each byte offset of a text's UTF-8 bytes (a byte inside a character maps to that character). */
function unitOffsets(text: string, byteLength: number): Int32Array {
  const out = new Int32Array(byteLength + 1);
  let b = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let n: number;
    let units = 1;
    if (c < 0x80) n = 1;
    else if (c < 0x800) n = 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n = 4;
      units = 2;
    } else n = 3; // a lone surrogate is written as U+FFFD: 3 bytes
    for (let k = 0; k < n && b < byteLength; k++) out[b++] = i;
    i += units - 1;
  }
  while (b <= byteLength) out[b++] = text.length;
  return out;
}

function matchesAt(bytes: Buffer, at: number, s: Uint8Array, from = 0): boolean {
  if (at + s.length - from > bytes.length) return false;
  for (let k = from; k < s.length; k++) if (bytes[at + k - from] !== s[k]) return false;
  return true;
}

/** The spans of an encoding: each token (by the bytes it stands for, in order) placed in the text. */
export function placeTokens(text: string, surfaces: readonly Uint8Array[]): TokenSpans {
  const bytes = Buffer.from(text, 'utf8');
  const units = unitOffsets(text, bytes.length);
  const starts: number[] = [];
  const counts: number[] = [];
  let cursor = 0;
  const place = (byteStart: number) => {
    const at = units[Math.min(byteStart, bytes.length)] as number;
    if (starts.length && starts[starts.length - 1] === at) counts[counts.length - 1]++;
    else {
      starts.push(at);
      counts.push(1);
    }
  };
  for (const s of surfaces) {
    if (s.length === 0) {
      place(cursor);
      continue;
    }
    if (matchesAt(bytes, cursor, s)) {
      place(cursor);
      cursor += s.length;
      continue;
    }
    // a leading space the pre-tokenizer added
    if (s[0] === 0x20 && s.length > 1 && matchesAt(bytes, cursor, s, 1)) {
      place(cursor);
      cursor += s.length - 1;
      continue;
    }
    // looked for in a window only: a text the normalizer changed throughout stays linear
    const window = bytes.subarray(cursor, Math.min(bytes.length, cursor + LOOK_AHEAD + s.length));
    const found = window.indexOf(s);
    if (found >= 0) {
      place(cursor + found);
      cursor += found + s.length;
      continue;
    }
    if (s[0] === 0x20 && s.length > 1) {
      const rest = window.indexOf(s.subarray(1));
      if (rest >= 0) {
        place(cursor + rest);
        cursor += rest + s.length - 1;
        continue;
      }
    }
    // changed by the normalizer: where the previous token ended
    place(cursor);
    cursor = Math.min(bytes.length, cursor + s.length);
  }
  return { starts, counts };
}
