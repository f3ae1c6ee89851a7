/**
 * fast-check arbitraries for the hardening properties (shared by test/hardening/*.test.ts and
 * bench/fuzz.mjs, hence plain JavaScript).
 *
 * Values are generated as a small "model" that can say what JavaScript cannot: a number's text
 * (`1.0`, `1E2`, `-0`, `1e400`) and an object with a key written twice. A model becomes JSON
 * text (`modelToText`) or a JavaScript value (`modelToJs`); the lossless JsonValue is
 * `parseJson(modelToText(m))`.
 *
 *   model := string | boolean | null | model[] | Num | Obj
 *   Num   := { __num: "<number text>" }
 *   Obj   := { __obj: [[key, model], ...] }     (keys may repeat)
 */
import fc from 'fast-check';

/** A number written as this text. */
export const num = (text) => ({ __num: text });
/** An object with these entries, in this order (a key may repeat). */
export const obj = (entries) => ({ __obj: entries });
/** True for a Num model. */
export const isNum = (m) => m !== null && typeof m === 'object' && typeof m.__num === 'string';
/** True for an Obj model. */
export const isObj = (m) => m !== null && typeof m === 'object' && Array.isArray(m.__obj);

/** The Harmony special tokens (spec harmony §7) and a reserved one. */
export const HARMONY_SPELLINGS = ['<|start|>', '<|end|>', '<|message|>', '<|channel|>', '<|call|>', '<|return|>', '<|constrain|>', '<|endoftext|>', '<|startoftext|>', '<|reserved_200013|>', '<|reserved_201087|>', '<|endofprompt|>'];
/** Other models' control spellings. */
export const OTHER_SPELLINGS = ['<|im_start|>', '<|im_end|>', '<|begin_of_text|>', '<|eot_id|>', '</tools>', '</function>', '</tool_call>', '</functions>', '</parameter>', '</invoke>', '</function_calls>', '</tool_response>'];

/** Fragments that break printers: quotes, line breaks, comment and string closers, control tokens, markup, escapes. */
export const HOSTILE_FRAGMENTS = [
  '"', "'", '`', '\\', '\\"', '\n', '\r\n', '\r', '\u2028', '\u2029', '\t', '\u0000', '\u001f', '\u007f', '\ufeff', '\u200b',
  '*/', '/*', '/**', '//', '*', '${', '}', '{', ')', '(', ']', '[', ';', ',', ':', '?', '|', ' | ', '=>', '=',
  '<', '>', '&', '&amp;', '&#x3C;', ']]>', '<![CDATA[', '<!--', '-->', '<tools>', '<function>', '<tool_call>',
  ...HARMONY_SPELLINGS, ...OTHER_SPELLINGS,
  '<\\|end|>', '<\\\\|end|>', '<\\/tools>', '<|', '|>', '<|end', 'end|>', '<||>', '<|a b|>',
  'null', 'nullish', 'undefined', 'true', '__proto__', 'constructor', 'toString', 'delete', 'default', 'any', 'string',
  'é', 'ß', '😀', '👨‍👩‍👧', '\u0301', 'İ', '中文', 'ﬁ', ' ', '  ', '',
  '# Tools', '## functions', 'namespace functions {', '} // namespace functions', 'type x = () => any;',
];

/** A lone surrogate (valid in a JavaScript string, never in JSON text or Unicode). */
export const LONE_SURROGATES = ['\ud800', '\udbff', '\udc00', '\udfff', 'a\ud800b'];

/** Number texts of every form JSON allows, and some JavaScript cannot hold. */
export const NUMBER_TEXTS = [
  '0', '-0', '1', '-1', '1.0', '1.10', '1E2', '1e2', '1e+2', '1E-2', '-1.5e-7', '0.1', '0.00001', '0.000001', '1e15', '1e16', '1e21', '1.5e300',
  '5e-324', '1.7976931348623157e308', '9007199254740991', '9007199254740993', '18446744073709551615', '18446744073709551616',
  '-9223372036854775808', '-9223372036854775809', '123456789012345678901234', '100000000000000000000000000000000000000000', '0.30000000000000004',
];
/** Numbers beyond the double range: JSON, but not JSON a reader accepts (an error, by design). */
export const OUT_OF_RANGE_NUMBERS = ['1e400', '-1e400', '1E309'];

