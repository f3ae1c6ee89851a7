/**
 * `command-r-plus`: Cohere Command R+'s `tool_use` chat template. Each tool is a Python stub
 * (` ```python\ndef name(p: T, q: Optional[T] = None) -> List[Dict]:\n    """desc\n\n    Args:…` )
 * with types from its `json_to_python_type` macro; the instructions replace the default "User
 * Preamble" text. The template is strict: a property without a description, an object-typed
 * property without additionalProperties, a tool without parameters or an unknown type name make
 * it raise, and each of those is reported with the template's own error.
 */
import { isJsonArray, isJsonObject, jsonTypeOf, type JsonObject, type JsonValue } from '../../ir/json.js';
import type { ToolDefinition } from '../../input/types.js';
import { childPointer, JinjaError, pyConcatOperand, RECURSION_ERROR, undefinedAttribute, undefinedElement } from '../python/errors.js';
import { jinjaItem, jinjaPrint, pyContains, SANDBOX_DICT_METHODS } from '../python/jinja.js';
import { pyStrip } from '../python/strings.js';
import { JSON_TO_PYTHON_BASIC_TYPES } from '../xml/hermes.js';
import { failFamily, familyMessages } from './common.js';
import type { FamilyPrinter, FamilyPromptOptions } from './types.js';

/** The tokenizer's bos_token, printed first. */
const BOS = '<BOS_TOKEN>';

/** The system turn up to `# User Preamble\n` (then the instructions, or the default text). */
const PREAMBLE = [
  '<|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|># Safety Preamble',
  'The instructions in this section override those in the task description and style guide sections. Don\'t answer questions that are harmful or immoral.',
  '',
  '# System Preamble',
  '## Basic Rules',
  'You are a powerful conversational AI trained by Cohere to help people. You are augmented by a number of tools, and your job is to use and consume the output of these tools to best help the user. You will see a conversation history between yourself and a user, ending with an utterance from the user. You will then see a specific instruction instructing you what kind of response to generate. When you answer the user\'s requests, you cite your sources in your answers, according to those instructions.',
  '',
  '# User Preamble',
  '',
].join('\n');

/** The user preamble when there are no instructions (the template's default `system_message`). */
const DEFAULT_USER_PREAMBLE = [
  '## Task and Context',
  'You help people answer their questions and other requests interactively. You will be asked a very wide array of requests on all kinds of topics. You will be equipped with a wide range of search engines or similar tools to help you, which you use to research your answer. You should focus on serving the user\'s needs as best you can, which will be wide-ranging.',
  '',
  '## Style Guide',
  'Unless the user asks for a different style of answer, you should answer in full sentences, using proper grammar and spelling.',
].join('\n');

/** Between the user preamble and the first stub. */
const TOOLS_HEADING = [
  '',
  '',
  '## Available Tools',
  'Here is a list of tools that you have available to you:',
  '',
  '',
].join('\n');

/** The closing system turn, printed after the conversation. */
const ACTION_INSTRUCTIONS = [
  '<|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|>Write \'Action:\' followed by a json-formatted list of actions that you want to perform in order to produce a good response to the user\'s last input. You can use any of the supplied tools any number of times, but you should aim to execute the minimum number of necessary actions for the input. You should use the `directly-answer` tool if calling the other tools is unnecessary. The list of actions you want to call should be formatted as a list of json objects, for example:',
  '```json',
  '[',
  '    {',
  '        "tool_name": title of the tool in the specification,',
  '        "parameters": a dict of parameters to input into the tool as they are defined in the specs, or {} if it takes no parameters',
  '    }',
  ']```<|END_OF_TURN_TOKEN|>',
].join('\n');

/** Where a schema's missing additionalProperties would be, for the UndefinedError the macro raises on it. */
class MissingAdditional {
  constructor(
    readonly owner: JsonObject,
    readonly pointer: string,
  ) {}
}

/**
 * The `json_to_python_type` macro on one schema. Quirks copied: `json_spec.items` finds the dict's
 * `items` method, not the key, so every array is `List[Union[]]`; a missing type (Undefined is
 * iterable), `""`, or a schema that is not an object is `Union[]`; a list of types (or an object,
 * by its keys) is `Union[…]` joined by `,`, each member as `{"type": member}`; a number, bool or
 * null type is `Any`; `object` recurses on additionalProperties, which raises UndefinedError when
 * absent; any other type name recurses through its own characters until Python's RecursionError.
 */
