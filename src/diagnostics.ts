/** Diagnostics: problems as data, and the one error type thrown at the boundary. */

/** How bad a diagnostic is. */
export type Severity = 'error' | 'warning' | 'info';

/** One problem, with the tool it belongs to and a JSON Pointer into that tool's input. */
export interface Diagnostic {
  /** A stable code, e.g. `input/not-json`, `schema/unknown-keyword`. */
  readonly code: string;
  readonly severity: Severity;
  /** The tool's name (or `#index` when it has none); absent for problems of the whole input. */
  readonly tool?: string;
  /** JSON Pointer into the input document (RFC 6901), `""` for the whole document. */
  readonly path: string;
  /** What is wrong, in plain words. */
  readonly message: string;
}

/**
 * Marks an error class across copies of this module: the CLI's bundle loads some commands (the MCP
 * source, lint, dump…) from chunks of their own, each with its own copy of the class, and a
 * CompileError thrown in one must still be one where another catches it (else a server that fails
 * to start is an "internal error"). `instanceof` asks the mark, which Symbol.for shares.
 */
export function brandedErrorClass(name: string): { readonly mark: (e: Error) => void; readonly has: (v: unknown) => boolean } {
  const brand = Symbol.for(`harmony-catalog/${name}`);
  return {
    mark: (e) => Object.defineProperty(e, brand, { value: true }),
    has: (v) => typeof v === 'object' && v !== null && (v as Record<symbol, unknown>)[brand] === true,
  };
}

const COMPILE_ERROR = brandedErrorClass('CompileError');

/** Thrown when input cannot be rendered; carries every problem found. */
export class CompileError extends Error {
  readonly diagnostics: readonly Diagnostic[];
  constructor(diagnostics: readonly Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === 'error');
    super(errors.length ? errors.map(formatDiagnostic).join('\n') : 'compile error');
    this.name = 'CompileError';
    this.diagnostics = diagnostics;
    COMPILE_ERROR.mark(this);
  }
  static override [Symbol.hasInstance](v: unknown): boolean {
    return COMPILE_ERROR.has(v);
  }
}

/** True when the value is a CompileError. */
export function isCompileError(e: unknown): e is CompileError {
  return e instanceof CompileError;
}

/** One line for a diagnostic: `error [code] tool "x" at /path: message`. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = [d.tool !== undefined ? `tool ${JSON.stringify(d.tool)}` : '', d.path ? `at ${d.path}` : ''].filter(Boolean).join(' ');
  return `${d.severity} [${d.code}]${where ? ` ${where}` : ''}: ${d.message}`;
}

/** Throw a CompileError when any diagnostic is an error. */
export function throwIfErrors(diagnostics: readonly Diagnostic[]): void {
  if (diagnostics.some((d) => d.severity === 'error')) throw new CompileError(diagnostics);
}

/** Exhaustiveness check for switches over discriminated unions. */
export function assertNever(x: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(x)}`);
}

/**
 * The warning of an input that holds no tools (`[]`, `{"tools": []}`): every command that reads
 * tools says it, rather than print an empty catalog or an empty table in silence.
 */
export function noToolsWarning(source: string, consequence: string): Diagnostic {
  return { code: 'input/no-tools', severity: 'warning', path: '', message: `${source} holds no tools: ${consequence}` };
}
