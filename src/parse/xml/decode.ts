/**
 * Default-mode value decoding: a parameter's text read by its JSON Schema, correctly and
 * saying so whenever it is not the plain reading. Strings stay exactly as written; `null`,
 * booleans, numbers, arrays and objects must be spelled as JSON (Python's `None`/`True`/`False`
 * and Python literals for Qwen3-Coder, whose template prints values with `str()`, are read
 * with a note); numbers keep the text they were written with. A value that fits none of the
 * schema's types stays the string it was, with an error (`null`/`None` where the schema admits
 * no null is read as null, with an error).
 */
import type { Severity } from '../../diagnostics.js';
import { formatPythonFloat, isJsonArray, isJsonObject, jsonEquals, JsonNumber, JsonSyntaxError, parseJson, quoteJsonString, type JsonObject, type JsonValue } from '../../ir/json.js';
import { localRefPointer, resolvePointer } from '../../lower/refs.js';
import { pythonLiteralEval } from './literal-eval.js';
import { PyDict, PythonException, type PyValue } from './python-values.js';

/** A finding about one value or call, before it gets its path. */
export interface Note {
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
}

/** The JSON types a schema admits. */
export type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'array' | 'object';

/** What a parameter's schema admits, as far as decoding needs it. */
export interface ValueSchema {
  /** No type constraint could be read: the value stays the text. */
  readonly any: boolean;
  readonly kinds: ReadonlySet<Kind>;
  /** `enum` (or `const`) values. */
  readonly values?: readonly JsonValue[];
  /** A `$ref` that does not resolve inside the tool's parameters. */
  readonly unresolved?: string;
}

const KIND_ALIASES: Record<string, Kind> = {
  string: 'string', str: 'string', text: 'string',
  integer: 'integer', int: 'integer',
  number: 'number', float: 'number', double: 'number',
  boolean: 'boolean', bool: 'boolean',
  null: 'null',
  array: 'array', list: 'array',
  object: 'object', dict: 'object',
};

function kindOfValue(v: JsonValue): Kind {
  if (v === null) return 'null';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'boolean';
  if (v instanceof JsonNumber) return 'number';
  return isJsonArray(v) ? 'array' : 'object';
}

const ANY: ValueSchema = { any: true, kinds: new Set() };

/** Read what a schema admits: `type` (a name or a list, case-insensitive, Python aliases), `nullable`, `enum`/`const`, `anyOf`/`oneOf`/`allOf`, local `$ref`s. */
export function analyzeSchema(schema: JsonValue | undefined, root: JsonValue | undefined, depth = 0): ValueSchema {
  if (!isJsonObject(schema) || depth > 32) return ANY;
  const ref = schema.get('$ref');
  if (typeof ref === 'string') {
    const pointer = localRefPointer(ref);
    const target = pointer !== undefined && root !== undefined ? resolvePointer(root, pointer) : undefined;
    if (target === undefined) return { any: true, kinds: new Set(), unresolved: ref };
    return analyzeSchema(target, root, depth + 1);
  }
  const kinds = new Set<Kind>();
  let typed = false;
  const type = schema.get('type');
  for (const t of typeof type === 'string' ? [type] : isJsonArray(type) ? type : []) {
    const k = typeof t === 'string' ? KIND_ALIASES[t.toLowerCase()] : undefined;
    if (k === undefined) return ANY; // an unknown type name: nothing to decode by
    kinds.add(k);
    typed = true;
  }
  if (schema.get('nullable') === true && typed) kinds.add('null');
  let values: JsonValue[] | undefined;
  const en = schema.get('enum');
  if (isJsonArray(en)) values = [...en];
  if (schema.has('const')) values = [schema.get('const')!];
  if (!typed && values !== undefined) {
    for (const v of values) kinds.add(kindOfValue(v));
    typed = true;
  }
  if (!typed) {
    for (const key of ['anyOf', 'oneOf', 'allOf']) {
      const branches = schema.get(key);
      if (!isJsonArray(branches)) continue;
      for (const b of branches) {
        const a = analyzeSchema(b, root, depth + 1);
        if (a.any) {
          if (key !== 'allOf') return a.unresolved !== undefined ? a : ANY;
          continue;
        }
        for (const k of a.kinds) kinds.add(k);
        typed = true;
      }
    }
  }
  if (!typed) return ANY;
  return values !== undefined ? { any: false, kinds, values } : { any: false, kinds };
}

/** The schema of a tool's parameter (`parameters.properties[name]`), analysed; undefined when the tool does not declare it. */
export function parameterSchema(parameters: JsonValue | undefined, name: string): ValueSchema | undefined {
  const props = isJsonObject(parameters) ? parameters.get('properties') : undefined;
  if (!isJsonObject(props) || !props.has(name)) return undefined;
  return analyzeSchema(props.get(name), parameters);
}

