/**
 * The template engine: chat templates run as Python Jinja2 3.1 runs them inside transformers
 * (`ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)`, `loopcontrols`,
 * `{% generation %}`, transformers' `tojson`, `raise_exception`, `strftime_now`), on the lossless
 * JSON values of ir/json.ts. A template text is compiled once (cached) into closures; a render
 * runs them. Where Jinja2 raises, the render throws a JinjaError with Jinja2's exception type and
 * text; where this engine does not reproduce something, it throws an `Unsupported` JinjaError.
 */
import { EngineUnsupported, JinjaError } from '../emit/python/errors.js';
import { Markup, PyTuple, Undefined, type PyObject } from '../emit/python/objects.js';
import { isPyInt, pyIter, pyList, pyNumber } from '../emit/python/operators.js';
import { pyStrftime, type PyDate } from '../emit/python/strings.js';
import { pyStr, pyTypeName } from '../emit/python/values.js';
import type { Expr, Stmt, TemplateAst } from './ast.js';
import { compileAst, MACRO_RECURSION_ERROR } from './compile.js';
import { parseTemplate } from './parser.js';
import { Cycler, Joiner, Namespace, PyFunction, PyRange, RenderState, Scope } from './runtime.js';
import { bindArgs } from './signature.js';

/** The parsed template (ast.ts). */
export type { TemplateAst } from './ast.js';

/** A value handed to a template: a JSON value (ir/json.ts), or any Python object of the engine. */
export type TemplateValue = PyObject;

/** The variables of a render. */
export type TemplateVars = ReadonlyMap<string, TemplateValue> | Readonly<Record<string, TemplateValue>>;

/** Options of a render. */
export interface RenderOptions {
  /** The date `strftime_now` formats (default: today, local time). */
  readonly today?: PyDate;
}

/** A compiled template. */
export interface CompiledTemplate {
  /** The parsed template. */
  readonly ast: TemplateAst;
  /** Render it with these variables (throws a JinjaError where Jinja2 raises). */
  render(vars: TemplateVars, options?: RenderOptions): string;
}

// ---------------------------------------------------------------------------------------
// Globals

/** `range(*args)` as Jinja2's sandbox gives it (`safe_range`: at most 100000 items). */
const RANGE = new PyFunction('safe_range', 'function', (args, kwargs) => {
  if (kwargs && kwargs.size) throw new JinjaError('TypeError', `safe_range() got an unexpected keyword argument '${kwargs.keys().next().value as string}'`);
  if (args.length === 0) throw new JinjaError('TypeError', 'range expected at least 1 argument, got 0');
  if (args.length > 3) throw new JinjaError('TypeError', `range expected at most 3 arguments, got ${args.length}`);
  const ints = args.map((a) => {
    if (a instanceof Undefined) a.fail();
    if (!isPyInt(a) && typeof a !== 'boolean') throw new JinjaError('TypeError', `'${pyTypeName(a)}' object cannot be interpreted as an integer`);
    return Number(pyNumber(a));
  });
  const [start, stop, step] = ints.length === 1 ? [0, ints[0], 1] : [ints[0], ints[1], ints[2] ?? 1];
  if (step === 0) throw new JinjaError('ValueError', 'range() arg 3 must not be zero');
  const r = new PyRange(start, stop, step);
  if (r.pyLen() > 100000) throw new JinjaError('OverflowError', 'Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000).');
  return r;
});

/** Python's `dict(mapping_or_pairs, **kwargs)`. */
const DICT = new PyFunction('dict', 'type', (args, kwargs) => {
  if (args.length > 1) throw new JinjaError('TypeError', `dict expected at most 1 argument, got ${args.length}`);
  const out = new Map<PyObject, PyObject>();
  if (args.length === 1) {
    const src = args[0];
    if (src instanceof Map) for (const [k, v] of src as ReadonlyMap<PyObject, PyObject>) out.set(k, v);
    else {
      let i = 0;
      for (const item of pyIter(src)) {
        const pair = pyList(item);
        if (pair.length !== 2) throw new JinjaError('ValueError', `dictionary update sequence element #${i} has length ${pair.length}; 2 is required`);
        out.set(pair[0], pair[1]);
        i++;
      }
    }
  }
  for (const [k, v] of kwargs ?? []) out.set(k, v);
  return out;
});

