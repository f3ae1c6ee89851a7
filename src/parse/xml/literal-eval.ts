/**
 * Python's `ast.literal_eval(s)` for the values vLLM's Qwen3-Coder parser hands it: source
 * text → Python value, or a PythonException (SyntaxError for text Python cannot parse,
 * ValueError for an expression that is not a literal, TypeError for an unhashable key).
 *
 * What it reads, as CPython 3.11 does (checked against it): `s.lstrip(" \t")` then one expression (`mode='eval'`):
 * numbers (ints in any base, floats, imaginary; `_` between digits), strings and bytes (every
 * prefix but f/t, triple quotes, escapes, implicit concatenation), True/False/None, `...`,
 * tuples, lists, sets, `set()`, dicts, `+`/`-` signs on numbers and `num ± complex`; comments,
 * line continuations and newlines inside brackets; at most 200 nested brackets.
 * Not read: `\N{name}` escapes (no Unicode name table here: SyntaxError instead of the character).
 */
import { PyDict, PythonException, pyFloat, pyInt, type PyValue } from './python-values.js';

type Token =
  | { readonly k: 'num'; readonly v: PyValue }
  | { readonly k: 'str'; readonly v: string; readonly bytes: boolean }
  | { readonly k: 'name'; readonly v: string }
  | { readonly k: 'op'; readonly v: string }
  | { readonly k: 'newline' }
  | { readonly k: 'end' };

type Node =
  | { readonly k: 'const'; readonly v: PyValue }
  | { readonly k: 'tuple' | 'list' | 'set'; readonly elts: readonly Node[] }
  | { readonly k: 'dict'; readonly keys: readonly Node[]; readonly values: readonly Node[] }
  | { readonly k: 'unary'; readonly op: string; readonly operand: Node }
  | { readonly k: 'binop'; readonly op: string; readonly left: Node; readonly right: Node }
  | { readonly k: 'emptyset' };

const syntaxError = (msg = 'invalid syntax'): never => {
  throw new PythonException('SyntaxError', msg);
};
const malformed = (): never => {
  throw new PythonException('ValueError', 'malformed node or string');
};

// Python's tokenizer refuses a 201st nested bracket ("too many nested parentheses").
const MAX_LEVEL = 200;
// Where CPython 3.11 stops building a deeper AST (RecursionError), measured at the top level.
const MAX_AST_DEPTH = 2980;