export function commandRPlusType(tool: ToolDefinition, spec: JsonValue, pointer: string): string {
  return pythonType(tool, spec, pointer);
}

/** The macro's body: on a schema, or on the Undefined of a missing additionalProperties. */
function pythonType(tool: ToolDefinition, spec: JsonValue | MissingAdditional, pointer: string): string {
  if (spec instanceof MissingAdditional) {
    // `json_spec.type` on the Undefined additionalProperties raises
    return failFamily(
      tool,
      spec.pointer,
      "Command R+'s template needs additionalProperties on every object-typed property (it prints Dict[str, <type of additionalProperties>]) and this one has none",
      undefinedAttribute(spec.owner, 'additionalProperties'),
    );
  }
  // `json_spec.type` of a non-mapping is Undefined
  if (!isJsonObject(spec)) return 'Union[]';
  return typeName(tool, spec, spec.get('type'), childPointer(pointer, 'type'), pointer);
}

/** The macro's branches for one `json_spec.type` value (`spec` is the schema holding it). */
function typeName(tool: ToolDefinition, spec: JsonObject, type: JsonValue | undefined, typePointer: string, pointer: string): string {
  if (type === undefined) return 'Union[]';
  if (typeof type === 'string') {
    const basic = JSON_TO_PYTHON_BASIC_TYPES.get(type);
    if (basic !== undefined) return basic;
    // `basic_type_map[t]` reaches a dict method: `is defined`, and printed as a bound method's repr
    if (SANDBOX_DICT_METHODS.has(type)) {
      failFamily(tool, typePointer, `Command R+'s template looks up type ${JSON.stringify(type)} in a dict and prints a bound method's repr (a memory address): no fixed rendering exists`);
    }
    if (type === 'array') return 'List[Union[]]';
    if (type === 'object') {
      const additional = spec.get('additionalProperties');
      const at = childPointer(pointer, 'additionalProperties');
      return `Dict[str, ${pythonType(tool, additional ?? new MissingAdditional(spec, at), at)}]`;
    }
    // a string is iterable: Union over its characters, each one recursing on itself
    if (type === '') return 'Union[]';
    return failFamily(
      tool,
      typePointer,
      `Command R+'s template cannot print type ${JSON.stringify(type)}: it knows string, number, integer, boolean, array and object, and for any other type name it recurses through the name's characters without end`,
      RECURSION_ERROR,
    );
  }
  // `{"type": t}` for each member of a list, each key of an object
  if (isJsonArray(type)) return `Union[${type.map((t, i) => member(tool, t, childPointer(typePointer, i))).join(',')}]`;
  if (isJsonObject(type)) return `Union[${[...type.keys()].map((k) => member(tool, k, childPointer(typePointer, k))).join(',')}]`;
  return 'Any';
}

/** `json_to_python_type({"type": t})` for one member of a type list. */
function member(tool: ToolDefinition, t: JsonValue, pointer: string): string {
  const spec: JsonObject = new Map([['type', t]]);
  return typeName(tool, spec, t, pointer, pointer);
}

/** One property as the stub prints it. */
interface Param {
  readonly name: string;
  readonly fields: JsonValue;
  readonly pointer: string;
  readonly type: string;
  readonly required: boolean;
}

/** `tool.parameters.properties|items`, with the required check and the type of each (the signature loop, which runs first). */
function params(tool: ToolDefinition): Param[] {
  const parameters = tool.parameters;
  if (parameters === undefined) {
    failFamily(tool, tool.parametersPointer, "Command R+'s template reads parameters.properties of every tool and this tool has no parameters", undefinedAttribute(new Map(), 'parameters'));
  }
  // `.properties` of a non-mapping is Undefined, and `Undefined|items` is empty
  const properties = jinjaItem(parameters, 'properties');
  if (properties === undefined) return [];
  const propsPointer = childPointer(tool.parametersPointer, 'properties');
  if (!isJsonObject(properties)) {
    failFamily(tool, propsPointer, `Command R+'s template needs parameters.properties to be an object and it is ${jsonTypeOf(properties)}`, new JinjaError('TypeError', 'Can only get item pairs from a mapping.'));
  }
  const required = jinjaItem(parameters, 'required');
  const out: Param[] = [];
  for (const [name, fields] of properties) {
    const pointer = childPointer(propsPointer, name);
    let isRequired: boolean;
    try {
      isRequired = pyContains(required, name);
    } catch (e) {
      if (!(e instanceof JinjaError)) throw e;
      failFamily(tool, childPointer(tool.parametersPointer, 'required'), `Command R+'s template checks each property name against required, which must be a list, and it is ${jsonTypeOf(required)}`, e);
    }
    out.push({ name, fields, pointer, required: isRequired, type: commandRPlusType(tool, fields, pointer) });
  }
  return out;
}

