/** Access to ../shared (oracles, corpus) for tests; every suite that needs it skips with a plain message when it is absent. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getKey, isJsonArray, isJsonObject, parseJson, type JsonValue } from '../../src/ir/json.js';
import type { ToolDefinition } from '../../src/input/types.js';
import type { IrTool } from '../../src/ir/nodes.js';
import { lowerTool } from '../../src/lower/index.js';

const here = dirname(fileURLToPath(import.meta.url));
/** The project root. */
export const ROOT = resolve(here, '../..');
/** ../shared, or the SHARED_DIR environment variable. */
export const SHARED = process.env.SHARED_DIR ?? resolve(ROOT, '../shared');
/** True when the shared oracles are present. */
export const HAVE_SHARED = existsSync(join(SHARED, 'oracles'));
/** Say once, plainly, that a suite is not run. */
export function sharedMissingNote(suite: string): string {
  return `${suite}: ../shared/oracles not found (set SHARED_DIR); oracle comparisons are NOT run in this checkout`;
}

/** Path of a file under ../shared. */
export function sharedPath(...parts: string[]): string {
  return join(SHARED, ...parts);
}

/** Read a JSONL file losslessly (number text and key order kept). */
export function readJsonl(path: string): JsonValue[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => parseJson(l));
}

/** Read a JSONL file with JSON.parse (for expected outputs: strings only). */
export function readJsonlPlain<T = Record<string, unknown>>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

/** An oracle input case: `{id, tools, instructions?}` with its tools as bare ToolDefinitions. */
export interface OracleCase {
  readonly id: string;
  readonly raw: JsonValue;
  readonly tools: readonly JsonValue[];
  readonly instructions?: string;
}

/** Oracle input cases (../shared/oracles/inputs/*.jsonl or synthetic/visible/inputs.jsonl), lossless. */
export function readOracleCases(path: string): OracleCase[] {
  const text = readFileSync(path, 'utf8');
  const out: OracleCase[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let v: JsonValue;
    try {
      v = parseJson(line);
    } catch {
      // the raw-json family has lines that are not valid JSON on purpose: keep the id, no tools
      const m = /"id"\s*:\s*"([^"]+)"/.exec(line);
      out.push({ id: m ? m[1] : '?', raw: line, tools: [] });
      continue;
    }
    const tools = getKey(v, 'tools');
    const instr = getKey(v, 'instructions');
    out.push({ id: String(getKey(v, 'id')), raw: v, tools: isJsonArray(tools) ? tools : [], ...(typeof instr === 'string' ? { instructions: instr } : {}) });
  }
  return out;
}

/** A bare `{name, description, parameters}` tool as a ToolDefinition (no validation: for printer tests). */
export function bareTool(v: JsonValue, index = 0): ToolDefinition {
  if (!isJsonObject(v)) throw new Error('not a tool object');
  const name = v.get('name');
  const description = v.get('description');
  const parameters = v.get('parameters');
  return {
    name: typeof name === 'string' ? name : '',
    ...(description !== undefined ? { description } : {}),
    ...(parameters !== undefined ? { parameters } : {}),
    format: 'bare',
    pointer: `/${index}`,
    parametersPointer: `/${index}/parameters`,
  };
}

/** Bare tools with their IR, the name kept as written (a missing one stays missing, unlike `bareTool`): printer input. */
export function loweredBareTools(tools: readonly JsonValue[]): { def: ToolDefinition; ir: IrTool }[] {
  return tools.map((t, i) => {
    const def: ToolDefinition = {
      name: getKey(t, 'name') as string,
      ...(getKey(t, 'description') !== undefined ? { description: getKey(t, 'description') } : {}),
      ...(getKey(t, 'parameters') !== undefined ? { parameters: getKey(t, 'parameters') } : {}),
      format: 'bare',
      pointer: `/${i}`,
      parametersPointer: `/${i}/parameters`,
    };
    return { def, ir: lowerTool(def).tool };
  });
}
