/**
 * Pythonic tool calls, `[get_weather(city="Paris", days=3), …]`: the Llama 4 family's syntax
 * (`llama4-pythonic`), its server parsers, and the Python reader LFM2 (./lfm2.ts) and OLMo 3
 * (./olmo3.ts) share.
 *
 * The servers read these calls with Python itself (`ast.parse`), so this module carries a
 * faithful-enough `ast.parse` (CPython 3.11's tokenizer and PEG grammar, first pass): whether a
 * text is Python at all, and the expression tree of its first statement.
 *
 * - vLLM `pythonic` (`vllm/tool_parsers/pythonic_tool_parser.py` @ 93e3bc8f): the whole output
 *   must match `TOOL_CALL_REGEX` from its first character (the `regex` module) and be a Python
 *   module whose first statement is a list of calls; every keyword value must be a constant, a
 *   list, a dict with constant keys, or the names `null`/`true`/`false` (`utils.get_parameter_value`;
 *   `-1` is a UnaryOp and refused); the call name is a name or a dotted name. Anything else,
 *   anywhere, returns the whole output as content. Text before or after the list fails it.
 * - vLLM `llama4_pythonic` (`llama4_pythonic_tool_parser.py` @ 93e3bc8f): the same, after dropping
 *   a leading `<|python_start|>` and then every `<|python_end|>` (content on failure is that
 *   stripped text).
 * - SGLang `pythonic` (`python/sglang/srt/function_call/pythonic_detector.py` @ 8471c9eb): the
 *   output stripped and rid of `<|python_start|>`/`<|python_end|>`, the first `re.search` match of
 *   the same pattern (its exact span: Python's backtracking order) parsed alone; text outside the
 *   match is the content; calls to tools not in the request and calls through a dotted name are
 *   skipped; a value other than a constant, list or dict (with constant keys) drops every call.
 * - `llama4-pythonic` (strict): a `[name(key=literal, …), …]` list anywhere in the text (optionally
 *   `<|python_start|>` before and `<|python_end|>` after it), Python literals as JSON (`None`,
 *   `True`, negative numbers; a tuple as an array with a note); a positional argument or a
 *   non-literal value drops that call; the text ending inside the list drops the cut call
 *   (the whole calls before it are returned, marked incomplete: no `]`).
 *
 * Not emulated: `\N{name}` escapes (no Unicode name table: read as a syntax error), the regex
 * timeout, and Python's recursion limits beyond an approximate AST depth of 2982.
 */
import { formatPythonFloat, JsonNumber, type JsonValue } from '../../ir/json.js';
import { checkValue, declaredParameters, parameterSchema, type Note } from '../xml/decode.js';
import type { CallDraft, DialectParse, TextNote } from '../xml/draft.js';
import { pythonLiteralEval } from '../xml/literal-eval.js';
import { PyDict, PythonException, pyInt, pyFloat, pyStrip, pyTypeName, pythonJsonDumps, type PyValue } from '../xml/python-values.js';
import { findTool, type ParseTool } from '../xml/tools.js';
import { SGLANG_COMMIT, VLLM_COMMIT, type FamilySyntax, type ParserResult, type ServerCall, type ServerParserEntry } from './types.js';
import { pushAll } from '../../ir/arrays.js';

// =======================================================================================
// Python's ast.parse (CPython 3.11)
// =======================================================================================

/** A SyntaxError of the emulated `ast.parse`; `eof` when the text ended inside a construct (an open bracket or string). */
export class PySyntaxError extends PythonException {
  constructor(
    message: string,
    /** Index in the text where it was found. */
    readonly at: number,
    /** The text ended first (an unclosed bracket, string or continuation). */
    readonly eof = false,
  ) {
    super('SyntaxError', message);
  }
}
/** A tokenizer error: never backtracked over. */
class PyLexError extends PySyntaxError {}

interface Tok {
  readonly k: 'NAME' | 'NUMBER' | 'STRING' | 'OP' | 'NEWLINE' | 'INDENT' | 'DEDENT' | 'END';
  /** NAME: the raw word; OP: the operator; otherwise the raw text. */
  readonly v: string;
  readonly start: number;
  readonly end: number;
  readonly num?: PyValue;
  readonly str?: { readonly bytes: boolean; readonly f: boolean; readonly value: string };
}

const HARD_KEYWORDS = new Set(['False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif', 'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try', 'while', 'with', 'yield']);
const STRING_PREFIXES = new Set(['', 'r', 'u', 'b', 'f', 'br', 'rb', 'fr', 'rf']);
const OPS3 = new Set(['**=', '...', '//=', '<<=', '>>=']);
const OPS2 = new Set(['!=', '%=', '&=', '**', '*=', '+=', '-=', '->', '//', '/=', ':=', '<<', '<=', '<>', '==', '>=', '>>', '@=', '^=', '|=']);
const OPS1 = new Set('%&()*+,-./:;<=>@[]^{|}~');
const CLOSERS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
// CPython's MAXLEVEL (open brackets) and MAXINDENT (indentation levels)
const MAX_BRACKETS = 200;
const MAX_INDENT = 100;
const PY_IDENTIFIER = /^[\p{XID_Start}_][\p{XID_Continue}]*$/u;

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isHex = (c: string | undefined) => c !== undefined && /^[0-9a-fA-F]$/.test(c);
// is_potential_identifier_start / _char: ASCII letters, `_`, and every non-ASCII character
const isIdStart = (c: string | undefined) => c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c.charCodeAt(0) >= 128);
const isIdChar = (c: string | undefined) => isIdStart(c) || isDigit(c);

/** CPython's tokenizer over `s[from, to)`, one token at a time (so a reader can stop after a closing bracket). */
class Lexer {
  private i: number;
  private atBol = true;
  private lineHasTokens = false;
  private readonly parens: string[] = [];
  private readonly indents = [0];
  private readonly alts = [0];
  private readonly queue: Tok[] = [];
  private failed: PyLexError | undefined;

  constructor(
    private readonly s: string,
    from: number,
    private readonly to: number,
    /** false: each line stands alone (no INDENT/DEDENT), as a reader of one call per line wants. */
    private readonly blocks = true,
    /** true: the text ending inside brackets gives END (a reader then sees where it stopped) instead of a SyntaxError. */
    private readonly endInBrackets = false,
  ) {
    this.i = from;
  }

  next(): Tok {
    if (this.failed) throw this.failed;
    try {
      return this.scan();
    } catch (e) {
      if (e instanceof PyLexError) this.failed = e;
      throw e;
    }
  }

  private fail(message: string, at: number, eof = false): never {
    throw new PyLexError(message, at, eof);
  }

  private nlLength(j: number): number {
    const c = this.s[j];
    if (j >= this.to) return 0;
    if (c === '\n') return 1;
    if (c === '\r') return j + 1 < this.to && this.s[j + 1] === '\n' ? 2 : 1;
    return 0;
  }

  private tok(k: Tok['k'], start: number, end: number, extra: Partial<Tok> = {}): Tok {
    return { k, v: this.s.slice(start, end), start, end, ...extra };
  }

  private scan(): Tok {
    if (this.queue.length > 0) return this.queue.shift()!;
    const s = this.s;
    for (;;) {
      if (this.atBol && this.parens.length === 0 && this.blocks) {
        let col = 0;
        let alt = 0;
        let j = this.i;
        for (; j < this.to; j++) {
          const c = s[j];
          if (c === ' ') {
            col++;
            alt++;
          } else if (c === '\t') {
            col = (Math.floor(col / 8) + 1) * 8;
            alt++;
          } else if (c === '\f') col = alt = 0;
          else break;
        }
        if (j >= this.to) {
          this.i = j;
          return this.eof();
        }
        if (s[j] === '#' || this.nlLength(j) > 0) {
          // a blank or comment-only line: no tokens, no indentation
          while (j < this.to && this.nlLength(j) === 0) j++;
          this.i = j + this.nlLength(j);
          continue;
        }
        this.atBol = false;
        this.i = j;
        const t = this.indentation(col, alt, j);
        if (t) return t;
      }
      let i = this.i;
      while (i < this.to && (s[i] === ' ' || s[i] === '\t' || s[i] === '\f')) i++;
      this.i = i;
      if (i >= this.to) return this.eof();
      const c = s[i];
      if (c === '#') {
        while (i < this.to && this.nlLength(i) === 0) i++;
        this.i = i;
        continue;
      }
      const nl = this.nlLength(i);
      if (nl > 0) {
        this.i = i + nl;
        if (this.parens.length > 0) continue;
        this.atBol = true;
        if (this.lineHasTokens) {
          this.lineHasTokens = false;
          return this.tok('NEWLINE', i, i + nl);
        }
        continue;
      }
      if (c === '\\') {
        const n2 = this.nlLength(i + 1);
        if (n2 === 0) this.fail('unexpected character after line continuation character', i, i + 1 >= this.to);
        this.i = i + 1 + n2;
        if (this.i >= this.to) this.fail('unexpected EOF while parsing', i, true);
        continue;
      }
      this.lineHasTokens = true;
      return this.token(i);
    }
  }

  private indentation(col: number, alt: number, at: number): Tok | undefined {
    const top = this.indents[this.indents.length - 1];
    const altTop = this.alts[this.alts.length - 1];
    if (col === top) {
      if (alt !== altTop) this.fail('inconsistent use of tabs and spaces in indentation', at);
      return undefined;
    }
    if (col > top) {
      if (this.indents.length >= MAX_INDENT) this.fail('too many levels of indentation', at);
      if (alt <= altTop) this.fail('inconsistent use of tabs and spaces in indentation', at);
      this.indents.push(col);
      this.alts.push(alt);
      return this.tok('INDENT', at, at);
    }
    let dedents = 0;
    while (this.indents.length > 1 && col < this.indents[this.indents.length - 1]) {
      this.indents.pop();
      this.alts.pop();
      dedents++;
    }
    if (col !== this.indents[this.indents.length - 1]) this.fail('unindent does not match any outer indentation level', at);
    if (alt !== this.alts[this.alts.length - 1]) this.fail('inconsistent use of tabs and spaces in indentation', at);
    for (let k = 1; k < dedents; k++) this.queue.push(this.tok('DEDENT', at, at));
    return this.tok('DEDENT', at, at);
  }

  private eof(): Tok {
    const at = this.to;
    if (this.parens.length > 0 && this.endInBrackets) return this.tok('END', at, at);
    if (this.parens.length > 0) this.fail(`'${this.parens[this.parens.length - 1]}' was never closed`, at, true);
    if (this.lineHasTokens) {
      this.lineHasTokens = false;
      this.queue.push(this.tok('NEWLINE', at, at));
    }
    while (this.indents.length > 1) {
      this.indents.pop();
      this.alts.pop();
      this.queue.push(this.tok('DEDENT', at, at));
    }
    this.queue.push(this.tok('END', at, at));
    this.atBol = false;
    return this.queue.shift()!;
  }

