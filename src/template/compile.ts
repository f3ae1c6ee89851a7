/**
 * The template compiler: the AST compiled once into JavaScript closures (an expression is a
 * function of the scope, a statement a function of the scope and the output), with Jinja2's
 * semantics for each node: output as `str()`, Python operators, the sandbox's getattr/getitem,
 * for loops (a fresh scope each iteration, `loop`, filters, `else`, `break`/`continue`,
 * recursion), macros and call blocks, `set` (plain, unpacking, namespace, block), and the
 * compile-time errors Jinja2 raises (unknown filters and tests outside `if`s).
 */
import { EngineUnsupported, JinjaError } from '../emit/python/errors.js';
import { pyMod } from '../emit/python/format.js';
import { Markup, MISSING, PyFloat, PyInstance, PyTuple, Undefined, type PyObject } from '../emit/python/objects.js';
import { JsonNumber } from '../ir/json.js';
import { pyAdd, pyCompare, pyFloorDiv, pyHashKey, pyIn, pyIter, pyMul, pyNeg, pyPos, pyPow, pySub, pyTrueDiv } from '../emit/python/operators.js';
import { codePoints } from '../emit/python/strings.js';
import { pyEquals, pyStr, pyTruthy } from '../emit/python/values.js';
import type { CallArgs, Expr, FilterNode, Stmt, TemplateAst } from './ast.js';
import { FILTERS, type FilterFn } from './filters.js';
import { callAttr, callValue, getAttr, getItem, getSlice, Loop, Macro, Namespace, PyFunction, PyRange, Scope, sliceUndefined, unpack, type MacroBody } from './runtime.js';
import { TESTS, type TestFn } from './tests.js';
import { pushAll } from '../ir/arrays.js';

/** An expression compiled: its value in a scope. */
export type Ev = (s: Scope) => PyObject;
/** What a statement tells the loop around it. */
const NEXT = 0;
const BREAK = 1;
const CONTINUE = 2;
type Signal = typeof NEXT | typeof BREAK | typeof CONTINUE;
/**
 * The output being written: its pieces, joined once when it is read (a long prompt built by `+=`
 * is a rope of thousands of pieces that V8 must flatten later; one join writes it flat).
 */
export class Out {
  private parts: string[] = [];
  /** Write a piece. */
  add(x: string): void {
    if (x !== '') this.parts.push(x);
  }
  /** Everything written so far. */
  get s(): string {
    const p = this.parts;
    if (p.length === 0) return '';
    if (p.length > 1) this.parts = [p.join('')];
    return this.parts[0]!;
  }
}
/** A statement compiled. */
export type Ex = (s: Scope, o: Out) => Signal;

/** How many macro calls may nest before Python's recursion limit (1000 frames, about five a call) is reached. */
const MAX_MACRO_DEPTH = 190;

/**
 * Python's RecursionError for a macro that recurses without end. CPython words it by the call it
 * stops in: with about five frames a macro level, one depth in five stops in a C call (`… while
 * calling a Python object`), the others in a Python frame (this text); which one depends on the
 * caller's own stack depth, which a template engine cannot know.
 */
export const MACRO_RECURSION_ERROR = new JinjaError('RecursionError', 'maximum recursion depth exceeded');

/** What the compiler knows where it is: inside a loop (for break/continue), inside an `if` (for unknown filters). */
interface Where {
  readonly loop: boolean;
  readonly soft: boolean;
}

/** The blocks of the template being compiled, by name (what `self.name()` renders). */
let blocks: Map<string, Ex> | undefined;

/** Compile a template's AST into its render function (TemplateAssertionError for an unknown filter or test outside an `if`). */
export function compileAst(ast: TemplateAst): (root: Scope) => string {
  const outer = blocks;
  blocks = new Map();
  try {
    const body = compileBody(ast.body, { loop: false, soft: false });
    const own = blocks;
    // `self` is the template's TemplateReference, made when the template names it
    const usesSelf = loadsName(ast.body, 'self');
    return (root) => {
      if (usesSelf) root.set('self', new TemplateReference(own, root));
      const o = new Out();
      body(root, o);
      return o.s;
    };
  } finally {
    blocks = outer;
  }
}

// ---------------------------------------------------------------------------------------
// Statements

function compileBody(stmts: readonly Stmt[], w: Where): Ex {
  const parts = stmts.map((st) => compileStmt(st, w));
  if (parts.length === 0) return () => NEXT;
  if (parts.length === 1) return parts[0];
  if (parts.length === 2) {
    const [a, b] = parts;
    return (s, o) => a(s, o) || b(s, o);
  }
  return (s, o) => {
    for (let i = 0; i < parts.length; i++) {
      const r = parts[i](s, o);
      if (r !== NEXT) return r;
    }
    return NEXT;
  };
}

