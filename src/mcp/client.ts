/** List the tools of a live MCP server over stdio (official MCP TypeScript SDK: Client + StdioClientTransport). */
import type { ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, McpError, PaginatedResultSchema } from '@modelcontextprotocol/sdk/types.js';

/** What went wrong talking to an MCP server. */
export type McpClientErrorCode =
  | 'mcp/bad-command' // the command string is empty or cannot be split (unterminated quote)
  | 'mcp/spawn-failed' // the program could not be started (not found, not executable)
  | 'mcp/exited' // the server exited before answering
  | 'mcp/timeout' // the server did not answer in time
  | 'mcp/protocol'; // the server answered, but not with what MCP requires

/** Thrown by `listMcpTools` and `splitCommand`: a code, the command, and what the server left behind. */
export class McpClientError extends Error {
  readonly code: McpClientErrorCode;
  /** The command string as given. */
  readonly command: string;
  /** The server's exit code (`mcp/exited`), or null when it was ended by a signal. */
  readonly exitCode?: number | null;
  /** The signal that ended the server, when one did. */
  readonly signal?: string | null;
  /** The last lines the server wrote to stderr. */
  readonly stderrTail: readonly string[];

  constructor(
    code: McpClientErrorCode,
    command: string,
    message: string,
    details: { exitCode?: number | null; signal?: string | null; stderrTail?: readonly string[]; cause?: unknown } = {},
  ) {
    const tail = details.stderrTail ?? [];
    super(tail.length ? `${message}\nlast lines of its stderr:\n${tail.map((l) => `  ${l}`).join('\n')}` : message, {
      cause: details.cause,
    });
    this.name = 'McpClientError';
    this.code = code;
    this.command = command;
    if ('exitCode' in details) this.exitCode = details.exitCode;
    if ('signal' in details) this.signal = details.signal;
    this.stderrTail = tail;
  }
}

/** True when the value is an McpClientError. */
export function isMcpClientError(e: unknown): e is McpClientError {
  return e instanceof McpClientError;
}

/** Options of `listMcpTools`. */
export interface ListMcpToolsOptions {
  /** Time allowed for the whole exchange (start, initialize, every tools/list page), in ms. Default 10000. */
  readonly timeoutMs?: number;
  /**
   * The server's environment, on top of the SDK's safe default set (HOME, LOGNAME, PATH, SHELL, TERM,
   * USER), which is all it gets without this; `inheritedEnvironment()` is this process's whole environment.
   */
  readonly env?: Record<string, string>;
  /** Working directory of the server. */
  readonly cwd?: string;
}

/** The tools a server listed, in its order, and who it said it is. */
export interface McpToolList {
  /** The `tools` entries of every tools/list page, unchanged (plain objects, as JSON-parsed). */
  readonly tools: unknown[];
  readonly server: { name?: string; version?: string };
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** How long a server may take to exit by itself after its stdin is closed, before SIGTERM. */
const EXIT_GRACE_MS = 500;
/** How long after SIGTERM before SIGKILL. */
const KILL_GRACE_MS = 2_000;
/** How long to wait, once the server has exited, for its stdio pipes to close. */
const CLOSE_GRACE_MS = 500;
const MAX_PAGES = 10_000;
const STDERR_KEEP_CHARS = 16_384;
const STDERR_TAIL_LINES = 12;
const CLIENT_INFO = { name: 'harmony-catalog', version: '0.1.0' };

/**
 * An environment a server may inherit: every variable of `env` (default: this process's) that has a
 * value, except exported shell functions (values starting with `()`), which the SDK skips too.
 */
export function inheritedEnvironment(env: Readonly<Record<string, string | undefined>> = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined && !value.startsWith('()')) out[key] = value;
  return out;
}