/** Names that are odd as identifiers, keys or tool names. */
export const ODD_NAMES = [
  'a', 'x', 'city', 'get_weather', 'get-weather', 'a b', ' lead', 'trail ', '1st', '10', '0', '-1', '$ref', '$x', '_', '__proto__', 'constructor',
  'toString', 'hasOwnProperty', 'prototype', 'delete', 'default', 'class', 'function', 'any', 'string', 'null', 'Array', 'type', 'properties',
  'required', 'items', 'enum', 'é', 'naïve', '中文', '😀', 'a.b', 'a/b', 'a~b', 'a"b', "a'b", 'a\nb', 'a*/b', 'a<b', 'a>b', 'a&b', '', 'functions',
  'tools', 'tool_call', 'x-extra', 'get_weather_2',
];

/** A string made of hostile fragments and random text. */
export function hostileString(options = {}) {
  const pieces = [
    { weight: 500, arbitrary: fc.constantFrom(...HOSTILE_FRAGMENTS) },
    { weight: 300, arbitrary: fc.string({ maxLength: 8 }) },
    { weight: 100, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
    { weight: 100, arbitrary: fc.constantFrom('hello', 'The city and state, e.g. San Francisco, CA', 'Returns the weather.', 'celsius', 'fahrenheit') },
  ];
  // rare: one input in a few dozen holds one (and must be refused)
  if (options.loneSurrogates) pieces.push({ weight: 1, arbitrary: fc.constantFrom(...LONE_SURROGATES) });
  const plain = fc.array(fc.oneof(...pieces), { maxLength: 6 }).map((a) => a.join(''));
  if (!options.long) return plain;
  // now and then, a long text (tokenizers and printers must stay linear)
  return fc.oneof({ weight: 3000, arbitrary: plain }, { weight: 1, arbitrary: fc.tuple(plain, fc.integer({ min: 1000, max: 30000 })).map(([s, n]) => s + 'ab<|end|>'.repeat(Math.ceil(n / 9)).slice(0, n)) });
}

const LOWER = [...'abcdefghijklmnopqrstuvwxyz'];
const WORD = [...LOWER, ...'0123456789_'];
/** A plain identifier, `[a-z][a-z0-9_]{0,max}` (fc.stringMatching is slow to generate). */
export function identifierArb(max) {
  return fc.tuple(fc.constantFrom(...LOWER), fc.array(fc.constantFrom(...WORD), { maxLength: max })).map(([a, b]) => a + b.join(''));
}

/** A key: an odd name or a hostile string. */
export function keyArb(options = {}) {
  return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...ODD_NAMES) }, { weight: 2, arbitrary: hostileString(options) }, { weight: 2, arbitrary: identifierArb(8) });
}

/** A number model: every text form, sometimes beyond the double range. */
export function numberArb(options = {}) {
  const arbs = [
    { weight: 400, arbitrary: fc.constantFrom(...NUMBER_TEXTS) },
    { weight: 300, arbitrary: fc.integer({ min: -1000, max: 100000 }).map(String) },
    { weight: 200, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => (Object.is(d, -0) ? '-0' : String(d))) },
    { weight: 100, arbitrary: fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }).map(String) },
  ];
  if (options.outOfRange) arbs.push({ weight: 1, arbitrary: fc.constantFrom(...OUT_OF_RANGE_NUMBERS) });
  return fc.oneof(...arbs).map(num);
}

