/**
 * The XML dialects' tool-call parsers, case by case (no ../shared needed): the Python built-ins
 * vLLM's parsers go through, vLLM's Hermes and Qwen3-Coder parsers at each commit, and the
 * default (correct) reading of each dialect with its diagnostics. Every expected value here was
 * worked out by hand from the rule it tests.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics.js';
import { readTools } from '../../src/input/read.js';
import { parseToolCalls, XML_PARSE_CODES, type XmlParseOptions, type XmlParseResult } from '../../src/parse/xml/index.js';
import { pythonLiteralEval } from '../../src/parse/xml/literal-eval.js';
import { PyDict, PythonException, pythonFloatOf, pythonIntOf, pythonJsonDumps, pythonJsonLoads, pythonTruncate, type PyValue } from '../../src/parse/xml/python-values.js';

// raised only by the family readers (test/parse/families/api.test.ts makes each fire)
const FAMILY_ONLY = ['parse/sglang-exception', 'parse/sglang-differs', 'parse/no-server-parser', 'parse/unclosed-reasoning'];

// ---------------------------------------------------------------------------------------
// Fixtures

/** One parameter of each JSON Schema shape (the same shapes vLLM's conversion reacts to). */
const TYPED = {
  type: 'function',
  function: {
    name: 'typed',
    description: 'One parameter of each shape',
    parameters: {
      type: 'object',
      properties: {
        s: { type: 'string' },
        i: { type: 'integer' },
        n: { type: 'number' },
        b: { type: 'boolean' },
        a: { type: 'array', items: { type: 'string' } },
        o: { type: 'object' },
        e: { type: 'string', enum: ['red', 'green'] },
        sn: { type: ['string', 'null'] },
        in: { type: ['integer', 'null'] },
        u: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
        un: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        nt: { type: 'null' },
        notype: { description: 'no type' },
        ref: { $ref: '#/$defs/Point' },
        bad: { $ref: '#/defs/missing' },
      },
      $defs: { Point: { type: 'object', properties: { x: { type: 'number' } } } },
      required: ['s'],
    },
  },
};
const SPACED = { type: 'function', function: { name: 'my tool', parameters: { type: 'object', properties: { q: { type: 'string' } } } } };
const TOOLS = [TYPED, SPACED];

const fired = new Set<string>();

/** parseToolCalls, remembering which codes fired (the last test checks every code fired somewhere). */
function parse(text: string, options: XmlParseOptions): XmlParseResult {
  const r = parseToolCalls(text, options);
  for (const d of r.diagnostics) fired.add(d.code);
  return r;
}
function args(r: XmlParseResult, i = 0): string {
  return r.tool_calls[i].function.arguments;
}
function codes(r: XmlParseResult): string[] {
  return r.diagnostics.map((d) => d.code);
}
function find(r: XmlParseResult, code: string): Diagnostic | undefined {
  return r.diagnostics.find((d) => d.code === code);
}

/** A Qwen3-Coder call to `typed` with one parameter, laid out as the template writes it. */
function q3(param: string, value: string, fn = 'typed'): string {
  return `<tool_call>\n<function=${fn}>\n<parameter=${param}>\n${value}\n</parameter>\n</function>\n</tool_call>`;
}
/** A Hermes/Qwen call. */
function hj(json: string): string {
  return `<tool_call>\n${json}\n</tool_call>`;
}

const OLD = 'qwen3_coder@0b13f933' as const;
const NEW = 'qwen3_coder@00d0a333' as const;
const vllmQ3 = (text: string, version: typeof OLD | typeof NEW, tools: unknown = TOOLS) => parse(text, { model: 'qwen3-coder', tools, server: 'vllm', version });
const vllmH = (text: string, version: 'hermes@02bb669b' | 'hermes@becf329d' = 'hermes@02bb669b') => parse(text, { model: 'hermes', tools: TOOLS, server: 'vllm', version });

// ---------------------------------------------------------------------------------------
// Python built-ins

function canon(v: PyValue): unknown {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (v instanceof PyDict) return { dict: [...v.entries()].map(([k, x]) => [canon(k), canon(x)]) };
  switch (v.t) {
    case 'int':
      return `int ${v.v}`;
    case 'float':
      return `float ${v.v}`;
    case 'list':
    case 'tuple':
    case 'set':
      return { [v.t]: v.items.map(canon) };
    case 'bytes':
      return `bytes ${v.v}`;
    case 'complex':
      return `complex ${v.re} ${v.im}`;
    default:
      return '...';
  }
}
function pyError(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof PythonException) return e.message;
    throw e;
  }
  return 'no error';
}

describe("Python's json.loads (CPython's C scanner)", () => {
  it('reads NaN, Infinity, big integers exactly, floats, and keeps a repeated key at its first place with its last value', () => {
    expect(canon(pythonJsonLoads('[NaN, Infinity, -Infinity, 123456789012345678901234567890, 1.0, 1E2, -0]'))).toEqual({
      list: ['float NaN', 'float Infinity', 'float -Infinity', 'int 123456789012345678901234567890', 'float 1', 'float 100', 'int 0'],
    });
    expect(canon(pythonJsonLoads('{"s": "a", "t": 1, "s": "b"}'))).toEqual({ dict: [['s', 'b'], ['t', 'int 1']] });
    expect(canon(pythonJsonLoads('1e400'))).toBe('float Infinity');
  });

  it('keeps a lone surrogate escape and joins a surrogate pair', () => {
    expect(pythonJsonLoads('"\\ud800x"')).toBe('\ud800x');
    expect(pythonJsonLoads('"\\ud83d\\ude00"')).toBe('😀');
  });

  it('raises JSONDecodeError with CPython\'s messages and positions (code points, 1-based columns)', () => {
    const cases: [string, string][] = [
      ['', 'Expecting value: line 1 column 1 (char 0)'],
      [' ', 'Expecting value: line 1 column 2 (char 1)'],
      ['{"a": 1,}', 'Expecting property name enclosed in double quotes: line 1 column 9 (char 8)'],
      ['[1,]', 'Expecting value: line 1 column 4 (char 3)'],
      ['{"a" 1}', "Expecting ':' delimiter: line 1 column 6 (char 5)"],
      ['[1 2]', "Expecting ',' delimiter: line 1 column 4 (char 3)"],
      ['{"a":\n"b"', "Expecting ',' delimiter: line 2 column 4 (char 9)"],
      ['"\\q"', 'Invalid \\escape: line 1 column 2 (char 1)'],
      ['"\\u12"', 'Invalid \\uXXXX escape: line 1 column 3 (char 2)'],
      ['"a\u0001"', 'Invalid control character at: line 1 column 3 (char 2)'],
      ['"abc', 'Unterminated string starting at: line 1 column 1 (char 0)'],
      ['[1] x', 'Extra data: line 1 column 5 (char 4)'],
      ['"😀" x', 'Extra data: line 1 column 5 (char 4)'],
      ['01', 'Extra data: line 1 column 2 (char 1)'],
      ['\ufeff1', 'Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)'],
    ];
    for (const [doc, msg] of cases) expect(pyError(() => pythonJsonLoads(doc)), JSON.stringify(doc)).toBe(`JSONDecodeError: ${msg}`);
  });

  it('raises RecursionError for a thousand nested arrays', () => {
    expect(pyError(() => pythonJsonLoads('['.repeat(1000) + ']'.repeat(1000)))).toMatch(/^RecursionError: maximum recursion depth exceeded while decoding a JSON array/);
  });
});

