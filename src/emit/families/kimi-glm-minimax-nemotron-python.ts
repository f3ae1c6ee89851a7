/**
 * What the Kimi K2, GLM-4.6/4.7, MiniMax-M2 and Nemotron Nano v2 emulations share besides the
 * json.dumps of src/emit/xml/python.ts: Python's `str.strip(chars)` family, the message list
 * transformers hands the template, and the failures (a template's own error, a prompt that cannot
 * be written as UTF-8) as the CompileError every family throws.
 */
import { CompileError } from '../../diagnostics.js';
import { escapePointerToken, isJsonArray, isJsonObject, type JsonValue } from '../../ir/json.js';
import { toolFieldPointer, type ToolDefinition } from '../../input/types.js';
import { firstLoneSurrogate, surrogateError, type JinjaError } from '../chat-template/python.js';
import type { FamilyMessage, FamilyPromptOptions } from './types.js';

/** Python's `str.lstrip(chars)`: drop leading characters that are in `chars`. */
export function pyLstripChars(s: string, chars: string): string {
  let a = 0;
  while (a < s.length && chars.includes(s[a])) a++;
  return s.slice(a);
}

/** Python's `str.rstrip(chars)`: drop trailing characters that are in `chars`. */
export function pyRstripChars(s: string, chars: string): string {
  let b = s.length;
  while (b > 0 && chars.includes(s[b - 1])) b--;
  return s.slice(0, b);
}

/** Python's `str.strip(chars)`. */
export function pyStripChars(s: string, chars: string): string {
  return pyRstripChars(pyLstripChars(s, chars), chars);
}

/** Python's `s.split(sep)[-1]` (for a non-empty `sep`). */
export function pyLastPart(s: string, sep: string): string {
  const i = s.lastIndexOf(sep);
  return i < 0 ? s : s.slice(i + sep.length);
}

/** Python's `s.split(sep)[0]` (for a non-empty `sep`). */
export function pyFirstPart(s: string, sep: string): string {
  const i = s.indexOf(sep);
  return i < 0 ? s : s.slice(0, i);
}

/** The messages the template is given: a system message with the instructions when they are a non-empty string, then the conversation (default: one user message `hi`). */
export function familyMessages(options: FamilyPromptOptions): FamilyMessage[] {
  const out: FamilyMessage[] = [];
  if (typeof options.instructions === 'string' && options.instructions !== '') out.push({ role: 'system', content: options.instructions });
  out.push(...(options.messages ?? [{ role: 'user', content: 'hi' }]));
  return out;
}

/** Throw the `family/template-fails` CompileError: `<what>` in plain words, then the template's own error. */
export function failFamily(tool: ToolDefinition | undefined, path: string, what: string, error: JinjaError): never {
  throw new CompileError([
    {
      code: 'family/template-fails',
      severity: 'error',
      ...(tool ? { tool: tool.name } : {}),
      path,
      message: `${what} (Jinja2: ${error.text})`,
    },
  ]);
}

/** The pointer of the first string (or key) with a lone surrogate in a JSON value, if any. */
function surrogatePointer(v: JsonValue | undefined, pointer: string): string | undefined {
  if (typeof v === 'string') return firstLoneSurrogate(v) ? pointer : undefined;
  if (isJsonArray(v)) {
    for (let k = 0; k < v.length; k++) {
      const p = surrogatePointer(v[k], `${pointer}/${k}`);
      if (p !== undefined) return p;
    }
  } else if (isJsonObject(v)) {
    for (const [k, x] of v) {
      const at = `${pointer}/${escapePointerToken(k)}`;
      const p = firstLoneSurrogate(k) ? at : surrogatePointer(x, at);
      if (p !== undefined) return p;
    }
  }
  return undefined;
}

/**
 * transformers hands the rendered prompt on as UTF-8 (render.py encodes it): a lone surrogate (only
 * possible in strings given as JavaScript values) fails there with Python's UnicodeEncodeError.
 * Throws that failure, naming the first tool whose definition holds one.
 */
export function assertEncodable(text: string, tools: readonly ToolDefinition[], templateName: string): void {
  const s = firstLoneSurrogate(text);
  if (!s) return;
  const error = surrogateError(s.codePoint, s.position);
  const reason = `the prompt holds a lone surrogate (U+${s.codePoint.toString(16).toUpperCase()}), which cannot be written as UTF-8`;
  for (const t of tools) {
    const at =
      surrogatePointer(t.name, toolFieldPointer(t, 'name')) ??
      surrogatePointer(t.description, toolFieldPointer(t, 'description')) ??
      surrogatePointer(t.parameters, t.parametersPointer) ??
      [...(t.extra ?? [])].map(([k, v]) => surrogatePointer(v, toolFieldPointer(t, escapePointerToken(k)))).find((p) => p !== undefined);
    if (at !== undefined) failFamily(t, at, `the ${templateName} template's prompt cannot be encoded: ${reason}`, error);
  }
  failFamily(undefined, '', `the ${templateName} template's prompt cannot be encoded: ${reason} (in the instructions or messages)`, error);
}
