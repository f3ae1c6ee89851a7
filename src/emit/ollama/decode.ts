/**
 * A tool as Ollama's Go decoder reads it (api/types.go): the request's tool JSON is decoded
 * into `api.Tool` → `ToolFunction` → `ToolFunctionParameters` → `ToolProperty`. A key with no
 * struct field is gone before anything else sees it; a key is matched to a field
 * case-insensitively (`Type` fills `type`); a field of the wrong JSON type fails the request.
 *
 * The result is the view the template prints, and the findings: `ollama/refused` (Go cannot
 * decode the tool: the request fails), `ollama/dropped-keyword` (no field for the key),
 * `ollama/case-folded-key`, `ollama/not-shown` (kept by Ollama, never printed by its template).
 */
import type { Diagnostic } from '../../diagnostics.js';
import { escapePointerToken, isJsonArray, isJsonNumber, isJsonObject, type JsonObject, type JsonValue } from '../../ir/json.js';
import { goField, goKind } from './gojson.js';
import type { OllamaPropertyView, OllamaToolView, OllamaTypeView } from './types.js';

/** A tool as written, with the fields Ollama's decoder reads (a `ToolDefinition` is one). */
export interface OllamaToolSource {
  readonly name: string;
  /** The description as written (Go needs a string or null). */
  readonly description?: JsonValue;
  /** The parameters schema as written (Go needs an object or null). */
  readonly parameters?: JsonValue;
  /** OpenAI `strict` (Ollama's `ToolFunction` has no field for it). */
  readonly strict?: boolean;
  /** JSON Pointer of the tool in the input document. */
  readonly pointer: string;
  /** JSON Pointer of its parameters schema; the description is its sibling. */
  readonly parametersPointer: string;
}

/** The fields of `ToolFunctionParameters`. */
const PARAMETERS_FIELDS = ['type', '$defs', 'items', 'required', 'properties'] as const;
/** The fields of `ToolProperty`. */
const PROPERTY_FIELDS = ['anyOf', 'type', 'items', 'description', 'enum', 'properties', 'required'] as const;
/** encoding/json's nesting limit (`maxNestingDepth`). */
const GO_MAX_DEPTH = 10000;

/** A decoded tool and what decoding found. */
export interface OllamaDecoded {
  readonly view: OllamaToolView;
  readonly diagnostics: readonly Diagnostic[];
}

/** Decoding state for one tool. */
class Decoder {
  readonly diagnostics: Diagnostic[] = [];
  constructor(readonly tool: string) {}

  refuse(path: string, message: string): void {
    this.diagnostics.push({ code: 'ollama/refused', severity: 'error', tool: this.tool, path, message: `Ollama refuses the request: ${message}` });
  }

  /** Go's UnmarshalTypeError, in Go's words. */
  mismatch(path: string, v: JsonValue, field: string, goType: string): void {
    this.refuse(path, `json: cannot unmarshal ${goKind(v)} into Go struct field ${field} of type ${goType}`);
  }

  dropped(path: string, key: string, where: string): void {
    // info: Ollama's prompt never shows these keys (what it prints is the text); most are ones no gpt-oss layout prints (title, $schema…)
    this.diagnostics.push({
      code: 'ollama/dropped-keyword',
      severity: 'info',
      tool: this.tool,
      path,
      message: `${JSON.stringify(key)} is dropped: Ollama decodes ${where} into a Go struct with no field for it`,
    });
  }

  folded(path: string, key: string, field: string): void {
    this.diagnostics.push({
      code: 'ollama/case-folded-key',
      severity: 'warning',
      tool: this.tool,
      path,
      message: `Ollama reads ${JSON.stringify(key)} as ${JSON.stringify(field)} (Go matches JSON keys to struct fields case-insensitively); JSON Schema does not`,
    });
  }

  notShown(path: string, message: string): void {
    this.diagnostics.push({ code: 'ollama/not-shown', severity: 'info', tool: this.tool, path, message });
  }

  /** The fields of a JSON object as Go fills a struct: the last key for a field wins; dropped and case-folded keys reported. */
  fields<F extends string>(obj: JsonObject, names: readonly F[], path: string, where: string): Map<F, { value: JsonValue; path: string }> {
    const out = new Map<F, { value: JsonValue; path: string }>();
    for (const [key, value] of obj) {
      const p = `${path}/${escapePointerToken(key)}`;
      const m = goField(key, names);
      if (m === undefined) {
        this.dropped(p, key, where);
        continue;
      }
      if (m.folded) this.folded(p, key, m.field);
      out.set(m.field as F, { value, path: p });
    }
    return out;
  }