/** Any JSON value model (for enum, const, default, examples and unknown keys). */
export function jsonValueArb(options = {}) {
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', maxDepth: 3 },
      { weight: 4, arbitrary: hostileString(options) },
      { weight: 3, arbitrary: numberArb(options) },
      { weight: 1, arbitrary: fc.boolean() },
      { weight: 1, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 3 }) },
      { weight: 1, arbitrary: fc.array(fc.tuple(keyArb(options), tie('value')), { maxLength: 3 }).map(obj) },
    ),
  }));
  return value;
}

const TYPE_NAMES = ['string', 'number', 'integer', 'boolean', 'null', 'object', 'array'];
const ODD_TYPE_NAMES = ['STRING', 'OBJECT', 'Integer', 'int', 'float', 'any', 'date', '', 'keys', 'items', 'get', 'copy'];
const FORMATS = ['date-time', 'email', 'uri', 'uuid', 'int32'];
/** Every keyword of JSON Schema the project reads, and some it does not. */
export const SCHEMA_KEYWORDS = [
  'type', 'properties', 'required', 'items', 'prefixItems', 'additionalProperties', 'patternProperties', 'enum', 'const', 'oneOf', 'anyOf', 'allOf',
  'not', 'if', 'then', 'else', '$ref', '$defs', 'definitions', 'description', 'title', 'examples', 'example', 'default', 'nullable', 'format',
  'pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'minItems', 'maxItems',
  'uniqueItems', 'minProperties', 'maxProperties', 'deprecated', 'readOnly', 'writeOnly', 'discriminator', 'propertyNames', 'contains',
  'additionalItems', 'dependentRequired', 'dependentSchemas', 'unevaluatedProperties', '$schema', '$id', '$comment', 'propertyOrdering',
];
const REFS = ['#', '#/$defs/A', '#/$defs/B', '#/definitions/A', '#/properties/a', '#/properties/a/items', '#/$defs/missing', '#/$defs/A/properties/x', 'other.json#/A', 'https://example.com/s.json', '#A', '#/$defs/%41', '#/$defs/a~1b', ''];

/**
 * A schema model: every keyword the project reads (and random others), hostile strings in every
 * text position, odd property names, numbers of every form; nested up to `maxDepth`.
 */