/**
 * Split a command line into program and arguments the way a POSIX shell would, without running one:
 * whitespace separates words, '…' is literal, "…" allows \" \\ \$ \` escapes, and a backslash outside
 * quotes escapes the next character. No expansion of variables, globs or `~`.
 */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false; // distinguishes an empty quoted word ("") from no word
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < command.length && '"\\$`\n'.includes(command[i + 1])) {
        i++;
        if (command[i] !== '\n') word += command[i]; // backslash-newline is a line continuation
      } else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\') {
      if (i + 1 >= command.length) throw new McpClientError('mcp/bad-command', command, `cannot split command ${JSON.stringify(command)}: it ends with a lone backslash`);
      i++;
      if (command[i] !== '\n') {
        word += command[i];
        inWord = true;
      }
    } else if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new McpClientError('mcp/bad-command', command, `cannot split command ${JSON.stringify(command)}: unterminated ${quote} quote`);
  if (inWord) words.push(word);
  return words;
}

/**
 * StdioClientTransport that keeps hold of its child process, so we can report exit codes and make sure
 * the child is gone before we return. The SDK (pinned 1.32.2) keeps the child in a private `_process`
 * field, set synchronously inside `start()`, and does not pass the exit code to `onclose`.
 */
class ObservedStdioTransport extends StdioClientTransport {
  child: ChildProcess | undefined;
  onchild: ((child: ChildProcess) => void) | undefined;

  override start(): Promise<void> {
    const started = super.start();
    const child = (this as unknown as { _process?: ChildProcess })._process;
    if (child) {
      this.child = child;
      this.onchild?.(child);
    }
    return started;
  }
}

/** Keeps the last part of the server's stderr. */
class StderrTail {
  private text = '';
  push(chunk: Buffer | string): void {
    this.text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    if (this.text.length > STDERR_KEEP_CHARS * 2) this.text = this.text.slice(-STDERR_KEEP_CHARS);
  }
  lines(): string[] {
    return this.text
      .slice(-STDERR_KEEP_CHARS)
      .split(/\r?\n/)
      .map((l) => l.trimEnd())
      .filter((l) => l !== '')
      .slice(-STDERR_TAIL_LINES)
      .map((l) => (l.length > 300 ? `${l.slice(0, 300)}…` : l));
  }
}

interface ExitInfo {
  readonly code: number | null;
  readonly signal: string | null;
}

/** Watches one child process: its exit, and a way to wait for it with a bound. */
class ChildWatch {
  exit: ExitInfo | undefined;
  spawnError: NodeJS.ErrnoException | undefined;
  private readonly ended: Promise<void>;
  private resolveEnded!: () => void;
  private closed = false;
  private readonly closedPromise: Promise<void>;

  constructor(readonly child: ChildProcess) {
    this.ended = new Promise((resolve) => (this.resolveEnded = resolve));
    // 'close' comes after 'exit', once the child's stdio pipes are closed too
    this.closedPromise = new Promise((resolve) =>
      child.once('close', () => {
        this.closed = true;
        resolve();
      }),
    );
    child.once('exit', (code, signal) => {
      this.exit = { code, signal };
      this.resolveEnded();
    });
    child.once('error', (err: NodeJS.ErrnoException) => {
      // a spawn failure emits 'error' and never 'exit'
      if (child.pid === undefined || String(err.syscall ?? '').startsWith('spawn')) {
        this.spawnError = err;
        this.resolveEnded();
      }
    });
    if (child.exitCode !== null || child.signalCode !== null) {
      this.exit = { code: child.exitCode, signal: child.signalCode };
      this.resolveEnded();
    }
    trackChild(child, this.ended);
  }

  get done(): boolean {
    return this.exit !== undefined || this.spawnError !== undefined;
  }

  /** Resolves true when the child has ended within `ms`. */
  async waitEnded(ms: number): Promise<boolean> {
    if (!this.done) await raceTimeout(this.ended, ms);
    return this.done;
  }

  /** End the child: close its stdin (polite, MCP's stdio shutdown), then SIGTERM, then SIGKILL; then let its pipes close. */
  async stop(polite: boolean): Promise<void> {
    if (!this.done) await this.terminate(polite);
    // a grandchild may hold the pipes open: do not wait for them for long
    if (!this.closed && this.spawnError === undefined) await raceTimeout(this.closedPromise, CLOSE_GRACE_MS);
    // 'close' can fire while libuv is still closing the process handle; its close callback runs in the
    // close phase of this loop turn, so one timer turn later no handle of the child is left
    await new Promise((resolve) => setTimeout(resolve, 0));
  }

