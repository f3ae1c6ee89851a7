/**
 * `functionary-3.2`: MeetKai's Functionary medium v3.2 chat template, a TypeScript namespace
 * (`// description⏎type name = (_: {⏎…}) => any;`) written by Jinja macros from the raw
 * schema. Close to Harmony's, but every value prints as Python's `str()` (`True`, `None`,
 * `{'a': 1}`, `1e+16`), nothing is escaped, and its macros raise on several malformed schemas;
 * this module follows the template's macros one for one, with their Python semantics.
 */
import { isJsonArray, isJsonObject, type JsonValue } from '../../ir/json.js';
import { toolFieldPointer, type ToolDefinition } from '../../input/types.js';
import { childPointer, failAt, failingAt, pyAddError, pyAddString, undefinedAttribute } from '../python/errors.js';
import { jinjaIsIterable, jinjaItem, jinjaIterate, jinjaUnique, pyContains, pyLen, type JinjaValue } from '../python/jinja.js';
import { pyStrip } from '../python/strings.js';
import { pyEquals, pyGet, pyStr, pyTruthy, pyType } from '../python/values.js';
import { templateFunction } from '../xml/template.js';
import { familyMessages, perTool } from './common.js';
import type { FamilyMessage, FamilyPrinter, FamilyPromptOptions } from './types.js';

const FAMILY = 'Functionary v3.2';
/** The template's marker for "no comment line" (`"<|NONE|>"`). */
const NONE = '<|NONE|>';

/** The system text before the namespace. */
const SYSTEM_HEAD =
  'You are capable of executing available function(s) if required.\nOnly execute function(s) when absolutely necessary.\nAsk for the required input to:recipient==all\nUse JSON for function arguments.\nRespond in this format:\n>>>${recipient}\n${content}\nAvailable functions:\n';

const EMPTY_OBJECT: JsonValue = new Map();
const EMPTY_LIST: JsonValue = [];

/** `"    " * depth`. */
function indent(depth: number): string {
  return '    '.repeat(depth);
}

/** `key in container` with the pointer of the container when Python refuses (`argument of type 'bool' is not iterable`). */
function contains(container: JsonValue, key: string, pointer: string, what: string): boolean {
  return failingAt(pointer, `${what} is ${describe(container)}, and the template tests \`"${key}" in\` it`, () => pyContains(container, key));
}

/** A value's Python type, in words for reasons. */
function describe(v: JinjaValue): string {
  return v === undefined ? 'missing' : `a Python ${pyType(v)}`;
}

/** `convert_data_type`: `integer` and `float` print as `number`, anything else as `str()` of it. */
function convertDataType(t: JsonValue): string {
  return t === 'integer' || t === 'float' ? 'number' : pyStr(t);
}

/** `|join(" | ")`: `str()` of each member a `for` loop sees (a dict's keys; Undefined is empty). */
function joinPipe(v: JinjaValue): string {
  return jinjaIterate(v).map(pyStr).join(' | ');
}

/**
 * `get_param_type`: `type` joined with ` | ` when it is a list (or any iterable but a str),
 * else the `oneOf` variants' distinct `type`s (Jinja's case-insensitive `unique`), else empty text
 * (the template sets "any" but never prints it).
 */
function paramType(param: JsonValue, pointer: string): string {
  if (contains(param, 'type', pointer, 'the schema')) {
    const raw = jinjaItem(param, 'type');
    // a list (or dict) type is joined; a str, number, bool or null prints as itself
    if (typeof raw === 'string') return convertDataType(raw);
    if (jinjaIsIterable(raw)) return convertDataType(joinPipe(raw));
    return convertDataType(raw as JsonValue);
  }
  if (contains(param, 'oneOf', pointer, 'the schema')) {
    const oneOf = jinjaItem(param, 'oneOf');
    const p = childPointer(pointer, 'oneOf');
    // `selectattr` and `map` skip a falsy sequence; a truthy one that cannot be iterated raises
    const variants = pyTruthy(oneOf) ? failingAt(p, `\`oneOf\` is ${describe(oneOf)}, which cannot be iterated`, () => jinjaIterate(oneOf)) : [];
    const types = variants.map((v) => jinjaItem(v, 'type')).filter((t): t is JsonValue => t !== undefined);
    const unique = failingAt(p, 'a `oneOf` variant has a list or object `type`, which Jinja\'s `unique` cannot hash', () => jinjaUnique(types));
    return convertDataType(unique.map(pyStr).join(' | '));
  }
  return '';
}

