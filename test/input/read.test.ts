import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { CompileError, type Diagnostic } from '../../src/diagnostics.js';
import { JsonNumber, parseJson, toJs, type JsonObject, type JsonValue } from '../../src/ir/json.js';
import { detectFormat, readTools } from '../../src/input/read.js';
import type { ToolDefinition, ToolFormat } from '../../src/input/types.js';

/** Run `f`, expect a CompileError, return its diagnostics. */
function compileErrorOf(f: () => unknown): readonly Diagnostic[] {
  let thrown: unknown;
  try {
    f();
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(CompileError);
  return (thrown as CompileError).diagnostics;
}

/** code, severity, path and tool of each diagnostic. */
function brief(ds: readonly Diagnostic[]): { code: string; severity: string; path: string; tool?: string }[] {
  return ds.map((d) => ({ code: d.code, severity: d.severity, path: d.path, ...(d.tool !== undefined ? { tool: d.tool } : {}) }));
}

/** The parts of a tool that say where it came from. */
function where(t: ToolDefinition): { name: string; format: ToolFormat; pointer: string; parametersPointer: string } {
  return { name: t.name, format: t.format, pointer: t.pointer, parametersPointer: t.parametersPointer };
}

const params = { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] };

type Want = { name: string; format: ToolFormat; pointer: string; parametersPointer: string };
const shapes: [string, unknown, Want[]][] = [
  [
    'OpenAI Chat Completions tool',
    { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: params, strict: true } },
    [{ name: 'get_weather', format: 'openai-chat', pointer: '', parametersPointer: '/function/parameters' }],
  ],
  [
    'OpenAI Responses tool',
    { type: 'function', name: 'get_weather', description: 'Weather', parameters: params, strict: false },
    [{ name: 'get_weather', format: 'openai-responses', pointer: '', parametersPointer: '/parameters' }],
  ],
  [
    'Anthropic tool',
    { name: 'get_weather', description: 'Weather', input_schema: params },
    [{ name: 'get_weather', format: 'anthropic', pointer: '', parametersPointer: '/input_schema' }],
  ],
  [
    'Anthropic tool with type custom and cache_control',
    { type: 'custom', name: 'get_weather', input_schema: params, cache_control: { type: 'ephemeral' } },
    [{ name: 'get_weather', format: 'anthropic', pointer: '', parametersPointer: '/input_schema' }],
  ],
  [
    'MCP tool',
    { name: 'get_weather', title: 'Get weather', description: 'Weather', inputSchema: params, annotations: { readOnlyHint: true } },
    [{ name: 'get_weather', format: 'mcp', pointer: '', parametersPointer: '/inputSchema' }],
  ],
  [
    'MCP tools/list result',
    { tools: [{ name: 'a', inputSchema: params }, { name: 'b', inputSchema: { type: 'object' } }], nextCursor: 'abc' },
    [
      { name: 'a', format: 'mcp', pointer: '/tools/0', parametersPointer: '/tools/0/inputSchema' },
      { name: 'b', format: 'mcp', pointer: '/tools/1', parametersPointer: '/tools/1/inputSchema' },
    ],
  ],
  [
    'MCP JSON-RPC response',
    { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'a', inputSchema: params }] } },
    [{ name: 'a', format: 'mcp', pointer: '/result/tools/0', parametersPointer: '/result/tools/0/inputSchema' }],
  ],
  [
    'Gemini tool',
    { functionDeclarations: [{ name: 'a', description: 'A', parametersJsonSchema: params }, { name: 'b' }] },
    [
      { name: 'a', format: 'gemini', pointer: '/functionDeclarations/0', parametersPointer: '/functionDeclarations/0/parametersJsonSchema' },
      { name: 'b', format: 'gemini', pointer: '/functionDeclarations/1', parametersPointer: '/functionDeclarations/1/parameters' },
    ],
  ],
  [
    'Gemini tools list (array of Tool objects)',
    [{ functionDeclarations: [{ name: 'a', parameters: { type: 'object' } }] }, { functionDeclarations: [{ name: 'b' }] }],
    [
      { name: 'a', format: 'gemini', pointer: '/0/functionDeclarations/0', parametersPointer: '/0/functionDeclarations/0/parameters' },
      { name: 'b', format: 'gemini', pointer: '/1/functionDeclarations/0', parametersPointer: '/1/functionDeclarations/0/parameters' },
    ],
  ],
  [
    'bare tool',
    { name: 'get_weather', description: 'Weather', parameters: params },
    [{ name: 'get_weather', format: 'bare', pointer: '', parametersPointer: '/parameters' }],
  ],
  ['bare tool with only a name', { name: 'ping' }, [{ name: 'ping', format: 'bare', pointer: '', parametersPointer: '/parameters' }]],
  [
    'an array mixing every shape',
    [
      { type: 'function', function: { name: 'a', parameters: params } },
      { type: 'function', name: 'b', parameters: params },
      { name: 'c', input_schema: params },
      { name: 'd', inputSchema: params },
      { functionDeclarations: [{ name: 'e', parameters: params }] },
      { name: 'f', parameters: params },
      { tools: [{ name: 'g', inputSchema: params }] },
    ],
    [
      { name: 'a', format: 'openai-chat', pointer: '/0', parametersPointer: '/0/function/parameters' },
      { name: 'b', format: 'openai-responses', pointer: '/1', parametersPointer: '/1/parameters' },
      { name: 'c', format: 'anthropic', pointer: '/2', parametersPointer: '/2/input_schema' },
      { name: 'd', format: 'mcp', pointer: '/3', parametersPointer: '/3/inputSchema' },
      { name: 'e', format: 'gemini', pointer: '/4/functionDeclarations/0', parametersPointer: '/4/functionDeclarations/0/parameters' },
      { name: 'f', format: 'bare', pointer: '/5', parametersPointer: '/5/parameters' },
      { name: 'g', format: 'mcp', pointer: '/6/tools/0', parametersPointer: '/6/tools/0/inputSchema' },
    ],
  ],
];