function compileStmt(st: Stmt, w: Where): Ex {
  switch (st.kind) {
    case 'output':
      return compileOutput(st.nodes, w);
    case 'if': {
      const branches: [Ev, Ex][] = [[compileExpr(st.test, { ...w, soft: true }), compileBody(st.body, { ...w, soft: true })]];
      for (const e of st.elifs) branches.push([compileExpr(e.test, { ...w, soft: true }), compileBody(e.body, { ...w, soft: true })]);
      const else_ = st.else_.length ? compileBody(st.else_, { ...w, soft: true }) : undefined;
      if (branches.length === 1) {
        const [test, body] = branches[0];
        return else_ === undefined ? (s, o) => (truthy(test(s)) ? body(s, o) : NEXT) : (s, o) => (truthy(test(s)) ? body(s, o) : else_(s, o));
      }
      return (s, o) => {
        for (const [test, body] of branches) if (truthy(test(s))) return body(s, o);
        return else_ ? else_(s, o) : NEXT;
      };
    }
    case 'for':
      return compileFor(st, w);
    case 'macro': {
      const make = compileMacro(st.name, st.args, st.defaults, st.body);
      return (s) => {
        s.set(st.name, make(s));
        return NEXT;
      };
    }
    case 'callblock': {
      const make = compileMacro(null, st.args, st.defaults, st.body);
      const call = compileCall(st.call, w, make);
      return (s, o) => {
        o.add(pyStr(call(s)));
        return NEXT;
      };
    }
    case 'filterblock': {
      const body = compileBody(st.body, { loop: false, soft: false });
      const apply = compileFilter(st.filter, w, (s) => {
        const inner = new Out();
        body(new Scope(s, s.state), inner);
        return inner.s;
      });
      return (s, o) => {
        o.add(pyStr(apply(s)));
        return NEXT;
      };
    }
    case 'assign': {
      const value = compileExpr(st.expr, w);
      const assign = compileAssign(st.target);
      return (s) => {
        assign(s, value(s));
        return NEXT;
      };
    }
    case 'assignblock': {
      const body = compileBody(st.body, { loop: false, soft: false });
      const render: Ev = (s) => {
        const inner = new Out();
        body(new Scope(s, s.state), inner);
        return inner.s;
      };
      const value = st.filter ? compileFilter(st.filter, w, render) : render;
      const assign = compileAssign(st.target);
      return (s) => {
        assign(s, value(s));
        return NEXT;
      };
    }
    case 'with': {
      const values = st.values.map((v) => compileExpr(v, w));
      const targets = st.targets.map(compileAssign);
      const body = compileBody(st.body, { ...w, soft: false });
      return (s, o) => {
        const inner = new Scope(s, s.state);
        // each value is evaluated in the enclosing scope
        for (let i = 0; i < values.length; i++) targets[i](inner, values[i](s));
        return body(inner, o);
      };
    }
    case 'block': {
      const body = compileBody(st.body, { loop: false, soft: false });
      if (blocks?.has(st.name)) throw new JinjaError('TemplateAssertionError', `block '${st.name}' defined twice`);
      // rendered by name (`self.name()`): with the template's variables
      blocks?.set(st.name, (s, o) => body(new Scope(s, s.state), o));
      return (s, o) => {
        // a block sees the template's variables, not the loop's around it, unless it is scoped
        let root = s;
        while (!st.scoped && root.parent !== undefined) root = root.parent;
        body(new Scope(root, s.state), o);
        return NEXT;
      };
    }
    case 'extends':
    case 'include':
    case 'import':
    case 'fromimport': {
      const template = compileExpr(st.template, w);
      return (s) => {
        template(s);
        // from_string gives a template without a loader: loading another one fails
        throw new JinjaError('TypeError', 'no loader for this environment specified');
      };
    }
    case 'break':
    case 'continue':
      if (!w.loop) throw new JinjaError('SyntaxError', `'${st.kind}' outside loop`);
      return st.kind === 'break' ? () => BREAK : () => CONTINUE;
    case 'generation': {
      // transformers' AssistantTracker: a call block whose caller is called once (its own scope)
      const body = compileBody(st.body, { loop: false, soft: false });
      return (s, o) => {
        body(new Scope(s, s.state), o);
        return NEXT;
      };
    }
    case 'autoescape': {
      const value = compileExpr(st.value, w);
      const body = compileBody(st.body, { ...w, soft: false });
      return (s, o) => {
        if (truthy(value(s))) throw new EngineUnsupported('{% autoescape true %} (HTML escaping of every printed value) is not reproduced by the template engine');
        return body(new Scope(s, s.state), o);
      };
    }
  }
}

