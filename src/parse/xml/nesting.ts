/**
 * Where a parameter value ends when parameter tags nest: the readers (ours, and the emulation of
 * vLLM's Qwen3-Coder parser at 00d0a333) walk from the value's start, count a parameter opener as
 * one level deeper and a `</parameter>` as one level up, and end the value at the first
 * `</parameter>` at level 0 that what follows it accepts (another parameter, the call's end…).
 * Walked from every value's start, a run of openers followed by one `</parameter>` costs the
 * length of the run each time: quadratic.
 *
 * Here the walk is answered from the text's tags, found once. A close at level 0 of a walk from
 * `s` is one whose matching opener (openers and closes paired as brackets over the whole text)
 * stands before `s`, or that has none: pairs inside the walk match as they do in the whole text.
 * So the walk's answer from the first tag at or after a place is a function of that tag alone:
 * a close that is accepted is the answer; a close that is not passes to the next tag; an opener
 * passes to the tag after its matching close (none: no end). Each answer is kept per `accept`
 * (the same function object for the same rule), so every tag is answered once: linear in all.
 */
import { lowerBound } from '../../ir/arrays.js';

/** Decides whether a close at level 0 (its index in the text) ends the value. */
export type Accept = (close: number) => boolean;

/** The nested-tag walks over one text. */
export interface Nesting {
  /**
   * The first close at level 0 of a walk from `from` that `accept` accepts, or -1 (no such close:
   * the text has no more closes, or an opener is never closed). `openAtFrom`: an opener exactly
   * at `from` counts even when the text's rule for openers does not take it (vLLM reads the
   * value's first character as a line start).
   */
  end(from: number, accept: Accept, openAtFrom?: boolean): number;
}

const OPEN = 0;
const CLOSE = 1;
const UNKNOWN = -2;

/**
 * The walks over `text`: openers are the places where `openTag` starts and `isOpen` holds (a line
 * start, a well-formed name…), closes the places where `closeTag` starts. The two tags must not
 * overlap (an opener never starts inside a close, nor a close inside an opener).
 */
export function nesting(text: string, openTag: string, closeTag: string, isOpen: (at: number) => boolean): Nesting {
  let pos: number[] | undefined;
  let kind: number[];
  let match: Int32Array;
  const answers = new Map<Accept, Int32Array>();

  /** The tags of the text, in order, and each opener's matching close (its tag index, or -1). */
  const build = (): void => {
    pos = [];
    kind = [];
    let o = text.indexOf(openTag);
    while (o >= 0 && !isOpen(o)) o = text.indexOf(openTag, o + 1);
    let c = text.indexOf(closeTag);
    while (o >= 0 || c >= 0) {
      if (o >= 0 && (c < 0 || o < c)) {
        pos.push(o);
        kind.push(OPEN);
        o = text.indexOf(openTag, o + openTag.length);
        while (o >= 0 && !isOpen(o)) o = text.indexOf(openTag, o + 1);
      } else {
        pos.push(c);
        kind.push(CLOSE);
        c = text.indexOf(closeTag, c + closeTag.length);
      }
    }
    match = new Int32Array(pos.length).fill(-1);
    const stack: number[] = [];
    for (let k = 0; k < pos.length; k++) {
      if (kind[k] === OPEN) stack.push(k);
      else if (stack.length) match[stack.pop() as number] = k;
    }
  };

  /** Index of the first tag at or after `at`. */
  const firstTag = (at: number): number => lowerBound(pos as number[], at);

  /** The walk's answer from tag `k` on, filling in every tag it passes. */
  const answer = (k: number, accept: Accept): number => {
    const p = pos as number[];
    let memo = answers.get(accept);
    if (memo === undefined) {
      memo = new Int32Array(p.length).fill(UNKNOWN);
      answers.set(accept, memo);
    }
    const passed: number[] = [];
    let result = -1;
    for (let j = k; ; ) {
      if (j >= p.length) break;
      if (memo[j] !== UNKNOWN) {
        result = memo[j];
        break;
      }
      passed.push(j);
      if (kind[j] === CLOSE) {
        if (accept(p[j])) {
          result = p[j];
          break;
        }
        j++;
      } else {
        const m = match[j];
        if (m < 0) break;
        j = m + 1;
      }
    }
    for (const j of passed) memo[j] = result;
    return result;
  };

  return {
    end(from, accept, openAtFrom = false) {
      if (pos === undefined) build();
      if (openAtFrom && text.startsWith(openTag, from) && !isOpen(from)) {
        // one level down from the start: back at level 0 after the first close at level 0 of a walk from after the opener
        const back = answer(firstTag(from + openTag.length), ALWAYS);
        return back < 0 ? -1 : answer(firstTag(back + closeTag.length), accept);
      }
      return answer(firstTag(from), accept);
    },
  };
}

const ALWAYS: Accept = () => true;