/** Jinja2's `namespace(...)`: its attributes from `dict(*args, **kwargs)`. */
const NAMESPACE = new PyFunction('Namespace', 'type', (args, kwargs) => {
  const ns = new Namespace();
  for (const [k, v] of DICT.pyCall(args, kwargs) as Map<PyObject, PyObject>) ns.attrs.set(pyStr(k), v);
  return ns;
});

const CYCLER = new PyFunction('Cycler', 'type', (args) => {
  if (!args.length) throw new JinjaError('RuntimeError', 'at least one item has to be provided');
  return new Cycler(args);
});

const JOINER = new PyFunction('Joiner', 'type', (args, kwargs) => new Joiner(bindArgs({ name: '__init__', params: ['self', ['sep', ', ']] }, [null, ...args], kwargs).values[1]));

const LIPSUM = new PyFunction('generate_lorem_ipsum', 'function', () => {
  throw new EngineUnsupported('lipsum() makes random text, which the template engine does not reproduce');
});

/** transformers' `raise_exception(message)`: TemplateError with the message. */
const RAISE = new PyFunction('raise_exception', 'function', (args, kwargs) => {
  const [message] = bindArgs({ name: 'raise_exception', params: ['message'] }, args, kwargs).values;
  throw new JinjaError('TemplateError', pyStr(message));
});

/** The globals of a render with this date. */
function globalsFor(today: PyDate): Map<string, PyObject> {
  const strftime = new PyFunction('strftime_now', 'function', (args, kwargs) => {
    const [format] = bindArgs({ name: '<lambda>', params: ['fmt'] }, args, kwargs).values;
    if (typeof format !== 'string' && !(format instanceof Markup)) throw new JinjaError('TypeError', `strftime() argument 1 must be str, not ${pyTypeName(format)}`);
    return pyStrftime(today, typeof format === 'string' ? format : format.text);
  });
  return new Map<string, PyObject>([
    ['range', RANGE],
    ['dict', DICT],
    ['lipsum', LIPSUM],
    ['cycler', CYCLER],
    ['joiner', JOINER],
    ['namespace', NAMESPACE],
    ['raise_exception', RAISE],
    ['strftime_now', strftime],
  ]);
}

/** Today's local date. */
function localToday(): PyDate {
  const d = new Date();
  return { year: d.getFullYear(), month: d.getMonth() + 1, day: d.getDate() };
}

const GLOBALS_CACHE = new Map<string, Map<string, PyObject>>();

function cachedGlobals(today: PyDate): Map<string, PyObject> {
  const key = `${today.year}-${today.month}-${today.day}`;
  let g = GLOBALS_CACHE.get(key);
  if (g === undefined) {
    if (GLOBALS_CACHE.size > 16) GLOBALS_CACHE.clear();
    g = globalsFor(today);
    GLOBALS_CACHE.set(key, g);
  }
  return g;
}

// ---------------------------------------------------------------------------------------
// Compile and render

const CACHE = new Map<string, CompiledTemplate>();
const CACHE_SIZE = 64;

/** Compile a template text once (cached by text, the least recently used dropped past 64); TemplateSyntaxError as a JinjaError. */
export function compileTemplate(text: string): CompiledTemplate {
  const hit = CACHE.get(text);
  if (hit !== undefined) {
    CACHE.delete(text);
    CACHE.set(text, hit);
    return hit;
  }
  const ast = parseTemplate(text);
  const run = compileAst(ast);
  const compiled: CompiledTemplate = {
    ast,
    render(vars, options = {}) {
      const map: ReadonlyMap<string, PyObject> = vars instanceof Map ? vars : new Map(Object.entries(vars));
      const state = new RenderState(map, cachedGlobals(options.today ?? localToday()), options.today ?? localToday());
      try {
        return run(new Scope(undefined, state));
      } catch (e) {
        // a JavaScript stack overflow is Python's recursion limit
        if (e instanceof RangeError && /call stack/i.test(e.message)) throw MACRO_RECURSION_ERROR;
        throw e;
      }
    },
  };
  CACHE.set(text, compiled);
  if (CACHE.size > CACHE_SIZE) CACHE.delete(CACHE.keys().next().value as string);
  return compiled;
}

