/**
 * How far back a change to a text can reach into a regular expression's scan of it: what lets a
 * tokenizer encode again only the part of a text that changed (incremental.ts).
 *
 * A global scan (`re.exec` from `lastIndex` on) decides each attempt at a position p from the text
 * at and after p alone, when the pattern has no lookbehind (nor `^`, which the translation of
 * Oniguruma writes as one): what an attempt reads past p is the characters some path of the pattern
 * can still be on. A path that has read T[p..i) exists only when T[p..i) is a prefix of a string the
 * pattern (its lookaheads counted as reading as far as they can) accepts; so an attempt at p can see
 * T[a] only if T[p..a) is such a prefix. `Readahead.reach(text, a)` walks the pattern's automaton
 * backwards from a to find the leftmost start from which a path reaches a: every attempt at a
 * position before it reads nothing at or after a, so it finds the same match in any text that agrees
 * with this one before a.
 *
 * The automaton is built from the JavaScript source `regex.ts` writes (Thompson's construction):
 * classes and `\p{…}` atoms are tested with the engine's own RegExp, one character at a time.
 * A pattern this cannot bound (a lookbehind, a lookahead of unbounded length, a back-reference, a
 * pattern that matches the empty string, a repeat count over 64) has no Readahead: its text is then
 * always encoded whole.
 */

/** One character test of the automaton: a code point, or a class / property the engine tests. */
type Atom = { readonly cp: number } | { readonly re: RegExp; readonly memo: Map<number, boolean> };

/** The pattern's syntax tree (the subset regex.ts writes). */
type Node =
  | { readonly t: 'atom'; readonly atom: Atom }
  | { readonly t: 'seq'; readonly items: readonly Node[] }
  | { readonly t: 'alt'; readonly items: readonly Node[] }
  | { readonly t: 'rep'; readonly node: Node; readonly min: number; readonly max: number } // max -1: unbounded
  | { readonly t: 'look'; readonly node: Node };

class Unbounded extends Error {}

const MAX_REPEAT = 64;
const MAX_STATES = 4096;

