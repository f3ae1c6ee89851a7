/**
 * The families' own plumbing, beside the Python semantics of src/emit/python/: the message list
 * render.py hands a template, the date option, and the diagnostics every family printer gives
 * (`family/template-fails` with the template's own error, `family/unparseable` warnings, the
 * UnicodeEncodeError of a prompt holding a lone surrogate). Each group of printers was written
 * with its own sentences for its failures; those are kept byte for byte, each under a name.
 */
import { CompileError, type Diagnostic } from '../../diagnostics.js';
import { escapePointerToken } from '../../ir/json.js';
import { toolFieldPointer, type ToolDefinition } from '../../input/types.js';
import { firstLoneSurrogate, surrogateError, surrogatePointer, TemplateFailure, type JinjaError } from '../python/errors.js';
import type { PyDate } from '../python/strings.js';
import type { FamilyMessage, FamilyPrinter, FamilyPromptOptions, FamilyText } from './types.js';

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

/** The `family/unparseable` warning: the family prints a value where a consumer cannot read it back. */
export function unparseable(tool: ToolDefinition, path: string, message: string): Diagnostic {
  return { code: 'family/unparseable', severity: 'warning', tool: tool.name, path, message };
}

/** The pointer of the first string (or key) of a tool's definition that holds a lone surrogate: name, description, parameters, then its other keys. */
function toolSurrogatePointer(t: ToolDefinition): string | undefined {
  const found = surrogatePointer(t.name, toolFieldPointer(t, 'name')) ?? surrogatePointer(t.description, toolFieldPointer(t, 'description')) ?? surrogatePointer(t.parameters, t.parametersPointer);
  if (found !== undefined) return found;
  for (const [k, v] of t.extra ?? []) {
    const at = toolFieldPointer(t, escapePointerToken(k));
    const p = surrogatePointer(k, at) ?? surrogatePointer(v, at);
    if (p !== undefined) return p;
  }
  return undefined;
}

/** How a group of printers words a prompt that cannot be written as UTF-8 (each group's own sentences, kept byte for byte). */
// NAME is the name given to assertUtf8, HELD `holds a lone surrogate (U+D83D), which cannot be written as UTF-8`:
// - `chat-template-fails` (Llama, Mistral, Granite): `the NAME chat template fails: the rendered text HELD (Jinja2: …)`
// - `cannot-be-encoded` (Kimi, GLM, MiniMax, Nemotron): `the NAME template's prompt cannot be encoded: the prompt HELD (Jinja2: …)`
// - `python-error` (Command R7B/R+, Seed-OSS): `the NAME prompt HELD (Python: …)`
// - `template-fails` (Functionary, Gemma): `the NAME template fails on this tool: the prompt HELD (Jinja2: …)`
// the first two add ` (in the instructions or messages)` when no tool holds it; the last drops ` on this tool`
export type Utf8Wording = 'chat-template-fails' | 'cannot-be-encoded' | 'python-error' | 'template-fails';

/** Said (by the first two wordings) where no tool holds the lone surrogate. */
const IN_MESSAGES = ' (in the instructions or messages)';

/** Throw Python's UnicodeEncodeError where the text holds a lone surrogate, naming the first tool that holds one (else the instructions or messages). */
// transformers' caller writes the rendered prompt as UTF-8 (render.py encodes it); a lone surrogate is only possible in
// strings given as JavaScript values, and the error's position counts code points of the whole text
export function assertUtf8(name: string, text: string, tools: readonly ToolDefinition[], wording: Utf8Wording): void {
  const s = firstLoneSurrogate(text);
  if (!s) return;
  const error = surrogateError(s.codePoint, s.position);
  const held = `holds a lone surrogate (U+${s.codePoint.toString(16).toUpperCase()}), which cannot be written as UTF-8`;
  let tool: ToolDefinition | undefined;
  let path = '';
  for (const t of tools) {
    const p = toolSurrogatePointer(t);
    if (p !== undefined) {
      tool = t;
      path = p;
      break;
    }
  }
  const where = tool ? '' : IN_MESSAGES;
  switch (wording) {
    case 'chat-template-fails':
      return failFamily(tool, path, `the ${name} chat template fails: the rendered text ${held}${where}`, error);
    case 'cannot-be-encoded':
      return failFamily(tool, path, `the ${name} template's prompt cannot be encoded: the prompt ${held}${where}`, error);
    case 'python-error':
      return failFamily(tool, path, `the ${name} prompt ${held}`, error, 'Python');
    case 'template-fails':
      throw new CompileError([templateFails(name, tool, new TemplateFailure(path, `the prompt ${held}`, error))]);
  }
}

/** How a family checks that its text can be written as UTF-8: the name its messages give it, their wording, and whether the tools block alone is checked too (the whole prompt always is). */
export interface FamilyUtf8Check {
  readonly label: string;
  readonly wording: Utf8Wording;
  readonly checkCatalog: boolean;
}

/** What makes one family printer: its names and provenance, its tools block, its whole prompt, its warnings and its UTF-8 check. */
export interface FamilyTemplate extends Pick<FamilyPrinter, 'name' | 'aliases' | 'models' | 'template' | 'source'> {
  /** The tools block as it stands inside the prompt (called with at least one tool). */
  toolsBlock(tools: readonly ToolDefinition[]): string;
  /** The whole prompt as the template renders it (throws a CompileError where the template raises). */
  render(tools: readonly ToolDefinition[], options: FamilyPromptOptions): string;
  /** `family/unparseable` warnings about the tools, given with both texts (default: none). */
  findings?(tools: readonly ToolDefinition[]): Diagnostic[];
  /** How its texts are checked for UTF-8. */
  readonly utf8: FamilyUtf8Check;
}

/** A FamilyPrinter from its template: no tools print no tools block; both texts carry the findings, each checked for UTF-8 as the family does. */
export function defineFamily(t: FamilyTemplate): FamilyPrinter {
  const { toolsBlock, render, findings, utf8, ...meta } = t;
  const warnings = (tools: readonly ToolDefinition[]): Diagnostic[] => findings?.(tools) ?? [];
  return {
    ...meta,
    catalog(tools: readonly ToolDefinition[]): FamilyText {
      if (tools.length === 0) return { text: '', diagnostics: [] };
      const text = toolsBlock(tools);
      if (utf8.checkCatalog) assertUtf8(utf8.label, text, tools, utf8.wording);
      return { text, diagnostics: warnings(tools) };
    },
    prompt(tools: readonly ToolDefinition[], options: FamilyPromptOptions = {}): FamilyText {
      const text = render(tools, options);
      assertUtf8(utf8.label, text, tools, utf8.wording);
      return { text, diagnostics: warnings(tools) };
    },
  };
}
