/** Where a command's tools come from: a file, standard input, or a live MCP server (`--mcp "command args"`). */
import type { LoadMcpOptions } from '../build/sources.js';
import { noToolsWarning, type Diagnostic } from '../diagnostics.js';
import type { ReadResult } from '../input/types.js';
import { readInputArg, UsageError, type CliIo } from './io.js';

export type { LoadMcpOptions } from '../build/sources.js';

/** Tools as a command reads them: JSON text (a file, stdin) or MCP tool objects, and a name for messages. */
export interface LoadedTools {
  /** JSON text, or the MCP server's tool objects (read by `readTools` as MCP tools). */
  readonly input: string | readonly unknown[];
  /** The file name, `-`, or `mcp: <command>`. */
  readonly source: string;
  /** For `--mcp`: the server's name and version, as its `initialize` result gives them (`serverInfo`). */
  readonly server?: { readonly name?: string; readonly version?: string };
}

/** The tools of a command: `--mcp` (then no file may be given), else the file argument or `-` for stdin, at most `maxBytes` of it (readInputArg). */
export async function loadToolsArg(file: string | undefined, mcp: string | undefined, io: CliIo, options: LoadMcpOptions = {}, maxBytes?: number): Promise<LoadedTools> {
  if (mcp !== undefined) {
    if (file !== undefined) throw new UsageError(`give either a file or --mcp, not both (got ${JSON.stringify(file)} and --mcp)`);
    if (mcp.trim() === '') throw new UsageError('--mcp needs a command, e.g. --mcp "node server.js stdio"');
    // the MCP SDK is loaded only when a server is asked for
    const { loadMcpServer } = await import('../build/sources.js');
    const { tools, server } = await loadMcpServer(mcp, options);
    return { input: tools, source: `mcp: ${mcp}`, server };
  }
  return { input: await readInputArg(file, io, maxBytes), source: file ?? '-' };
}

/** What messages call the input: the file name, `standard input`, or `mcp: <command>`. */
export function inputName(source: string): string {
  return source === '-' ? 'standard input' : source;
}

/** The `input/no-tools` warning when the tools read are none (an empty list is no error, but never silent); undefined otherwise. */
export function noToolsOf(read: ReadResult, source: string, consequence: string): Diagnostic | undefined {
  return read.tools.length === 0 ? noToolsWarning(inputName(source), consequence) : undefined;
}

/** Parse `--mcp-timeout <ms>`. */
export function mcpTimeoutFrom(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !(n > 0)) throw new UsageError(`--mcp-timeout must be a positive number of milliseconds, not ${JSON.stringify(value)}`);
  return n;
}