  /** A Go `string` field: a string, or null (left empty). */
  str(f: { value: JsonValue; path: string } | undefined, field: string): string {
    if (f === undefined || f.value === null) return '';
    if (typeof f.value === 'string') return f.value;
    this.mismatch(f.path, f.value, field, 'string');
    return '';
  }

  /** A Go `[]string` field: strings or nulls (empty strings). */
  strings(f: { value: JsonValue; path: string } | undefined, field: string): string[] | undefined {
    if (f === undefined || f.value === null) return undefined;
    if (!isJsonArray(f.value)) {
      this.mismatch(f.path, f.value, field, '[]string');
      return undefined;
    }
    const out: string[] = [];
    f.value.forEach((s, k) => {
      if (s === null) out.push('');
      else if (typeof s === 'string') out.push(s);
      else this.mismatch(`${f.path}/${k}`, s, field, 'string');
    });
    return out;
  }

  /** `PropertyType.UnmarshalJSON`: a string, else a list of strings; JSON null reads as one empty name. */
  propertyType(f: { value: JsonValue; path: string } | undefined): string[] {
    if (f === undefined) return [];
    const v = f.value;
    if (v === null) return [''];
    if (typeof v === 'string') return [v];
    if (isJsonArray(v)) {
      const out: string[] = [];
      v.forEach((s, k) => {
        if (s === null) out.push('');
        else if (typeof s === 'string') out.push(s);
        else this.refuse(`${f.path}/${k}`, `json: cannot unmarshal ${goKind(s)} into Go value of type string (a type list holds names only)`);
      });
      return out;
    }
    this.refuse(f.path, `json: cannot unmarshal ${goKind(v)} into Go value of type []string (type must be a name or a list of names)`);
    return [];
  }

  /** `*ToolPropertiesMap`: an object (document order kept) of ToolProperty, or null. */
  properties(f: { value: JsonValue; path: string } | undefined, depth: number): { name: string; path: string; prop: DecodedProperty }[] {
    if (f === undefined || f.value === null) return [];
    if (!isJsonObject(f.value)) {
      this.refuse(f.path, `json: cannot unmarshal ${goKind(f.value)} into Go value of type map (properties must be an object)`);
      return [];
    }
    const out: { name: string; path: string; prop: DecodedProperty }[] = [];
    for (const [name, sub] of f.value) {
      const p = `${f.path}/${escapePointerToken(name)}`;
      out.push({ name, path: p, prop: this.property(sub, p, depth + 1) });
    }
    return out;
  }

  /** One `ToolProperty`: an object or null; anything else (a boolean schema included) fails the request. */
  property(v: JsonValue, path: string, depth: number): DecodedProperty {
    const empty: DecodedProperty = { anyOf: [], type: [], description: '', fields: new Set() };
    if (depth > GO_MAX_DEPTH) {
      this.refuse(path, 'exceeded max depth');
      return empty;
    }
    if (v === null) return empty;
    if (!isJsonObject(v)) {
      this.refuse(path, `json: cannot unmarshal ${v === true || v === false ? 'bool' : goKind(v)} into Go value of type api.ToolProperty${typeof v === 'boolean' ? ' (a boolean schema is not read)' : ''}`);
      return empty;
    }
    const f = this.fields(v, PROPERTY_FIELDS, path, 'a property schema');
    const anyOfField = f.get('anyOf');
    const anyOf: DecodedProperty[] = [];
    if (anyOfField !== undefined && anyOfField.value !== null) {
      if (isJsonArray(anyOfField.value)) anyOfField.value.forEach((s, k) => anyOf.push(this.property(s, `${anyOfField.path}/${k}`, depth + 1)));
      else this.mismatch(anyOfField.path, anyOfField.value, 'ToolProperty.anyOf', '[]api.ToolProperty');
    }
    const type = this.propertyType(f.get('type'));
    const description = this.str(f.get('description'), 'ToolProperty.description');
    const en = f.get('enum');
    if (en !== undefined && en.value !== null && !isJsonArray(en.value)) this.mismatch(en.path, en.value, 'ToolProperty.enum', '[]interface {}');
    this.strings(f.get('required'), 'ToolProperty.required');
    const nested = this.properties(f.get('properties'), depth);
    const fields = new Set<string>();
    for (const [name, x] of f) if (x.value !== null && !(isJsonArray(x.value) && x.value.length === 0)) fields.add(name);
    return { anyOf, type, description, fields, paths: f, nested };
  }
}

