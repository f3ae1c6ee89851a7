/**
 * `gemma-4`: Google's Gemma 4 chat template (gemma-4-31B-it, April 2026 revision). Tools are
 * declarations in Gemma's own syntax inside the system turn,
 * `<|tool>declaration:NAME{description:<|"|>…<|"|>,parameters:{properties:{…},required:[…],type:<|"|>OBJECT<|"|>}}<tool|>`:
 * keys unquoted and sorted (`dictsort`, case-insensitive), types upper-cased, strings between
 * `<|"|>` markers with no escaping; defaults, examples, titles and constraints are dropped.
 */
import { isJsonArray, isJsonObject, type JsonValue } from '../../ir/json.js';
import type { ToolDefinition } from '../../input/types.js';
import { childPointer, failingAt, undefinedElement } from '../python/errors.js';
import { jinjaDictsort, jinjaItem, jinjaIterate, jinjaPrint, jinjaUpper, type JinjaValue } from '../python/jinja.js';
import { pyStrip } from '../python/strings.js';
import { pyTruthy } from '../python/values.js';
import { templateFunction } from '../xml/template.js';
import { failPrompt, familyMessages, perTool } from './common.js';
import type { FamilyMessage, FamilyPrinter, FamilyPromptOptions } from './types.js';

const FAMILY = 'Gemma 4';
/** Gemma's string delimiter: strings print between two of them, unescaped. */
const Q = '<|"|>';
/** Property names `format_parameters` skips (it takes them for schema keywords). */
const STANDARD_KEYS = ['description', 'type', 'properties', 'required', 'nullable'];

/** A plain reason for a TypeError of a `for` loop over what cannot be iterated. */
function loopOver(pointer: string, v: JinjaValue, what: string): JsonValue[] {
  return failingAt(pointer, `${what} is not a list, and the template loops over it`, () => jinjaIterate(v));
}

/** `format_argument`: strings between markers, booleans `true`/`false`, dicts sorted (keys quoted unless told), lists `[a,b]`, the rest as str(). */
function formatArgument(v: JinjaValue, escapeKeys = true): string {
  if (typeof v === 'string') return Q + v + Q;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (isJsonObject(v)) return `{${jinjaDictsort(v).map(([k, x]) => `${escapeKeys ? Q + k + Q : k}:${formatArgument(x, escapeKeys)}`).join(',')}}`;
  if (isJsonArray(v)) return `[${v.map((x) => formatArgument(x, escapeKeys)).join(',')}]`;
  return jinjaPrint(v);
}

/** `required:[<|"|>a<|"|>,…]` over whatever a `for` loop sees in the value (a str's characters, a dict's keys). */
function requiredList(v: JinjaValue, pointer: string): string {
  return `required:[${loopOver(pointer, v, '`required`')
    .map((item) => Q + jinjaPrint(item) + Q)
    .join(',')}]`;
}

/** The `items:{…}` of an ARRAY property: its members sorted, null members left out, each in its own way. */
function itemsText(items: JsonValue, pointer: string): string {
  const parts: string[] = [];
  for (const [key, value] of jinjaDictsort(items)) {
    if (value === null) continue;
    const p = childPointer(pointer, key);
    if (key === 'properties') parts.push(`properties:{${isJsonObject(value) ? formatParameters(value, p) : ''}}`);
    else if (key === 'required') parts.push(requiredList(value, p));
    else if (key === 'type') {
      // a type list is upper-cased member by member (`map('upper')`)
      parts.push(`type:${typeof value === 'string' ? formatArgument(jinjaUpper(value)) : formatArgument(loopOver(p, value, '`type`').map(jinjaUpper))}`);
    } else parts.push(`${key}:${formatArgument(value)}`);
  }
  return `items:{${parts.join(',')}}`;
}

/** One property `name:{description:…,enum:…,items:…,nullable:true,properties:…,required:…,type:<|"|>T<|"|>}` (only the keys the template knows). */
function propertyText(value: JsonValue, pointer: string): string {
  const parts: string[] = [];
  const description = jinjaItem(value, 'description');
  if (pyTruthy(description)) parts.push(`description:${Q}${jinjaPrint(description)}${Q}`);
  const type = jinjaUpper(jinjaItem(value, 'type'));
  if (type === 'STRING') {
    // `enum` is printed for STRING properties only
    const values = jinjaItem(value, 'enum');
    if (pyTruthy(values)) parts.push(`enum:${formatArgument(values)}`);
  } else if (type === 'ARRAY') {
    const items = jinjaItem(value, 'items');
    if (isJsonObject(items) && items.size > 0) parts.push(itemsText(items, childPointer(pointer, 'items')));
  }
  if (pyTruthy(jinjaItem(value, 'nullable'))) parts.push('nullable:true');
  if (type === 'OBJECT') {
    const properties = jinjaItem(value, 'properties');
    // an OBJECT without a properties dict lists the schema's own keys as if they were properties
    if (isJsonObject(properties)) parts.push(`properties:{${formatParameters(properties, childPointer(pointer, 'properties'))}}`);
    else if (isJsonObject(value)) parts.push(`properties:{${formatParameters(value, pointer)}}`);
    const required = jinjaItem(value, 'required');
    if (pyTruthy(required)) parts.push(requiredList(required, childPointer(pointer, 'required')));
  }
  parts.push(`type:${Q}${type}${Q}`);
  return `{${parts.join(',')}}`;
}

