/**
 * Lint under a chat template the user gives (flavor `template`): render each tool alone with it, as
 * `render --template` does, and report where the template raises on the tool (`lint/template-error`)
 * and which descriptions never reach what it prints (`lint/dropped-description`). Nothing is
 * assumed about the template: each description is rendered under a marker of its own, and a
 * marker missing from the tool's catalog is a description the model never sees.
 */
import { isCompileError, type Diagnostic } from '../diagnostics.js';
import { CONTROL_TOKEN_CODE } from '../input/control-tokens.js';
import { readTools } from '../api/compile.js';
import { renderCatalog } from '../api/render.js';
import { escapePointerToken, isJsonArray, isJsonObject, type JsonValue } from '../ir/json.js';
import type { ToolDefinition } from '../input/types.js';
import { checkInvisibleCharacters, type Reporter } from './report.js';
import type { LintOptions } from './types.js';

/** Keys whose values are data, not schemas: a `description` inside them is not one the model is meant to read. */
const DATA_KEYS = new Set(['enum', 'const', 'default', 'examples', 'example']);

/** A marker no template prints by itself (letters and digits: no escaping changes it). */
function marker(n: number): string {
  return `hcdescmark${n}q`;
}

/** The value with every non-empty `description` string replaced by a marker; `marks` gets each marker and its pointer in the value. */
function markDescriptions(v: JsonValue, pointer: string, marks: { mark: string; pointer: string }[]): JsonValue {
  if (isJsonArray(v)) return v.map((x, i) => markDescriptions(x, `${pointer}/${i}`, marks));
  if (!isJsonObject(v)) return v;
  const out = new Map<string, JsonValue>();
  for (const [k, x] of v) {
    const p = `${pointer}/${escapePointerToken(k)}`;
    if (k === 'description' && typeof x === 'string' && x.trim() !== '') {
      const mark = marker(marks.length);
      marks.push({ mark, pointer: p });
      out.set(k, mark);
    } else out.set(k, DATA_KEYS.has(k) ? x : markDescriptions(x, p, marks));
  }
  return out;
}

/** A pointer in a tool's standalone value as a pointer into the input (a Gemini declaration and an AI SDK record were wrapped: that step is dropped). */
function inputPointer(def: ToolDefinition, rest: string): string {
  let r = rest;
  if (def.format === 'gemini') r = r.replace(/^\/functionDeclarations\/0(?=\/|$)/, '');
  if (def.format === 'ai-sdk') r = r.replace(/^\/[^/]*(?=\/|$)/, '');
  return `${def.pointer}${r}`;
}

/** The tools section of one tool value under the template (and what rendering it noticed), or the CompileError it raises. */
function catalogOf(value: JsonValue, options: LintOptions): { text: string; diagnostics: readonly Diagnostic[] } {
  return renderCatalog(readTools([value]), { template: options.template!, ...(options.model !== undefined ? { model: options.model } : {}) });
}

/**
 * Lint one tool (its standalone value) under the template of the options. A template that cannot
 * be compiled is no finding of a tool: its CompileError is thrown.
 */
export function lintTemplateTool(value: JsonValue, options: LintOptions, r: Reporter, diagnostics: Diagnostic[]): void {
  const label = options.template?.name ?? 'the chat template';
  checkInvisibleCharacters(r);
  try {
    // the family's control strings in the tool's text, as render --model says them (at the input's pointers)
    for (const d of catalogOf(value, options).diagnostics) {
      if (d.code === CONTROL_TOKEN_CODE) diagnostics.push({ ...d, path: inputPointer(r.def, d.path.replace(/^\/0(?=\/|$)/, '')) });
    }
  } catch (e) {
    if (!isCompileError(e)) throw e;
    const fails = e.diagnostics.filter((d) => d.code === 'template/fails');
    if (!fails.length) throw e;
    for (const d of fails) r.abs('lint/template-error', r.def.pointer, d.message);
    return;
  }
  const marks: { mark: string; pointer: string }[] = [];
  const marked = markDescriptions(value, '', marks);
  if (!marks.length) return;
  let text: string;
  try {
    text = catalogOf(marked, options).text.toLowerCase();
  } catch (e) {
    if (!isCompileError(e)) throw e;
    diagnostics.push({ code: 'lint/template-not-checked', severity: 'info', tool: r.def.name, path: r.def.pointer, message: `${label} raises on this tool with its descriptions replaced by markers: which descriptions it prints is not known` });
    return;
  }
  for (const m of marks) {
    if (!text.includes(m.mark)) r.abs('lint/dropped-description', inputPointer(r.def, m.pointer), `${label} does not print this description: the model never sees it`);
  }
}
