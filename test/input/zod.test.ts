/**
 * Schemas of JavaScript schema libraries (zod 4 through zod's own toJSONSchema, zod 3, Standard JSON
 * Schema, the AI SDK's jsonSchema() wrapper) and the shapes found beside them: Vercel AI SDK tool
 * records, legacy OpenAI `functions`, Gemini's snake_case `function_declarations`.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { z as z3 } from 'zod/v3';
import { renderPart } from '../../src/api/render.js';
import { CompileError } from '../../src/diagnostics.js';
import { toJs, type JsonValue } from '../../src/ir/json.js';
import { detectFormat, readTools } from '../../src/input/read.js';
import { prepareJsValue, ZOD_JSON_SCHEMA_OPTIONS, type PrepareProblem } from '../../src/input/zod.js';

const Weather = z.object({
  city: z.string().describe('The city'),
  days: z.number().int().min(1).default(1).describe('Forecast days'),
  unit: z.enum(['c', 'f']).optional(),
});
const WEATHER_JSON = z.toJSONSchema(Weather, ZOD_JSON_SCHEMA_OPTIONS);

/** The AI SDK's jsonSchema() as it builds it (a symbol mark, a lazy getter, a validate function). */
function aiJsonSchema(schema: object): object {
  return { [Symbol.for('vercel.ai.schema')]: true, _type: undefined, get jsonSchema() { return schema; }, validate: () => ({ success: true }) };
}

/** The error diagnostics of a read that throws. */
function errorsOf(input: unknown): { code: string; tool?: string; path: string; message: string }[] {
  try {
    readTools(input);
  } catch (e) {
    if (e instanceof CompileError) return e.diagnostics.filter((d) => d.severity === 'error').map(({ code, tool, path, message }) => ({ code, ...(tool !== undefined ? { tool } : {}), path, message }));
    throw e;
  }
  throw new Error('expected a CompileError');
}