/** `get_format_param`: `format` as `str()`, else the `oneOf` variants' formats (`a or b`, a match with the last variant's ends it), else `<|NONE|>`. */
function formatParam(param: JsonValue, pointer: string): string {
  if (contains(param, 'format', pointer, 'the schema')) return pyStr(jinjaItem(param, 'format') as JsonValue);
  if (!contains(param, 'oneOf', pointer, 'the schema')) return NONE;
  const oneOf = jinjaItem(param, 'oneOf') as JsonValue;
  const p = childPointer(pointer, 'oneOf');
  const variants = failingAt(p, `\`oneOf\` is ${describe(oneOf)}, which cannot be iterated`, () => jinjaIterate(oneOf));
  const last = jinjaItem(oneOf, -1);
  let out = '';
  variants.forEach((item, i) => {
    const ip = isJsonArray(oneOf) ? childPointer(p, i) : p;
    if (!contains(item, 'format', ip, 'a `oneOf` variant')) return;
    const format = jinjaItem(item, 'format');
    if (format === undefined) return;
    // `item["format"] == param["oneOf"][-1]["format"]`: the same format as the last variant's prints alone
    if (pyEquals(format, jinjaItem(last, 'format'))) out += pyStr(format);
    else out += failingAt(childPointer(ip, 'format'), `the variant's \`format\` is ${describe(format)}, and the template adds " or " to it`, () => pyAddString(format, ' or '));
  });
  return out;
}

/** `get_param_info`: the `// description. Default=… Format=… Maximum=…` comment, or `<|NONE|>` when none of those keys is there. */
function paramInfo(param: JsonValue, pointer: string): string {
  const declaredType = pyGet(param, 'type', 'any');
  const format = formatParam(param, pointer);
  const has = (k: string) => isJsonObject(param) && param.has(k);
  const shown = has('description') || has('default') || format !== NONE || ['maximum', 'minimum', 'maxLength', 'minLength'].some((k) => pyTruthy(jinjaItem(param, k)));
  if (!shown) return NONE;
  let out = '//';
  if (has('description')) {
    let desc = jinjaItem(param, 'description') as JsonValue;
    // `desc.endswith(".")`: a description that is not a str has no `endswith`
    if (typeof desc !== 'string') {
      failAt(childPointer(pointer, 'description'), `the property description is ${describe(desc)}, and the template calls its .endswith()`, undefinedAttribute(desc, 'endswith'));
    }
    // a `.` is appended to descriptions that lack one
    if (!desc.endsWith('.')) desc = `${desc}.`;
    out += ` ${desc}`;
  }
  if (has('default')) {
    const value = jinjaItem(param, 'default') as JsonValue;
    // only a `type` that is exactly "string" quotes the default (no escaping inside)
    const text = declaredType === 'string' ? `"${pyStr(value)}"` : pyStr(value);
    out += ` Default=${text}.`;
  }
  if (format !== NONE) out += ` Format=${format}`;
  for (const [field, label] of [
    ['maximum', 'Maximum'],
    ['minimum', 'Minimum'],
    ['maxLength', 'Maximum length'],
    ['minLength', 'Minimum length'],
  ]) {
    if (has(field)) out += ` ${label}=${pyStr(jinjaItem(param, field) as JsonValue)}`;
  }
  return out;
}

/** `get_enum_option_str`: strings quoted raw, others as `str()`, ` | ` after each value that differs (Python `!=`) from the last. */
function enumOptions(options: JinjaValue, pointer: string): string {
  const values = failingAt(pointer, `\`enum\` is ${describe(options)}, which cannot be iterated`, () => jinjaIterate(options));
  const last = jinjaItem(options, -1);
  let out = '';
  for (const v of values) {
    out += typeof v === 'string' ? `"${v}"` : pyStr(v);
    // `v != enum_options[-1]`: a value equal to the last one (a duplicate, `1` vs `true`) gets no separator
    if (values.length > 0 && !pyEquals(v, last)) out += ' | ';
  }
  return out;
}

