/**
 * The families' own lint rules: where a family's official template prints a tool so that the model
 * (or a consumer) cannot read it back, a `family/unparseable` warning at the tool's JSON Pointer.
 * Each rule is what the template's text does with a value (pastes it unescaped, between quotes, into
 * a docstring…), said once here and attached to the family in ./families.ts; the prompt itself is the
 * template's, run by the engine.
 */
import type { Diagnostic } from '../diagnostics.js';
import { childPointer } from '../emit/python/errors.js';
import { jinjaItem, jinjaPrint, jinjaTrim, markupEscape } from '../emit/python/jinja.js';
import { pyStr, pyTruthy } from '../emit/python/values.js';
import { collectFindings, qwenFindings } from '../emit/xml/findings.js';
import { templateFunction } from '../emit/xml/template.js';
import { escapePointerToken, isJsonArray, isJsonObject, quoteJsonString, type JsonValue } from '../ir/json.js';
import { toolFieldPointer, type ToolDefinition } from '../input/types.js';

/** A family's lint rule: its warnings about the tools. */
export type FamilyFindings = (tools: readonly ToolDefinition[]) => Diagnostic[];

/** The `family/unparseable` warning: the family prints a value where a consumer cannot read it back. */
function unparseable(tool: ToolDefinition, path: string, message: string): Diagnostic {
  return { code: 'family/unparseable', severity: 'warning', tool: tool.name, path, message };
}

/** The pointer of a property's `description` inside a tool's parameters. */
function propertyDescription(t: ToolDefinition, name: string): string {
  return childPointer(childPointer(childPointer(t.parametersPointer, 'properties'), name), 'description');
}

/**
 * The rule of the templates that paste descriptions into a `"""` docstring of a Python stub: the
 * tool's description as the template prints it, and each property's, holding `"""`.
 */
function docstringRule(family: string, description: (d: JsonValue | undefined) => string, property: (spec: JsonValue) => string): FamilyFindings {
  const why = `${family}'s template pastes the description into a """ docstring and it holds """: the stub is not valid Python`;
  return (tools) => {
    const out: Diagnostic[] = [];
    for (const t of tools) {
      if (description(t.description).includes('"""')) out.push(unparseable(t, toolFieldPointer(t, 'description'), why));
      const properties = jinjaItem(t.parameters, 'properties');
      if (!isJsonObject(properties)) continue;
      for (const [name, spec] of properties) {
        if (property(spec).includes('"""')) out.push(unparseable(t, propertyDescription(t, name), why));
      }
    }
    return out;
  };
}

/** Command R+: the description printed as it is, each property's `description` when it is a string. */
export const commandRPlusFindings: FamilyFindings = docstringRule('Command R+', jinjaPrint, (spec) => {
  const d = jinjaItem(spec, 'description');
  return typeof d === 'string' ? d : '';
});

/** Seed-OSS: the description trimmed, each property's description when it is truthy. */
export const seedOssFindings: FamilyFindings = docstringRule('Seed-OSS', jinjaTrim, (spec) => {
  const d = jinjaItem(spec, 'description');
  return pyTruthy(d) ? pyStr(d!) : '';
});

/** Command R7B: the raw name and description break the JSON list where they need escaping. */
export function commandR7bFindings(tools: readonly ToolDefinition[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const t of tools) {
    for (const [field, text] of [['name', t.name], ['description', jinjaPrint(t.description)]] as const) {
      // the template pastes the text between quotes; JSON needs `"`, `\` and control characters escaped
      if (quoteJsonString(text) !== `"${text}"`) {
        out.push(unparseable(t, toolFieldPointer(t, field), `Command R7B's template pastes the tool's ${field} between quotes without escaping it, and it holds a quote, a backslash or a control character: the tools list is not valid JSON`));
      }
    }
  }
  return out;
}