describe('zod schemas as parameters', () => {
  it("are converted with zod's own toJSONSchema (the tool's input, draft-07), in any tool shape", () => {
    for (const tool of [
      { name: 'weather', description: 'Weather.', parameters: Weather },
      { type: 'function', function: { name: 'weather', description: 'Weather.', parameters: Weather } },
      { name: 'weather', description: 'Weather.', inputSchema: Weather },
    ]) {
      const r = readTools([tool]);
      expect(r.diagnostics).toEqual([]);
      expect(toJs(r.tools[0].parameters as JsonValue)).toEqual(WEATHER_JSON);
    }
  });

  it('render as the schema says, not as `(_: {\\n}) => any`', () => {
    const text = renderPart([{ name: 'weather', description: 'Weather.', parameters: Weather }], { part: 'catalog' }).text;
    expect(text).toContain('type weather = (_: {\n// The city\ncity: string,\n// Forecast days\ndays?: number, // default: 1\nunit?: "c" | "f",\n}) => any;');
  });

  it('zod mini schemas too (no methods, only _zod)', () => {
    const r = readTools({ name: 'ping', parameters: zm.object({ host: zm.string() }) });
    expect(toJs(r.tools[0].parameters as JsonValue)).toEqual({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { host: { type: 'string' } }, required: ['host'] });
  });

  it('a schema zod cannot convert is an error at its pointer, naming the tool and zod', () => {
    expect(errorsOf([{ name: 'when', parameters: z.object({ at: z.date() }) }])).toEqual([
      { code: 'input/schema-conversion', tool: 'when', path: '/0/parameters', message: "zod's toJSONSchema cannot convert this schema: Date cannot be represented in JSON Schema" },
    ]);
  });

  it('a zod 3 schema is an error that says how to convert it', () => {
    const [d] = errorsOf({ type: 'function', function: { name: 'old', parameters: z3.object({ a: z3.string() }) } });
    expect(d).toMatchObject({ code: 'input/zod-3', tool: 'old', path: '/function/parameters' });
    expect(d.message).toMatch(/upgrade to zod 4 .*zodToJsonSchema\(schema\)/);
  });

  it("when zod cannot be loaded: the schema's own Standard JSON Schema converter, else an error naming what to do", () => {
    const cannot = () => {
      throw new Error("Cannot find module 'zod/v4/core'");
    };
    const problems: PrepareProblem[] = [];
    // zod classic ≥ 4.2 carries its converter (~standard.jsonSchema), with the same options
    expect(prepareJsValue({ name: 'w', parameters: Weather }, problems, { loadZod: cannot })).toEqual({ name: 'w', parameters: WEATHER_JSON });
    expect(problems).toEqual([]);
    // zod mini does not
    expect(prepareJsValue({ name: 'w', parameters: zm.object({}) }, problems, { loadZod: cannot })).toEqual({ name: 'w', parameters: null });
    expect(problems).toEqual([
      {
        code: 'input/zod-unavailable',
        path: '/parameters',
        message:
          "a zod schema, but zod cannot be loaded from harmony-catalog (Cannot find module 'zod/v4/core'): install zod 4 beside harmony-catalog (npm install zod), " +
          "or pass JSON Schema: z.toJSONSchema(schema, { target: 'draft-7', io: 'input' })",
      },
    ]);
  });

  it('leaves a value without schemas alone (the same object)', () => {
    const v = [{ name: 'a', parameters: { type: 'object', properties: { x: { type: 'string' } } } }];
    expect(prepareJsValue(v, [])).toBe(v);
  });

  it('another Standard JSON Schema library is converted through ~standard.jsonSchema.input', () => {
    const json = { type: 'object', properties: { q: { type: 'string' } } };
    const schema = { '~standard': { version: 1, vendor: 'arktype', validate: () => ({ value: 1 }), jsonSchema: { input: (o: { target: string }) => ({ ...json, $comment: o.target }) } } };
    const r = readTools({ name: 'search', parameters: schema });
    expect(toJs(r.tools[0].parameters as JsonValue)).toEqual({ ...json, $comment: 'draft-07' });
    const [d] = errorsOf({ name: 'search', parameters: { '~standard': { version: 1, vendor: 'valibot', validate: () => ({ value: 1 }) } } });
    expect(d).toMatchObject({ code: 'input/schema-conversion', tool: 'search', path: '/parameters' });
    expect(d.message).toContain('a valibot schema (Standard Schema) without a JSON Schema converter');
  });
});

describe('Vercel AI SDK tool records', () => {
  const execute = async () => ({ ok: true });
  const record = {
    weather: { description: 'Weather.', inputSchema: Weather, execute },
    search: { description: 'Search.', inputSchema: aiJsonSchema({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }), execute, onInputStart: () => {} },
    legacy: { description: 'AI SDK 4 kept it in parameters.', parameters: z.object({ id: z.string() }), execute },
  };

  it('are read by key: names, schemas (zod, jsonSchema()), pointers; functions are dropped', () => {
    const r = readTools(record);
    expect(r.diagnostics).toEqual([]);
    expect(r.tools.map((t) => [t.name, t.format, t.pointer, t.parametersPointer, t.description])).toEqual([
      ['weather', 'ai-sdk', '/weather', '/weather/inputSchema', 'Weather.'],
      ['search', 'ai-sdk', '/search', '/search/inputSchema/jsonSchema', 'Search.'],
      ['legacy', 'ai-sdk', '/legacy', '/legacy/parameters', 'AI SDK 4 kept it in parameters.'],
    ]);
    expect(toJs(r.tools[0].parameters as JsonValue)).toEqual(WEATHER_JSON);
    expect(toJs(r.tools[1].parameters as JsonValue)).toEqual({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] });
    expect(detectFormat(record)).toBe('ai-sdk');
  });

  it('read the same as JSON text (JSON.stringify of jsonSchema() is {jsonSchema: …})', () => {
    const text = JSON.stringify({ search: record.search });
    expect(text).toBe('{"search":{"description":"Search.","inputSchema":{"jsonSchema":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}}}}');
    const r = readTools(text);
    expect(r.tools.map((t) => [t.name, t.parametersPointer])).toEqual([['search', '/search/inputSchema/jsonSchema']]);
    expect(renderPart(text, { part: 'catalog' }).text).toContain('// Search.\ntype search = (_: {\nq: string,\n}) => any;');
  });

  it('a provider tool in the record is named as not a function tool; unknown keys warn', () => {
    const [d] = errorsOf({ weather: record.weather, web_search: { type: 'provider-defined', id: 'openai.web_search', args: {} } });
    expect(d).toMatchObject({ code: 'input/unknown-shape', tool: 'web_search', path: '/web_search' });
    expect(d.message).toContain('an AI SDK tool of type "provider-defined", not a function tool');
    const r = readTools({ w: { inputSchema: {}, colour: 'red' } });
    expect(r.diagnostics.map((x) => [x.code, x.tool, x.path])).toEqual([['input/unknown-key', 'w', '/w/colour']]);
  });
});

