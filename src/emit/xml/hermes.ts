/**
 * The `hermes` dialect: the Hermes 2 Pro / Hermes 3 `tool_use` chat template (identical for both),
 * quirks and all: a JSON-looking line per tool whose description is assembled raw
 * (`name(p: T, …) - DESC\n\n    Args:\n        p(T): …`, nothing escaped, the outer `{` never
 * closed), Python type names from the `json_to_python_type` macro, and the places it raises.
 */
import { isJsonObject, jsonTypeOf, type JsonValue } from '../../ir/json.js';
import { toolFieldPointer, type ToolDefinition } from '../../input/types.js';
import { childPointer } from '../python/errors.js';
import { jinjaItem, jinjaTrim, SANDBOX_DICT_METHODS } from '../python/jinja.js';
import { pyJsonDumps } from '../python/json.js';
import { chatmlTurn, failTemplate, type XmlMessage } from './template.js';

/** The tokenizer's bos_token, which the template prints first. */
export const HERMES_BOS = '<|begin_of_text|>';

const HERMES_INTRO =
  "You are a function calling AI model. You are provided with function signatures within <tools></tools> XML tags. You may call one or more functions to assist with the user query. Don't make assumptions about what values to plug into functions. Here are the available tools: <tools> ";

/** The pydantic FunctionCall schema and `<tool_call>` instructions right after ` </tools>`. */
export const HERMES_CALLING_INSTRUCTIONS =
  'Use the following pydantic model json schema for each tool call you will make: {"properties": {"name": {"title": "Name", "type": "string"}, "arguments": {"title": "Arguments", "type": "object"}}, "required": ["name", "arguments"], "title": "FunctionCall", "type": "object"}}\nFor each function call return a json object with function name and arguments within <tool_call></tool_call> XML tags as follows:\n<tool_call>\n{"name": <function-name>, "arguments": <args-dict>}\n</tool_call>';

/** `basic_type_map` of the `json_to_python_type` macro (Command R+'s template has the same macro). */
export const JSON_TO_PYTHON_BASIC_TYPES: ReadonlyMap<string, string> = new Map([
  ['string', 'str'],
  ['number', 'float'],
  ['integer', 'int'],
  ['boolean', 'bool'],
]);

/**
 * The `json_to_python_type` macro. Its quirks, copied: `json_spec|items` is never a schema, so
 * every array is `list[Union[]]`; a missing type (Undefined is iterable) or `""` is `Union[]`;
 * `additionalProperties` present (even `true`/`false`) makes `dict[str, …]`; a list (or an
 * object, by its keys) is a `Union[…]` joined with `,`; a number, bool or null is `Any`; any other
 * non-empty string recurses on its own characters until Python's RecursionError.
 */
export function hermesPythonType(tool: ToolDefinition, spec: JsonValue | undefined, pointer: string): string {
  return pythonTypeOf(tool, jinjaItem(spec, 'type'), childPointer(pointer, 'type'), spec, pointer);
}

/** The macro's body for one `json_spec.type` value (`spec` is the schema holding it, for additionalProperties). */
function pythonTypeOf(tool: ToolDefinition, type: JsonValue | undefined, typePointer: string, spec: JsonValue | undefined, pointer: string): string {
  if (typeof type === 'string') {
    const basic = JSON_TO_PYTHON_BASIC_TYPES.get(type);
    if (basic !== undefined) return basic;
    // `basic_type_map[t]` falls back to getattr and finds a bound method
    if (SANDBOX_DICT_METHODS.has(type)) {
      failTemplate(tool, typePointer, `the Hermes template looks up type ${JSON.stringify(type)} in a dict and prints a bound method's repr (a memory address): no fixed rendering exists`);
    }
    if (type === 'array') return 'list[Union[]]';
    if (type === 'object') {
      const additional = jinjaItem(spec, 'additionalProperties');
      if (additional === undefined) return 'dict';
      return `dict[str, ${hermesPythonType(tool, additional, childPointer(pointer, 'additionalProperties'))}]`;
    }
    if (type === '') return 'Union[]';
    return failTemplate(
      tool,
      typePointer,
      `the Hermes template recurses without end on type ${JSON.stringify(type)} (json_to_python_type iterates the string's characters): RecursionError`,
    );
  }
  // Undefined is iterable and empty
  if (type === undefined) return 'Union[]';
  // each member becomes `{"type": member}`: no additionalProperties there
  if (Array.isArray(type)) return `Union[${type.map((t, i) => pythonTypeOf(tool, t, childPointer(typePointer, i), undefined, typePointer)).join(',')}]`;
  // iterating a dict yields its keys
  if (isJsonObject(type)) return `Union[${[...type.keys()].map((k) => pythonTypeOf(tool, k, childPointer(typePointer, k), undefined, typePointer)).join(',')}]`;
  return 'Any';
}

