/**
 * Python's string formatting on template values: printf-style `str % args` (Jinja's `%` and
 * `|format`), `format(value, spec)` (the format spec mini-language) and `str.format(…)` as
 * `string.Formatter` runs it inside Jinja2's sandbox (field lookups go through the sandbox's
 * getattr/getitem, given by the caller). Floats are formatted from their exact binary value,
 * rounding half to even as CPython does.
 */
import { JsonNumber } from '../../ir/json.js';
import { JinjaError } from './errors.js';
import { markupEscape } from './jinja.js';
import { Markup, PyFloat, PyInstance, PyTuple, Undefined, type PyObject } from './objects.js';
import { pyNumber, pyNumberMod, toDouble, type PyNumber } from './operators.js';
import { codePoints } from './strings.js';
import { pyRepr, pyReprString, pyStr, pyTypeName } from './values.js';

// ---------------------------------------------------------------------------------------
// Exact float digits

/** |x| as N / 10^k exactly (every finite double is a finite decimal). */
function exactScaled(x: number): { n: bigint; k: number } {
  const a = Math.abs(x);
  if (a === 0) return { n: 0n, k: 0 };
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, a);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const exp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (exp === 0) e = -1074;
  else {
    mant |= 1n << 52n;
    e = exp - 1075;
  }
  if (e >= 0) return { n: mant << BigInt(e), k: 0 };
  return { n: mant * 5n ** BigInt(-e), k: -e };
}

/** n / 10^d rounded half to even. */
function roundDiv(n: bigint, d: number): bigint {
  if (d <= 0) return n * 10n ** BigInt(-d);
  const p = 10n ** BigInt(d);
  const q = n / p;
  const r = n % p;
  const twice = r * 2n;
  if (twice > p || (twice === p && q % 2n === 1n)) return q + 1n;
  return q;
}

/** `%.{prec}f` of |x|: the digits with `prec` decimals (no sign). */
function fixedDigits(x: number, prec: number): string {
  const { n, k } = exactScaled(x);
  const r = roundDiv(n, k - prec).toString();
  if (prec === 0) return r;
  const padded = r.padStart(prec + 1, '0');
  return `${padded.slice(0, -prec)}.${padded.slice(-prec)}`;
}

/** The first `sig` significant digits of |x| (rounded half to even) and the decimal exponent of the first one. */
function significant(x: number, sig: number): { digits: string; exp: number } {
  const { n, k } = exactScaled(x);
  if (n === 0n) return { digits: '0'.repeat(sig), exp: 0 };
  const len = n.toString().length;
  let r = roundDiv(n, len - sig);
  let exp = len - 1 - k;
  let digits = r.toString();
  if (digits.length > sig) {
    // rounding carried into a new digit (9.99 → 10.0)
    r = r / 10n;
    digits = r.toString();
    exp += 1;
  }
  return { digits, exp };
}

