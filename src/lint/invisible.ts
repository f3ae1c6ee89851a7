/**
 * Invisible characters: bidi controls and other format characters (Unicode category Cf, and the
 * soft hyphen) that most editors, diff views and browsers do not show, but that the model reads.
 * A right-to-left override (U+202E) in a tool name reorders the text shown after it; a zero-width
 * space makes two names that look the same differ; tag characters (U+E0020…U+E007F) spell text no
 * one sees. `lint/invisible-character` reports them; the report shows each one as a visible mark.
 *
 * What is not reported: a zero-width joiner inside an emoji sequence (👨‍👩‍👧), a joiner or
 * non-joiner between two letters of a script that spells with them (Persian, the Indic scripts),
 * and the tag characters of an emoji flag (🏴 + tags + CANCEL TAG). Variation selectors are not
 * format characters (and U+FE0F is in most emoji): they are not reported either.
 */

const NAMES: Readonly<Record<number, string>> = {
  0x00ad: 'SOFT HYPHEN',
  0x061c: 'ARABIC LETTER MARK',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2061: 'FUNCTION APPLICATION',
  0x2062: 'INVISIBLE TIMES',
  0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x206a: 'INHIBIT SYMMETRIC SWAPPING',
  0x206b: 'ACTIVATE SYMMETRIC SWAPPING',
  0x206c: 'INHIBIT ARABIC FORM SHAPING',
  0x206d: 'ACTIVATE ARABIC FORM SHAPING',
  0x206e: 'NATIONAL DIGIT SHAPES',
  0x206f: 'NOMINAL DIGIT SHAPES',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
  0xfff9: 'INTERLINEAR ANNOTATION ANCHOR',
  0xfffa: 'INTERLINEAR ANNOTATION SEPARATOR',
  0xfffb: 'INTERLINEAR ANNOTATION TERMINATOR',
  0xe0001: 'LANGUAGE TAG',
  0xe007f: 'CANCEL TAG',
};

/** The characters reported, one at a time; a run of tag characters (U+E0020…U+E007F) as one. */
const INVISIBLE = /[\u{e0020}-\u{e007f}]+|[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\u{e0001}]/gu;

/** A quick test: does the text hold any character `INVISIBLE` matches? */
const ANY_INVISIBLE = /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\u{e0001}\u{e0020}-\u{e007f}]/u;

/** The bidi controls: they change the order in which the text after them is shown. */
const BIDI = new Set([0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);

const PICTOGRAPH = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\ufe0f]/u;
/** Letters and marks of scripts whose spelling uses the joiners (not Latin, Greek or Cyrillic, where a joiner is never spelling). */
const JOINING_LETTER = /^(?![\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Common}])[\p{L}\p{M}]$/u;

/** One invisible character (or one run of tag characters) in a text. */
export interface InvisibleCharacter {
  /** Where it starts in the text (UTF-16 index), and its length in UTF-16 units. */
  readonly index: number;
  readonly length: number;
  /** `U+202E`; for a run of tag characters, `U+E0069…U+E0065` (the first and the last). */
  readonly codePoint: string;
  /** `RIGHT-TO-LEFT OVERRIDE`; for a run of tag characters, `TAG CHARACTERS "ignore"` (the ASCII they spell). */
  readonly name: string;
  /** True for a bidi control (it reorders the text shown after it). */
  readonly bidi: boolean;
}

function hex(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The character just before `index` (a whole code point), or ''. */
function before(text: string, index: number): string {
  if (index <= 0) return '';
  const low = text.charCodeAt(index - 1);
  return index >= 2 && low >= 0xdc00 && low <= 0xdfff ? text.slice(index - 2, index) : text.slice(index - 1, index);
}

/** The character at `index` (a whole code point), or ''. */
function at(text: string, index: number): string {
  const cp = text.codePointAt(index);
  return cp === undefined ? '' : String.fromCodePoint(cp);
}

/** True when a joiner at `index` is part of what the text spells (an emoji sequence, a word of a joining script). */
function spellingJoiner(text: string, index: number, cp: number): boolean {
  const prev = before(text, index);
  const next = at(text, index + 1);
  if (cp === 0x200d && PICTOGRAPH.test(prev) && /\p{Extended_Pictographic}/u.test(next)) return true;
  return JOINING_LETTER.test(prev) && JOINING_LETTER.test(next);
}

/** Each invisible character of a text (a run of tag characters as one), in order. Linear in the text. */
export function findInvisibleCharacters(text: string): InvisibleCharacter[] {
  if (!ANY_INVISIBLE.test(text)) return [];
  const out: InvisibleCharacter[] = [];
  for (const m of text.matchAll(INVISIBLE)) {
    const s = m[0];
    const index = m.index;
    const cp = s.codePointAt(0)!;
    if (cp >= 0xe0020) {
      // an emoji flag's tag sequence: 🏴 (U+1F3F4), tags, CANCEL TAG
      if (before(text, index) === '\u{1f3f4}' && s.endsWith('\u{e007f}')) continue;
      const cps = [...s].map((c) => c.codePointAt(0)!);
      const spelled = cps.filter((c) => c !== 0xe007f).map((c) => String.fromCharCode(c - 0xe0000)).join('');
      const last = cps[cps.length - 1];
      out.push({
        index,
        length: s.length,
        codePoint: cps.length === 1 ? hex(cp) : `${hex(cp)}\u2026${hex(last)}`,
        name: cps.length === 1 && NAMES[cp] !== undefined ? NAMES[cp] : `TAG CHARACTERS ${JSON.stringify(spelled)}`,
        bidi: false,
      });
      continue;
    }
    if ((cp === 0x200c || cp === 0x200d) && spellingJoiner(text, index, cp)) continue;
    out.push({ index, length: s.length, codePoint: hex(cp), name: NAMES[cp] ?? 'FORMAT CHARACTER', bidi: BIDI.has(cp) });
  }
  return out;
}

/** True when the text holds an invisible character that `findInvisibleCharacters` reports. */
export function hasInvisibleCharacters(text: string): boolean {
  return ANY_INVISIBLE.test(text) && findInvisibleCharacters(text).length > 0;
}

const EVERY_INVISIBLE = new RegExp(ANY_INVISIBLE.source, 'gu');

/** The text with every invisible character written as an escape (`\u202E`, `\u{E0069}`), as a message quotes it. */
export function escapeInvisible(text: string): string {
  return text.replace(EVERY_INVISIBLE, (c) => {
    const cp = c.codePointAt(0)!;
    return cp > 0xffff ? `\\u{${cp.toString(16).toUpperCase()}}` : `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  });
}
