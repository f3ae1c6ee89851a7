/**
 * vLLM's parser engine and the seven parsers on it (src/parse/families/vllm-engine/): case by
 * case. Every expected value was worked out by hand from the engine's Python
 * (`vllm/parser/engine/*.py`, `vllm/parser/{qwen3,seed_oss,gemma4,glm47_moe,kimi_k2,minimax_m2}.py`
 * at 93e3bc8f) and checked against the real code run with the oracle's kind of stub tokenizer.
 */
import { describe, expect, it } from 'vitest';
import { SERVER_PARSERS, SYNTAXES } from '../../../src/parse/families/vllm-engine/index.js';
import { extractTypesFromSchema, coerceToSchemaType } from '../../../src/parse/families/vllm-engine/coerce.js';
import { gemma4ArgConverter } from '../../../src/parse/families/vllm-engine/gemma4.js';
import { glm47ArgConverter } from '../../../src/parse/families/vllm-engine/glm47.js';
import { kimiToolName } from '../../../src/parse/families/vllm-engine/kimi-k2.js';
import { minimaxM2ArgConverter } from '../../../src/parse/families/vllm-engine/minimax-m2.js';
import { QWEN3_GRAMMAR, qwen3ArgConverter } from '../../../src/parse/families/vllm-engine/qwen3.js';
import { runEngine } from '../../../src/parse/families/vllm-engine/engine.js';
import type { ParserResult } from '../../../src/parse/families/types.js';
import { parseJson } from '../../../src/ir/json.js';
import { pythonJsonDumps } from '../../../src/parse/xml/python-values.js';
import { readParseTools } from '../../../src/parse/xml/tools.js';

