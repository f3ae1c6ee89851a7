/**
 * Python's `str` methods as the templates call them, on JavaScript strings: `strip()` with and
 * without `chars`, `split(sep)[0]` / `[-1]`, the code point order of `<` and `sorted()`, and
 * `date.strftime` for the dates templates print.
 */

// Python's str.isspace(): the characters str.strip() removes when given no argument.
const PY_SPACE = '\t\n\u000b\u000c\r\u001c\u001d\u001e\u001f \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';

/** Python's `str.lstrip(chars)`; without `chars`, the whitespace `str.isspace()` names. */
export function pyLstrip(s: string, chars: string = PY_SPACE): string {
  let a = 0;
  while (a < s.length && chars.includes(s[a])) a++;
  return s.slice(a);
}

/** Python's `str.rstrip(chars)`; without `chars`, the whitespace `str.isspace()` names. */
export function pyRstrip(s: string, chars: string = PY_SPACE): string {
  let b = s.length;
  while (b > 0 && chars.includes(s[b - 1])) b--;
  return s.slice(0, b);
}

/** Python's `str.strip(chars)` (Jinja's `|trim` without `chars`): JavaScript's trim() differs (it strips U+FEFF, keeps U+001C–U+001F and U+0085). */
export function pyStrip(s: string, chars: string = PY_SPACE): string {
  return pyRstrip(pyLstrip(s, chars), chars);
}

/** Python's `s.split(sep)[0]` (for a non-empty `sep`). */
export function pySplitFirst(s: string, sep: string): string {
  const i = s.indexOf(sep);
  return i < 0 ? s : s.slice(0, i);
}

/** Python's `s.split(sep)[-1]` (for a non-empty `sep`). */
export function pySplitLast(s: string, sep: string): string {
  const i = s.lastIndexOf(sep);
  return i < 0 ? s : s.slice(i + sep.length);
}

/** Compare two strings by code point, as Python orders `str` (JavaScript's `<` compares UTF-16 units). */
export function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const cx = x.value.codePointAt(0)!;
    const cy = y.value.codePointAt(0)!;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

/** A calendar date: year, month (1–12), day. */
export interface PyDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Python's `datetime(y, m, d).strftime(format)` (midnight) in the C locale on glibc: the date, time and week directives, `%-d`-style unpadded forms, unknown directives kept as written. */
// `%d %b %Y` → `05 Aug 2025` (Llama 3.2), `%B %d, %Y` → `August 05, 2025` (Granite 3.3)
export function pyStrftime(date: PyDate, format: string): string {
  const { year, month, day } = date;
  const pad = (n: number, w = 2, fill = '0') => String(n).padStart(w, fill);
  const utc = new Date(Date.UTC(year, month - 1, day));
  const dayOfYear = Math.round((utc.getTime() - Date.UTC(year, 0, 1)) / 86_400_000) + 1;
  const weekday = utc.getUTCDay(); // Sunday 0
  const mondayBased = (weekday + 6) % 7; // Monday 0
  // ISO 8601 week: the week (Monday first) holding the year's first Thursday is week 1
  const thursday = new Date(utc.getTime() + (3 - mondayBased) * 86_400_000);
  const isoYear = thursday.getUTCFullYear();
  const isoWeek = Math.floor((thursday.getTime() - Date.UTC(isoYear, 0, 1)) / (7 * 86_400_000)) + 1;
  const directive = (c: string): string | undefined => {
    switch (c) {
      case 'Y':
        return String(year);
      case 'y':
        return pad(year % 100);
      case 'C':
        return pad(Math.floor(year / 100));
      case 'm':
        return pad(month);
      case 'd':
        return pad(day);
      case 'e':
        return pad(day, 2, ' ');
      case 'B':
        return MONTHS[month - 1];
      case 'b':
      case 'h':
        return MONTHS[month - 1].slice(0, 3);
      case 'A':
        return DAYS[weekday];
      case 'a':
        return DAYS[weekday].slice(0, 3);
      case 'j':
        return pad(dayOfYear, 3);
      case 'w':
        return String(weekday);
      case 'u':
        return String(mondayBased + 1);
      case 'U':
        return pad(Math.floor((dayOfYear + 6 - weekday) / 7));
      case 'W':
        return pad(Math.floor((dayOfYear + 6 - mondayBased) / 7));
      case 'G':
        return String(isoYear);
      case 'g':
        return pad(isoYear % 100);
      case 'V':
        return pad(isoWeek);
      // the time of a date is midnight
      case 'H':
      case 'M':
      case 'S':
        return '00';
      case 'I':
        return '12';
      case 'k':
        return ' 0';
      case 'l':
        return '12';
      case 'p':
        return 'AM';
      case 'P':
        return 'am';
      case 'f':
        return '000000';
      case 'Z':
      case 'z':
        return '';
      case 'c':
        return `${DAYS[weekday].slice(0, 3)} ${MONTHS[month - 1].slice(0, 3)} ${pad(day, 2, ' ')} 00:00:00 ${year}`;
      case 'x':
      case 'D':
        return `${pad(month)}/${pad(day)}/${pad(year % 100)}`;
      case 'F':
        return `${year}-${pad(month)}-${pad(day)}`;
      case 'X':
      case 'T':
        return '00:00:00';
      case 'R':
        return '00:00';
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case '%':
        return '%';
      default:
        return undefined;
    }
  };
  return format.replace(/%(-?)(.)/gs, (all, flag: string, c: string) => {
    const v = directive(c);
    // glibc writes an unknown directive as it is
    if (v === undefined) return all;
    // `%-d`: glibc's flag for no padding
    if (flag === '-' && /^[0-9 ]+$/.test(v)) return v.replace(/^[0 ]+(?=.)/, '');
    return v;
  });
}

