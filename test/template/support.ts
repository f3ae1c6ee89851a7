/**
 * What the template engine's differential suites share: reading oracle inputs as Python's
 * `json.loads` reads them (lossless parseJson, or the json.loads emulation for the few lines
 * parseJson refuses: `1e400`, lone surrogate escapes), rendering a template as render.py calls
 * it, and comparing a render with an oracle row (`prompt` byte for byte, or the `Type: message`
 * of the error, a lone surrogate being the UnicodeEncodeError of writing the prompt).
 */
import { readFileSync } from 'node:fs';
import { firstLoneSurrogate, JinjaError, surrogateError } from '../../src/emit/python/errors.js';
import { pythonJsonLoads, type PyValue } from '../../src/emit/python/json-loads.js';
import { PyFloat, PyTuple, type PyObject } from '../../src/emit/python/objects.js';
import { normInt } from '../../src/emit/python/operators.js';
import { pyTruthy } from '../../src/emit/python/values.js';
import { getKey, parseJson, type JsonValue } from '../../src/ir/json.js';
import { compileTemplate, type TemplateValue } from '../../src/template/index.js';

/** The pinned date of every oracle. */
export const TODAY = { year: 2025, month: 8, day: 5 } as const;

/** A json.loads value (json-loads.ts) as the engine's Python object. */
function fromPyValue(v: PyValue): PyObject {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  switch (v.t) {
    case 'int':
      return normInt(v.v);
    case 'float':
      return new PyFloat(v.v);
    case 'list':
      return v.items.map(fromPyValue);
    case 'tuple':
      return new PyTuple(v.items.map(fromPyValue));
    case 'dict': {
      const m = new Map<PyObject, PyObject>();
      for (const [k, x] of v.entries()) m.set(fromPyValue(k), fromPyValue(x));
      return m;
    }
    default:
      throw new Error(`json.loads made a ${v.t}`);
  }
}

/** One JSON line as Python's json.loads reads it: parseJson (number text, key order), else json.loads' emulation. */
export function readPythonJson(line: string): TemplateValue {
  try {
    return parseJson(line);
  } catch {
    // 1e400 is float inf for Python, a lone surrogate escape a lone surrogate: parseJson refuses both
    return fromPyValue(pythonJsonLoads(line));
  }
}

/** A JSONL file read line by line as Python reads it. */
export function readPythonJsonl(path: string): TemplateValue[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map(readPythonJson);
}

/** A member of a dict read from JSON. */
export function field(v: TemplateValue, key: string): TemplateValue | undefined {
  return v instanceof Map ? (v as ReadonlyMap<TemplateValue, TemplateValue>).get(key) : getKey(v as JsonValue, key);
}

/** An oracle row: a prompt, or an error line. */
export interface OracleRow {
  readonly id: string;
  readonly prompt?: string;
  readonly error?: string;
}

/** Read an oracle file (plain JSON: prompts and errors are strings). */
export function readRows(path: string): OracleRow[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as OracleRow);
}

/** A render's outcome: the prompt, or the `Type: message` error line (UnicodeEncodeError for a lone surrogate in the prompt). */
export function renderOutcome(text: string, vars: ReadonlyMap<string, TemplateValue>): { prompt?: string; error?: string } {
  try {
    const prompt = compileTemplate(text).render(vars, { today: TODAY });
    const s = firstLoneSurrogate(prompt);
    if (s !== undefined) return { error: surrogateError(s.codePoint, s.position).text };
    return { prompt };
  } catch (e) {
    if (e instanceof JinjaError) return { error: e.text };
    throw e;
  }
}

/** True when an outcome is the oracle row: the same prompt, or the same error line. */
export function sameOutcome(row: OracleRow, got: { prompt?: string; error?: string }): boolean {
  return row.error !== undefined ? got.error === row.error : got.prompt === row.prompt;
}

/** `{"role": "…", "content": "…"}`. */
export function message(role: string, content: string): Map<string, TemplateValue> {
  return new Map<string, TemplateValue>([
    ['role', role],
    ['content', content],
  ]);
}

/** render.py's call for a catalog case: system message (non-empty instructions only), user `hi`, wrapped tools or None, documents None, the generation prompt, the special tokens. */
export function catalogVars(c: TemplateValue, special: Readonly<Record<string, string>>, o: { systemRole?: string; instructionsIfTruthy?: boolean; toolsNoneWhenEmpty?: boolean; documents?: boolean } = {}): Map<string, TemplateValue> {
  const instructions = field(c, 'instructions');
  const messages: TemplateValue[] = [];
  // families/render.py: a non-empty str only; chat-template/render.py: any truthy value
  const wanted = o.instructionsIfTruthy ? instructions !== undefined && pyTruthy(instructions) : typeof instructions === 'string' && instructions !== '';
  if (wanted) messages.push(new Map<string, TemplateValue>([['role', o.systemRole ?? 'system'], ['content', instructions as TemplateValue]]));
  messages.push(message('user', 'hi'));
  const raw = field(c, 'tools');
  const tools = Array.isArray(raw)
    ? (raw as readonly TemplateValue[]).map(
        (t) =>
          new Map<string, TemplateValue>([
            ['type', 'function'],
            ['function', t],
          ]),
      )
    : [];
  const vars = new Map<string, TemplateValue>([['messages', messages]]);
  vars.set('tools', tools.length || o.toolsNoneWhenEmpty === false ? tools : null);
  if (o.documents !== false) vars.set('documents', null);
  vars.set('add_generation_prompt', true);
  for (const [k, v] of Object.entries(special)) vars.set(k, v);
  return vars;
}

/** One line of a differential report: `<template> <set>: N/M exact`, and the known divergences by id with their reasons. */
export function report(template: string, set: string, exact: number, total: number, known: readonly [string, string][]): string {
  let line = `${template} ${set}: ${exact}/${total} exact`;
  if (!known.length) return line;
  // ids grouped by their reason: `a, b (why)`
  const byReason = new Map<string, string[]>();
  for (const [id, why] of known) byReason.set(why, [...(byReason.get(why) ?? []), id]);
  line += `\n  known divergences: ${[...byReason].map(([why, ids]) => `${ids.join(', ')} (${why})`).join('; ')}`;
  return line;
}
