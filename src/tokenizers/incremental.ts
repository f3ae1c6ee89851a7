/**
 * A text encoded again after a change, reusing what did not change: a catalog with one tool edited
 * costs the encoding of that tool's neighbourhood, not of the whole prompt, and gives the ids a
 * fresh encoding gives (test/tokenizers/incremental.test.ts holds them equal on random edits).
 *
 * An encoding keeps its runs: the normalized texts between added tokens, each with its ids. A run
 * whose text and place (first or not) are those of a run of the earlier encoding takes its ids
 * whole: a run's ids are a function of those two alone. A long run of a tokenizer whose
 * pre-tokenizer starts with a regex Split (Isolated) also keeps its pieces (where each ends, whether
 * the pattern matched it, where its ids end). Encoded again beside the run it replaces:
 *
 * - the start: the scan is the same up to the last place it resumed (a match's end) before the
 *   leftmost position from which an attempt could read the first changed character
 *   (readahead.ts): every piece before it is kept;
 * - the middle: the scan goes on from there over the new text, each piece encoded (the rest of the
 *   pre-tokenizer, then the model);
 * - the end: once the scan resumes at a position inside the unchanged end of the text where the old
 *   scan cut the text too, the rest of the old scan is what the new one would find (an attempt
 *   decides from the text at and after it): the old pieces and ids from there are taken, shifted.
 *
 * (The start must be where the old scan resumed, not any cut: the text between two matches is one
 * piece only as far as the next attempt that matches, and that attempt may read the change.)
 *
 * A tokenizer whose pre-tokenizer does not start that way (Gemma's, which encodes each run as one
 * word) reuses whole runs only.
 */
import type { Piece, PreTokenizer } from './pipeline.js';
import type { Readahead } from './readahead.js';

/** A normalized text between added tokens, as the pre-tokenizer gets it, and its ids. */
export interface Run {
  readonly text: string;
  readonly first: boolean;
  readonly ids: Int32Array;
  /** With a leading split: each piece's end in `text`, ascending. */
  readonly ends?: Int32Array;
  /** With a leading split: 1 where the pattern matched the piece (the scan resumes at its end). */
  readonly matched?: Uint8Array;
  /** With a leading split: the end in `ids` of each piece's ids. */
  readonly idEnds?: Int32Array;
  /** With a leading split: how many of its pieces this encoding made (the others were taken from the run it replaced). */
  readonly made?: number;
}

/** An encoded text: its ids, and its added tokens (ids) and runs in order. */
export interface Encoding {
  readonly text: string;
  readonly ids: Int32Array;
  readonly items: readonly (number | Run)[];
  /** What this encoding encoded itself: the pieces of the runs it made again, and each run made whole (what it took from the earlier encoding is not counted). */
  readonly encoded: number;
}

/** A pre-tokenizer's leading regex Split, the rest of it, and the bound on the split's reading. */
export interface LeadingSplit {
  readonly re: RegExp;
  readonly rest: PreTokenizer;
  readonly reach: Readahead | undefined;
}

/** Runs at least this long keep their pieces. */
export const TRACK_FROM = 2048;

/** The common start and end of two texts are compared this many units at a time first. */
const BLOCK = 256;