/** Parse the JavaScript source of a `u` pattern; Unbounded when it holds what this cannot bound. */
function parse(source: string): Node {
  const cps = Array.from(source, (c) => c.codePointAt(0) as number);
  let i = 0;
  const peek = () => cps[i];
  const ch = (k: number) => (cps[k] === undefined ? '' : String.fromCodePoint(cps[k] as number));
  const classAtom = (src: string): Atom => ({ re: new RegExp(`^${src}$`, 'u'), memo: new Map() });

  const alternation = (): Node => {
    const items = [sequence()];
    while (ch(i) === '|') {
      i++;
      items.push(sequence());
    }
    return items.length === 1 ? (items[0] as Node) : { t: 'alt', items };
  };
  const sequence = (): Node => {
    const items: Node[] = [];
    while (i < cps.length && ch(i) !== '|' && ch(i) !== ')') items.push(quantified(atom()));
    return { t: 'seq', items };
  };
  const quantified = (node: Node): Node => {
    for (;;) {
      const c = ch(i);
      let min: number;
      let max: number;
      if (c === '*' || c === '+' || c === '?') {
        min = c === '+' ? 1 : 0;
        max = c === '?' ? 1 : -1;
        i++;
      } else if (c === '{') {
        const m = /^\{(\d+)(,?)(\d*)\}/.exec(String.fromCodePoint(...cps.slice(i, i + 24)));
        if (!m) return node;
        min = Number(m[1]);
        max = m[2] === '' ? min : m[3] === '' ? -1 : Number(m[3]);
        i += m[0].length;
      } else return node;
      if (ch(i) === '?') i++; // lazy: the same strings, another order
      if (min > MAX_REPEAT || max > MAX_REPEAT) throw new Unbounded();
      node = { t: 'rep', node, min, max };
    }
  };
  const atom = (): Node => {
    const c = ch(i);
    if (c === '(') {
      i++;
      let look = false;
      if (ch(i) === '?') {
        const next = ch(i + 1);
        if (next === ':') i += 2;
        else if (next === '=' || next === '!') {
          i += 2;
          look = true;
        } else if (next === '<' && ch(i + 2) !== '=' && ch(i + 2) !== '!') {
          const close = cps.indexOf(0x3e, i);
          if (close < 0) throw new Unbounded();
          i = close + 1; // a named group
        } else throw new Unbounded(); // a lookbehind (or what this does not know)
      }
      const inner = alternation();
      if (ch(i) !== ')') throw new Unbounded();
      i++;
      return look ? { t: 'look', node: inner } : inner;
    }
    if (c === '[') {
      const start = i;
      i++;
      if (ch(i) === '^') i++;
      // (in JavaScript a `]` always closes a class: `[]` matches nothing, `[^]` anything)
      while (i < cps.length && ch(i) !== ']') {
        if (ch(i) === '\\') {
          if ((ch(i + 1) === 'p' || ch(i + 1) === 'P') && ch(i + 2) === '{') {
            const close = cps.indexOf(0x7d, i);
            if (close < 0) throw new Unbounded();
            i = close + 1;
          } else i += 2;
        } else i++;
      }
      if (ch(i) !== ']') throw new Unbounded();
      i++;
      return { t: 'atom', atom: classAtom(String.fromCodePoint(...cps.slice(start, i))) };
    }
    if (c === '\\') {
      const e = ch(i + 1);
      if ((e === 'p' || e === 'P') && ch(i + 2) === '{') {
        const close = cps.indexOf(0x7d, i);
        if (close < 0) throw new Unbounded();
        const src = String.fromCodePoint(...cps.slice(i, close + 1));
        i = close + 1;
        return { t: 'atom', atom: classAtom(src) };
      }
      // what regex.ts escapes is a syntax character written as itself; anything else (a
      // back-reference, \b, \d…) is not in its output, and is not guessed at here
      if (!'^$\\.*+?()[]{}|/-'.includes(e) || e === '') throw new Unbounded();
      i += 2;
      return { t: 'atom', atom: { cp: e.codePointAt(0) as number } };
    }
    if (c === '.' || c === '^' || c === '$' || c === ')' || c === '|' || c === '') throw new Unbounded();
    i++;
    return { t: 'atom', atom: { cp: cps[i - 1] as number } };
  };

  const tree = alternation();
  if (i !== cps.length) throw new Unbounded();
  return tree;
}

/** The longest string a node can read (Infinity when unbounded). */
function maxLength(n: Node): number {
  switch (n.t) {
    case 'atom':
      return 1;
    case 'seq':
      return n.items.reduce((s, x) => s + maxLength(x), 0);
    case 'alt':
      return Math.max(...n.items.map(maxLength));
    case 'rep':
      return n.max < 0 ? (maxLength(n.node) === 0 ? 0 : Infinity) : n.max * maxLength(n.node);
    case 'look':
      return 0;
  }
}

/** Whether a node can match the empty string (a lookahead counted as passing). */
function nullable(n: Node): boolean {
  switch (n.t) {
    case 'atom':
      return false;
    case 'seq':
      return n.items.every(nullable);
    case 'alt':
      return n.items.some(nullable);
    case 'rep':
      return n.min === 0 || nullable(n.node);
    case 'look':
      return true;
  }
}

/** Any one code point (what a lookahead's reading is counted as). */
const ANY: Atom = { re: /^[^]$/u, memo: new Map() };

function test(atom: Atom, cp: number): boolean {
  if ('cp' in atom) return atom.cp === cp;
  let r = atom.memo.get(cp);
  if (r === undefined) {
    r = atom.re.test(String.fromCodePoint(cp));
    if (atom.memo.size < 65_536) atom.memo.set(cp, r);
  }
  return r;
}

/** The bound on what a scan by one pattern reads; see the module's comment. */
export class Readahead {
  /** For each state: the states with an edge into it (consuming: `from`, `atom`; empty: `eps`). */
  private readonly intoAtom: { from: number; atom: Atom }[][] = [];
  private readonly intoEps: number[][] = [];
  private start = 0;

  private constructor(tree: Node) {
    this.start = this.state();
    this.build(tree, this.start); // where it ends does not matter: any state reached is a path on its way
  }