// ---------------------------------------------------------------------------------------
// Code points: Python indexes, counts and slices a str by code point, JavaScript by UTF-16 unit

const SURROGATE = /[\uD800-\uDFFF]/;

/** True when a string holds a surrogate (then its code points and UTF-16 units differ). */
export function hasSurrogates(s: string): boolean {
  return SURROGATE.test(s);
}

/** A string's code points (each a one-character string, as Python iterates a str). */
export function codePoints(s: string): string[] {
  return hasSurrogates(s) ? Array.from(s) : s.split('');
}

/** `s[start:stop:step]` on code points, with Python's slice rules. */
export function pySliceString(s: string, start: number | undefined, stop: number | undefined, step: number): string {
  const cps = hasSurrogates(s) ? Array.from(s) : undefined;
  const n = cps ? cps.length : s.length;
  const [a, b] = sliceBounds(n, start, stop, step);
  if (step === 1) return cps ? cps.slice(a, Math.max(a, b)).join('') : s.slice(a, Math.max(a, b));
  let out = '';
  if (step > 0) for (let i = a; i < b; i += step) out += cps ? cps[i] : s[i];
  else for (let i = a; i > b; i += step) out += cps ? cps[i] : s[i];
  return out;
}

/** `PySlice_AdjustIndices`: the first index and the bound a slice walks for a sequence of length n. */
export function sliceBounds(n: number, start: number | undefined, stop: number | undefined, step: number): [number, number] {
  let a: number;
  let b: number;
  if (start === undefined) a = step < 0 ? n - 1 : 0;
  else if (start < 0) a = Math.max(start + n, step < 0 ? -1 : 0);
  else a = Math.min(start, step < 0 ? n - 1 : n);
  if (stop === undefined) b = step < 0 ? -1 : n;
  else if (stop < 0) b = Math.max(stop + n, step < 0 ? -1 : 0);
  else b = Math.min(stop, step < 0 ? n - 1 : n);
  return [a, b];
}

/** The code point index of a UTF-16 index in `s`. */
function cpIndex(s: string, unit: number): number {
  if (!hasSurrogates(s)) return unit;
  return Array.from(s.slice(0, unit)).length;
}

