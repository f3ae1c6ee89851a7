/**
 * Oniguruma patterns (what a `tokenizer.json` Split or Replace holds: the Rust `tokenizers` crate
 * compiles them with onig) as JavaScript regular expressions with the `u` flag, meaning for meaning:
 *
 * - `\s` is Unicode White_Space in onig (with U+0085, without U+FEFF; JavaScript's `\s` is the
 *   other way round): `\p{White_Space}`; `\S` its complement; `\d` Decimal_Number, `\w` Letter,
 *   Mark, Number or Connector_Punctuation (JavaScript's are ASCII);
 * - `(?i:…)` (no modifiers in Node 20's engine): each letter written as the class of its case
 *   variants (with U+017F for s and U+212A for k, which fold to them);
 * - `.` is any character but `\n`; `^` and `$` are line anchors (onig's Ruby syntax);
 * - identity escapes JavaScript's `u` mode refuses (`\"`) become the character itself.
 *
 * What has no faithful translation (possessive quantifiers, atomic groups, `\b`, nested classes…)
 * throws a RegexTranslationError saying which.
 */

/** A pattern that cannot be translated faithfully. */
export class RegexTranslationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegexTranslationError';
  }
}

const WHITE = '\\p{White_Space}';
const NOT_WHITE = '\\P{White_Space}';
const WORD_PARTS = '\\p{L}\\p{M}\\p{N}\\p{Pc}';
// characters JavaScript's u mode accepts escaped (outside a class; `-` too inside one)
const SYNTAX = new Set('^$\\.*+?()[]{}|/');
// letters whose case class holds a character outside ASCII (Unicode simple case folding)
const EXTRA_CASE: Readonly<Record<string, string>> = { s: '\u017f', k: '\u212a' };

/** The case variants of one character, as class members (escaped when they need to be). */
function caseVariants(ch: string): string[] {
  const lower = ch.toLowerCase();
  const upper = ch.toUpperCase();
  const out = new Set([ch]);
  if ([...lower].length === 1) out.add(lower);
  if ([...upper].length === 1) out.add(upper);
  const extra = EXTRA_CASE[lower];
  if (extra) out.add(extra);
  return [...out];
}

function hasCase(ch: string): boolean {
  return ch.toLowerCase() !== ch.toUpperCase() || EXTRA_CASE[ch.toLowerCase()] !== undefined;
}

/** A literal character inside a class. */
function classLiteral(ch: string): string {
  return ch === '\\' || ch === ']' || ch === '[' || ch === '-' || ch === '^' ? `\\${ch}` : ch;
}

/** A literal character outside a class. */
function literal(ch: string): string {
  return SYNTAX.has(ch) ? `\\${ch}` : ch;
}

/** A Unicode property name as JavaScript spells it (`\p{…}`), or undefined when it has none. */
function propertyName(name: string): string | undefined {
  const tries = [name, `Script=${name}`];
  const cap = name.charAt(0).toUpperCase() + name.slice(1);
  if (cap !== name) tries.push(cap, `Script=${cap}`);
  for (const t of tries) {
    try {
      new RegExp(`\\p{${t}}`, 'u');
      return t;
    } catch {
      // not this spelling
    }
  }
  return undefined;
}

interface Frame {
  ci: boolean;
}

