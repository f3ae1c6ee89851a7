/** CLI plumbing shared by the commands: reading input, printing diagnostics, usage errors. */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';

import type { LoadMcpOptions } from '../build/sources.js';
import { brandedErrorClass, CompileError, formatDiagnostic, isCompileError, type Diagnostic } from '../diagnostics.js';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** A usage error: printed with a hint, exit code 2. */
const USAGE_ERROR = brandedErrorClass('UsageError');
const INPUT_TOO_LARGE = brandedErrorClass('InputTooLargeError');

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
    USAGE_ERROR.mark(this);
  }
  static override [Symbol.hasInstance](v: unknown): boolean {
    return USAGE_ERROR.has(v);
  }
}

/**
 * Input past the input limit (`--max-input-bytes`): reading stopped there. Printed as one line,
 * exit 1.
 */
export class InputTooLargeError extends Error {
  constructor(
    /** The file name, or `standard input`. */
    readonly input: string,
    readonly limit: number,
  ) {
    super(`${input} is larger than the input limit of ${formatBytes(limit)}: stopped reading there (--max-input-bytes N reads more)`);
    this.name = 'InputTooLargeError';
    INPUT_TOO_LARGE.mark(this);
  }
  static override [Symbol.hasInstance](v: unknown): boolean {
    return INPUT_TOO_LARGE.has(v);
  }
}

/**
 * The most a command reads from a file or standard input, in bytes, unless `--max-input-bytes`
 * says otherwise: 256 MiB, far above any real tool file, request or completion (the 2,000-tool
 * corpus is about 5 MB), and far below what would exhaust memory.
 */
export const DEFAULT_MAX_INPUT_BYTES = 256 * 1024 * 1024;

/** `268,435,456 bytes (256 MiB)`; `1,000 bytes`. */
function formatBytes(n: number): string {
  const units: [number, string][] = [[1024 ** 3, 'GiB'], [1024 ** 2, 'MiB'], [1024, 'KiB']];
  const unit = units.find(([u]) => n >= u && n % (u / 4) === 0);
  const bytes = `${n.toLocaleString('en-US')} byte${n === 1 ? '' : 's'}`;
  return unit ? `${bytes} (${+(n / unit[0]).toFixed(4)} ${unit[1]})` : bytes;
}

/** What a command writes to (so tests can capture it). */
export interface CliIo {
  readonly stdout: (s: string) => void;
  readonly stderr: (s: string) => void;
  /**
   * Standard input as UTF-8 text. With `maxBytes`, reading stops past that many bytes and the
   * promise rejects with an InputTooLargeError (readInputArg also checks what an IO returns).
   */
  readonly stdin: (maxBytes?: number) => Promise<string>;
  readonly isTTY: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
}

let pipeGuard = false;
/** Set when the reader of stdout went away: what is left to print is dropped, the command still ends with its own status. */
let stdoutClosed = false;

/**
 * Keep going quietly when the reader of stdout or stderr goes away (`… | head -1`), as `cat` does:
 * no stack trace, what is left to print is dropped, and the command's own exit status stands (a
 * failed check still exits 1 through a closed pipe). Any other write error is one line on stderr
 * and exit 74 (EX_IOERR).
 */
export function exitQuietlyOnClosedPipe(): void {
  if (pipeGuard) return;
  pipeGuard = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      // after EPIPE the stream is destroyed: later writes fail with ERR_STREAM_DESTROYED
      if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') {
        if (stream === process.stdout) stdoutClosed = true;
        return;
      }
      if (stream !== process.stderr) process.stderr.write(`harmony-catalog: cannot write the output: ${e.message}\n`);
      process.exit(74);
    });
  }
}

/** The process's own streams (a closed pipe ends the process quietly). */
export function processIo(): CliIo {
  exitQuietlyOnClosedPipe();
  return {
    stdout: (s) => void (stdoutClosed || process.stdout.write(s)),
    stderr: (s) => void (process.stderr.destroyed || process.stderr.write(s)),
    stdin: async (maxBytes = DEFAULT_MAX_INPUT_BYTES) => (await readStreamBounded(process.stdin, maxBytes, 'standard input')).toString('utf8'),
    isTTY: Boolean(process.stdout.isTTY),
    env: process.env,
  };
}

/** The option every command that reads a file or standard input takes (spread into its options table). */
export const INPUT_OPTIONS = {
  'max-input-bytes': { type: 'string' },
} as const;

/** Help line of INPUT_OPTIONS. */
export const INPUT_HELP = `  --max-input-bytes <n> read at most n bytes of input (default: ${DEFAULT_MAX_INPUT_BYTES} = 256 MiB);
                        a larger input is refused (exit 1) without being read further`;