/** The names a tool declares (`parameters.properties`), or undefined when it declares none. */
export function declaredParameters(parameters: JsonValue | undefined): ReadonlySet<string> | undefined {
  const props = isJsonObject(parameters) ? parameters.get('properties') : undefined;
  return isJsonObject(props) && props.size > 0 ? new Set(props.keys()) : undefined;
}

/** How deep a value may nest in the default reading (deeper: refused, so printing it cannot exhaust the stack). */
export const MAX_VALUE_DEPTH = 1000;

/** True when a JSON value nests deeper than `limit` arrays/objects (checked without recursion). */
export function nestsDeeper(v: JsonValue, limit = MAX_VALUE_DEPTH): boolean {
  const stack: [JsonValue, number][] = [[v, 0]];
  while (stack.length > 0) {
    const [x, d] = stack.pop()!;
    if (isJsonArray(x) || isJsonObject(x)) {
      if (d >= limit) return true;
      for (const y of isJsonArray(x) ? x : x.values()) stack.push([y, d + 1]);
    }
  }
  return false;
}

const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** A Python value (from ast.literal_eval) as JSON, when it is one: no NaN/inf, sets, bytes, complex or non-string keys. */
export function jsonOfPython(v: PyValue): JsonValue | undefined {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  switch (v.t) {
    case 'int':
      return new JsonNumber(v.v.toString(), Number(v.v));
    case 'float':
      return Number.isFinite(v.v) ? new JsonNumber(formatPythonFloat(v.v), v.v) : undefined;
    case 'list':
    case 'tuple': {
      const out: JsonValue[] = [];
      for (const x of v.items) {
        const j = jsonOfPython(x);
        if (j === undefined) return undefined;
        out.push(j);
      }
      return out;
    }
    case 'dict': {
      const m = new Map<string, JsonValue>();
      for (const [k, x] of (v as PyDict).entries()) {
        const j = jsonOfPython(x);
        if (typeof k !== 'string' || j === undefined) return undefined;
        m.set(k, j);
      }
      return m;
    }
    default:
      return undefined;
  }
}

/** A value's text for messages: JSON, cut at 80 characters. */
export function shown(v: JsonValue | string): string {
  const s = typeof v === 'string' ? quoteJsonString(v) : stringifyArguments(v);
  return s.length > 80 ? `${s.slice(0, 77)}…` : s;
}

function kindsText(kinds: ReadonlySet<Kind>): string {
  return [...kinds].join(' | ');
}

/** How values are spelled in the dialect: Qwen3-Coder's template prints scalars with Python's str() (`True`, `None`). */
export type ValueSpelling = 'python-str' | 'json';

function containerOf(text: string, kind: 'array' | 'object', spelling: ValueSpelling, notes: Note[]): JsonValue | undefined {
  const fits = (v: JsonValue | undefined) => v !== undefined && (kind === 'array' ? isJsonArray(v) : isJsonObject(v));
  let parsed: JsonValue | undefined;
  try {
    parsed = parseJson(text);
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
  }
  if (parsed !== undefined && nestsDeeper(parsed)) {
    notes.push({ code: 'parse/type-mismatch', severity: 'error', message: `the ${kind} nests deeper than ${MAX_VALUE_DEPTH} levels: not read` });
    return undefined;
  }
  if (fits(parsed)) return parsed;
  if (typeof parsed === 'string') {
    try {
      const inner = parseJson(parsed);
      if (fits(inner) && !nestsDeeper(inner)) {
        notes.push({ code: 'parse/coerced', severity: 'warning', message: `the ${kind} was written as a JSON string holding JSON (${shown(text)}): decoded once more` });
        return inner;
      }
    } catch (e) {
      if (!(e instanceof JsonSyntaxError)) throw e;
    }
  }
  if (parsed === undefined && spelling === 'python-str') {
    try {
      const j = jsonOfPython(pythonLiteralEval(text));
      if (fits(j)) {
        notes.push({ code: 'parse/coerced', severity: 'warning', message: `the ${kind} is written as a Python literal, not JSON (${shown(text)}): read with Python's literal syntax` });
        return j;
      }
    } catch (e) {
      if (!(e instanceof PythonException)) throw e;
    }
  }
  return undefined;
}

/**
 * Decode one parameter's text by its schema. Order: null (when admitted), then the non-string
 * types (boolean, integer, number, array, object), then string; the first that reads the text
 * wins, and a reading that a string would also have fitted is noted as ambiguous.
 */
