/**
 * What Python and Jinja2 raise where a template cannot go on, as render.py prints it
 * (`Type: message`): the errors the templates meet (UndefinedError, the TypeErrors of `+`,
 * RecursionError, the UnicodeEncodeError of a lone surrogate), and a template failure: the error
 * with where in the input it happened (a JSON Pointer) and why, in plain words.
 */
import { escapePointerToken, isJsonArray, isJsonObject, isWellFormed, type JsonValue } from '../../ir/json.js';
import type { PyObject } from './objects.js';
import { pyTypeName } from './values.js';

/** A Jinja2 or Python error, as `render.py` prints it: `{type}: {message}`. */
export class JinjaError extends Error {
  constructor(
    /** `TypeError`, `UndefinedError`, `TemplateError`, `UnicodeEncodeError`… */
    readonly errorType: string,
    message: string,
  ) {
    super(message);
    this.name = 'JinjaError';
  }
  /** The error line: `TypeError: can only concatenate str (not "int") to str`. */
  get text(): string {
    return `${this.errorType}: ${this.message}`;
  }
}

/** An error of the engine, not of Jinja2: a construct, filter or value it does not reproduce (`Unsupported: …`). */
export class EngineUnsupported extends JinjaError {
  constructor(message: string) {
    super('Unsupported', message);
    this.name = 'EngineUnsupported';
  }
}

/** The template raised: where (JSON Pointer in the input document), why in plain words, and Jinja2's error. */
export class TemplateFailure extends Error {
  constructor(
    /** JSON Pointer into the input. */
    readonly pointer: string,
    /** What went wrong, in plain words. */
    readonly reason: string,
    /** The error Python raised. */
    readonly error: JinjaError,
  ) {
    super(`${reason} (Jinja2: ${error.text})`);
    this.name = 'TemplateFailure';
  }
}

/** Run `body`; a JinjaError it throws becomes a TemplateFailure at `pointer` with `reason`. */
export function failingAt<T>(pointer: string, reason: string, body: () => T): T {
  try {
    return body();
  } catch (e) {
    if (e instanceof JinjaError) throw new TemplateFailure(pointer, reason, e);
    throw e;
  }
}

/** Throw the TemplateFailure for a place where the template raises `error`. */
export function failAt(pointer: string, reason: string, error: JinjaError): never {
  throw new TemplateFailure(pointer, reason, error);
}

/** A JSON Pointer one level down: where a template failure (or a finding) is. */
export function childPointer(pointer: string, key: string | number): string {
  return `${pointer}/${typeof key === 'number' ? key : escapePointerToken(key)}`;
}

/** Jinja2's `object_type_repr` of a JSON value: `dict object`, `list object`, `None`. */
function objectTypeRepr(v: JsonValue): string {
  return v === null ? 'None' : `${pyTypeName(v)} object`;
}

/** The UndefinedError Jinja2 raises when an attribute that is not there is used. */
export function undefinedAttribute(owner: JsonValue, name: string): JinjaError {
  return new JinjaError('UndefinedError', `'${objectTypeRepr(owner)}' has no attribute '${name}'`);
}

/** The UndefinedError for an index that is not there (`messages[0]` of an empty list). */
export function undefinedElement(owner: JsonValue, index: number): JinjaError {
  return new JinjaError('UndefinedError', `${objectTypeRepr(owner)} has no element ${index}`);
}

/** Python's RecursionError for a macro that calls itself without end, as the oracle (Python 3.11) words it. */
// the same Python may stop one frame elsewhere and say only `maximum recursion depth exceeded`, which this text contains
export const RECURSION_ERROR = new JinjaError('RecursionError', 'maximum recursion depth exceeded while calling a Python object');

/** Python's TypeError for `left + right` where the operands cannot be added (`can only concatenate str (not "int") to str`, `unsupported operand type(s) for +: 'int' and 'str'`). */
export function pyAddError(left: PyObject, right: PyObject): JinjaError {
  const l = pyTypeName(left);
  const r = pyTypeName(right);
  if (l === 'str' || l === 'list' || l === 'tuple') return new JinjaError('TypeError', `can only concatenate ${l} (not "${r}") to ${l}`);
  return new JinjaError('TypeError', `unsupported operand type(s) for +: '${l}' and '${r}'`);
}

/** `"…" + v`: only a str may be added to a str; anything else raises the TypeError Python raises. */
export function pyConcatOperand(v: JsonValue): string {
  if (typeof v === 'string') return v;
  throw pyAddError('', v);
}

/** `left + "…"`: the text when `left` is a str, or the TypeError Python raises for another left operand. */
export function pyAddString(left: JsonValue, right: string): string {
  if (typeof left === 'string') return left + right;
  throw pyAddError(left, right);
}

// with the u flag a surrogate pair is one code point, so only a lone surrogate is `Cs`
/** The first lone surrogate in a string: its code point and its position in code points (as Python counts). */
export function firstLoneSurrogate(s: string): { codePoint: number; position: number } | undefined {
  // a native check first: walking a large prompt by code point is slower, and almost no text holds one
  if (isWellFormed(s)) return undefined;
  let position = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (cp >= 0xd800 && cp <= 0xdfff) return { codePoint: cp, position };
    position++;
  }
  return undefined;
}

/** The error Python gives when text with a lone surrogate is encoded as UTF-8. */
export function surrogateError(codePoint: number, position: number): JinjaError {
  return new JinjaError('UnicodeEncodeError', `'utf-8' codec can't encode character '\\u${codePoint.toString(16)}' in position ${position}: surrogates not allowed`);
}

/** The JSON Pointer of the first string (or key) holding a lone surrogate in a value, if any. */
export function surrogatePointer(v: JsonValue | undefined, pointer: string): string | undefined {
  if (typeof v === 'string') return firstLoneSurrogate(v) ? pointer : undefined;
  if (isJsonArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = surrogatePointer(v[i], childPointer(pointer, i));
      if (p !== undefined) return p;
    }
  } else if (isJsonObject(v)) {
    for (const [k, x] of v) {
      const at = childPointer(pointer, k);
      const p = firstLoneSurrogate(k) ? at : surrogatePointer(x, at);
      if (p !== undefined) return p;
    }
  }
  return undefined;
}
