/**
 * The kept printers' plumbing, beside the Python semantics of src/emit/python/: the message list
 * render.py hands a template, the date option, and the `family/template-fails` error a printer
 * throws where the template raises (the caller then runs the engine for the error it says).
 */
import { CompileError, type Diagnostic } from '../../diagnostics.js';
import type { ToolDefinition } from '../../input/types.js';
import { TemplateFailure, type JinjaError } from '../python/errors.js';
import type { PyDate } from '../python/strings.js';
import type { FamilyMessage, FamilyPromptOptions } from './types.js';

/** The messages render.py hands a template: a `system` message with the instructions when they are a non-empty string, then the conversation (default: one user message `hi`). */
export function familyMessages(options: FamilyPromptOptions = {}): FamilyMessage[] {
  const base = options.messages ?? [{ role: 'user', content: 'hi' }];
  return typeof options.instructions === 'string' && options.instructions !== '' ? [{ role: 'system', content: options.instructions }, ...base] : [...base];
}

/** The index of the last message with this role, or -1 (the templates' `ns.last_user_index` loops). */
export function lastIndexOfRole(messages: readonly FamilyMessage[], role: string): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === role) return i;
  return -1;
}

/** The `date` option, `YYYY-MM-DD` (default: today, local time, as `datetime.now()`), as year, month (1–12) and day; throws a CompileError on anything else. */
export function familyDate(date: string | undefined): PyDate {
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

/** The `family/template-fails` diagnostic: the reason in plain words, then the Python error behind it, `(Jinja2: Type: text)` (or `(Python: …)`), if any. */
function familyFailure(tool: ToolDefinition | undefined, path: string, reason: string, error?: JinjaError, raisedBy: 'Jinja2' | 'Python' = 'Jinja2'): Diagnostic {
  return {
    code: 'family/template-fails',
    severity: 'error',
    ...(tool ? { tool: tool.name } : {}),
    path,
    message: error ? `${reason} (${raisedBy}: ${error.text})` : reason,
  };
}

/** Throw the CompileError of {@link familyFailure}. */
export function failFamily(tool: ToolDefinition | undefined, path: string, reason: string, error?: JinjaError, raisedBy?: 'Jinja2' | 'Python'): never {
  throw new CompileError([familyFailure(tool, path, reason, error, raisedBy)]);
}

/** A failure about the messages, worded as the Llama, Mistral and Granite printers word theirs: `the NAME chat template fails: reason (Jinja2: …)`. */
export function failChatTemplate(template: string, reason: string, error: JinjaError): never {
  return failFamily(undefined, '', `the ${template} chat template fails: ${reason}`, error);
}

/** The diagnostic of a TemplateFailure, worded as the Functionary and Gemma printers word theirs: `the NAME template fails[ on this tool]: reason (Jinja2: …)`. */
function templateFails(family: string, tool: ToolDefinition | undefined, f: TemplateFailure): Diagnostic {
  return familyFailure(tool, f.pointer, `the ${family} template fails${tool !== undefined ? ' on this tool' : ''}: ${f.reason}`, f.error);
}

/** Render each tool with `body`; a TemplateFailure becomes a CompileError (`family/template-fails`) naming the tool. */
export function perTool<T>(family: string, tools: readonly ToolDefinition[], body: (tool: ToolDefinition) => T): T[] {
  return tools.map((tool) => {
    try {
      return body(tool);
    } catch (e) {
      if (e instanceof TemplateFailure) throw new CompileError([templateFails(family, tool, e)]);
      throw e;
    }
  });
}

/** Throw the CompileError for a failure that is about no tool (the messages, the options), worded as {@link perTool}'s. */
export function failPrompt(family: string, pointer: string, reason: string, error: JinjaError): never {
  throw new CompileError([templateFails(family, undefined, new TemplateFailure(pointer, reason, error))]);
}