const D = '[0-9](?:_?[0-9])*';
const IMAG_RE = new RegExp(`(?:(?:${D})?\\.${D}(?:[eE][+-]?${D})?|${D}\\.(?:[eE][+-]?${D})?|${D}[eE][+-]?${D}|${D})[jJ]`, 'y');
const FLOAT_RE = new RegExp(`(?:${D})?\\.${D}(?:[eE][+-]?${D})?|${D}\\.(?:[eE][+-]?${D})?|${D}[eE][+-]?${D}`, 'y');
const INT_RE = /0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|[1-9](?:_?[0-9])*|0+(?:_?0)*/y;
const NAME_RE = /[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*/uy;

function sticky(re: RegExp, s: string, at: number): string | undefined {
  re.lastIndex = at;
  const m = re.exec(s);
  return m ? m[0] : undefined;
}

/** Python's tokenizer over the subset that can spell a literal; anything else ends as a token the parser refuses. */
function tokenize(src: string): Token[] {
  const s = src.replace(/\r\n?/g, '\n');
  const out: Token[] = [];
  const brackets: string[] = [];
  let i = 0;
  let lineHasToken = false;
  let atLineStart = true;
  while (i < s.length) {
    const c = s[i];
    if (atLineStart && brackets.length === 0) {
      // indentation of a logical line: blank and comment-only lines are skipped, an indented one is refused
      let j = i;
      let indent = 0;
      while (j < s.length && (s[j] === ' ' || s[j] === '\t' || s[j] === '\f')) {
        indent = s[j] === '\f' ? 0 : indent + 1;
        j++;
      }
      // an indented last line without a newline is an IndentationError (CPython 3.11)
      if (j >= s.length) {
        if (indent > 0) syntaxError('unexpected indent');
        break;
      }
      if (s[j] === '\n') {
        i = j + 1;
        continue;
      }
      if (s[j] === '#') {
        while (j < s.length && s[j] !== '\n') j++;
        i = j;
        continue;
      }
      if (s[j] === '\\' && s[j + 1] === '\n') {
        // a continuation before any token: the next physical line is still the line's start
        i = j + 2;
        if (i >= s.length) syntaxError('unexpected EOF while parsing');
        continue;
      }
      if (indent > 0) syntaxError('unexpected indent');
      i = j;
      atLineStart = false;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\f') {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < s.length && s[i] !== '\n') i++;
      continue;
    }
    if (c === '\\') {
      if (s[i + 1] === '\n') {
        i += 2;
        // a continuation that ends the text: "unexpected EOF while parsing"
        if (i >= s.length) syntaxError('unexpected EOF while parsing');
        continue;
      }
      syntaxError('unexpected character after line continuation character');
    }
    if (c === '\n') {
      i++;
      if (brackets.length === 0) {
        if (lineHasToken) out.push({ k: 'newline' });
        lineHasToken = false;
        atLineStart = true;
      }
      continue;
    }
    if (c === '\0') syntaxError('source code string cannot contain null bytes');
    lineHasToken = true;
    // numbers
    if ((c >= '0' && c <= '9') || (c === '.' && s[i + 1] >= '0' && s[i + 1] <= '9')) {
      const imag = sticky(IMAG_RE, s, i);
      if (imag !== undefined) {
        out.push({ k: 'num', v: { t: 'complex', re: 0, im: Number(imag.slice(0, -1).replaceAll('_', '')) } });
        i += imag.length;
        continue;
      }
      const float = sticky(FLOAT_RE, s, i);
      if (float !== undefined) {
        out.push({ k: 'num', v: pyFloat(Number(float.replaceAll('_', ''))) });
        i += float.length;
        continue;
      }
      const int = sticky(INT_RE, s, i);
      if (int === undefined) return syntaxError('invalid decimal literal');
      const clean = int.replaceAll('_', '');
      if (/^[0-9]/.test(clean) && !/^0[xob]/i.test(clean) && clean.length > 4300) syntaxError('Exceeds the limit (4300 digits) for integer string conversion');
      out.push({ k: 'num', v: pyInt(BigInt(/^0+$/.test(clean) ? '0' : clean)) });
      i += int.length;
      continue;
    }
    // strings, with or without a prefix
    const name = sticky(NAME_RE, s, i);
    const quoteAt = name === undefined ? i : i + name.length;
    if (s[quoteAt] === '"' || s[quoteAt] === "'") {
      const prefix = (name ?? '').toLowerCase();
      if (!['', 'r', 'u', 'b', 'br', 'rb', 'f', 'fr', 'rf', 't', 'tr', 'rt'].includes(prefix)) {
        out.push({ k: 'name', v: name! });
        i += name!.length;
        continue;
      }
      if (prefix.includes('f') || prefix.includes('t')) malformed(); // an f-string (JoinedStr) is not a literal
      const [tok, end] = readString(s, quoteAt, prefix.includes('r'), prefix.includes('b'));
      out.push(tok);
      i = end;
      continue;
    }
    if (name !== undefined) {
      out.push({ k: 'name', v: name });
      i += name.length;
      continue;
    }
    if (s.startsWith('...', i)) {
      out.push({ k: 'op', v: '...' });
      i += 3;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') {
      if (brackets.length >= MAX_LEVEL) syntaxError('too many nested parentheses');
      brackets.push(c);
    } else if (c === ')' || c === ']' || c === '}') {
      const open = brackets.pop();
      if (open === undefined || '([{'.indexOf(open) !== ')]}'.indexOf(c)) syntaxError('unmatched bracket');
    }
    const two = s.slice(i, i + 2);
    const op = ['**', '//', '<<', '>>', '<=', '>=', '==', '!=', ':=', '->'].includes(two) ? two : c;
    out.push({ k: 'op', v: op });
    i += op.length;
  }
  if (brackets.length > 0) syntaxError("'(' was never closed");
  out.push({ k: 'end' });
  return out;
}

/** Read a string literal's body from its opening quote; returns the token and the index after it. */
function readString(s: string, at: number, raw: boolean, bytes: boolean): [Token, number] {
  const q = s[at];
  const triple = s.startsWith(q.repeat(3), at);
  const close = triple ? q.repeat(3) : q;
  let i = at + close.length;
  const start = i;
  for (;;) {
    if (i >= s.length) syntaxError('unterminated string literal');
    const c = s[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (!triple && c === '\n') syntaxError('unterminated string literal');
    if (s.startsWith(close, i)) break;
    i++;
  }
  const body = s.slice(start, i);
  if (bytes && /[^\u0000-\u007f]/.test(body)) syntaxError('bytes can only contain ASCII literal characters');
  const v = raw ? body : unescape(body, bytes);
  return [{ k: 'str', v, bytes }, i + close.length];
}

const SIMPLE_ESCAPES: Record<string, string> = { '\n': '', '\\': '\\', "'": "'", '"': '"', a: '\u0007', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\u000b' };

/** Python's escape decoding of a (non-raw) str or bytes literal body; unknown escapes keep their backslash. */
function unescape(body: string, bytes: boolean): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[i + 1];
    if (e === undefined) return syntaxError('unterminated string literal');
    if (e in SIMPLE_ESCAPES) {
      out += SIMPLE_ESCAPES[e];
      i++;
      continue;
    }
    if (e >= '0' && e <= '7') {
      let j = i + 1;
      let digits = '';
      while (j < body.length && digits.length < 3 && body[j] >= '0' && body[j] <= '7') digits += body[j++];
      const v = parseInt(digits, 8);
      out += String.fromCharCode(bytes ? v & 0xff : v);
      i = j - 1;
      continue;
    }
    const hexLen = e === 'x' ? 2 : !bytes && e === 'u' ? 4 : !bytes && e === 'U' ? 8 : 0;
    if (hexLen > 0) {
      const h = body.slice(i + 2, i + 2 + hexLen);
      if (h.length !== hexLen || !/^[0-9a-fA-F]+$/.test(h)) syntaxError(`truncated \\${e}XX escape`);
      const cp = parseInt(h, 16);
      if (cp > 0x10ffff) syntaxError('illegal Unicode character');
      out += String.fromCodePoint(cp);
      i += 1 + hexLen;
      continue;
    }
    if (!bytes && e === 'N') syntaxError('\\N{…} escapes are not supported here');
    out += c; // an unknown escape keeps its backslash (a SyntaxWarning in Python, not an error)
  }
  return out;
}

/** Recursive descent over the tokens: the expression's AST, or SyntaxError/ValueError for anything that is not literal syntax. */
function parse(tokens: readonly Token[]): Node {
  let p = 0;
  const peek = () => tokens[p];
  const isOp = (v: string) => {
    const t = tokens[p];
    return t.k === 'op' && t.v === v;
  };
  const expectOp = (v: string) => {
    if (!isOp(v)) syntaxError();
    p++;
  };
  // a comma-separated run ending at `close`: returns the items and whether any comma was seen
  const run = (close: string, item: () => Node): [Node[], boolean] => {
    const items: Node[] = [];
    let comma = false;
    while (!isOp(close)) {
      items.push(item());
      if (isOp(',')) {
        p++;
        comma = true;
      } else break;
    }
    expectOp(close);
    return [items, comma];
  };
  const atom = (): Node => {
    const t = peek();
    p++;
    if (t.k === 'num') return { k: 'const', v: t.v };
    if (t.k === 'str') {
      let v = t.v;
      while (peek().k === 'str') {
        const u = peek() as Extract<Token, { k: 'str' }>;
        if (u.bytes !== t.bytes) syntaxError('cannot mix bytes and nonbytes literals');
        v += u.v;
        p++;
      }
      return { k: 'const', v: t.bytes ? { t: 'bytes', v } : v };
    }
    if (t.k === 'name') {
      if (t.v === 'True') return { k: 'const', v: true };
      if (t.v === 'False') return { k: 'const', v: false };
      if (t.v === 'None') return { k: 'const', v: null };
      if (t.v === 'set' && isOp('(') && tokens[p + 1].k === 'op' && (tokens[p + 1] as { v: string }).v === ')') {
        p += 2;
        return { k: 'emptyset' };
      }
      return malformed(); // a Name (or a keyword starting another expression)
    }
    if (t.k === 'op') {
      if (t.v === '...') return { k: 'const', v: { t: 'ellipsis' } };
      if (t.v === '(') {
        const [items, comma] = run(')', expr);
        if (items.length === 1 && !comma) return items[0];
        return { k: 'tuple', elts: items };
      }
      if (t.v === '[') return { k: 'list', elts: run(']', expr)[0] };
      if (t.v === '{') {
        if (isOp('}')) {
          p++;
          return { k: 'dict', keys: [], values: [] };
        }
        const first = expr();
        if (isOp(':')) {
          p++;
          const keys = [first];
          const values = [expr()];
          while (isOp(',')) {
            p++;
            if (isOp('}')) break;
            keys.push(expr());
            expectOp(':');
            values.push(expr());
          }
          expectOp('}');
          return { k: 'dict', keys, values };
        }
        const elts = [first];
        while (isOp(',')) {
          p++;
          if (isOp('}')) break;
          elts.push(expr());
        }
        expectOp('}');
        return { k: 'set', elts };
      }
    }
    return syntaxError();
  };
  const primary = (): Node => {
    const a = atom();
    // a call, subscript, attribute or power is an expression but not a literal
    if (isOp('(') || isOp('[') || isOp('.') || isOp('**')) malformed();
    return a;
  };
  // CPython builds the AST recursively: past about 3000 levels it raises RecursionError, which
  // literal_eval's callers in vLLM do not catch (the limit is approximate: it depends on the stack)
  const deep = (levels: number) => {
    if (levels > MAX_AST_DEPTH) throw new PythonException('RecursionError', 'maximum recursion depth exceeded during ast construction');
  };
  const unary = (): Node => {
    const ops: string[] = [];
    while (isOp('+') || isOp('-')) {
      ops.push((peek() as { v: string }).v);
      p++;
    }
    deep(ops.length);
    if (isOp('~')) malformed();
    let node = primary();
    for (let k = ops.length - 1; k >= 0; k--) node = { k: 'unary', op: ops[k], operand: node };
    return node;
  };
  const expr = (): Node => {
    let left = unary();
    let chain = 0;
    while (isOp('+') || isOp('-')) {
      const op = (peek() as { v: string }).v;
      p++;
      deep(++chain);
      left = { k: 'binop', op, left, right: unary() };
    }
    const t = peek();
    // any other operator or word continues an expression that is not a literal
    if (t.k === 'op' && ![',', ')', ']', '}', ':'].includes(t.v)) malformed();
    // a keyword continues a (non-literal) expression; two atoms side by side are no Python
    if (t.k === 'name' && ['if', 'and', 'or', 'not', 'in', 'is', 'for', 'async'].includes(t.v)) malformed();
    if (t.k === 'name' || t.k === 'num' || t.k === 'str') syntaxError();
    return left;
  };
  if (peek().k === 'end') syntaxError('invalid syntax');
  const items: Node[] = [expr()];
  let comma = false;
  while (isOp(',')) {
    p++;
    comma = true;
    if (peek().k === 'newline' || peek().k === 'end') break;
    items.push(expr());
  }
  while (peek().k === 'newline') p++;
  if (peek().k !== 'end') syntaxError();
  return comma ? { k: 'tuple', elts: items } : items[0];
}

function isNumber(v: PyValue): v is Extract<PyValue, { t: 'int' | 'float' | 'complex' }> {
  return v !== null && typeof v === 'object' && (v.t === 'int' || v.t === 'float' || v.t === 'complex');
}

// literal_eval's _convert_num / _convert_signed_num / _convert, rule for rule.
function convertNum(node: Node): PyValue {
  if (node.k !== 'const' || !isNumber(node.v)) return malformed();
  return node.v;
}
function convertSignedNum(node: Node): PyValue {
  if (node.k === 'unary') {
    const v = convertNum(node.operand) as Extract<PyValue, { t: 'int' | 'float' | 'complex' }>;
    if (node.op === '+') return v;
    if (v.t === 'int') return pyInt(-v.v);
    if (v.t === 'float') return pyFloat(-v.v);
    return { t: 'complex', re: -v.re, im: -v.im };
  }
  return convertNum(node);
}
function convert(node: Node): PyValue {
  switch (node.k) {
    case 'const':
      return node.v;
    case 'tuple':
      return { t: 'tuple', items: node.elts.map(convert) };
    case 'list':
      return { t: 'list', items: node.elts.map(convert) };
    case 'set': {
      const members = new PyDict();
      for (const e of node.elts) members.set(convert(e), null);
      return { t: 'set', items: [...members.entries()].map(([k]) => k) };
    }
    case 'emptyset':
      return { t: 'set', items: [] };
    case 'dict': {
      const d = new PyDict();
      node.keys.forEach((k, i) => d.set(convert(k), convert(node.values[i])));
      return d;
    }
    case 'binop': {
      const left = convertSignedNum(node.left);
      const right = convertNum(node.right);
      if (left !== null && typeof left === 'object' && (left.t === 'int' || left.t === 'float') && right !== null && typeof right === 'object' && right.t === 'complex') {
        const l = Number(left.v);
        return node.op === '+' ? { t: 'complex', re: l + right.re, im: right.im } : { t: 'complex', re: l - right.re, im: -right.im };
      }
      return convertSignedNum(node);
    }
    case 'unary':
      return convertSignedNum(node);
  }
}

/** Python's `ast.literal_eval(text)`; throws PythonException (SyntaxError, ValueError, TypeError). */
export function pythonLiteralEval(text: string): PyValue {
  const src = text.replace(/^[ \t]+/, '');
  return convert(parse(tokenize(src)));
}