/** `example|string|replace("'", '"')`: Python's str() with every single quote turned double. */
function exampleLine(offset: string, example: JsonValue): string {
  return `\n${offset}// ${pyStr(example).replace(/'/g, '"')}`;
}

/** `append_new_param_info`: the comment and (only with a comment) the examples, then the declaration. */
function appendNewParamInfo(declaration: string, comment: string, examples: readonly JsonValue[], depth: number): string {
  const offset = indent(depth);
  let out = '';
  if (comment !== NONE) {
    out += `\n${offset}${comment}`;
    for (const e of examples) out += exampleLine(offset, e);
  }
  return `${out}\n${offset}${declaration}`;
}

/** The comment and examples the object and array branches print (examples even without a comment). */
function commentAndExamples(comment: string, examples: readonly JsonValue[], depth: number): string {
  const offset = indent(depth);
  let out = comment !== NONE ? `\n${offset}${comment}` : '';
  for (const e of examples) out += exampleLine(offset, e);
  return out;
}

/** `get_array_typescript`: an array's items as `name: T[]`, `{…}[]`, `(enum)[]` or nested `T[][]`. */
function arrayTypescript(name: string | null, dict: JsonValue, depth: number, pointer: string): string {
  const offset = indent(depth);
  const items = pyGet(dict, 'items', EMPTY_OBJECT);
  const ip = childPointer(pointer, 'items');
  if (failingAt(ip, `\`items\` is ${describe(items)}, and the template takes its length`, () => pyLen(items)) === 0) {
    return name ? `\n${offset}${name}: []` : `\n${offset}[]`;
  }
  const type = paramType(items, ip);
  if (type === 'object') {
    let out = name ? `\n${offset}${name}: {` : `\n${offset}{`;
    out += parameterTypescript(pyGet(items, 'properties', EMPTY_OBJECT), pyGet(items, 'required', EMPTY_LIST), depth + 1, childPointer(ip, 'properties'));
    return `${out}\n${offset}}[]`;
  }
  if (type === 'array') {
    const inner = arrayTypescript(null, items, depth + 1, ip);
    // nested arrays: the inner text is trimmed only when there is a name
    return name ? `\n${offset}${name}: ${pyStrip(inner)}[]` : `\n${inner}[]`;
  }
  if (contains(items, 'enum', ip, '`items`')) {
    const options = enumOptions(jinjaItem(items, 'enum'), childPointer(ip, 'enum'));
    return name === null ? `(${options})[]` : `\n${offset}${name}: (${options})[]`;
  }
  return name === null ? `\n${type}[]` : `\n${offset}${name}: ${type}[],`;
}

/** `get_parameter_typescript`: one declaration per property that is an object, in key order. */
function parameterTypescript(properties: JsonValue, required: JsonValue, depth: number, pointer: string): string {
  // `properties.items()`: only a dict has it
  if (!isJsonObject(properties)) {
    failAt(pointer, `\`properties\` is ${describe(properties)}, not an object of schemas`, undefinedAttribute(properties, 'items'));
  }
  let out = '';
  for (const [name, param] of properties) {
    if (!isJsonObject(param)) continue;
    const p = childPointer(pointer, name);
    const comment = paramInfo(param, p);
    let examples: JsonValue[] = [];
    if (param.has('examples')) {
      const ex = param.get('examples') as JsonValue;
      // `["Example " + name + ":"] + param["examples"]`: only a list can be added to a list
      if (!isJsonArray(ex)) failAt(childPointer(p, 'examples'), `\`examples\` is ${describe(ex)}, and the template adds it to a list`, pyAddError(EMPTY_LIST, ex));
      examples = [`Example ${name}:`, ...ex];
    }
    let declaration = name;
    // `required is iterable and name not in required`: a str required is a substring test, a non-iterable one makes everything required
    if (jinjaIsIterable(required) && !pyContains(required, name)) declaration += '?';
    const type = paramType(param, p);
    const offset = indent(depth);
    if (type === 'object') {
      out += commentAndExamples(comment, examples, depth);
      out += `\n${offset}${declaration}: {`;
      out += parameterTypescript(pyGet(param, 'properties', EMPTY_OBJECT), pyGet(param, 'required', EMPTY_LIST), depth + 1, childPointer(p, 'properties'));
      out += `\n${offset}},`;
    } else if (type === 'array') {
      const items = pyGet(param, 'items', EMPTY_OBJECT);
      if (!contains(items, 'type', childPointer(p, 'items'), '`items`')) {
        out += appendNewParamInfo(`${declaration}: [],`, comment, examples, depth);
      } else {
        out += commentAndExamples(comment, examples, depth);
        let decl = arrayTypescript(declaration, param, depth, p);
        if (!decl.endsWith(',')) decl += ',';
        out += decl;
      }
    } else {
      let shown = type;
      if (param.has('enum')) shown = enumOptions(param.get('enum'), childPointer(p, 'enum'));
      if (param.has('nullable') && pyTruthy(param.get('nullable'))) shown += ' | null';
      out += appendNewParamInfo(`${declaration}: ${shown},`, comment, examples, depth);
    }
  }
  return out;
}

