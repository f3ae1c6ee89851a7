/** Validation of the render options the API takes: what the CLI refuses as a usage error, the API refuses the same way. */
import { CompileError, type Diagnostic } from '../diagnostics.js';

/** The options checked here, as any caller may pass them (JavaScript callers included). */
interface CheckedOptions {
  readonly date?: unknown;
  readonly namespace?: unknown;
  readonly completion?: unknown;
  readonly effort?: unknown;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// a Harmony role or author name: no spaces, no control-token spelling
const ROLE = /^[^\s<>|]+$/;
// a namespace is printed as `## NAME` and `namespace NAME {`: an identifier-like word
const NAMESPACE = /^[A-Za-z_$][\w$.-]*$/;

/** True for a real calendar date written `YYYY-MM-DD`. */
export function isIsoDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** Refuse options that would print something no server prints (`<|start|>true`, `Current date: tomorrow`, `## ` with no name); one CompileError listing each. */
export function checkOptions(options: CheckedOptions): void {
  const problems: Diagnostic[] = [];
  const bad = (code: string, message: string) => problems.push({ code, severity: 'error', path: '', message });
  if (options.date !== undefined && (typeof options.date !== 'string' || !isIsoDate(options.date))) bad('usage/date', `date must be a calendar date written YYYY-MM-DD, not ${JSON.stringify(options.date)}`);
  if (options.namespace !== undefined && (typeof options.namespace !== 'string' || !NAMESPACE.test(options.namespace))) bad('usage/namespace', `namespace must be a name (letters, digits, _ $ . -; no spaces), not ${JSON.stringify(options.namespace)}`);
  const c = options.completion;
  if (c !== undefined && c !== true && c !== false && (typeof c !== 'string' || !ROLE.test(c))) bad('usage/completion', `completion is the role that completes the prompt (e.g. "assistant") or true for the assistant, not ${JSON.stringify(c)}`);
  if (options.effort !== undefined && typeof options.effort !== 'string') bad('usage/effort', `effort must be a string (low, medium, high), not ${JSON.stringify(options.effort)}`);
  if (problems.length) throw new CompileError(problems);
}

/** The completion role: `true` means the assistant, `false` none. */
export function completionRole(c: string | boolean | undefined): string | undefined {
  return c === true ? 'assistant' : c === false ? undefined : c;
}