/** `--max-input-bytes N` (a whole number of bytes, at least 1), or the default. */
export function maxInputBytesFrom(values: { 'max-input-bytes'?: string | undefined }): number {
  const v = values['max-input-bytes'];
  if (v === undefined) return DEFAULT_MAX_INPUT_BYTES;
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`--max-input-bytes must be a whole number of bytes (1 or more), not ${JSON.stringify(v)}`);
  return n;
}

/** Size of the pieces a file or stream is read in when its size is not known beforehand. */
const CHUNK = 1 << 20;

/**
 * A stream's bytes, at most `maxBytes`: past them reading stops, the stream is destroyed (a pipe's
 * writer gets EPIPE) and an InputTooLargeError names `name` and the limit. Memory stays within
 * the limit and one chunk, whatever the stream holds (/dev/zero, `yes`).
 */
export async function readStreamBounded(stream: AsyncIterable<unknown> & { destroy?: () => void }, maxBytes: number, name: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const c of stream) {
      const b = typeof c === 'string' ? Buffer.from(c, 'utf8') : (c as Buffer);
      total += b.length;
      if (total > maxBytes) throw new InputTooLargeError(name, maxBytes);
      chunks.push(b);
    }
  } catch (e) {
    // leaving the loop early destroys the stream already; a stream read some other way is destroyed here
    stream.destroy?.();
    throw e;
  }
  return Buffer.concat(chunks, total);
}

/**
 * A file's bytes, at most `maxBytes`: a regular file larger than that is refused before it is
 * read; anything else (a device such as /dev/zero, a FIFO, /dev/stdin) is read in pieces until
 * the limit, then refused. Either way an InputTooLargeError names the file and the limit.
 */
export function readFileBounded(path: string, maxBytes: number, name = path): Buffer {
  const fd = openSync(path, 'r');
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${path}'`), { code: 'EISDIR' });
    if (st.isFile() && st.size > maxBytes) throw new InputTooLargeError(name, maxBytes);
    const chunks: Buffer[] = [];
    let total = 0;
    // a regular file: its size and one byte more (to see it did not grow past the limit); else pieces
    const piece = st.isFile() ? Math.min(st.size, maxBytes) + 1 : CHUNK;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(piece, maxBytes - total + 1));
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      total += n;
      if (total > maxBytes) throw new InputTooLargeError(name, maxBytes);
      chunks.push(n === buf.length ? buf : buf.subarray(0, n));
    }
    return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

/**
 * Read a file argument, or stdin for `-`, as UTF-8 text without its byte order mark, if any, and
 * at most `maxBytes` bytes of it (`--max-input-bytes`; default DEFAULT_MAX_INPUT_BYTES): past
 * them reading stops and an InputTooLargeError (one line, exit 1) names the input and the limit.
 * UTF-16 input is refused with a message that says so (a CompileError, exit 1).
 */
export async function readInputArg(arg: string | undefined, io: CliIo, maxBytes: number = DEFAULT_MAX_INPUT_BYTES): Promise<string> {
  if (arg === undefined) throw new UsageError('missing input: give a file, or - for standard input');
  // the input stage is loaded when a command reads input (main.ts keeps start-up small)
  const { utf16Note } = await import('../input/read.js');
  let text: string;
  if (arg === '-') {
    text = await io.stdin(maxBytes);
    // an IO that does not bound its reading (a test's) is held to the same limit
    if (text.length > maxBytes / 3 && Buffer.byteLength(text, 'utf8') > maxBytes) throw new InputTooLargeError('standard input', maxBytes);
  } else {
    let bytes: Buffer;
    try {
      bytes = readFileBounded(arg, maxBytes);
    } catch (e) {
      if (e instanceof InputTooLargeError) throw e;
      const code = (e as NodeJS.ErrnoException).code;
      throw new UsageError(code === 'ENOENT' ? `no such file: ${arg}` : code === 'EISDIR' ? `${arg} is a directory, not a file` : `cannot read ${arg}: ${(e as Error).message}`);
    }
    notUtf16(utf16Note(bytes), arg);
    text = bytes.toString('utf8');
  }
  notUtf16(utf16Note(text), arg === '-' ? 'standard input' : arg);
  return withoutBom(text);
}

function notUtf16(note: string | undefined, name: string): void {
  if (note) throw new CompileError([{ code: 'input/invalid-unicode', severity: 'error', path: '', message: `${name}: the ${name === 'standard input' ? 'input' : 'file'} is ${note}; save it as UTF-8` }]);
}

/** The text without a leading UTF-8 byte order mark (U+FEFF), which is no part of JSON. */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** How many diagnostics of one code are printed on stderr before the rest are summed up in one line (all of them with --verbose). */
export const DIAGNOSTICS_PER_CODE = 20;