describe('readTools: shapes', () => {
  describe.each(shapes)('%s', (_name, value, want) => {
    it('as a JS value', () => {
      const r = readTools(value);
      expect(r.tools.map(where)).toEqual(want);
      expect(r.diagnostics).toEqual([]);
    });
    it('as JSON text', () => {
      const r = readTools(JSON.stringify(value, null, 2));
      expect(r.tools.map(where)).toEqual(want);
      expect(r.diagnostics).toEqual([]);
    });
    it('as a JsonValue', () => {
      const r = readTools(parseJson(JSON.stringify(value)));
      expect(r.tools.map(where)).toEqual(want);
    });
  });

  it('keeps description, parameters, strict and title as given', () => {
    const [chat] = readTools({ type: 'function', function: { name: 'w', description: 'Weather', parameters: params, strict: true } }).tools;
    expect(chat.description).toBe('Weather');
    expect(toJs(chat.parameters as JsonValue)).toEqual(params);
    expect(chat.strict).toBe(true);
    const [resp] = readTools({ type: 'function', name: 'w', parameters: params, strict: false }).tools;
    expect(resp.strict).toBe(false);
    expect(resp).not.toHaveProperty('description');
    const [mcp] = readTools({ name: 'w', title: 'Weather tool', inputSchema: params }).tools;
    expect(mcp.title).toBe('Weather tool');
    const [mcp2] = readTools({ name: 'w', inputSchema: params, annotations: { title: 'From annotations' } }).tools;
    expect(mcp2.title).toBe('From annotations');
    const [bare] = readTools({ name: 'ping' }).tools;
    expect(bare).toEqual({ name: 'ping', format: 'bare', pointer: '', parametersPointer: '/parameters' });
  });

  it('keeps strict: null out of the definition (OpenAI allows null)', () => {
    const r = readTools({ type: 'function', function: { name: 'w', strict: null } });
    expect(r.tools[0]).not.toHaveProperty('strict');
    expect(r.diagnostics).toEqual([]);
  });

  it('accepts an empty list, an empty tools/list result and an empty Gemini tool', () => {
    for (const v of [[], '[]', ' [ ] ', { tools: [] }, { functionDeclarations: [] }, { jsonrpc: '2.0', id: 'x', result: { tools: [] } }]) {
      expect(readTools(v)).toEqual({ tools: [], diagnostics: [] });
    }
  });

  it('uses a JsonValue as is (same Map objects, not a copy)', () => {
    const v = parseJson('{"name":"t","parameters":{"type":"object"}}') as JsonObject;
    const r = readTools(v);
    expect(r.tools[0].parameters).toBe(v.get('parameters'));
  });

  it('reads UTF-8 bytes as JSON text', () => {
    const r = readTools(new TextEncoder().encode('{"name":"café","parameters":null}'));
    expect(r.tools[0].name).toBe('café');
    expect(r.tools[0].parameters).toBeNull();
  });
});