describe("Python's json.dumps(ensure_ascii=False)", () => {
  it('writes `, ` and `: `, floats as repr, non-ASCII as is, keys converted', () => {
    const d = new PyDict();
    d.set({ t: 'int', v: 1n }, 'a');
    d.set(true, 'b'); // True == 1: same key, first key kept, last value
    d.set(null, 'c');
    d.set({ t: 'float', v: 1.5 }, 'd');
    d.set('é', { t: 'float', v: 1e16 });
    d.set('x', { t: 'tuple', items: [{ t: 'float', v: 1e-5 }, { t: 'float', v: 100 }] });
    expect(pythonJsonDumps(d)).toBe('{"1": "b", "null": "c", "1.5": "d", "é": 1e+16, "x": [1e-05, 100.0]}');
    expect(pythonJsonDumps({ t: 'list', items: [{ t: 'float', v: NaN }, { t: 'float', v: -Infinity }, { t: 'int', v: 10n ** 20n }] })).toBe('[NaN, -Infinity, 100000000000000000000]');
  });

  it('raises TypeError for what JSON cannot hold', () => {
    expect(pyError(() => pythonJsonDumps({ t: 'set', items: [] }))).toBe('TypeError: Object of type set is not JSON serializable');
    expect(pyError(() => pythonJsonDumps({ t: 'bytes', v: 'x' }))).toBe('TypeError: Object of type bytes is not JSON serializable');
    const d = new PyDict();
    d.set({ t: 'tuple', items: [] }, 1);
    expect(pyError(() => pythonJsonDumps(d))).toBe('TypeError: keys must be str, int, float, bool or None, not tuple');
  });
});

describe("Python's int(), float() and int(float)", () => {
  it('int(): whitespace, sign, underscores between digits, any Unicode decimal digit; nothing else', () => {
    expect(pythonIntOf('\u2003 7 ')).toBe(7n);
    expect(pythonIntOf('+3')).toBe(3n);
    expect(pythonIntOf('1_000')).toBe(1000n);
    expect(pythonIntOf('٣٤')).toBe(34n);
    expect(pythonIntOf('007')).toBe(7n);
    for (const bad of ['1__0', '0x10', '', '4.0', '_1', '1_']) expect(pyError(() => pythonIntOf(bad)), bad).toMatch(/^ValueError: invalid literal for int\(\) with base 10/);
  });

  it('float(): inf/infinity/nan in any case, underscores, Unicode digits, overflow to inf', () => {
    expect(pythonFloatOf('1e-3')).toBe(0.001);
    expect(pythonFloatOf('-Infinity')).toBe(-Infinity);
    expect(pythonFloatOf('INF')).toBe(Infinity);
    expect(Number.isNaN(pythonFloatOf('nan'))).toBe(true);
    expect(pythonFloatOf('1_0.5')).toBe(10.5);
    expect(pythonFloatOf('١.٥')).toBe(1.5);
    expect(pythonFloatOf('.5')).toBe(0.5);
    expect(pythonFloatOf('5.')).toBe(5);
    expect(pythonFloatOf('1e400')).toBe(Infinity);
    for (const bad of ['1_', 'infinit', '0x1', '']) expect(pyError(() => pythonFloatOf(bad)), bad).toMatch(/^ValueError: could not convert string to float/);
  });

  it('int(float): OverflowError for infinity, ValueError for NaN', () => {
    expect(pythonTruncate(-2.7)).toBe(-2n);
    expect(pyError(() => pythonTruncate(Infinity))).toBe('OverflowError: cannot convert float infinity to integer');
    expect(pyError(() => pythonTruncate(NaN))).toBe('ValueError: cannot convert float NaN to integer');
  });
});

describe("Python's ast.literal_eval", () => {
  const ok = (src: string) => canon(pythonLiteralEval(src));
  const fails = (src: string) => {
    try {
      pythonLiteralEval(src);
    } catch (e) {
      if (e instanceof PythonException) return e.type;
      throw e;
    }
    return 'no error';
  };

  it('reads containers, constants and signed numbers', () => {
    expect(ok("['x', 2]")).toEqual({ list: ['x', 'int 2'] });
    expect(ok("{'k': True, 'n': None}")).toEqual({ dict: [['k', true], ['n', null]] });
    expect(ok('(1,)')).toEqual({ tuple: ['int 1'] });
    expect(ok('1, 2')).toEqual({ tuple: ['int 1', 'int 2'] });
    expect(ok('()')).toEqual({ tuple: [] });
    expect(ok('{1, 2, 1}')).toEqual({ set: ['int 1', 'int 2'] });
    expect(ok('set()')).toEqual({ set: [] });
    expect(ok('[1, 2,]')).toEqual({ list: ['int 1', 'int 2'] });
    expect(ok('...')).toBe('...');
    expect(ok('-(1)')).toBe('int -1');
    expect(ok('-2.5')).toBe('float -2.5');
    expect(ok('1+2j')).toBe('complex 1 2');
    expect(ok('0x_f')).toBe('int 15');
    expect(ok('0o17')).toBe('int 15');
    expect(ok('1_000')).toBe('int 1000');
    expect(ok('01e5')).toBe('float 100000');
    expect(ok('00')).toBe('int 0');
  });

  it('reads strings: prefixes, escapes, implicit concatenation, triple quotes', () => {
    expect(ok(`'a\\x41\\u00e9\\101\\n\\q'`)).toBe('aAéA\n\\q');
    expect(ok(`r'\\d'`)).toBe('\\d');
    expect(ok(`u'x' "y"`)).toBe('xy');
    expect(ok(`('a'\n'b')`)).toBe('ab');
    expect(ok(`'''t\r\nq'''`)).toBe('t\nq');
    expect(ok(`b'x'`)).toBe('bytes x');
  });

  it('reads layout as Python does: leading spaces, comments, continuations, newlines inside brackets', () => {
    expect(ok('  \t1 # comment\n')).toBe('int 1');
    expect(ok('[1,\n  2]')).toEqual({ list: ['int 1', 'int 2'] });
    expect(ok('\n1\n\n')).toBe('int 1');
    expect(ok('\\\n1')).toBe('int 1');
    expect(fails('1\\\n')).toBe('SyntaxError');
    expect(fails('\n  1')).toBe('SyntaxError'); // unexpected indent
    expect(fails('1\n  ')).toBe('SyntaxError'); // an indented last line without a newline
    expect(ok('1\n  \n')).toBe('int 1');
    expect(fails('\\\n 1')).toBe('SyntaxError'); // a continuation keeps the line start: the space indents
    expect(fails('1\n\\\n')).toBe('SyntaxError');
    expect(ok('1\n\\\n\n')).toBe('int 1');
  });

  it('refuses what is not a literal (ValueError), what is not Python (SyntaxError), unhashable keys (TypeError)', () => {
    for (const src of ['x', 'f(1)', '1+2', '--1', '-True', "f'x'", '[1][0]', 'a.b', '2**3', '1 if 2 else 3']) expect(fails(src), src).toBe('ValueError');
    for (const src of ['', "'abc", '0777', '1__0', '"a"\n"b"', "b'é'", "b'x' 'y'", '[1', '(]']) expect(fails(src), src).toBe('SyntaxError');
    expect(fails('{[1]: 2}')).toBe('TypeError');
    expect(fails('{[1], 2}')).toBe('TypeError');
  });

  it('allows 200 nested brackets and refuses the 201st; thousands of signs raise RecursionError', () => {
    expect(fails('['.repeat(200) + ']'.repeat(200))).toBe('no error');
    expect(fails('['.repeat(201) + ']'.repeat(201))).toBe('SyntaxError');
    expect(fails(`${'-'.repeat(1000)}1`)).toBe('ValueError');
    expect(fails(`${'-'.repeat(100_000)}1`)).toBe('RecursionError');
    expect(fails(`${'1+'.repeat(5000)}1`)).toBe('RecursionError');
  });
});

