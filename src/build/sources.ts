/**
 * Build sources → one list of tools: JSON files and globs, ES modules (tools, TypeBox or JSON
 * schemas), live MCP servers. Each source is read and checked on its own (problems name the file),
 * then every tool becomes one standalone value of a single list, read again as one tool set
 * (so names must be unique across sources). Order: sources as listed, files of a glob sorted.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CompileError, isCompileError, noToolsWarning, type Diagnostic } from '../diagnostics.js';
import { classifyShape } from '../input/formats.js';
import { readTools } from '../api/compile.js';
import { fromJs, isJsonObject, JsValueError, type JsonValue } from '../ir/json.js';
import { inheritedEnvironment, isMcpClientError, listMcpTools } from '../mcp/client.js';
import type { SourceConfig } from './config.js';
import { expandGlob, isGlob } from './glob.js';
import { standaloneTools, toolDocument } from './tool-values.js';

/** Where a tool of the joined list came from: a source label and its JSON Pointer there. */
export interface ToolOrigin {
  readonly source: string;
  readonly pointer: string;
}

/** The tools of every source as one list of standalone values, and where each came from. */
export interface LoadedSources {
  readonly values: readonly JsonValue[];
  readonly origins: readonly ToolOrigin[];
  /** What reading the sources noticed besides the tools' own diagnostics: a source that holds no tools (`input/no-tools`). */
  readonly diagnostics?: readonly Diagnostic[];
}

/** Options of `loadSources`. */
export interface LoadSourcesOptions {
  /** Default time allowed for each MCP server, in ms. */
  readonly timeoutMs?: number;
}

function sourceError(code: string, message: string): CompileError {
  return new CompileError([{ code, severity: 'error', path: '', message }]);
}

/** A path as shown in messages: relative to the config's directory, with `/`. */
function label(baseDir: string, path: string): string {
  const rel = relative(baseDir, path);
  return (rel === '' || isAbsolute(rel) ? path : rel).split(sep).join('/');
}

/** Put the source's name in front of each message of a CompileError thrown while reading it. */
function withSource<T>(source: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (!isCompileError(e)) throw e;
    throw new CompileError(e.diagnostics.map((d) => (d.message.startsWith(`${source}: `) ? d : { ...d, message: `${source}: ${d.message}` })));
  }
}

/** Diagnostics of the joined list, pointed back at their sources. */
export function relabel(diagnostics: readonly Diagnostic[], origins: readonly ToolOrigin[]): Diagnostic[] {
  return diagnostics.map((d) => {
    const m = /^\/(\d+)(\/.*)?$/.exec(d.path);
    const o = m ? origins[Number(m[1])] : undefined;
    if (!o) return d;
    // a message may point at another tool of the list (`(at /3)`): say where that one came from
    const message = d.message.replace(/\(at \/(\d+)((?:\/[^)\s]*)?)\)/g, (all, k: string, rest: string) => {
      const other = origins[Number(k)];
      return other ? `(at ${other.source} ${other.pointer || '/'}${rest})` : all;
    });
    return { ...d, path: `${o.pointer}${m![2] ?? ''}`, message: `${o.source}: ${message}` };
  });
}

/** Read every source; throws a CompileError naming the source of each problem. */
export async function loadSources(sources: readonly SourceConfig[], baseDir: string, options: LoadSourcesOptions = {}): Promise<LoadedSources> {
  const values: JsonValue[] = [];
  const origins: ToolOrigin[] = [];
  const diagnostics: Diagnostic[] = [];
  const add = (source: string, input: unknown) => {
    const read = withSource(source, () => readTools(input, { source }));
    if (read.definitions.length === 0) diagnostics.push(noToolsWarning(source, 'it adds nothing to the outputs'));
    const own = standaloneTools(toolDocument(input), read.definitions);
    own.forEach((v, k) => {
      values.push(v);
      origins.push({ source, pointer: read.definitions[k].pointer });
    });
  };
  for (const [i, s] of sources.entries()) {
    const key = `sources[${i}]`;
    if (typeof s === 'string' || 'files' in s) {
      const patterns = typeof s === 'string' ? [s] : typeof s.files === 'string' ? [s.files] : s.files;
      for (const pattern of patterns) {
        const files = isGlob(pattern) ? expandGlob(pattern, baseDir).map((f) => resolve(baseDir, f)) : [resolve(baseDir, pattern)];
        if (files.length === 0) throw sourceError('build/no-files', `${key}: ${JSON.stringify(pattern)} matches no file`);
        for (const file of files) {
          let text: string;
          try {
            text = readFileSync(file, 'utf8');
          } catch (e) {
            const code = (e as NodeJS.ErrnoException).code;
            throw sourceError('build/no-file', `${key}: ${code === 'ENOENT' ? `no such file: ${label(baseDir, file)}` : `cannot read ${label(baseDir, file)}: ${(e as Error).message}`}`);
          }
          add(label(baseDir, file), text.charCodeAt(0) === 0xfeff ? text.slice(1) : text); // a UTF-8 BOM is no part of the JSON
        }
      }
    } else if ('module' in s) {
      const file = resolve(baseDir, s.module);
      let ns: Record<string, unknown>;
      try {
        ns = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      } catch (e) {
        throw sourceError('build/module', `${key}: cannot import ${label(baseDir, file)}: ${(e as Error).message}`);
      }
      const names = s.export === undefined ? undefined : typeof s.export === 'string' ? [s.export] : s.export;
      for (const [name, value] of moduleTools(ns, names, `${key}: ${label(baseDir, file)}`)) add(`${label(baseDir, file)}#${name}`, value);
    } else {
      const timeoutMs = s.timeoutMs ?? options.timeoutMs;
      const tools = await loadMcpTools(s.mcp, { ...(timeoutMs !== undefined ? { timeoutMs } : {}), cwd: resolve(baseDir, s.cwd ?? '.'), ...(s.env !== undefined ? { env: s.env } : {}) });
      add(`mcp: ${s.mcp}`, tools);
    }
  }
  // one tool set: duplicate names across sources are errors, reported where the tools came from
  try {
    readTools(values);
  } catch (e) {
    if (isCompileError(e)) throw new CompileError(relabel(e.diagnostics, origins));
    throw e;
  }
  return { values, origins, diagnostics };
}