/** How diagnostics are printed: `verbose` lists every one (else DIAGNOSTICS_PER_CODE a code, then a count). */
export interface PrintDiagnosticsOptions {
  readonly verbose?: boolean;
  /** Put before each line: `case "a": ` names the --jsonl case a diagnostic belongs to. */
  readonly prefix?: string;
}

const SEVERITY_RANK = { info: 0, warning: 1, error: 2 } as const;
const SEVERITY_PLURAL = { info: 'infos', warning: 'warnings', error: 'errors' } as const;

/**
 * Print diagnostics on stderr, one a line, at most DIAGNOSTICS_PER_CODE of each code unless `verbose`;
 * then, for each code with more, `… and 1,580 more input/duplicate-name warnings; --verbose to list them`.
 */
export function printDiagnostics(diagnostics: readonly Diagnostic[], io: CliIo, minimum: 'info' | 'warning' | 'error' = 'warning', options: PrintDiagnosticsOptions = {}): void {
  const printed = new Map<string, number>();
  const hidden = new Map<string, { count: number; severity: Diagnostic['severity'] | 'mixed' }>();
  for (const d of diagnostics) {
    if (SEVERITY_RANK[d.severity] < SEVERITY_RANK[minimum]) continue;
    const n = printed.get(d.code) ?? 0;
    if (options.verbose || n < DIAGNOSTICS_PER_CODE) {
      printed.set(d.code, n + 1);
      io.stderr(`${options.prefix ?? ''}${formatDiagnostic(d)}\n`);
      continue;
    }
    const h = hidden.get(d.code);
    if (h) hidden.set(d.code, { count: h.count + 1, severity: h.severity === d.severity ? h.severity : 'mixed' });
    else hidden.set(d.code, { count: 1, severity: d.severity });
  }
  for (const [code, { count, severity }] of hidden) {
    const noun = severity === 'mixed' ? (count === 1 ? 'diagnostic' : 'diagnostics') : count === 1 ? severity : SEVERITY_PLURAL[severity];
    io.stderr(`${options.prefix ?? ''}… and ${count.toLocaleString('en-US')} more ${code} ${noun}; --verbose to list them\n`);
  }
}

/** How `guard` prints what a command body throws: diagnostics (see PrintDiagnosticsOptions) and the command's name for the pointer to its help. */
/** How a --jsonl case is named on stderr: `case "a"` by its id, `line 3` when it has none. */
export function caseLabel(id: unknown, k: number): string {
  return id === null || id === undefined ? `line ${k + 1}` : `case ${JSON.stringify(id)}`;
}

/**
 * The one rule of every --jsonl command: each case is written (a result or its `error`), the
 * other cases still run, and when any case failed the command says how many on stderr and exits 1.
 */
export function failedCasesLine(failed: number, lines: readonly string[], why = 'their lines hold "error"'): string {
  return `harmony-catalog: ${failed} of ${lines.filter((l) => l.trim() !== '').length} cases failed (${why})\n`;
}

export interface GuardOptions extends PrintDiagnosticsOptions {
  /** The command (`render`): a usage error ends with `Run 'harmony-catalog render --help' for usage.` */
  readonly command?: string;
}

/** The line that ends every usage error: the command's own help, or the top-level help. */
export function usageHint(command: string | undefined): string {
  return `Run 'harmony-catalog ${command !== undefined ? `${command} ` : ''}--help' for usage.`;
}

/** True for a CompileError that says how the command was asked, not what the input holds: every error it holds is a `usage/…` code. */
export function isUsageCompileError(e: unknown): boolean {
  if (!isCompileError(e)) return false;
  const errors = e.diagnostics.filter((d) => d.severity === 'error');
  return errors.length > 0 && errors.every((d) => d.code.startsWith('usage/'));
}

/**
 * Run a command body, turning CompileErrors into plain messages (exit 1), an input past the input
 * limit into one line (exit 1), and usage errors (UsageError, or a CompileError of `usage/…` codes
 * only: options that do not go together) into exit 2, each ending with a pointer to the command's
 * own help. `display` is read when an error is printed (a command sets `verbose` once it has read
 * its options).
 */
export async function guard(io: CliIo, body: () => Promise<number>, display: GuardOptions = {}): Promise<number> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`harmony-catalog: ${e.message}\n${usageHint(display.command)}\n`);
      return 2;
    }
    if (e instanceof InputTooLargeError) {
      io.stderr(`harmony-catalog: ${e.message}\n`);
      return 1;
    }
    if (isCompileError(e)) {
      if (isUsageCompileError(e)) {
        // printed as a usage error: the words of the API, pointing at the command's help
        for (const d of e.diagnostics) if (d.severity === 'error') io.stderr(`harmony-catalog: ${d.message}${d.path !== '' ? ` (at ${d.path})` : ''}\n`);
        io.stderr(`${usageHint(display.command)}\n`);
        return 2;
      }
      printDiagnostics(e.diagnostics, io, 'info', display);
      const n = e.diagnostics.filter((d) => d.severity === 'error').length;
      io.stderr(`harmony-catalog: ${n} error${n === 1 ? '' : 's'}; nothing rendered\n`);
      return 1;
    }
    throw e;
  }
}