  private async terminate(polite: boolean): Promise<void> {
    if (polite) {
      try {
        this.child.stdin?.end();
      } catch {
        // already closed
      }
      if (await this.waitEnded(EXIT_GRACE_MS)) return;
    }
    this.child.kill('SIGTERM');
    if (await this.waitEnded(KILL_GRACE_MS)) return;
    this.child.kill('SIGKILL');
    await this.waitEnded(KILL_GRACE_MS);
  }
}

// ---------------------------------------------------------------------------------------
// Servers of a process that is told to end

/** The servers started here that have not ended yet. */
const liveChildren = new Set<ChildProcess>();
/** The signals that end a CLI (`timeout` sends SIGTERM, Ctrl-C SIGINT, a closed terminal SIGHUP). */
const END_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** Set once this process has been told to end: the exchange with a server is then abandoned silently. */
let processEnding = false;

/** Follow a server until it ends; while any is running, a signal that ends this process stops them first. */
function trackChild(child: ChildProcess, ended: Promise<void>): void {
  liveChildren.add(child);
  if (liveChildren.size === 1 && !processEnding) {
    for (const s of END_SIGNALS) process.on(s, endWithChildren);
    process.on('exit', killLiveChildren);
  }
  void ended.then(() => {
    liveChildren.delete(child);
    if (liveChildren.size === 0) stopWatchingSignals();
  });
}

function stopWatchingSignals(): void {
  for (const s of END_SIGNALS) process.removeListener(s, endWithChildren);
  process.removeListener('exit', killLiveChildren);
}

/** On process exit (process.exit, a closed output pipe): SIGTERM every server still running (a signal is all one can send now). */
function killLiveChildren(): void {
  for (const child of liveChildren) child.kill('SIGTERM');
}

/**
 * This process got SIGINT, SIGTERM or SIGHUP: stop every server (SIGTERM, SIGKILL after the grace time),
 * then end by the same signal, as it would have without us (exit status 128 + signal for the shell).
 */
function endWithChildren(signal: NodeJS.Signals): void {
  processEnding = true;
  stopWatchingSignals();
  const children = [...liveChildren];
  // keep the process alive until the servers are gone, whatever else is pending
  const keepAlive = setInterval(() => undefined, 1_000);
  const gone = (child: ChildProcess) =>
    child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (const child of children) child.kill('SIGTERM');
  void Promise.all(children.map((child) => raceTimeout(gone(child), KILL_GRACE_MS)))
    .then(() => {
      const stubborn = children.filter((c) => c.exitCode === null && c.signalCode === null);
      for (const child of stubborn) child.kill('SIGKILL');
      return Promise.all(stubborn.map((child) => raceTimeout(gone(child), KILL_GRACE_MS)));
    })
    .then(() => {
      clearInterval(keepAlive);
      process.kill(process.pid, signal);
    });
}

/** Wait for `promise`, or `ms`, whichever comes first (the timer never outlives the wait). */
async function raceTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([promise, timeout]);
  clearTimeout(timer);
}

type Stage = 'initialize' | 'tools/list';

/**
 * Start the MCP server `command` (one string, split like a shell would, never run through one), initialize,
 * read every page of tools/list, and stop the server. Throws McpClientError.
 */