/** The UTF-16 index of a code point index in `s` (clamped to its length). */
function unitIndex(s: string, cp: number): number {
  if (!hasSurrogates(s)) return cp;
  let i = 0;
  let k = 0;
  while (k < cp && i < s.length) {
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < s.length ? 2 : 1;
    k++;
  }
  return i;
}

/** `str[start:end]` bounds of Python's find/count/startswith arguments (None allowed), as UTF-16 offsets. */
export function pySubBounds(s: string, start: number | undefined, end: number | undefined): [number, number] {
  const n = hasSurrogates(s) ? Array.from(s).length : s.length;
  let a = start ?? 0;
  let b = end ?? n;
  if (a < 0) a = Math.max(0, a + n);
  if (b < 0) b = Math.max(0, b + n);
  b = Math.min(b, n);
  return [unitIndex(s, a), unitIndex(s, Math.max(a, b))];
}

/** Python's `str.find(sub, start, end)` (`rfind` when `last`), a code point index or -1. */
export function pyFind(s: string, sub: string, start: number | undefined, end: number | undefined, last = false): number {
  const [a, b] = pySubBounds(s, start, end);
  // an empty sub is found at start (or at end for rfind), even past the string when start <= len
  if (b - a < sub.length || (start !== undefined && a > s.length)) return -1;
  const part = s.slice(a, b);
  const i = last ? part.lastIndexOf(sub) : part.indexOf(sub);
  return i < 0 ? -1 : cpIndex(s, a + i);
}

/** Python's `str.count(sub, start, end)`: non-overlapping occurrences (an empty sub counts positions). */
export function pyCount(s: string, sub: string, start: number | undefined, end: number | undefined): number {
  const [a, b] = pySubBounds(s, start, end);
  const part = s.slice(a, b);
  if (sub === '') return (hasSurrogates(part) ? Array.from(part).length : part.length) + 1;
  let n = 0;
  for (let i = part.indexOf(sub); i >= 0; i = part.indexOf(sub, i + sub.length)) n++;
  return n;
}

/** Python's `str.replace(old, new, count)` (count -1: all; an empty old inserts between code points). */
export function pyReplace(s: string, old: string, repl: string, count = -1): string {
  if (count < 0) {
    if (old === '') return repl + codePoints(s).join(repl) + (s === '' ? '' : repl);
    return s.split(old).join(repl);
  }
  if (old === '') {
    const cps = codePoints(s);
    let out = '';
    let k = 0;
    for (let i = 0; i <= cps.length; i++) {
      if (k < count) {
        out += repl;
        k++;
      }
      if (i < cps.length) out += cps[i];
    }
    return out;
  }
  let out = '';
  let from = 0;
  for (let k = 0; k < count; k++) {
    const i = s.indexOf(old, from);
    if (i < 0) break;
    out += s.slice(from, i) + repl;
    from = i + old.length;
  }
  return out + s.slice(from);
}

/** True for a character `str.isspace()` accepts. */
export function isPySpace(ch: string): boolean {
  return PY_SPACE.includes(ch);
}

/** Python's `str.split(sep, maxsplit)`; without `sep`, on runs of whitespace with the ends dropped. */
export function pySplit(s: string, sep: string | undefined, maxsplit = -1): string[] {
  if (sep !== undefined) {
    const parts = s.split(sep);
    if (maxsplit < 0 || parts.length <= maxsplit + 1) return parts;
    return [...parts.slice(0, maxsplit), parts.slice(maxsplit).join(sep)];
  }
  const out: string[] = [];
  let i = 0;
  const n = s.length;
  while (i < n) {
    while (i < n && PY_SPACE.includes(s[i])) i++;
    if (i >= n) break;
    if (maxsplit >= 0 && out.length === maxsplit) {
      out.push(pyRstrip(s.slice(i)));
      return out;
    }
    let j = i;
    while (j < n && !PY_SPACE.includes(s[j])) j++;
    out.push(s.slice(i, j));
    i = j;
  }
  return out;
}