export function schemaArb(options = {}) {
  const maxDepth = options.maxDepth ?? 3;
  const str = hostileString(options);
  const value = jsonValueArb(options);
  const { schema } = fc.letrec((tie) => {
    const sub = tie('schema');
    const entry = (k, arb) => arb.map((v) => [k, v]);
    const typeValue = fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...TYPE_NAMES) },
      { weight: 2, arbitrary: fc.uniqueArray(fc.constantFrom(...TYPE_NAMES), { minLength: 1, maxLength: 3 }) },
      { weight: 1, arbitrary: fc.constantFrom(...ODD_TYPE_NAMES) },
      { weight: 1, arbitrary: value },
    );
    const props = fc.array(fc.tuple(keyArb(options), sub), { maxLength: 4 }).map(obj);
    const keyword = fc.oneof(
      { weight: 10, arbitrary: entry('type', typeValue) },
      { weight: 6, arbitrary: entry('properties', fc.oneof({ weight: 9, arbitrary: props }, { weight: 1, arbitrary: value })) },
      { weight: 3, arbitrary: entry('required', fc.oneof({ weight: 5, arbitrary: fc.array(keyArb(options), { maxLength: 3 }) }, { weight: 1, arbitrary: value })) },
      { weight: 4, arbitrary: entry('items', fc.oneof({ weight: 4, arbitrary: sub }, { weight: 1, arbitrary: fc.array(sub, { maxLength: 2 }) })) },
      { weight: 1, arbitrary: entry('prefixItems', fc.array(sub, { maxLength: 2 })) },
      { weight: 2, arbitrary: entry('additionalProperties', fc.oneof(fc.boolean(), sub)) },
      { weight: 1, arbitrary: entry('patternProperties', fc.array(fc.tuple(str, sub), { maxLength: 2 }).map(obj)) },
      { weight: 4, arbitrary: entry('enum', fc.oneof({ weight: 6, arbitrary: fc.array(value, { maxLength: 5 }) }, { weight: 3, arbitrary: fc.array(str, { minLength: 1, maxLength: 5 }) }, { weight: 1, arbitrary: value })) },
      { weight: 2, arbitrary: entry('const', value) },
      { weight: 3, arbitrary: entry('oneOf', fc.oneof({ weight: 6, arbitrary: fc.array(sub, { maxLength: 3 }) }, { weight: 1, arbitrary: value })) },
      { weight: 3, arbitrary: entry('anyOf', fc.array(sub, { maxLength: 3 })) },
      { weight: 2, arbitrary: entry('allOf', fc.array(sub, { maxLength: 3 })) },
      { weight: 1, arbitrary: entry('not', sub) },
      { weight: 1, arbitrary: fc.constantFrom('if', 'then', 'else', 'contains', 'propertyNames', 'additionalItems', 'unevaluatedProperties').chain((k) => entry(k, sub)) },
      { weight: 3, arbitrary: entry('$ref', fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...REFS) }, { weight: 1, arbitrary: str })) },
      { weight: 2, arbitrary: fc.constantFrom('$defs', 'definitions').chain((k) => entry(k, fc.array(fc.tuple(fc.oneof(fc.constantFrom('A', 'B', 'a/b', 'missing'), keyArb(options)), sub), { maxLength: 3 }).map(obj))) },
      { weight: 6, arbitrary: entry('description', fc.oneof({ weight: 9, arbitrary: str }, { weight: 1, arbitrary: value })) },
      { weight: 3, arbitrary: entry('title', fc.oneof({ weight: 9, arbitrary: str }, { weight: 1, arbitrary: value })) },
      { weight: 2, arbitrary: entry('examples', fc.oneof({ weight: 5, arbitrary: fc.array(value, { maxLength: 3 }) }, { weight: 1, arbitrary: value })) },
      { weight: 1, arbitrary: entry('example', value) },
      { weight: 3, arbitrary: entry('default', value) },
      { weight: 2, arbitrary: entry('nullable', fc.oneof({ weight: 5, arbitrary: fc.boolean() }, { weight: 1, arbitrary: value })) },
      { weight: 1, arbitrary: entry('format', fc.oneof(fc.constantFrom(...FORMATS), str)) },
      { weight: 1, arbitrary: entry('pattern', str) },
      { weight: 2, arbitrary: fc.constantFrom('minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties').chain((k) => entry(k, fc.oneof({ weight: 5, arbitrary: numberArb(options) }, { weight: 1, arbitrary: value }))) },
      { weight: 1, arbitrary: fc.constantFrom('uniqueItems', 'deprecated', 'readOnly', 'writeOnly').chain((k) => entry(k, fc.oneof(fc.boolean(), value))) },
      { weight: 1, arbitrary: fc.constantFrom('discriminator', 'dependentRequired', 'dependentSchemas', '$schema', '$id', '$comment', 'propertyOrdering').chain((k) => entry(k, value)) },
      { weight: 2, arbitrary: fc.tuple(keyArb(options), value) },
    );
    return {
      schema: fc.oneof(
        { depthSize: 'small', maxDepth },
        { weight: 1, arbitrary: fc.boolean() },
        { weight: 1, arbitrary: fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...TYPE_NAMES).map((t) => obj([['type', t]])) }, { weight: 1, arbitrary: value }) },
        { weight: 6, arbitrary: fc.array(keyword, { maxLength: 6 }).map(obj) },
      ),
    };
  });
  return schema;
}