// ---------------------------------------------------------------------------------------
// vLLM's Hermes parser

describe("server 'vllm': the Hermes parser (hermes@02bb669b, hermes@becf329d)", () => {
  it('returns each call, the text before the first <tool_call> as content, and drops the text after', () => {
    const r = vllmH(`Sure.\n${hj('{"name": "typed", "arguments": {"s": "Zürich", "i": 1}}')}\n${hj('{"name": "typed", "arguments": {}}')}\nafter`);
    expect(r.content).toBe('Sure.\n');
    expect(r.tool_calls.map((c) => [c.function.name, c.function.arguments])).toEqual([['typed', '{"s": "Zürich", "i": 1}'], ['typed', '{}']]);
    expect(r.diagnostics).toEqual([]);
  });

  it('without <tool_call>: no calls, the whole text as content', () => {
    const r = vllmH('Plain answer.');
    expect(r).toEqual({ content: 'Plain answer.', tool_calls: [], diagnostics: [] });
  });

  it('re-serialises arguments as Python does: 1.0 stays, 1E2 becomes 100.0, 1e400 Infinity, NaN, \\u escapes decoded', () => {
    const r = vllmH(hj('{"name": "typed", "arguments": {"a": 1.0, "b": 1E2, "c": 1e400, "d": NaN, "e": "\\u6771"}}'));
    expect(args(r)).toBe('{"a": 1.0, "b": 100.0, "c": Infinity, "d": NaN, "e": "東"}');
  });

  it('drops every call when one JSON fails, and names the exception', () => {
    const text = `${hj('{"name": "typed", "arguments": {"s": "ok"}}')}\n${hj('{bad json}')}`;
    const r = vllmH(text);
    expect(r.tool_calls).toEqual([]);
    expect(r.content).toBe(text);
    expect(find(r, 'parse/vllm-exception')?.message).toContain('JSONDecodeError: Expecting property name enclosed in double quotes: line 2 column 2 (char 2)');
  });

  it('cuts a call at a </tool_call> inside a JSON string (so the JSON fails)', () => {
    const r = vllmH(hj('{"name": "typed", "arguments": {"s": "</tool_call>"}}'));
    expect(r.tool_calls).toEqual([]);
    expect(find(r, 'parse/vllm-exception')?.message).toContain('Unterminated string starting at: line 2 column 38 (char 38)');
  });

  it('reads an unclosed <tool_call> to the end of the output', () => {
    expect(args(vllmH('<tool_call>\n{"name": "typed", "arguments": {"s": "x"}}'))).toBe('{"s": "x"}');
  });

  it('a string `arguments`: 02bb669b writes it as a JSON string, becf329d decodes it first', () => {
    const text = hj('{"name": "typed", "arguments": "{\\"s\\": \\"x\\"}"}');
    expect(args(vllmH(text, 'hermes@02bb669b'))).toBe('"{\\"s\\": \\"x\\"}"');
    expect(args(vllmH(text, 'hermes@becf329d'))).toBe('{"s": "x"}');
  });

  it('raises KeyError without name or arguments, and a validation error for a non-string name', () => {
    expect(find(vllmH(hj('{"arguments": {}}')), 'parse/vllm-exception')?.message).toContain("KeyError: 'name'");
    expect(find(vllmH(hj('{"name": "typed"}')), 'parse/vllm-exception')?.message).toContain("KeyError: 'arguments'");
    // becf329d reads fc["arguments"] first, in its own loop
    expect(find(vllmH(hj('{"x": 1}'), 'hermes@becf329d'), 'parse/vllm-exception')?.message).toContain("KeyError: 'arguments'");
    expect(find(vllmH(hj('{"name": 5, "arguments": {}}')), 'parse/vllm-exception')?.message).toContain('ValidationError');
    expect(find(vllmH(hj('[1]')), 'parse/vllm-exception')?.message).toContain('TypeError: list indices must be integers or slices, not str');
  });

  it('`arguments: null` is written as null', () => {
    expect(args(vllmH(hj('{"name": "typed", "arguments": null}')))).toBe('null');
  });

  it('a <tool_call> mentioned in prose makes json.loads fail: the whole text is content', () => {
    const r = vllmH('Use the <tool_call> tag like this.');
    expect(r.content).toBe('Use the <tool_call> tag like this.');
    expect(find(r, 'parse/vllm-exception')?.message).toContain('Expecting value: line 1 column 2 (char 1)');
  });

  it('is the parser of model "qwen" too, and the default version is 02bb669b (the newer)', () => {
    const text = hj('{"name": "typed", "arguments": "{\\"s\\": 1}"}');
    const r = parse(text, { model: 'qwen', server: 'vllm' });
    expect(args(r)).toBe('"{\\"s\\": 1}"');
  });
});

// ---------------------------------------------------------------------------------------
// vLLM's Qwen3-Coder parser