/** Python's `str.rsplit(sep, maxsplit)`. */
export function pyRsplit(s: string, sep: string | undefined, maxsplit = -1): string[] {
  if (maxsplit < 0) return pySplit(s, sep);
  if (sep !== undefined) {
    const parts = s.split(sep);
    if (parts.length <= maxsplit + 1) return parts;
    const keep = parts.length - maxsplit;
    return [parts.slice(0, keep).join(sep), ...parts.slice(keep)];
  }
  const out: string[] = [];
  let j = s.length;
  while (j > 0) {
    while (j > 0 && PY_SPACE.includes(s[j - 1])) j--;
    if (j <= 0) break;
    if (out.length === maxsplit) {
      out.unshift(pyLstrip(s.slice(0, j)));
      return out;
    }
    let i = j;
    while (i > 0 && !PY_SPACE.includes(s[i - 1])) i--;
    out.unshift(s.slice(i, j));
    j = i;
  }
  return out;
}

// str.splitlines() line boundaries: \n \r \r\n \v \f \x1c \x1d \x1e \x85 \u2028 \u2029
const LINE_BREAK = /\r\n|[\n\r\u000b\u000c\u001c\u001d\u001e\u0085\u2028\u2029]/g;

/** Python's `str.splitlines(keepends)`. */
export function pySplitlines(s: string, keepends = false): string[] {
  const out: string[] = [];
  let from = 0;
  for (const m of s.matchAll(LINE_BREAK)) {
    const end = (m.index as number) + m[0].length;
    out.push(s.slice(from, keepends ? end : (m.index as number)));
    from = end;
  }
  if (from < s.length) out.push(s.slice(from));
  return out;
}

/** True for a cased character (one with an upper and a lower form). */
function isCased(ch: string): boolean {
  return /[\p{Lu}\p{Ll}\p{Lt}]/u.test(ch);
}

// Characters whose title case differs from their upper case (Unicode's Lt digraphs, ligatures, ß)
const TITLECASE: Readonly<Record<string, string>> = {
  Ǆ: 'ǅ', ǅ: 'ǅ', ǆ: 'ǅ', Ǉ: 'ǈ', ǈ: 'ǈ', ǉ: 'ǈ', Ǌ: 'ǋ', ǋ: 'ǋ', ǌ: 'ǋ', Ǳ: 'ǲ', ǲ: 'ǲ', ǳ: 'ǲ',
  ß: 'Ss', ﬀ: 'Ff', ﬁ: 'Fi', ﬂ: 'Fl', ﬃ: 'Ffi', ﬄ: 'Ffl', ﬅ: 'St', ﬆ: 'St',
};

/** A character in title case, as Python's `title()` and `capitalize()` write the first letter of a word. */
export function pyTitlecaseChar(ch: string): string {
  return TITLECASE[ch] ?? ch.toUpperCase();
}

/** Python's `str.title()`: a cased character after an uncased one is title-cased, the others lower-cased. */
export function pyTitle(s: string): string {
  let out = '';
  let prevCased = false;
  for (const ch of s) {
    out += prevCased ? ch.toLowerCase() : pyTitlecaseChar(ch);
    prevCased = isCased(ch);
  }
  return out;
}

/** Python's `str.capitalize()`: the first character title-cased (Python 3.8+), the rest lower-cased. */
export function pyCapitalize(s: string): string {
  const cps = codePoints(s);
  if (cps.length === 0) return '';
  return pyTitlecaseChar(cps[0]) + cps.slice(1).join('').toLowerCase();
}

/** Python's `str.swapcase()`. */
export function pySwapcase(s: string): string {
  let out = '';
  for (const ch of s) out += /\p{Lu}/u.test(ch) ? ch.toLowerCase() : /\p{Ll}/u.test(ch) ? ch.toUpperCase() : ch;
  return out;
}

