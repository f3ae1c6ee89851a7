/**
 * Python values as vLLM's tool parsers hold them, and the Python built-ins they go through:
 * `json.loads` / `json.dumps` (shared, in emit/python/json-loads.ts, re-exported here), `int(str)`,
 * `float(str)`, `str.lstrip()`. Python exceptions are thrown as {@link PythonException} and caught
 * where vLLM catches them.
 */
import { INT_MAX_STR_DIGITS, PythonException } from '../../emit/python/json-loads.js';

export * from '../../emit/python/json-loads.js';

// ---------------------------------------------------------------------------------------
// str methods

// str.isspace(): what str.strip()/lstrip() and int()/float() skip.
const PY_WHITESPACE = new Set('\t\n\u000b\u000c\r\u001c\u001d\u001e\u001f \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000');

/** Python's `str.lstrip()` with no argument. */
export function pyLstrip(s: string): string {
  let a = 0;
  while (a < s.length && PY_WHITESPACE.has(s[a])) a++;
  return s.slice(a);
}

/** Python's `str.strip()` with no argument. */
export function pyStrip(s: string): string {
  let b = s.length;
  while (b > 0 && PY_WHITESPACE.has(s[b - 1])) b--;
  return pyLstrip(s.slice(0, b));
}

/** Python's `repr()` of a str, for messages (`'name'`). */
export function pyStrRepr(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  // eslint-disable-next-line no-control-regex
  return q + s.replace(/[\\\n\r\t\u0000-\u001f\u007f]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)).replaceAll(q, `\\${q}`) + q;
}

// Unicode decimal digits (category Nd) come in runs of ten starting at zero: int() and float() read them.
const ND = /\p{Nd}/u;

function decimalValue(cp: number): number {
  let start = cp;
  while (start > 0 && ND.test(String.fromCodePoint(start - 1))) start--;
  return (cp - start) % 10;
}

/** `_PyUnicode_TransformDecimalAndSpaceToASCII`: non-ASCII decimal digits to ASCII, whitespace to spaces; undefined when another non-ASCII character remains. */
function asciiNumberText(s: string): string | undefined {
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (PY_WHITESPACE.has(ch)) out += ' ';
    else if (cp < 128) out += ch;
    else if (ND.test(ch)) out += String(decimalValue(cp));
    else return undefined;
  }
  return out;
}


/** Python's `int(s)` for a str (base 10): surrounding whitespace, a sign, `_` between digits, any Unicode decimal digit. */
export function pythonIntOf(s: string): bigint {
  const fail = (): never => {
    throw new PythonException('ValueError', `invalid literal for int() with base 10: ${pyStrRepr(s)}`);
  };
  const t = asciiNumberText(s);
  if (t === undefined) return fail();
  const m = /^ *([+-]?)([0-9](?:_?[0-9])*) *$/.exec(t);
  if (!m) return fail();
  const digits = m[2].replaceAll('_', '');
  if (digits.length > INT_MAX_STR_DIGITS) {
    throw new PythonException('ValueError', `Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${digits.length} digits; use sys.set_int_max_str_digits() to increase the limit`);
  }
  const v = BigInt(digits);
  return m[1] === '-' ? -v : v;
}

/** Python's `float(s)` for a str: whitespace, sign, `inf`/`infinity`/`nan` in any case, `_` between digits. */
export function pythonFloatOf(s: string): number {
  const t = asciiNumberText(s);
  const m = t === undefined ? null : /^ *([+-]?)(?:(inf|infinity|nan)|((?:[0-9](?:_?[0-9])*)?\.[0-9](?:_?[0-9])*|[0-9](?:_?[0-9])*\.?)([eE][+-]?[0-9](?:_?[0-9])*)?) *$/i.exec(t);
  if (!m) throw new PythonException('ValueError', `could not convert string to float: ${pyStrRepr(s)}`);
  const sign = m[1] === '-' ? -1 : 1;
  if (m[2] !== undefined) return m[2].toLowerCase() === 'nan' ? NaN : sign * Infinity;
  const v = Number(`${m[3]}${m[4] ?? ''}`.replaceAll('_', ''));
  return sign * v;
}

/** Python's `int(x)` of a float: truncation; OverflowError for ±inf, ValueError for nan. */
export function pythonTruncate(x: number): bigint {
  if (Number.isNaN(x)) throw new PythonException('ValueError', 'cannot convert float NaN to integer');
  if (!Number.isFinite(x)) throw new PythonException('OverflowError', 'cannot convert float infinity to integer');
  return BigInt(Math.trunc(x));
}