/** Compile (cached) and render a template text. */
export function renderTemplate(text: string, vars: TemplateVars, options?: RenderOptions): string {
  return compileTemplate(text).render(vars, options);
}

// ---------------------------------------------------------------------------------------
// vLLM's content-format detection

/** Every node of a kind in a list of nodes, depth first in field order (Jinja2's `find_all`). */
function findAll<K extends string>(nodes: readonly unknown[], kind: K): Extract<Expr | Stmt, { kind: K }>[] {
  const out: Extract<Expr | Stmt, { kind: K }>[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const n of node) visit(n);
      return;
    }
    if (node === null || typeof node !== 'object' || node instanceof PyTuple) return;
    if ((node as { kind?: string }).kind === kind) out.push(node as Extract<Expr | Stmt, { kind: K }>);
    // the children in field order (an elif is an object holding a test and a body)
    for (const [k, v] of Object.entries(node)) if (k !== 'kind' && k !== 'lineno' && v !== null && typeof v === 'object') visit(v);
  };
  visit(nodes);
  return out;
}

/** vLLM's `_is_var_or_elems_access`: `name`, `name[key]`/`name.key`, through filters, tests and slices. */
function isVarOrElemsAccess(node: Expr, varname: string, key?: string): boolean {
  if (node.kind === 'filter') return node.node !== null && isVarOrElemsAccess(node.node, varname, key);
  if (node.kind === 'test') return isVarOrElemsAccess(node.node, varname, key);
  if (node.kind === 'getitem' && node.arg.kind === 'slice') return isVarOrElemsAccess(node.node, varname, key);
  if (key !== undefined) {
    if (node.kind === 'getitem') return node.node.kind === 'name' && node.node.name === varname && node.arg.kind === 'const' && node.arg.value === key;
    if (node.kind === 'getattr') return node.node.kind === 'name' && node.node.name === varname && node.attr === key;
    return false;
  }
  return node.kind === 'name' && node.name === varname;
}

/** vLLM's assertion that a target is a plain name (a failed one makes it fall back to `string`). */
class NotAName extends Error {}
function targetName(target: Expr): string {
  if (target.kind !== 'name') throw new NotAName();
  return target.name;
}

/**
 * vLLM's chat-template content-format detection (`_detect_content_format`, `--chat-template-content-format
 * auto`): `openai` when the template loops over a message's content (`for x in message['content']` /
 * `message.content`, through filters, tests and slices, where `message` is the target of a loop over
 * `messages` or a variable assigned from it) or over a variable named `content`; else `string` (also
 * when vLLM's walk meets a tuple target and its assertion fails).
 */
export function detectContentFormat(ast: TemplateAst): 'string' | 'openai' {
  try {
    // the names assigned (transitively) from `messages`
    const messagesNames = ['messages'];
    const queue = ['messages'];
    // (vLLM's walk would not end on `a = b` / `b = a`; each name is followed once here)
    const followed = new Set(['messages']);
    const assigns = findAll(ast.body, 'assign');
    while (queue.length) {
      const related = queue.shift() as string;
      for (const a of assigns) {
        if (isVarOrElemsAccess(a.expr, related)) {
          const name = targetName(a.target);
          messagesNames.push(name);
          if (name !== related && !followed.has(name)) {
            followed.add(name);
            queue.push(name);
          }
        }
      }
    }
    const loops = findAll(ast.body, 'for');
    // the targets of loops over those names
    const messageNames: string[] = [];
    for (const loop of loops) {
      for (const v of messagesNames) {
        if (isVarOrElemsAccess(loop.iter, v)) {
          messageNames.push(targetName(loop.target));
          break;
        }
      }
    }
    for (const loop of loops) {
      for (const v of messageNames) {
        if (isVarOrElemsAccess(loop.iter, v, 'content')) {
          targetName(loop.target);
          return 'openai';
        }
      }
      if (loop.iter.kind === 'name' && loop.iter.name === 'content') {
        targetName(loop.target);
        return 'openai';
      }
    }
    return 'string';
  } catch (e) {
    if (e instanceof NotAName) return 'string';
    throw e;
  }
}