/** A parameters schema: mostly an object with properties, sometimes anything at all. */
export function parametersArb(options = {}) {
  const sub = schemaArb(options);
  const root = fc
    .tuple(
      fc.array(fc.tuple(keyArb(options), sub), { maxLength: 5 }),
      fc.array(keyArb(options), { maxLength: 3 }),
      fc.option(hostileString(options), { nil: undefined }),
      fc.array(fc.tuple(fc.constantFrom('$defs', 'additionalProperties', 'title', 'nullable', 'oneOf', 'x-extra', 'unknownKeyword'), sub), { maxLength: 2 }),
      fc.boolean(),
    )
    .map(([props, required, description, extra, requireAll]) => {
      const e = [['type', 'object'], ['properties', obj(props)]];
      const names = props.map(([k]) => k);
      e.push(['required', requireAll ? names : [...names.slice(0, 1), ...required]]);
      if (description !== undefined) e.push(['description', description]);
      return obj([...e, ...extra]);
    });
  // now and then a schema nested around the depth limit (128), through each kind of nesting
  const deep = fc.tuple(fc.integer({ min: 100, max: 140 }), fc.constantFrom('properties', 'items', 'oneOf', 'allOf')).map(([n, via]) => deepSchema(n, via));
  return fc.oneof({ weight: 80, arbitrary: root }, { weight: 20, arbitrary: sub }, { weight: 1, arbitrary: deep });
}

/** A parameters schema nested `depth` levels (properties in properties, items in items, oneOf in oneOf…). */
export function deepSchema(depth, via = 'properties', leaf = obj([['type', 'string'], ['description', 'leaf <|end|>']])) {
  let s = leaf;
  for (let i = 0; i < depth; i++) {
    if (via === 'properties') s = obj([['type', 'object'], ['properties', obj([[`p${i % 3}`, s]])]]);
    else if (via === 'items') s = obj([['type', 'array'], ['items', s]]);
    else if (via === 'oneOf') s = obj([['oneOf', [s, obj([['type', 'null']])]]]);
    else s = obj([['allOf', [s]]]);
  }
  return s;
}

/** The tool input shapes. */
export const FORMATS_ALL = ['openai-chat', 'openai-responses', 'anthropic', 'mcp', 'gemini', 'bare'];

/** Gemini type names (upper case) for a schema model, as Gemini declarations write them. */
function geminiTypes(m) {
  if (Array.isArray(m)) return m.map(geminiTypes);
  if (!isObj(m)) return m;
  return obj(m.__obj.map(([k, v]) => [k, k === 'type' && typeof v === 'string' ? v.toUpperCase() : geminiTypes(v)]));
}

/**
 * One tool's body fields, before the format wraps them: name, description (usually a string),
 * parameters (or none, or null), MCP title, random extra keys.
 */
export function toolFieldsArb(options = {}) {
  const str = hostileString(options);
  return fc.record(
    {
      name: fc.oneof({ weight: 6, arbitrary: identifierArb(12) }, { weight: 3, arbitrary: fc.constantFrom(...ODD_NAMES) }, { weight: 2, arbitrary: str }, { weight: 1, arbitrary: jsonValueArb(options) }),
      description: fc.option(fc.oneof({ weight: 9, arbitrary: str }, { weight: 1, arbitrary: jsonValueArb(options) }), { nil: undefined, freq: 5 }),
      parameters: fc.oneof({ weight: 12, arbitrary: parametersArb(options) }, { weight: 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constant(null) }),
      title: fc.option(str, { nil: undefined, freq: 3 }),
      titleIn: fc.constantFrom('title', 'annotations'),
      strict: fc.option(fc.boolean(), { nil: undefined }),
      extra: fc.array(fc.tuple(fc.constantFrom('cache_control', 'x-extra', 'meta', 'outputSchema', 'behavior'), jsonValueArb(options)), { maxLength: 1 }),
      geminiKey: fc.constantFrom('parameters', 'parametersJsonSchema'),
      format: fc.constantFrom(...FORMATS_ALL),
    },
    { requiredKeys: ['name', 'parameters', 'titleIn', 'extra', 'geminiKey', 'format'] },
  );
}