export async function listMcpTools(command: string, options: ListMcpToolsOptions = {}): Promise<McpToolList> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs)) throw new RangeError(`timeoutMs must be a positive number of milliseconds, got ${timeoutMs}`);
  const argv = splitCommand(command);
  if (argv.length === 0) throw new McpClientError('mcp/bad-command', command, 'the MCP server command is empty');
  const [program, ...args] = argv;

  const stderr = new StderrTail();
  const transport = new ObservedStdioTransport({
    command: program,
    args,
    stderr: 'pipe',
    ...(options.env ? { env: options.env } : {}),
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
  });
  transport.stderr?.on('data', (chunk: Buffer | string) => stderr.push(chunk));
  let watch: ChildWatch | undefined;
  transport.onchild = (child) => (watch = new ChildWatch(child));

  const client = new Client(CLIENT_INFO, { capabilities: {} });
  let lastTransportError: unknown;
  client.onerror = (err) => (lastTransportError = err); // e.g. a line on stdout that is not JSON-RPC

  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort(new Error(`timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  const requestOptions = { signal: abort.signal, timeout: timeoutMs };

  let stage: Stage = 'initialize';
  let ok = false;
  try {
    await client.connect(transport, requestOptions);
    stage = 'tools/list';
    const tools: unknown[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; ; page++) {
      if (page >= MAX_PAGES) throw new McpClientError('mcp/protocol', command, `MCP server ${JSON.stringify(command)} returned more than ${MAX_PAGES} pages of tools/list`);
      // A loose result schema: each tool is returned as sent (key order kept, no per-tool validation here;
      // the input stage validates tools one by one and reports each problem with its path).
      const result = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, PaginatedResultSchema, requestOptions);
      const pageTools = (result as { tools?: unknown }).tools;
      if (!Array.isArray(pageTools)) {
        throw new McpClientError('mcp/protocol', command, `MCP server ${JSON.stringify(command)} answered tools/list without a "tools" array`);
      }
      for (const tool of pageTools) tools.push(tool);
      cursor = result.nextCursor;
      if (cursor === undefined) break;
      if (seen.has(cursor)) throw new McpClientError('mcp/protocol', command, `MCP server ${JSON.stringify(command)} repeated the tools/list cursor ${JSON.stringify(cursor)}`);
      seen.add(cursor);
    }
    const info = client.getServerVersion();
    ok = true;
    return {
      tools,
      server: {
        ...(typeof info?.name === 'string' ? { name: info.name } : {}),
        ...(typeof info?.version === 'string' ? { version: info.version } : {}),
      },
    };
  } catch (error) {
    // the process is ending by a signal and has stopped the server: nothing to report, and no exit to race
    if (processEnding) await new Promise<never>(() => undefined);
    throw await explain(error);
  } finally {
    clearTimeout(timer);
    // Make sure the child is gone (reaped) before we return, then let the SDK drop its state.
    await watch?.stop(ok);
    await client.close().catch(() => undefined);
  }

  async function explain(error: unknown): Promise<McpClientError> {
    if (error instanceof McpClientError) return error;
    const name = JSON.stringify(command);
    const transportNote = lastTransportError instanceof Error ? ` (last transport error: ${lastTransportError.message})` : '';
    if (timedOut) {
      return new McpClientError('mcp/timeout', command, `MCP server ${name} did not answer ${stage} within ${timeoutMs} ms${transportNote}`, { stderrTail: stderr.lines(), cause: error });
    }
    if (watch?.spawnError || (!watch && isSpawnError(error))) {
      const err = (watch?.spawnError ?? error) as NodeJS.ErrnoException;
      const why = err.code === 'ENOENT' ? `program ${JSON.stringify(program)} not found` : err.code === 'EACCES' ? `program ${JSON.stringify(program)} is not executable` : err.message;
      return new McpClientError('mcp/spawn-failed', command, `MCP server ${name} could not be started: ${why}${err.code ? ` (${err.code})` : ''}`, { cause: error });
    }
    // A closed connection usually means the server died; its 'exit' may lag the closed pipe a little.
    const connectionLost = error instanceof McpError && error.code === ErrorCode.ConnectionClosed;
    if (watch && !watch.done && (connectionLost || isPipeError(error))) await watch.waitEnded(1_000);
    if (watch?.exit) {
      const { code, signal } = watch.exit;
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      return new McpClientError('mcp/exited', command, `MCP server ${name} ${how} before answering ${stage}`, { exitCode: code, signal, stderrTail: stderr.lines(), cause: error });
    }
    const detail = error instanceof Error ? error.message : String(error);
    return new McpClientError('mcp/protocol', command, `MCP server ${name} failed during ${stage}: ${detail}${transportNote}`, { stderrTail: stderr.lines(), cause: error });
  }
}

function isSpawnError(error: unknown): boolean {
  return error instanceof Error && String((error as NodeJS.ErrnoException).syscall ?? '').startsWith('spawn');
}

function isPipeError(error: unknown): boolean {
  const code = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
  return code === 'EPIPE' || code === 'ECONNRESET' || (error instanceof Error && error.message === 'Not connected');
}