/** The JavaScript source (for `new RegExp(source, 'gu')`) of an Oniguruma pattern. */
export function translateOnigRegex(pattern: string): string {
  const chars = [...pattern];
  const stack: Frame[] = [{ ci: false }];
  let out = '';
  let i = 0;
  const top = () => stack[stack.length - 1] as Frame;
  const fail = (what: string): never => {
    throw new RegexTranslationError(`${what} (at ${i} in /${pattern}/) has no faithful JavaScript translation`);
  };

  /** Read an escape at chars[i] === '\\'; returns [text outside a class, text inside a class] or a literal. */
  const escape = (inClass: boolean): { kind: 'set'; out: string; inner?: string } | { kind: 'char'; ch: string } => {
    const c = chars[i + 1];
    if (c === undefined) fail('a trailing backslash');
    i += 2;
    switch (c) {
      case 's':
        return { kind: 'set', out: WHITE, inner: WHITE };
      case 'S':
        return { kind: 'set', out: NOT_WHITE, inner: NOT_WHITE };
      case 'd':
        return { kind: 'set', out: '\\p{Nd}', inner: '\\p{Nd}' };
      case 'D':
        return { kind: 'set', out: '\\P{Nd}', inner: '\\P{Nd}' };
      case 'w':
        return { kind: 'set', out: `[${WORD_PARTS}]`, inner: WORD_PARTS };
      case 'W':
        if (inClass) fail('\\W inside a class');
        return { kind: 'set', out: `[^${WORD_PARTS}]` };
      case 'h':
        return { kind: 'set', out: '[0-9a-fA-F]', inner: '0-9a-fA-F' };
      case 'H':
        if (inClass) fail('\\H inside a class');
        return { kind: 'set', out: '[^0-9a-fA-F]' };
      case 'p':
      case 'P': {
        if (chars[i] !== '{') fail(`\\${c} without {…}`);
        const end = chars.indexOf('}', i);
        if (end < 0) fail(`an unclosed \\${c}{`);
        let name = chars.slice(i + 1, end).join('');
        i = end + 1;
        let negate = c === 'P';
        if (name.startsWith('^')) {
          negate = !negate;
          name = name.slice(1);
        }
        const js = propertyName(name);
        if (js === undefined) fail(`the property \\p{${name}}`);
        const s = `\\${negate ? 'P' : 'p'}{${js}}`;
        return { kind: 'set', out: s, inner: s };
      }
      case 'n':
        return { kind: 'char', ch: '\n' };
      case 'r':
        return { kind: 'char', ch: '\r' };
      case 't':
        return { kind: 'char', ch: '\t' };
      case 'f':
        return { kind: 'char', ch: '\f' };
      case 'v':
        return { kind: 'char', ch: '\v' };
      case 'a':
        return { kind: 'char', ch: '\x07' };
      case 'e':
        return { kind: 'char', ch: '\x1b' };
      case '0': {
        let oct = '';
        while (oct.length < 2 && /[0-7]/.test(chars[i] ?? '')) oct += chars[i++];
        return { kind: 'char', ch: String.fromCharCode(parseInt(oct || '0', 8)) };
      }
      case 'x': {
        if (chars[i] === '{') {
          const end = chars.indexOf('}', i);
          const hex = chars.slice(i + 1, end).join('');
          if (end < 0 || !/^[0-9a-fA-F]{1,8}$/.test(hex)) fail('a malformed \\x{…}');
          i = end + 1;
          return { kind: 'char', ch: String.fromCodePoint(parseInt(hex, 16)) };
        }
        let hex = '';
        while (hex.length < 2 && /[0-9a-fA-F]/.test(chars[i] ?? '')) hex += chars[i++];
        if (!hex) fail('a malformed \\x');
        return { kind: 'char', ch: String.fromCharCode(parseInt(hex, 16)) };
      }
      case 'u': {
        const hex = chars.slice(i, i + 4).join('');
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('a malformed \\u');
        i += 4;
        return { kind: 'char', ch: String.fromCharCode(parseInt(hex, 16)) };
      }
      default:
        if (/[0-9A-Za-z]/.test(c as string)) fail(`the escape \\${c}`);
        return { kind: 'char', ch: c as string };
    }
  };

  /** A class `[…]` starting at chars[i] === '['. */
  const charClass = (): string => {
    i++;
    let body = '';
    if (chars[i] === '^') {
      body += '^';
      i++;
    }
    const ci = top().ci;
    let first = true;
    for (;;) {
      const c = chars[i];
      if (c === undefined) fail('an unclosed class');
      if (c === ']' && !first) {
        i++;
        break;
      }
      first = false;
      if (c === '[') fail('a nested class');
      if (c === '&' && chars[i + 1] === '&') fail('a class intersection');
      let lo: string;
      if (c === '\\') {
        const e = escape(true);
        if (e.kind === 'set') {
          if (e.inner === undefined) fail('this class escape inside a class');
          if (chars[i] === '-' && chars[i + 1] !== ']') fail('a range from a class escape');
          body += e.inner;
          continue;
        }
        lo = e.ch;
      } else {
        lo = c;
        i++;
      }
      // a range lo-hi
      if (chars[i] === '-' && chars[i + 1] !== undefined && chars[i + 1] !== ']') {
        i++;
        let hi: string;
        if (chars[i] === '\\') {
          const e = escape(true);
          if (e.kind === 'set') fail('a range to a class escape');
          hi = (e as { ch: string }).ch;
        } else hi = chars[i++] as string;
        body += `${classLiteral(lo)}-${classLiteral(hi)}`;
        if (ci) body += caseRange(lo, hi);
        continue;
      }
      body += ci && hasCase(lo) ? caseVariants(lo).map(classLiteral).join('') : classLiteral(lo);
    }
    return `[${body}]`;
  };

  /** The case variants of an ASCII letter range (only ranges inside a-z or A-Z are supported). */
  const caseRange = (lo: string, hi: string): string => {
    const a = lo.codePointAt(0) as number;
    const b = hi.codePointAt(0) as number;
    let extra = '';
    for (let cp = a; cp <= b; cp++) {
      const ch = String.fromCodePoint(cp);
      if (!hasCase(ch)) continue;
      if (cp > 0x7f) fail('a case-insensitive range beyond ASCII');
      for (const v of caseVariants(ch)) if (v !== ch) extra += classLiteral(v);
    }
    return extra;
  };

  while (i < chars.length) {
    const c = chars[i] as string;
    if (c === '\\') {
      const e = escape(false);
      if (e.kind === 'set') out += e.out;
      else out += top().ci && hasCase(e.ch) ? `[${caseVariants(e.ch).map(classLiteral).join('')}]` : literal(e.ch);
      continue;
    }
    if (c === '[') {
      out += charClass();
      continue;
    }
    if (c === '(') {
      if (chars[i + 1] !== '?') {
        stack.push({ ci: top().ci });
        out += '(';
        i++;
        continue;
      }
      const rest = chars.slice(i + 2, i + 12).join('');
      if (rest.startsWith(':') || rest.startsWith('=') || rest.startsWith('!') || rest.startsWith('<=') || rest.startsWith('<!')) {
        const len = rest.startsWith('<') ? 2 : 1;
        stack.push({ ci: top().ci });
        out += `(?${rest.slice(0, len)}`;
        i += 2 + len;
        continue;
      }
      if (rest.startsWith('#')) {
        const end = chars.indexOf(')', i);
        if (end < 0) fail('an unclosed comment');
        i = end + 1;
        continue;
      }
      const named = /^<([A-Za-z_]\w*)>/.exec(rest);
      if (named) {
        stack.push({ ci: top().ci });
        out += `(?<${named[1]}>`;
        i += 2 + named[0].length;
        continue;
      }
      const flags = /^(-?i)([:)])/.exec(rest);
      if (flags) {
        const on = flags[1] === 'i';
        if (flags[2] === ':') {
          stack.push({ ci: on });
          out += '(?:';
        } else top().ci = on; // (?i) applies to the rest of the enclosing group
        i += 2 + flags[0].length;
        continue;
      }
      fail(`the group (?${rest.charAt(0)}`);
    }
    if (c === ')') {
      if (stack.length === 1) fail('an unbalanced )');
      stack.pop();
      out += ')';
      i++;
      continue;
    }
    if (c === '{') {
      const q = /^\{(\d*)(,?)(\d*)\}/.exec(chars.slice(i, i + 24).join(''));
      if (q && (q[1] !== '' || (q[2] === ',' && q[3] !== ''))) {
        out += `{${q[1] === '' ? '0' : q[1]}${q[2]}${q[3]}}`;
        i += q[0].length;
        possessive();
        continue;
      }
      out += '\\{';
      i++;
      continue;
    }
    if (c === '*' || c === '+' || c === '?') {
      out += c;
      i++;
      possessive();
      continue;
    }
    if (c === '.') {
      out += '[^\\n]';
      i++;
      continue;
    }
    if (c === '^') {
      out += '(?<![^\\n])';
      i++;
      continue;
    }
    if (c === '$') {
      out += '(?![^\\n])';
      i++;
      continue;
    }
    if (c === '|') {
      out += '|';
      i++;
      continue;
    }
    out += top().ci && hasCase(c) ? `[${caseVariants(c).map(classLiteral).join('')}]` : literal(c);
    i++;
  }
  if (stack.length !== 1) fail('an unclosed (');
  return out;

  /** After a quantifier: `?` (lazy) is kept; `+` (possessive) has no JavaScript form. */
  function possessive(): void {
    if (chars[i] === '?') {
      out += '?';
      i++;
    } else if (chars[i] === '+') fail('a possessive quantifier');
  }
}

/** An Oniguruma pattern compiled for global matching (`gu`). */
export function onigRegex(pattern: string): RegExp {
  return new RegExp(translateOnigRegex(pattern), 'gu');
}