/** Jinja2's `self`: the template's blocks by name, each rendered by calling it. */
class TemplateReference extends PyInstance {
  override readonly pyClass = 'TemplateReference';
  constructor(
    private readonly blocks: ReadonlyMap<string, Ex>,
    private readonly root: Scope,
  ) {
    super();
  }
  override get pyModule(): string {
    return 'jinja2.runtime';
  }
  override pyRepr(): string {
    return '<TemplateReference None>';
  }
  override pyGetItem(key: PyObject): PyObject | undefined {
    const body = typeof key === 'string' ? this.blocks.get(key) : undefined;
    if (body === undefined) return undefined;
    return new BlockReference(key as string, () => {
      const o = new Out();
      body(this.root, o);
      return o.s;
    });
  }
}

/** Jinja2's `BlockReference`: calling it renders the block; it has no parent block here. */
class BlockReference extends PyFunction {
  constructor(name: string, render: () => string) {
    super(name, 'BlockReference', () => render());
  }
  override get pyModule(): string {
    return 'jinja2.runtime';
  }
  override pyGetAttr(name: string): PyObject | undefined {
    return name === 'super' ? new Undefined(`there is no parent block called '${this.name}'.`, MISSING, 'super') : undefined;
  }
}

/** Python truthiness, the common cases first. */
function truthy(v: PyObject): boolean {
  if (typeof v === 'boolean') return v;
  return pyTruthy(v);
}

/** `str(v)` as `{{ v }}` prints it. */
function text(v: PyObject): string {
  return typeof v === 'string' ? v : pyStr(v);
}

function compileOutput(nodes: readonly Expr[], w: Where): Ex {
  const parts: (string | Ev)[] = [];
  for (const n of nodes) {
    // Jinja2 prints a constant child at compile time (`as_const`, where a failed slice is Undefined)
    let data: string | undefined;
    if (n.kind === 'data') data = n.data;
    else {
      const c = asConst(n);
      if (c !== IMPOSSIBLE) {
        try {
          data = text(c);
        } catch {
          data = undefined;
        }
      }
    }
    if (data !== undefined) {
      const last = parts[parts.length - 1];
      if (typeof last === 'string') parts[parts.length - 1] = last + data;
      else parts.push(data);
    } else parts.push(compileExpr(n, w));
  }
  if (parts.length === 1) {
    const p = parts[0];
    if (typeof p === 'string') {
      return (_s, o) => {
        o.add(p);
        return NEXT;
      };
    }
    return (s, o) => {
      o.add(text(p(s)));
      return NEXT;
    };
  }
  return (s, o) => {
    // every part is evaluated before any is written (Jinja2 writes one Output node at once)
    let buf = '';
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      buf += typeof p === 'string' ? p : text(p(s));
    }
    o.add(buf);
    return NEXT;
  };
}

/** True when an expression or statement list loads a name (`loop`, `caller`, `varargs`, `kwargs`). */
function loadsName(node: unknown, name: string): boolean {
  if (Array.isArray(node)) return node.some((n) => loadsName(n, name));
  if (node === null || typeof node !== 'object') return false;
  const n = node as { kind?: string; name?: string };
  if (n.kind === 'name' && n.name === name) return true;
  if (n.kind === 'block') return false;
  for (const [k, v] of Object.entries(node)) if (k !== 'kind' && typeof v === 'object' && v !== null && !(v instanceof PyTuple) && loadsName(v, name)) return true;
  return false;
}

/** Compile an assignment target: a name, a tuple of targets (unpacking), or `ns.attr`. */
function compileAssign(target: Expr): (s: Scope, v: PyObject) => void {
  switch (target.kind) {
    case 'name': {
      const name = target.name;
      return (s, v) => s.set(name, v);
    }
    case 'tuple': {
      const parts = target.items.map(compileAssign);
      return (s, v) => {
        const items = unpack(v, parts.length);
        for (let i = 0; i < parts.length; i++) parts[i](s, items[i]);
      };
    }
    case 'nsref': {
      const { name, attr } = target;
      return (s, v) => {
        const ns = s.get(name);
        if (!(ns instanceof Namespace)) throw new JinjaError('TemplateRuntimeError', 'cannot assign attribute on non-namespace object');
        ns.attrs.set(attr, v);
      };
    }
    default:
      throw new JinjaError('TemplateSyntaxError', `can't assign to '${target.kind}'`);
  }
}