describe("server 'vllm': the Qwen3-Coder parser's value conversion (0b13f933, 00d0a333)", () => {
  // [param, text, 0b13f933 arguments, 00d0a333 arguments]
  const table: [string, string, string, string][] = [
    ['s', '123', '{"s": "123"}', '{"s": "123"}'],
    ['s', '  spaced  ', '{"s": "  spaced  "}', '{"s": "  spaced  "}'],
    ['s', 'null', '{"s": null}', '{"s": "null"}'], // 0b13f933: "null" is None for every type
    ['s', 'None', '{"s": "None"}', '{"s": "None"}'],
    ['i', '42', '{"i": 42}', '{"i": 42}'],
    ['i', ' 5 ', '{"i": 5}', '{"i": 5}'],
    ['i', '1_000', '{"i": 1000}', '{"i": 1000}'],
    ['i', '4.0', '{"i": "4.0"}', '{"i": "4.0"}'], // int("4.0") fails: kept a string
    ['i', 'forty', '{"i": "forty"}', '{"i": "forty"}'],
    ['i', 'None', '{"i": "None"}', '{"i": null}'],
    ['n', '3', '{"n": 3}', '{"n": 3}'],
    ['n', '4.0', '{"n": 4}', '{"n": 4}'], // a whole float becomes an int
    ['n', '1e-3', '{"n": 0.001}', '{"n": 0.001}'],
    ['n', '-0.0', '{"n": 0}', '{"n": 0}'],
    ['n', 'nan', '{"n": "nan"}', '{"n": "nan"}'], // int(nan) raises ValueError: caught, the text kept
    ['b', 'True', '{"b": true}', '{"b": true}'],
    ['b', 'yes', '{"b": false}', '{"b": false}'],
    ['b', '1', '{"b": false}', '{"b": false}'],
    ['a', "['x', 2]", '{"a": ["x", 2]}', '{"a": ["x", 2]}'],
    ['a', '"[1, 2]"', '{"a": "[1, 2]"}', '{"a": [1, 2]}'], // 00d0a333 decodes a JSON string once more
    ['a', 'x, y', '{"a": "x, y"}', '{"a": "x, y"}'],
    ['o', '{"k": 1}', '{"o": {"k": 1}}', '{"o": {"k": 1}}'],
    ['sn', '123', '{"sn": 123}', '{"sn": 123}'], // ['string', 'null'] is no string type: literal_eval
    ['sn', 'null', '{"sn": null}', '{"sn": null}'],
    ['in', 'None', '{"in": null}', '{"in": null}'], // 0b13f933: "['integer', 'null']" is no type it knows: literal_eval('None')
    ['u', '7', '{"u": "7"}', '{"u": 7}'], // 00d0a333 takes anyOf's first type
    ['un', 'None', '{"un": "None"}', '{"un": null}'],
    ['nt', 'x', '{"nt": "x"}', '{"nt": "x"}'],
    ['notype', '42', '{"notype": "42"}', '{"notype": "42"}'],
    ['zz', '99', '{"zz": "99"}', '{"zz": "99"}'], // not declared: the text
  ];
  for (const [param, text, old, next] of table) {
    it(`${param} = ${JSON.stringify(text)}`, () => {
      expect(args(vllmQ3(q3(param, text), OLD))).toBe(old);
      expect(args(vllmQ3(q3(param, text), NEW))).toBe(next);
    });
  }

  it('an unknown function or a request without tools keeps every value a string (0b13f933 still reads "null")', () => {
    expect(args(vllmQ3(q3('i', '42', 'nope'), NEW))).toBe('{"i": "42"}');
    expect(args(vllmQ3(q3('i', '42'), NEW, null))).toBe('{"i": "42"}');
    expect(args(vllmQ3(q3('i', 'NULL'), OLD, null))).toBe('{"i": null}');
  });

  it('`inf` for a number loses every call: int(inf) raises OverflowError', () => {
    for (const v of [OLD, NEW]) {
      const r = vllmQ3(q3('n', 'inf'), v);
      expect(r.tool_calls).toEqual([]);
      expect(r.content).toBe(q3('n', 'inf'));
      expect(find(r, 'parse/vllm-exception')?.message).toContain('OverflowError: cannot convert float infinity to integer');
    }
  });

  it('a Python literal that JSON cannot hold (a set, bytes) makes json.dumps raise TypeError', () => {
    const r = vllmQ3(q3('a', '{1, 2}'), NEW);
    expect(find(r, 'parse/vllm-exception')?.message).toContain('TypeError: Object of type set is not JSON serializable');
  });

  it('0b13f933 reads `parameters` itself when it has no `properties`', () => {
    const tools = [{ type: 'function', function: { name: 'f', parameters: { type: 'object', x: { type: 'integer' } } } }];
    expect(args(vllmQ3(q3('x', '5', 'f'), OLD, tools))).toBe('{"x": 5}');
    expect(args(vllmQ3(q3('x', '5', 'f'), NEW, tools))).toBe('{"x": "5"}');
  });
});

describe("server 'vllm': the Qwen3-Coder parser's structure", () => {
  it('a literal </parameter> in a value: 0b13f933 cuts there, 00d0a333 reads on to the structural one', () => {
    const text = q3('s', 'code: </parameter> inside');
    expect(args(vllmQ3(text, OLD))).toBe('{"s": "code: "}');
    expect(args(vllmQ3(text, NEW))).toBe('{"s": "code: </parameter> inside"}');
  });

  it('a <parameter= in the middle of a line: 0b13f933 starts a parameter, 00d0a333 does not', () => {
    const text = q3('s', 'value with <parameter=i> inline');
    expect(args(vllmQ3(text, OLD))).toBe('{"s": "value with ", "i": " inline"}');
    expect(args(vllmQ3(text, NEW))).toBe('{"s": "value with <parameter=i> inline"}');
  });

  it('two functions in one <tool_call>: 0b13f933 returns both, 00d0a333 the first', () => {
    const text = '<tool_call>\n<function=typed>\n<parameter=s>\na\n</parameter>\n</function>\n<function=typed>\n<parameter=s>\nb\n</parameter>\n</function>\n</tool_call>';
    expect(vllmQ3(text, OLD).tool_calls.length).toBe(2);
    expect(vllmQ3(text, NEW).tool_calls.length).toBe(1);
  });

  it('output cut in a parameter name: 0b13f933 raises ValueError, 00d0a333 returns the call with {}', () => {
    const text = '<tool_call>\n<function=typed>\n<parameter=s';
    expect(find(vllmQ3(text, OLD), 'parse/vllm-exception')?.message).toContain('ValueError: substring not found');
    const r = vllmQ3(text, NEW);
    expect(args(r)).toBe('{}');
    expect(r.content).toBeNull();
  });

  it('00d0a333 refuses names that are no identifiers; 0b13f933 returns them', () => {
    for (const name of ['{{ tc.name }}', 'my tool', '']) {
      const text = q3('s', 'x', name);
      expect(vllmQ3(text, OLD).tool_calls[0].function.name).toBe(name);
      const r = vllmQ3(text, NEW);
      expect(r.tool_calls).toEqual([]);
      expect(r.content).toBeNull();
    }
  });

  it('a missing </parameter> ends at the next parameter (both commits)', () => {
    const text = '<tool_call>\n<function=typed>\n<parameter=s>\nx\n<parameter=i>\n3\n</parameter>\n</function>\n</tool_call>';
    for (const v of [OLD, NEW]) expect(args(vllmQ3(text, v))).toBe('{"s": "x", "i": 3}');
  });

  it('0b13f933 reads an unclosed block to just before a final newline (Python\'s `$`)', () => {
    expect(args(vllmQ3('<tool_call>\n<function=typed>\n<parameter=s>\nx\n\n', OLD))).toBe('{"s": "x"}');
    expect(args(vllmQ3('<tool_call>\n<function=typed>\n<parameter=s>\nx\n\n', NEW))).toBe('{"s": "x\\n"}');
  });

  it('content: the text before the first call; 00d0a333 skips a <tool_call> without a function', () => {
    const text = '<tool_call>\nplain text\n</tool_call> then <function=typed>\n<parameter=s>\nx\n</parameter>\n</function>';
    const old = vllmQ3(text, OLD);
    expect(old.tool_calls).toEqual([]);
    expect(old.content).toBe(text);
    const next = vllmQ3(text, NEW);
    expect(next.content).toBe('<tool_call>\nplain text\n</tool_call> then ');
    expect(args(next)).toBe('{"s": "x"}');
    expect(vllmQ3(`Calling.\n${q3('s', 'x')}`, NEW).content).toBe('Calling.\n');
  });

  it('Hermes JSON handed to the Qwen3-Coder parser: no calls, the text as content', () => {
    const r = vllmQ3(hj('{"name": "typed", "arguments": {}}'), NEW);
    expect(r).toEqual({ content: hj('{"name": "typed", "arguments": {}}'), tool_calls: [], diagnostics: [] });
  });

  it('the default version of qwen3-coder is 00d0a333 (the newer)', () => {
    const r = parse(q3('u', '7'), { model: 'qwen3-coder', tools: TOOLS, server: 'vllm' });
    expect(args(r)).toBe('{"u": 7}');
  });
});