const TOOLS = readParseTools([
  { type: 'function', function: { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' }, topn: { type: 'number' } } } } },
  { type: 'function', function: { name: 'probe', parameters: { type: 'object', properties: { b: { type: 'boolean' }, s: { type: 'string' }, o: { type: 'object', properties: { k: { type: 'integer' } } }, l: { type: 'array', items: { type: 'integer' } } } } } },
]).tools;

const parser = (name: string) => SERVER_PARSERS.find((p) => p.name === name)!;
const run = (name: string, text: string, tools = TOOLS) => parser(name).parse(text, tools);
function brief(r: ParserResult): unknown {
  return { content: r.content, calls: r.tool_calls.map((c) => [c.name, c.arguments, c.incomplete]), ...(r.exception !== undefined ? { exception: r.exception } : {}) };
}

describe('registration', () => {
  it('registers the seven vLLM parsers at the oracle commit, and no strict syntax', () => {
    expect(SERVER_PARSERS.map((p) => p.name)).toEqual(['qwen3_coder', 'seed_oss', 'gemma4', 'glm45', 'glm47', 'kimi_k2', 'minimax_m2']);
    expect(new Set(SERVER_PARSERS.map((p) => p.server))).toEqual(new Set(['vllm']));
    expect(parser('glm45').file).toBe('vllm/tool_parsers/glm47_moe_tool_parser.py');
    expect(parser('glm47').file).toBe(parser('glm45').file);
    expect(SYNTAXES).toEqual([]);
  });
});

describe('qwen3_coder', () => {
  it('reads a call, strips the content before it and drops the text after it; coerces to the schema', () => {
    const r = run('qwen3_coder', 'Checking.\n<tool_call>\n<function=search>\n<parameter=query>\nllama\n</parameter>\n<parameter=topn>\n5\n</parameter>\n</function>\n</tool_call>\nDone.');
    expect(brief(r)).toEqual({ content: 'Checking.', calls: [['search', '{"query": "llama", "topn": 5}', undefined]] });
    expect(r.tools_called).toBe(true);
  });

  it('reads two calls in one block and in two blocks', () => {
    const one = run('qwen3_coder', '<tool_call>\n<function=search>\n<parameter=query>\na\n</parameter>\n</function>\n<function=search>\n<parameter=query>\nb\n</parameter>\n</function>\n</tool_call>');
    expect(brief(one)).toEqual({ content: null, calls: [['search', '{"query": "a"}', undefined], ['search', '{"query": "b"}', undefined]] });
    const two = run('qwen3_coder', '<tool_call><function=search></function></tool_call>\n<tool_call><function=probe><parameter=b>True</parameter></function></tool_call>');
    expect(brief(two)).toEqual({ content: null, calls: [['search', '{}', undefined], ['probe', '{"b": true}', undefined]] });
  });

  it('returns a cut call with the parameters that closed, marked incomplete', () => {
    expect(brief(run('qwen3_coder', '<tool_call>\n<function=search>\n<parameter=query>\nllama'))).toEqual({ content: null, calls: [['search', '{}', 'no </function>, no </tool_call>']] });
    expect(brief(run('qwen3_coder', '<tool_call>\n<function=get_cur'))).toEqual({ content: null, calls: [['get_cur', '{}', 'no </function>, no </tool_call>']] });
    // the call is whole, the block never closed
    expect(brief(run('qwen3_coder', '<tool_call>\n<function=search>\n<parameter=query>\nx\n</parameter>\n</function>\n'))).toEqual({ content: null, calls: [['search', '{"query": "x"}', 'no </tool_call>']] });
  });

  it('ends a value at the next <parameter= when its closing tag is missing', () => {
    expect(qwen3ArgConverter('\n<parameter=a>\n1\n<parameter=b>2</parameter>\n<parameter=c>3')).toBe('{"a": "1", "b": "2"}');
    expect(qwen3ArgConverter('<parameter= k >v</ parameter >')).toBe('{"k ": "v"}');
  });

  it('keeps <think> as text and swallows </think>; a plain answer is all content', () => {
    expect(brief(run('qwen3_coder', '<think>Need weather.</think>Checking now.'))).toEqual({ content: '<think>Need weather.Checking now.', calls: [] });
    const plain = run('qwen3_coder', 'The capital of France is Paris.');
    expect(brief(plain)).toEqual({ content: 'The capital of France is Paris.', calls: [] });
    expect(plain.tools_called).toBe(false);
  });

  it('returns a call to a tool not in the request (no name check)', () => {
    expect(brief(run('qwen3_coder', '<tool_call>\n<function=send_email>\n<parameter=to>\na@b.c\n</parameter>\n</function>\n</tool_call>'))).toEqual({ content: null, calls: [['send_email', '{"to": "a@b.c"}', undefined]] });
  });
});

describe('dropped special tokens', () => {
  it('drops a special token that is no terminal of the grammar, wherever it stands', () => {
    // as vLLM does with a tokenizer whose all_special_tokens has <|im_end|> (the oracle's stub has none such)
    const g = { ...QWEN3_GRAMMAR, dropTokens: ['<|im_end|>', '<tool_call>'] };
    const r = runEngine(g, 'Hi<|im_end|> there<tool_call>\n<function=f<|im_end|>x>\n<parameter=a>1<|im_end|>2</parameter>\n</function>\n</tool_call><|im_end|>', undefined);
    expect(brief(r)).toEqual({ content: 'Hi there', calls: [['fx', '{"a": "12"}', undefined]] });
  });
});

describe('seed_oss', () => {
  it('reads the Qwen3 grammar inside <seed:tool_call>; a Python-literal list stays a string', () => {
    const tools = readParseTools([{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: { arr: { type: 'array' } } } } }]).tools;
    const r = run('seed_oss', '<seed:think>x</seed:think>\n<seed:tool_call>\n<function=f>\n<parameter=arr>[\'a\', \'b\']</parameter>\n</function>\n</seed:tool_call>', tools);
    expect(brief(r)).toEqual({ content: '<seed:think>x', calls: [['f', '{"arr": "[\'a\', \'b\']"}', undefined]] });
  });
});

