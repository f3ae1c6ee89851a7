/**
 * What the Llama, Mistral and Granite emulations need beyond the shared Python-semantics layer:
 * the conversation render.py builds, Python's `strftime` for the dates two templates print, the
 * UTF-8 encoding transformers' caller does last, and the error a raising template becomes.
 * (Candidates for the one shared layer: nothing here is specific to these families.)
 */
import { CompileError, type Diagnostic } from '../../diagnostics.js';
import { escapePointerToken, type JsonObject, type JsonValue } from '../../ir/json.js';
import { toolFieldPointer, type ToolDefinition } from '../../input/types.js';
import { firstLoneSurrogate, surrogateError, type JinjaError } from '../chat-template/python.js';
import { templateFunction } from '../xml/qwen.js';
import type { FamilyMessage, FamilyPromptOptions } from './types.js';

/**
 * The messages a template is given, as render.py builds them: a `system` message with the
 * instructions only when they are a non-empty string, then the conversation (default: one user
 * message `hi`).
 */
export function familyMessages(options: FamilyPromptOptions = {}): FamilyMessage[] {
  const base = options.messages ?? [{ role: 'user', content: 'hi' }];
  return typeof options.instructions === 'string' && options.instructions !== '' ? [{ role: 'system', content: options.instructions }, ...base] : [...base];
}

/** One entry of the `tools` list the template receives: `{"type": "function", "function": tool}` (the function with its own extra keys, in order). */
export function wrappedTool(tool: ToolDefinition): JsonObject {
  return new Map<string, JsonValue>([
    ['type', 'function'],
    ['function', templateFunction(tool)],
  ]);
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** A `YYYY-MM-DD` date (default: today, local time, as `datetime.now()`), as year, month (1–12) and day; throws a CompileError on anything else. */
export function familyDate(date: string | undefined): { year: number; month: number; day: number } {
  if (date === undefined) {
    const now = new Date();
    return { year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() };
  }
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const parsed = m ? { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) } : undefined;
  const check = parsed && new Date(Date.UTC(parsed.year, parsed.month - 1, parsed.day));
  if (!parsed || !check || check.getUTCMonth() !== parsed.month - 1 || check.getUTCDate() !== parsed.day) {
    throw new CompileError([{ code: 'family/invalid-date', severity: 'error', path: '', message: `the date ${JSON.stringify(date)} is not a calendar date written YYYY-MM-DD` }]);
  }
  return parsed;
}

/**
 * Python's `date.strftime(format)` in the C locale, for what transformers' `strftime_now` prints:
 * `%d %b %Y` → `05 Aug 2025` (Llama 3.2), `%B %d, %Y` → `August 05, 2025` (Granite 3.3).
 * Supports `%Y %y %m %d %B %b %A %a %j %%`.
 */
export function pythonStrftime(date: { year: number; month: number; day: number }, format: string): string {
  const { year, month, day } = date;
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const utc = new Date(Date.UTC(year, month - 1, day));
  const dayOfYear = Math.round((utc.getTime() - Date.UTC(year, 0, 1)) / 86_400_000) + 1;
  return format.replace(/%(.)/g, (all, c: string) => {
    switch (c) {
      case 'Y':
        return String(year);
      case 'y':
        return pad(year % 100);
      case 'm':
        return pad(month);
      case 'd':
        return pad(day);
      case 'B':
        return MONTHS[month - 1];
      case 'b':
        return MONTHS[month - 1].slice(0, 3);
      case 'A':
        return DAYS[utc.getUTCDay()];
      case 'a':
        return DAYS[utc.getUTCDay()].slice(0, 3);
      case 'j':
        return pad(dayOfYear, 3);
      case '%':
        return '%';
      default:
        throw new RangeError(`strftime directive not supported here: ${all}`);
    }
  });
}

/** The error diagnostic of a place where the family's template raises: the template's own error ends the message. */
export function familyFailure(template: string, tool: ToolDefinition | undefined, path: string, reason: string, error: JinjaError): Diagnostic {
  return {
    code: 'family/template-fails',
    severity: 'error',
    ...(tool ? { tool: tool.name } : {}),
    path,
    message: `the ${template} chat template fails: ${reason} (Jinja2: ${error.text})`,
  };
}

/** Throw the CompileError of a template that raises. */
export function failFamily(template: string, tool: ToolDefinition | undefined, path: string, reason: string, error: JinjaError): never {
  throw new CompileError([familyFailure(template, tool, path, reason, error)]);
}

/** The pointer of the first string (or key) holding a lone surrogate in a JSON value, if any. */
function surrogatePointer(v: JsonValue | undefined, pointer: string): string | undefined {
  if (typeof v === 'string') return firstLoneSurrogate(v) ? pointer : undefined;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = surrogatePointer(v[i], `${pointer}/${i}`);
      if (p !== undefined) return p;
    }
  } else if (v instanceof Map) {
    for (const [k, x] of v as JsonObject) {
      const at = `${pointer}/${escapePointerToken(k)}`;
      const p = firstLoneSurrogate(k) ? at : surrogatePointer(x, at);
      if (p !== undefined) return p;
    }
  }
  return undefined;
}

/**
 * transformers' caller writes the rendered text as UTF-8 (render.py encodes it): a lone surrogate
 * (possible only in strings given as JavaScript values) fails there with Python's
 * UnicodeEncodeError, whose position counts code points of the whole text. Throws that failure,
 * naming the first tool whose definition holds one (else the conversation).
 */
export function assertUtf8(template: string, text: string, tools: readonly ToolDefinition[]): void {
  const s = firstLoneSurrogate(text);
  if (!s) return;
  const error = surrogateError(s.codePoint, s.position);
  const reason = `the rendered text holds a lone surrogate (U+${s.codePoint.toString(16).toUpperCase()}), which cannot be written as UTF-8`;
  for (const t of tools) {
    const at =
      surrogatePointer(t.name, toolFieldPointer(t, 'name')) ??
      surrogatePointer(t.description, toolFieldPointer(t, 'description')) ??
      surrogatePointer(t.parameters, t.parametersPointer) ??
      [...(t.extra ?? [])].map(([k, v]) => (firstLoneSurrogate(k) ? toolFieldPointer(t, escapePointerToken(k)) : surrogatePointer(v, toolFieldPointer(t, escapePointerToken(k))))).find((p) => p !== undefined);
    if (at !== undefined) failFamily(template, t, at, reason, error);
  }
  failFamily(template, undefined, '', `${reason} (in the instructions or messages)`, error);
}