  private token(i: number): Tok {
    const s = this.s;
    const c = s[i];
    if (isDigit(c) || (c === '.' && isDigit(s[i + 1]))) return this.number(i);
    if (isIdStart(c)) {
      let j = i + 1;
      while (j < this.to && isIdChar(s[j])) j++;
      const word = s.slice(i, j);
      if (j < this.to && (s[j] === '"' || s[j] === "'") && STRING_PREFIXES.has(word.toLowerCase())) return this.string(i, j);
      if (/[^\x00-\x7f]/.test(word) && !PY_IDENTIFIER.test(word)) {
        const bad = [...word].find((ch, k) => !PY_IDENTIFIER.test(k === 0 ? ch : `a${ch}`)) ?? word;
        this.fail(`invalid character '${bad}' (U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`, i);
      }
      this.i = j;
      return this.tok('NAME', i, j);
    }
    if (c === '"' || c === "'") return this.string(i, i);
    const three = s.slice(i, Math.min(i + 3, this.to));
    const op = OPS3.has(three) ? three : OPS2.has(three.slice(0, 2)) ? three.slice(0, 2) : OPS1.has(c) ? c : undefined;
    if (op === undefined) {
      if (c === '\0') this.fail('source code cannot contain null bytes', i);
      this.fail(c.charCodeAt(0) < 32 || c === '\u007f' ? `invalid non-printable character U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : 'invalid syntax', i);
    }
    if (op === '(' || op === '[' || op === '{') {
      if (this.parens.length >= MAX_BRACKETS) this.fail('too many nested parentheses', i);
      this.parens.push(op);
    } else if (op === ')' || op === ']' || op === '}') {
      const open = this.parens.pop();
      if (open === undefined) this.fail(`unmatched '${op}'`, i);
      if (open !== CLOSERS[op]) this.fail(`closing parenthesis '${op}' does not match opening parenthesis '${open}'`, i);
    }
    this.i = i + op.length;
    return this.tok('OP', i, i + op.length);
  }

  /** CPython's `verify_end_of_number`: a number may be followed by `and`, `else`, `for`, `if`, `in`, `is`, `not`, `or`, but by no other letter. */
  private endOfNumber(j: number, kind: string): void {
    const s = this.s;
    const c = s[j];
    const ahead = (w: string) => s.startsWith(w, j + 1);
    let ok = false;
    if (c === 'a') ok = ahead('nd');
    else if (c === 'e') ok = ahead('lse');
    else if (c === 'f') ok = ahead('or');
    else if (c === 'i') ok = s[j + 1] === 'f' || s[j + 1] === 'n' || s[j + 1] === 's';
    else if (c === 'o') ok = ahead('r');
    else if (c === 'n') ok = ahead('ot');
    if (!ok && j < this.to && isIdChar(c)) this.fail(`invalid ${kind} literal`, j);
  }

  /** Digits after a digit, `_` only between digits; returns the index after them. */
  private decimalTail(j: number): number {
    const s = this.s;
    for (;;) {
      while (j < this.to && isDigit(s[j])) j++;
      if (s[j] !== '_' || j >= this.to) return j;
      if (!isDigit(s[j + 1]) || j + 1 >= this.to) this.fail('invalid decimal literal', j);
      j++;
    }
  }

  private number(i: number): Tok {
    const s = this.s;
    const at = (j: number) => (j < this.to ? s[j] : undefined);
    let j = i;
    let kind: 'int' | 'float' | 'imag' = 'int';
    const finish = (end: number): Tok => {
      this.i = end;
      const text = s.slice(i, end).replaceAll('_', '');
      let num: PyValue;
      if (kind === 'imag') num = { t: 'complex', re: 0, im: Number(text.slice(0, -1)) };
      else if (kind === 'float') num = pyFloat(Number(text));
      else {
        const radix = /^0[xob]/i.test(text) ? text[1].toLowerCase() : '';
        if (radix === '' && text.replace(/^0+(?=.)/, '').length > 4300) this.fail('Exceeds the limit (4300 digits) for integer string conversion: value has too many digits', i);
        num = pyInt(radix === '' ? BigInt(text.replace(/^0+(?=.)/, '')) : BigInt(`0${radix}${text.slice(2)}`));
      }
      return this.tok('NUMBER', i, end, { num });
    };
    const fraction = (k: number): Tok => {
      // after the '.'
      kind = 'float';
      if (isDigit(at(k))) k = this.decimalTail(k);
      return exponent(k);
    };
    const exponent = (k: number): Tok => {
      const c = at(k);
      if (c === 'e' || c === 'E') {
        let m = k + 1;
        if (at(m) === '+' || at(m) === '-') {
          m++;
          if (!isDigit(at(m))) this.fail('invalid decimal literal', m);
        } else if (!isDigit(at(m))) {
          this.endOfNumber(k, 'decimal');
          return finish(k);
        }
        kind = 'float';
        k = this.decimalTail(m);
      }
      return imaginary(k);
    };
    const imaginary = (k: number): Tok => {
      const c = at(k);
      if (c === 'j' || c === 'J') {
        kind = 'imag';
        this.endOfNumber(k + 1, 'imaginary');
        return finish(k + 1);
      }
      this.endOfNumber(k, 'decimal');
      return finish(k);
    };
    if (s[i] === '.') return fraction(i + 1);
    if (s[i] === '0') {
      j = i + 1;
      const x = at(j);
      const based = (test: (c: string | undefined) => boolean, name: string, digitName?: string): Tok => {
        let k = j + 1;
        do {
          if (at(k) === '_') k++;
          if (!test(at(k))) {
            if (digitName && isDigit(at(k))) this.fail(`invalid digit '${at(k)}' in ${digitName} literal`, k);
            this.fail(`invalid ${name} literal`, k);
          }
          while (test(at(k))) k++;
        } while (at(k) === '_');
        if (digitName && isDigit(at(k))) this.fail(`invalid digit '${at(k)}' in ${digitName} literal`, k);
        this.endOfNumber(k, name);
        return finish(k);
      };
      if (x === 'x' || x === 'X') return based(isHex, 'hexadecimal');
      if (x === 'o' || x === 'O') return based((c) => c !== undefined && c >= '0' && c <= '7', 'octal', 'octal');
      if (x === 'b' || x === 'B') return based((c) => c === '0' || c === '1', 'binary', 'binary');
      let nonzero = false;
      for (;;) {
        if (at(j) === '_') {
          j++;
          if (!isDigit(at(j))) this.fail('invalid decimal literal', j);
        }
        if (at(j) !== '0') break;
        j++;
      }
      if (isDigit(at(j))) {
        nonzero = true;
        j = this.decimalTail(j);
      }
      const c = at(j);
      if (c === '.') return fraction(j + 1);
      if (c === 'e' || c === 'E') return exponent(j);
      if (c === 'j' || c === 'J') return imaginary(j);
      if (nonzero) this.fail('leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers', i);
      this.endOfNumber(j, 'decimal');
      return finish(j);
    }
    j = this.decimalTail(i);
    if (at(j) === '.') return fraction(j + 1);
    return exponent(j);
  }

  /** A string literal with its prefix at `i` and its opening quote at `q`. */
  private string(i: number, q: number): Tok {
    const s = this.s;
    const quote = s[q];
    const triple = q + 2 < this.to && s[q + 1] === quote && s[q + 2] === quote;
    const size = triple ? 3 : 1;
    let j = q + size;
    for (;;) {
      if (j >= this.to) this.fail(triple ? 'unterminated triple-quoted string literal' : 'unterminated string literal', i, true);
      const c = s[j];
      if (!triple && this.nlLength(j) > 0) this.fail('unterminated string literal', i);
      if (c === quote && (!triple || (s[j + 1] === quote && s[j + 2] === quote && j + 2 < this.to))) break;
      if (c === '\\') j += j + 1 < this.to && s[j + 1] === '\r' && s[j + 2] === '\n' ? 3 : 2;
      else j++;
    }
    const end = j + size;
    this.i = end;
    const prefix = s.slice(i, q).toLowerCase();
    const bytes = prefix.includes('b');
    const raw = prefix.includes('r');
    const body = s.slice(q + size, j);
    if (/[\uD800-\uDFFF]/.test(body) && !isWellFormedText(body)) this.fail('surrogates not allowed', i);
    if (prefix.includes('f')) {
      checkFString(body, raw, q + size);
      return this.tok('STRING', i, end, { str: { bytes: false, f: true, value: '' } });
    }
    let value: PyValue;
    try {
      value = pythonLiteralEval(s.slice(i, end).replace(/\r\n?/g, '\n'));
    } catch (e) {
      if (e instanceof PythonException) this.fail(e.detail, i);
      throw e;
    }
    const v = typeof value === 'string' ? value : value !== null && typeof value === 'object' && value.t === 'bytes' ? value.v : '';
    return this.tok('STRING', i, end, { str: { bytes, f: false, value: v } });
  }
}

function isWellFormedText(s: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
}

/** An f-string's body checked as CPython 3.11's fstring_parse does: literal parts, `{expr[=][!c][:spec]}` fields, each expression parsed. */
function checkFString(body: string, raw: boolean, base: number): void {
  const fail = (m: string, at: number): never => {
    throw new PyLexError(`f-string: ${m}`, base + at);
  };
  const parse = (from: number, level: number): number => {
    // returns the index of the '}' that ends a format spec (level > 0) or body.length
    let k = from;
    for (;;) {
      // literal part
      while (k < body.length) {
        let ch = body[k++];
        if (!raw && ch === '\\' && k < body.length) {
          ch = body[k++];
          if (ch === 'N') {
            if (k < body.length && body[k++] === '{') while (k < body.length && body[k++] !== '}');
            continue;
          }
          if (ch !== '{') {
            if (ch === 'x' || ch === 'u' || ch === 'U') {
              const n = ch === 'x' ? 2 : ch === 'u' ? 4 : 8;
              const h = body.slice(k, k + n);
              if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(h) || parseInt(h, 16) > 0x10ffff) fail(`invalid \\${ch} escape`, k);
            }
            continue;
          }
        }
        if (ch === '{' || ch === '}') {
          if (level === 0) {
            if (body[k] === ch) {
              k++;
              continue;
            }
            if (ch === '}') fail("single '}' is not allowed", k - 1);
          }
          k--;
          break;
        }
      }
      if (k >= body.length || body[k] === '}') {
        if (level > 0 && body[k] !== '}') fail("expecting '}'", k);
        return k;
      }
      // an expression field at body[k] === '{'
      if (level >= 2) fail('expressions nested too deeply', k);
      k++;
      const exprStart = k;
      const stack: string[] = [];
      let quote = '';
      let tripleQ = false;
      for (; k < body.length; k++) {
        const ch = body[k];
        if (ch === '\\') fail('expression part cannot include a backslash', k);
        if (quote) {
          if (ch === quote) {
            if (!tripleQ) quote = '';
            else if (body[k + 1] === ch && body[k + 2] === ch) {
              k += 2;
              quote = '';
            }
          }
          continue;
        }
        if (ch === '"' || ch === "'") {
          tripleQ = body[k + 1] === ch && body[k + 2] === ch && k + 2 < body.length;
          if (tripleQ) k += 2;
          quote = ch;
        } else if (ch === '[' || ch === '{' || ch === '(') {
          if (stack.length >= MAX_BRACKETS) fail('too many nested parenthesis', k);
          stack.push(ch);
        } else if (ch === '#') fail("expression part cannot include '#'", k);
        else if (stack.length === 0 && '!:}=<>'.includes(ch)) {
          const next = body[k + 1];
          if (next === '=' && (ch === '!' || ch === '=' || ch === '<' || ch === '>')) {
            k++;
            continue;
          }
          if (ch === '<' || ch === '>') continue;
          break;
        } else if (ch === ']' || ch === '}' || ch === ')') {
          const open = stack.pop();
          if (open === undefined) fail(`unmatched '${ch}'`, k);
          if (open !== CLOSERS[ch]) fail(`closing parenthesis '${ch}' does not match opening parenthesis '${open}'`, k);
        }
      }
      if (quote) fail('unterminated string', k);
      if (stack.length > 0) fail(`unmatched '${stack[stack.length - 1]}'`, k);
      if (k >= body.length) fail("expecting '}'", k);
      const expr = body.slice(exprStart, k);
      if (/^[ \t\n\r\f\v]*$/.test(expr)) fail('empty expression not allowed', k);
      try {
        new Parser(new Lexer(`(${expr})`, 0, expr.length + 2)).fstringExpression();
      } catch (e) {
        if (e instanceof PySyntaxError) fail(e.detail, exprStart);
        throw e;
      }
      if (body[k] === '=') {
        k++;
        while (k < body.length && ' \t\n\r\f\v'.includes(body[k])) k++;
        if (k >= body.length) fail("expecting '}'", k);
      }
      if (body[k] === '!') {
        k++;
        if (k >= body.length) fail("expecting '}'", k);
        const conv = body[k++];
        if (conv !== 's' && conv !== 'r' && conv !== 'a') fail("invalid conversion character: expected 's', 'r', or 'a'", k - 1);
      }
      if (k < body.length && body[k] === ':') {
        k++;
        if (k >= body.length) fail("expecting '}'", k);
        k = parse(k, level + 1);
      }
      if (k >= body.length || body[k] !== '}') fail("expecting '}'", k);
      k++;
    }
  };
  parse(0, 0);
}

// ---------------------------------------------------------------------------------------
// The expression tree (only what the readers look at is kept)

interface At {
  readonly start: number;
  readonly end: number;
  /** Nesting depth of the AST objects from here down (Python's ast2obj recursion). */
  readonly depth: number;
}
/** A keyword argument of a call (`arg` null for `**x`). */
export interface PyKeyword {
  readonly arg: string | null;
  readonly value: PyExpr;
  readonly start: number;
}
/** A Python expression node (`ast.expr`), with its source range. */
export type PyExpr = At &
  (
    | { readonly k: 'Constant'; readonly v: PyValue }
    | { readonly k: 'Name'; readonly id: string }
    | { readonly k: 'List' | 'Tuple' | 'Set'; readonly elts: readonly PyExpr[] }
    | { readonly k: 'Dict'; readonly keys: readonly (PyExpr | null)[]; readonly values: readonly PyExpr[] }
    | { readonly k: 'Call'; readonly func: PyExpr; readonly args: readonly PyExpr[]; readonly keywords: readonly PyKeyword[] }
    | { readonly k: 'Attribute'; readonly value: PyExpr; readonly attr: string }
    | { readonly k: 'Subscript'; readonly value: PyExpr }
    | { readonly k: 'Starred'; readonly value: PyExpr }
    | { readonly k: 'UnaryOp'; readonly op: 'USub' | 'UAdd' | 'Not' | 'Invert'; readonly operand: PyExpr }
    | { readonly k: 'Yield'; readonly value: PyExpr | null }
    | { readonly k: 'Other'; readonly what: string }
  );

type ExprBody = PyExpr extends infer T ? (T extends At ? Omit<T, keyof At> : never) : never;

function depthOf(children: readonly (PyExpr | null | undefined | number)[]): number {
  let d = 0;
  for (const c of children) {
    const x = typeof c === 'number' ? c : c ? c.depth : 0;
    if (x > d) d = x;
  }
  return d + 1;
}

/** A statement, as far as the readers need it: `getattr(stmt, "value", None)` and its depth. */
interface PyStmt {
  readonly value: PyExpr | null;
  readonly depth: number;
}

/** Where CPython 3.11 stops converting a deeper AST (RecursionError), measured near the top of the stack. */
const AST_DEPTH_LIMIT = 2982;

const STARTS_EXPRESSION_KEYWORDS = new Set(['not', 'lambda', 'await', 'None', 'True', 'False']);

/** CPython 3.11's PEG grammar (the first pass: no `invalid_` rules), by recursive descent with the backtracking it needs. */
class Parser {
  private readonly toks: Tok[] = [];
  private p = 0;
  private nesting = 0;

  constructor(private readonly lx: Lexer) {}

  // ---- tokens

  peek(k = 0): Tok {
    while (this.toks.length <= this.p + k) {
      const last = this.toks[this.toks.length - 1];
      this.toks.push(last && last.k === 'END' ? last : this.lx.next());
    }
    return this.toks[this.p + k];
  }
  private get pos(): number {
    return this.p;
  }
  private set pos(v: number) {
    this.p = v;
  }
  take(): Tok {
    const t = this.peek();
    this.p++;
    return t;
  }
  private fail(at?: Tok): never {
    const t = at ?? this.peek();
    throw new PySyntaxError('invalid syntax', t.start, t.k === 'END');
  }
  isOp(v: string, k = 0): boolean {
    const t = this.peek(k);
    return t.k === 'OP' && t.v === v;
  }
  private isKw(v: string, k = 0): boolean {
    const t = this.peek(k);
    return t.k === 'NAME' && t.v === v;
  }
  private isName(k = 0): boolean {
    const t = this.peek(k);
    return t.k === 'NAME' && !HARD_KEYWORDS.has(t.v);
  }
  private op(v: string): Tok {
    if (!this.isOp(v)) this.fail();
    return this.take();
  }
  private kw(v: string): Tok {
    if (!this.isKw(v)) this.fail();
    return this.take();
  }
  private name(): Tok {
    if (!this.isName()) this.fail();
    return this.take();
  }
  private is(k: Tok['k']): boolean {
    return this.peek().k === k;
  }
  private prevEnd(): number {
    return this.toks[this.p - 1].end;
  }
  private startsExpression(k = 0): boolean {
    const t = this.peek(k);
    if (t.k === 'NUMBER' || t.k === 'STRING') return true;
    if (t.k === 'NAME') return !HARD_KEYWORDS.has(t.v) || STARTS_EXPRESSION_KEYWORDS.has(t.v);
    return t.k === 'OP' && ['(', '[', '{', '-', '+', '~', '...'].includes(t.v);
  }
  private deeper<T>(f: () => T): T {
    if (++this.nesting > AST_DEPTH_LIMIT) this.fail();
    try {
      return f();
    } finally {
      this.nesting--;
    }
  }

  private node(body: ExprBody, start: number, children: readonly (PyExpr | null | undefined | number)[]): PyExpr {
    return { ...body, start, end: this.prevEnd(), depth: depthOf(children) } as PyExpr;
  }
  private other(what: string, start: number, children: readonly (PyExpr | null | undefined | number)[]): PyExpr {
    return this.node({ k: 'Other', what }, start, children);
  }

  // ---- module and statements

  /** `file: [statements] ENDMARKER`: the first statement's `value` (undefined for an empty module). */
  module(): { readonly first: PyStmt | undefined } {
    let first: PyStmt | undefined;
    let depth = 0;
    while (!this.is('END')) {
      for (const st of this.statement()) {
        first ??= st;
        depth = Math.max(depth, st.depth);
      }
    }
    if (depth + 1 > AST_DEPTH_LIMIT) throw new PythonException('RecursionError', 'maximum recursion depth exceeded during ast construction');
    return { first };
  }

  /** `fstring: star_expressions` (the text of an f-string field, in parentheses). */
  fstringExpression(): void {
    this.starExpressions();
    while (this.is('NEWLINE')) this.take();
    if (!this.is('END')) this.fail();
  }

  private statement(): PyStmt[] {
    const t = this.peek();
    if (t.k === 'NAME') {
      switch (t.v) {
        case 'def':
        case 'if':
        case 'class':
        case 'with':
        case 'for':
        case 'try':
        case 'while':
        case 'async':
          return [this.compound()];
        case 'match': {
          const m = this.tryMatch();
          if (m) return [m];
        }
      }
    } else if (this.isOp('@')) return [this.decorated()];
    return this.simpleStmts();
  }

  private simpleStmts(): PyStmt[] {
    const out = [this.simpleStmt()];
    while (this.isOp(';')) {
      this.take();
      if (this.is('NEWLINE')) break;
      out.push(this.simpleStmt());
    }
    if (!this.is('NEWLINE')) this.fail();
    this.take();
    return out;
  }

  private stmt(value: PyExpr | null, children: readonly (PyExpr | null | undefined | number)[]): PyStmt {
    return { value, depth: depthOf(children) };
  }

  private simpleStmt(): PyStmt {
    const t = this.peek();
    if (t.k === 'NAME') {
      switch (t.v) {
        case 'return': {
          this.take();
          const v = this.startsStarExpression() ? this.starExpressions() : null;
          return this.stmt(v, [v]);
        }
        case 'import':
        case 'from':
          this.importStmt();
          return this.stmt(null, [2]);
        case 'raise': {
          this.take();
          const kids: PyExpr[] = [];
          if (this.startsExpression()) {
            kids.push(this.expression());
            if (this.isKw('from')) {
              this.take();
              kids.push(this.expression());
            }
          }
          return this.stmt(null, kids);
        }
        case 'pass':
        case 'break':
        case 'continue':
          this.take();
          return this.stmt(null, []);
        case 'del': {
          this.take();
          const kids: PyExpr[] = [];
          for (;;) {
            const e = this.primary();
            this.checkTarget(e, 'del');
            kids.push(e);
            if (!this.isOp(',')) break;
            this.take();
            if (this.isOp(';') || this.is('NEWLINE')) break;
          }
          if (!this.isOp(';') && !this.is('NEWLINE')) this.fail();
          return this.stmt(null, kids);
        }
        case 'yield': {
          const y = this.yieldExpr();
          return this.stmt(y, [y]);
        }
        case 'assert': {
          this.take();
          const kids = [this.expression()];
          if (this.isOp(',')) {
            this.take();
            kids.push(this.expression());
          }
          return this.stmt(null, kids);
        }
        case 'global':
        case 'nonlocal':
          this.take();
          this.name();
          while (this.isOp(',')) {
            this.take();
            this.name();
          }
          return this.stmt(null, []);
      }
      if (this.isName() && this.isOp(':', 1)) {
        // `NAME ':' expression ['=' annotated_rhs]`
        this.take();
        this.take();
        const ann = this.expression();
        let v: PyExpr | null = null;
        if (this.isOp('=')) {
          this.take();
          v = this.annotatedRhs();
        }
        return this.stmt(v, [ann, v, 1]);
      }
    }
    const e = this.starExpressions();
    if (this.isOp('=')) {
      const kids = [e];
      let rhs = e;
      while (this.isOp('=')) {
        this.checkTarget(rhs, 'star');
        this.take();
        rhs = this.annotatedRhs();
        kids.push(rhs);
      }
      return this.stmt(rhs, kids);
    }
    const t2 = this.peek();
    if (t2.k === 'OP' && ['+=', '-=', '*=', '@=', '/=', '%=', '&=', '|=', '^=', '<<=', '>>=', '**=', '//='].includes(t2.v)) {
      this.checkTarget(e, 'single');
      this.take();
      const v = this.annotatedRhs();
      return this.stmt(v, [e, v]);
    }
    if (this.isOp(':')) {
      // `('(' single_target ')' | single_subscript_attribute_target) ':' expression ['=' annotated_rhs]`
      this.checkTarget(e, 'single');
      this.take();
      const ann = this.expression();
      let v: PyExpr | null = null;
      if (this.isOp('=')) {
        this.take();
        v = this.annotatedRhs();
      }
      return this.stmt(v, [e, ann, v]);
    }
    return this.stmt(e, [e]);
  }

  private annotatedRhs(): PyExpr {
    return this.isKw('yield') ? this.yieldExpr() : this.starExpressions();
  }

  /** A target as the grammar's star_targets/single_target/del_targets take it. */
  private checkTarget(e: PyExpr, mode: 'star' | 'single' | 'del'): void {
    switch (e.k) {
      case 'Name':
      case 'Attribute':
      case 'Subscript':
        return;
      case 'Starred':
        if (mode !== 'star' || e.value.k === 'Starred') this.fail();
        this.checkTarget(e.value, 'star');
        return;
      case 'Tuple':
      case 'List':
        if (mode === 'single') this.fail();
        for (const x of e.elts) this.checkTarget(x, mode);
        return;
      default:
        this.fail();
    }
  }

  private importStmt(): void {
    const dotted = () => {
      this.name();
      while (this.isOp('.')) {
        this.take();
        this.name();
      }
    };
    const asName = () => {
      if (this.isKw('as')) {
        this.take();
        this.name();
      }
    };
    if (this.isKw('import')) {
      this.take();
      dotted();
      asName();
      while (this.isOp(',')) {
        this.take();
        dotted();
        asName();
      }
      return;
    }
    this.kw('from');
    let dots = 0;
    while (this.isOp('.') || this.isOp('...')) {
      this.take();
      dots++;
    }
    if (!this.isKw('import')) dotted();
    else if (dots === 0) this.fail();
    this.kw('import');
    const names = () => {
      this.name();
      asName();
      while (this.isOp(',') && this.isName(1)) {
        this.take();
        this.name();
        asName();
      }
    };
    if (this.isOp('*')) {
      this.take();
      return;
    }
    if (this.isOp('(')) {
      this.take();
      names();
      if (this.isOp(',')) this.take();
      this.op(')');
      return;
    }
    names();
    if (this.isOp(',')) this.fail();
  }

  private block(): number {
    if (this.is('NEWLINE')) {
      this.take();
      if (!this.is('INDENT')) this.fail();
      this.take();
      let d = 0;
      do for (const st of this.statement()) d = Math.max(d, st.depth);
      while (!this.is('DEDENT'));
      this.take();
      return d;
    }
    let d = 0;
    for (const st of this.simpleStmts()) d = Math.max(d, st.depth);
    return d;
  }

  private colonBlock(): number {
    this.op(':');
    return this.block();
  }

  private compound(): PyStmt {
    const t = this.peek();
    switch (t.v) {
      case 'async':
        if (this.isKw('def', 1)) return this.funcDef([]);
        if (this.isKw('with', 1)) {
          this.take();
          return this.withStmt();
        }
        if (this.isKw('for', 1)) {
          this.take();
          return this.forStmt();
        }
        return this.fail();
      case 'def':
        return this.funcDef([]);
      case 'class':
        return this.classDef([]);
      case 'if': {
        this.take();
        const kids: (PyExpr | number)[] = [this.namedExpression(), this.colonBlock()];
        while (this.isKw('elif')) {
          this.take();
          kids.push(this.namedExpression(), this.colonBlock());
        }
        if (this.isKw('else')) {
          this.take();
          kids.push(this.colonBlock());
        }
        return this.stmt(null, kids);
      }
      case 'while': {
        this.take();
        const kids: (PyExpr | number)[] = [this.namedExpression(), this.colonBlock()];
        if (this.isKw('else')) {
          this.take();
          kids.push(this.colonBlock());
        }
        return this.stmt(null, kids);
      }
      case 'for':
        return this.forStmt();
      case 'with':
        return this.withStmt();
      case 'try':
        return this.tryStmt();
    }
    return this.fail();
  }

  private forStmt(): PyStmt {
    this.kw('for');
    const target = this.starTargets();
    this.kw('in');
    const iter = this.starExpressions();
    const kids: (PyExpr | number)[] = [target, iter, this.colonBlock()];
    if (this.isKw('else')) {
      this.take();
      kids.push(this.colonBlock());
    }
    return this.stmt(null, kids);
  }

  private withStmt(): PyStmt {
    this.kw('with');
    const item = (): number => {
      const e = this.expression();
      if (this.isKw('as')) {
        this.take();
        const t = this.starTarget();
        if (!this.isOp(',') && !this.isOp(')') && !this.isOp(':')) this.fail();
        return depthOf([e, t]);
      }
      return depthOf([e]);
    };
    const items = (parenthesized: boolean): number[] => {
      const out = [item()];
      while (this.isOp(',')) {
        this.take();
        if (parenthesized && this.isOp(')')) break;
        out.push(item());
      }
      return out;
    };
    if (this.isOp('(')) {
      const save = this.pos;
      try {
        this.take();
        const ds = items(true);
        this.op(')');
        if (!this.isOp(':')) this.fail();
        return this.stmt(null, [...ds, this.colonBlock()]);
      } catch (e) {
        if (!(e instanceof PySyntaxError) || e instanceof PyLexError) throw e;
        this.pos = save;
      }
    }
    const ds = items(false);
    return this.stmt(null, [...ds, this.colonBlock()]);
  }

  private tryStmt(): PyStmt {
    this.kw('try');
    const kids: (PyExpr | number)[] = [this.colonBlock()];
    if (this.isKw('finally')) {
      this.take();
      kids.push(this.colonBlock());
      return this.stmt(null, kids);
    }
    if (!this.isKw('except')) this.fail();
    const star = this.isOp('*', 1);
    while (this.isKw('except') && this.isOp('*', 1) === star) {
      this.take();
      const parts: (PyExpr | number)[] = [];
      if (star) {
        this.take();
        parts.push(this.expression());
      } else if (!this.isOp(':')) parts.push(this.expression());
      if (parts.length > 0 && this.isKw('as')) {
        this.take();
        this.name();
      }
      parts.push(this.colonBlock());
      kids.push(depthOf(parts));
    }
    if (this.isKw('else')) {
      this.take();
      kids.push(this.colonBlock());
    }
    if (this.isKw('finally')) {
      this.take();
      kids.push(this.colonBlock());
    }
    return this.stmt(null, kids);
  }

  private decorated(): PyStmt {
    const decs: PyExpr[] = [];
    while (this.isOp('@')) {
      this.take();
      decs.push(this.namedExpression());
      if (!this.is('NEWLINE')) this.fail();
      this.take();
    }
    if (this.isKw('class')) return this.classDef(decs);
    if (this.isKw('def') || (this.isKw('async') && this.isKw('def', 1))) return this.funcDef(decs);
    return this.fail();
  }

  private funcDef(decs: PyExpr[]): PyStmt {
    if (this.isKw('async')) this.take();
    this.kw('def');
    this.name();
    this.op('(');
    const params = this.parameters(')', true);
    this.op(')');
    const kids: (PyExpr | number)[] = [...decs, params];
    if (this.isOp('->')) {
      this.take();
      kids.push(this.expression());
    }
    kids.push(this.colonBlock());
    return this.stmt(null, kids);
  }

  private classDef(decs: PyExpr[]): PyStmt {
    this.kw('class');
    this.name();
    const kids: (PyExpr | number)[] = [...decs];
    if (this.isOp('(')) {
      const start = this.take().start;
      const call = this.callArguments({ k: 'Name', id: '', start, end: start, depth: 1 }, start, false);
      kids.push(call);
    }
    kids.push(this.colonBlock());
    return this.stmt(null, kids);
  }

  /** Function or lambda parameters up to `close` (not consumed); returns the depth of the `arguments` object. */
  private parameters(close: ')' | ':', annotations: boolean): number {
    let sawDefault = false;
    let sawSlash = false;
    let sawStar = false;
    let bareStar = false;
    let afterStar = 0;
    let before = 0;
    let depth = 1;
    const sep = (): boolean => {
      if (this.isOp(',')) {
        this.take();
        return !this.isOp(close);
      }
      if (this.isOp(close)) return false;
      return this.fail();
    };
    if (this.isOp(close)) return depth;
    for (;;) {
      if (this.isOp('/')) {
        if (sawSlash || sawStar || before === 0) this.fail();
        this.take();
        sawSlash = true;
        if (!sep()) break;
        continue;
      }
      if (this.isOp('*')) {
        if (sawStar) this.fail();
        this.take();
        sawStar = true;
        if (this.isOp(',')) bareStar = true;
        else {
          this.name();
          if (annotations && this.isOp(':')) {
            this.take();
            depth = Math.max(depth, 1 + this.starExpression().depth);
          }
        }
        if (!sep()) break;
        continue;
      }
      if (this.isOp('**')) {
        this.take();
        this.name();
        if (annotations && this.isOp(':')) {
          this.take();
          depth = Math.max(depth, 1 + this.expression().depth);
        }
        if (this.isOp(',')) this.take();
        if (!this.isOp(close)) this.fail();
        break;
      }
      this.name();
      if (annotations && this.isOp(':')) {
        this.take();
        depth = Math.max(depth, 2 + this.expression().depth);
      }
      if (this.isOp('=')) {
        this.take();
        depth = Math.max(depth, 1 + this.expression().depth);
        if (!sawStar) sawDefault = true;
      } else if (!sawStar && sawDefault) this.fail();
      if (sawStar) afterStar++;
      else before++;
      if (!sep()) break;
    }
    if (bareStar && afterStar === 0) this.fail();
    return depth + 1;
  }

  // ---- match statement (soft keywords)

  private tryMatch(): PyStmt | undefined {
    const save = this.pos;
    try {
      this.take();
      const first = this.starNamedExpression();
      let subject = first;
      if (this.isOp(',')) {
        const elts = [first];
        while (this.isOp(',')) {
          this.take();
          if (this.isOp(':')) break;
          elts.push(this.starNamedExpression());
        }
        subject = this.node({ k: 'Tuple', elts }, first.start, elts);
      } else if (first.k === 'Starred') this.fail();
      this.op(':');
      if (!this.is('NEWLINE')) this.fail();
      this.take();
      if (!this.is('INDENT')) this.fail();
      this.take();
      const kids: (PyExpr | number)[] = [subject];
      do {
        if (!this.isKw('case')) this.fail();
        this.take();
        const pd = this.patterns();
        const parts: (PyExpr | number)[] = [pd];
        if (this.isKw('if')) {
          this.take();
          parts.push(this.namedExpression());
        }
        parts.push(this.colonBlock());
        kids.push(depthOf(parts));
      } while (!this.is('DEDENT'));
      this.take();
      return this.stmt(null, kids);
    } catch (e) {
      if (!(e instanceof PySyntaxError) || e instanceof PyLexError) throw e;
      this.pos = save;
      return undefined;
    }
  }

  private patterns(): number {
    const first = this.maybeStarPattern();
    if (!this.isOp(',')) {
      if (first.star) this.fail();
      return first.depth;
    }
    let d = first.depth;
    while (this.isOp(',')) {
      this.take();
      if (this.isOp(':') || this.isKw('if')) break;
      d = Math.max(d, this.maybeStarPattern().depth);
    }
    return d + 1;
  }

  private maybeStarPattern(): { star: boolean; depth: number } {
    if (this.isOp('*')) {
      this.take();
      this.captureTarget(true);
      return { star: true, depth: 1 };
    }
    return { star: false, depth: this.pattern() };
  }

  private captureTarget(wildcardOk: boolean): void {
    if (!this.isName()) this.fail();
    if (!wildcardOk && this.isKw('_')) this.fail();
    if (this.isOp('.', 1) || this.isOp('(', 1) || this.isOp('=', 1)) this.fail();
    this.take();
  }

  private pattern(): number {
    let d = this.closedPattern();
    let alternatives = 1;
    while (this.isOp('|')) {
      this.take();
      d = Math.max(d, this.closedPattern());
      alternatives++;
    }
    if (alternatives > 1) d++;
    if (this.isKw('as')) {
      this.take();
      this.captureTarget(false);
      d++;
    }
    return d;
  }

  private signedNumber(): { imag: boolean } {
    if (this.isOp('-')) this.take();
    const t = this.peek();
    if (t.k !== 'NUMBER') this.fail();
    this.take();
    return { imag: t.num !== null && typeof t.num === 'object' && t.num.t === 'complex' };
  }

  /** literal_pattern / literal_expr: numbers (complex `a ± bj`), strings, None/True/False. */
  private literalPattern(): number {
    const t = this.peek();
    if (t.k === 'STRING') {
      this.strings();
      return 2;
    }
    if (t.k === 'NAME' && (t.v === 'None' || t.v === 'True' || t.v === 'False')) {
      this.take();
      return 1;
    }
    const real = this.signedNumber();
    if (this.isOp('+') || this.isOp('-')) {
      if (real.imag) this.fail();
      this.take();
      const t2 = this.peek();
      if (t2.k !== 'NUMBER' || !(t2.num !== null && typeof t2.num === 'object' && t2.num.t === 'complex')) this.fail();
      this.take();
      return 4;
    }
    return 3;
  }

  private nameOrAttr(): number {
    this.name();
    let d = 1;
    while (this.isOp('.')) {
      this.take();
      this.name();
      d++;
    }
    return d;
  }

  private closedPattern(): number {
    return this.deeper(() => {
      const t = this.peek();
      if (t.k === 'NUMBER' || t.k === 'STRING' || this.isOp('-') || this.isKw('None') || this.isKw('True') || this.isKw('False')) return this.literalPattern();
      if (this.isName()) {
        if (this.isOp('.', 1) || this.isOp('(', 1)) {
          let d = this.nameOrAttr();
          if (this.isOp('(')) {
            this.take();
            let keywords = false;
            while (!this.isOp(')')) {
              if (this.isName() && this.isOp('=', 1)) {
                this.take();
                this.take();
                keywords = true;
              } else if (keywords) this.fail();
              d = Math.max(d, this.pattern());
              if (!this.isOp(',')) break;
              this.take();
            }
            this.op(')');
          } else if (this.isOp('=')) this.fail();
          return d + 1;
        }
        this.captureTarget(true);
        return 1;
      }
      if (this.isOp('(')) {
        this.take();
        if (this.isOp(')')) {
          this.take();
          return 1;
        }
        const first = this.maybeStarPattern();
        if (this.isOp(')') && !first.star) {
          this.take();
          return first.depth;
        }
        this.op(',');
        let d = first.depth;
        while (!this.isOp(')')) {
          d = Math.max(d, this.maybeStarPattern().depth);
          if (!this.isOp(',')) break;
          this.take();
        }
        this.op(')');
        return d + 1;
      }
      if (this.isOp('[')) {
        this.take();
        let d = 1;
        while (!this.isOp(']')) {
          d = Math.max(d, this.maybeStarPattern().depth);
          if (!this.isOp(',')) break;
          this.take();
        }
        this.op(']');
        return d + 1;
      }
      if (this.isOp('{')) {
        this.take();
        let d = 1;
        while (!this.isOp('}')) {
          if (this.isOp('**')) {
            this.take();
            this.captureTarget(false);
            if (this.isOp(',')) this.take();
            break;
          }
          const k = this.isName() ? (this.nameOrAttr() < 2 ? this.fail() : 2) : this.literalPattern();
          this.op(':');
          d = Math.max(d, k, this.pattern());
          if (!this.isOp(',')) break;
          this.take();
        }
        this.op('}');
        return d + 1;
      }
      return this.fail();
    });
  }

  // ---- expressions

  private startsStarExpression(): boolean {
    return this.isOp('*') || this.startsExpression();
  }

  /** `star_expressions`: a tuple when a comma follows. */
  starExpressions(): PyExpr {
    const first = this.starExpression();
    if (!this.isOp(',')) return first;
    const elts = [first];
    while (this.isOp(',')) {
      this.take();
      if (!this.startsStarExpression()) break;
      elts.push(this.starExpression());
    }
    return this.node({ k: 'Tuple', elts }, first.start, elts);
  }

  private starExpression(): PyExpr {
    if (this.isOp('*')) {
      const start = this.take().start;
      const v = this.bitwiseOr();
      return this.node({ k: 'Starred', value: v }, start, [v]);
    }
    return this.expression();
  }

  private starNamedExpression(): PyExpr {
    if (this.isOp('*')) {
      const start = this.take().start;
      const v = this.bitwiseOr();
      return this.node({ k: 'Starred', value: v }, start, [v]);
    }
    return this.namedExpression();
  }

  namedExpression(): PyExpr {
    if (this.isName() && this.isOp(':=', 1)) {
      const t = this.take();
      this.take();
      const v = this.expression();
      return this.other('NamedExpr', t.start, [1, v]);
    }
    const e = this.expression();
    if (this.isOp(':=')) this.fail();
    return e;
  }

  expression(): PyExpr {
    return this.deeper(() => {
      if (this.isKw('lambda')) {
        const start = this.take().start;
        const params = this.parameters(':', false);
        this.op(':');
        const body = this.expression();
        return this.other('Lambda', start, [params, body]);
      }
      const d = this.disjunction();
      if (this.isKw('if')) {
        const save = this.pos;
        try {
          this.take();
          const test = this.disjunction();
          this.kw('else');
          const orelse = this.expression();
          return this.other('IfExp', d.start, [d, test, orelse]);
        } catch (e) {
          if (!(e instanceof PySyntaxError) || e instanceof PyLexError) throw e;
          this.pos = save;
        }
      }
      return d;
    });
  }

  private yieldExpr(): PyExpr {
    const start = this.kw('yield').start;
    if (this.isKw('from')) {
      this.take();
      const v = this.expression();
      return this.other('YieldFrom', start, [v]);
    }
    const v = this.startsStarExpression() ? this.starExpressions() : null;
    return this.node({ k: 'Yield', value: v }, start, [v]);
  }

  private disjunction(): PyExpr {
    const first = this.conjunction();
    if (!this.isKw('or')) return first;
    const kids = [first];
    while (this.isKw('or')) {
      this.take();
      kids.push(this.conjunction());
    }
    return this.other('BoolOp', first.start, kids);
  }

  private conjunction(): PyExpr {
    const first = this.inversion();
    if (!this.isKw('and')) return first;
    const kids = [first];
    while (this.isKw('and')) {
      this.take();
      kids.push(this.inversion());
    }
    return this.other('BoolOp', first.start, kids);
  }

  private inversion(): PyExpr {
    const nots: number[] = [];
    while (this.isKw('not')) nots.push(this.take().start);
    if (nots.length > AST_DEPTH_LIMIT) this.fail();
    let e = this.comparison();
    for (let k = nots.length - 1; k >= 0; k--) e = this.node({ k: 'UnaryOp', op: 'Not', operand: e }, nots[k], [e]);
    return e;
  }

  private comparison(): PyExpr {
    const first = this.bitwiseOr();
    const kids = [first];
    for (;;) {
      const t = this.peek();
      if (t.k === 'OP' && ['==', '!=', '<=', '<', '>=', '>'].includes(t.v)) this.take();
      else if (this.isKw('in')) this.take();
      else if (this.isKw('not') && this.isKw('in', 1)) {
        this.take();
        this.take();
      } else if (this.isKw('is')) {
        this.take();
        if (this.isKw('not')) this.take();
      } else break;
      kids.push(this.bitwiseOr());
    }
    return kids.length === 1 ? first : this.other('Compare', first.start, kids);
  }

  private static readonly PRECEDENCE: Readonly<Record<string, number>> = { '|': 1, '^': 2, '&': 3, '<<': 4, '>>': 4, '+': 5, '-': 5, '*': 6, '/': 6, '//': 6, '%': 6, '@': 6 };

  private bitwiseOr(): PyExpr {
    return this.binary(1);
  }

  /** bitwise_or … term: left-associative binary operators by precedence climbing. */
  private binary(min: number): PyExpr {
    let left = this.factor();
    for (;;) {
      const t = this.peek();
      const prec = t.k === 'OP' ? Parser.PRECEDENCE[t.v] : undefined;
      if (prec === undefined || prec < min) return left;
      this.take();
      const right = prec >= 6 ? this.factor() : this.binary(prec + 1);
      left = this.other('BinOp', left.start, [left, right]);
      if (left.depth > AST_DEPTH_LIMIT) this.fail();
    }
  }

  private factor(): PyExpr {
    const ops: { op: 'USub' | 'UAdd' | 'Invert'; at: number }[] = [];
    for (;;) {
      const t = this.peek();
      if (t.k !== 'OP' || (t.v !== '-' && t.v !== '+' && t.v !== '~')) break;
      this.take();
      ops.push({ op: t.v === '-' ? 'USub' : t.v === '+' ? 'UAdd' : 'Invert', at: t.start });
      if (ops.length > AST_DEPTH_LIMIT) this.fail();
    }
    let e = this.power();
    for (let k = ops.length - 1; k >= 0; k--) e = this.node({ k: 'UnaryOp', op: ops[k].op, operand: e }, ops[k].at, [e]);
    return e;
  }

  private power(): PyExpr {
    let base: PyExpr;
    if (this.isKw('await')) {
      const start = this.take().start;
      const v = this.primary();
      base = this.other('Await', start, [v]);
    } else base = this.primary();
    if (this.isOp('**')) {
      this.take();
      const exp = this.deeper(() => this.factor());
      return this.other('BinOp', base.start, [base, exp]);
    }
    return base;
  }

  /** `primary`: an atom and its trailers (`.name`, calls, subscripts). */
  primary(): PyExpr {
    let e = this.atom();
    for (;;) {
      if (this.isOp('.')) {
        this.take();
        const n = this.name();
        e = this.node({ k: 'Attribute', value: e, attr: identifier(n.v) }, e.start, [e]);
      } else if (this.isOp('(')) {
        this.take();
        e = this.callArguments(e, e.start, true);
      } else if (this.isOp('[')) {
        this.take();
        const s = this.slices();
        this.op(']');
        e = this.node({ k: 'Subscript', value: e }, e.start, [e, s]);
      } else return e;
      if (e.depth > AST_DEPTH_LIMIT) this.fail();
    }
  }

  private isFor(): boolean {
    return this.isKw('for') || (this.isKw('async') && this.isKw('for', 1));
  }

  /** After `(`: `genexp` (when `genexp` is allowed) or `[arguments] ')'`. */
  private callArguments(func: PyExpr, start: number, genexp: boolean): PyExpr {
    const args: PyExpr[] = [];
    const keywords: PyKeyword[] = [];
    let sawKeyword = false;
    let sawDouble = false;
    while (!this.isOp(')')) {
      if (this.isOp('*')) {
        if (sawDouble) this.fail();
        const s = this.take().start;
        const v = this.expression();
        args.push(this.node({ k: 'Starred', value: v }, s, [v]));
      } else if (this.isOp('**')) {
        const s = this.take().start;
        const v = this.expression();
        keywords.push({ arg: null, value: v, start: s });
        sawDouble = true;
      } else if (this.isName() && this.isOp('=', 1)) {
        const n = this.take();
        this.take();
        const v = this.expression();
        keywords.push({ arg: identifier(n.v), value: v, start: n.start });
        sawKeyword = true;
      } else {
        if (sawKeyword || sawDouble) this.fail();
        const e = this.namedExpression();
        if (this.isOp('=')) this.fail();
        if (genexp && args.length === 0 && keywords.length === 0 && this.isFor()) {
          const clauses = this.forIfClauses();
          this.op(')');
          const g = this.other('GeneratorExp', e.start, [e, clauses]);
          return this.node({ k: 'Call', func, args: [g], keywords: [] }, start, [func, g]);
        }
        args.push(e);
      }
      if (!this.isOp(',')) break;
      this.take();
    }
    this.op(')');
    return this.node({ k: 'Call', func, args, keywords }, start, [func, ...args, ...keywords.map((k) => k.value.depth + 1)]);
  }

  /** `for_if_clauses`; returns the depth of the comprehension objects. */
  private forIfClauses(): number {
    let d = 0;
    while (this.isFor()) {
      if (this.isKw('async')) this.take();
      this.take();
      const target = this.starTargets();
      this.kw('in');
      const kids: PyExpr[] = [target, this.disjunction()];
      while (this.isKw('if')) {
        this.take();
        kids.push(this.disjunction());
      }
      d = Math.max(d, depthOf(kids));
    }
    return d;
  }

  /** `star_targets` (for loops and comprehensions): stops before `in`. */
  private starTargets(): PyExpr {
    const first = this.starTarget();
    if (!this.isOp(',')) return first;
    const elts = [first];
    while (this.isOp(',')) {
      this.take();
      if (this.isKw('in') || this.isOp('=') || this.isOp(')')) break;
      if (!this.isOp('*') && !this.startsExpression()) break;
      elts.push(this.starTarget());
    }
    return this.node({ k: 'Tuple', elts }, first.start, elts);
  }

  private starTarget(): PyExpr {
    if (this.isOp('*')) {
      const start = this.take().start;
      if (this.isOp('*')) this.fail();
      const inner = this.starTarget();
      if (inner.k === 'Starred') this.fail();
      return this.node({ k: 'Starred', value: inner }, start, [inner]);
    }
    const e = this.primary();
    this.checkTarget(e, 'star');
    if (e.k === 'Starred') this.fail();
    return e;
  }

  /** `slices` inside `[` `]`; returns its depth. */
  private slices(): number {
    const items: number[] = [];
    let comma = false;
    for (;;) {
      if (this.isOp('*')) {
        this.take();
        items.push(this.expression().depth + 1);
      } else items.push(this.slice());
      if (!this.isOp(',')) break;
      comma = true;
      this.take();
      if (this.isOp(']')) break;
    }
    const d = Math.max(...items);
    return comma || items.length > 1 ? d + 1 : d;
  }

  private slice(): number {
    if (this.isName() && this.isOp(':=', 1)) return this.namedExpression().depth;
    const kids: PyExpr[] = [];
    if (!this.isOp(':')) {
      const lower = this.expression();
      if (!this.isOp(':')) {
        if (this.isOp(':=')) this.fail();
        return lower.depth;
      }
      kids.push(lower);
    }
    this.op(':');
    if (this.startsExpression()) kids.push(this.expression());
    if (this.isOp(':')) {
      this.take();
      if (this.startsExpression()) kids.push(this.expression());
    }
    return depthOf(kids);
  }

  private strings(): PyExpr {
    const first = this.peek();
    let bytes: boolean | undefined;
    let f = false;
    let value = '';
    while (this.is('STRING')) {
      const t = this.take();
      const s = t.str!;
      if (bytes !== undefined && bytes !== s.bytes) throw new PySyntaxError('cannot mix bytes and nonbytes literals', t.start);
      bytes = s.bytes;
      f ||= s.f;
      value += s.value;
    }
    if (f) return this.other('JoinedStr', first.start, [2]);
    return this.node({ k: 'Constant', v: bytes ? { t: 'bytes', v: value } : value }, first.start, []);
  }

  atom(): PyExpr {
    const t = this.peek();
    if (t.k === 'NAME') {
      if (t.v === 'True' || t.v === 'False' || t.v === 'None') {
        this.take();
        return this.node({ k: 'Constant', v: t.v === 'None' ? null : t.v === 'True' }, t.start, []);
      }
      if (HARD_KEYWORDS.has(t.v)) this.fail();
      this.take();
      return this.node({ k: 'Name', id: identifier(t.v) }, t.start, []);
    }
    if (t.k === 'NUMBER') {
      this.take();
      return this.node({ k: 'Constant', v: t.num! }, t.start, []);
    }
    if (t.k === 'STRING') return this.strings();
    if (t.k !== 'OP') this.fail();
    if (t.v === '...') {
      this.take();
      return this.node({ k: 'Constant', v: { t: 'ellipsis' } }, t.start, []);
    }
    if (t.v === '(') return this.deeper(() => this.parenAtom());
    if (t.v === '[') return this.deeper(() => this.listAtom());
    if (t.v === '{') return this.deeper(() => this.braceAtom());
    return this.fail();
  }

  private parenAtom(): PyExpr {
    const start = this.op('(').start;
    if (this.isOp(')')) {
      this.take();
      return this.node({ k: 'Tuple', elts: [] }, start, []);
    }
    if (this.isKw('yield')) {
      const y = this.yieldExpr();
      this.op(')');
      return y;
    }
    const first = this.starNamedExpression();
    if (first.k !== 'Starred') {
      if (this.isFor()) {
        const c = this.forIfClauses();
        this.op(')');
        return this.other('GeneratorExp', start, [first, c]);
      }
      if (this.isOp(')')) {
        this.take();
        return first;
      }
    }
    this.op(',');
    const elts = [first];
    while (!this.isOp(')')) {
      elts.push(this.starNamedExpression());
      if (!this.isOp(',')) break;
      this.take();
    }
    this.op(')');
    return this.node({ k: 'Tuple', elts }, start, elts);
  }

  private listAtom(): PyExpr {
    const start = this.op('[').start;
    const elts: PyExpr[] = [];
    if (!this.isOp(']')) {
      const first = this.starNamedExpression();
      if (first.k !== 'Starred' && this.isFor()) {
        const c = this.forIfClauses();
        this.op(']');
        return this.other('ListComp', start, [first, c]);
      }
      elts.push(first);
      while (this.isOp(',')) {
        this.take();
        if (this.isOp(']')) break;
        elts.push(this.starNamedExpression());
      }
    }
    this.op(']');
    return this.node({ k: 'List', elts }, start, elts);
  }

  private braceAtom(): PyExpr {
    const start = this.op('{').start;
    if (this.isOp('}')) {
      this.take();
      return this.node({ k: 'Dict', keys: [], values: [] }, start, []);
    }
    const dict = (keys: (PyExpr | null)[], values: PyExpr[]): PyExpr => {
      while (this.isOp(',')) {
        this.take();
        if (this.isOp('}')) break;
        if (this.isOp('**')) {
          this.take();
          keys.push(null);
          values.push(this.bitwiseOr());
        } else {
          keys.push(this.expression());
          this.op(':');
          values.push(this.expression());
        }
      }
      this.op('}');
      return this.node({ k: 'Dict', keys, values }, start, [...keys, ...values]);
    };
    if (this.isOp('**')) {
      this.take();
      return dict([null], [this.bitwiseOr()]);
    }
    let first: PyExpr;
    if (this.isOp('*') || (this.isName() && this.isOp(':=', 1))) first = this.starNamedExpression();
    else {
      first = this.expression();
      if (this.isOp(':')) {
        this.take();
        const v = this.expression();
        if (this.isFor()) {
          const c = this.forIfClauses();
          this.op('}');
          return this.other('DictComp', start, [first, v, c]);
        }
        return dict([first], [v]);
      }
    }
    if (first.k !== 'Starred' && this.isFor()) {
      const c = this.forIfClauses();
      this.op('}');
      return this.other('SetComp', start, [first, c]);
    }
    const elts = [first];
    while (this.isOp(',')) {
      this.take();
      if (this.isOp('}')) break;
      elts.push(this.starNamedExpression());
    }
    this.op('}');
    return this.node({ k: 'Set', elts }, start, elts);
  }
}

/** An identifier as the AST holds it: NFKC-normalized when not ASCII. */
function identifier(raw: string): string {
  return /[^\x00-\x7f]/.test(raw) ? raw.normalize('NFKC') : raw;
}

/**
 * Python's `ast.parse(src)`: the `value` of its first statement (`getattr(module.body[0], "value", None)`;
 * `undefined` when the module has no statement). Throws a PythonException (SyntaxError, or
 * RecursionError for a tree deeper than CPython converts) when Python would raise.
 */
export function pythonFirstStatementValue(src: string): PyExpr | null | undefined {
  if (src.includes('\0')) throw new PythonException('SyntaxError', 'source code string cannot contain null bytes');
  if (!isWellFormedText(src)) throw new PythonException('UnicodeEncodeError', "'utf-8' codec can't encode character: surrogates not allowed");
  let first: PyStmt | undefined;
  try {
    first = new Parser(new Lexer(src, 0, src.length)).module().first;
  } catch (e) {
    // a stack overflow in this parser (deep nesting Python itself may still take): read as a failure
    if (e instanceof RangeError) throw new PythonException('RecursionError', 'maximum recursion depth exceeded');
    throw e;
  }
  return first === undefined ? undefined : first.value;
}

// =======================================================================================
// The servers' TOOL_CALL_REGEX, with Python's backtracking order
// =======================================================================================

type CharTest = (cp: number) => boolean;
type Re = { readonly k: 'c'; readonly t: CharTest } | { readonly k: 'seq'; readonly items: readonly Re[] } | { readonly k: 'star' | 'plus' | 'opt'; readonly body: Re };
type Instr = { op: 'c'; t: CharTest; next: number } | { op: 'split'; a: number; b: number } | { op: 'match' };

/** A backtracking program (greedy: the loop body before the exit); leftmost-first search with (pc, position) pruning, as RE2's BitState. */
class Program {
  private readonly code: Instr[] = [{ op: 'match' }];
  readonly entry: number;
  /** A character the pattern must start with: positions without it are never tried. */
  constructor(
    re: Re,
    private readonly first: string,
  ) {
    this.entry = this.compile(re, 0);
  }
  private compile(re: Re, next: number): number {
    switch (re.k) {
      case 'c':
        this.code.push({ op: 'c', t: re.t, next });
        return this.code.length - 1;
      case 'seq': {
        let k = next;
        for (let i = re.items.length - 1; i >= 0; i--) k = this.compile(re.items[i], k);
        return k;
      }
      case 'opt': {
        const body = this.compile(re.body, next);
        this.code.push({ op: 'split', a: body, b: next });
        return this.code.length - 1;
      }
      case 'star':
      case 'plus': {
        const loop: Instr = { op: 'split', a: -1, b: next };
        this.code.push(loop);
        const at = this.code.length - 1;
        loop.a = this.compile(re.body, at);
        return re.k === 'star' ? at : loop.a;
      }
    }
  }
  /** `re.match` (only at 0) or `re.search`: the first match's span in Python's order, or undefined. */
  run(text: string, search: boolean): { start: number; end: number } | undefined {
    const n = text.length;
    const width = n + 1;
    let seen: Uint32Array | undefined;
    const starts = search ? text.length : Math.min(1, text.length);
    for (let s = 0; s < starts; s++) {
      if (text[s] !== this.first) continue;
      seen ??= new Uint32Array(Math.ceil((this.code.length * width) / 32));
      const stack: number[] = [this.entry, s];
      while (stack.length > 0) {
        const pos = stack.pop()!;
        const pc = stack.pop()!;
        const key = pc * width + pos;
        if (seen[key >>> 5] & (1 << (key & 31))) continue;
        seen[key >>> 5] |= 1 << (key & 31);
        const ins = this.code[pc];
        if (ins.op === 'match') return { start: s, end: pos };
        if (ins.op === 'split') stack.push(ins.b, pos, ins.a, pos);
        else if (pos < n) {
          const cp = text.codePointAt(pos)!;
          if (ins.t(cp)) stack.push(ins.next, pos + (cp > 0xffff ? 2 : 1));
        }
      }
    }
    return undefined;
  }
}

const ch = (t: CharTest): Re => ({ k: 'c', t });
const lit = (c: string): Re => ch((cp) => cp === c.charCodeAt(0));
const seq = (...items: Re[]): Re => ({ k: 'seq', items });
const star = (body: Re): Re => ({ k: 'star', body });
const plus = (body: Re): Re => ({ k: 'plus', body });
const opt = (body: Re): Re => ({ k: 'opt', body });

// `\s` and `\w` on str: Python's re (str.isspace, str.isalnum) and the regex module (Unicode White_Space, Word)
const RE_SPACE = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000]);
const REGEX_SPACE = new Set([...RE_SPACE].filter((c) => c < 0x1c || c > 0x1f));
const RE_WORD = /[\p{L}\p{N}_]/u;
const REGEX_WORD = /[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\u200c\u200d]/u;

/** `\[([a-zA-Z]+\w*\(([a-zA-Z]+\w*=.*,\s*)*([a-zA-Z]+\w*=.*\s)?\),\s*)*([a-zA-Z]+\w*\(([a-zA-Z]+\w*=.*,\s*)*([a-zA-Z]+\w*=.*\s*)?\)\s*)+\]` with DOTALL. */
function toolCallRegex(flavour: 're' | 'regex'): Program {
  const spaces = flavour === 're' ? RE_SPACE : REGEX_SPACE;
  const words = flavour === 're' ? RE_WORD : REGEX_WORD;
  const letter = ch((cp) => (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a));
  const word = ch((cp) => words.test(String.fromCodePoint(cp)));
  const space = ch((cp) => spaces.has(cp));
  const any = ch(() => true);
  const name = seq(plus(letter), star(word));
  const kwarg = seq(name, lit('='), star(any));
  const before = seq(kwarg, lit(','), star(space));
  const g1 = seq(name, lit('('), star(before), opt(seq(kwarg, space)), lit(')'), lit(','), star(space));
  const g4 = seq(name, lit('('), star(before), opt(seq(kwarg, star(space))), lit(')'), star(space));
  return new Program(seq(lit('['), star(g1), plus(g4), lit(']')), '[');
}

const VLLM_TOOL_CALL_REGEX = toolCallRegex('regex');
const SGLANG_TOOL_CALL_REGEX = toolCallRegex('re');

/** vLLM's `TOOL_CALL_REGEX.match(text)` (pythonic, llama4_pythonic, olmo3; the `regex` module). */
export function vllmToolCallRegexMatches(text: string): boolean {
  return VLLM_TOOL_CALL_REGEX.run(text, false) !== undefined;
}

/** SGLang's `tool_call_regex.search(text)` (Python's `re`): the first match's span. */
function sglangToolCallSearch(text: string): { start: number; end: number } | undefined {
  return SGLANG_TOOL_CALL_REGEX.run(text, true);
}

// =======================================================================================
// Python values out of the tree: what each server accepts
// =======================================================================================

const unexpected = (message: string): never => {
  throw new PythonException('UnexpectedAstError', message);
};

/** vLLM `utils.get_parameter_value`: constants, dicts with constant keys, lists, and the names null/true/false. */
function vllmParameterValue(n: PyExpr): PyValue {
  switch (n.k) {
    case 'Constant':
      return n.v;
    case 'Dict': {
      if (!n.keys.every((k) => k !== null && k.k === 'Constant')) return unexpected('Dict tool call arguments must have literal keys');
      const d = new PyDict();
      n.keys.forEach((k, i) => d.set((k as Extract<PyExpr, { k: 'Constant' }>).v, vllmParameterValue(n.values[i])));
      return d;
    }
    case 'List':
      return { t: 'list', items: n.elts.map(vllmParameterValue) };
    case 'Name':
      if (n.id === 'null') return null;
      if (n.id === 'true') return true;
      if (n.id === 'false') return false;
  }
  return unexpected('Tool call arguments must be literals');
}

/** vLLM `utils.handle_single_tool`: the (dotted) name and `json.dumps(arguments, ensure_ascii=False)`. */
export function vllmHandleSingleTool(call: PyExpr): ServerCall {
  if (call.k !== 'Call') return unexpected('Tool output must be a list of function calls');
  const parts: string[] = [];
  let f = call.func;
  while (f.k === 'Attribute') {
    parts.unshift(f.attr);
    f = f.value;
  }
  if (f.k !== 'Name') return unexpected('Invalid tool call name');
  parts.unshift(f.id);
  const args = new PyDict();
  for (const kw of call.keywords) args.set(kw.arg, vllmParameterValue(kw.value));
  return { name: parts.join('.'), arguments: pythonJsonDumps(args, { ensureAscii: false }) };
}

/**
 * vLLM's shared tail of the pythonic parsers: `ast.parse(text)`, the first statement's value a list
 * of calls, each through `handle_single_tool`; undefined where vLLM catches an exception.
 */
export function vllmPythonicCalls(text: string): ServerCall[] | undefined {
  try {
    const v = pythonFirstStatementValue(text);
    if (v === undefined) return undefined; // module.body[0]: IndexError
    if (v === null || v.k !== 'List' || !v.elts.every((e) => e.k === 'Call')) return undefined;
    return v.elts.map(vllmHandleSingleTool);
  } catch (e) {
    if (e instanceof PythonException) return undefined;
    throw e;
  }
}

function vllmPythonic(text: string): ParserResult {
  const fallback: ParserResult = { content: text, tool_calls: [], tools_called: false };
  if (!vllmToolCallRegexMatches(text)) return fallback;
  const calls = vllmPythonicCalls(text);
  if (calls === undefined) return fallback;
  return { content: null, tool_calls: calls, tools_called: true };
}

const PYTHON_START = '<|python_start|>';
const PYTHON_END = '<|python_end|>';

/** SGLang `PythonicDetector._get_parameter_value`: constants, lists, and dicts (a key's `.value`). */
function sglangPythonicValue(n: PyExpr): PyValue {
  switch (n.k) {
    case 'Constant':
      return n.v;
    case 'Dict': {
      const d = new PyDict();
      n.keys.forEach((k, i) => {
        // `k.value`: a Constant's value; a bare `(yield)` has value None; any other key is no dict key json.dumps takes
        let key: PyValue;
        if (k !== null && k.k === 'Constant') key = k.v;
        else if (k !== null && k.k === 'Yield' && k.value === null) key = null;
        else throw new PythonException(k === null ? 'AttributeError' : 'TypeError', k === null ? "'NoneType' object has no attribute 'value'" : 'keys must be str, int, float, bool or None');
        d.set(key, sglangPythonicValue(n.values[i]));
      });
      return d;
    }
    case 'List':
      return { t: 'list', items: n.elts.map(sglangPythonicValue) };
  }
  throw new PythonException('ValueError', 'Tool call arguments must be literals');
}

/** SGLang's tool names (`_get_tool_indices`): every non-empty name; undefined tools raise. */
export function sglangToolNames(tools: readonly ParseTool[] | undefined): ReadonlySet<string> {
  if (tools === undefined) throw new PythonException('TypeError', "'NoneType' object is not iterable");
  return new Set(tools.map((t) => t.name).filter((n) => n !== ''));
}

function sglangPythonic(text: string, tools: readonly ParseTool[] | undefined): ParserResult {
  const stripped = pyStrip(text).replaceAll(PYTHON_START, '').replaceAll(PYTHON_END, '');
  const m = sglangToolCallSearch(stripped);
  if (m === undefined) return { content: stripped, tool_calls: [], tools_called: false, has_tool_call: false };
  const normal = stripped.slice(0, m.start) + stripped.slice(m.end);
  const none: ParserResult = { content: normal, tool_calls: [], tools_called: false, has_tool_call: true };
  try {
    const v = pythonFirstStatementValue(stripped.slice(m.start, m.end));
    if (v === undefined) return none;
    if (v === null || v.k !== 'List' || !v.elts.every((e) => e.k === 'Call')) return none;
    const names = sglangToolNames(tools);
    const calls: ServerCall[] = [];
    for (const call of v.elts) {
      if (call.k !== 'Call' || call.func.k !== 'Name') continue;
      const name = call.func.id;
      if (!names.has(name)) continue; // SGLANG_FORWARD_UNKNOWN_TOOLS is off
      const args = new PyDict();
      for (const kw of call.keywords) args.set(kw.arg, sglangPythonicValue(kw.value));
      calls.push({ name, arguments: pythonJsonDumps(args, { ensureAscii: false }) });
    }
    return { content: normal, tool_calls: calls, tools_called: calls.length > 0, has_tool_call: true };
  } catch (e) {
    if (e instanceof PythonException) return none;
    throw e;
  }
}

// =======================================================================================
// The strict reading: pythonic calls as JSON arguments
// =======================================================================================

/** How a family spells values beyond Python's literals. */
export interface PythonicSpelling {
  /** `null`/`true`/`false` are the family's own spelling (OLMo 3): read without a note. */
  readonly jsonNames: boolean;
}

const JSON_NAMES: Readonly<Record<string, JsonValue>> = { null: null, true: true, false: false };

class NotLiteral extends Error {}

/** A Python literal node as JSON, with notes; throws NotLiteral (message: why) when it is none. */
function jsonOfNode(n: PyExpr, notes: Note[], spelling: PythonicSpelling): JsonValue {
  const refuse = (why: string): never => {
    throw new NotLiteral(why);
  };
  const number = (v: PyValue, negative: boolean): JsonValue => {
    if (v !== null && typeof v === 'object' && v.t === 'int') {
      const x = negative ? -v.v : v.v;
      return new JsonNumber(x.toString(), Number(x));
    }
    if (v !== null && typeof v === 'object' && v.t === 'float') {
      const x = negative ? -v.v : v.v;
      if (!Number.isFinite(x)) return refuse(`${formatPythonFloat(x)} is no JSON number`);
      return new JsonNumber(formatPythonFloat(x), x);
    }
    return refuse(`a ${v !== null && typeof v === 'object' ? pyTypeName(v) : typeof v} is no JSON value`);
  };
  switch (n.k) {
    case 'Constant': {
      const v = n.v;
      if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
      return number(v, false);
    }
    case 'UnaryOp':
      if ((n.op === 'USub' || n.op === 'UAdd') && n.operand.k === 'Constant' && typeof n.operand.v === 'object' && n.operand.v !== null) return number(n.operand.v, n.op === 'USub');
      return refuse('an operator expression is not a literal');
    case 'Name':
      if (n.id in JSON_NAMES) {
        if (!spelling.jsonNames) notes.push({ code: 'parse/coerced', severity: 'info', message: `JSON's ${n.id} is read as ${n.id}, not as a Python name (Python spells it ${n.id === 'null' ? 'None' : n.id === 'true' ? 'True' : 'False'})` });
        return JSON_NAMES[n.id];
      }
      return refuse(`${n.id} is a name (a variable), not a literal`);
    case 'List':
      return n.elts.map((e) => jsonOfNode(e, notes, spelling));
    case 'Tuple':
      notes.push({ code: 'parse/coerced', severity: 'info', message: 'a Python tuple is read as an array' });
      return n.elts.map((e) => jsonOfNode(e, notes, spelling));
    case 'Dict': {
      const m = new Map<string, JsonValue>();
      n.keys.forEach((k, i) => {
        if (k === null) refuse('`**` unpacking in a dict is not a literal');
        if (k!.k !== 'Constant' || typeof k!.v !== 'string') refuse('a JSON object key must be a string');
        const key = (k as Extract<PyExpr, { k: 'Constant' }>).v as string;
        if (m.has(key)) notes.push({ code: 'parse/duplicate-parameter', severity: 'warning', message: `the key ${JSON.stringify(key)} is given twice: the last value is used` });
        m.set(key, jsonOfNode(n.values[i], notes, spelling));
      });
      return m;
    }
    case 'Set':
      return refuse('a set is no JSON value');
    default:
      return refuse(`${n.k === 'Other' ? n.what : n.k} is not a literal value`);
  }
}

/** One call node read strictly: a draft, or why it is no call. */
function draftOfCall(node: PyExpr, tools: readonly ParseTool[] | undefined, spelling: PythonicSpelling): { draft: CallDraft } | { problem: string } {
  if (node.k !== 'Call') return { problem: `${node.k === 'Other' ? node.what : node.k} is not a call` };
  const parts: string[] = [];
  let f = node.func;
  while (f.k === 'Attribute') {
    parts.unshift(f.attr);
    f = f.value;
  }
  if (f.k !== 'Name') return { problem: 'the called thing is not a (dotted) name' };
  parts.unshift(f.id);
  const name = parts.join('.');
  if (node.args.length > 0) return { problem: `the call to ${JSON.stringify(name)} has positional arguments: the format passes every argument by keyword` };
  const notes: { note: Note; param?: string }[] = [];
  const args = new Map<string, JsonValue>();
  for (const kw of node.keywords) {
    if (kw.arg === null) return { problem: `the call to ${JSON.stringify(name)} unpacks \`**\` arguments, which is not a literal` };
    const valueNotes: Note[] = [];
    let value: JsonValue;
    try {
      value = jsonOfNode(kw.value, valueNotes, spelling);
    } catch (e) {
      if (e instanceof NotLiteral) return { problem: `the argument ${JSON.stringify(kw.arg)} of ${JSON.stringify(name)} is not a literal value: ${e.message}` };
      throw e;
    }
    if (args.has(kw.arg)) notes.push({ param: kw.arg, note: { code: 'parse/duplicate-parameter', severity: 'warning', message: `the argument ${JSON.stringify(kw.arg)} is given twice: the last value is used` } });
    args.set(kw.arg, value);
    for (const n of valueNotes) notes.push({ param: kw.arg, note: n });
  }
  const tool = findTool(tools, name);
  const declared = tool ? declaredParameters(tool.parameters) : undefined;
  if (declared) {
    for (const [key, value] of args) {
      if (declared.has(key)) for (const n of checkValue(value, parameterSchema(tool!.parameters, key)!)) notes.push({ param: key, note: n });
    }
  }
  return { draft: { name, args, start: node.start, notes } };
}

/** A list read strictly. */
export type CallListReading =
  /** The list closed: its calls, and the elements that are no call (their text stays content). */
  | { readonly kind: 'list'; readonly end: number; readonly calls: readonly CallDraft[]; readonly dropped: readonly { readonly start: number; readonly end: number; readonly why: string }[] }
  /** The text ended inside the list: the whole calls before the cut, and where the cut one starts (undefined: in the separators or at the list's end). */
  | { readonly kind: 'cut'; readonly calls: readonly CallDraft[]; readonly dropped: readonly { readonly start: number; readonly end: number; readonly why: string }[]; readonly cutAt: number | undefined }
  /** Not Python (a syntax error), at `at`: nothing read. */
  | { readonly kind: 'invalid'; readonly at: number; readonly why: string };

/**
 * Read `[call, call, …]` starting at `text[at] === '['`, up to `to` at most (a block's end), with
 * Python's tokenizer and grammar. Stops right after the closing `]` (what follows is not looked at).
 */
export function readCallList(text: string, at: number, to: number, tools: readonly ParseTool[] | undefined, spelling: PythonicSpelling): CallListReading {
  const parser = new Parser(new Lexer(text, at, to, true, true));
  const calls: CallDraft[] = [];
  const dropped: { start: number; end: number; why: string }[] = [];
  let element: number | undefined;
  try {
    parser.peek();
    if (!parser.isOp('[')) return { kind: 'invalid', at, why: 'no list' };
    parser.take();
    while (!parser.isOp(']')) {
      element = parser.peek().start;
      const e = parser.namedExpression();
      element = undefined;
      const d = draftOfCall(e, tools, spelling);
      if ('draft' in d) calls.push(d.draft);
      else dropped.push({ start: e.start, end: e.end, why: d.problem });
      if (!parser.isOp(',')) break;
      parser.take();
    }
    if (!parser.isOp(']')) {
      const t = parser.peek();
      if (t.k === 'END' && to === text.length) return { kind: 'cut', calls, dropped, cutAt: undefined };
      return { kind: 'invalid', at: t.start, why: `${t.k === 'END' ? 'the text ends' : JSON.stringify(t.v)} where a \`,\` or \`]\` belongs` };
    }
    const end = parser.take().end;
    return { kind: 'list', end, calls, dropped };
  } catch (e) {
    if (!(e instanceof PySyntaxError)) {
      if (e instanceof RangeError) return { kind: 'invalid', at, why: 'nests too deeply' };
      throw e;
    }
    if (e.eof && to === text.length) return { kind: 'cut', calls, dropped, cutAt: element };
    return { kind: 'invalid', at: e.at, why: e.detail };
  }
}

/** `[` `ident(` (or `ident.ident(`) after it, blanks allowed: a list that may hold calls; 'cut' when the text ends while it still could. */
export function callListAhead(text: string, at: number, to: number): 'yes' | 'no' | 'cut' {
  let j = at + 1;
  const blank = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
  while (j < to && blank(text[j])) j++;
  if (j >= to) return 'cut';
  const idStart = (c: string) => /[\p{L}\p{Nl}_]/u.test(c);
  const idChar = (c: string) => /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]/u.test(c);
  for (;;) {
    if (!idStart(text[j])) return 'no';
    while (j < to && idChar(text[j])) j++;
    if (j >= to) return 'cut';
    if (text[j] !== '.') break;
    j++;
    if (j >= to) return 'cut';
  }
  while (j < to && (text[j] === ' ' || text[j] === '\t')) j++;
  if (j >= to) return 'cut';
  return text[j] === '(' ? 'yes' : 'no';
}

/** The index of `token` ending right before `at` with only blanks between, or -1. */
function tokenBefore(text: string, at: number, token: string): number {
  let j = at;
  while (j > 0 && ' \t\n\r'.includes(text[j - 1])) j--;
  return j >= token.length && text.startsWith(token, j - token.length) ? j - token.length : -1;
}

/** The index after `token` following `at` with only blanks between, or -1. */
function tokenAfter(text: string, at: number, token: string): number {
  let j = at;
  while (j < text.length && ' \t\n\r'.includes(text[j])) j++;
  return text.startsWith(token, j) ? j + token.length : -1;
}

/** Consumed ranges of a region minus the dropped elements in it. */
export function regionMinus(start: number, end: number, holes: readonly { readonly start: number; readonly end: number }[]): [number, number][] {
  const out: [number, number][] = [];
  let pos = start;
  for (const h of [...holes].sort((a, b) => a.start - b.start)) {
    if (h.start > pos) out.push([pos, h.start]);
    pos = Math.max(pos, h.end);
  }
  if (end > pos) out.push([pos, end]);
  return out;
}

/** Notes for the elements of a list that are no call. */
export function droppedNotes(dropped: readonly { readonly start: number; readonly why: string }[]): TextNote[] {
  return dropped.map((d) => ({ at: d.start, note: { code: 'parse/invalid-call', severity: 'error', message: `${d.why}: no call (its text stays content)` } }));
}

/** Every occurrence of `token` outside the ranges (and not at an index of `owned`: a block's own closer), consumed with a note. */
export function strayTokens(text: string, token: string, consumed: [number, number][], textNotes: TextNote[], note: (at: number) => TextNote, owned: ReadonlySet<number> = new Set()): void {
  const ranges = [...consumed].sort((a, b) => a[0] - b[0]);
  let r = 0;
  for (let i = text.indexOf(token); i >= 0; i = text.indexOf(token, i + token.length)) {
    while (r < ranges.length && ranges[r][1] <= i) r++;
    if ((r < ranges.length && ranges[r][0] <= i) || owned.has(i)) continue;
    consumed.push([i, i + token.length]);
    textNotes.push(note(i));
  }
}

/** `text.indexOf(token, from)` for calls with `from` never decreasing: each search resumes where the last one found its answer. */
export function forwardFinder(text: string, token: string): (from: number) => number {
  let found = -2;
  return (from) => {
    if (found === -1 || (found >= from && found !== -2)) return found;
    found = text.indexOf(token, from);
    return found;
  };
}

const LLAMA4_SPELLING: PythonicSpelling = { jsonNames: false };

/** The strict reading of Llama 4's pythonic calls. */
function readLlama4Pythonic(text: string, tools: readonly ParseTool[] | undefined): DialectParse {
  const calls: CallDraft[] = [];
  const consumed: [number, number][] = [];
  const textNotes: TextNote[] = [];
  let pos = 0;
  while (pos < text.length) {
    const b = text.indexOf('[', pos);
    if (b < 0) break;
    const ahead = callListAhead(text, b, text.length);
    if (ahead === 'no') {
      pos = b + 1;
      continue;
    }
    if (ahead === 'cut') {
      textNotes.push({ at: b, note: { code: 'parse/truncated', severity: 'error', message: 'the output ends inside a call list, before a call is whole: no call (the text stays content)' } });
      break;
    }
    const r = readCallList(text, b, text.length, tools, LLAMA4_SPELLING);
    if (r.kind === 'invalid') {
      textNotes.push({ at: b, note: { code: 'parse/invalid-call', severity: 'error', message: `the call list is not valid Python (${r.why}): no call (the text stays content)` } });
      pos = Math.max(b + 1, r.at);
      continue;
    }
    const opener = tokenBefore(text, b, PYTHON_START);
    const start = opener >= 0 ? opener : b;
    pushAll(textNotes, droppedNotes(r.dropped));
    if (r.kind === 'cut') {
      const whole = r.calls.map((c) => ({ ...c, incomplete: 'no ]' }));
      pushAll(calls, whole);
      const cutAt = r.cutAt ?? text.length;
      if (r.cutAt !== undefined) textNotes.push({ at: r.cutAt, note: { code: 'parse/truncated', severity: 'error', message: 'the output ends inside this call: no call (its text stays content)' } });
      if (whole.length > 0 || r.cutAt === undefined) pushAll(consumed, regionMinus(start, cutAt, r.dropped));
      break;
    }
    const closer = tokenAfter(text, r.end, PYTHON_END);
    const end = closer >= 0 ? closer : r.end;
    pushAll(calls, r.calls);
    pushAll(consumed, regionMinus(start, end, r.dropped));
    pos = end;
  }
  strayTokens(text, PYTHON_END, consumed, textNotes, (at) => ({ at, note: { code: 'parse/stray-close-tag', severity: 'warning', message: `${PYTHON_END} closes no call list: dropped from the content` } }));
  strayTokens(text, PYTHON_START, consumed, textNotes, (at) => ({ at, note: { code: 'parse/unexpected-text', severity: 'warning', message: `${PYTHON_START} opens no call list: dropped from the content` } }));
  return { calls, consumed, textNotes };
}

// =======================================================================================
// Registration
// =======================================================================================

export const SYNTAXES: readonly FamilySyntax[] = [
  {
    name: 'llama4-pythonic',
    example: '[get_weather(city="Paris", days=3), get_time(zone="CET")]',
    openers: [],
    controls: [PYTHON_START, PYTHON_END],
    read: readLlama4Pythonic,
  },
];

export const SERVER_PARSERS: readonly ServerParserEntry[] = [
  {
    server: 'vllm',
    name: 'pythonic',
    file: 'vllm/tool_parsers/pythonic_tool_parser.py',
    commit: VLLM_COMMIT,
    parse: (text) => vllmPythonic(text),
  },
  {
    server: 'vllm',
    name: 'llama4_pythonic',
    file: 'vllm/tool_parsers/llama4_pythonic_tool_parser.py',
    commit: VLLM_COMMIT,
    parse: (text) => {
      let t = text;
      if (t.startsWith(PYTHON_START)) t = t.slice(PYTHON_START.length).replaceAll(PYTHON_END, '');
      return vllmPythonic(t);
    },
  },
  {
    server: 'sglang',
    name: 'pythonic',
    file: 'python/sglang/srt/function_call/pythonic_detector.py',
    commit: SGLANG_COMMIT,
    parse: sglangPythonic,
  },
];

/** Calls one per line read strictly (OLMo 3's block body), up to the first line that is not Python. */
export interface CallLinesReading {
  readonly calls: readonly CallDraft[];
  readonly dropped: readonly { readonly start: number; readonly end: number; readonly why: string }[];
  /** Where reading stopped early: a syntax error (`eof`: the text ended inside a call) at `at`, the line it started on at `lineStart`. */
  readonly stop?: { readonly at: number; readonly lineStart: number; readonly why: string; readonly eof: boolean };
}

/** Read `name(key=literal, …)` calls, one per logical line, in `text[from, to)`. */
export function readCallLines(text: string, from: number, to: number, tools: readonly ParseTool[] | undefined, spelling: PythonicSpelling): CallLinesReading {
  const parser = new Parser(new Lexer(text, from, to, false, true));
  const calls: CallDraft[] = [];
  const dropped: { start: number; end: number; why: string }[] = [];
  let lineStart = from;
  try {
    for (;;) {
      while (parser.peek().k === 'NEWLINE') parser.take();
      const t = parser.peek();
      if (t.k === 'END') break;
      lineStart = t.start;
      const e = parser.namedExpression();
      const d = draftOfCall(e, tools, spelling);
      if ('draft' in d) calls.push(d.draft);
      else dropped.push({ start: e.start, end: e.end, why: d.problem });
      const after = parser.peek();
      if (after.k !== 'NEWLINE' && after.k !== 'END') return { calls, dropped, stop: { at: after.start, lineStart, why: `${JSON.stringify(after.v)} after the call (one call per line)`, eof: false } };
    }
    return { calls, dropped };
  } catch (e) {
    if (!(e instanceof PySyntaxError)) {
      if (e instanceof RangeError) return { calls, dropped, stop: { at: lineStart, lineStart, why: 'nests too deeply', eof: false } };
      throw e;
    }
    return { calls, dropped, stop: { at: e.at, lineStart, why: e.detail, eof: e.eof && to === text.length } };
  }
}