/** Options of `loadMcpTools`. */
export interface LoadMcpOptions {
  /** Time allowed for the whole exchange with the server, in ms. Default 10000. */
  readonly timeoutMs?: number;
  /** Working directory of the server. */
  readonly cwd?: string;
  /** Variables set in the server's environment (`--env KEY=VALUE`, a build source's `env`), over the inherited ones. */
  readonly env?: Readonly<Record<string, string>>;
  /** The environment the server inherits: default this process's, all of it (as a shell passes it on). */
  readonly inheritEnv?: Readonly<Record<string, string | undefined>>;
}

/**
 * Start an MCP server, list its tools, stop it. The server inherits this process's environment
 * (or `inheritEnv`) plus `env`. The tools come back unchanged (MCP tool objects, for `readTools`).
 * A server that cannot be started, exits, times out or answers wrongly is reported as a
 * CompileError with one `mcp/…` error (printed plainly by the CLI, exit 1).
 */
export async function loadMcpTools(command: string, options: LoadMcpOptions = {}): Promise<unknown[]> {
  return (await loadMcpServer(command, options)).tools;
}

/** As `loadMcpTools`, with who the server says it is (its `initialize` result's `serverInfo`). */
export async function loadMcpServer(command: string, options: LoadMcpOptions = {}): Promise<{ tools: unknown[]; server: { name?: string; version?: string } }> {
  try {
    const env = { ...inheritedEnvironment(options.inheritEnv ?? process.env), ...options.env };
    return await listMcpTools(command, { ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}), ...(options.cwd !== undefined ? { cwd: options.cwd } : {}), env });
  } catch (e) {
    if (isMcpClientError(e)) throw new CompileError([{ code: e.code, severity: 'error', path: '', message: e.message }]);
    throw e;
  }
}

const TYPEBOX_KIND = Symbol.for('TypeBox.Kind');

/** A JSON Schema of an object (TypeBox or plain), as opposed to a tool or a list of tools. */
function isObjectSchema(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  if (TYPEBOX_KIND in v) return (v as Record<symbol, unknown>)[TYPEBOX_KIND] === 'Object';
  const o = v as Record<string, unknown>;
  return o.type === 'object' && !('name' in o) && !('function' in o);
}

/**
 * The tools a module exports: arrays and tool objects as they are; an object schema (TypeBox or
 * JSON Schema) as one tool named after its export (`default`: after its `title`), its
 * `description` moved to the tool. Without `names`, every export that is one of these, in name order;
 * with `names`, those exports, each required to be one.
 */
export function moduleTools(ns: Record<string, unknown>, names: readonly string[] | undefined, where: string): [string, unknown][] {
  const out: [string, unknown][] = [];
  const chosen = names ?? Object.keys(ns).sort();
  for (const name of chosen) {
    if (!(name in ns)) throw sourceError('build/module', `${where} has no export ${JSON.stringify(name)} (it exports ${Object.keys(ns).sort().join(', ') || 'nothing'})`);
    const value = ns[name];
    const tool = exportTool(name, value);
    if (tool === undefined) {
      if (names) throw sourceError('build/module', `${where}: export ${JSON.stringify(name)} is not tools, a tool, or an object schema (TypeBox or JSON Schema)`);
      continue;
    }
    out.push([name, tool]);
  }
  if (out.length === 0) throw sourceError('build/module', `${where} exports no tools (an array of tools, a tool, or an object schema)`);
  return out;
}

function exportTool(name: string, value: unknown): unknown {
  if (Array.isArray(value)) return value;
  if (isObjectSchema(value)) {
    const title = (value as { title?: unknown }).title;
    const toolName = name === 'default' ? (typeof title === 'string' ? title : undefined) : name;
    if (toolName === undefined) return undefined;
    // the description is the tool's, not printed again on its parameters
    const { description, ...parameters } = value as { description?: unknown };
    return { name: toolName, ...(typeof description === 'string' ? { description } : {}), parameters: typeof description === 'string' ? parameters : value };
  }
  if (typeof value !== 'object' || value === null) return undefined;
  let json: JsonValue;
  try {
    json = fromJs(value);
  } catch (e) {
    if (e instanceof JsValueError) return undefined;
    throw e;
  }
  return isJsonObject(json) && classifyShape(json).kind !== 'unknown' ? value : undefined;
}