function compileFor(st: Extract<Stmt, { kind: 'for' }>, w: Where): Ex {
  const iter = compileExpr(st.iter, w);
  const bind = compileAssign(st.target);
  const simpleName = st.target.kind === 'name' ? st.target.name : undefined;
  const body = compileBody(st.body, { loop: true, soft: false });
  const else_ = st.else_.length ? compileBody(st.else_, { loop: false, soft: false }) : undefined;
  const test = st.test ? compileExpr(st.test, { loop: false, soft: false }) : undefined;
  const extended = st.recursive || loadsName(st.body, 'loop');
  if (loadsStoreLoop(st.target)) throw new JinjaError('TemplateAssertionError', "Can't assign to special loop variable in for-loop target");

  const run = (s: Scope, o: Out, iterable: PyObject, depth0: number): Signal => {
    let source: readonly PyObject[] | Iterator<PyObject>;
    if (Array.isArray(iterable)) source = iterable as readonly PyObject[];
    else if (typeof iterable === 'string') source = codePoints(iterable);
    else source = pyIter(iterable)[Symbol.iterator]();
    if (test !== undefined) {
      // the loop filter runs lazily, in a scope of its own that sees the target
      const items = Array.isArray(source) ? (source as readonly PyObject[])[Symbol.iterator]() : (source as Iterator<PyObject>);
      source = (function* () {
        for (let r = items.next(); !r.done; r = items.next()) {
          const ts = new Scope(s, s.state);
          bind(ts, r.value);
          if (truthy(test(ts))) yield r.value;
        }
      })();
    }
    const loop = extended ? new Loop(source, depth0, st.recursive ? (it, d) => {
      const inner = new Out();
      run(s, inner, it, d);
      return inner.s;
    } : undefined) : undefined;
    // `else` runs unless an iteration reaches its end (a `continue` or `break` skips that mark, as in Jinja2's Python)
    let noIteration = true;
    // each iteration is a fresh scope over the enclosing one: a name the body sets is read from
    // outside again at the start of the next iteration, as Jinja2's compiled loop re-binds it
    if (loop === undefined && Array.isArray(source)) {
      const items = source as readonly PyObject[];
      for (let i = 0; i < items.length; i++) {
        const sc = new Scope(s, s.state);
        if (simpleName !== undefined) sc.vars = new Map([[simpleName, items[i]]]);
        else bind(sc, items[i]);
        const r = body(sc, o);
        if (r === CONTINUE) continue;
        if (r === BREAK) break;
        noIteration = false;
      }
    } else if (loop !== undefined) {
      for (let v = loop.next(); v !== MISSING; v = loop.next()) {
        const sc = new Scope(s, s.state);
        bind(sc, v);
        sc.set('loop', loop);
        const r = body(sc, o);
        if (r === CONTINUE) continue;
        if (r === BREAK) break;
        noIteration = false;
      }
    } else {
      const it = source as Iterator<PyObject>;
      for (let r = it.next(); !r.done; r = it.next()) {
        const sc = new Scope(s, s.state);
        bind(sc, r.value);
        const sig = body(sc, o);
        if (sig === CONTINUE) continue;
        if (sig === BREAK) break;
        noIteration = false;
      }
    }
    if (noIteration && else_ !== undefined) else_(new Scope(s, s.state), o);
    return NEXT;
  };
  return (s, o) => run(s, o, iter(s), 0);
}

/** True when a for-loop target stores to `loop`. */
function loadsStoreLoop(target: Expr): boolean {
  if (target.kind === 'name') return target.name === 'loop';
  if (target.kind === 'tuple') return target.items.some(loadsStoreLoop);
  return false;
}

/** Compile a macro (or a call block's caller): a function of the defining scope that makes the Macro. */
function compileMacro(name: string | null, args: readonly string[], defaults: readonly Expr[], bodyStmts: readonly Stmt[]): (s: Scope) => Macro {
  const body = compileBody(bodyStmts, { loop: false, soft: false });
  const defs = defaults.map((d) => compileExpr(d, { loop: false, soft: false }));
  const usesCaller = loadsName(bodyStmts, 'caller');
  const usesKwargs = loadsName(bodyStmts, 'kwargs') && !args.includes('kwargs');
  const usesVarargs = loadsName(bodyStmts, 'varargs') && !args.includes('varargs');
  const explicitCaller = args.indexOf('caller');
  if (usesCaller && explicitCaller >= 0 && explicitCaller < args.length - defaults.length) {
    throw new JinjaError('TemplateAssertionError', 'When defining macros or call blocks the special "caller" argument must be omitted or be given a default.');
  }
  const catchCaller = usesCaller && explicitCaller < 0;
  return (defScope) => {
    const run: MacroBody = (bound, caller, kwargs, varargs) => {
      const state = defScope.state;
      if (++state.depth > MAX_MACRO_DEPTH) {
        state.depth = 0;
        throw MACRO_RECURSION_ERROR;
      }
      try {
        const sc = new Scope(defScope, state);
        for (let i = 0; i < args.length; i++) {
          let v = bound[i];
          if (v === MISSING) {
            const d = i - (args.length - defs.length);
            v = d >= 0 ? defs[d](sc) : new Undefined(`parameter '${args[i]}' was not provided`, MISSING, args[i]);
          }
          sc.set(args[i], v);
        }
        if (catchCaller) sc.set('caller', caller ?? new Undefined('No caller defined', MISSING, 'caller'));
        if (usesKwargs) sc.set('kwargs', kwargs ?? new Map());
        if (usesVarargs) sc.set('varargs', varargs ?? new PyTuple([]));
        const o = new Out();
        body(sc, o);
        return o.s;
      } finally {
        if (state.depth > 0) state.depth--;
      }
    };
    return new Macro(name, args, usesKwargs, usesVarargs, catchCaller, run);
  };
}

