/**
 * The template lexer: Jinja2's lexer rules with transformers' settings (default delimiters,
 * `trim_blocks=True`, `lstrip_blocks=True`, no line statements, the trailing newline dropped):
 * text, `{{ }}`, `{% %}`, `{# #}` and `{% raw %}`, whitespace control (`-`, `+`), and the
 * expression tokens (names, strings with Python's escapes, ints, floats, operators) with the
 * bracket balancing that lets `}}` close a dict inside a print tag.
 */
import { JinjaError } from '../emit/python/errors.js';

/** A token: its type (Jinja2's token names: `name`, `string`, `add`, `block_begin`…), its value and line. */
export interface Token {
  readonly type: string;
  /** A name's or data's text, a string's decoded value, an int (number or BigInt), a float (number), an operator's text. */
  readonly value: string | number | bigint;
  readonly lineno: number;
}

/** Python's `\s` (str.isspace()) as a regular-expression class. */
const WS = '[\\t\\n\\u000b\\u000c\\r\\u001c-\\u001f \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const WS_RE = new RegExp(`${WS}+`, 'y');
const WS_ONLY = new RegExp(`^${WS}+$`);
const WS_TAIL = new RegExp(`${WS}+$`);

/** The operators, longest first (as Jinja2's operator regex orders them). */
const OPERATORS: ReadonlyMap<string, string> = new Map([
  ['//', 'floordiv'],
  ['**', 'pow'],
  ['==', 'eq'],
  ['!=', 'ne'],
  ['>=', 'gteq'],
  ['<=', 'lteq'],
  ['+', 'add'],
  ['-', 'sub'],
  ['/', 'div'],
  ['*', 'mul'],
  ['%', 'mod'],
  ['~', 'tilde'],
  ['[', 'lbracket'],
  [']', 'rbracket'],
  ['(', 'lparen'],
  [')', 'rparen'],
  ['{', 'lbrace'],
  ['}', 'rbrace'],
  ['>', 'gt'],
  ['<', 'lt'],
  ['=', 'assign'],
  ['.', 'dot'],
  [':', 'colon'],
  ['|', 'pipe'],
  [',', 'comma'],
  [';', 'semicolon'],
]);

/** The operator text of each operator token type (for messages). */
export const OPERATOR_TEXT: ReadonlyMap<string, string> = new Map([...OPERATORS].map(([k, v]) => [v, k]));