/** A decoded `ToolProperty`, with which fields it had (for the not-shown findings). */
interface DecodedProperty extends OllamaTypeView {
  readonly anyOf: readonly DecodedProperty[];
  readonly description: string;
  readonly fields: ReadonlySet<string>;
  readonly paths?: ReadonlyMap<string, { value: JsonValue; path: string }>;
  readonly nested?: readonly { name: string; path: string; prop: DecodedProperty }[];
}

/** What the template never prints of a property it lists (or of a nested schema): reported once per place. */
function reportNotShown(d: Decoder, prop: DecodedProperty, top: boolean): void {
  const at = (field: string) => prop.paths?.get(field)?.path ?? '';
  if (!top && prop.fields.has('description')) d.notShown(at('description'), 'this description is not shown: Ollama prints descriptions of top-level properties only');
  if (prop.fields.has('enum')) d.notShown(at('enum'), 'the enum values are not shown: Ollama prints only the type');
  if (prop.fields.has('items')) d.notShown(at('items'), 'the item schema is not shown: Ollama prints an array as any[]');
  if (prop.fields.has('properties')) d.notShown(at('properties'), 'the nested properties are not shown: Ollama prints an object as Record<string, any>');
  if (!top && prop.fields.has('required')) d.notShown(at('required'), 'required is not shown: Ollama prints no nested structure');
  for (const v of prop.anyOf) reportNotShown(d, v, false);
  for (const n of prop.nested ?? []) reportNotShown(d, n.prop, false);
}

/** The JSON Pointer of one of a tool's own fields (`description`, `strict`): beside its parameters. */
function fieldPointer(src: OllamaToolSource, field: string): string {
  const p = src.parametersPointer;
  return `${p.slice(0, p.lastIndexOf('/'))}/${field}`;
}

/** A tool as Ollama's Go decoder reads it, and what the decoding loses or refuses. */
export function decodeOllamaTool(src: OllamaToolSource, label = src.name): OllamaDecoded {
  const d = new Decoder(label);
  const description = d.str(src.description === undefined ? undefined : { value: src.description, path: fieldPointer(src, 'description') }, 'ToolFunction.description');
  if (src.strict !== undefined) d.dropped(fieldPointer(src, 'strict'), 'strict', 'the function');
  const params = src.parameters;
  const base = src.parametersPointer;
  let properties: OllamaPropertyView[] = [];
  if (params !== undefined && params !== null) {
    if (!isJsonObject(params)) {
      d.refuse(base, `json: cannot unmarshal ${goKind(params)} into Go struct field ToolFunction.parameters of type api.ToolFunctionParameters`);
    } else {
      const f = d.fields(params, PARAMETERS_FIELDS, base, 'the parameters schema');
      d.str(f.get('type'), 'ToolFunctionParameters.type');
      const required = d.strings(f.get('required'), 'ToolFunctionParameters.required');
      const defs = f.get('$defs');
      if (defs !== undefined && defs.value !== null) d.notShown(defs.path, 'the $defs are not shown: Ollama resolves no $ref and prints none of them');
      const props = d.properties(f.get('properties'), 0);
      for (const p of props) reportNotShown(d, p.prop, true);
      const optional = props.filter((p) => !(required ?? []).includes(p.name));
      if (optional.length > 0) {
        d.notShown(
          f.get('required')?.path ?? base,
          `Ollama marks no property optional: ${optional.map((p) => JSON.stringify(p.name)).join(', ')} ${optional.length === 1 ? 'reads' : 'read'} as required`,
        );
      }
      properties = props.map((p) => ({ name: p.name, description: p.prop.description, anyOf: p.prop.anyOf, type: p.prop.type }));
    }
  }
  return { view: { name: src.name, description, properties }, diagnostics: d.diagnostics };
}

/** True when a JSON value is a whole number Go can decode into an `int` (no fraction, no exponent, within int64). */
export function isGoInt(v: JsonValue): boolean {
  if (!isJsonNumber(v) || !/^-?(0|[1-9]\d*)$/.test(v.text)) return false;
  const n = BigInt(v.text);
  return n >= -(2n ** 63n) && n < 2n ** 63n;
}