/** `%.{prec}e` of |x| (no sign): `d.ddde+XX`. */
function expDigits(x: number, prec: number, upper = false, alt = false): string {
  const { digits, exp } = significant(x, prec + 1);
  const mant = prec > 0 ? `${digits[0]}.${digits.slice(1)}` : alt ? `${digits[0]}.` : digits[0];
  const es = `${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return `${mant}${upper ? 'E' : 'e'}${es}`;
}

/** `%.{prec}g` of |x| (no sign); `alt` keeps trailing zeros; `noneType` is format()'s no-type float rule. */
function generalDigits(x: number, prec: number, upper: boolean, alt: boolean, noneType = false): string {
  const p = prec === 0 ? 1 : prec;
  if (x === 0) {
    const z = alt ? `0.${'0'.repeat(p - 1)}` : '0';
    return noneType && !alt ? '0.0' : z.endsWith('.') ? z.slice(0, -1) : z;
  }
  const { exp } = significant(x, p);
  let out: string;
  if (exp >= -4 && exp < p) {
    out = fixedDigits(x, p - 1 - exp);
    if (!alt && out.includes('.')) out = out.replace(/0+$/, '').replace(/\.$/, '');
    if (noneType && !out.includes('.')) out += '.0';
  } else {
    out = expDigits(x, p - 1, upper, alt);
    if (!alt) out = out.replace(/\.?0+(?=[eE])/, '');
  }
  return out;
}

/** Python's `repr(float)` digits of |x| (shortest round trip), used for format()'s no-type, no-precision case. */
function reprDigits(x: number): string {
  const r = pyRepr(new PyFloat(Math.abs(x)));
  return r;
}

// ---------------------------------------------------------------------------------------
// printf-style formatting: `str % args`

/** The value a `%` conversion reads as a number, or the TypeError Python raises. */
function numberArg(v: PyObject, conv: string, intOnly: boolean): PyNumber {
  const n = pyNumber(v);
  if (n === undefined || (intOnly && n instanceof PyFloat)) {
    if (v instanceof Undefined) v.fail();
    if (intOnly) throw new JinjaError('TypeError', `%${conv} format: an integer is required, not ${pyTypeName(v)}`);
    if ('diu'.includes(conv)) throw new JinjaError('TypeError', `%${conv} format: a real number is required, not ${pyTypeName(v)}`);
    throw new JinjaError('TypeError', `must be real number, not ${pyTypeName(v)}`);
  }
  return n;
}

/** An int's digits in a base (no sign). */
function intDigits(n: bigint, base: number): string {
  return (n < 0n ? -n : n).toString(base);
}

/** Pad a formatted number to `width` as printf does (`-` left, `0` zeros after the sign). */
function padNumber(sign: string, body: string, width: number, left: boolean, zero: boolean): string {
  const len = sign.length + body.length;
  if (len >= width) return sign + body;
  if (left) return sign + body + ' '.repeat(width - len);
  if (zero) return sign + '0'.repeat(width - len) + body;
  return ' '.repeat(width - len) + sign + body;
}

/** One `%` conversion of a value. */
function convertPercent(conv: string, v: PyObject, flags: string, width: number, prec: number | undefined, markup: boolean): string {
  const left = flags.includes('-');
  const zero = flags.includes('0') && !left;
  const plus = flags.includes('+');
  const space = flags.includes(' ');
  const alt = flags.includes('#');
  const signOf = (neg: boolean) => (neg ? '-' : plus ? '+' : space ? ' ' : '');
  switch (conv) {
    case 's':
    case 'r':
    case 'a': {
      let s = conv === 's' ? pyStr(v) : pyRepr(v);
      if (conv === 'a') s = s.replace(/[^\x00-\x7f]/gu, (c) => asciiEscape(c));
      // Markup % args: a str argument is escaped (MarkupSafe's _MarkupEscapeHelper)
      if (markup && !(v instanceof Markup)) s = markupEscape(s);
      if (prec !== undefined) s = codePoints(s).slice(0, prec).join('');
      const n = codePoints(s).length;
      return n >= width ? s : left ? s + ' '.repeat(width - n) : ' '.repeat(width - n) + s;
    }
    case 'd':
    case 'i':
    case 'u': {
      const n = numberArg(v, conv, false);
      const i = n instanceof PyFloat ? truncFloat(n.value) : BigInt(n);
      let body = intDigits(i, 10);
      if (prec !== undefined) body = body.padStart(prec, '0');
      return padNumber(signOf(i < 0n), body, width, left, zero);
    }
    case 'o':
    case 'x':
    case 'X': {
      const n = numberArg(v, conv, true);
      const i = BigInt(n as number | bigint);
      let body = intDigits(i, conv === 'o' ? 8 : 16);
      if (conv === 'X') body = body.toUpperCase();
      if (prec !== undefined) body = body.padStart(prec, '0');
      const prefix = alt ? (conv === 'o' ? '0o' : conv === 'x' ? '0x' : '0X') : '';
      return padNumber(signOf(i < 0n) + prefix, body, width, left, zero);
    }
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G': {
      const x = toDouble(numberArg(v, conv, false));
      const p = prec ?? 6;
      let body: string;
      if (!Number.isFinite(x)) body = Number.isNaN(x) ? 'nan' : 'inf';
      else if (conv === 'f' || conv === 'F') body = fixedDigits(x, p);
      else if (conv === 'e' || conv === 'E') body = expDigits(x, p, conv === 'E', alt);
      else body = generalDigits(x, p, conv === 'G', alt);
      if (conv === 'F' || conv === 'E' || conv === 'G') body = body.toUpperCase();
      const neg = x < 0 || Object.is(x, -0);
      return padNumber(signOf(neg && !Number.isNaN(x)), body, width, left, zero && Number.isFinite(x));
    }
    case 'c': {
      let ch: string;
      if (typeof v === 'string' || v instanceof Markup) {
        const t = typeof v === 'string' ? v : v.text;
        if (codePoints(t).length !== 1) throw new JinjaError('TypeError', '%c requires int or char');
        ch = t;
      } else {
        const n = pyNumber(v);
        if (n === undefined || n instanceof PyFloat) throw new JinjaError('TypeError', '%c requires int or char');
        const cp = Number(n);
        if (cp < 0 || cp > 0x10ffff) throw new JinjaError('OverflowError', '%c arg not in range(0x110000)');
        ch = String.fromCodePoint(cp);
      }
      return ch.length >= width ? ch : left ? ch + ' '.repeat(width - 1) : ' '.repeat(width - 1) + ch;
    }
    default:
      throw new JinjaError('ValueError', `unsupported format character '${conv}' (0x${conv.codePointAt(0)!.toString(16)})`);
  }
}

/** `int(x)` of a float: truncation toward zero (OverflowError for inf, ValueError for nan). */
function truncFloat(x: number): bigint {
  if (Number.isNaN(x)) throw new JinjaError('ValueError', 'cannot convert float NaN to integer');
  if (!Number.isFinite(x)) throw new JinjaError('OverflowError', 'cannot convert float infinity to integer');
  return BigInt(Math.trunc(x));
}

/** `ascii()`'s escape of one non-ASCII character. */
function asciiEscape(c: string): string {
  const cp = c.codePointAt(0)!;
  return cp <= 0xff ? `\\x${cp.toString(16).padStart(2, '0')}` : cp <= 0xffff ? `\\u${cp.toString(16).padStart(4, '0')}` : `\\U${cp.toString(16).padStart(8, '0')}`;
}

/** Python's `format % args` (printf style); a Markup format escapes its str arguments and gives Markup. */
export function pyPercentFormat(format: string | Markup, args: PyObject): string | Markup {
  const markup = format instanceof Markup;
  const fmt = markup ? format.text : format;
  const isMapping = args instanceof Map;
  const list: readonly PyObject[] = args instanceof PyTuple ? args.items : [args];
  let next = 0;
  let usedMapping = false;
  let out = '';
  let i = 0;
  const take = (): PyObject => {
    if (next >= list.length) throw new JinjaError('TypeError', 'not enough arguments for format string');
    return list[next++];
  };
  while (i < fmt.length) {
    const pct = fmt.indexOf('%', i);
    if (pct < 0) {
      out += fmt.slice(i);
      break;
    }
    out += fmt.slice(i, pct);
    let j = pct + 1;
    if (j >= fmt.length) throw new JinjaError('ValueError', 'incomplete format');
    let value: PyObject | undefined;
    if (fmt[j] === '(') {
      if (!isMapping) throw new JinjaError('TypeError', 'format requires a mapping');
      let depth = 1;
      let k = j + 1;
      while (k < fmt.length && depth > 0) {
        if (fmt[k] === '(') depth++;
        else if (fmt[k] === ')') depth--;
        k++;
      }
      if (depth > 0) throw new JinjaError('ValueError', 'incomplete format key');
      const key = fmt.slice(j + 1, k - 1);
      const m = args as ReadonlyMap<PyObject, PyObject>;
      if (!m.has(key)) throw new JinjaError('KeyError', pyReprString(key));
      value = m.get(key);
      usedMapping = true;
      j = k;
    }
    let flags = '';
    while (j < fmt.length && '-+ #0'.includes(fmt[j])) flags += fmt[j++];
    let width = 0;
    if (fmt[j] === '*') {
      width = Number(pyNumber(take()) ?? 0);
      j++;
    } else while (j < fmt.length && fmt[j] >= '0' && fmt[j] <= '9') width = width * 10 + Number(fmt[j++]);
    let prec: number | undefined;
    if (fmt[j] === '.') {
      j++;
      prec = 0;
      if (fmt[j] === '*') {
        prec = Number(pyNumber(take()) ?? 0);
        j++;
      } else while (j < fmt.length && fmt[j] >= '0' && fmt[j] <= '9') prec = prec * 10 + Number(fmt[j++]);
    }
    while (j < fmt.length && 'hlL'.includes(fmt[j])) j++;
    if (j >= fmt.length) throw new JinjaError('ValueError', 'incomplete format');
    const conv = fmt[j];
    if (conv === '%') {
      out += '%';
      i = j + 1;
      continue;
    }
    if (!'srabcdiouxXeEfFgG'.includes(conv)) throw new JinjaError('ValueError', `unsupported format character '${conv}' (0x${conv.codePointAt(0)!.toString(16)}) at index ${j}`);
    if (value === undefined) value = take();
    out += convertPercent(conv, value, flags, width, prec, markup);
    i = j + 1;
  }
  // CPython skips this check when the argument is a mapping (any object with __getitem__ but a tuple or str: a list, Undefined, a range too)
  const subscriptable = Array.isArray(args) || args instanceof Undefined || (args instanceof PyInstance && args.pyClass === 'range');
  if (!usedMapping && !isMapping && !subscriptable && next < list.length) throw new JinjaError('TypeError', 'not all arguments converted during string formatting');
  return markup ? new Markup(out) : out;
}

// ---------------------------------------------------------------------------------------
// format(value, spec)

interface Spec {
  fill: string;
  align: string;
  sign: string;
  alt: boolean;
  zero: boolean;
  width: number;
  grouping: string;
  precision: number | undefined;
  type: string;
}

/** Parse a format spec (`[[fill]align][sign][z][#][0][width][,|_][.precision][type]`). */
function parseSpec(spec: string): Spec {
  const m = /^(?:([\s\S])?([<>=^]))?([-+ ])?(z)?(#)?(0)?(\d+)?([,_])?(?:\.(\d+))?([a-zA-Z%])?$/u.exec(spec);
  if (m === null) throw new JinjaError('ValueError', 'Invalid format specifier');
  return {
    fill: m[1] ?? (m[6] && !m[2] ? '0' : ' '),
    align: m[2] ?? (m[6] ? '=' : ''),
    sign: m[3] ?? '',
    alt: m[5] !== undefined,
    zero: m[6] !== undefined,
    width: m[7] ? Number(m[7]) : 0,
    grouping: m[8] ?? '',
    precision: m[9] !== undefined ? Number(m[9]) : undefined,
    type: m[10] ?? '',
  };
}

/** Insert a grouping separator every three digits of an integer part. */
function group(digits: string, sep: string, every = 3): string {
  if (!sep) return digits;
  let out = '';
  for (let i = digits.length; i > 0; i -= every) out = digits.slice(Math.max(0, i - every), i) + (out ? sep + out : '');
  return out;
}

/** Align a formatted body in the spec's width (`=` pads after the sign). */
function align(spec: Spec, sign: string, body: string, defaultAlign: string): string {
  const al = spec.align || defaultAlign;
  const len = codePoints(sign + body).length;
  if (len >= spec.width) return sign + body;
  const pad = spec.width - len;
  switch (al) {
    case '<':
      return sign + body + spec.fill.repeat(pad);
    case '>':
      return spec.fill.repeat(pad) + sign + body;
    case '^':
      return spec.fill.repeat(Math.floor(pad / 2)) + sign + body + spec.fill.repeat(pad - Math.floor(pad / 2));
    default:
      return sign + spec.fill.repeat(pad) + body;
  }
}

/** The sign prefix a spec gives a number. */
function signPrefix(spec: Spec, neg: boolean): string {
  return neg ? '-' : spec.sign === '+' ? '+' : spec.sign === ' ' ? ' ' : '';
}

/** `format(int, spec)`. */
function formatInt(n: bigint, spec: Spec, typeName: string): string {
  const t = spec.type || 'd';
  if ('eEfFgG%'.includes(t)) return formatFloat(Number(n), spec);
  if (t === 'c') return align(spec, '', String.fromCodePoint(Number(n)), '>');
  const base = t === 'b' ? 2 : t === 'o' ? 8 : t === 'x' || t === 'X' ? 16 : t === 'd' || t === 'n' ? 10 : 0;
  if (base === 0) throw new JinjaError('ValueError', `Unknown format code '${t}' for object of type '${typeName}'`);
  if (spec.precision !== undefined) throw new JinjaError('ValueError', 'Precision not allowed in integer format specifier');
  let digits = intDigits(n, base);
  if (t === 'X') digits = digits.toUpperCase();
  const prefix = spec.alt && base !== 10 ? `0${t === 'X' ? 'X' : t}` : '';
  digits = group(digits, spec.grouping, base === 10 ? 3 : 4);
  return align(spec, signPrefix(spec, n < 0n) + prefix, digits, '>');
}

/** `format(float, spec)`. */
function formatFloat(x: number, spec: Spec): string {
  const t = spec.type;
  const neg = x < 0 || Object.is(x, -0);
  let body: string;
  if (!Number.isFinite(x)) body = Number.isNaN(x) ? 'nan' : 'inf';
  else if (t === '' && spec.precision === undefined) body = reprDigits(x);
  else if (t === 'f' || t === 'F') body = fixedDigits(x, spec.precision ?? 6);
  else if (t === 'e' || t === 'E') body = expDigits(x, spec.precision ?? 6, t === 'E', spec.alt);
  else if (t === 'g' || t === 'G' || t === 'n') body = generalDigits(x, spec.precision ?? 6, t === 'G', spec.alt);
  else if (t === '%') body = `${fixedDigits(x * 100, spec.precision ?? 6)}%`;
  else if (t === '') body = generalDigits(x, spec.precision as number, false, spec.alt, true);
  else throw new JinjaError('ValueError', `Unknown format code '${t}' for object of type 'float'`);
  if (t === 'F' || t === 'E' || t === 'G') body = body.toUpperCase();
  if (spec.grouping && Number.isFinite(x)) {
    const m = /^(\d+)(.*)$/s.exec(body);
    if (m) body = group(m[1], spec.grouping) + m[2];
  }
  return align(spec, signPrefix(spec, neg && !Number.isNaN(x)), body, '>');
}

/** Python's `format(value, spec)` (`__format__`): str, int, float and bool by the mini-language; other types only with an empty spec. */
export function pyFormatValue(v: PyObject, specText: string): string {
  if (v instanceof Undefined || v === null || Array.isArray(v) || v instanceof Map || v instanceof PyTuple || (typeof v === 'object' && !(v instanceof Markup) && !(v instanceof JsonNumber) && !(v instanceof PyFloat))) {
    if (specText === '') return pyStr(v);
    throw new JinjaError('TypeError', `unsupported format string passed to ${pyTypeName(v)}.__format__`);
  }
  if (typeof v === 'string' || v instanceof Markup) {
    const s = typeof v === 'string' ? v : v.text;
    if (specText === '') return s;
    const spec = parseSpec(specText);
    if (spec.type && spec.type !== 's') throw new JinjaError('ValueError', `Unknown format code '${spec.type}' for object of type 'str'`);
    if (spec.sign) throw new JinjaError('ValueError', 'Sign not allowed in string format specifier');
    if (spec.align === '=') throw new JinjaError('ValueError', "'=' alignment not allowed in string format specifier");
    const body = spec.precision !== undefined ? codePoints(s).slice(0, spec.precision).join('') : s;
    return align(spec, '', body, '<');
  }
  // bool with an empty spec is str(bool); with a spec it formats as an int
  if (typeof v === 'boolean' && specText === '') return v ? 'True' : 'False';
  const n = pyNumber(v) as PyNumber;
  if (specText === '') return pyStr(v);
  const spec = parseSpec(specText);
  if (n instanceof PyFloat) return formatFloat(n.value, spec);
  return formatInt(BigInt(n), spec, pyTypeName(v));
}

// ---------------------------------------------------------------------------------------
// str.format

/** How the sandbox looks a field up: `getattr(obj, name)` and `obj[key]`. */
export interface FormatLookups {
  readonly getattr: (obj: PyObject, name: string) => PyObject;
  readonly getitem: (obj: PyObject, key: PyObject) => PyObject;
}

/** `str.format(*args, **kwargs)` as `string.Formatter.vformat` runs it (Jinja2's SandboxedFormatter: lookups through the sandbox). */
export function pyStrFormat(format: string, args: readonly PyObject[], kwargs: ReadonlyMap<string, PyObject>, lookups: FormatLookups, escape = false): string {
  const state = { auto: 0 as number | undefined, manual: false };
  return vformat(format, args, kwargs, lookups, state, 2, escape);
}

function vformat(fmt: string, args: readonly PyObject[], kwargs: ReadonlyMap<string, PyObject>, lookups: FormatLookups, state: { auto: number | undefined; manual: boolean }, depth: number, escape: boolean): string {
  if (depth < 0) throw new JinjaError('ValueError', 'Max string recursion exceeded');
  let out = '';
  let i = 0;
  while (i < fmt.length) {
    const c = fmt[i];
    if (c === '}') {
      if (fmt[i + 1] === '}') {
        out += '}';
        i += 2;
        continue;
      }
      throw new JinjaError('ValueError', "Single '}' encountered in format string");
    }
    if (c !== '{') {
      out += c;
      i++;
      continue;
    }
    if (fmt[i + 1] === '{') {
      out += '{';
      i += 2;
      continue;
    }
    // a replacement field: up to the matching `}` (nested `{}` in the spec)
    let j = i + 1;
    let nest = 1;
    while (j < fmt.length) {
      if (fmt[j] === '{') nest++;
      else if (fmt[j] === '}' && --nest === 0) break;
      j++;
    }
    if (j >= fmt.length) throw new JinjaError('ValueError', "expected '}' before end of string");
    const field = fmt.slice(i + 1, j);
    i = j + 1;
    let name = field;
    let conv: string | undefined;
    let spec = '';
    const colon = indexOutsideBrackets(field, ':');
    if (colon >= 0) {
      spec = field.slice(colon + 1);
      name = field.slice(0, colon);
    }
    const bang = indexOutsideBrackets(name, '!');
    if (bang >= 0) {
      conv = name.slice(bang + 1);
      name = name.slice(0, bang);
      if (conv.length !== 1) throw new JinjaError('ValueError', 'expected \':\' after conversion specifier');
    }
    let value = getField(name, args, kwargs, lookups, state);
    if (conv !== undefined) {
      if (conv === 's') value = pyStr(value);
      else if (conv === 'r') value = pyRepr(value);
      else if (conv === 'a') value = pyRepr(value).replace(/[^\x00-\x7f]/gu, (ch) => asciiEscape(ch));
      else throw new JinjaError('ValueError', `Unknown conversion specifier ${conv}`);
    }
    const fullSpec = vformat(spec, args, kwargs, lookups, state, depth - 1, false);
    // MarkupSafe's EscapeFormatter: a Markup value takes no format spec (`__html_format__`)
    if (escape && value instanceof Markup && fullSpec) throw new JinjaError('ValueError', 'Unsupported format specification for Markup.');
    const text = pyFormatValue(value, fullSpec);
    // Markup.format: a value that is not Markup is escaped (MarkupSafe's EscapeFormatter)
    out += escape && !(value instanceof Markup) ? markupEscape(text) : text;
  }
  return out;
}

/** The first index of `ch` in a field name that is not inside `[…]`. */
function indexOutsideBrackets(s: string, ch: string): number {
  let inBracket = false;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '[') inBracket = true;
    else if (s[i] === ']') inBracket = false;
    else if (s[i] === ch && !inBracket) return i;
  }
  return -1;
}

/** A field's value: its first part (auto number, index or keyword), then `.attr` and `[key]` parts. */
function getField(name: string, args: readonly PyObject[], kwargs: ReadonlyMap<string, PyObject>, lookups: FormatLookups, state: { auto: number | undefined; manual: boolean }): PyObject {
  const m = /^([^.[]*)/.exec(name) as RegExpExecArray;
  const first = m[1];
  let rest = name.slice(first.length);
  let value: PyObject;
  if (first === '') {
    if (state.manual) throw new JinjaError('ValueError', 'cannot switch from manual field specification to automatic field numbering');
    const k = state.auto as number;
    state.auto = k + 1;
    if (k >= args.length) throw new JinjaError('IndexError', 'tuple index out of range');
    value = args[k];
  } else if (/^\d+$/.test(first)) {
    if (state.auto !== undefined && state.auto > 0) throw new JinjaError('ValueError', 'cannot switch from automatic field numbering to manual field specification');
    state.manual = true;
    const k = Number(first);
    if (k >= args.length) throw new JinjaError('IndexError', 'tuple index out of range');
    value = args[k];
  } else {
    if (!kwargs.has(first)) throw new JinjaError('KeyError', pyReprString(first));
    value = kwargs.get(first) as PyObject;
  }
  while (rest) {
    if (rest[0] === '.') {
      const a = /^\.([^.[]*)/.exec(rest) as RegExpExecArray;
      if (a[1] === '') throw new JinjaError('ValueError', 'Empty attribute in format string');
      value = lookups.getattr(value, a[1]);
      rest = rest.slice(a[0].length);
    } else {
      const close = rest.indexOf(']');
      if (close < 0) throw new JinjaError('ValueError', "Missing ']' in format string");
      const key = rest.slice(1, close);
      if (key === '') throw new JinjaError('ValueError', 'Empty attribute in format string');
      value = lookups.getitem(value, /^\d+$/.test(key) ? Number(key) : key);
      rest = rest.slice(close + 1);
      if (rest && rest[0] !== '.' && rest[0] !== '[') throw new JinjaError('ValueError', 'Only \'.\' or \'[\' may follow \']\' in format field specifier');
    }
  }
  return value;
}

/** Python's `round(x, ndigits)` of a float: the exact value rounded half to even at that decimal. */
export function pyRoundFloat(x: number, ndigits: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  if (ndigits > 308) return x;
  if (ndigits < -308) return 0 * Math.sign(x);
  const neg = x < 0;
  const { n, k } = exactScaled(x);
  const r = roundDiv(n, k - ndigits);
  const text = ndigits >= 0 ? `${r}e-${ndigits}` : `${r}e${-ndigits}`;
  const v = Number(text);
  return neg ? -v : v;
}

/** Python's `a % b`: printf-style formatting when `a` is a str (or Markup), else the numbers' modulo. */
export function pyMod(a: PyObject, b: PyObject): PyObject {
  // str % Undefined formats Undefined as one argument (str.__mod__ runs before Undefined.__rmod__)
  if (typeof a === 'string' || a instanceof Markup) return pyPercentFormat(a, b);
  return pyNumberMod(a, b);
}