// ---------------------------------------------------------------------------------------
// Default reading: Hermes / Qwen JSON calls

describe('default reading: hermes and qwen JSON calls', () => {
  const h = (text: string, tools: unknown = TOOLS) => parse(text, { model: 'hermes', tools });

  it('reads each call, keeps number text as written, and the text around the calls as content', () => {
    const r = h(`Sure.\n${hj('{"name": "typed", "arguments": {"n": 1E2, "s": "Zürich"}}')}\n${hj('{"name": "typed", "arguments": {}}')}\nDone.`);
    expect(r.tool_calls.map((c) => c.function.arguments)).toEqual(['{"n": 1E2, "s": "Zürich"}', '{}']);
    expect(r.content).toBe('Sure.\n\nDone.');
    // vLLM writes 100.0 (the same value: no difference reported) and drops "Done."
    expect(r.diagnostics.map((d) => [d.code, d.path])).toEqual([['parse/vllm-differs', '/content']]);
  });

  it('qwen reads the same format', () => {
    const r = parse(hj('{"name": "typed", "arguments": {"s": "x"}}'), { model: 'qwen', tools: TOOLS });
    expect(args(r)).toBe('{"s": "x"}');
    expect(r.diagnostics).toEqual([]);
  });

  it('keeps the good calls when one JSON fails, reports the bad one, and says vLLM drops them all', () => {
    const r = h(`${hj('{"name": "typed", "arguments": {"s": "ok"}}')}\n${hj('{bad json}')}`);
    expect(r.tool_calls.length).toBe(1);
    expect(r.content).toBe('\n<tool_call>\n{bad json}\n</tool_call>');
    expect(find(r, 'parse/invalid-json')?.severity).toBe('error');
    // the place where the JSON fails: the second call's JSON starts at 69 + 12, its error one character in
    expect(find(r, 'parse/invalid-json')?.path).toBe('/text#82');
    expect(find(r, 'parse/vllm-exception')?.message).toContain('JSONDecodeError');
  });

  it('a </tool_call> inside a JSON string belongs to the string', () => {
    const r = h(hj('{"name": "typed", "arguments": {"s": "</tool_call>"}}'));
    expect(args(r)).toBe('{"s": "</tool_call>"}');
    expect(codes(r)).toEqual(['parse/vllm-exception']);
  });

  it('NaN and 1e400 are not JSON: the call is dropped with an error (vLLM writes NaN/Infinity)', () => {
    for (const v of ['NaN', '1e400']) {
      const r = h(hj(`{"name": "typed", "arguments": {"n": ${v}}}`));
      expect(r.tool_calls, v).toEqual([]);
      expect(codes(r), v).toContain('parse/invalid-json');
      expect(find(r, 'parse/vllm-differs')?.message, v).toContain('returns a call to "typed"');
    }
  });

  it('missing </tool_call> after complete JSON: before another call, read with a warning; at the end, returned incomplete (an error); output ending inside the JSON: dropped', () => {
    const r = h('<tool_call>\n{"name": "typed", "arguments": {"s": "x"}}');
    expect(args(r)).toBe('{"s": "x"}');
    expect(find(r, 'parse/unclosed')).toBeUndefined();
    expect(find(r, 'parse/incomplete-call')).toMatchObject({ severity: 'error', path: '/tool_calls/0', tool: 'typed' });
    const more = h(`<tool_call>\n{"name": "typed", "arguments": {"s": "x"}}\n${hj('{"name": "typed", "arguments": {"s": "y"}}')}`);
    expect(more.tool_calls.map((c) => c.function.arguments)).toEqual(['{"s": "x"}', '{"s": "y"}']);
    expect(codes(more)).toEqual(['parse/unclosed', 'parse/vllm-exception']);
    const t = h('<tool_call>\n{"name": "typed", "arguments": {"s": "x');
    expect(t.tool_calls).toEqual([]);
    expect(t.content).toBe('<tool_call>\n{"name": "typed", "arguments": {"s": "x');
    expect(find(t, 'parse/truncated')?.severity).toBe('error');
  });

  it('`arguments` as a JSON string, null or missing: read as an object, with a warning each', () => {
    for (const json of ['{"name": "typed", "arguments": "{\\"s\\": \\"x\\"}"}', '{"name": "typed", "arguments": null}', '{"name": "typed"}']) {
      const r = h(hj(json));
      expect(r.tool_calls.length, json).toBe(1);
      expect(find(r, 'parse/coerced')?.severity, json).toBe('warning');
    }
    expect(args(h(hj('{"name": "typed", "arguments": "{\\"s\\": \\"x\\"}"}')))).toBe('{"s": "x"}');
  });

  it('a call without a string name, or with arguments that are no object, is dropped', () => {
    for (const json of ['{"arguments": {}}', '{"name": 5, "arguments": {}}', '{"name": "typed", "arguments": [1]}', '{"name": "typed", "arguments": "x"}']) {
      // (a name that cannot be one is dropped too: see below)
      const r = h(hj(json));
      expect(r.tool_calls, json).toEqual([]);
      expect(r.content, json).toBe(hj(json));
      expect(codes(r), json).toContain('parse/invalid-call');
    }
  });

  it('reports extra keys, repeated keys, unknown tools and unknown parameters', () => {
    const r = h(hj('{"id": "c1", "name": "typed", "arguments": {"s": "a", "s": "b", "zz": 1}}'));
    expect(args(r)).toBe('{"s": "b", "zz": 1}');
    expect(codes(r)).toEqual(['parse/duplicate-parameter', 'parse/ignored-key', 'parse/unknown-parameter']);
    expect(find(r, 'parse/duplicate-parameter')?.path).toBe('/tool_calls/0/function/arguments/s');
    expect(codes(h(hj('{"name": "nope", "arguments": {}}')))).toEqual(['parse/unknown-tool']);
  });

  it('checks values against the schema without changing them', () => {
    const r = h(hj('{"name": "typed", "arguments": {"i": "5", "n": 4.0, "in": null, "e": "blue", "a": ["x"]}}'));
    expect(args(r)).toBe('{"i": "5", "n": 4.0, "in": null, "e": "blue", "a": ["x"]}');
    expect(r.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ['parse/type-mismatch', '/tool_calls/0/function/arguments/i'],
      ['parse/not-in-enum', '/tool_calls/0/function/arguments/e'],
    ]);
  });

  it('an empty name, or one with spaces that no tool has, is no call', () => {
    for (const name of ['', 'get weather']) {
      const r = h(hj(`{"name": ${JSON.stringify(name)}, "arguments": {}}`));
      expect(r.tool_calls, name).toEqual([]);
      expect(codes(r), name).toContain('parse/invalid-name');
    }
    expect(h(hj('{"name": "my tool", "arguments": {"q": "x"}}')).tool_calls.length).toBe(1);
  });

  it('a Qwen3-Coder call, or a <tool_call> in prose, is text', () => {
    const q = h(q3('s', 'x'));
    expect(q.tool_calls).toEqual([]);
    expect(q.content).toBe(q3('s', 'x'));
    expect(codes(q)).toEqual(['parse/wrong-dialect']);
    const arr = h(hj('[1]'));
    expect(arr.tool_calls).toEqual([]);
    expect(codes(arr)).toEqual(['parse/empty-tool-call']);
    const p = h('Use the <tool_call> tag like this.');
    expect(p.content).toBe('Use the <tool_call> tag like this.');
    expect(codes(p)).toEqual(['parse/empty-tool-call']);
  });

  it('vLLM differences are per call and argument', () => {
    const r = h(hj('{"name": "typed", "arguments": "{\\"s\\": \\"x\\"}"}'));
    const d = find(r, 'parse/vllm-differs');
    expect(d?.path).toBe('/tool_calls/0/function/arguments');
    expect(d?.message).toContain('hermes@02bb669b');
    // against becf329d, which decodes the string too: no difference
    expect(codes(parse(hj('{"name": "typed", "arguments": "{\\"s\\": \\"x\\"}"}'), { model: 'hermes', tools: TOOLS, version: 'hermes@becf329d' }))).toEqual(['parse/coerced']);
  });
});