/** Characters Jinja2's Markup escapes. */
const ESCAPED = /[&<>'"]/;

/** Functionary v3.1: every tool's JSON is HTML-escaped, and so is a name or description holding `& < > ' "`. */
export function functionary31Findings(tools: readonly ToolDefinition[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const tool of tools) {
    const warn = (path: string, message: string) => out.push(unparseable(tool, path, message));
    warn(tool.pointer, 'Functionary v3.1 HTML-escapes the tool\'s JSON (Jinja2 Markup: `"` reads `&#34;`), so the model reads {&#34;name&#34;: …}, which does not parse as JSON');
    for (const field of ['name', 'description'] as const) {
      const v = field === 'name' ? tool.name : tool.description;
      const m = typeof v === 'string' ? ESCAPED.exec(v) : null;
      if (m) warn(toolFieldPointer(tool, field), `the ${field} holds "${m[0]}", which Functionary v3.1 prints HTML-escaped as "${markupEscape(m[0])}"`);
    }
  }
  return out;
}

/** Gemma's string delimiter: strings print between two of them, unescaped. */
const GEMMA_QUOTE = '<|"|>';

/** Every string and key Gemma 4 prints raw. */
function* printedStrings(v: JsonValue | undefined, pointer: string): Generator<{ text: string; pointer: string }> {
  if (typeof v === 'string') yield { text: v, pointer };
  else if (isJsonArray(v)) for (let i = 0; i < v.length; i++) yield* printedStrings(v[i], childPointer(pointer, i));
  else if (isJsonObject(v)) {
    for (const [k, x] of v) {
      const p = childPointer(pointer, k);
      yield { text: k, pointer: p };
      yield* printedStrings(x, p);
    }
  }
}

/** Gemma 4: strings and names holding the `<|"|>` delimiter or the `<tool|>` end marker, which it prints unescaped. */
export function gemma4Findings(tools: readonly ToolDefinition[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const tool of tools) {
    const strings = [{ text: tool.name, pointer: toolFieldPointer(tool, 'name') }, ...printedStrings(tool.description, toolFieldPointer(tool, 'description')), ...printedStrings(tool.parameters, tool.parametersPointer)];
    for (const s of strings) {
      const marker = [GEMMA_QUOTE, '<tool|>'].find((m) => s.text.includes(m));
      if (marker === undefined || seen.has(s.pointer)) continue;
      seen.add(s.pointer);
      out.push(unparseable(tool, s.pointer, `"${marker}" is printed unescaped by Gemma 4, so this text ends its string or declaration early`));
    }
  }
  return out;
}

/** Granite 4.0: the Qwen2.5 tool lines inside its own system text, so the Qwen checks (`</tools>` inside a line, `</tool_call>` in a value). */
export function granite4Findings(tools: readonly ToolDefinition[]): Diagnostic[] {
  return collectFindings(tools, qwenFindings).map((d) => ({ ...d, code: 'family/unparseable' }));
}

/** What a JSON reader trips on in a string pasted unescaped. */
function unescapedHazard(s: string): string | undefined {
  if (quoteJsonString(s) === `"${s}"`) return undefined;
  if (s.includes('"')) return 'a double quote';
  if (s.includes('\\')) return 'a backslash';
  return 'a control character (line break, tab…)';
}

/** Mistral Nemo: keys and string values the template pastes between quotes without JSON escaping (its loop skips a `return` key). */
export function mistralNemoFindings(tools: readonly ToolDefinition[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const tool of tools) {
    for (const [k, v] of templateFunction(tool)) {
      if (k === 'return') continue;
      const pointer = k === 'parameters' ? tool.parametersPointer : toolFieldPointer(tool, escapePointerToken(k));
      const keyHazard = unescapedHazard(k);
      if (keyHazard !== undefined) {
        out.push(unparseable(tool, pointer, `the key ${JSON.stringify(k)} holds ${keyHazard} and Mistral Nemo's template pastes it into the [AVAILABLE_TOOLS] JSON unescaped: the block is not JSON`));
      }
      const valueHazard = typeof v === 'string' ? unescapedHazard(v) : undefined;
      if (valueHazard !== undefined) {
        out.push(unparseable(tool, pointer, `the ${k} holds ${valueHazard} and Mistral Nemo's template pastes string values into the [AVAILABLE_TOOLS] JSON unescaped: the block is not JSON`));
      }
    }
  }
  return out;
}
