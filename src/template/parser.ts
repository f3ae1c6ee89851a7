/**
 * The template parser: Jinja2's grammar (`parser.py`) over the lexer's tokens, into the AST of
 * ast.ts, with Jinja2's TemplateSyntaxError messages. The tags are Jinja2's own plus the
 * `loopcontrols` extension (`break`, `continue`) and transformers' `{% generation %}`.
 */
import { JinjaError } from '../emit/python/errors.js';
import { PyFloat } from '../emit/python/objects.js';
import type { CallArgs, CallNode, CompareOp, Expr, FilterNode, Keyword, Stmt, TemplateAst } from './ast.js';
import { OPERATOR_TEXT, syntaxError, tokenize, type Token } from './lexer.js';
import { pushAll } from '../ir/arrays.js';

const STATEMENT_KEYWORDS = new Set(['for', 'if', 'block', 'extends', 'print', 'macro', 'include', 'from', 'import', 'set', 'with', 'autoescape']);
const COMPARE_OPERATORS = new Set(['eq', 'ne', 'lt', 'lteq', 'gt', 'gteq']);
const MATH1: Readonly<Record<string, 'add' | 'sub'>> = { add: 'add', sub: 'sub' };
const MATH2: Readonly<Record<string, 'mul' | 'div' | 'floordiv' | 'mod'>> = { mul: 'mul', div: 'div', floordiv: 'floordiv', mod: 'mod' };

/** Names of token types in messages (Jinja2's `_describe_token_type`). */
const TOKEN_DESCRIPTIONS: Readonly<Record<string, string>> = {
  comment_begin: 'begin of comment',
  comment_end: 'end of comment',
  comment: 'comment',
  block_begin: 'begin of statement block',
  block_end: 'end of statement block',
  variable_begin: 'begin of print statement',
  variable_end: 'end of print statement',
  data: 'template data / text',
  eof: 'end of template',
};

function describeType(type: string): string {
  return OPERATOR_TEXT.get(type) ?? TOKEN_DESCRIPTIONS[type] ?? type;
}

/** Jinja2's `describe_token`: a name's value, else its type described. */
function describeToken(t: Token): string {
  return t.type === 'name' ? String(t.value) : describeType(t.type);
}

/** Jinja2's `describe_token_expr` (`name:endfor` → `endfor`). */
function describeExpr(expr: string): string {
  const i = expr.indexOf(':');
  if (i >= 0 && expr.slice(0, i) === 'name') return expr.slice(i + 1);
  return describeType(i >= 0 ? expr.slice(0, i) : expr);
}