// ---------------------------------------------------------------------------------------
// Default reading: Qwen3-Coder

describe('default reading: qwen3-coder values by the schema', () => {
  const d = (param: string, value: string, fn = 'typed') => parse(q3(param, value, fn), { model: 'qwen3-coder', tools: TOOLS });
  // [param, text, arguments, codes (besides vLLM differences)]
  const table: [string, string, string, string[]][] = [
    ['s', '123', '{"s": "123"}', []],
    ['s', 'None', '{"s": "None"}', []],
    ['s', 'null', '{"s": "null"}', []],
    ['s', '  spaced  ', '{"s": "  spaced  "}', []],
    ['i', '42', '{"i": 42}', []],
    ['i', ' 5 ', '{"i": 5}', ['parse/coerced']],
    ['i', '4.0', '{"i": 4.0}', []], // JSON Schema: 4.0 is an integer
    ['i', '1_000', '{"i": "1_000"}', ['parse/type-mismatch']],
    ['i', 'forty', '{"i": "forty"}', ['parse/type-mismatch']],
    ['i', 'null', '{"i": null}', ['parse/type-mismatch']],
    ['n', '1e-3', '{"n": 1e-3}', []],
    ['n', '-0.0', '{"n": -0.0}', []],
    ['n', 'inf', '{"n": "inf"}', ['parse/type-mismatch']],
    ['n', '1e400', '{"n": "1e400"}', ['parse/type-mismatch']],
    ['b', 'true', '{"b": true}', []],
    ['b', 'True', '{"b": true}', ['parse/coerced']],
    ['b', 'yes', '{"b": "yes"}', ['parse/type-mismatch']],
    ['a', '["p"]', '{"a": ["p"]}', []],
    ['a', "['x', 2]", '{"a": ["x", 2]}', ['parse/coerced']],
    ['a', '"[1, 2]"', '{"a": [1, 2]}', ['parse/coerced']],
    ['a', 'x, y', '{"a": "x, y"}', ['parse/type-mismatch']],
    ['o', '{"k": 1}', '{"o": {"k": 1}}', []],
    ['e', 'blue', '{"e": "blue"}', ['parse/not-in-enum']],
    ['sn', '123', '{"sn": "123"}', []],
    ['sn', 'null', '{"sn": null}', ['parse/ambiguous-value']],
    ['in', 'None', '{"in": null}', ['parse/coerced']],
    ['u', '7', '{"u": 7}', ['parse/ambiguous-value']],
    ['un', 'text', '{"un": "text"}', []],
    ['nt', 'null', '{"nt": null}', []],
    ['notype', '42', '{"notype": "42"}', []],
    ['ref', '{"x": 1}', '{"ref": {"x": 1}}', []], // the $ref resolves to an object
    ['bad', '{"x": 1}', '{"bad": "{\\"x\\": 1}"}', ['parse/unresolved-ref']],
    ['zz', '99', '{"zz": "99"}', ['parse/unknown-parameter']],
  ];
  for (const [param, text, want, wantCodes] of table) {
    it(`${param} = ${JSON.stringify(text)}`, () => {
      const r = d(param, text);
      expect(args(r)).toBe(want);
      expect(codes(r).filter((c) => c !== 'parse/vllm-differs' && c !== 'parse/vllm-exception')).toEqual(wantCodes);
    });
  }

  it('reports where vLLM reads the value otherwise, naming the versions that do', () => {
    const r = d('sn', '123');
    expect(find(r, 'parse/vllm-differs')?.message).toBe('vLLM (qwen3_coder@00d0a333, qwen3_coder@0b13f933) gives "sn" as 123; read here as "123"');
    // only the older version reads "null" as null for a string
    expect(r.diagnostics.length).toBe(1);
    expect(find(d('s', 'null'), 'parse/vllm-differs')?.message).toBe('vLLM (qwen3_coder@0b13f933) gives "s" as null; read here as "null"');
    expect(find(r, 'parse/vllm-differs')?.path).toBe('/tool_calls/0/function/arguments/sn');
    expect(find(d('b', 'yes'), 'parse/vllm-differs')?.message).toContain('as false');
    expect(find(d('n', 'inf'), 'parse/vllm-exception')?.message).toContain('OverflowError');
    // the same number, spelled otherwise (vLLM writes 0.001): no difference
    expect(codes(d('n', '1e-3'))).toEqual([]);
  });

  it('with a version asked, only that version is compared', () => {
    expect(codes(parse(q3('s', 'null'), { model: 'qwen3-coder', tools: TOOLS, version: NEW }))).toEqual([]);
  });

  it('against 0b13f933: "null" for a string and a literal </parameter> are reported', () => {
    const r = parse(q3('s', 'null'), { model: 'qwen3-coder', tools: TOOLS, version: OLD });
    expect(find(r, 'parse/vllm-differs')?.message).toContain('gives "s" as null');
    const c = parse(q3('s', 'a </parameter> b'), { model: 'qwen3-coder', tools: TOOLS, version: OLD });
    expect(args(c)).toBe('{"s": "a </parameter> b"}');
    expect(find(c, 'parse/vllm-differs')?.message).toContain('gives "s" as "a "');
  });

  it('an unknown function or no tools: values stay text', () => {
    const u = d('i', '42', 'nope');
    expect(args(u)).toBe('{"i": "42"}');
    expect(codes(u)).toEqual(['parse/unknown-tool']);
    const n = parse(q3('i', '42'), { model: 'qwen3-coder' });
    expect(args(n)).toBe('{"i": "42"}');
    expect(codes(n)).toEqual(['parse/no-tools']);
  });
});

