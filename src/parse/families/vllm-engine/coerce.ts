/**
 * The schema-aware type correction of vLLM's parser engine (`vllm/parser/engine/parser_engine.py`
 * `_fix_arg_types`, `_coerce_dict`, `_coerce_value`, with `vllm/tool_parsers/utils.py`
 * `extract_types_from_schema`, `coerce_to_schema_type`, `find_tool_properties`) at commit
 * 93e3bc8f30b1e135b88a2ffc7f219e3428d39293, on the Python values of the shared value layer.
 *
 * - the arguments JSON goes through `json.loads`; not an object, no tools, or a tool without
 *   `properties` → returned unchanged (byte for byte)
 * - a string value is coerced to its property's types by priority null > integer > number >
 *   boolean > object > array > string, then a last `json.loads`; a value is "changed" when the
 *   coercion returned another object than the string itself (Python's `is not`)
 * - a nested object is coerced with its schema's `properties`, an array item by item with `items`
 * - a non-string scalar is re-coerced from its `json.dumps` and changed when the type or value
 *   differs (`True` in a string property becomes `"true"`)
 * - anything changed → `json.dumps(args, ensure_ascii=False)` of the whole object, else the
 *   original text
 */
import { isJsonArray, isJsonObject, JsonNumber, type JsonObject, type JsonValue } from '../../../ir/json.js';
import { PyDict, PythonException, pyFloat, pyInt, pyStrip, pythonFloatOf, pythonIntOf, pythonJsonDumps, pythonJsonLoads, type PyValue } from '../../xml/python-values.js';
import { findTool, type ParseTool } from '../../xml/tools.js';

/** `extract_types_from_schema`: every type a schema allows (`type`, enum values' types, anyOf/oneOf/allOf), `["string"]` when none. */
export function extractTypesFromSchema(schema: JsonValue | undefined): string[] {
  if (!isJsonObject(schema)) return ['string'];
  const types = new Set<string>();
  const type = schema.get('type');
  if (typeof type === 'string') types.add(type);
  else if (isJsonArray(type)) for (const t of type) if (typeof t === 'string') types.add(t);
  const en = schema.get('enum');
  if (isJsonArray(en) && en.length > 0) {
    for (const v of en) {
      if (v === null) types.add('null');
      else if (typeof v === 'boolean') types.add('boolean');
      else if (v instanceof JsonNumber) types.add(/[.eE]/.test(v.text) ? 'number' : 'integer');
      else if (typeof v === 'string') types.add('string');
      else if (isJsonArray(v)) types.add('array');
      else types.add('object');
    }
  }
  for (const field of ['anyOf', 'oneOf', 'allOf']) {
    const choices = schema.get(field);
    if (isJsonArray(choices)) for (const c of choices) for (const t of extractTypesFromSchema(c)) types.add(t);
  }
  return types.size > 0 ? [...types] : ['string'];
}

const TYPE_ALIASES: Readonly<Record<string, string>> = {
  str: 'string',
  text: 'string',
  varchar: 'string',
  char: 'string',
  enum: 'string',
  int: 'integer',
  int32: 'integer',
  int64: 'integer',
  uint: 'integer',
  uint32: 'integer',
  uint64: 'integer',
  long: 'integer',
  short: 'integer',
  unsigned: 'integer',
  float: 'number',
  float32: 'number',
  float64: 'number',
  double: 'number',
  bool: 'boolean',
  dict: 'object',
  arr: 'array',
  list: 'array',
  sequence: 'array',
};

/** Python's `json.dumps(obj, allow_nan=False)` succeeds: no nan or ±inf float anywhere. */
function isJsonFinite(v: PyValue): boolean {
  if (v === null || typeof v !== 'object') return true;
  if (v instanceof PyDict) {
    for (const [, x] of v.entries()) if (!isJsonFinite(x)) return false;
    return true;
  }
  if (v.t === 'float') return Number.isFinite(v.v);
  if (v.t === 'list' || v.t === 'tuple') return v.items.every(isJsonFinite);
  return true;
}

/** `json.loads` that gives undefined where vLLM's `except (JSONDecodeError, ValueError)` catches (RecursionError goes on). */
function loadsOrUndefined(text: string): PyValue | undefined {
  try {
    return pythonJsonLoads(text);
  } catch (e) {
    if (e instanceof PythonException && e.isA('ValueError')) return undefined;
    throw e;
  }
}