// ---------------------------------------------------------------------------------------
// Expressions

/** The node kinds Jinja2's compiler folds (its visitors decorated with `optimizeconst`). */
const FOLDED = new Set(['binop', 'neg', 'pos', 'not', 'and', 'or', 'concat', 'compare', 'getattr', 'getitem', 'filter', 'test', 'condexpr', 'call']);

function compileExpr(e: Expr, w: Where): Ev {
  // Jinja2's optimizer: a constant expression whose value has a safe repr is computed once, at compile time
  if (FOLDED.has(e.kind)) {
    const c = asConst(e);
    if (c !== IMPOSSIBLE && hasSafeRepr(c)) return () => c;
  }
  return compileRuntime(e, w);
}

function compileRuntime(e: Expr, w: Where): Ev {
  switch (e.kind) {
    case 'data': {
      const d = e.data;
      return () => d;
    }
    case 'const': {
      const v = e.value;
      return () => v;
    }
    case 'name': {
      const name = e.name;
      return (s) => s.get(name);
    }
    case 'tuple': {
      const items = e.items.map((x) => compileExpr(x, w));
      return (s) => new PyTuple(items.map((f) => f(s)));
    }
    case 'list': {
      const items = e.items.map((x) => compileExpr(x, w));
      return (s) => items.map((f) => f(s));
    }
    case 'dict': {
      const pairs = e.pairs.map((p) => [compileExpr(p.key, w), compileExpr(p.value, w)] as const);
      return (s) => {
        const m = new Map<PyObject, PyObject>();
        for (const [k, v] of pairs) {
          const key = k(s);
          const value = v(s);
          if (typeof key === 'string') m.set(key, value);
          else setKey(m, key, value);
        }
        return m;
      };
    }
    case 'nsref':
      throw new JinjaError('TemplateSyntaxError', `unexpected '.'`);
    case 'getattr': {
      const obj = compileExpr(e.node, w);
      const attr = e.attr;
      return (s) => getAttr(obj(s), attr);
    }
    case 'getitem': {
      const obj = compileExpr(e.node, w);
      if (e.arg.kind === 'slice') {
        const sl = e.arg;
        const start = sl.start ? compileExpr(sl.start, w) : () => null;
        const stop = sl.stop ? compileExpr(sl.stop, w) : () => null;
        const step = sl.step ? compileExpr(sl.step, w) : () => null;
        return (s) => {
          const o = obj(s);
          return getSlice(o, start(s), stop(s), step(s));
        };
      }
      const arg = compileExpr(e.arg, w);
      return (s) => {
        const o = obj(s);
        return getItem(o, arg(s));
      };
    }
    case 'slice':
      throw new JinjaError('TemplateSyntaxError', 'a slice outside a subscript');
    case 'call':
      return compileCall(e, w);
    case 'filter':
      return compileFilter(e, w);
    case 'test':
      return compileTest(e, w);
    case 'condexpr': {
      const soft = { ...w, soft: true };
      const test = compileExpr(e.test, soft);
      const a = compileExpr(e.expr1, soft);
      const b = e.expr2 ? compileExpr(e.expr2, soft) : undefined;
      const hint = `the inline if-expression on line ${e.lineno} evaluated to false and no else section was defined.`;
      return (s) => (truthy(test(s)) ? a(s) : b ? b(s) : new Undefined(hint));
    }
    case 'and': {
      const a = compileExpr(e.left, w);
      const b = compileExpr(e.right, w);
      return (s) => {
        const x = a(s);
        return truthy(x) ? b(s) : x;
      };
    }
    case 'or': {
      const a = compileExpr(e.left, w);
      const b = compileExpr(e.right, w);
      return (s) => {
        const x = a(s);
        return truthy(x) ? x : b(s);
      };
    }
    case 'not': {
      const a = compileExpr(e.node, w);
      return (s) => !truthy(a(s));
    }
    case 'neg': {
      const a = compileExpr(e.node, w);
      return (s) => pyNeg(a(s));
    }
    case 'pos': {
      const a = compileExpr(e.node, w);
      return (s) => pyPos(a(s));
    }
    case 'binop': {
      const a = compileExpr(e.left, w);
      const b = compileExpr(e.right, w);
      switch (e.op) {
        case 'add':
          return (s) => {
            const x = a(s);
            const y = b(s);
            return typeof x === 'string' && typeof y === 'string' ? x + y : pyAdd(x, y);
          };
        case 'sub':
          return (s) => pySub(a(s), b(s));
        case 'mul':
          return (s) => pyMul(a(s), b(s));
        case 'div':
          return (s) => pyTrueDiv(a(s), b(s));
        case 'floordiv':
          return (s) => pyFloorDiv(a(s), b(s));
        case 'mod':
          return (s) => pyMod(a(s), b(s));
        case 'pow':
          return (s) => pyPow(a(s), b(s));
      }
      break;
    }
    case 'concat': {
      const parts = e.nodes.map((x) => compileExpr(x, w));
      return (s) => {
        let out = '';
        for (const p of parts) out += text(p(s));
        return out;
      };
    }
    case 'compare': {
      const first = compileExpr(e.expr, w);
      const ops = e.ops.map((o) => ({ op: o.op, f: compileExpr(o.expr, w) }));
      if (ops.length === 1) {
        const { op, f } = ops[0];
        return (s) => compare(op, first(s), f(s));
      }
      return (s) => {
        let left = first(s);
        for (const { op, f } of ops) {
          const right = f(s);
          if (!compare(op, left, right)) return false;
          left = right;
        }
        return true;
      };
    }
  }
  throw new Error(`unknown expression ${(e as { kind: string }).kind}`);
}

