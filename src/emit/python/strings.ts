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

/** Python's `date.strftime(format)` in the C locale (`%Y %y %m %d %B %b %A %a %j %%`), for what transformers' `strftime_now` prints. */
// `%d %b %Y` → `05 Aug 2025` (Llama 3.2), `%B %d, %Y` → `August 05, 2025` (Granite 3.3)
export function pyStrftime(date: PyDate, format: string): string {
  const { year, month, day } = date;
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const utc = new Date(Date.UTC(year, month - 1, day));
  const dayOfYear = Math.round((utc.getTime() - Date.UTC(year, 0, 1)) / 86_400_000) + 1;
  return format.replace(/%(.)/g, (all, c: string) => {
    switch (c) {
      case 'Y':
        return String(year);
      case 'y':
        return pad(year % 100);
      case 'm':
        return pad(month);
      case 'd':
        return pad(day);
      case 'B':
        return MONTHS[month - 1];
      case 'b':
        return MONTHS[month - 1].slice(0, 3);
      case 'A':
        return DAYS[utc.getUTCDay()];
      case 'a':
        return DAYS[utc.getUTCDay()].slice(0, 3);
      case 'j':
        return pad(dayOfYear, 3);
      case '%':
        return '%';
      default:
        throw new RangeError(`strftime directive not supported here: ${all}`);
    }
  });
}
