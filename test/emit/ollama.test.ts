/**
 * Ollama's gpt-oss tools section (src/emit/ollama): each rule of the Go template's `range .Tools`
 * block, `ToolProperty.ToTypeScriptType`, `FunctionNameMap`, and what Go's decoding of a tool
 * drops or refuses. Expected texts are written by hand from the template (x/create/client/
 * create.go `gptossDefaultTemplate`) and api/types.go.
 */
import { describe, expect, it } from 'vitest';
import { CompileError, isCompileError } from '../../src/diagnostics.js';
import { emitOllamaToolsSection, ollamaCatalog, ollamaFunctionNames, ollamaOriginalNames, ollamaPromptNames, ollamaValidChars } from '../../src/emit/ollama/catalog.js';
import { compareGoStrings, goMarshal, goQuote } from '../../src/emit/ollama/gojson.js';
import { readTools } from '../../src/input/read.js';
import type { ToolDefinition } from '../../src/input/types.js';
import { parseJson } from '../../src/ir/json.js';
import type { IrTool } from '../../src/ir/nodes.js';
import { lowerTool } from '../../src/lower/index.js';
import { HAVE_SHARED, readOracleCases, sharedMissingNote, sharedPath } from '../support/shared.js';

/** Tools as written (OpenAI Chat shape) → definitions and IR. */
function compile(tools: unknown[]): { defs: readonly ToolDefinition[]; ir: IrTool[] } {
  const defs = readTools(tools).tools;
  return { defs, ir: defs.map((d) => lowerTool(d).tool) };
}

/** A function tool. */
function fn(name: string, parameters?: unknown, description?: string): unknown {
  return { type: 'function', function: { name, ...(description !== undefined ? { description } : {}), ...(parameters !== undefined ? { parameters } : {}) } };
}

/** The section for tools as written (Go's reading), and the IR's reading. */
function section(tools: unknown[]): { text: string; ir: string; codes: string[] } {
  const { defs, ir } = compile(tools);
  const raw = emitOllamaToolsSection(ir, defs);
  return { text: raw.text, ir: emitOllamaToolsSection(ir).text, codes: raw.diagnostics.map((d) => d.code) };
}

/** The type Ollama prints for one property schema. */
function typeOf(schema: unknown): { raw: string; ir: string } {
  const s = section([fn('f', { type: 'object', properties: { p: schema } })]);
  const line = (t: string) => /\n {2}p: (.*),\n\}\) => any;/.exec(t)?.[1] ?? `(no line in ${JSON.stringify(t)})`;
  return { raw: line(s.text), ir: line(s.ir) };
}

const HEAD = '# Tools\n\n## functions\n\nnamespace functions {';
const TAIL = '\n\n} // namespace functions';

describe('the functions namespace', () => {
  it('prints a tool as the template does: blank line, description, two-space properties, no optional marks', () => {
    const s = section([
      fn('get_weather', { type: 'object', properties: { location: { type: 'string', description: 'City name' }, unit: { type: 'string', enum: ['c', 'f'] } }, required: ['location'] }, 'Get the current weather'),
    ]);
    expect(s.text).toBe(`${HEAD}\n\n// Get the current weather\ntype get_weather = (_: {\n  // City name\n  location: string,\n  unit: string,\n}) => any;${TAIL}`);
    expect(s.ir).toBe(s.text);
  });

  it('writes no comment line for a tool or property without description, and () => any without properties', () => {
    const s = section([fn('a', { type: 'object', properties: { x: { type: 'integer' } } }), fn('b', { type: 'object', properties: {} }), fn('c'), fn('d', { type: 'object' }, 'D')]);
    expect(s.text).toBe(`${HEAD}\n\ntype a = (_: {\n  x: number,\n}) => any;\n\ntype b = () => any;\n\ntype c = () => any;\n\n// D\ntype d = () => any;${TAIL}`);
    expect(s.ir).toBe(s.text);
  });

  it('sorts properties by their UTF-8 bytes (text/template ranges a Go map in key order), not by document or UTF-16 order', () => {
    const s = section([fn('f', { type: 'object', properties: { b: {}, a: {}, C: {}, _x: {}, 'é': {}, '\u{1F600}': {}, '\uFF01': {} } })]);
    const names = [...s.text.matchAll(/\n {2}(.*): any,/g)].map((m) => m[1]);
    expect(names).toEqual(['C', '_x', 'a', 'b', 'é', '\uFF01', '\u{1F600}']);
    expect(compareGoStrings('\uFF01', '\u{1F600}')).toBe(-1);
    expect(['\uFF01', '\u{1F600}'].sort()).toEqual(['\u{1F600}', '\uFF01']);
    expect(s.ir).toBe(s.text);
  });

  it('writes descriptions raw, line breaks and all', () => {
    const s = section([fn('f', { type: 'object', properties: { p: { type: 'string', description: 'one\ntwo */ <b>&' } } }, 'Tool\n\ndoc')]);
    expect(s.text).toBe(`${HEAD}\n\n// Tool\n\ndoc\ntype f = (_: {\n  // one\ntwo */ <b>&\n  p: string,\n}) => any;${TAIL}`);
  });

  it('is empty when there are no tools, or only builtins (they go to the system message)', () => {
    expect(emitOllamaToolsSection([]).text).toBe('');
    const c = compile([fn('python', { type: 'object', properties: { code: { type: 'string' } } }), fn('browser.search')]);
    const out = ollamaCatalog(c.ir, c.defs);
    expect(out.text).toBe('');
    expect(out.builtins).toEqual(['python', 'browser.search']);
    expect(out.diagnostics.filter((d) => d.code === 'ollama/builtin-tool')).toHaveLength(2);
  });

  it('keeps builtins out of the namespace beside function tools', () => {
    const s = section([fn('python'), fn('lookup', undefined, 'L')]);
    expect(s.text).toBe(`${HEAD}\n\n// L\ntype lookup = () => any;${TAIL}`);
  });
});

