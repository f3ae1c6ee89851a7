/**
 * checkToolCalls: calls against the catalog (names, JSON, schema through Ajv), incomplete and
 * analysis-channel calls, opt-in repairs that are always reported, older-draft schemas.
 */
import { describe, expect, it } from 'vitest';
import { CompileError, type Diagnostic } from '../../src/diagnostics.js';
import { readTools } from '../../src/input/read.js';
import { checkToolCalls, schemaForAjv, toolCallsFromParse } from '../../src/parse/check.js';
import { toChatCompletion } from '../../src/parse/openai.js';
import type { HarmonyParseResult, ParsedHarmonyMessage } from '../../src/parse/types.js';
import { parseJson, toJs } from '../../src/ir/json.js';

const WEATHER = {
  type: 'function',
  function: {
    name: 'get_weather',
    parameters: {
      type: 'object',
      properties: {
        location: { type: 'string' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        days: { type: 'integer', minimum: 1 },
      },
      required: ['location'],
      additionalProperties: false,
    },
  },
};
const NO_PARAMS = { type: 'function', function: { name: 'get_location' } };
const TOOLS = [WEATHER, NO_PARAMS];

const codes = (d: readonly Diagnostic[]) => d.map((x) => x.code);

describe('checkToolCalls', () => {
  it('a call that matches its schema is valid and runnable, with the parsed value', async () => {
    const r = await checkToolCalls([{ name: 'get_weather', arguments: '{"location": "Paris", "days": 3}' }], TOOLS);
    expect(r.diagnostics).toEqual([]);
    expect(r.calls).toEqual([{ index: 0, name: 'get_weather', arguments: '{"location": "Paris", "days": 3}', value: { location: 'Paris', days: 3 }, valid: true, runnable: true }]);
  });

  it('takes Chat Completions tool calls as toChatCompletion returns them', async () => {
    const parsed: HarmonyParseResult = {
      messages: [{ role: 'assistant', channel: 'commentary', recipient: 'functions.get_weather', content_type: '<|constrain|>json', content: '{"location":"東京"}' }],
      stops: ['<|call|>'],
      completedBeforeEnd: 1,
      partial: false,
      diagnostics: [],
      lastToken: 200012,
    };
    const response = toChatCompletion(parsed, { tools: TOOLS });
    const r = await checkToolCalls(response.message!.tool_calls!, TOOLS);
    expect(r.calls[0]).toMatchObject({ name: 'get_weather', value: { location: '東京' }, valid: true, runnable: true });
  });

  it('an unknown tool is call/unknown-tool, with a suggestion when the name is close', async () => {
    const r = await checkToolCalls(
      [
        { name: 'Functions.get_weather', arguments: '{"location": "A"}' },
        { name: 'GET_LOCATION', arguments: '{}' },
        { name: 'search', arguments: '{}' },
      ],
      TOOLS,
    );
    expect(r.calls.map((c) => [c.valid, c.runnable])).toEqual([
      [false, false],
      [false, false],
      [false, false],
    ]);
    const unknown = r.diagnostics.filter((d) => d.code === 'call/unknown-tool');
    expect(unknown.map((d) => d.path)).toEqual(['/tool_calls/0/function/name', '/tool_calls/1/function/name', '/tool_calls/2/function/name']);
    expect(unknown[0].message).toContain('did you mean "get_weather"?');
    expect(unknown[1].message).toContain('did you mean "get_location"?');
    expect(unknown[2].message).toContain('the tools are "get_weather", "get_location"');
    expect(unknown[0].tool).toBe('Functions.get_weather');
  });

  it('arguments that are not JSON: call/invalid-json with character and byte positions', async () => {
    const r = await checkToolCalls([{ name: 'get_weather', arguments: '{"location": "東京",}' }], TOOLS);
    expect(r.calls[0]).toEqual({ index: 0, name: 'get_weather', arguments: '{"location": "東京",}', valid: false, runnable: false });
    expect(r.diagnostics).toEqual([
      {
        code: 'call/invalid-json',
        severity: 'error',
        tool: 'get_weather',
        path: '/tool_calls/0/function/arguments',
        message: 'the arguments are not JSON: a trailing comma before `}` at character 18 (byte 22), line 1 column 19',
      },
    ]);
  });

  it('empty arguments are not JSON either (and say so)', async () => {
    const r = await checkToolCalls([{ name: 'get_location', arguments: '' }], TOOLS);
    expect(r.diagnostics[0].code).toBe('call/invalid-json');
    expect(r.diagnostics[0].message).toContain('(the arguments are empty)');
    const cut = await checkToolCalls([{ name: 'get_weather', arguments: '{"location": "Pa' }, { name: 'get_weather', arguments: "{'location': 'Paris'}" }], TOOLS);
    expect(cut.diagnostics.map((d) => d.message)).toEqual([
      'the arguments are not JSON: the arguments end early (while parsing a string): cut off? at character 16 (byte 16), line 1 column 17',
      'the arguments are not JSON: a key in single quotes (JSON wants double quotes) at character 1 (byte 1), line 1 column 2',
    ]);
  });

  it('one call/invalid-arguments per Ajv error: the arguments pointer + instancePath, the schema pointer and what was expected', async () => {
    const r = await checkToolCalls([{ name: 'get_weather', arguments: '{"unit": "kelvin", "days": "3", "extra": 1}' }], TOOLS);
    expect(r.calls[0]).toMatchObject({ valid: false, runnable: false, value: { unit: 'kelvin', days: '3', extra: 1 } });
    const found = r.diagnostics.map((d) => [d.code, d.path, d.message]);
    expect(found).toEqual(
      expect.arrayContaining([
        ['call/invalid-arguments', '/tool_calls/0/function/arguments', 'missing required property "location" (schema #/required)'],
        ['call/invalid-arguments', '/tool_calls/0/function/arguments', 'unexpected property "extra" (additionalProperties does not allow it) (schema #/additionalProperties)'],
        ['call/invalid-arguments', '/tool_calls/0/function/arguments/unit', 'at /unit: expected one of "celsius", "fahrenheit", got "kelvin" (schema #/properties/unit/enum)'],
        ['call/invalid-arguments', '/tool_calls/0/function/arguments/days', 'at /days: expected integer, got string "3" (schema #/properties/days/type)'],
      ]),
    );
    expect(r.diagnostics).toHaveLength(4);
    expect(r.diagnostics.every((d) => d.severity === 'error' && d.tool === 'get_weather')).toBe(true);
  });

  it('other keywords use Ajv’s words and the value', async () => {
    const r = await checkToolCalls([{ name: 'get_weather', arguments: '{"location": "A", "days": 0}' }], TOOLS);
    expect(r.diagnostics.map((d) => d.message)).toEqual(['at /days: must be >= 1, got 0 (schema #/properties/days/minimum)']);
  });

  it('arguments must be an object, whatever the schema says (a tool without parameters too)', async () => {
    const r = await checkToolCalls(
      [
        { name: 'get_location', arguments: '[]' },
        { name: 'get_weather', arguments: 'null' },
        { name: 'get_location', arguments: '{}' },
      ],
      TOOLS,
    );
    expect(r.calls.map((c) => c.valid)).toEqual([false, false, true]);
    expect(r.diagnostics.map((d) => [d.path, d.message])).toEqual([
      ['/tool_calls/0/function/arguments', 'expected object, got array (schema #/type)'],
      ['/tool_calls/1/function/arguments', 'expected object, got null (schema #/type)'],
    ]);
  });

  it('an empty-schema tool still wants an object', async () => {
    const r = await checkToolCalls([{ name: 'free', arguments: '42' }], [{ name: 'free', parameters: {} }]);
    expect(r.diagnostics.map((d) => d.message)).toEqual(['expected object (function arguments are an object of named parameters), got integer (schema #)']);
  });

  it('a call cut off by the end is call/incomplete and never runnable', async () => {
    const r = await checkToolCalls([{ name: 'get_weather', arguments: '{"location": "Paris"}', complete: false }], TOOLS);
    expect(r.calls[0]).toMatchObject({ valid: true, runnable: false });
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: 'call/incomplete', severity: 'error', path: '/tool_calls/0' })]);
  });

  it('a call on the analysis channel is call/on-analysis (a warning: servers return it)', async () => {
    const r = await checkToolCalls([{ name: 'get_weather', arguments: '{"location": "Paris"}', channel: 'analysis' }], TOOLS);
    expect(r.calls[0]).toMatchObject({ valid: true, runnable: true });
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: 'call/on-analysis', severity: 'warning' })]);
  });

  it('toolCallsFromParse finds the calls as vLLM does, with their channel and completeness', async () => {
    const m = (content: string, extra: Partial<ParsedHarmonyMessage>): ParsedHarmonyMessage => ({ role: 'assistant', ...extra, content });
    const parsed: HarmonyParseResult = {
      messages: [
        m('Plan.', { channel: 'analysis' }),
        m('{"location": "A"}', { channel: 'analysis', recipient: 'functions.get_weather', content_type: '<|constrain|>json' }),
        m('{"q": 1}', { channel: 'commentary', recipient: 'browser.search' }),
        { role: 'tool', name: 'functions.get_weather', recipient: 'assistant', channel: 'commentary', content: '{}' },
        m('{"location": "B', { channel: 'commentary', recipient: 'functions.get_weather' }),
      ],
      stops: ['<|end|>', '<|call|>', '<|call|>', '<|end|>', undefined],
      completedBeforeEnd: 4,
      partial: true,
      diagnostics: [],
      lastToken: 33,
    };
    const calls = toolCallsFromParse(parsed);
    expect(calls).toEqual([
      { name: 'get_weather', arguments: '{"location": "A"}', channel: 'analysis', complete: true, messageIndex: 1 },
      { name: 'get_weather', arguments: '{"location": "B', channel: 'commentary', complete: false, messageIndex: 4 },
    ]);
    const r = await checkToolCalls(calls, TOOLS);
    expect(codes(r.diagnostics)).toEqual(['call/on-analysis', 'call/incomplete', 'call/invalid-json']);
    expect(r.calls.map((c) => c.runnable)).toEqual([true, false]);
  });

  describe('repairs (opt-in, each reported)', () => {
    it('text after the JSON value: refused and hinted without repair; dropped and reported with it', async () => {
      const call = { name: 'get_weather', arguments: '{"location": "Paris"} Hope this helps!' };
      const plain = await checkToolCalls([call], TOOLS);
      expect(plain.calls[0].valid).toBe(false);
      expect(plain.diagnostics[0].message).toContain('trailing characters at character 22');
      expect(plain.diagnostics[0].message).toContain('repair: true drops the text after the JSON value');
      const r = await checkToolCalls([call], TOOLS, { repair: true });
      expect(r.calls[0]).toMatchObject({ valid: true, runnable: true, value: { location: 'Paris' }, repaired: '{"location": "Paris"} ', arguments: call.arguments });
      expect(r.diagnostics).toEqual([
        { code: 'call/repaired', severity: 'warning', tool: 'get_weather', path: '/tool_calls/0/function/arguments', message: 'the arguments were repaired: dropped the text after the JSON value: "Hope this helps!"' },
      ]);
    });

    it('a Markdown code fence around the JSON', async () => {
      const r = await checkToolCalls([{ name: 'get_weather', arguments: '```json\n{"location": "Paris"}\n```' }], TOOLS, { repair: true });
      expect(r.calls[0]).toMatchObject({ valid: true, repaired: '{"location": "Paris"}' });
      expect(r.diagnostics.map((d) => d.message)).toEqual(['the arguments were repaired: removed the Markdown code fence around the JSON']);
    });

    it('empty arguments read as {} (and then checked: get_weather still misses its location)', async () => {
      const r = await checkToolCalls(
        [
          { name: 'get_location', arguments: '' },
          { name: 'get_weather', arguments: ' ' },
        ],
        TOOLS,
        { repair: true },
      );
      expect(r.calls.map((c) => [c.valid, c.repaired])).toEqual([
        [true, '{}'],
        [false, '{}'],
      ]);
      expect(codes(r.diagnostics)).toEqual(['call/repaired', 'call/repaired', 'call/invalid-arguments']);
    });

    it('what no trivial repair fixes stays invalid, and nothing is reported as repaired', async () => {
      const r = await checkToolCalls([{ name: 'get_weather', arguments: "{'location': 'Paris'}" }], TOOLS, { repair: true });
      expect(r.calls[0].valid).toBe(false);
      expect(codes(r.diagnostics)).toEqual(['call/invalid-json']);
    });
  });

  describe('schemas of older drafts and OpenAPI', () => {
    const check = async (parameters: unknown, args: string) => checkToolCalls([{ name: 't', arguments: args }], [{ name: 't', parameters }]);

    it('draft-07: $schema, definitions with $ref #/definitions/…', async () => {
      const parameters = {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        definitions: { unit: { type: 'string', enum: ['c', 'f'] } },
        properties: { unit: { $ref: '#/definitions/unit' } },
      };
      expect((await check(parameters, '{"unit": "c"}')).diagnostics).toEqual([]);
      const bad = await check(parameters, '{"unit": "k"}');
      expect(bad.diagnostics.map((d) => [d.code, d.path])).toEqual([['call/invalid-arguments', '/tool_calls/0/function/arguments/unit']]);
      expect(bad.diagnostics[0].message).toContain('#/definitions/unit/enum');
    });

    it('draft-07 tuples (items: [...], additionalItems) and dependencies', async () => {
      const parameters = {
        type: 'object',
        properties: { pair: { type: 'array', items: [{ type: 'number' }, { type: 'string' }], additionalItems: false } },
        dependencies: { card: ['billing'], vip: { required: ['level'] } },
      };
      expect((await check(parameters, '{"pair": [1, "a"]}')).diagnostics).toEqual([]);
      expect((await check(parameters, '{"pair": ["a", 1]}')).diagnostics).toHaveLength(2);
      expect((await check(parameters, '{"pair": [1, "a", true]}')).diagnostics).toHaveLength(1);
      expect((await check(parameters, '{"card": 1}')).diagnostics[0].message).toContain('billing');
      expect((await check(parameters, '{"vip": true}')).diagnostics[0].message).toContain('missing required property "level"');
    });

    it('draft-04 boolean exclusiveMinimum', async () => {
      const parameters = { type: 'object', properties: { n: { type: 'number', minimum: 0, exclusiveMinimum: true } } };
      expect((await check(parameters, '{"n": 0.5}')).diagnostics).toEqual([]);
      expect((await check(parameters, '{"n": 0}')).diagnostics[0].message).toContain('must be > 0');
    });

    it('OpenAPI nullable adds null to the type and the enum', async () => {
      const parameters = { type: 'object', properties: { s: { type: 'string', nullable: true }, e: { type: 'string', enum: ['a'], nullable: true } } };
      expect((await check(parameters, '{"s": null, "e": null}')).diagnostics).toEqual([]);
      expect((await check(parameters, '{"s": 1}')).diagnostics).toHaveLength(1);
    });

    it('schemaForAjv rewrites a copy and leaves the tool alone', () => {
      const parameters = parseJson('{"type": "object", "properties": {"a": {"type": "string", "nullable": true}}, "$schema": "x"}');
      expect(schemaForAjv(parameters)).toEqual({ type: 'object', properties: { a: { type: ['string', 'null'] } } });
      expect(schemaForAjv(undefined)).toEqual({ type: 'object' });
      expect(JSON.stringify(toJs(parameters))).toContain('nullable');
    });

    it('a schema Ajv cannot compile is an error: the call is unchecked, not valid, never runnable', async () => {
      for (const parameters of [
        { type: 'object', properties: { a: { type: 'int' } } },
        { type: 'object', properties: { a: { $ref: 'https://example.com/remote.json' } } },
        { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } },
        { type: 'object', properties: { a: { type: 'string', pattern: '(?<' } } },
      ]) {
        const r = await check(parameters, '{"a": 1}');
        expect(codes(r.diagnostics), JSON.stringify(parameters)).toEqual(['call/schema-not-compiled']);
        expect(r.diagnostics[0]).toMatchObject({ severity: 'error', path: '/0/parameters' });
        expect(r.calls[0]).toMatchObject({ value: { a: 1 }, valid: false, unchecked: true, runnable: false });
      }
    });
  });

  it('compiles each tool schema once per tool set (cached), only for tools that are called', async () => {
    let reads = 0;
    const def = readTools([WEATHER]).tools[0];
    const counted = { ...def };
    Object.defineProperty(counted, 'parameters', {
      get() {
        reads++;
        return def.parameters;
      },
      enumerable: true,
    });
    const unused = { ...readTools([NO_PARAMS]).tools[0] };
    Object.defineProperty(unused, 'parameters', {
      get() {
        throw new Error('an uncalled tool is never compiled');
      },
      enumerable: true,
    });
    const set = { definitions: [counted, unused] };
    await checkToolCalls([{ name: 'get_weather', arguments: '{"location": "A"}' }], set);
    await checkToolCalls([{ name: 'get_weather', arguments: '{"location": 1}' }, { name: 'get_weather', arguments: '{}' }], set);
    expect(reads).toBe(1);
  });

  it('arguments nested past what can be checked are call/too-deep, not a crash', async () => {
    const deep = `{"location": "A", "x": ${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
    const r = await checkToolCalls([{ name: 'get_location', arguments: deep }], TOOLS);
    expect(r.calls[0]).toMatchObject({ valid: false, runnable: false });
    expect(codes(r.diagnostics)).toEqual(['call/too-deep']);
  });

  it('tools that cannot be read throw one CompileError (the boundary), not a crash', async () => {
    await expect(checkToolCalls([], '{not json')).rejects.toBeInstanceOf(CompileError);
  });

  it('a custom pointer for the calls list', async () => {
    const r = await checkToolCalls([{ name: 'nope', arguments: '{}' }], TOOLS, { pointer: '/choices/0/message/tool_calls' });
    expect(r.diagnostics[0].path).toBe('/choices/0/message/tool_calls/0/function/name');
  });
});
