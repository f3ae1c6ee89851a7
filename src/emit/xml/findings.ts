/**
 * Where an exact dialect prints text a consumer cannot parse back: the templates escape
 * nothing, so a description holding `</tools>` ends the block early, a `<` or `&` breaks the
 * Qwen3-Coder XML, and a value holding `</parameter>` cannot travel in a call.
 */
import type { Diagnostic } from '../../diagnostics.js';
import { isJsonObject, type JsonValue } from '../../ir/json.js';
import { toolFieldPointer, type ToolDefinition } from '../../input/types.js';
import { childPointer } from '../python/errors.js';
import { jinjaItem } from '../python/jinja.js';
import { pyJsonDumps } from '../python/json.js';
import { pyStr } from '../python/values.js';
import { pushAll } from '../../ir/arrays.js';

/** One string printed somewhere, with the JSON Pointer of the value (or of the member, for a key). */
interface PrintedString {
  readonly text: string;
  readonly pointer: string;
}

/** Every string in a value, object keys included. */
function* stringsIn(v: JsonValue, pointer: string): Generator<PrintedString> {
  if (typeof v === 'string') yield { text: v, pointer };
  else if (Array.isArray(v)) for (let i = 0; i < v.length; i++) yield* stringsIn(v[i], childPointer(pointer, i));
  else if (isJsonObject(v)) {
    for (const [k, x] of v) {
      const p = childPointer(pointer, k);
      yield { text: k, pointer: p };
      yield* stringsIn(x, p);
    }
  }
}

/** Keywords whose values a model may have to write back in a call. */
const VALUE_KEYWORDS = new Set(['enum', 'const', 'default', 'examples']);
/** Keywords whose members are named sub-schemas (the names are not keywords). */
const NAMED_SCHEMAS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** Strings inside enum/const/default/examples values anywhere in a schema. */
function* callValuesIn(schema: JsonValue | undefined, pointer: string): Generator<PrintedString> {
  if (Array.isArray(schema)) {
    for (let i = 0; i < schema.length; i++) yield* callValuesIn(schema[i], childPointer(pointer, i));
    return;
  }
  if (!isJsonObject(schema)) return;
  for (const [k, v] of schema) {
    const p = childPointer(pointer, k);
    if (VALUE_KEYWORDS.has(k)) yield* stringsIn(v, p);
    else if (NAMED_SCHEMAS.has(k) && isJsonObject(v)) for (const [name, sub] of v) yield* callValuesIn(sub, childPointer(p, name));
    else yield* callValuesIn(v, p);
  }
}