describe('ToolProperty.ToTypeScriptType', () => {
  const table: [string, unknown, string][] = [
    ['string', { type: 'string' }, 'string'],
    ['number', { type: 'number' }, 'number'],
    ['integer', { type: 'integer' }, 'number'],
    ['boolean', { type: 'boolean' }, 'boolean'],
    ['array (items never read)', { type: 'array', items: { type: 'string' } }, 'any[]'],
    ['object (properties never read)', { type: 'object', properties: { a: { type: 'string' } } }, 'Record<string, any>'],
    ['null', { type: 'null' }, 'null'],
    ['an unknown name', { type: 'date' }, 'any'],
    ['no type', { description: 'x' }, 'any'],
    ['a type list', { type: ['string', 'null'] }, 'string | null'],
    ['a type list keeps duplicates after mapping', { type: ['integer', 'number'] }, 'number | number'],
    ['a string enum prints its type', { type: 'string', enum: ['a', 'b'] }, 'string'],
    ['an enum without type', { enum: ['a', 'b'] }, 'any'],
    ['anyOf', { anyOf: [{ type: 'string' }, { type: 'integer' }] }, 'string | number'],
    ['anyOf wins over type', { type: 'string', anyOf: [{ type: 'number' }, { type: 'null' }] }, 'number | null'],
    ['nested anyOf flattened', { anyOf: [{ anyOf: [{ type: 'string' }, { type: 'boolean' }] }, { type: 'array' }] }, 'string | boolean | any[]'],
    ['anyOf variant without type', { anyOf: [{ type: 'string' }, { enum: [1] }] }, 'string | any'],
    ['oneOf is not read', { oneOf: [{ type: 'string' }, { type: 'number' }] }, 'any'],
    ['oneOf beside type: the type', { type: 'string', oneOf: [{ minLength: 1 }, { maxLength: 3 }] }, 'string'],
    ['allOf is not read', { allOf: [{ type: 'string' }] }, 'any'],
    ['$ref is not resolved', { $ref: '#/$defs/x' }, 'any'],
    ['const is not read', { const: 'x' }, 'any'],
    ['nullable is not read', { type: 'string', nullable: true }, 'string'],
  ];
  it.each(table)('%s', (_, schema, want) => {
    const t = typeOf(schema);
    expect(t.raw).toBe(want);
    expect(t.ir).toBe(want);
  });

  it('reads what Go reads where JSON Schema reads otherwise: an empty type list, type null, a case-folded key', () => {
    expect(typeOf({ type: [] }).raw).toBe('any');
    expect(typeOf({ type: null }).raw).toBe('any');
    expect(typeOf({ type: ['string', null] }).raw).toBe('string | any');
    // Go fills `type` from `Type` (encoding/json matches keys case-insensitively); JSON Schema ignores it
    expect(typeOf({ Type: 'string' })).toEqual({ raw: 'string', ir: 'any' });
    expect(typeOf({ TYPE: 'integer', DESCRIPTION: 'n' }).raw).toBe('number');
  });
});