/** Python's `str.islower()` / `isupper()`: some cased character, and none of the other case. */
export function pyIsCase(s: string, lower: boolean): boolean {
  let cased = false;
  for (const ch of s) {
    if (/[\p{Lu}\p{Lt}]/u.test(ch)) {
      if (lower) return false;
      cased = true;
    } else if (/\p{Ll}/u.test(ch)) {
      if (!lower) return false;
      cased = true;
    }
  }
  return cased;
}

/** Python's `str.istitle()`. */
export function pyIsTitle(s: string): boolean {
  let cased = false;
  let prevCased = false;
  for (const ch of s) {
    if (/[\p{Lu}\p{Lt}]/u.test(ch)) {
      if (prevCased) return false;
      prevCased = true;
      cased = true;
    } else if (/\p{Ll}/u.test(ch)) {
      if (!prevCased) return false;
      prevCased = true;
      cased = true;
    } else prevCased = false;
  }
  return cased;
}

/** The `str.isX()` predicates: non-empty and every character of the class. */
export const PY_STR_PREDICATES: Readonly<Record<string, (s: string) => boolean>> = {
  isalpha: (s) => /^[\p{L}]+$/u.test(s),
  isdecimal: (s) => /^\p{Nd}+$/u.test(s),
  // Nd plus the digits of Numeric_Type=Digit (superscripts, subscripts, circled digits)
  isdigit: (s) => /^[\p{Nd}\u00b2\u00b3\u00b9\u2070\u2074-\u2079\u2080-\u2089\u2460-\u2468\u2474-\u247c\u2488-\u2490\u24ea\u24f5-\u24fd\u24ff\u2776-\u277e\u2780-\u2788\u278a-\u2792]+$/u.test(s),
  isnumeric: (s) => /^[\p{N}]+$/u.test(s),
  isalnum: (s) => /^[\p{L}\p{N}]+$/u.test(s),
  isspace: (s) => s.length > 0 && [...s].every((c) => PY_SPACE.includes(c)),
  isascii: (s) => /^[\x00-\x7f]*$/.test(s),
  isidentifier: (s) => /^[\p{ID_Start}_][\p{ID_Continue}]*$/u.test(s),
  isprintable: (s) => !/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|[^\P{Zs} ]/u.test(s),
  islower: (s) => pyIsCase(s, true),
  isupper: (s) => pyIsCase(s, false),
  istitle: (s) => pyIsTitle(s),
};

/** Python's `str.center(width, fill)` (the odd extra space goes left when the width is odd, as CPython pads). */
export function pyCenter(s: string, width: number, fill = ' '): string {
  const n = codePoints(s).length;
  if (width <= n) return s;
  const pad = width - n;
  const left = Math.floor(pad / 2) + (pad & width & 1);
  return fill.repeat(left) + s + fill.repeat(pad - left);
}

/** Python's `str.ljust` / `rjust`. */
export function pyJustify(s: string, width: number, fill: string, right: boolean): string {
  const n = codePoints(s).length;
  if (width <= n) return s;
  return right ? fill.repeat(width - n) + s : s + fill.repeat(width - n);
}

/** Python's `str.zfill(width)`. */
export function pyZfill(s: string, width: number): string {
  const n = codePoints(s).length;
  if (width <= n) return s;
  const sign = s[0] === '+' || s[0] === '-' ? s[0] : '';
  return sign + '0'.repeat(width - n) + s.slice(sign.length);
}

/** Python's `str.expandtabs(tabsize)`. */
export function pyExpandtabs(s: string, tabsize = 8): string {
  let out = '';
  let col = 0;
  for (const ch of s) {
    if (ch === '\t') {
      const k = tabsize > 0 ? tabsize - (col % tabsize) : 0;
      out += ' '.repeat(k);
      col += k;
    } else {
      out += ch;
      col = ch === '\n' || ch === '\r' ? 0 : col + 1;
    }
  }
  return out;
}