/** What `as_const` gives when an expression is not constant. */
const IMPOSSIBLE: unique symbol = Symbol('impossible');

/** Jinja2's `has_safe_repr`: the values a folded constant may hold (None, bool, int, float, str, Markup, range, and containers of them). */
function hasSafeRepr(v: PyObject): boolean {
  if (v === null || typeof v === 'boolean' || typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint') return true;
  if (v instanceof PyFloat || v instanceof Markup || v instanceof PyRange || v instanceof JsonNumber) return true;
  if (Array.isArray(v)) return (v as readonly PyObject[]).every(hasSafeRepr);
  if (v instanceof PyTuple) return v.constructor === PyTuple && v.items.every(hasSafeRepr);
  if (v instanceof Map) {
    for (const [k, x] of v as ReadonlyMap<PyObject, PyObject>) if (!hasSafeRepr(k) || !hasSafeRepr(x)) return false;
    return true;
  }
  return false;
}

/** The filters Jinja2 never folds (`pass_context`: map, select, reject, selectattr, rejectattr). */
const CONTEXT_FILTERS = new Set(['map', 'select', 'reject', 'selectattr', 'rejectattr']);

/**
 * Jinja2's `Node.as_const`: the value of a constant expression, computed as the compiler computes
 * it (an item, and a slice, through the sandbox's getitem, so a slice that fails is Undefined), or
 * IMPOSSIBLE (a name, a call, an error, an if-expression without else that is false).
 */
function asConst(e: Expr): PyObject | typeof IMPOSSIBLE {
  const all = (xs: readonly Expr[]): PyObject[] | typeof IMPOSSIBLE => {
    const out: PyObject[] = [];
    for (const x of xs) {
      const v = asConst(x);
      if (v === IMPOSSIBLE) return IMPOSSIBLE;
      out.push(v);
    }
    return out;
  };
  const attempt = (f: () => PyObject): PyObject | typeof IMPOSSIBLE => {
    try {
      return f();
    } catch {
      return IMPOSSIBLE;
    }
  };
  switch (e.kind) {
    case 'const':
      return e.value;
    case 'data':
      return e.data;
    case 'tuple': {
      const items = all(e.items);
      return items === IMPOSSIBLE ? IMPOSSIBLE : new PyTuple(items);
    }
    case 'list':
      return all(e.items);
    case 'dict': {
      const m = new Map<PyObject, PyObject>();
      for (const p of e.pairs) {
        const k = asConst(p.key);
        const v = asConst(p.value);
        if (k === IMPOSSIBLE || v === IMPOSSIBLE) return IMPOSSIBLE;
        if (typeof k === 'string') m.set(k, v);
        else if (attempt(() => (setKey(m, k, v), null)) === IMPOSSIBLE) return IMPOSSIBLE;
      }
      return m;
    }
    case 'binop': {
      const l = asConst(e.left);
      const r = asConst(e.right);
      if (l === IMPOSSIBLE || r === IMPOSSIBLE) return IMPOSSIBLE;
      const f = { add: pyAdd, sub: pySub, mul: pyMul, div: pyTrueDiv, floordiv: pyFloorDiv, mod: pyMod, pow: pyPow }[e.op];
      return attempt(() => f(l, r));
    }
    case 'neg':
    case 'pos':
    case 'not': {
      const v = asConst(e.node);
      if (v === IMPOSSIBLE) return IMPOSSIBLE;
      return attempt(() => (e.kind === 'neg' ? pyNeg(v) : e.kind === 'pos' ? pyPos(v) : !truthy(v)));
    }
    case 'and':
    case 'or': {
      const l = asConst(e.left);
      if (l === IMPOSSIBLE) return IMPOSSIBLE;
      if (e.kind === 'and' ? !truthy(l) : truthy(l)) return l;
      return asConst(e.right);
    }
    case 'concat': {
      const parts = all(e.nodes);
      return parts === IMPOSSIBLE ? IMPOSSIBLE : attempt(() => parts.map(text).join(''));
    }
    case 'compare': {
      let value = asConst(e.expr);
      if (value === IMPOSSIBLE) return IMPOSSIBLE;
      let result: PyObject = value;
      for (const op of e.ops) {
        const next = asConst(op.expr);
        if (next === IMPOSSIBLE) return IMPOSSIBLE;
        const left: PyObject = value;
        const r = attempt(() => compare(op.op, left, next));
        if (r === IMPOSSIBLE) return IMPOSSIBLE;
        result = r;
        if (!r) return false;
        value = next;
      }
      return result;
    }
    case 'condexpr': {
      const t = asConst(e.test);
      if (t === IMPOSSIBLE) return IMPOSSIBLE;
      if (truthy(t)) return asConst(e.expr1);
      return e.expr2 === null ? IMPOSSIBLE : asConst(e.expr2);
    }
    case 'getattr': {
      const o = asConst(e.node);
      return o === IMPOSSIBLE ? IMPOSSIBLE : attempt(() => getAttr(o, e.attr));
    }
    case 'getitem': {
      const o = asConst(e.node);
      if (o === IMPOSSIBLE) return IMPOSSIBLE;
      if (e.arg.kind === 'slice') {
        const parts = [e.arg.start, e.arg.stop, e.arg.step].map((x) => (x === null ? null : asConst(x)));
        if (parts.includes(IMPOSSIBLE)) return IMPOSSIBLE;
        const [a, b, c] = parts as PyObject[];
        // the sandbox's getitem: a slice Python refuses (TypeError) is Undefined
        return attempt(() => {
          try {
            return getSlice(o, a, b, c);
          } catch (err) {
            if (err instanceof JinjaError && err.errorType === 'TypeError') return sliceUndefined(o, a, b, c);
            throw err;
          }
        });
      }
      const k = asConst(e.arg);
      return k === IMPOSSIBLE ? IMPOSSIBLE : attempt(() => getItem(o, k));
    }
    case 'filter':
    case 'test': {
      if (e.node === null) return IMPOSSIBLE;
      if (e.kind === 'filter' ? !FILTERS.has(e.name) || CONTEXT_FILTERS.has(e.name) : !TESTS.has(e.name)) return IMPOSSIBLE;
      const v = asConst(e.node);
      const args = all(e.args);
      if (v === IMPOSSIBLE || args === IMPOSSIBLE) return IMPOSSIBLE;
      const kwargs = new Map<string, PyObject>();
      for (const k of e.kwargs) {
        const x = asConst(k.value);
        if (x === IMPOSSIBLE) return IMPOSSIBLE;
        kwargs.set(k.key, x);
      }
      if (e.dynArgs !== null) {
        const d = asConst(e.dynArgs);
        if (d === IMPOSSIBLE || attempt(() => (pushAll(args, pyIter(d)), null)) === IMPOSSIBLE) return IMPOSSIBLE;
      }
      if (e.dynKwargs !== null) {
        const d = asConst(e.dynKwargs);
        if (!(d instanceof Map)) return IMPOSSIBLE;
        for (const [k, x] of d as ReadonlyMap<PyObject, PyObject>) kwargs.set(pyStr(k), x);
      }
      const kw = kwargs.size ? kwargs : undefined;
      return attempt(() => (e.kind === 'filter' ? (FILTERS.get(e.name) as FilterFn)(v, args, kw) : (TESTS.get(e.name) as TestFn)(v, args, kw)));
    }
    default:
      return IMPOSSIBLE;
  }
}

/** Set a dict literal's key that is not a str (`1`, `1.0` and `True` the same key, the first one kept). */
function setKey(m: Map<PyObject, PyObject>, key: PyObject, value: PyObject): void {
  const h = pyHashKey(key);
  for (const k of m.keys()) {
    if (typeof k !== 'string' && pyHashKey(k) === h) {
      m.set(k, value);
      return;
    }
  }
  m.set(key, value);
}

/** One comparison of a chain. */
function compare(op: string, a: PyObject, b: PyObject): boolean {
  switch (op) {
    case 'eq':
      return pyEquals(a, b);
    case 'ne':
      return !pyEquals(a, b);
    case 'lt':
      return pyCompare('<', a, b);
    case 'lteq':
      return pyCompare('<=', a, b);
    case 'gt':
      return pyCompare('>', a, b);
    case 'gteq':
      return pyCompare('>=', a, b);
    case 'in':
      return pyIn(a, b);
    default:
      return !pyIn(a, b);
  }
}

/** The arguments of a call compiled: positional and keyword values (with `*args` and `**kwargs` spread). */
function compileArgs(c: CallArgs, w: Where): (s: Scope) => { args: PyObject[]; kwargs: Map<string, PyObject> | undefined } {
  const args = c.args.map((a) => compileExpr(a, w));
  const kwargs = c.kwargs.map((k) => [k.key, compileExpr(k.value, w)] as const);
  const dynArgs = c.dynArgs ? compileExpr(c.dynArgs, w) : undefined;
  const dynKwargs = c.dynKwargs ? compileExpr(c.dynKwargs, w) : undefined;
  if (!kwargs.length && !dynArgs && !dynKwargs) {
    if (args.length === 0) return () => ({ args: [], kwargs: undefined });
    return (s) => ({ args: args.map((f) => f(s)), kwargs: undefined });
  }
  return (s) => {
    const a = args.map((f) => f(s));
    let k: Map<string, PyObject> | undefined;
    for (const [key, f] of kwargs) (k ??= new Map()).set(key, f(s));
    if (dynArgs) pushAll(a, pyIter(dynArgs(s)));
    if (dynKwargs) {
      const d = dynKwargs(s);
      if (!(d instanceof Map)) throw new JinjaError('TypeError', `argument after ** must be a mapping, not ${pyStr(d)}`);
      for (const [key, v] of d as ReadonlyMap<PyObject, PyObject>) {
        if (typeof key !== 'string') throw new JinjaError('TypeError', 'keywords must be strings');
        if (k?.has(key)) throw new JinjaError('TypeError', `got multiple values for keyword argument '${key}'`);
        (k ??= new Map()).set(key, v);
      }
    }
    return { args: a, kwargs: k };
  };
}

/** A call: a method of an object called directly where possible, a macro's caller passed to a call block's call. */
function compileCall(c: Extract<Expr, { kind: 'call' }>, w: Where, caller?: (s: Scope) => Macro): Ev {
  const args = compileArgs(c, w);
  const withCaller = (s: Scope, k: Map<string, PyObject> | undefined): Map<string, PyObject> | undefined => {
    if (caller === undefined) return k;
    const m = k ?? new Map();
    m.set('caller', caller(s));
    return m;
  };
  if (c.node.kind === 'getattr') {
    const obj = compileExpr(c.node.node, w);
    const name = c.node.attr;
    return (s) => {
      const o = obj(s);
      if (o instanceof Undefined) o.fail();
      const a = args(s);
      return callAttr(o, name, a.args, withCaller(s, a.kwargs));
    };
  }
  const f = compileExpr(c.node, w);
  return (s) => {
    const fn = f(s);
    const a = args(s);
    return callValue(fn, a.args, withCaller(s, a.kwargs));
  };
}

/** A filter (`value` given for a filter block's body). */
function compileFilter(e: FilterNode, w: Where, value?: Ev): Ev {
  const filter: FilterFn | undefined = FILTERS.get(e.name);
  const inner = value ?? (e.node ? compileExpr(e.node, w) : () => '');
  const args = compileArgs(e, w);
  if (filter === undefined) {
    // outside an if the name must exist when the template compiles; inside one, when it runs
    if (!w.soft) throw new JinjaError('TemplateAssertionError', `No filter named '${e.name}'.`);
    return () => {
      throw new JinjaError('TemplateRuntimeError', `No filter named '${e.name}' found.`);
    };
  }
  return (s) => {
    const v = inner(s);
    const a = args(s);
    return filter(v, a.args, a.kwargs);
  };
}

function compileTest(e: Extract<Expr, { kind: 'test' }>, w: Where): Ev {
  const test: TestFn | undefined = TESTS.get(e.name);
  const value = compileExpr(e.node, w);
  const args = compileArgs(e, w);
  if (test === undefined) {
    if (!w.soft) throw new JinjaError('TemplateAssertionError', `No test named '${e.name}'.`);
    return () => {
      throw new JinjaError('TemplateRuntimeError', `No test named '${e.name}' found.`);
    };
  }
  if (e.name === 'defined' && !e.args.length && !e.kwargs.length && !e.dynArgs && !e.dynKwargs) return (s) => !(value(s) instanceof Undefined);
  return (s) => {
    const v = value(s);
    const a = args(s);
    return test(v, a.args, a.kwargs);
  };
}
