/**
 * The few Python/Jinja2 behaviours the Command R7B, Command R+ and Seed-OSS emulations need
 * beyond the shared layer (src/emit/xml/python.ts, src/emit/chat-template/python.ts): how a
 * template failure becomes a `family/template-fails` CompileError, Python's RecursionError text,
 * `{{ x }}` / `|trim` of a possibly-undefined value, `x in y` with Jinja's Undefined, and the
 * UnicodeEncodeError transformers' caller hits when the prompt holds a lone surrogate.
 */
import { CompileError, type Diagnostic } from '../../diagnostics.js';
import { escapePointerToken, isJsonArray, isJsonObject, type JsonValue } from '../../ir/json.js';
import { toolFieldPointer, type ToolDefinition } from '../../input/types.js';
import { JinjaError, firstLoneSurrogate, pyContains, surrogateError } from '../chat-template/python.js';
import { pythonStr, pythonStrip } from '../xml/python.js';
import type { FamilyMessage, FamilyPromptOptions } from './types.js';

/**
 * Python's RecursionError for a macro that calls itself without end. The oracle (Python 3.11)
 * says `… while calling a Python object`; the same Python may stop one frame elsewhere and say
 * only `maximum recursion depth exceeded`, which this text contains.
 */
export const RECURSION_ERROR = new JinjaError('RecursionError', 'maximum recursion depth exceeded while calling a Python object');

/** The diagnostic for a place where a family's template raises: `reason (Jinja2: Type: text)`. */
export function familyFailure(tool: ToolDefinition | undefined, path: string, reason: string, error?: JinjaError): Diagnostic {
  return {
    code: 'family/template-fails',
    severity: 'error',
    ...(tool ? { tool: tool.name } : {}),
    path,
    message: error ? `${reason} (Jinja2: ${error.text})` : reason,
  };
}

/** Throw the CompileError for a place where a family's template raises. */
export function failFamily(tool: ToolDefinition | undefined, path: string, reason: string, error?: JinjaError): never {
  throw new CompileError([familyFailure(tool, path, reason, error)]);
}

/** `{{ x }}` in Jinja2: Undefined prints nothing, anything else `str(x)`. */
export function jinjaPrint(v: JsonValue | undefined): string {
  return v === undefined ? '' : pythonStr(v);
}

/** `x | trim`: `str(x).strip()`, and Undefined is the empty string. */
export function jinjaTrim(v: JsonValue | undefined): string {
  return pythonStrip(jinjaPrint(v));
}

/** `item in container`, where the container may be Jinja's Undefined (iterable and empty: always false). Raises Python's TypeError for a number, bool or None. */
export function jinjaIn(item: string, container: JsonValue | undefined): boolean {
  return container !== undefined && pyContains(container, item);
}

/** The JSON Pointer of the first string (or key) holding a lone surrogate in a value. */
export function surrogatePointer(v: JsonValue | undefined, pointer: string): string | undefined {
  if (typeof v === 'string') return firstLoneSurrogate(v) ? pointer : undefined;
  if (isJsonArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = surrogatePointer(v[i], `${pointer}/${i}`);
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
 * transformers' caller writes the rendered prompt as UTF-8 (render.py encodes it): a lone
 * surrogate fails there with Python's UnicodeEncodeError (position counted in code points of the
 * whole prompt). Throws that failure, naming the first tool whose definition holds one.
 */
export function assertEncodable(text: string, tools: readonly ToolDefinition[], family: string): void {
  const s = firstLoneSurrogate(text);
  if (!s) return;
  const error = surrogateError(s.codePoint, s.position);
  const reason = `the ${family} prompt holds a lone surrogate (U+${s.codePoint.toString(16).toUpperCase()}), which cannot be written as UTF-8`;
  for (const t of tools) {
    const at =
      surrogatePointer(t.name, toolFieldPointer(t, 'name')) ??
      surrogatePointer(t.description, toolFieldPointer(t, 'description')) ??
      surrogatePointer(t.parameters, t.parametersPointer) ??
      [...(t.extra ?? [])].map(([k, v]) => surrogatePointer(k, toolFieldPointer(t, escapePointerToken(k))) ?? surrogatePointer(v, toolFieldPointer(t, escapePointerToken(k)))).find((p) => p !== undefined);
    if (at !== undefined) throw new CompileError([{ ...familyFailure(t, at, reason), message: `${reason} (Python: ${error.text})` }]);
  }
  throw new CompileError([{ ...familyFailure(undefined, '', reason), message: `${reason} (Python: ${error.text})` }]);
}

/** The `family/unparseable` warning: the family prints a value where a consumer cannot read it back. */
export function unparseable(tool: ToolDefinition, path: string, message: string): Diagnostic {
  return { code: 'family/unparseable', severity: 'warning', tool: tool.name, path, message };
}

/** The messages render.py hands the template: a system message with the instructions only when they are a non-empty string, then the conversation (default: one user message `hi`). */
export function templateMessages(options: FamilyPromptOptions): FamilyMessage[] {
  const rest = options.messages ?? [{ role: 'user', content: 'hi' }];
  return typeof options.instructions === 'string' && options.instructions !== '' ? [{ role: 'system', content: options.instructions }, ...rest] : [...rest];
}
