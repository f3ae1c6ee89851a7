/**
 * The tools a parse reads: any shape `readTools` accepts (or a compiled tool set), reduced to
 * each tool's name and raw parameters schema, plus the lookups vLLM's parsers make in them.
 */
import { CompileError, type Diagnostic } from '../../diagnostics.js';
import { readTools } from '../../input/read.js';
import type { ToolDefinition } from '../../input/types.js';
import { isJsonArray, isJsonObject, JsonNumber, type JsonObject, type JsonValue } from '../../ir/json.js';
import { PythonException } from './python-values.js';

/** One tool as the parsers see it: its name and its parameters schema as written. */
export interface ParseTool {
  readonly name: string;
  readonly parameters?: JsonValue;
}

/** The tools of a parse, or undefined when the request had none; errors reading them as diagnostics. */
export interface ParseTools {
  readonly tools?: readonly ParseTool[];
  readonly diagnostics: readonly Diagnostic[];
}

function isCompiledToolSet(v: unknown): v is { readonly definitions: readonly ToolDefinition[] } {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Map) && Array.isArray((v as { definitions?: unknown }).definitions) && Array.isArray((v as { tools?: unknown }).tools);
}

/** Read the `tools` option: a compiled tool set (`{definitions, tools}`) or anything `readTools` accepts; undefined and null mean "no tools". */
export function readParseTools(input: unknown): ParseTools {
  if (input === undefined || input === null) return { diagnostics: [] };
  if (isCompiledToolSet(input)) return { tools: input.definitions.map(toParseTool), diagnostics: [] };
  try {
    // readTools' warnings are about the catalog (lint's business), not about the parse
    return { tools: readTools(input).tools.map(toParseTool), diagnostics: [] };
  } catch (e) {
    if (!(e instanceof CompileError)) throw e;
    return {
      diagnostics: [
        { code: 'parse/tools-unreadable', severity: 'error', path: '/tools', message: 'the tools cannot be read: values are parsed as if the request had no tools (see the other diagnostics)' },
        ...e.diagnostics.filter((d) => d.severity === 'error'),
      ],
    };
  }
}

function toParseTool(d: ToolDefinition): ParseTool {
  return d.parameters !== undefined ? { name: d.name, parameters: d.parameters } : { name: d.name };
}

/** The first tool with this name. */
export function findTool(tools: readonly ParseTool[] | undefined, name: string): ParseTool | undefined {
  return tools?.find((t) => t.name === name);
}

const EMPTY: JsonObject = new Map();

/** vLLM `qwen3_coder@0b13f933` `_get_arguments_config`: `parameters.properties` when `parameters` has it (whatever it is), else `parameters` itself when it is an object, else `{}`. */
export function argumentsConfigOld(tools: readonly ParseTool[] | undefined, name: string): JsonValue {
  const tool = findTool(tools, name);
  if (!tool) return EMPTY;
  const params = tool.parameters;
  if (isJsonObject(params)) return params.has('properties') ? params.get('properties')! : params;
  return EMPTY;
}

/** vLLM's `find_tool_properties` (`qwen3_coder@00d0a333`): `(parameters or {}).get("properties", {})` when that is an object, else `{}`. */
export function toolProperties(tools: readonly ParseTool[] | undefined, name: string): JsonObject {
  const tool = findTool(tools, name);
  if (!tool || !isJsonObject(tool.parameters)) return EMPTY;
  const props = tool.parameters.get('properties');
  return isJsonObject(props) ? props : EMPTY;
}

function pyTypeNameOfJson(v: JsonValue): string {
  if (v === null) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'str';
  if (v instanceof JsonNumber) return /[.eE]/.test(v.text) ? 'float' : 'int';
  return isJsonArray(v) ? 'list' : 'dict';
}

/** Python's `key in container` for a JSON value as `json.loads` gives it to vLLM (TypeError for numbers, bools, None). */
export function pyContains(container: JsonValue, key: string): boolean {
  if (isJsonObject(container)) return container.has(key);
  if (isJsonArray(container)) return container.some((x) => x === key);
  if (typeof container === 'string') return container.includes(key);
  throw new PythonException('TypeError', `argument of type '${pyTypeNameOfJson(container)}' is not iterable`);
}

/** Python's `container[key]` with a str key (TypeError for lists and strings). */
export function pyGetItem(container: JsonValue, key: string): JsonValue {
  if (isJsonObject(container)) {
    const v = container.get(key);
    if (v === undefined) throw new PythonException('KeyError', `'${key}'`);
    return v;
  }
  if (isJsonArray(container)) throw new PythonException('TypeError', 'list indices must be integers or slices, not str');
  if (typeof container === 'string') throw new PythonException('TypeError', "string indices must be integers, not 'str'");
  throw new PythonException('TypeError', `'${pyTypeNameOfJson(container)}' object is not subscriptable`);
}