/** `'): ' + param_fields.description`: Undefined raises UndefinedError, a non-string TypeError. */
function paramDescription(tool: ToolDefinition, p: Param): string {
  const d = jinjaItem(p.fields, 'description');
  const at = isJsonObject(p.fields) ? childPointer(p.pointer, 'description') : p.pointer;
  if (d === undefined) {
    if (!isJsonObject(p.fields)) {
      failFamily(tool, at, `Command R+'s template needs every property to be a schema with a description and this one is ${jsonTypeOf(p.fields)}`, undefinedAttribute(p.fields, 'description'));
    }
    failFamily(tool, at, `Command R+'s template needs a description on every property and property ${JSON.stringify(p.name)} has none`, undefinedAttribute(p.fields, 'description'));
  }
  try {
    return pyConcatOperand(d);
  } catch (e) {
    if (!(e instanceof JinjaError)) throw e;
    return failFamily(tool, at, `Command R+'s template adds each property's description to a string and the description of ${JSON.stringify(p.name)} is ${jsonTypeOf(d)}`, e);
  }
}

/** One tool's stub, as the template's `new_tool_parser` writes it. */
export function commandRPlusStub(tool: ToolDefinition): string {
  const ps = params(tool);
  const typeOf = (p: Param): string => (p.required ? p.type : `Optional[${p.type}]`);
  const signature = ps.map((p) => `${p.name}: ${p.required ? p.type : `Optional[${p.type}] = None`}`).join(', ');
  // the Args loop runs after the signature loop: its only new failure is the description
  const args = ps.length ? `\n\n    Args:\n        ${ps.map((p) => `${p.name} (${typeOf(p)}): ${paramDescription(tool, p)}`).join('\n        ')}` : '';
  return `\`\`\`python\ndef ${tool.name}(${signature}) -> List[Dict]:\n    """${jinjaPrint(tool.description)}${args}\n    """\n    pass\n\`\`\``;
}

/** The tools block: the stubs, a blank line between them. */
function toolsBlock(tools: readonly ToolDefinition[]): string {
  return tools.map(commandRPlusStub).join('\n\n');
}

/** The whole prompt as the Command R+ `tool_use` template renders it. */
export function renderCommandRPlusPrompt(tools: readonly ToolDefinition[], options: FamilyPromptOptions = {}): string {
  const messages = familyMessages(options);
  // `messages[0]['role']` of an empty list raises
  if (messages.length === 0) failFamily(undefined, '', "Command R+'s template reads the first message and there is none", undefinedElement([], 0));
  const system = messages[0].role === 'system';
  const loop = system ? messages.slice(1) : messages;
  let out = `${BOS}${PREAMBLE}${system ? messages[0].content : DEFAULT_USER_PREAMBLE}${TOOLS_HEADING}`;
  // `{%- for tool in tools %}` over None (no tools are passed as None) raises TypeError
  if (tools.length === 0) failFamily(undefined, '', "Command R+'s template loops over the tools and there are none: it needs at least one tool", new JinjaError('TypeError', "'NoneType' object is not iterable"));
  out += `${toolsBlock(tools)}<|END_OF_TURN_TOKEN|>`;
  for (const m of loop) {
    const content = pyStrip(m.content);
    if (m.role === 'user') out += `<|START_OF_TURN_TOKEN|><|USER_TOKEN|>${content}<|END_OF_TURN_TOKEN|>`;
    else if (m.role === 'system') out += `<|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|>${content}<|END_OF_TURN_TOKEN|>`;
    else if (m.role === 'assistant') out += `<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>${content}<|END_OF_TURN_TOKEN|>`;
    else if (m.role === 'tool') out += `<|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|><results>\n${content}</results><|END_OF_TURN_TOKEN|>`;
  }
  out += ACTION_INSTRUCTIONS;
  if (options.addGenerationPrompt ?? true) out += '<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>';
  return out;
}

/** Command R+ (c4ai-command-r-plus), `tool_use` template. */
export const COMMAND_R_PLUS: FamilyPrinter = { name: 'command-r-plus', prompt: renderCommandRPlusPrompt };