/** One property: its name and its Python type. */
interface HermesParam {
  readonly name: string;
  readonly fields: JsonValue;
  readonly type: string;
}

/** `tool.parameters.properties|items`: raises when parameters is missing or properties is not a mapping. */
function hermesParams(tool: ToolDefinition): HermesParam[] {
  // `tool.parameters.properties` on Undefined raises UndefinedError
  if (tool.parameters === undefined) failTemplate(tool, tool.parametersPointer, "the Hermes template reads tool.parameters.properties and the tool has no parameters: UndefinedError: 'dict object' has no attribute 'parameters'");
  const properties = jinjaItem(tool.parameters, 'properties');
  if (properties === undefined) return [];
  if (!isJsonObject(properties)) {
    failTemplate(tool, childPointer(tool.parametersPointer, 'properties'), `the Hermes template's |items needs a mapping and properties is ${jsonTypeOf(properties)}: TypeError: Can only get item pairs from a mapping.`);
  }
  const out: HermesParam[] = [];
  for (const [name, fields] of properties) {
    out.push({ name, fields, type: hermesPythonType(tool, fields, childPointer(childPointer(tool.parametersPointer, 'properties'), name)) });
  }
  return out;
}

/** `" - " + tool.description + "\n\n"`: a missing description is UndefinedError, a non-string one a TypeError. */
function hermesDescription(tool: ToolDefinition): string {
  const d = tool.description;
  if (typeof d === 'string') return d;
  const where = toolFieldPointer(tool, 'description');
  if (d === undefined) return failTemplate(tool, where, "the Hermes template concatenates tool.description and the tool has none: UndefinedError: 'dict object' has no attribute 'description'");
  return failTemplate(tool, where, `the Hermes template concatenates tool.description with strings and it is ${jsonTypeOf(d)}: TypeError: can only concatenate str`);
}

/** One tool's line, as the template's loop body writes it (no trailing newline). */
export function hermesToolLine(tool: ToolDefinition): string {
  const params = hermesParams(tool);
  const signature = params.map((p) => `${p.name}: ${p.type}`).join(', ');
  const description = hermesDescription(tool);
  // Args lines follow one another with no separator, each description `|trim`med (str() of a non-string)
  const args = params.length ? `    Args:\n${params.map((p) => `        ${p.name}(${p.type}): ${argDescription(p.fields)}`).join('')}` : '';
  // `properties | length == 0` (Undefined has length 0) prints `{}` instead of the schema
  const schema = params.length === 0 ? '{}' : pyJsonDumps(tool.parameters!);
  return `{"type": "function", "function": {"name": "${tool.name}", "description": "${tool.name}(${signature}) - ${description}\n\n${args}", "parameters": ${schema}}`;
}

/** `param_fields.description|trim`: Undefined prints as nothing, anything else as `str(x).strip()`. */
function argDescription(fields: JsonValue): string {
  return jinjaTrim(jinjaItem(fields, 'description'));
}

/** The system message content: the intro, `<tools> … </tools>` and the calling instructions. */
export function emitHermesCatalog(tools: readonly ToolDefinition[]): string {
  // `{%- for tool in tools %}` over None (no tools are passed as None) raises TypeError
  if (tools.length === 0) failTemplate(undefined, '', "the Hermes template iterates tools unconditionally and there are none: TypeError: 'NoneType' object is not iterable");
  return `${HERMES_INTRO}${tools.map(hermesToolLine).join('\n')} </tools>${HERMES_CALLING_INSTRUCTIONS}`;
}

/** The whole prompt as the Hermes tool_use template renders it. */
export function renderHermesPrompt(tools: readonly ToolDefinition[], messages: readonly XmlMessage[], addGenerationPrompt: boolean): string {
  let out = `${HERMES_BOS}<|im_start|>system\n${emitHermesCatalog(tools)}<|im_end|>\n`;
  messages.forEach((m, i) => {
    if (m.role === 'user' || m.role === 'system' || m.role === 'assistant') {
      out += chatmlTurn(m.role, m.content);
    } else if (m.role === 'tool') {
      const last = i === messages.length - 1;
      // `loop.previtem and …`: a tool message first gets no header; the header role is `tool`
      if (i > 0 && messages[i - 1].role !== 'tool') out += '<|im_start|>tool\n';
      out += `<tool_response>\n${m.content}${last ? '\n</tool_response>' : '\n</tool_response>\n'}`;
      // `<|im_end|>` with no newline after tool results
      if (last || messages[i + 1].role !== 'tool') out += '<|im_end|>';
    }
  });
  if (addGenerationPrompt) out += '<|im_start|>assistant\n';
  return out;
}