describe('legacy OpenAI functions and Gemini snake_case', () => {
  it('reads {functions: [...]} (and warns about the request keys beside it)', () => {
    const r = readTools({ functions: [{ name: 'a', description: 'A.', parameters: { type: 'object' } }, { name: 'b' }], function_call: 'auto' });
    expect(r.tools.map((t) => [t.name, t.format, t.parametersPointer])).toEqual([
      ['a', 'openai-functions', '/functions/0/parameters'],
      ['b', 'openai-functions', '/functions/1/parameters'],
    ]);
    expect(r.diagnostics.map((d) => [d.code, d.path])).toEqual([['input/unknown-key', '/function_call']]);
    expect(detectFormat({ functions: [] })).toBe('openai-functions');
    // a list of such function objects is the bare shape
    expect(readTools([{ name: 'a', description: 'A.', parameters: { type: 'object' } }]).tools[0].format).toBe('bare');
  });

  it('reads function_declarations, parameters_json_schema, and normalises Gemini types as for camelCase', () => {
    const r = readTools({
      function_declarations: [
        { name: 'a', parameters: { type: 'OBJECT', properties: { x: { type: 'STRING' } } } },
        { name: 'b', parameters_json_schema: { type: 'object', properties: { y: { type: 'integer' } } } },
      ],
    });
    expect(r.tools.map((t) => [t.name, t.format, t.parametersPointer])).toEqual([
      ['a', 'gemini', '/function_declarations/0/parameters'],
      ['b', 'gemini', '/function_declarations/1/parameters_json_schema'],
    ]);
    expect(toJs(r.tools[0].parameters as JsonValue)).toEqual({ type: 'object', properties: { x: { type: 'string' } } });
    expect(r.diagnostics.map((d) => d.code)).toEqual(['input/gemini-types-normalised']);
    expect(detectFormat({ function_declarations: [{ name: 'a' }] })).toBe('gemini');
  });

  it('tool objects of agent SDKs: their functions are code, dropped; a function as the schema is still an error', () => {
    const agentsTool = { type: 'function', name: 'f', description: 'F.', parameters: { type: 'object', properties: {} }, strict: true, invoke: async () => '', needsApproval: async () => false };
    const r = readTools([agentsTool]);
    expect(r.diagnostics).toEqual([]);
    expect(r.tools[0]).toMatchObject({ name: 'f', format: 'openai-responses', strict: true });
    expect(errorsOf([{ name: 'g', parameters: () => ({}) }])).toEqual([{ code: 'input/not-json-value', tool: 'g', path: '/0/parameters', message: 'not a JSON value: a function is not a JSON value' }]);
  });
});
