/** Compile once: tools read (any shape), control tokens applied, and lowered to the IR. */
import { CompileError, throwIfErrors, type Diagnostic } from '../diagnostics.js';
import { applyControlTokensToRead, type ControlTokenPolicy } from '../input/control-tokens.js';
import { readTools as readToolsInput } from '../input/read.js';
import type { ReadResult, ToolDefinition } from '../input/types.js';
import type { IrTool } from '../ir/nodes.js';
import { lowerTool, type LowerLimits } from '../lower/index.js';
import { faithfulLowerTool } from '../lower/faithful.js';

/** Tools as the API takes them: JSON text, a JS value in any supported shape, or what `readTools` returned. */
export type ToolsInput = string | ReadResult | unknown;

const READ = new WeakSet<object>();

/** Read tool definitions in any supported shape; throws a CompileError listing every problem. */
export function readTools(input: unknown, options: { source?: string } = {}): ReadResult {
  // what readTools returned is read already
  if (typeof input === 'object' && input !== null && READ.has(input)) return input as ReadResult;
  const r = readToolsInput(input, options);
  READ.add(r);
  return r;
}

export function asRead(input: ToolsInput): ReadResult {
  if (typeof input === 'object' && input !== null && READ.has(input)) return input as ReadResult;
  return readTools(input);
}

/** Tools read and lowered: each definition beside its IR, and every diagnostic so far. */
export interface CompiledTools {
  readonly definitions: readonly ToolDefinition[];
  readonly tools: readonly IrTool[];
  readonly diagnostics: readonly Diagnostic[];
}

/** Read and lower tools; throws a CompileError when any diagnostic is an error. */
export function compileTools(input: ToolsInput, options: { limits?: Partial<LowerLimits>; controlTokens?: ControlTokenPolicy; lowering?: 'exact' | 'faithful' } = {}): CompiledTools {
  const read = applyControlTokensToRead(asRead(input), options.controlTokens ?? 'keep');
  const diagnostics: Diagnostic[] = [...read.diagnostics];
  // faithful lowering rewrites the IR as it lowers (tools then print with `rewritten: true`)
  const lower = options.lowering === 'faithful' ? faithfulLowerTool : lowerTool;
  const tools = read.tools.map((t) => {
    const r = lower(t, options.limits ? { limits: options.limits } : {});
    diagnostics.push(...r.diagnostics);
    return r.tool;
  });
  throwIfErrors(diagnostics);
  return { definitions: read.tools, tools, diagnostics };
}

export const NO_TOOLS: CompiledTools = { definitions: [], tools: [], diagnostics: [] };


/** A pointer with its `/tools/<i>` prefix moved to where that tool really stands in the caller's document. */
function remapPointer(p: string, pointers: readonly string[]): string {
  const m = /^\/tools\/(\d+)(?=\/|$)/.exec(p);
  if (!m) return p;
  const to = pointers[Number(m[1])];
  return to === undefined ? p : to + p.slice(m[0].length);
}

/**
 * Read tools that were taken out of a larger list (a request body's function tools, its builtin
 * tools set aside): `pointers[i]` is where the i-th given tool stands in the caller's document,
 * and every pointer of the result (tools, parameters, diagnostics) says so.
 */
export function readToolsAt(tools: readonly unknown[], pointers: readonly string[], notes: readonly Diagnostic[] = []): ReadResult {
  let r: ReadResult;
  try {
    // a JsonValue list is read as it is (number text kept); JS values are converted by readTools
    r = readToolsInput(new Map<string, unknown>([['tools', tools]]));
  } catch (e) {
    if (e instanceof CompileError) throw new CompileError(e.diagnostics.map((d) => ({ ...d, path: remapPointer(d.path, pointers) })));
    throw e;
  }
  const out: ReadResult = {
    tools: r.tools.map((t) => ({ ...t, pointer: remapPointer(t.pointer, pointers), parametersPointer: remapPointer(t.parametersPointer, pointers) })),
    diagnostics: [...notes, ...r.diagnostics.map((d) => ({ ...d, path: remapPointer(d.path, pointers) }))],
  };
  READ.add(out);
  return out;
}