/** The index of the last element of `a` that is ≤ x (-1: none). */
function lastAtMost(a: Int32Array, x: number): number {
  let lo = 0;
  let hi = a.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if ((a[mid] as number) <= x) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/**
 * Encode a long run with a leading split, keeping its pieces; with `prev` (a run it replaces, with
 * pieces), only the part the change can reach is encoded again.
 */
export function encodeRun(text: string, first: boolean, split: LeadingSplit, model: (word: string, out: number[]) => void, prev?: Run): Run {
  let keep = 0; // the old pieces kept from the start
  let from = 0; // where the new scan starts
  let syncFrom = Infinity; // the scan may join the old one at a resume point from here on
  let delta = 0;
  const old = prev !== undefined && prev.first === first && prev.ends && prev.matched && prev.idEnds && split.reach ? prev : undefined;
  if (old) {
    const o = old.text;
    const limit = Math.min(o.length, text.length);
    // the common start and end, a block at a time (the engine compares strings natively), then by unit
    let a = 0;
    while (a + BLOCK <= limit && o.substring(a, a + BLOCK) === text.substring(a, a + BLOCK)) a += BLOCK;
    while (a < limit && o.charCodeAt(a) === text.charCodeAt(a)) a++;
    if (a > 0 && isHigh(o.charCodeAt(a - 1))) a--; // not inside a surrogate pair
    let b = 0;
    while (b + BLOCK <= limit - a && o.substring(o.length - b - BLOCK, o.length - b) === text.substring(text.length - b - BLOCK, text.length - b)) b += BLOCK;
    while (b < limit - a && o.charCodeAt(o.length - 1 - b) === text.charCodeAt(text.length - 1 - b)) b++;
    if (b > 0 && isLow(text.charCodeAt(text.length - b))) b--;
    const reach = (split.reach as Readahead).reach(o, a);
    const ends = old.ends as Int32Array;
    const matched = old.matched as Uint8Array;
    let j = lastAtMost(ends, reach);
    while (j >= 0 && matched[j] !== 1) j--;
    keep = j + 1;
    from = j >= 0 ? (ends[j] as number) : 0;
    syncFrom = text.length - b;
    delta = text.length - o.length;
  }
  // the new pieces' ids (their ends in idEnds count from the kept ids' end)
  const keptIds = old && keep > 0 ? ((old.idEnds as Int32Array)[keep - 1] as number) : 0;
  const idsOut: number[] = [];
  const ends: number[] = [];
  const matched: number[] = [];
  const idEnds: number[] = [];
  const add = (start: number, end: number, isMatch: boolean) => {
    const piece: Piece = { text: text.slice(start, end), first: first && start === 0 };
    for (const word of split.rest([piece])) model(word.text, idsOut);
    ends.push(end);
    matched.push(isMatch ? 1 : 0);
    idEnds.push(keptIds + idsOut.length);
  };
  const re = split.re;
  re.lastIndex = from;
  let at = from;
  let joined = -1; // the old piece after which the old scan is taken over
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    if (end === start) {
      // a pattern that matches the empty string has no Readahead, and so no `old`: cut as splitBy does
      re.lastIndex = end + ((text.codePointAt(end) ?? 0) > 0xffff ? 2 : 1);
      if (at !== start) add(at, start, false);
      at = end;
      continue;
    }
    if (at !== start) add(at, start, false);
    add(start, end, true);
    at = end;
    if (end >= syncFrom && old) {
      // where the old scan cut there too (a match's end, or a match's start: the attempt there
      // matched, and finds the same match here), the old scan from there is this one's
      const k = lastAtMost(old.ends as Int32Array, end - delta);
      if (k >= 0 && (old.ends as Int32Array)[k] === end - delta) {
        joined = k;
        break;
      }
    }
  }
  if (joined < 0 && at !== text.length) add(at, text.length, false);

  // the pieces: the old ones kept, the new ones, the old ones after the join (shifted)
  const oldEnds = old?.ends;
  const tail = joined >= 0 && oldEnds ? oldEnds.length - joined - 1 : 0;
  const total = keep + ends.length + tail;
  const outEnds = new Int32Array(total);
  const outMatched = new Uint8Array(total);
  const outIdEnds = new Int32Array(total);
  if (old && keep > 0) {
    outEnds.set((old.ends as Int32Array).subarray(0, keep));
    outMatched.set((old.matched as Uint8Array).subarray(0, keep));
    outIdEnds.set((old.idEnds as Int32Array).subarray(0, keep));
  }
  for (let k = 0; k < ends.length; k++) {
    outEnds[keep + k] = ends[k] as number;
    outMatched[keep + k] = matched[k] as number;
    outIdEnds[keep + k] = idEnds[k] as number;
  }
  let tailIds = 0;
  let idFrom = 0;
  if (old && joined >= 0) {
    const oEnds = old.ends as Int32Array;
    const oIdEnds = old.idEnds as Int32Array;
    idFrom = oIdEnds[joined] as number;
    tailIds = old.ids.length - idFrom;
    const idShift = keptIds + idsOut.length - idFrom;
    const base = keep + ends.length;
    for (let k = 0; k < tail; k++) {
      outEnds[base + k] = (oEnds[joined + 1 + k] as number) + delta;
      outMatched[base + k] = (old.matched as Uint8Array)[joined + 1 + k] as number;
      outIdEnds[base + k] = (oIdEnds[joined + 1 + k] as number) + idShift;
    }
  }
  const ids = new Int32Array(keptIds + idsOut.length + tailIds);
  if (old && keptIds > 0) ids.set(old.ids.subarray(0, keptIds));
  ids.set(idsOut, keptIds);
  if (old && tailIds > 0) ids.set(old.ids.subarray(idFrom), keptIds + idsOut.length);
  return { text, first, ids, ends: outEnds, matched: outMatched, idEnds: outIdEnds, made: ends.length };
}