describe('FunctionNameMap', () => {
  it.each([
    ['get weather', 'get_weather'],
    ['a-b.c', 'a_b_c'],
    ['x/y!z', 'xyz'],
    ['$ok_', '$ok_'],
    ['123abc', '_123abc'],
    ['!!!', 'unnamed'],
    ['é', 'é'],
    ['名前', '名前'],
    ['\u0661\u0662', '\u0661\u0662'], // Arabic-Indic digits: Go tests the first byte, so no `_`
    ['²x', 'x'], // superscript two is No, not Nd: removed
  ])('%j → %j', (name, want) => {
    expect(ollamaValidChars(name)).toBe(want);
  });

  it('numbers duplicates from 2, skips taken names, keeps builtins, leaves empty names alone', () => {
    expect(ollamaPromptNames(['f', 'f', 'f_2', 'f', 'python', 'browser.search', '', 'a b', 'a-b'])).toEqual(['f', 'f_2', 'f_2_2', 'f_3', 'python', 'browser.search', '', 'a_b', 'a_b_2']);
    expect([...ollamaFunctionNames(['get-weather', 'x'])]).toEqual([['get-weather', 'get_weather'], ['x', 'x']]);
    expect([...ollamaOriginalNames(['get-weather', 'get.weather'])]).toEqual([['get_weather', 'get-weather'], ['get_weather_2', 'get.weather']]);
  });

  it('prints the prompt name and reports the rename', () => {
    const c = compile([fn('get-weather'), fn('get.weather')]);
    const out = ollamaCatalog(c.ir, c.defs);
    expect(out.text).toBe(`${HEAD}\n\ntype get_weather = () => any;\n\ntype get_weather_2 = () => any;${TAIL}`);
    expect(out.promptNames).toEqual(['get_weather', 'get_weather_2']);
    expect(out.diagnostics.filter((d) => d.code === 'ollama/tool-renamed').map((d) => d.path)).toEqual(['/0', '/1']);
  });
});

describe("what Go's decoding of a tool loses or refuses", () => {
  it('reports keys with no Go field as dropped, where they stand', () => {
    const { defs, ir } = compile([fn('f', { type: 'object', additionalProperties: false, properties: { n: { type: 'integer', minimum: 1, default: 3, title: 'N' } }, required: ['n'] })]);
    const d = emitOllamaToolsSection(ir, defs).diagnostics.filter((x) => x.code === 'ollama/dropped-keyword');
    expect(d.map((x) => x.path)).toEqual(['/0/function/parameters/additionalProperties', '/0/function/parameters/properties/n/minimum', '/0/function/parameters/properties/n/default', '/0/function/parameters/properties/n/title']);
    expect(d.every((x) => x.severity === 'info' && x.tool === 'f')).toBe(true);
  });

  it('reports strict as dropped (ToolFunction has no field for it)', () => {
    const { defs, ir } = compile([{ type: 'function', function: { name: 'f', strict: true, parameters: { type: 'object', properties: {} } } }]);
    expect(emitOllamaToolsSection(ir, defs).diagnostics.map((d) => `${d.code} ${d.path}`)).toEqual(['ollama/dropped-keyword /0/function/strict']);
  });

  it('reports what it keeps but never prints: enums, items, nested properties, optional marks', () => {
    const { defs, ir } = compile([fn('f', { type: 'object', properties: { e: { type: 'string', enum: ['a'] }, l: { type: 'array', items: { type: 'string' } }, o: { type: 'object', properties: { x: { type: 'string', description: 'inner' } } } }, required: ['e'] })]);
    const d = emitOllamaToolsSection(ir, defs).diagnostics.filter((x) => x.code === 'ollama/not-shown');
    expect(d.map((x) => x.path)).toEqual([
      '/0/function/parameters/properties/e/enum',
      '/0/function/parameters/properties/l/items',
      '/0/function/parameters/properties/o/properties',
      '/0/function/parameters/properties/o/properties/x/description',
      '/0/function/parameters/required',
    ]);
    expect(d[4].message).toContain('"l", "o"');
  });

  it('reports a key Go matches case-insensitively', () => {
    const s = section([fn('f', { type: 'object', properties: { p: { Description: 'd', type: 'string' } } })]);
    expect(s.codes).toContain('ollama/case-folded-key');
    expect(s.text).toContain('\n  // d\n  p: string,');
  });

  const refusals: [string, unknown][] = [
    ['a description that is not a string', { type: 'object', properties: { p: { description: 5 } } }],
    ['a boolean schema as a property', { type: 'object', properties: { p: true } }],
    ['a type that is a number', { type: 'object', properties: { p: { type: 5 } } }],
    ['a type list holding a non-string', { type: 'object', properties: { p: { type: ['string', 1] } } }],
    ['a parameters type that is a list', { type: ['object', 'null'], properties: { p: { type: 'string' } } }],
    ['anyOf that is not a list', { type: 'object', properties: { p: { anyOf: { type: 'string' } } } }],
    ['enum that is not a list', { type: 'object', properties: { p: { enum: 'a' } } }],
    ['required that is not a list of strings', { type: 'object', properties: {}, required: [1] }],
    ['properties that are not an object', { type: 'object', properties: ['p'] }],
    ['a nested property that is not an object', { type: 'object', properties: { o: { type: 'object', properties: { x: 'string' } } } }],
  ];
  it.each(refusals)('refuses %s with a CompileError (ollama/refused)', (_, parameters) => {
    const { defs, ir } = compile([fn('f', parameters)]);
    let err: unknown;
    try {
      emitOllamaToolsSection(ir, defs);
    } catch (e) {
      err = e;
    }
    expect(isCompileError(err)).toBe(true);
    expect((err as CompileError).diagnostics.filter((d) => d.severity === 'error').every((d) => d.code === 'ollama/refused' && d.path.startsWith('/0/function/'))).toBe(true);
  });

  it('refuses a tool description that is not a string, at its pointer', () => {
    const defs: ToolDefinition[] = [{ name: 'f', description: parseJson('[1]'), format: 'bare', pointer: '/0', parametersPointer: '/0/parameters' }];
    const c = ollamaCatalog(defs.map((d) => lowerTool(d).tool), defs);
    expect(c.diagnostics.find((d) => d.severity === 'error')?.path).toBe('/0/description');
  });

  it('reads null where Go leaves a field empty, without refusing', () => {
    const s = section([fn('f', { type: 'object', properties: { p: { description: null, enum: null, anyOf: null, type: 'string' }, q: null } })]);
    expect(s.text).toBe(`${HEAD}\n\ntype f = (_: {\n  p: string,\n  q: any,\n}) => any;${TAIL}`);
  });
});