/** One tool: `// description⏎type name = (_: {…⏎}) => any;⏎⏎`, or `() => any;` without truthy properties; nothing for an empty name. */
function functionText(tool: ToolDefinition): string {
  const fn = templateFunction(tool);
  // `if function_name`: a tool whose name is empty is left out
  if (!pyTruthy(fn.get('name'))) return '';
  const description = pyGet(fn, 'description', '');
  const descPointer = toolFieldPointer(tool, 'description');
  if (typeof description !== 'string') failAt(descPointer, `the tool description is ${describe(description)}, and the template adds it to a string`, pyAddError('', description));
  let out = `// ${description}\n`;
  out += `type ${tool.name}`;
  const parameters = pyGet(fn, 'parameters', EMPTY_OBJECT);
  if (pyTruthy(parameters)) {
    // `parameters.get("properties")`: only a dict has .get
    if (!isJsonObject(parameters)) {
      failAt(tool.parametersPointer, `the parameters are ${describe(parameters)}, not a schema object`, undefinedAttribute(parameters, 'get'));
    }
    const properties = parameters.get('properties');
    if (pyTruthy(properties)) {
      const body = parameterTypescript(properties as JsonValue, pyGet(parameters, 'required', EMPTY_LIST), 0, childPointer(tool.parametersPointer, 'properties'));
      return `${out} = (_: {${body}\n}) => any;\n\n`;
    }
  }
  return `${out} = () => any;\n\n`;
}

/** `generate_schema_from_functions(tools)`: the namespace, with or without tools. */
function namespaceText(tools: readonly ToolDefinition[]): string {
  const body = perTool(FAMILY, tools, functionText).join('');
  return `// Supported function definitions that should be called when necessary.\nnamespace functions {\n\n${body}} // namespace functions`;
}

/** One turn: user, system and tool print their text; any other role is an assistant turn, its text after `>>>all\n`. */
function turn(m: FamilyMessage): string {
  const head = `<|start_header_id|>${m.role}<|end_header_id|>\n\n`;
  if (m.role === 'user' || m.role === 'system' || m.role === 'tool') return `${head}${m.content}<|eot_id|>`;
  return `${head}${m.content ? `>>>all\n${m.content}` : ''}<|eot_id|>`;
}

/** The whole prompt: the system turn with the namespace (printed even without tools), then the turns. */
function render(tools: readonly ToolDefinition[], options: FamilyPromptOptions): string {
  const messages = familyMessages(options);
  // the system turn and the namespace are printed even without tools
  let text = `<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n${SYSTEM_HEAD}${namespaceText(tools)}<|eot_id|>`;
  for (const m of messages) text += turn(m);
  if (options.addGenerationPrompt ?? true) text += '<|start_header_id|>assistant<|end_header_id|>\n\n>>>';
  return text;
}

/** The Functionary v3.2 printer. */
export const FUNCTIONARY_32: FamilyPrinter = { name: 'functionary-3.2', prompt: render };