describe('default reading: qwen3-coder structure', () => {
  const d = (text: string) => parse(text, { model: 'qwen3-coder', tools: TOOLS });

  it('several calls; the text before and after them is content, the newlines between them are layout', () => {
    const r = d(`Calling two tools.\n${q3('s', 'a')}\n${q3('i', '1')}\nDone.`);
    expect(r.tool_calls.map((c) => c.function.arguments)).toEqual(['{"s": "a"}', '{"i": 1}']);
    expect(r.content).toBe('Calling two tools.\n\nDone.');
  });

  it('one newline after > and one before </parameter> are layout; others belong to the value', () => {
    expect(args(d(q3('s', '\nextra\n')))).toBe('{"s": "\\nextra\\n"}');
    expect(args(d('<tool_call><function=typed><parameter=s>x</parameter></function></tool_call>'))).toBe('{"s": "x"}');
  });

  it('literal tags inside a value are read as text, with a warning', () => {
    for (const v of ['code: </parameter> inside', 'x </function> y', 'value with <parameter=i> inline']) {
      const r = d(q3('s', v));
      expect(args(r), v).toBe(JSON.stringify({ s: v }).replace('":"', '": "'));
      expect(codes(r), v).toContain('parse/literal-tag-in-value');
    }
  });

  it('a nested literal block in a value is balanced', () => {
    const value = 'example:\n<parameter=q>\ninner\n</parameter>\nend';
    expect(args(d(q3('s', value)))).toBe(JSON.stringify({ s: value }).replace('":"', '": "'));
  });

  it('missing closing tags followed by what closes the call: read, with a warning each', () => {
    const a = d('<tool_call>\n<function=typed>\n<parameter=s>\nx\n<parameter=i>\n3\n</parameter>\n</function>\n</tool_call>');
    expect(args(a)).toBe('{"s": "x", "i": 3}');
    expect(find(a, 'parse/unclosed')?.path).toBe('/tool_calls/0/function/arguments/s');
    const b = d('<tool_call>\n<function=typed>\n<parameter=s>\nx\n</parameter>\n</tool_call>');
    expect(args(b)).toBe('{"s": "x"}');
    expect(codes(b)).toEqual(['parse/unclosed']);
  });

  it('output ending after a parameter, before </function> or </tool_call>: the call is returned incomplete (an error), the calls before it are whole', () => {
    const c = d('<tool_call>\n<function=typed>\n<parameter=s>\nx\n</parameter>\n</function>');
    expect(args(c)).toBe('{"s": "x"}');
    expect(codes(c)).toEqual(['parse/incomplete-call']);
    expect(find(c, 'parse/incomplete-call')?.message).toContain('(no </tool_call>)');
    const cut = d('<tool_call>\n<function=typed>\n<parameter=s>\nx\n</parameter>\n');
    expect(codes(cut)).toEqual(['parse/incomplete-call']);
    expect(find(cut, 'parse/incomplete-call')).toMatchObject({ path: '/tool_calls/0', message: expect.stringContaining('(no </function>, no </tool_call>)') });
    const bare = d('<function=typed>\n<parameter=s>\nx\n</parameter>\n');
    expect(find(bare, 'parse/incomplete-call')?.message).toContain('(no </function>)');
    const two = d(`${q3('s', 'x')}\n<tool_call>\n<function=typed>\n<parameter=s>\ny\n</parameter>\n`);
    expect(two.tool_calls.map((x) => x.function.arguments)).toEqual(['{"s": "x"}', '{"s": "y"}']);
    expect(find(two, 'parse/incomplete-call')?.path).toBe('/tool_calls/1');
  });

  it('a </tool_call> right after a call with no block open is dropped from the content, with its byte offset', () => {
    const text = 'é <function=typed>\n<parameter=s>\nx\n</parameter>\n</function>\n</tool_call>';
    const r = d(text);
    expect(r.content).toBe('é ');
    expect(find(r, 'parse/stray-close-tag')).toMatchObject({ severity: 'warning', path: `/text#${text.indexOf('</tool_call>')}`, message: expect.stringContaining(`at byte ${text.indexOf('</tool_call>') + 1}`) });
  });

  it('output ending inside a call drops it, keeps its text as content, and says vLLM returns it', () => {
    for (const text of ['<tool_call>\n<function=typed>\n<parameter=s>\npartial val', '<tool_call>\n<function=typed>\n<parameter=s', '<tool_call>\n<function=typ']) {
      const r = d(text);
      expect(r.tool_calls, text).toEqual([]);
      expect(r.content, text).toBe(text);
      expect(find(r, 'parse/truncated')?.severity, text).toBe('error');
    }
    expect(find(d('<tool_call>\n<function=typed>\n<parameter=s>\npartial val'), 'parse/vllm-differs')?.message).toContain('returns a call to "typed"');
  });

  it('a name that cannot be a function name is no call, unless a tool has it', () => {
    for (const name of ['{{ tc.name }}', '', 'my  tool']) {
      const r = d(q3('q', 'x', name));
      expect(r.tool_calls, name).toEqual([]);
      expect(codes(r), name).toContain('parse/invalid-name');
    }
    const ok = d(q3('q', 'x', 'my tool'));
    expect(ok.tool_calls[0].function.name).toBe('my tool');
    expect(codes(ok)).toContain('parse/vllm-differs'); // 00d0a333 refuses the name
  });

  it('a call outside <tool_call>, an empty <tool_call>, JSON in <tool_call>', () => {
    const bare = d('<function=typed>\n<parameter=s>\nx\n</parameter>\n</function>');
    expect(args(bare)).toBe('{"s": "x"}');
    expect(codes(bare)).toEqual(['parse/no-wrapper']);
    const empty = d('<tool_call>\n</tool_call>');
    expect(empty.content).toBe('<tool_call>\n</tool_call>');
    expect(codes(empty)).toEqual(['parse/empty-tool-call']);
    const json = d(hj('{"name": "typed", "arguments": {}}'));
    expect(json.tool_calls).toEqual([]);
    expect(codes(json)).toEqual(['parse/wrong-dialect']);
  });

  it('two functions in one <tool_call>; a parameter given twice; stray text in a call', () => {
    const two = d('<tool_call>\n<function=typed>\n<parameter=s>\na\n</parameter>\n</function>\n<function=typed>\n<parameter=s>\nb\n</parameter>\n</function>\n</tool_call>');
    expect(two.tool_calls.length).toBe(2);
    expect(find(two, 'parse/vllm-differs')?.message).toContain('does not return this call');
    const dup = d('<tool_call>\n<function=typed>\n<parameter=s>\nfirst\n</parameter>\n<parameter=s>\nsecond\n</parameter>\n</function>\n</tool_call>');
    expect(args(dup)).toBe('{"s": "second"}');
    expect(codes(dup)).toEqual(['parse/duplicate-parameter']);
    const stray = d('<tool_call>\n<function=typed>\nI will now\n<parameter=s>\nx\n</parameter>\n</function>\n</tool_call>');
    expect(args(stray)).toBe('{"s": "x"}');
    expect(codes(stray)).toContain('parse/unexpected-text');
  });
});