/**
 * Wrap tool fields in their format. Returns the tool model, the pointer of its body relative to
 * the tool, and the key of its parameters (what the reader takes as the tool's text).
 */
export function wrapTool(f) {
  const body = [['name', f.name]];
  if (f.description !== undefined) body.push(['description', f.description]);
  const params = (key) => (f.parameters !== undefined ? [[key, f.parameters]] : []);
  switch (f.format) {
    case 'openai-chat': {
      const fn = [...body, ...params('parameters'), ...(f.strict !== undefined ? [['strict', f.strict]] : [])];
      return { model: obj([['type', 'function'], ['function', obj(fn)], ...f.extra]), body: '/function', parametersKey: 'parameters', titlePointer: undefined };
    }
    case 'openai-responses':
      return { model: obj([['type', 'function'], ...body, ...params('parameters'), ...(f.strict !== undefined ? [['strict', f.strict]] : []), ...f.extra]), body: '', parametersKey: 'parameters', titlePointer: undefined };
    case 'anthropic':
      return { model: obj([...body, ['input_schema', f.parameters === undefined ? obj([['type', 'object']]) : f.parameters], ...f.extra]), body: '', parametersKey: 'input_schema', titlePointer: undefined };
    case 'mcp': {
      const title = f.title === undefined ? [] : f.titleIn === 'title' ? [['title', f.title]] : [['annotations', obj([['title', f.title]])]];
      return { model: obj([...body, ...title, ['inputSchema', f.parameters === undefined ? obj([['type', 'object']]) : f.parameters], ...f.extra]), body: '', parametersKey: 'inputSchema', titlePointer: f.title === undefined ? undefined : f.titleIn === 'title' ? '/title' : '/annotations/title' };
    }
    case 'gemini': {
      // a declaration is read as Gemini's only inside {functionDeclarations: […]}
      const p = f.parameters === undefined ? [] : [[f.geminiKey, f.geminiKey === 'parameters' ? geminiTypes(f.parameters) : f.parameters]];
      const decl = obj([...body, ...p]);
      return { model: obj([['functionDeclarations', [decl]]]), body: '/functionDeclarations/0', parametersKey: f.geminiKey, titlePointer: undefined, declaration: decl };
    }
    default:
      return { model: obj([...body, ...params('parameters'), ...f.extra]), body: '', parametersKey: 'parameters', titlePointer: undefined };
  }
}

/**
 * A whole input: tools in a list (formats mixed), one tool alone, an MCP tools/list result, a
 * JSON-RPC response, or Gemini `functionDeclarations`. `texts` lists, for each tool, the JSON
 * Pointers of the strings the reader takes as tool text (name, description, parameters, title).
 */
export function inputArb(options = {}) {
  const fields = toolFieldsArb(options);
  return fc
    .tuple(fc.constantFrom('list', 'list', 'list', 'single', 'mcp-list', 'jsonrpc', 'gemini'), fc.array(fields, { minLength: 1, maxLength: options.maxTools ?? 3 }))
    .map(([kind, fs]) => {
      const tools = [];
      const at = (prefix, w) => {
        tools.push({ pointer: prefix, body: prefix + w.body, parametersKey: w.parametersKey, titlePointer: w.titlePointer === undefined ? undefined : prefix + w.titlePointer });
        return w.model;
      };
      if (kind === 'single') return { kind, model: at('', wrapTool(fs[0])), tools };
      if (kind === 'list') return { kind, model: fs.map((f, i) => at(`/${i}`, wrapTool(f))), tools };
      if (kind === 'gemini') {
        const decls = fs.map((f, i) => {
          const w = wrapTool({ ...f, format: 'gemini' });
          at(`/functionDeclarations/${i}`, { ...w, body: '' });
          return w.declaration;
        });
        return { kind, model: obj([['functionDeclarations', decls]]), tools };
      }
      const list = fs.map((f, i) => at(kind === 'mcp-list' ? `/tools/${i}` : `/result/tools/${i}`, wrapTool({ ...f, format: 'mcp' })));
      if (kind === 'mcp-list') return { kind, model: obj([['tools', list]]), tools };
      return { kind, model: obj([['jsonrpc', '2.0'], ['id', num('1')], ['result', obj([['tools', list]])]]), tools };
    });
}