export function decodeValue(raw: string, schema: ValueSchema, spelling: ValueSpelling): { value: JsonValue; notes: Note[] } {
  const notes: Note[] = [];
  if (schema.unresolved !== undefined) notes.push({ code: 'parse/unresolved-ref', severity: 'info', message: `the schema's $ref ${quoteJsonString(schema.unresolved)} does not resolve inside the tool's parameters: the value is kept as text` });
  if (schema.any) return { value: raw, notes };
  const kinds = schema.kinds;
  const text = raw.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, '');
  const py = spelling === 'python-str';
  const finish = (value: JsonValue, how?: string): { value: JsonValue; notes: Note[] } => {
    if (text !== raw && typeof value !== 'string') notes.push({ code: 'parse/coerced', severity: 'info', message: `whitespace around ${shown(text)} was dropped to read it as ${kindOfValue(value)}` });
    if (how !== undefined) notes.push({ code: 'parse/coerced', severity: 'info', message: how });
    if (typeof value !== 'string' && kinds.has('string')) notes.push({ code: 'parse/ambiguous-value', severity: 'info', message: `${shown(raw)} is read as ${kindOfValue(value)}, though the schema (${kindsText(kinds)}) would also take it as a string` });
    if (schema.values !== undefined && !schema.values.some((v) => jsonEquals(v, value))) {
      notes.push({ code: 'parse/not-in-enum', severity: 'warning', message: `${shown(value)} is not one of the schema's values (${schema.values.map((v) => shown(v)).join(', ')})` });
    }
    return { value, notes };
  };
  if (kinds.has('null') && (text === 'null' || (py && text === 'None'))) {
    return finish(null, text === 'None' ? "Python's None is read as null" : undefined);
  }
  if (kinds.has('boolean')) {
    if (text === 'true' || text === 'false') return finish(text === 'true');
    if (py && (text === 'True' || text === 'False')) return finish(text === 'True', `Python's ${text} is read as ${text.toLowerCase()}`);
  }
  // a JSON number within double range (beyond it, JSON readers disagree: 1e400 stays text, as in the JSON format's calls)
  if ((kinds.has('integer') || kinds.has('number')) && JSON_NUMBER.test(text) && Number.isFinite(Number(text))) {
    const n = new JsonNumber(text, Number(text));
    if (kinds.has('number') || Number.isInteger(n.value) || /^-?[0-9]+$/.test(text)) return finish(n);
  }
  for (const kind of ['array', 'object'] as const) {
    if (!kinds.has(kind)) continue;
    const v = containerOf(text, kind, spelling, notes);
    if (v !== undefined) return finish(v);
  }
  if (kinds.has('string')) return finish(raw);
  if (text === 'null' || (py && text === 'None')) {
    // the model wrote null where the schema admits none: read as what it says, reported
    notes.push({ code: 'parse/type-mismatch', severity: 'error', message: `${shown(raw)} is read as null, which the schema's type (${kindsText(kinds)}) does not admit` });
    return { value: null, notes };
  }
  notes.push({ code: 'parse/type-mismatch', severity: 'error', message: `${shown(raw)} does not fit the schema's type (${kindsText(kinds)}): kept as the string it is` });
  return { value: raw, notes };
}

/** Check a value a JSON call gave against its schema: its JSON type (an integer: a number without fraction) and enum; nothing is changed. */
export function checkValue(value: JsonValue, schema: ValueSchema): Note[] {
  if (schema.any) return [];
  const kind = kindOfValue(value);
  const fits = schema.kinds.has(kind) || (kind === 'number' && schema.kinds.has('integer') && Number.isInteger((value as JsonNumber).value));
  const notes: Note[] = [];
  if (!fits) notes.push({ code: 'parse/type-mismatch', severity: 'error', message: `${shown(value)} does not fit the schema's type (${kindsText(schema.kinds)}): kept as written` });
  else if (schema.values !== undefined && !schema.values.some((v) => jsonEquals(v, value))) {
    notes.push({ code: 'parse/not-in-enum', severity: 'warning', message: `${shown(value)} is not one of the schema's values (${schema.values.map((v) => shown(v)).join(', ')})` });
  }
  return notes;
}

/** Arguments as JSON text the way vLLM writes them (`json.dumps`, ensure_ascii=False: `, ` and `: `), numbers as written. */
export function stringifyArguments(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return quoteJsonString(v);
  if (v instanceof JsonNumber) return v.text;
  if (isJsonArray(v)) return `[${v.map(stringifyArguments).join(', ')}]`;
  return `{${[...(v as JsonObject)].map(([k, x]) => `${quoteJsonString(k)}: ${stringifyArguments(x)}`).join(', ')}}`;
}