/**
 * Parse a command's arguments strictly (an unknown option is a usage error) with at most one
 * positional input (none when `inputs` is 0); `--help` is left to the command.
 */
export function parseCommandArgs<const O extends OptionsConfig>(argv: readonly string[], options: O, command: string, inputs: 0 | 1 = 1): ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (e) {
    const unknown = (e as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /Unknown option '(-{1,2}[^']*)'/.exec((e as Error).message)?.[1] : undefined;
    const guess = unknown !== undefined ? closestOption(unknown, Object.keys(options)) : undefined;
    throw new UsageError(unknown !== undefined ? `unknown option ${unknown}${guess !== undefined ? ` (did you mean --${guess}?)` : ''}` : (e as Error).message);
  }
  if (inputs === 0 && parsed.positionals.length) throw new UsageError(`${command} takes no input file, got ${parsed.positionals.join(' ')}`);
  if (parsed.positionals.length > 1) throw new UsageError(`${command} takes one input, got ${parsed.positionals.length}: ${parsed.positionals.join(' ')}`);
  return parsed;
}

/** The known option nearest to an unknown one (`--tempalte` → `template`): one edit apart (two for names of 6+ letters), or the one it starts. */
export function closestOption(given: string, known: readonly string[]): string | undefined {
  const name = given.replace(/^-+/, '').split('=')[0] as string;
  let best: string | undefined;
  let bestDistance = name.length >= 6 ? 3 : 2;
  for (const k of known) {
    const d = k.startsWith(name) && name.length >= 3 ? 1 : editDistance(name, k);
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  return best;
}

/** Levenshtein distance, a transposition counted as one edit (`tempalte` → `template`: 1). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min((d[i - 1] as number[])[j]! + 1, (d[i] as number[])[j - 1]! + 1, (d[i - 1] as number[])[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, (d[i - 2] as number[])[j - 2]! + 1);
      (d[i] as number[])[j] = v;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/** The options every command that reads `--mcp` takes besides it (spread into its options table). */
export const MCP_OPTIONS = {
  mcp: { type: 'string' },
  'mcp-timeout': { type: 'string' },
  env: { type: 'string', multiple: true },
} as const;

/** Help lines of MCP_OPTIONS. */
export const MCP_HELP = `  --mcp "<cmd> [args]"  read the tools of a live MCP server (stdio) instead of a file
  --mcp-timeout <ms>    time allowed for the MCP server (default: 10000)
  --env KEY=VALUE       set a variable in the MCP server's environment (repeatable); the server
                        inherits this environment otherwise, all of it`;

/** `--mcp-timeout`, `--env` and the environment as the options of loading an MCP server's tools. */
export function mcpOptionsFrom(values: { mcp?: string | undefined; 'mcp-timeout'?: string | undefined; env?: string[] | undefined }, io: CliIo): LoadMcpOptions {
  const env: Record<string, string> = {};
  for (const pair of values.env ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--env takes KEY=VALUE, not ${JSON.stringify(pair)}`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  if (values.mcp === undefined) {
    if (values.env?.length) throw new UsageError('--env sets the MCP server\'s environment: it goes with --mcp');
    if (values['mcp-timeout'] !== undefined) throw new UsageError('--mcp-timeout goes with --mcp');
  }
  let timeoutMs: number | undefined;
  const t = values['mcp-timeout'];
  if (t !== undefined) {
    timeoutMs = Number(t);
    if (!/^\d+$/.test(t) || !(timeoutMs > 0)) throw new UsageError(`--mcp-timeout must be a positive number of milliseconds, not ${JSON.stringify(t)}`);
  }
  return { ...(timeoutMs !== undefined ? { timeoutMs } : {}), env, inheritEnv: io.env };
}

/**
 * What a command writes for rendered text: exactly its bytes (so `render > prompt.txt` is the
 * prompt, byte for byte, whatever the target); a line break is added when the text does not end
 * with one only with `--newline`, or when stdout is a terminal (so the shell prompt starts on a line of its own).
 */
export function renderedOutput(text: string, newline: boolean | undefined, io: CliIo): string {
  return (newline || io.isTTY) && text !== '' && !text.endsWith('\n') ? `${text}\n` : text;
}