describe('glm45 / glm47', () => {
  it('drops a call to a tool the request does not have; the text after it then comes back as content', () => {
    const r = run('glm45', '<tool_call>send_email\n<arg_key>to</arg_key>\n<arg_value>a</arg_value>\n</tool_call>\nafter');
    expect(brief(r)).toEqual({ content: '\nafter', calls: [] });
    expect(r.tools_called).toBe(false);
  });

  it('reads both layouts, values as written, and marks a cut call', () => {
    expect(brief(run('glm45', '<think>r</think>Go.\n<tool_call>search\n<arg_key>query</arg_key>\n<arg_value>a b\n</arg_value>\n</tool_call>'))).toEqual({ content: 'Go.', calls: [['search', '{"query": "a b\\n"}', undefined]] });
    expect(brief(run('glm47', '<tool_call>search<arg_key>query</arg_key><arg_value>x</arg_value>'))).toEqual({ content: null, calls: [['search', '{"query": "x"}', 'no </tool_call>']] });
    expect(brief(run('glm47', '<tool_call>search<arg_key>query</arg_key><arg_value>Lis'))).toEqual({ content: null, calls: [['search', '{}', 'no </tool_call>']] });
  });

  it('pairs a key with the first </arg_key> that an <arg_value> follows', () => {
    expect(glm47ArgConverter('<arg_key> a </arg_key>x</arg_key>\n<arg_value>1</arg_value>')).toBe('{"a </arg_key>x": "1"}');
  });
});

describe('kimi_k2', () => {
  it('keeps the content as written and marks an unclosed section', () => {
    const r = run('kimi_k2', 'Hi \n<|tool_calls_section_begin|><|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>{"query": "x", "topn": "3"}<|tool_call_end|>');
    expect(brief(r)).toEqual({ content: 'Hi \n', calls: [['search', '{"query": "x", "topn": 3}', 'no <|tool_calls_section_end|>']] });
  });

  it('returns cut JSON as written', () => {
    expect(brief(run('kimi_k2', '<|tool_calls_section_begin|><|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>{"query": "x'))).toEqual({
      content: null,
      calls: [['search', '{"query": "x', 'no <|tool_call_end|>, no <|tool_calls_section_end|>']],
    });
  });

  it('takes the name from the arguments when the header has no index', () => {
    const r = run('kimi_k2', '<|tool_calls_section_begin|><|tool_call_begin|>search<|tool_call_argument_begin|>{"name": "calculate", "x": 1}<|tool_call_end|><|tool_calls_section_end|>', undefined);
    expect(brief(r)).toEqual({ content: null, calls: [['calculate', '{"name": "calculate", "x": 1}', undefined]] });
  });

  it('reads the name from the header as `.+:\\d+` does', () => {
    expect(kimiToolName(' functions.a.b:12 ')).toBe('a.b');
    expect(kimiToolName('x:y:3')).toBe('x');
    expect(kimiToolName('search')).toBe(null);
    expect(kimiToolName(':3')).toBe(null);
    expect(kimiToolName('f:a\n:3')).toBe(null);
  });
});