describe('Go JSON (the arguments Ollama re-serialises)', () => {
  it('escapes as json.Marshal does', () => {
    expect(goQuote('a<b>&"\\\n\t\b\f\r\u0001\u007f\u2028\u2029é')).toBe('"a\\u003cb\\u003e\\u0026\\"\\\\\\n\\t\\b\\f\\r\\u0001\u007f\\u2028\\u2029é"');
    expect(goQuote('\ud800x')).toBe('"\ufffdx"');
  });
  it('sorts map keys, writes float64 numbers as Go does', () => {
    expect(goMarshal(parseJson('{"b":1.0,"a":{"d":[1E2,-0,1e21,1e-7,0.1],"c":true},"A":null}'))).toBe('{"A":null,"a":{"c":true,"d":[100,-0,1e+21,1e-7,0.1]},"b":1}');
    expect(goMarshal(parseJson('{"n":12345678901234567890}'))).toBe('{"n":12345678901234567000}');
  });
});

if (HAVE_SHARED) describe('the IR reading and the Go reading agree on real tools', () => {
  it('corpus-single: the same text whenever Go reads no case-folded key and refuses nothing', () => {
    const cases = readOracleCases(sharedPath('oracles/inputs/corpus-single.jsonl'));
    let same = 0;
    let compared = 0;
    const differ: string[] = [];
    for (const c of cases) {
      let defs: readonly ToolDefinition[];
      try {
        defs = readTools(c.tools).tools;
      } catch {
        continue;
      }
      const ir = defs.map((d) => lowerTool(d).tool);
      const raw = ollamaCatalog(ir, defs);
      if (raw.diagnostics.some((d) => d.severity === 'error' || d.code === 'ollama/case-folded-key')) continue;
      compared++;
      if (ollamaCatalog(ir).text === raw.text) same++;
      else differ.push(c.id);
    }
    console.log(`ollama catalog, IR vs Go reading on corpus-single: ${same}/${compared} identical`);
    expect(compared).toBeGreaterThan(1000);
    expect(differ).toEqual([]);
  });
});
else it('the IR reading and the Go reading agree on real tools', () => {
  console.log(sharedMissingNote('ollama catalog corpus agreement'));
  expect(HAVE_SHARED).toBe(false);
});