// Jinja2's float_re and integer_re (with `_` separators), and a name (checked with isidentifier after)
const FLOAT_RE = /(?<!\.)(?:\d+_)*\d+(?:(?:\.(?:\d+_)*\d+)?[eE][+-]?(?:\d+_)*\d+|\.(?:\d+_)*\d+)/y;
const INTEGER_RE = /0[bB](?:_?[01])+|0[oO](?:_?[0-7])+|0[xX](?:_?[\da-fA-F])+|[1-9](?:_?\d)*|0(?:_?0)*/y;
const NAME_RE = /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}\u00b7\u0387\u1369-\u1371\u19da\u2118\u212e\u309b\u309c]+/uy;
const IDENTIFIER = /^[\p{ID_Start}_][\p{ID_Continue}]*$/u;
const STRING_RE = /'([^'\\]*(?:\\[\s\S][^'\\]*)*)'|"([^"\\]*(?:\\[\s\S][^"\\]*)*)"/y;
const OPERATOR_RE = /\/\/|\*\*|==|!=|>=|<=|[+\-/*%~[\](){}><=.:|,;]/y;
const RAW_BEGIN_RE = new RegExp(`\\{%([-+]?)${WS}*raw${WS}*(?:-%\\}${WS}*|%\\})`, 'y');
const RAW_END_RE = new RegExp(`\\{%([-+]?)${WS}*endraw${WS}*(?:\\+%\\}|-%\\}${WS}*|%\\}\\n?)`, 'g');
const BLOCK_END_RE = new RegExp(`\\+%\\}|-%\\}${WS}*|%\\}\\n?`, 'y');
const VARIABLE_END_RE = new RegExp(`-\\}\\}${WS}*|\\}\\}`, 'y');
const COMMENT_END_WS = new RegExp(`${WS}*`, 'y');

/** A TemplateSyntaxError (Jinja2's message only, as `str()` of a translated syntax error gives). */
export function syntaxError(message: string): JinjaError {
  return new JinjaError('TemplateSyntaxError', message);
}

/** Count the newlines in a string. */
function newlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/** The template's tokens, as Jinja2's lexer makes them (comments and whitespace dropped, data newlines normalized). */
export function tokenize(source: string): Token[] {
  // newlines normalized to \n, and one trailing newline dropped (keep_trailing_newline=False)
  let src = source.replace(/\r\n|\r/g, '\n');
  if (src.endsWith('\n')) src = src.slice(0, -1);
  const tokens: Token[] = [];
  const n = src.length;
  let pos = 0;
  let lineno = 1;
  let lineStarting = true;
  const balancing: string[] = [];

  const push = (type: string, value: string | number | bigint, line: number) => tokens.push({ type, value, lineno: line });

  /** The text before a tag, with the tag's `-` (strip all whitespace) or lstrip_blocks applied. */
  const stripText = (text: string, sign: string, isVariable: boolean): string => {
    if (sign === '-') return text.replace(WS_TAIL, '');
    // lstrip_blocks: spaces between the line start and a block or comment tag (not a variable tag) are removed
    if (sign !== '+' && !isVariable) {
      const l = text.lastIndexOf('\n') + 1;
      if ((l > 0 || lineStarting) && WS_ONLY.test(text.slice(l))) return text.slice(0, l);
    }
    return text;
  };

  while (pos < n) {
    // root state: find the next tag
    let i = pos;
    let kind = '';
    for (;;) {
      i = src.indexOf('{', i);
      if (i < 0 || i + 1 >= n) {
        i = -1;
        break;
      }
      const c = src[i + 1];
      if (c === '{' || c === '%' || c === '#') {
        kind = c;
        break;
      }
      i++;
    }
    if (i < 0) {
      const text = src.slice(pos);
      push('data', text, lineno);
      lineno += newlines(text);
      break;
    }
    let text = src.slice(pos, i);
    // the raw block is tried before the block tag
    if (kind === '%') {
      RAW_BEGIN_RE.lastIndex = i;
      const raw = RAW_BEGIN_RE.exec(src);
      if (raw !== null) {
        text = stripText(text, raw[1], false);
        if (text) push('data', text, lineno);
        lineno += newlines(src.slice(pos, i));
        lineno += newlines(raw[0]);
        pos = i + raw[0].length;
        lineStarting = raw[0].endsWith('\n');
        RAW_END_RE.lastIndex = pos;
        const end = RAW_END_RE.exec(src);
        if (end === null) throw syntaxError('Missing end of raw directive');
        let body = src.slice(pos, end.index);
        body = stripText(body, end[1], false);
        if (body) push('data', body, lineno);
        lineno += newlines(src.slice(pos, end.index)) + newlines(end[0]);
        pos = end.index + end[0].length;
        lineStarting = end[0].endsWith('\n');
        continue;
      }
    }
    const signChar = src[i + 2];
    const sign = signChar === '-' || signChar === '+' ? signChar : '';
    const stripped = stripText(text, sign, kind === '{');
    if (stripped) push('data', stripped, lineno);
    lineno += newlines(text);
    pos = i + 2 + sign.length;
    lineStarting = false;
    if (kind === '#') {
      // a comment: up to the first `#}` (with its `-`/`+` and trim_blocks' newline)
      const k = src.indexOf('#}', pos);
      if (k < 0) throw syntaxError('Missing end of comment tag');
      let end = k + 2;
      const before = k - 1 >= pos ? src[k - 1] : '';
      if (before === '-') {
        COMMENT_END_WS.lastIndex = end;
        COMMENT_END_WS.exec(src);
        end = COMMENT_END_WS.lastIndex;
      } else if (before !== '+' && src[end] === '\n') end++;
      lineno += newlines(src.slice(pos, end));
      lineStarting = src[end - 1] === '\n';
      pos = end;
      continue;
    }
    const isBlock = kind === '%';
    push(isBlock ? 'block_begin' : 'variable_begin', src.slice(i, pos), lineno);
    // inside the tag: expression tokens until the end delimiter (only while brackets are balanced)
    for (;;) {
      if (pos >= n) return finish(tokens, lineno);
      if (balancing.length === 0) {
        const endRe = isBlock ? BLOCK_END_RE : VARIABLE_END_RE;
        endRe.lastIndex = pos;
        const m = endRe.exec(src);
        if (m !== null) {
          push(isBlock ? 'block_end' : 'variable_end', m[0], lineno);
          lineno += newlines(m[0]);
          lineStarting = m[0].endsWith('\n');
          pos += m[0].length;
          break;
        }
      }
      WS_RE.lastIndex = pos;
      let m = WS_RE.exec(src);
      if (m !== null) {
        lineno += newlines(m[0]);
        pos += m[0].length;
        continue;
      }
      FLOAT_RE.lastIndex = pos;
      m = FLOAT_RE.exec(src);
      if (m !== null) {
        push('float', Number(m[0].replace(/_/g, '')), lineno);
        pos += m[0].length;
        continue;
      }
      INTEGER_RE.lastIndex = pos;
      m = INTEGER_RE.exec(src);
      if (m !== null) {
        const big = BigInt(m[0].replace(/_/g, ''));
        push('integer', big >= -9007199254740991n && big <= 9007199254740991n ? Number(big) : big, lineno);
        pos += m[0].length;
        continue;
      }
      NAME_RE.lastIndex = pos;
      m = NAME_RE.exec(src);
      if (m !== null) {
        if (!IDENTIFIER.test(m[0])) throw syntaxError('Invalid character in identifier');
        push('name', m[0], lineno);
        pos += m[0].length;
        continue;
      }
      STRING_RE.lastIndex = pos;
      m = STRING_RE.exec(src);
      if (m !== null) {
        push('string', decodeString(m[1] ?? m[2]), lineno);
        lineno += newlines(m[0]);
        pos += m[0].length;
        continue;
      }
      OPERATOR_RE.lastIndex = pos;
      m = OPERATOR_RE.exec(src);
      if (m !== null) {
        const op = m[0];
        if (op === '{') balancing.push('}');
        else if (op === '(') balancing.push(')');
        else if (op === '[') balancing.push(']');
        else if (op === '}' || op === ')' || op === ']') {
          if (balancing.length === 0) throw syntaxError(`unexpected '${op}'`);
          const expected = balancing.pop();
          if (expected !== op) throw syntaxError(`unexpected '${op}', expected '${expected}'`);
        }
        push(OPERATORS.get(op) as string, op, lineno);
        pos += op.length;
        continue;
      }
      throw syntaxError(`unexpected char ${reprChar(src[pos])} at ${pos}`);
    }
  }
  return finish(tokens, lineno);
}

function finish(tokens: Token[], lineno: number): Token[] {
  tokens.push({ type: 'eof', value: '', lineno });
  return tokens;
}

/** Python's repr of one character (for `unexpected char '!' at 5`). */
function reprChar(c: string): string {
  if (c === "'") return `"'"`;
  if (c === '\\') return "'\\\\'";
  return `'${c}'`;
}

/**
 * A string literal's value: Python's `unicode-escape` decoding of its text (`\n`, `\t`, `\x41`,
 * `\u00e9`, `\U0001F600`, octal `\101`, `\` + newline removed; an unknown escape kept as written).
 */
export function decodeString(text: string): string {
  if (!text.includes('\\')) return text;
  // Jinja2 decodes `text.encode("ascii", "backslashreplace").decode("unicode-escape")`: a backslash
  // before a non-ASCII character therefore keeps the character's own escape as text (`\\é` → `\\xe9`)
  const raw = text.replace(/[^\x00-\x7f]/gu, (c) => {
    const cp = c.codePointAt(0) as number;
    return cp <= 0xff ? `\\x${cp.toString(16).padStart(2, '0')}` : cp <= 0xffff ? `\\u${cp.toString(16).padStart(4, '0')}` : `\\U${cp.toString(16).padStart(8, '0')}`;
  });
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = raw[++i];
    switch (e) {
      case undefined:
        throw syntaxError('\\ at end of string');
      case '\n':
        break;
      case '\\':
      case "'":
      case '"':
        out += e;
        break;
      case 'a':
        out += '\x07';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'v':
        out += '\v';
        break;
      case 'x':
      case 'u':
      case 'U': {
        const len = e === 'x' ? 2 : e === 'u' ? 4 : 8;
        const hex = raw.slice(i + 1, i + 1 + len);
        if (hex.length < len || !/^[0-9a-fA-F]+$/.test(hex)) throw syntaxError(`truncated \\${e}${'X'.repeat(len)} escape`);
        const cp = parseInt(hex, 16);
        if (cp > 0x10ffff) throw syntaxError('illegal Unicode character');
        out += String.fromCodePoint(cp);
        i += len;
        break;
      }
      case 'N':
        throw new JinjaError('Unsupported', 'a \\N{…} escape in a string literal is not decoded by the template engine');
      default:
        if (e >= '0' && e <= '7') {
          let oct = e;
          while (oct.length < 3 && raw[i + 1] >= '0' && raw[i + 1] <= '7') oct += raw[++i];
          out += String.fromCodePoint(parseInt(oct, 8));
        } else out += `\\${e}`;
    }
  }
  return out;
}