describe('gemma4', () => {
  it('puts <|channel> in front when the text closes a channel it never opened', () => {
    const r = run('gemma4', 'thought\nplan<channel|>Answer: <|tool_call>call:search{query:<|"|>x<|"|>,topn:3}<tool_call|>');
    expect(brief(r)).toEqual({ content: 'Answer:', calls: [['search', '{"query": "x", "topn": 3}', undefined]] });
  });

  it('returns no content when the reasoning is only a beginning of "thought\\n"', () => {
    expect(brief(run('gemma4', 'thought'))).toEqual({ content: null, calls: [] });
  });

  it('marks a cut call; an unclosed string runs to the end', () => {
    expect(brief(run('gemma4', '<|tool_call>call:search{query:<|"|>x'))).toEqual({ content: null, calls: [['search', '{"query": "x"}', 'no <tool_call|>']] });
  });

  it('reads objects, arrays and bare words as the Python does', () => {
    expect(gemma4ArgConverter('a:{b:<|"|>x<|"|>,c:[1,<|"|>y<|"|>]},d:true}')).toBe('{"a": {"b": "x", "c": ["1", "y"]}, "d": "true"}');
    expect(gemma4ArgConverter('location:Lisbon, PT,format:}')).toBe('{"location": "Lisbon", "PT,format": ""}');
    // an unclosed object is read as a partial one (its trailing bare value withheld)
    expect(gemma4ArgConverter('a:{b:1,c:2')).toBe('{"a": {"b": "1"}}');
  });

  it('coerces nested values with the schema', () => {
    const r = run('gemma4', '<|tool_call>call:probe{b:1,o:{k:<|"|>7<|"|>},l:[1,<|"|>2<|"|>]}<tool_call|>');
    expect(brief(r)).toEqual({ content: null, calls: [['probe', '{"b": true, "o": {"k": 7}, "l": [1, 2]}', undefined]] });
  });

  it('raises RecursionError on nesting Python cannot recurse into', () => {
    const r = run('gemma4', `<|tool_call>call:f{${'a:{'.repeat(3000)}${'}'.repeat(3000)}}<tool_call|>`);
    expect(r.exception).toMatch(/^RecursionError: /);
    expect(r.tool_calls).toEqual([]);
    expect(r.tools_called).toBe(false);
  });
});

describe('minimax_m2', () => {
  it('checks the name, reads every quoting, marks an unclosed block', () => {
    expect(brief(run('minimax_m2', '<minimax:tool_call>\n<invoke name="search">\n<parameter name=query>x</parameter>\n</invoke>\n'))).toEqual({ content: null, calls: [['search', '{"query": "x"}', 'no </minimax:tool_call>']] });
    expect(brief(run('minimax_m2', '<minimax:tool_call><invoke name="nope"></invoke></minimax:tool_call>'))).toEqual({ content: null, calls: [] });
  });

  it('falls back from a quoted name to a bare one when no value end follows', () => {
    expect(minimaxM2ArgConverter('<parameter name="x></parameter>y">')).toBe('{"\\"x": ""}');
    expect(minimaxM2ArgConverter("<parameter name='a'>1</parameter><parameter name=\"\">2</parameter>")).toBe('{"a": "1"}');
  });
});

describe('schema coercion', () => {
  it('reads the types of a schema', () => {
    expect(extractTypesFromSchema(parseJson('{"anyOf": [{"type": "integer"}, 5], "enum": [1.5, null]}')).sort()).toEqual(['integer', 'null', 'number', 'string']);
    expect(extractTypesFromSchema(parseJson('{}'))).toEqual(['string']);
  });

  it('coerces by priority, floats that are whole to ints, and keeps the very string otherwise', () => {
    expect(pythonJsonDumps(coerceToSchemaType('2.0', ['number']).value)).toBe('2');
    expect(coerceToSchemaType('NULL', ['string', 'null']).value).toBe(null);
    expect(coerceToSchemaType('x', ['INT'])).toEqual({ value: 'x', same: true });
    expect(pythonJsonDumps(coerceToSchemaType('[1e999]', ['array']).value)).toBe('"[1e999]"');
  });
});

describe('performance', () => {
  it('stays linear on a long run of openers', () => {
    const time = (text: string, name: string) => {
      const t0 = performance.now();
      run(name, text);
      return performance.now() - t0;
    };
    for (const [name, unit] of [
      ['qwen3_coder', '<tool_call><function=search><parameter=query>'],
      ['glm47', '<tool_call>search<arg_key>'],
      ['minimax_m2', '<invoke name="search"><parameter name="q">'],
      ['kimi_k2', '<|tool_calls_section_begin|><|tool_call_begin|>{"name'],
      ['gemma4', '<|tool_call>call:search{a:['],
    ] as const) {
      time(unit.repeat(2000), name);
      const small = Math.min(time(unit.repeat(20000), name), time(unit.repeat(20000), name));
      const big = Math.min(time(unit.repeat(40000), name), time(unit.repeat(40000), name));
      expect(big / Math.max(small, 1), name).toBeLessThan(3.5);
    }
  });
});