// ---------------------------------------------------------------------------------------
// Default reading: anthropic

describe('default reading: anthropic <function_calls>', () => {
  const tools = [{ name: 'get_weather', description: 'Weather', input_schema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } }, flag: { type: 'boolean' }, unit: { type: 'string', enum: ['c', 'f'] } } } }];
  const a = (text: string) => parse(text, { model: 'anthropic', tools });
  const call = (params: string) => `<function_calls>\n<invoke name="get_weather">\n${params}\n</invoke>\n</function_calls>`;

  it('strings raw (newlines included), the rest JSON by the schema', () => {
    const r = a(`Let me check.\n${call('<parameter name="city">\nSan Francisco, CA</parameter>\n<parameter name="days">3</parameter>\n<parameter name="tags">["a", "b"]</parameter>\n<parameter name="flag">true</parameter>')}`);
    expect(r.content).toBe('Let me check.\n');
    expect(args(r)).toBe('{"city": "\\nSan Francisco, CA", "days": 3, "tags": ["a", "b"], "flag": true}');
    expect(r.diagnostics).toEqual([]);
  });

  it("Python spellings are not JSON here; values outside the schema are reported", () => {
    const r = a(call('<parameter name="flag">True</parameter>\n<parameter name="days">three</parameter>\n<parameter name="unit">k</parameter>'));
    expect(args(r)).toBe('{"flag": "True", "days": "three", "unit": "k"}');
    expect(codes(r)).toEqual(['parse/type-mismatch', 'parse/type-mismatch', 'parse/not-in-enum']);
  });

  it('a literal </parameter> in a string, a missing </invoke>, output cut inside a value, a malformed <invoke>', () => {
    expect(args(a(call('<parameter name="city">a </parameter> b</parameter>')))).toBe('{"city": "a </parameter> b"}');
    const open = a('<function_calls>\n<invoke name="get_weather">\n<parameter name="city">x</parameter>\n</function_calls>');
    expect(args(open)).toBe('{"city": "x"}');
    expect(codes(open)).toEqual(['parse/unclosed']);
    const ended = a('<function_calls>\n<invoke name="get_weather">\n<parameter name="city">x</parameter>\n');
    expect(args(ended)).toBe('{"city": "x"}');
    expect(codes(ended)).toEqual(['parse/incomplete-call']);
    const cut = a('<function_calls>\n<invoke name="get_weather">\n<parameter name="city">Par');
    expect(cut.tool_calls).toEqual([]);
    expect(codes(cut)).toEqual(['parse/truncated']);
    const malformed = a(call('<parameter nam="city">x</parameter>\n<parameter name="days">2</parameter>'));
    expect(args(malformed)).toBe('{"days": 2}');
    expect(codes(malformed)).toEqual(['parse/unexpected-text']);
    const bad = a('<function_calls><invoke nam="x"></invoke></function_calls>');
    expect(bad.tool_calls).toEqual([]);
    expect(codes(bad)).toContain('parse/invalid-call');
  });

  it("server 'vllm' has no parser for it: an error, and the default reading", () => {
    const r = parse(call('<parameter name="city">Paris</parameter>'), { model: 'anthropic', tools, server: 'vllm' });
    expect(codes(r)).toEqual(['parse/no-vllm-parser']);
    expect(args(r)).toBe('{"city": "Paris"}');
  });
});

// ---------------------------------------------------------------------------------------
// Options

describe('options', () => {
  it('an unknown model, version or server is an error diagnostic, not a throw', () => {
    expect(codes(parse('x', { model: 'llama' as never }))).toEqual(['parse/bad-option']);
    expect(parse('x', { model: 'llama' as never }).content).toBe('x');
    const v = parse(hj('{"name": "typed", "arguments": {}}'), { model: 'hermes', server: 'vllm', version: 'hermes@latest' as never });
    expect(codes(v)).toEqual(['parse/bad-option']);
    expect(args(v)).toBe('{}'); // the default version is used
    expect(codes(parse('x', { model: 'hermes', server: 'sglang' as never }))).toEqual(['parse/bad-option']);
  });

  it("another dialect's parser version emulates a misconfigured server", () => {
    const r = parse(q3('s', 'x'), { model: 'qwen3-coder', tools: TOOLS, server: 'vllm', version: 'hermes@02bb669b' });
    expect(codes(r)).toEqual(['parse/parser-mismatch', 'parse/vllm-exception']);
    expect(r.tool_calls).toEqual([]);
    expect(r.content).toBe(q3('s', 'x'));
  });

  it('tools in any shape readTools takes, or compiled; unreadable tools are reported and parsing goes on', () => {
    const anthropicShape = [{ name: 'typed', input_schema: { type: 'object', properties: { i: { type: 'integer' } } } }];
    expect(args(parse(q3('i', '5'), { model: 'qwen3-coder', tools: anthropicShape }))).toBe('{"i": 5}');
    expect(args(parse(q3('i', '5'), { model: 'qwen3-coder', tools: JSON.stringify(TOOLS) }))).toBe('{"i": 5}');
    const compiled = { definitions: readTools(TOOLS).tools, tools: [] };
    expect(args(parse(q3('i', '5'), { model: 'qwen3-coder', tools: compiled }))).toBe('{"i": 5}');
    const bad = parse(q3('i', '5'), { model: 'qwen3-coder', tools: '[{"type": "function"}' });
    expect(codes(bad)[0]).toBe('parse/tools-unreadable');
    expect(bad.diagnostics.length).toBeGreaterThan(1);
    expect(args(bad)).toBe('{"i": "5"}');
  });

  it('ids like vLLM\'s when asked, none otherwise', () => {
    const r = parse(`${q3('s', 'a')}\n${q3('s', 'b')}`, { model: 'qwen3-coder', tools: TOOLS, ids: true });
    for (const c of r.tool_calls) expect(c.id).toMatch(/^chatcmpl-tool-[0-9a-f]{32}$/);
    expect(r.tool_calls[0].id).not.toBe(r.tool_calls[1].id);
    expect('id' in parse(q3('s', 'a'), { model: 'qwen3-coder', tools: TOOLS }).tool_calls[0]).toBe(false);
  });
});

describe('diagnostic codes', () => {
  it('every code of XML_PARSE_CODES fires in the cases above', () => {
    const missing = Object.keys(XML_PARSE_CODES).filter((c) => !fired.has(c) && !FAMILY_ONLY.includes(c));
    expect(missing).toEqual([]);
  });
});