/** Python's repr of a short ASCII text (token descriptions in messages). */
function q(s: string): string {
  return s.includes("'") && !s.includes('"') ? `"${s}"` : `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A token stream with Jinja2's `test` expressions (`type` or `type:value`). */
class Stream {
  private i = 0;
  constructor(private readonly tokens: readonly Token[]) {}
  get current(): Token {
    return this.tokens[this.i];
  }
  /** The current token's type (a call, so that checks after an advance are not narrowed away). */
  ct(): string {
    return this.tokens[this.i].type;
  }
  look(): Token {
    return this.tokens[Math.min(this.i + 1, this.tokens.length - 1)];
  }
  next(): Token {
    const t = this.tokens[this.i];
    if (t.type !== 'eof') this.i++;
    return t;
  }
  skip(n = 1): void {
    for (let k = 0; k < n; k++) this.next();
  }
  test(expr: string, t: Token = this.current): boolean {
    if (t.type === expr) return true;
    const i = expr.indexOf(':');
    return i >= 0 && t.type === expr.slice(0, i) && t.value === expr.slice(i + 1);
  }
  testAny(...exprs: string[]): boolean {
    return exprs.some((e) => this.test(e));
  }
  skipIf(expr: string): boolean {
    if (this.test(expr)) {
      this.next();
      return true;
    }
    return false;
  }
  expect(expr: string): Token {
    if (!this.test(expr)) {
      const d = describeExpr(expr);
      if (this.ct() === 'eof') throw syntaxError(`unexpected end of template, expected ${q(d)}.`);
      throw syntaxError(`expected token ${q(d)}, got ${q(describeToken(this.current))}`);
    }
    return this.next();
  }
}

/** Parse a template text into its AST (TemplateSyntaxError as a JinjaError where Jinja2 refuses it). */
export function parseTemplate(source: string): TemplateAst {
  return new Parser(tokenize(source)).parse();
}

class Parser {
  private readonly stream: Stream;
  private readonly tagStack: string[] = [];
  private readonly endTokenStack: (readonly string[])[] = [];

  constructor(tokens: readonly Token[]) {
    this.stream = new Stream(tokens);
  }

  parse(): TemplateAst {
    return { kind: 'template', body: this.subparse(null) };
  }

  private fail(msg: string): never {
    throw syntaxError(msg);
  }

  private failUtEof(name: string | null, endTokenStack: readonly (readonly string[])[]): never {
    const expected = new Set<string>();
    for (const exprs of endTokenStack) for (const e of exprs) expected.add(describeExpr(e));
    const looking = endTokenStack.length ? endTokenStack[endTokenStack.length - 1].map((e) => q(describeExpr(e))).join(' or ') : null;
    const message = [name === null ? 'Unexpected end of template.' : `Encountered unknown tag ${q(name)}.`];
    if (looking) {
      if (name !== null && expected.has(name)) message.push(`You probably made a nesting mistake. Jinja is expecting this tag, but currently looking for ${looking}.`);
      else message.push(`Jinja was looking for the following tags: ${looking}.`);
    }
    if (this.tagStack.length) message.push(`The innermost block that needs to be closed is ${q(this.tagStack[this.tagStack.length - 1])}.`);
    this.fail(message.join(' '));
  }

  private failEof(endTokens: readonly string[] | null): never {
    const stack = [...this.endTokenStack];
    if (endTokens !== null) stack.push(endTokens);
    this.failUtEof(null, stack);
  }

  private subparse(endTokens: readonly string[] | null): Stmt[] {
    const body: Stmt[] = [];
    let data: Expr[] = [];
    let dataLine = 0;
    const flush = () => {
      if (data.length) {
        body.push({ kind: 'output', nodes: data, lineno: dataLine });
        data = [];
      }
    };
    if (endTokens !== null) this.endTokenStack.push(endTokens);
    try {
      const s = this.stream;
      while (s.ct() !== 'eof') {
        const t = s.current;
        if (t.type === 'data') {
          if (!data.length) dataLine = t.lineno;
          if (t.value) data.push({ kind: 'data', data: t.value as string, lineno: t.lineno });
          s.next();
        } else if (t.type === 'variable_begin') {
          if (!data.length) dataLine = t.lineno;
          s.next();
          data.push(this.parseTuple({ withCondexpr: true }));
          s.expect('variable_end');
        } else if (t.type === 'block_begin') {
          flush();
          s.next();
          if (endTokens !== null && s.testAny(...endTokens)) return body;
          const rv = this.parseStatement();
          if (Array.isArray(rv)) pushAll(body, rv);
          else body.push(rv as Stmt);
          s.expect('block_end');
        } else throw new Error('internal parsing error');
      }
      flush();
    } finally {
      if (endTokens !== null) this.endTokenStack.pop();
    }
    return body;
  }

  private parseStatement(): Stmt | Stmt[] {
    const s = this.stream;
    const token = s.current;
    if (token.type !== 'name') this.fail('tag name expected');
    const name = token.value as string;
    this.tagStack.push(name);
    let popTag = true;
    try {
      if (STATEMENT_KEYWORDS.has(name)) {
        switch (name) {
          case 'for':
            return this.parseFor();
          case 'if':
            return this.parseIf();
          case 'block':
            return this.parseBlock();
          case 'extends':
          case 'include':
          case 'import':
          case 'from':
            return this.parseLoad(name);
          case 'print':
            return this.parsePrint();
          case 'macro':
            return this.parseMacro();
          case 'set':
            return this.parseSet();
          case 'with':
            return this.parseWith();
          case 'autoescape':
            return this.parseAutoescape();
        }
      }
      if (name === 'call') return this.parseCallBlock();
      if (name === 'filter') return this.parseFilterBlock();
      // the extensions: loopcontrols and transformers' generation tag
      if (name === 'break' || name === 'continue') {
        const lineno = s.next().lineno;
        return { kind: name, lineno };
      }
      if (name === 'generation') {
        const lineno = s.next().lineno;
        const body = this.parseStatements(['name:endgeneration'], true);
        return { kind: 'generation', body, lineno };
      }
      this.tagStack.pop();
      popTag = false;
      return this.failUtEof(name, this.endTokenStack);
    } finally {
      if (popTag) this.tagStack.pop();
    }
  }

  private parseStatements(endTokens: readonly string[], dropNeedle = false): Stmt[] {
    const s = this.stream;
    s.skipIf('colon');
    s.expect('block_end');
    const result = this.subparse(endTokens);
    if (s.ct() === 'eof') this.failEof(endTokens);
    if (dropNeedle) s.next();
    return result;
  }

  private parseSet(): Stmt {
    const s = this.stream;
    const lineno = s.next().lineno;
    const target = this.parseAssignTarget({ withNamespace: true });
    if (s.skipIf('assign')) {
      const expr = this.parseTuple({});
      return { kind: 'assign', target, expr, lineno };
    }
    const filter = this.parseFilter(null) as FilterNode | null;
    const body = this.parseStatements(['name:endset'], true);
    return { kind: 'assignblock', target, filter, body, lineno };
  }

  private parseFor(): Stmt {
    const s = this.stream;
    const lineno = s.expect('name:for').lineno;
    const target = this.parseAssignTarget({ extraEndRules: ['name:in'] });
    s.expect('name:in');
    const iter = this.parseTuple({ withCondexpr: false, extraEndRules: ['name:recursive'] });
    let test: Expr | null = null;
    if (s.skipIf('name:if')) test = this.parseExpression();
    const recursive = s.skipIf('name:recursive');
    const body = this.parseStatements(['name:endfor', 'name:else']);
    let else_: Stmt[] = [];
    if (s.next().value !== 'endfor') else_ = this.parseStatements(['name:endfor'], true);
    return { kind: 'for', target, iter, body, else_, test, recursive, lineno };
  }

  private parseIf(): Stmt {
    const s = this.stream;
    const lineno = s.expect('name:if').lineno;
    const test = this.parseTuple({ withCondexpr: false });
    const body = this.parseStatements(['name:elif', 'name:else', 'name:endif']);
    const elifs: { test: Expr; body: Stmt[] }[] = [];
    let else_: Stmt[] = [];
    for (;;) {
      const token = s.next();
      if (s.test('name:elif', token)) {
        const t = this.parseTuple({ withCondexpr: false });
        const b = this.parseStatements(['name:elif', 'name:else', 'name:endif']);
        elifs.push({ test: t, body: b });
        continue;
      }
      if (s.test('name:else', token)) else_ = this.parseStatements(['name:endif'], true);
      break;
    }
    return { kind: 'if', test, body, elifs, else_, lineno };
  }

  private parseWith(): Stmt {
    const s = this.stream;
    const lineno = s.next().lineno;
    const targets: Expr[] = [];
    const values: Expr[] = [];
    while (s.ct() !== 'block_end') {
      if (targets.length) s.expect('comma');
      targets.push(this.parseAssignTarget({}));
      s.expect('assign');
      values.push(this.parseExpression());
    }
    const body = this.parseStatements(['name:endwith'], true);
    return { kind: 'with', targets, values, body, lineno };
  }

  private parseAutoescape(): Stmt {
    const s = this.stream;
    const lineno = s.next().lineno;
    const value = this.parseExpression();
    const body = this.parseStatements(['name:endautoescape'], true);
    return { kind: 'autoescape', value, body, lineno };
  }

  private parseBlock(): Stmt {
    const s = this.stream;
    const lineno = s.next().lineno;
    const name = s.expect('name').value as string;
    const scoped = s.skipIf('name:scoped');
    const required = s.skipIf('name:required');
    if (s.ct() === 'sub') this.fail('Block names in Jinja have to be valid Python identifiers and may not contain hyphens, use an underscore instead.');
    const body = this.parseStatements(['name:endblock'], true);
    if (required) {
      for (const b of body) {
        if (b.kind !== 'output' || b.nodes.some((n) => n.kind !== 'data' || !/^\s+$/.test(n.data))) this.fail('Required blocks can only contain comments or whitespace');
      }
    }
    s.skipIf(`name:${name}`);
    return { kind: 'block', name, scoped, required, body, lineno };
  }

  /** `extends`, `include`, `import`, `from`: parsed as Jinja2 parses them (they fail when run: no loader). */
  private parseLoad(name: 'extends' | 'include' | 'import' | 'from'): Stmt {
    const s = this.stream;
    const lineno = s.next().lineno;
    const template = this.parseExpression();
    let ignoreMissing = false;
    const context = () => {
      if (s.testAny('name:with', 'name:without') && s.test('name:context', s.look())) s.skip(2);
    };
    if (name === 'include') {
      if (s.test('name:ignore') && s.test('name:missing', s.look())) {
        ignoreMissing = true;
        s.skip(2);
      }
      context();
    } else if (name === 'import') {
      s.expect('name:as');
      this.parseAssignTarget({ nameOnly: true });
      context();
    } else if (name === 'from') {
      s.expect('name:import');
      let first = true;
      for (;;) {
        if (!first) s.expect('comma');
        first = false;
        if (s.ct() === 'name') {
          if (s.testAny('name:with', 'name:without') && s.test('name:context', s.look())) {
            s.skip(2);
            break;
          }
          const target = this.parseAssignTarget({ nameOnly: true });
          if (target.kind === 'name' && target.name.startsWith('_')) throw new JinjaError('TemplateAssertionError', 'names starting with an underline can not be imported');
          if (s.skipIf('name:as')) this.parseAssignTarget({ nameOnly: true });
          if (s.testAny('name:with', 'name:without') && s.test('name:context', s.look())) {
            s.skip(2);
            break;
          }
          if (s.ct() !== 'comma') break;
        } else s.expect('name');
      }
    }
    return { kind: name === 'from' ? 'fromimport' : name, template, ignoreMissing, lineno };
  }

  private parseSignature(): { args: string[]; defaults: Expr[] } {
    const s = this.stream;
    const args: string[] = [];
    const defaults: Expr[] = [];
    s.expect('lparen');
    while (s.ct() !== 'rparen') {
      if (args.length) s.expect('comma');
      const arg = this.parseAssignTarget({ nameOnly: true });
      if (s.skipIf('assign')) defaults.push(this.parseExpression());
      else if (defaults.length) this.fail('non-default argument follows default argument');
      args.push((arg as { name: string }).name);
    }
    s.expect('rparen');
    return { args, defaults };
  }

  private parseCallBlock(): Stmt {
    const s = this.stream;
    const lineno = s.next().lineno;
    let sig: { args: string[]; defaults: Expr[] } = { args: [], defaults: [] };
    if (s.ct() === 'lparen') sig = this.parseSignature();
    const call = this.parseExpression();
    if (call.kind !== 'call') this.fail('expected call');
    const body = this.parseStatements(['name:endcall'], true);
    return { kind: 'callblock', call: call as CallNode, args: sig.args, defaults: sig.defaults, body, lineno };
  }

  private parseFilterBlock(): Stmt {
    const s = this.stream;
    const lineno = s.next().lineno;
    const filter = this.parseFilter(null, true) as FilterNode;
    const body = this.parseStatements(['name:endfilter'], true);
    return { kind: 'filterblock', filter, body, lineno };
  }

  private parseMacro(): Stmt {
    const s = this.stream;
    const lineno = s.next().lineno;
    const name = (this.parseAssignTarget({ nameOnly: true }) as { name: string }).name;
    const { args, defaults } = this.parseSignature();
    const body = this.parseStatements(['name:endmacro'], true);
    return { kind: 'macro', name, args, defaults, body, lineno };
  }

  private parsePrint(): Stmt {
    const s = this.stream;
    const lineno = s.next().lineno;
    const nodes: Expr[] = [];
    while (s.ct() !== 'block_end') {
      if (nodes.length) s.expect('comma');
      nodes.push(this.parseExpression());
    }
    return { kind: 'output', nodes, lineno };
  }

  private parseAssignTarget(o: { nameOnly?: boolean; extraEndRules?: readonly string[]; withNamespace?: boolean }): Expr {
    const s = this.stream;
    let target: Expr;
    if (o.nameOnly) {
      const token = s.expect('name');
      target = { kind: 'name', name: token.value as string, lineno: token.lineno };
    } else {
      target = this.parseTuple({ simplified: true, extraEndRules: o.extraEndRules, withNamespace: o.withNamespace });
    }
    if (!canAssign(target)) this.fail(`can't assign to ${q(nodeTypeName(target))}`);
    return target;
  }

  private parseExpression(withCondexpr = true): Expr {
    return withCondexpr ? this.parseCondexpr() : this.parseOr();
  }

  private parseCondexpr(): Expr {
    const s = this.stream;
    let lineno = s.current.lineno;
    let expr1 = this.parseOr();
    while (s.skipIf('name:if')) {
      const test = this.parseOr();
      const expr2 = s.skipIf('name:else') ? this.parseCondexpr() : null;
      expr1 = { kind: 'condexpr', test, expr1, expr2, lineno };
      lineno = s.current.lineno;
    }
    return expr1;
  }

  private parseOr(): Expr {
    const s = this.stream;
    let lineno = s.current.lineno;
    let left = this.parseAnd();
    while (s.skipIf('name:or')) {
      const right = this.parseAnd();
      left = { kind: 'or', left, right, lineno };
      lineno = s.current.lineno;
    }
    return left;
  }

  private parseAnd(): Expr {
    const s = this.stream;
    let lineno = s.current.lineno;
    let left = this.parseNot();
    while (s.skipIf('name:and')) {
      const right = this.parseNot();
      left = { kind: 'and', left, right, lineno };
      lineno = s.current.lineno;
    }
    return left;
  }

  private parseNot(): Expr {
    const s = this.stream;
    if (s.test('name:not')) {
      const lineno = s.next().lineno;
      return { kind: 'not', node: this.parseNot(), lineno };
    }
    return this.parseCompare();
  }

  private parseCompare(): Expr {
    const s = this.stream;
    let lineno = s.current.lineno;
    const expr = this.parseMath1();
    const ops: { op: CompareOp; expr: Expr }[] = [];
    for (;;) {
      const type = s.ct();
      if (COMPARE_OPERATORS.has(type)) {
        s.next();
        ops.push({ op: type as CompareOp, expr: this.parseMath1() });
      } else if (s.skipIf('name:in')) ops.push({ op: 'in', expr: this.parseMath1() });
      else if (s.test('name:not') && s.test('name:in', s.look())) {
        s.skip(2);
        ops.push({ op: 'notin', expr: this.parseMath1() });
      } else break;
      lineno = s.current.lineno;
    }
    if (!ops.length) return expr;
    return { kind: 'compare', expr, ops, lineno };
  }

  private parseMath1(): Expr {
    const s = this.stream;
    let lineno = s.current.lineno;
    let left = this.parseConcat();
    while (MATH1[s.ct()] !== undefined) {
      const op = MATH1[s.next().type];
      const right = this.parseConcat();
      left = { kind: 'binop', op, left, right, lineno };
      lineno = s.current.lineno;
    }
    return left;
  }

  private parseConcat(): Expr {
    const s = this.stream;
    const lineno = s.current.lineno;
    const args = [this.parseMath2()];
    while (s.ct() === 'tilde') {
      s.next();
      args.push(this.parseMath2());
    }
    return args.length === 1 ? args[0] : { kind: 'concat', nodes: args, lineno };
  }

  private parseMath2(): Expr {
    const s = this.stream;
    let lineno = s.current.lineno;
    let left = this.parsePow();
    while (MATH2[s.ct()] !== undefined) {
      const op = MATH2[s.next().type];
      const right = this.parsePow();
      left = { kind: 'binop', op, left, right, lineno };
      lineno = s.current.lineno;
    }
    return left;
  }

  private parsePow(): Expr {
    const s = this.stream;
    let lineno = s.current.lineno;
    let left = this.parseUnary();
    while (s.ct() === 'pow') {
      s.next();
      const right = this.parseUnary();
      left = { kind: 'binop', op: 'pow', left, right, lineno };
      lineno = s.current.lineno;
    }
    return left;
  }

  private parseUnary(withFilter = true): Expr {
    const s = this.stream;
    const type = s.ct();
    const lineno = s.current.lineno;
    let node: Expr;
    if (type === 'sub') {
      s.next();
      node = { kind: 'neg', node: this.parseUnary(false), lineno };
    } else if (type === 'add') {
      s.next();
      node = { kind: 'pos', node: this.parseUnary(false), lineno };
    } else node = this.parsePrimary();
    node = this.parsePostfix(node);
    if (withFilter) node = this.parseFilterExpr(node);
    return node;
  }

  private parsePrimary(withNamespace = false): Expr {
    const s = this.stream;
    const token = s.current;
    if (token.type === 'name') {
      s.next();
      const v = token.value as string;
      if (v === 'true' || v === 'false' || v === 'True' || v === 'False') return { kind: 'const', value: v === 'true' || v === 'True', lineno: token.lineno };
      if (v === 'none' || v === 'None') return { kind: 'const', value: null, lineno: token.lineno };
      if (withNamespace && s.ct() === 'dot') {
        s.next();
        const attr = s.expect('name');
        return { kind: 'nsref', name: v, attr: attr.value as string, lineno: token.lineno };
      }
      return { kind: 'name', name: v, lineno: token.lineno };
    }
    if (token.type === 'string') {
      s.next();
      let value = token.value as string;
      // adjacent string literals are joined
      while (s.ct() === 'string') value += s.next().value as string;
      return { kind: 'const', value, lineno: token.lineno };
    }
    if (token.type === 'integer') {
      s.next();
      return { kind: 'const', value: token.value as number | bigint, lineno: token.lineno };
    }
    if (token.type === 'float') {
      s.next();
      return { kind: 'const', value: new PyFloat(token.value as number), lineno: token.lineno };
    }
    if (token.type === 'lparen') {
      s.next();
      const node = this.parseTuple({ explicitParentheses: true });
      s.expect('rparen');
      return node;
    }
    if (token.type === 'lbracket') return this.parseList();
    if (token.type === 'lbrace') return this.parseDict();
    this.fail(`unexpected ${q(describeToken(token))}`);
  }

  private parseTuple(o: { simplified?: boolean; withCondexpr?: boolean; extraEndRules?: readonly string[]; explicitParentheses?: boolean; withNamespace?: boolean }): Expr {
    const s = this.stream;
    let lineno = s.current.lineno;
    const parse = o.simplified ? () => this.parsePrimary(o.withNamespace ?? false) : () => this.parseExpression(o.withCondexpr ?? true);
    const args: Expr[] = [];
    let isTuple = false;
    for (;;) {
      if (args.length) s.expect('comma');
      if (this.isTupleEnd(o.extraEndRules)) break;
      args.push(parse());
      if (s.ct() === 'comma') isTuple = true;
      else break;
      lineno = s.current.lineno;
    }
    if (!isTuple) {
      if (args.length) return args[0];
      if (!o.explicitParentheses) this.fail(`Expected an expression, got ${q(describeToken(s.current))}`);
    }
    return { kind: 'tuple', items: args, lineno };
  }

  private isTupleEnd(extra: readonly string[] | undefined): boolean {
    const t = this.stream.ct();
    if (t === 'variable_end' || t === 'block_end' || t === 'rparen') return true;
    return extra !== undefined && this.stream.testAny(...extra);
  }

  private parseList(): Expr {
    const s = this.stream;
    const token = s.expect('lbracket');
    const items: Expr[] = [];
    while (s.ct() !== 'rbracket') {
      if (items.length) s.expect('comma');
      if (s.ct() === 'rbracket') break;
      items.push(this.parseExpression());
    }
    s.expect('rbracket');
    return { kind: 'list', items, lineno: token.lineno };
  }

  private parseDict(): Expr {
    const s = this.stream;
    const token = s.expect('lbrace');
    const pairs: { key: Expr; value: Expr }[] = [];
    while (s.ct() !== 'rbrace') {
      if (pairs.length) s.expect('comma');
      if (s.ct() === 'rbrace') break;
      const key = this.parseExpression();
      s.expect('colon');
      const value = this.parseExpression();
      pairs.push({ key, value });
    }
    s.expect('rbrace');
    return { kind: 'dict', pairs, lineno: token.lineno };
  }

  private parsePostfix(node: Expr): Expr {
    for (;;) {
      const t = this.stream.ct();
      if (t === 'dot' || t === 'lbracket') node = this.parseSubscript(node);
      else if (t === 'lparen') node = this.parseCall(node);
      else return node;
    }
  }

  private parseFilterExpr(node: Expr): Expr {
    const s = this.stream;
    for (;;) {
      const t = s.ct();
      if (t === 'pipe') node = this.parseFilter(node) as Expr;
      else if (t === 'name' && s.current.value === 'is') node = this.parseTest(node);
      else if (t === 'lparen') node = this.parseCall(node);
      else return node;
    }
  }

  private parseSubscript(node: Expr): Expr {
    const s = this.stream;
    const token = s.next();
    if (token.type === 'dot') {
      const attr = s.current;
      s.next();
      if (attr.type === 'name') return { kind: 'getattr', node, attr: attr.value as string, lineno: token.lineno };
      if (attr.type !== 'integer') this.fail('expected name or number');
      return { kind: 'getitem', node, arg: { kind: 'const', value: attr.value as number | bigint, lineno: attr.lineno }, lineno: token.lineno };
    }
    const args: Expr[] = [];
    while (s.ct() !== 'rbracket') {
      if (args.length) s.expect('comma');
      args.push(this.parseSubscribed());
    }
    s.expect('rbracket');
    const arg: Expr = args.length === 1 ? args[0] : { kind: 'tuple', items: args, lineno: token.lineno };
    return { kind: 'getitem', node, arg, lineno: token.lineno };
  }

  private parseSubscribed(): Expr {
    const s = this.stream;
    const lineno = s.current.lineno;
    const parts: (Expr | null)[] = [];
    if (s.ct() === 'colon') {
      s.next();
      parts.push(null);
    } else {
      const node = this.parseExpression();
      if (s.ct() !== 'colon') return node;
      s.next();
      parts.push(node);
    }
    if (s.ct() === 'colon') parts.push(null);
    else if (s.ct() !== 'rbracket' && s.ct() !== 'comma') parts.push(this.parseExpression());
    else parts.push(null);
    if (s.ct() === 'colon') {
      s.next();
      if (s.ct() !== 'rbracket' && s.ct() !== 'comma') parts.push(this.parseExpression());
      else parts.push(null);
    } else parts.push(null);
    return { kind: 'slice', start: parts[0], stop: parts[1], step: parts[2], lineno };
  }

  private parseCallArgs(): CallArgs {
    const s = this.stream;
    s.expect('lparen');
    const args: Expr[] = [];
    const kwargs: Keyword[] = [];
    let dynArgs: Expr | null = null;
    let dynKwargs: Expr | null = null;
    let requireComma = false;
    const ensure = (ok: boolean) => {
      if (!ok) this.fail('invalid syntax for function call expression');
    };
    while (s.ct() !== 'rparen') {
      if (requireComma) {
        s.expect('comma');
        if (s.ct() === 'rparen') break;
      }
      if (s.ct() === 'mul') {
        ensure(dynArgs === null && dynKwargs === null);
        s.next();
        dynArgs = this.parseExpression();
      } else if (s.ct() === 'pow') {
        ensure(dynKwargs === null);
        s.next();
        dynKwargs = this.parseExpression();
      } else if (s.ct() === 'name' && s.look().type === 'assign') {
        ensure(dynKwargs === null);
        const key = s.current.value as string;
        s.skip(2);
        kwargs.push({ key, value: this.parseExpression() });
      } else {
        ensure(dynArgs === null && dynKwargs === null && kwargs.length === 0);
        args.push(this.parseExpression());
      }
      requireComma = true;
    }
    s.expect('rparen');
    return { args, kwargs, dynArgs, dynKwargs };
  }

  private parseCall(node: Expr): Expr {
    const lineno = this.stream.current.lineno;
    return { kind: 'call', node, ...this.parseCallArgs(), lineno };
  }

  private parseFilter(node: Expr | null, startInline = false): Expr | null {
    const s = this.stream;
    while (s.ct() === 'pipe' || startInline) {
      if (!startInline) s.next();
      const token = s.expect('name');
      let name = token.value as string;
      while (s.ct() === 'dot') {
        s.next();
        name += `.${s.expect('name').value as string}`;
      }
      const args: CallArgs = s.ct() === 'lparen' ? this.parseCallArgs() : { args: [], kwargs: [], dynArgs: null, dynKwargs: null };
      node = { kind: 'filter', node, name, ...args, lineno: token.lineno };
      startInline = false;
    }
    return node;
  }

  private parseTest(node: Expr): Expr {
    const s = this.stream;
    const token = s.next();
    let negated = false;
    if (s.test('name:not')) {
      s.next();
      negated = true;
    }
    let name = s.expect('name').value as string;
    while (s.ct() === 'dot') {
      s.next();
      name += `.${s.expect('name').value as string}`;
    }
    let args: CallArgs = { args: [], kwargs: [], dynArgs: null, dynKwargs: null };
    const t = s.ct();
    if (t === 'lparen') args = this.parseCallArgs();
    else if (['name', 'string', 'integer', 'float', 'lparen', 'lbracket', 'lbrace'].includes(t) && !s.testAny('name:else', 'name:or', 'name:and')) {
      if (s.test('name:is')) this.fail('You cannot chain multiple tests with is');
      let arg = this.parsePrimary();
      arg = this.parsePostfix(arg);
      args = { args: [arg], kwargs: [], dynArgs: null, dynKwargs: null };
    }
    const test: Expr = { kind: 'test', node, name, ...args, lineno: token.lineno };
    return negated ? { kind: 'not', node: test, lineno: token.lineno } : test;
  }
}

/** Jinja2's `can_assign`: names (not true/false/none), tuples of them, and namespace refs. */
function canAssign(node: Expr): boolean {
  if (node.kind === 'name') return !['true', 'false', 'none', 'True', 'False', 'None'].includes(node.name);
  if (node.kind === 'tuple') return node.items.every(canAssign);
  return node.kind === 'nsref';
}

/** Jinja2's node class name, lower-cased (`can't assign to 'const'`). */
function nodeTypeName(node: Expr): string {
  switch (node.kind) {
    case 'condexpr':
      return 'condexpr';
    case 'binop':
      return node.op;
    default:
      return node.kind;
  }
}