/** `format_parameters`: the properties sorted by name (case-insensitive), standard keyword names skipped. */
function formatParameters(properties: JsonValue, pointer: string): string {
  const entries = failingAt(pointer, '`properties` is not an object, and the template sorts its items', () => jinjaDictsort(properties));
  return entries
    .filter(([key]) => !STANDARD_KEYS.includes(key))
    .map(([key, value]) => `${key}:${propertyText(value, childPointer(pointer, key))}`)
    .join(',');
}

/** `format_function_declaration`: `declaration:NAME{description:…,parameters:{…},response:{…}}` (the unclosed `parameters:{` without a type kept). */
function declaration(tool: ToolDefinition): string {
  const fn = templateFunction(tool);
  let out = `declaration:${jinjaPrint(fn.get('name'))}{description:${Q}${jinjaPrint(fn.get('description'))}${Q}`;
  const params = fn.get('parameters');
  const pp = tool.parametersPointer;
  if (pyTruthy(params)) {
    out += ',parameters:{';
    const properties = jinjaItem(params, 'properties');
    if (pyTruthy(properties)) out += `properties:{${formatParameters(properties as JsonValue, childPointer(pp, 'properties'))}},`;
    const required = jinjaItem(params, 'required');
    if (pyTruthy(required)) out += `${requiredList(required, childPointer(pp, 'required'))},`;
    // the `}` closing parameters is printed only with a truthy type
    const type = jinjaItem(params, 'type');
    if (pyTruthy(type)) out += `type:${Q}${jinjaUpper(type)}${Q}}`;
  }
  if (fn.has('response')) {
    const response = fn.get('response');
    out += ',response:{';
    const description = jinjaItem(response, 'description');
    if (pyTruthy(description)) out += `description:${Q}${jinjaPrint(description)}${Q},`;
    const type = jinjaUpper(jinjaItem(response, 'type'));
    if (type === 'OBJECT') out += `type:${Q}${type}${Q}}`;
  }
  // `| trim` of the macro's output
  return pyStrip(`${out}}`);
}

/** The `<|tool>…<tool|>` declarations, one per tool, as the system turn holds them. */
function catalogText(tools: readonly ToolDefinition[]): string {
  return perTool(FAMILY, tools, (t) => `<|tool>${declaration(t)}<tool|>`).join('');
}

/** `strip_thinking`: an assistant text without its `<|channel>…<channel|>` parts, trimmed. */
function stripThinking(text: string): string {
  let out = '';
  for (const part of text.split('<channel|>')) out += part.includes('<|channel>') ? part.split('<|channel>')[0] : part;
  return pyStrip(out);
}

/** The whole prompt: a system turn when there are tools or a first system/developer message, then the turns. */
function render(tools: readonly ToolDefinition[], options: FamilyPromptOptions): string {
  let messages: FamilyMessage[] = familyMessages(options);
  // `messages[0]['role']` is read whatever else is given
  if (messages.length === 0) failPrompt(FAMILY, '', 'there are no messages, and the template reads messages[0]', undefinedElement([], 0));
  let text = '<bos>';
  const first = messages[0].role;
  const system = first === 'system' || first === 'developer';
  // a system turn when there are tools or the first message is system/developer (enable_thinking is never passed)
  if (tools.length > 0 || system) {
    text += '<|turn>system\n';
    if (system) {
      text += pyStrip(messages[0].content);
      messages = messages.slice(1);
    }
    text += `${catalogText(tools)}<turn|>\n`;
  }
  let previous: string | undefined;
  for (const m of messages) {
    // tool results are only printed after an assistant's tool calls, which FamilyMessage has none of
    if (m.role === 'tool') continue;
    const role = m.role === 'assistant' ? 'model' : m.role;
    // an assistant message right after another (tool messages between them ignored) continues the same model turn
    if (!(role === 'model' && previous === 'assistant')) text += `<|turn>${role}\n`;
    text += role === 'model' ? stripThinking(m.content) : pyStrip(m.content);
    text += '<turn|>\n';
    previous = m.role;
  }
  if (options.addGenerationPrompt ?? true) text += '<|turn>model\n<|channel>thought\n<channel|>';
  return text;
}

/** The Gemma 4 printer. */
export const GEMMA_4: FamilyPrinter = { name: 'gemma-4', prompt: render };