describe('readTools: lossless values', () => {
  it('accepts a TypeBox schema as parameters (symbol keys skipped)', () => {
    const schema = Type.Object({ city: Type.String({ description: 'City' }), days: Type.Optional(Type.Integer({ default: 3 })) });
    const r = readTools({ name: 'forecast', parameters: schema });
    const p = r.tools[0].parameters as JsonObject;
    expect([...p.keys()]).toEqual(Object.keys(schema)); // TypeBox's own key order
    expect(Object.getOwnPropertySymbols(schema).length).toBeGreaterThan(0);
    expect(toJs(p)).toEqual({
      type: 'object',
      properties: { city: { type: 'string', description: 'City' }, days: { type: 'integer', default: 3 } },
      required: ['city'],
    });
    expect(r.diagnostics).toEqual([]);
  });

  it('accepts a TypeBox schema inside an OpenAI and an MCP wrapper', () => {
    const schema = Type.Object({ q: Type.String() });
    const r = readTools([{ type: 'function', function: { name: 'a', parameters: schema } }, { name: 'b', inputSchema: schema }]);
    expect(r.tools.map((t) => toJs(t.parameters as JsonValue))).toEqual([
      { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
      { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
    ]);
  });

  it('keeps key order with integer-like keys ({"b":1,"10":2} stays b, 10)', () => {
    const r = readTools('{"name":"t","parameters":{"type":"object","properties":{"b":{"type":"string"},"10":{"type":"string"}}}}');
    const props = (r.tools[0].parameters as JsonObject).get('properties') as JsonObject;
    expect([...props.keys()]).toEqual(['b', '10']);
    const m = new Map<string, JsonValue>([['b', new JsonNumber('1', 1)], ['10', new JsonNumber('2', 2)]]);
    const r2 = readTools(new Map<string, JsonValue>([['name', 't'], ['parameters', new Map<string, JsonValue>([['type', 'object'], ['default', m]])]]));
    expect([...(((r2.tools[0].parameters as JsonObject).get('default')) as JsonObject).keys()]).toEqual(['b', '10']);
  });

  it('treats __proto__ as an ordinary property name', () => {
    const text = '{"name":"t","parameters":{"type":"object","properties":{"__proto__":{"type":"string"},"x":{"type":"number"}}}}';
    const props = (readTools(text).tools[0].parameters as JsonObject).get('properties') as JsonObject;
    expect([...props.keys()]).toEqual(['__proto__', 'x']);
    expect(toJs(props.get('__proto__') as JsonValue)).toEqual({ type: 'string' });
    // JSON.parse makes __proto__ an own property; fromJs keeps it
    const props2 = (readTools(JSON.parse(text)).tools[0].parameters as JsonObject).get('properties') as JsonObject;
    expect([...props2.keys()]).toEqual(['__proto__', 'x']);
  });

  it('keeps the number text of a 1.0 default', () => {
    const r = readTools('{"name":"t","parameters":{"type":"object","properties":{"x":{"type":"number","default":1.0}}}}');
    const x = ((r.tools[0].parameters as JsonObject).get('properties') as JsonObject).get('x') as JsonObject;
    const d = x.get('default');
    expect(d).toBeInstanceOf(JsonNumber);
    expect((d as JsonNumber).text).toBe('1.0');
  });

  it('keeps a big integer exactly as written', () => {
    const r = readTools('{"name":"t","parameters":{"type":"integer","maximum":18446744073709551615}}');
    expect(((r.tools[0].parameters as JsonObject).get('maximum') as JsonNumber).text).toBe('18446744073709551615');
  });

  it('does not mutate a Map input', () => {
    const v = parseJson('{"functionDeclarations":[{"name":"t","parameters":{"type":"OBJECT","properties":{"a":{"type":"STRING"}}}}]}');
    const before = JSON.stringify(toJs(v));
    readTools(v);
    expect(JSON.stringify(toJs(v))).toBe(before);
  });
});

describe('readTools: errors', () => {
  const notJson: [string, string, RegExp][] = [
    ['a syntax error', '{"name": }', /not JSON: expected value at line 1, column 10/],
    ['a number out of range', '{"name":"t","parameters":{"maximum":1e400}}', /number out of range.* at line 1, column 37/],
    ['a lone surrogate escape', '{"name":"\\ud800x"}', /invalid Unicode.*lone surrogate.* at line 1/],
    ['a lone trailing surrogate escape', '{"name":"\\udc00"}', /invalid Unicode.*lone surrogate/],
    ['trailing characters', '{"name":"t"} x', /trailing characters after the JSON value at line 1, column 14/],
    ['empty input', '', /the input is empty/],
    ['a truncated document', '[{"name":"t"', /unexpected end of input/],
    ['a trailing comma, on line 2', '[\n  {"name": "t",}\n]', /a trailing comma before `}` at line 2, column 16/],
    ['a trailing comma in an array', '[{"name": "t"},]', /a trailing comma before `]` at line 1, column 16/],
    ['an unquoted key', '{name: "t"}', /expected a key in double quotes at line 1, column 2/],
    ['nesting beyond the parser limit', '['.repeat(100_001), /nests too deeply/],
  ];
  it.each(notJson)('JSON text with %s → input/not-json', (_n, text, message) => {
    const ds = compileErrorOf(() => readTools(text));
    expect(brief(ds)).toEqual([{ code: 'input/not-json', severity: 'error', path: '' }]);
    expect(ds[0].message).toMatch(message);
  });

  it('names the source in a not-json message', () => {
    const ds = compileErrorOf(() => readTools('{', { source: 'tools.json' }));
    expect(ds[0].message).toMatch(/^tools\.json: not JSON: /);
  });

  it('reports invalid UTF-8 bytes as input/invalid-unicode', () => {
    const ds = compileErrorOf(() => readTools(new Uint8Array([0x7b, 0xff, 0x7d])));
    expect(brief(ds)).toEqual([{ code: 'input/invalid-unicode', severity: 'error', path: '' }]);
  });

  it('reports undefined input', () => {
    expect(brief(compileErrorOf(() => readTools(undefined)))).toEqual([{ code: 'input/not-json-value', severity: 'error', path: '' }]);
  });

  it('reports a JS value that is not JSON with its pointer and tool', () => {
    const ds = compileErrorOf(() => readTools([{ name: 'a', parameters: { type: 'object', default: NaN } }]));
    expect(brief(ds)).toEqual([{ code: 'input/not-json-value', severity: 'error', path: '/0/parameters/default', tool: 'a' }]);
    expect(ds[0].message).toMatch(/NaN/);
  });

  it('reports every value that is not JSON, in every tool', () => {
    const ds = compileErrorOf(() =>
      readTools([
        { name: 'a', parameters: { type: 'object', default: Infinity, maximum: () => 1 } },
        { name: 'b', parameters: { type: 'object', default: Symbol('x') } },
      ]),
    );
    expect(brief(ds)).toEqual([
      { code: 'input/not-json-value', severity: 'error', path: '/0/parameters/default', tool: 'a' },
      { code: 'input/not-json-value', severity: 'error', path: '/0/parameters/maximum', tool: 'a' },
      { code: 'input/not-json-value', severity: 'error', path: '/1/parameters/default', tool: 'b' },
    ]);
  });

  it('reports a cycle once, without a stack overflow', () => {
    const schema: Record<string, unknown> = { type: 'object' };
    schema.properties = { self: schema };
    const ds = compileErrorOf(() => readTools({ name: 'c', parameters: schema }));
    expect(brief(ds)).toEqual([{ code: 'input/not-json-value', severity: 'error', path: '/parameters/properties/self', tool: 'c' }]);
    expect(ds[0].message).toMatch(/cycle/);
  });

  it('does not report a bad name value twice (no extra missing-name)', () => {
    const ds = compileErrorOf(() => readTools([{ name: NaN, parameters: {} }]));
    expect(brief(ds)).toEqual([{ code: 'input/not-json-value', severity: 'error', path: '/0/name', tool: '#0' }]);
  });

  it('reports a number out of range in a JS value (bigint) and a JsonNumber', () => {
    const ds = compileErrorOf(() =>
      readTools([
        { name: 'a', parameters: { type: 'object', maxProperties: 10n ** 400n } },
        new Map<string, JsonValue>([['name', 'b'], ['parameters', new Map([['minimum', new JsonNumber('-1e999', -Infinity)]])]]),
      ]),
    );
    expect(brief(ds)).toEqual([
      { code: 'input/number-out-of-range', severity: 'error', path: '/0/parameters/maxProperties', tool: 'a' },
      { code: 'input/number-out-of-range', severity: 'error', path: '/1/parameters/minimum', tool: 'b' },
    ]);
    expect(ds[1].message).toContain('-1e999');
  });

  it('reports invalid Unicode (lone surrogates) in JS strings and keys', () => {
    const ds = compileErrorOf(() => readTools({ name: 't', description: 'bad \ud800 text', parameters: { properties: { ['k\udc00']: {} } } }));
    expect(brief(ds)).toEqual([
      { code: 'input/invalid-unicode', severity: 'error', path: '/description', tool: 't' },
      { code: 'input/invalid-unicode', severity: 'error', path: '/parameters/properties/k\udc00', tool: 't' },
    ]);
  });

  it('accepts a valid surrogate pair', () => {
    expect(readTools({ name: 't', description: 'emoji 😀' }).tools[0].description).toBe('emoji 😀');
  });

  it('reports an unknown shape, naming the accepted ones', () => {
    const ds = compileErrorOf(() => readTools([{ foo: 1 }]));
    expect(brief(ds)).toEqual([{ code: 'input/unknown-shape', severity: 'error', path: '/0', tool: '#0' }]);
    for (const s of ['OpenAI Chat Completions', 'OpenAI Responses', 'Anthropic', 'MCP', 'tools/list', 'Gemini', '{name, description?, parameters?}']) {
      expect(ds[0].message).toContain(s);
    }
    expect(ds[0].message).toContain('"foo"');
  });

  const unknown: [string, unknown, string, RegExp][] = [
    ['a string', '"hello"', '', /found a string/],
    ['null', 'null', '', /found null/],
    ['a number in a list', [1], '/0', /found a number/],
    ['a nested array', [[{ name: 'a' }]], '/0', /found an array/],
    ['an empty object', {}, '', /found an empty object/],
    ['a non-function OpenAI tool', { type: 'web_search_preview' }, '', /tool of type "web_search_preview", not a function tool/],
    ['an Anthropic server tool', [{ type: 'bash_20250124', name: 'bash' }], '/0', /bash_20250124/],
    ['a bare JSON Schema (TypeBox)', Type.Object({ q: Type.String() }), '', /a JSON Schema of type "object", not a tool \(give it a name/],
    ['a non-object function declaration', { functionDeclarations: ['x'] }, '/functionDeclarations/0', /a string in functionDeclarations/],
  ];
  it.each(unknown)('reports %s as input/unknown-shape', (_n, value, path, message) => {
    const ds = compileErrorOf(() => readTools(value));
    expect(ds.map((d) => [d.code, d.path])).toEqual([['input/unknown-shape', path]]);
    expect(ds[0].message).toMatch(message);
  });

  it('labels an unknown shape with its name when it has one', () => {
    const ds = compileErrorOf(() => readTools([{ type: 'bash_20250124', name: 'bash' }]));
    expect(ds[0].tool).toBe('bash');
  });

  it('reports an OpenAI Chat tool whose function is not an object', () => {
    const ds = compileErrorOf(() => readTools([{ type: 'function', function: 'get_weather' }]));
    expect(brief(ds)).toEqual([{ code: 'input/unknown-shape', severity: 'error', path: '/0/function', tool: '#0' }]);
  });

  it('reports Gemini functionDeclarations that is not an array', () => {
    const ds = compileErrorOf(() => readTools({ functionDeclarations: { name: 'a' } }));
    expect(brief(ds)).toEqual([{ code: 'input/unknown-shape', severity: 'error', path: '/functionDeclarations' }]);
  });

  it('reports a JSON-RPC error response', () => {
    const ds = compileErrorOf(() => readTools({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } }));
    expect(brief(ds)).toEqual([{ code: 'input/unknown-shape', severity: 'error', path: '' }]);
    expect(ds[0].message).toContain('Method not found');
  });

  it('reports a JSON-RPC response whose result is not a tools list', () => {
    const ds = compileErrorOf(() => readTools({ jsonrpc: '2.0', id: 1, result: { resources: [] } }));
    expect(brief(ds)).toEqual([{ code: 'input/unknown-shape', severity: 'error', path: '/result' }]);
  });

  const missingName: [string, unknown, string, RegExp][] = [
    ['bare without a name', [{ description: 'x', parameters: {} }], '/0/name', /has no name/],
    ['OpenAI Chat without a name', [{ type: 'function', function: { parameters: {} } }], '/0/function/name', /has no name/],
    ['OpenAI Responses without a name', [{ type: 'function', parameters: {} }], '/0/name', /has no name/],
    ['Anthropic with a number name', [{ name: 42, input_schema: {} }], '/0/name', /the name is a number, not a string/],
    ['MCP with a null name', [{ name: null, inputSchema: {} }], '/0/name', /the name is null/],
    ['Gemini without a name', [{ functionDeclarations: [{ description: 'x' }] }], '/0/functionDeclarations/0/name', /has no name/],
  ];
  it.each(missingName)('reports %s as input/missing-name', (_n, value, path, message) => {
    const ds = compileErrorOf(() => readTools(value));
    expect(brief(ds.filter((d) => d.severity === 'error'))).toEqual([{ code: 'input/missing-name', severity: 'error', path, tool: '#0' }]);
    expect(ds.find((d) => d.code === 'input/missing-name')?.message).toMatch(message);
  });

  it('collects every error of every tool, with warnings, into one CompileError', () => {
    let thrown: unknown;
    try {
      readTools(
        JSON.stringify([
          { name: 'ok', parameters: { type: 'object' } },
          { foo: 1 },
          { description: 'no name' },
          { type: 'function', function: { name: 'dup', paramters: {} } },
          { name: 'dup', input_schema: { type: 'object' } },
          { type: 'function', function: {} },
        ]),
      );
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(CompileError);
    const e = thrown as CompileError;
    expect(brief(e.diagnostics)).toEqual([
      { code: 'input/unknown-shape', severity: 'error', path: '/1', tool: '#1' },
      { code: 'input/missing-name', severity: 'error', path: '/2/name', tool: '#2' },
      { code: 'input/unknown-key', severity: 'warning', path: '/3/function/paramters', tool: 'dup' },
      { code: 'input/missing-name', severity: 'error', path: '/5/function/name', tool: '#5' },
      { code: 'input/duplicate-name', severity: 'warning', path: '/4', tool: 'dup' },
    ]);
    // the message lists the errors, one a line
    expect(e.message.split('\n')).toHaveLength(3);
    expect(e.message).toContain('error [input/missing-name] tool "#2" at /2/name');
  });

  it('turns a stack overflow on a deeply nested JS value into input/too-deep', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 200_000; i++) deep = { items: deep };
    const ds = compileErrorOf(() => readTools({ name: 'deep', parameters: deep }));
    expect(brief(ds)).toEqual([{ code: 'input/too-deep', severity: 'error', path: '' }]);
  });

  it('reads deeply nested JSON text without a stack overflow', () => {
    const depth = 50_000;
    const text = `{"name":"deep","parameters":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const r = readTools(text);
    expect(r.tools).toHaveLength(1);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['input/parameters-not-object']);
  });
});

describe('readTools: warnings', () => {
  it('warns about two tools with one name and keeps both', () => {
    const r = readTools([{ name: 'a', parameters: null }, { name: 'b' }, { name: 'a', description: 'second' }]);
    expect(r.tools.map((t) => t.name)).toEqual(['a', 'b', 'a']);
    expect(brief(r.diagnostics)).toEqual([{ code: 'input/duplicate-name', severity: 'warning', path: '/2', tool: 'a' }]);
    expect(r.diagnostics[0].message).toContain('/0');
  });

  it.each([
    ['a number', 42, JsonNumber],
    ['null', null, null],
    ['an object', { text: 'x' }, Map],
    ['an array', ['a', 'b'], Array],
  ] as const)('warns about a non-string description (%s) and keeps it as written', (_n, description, kind) => {
    const r = readTools({ type: 'function', function: { name: 't', description } });
    expect(brief(r.diagnostics)).toEqual([{ code: 'input/non-string-description', severity: 'warning', path: '/function/description', tool: 't' }]);
    const d = r.tools[0].description;
    if (kind === null) expect(d).toBeNull();
    else expect(d).toBeInstanceOf(kind);
    expect(toJs(d as JsonValue)).toEqual(description);
  });

  it('keeps a non-string description number text', () => {
    const r = readTools('{"name":"t","description":1.50}');
    expect((r.tools[0].description as JsonNumber).text).toBe('1.50');
  });

  it.each([
    ['a string', '{"type":"object"}', /a string/],
    ['an array', [{ type: 'object' }], /an array/],
    ['a boolean', true, /a boolean/],
    ['a string schema', { type: 'string' }, /type "string"/],
    ['a type list without object', { type: ['string', 'null'] }, /an array/],
  ])('warns about parameters that are %s and keeps them', (_n, parameters, message) => {
    const r = readTools({ name: 't', parameters });
    expect(brief(r.diagnostics)).toEqual([{ code: 'input/parameters-not-object', severity: 'warning', path: '/parameters', tool: 't' }]);
    expect(r.diagnostics[0].message).toMatch(message);
    expect(toJs(r.tools[0].parameters as JsonValue)).toEqual(parameters);
  });

  it.each([
    ['null', null],
    ['an object schema', { type: 'object' }],
    ['an object-or-null schema', { type: ['object', 'null'] }],
    ['an untyped schema with properties', { properties: { a: {} } }],
    ['an empty schema', {}],
  ])('does not warn about parameters that are %s', (_n, parameters) => {
    const r = readTools({ name: 't', parameters });
    expect(r.diagnostics).toEqual([]);
    expect(r.tools[0].parameters === null ? null : toJs(r.tools[0].parameters as JsonValue)).toEqual(parameters);
  });

  it('warns about an Anthropic input_schema that is not an object schema', () => {
    const r = readTools({ name: 't', input_schema: { type: 'array' } });
    expect(brief(r.diagnostics)).toEqual([{ code: 'input/parameters-not-object', severity: 'warning', path: '/input_schema', tool: 't' }]);
  });

  it('warns about an unknown key, suggesting the key meant', () => {
    const r = readTools([{ name: 't', description: 'd', paramters: { type: 'object' } }]);
    expect(brief(r.diagnostics)).toEqual([{ code: 'input/unknown-key', severity: 'warning', path: '/0/paramters', tool: 't' }]);
    expect(r.diagnostics[0].message).toContain('did you mean "parameters"?');
    expect(r.tools[0]).not.toHaveProperty('parameters');
  });

  it('warns about unknown keys on the function object and the wrapper of an OpenAI Chat tool', () => {
    const r = readTools({ type: 'function', extra: 1, function: { name: 't', input_schema: {} } });
    expect(brief(r.diagnostics)).toEqual([
      { code: 'input/unknown-key', severity: 'warning', path: '/extra', tool: 't' },
      { code: 'input/unknown-key', severity: 'warning', path: '/function/input_schema', tool: 't' },
    ]);
  });

  it('warns about a __proto__ key on a wrapper as an ordinary unknown key', () => {
    const r = readTools('{"name":"t","__proto__":{"x":1}}');
    expect(brief(r.diagnostics)).toEqual([{ code: 'input/unknown-key', severity: 'warning', path: '/__proto__', tool: 't' }]);
  });

  it('escapes unknown keys in the pointer', () => {
    const r = readTools({ name: 't', 'a/b~c': 1 });
    expect(r.diagnostics[0].path).toBe('/a~1b~0c');
    expect(r.diagnostics[0].message).toContain('"a/b~c"');
  });

  it('warns about unknown keys on containers without a tool', () => {
    const r = readTools({ tools: [{ name: 'a', inputSchema: {} }], model: 'x' });
    expect(brief(r.diagnostics)).toEqual([{ code: 'input/unknown-key', severity: 'warning', path: '/model' }]);
  });

  it('warns about an empty name and labels the tool by index', () => {
    const r = readTools([{ name: 'a' }, { name: '' }]);
    expect(r.tools.map((t) => t.name)).toEqual(['a', '']);
    expect(brief(r.diagnostics)).toEqual([{ code: 'input/empty-name', severity: 'warning', path: '/1/name', tool: '#1' }]);
  });

  it.each([
    ['strict that is a string', { type: 'function', name: 't', strict: 'yes' }, '/strict', /"strict" is a string, expected a boolean or null/],
    ['an MCP title that is a number', { name: 't', inputSchema: {}, title: 5 }, '/title', /"title" is a number, expected a string/],
    ['a JSON-RPC version that is not 2.0', { jsonrpc: '1.0', id: 1, result: { tools: [] } }, '/jsonrpc', /expected "2.0"/],
    ['an OpenAI Chat tool without type', { function: { name: 't' } }, '/type', /"type" is missing \(expected "function"\)/],
  ])('warns about %s (input/invalid-key) and ignores it', (_n, value, path, message) => {
    const r = readTools(value);
    expect(r.diagnostics.map((d) => [d.code, d.severity, d.path])).toEqual([['input/invalid-key', 'warning', path]]);
    expect(r.diagnostics[0].message).toMatch(message);
    for (const t of r.tools) {
      expect(t).not.toHaveProperty('strict');
      expect(t).not.toHaveProperty('title');
    }
  });

  it('warns when a Gemini declaration has both parameters and parametersJsonSchema, and uses the JSON Schema', () => {
    const r = readTools({ functionDeclarations: [{ name: 't', parameters: { type: 'OBJECT' }, parametersJsonSchema: { type: 'object', title: 'js' } }] });
    expect(brief(r.diagnostics)).toEqual([{ code: 'input/conflicting-keys', severity: 'warning', path: '/functionDeclarations/0/parameters', tool: 't' }]);
    expect(toJs(r.tools[0].parameters as JsonValue)).toEqual({ type: 'object', title: 'js' });
    expect(r.tools[0].parametersPointer).toBe('/functionDeclarations/0/parametersJsonSchema');
  });

  it('does not throw for warnings only', () => {
    expect(() => readTools([{ name: 'x', paramters: 1 }, { name: 'x', description: 3 }])).not.toThrow();
  });
});

describe('readTools: Gemini types', () => {
  const text = JSON.stringify({
    functionDeclarations: [
      {
        name: 'find',
        parameters: {
          type: 'OBJECT',
          properties: {
            q: { type: 'STRING', enum: ['STRING', 'NUMBER'] },
            n: { type: 'INTEGER', default: 'NUMBER' },
            tags: { type: 'ARRAY', items: { type: 'STRING' } },
            any: { anyOf: [{ type: 'NUMBER' }, { type: 'NULL' }] },
            type: { type: 'BOOLEAN' },
          },
          required: ['q'],
        },
      },
      { name: 'plain', parameters: { type: 'object', properties: {} } },
    ],
  });

  it('lower-cases Gemini type names and says so once per tool', () => {
    const r = readTools(text);
    expect(toJs(r.tools[0].parameters as JsonValue)).toEqual({
      type: 'object',
      properties: {
        q: { type: 'string', enum: ['STRING', 'NUMBER'] },
        n: { type: 'integer', default: 'NUMBER' },
        tags: { type: 'array', items: { type: 'string' } },
        any: { anyOf: [{ type: 'number' }, { type: 'null' }] },
        type: { type: 'boolean' },
      },
      required: ['q'],
    });
    expect(brief(r.diagnostics)).toEqual([{ code: 'input/gemini-types-normalised', severity: 'info', path: '/functionDeclarations/0/parameters', tool: 'find' }]);
    expect(r.diagnostics[0].message).toMatch(/in 8 places: OBJECT → object at \/functionDeclarations\/0\/parameters\/type/);
  });

  it('leaves parametersJsonSchema alone', () => {
    const r = readTools({ functionDeclarations: [{ name: 'x', parametersJsonSchema: { type: 'object', properties: { a: { type: 'STRING' } } } }] });
    expect(toJs(r.tools[0].parameters as JsonValue)).toEqual({ type: 'object', properties: { a: { type: 'STRING' } } });
    expect(r.diagnostics).toEqual([]);
  });

  it('does not normalise other formats', () => {
    const r = readTools({ name: 'x', parameters: { type: 'OBJECT' } });
    expect(toJs(r.tools[0].parameters as JsonValue)).toEqual({ type: 'OBJECT' });
    expect(r.diagnostics.map((d) => d.code)).toEqual(['input/parameters-not-object']);
  });
});

describe('detectFormat', () => {
  it.each([
    ['OpenAI Chat', { type: 'function', function: { name: 'a' } }, 'openai-chat'],
    ['OpenAI Responses', { type: 'function', name: 'a' }, 'openai-responses'],
    ['Anthropic', { name: 'a', input_schema: {} }, 'anthropic'],
    ['MCP tool', { name: 'a', inputSchema: {} }, 'mcp'],
    ['MCP list', { tools: [{ name: 'a', inputSchema: {} }] }, 'mcp'],
    ['empty MCP list', { tools: [] }, 'mcp'],
    ['JSON-RPC', { jsonrpc: '2.0', id: 1, result: { tools: [] } }, 'mcp'],
    ['Gemini', { functionDeclarations: [{ name: 'a' }] }, 'gemini'],
    ['empty Gemini tool', { functionDeclarations: [] }, 'gemini'],
    ['Gemini list', [{ functionDeclarations: [{ name: 'a' }] }], 'gemini'],
    ['bare', { name: 'a' }, 'bare'],
    ['a uniform array', [{ name: 'a', input_schema: {} }, { name: 'b', input_schema: {} }], 'anthropic'],
    ['JSON text', '[{"type":"function","name":"a"}]', 'openai-responses'],
    ['UTF-8 bytes', new TextEncoder().encode('{"name":"a","input_schema":{}}'), 'anthropic'],
    ['a TypeBox-parameter tool', { name: 'a', parameters: Type.Object({}) }, 'bare'],
    ['a mixed array', [{ name: 'a' }, { name: 'b', inputSchema: {} }], undefined],
    ['an unknown object', { foo: 1 }, undefined],
    ['an empty array', [], undefined],
    ['a number', 3, undefined],
    ['a non-function tool', { type: 'web_search' }, undefined],
    ['invalid JSON text', '{', undefined],
    ['a function', () => 1, undefined],
  ])('%s → %s', (_n, value, want) => {
    expect(detectFormat(value)).toBe(want);
  });
});