// ---------------------------------------------------------------------------------------
// Model → JSON text / JavaScript value

/** JSON text of a model: numbers as written, keys in order, repeated keys repeated. Iterative. */
export function modelToText(root, indent = '') {
  const out = [];
  const stack = [{ m: root }];
  while (stack.length) {
    const top = stack.pop();
    if (top.raw !== undefined) {
      out.push(top.raw);
      continue;
    }
    const m = top.m;
    if (m === null) out.push('null');
    else if (typeof m === 'string') out.push(JSON.stringify(m));
    else if (typeof m === 'boolean') out.push(String(m));
    else if (isNum(m)) out.push(m.__num);
    else if (Array.isArray(m)) {
      out.push('[');
      const parts = [{ raw: ']' }];
      for (let i = m.length - 1; i >= 0; i--) {
        parts.push({ m: m[i] });
        if (i > 0) parts.push({ raw: ',' + indent });
      }
      stack.push(...parts);
    } else if (isObj(m)) {
      out.push('{');
      const parts = [{ raw: '}' }];
      for (let i = m.__obj.length - 1; i >= 0; i--) {
        const [k, v] = m.__obj[i];
        parts.push({ m: v });
        parts.push({ raw: `${i > 0 ? ',' + indent : ''}${JSON.stringify(k)}:` });
      }
      stack.push(...parts);
    } else throw new Error(`not a model: ${String(m)}`);
  }
  return out.join('');
}

/** A JavaScript value of a model: numbers as doubles (1e400 → Infinity), `__proto__` an own key, a repeated key's last value. */
export function modelToJs(m) {
  if (m === null || typeof m === 'string' || typeof m === 'boolean') return m;
  if (isNum(m)) return Number(m.__num);
  if (Array.isArray(m)) return m.map(modelToJs);
  const o = {};
  for (const [k, v] of m.__obj) Object.defineProperty(o, k, { value: modelToJs(v), enumerable: true, writable: true, configurable: true });
  return o;
}

/** True when a model's JavaScript value and its JSON.stringify text must print the same (no number whose text JavaScript changes, no lone surrogate). */
export function jsRoundTrips(root) {
  const stack = [root];
  while (stack.length) {
    const m = stack.pop();
    if (typeof m === 'string') {
      if (!m.isWellFormed()) return false;
    } else if (isNum(m)) {
      const n = Number(m.__num);
      if (!Number.isFinite(n) || Object.is(n, -0)) return false;
      if (Number.isInteger(n) ? !Number.isSafeInteger(n) : Math.abs(n) < 1e-4 || Math.abs(n) >= 1e15) return false;
    } else if (Array.isArray(m)) stack.push(...m);
    else if (isObj(m)) {
      for (const [k, v] of m.__obj) {
        if (!k.isWellFormed()) return false;
        stack.push(v);
      }
    }
  }
  return true;
}

/** The options of the fuzz runs: rare lone surrogates, numbers beyond the double range and long texts included. */
export const FUZZ_OPTIONS = Object.freeze({ loneSurrogates: true, outOfRange: true, long: true });

/** One fuzz case: an input, a control-token policy, a part, and a pick (which printer gets the extra checks). */
export function caseArb(options = FUZZ_OPTIONS) {
  return fc.record({
    sample: inputArb(options),
    policy: fc.constantFrom('keep', 'escape', 'error'),
    part: fc.constantFrom('catalog', 'catalog', 'prompt', 'developer'),
    pick: fc.nat(),
  });
}