  /** The Readahead of a global `u` RegExp built by regex.ts, or undefined when its reading cannot be bounded. */
  static of(re: RegExp): Readahead | undefined {
    if (!re.unicode || re.sticky || re.multiline || re.ignoreCase || re.dotAll) return undefined;
    try {
      const tree = parse(re.source);
      if (nullable(tree)) return undefined;
      return new Readahead(tree);
    } catch (e) {
      if (e instanceof Unbounded || e instanceof SyntaxError) return undefined;
      throw e;
    }
  }

  private state(): number {
    this.intoAtom.push([]);
    this.intoEps.push([]);
    if (this.intoAtom.length > MAX_STATES) throw new Unbounded();
    return this.intoAtom.length - 1;
  }

  private eps(from: number, to: number): void {
    (this.intoEps[to] as number[]).push(from);
  }

  /** Build a node from state `from`; returns the state it ends in. */
  private build(n: Node, from: number): number {
    switch (n.t) {
      case 'atom': {
        const to = this.state();
        (this.intoAtom[to] as { from: number; atom: Atom }[]).push({ from, atom: n.atom });
        return to;
      }
      case 'seq': {
        let at = from;
        for (const x of n.items) at = this.build(x, at);
        return at;
      }
      case 'alt': {
        const end = this.state();
        for (const x of n.items) this.eps(this.build(x, from), end);
        return end;
      }
      case 'rep': {
        let at = from;
        for (let k = 0; k < n.min; k++) at = this.build(n.node, at);
        if (n.max < 0) {
          const loop = this.state();
          this.eps(at, loop);
          this.eps(this.build(n.node, loop), loop);
          return loop;
        }
        const end = this.state();
        this.eps(at, end);
        for (let k = n.min; k < n.max; k++) {
          at = this.build(n.node, at);
          this.eps(at, end);
        }
        return end;
      }
      case 'look': {
        // zero width: the path goes on from here; what the lookahead reads is a side path of any
        // characters as long as it can read (its first character is read at this state's position)
        const longest = maxLength(n.node);
        if (longest === Infinity) throw new Unbounded();
        let at = from;
        for (let k = 1; k < longest; k++) {
          const to = this.state();
          (this.intoAtom[to] as { from: number; atom: Atom }[]).push({ from: at, atom: ANY });
          at = to;
        }
        return from;
      }
    }
  }

  /**
   * The leftmost position p ≤ a (not before `floor`) from which an attempt of the scan can read
   * text[a] (a path of the pattern reads text[p..a) and is still going); a when none can. An attempt
   * at any position before it decides its match from text[..a) alone. `a` and `floor` are code point
   * boundaries.
   */
  reach(text: string, a: number, floor = 0): number {
    const n = this.intoAtom.length;
    let alive = new Uint8Array(n).fill(1); // at a: any state may be on its way
    let list: number[] = [];
    for (let q = 0; q < n; q++) list.push(q);
    let leftmost = a;
    let i = a;
    while (i > floor) {
      // the code point ending at i
      let cp = text.charCodeAt(i - 1);
      let width = 1;
      if (cp >= 0xdc00 && cp <= 0xdfff && i - 2 >= floor) {
        const hi = text.charCodeAt(i - 2);
        if (hi >= 0xd800 && hi <= 0xdbff) {
          cp = (hi - 0xd800) * 0x400 + (cp - 0xdc00) + 0x10000;
          width = 2;
        }
      }
      const next = new Uint8Array(n);
      const nextList: number[] = [];
      for (const r of list) {
        for (const { from, atom } of this.intoAtom[r] as { from: number; atom: Atom }[]) {
          if (next[from] === 0 && test(atom, cp)) {
            next[from] = 1;
            nextList.push(from);
          }
        }
      }
      // the states with an empty path into those
      for (let k = 0; k < nextList.length; k++) {
        for (const q of this.intoEps[nextList[k] as number] as number[]) {
          if (next[q] === 0) {
            next[q] = 1;
            nextList.push(q);
          }
        }
      }
      if (nextList.length === 0) break;
      i -= width;
      alive = next;
      list = nextList;
      if (alive[this.start] === 1) leftmost = i;
    }
    return leftmost;
  }
}
