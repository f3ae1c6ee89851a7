/**
 * `seed-oss`: ByteDance Seed-OSS's chat template (its default, non-JSON tool definitions). Each
 * tool is a Python-like stub with Chinese markers:
 * `Function:\ndef name(a: str,b: int):\n    """\n    desc\n\n    Args:\n    - a (str) [必填]: …`.
 * Types come from its `py_type` macro (`number` prints as `int`, unknown types as `Any`); defaults,
 * enums and nested schemas are not shown. It raises where parameters or properties are missing or
 * not objects.
 */
import { isJsonObject, jsonTypeOf, type JsonObject, type JsonValue } from '../../ir/json.js';
import { toolFieldPointer, type ToolDefinition } from '../../input/types.js';
import { childPointer, JinjaError, undefinedAttribute, undefinedElement } from '../python/errors.js';
import { jinjaItem, jinjaTrim, pyContains } from '../python/jinja.js';
import { pyStrip } from '../python/strings.js';
import { pyStr, pyTruthy } from '../python/values.js';
import { failFamily, familyMessages } from './common.js';
import type { FamilyPrinter, FamilyPromptOptions } from './types.js';

/** The template sets its own tokens (`{%- set bos_token = '<seed:bos>' -%}`), whatever the tokenizer passes. */
const BOS = '<seed:bos>';
const EOS = '<seed:eos>';

/** The system text when there are tools and no system message. */
const DEFAULT_SYSTEM = 'You are Doubao, a helpful AI assistant. You may call one or more functions to assist with the user query.';

/** The tool-call format, after the stubs. */
const CALL_FORMAT =
  '工具调用请遵循如下格式:\n<seed:tool_call>\n<function=example_function_name>\n<parameter=example_parameter_1>value_1</parameter>\n<parameter=example_parameter_2>This is the value for the second parameter\nthat can span\nmultiple lines</parameter>\n</function>\n</seed:tool_call>\n';

/** The `py_type` macro: `string` → str, `number`/`integer` → int, `boolean` → bool, `array` → list, anything else (object, a list of types, none) → Any. */
export function seedPyType(t: JsonValue | undefined): string {
  if (t === 'string') return 'str';
  // the template maps number and integer alike to int
  if (t === 'number' || t === 'integer') return 'int';
  if (t === 'boolean') return 'bool';
  if (t === 'array') return 'list';
  return 'Any';
}

/** `x.properties.items()`: the mapping's entries; `.properties` of Undefined, or `.items` of a non-mapping, raises UndefinedError. */
function entriesOf(tool: ToolDefinition, owner: JsonValue, ownerPointer: string, what: string): [string, JsonValue][] {
  const properties = jinjaItem(owner, 'properties');
  const at = childPointer(ownerPointer, 'properties');
  if (properties === undefined) {
    // `.items` on the Undefined raises with the Undefined's own message
    if (isJsonObject(owner)) failFamily(tool, at, `Seed-OSS's template lists ${what}.properties.items() and this tool's ${what} has no properties`, undefinedAttribute(owner, 'properties'));
    failFamily(tool, ownerPointer, `Seed-OSS's template lists ${what}.properties.items() and ${what} is ${jsonTypeOf(owner)}, not an object`, undefinedAttribute(owner, 'properties'));
  }
  if (!isJsonObject(properties)) {
    failFamily(tool, at, `Seed-OSS's template lists ${what}.properties.items() and properties is ${jsonTypeOf(properties)}, not an object`, undefinedAttribute(properties, 'items'));
  }
  return [...(properties as JsonObject)];
}

/** `" " ~ (spec.description or "")`. */
function describe(spec: JsonValue): string {
  const d = jinjaItem(spec, 'description');
  return ` ${pyTruthy(d) ? pyStr(d!) : ''}`;
}

/** One tool's stub, from `Function:` to the closing `"""` (the template puts `\n\n` before each). */
export function seedOssStub(tool: ToolDefinition): string {
  const parameters = tool.parameters;
  if (parameters === undefined) {
    failFamily(tool, tool.parametersPointer, "Seed-OSS's template lists parameters.properties.items() and this tool has no parameters", undefinedAttribute(new Map(), 'parameters'));
  }
  const props = entriesOf(tool, parameters, tool.parametersPointer, 'parameters');
  const required = jinjaItem(parameters, 'required');
  const signature = props.map(([name, spec]) => `${name}: ${seedPyType(jinjaItem(spec, 'type'))}`).join(',');
  let out = `Function:\ndef ${tool.name}(${signature}):\n    """\n    ${jinjaTrim(tool.description)}\n\n`;
  if (props.length > 0) {
    out += '    Args:';
    for (const [name, spec] of props) {
      let mark: string;
      try {
        mark = pyContains(required, name) ? ' [必填]' : ' [选填]';
      } catch (e) {
        if (!(e instanceof JinjaError)) throw e;
        return failFamily(tool, childPointer(tool.parametersPointer, 'required'), `Seed-OSS's template checks each property name against required, which must be a list, and it is ${jsonTypeOf(required)}`, e);
      }
      out += `\n    - ${name} (${seedPyType(jinjaItem(spec, 'type'))})${mark}:${describe(spec)}`;
    }
  }
  out += '\n';
  // `returns` (a tool-level key beside parameters) is listed when its properties are truthy
  const returns = tool.extra?.get('returns');
  if (returns !== undefined && jinjaItem(returns, 'properties') !== undefined && pyTruthy(jinjaItem(returns, 'properties'))) {
    out += '    Returns:';
    for (const [name, spec] of entriesOf(tool, returns, toolFieldPointer(tool, 'returns'), 'returns')) {
      out += `\n    - ${name} (${seedPyType(jinjaItem(spec, 'type'))}):${describe(spec)}`;
    }
  }
  return `${out}\n    """`;
}

/** The whole prompt as the Seed-OSS template renders it (thinking_budget -1, no use_json_tooldef). */
export function renderSeedOssPrompt(tools: readonly ToolDefinition[], options: FamilyPromptOptions = {}): string {
  const messages = familyMessages(options);
  // `messages[0]["role"]` of an empty list raises
  if (messages.length === 0) failFamily(undefined, '', "Seed-OSS's template reads the first message and there is none", undefinedElement([], 0));
  const system = messages[0].role === 'system' ? messages[0].content : undefined;
  const loop = system !== undefined ? messages.slice(1) : messages;
  let out = '';
  if (system !== undefined) out += `${BOS}system\n${system}`;
  else if (tools.length > 0) out += `${BOS}system\n${DEFAULT_SYSTEM}`;
  for (const t of tools) out += `\n\n${seedOssStub(t)}`;
  if (tools.length > 0) out += `\n${CALL_FORMAT}`;
  if (system !== undefined || tools.length > 0) out += EOS;
  for (const m of loop) {
    if (m.role === 'assistant') {
      // an assistant message with blank content gets no newline and no eos
      const content = pyStrip(m.content);
      out += `${BOS}assistant${content.length > 0 ? `\n${content}${EOS}` : ''}`;
    } else out += `${BOS}${m.role}\n${m.content}${EOS}`;
  }
  if (options.addGenerationPrompt ?? true) out += `${BOS}assistant\n`;
  return out;
}

/** ByteDance Seed-OSS. */
export const SEED_OSS: FamilyPrinter = { name: 'seed-oss', prompt: renderSeedOssPrompt };