/** Collects `xml/unparseable` warnings, one per pointer and message. */
export class Findings {
  readonly list: Diagnostic[] = [];
  private readonly seen = new Set<string>();
  /** Add one warning (once). */
  add(tool: ToolDefinition, path: string, message: string): void {
    const key = `${path}\u0000${message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push({ code: 'xml/unparseable', severity: 'warning', tool: tool.name, path, message });
  }
  /** Flag each string holding one of the markers. */
  scan(tool: ToolDefinition, strings: Iterable<PrintedString>, markers: readonly string[], why: (marker: string) => string): void {
    for (const s of strings) {
      const m = markers.find((x) => s.text.includes(x));
      if (m !== undefined) this.add(tool, s.pointer, why(m));
    }
  }
}

/** The name, description and parameters strings of a tool, with their pointers. */
function* toolStrings(tool: ToolDefinition, withParameters: boolean): Generator<PrintedString> {
  yield { text: tool.name, pointer: toolFieldPointer(tool, 'name') };
  if (tool.description !== undefined) yield* stringsIn(tool.description, toolFieldPointer(tool, 'description'));
  if (withParameters && tool.parameters !== undefined) yield* stringsIn(tool.parameters, tool.parametersPointer);
}

/** The tool's own other keys (`strict`, `cache_control`…) and their values, as the qwen dialects print them. */
function* extraStrings(tool: ToolDefinition): Generator<PrintedString> {
  if (tool.extra === undefined) return;
  const name = toolFieldPointer(tool, 'name');
  yield* stringsIn(tool.extra, name.slice(0, name.lastIndexOf('/')));
}

/** `</tool_call>` inside a value: a call carrying it cannot be cut out of `<tool_call>…</tool_call>`. */
function toolCallValues(f: Findings, tool: ToolDefinition): void {
  f.scan(tool, callValuesIn(tool.parameters, tool.parametersPointer), ['</tool_call>'], (m) => `a call carrying this value holds "${m}", which ends the <tool_call> block early`);
}

/** qwen: the JSON line sits inside `<tools>`; JSON does not escape `</tools>`. */
export function qwenFindings(tool: ToolDefinition, f: Findings): void {
  f.scan(tool, [...toolStrings(tool, true), ...extraStrings(tool)], ['</tools>'], (m) => `"${m}" printed inside the tool's JSON line ends the <tools> block early`);
  toolCallValues(f, tool);
}

/** hermes: the raw line sits between `<tools> ` and ` </tools>` (the schema only when properties is non-empty). */
export function hermesFindings(tool: ToolDefinition, f: Findings): void {
  const properties = jinjaItem(tool.parameters, 'properties');
  const schemaPrinted = isJsonObject(properties) && properties.size > 0;
  const strings = [...toolStrings(tool, schemaPrinted)];
  if (!schemaPrinted && isJsonObject(properties)) pushAll(strings, stringsIn(properties, childPointer(tool.parametersPointer, 'properties')));
  f.scan(tool, strings, ['</tools>'], (m) => `"${m}" printed inside the tool's line ends the <tools> block early`);
  toolCallValues(f, tool);
}

/** Characters that cannot stand in an XML tag name the way qwen3-coder prints extra keys (`<KEY>…</KEY>`). */
const BAD_TAG_NAME = /^$|[\s<>/&"'=]/;
/**
 * Tags the catalog and the calls are made of: an extra key printed as one (`<tools>False</tools>`)
 * nests a second element of that name, and a reader that cuts at the first closing tag loses the rest.
 * Not `required` or `description`: the template prints a schema's own `required` (and often a
 * `description`) this way inside `<parameters>`, where nothing mistakes them for structure.
 */
const CATALOG_TAGS = new Set(['tools', 'function', 'functions', 'name', 'parameters', 'parameter', 'type', 'tool_call', 'tool_response', 'IMPORTANT']);

/** qwen3-coder: XML text printed unescaped, keys as tag names, names in `<function=…>` / `<parameter=…>`, values in calls. */
export function qwen3CoderFindings(tool: ToolDefinition, f: Findings): void {
  const xmlText = (strings: Iterable<PrintedString>, where: string) =>
    f.scan(tool, strings, ['<', '&'], (m) => `"${m}" printed unescaped inside <${where}> breaks the XML catalog`);
  const extraKeys = (dict: JsonValue | undefined, handled: readonly string[], pointer: string) => {
    if (!isJsonObject(dict)) return;
    for (const [k, v] of dict) {
      if (handled.includes(k)) continue;
      const p = childPointer(pointer, k);
      if (BAD_TAG_NAME.test(k)) f.add(tool, p, `the key ${JSON.stringify(k)} is printed as a tag name <${k}> and is not one an XML reader accepts`);
      else if (CATALOG_TAGS.has(k)) f.add(tool, p, `the key ${JSON.stringify(k)} is printed as <${k}>…</${k}>, a tag the catalog itself is made of, so a reader cannot tell it from the catalog's own`);
      // containers print as JSON (keys included), scalars via str(): a string is its own text
      if (isJsonObject(v) || Array.isArray(v)) {
        if (/[<&]/.test(pyJsonDumps(v))) xmlText(stringsIn(v, p), k);
      } else xmlText([{ text: pyStr(v), pointer: p }], k);
    }
  };
  const callName = (text: string, pointer: string, tag: string) => {
    if (/[>\n]/.test(text)) f.add(tool, pointer, `${JSON.stringify(text)} cannot be written in <${tag}=…> (it holds ">" or a line break)`);
  };
  const namePointer = toolFieldPointer(tool, 'name');
  xmlText([{ text: tool.name, pointer: namePointer }], 'name');
  callName(tool.name, namePointer, 'function');
  if (tool.description !== undefined) xmlText([{ text: pyStr(tool.description), pointer: toolFieldPointer(tool, 'description') }], 'description');
  const params = tool.parameters;
  const properties = jinjaItem(params, 'properties');
  const propsPointer = childPointer(tool.parametersPointer, 'properties');
  if (isJsonObject(params) && isJsonObject(properties)) {
    for (const [name, fields] of properties) {
      const p = childPointer(propsPointer, name);
      xmlText([{ text: name, pointer: p }], 'name');
      callName(name, p, 'parameter');
      const type = jinjaItem(fields, 'type');
      if (type !== undefined) xmlText([{ text: pyStr(type), pointer: childPointer(p, 'type') }], 'type');
      const description = jinjaItem(fields, 'description');
      if (description !== undefined) xmlText([{ text: pyStr(description), pointer: childPointer(p, 'description') }], 'description');
      extraKeys(fields, ['name', 'type', 'description'], p);
    }
  }
  extraKeys(params, ['type', 'properties'], tool.parametersPointer);
  // the tool's own other keys (`strict`, `cache_control`…) are printed the same way, after the parameters
  if (tool.extra !== undefined) extraKeys(tool.extra, [], namePointer.slice(0, namePointer.lastIndexOf('/')));
  f.scan(tool, callValuesIn(params, tool.parametersPointer), ['</parameter>', '</function>', '</tool_call>'], (m) => `a call carrying this value holds "${m}", which closes the call's markup early`);
}

/** anthropic: the JSON sits inside `<function>…</function>`; values are written literally in `<parameter name="…">`. */
export function anthropicFindings(tool: ToolDefinition, f: Findings): void {
  f.scan(tool, toolStrings(tool, true), ['</function>', '</functions>'], (m) => `"${m}" printed inside the <function> JSON ends the element early`);
  if (tool.name.includes('"')) f.add(tool, toolFieldPointer(tool, 'name'), `the name cannot be written in <invoke name="…"> (it holds a double quote)`);
  const properties = jinjaItem(tool.parameters, 'properties');
  if (isJsonObject(properties)) {
    for (const name of properties.keys()) {
      if (name.includes('"')) f.add(tool, childPointer(childPointer(tool.parametersPointer, 'properties'), name), `the parameter name cannot be written in <parameter name="…"> (it holds a double quote)`);
    }
  }
  f.scan(tool, callValuesIn(tool.parameters, tool.parametersPointer), ['</parameter>', '</invoke>', '</function_calls>'], (m) => `a call carrying this value holds "${m}", which closes the call's markup early (values are written literally)`);
}

/** Run one dialect's checks over every tool. */
export function collectFindings(tools: readonly ToolDefinition[], check: (tool: ToolDefinition, f: Findings) => void): Diagnostic[] {
  const f = new Findings();
  for (const t of tools) check(t, f);
  return f.list;
}