/** `coerce_to_schema_type(value, types)`: the coerced value and whether it is the very string given (`same`). */
export function coerceToSchemaType(value: string, types: readonly string[]): { value: PyValue; same: boolean } {
  const normalized = new Set(types.map((t) => {
    const k = pyStrip(t).toLowerCase();
    return TYPE_ALIASES[k] ?? k;
  }));
  for (const candidate of ['null', 'integer', 'number', 'boolean', 'object', 'array', 'string']) {
    if (!normalized.has(candidate)) continue;
    switch (candidate) {
      case 'null':
        if (value.toLowerCase() === 'null') return { value: null, same: false };
        continue;
      case 'string':
        return { value, same: true };
      case 'integer':
        try {
          return { value: pyInt(pythonIntOf(value)), same: false };
        } catch (e) {
          if (e instanceof PythonException && e.isA('ValueError')) continue;
          throw e;
        }
      case 'number': {
        let f: number;
        try {
          f = pythonFloatOf(value);
        } catch (e) {
          if (e instanceof PythonException && e.isA('ValueError')) continue;
          throw e;
        }
        if (!Number.isFinite(f)) continue;
        return { value: Number.isInteger(f) ? pyInt(BigInt(f)) : pyFloat(f), same: false };
      }
      case 'boolean': {
        const low = pyStrip(value.toLowerCase());
        if (low === 'true' || low === '1') return { value: true, same: false };
        if (low === 'false' || low === '0') return { value: false, same: false };
        continue;
      }
      default: {
        // object / array: json.loads, whatever it gives, when finite
        const parsed = loadsOrUndefined(value);
        if (parsed !== undefined && isJsonFinite(parsed)) return { value: parsed, same: false };
        continue;
      }
    }
  }
  const parsed = loadsOrUndefined(value);
  if (parsed === undefined || !isJsonFinite(parsed)) return { value, same: true };
  return { value: parsed, same: false };
}

function scalarTag(v: PyValue): string {
  if (v === null) return 'None';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'str';
  return v instanceof PyDict ? 'dict' : v.t;
}

/** Python `==` for the scalars a coercion can give back (same type assumed). */
function scalarEquals(a: PyValue, b: PyValue): boolean {
  if (a === null || typeof a !== 'object' || b === null || typeof b !== 'object') return a === b;
  if (a instanceof PyDict || b instanceof PyDict) return false;
  if (a.t === 'int' && b.t === 'int') return a.v === b.v;
  if (a.t === 'float' && b.t === 'float') return a.v === b.v;
  return false;
}

/** `ParserEngine._coerce_value(value, schema)`: the value (possibly a new list) and whether it changed. */
function coerceValue(value: PyValue, schema: JsonObject): [PyValue, boolean] {
  if (typeof value === 'string') {
    const r = coerceToSchemaType(value, extractTypesFromSchema(schema));
    return r.same ? [value, false] : [r.value, true];
  }
  if (value instanceof PyDict) {
    const nested = schema.get('properties');
    return isJsonObject(nested) ? [value, coerceDict(value, nested)] : [value, false];
  }
  if (value !== null && typeof value === 'object' && value.t === 'list') {
    const items = schema.get('items');
    if (!isJsonObject(items)) return [value, false];
    let changed = false;
    const out = value.items.map((item) => {
      const [c, ch] = coerceValue(item, items);
      if (ch) changed = true;
      return ch ? c : item;
    });
    return changed ? [{ t: 'list', items: out }, true] : [value, false];
  }
  const asStr = pythonJsonDumps(value);
  const coerced = coerceToSchemaType(asStr, extractTypesFromSchema(schema)).value;
  if (scalarTag(coerced) !== scalarTag(value) || !scalarEquals(coerced, value)) return [coerced, true];
  return [value, false];
}

/** Python truthiness of a JSON value as the request held it. */
function jsonTruthy(v: JsonValue): boolean {
  if (v === null || v === false) return false;
  if (v === true) return true;
  if (typeof v === 'string') return v.length > 0;
  if (v instanceof JsonNumber) return Number(v.text) !== 0;
  if (isJsonArray(v)) return v.length > 0;
  return (v as JsonObject).size > 0;
}

function pyTypeOfJson(v: JsonValue): string {
  if (typeof v === 'string') return 'str';
  if (typeof v === 'boolean') return 'bool';
  if (v instanceof JsonNumber) return /[.eE]/.test(v.text) ? 'float' : 'int';
  return isJsonArray(v) ? 'list' : 'dict';
}

/** `ParserEngine._coerce_dict(args, properties)`: coerce in place; whether anything changed. */
function coerceDict(args: PyDict, properties: JsonObject): boolean {
  let changed = false;
  for (const [key, value] of args.entries()) {
    const prop = typeof key === 'string' ? properties.get(key) : undefined;
    if (!isJsonObject(prop)) continue;
    const [coerced, ch] = coerceValue(value, prop);
    if (ch) {
      args.set(key, coerced);
      changed = true;
    }
  }
  return changed;
}

/** `find_tool_properties(tools, name)`: `(parameters or {}).get("properties", {})` of the first tool of that name (whatever it is). */
function findToolProperties(tools: readonly ParseTool[] | undefined, name: string): JsonValue {
  const params = findTool(tools, name)?.parameters;
  if (!isJsonObject(params)) return new Map();
  return params.get('properties') ?? new Map();
}

/** `ParserEngine._fix_arg_types(args_json, func_name)` with the request's tools. */
export function fixArgTypes(argsJson: string, funcName: string, tools: readonly ParseTool[] | undefined): string {
  if (!tools || tools.length === 0 || !funcName) return argsJson;
  const args = loadsOrUndefined(argsJson);
  if (!(args instanceof PyDict)) return argsJson;
  const properties = findToolProperties(tools, funcName);
  if (!jsonTruthy(properties)) return argsJson;
  if (!isJsonObject(properties)) {
    // `properties.get(key)` on a list or a string: AttributeError, once there is a key to look up
    if (args.size === 0) return argsJson;
    throw new PythonException('AttributeError', `'${pyTypeOfJson(properties)}' object has no attribute 'get'`);
  }
  return coerceDict(args, properties) ? pythonJsonDumps(args) : argsJson;
}
