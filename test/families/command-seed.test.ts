/**
 * Command R7B, Command R+ and Seed-OSS: the differential harness over the oracle sets, and
 * hand-written cases for each rule of each template (every expected text below was rendered by
 * the real template with ../shared/oracles/families/render.py, then written down here).
 */
import { describe, expect, it } from 'vitest';
import { COMMAND_R_PLUS } from '../../src/emit/families/command-r-plus.js';
import { COMMAND_R7B } from '../../src/emit/families/command-r7b.js';
import { FAMILIES } from '../../src/emit/families/command-seed.js';
import { familyPrinter } from '../../src/emit/families/registry.js';
import { SEED_OSS } from '../../src/emit/families/seed-oss.js';
import type { FamilyPrinter } from '../../src/emit/families/types.js';
import { parseJson, type JsonValue } from '../../src/ir/json.js';
import type { ToolDefinition } from '../../src/input/types.js';
import { OVERFLOW, bareTools, describeFamily, familyCase, oneFailure } from '../support/families.js';

describeFamily(COMMAND_R7B, { 'raw-default-1e400-overflow': OVERFLOW });
describeFamily(COMMAND_R_PLUS);
describeFamily(SEED_OSS, { 'raw-default-1e400-overflow': OVERFLOW });

const PROMPT_OPTIONS = { date: '2025-08-05' };

describe('command-seed group', () => {
  it('registers the three families by name, in order', () => {
    expect(FAMILIES.map((f) => f.name)).toEqual(['command-r7b', 'command-r-plus', 'seed-oss']);
    for (const f of FAMILIES) expect(familyPrinter(f.name)).toBe(f);
  });

  it('no tools: an empty catalog', () => {
    for (const f of FAMILIES as FamilyPrinter[]) expect(f.catalog([]).text).toBe('');
  });

  it('a lone surrogate fails as Python fails to encode the prompt, at the string that holds it', () => {
    // the JSON reader refuses a lone surrogate escape: such strings only come from JavaScript values
    const ts = bareTools('[{"name": "f", "description": "x", "parameters": {"properties": {}}}]').map((t) => ({ ...t, description: 'x\ud800' }));
    const cases: [FamilyPrinter, number][] = [
      [COMMAND_R7B, 4082],
      [COMMAND_R_PLUS, 1411],
      [SEED_OSS, 156],
    ];
    for (const [f, position] of cases) {
      const d = oneFailure(() => f.prompt(ts, PROMPT_OPTIONS));
      expect(d).toMatchObject({ code: 'family/template-fails', tool: 'f', path: '/0/description' });
      expect(d.message).toContain(`UnicodeEncodeError: 'utf-8' codec can't encode character '\\ud800' in position ${position}: surrogates not allowed`);
    }
  });
});

describe('command-r7b', () => {
  it('whole prompt: system preamble, tools list, default preamble, instructions as the developer preamble', () => {
    const c = familyCase('command-r7b', 'weather-instructions');
    expect(COMMAND_R7B.prompt(c.tools, { ...PROMPT_OPTIONS, instructions: c.instructions }).text).toBe(c.want);
  });

  it('pastes name and description raw, str() of a non-string description, nothing for a missing one; parameters through tojson', () => {
    const ts = bareTools(
      '[{"name": "get_weather", "description": "Say \\"hi\\"\\nto Zürich", "parameters": {"type": "object", "properties": {"days": {"type": "number", "default": 1.0, "description": "Tage \\"d\\""}}}},' +
        ' {"name": "n", "description": 5, "parameters": null}, {"name": "m", "parameters": {"x": [1E2, true, null]}}, {"name": "o", "description": {"a": [1, "b"]}, "parameters": {}}]',
    );
    expect(COMMAND_R7B.catalog(ts).text).toBe(
      [
        '```json',
        '[',
        '    {"name": "get_weather", "description": "Say "hi"',
        'to Zürich", "parameters": {"type": "object", "properties": {"days": {"type": "number", "default": 1.0, "description": "Tage \\"d\\""}}}, "responses": null},',
        '    {"name": "n", "description": "5", "parameters": null, "responses": null},',
        '    {"name": "m", "description": "", "parameters": {"x": [100.0, true, null]}, "responses": null},',
        '    {"name": "o", "description": "{\'a\': [1, \'b\']}", "parameters": {}, "responses": null}',
        ']',
        '```',
      ].join('\n'),
    );
  });

  it('warns where the raw description breaks the JSON list', () => {
    const ts = bareTools('[{"name": "a", "description": "Say \\"hi\\"", "parameters": {}}, {"name": "b", "description": "fine", "parameters": {}}]');
    const ds = COMMAND_R7B.catalog(ts).diagnostics;
    expect(ds.map((d) => [d.code, d.severity, d.tool, d.path])).toEqual([['family/unparseable', 'warning', 'a', '/0/description']]);
    expect(COMMAND_R7B.prompt(ts).diagnostics).toEqual(ds);
  });

  it('a tool without parameters: tojson of Undefined raises TypeError', () => {
    const d = oneFailure(() => COMMAND_R7B.prompt(bareTools('[{"name": "a", "description": "A", "parameters": {}}, {"name": "b", "description": "B"}]')));
    expect(d).toMatchObject({ code: 'family/template-fails', severity: 'error', tool: 'b', path: '/1/parameters' });
    expect(d.message).toMatch(/^Command R7B's template prints each tool's parameters with tojson and this tool has none/);
    expect(d.message).toContain('(Jinja2: TypeError: Object of type Undefined is not JSON serializable)');
  });

  it('no tools: no tool-use section; the chatbot turn ends the prompt even without a generation prompt', () => {
    const text = COMMAND_R7B.prompt([], { addGenerationPrompt: false }).text;
    expect(text).toContain('many more languages.\n# Default Preamble\n');
    expect(text).not.toContain('## Available Tools');
    expect(text.endsWith('then answer.<|END_OF_TURN_TOKEN|><|START_OF_TURN_TOKEN|><|USER_TOKEN|>hi<|END_OF_TURN_TOKEN|><|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>')).toBe(true);
  });

  it('conversation: later system turns, assistant responses, tool results grouped; after a group of two, later tool messages vanish', () => {
    const text = COMMAND_R7B.prompt([], {
      instructions: 'S',
      messages: [
        { role: 'user', content: 'u1' },
        { role: 'assistant', content: 'a1' },
        { role: 'tool', content: 't1' },
        { role: 'tool', content: 't2' },
        { role: 'Assistant', content: 'a2' },
        { role: 'tool', content: 't3' },
        { role: 'system', content: 's2' },
        { role: 'chatbot', content: 'c' },
        { role: 'other', content: 'o' },
      ],
    }).text;
    const result = (t: string) => `    {\n        "tool_call_id": "",\n        "results": {\n            "0": "${t}"\n        },\n        "is_error": null\n    }`;
    expect(text.slice(text.indexOf('preamble instructions.\n'))).toBe(
      'preamble instructions.\nS<|END_OF_TURN_TOKEN|><|START_OF_TURN_TOKEN|><|USER_TOKEN|>u1<|END_OF_TURN_TOKEN|>' +
        '<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|><|START_RESPONSE|>a1<|END_RESPONSE|><|END_OF_TURN_TOKEN|>' +
        `<|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|><|START_TOOL_RESULT|>[\n${result('t1')},\n${result('t2')}\n]<|END_TOOL_RESULT|><|END_OF_TURN_TOKEN|>` +
        '<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|><|START_RESPONSE|>a2<|END_RESPONSE|><|END_OF_TURN_TOKEN|>' +
        '<|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|>s2<|END_OF_TURN_TOKEN|>' +
        '<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|><|START_RESPONSE|>c<|END_RESPONSE|><|END_OF_TURN_TOKEN|>' +
        '<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>',
    );
  });
});

describe('command-r-plus', () => {
  it('whole prompt: the instructions (untrimmed) replace the default user preamble', () => {
    const c = familyCase('command-r-plus', 'weather-instructions');
    expect(COMMAND_R_PLUS.prompt(c.tools, { ...PROMPT_OPTIONS, instructions: c.instructions }).text).toBe(c.want);
  });

  it('json_to_python_type: basic types, List[Union[]] for every array, Dict from additionalProperties, Union of a type list, Union[] without a type, Any for a number', () => {
    const ts = bareTools(
      '[{"name": "f", "description": "Types.", "parameters": {"type": "object", "properties": {"s": {"type": "string", "description": "S"}, "n": {"type": "number", "description": "N"},' +
        ' "i": {"type": "integer", "description": "I"}, "b": {"type": "boolean", "description": "B"}, "a": {"type": "array", "items": {"type": "string"}, "description": "A"},' +
        ' "o": {"type": "object", "additionalProperties": false, "description": "O"}, "m": {"type": "object", "additionalProperties": {"type": "integer"}, "description": "M"},' +
        ' "u": {"type": ["string", "integer"], "description": "U"}, "k": {"description": "K"}, "e": {"type": "", "description": "E"}, "z": {"type": 7, "description": "Z"}}, "required": ["s", "a"]}}]',
    );
    expect(COMMAND_R_PLUS.catalog(ts).text).toBe(
      [
        '```python',
        'def f(s: str, n: Optional[float] = None, i: Optional[int] = None, b: Optional[bool] = None, a: List[Union[]], o: Optional[Dict[str, Union[]]] = None, m: Optional[Dict[str, int]] = None, u: Optional[Union[str,int]] = None, k: Optional[Union[]] = None, e: Optional[Union[]] = None, z: Optional[Any] = None) -> List[Dict]:',
        '    """Types.',
        '',
        '    Args:',
        '        s (str): S',
        '        n (Optional[float]): N',
        '        i (Optional[int]): I',
        '        b (Optional[bool]): B',
        '        a (List[Union[]]): A',
        '        o (Optional[Dict[str, Union[]]]): O',
        '        m (Optional[Dict[str, int]]): M',
        '        u (Optional[Union[str,int]]): U',
        '        k (Optional[Union[]]): K',
        '        e (Optional[Union[]]): E',
        '        z (Optional[Any]): Z',
        '    """',
        '    pass',
        '```',
      ].join('\n'),
    );
  });

  it('no Args without properties; parameters null render; a non-string tool description prints its str(); stubs a blank line apart', () => {
    const ts = bareTools('[{"name": "g", "description": {"a": 1}, "parameters": null}, {"name": "h", "parameters": {"type": "object", "properties": {}}}]');
    expect(COMMAND_R_PLUS.catalog(ts).text).toBe('```python\ndef g() -> List[Dict]:\n    """{\'a\': 1}\n    """\n    pass\n```\n\n```python\ndef h() -> List[Dict]:\n    """\n    """\n    pass\n```');
  });

  const fails = (json: string) => oneFailure(() => COMMAND_R_PLUS.prompt(bareTools(json)));

  it('a property without a description: UndefinedError, said plainly', () => {
    const d = fails('[{"name": "get_weather", "description": "D", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City"}, "days": {"type": "number", "default": 1.0}}}}]');
    expect(d).toMatchObject({ code: 'family/template-fails', tool: 'get_weather', path: '/0/parameters/properties/days/description' });
    expect(d.message).toMatch(/^Command R\+'s template needs a description on every property and property "days" has none/);
    expect(d.message).toContain("(Jinja2: UndefinedError: 'dict object' has no attribute 'description')");
  });

  it('a property that is not a schema, a description that is not a string', () => {
    const notSchema = fails('[{"name": "f", "description": "D", "parameters": {"type": "object", "properties": {"a": "str"}}}]');
    expect(notSchema).toMatchObject({ path: '/0/parameters/properties/a' });
    expect(notSchema.message).toContain("UndefinedError: 'str object' has no attribute 'description'");
    const number = fails('[{"name": "f", "description": "D", "parameters": {"type": "object", "properties": {"a": {"type": "string", "description": 5}}}}]');
    expect(number).toMatchObject({ path: '/0/parameters/properties/a/description' });
    expect(number.message).toContain('TypeError: can only concatenate str (not "int") to str');
  });

  it('an object-typed property without additionalProperties: UndefinedError, also for an "object" member of a type list', () => {
    const d = fails('[{"name": "f", "description": "D", "parameters": {"type": "object", "properties": {"a": {"type": "object", "description": "x"}}}}]');
    expect(d).toMatchObject({ path: '/0/parameters/properties/a/additionalProperties' });
    expect(d.message).toMatch(/^Command R\+'s template needs additionalProperties on every object-typed property/);
    expect(d.message).toContain("(Jinja2: UndefinedError: 'dict object' has no attribute 'additionalProperties')");
    const member = fails('[{"name": "f", "description": "D", "parameters": {"type": "object", "properties": {"a": {"type": ["string", "object"], "description": "x"}}}}]');
    expect(member).toMatchObject({ path: '/0/parameters/properties/a/type/1/additionalProperties' });
    expect(member.message).toContain("UndefinedError: 'dict object' has no attribute 'additionalProperties'");
  });

  it('an unknown type name recurses without end: RecursionError, raised in the signature before any missing description', () => {
    const d = fails('[{"name": "f", "description": "D", "parameters": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "null", "description": "B"}}}}]');
    expect(d).toMatchObject({ tool: 'f', path: '/0/parameters/properties/b/type' });
    expect(d.message).toMatch(/^Command R\+'s template cannot print type "null"/);
    expect(d.message).toContain('RecursionError: maximum recursion depth exceeded');
  });

  it('no parameters, properties not an object, required not a list, no tools at all', () => {
    const noParams = fails('[{"name": "f", "description": "D"}]');
    expect(noParams).toMatchObject({ path: '/0/parameters' });
    expect(noParams.message).toContain("UndefinedError: 'dict object' has no attribute 'parameters'");
    const listProps = fails('[{"name": "f", "description": "D", "parameters": {"type": "object", "properties": null}}]');
    expect(listProps).toMatchObject({ path: '/0/parameters/properties' });
    expect(listProps.message).toContain('TypeError: Can only get item pairs from a mapping.');
    const required = fails('[{"name": "f", "description": "D", "parameters": {"type": "object", "properties": {"a": {"type": "string", "description": "x"}}, "required": 5}}]');
    expect(required).toMatchObject({ path: '/0/parameters/required' });
    expect(required.message).toContain("TypeError: argument of type 'int' is not iterable");
    const none = oneFailure(() => COMMAND_R_PLUS.prompt([]));
    expect(none).toMatchObject({ code: 'family/template-fails', path: '' });
    expect(none.tool).toBeUndefined();
    expect(none.message).toContain("TypeError: 'NoneType' object is not iterable");
  });

  it('a type naming a dict method prints a memory address: refused', () => {
    const d = fails('[{"name": "f", "description": "D", "parameters": {"type": "object", "properties": {"a": {"type": "items", "description": "x"}}}}]');
    expect(d).toMatchObject({ path: '/0/parameters/properties/a/type' });
    expect(d.message).toContain('bound method');
  });

  it('conversation: contents trimmed, tool results in <results>, unknown roles dropped; the generation prompt is optional', () => {
    const ts = bareTools('[{"name": "N", "description": "D", "parameters": {}}]');
    const text = COMMAND_R_PLUS.prompt(ts, {
      instructions: ' S ',
      addGenerationPrompt: false,
      messages: [
        { role: 'user', content: ' u1 ' },
        { role: 'assistant', content: ' a1 ' },
        { role: 'tool', content: ' t1 ' },
        { role: 'System', content: 's2' },
        { role: 'system', content: ' s3 ' },
      ],
    }).text;
    expect(text).toContain('# User Preamble\n S \n\n## Available Tools');
    expect(text).toContain(
      'pass\n```<|END_OF_TURN_TOKEN|><|START_OF_TURN_TOKEN|><|USER_TOKEN|>u1<|END_OF_TURN_TOKEN|><|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>a1<|END_OF_TURN_TOKEN|>' +
        '<|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|><results>\nt1</results><|END_OF_TURN_TOKEN|><|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|>s3<|END_OF_TURN_TOKEN|><|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|>Write \'Action:\'',
    );
    expect(text.endsWith(']```<|END_OF_TURN_TOKEN|>')).toBe(true);
  });
});

describe('seed-oss', () => {
  const CALL_FORMAT =
    '工具调用请遵循如下格式:\n<seed:tool_call>\n<function=example_function_name>\n<parameter=example_parameter_1>value_1</parameter>\n<parameter=example_parameter_2>This is the value for the second parameter\nthat can span\nmultiple lines</parameter>\n</function>\n</seed:tool_call>\n';

  it('whole prompt: the default Doubao system text, stubs, call format; number prints as int; no defaults or enums; descriptions trimmed', () => {
    const ts = bareTools(
      '[{"name": "f", "description": "  Find it. \\n", "parameters": {"type": "object", "properties": {"s": {"type": "string", "description": "S", "default": "x", "enum": ["x", "y"]}, "n": {"type": "number"},' +
        ' "i": {"type": "integer", "description": 0}, "a": {"type": "array", "items": {"type": "string"}}, "o": {"type": "object", "properties": {"deep": {"type": "string"}}, "description": {"k": 1}},' +
        ' "u": {"type": ["string", "null"]}}, "required": ["s", "o"]}}, {"name": "g", "parameters": {"type": "object", "properties": {}}}]',
    );
    expect(SEED_OSS.prompt(ts, PROMPT_OPTIONS).text).toBe(
      '<seed:bos>system\nYou are Doubao, a helpful AI assistant. You may call one or more functions to assist with the user query.\n\n' +
        'Function:\ndef f(s: str,n: int,i: int,a: list,o: Any,u: Any):\n    """\n    Find it.\n\n    Args:\n    - s (str) [必填]: S\n    - n (int) [选填]: \n    - i (int) [选填]: \n' +
        "    - a (list) [选填]: \n    - o (Any) [必填]: {'k': 1}\n    - u (Any) [选填]: \n\n    \"\"\"\n\n" +
        'Function:\ndef g():\n    """\n    \n\n\n\n    """\n' +
        CALL_FORMAT +
        '<seed:eos><seed:bos>user\nhi<seed:eos><seed:bos>assistant\n',
    );
  });

  it('instructions replace the default system text; without tools only the system turn', () => {
    const ts = bareTools('[{"name": "get_weather", "description": "Get the weather.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City, e.g. Zürich"}, "days": {"type": "number", "default": 1.0}}, "required": ["city"]}}]');
    expect(SEED_OSS.prompt(ts, { instructions: 'Answer in French.' }).text).toBe(
      '<seed:bos>system\nAnswer in French.\n\nFunction:\ndef get_weather(city: str,days: int):\n    """\n    Get the weather.\n\n    Args:\n    - city (str) [必填]: City, e.g. Zürich\n    - days (int) [选填]: \n\n    """\n' +
        CALL_FORMAT +
        '<seed:eos><seed:bos>user\nhi<seed:eos><seed:bos>assistant\n',
    );
    expect(SEED_OSS.prompt([], { instructions: 'Answer in French.' }).text).toBe('<seed:bos>system\nAnswer in French.<seed:eos><seed:bos>user\nhi<seed:eos><seed:bos>assistant\n');
    expect(SEED_OSS.prompt([]).text).toBe('<seed:bos>user\nhi<seed:eos><seed:bos>assistant\n');
  });

  it('required as a string is a substring test', () => {
    const ts = bareTools('[{"name": "f", "description": "D", "parameters": {"type": "object", "properties": {"ab": {"type": "string"}, "c": {"type": "string"}}, "required": "xaby"}}]');
    expect(SEED_OSS.catalog(ts).text).toBe('Function:\ndef f(ab: str,c: str):\n    """\n    D\n\n    Args:\n    - ab (str) [必填]: \n    - c (str) [选填]: \n\n    """');
  });

  it('a tool-level returns with properties is listed under Returns', () => {
    const [t] = bareTools('[{"name": "f", "description": "D", "parameters": {"type": "object", "properties": {"a": {"type": "boolean"}}}}]');
    const withReturns: ToolDefinition = { ...t, extra: parseJson('{"returns": {"properties": {"r": {"type": "string", "description": "R"}, "q": {}}}}') as ReadonlyMap<string, JsonValue> };
    expect(SEED_OSS.catalog([withReturns]).text).toBe('Function:\ndef f(a: bool):\n    """\n    D\n\n    Args:\n    - a (bool) [选填]: \n    Returns:\n    - r (str): R\n    - q (Any): \n    """');
  });

  const fails = (json: string) => oneFailure(() => SEED_OSS.prompt(bareTools(json)));

  it('parameters without properties, or no parameters: UndefinedError', () => {
    const noProps = fails('[{"name": "f", "description": "D", "parameters": {"type": "object"}}]');
    expect(noProps).toMatchObject({ code: 'family/template-fails', tool: 'f', path: '/0/parameters/properties' });
    expect(noProps.message).toMatch(/^Seed-OSS's template lists parameters.properties.items\(\) and this tool's parameters has no properties/);
    expect(noProps.message).toContain("(Jinja2: UndefinedError: 'dict object' has no attribute 'properties')");
    const noParams = fails('[{"name": "f", "description": "D"}]');
    expect(noParams).toMatchObject({ path: '/0/parameters' });
    expect(noParams.message).toContain("UndefinedError: 'dict object' has no attribute 'parameters'");
  });

  it('parameters or properties of the wrong kind: UndefinedError naming the Python type', () => {
    expect(fails('[{"name": "f", "description": "D", "parameters": null}]').message).toContain("UndefinedError: 'None' has no attribute 'properties'");
    expect(fails('[{"name": "f", "description": "D", "parameters": "abc"}]').message).toContain("UndefinedError: 'str object' has no attribute 'properties'");
    const list = fails('[{"name": "f", "description": "D", "parameters": {"type": "object", "properties": []}}]');
    expect(list).toMatchObject({ path: '/0/parameters/properties' });
    expect(list.message).toContain("UndefinedError: 'list object' has no attribute 'items'");
    expect(fails('[{"name": "f", "description": "D", "parameters": {"type": "object", "properties": null}}]').message).toContain("UndefinedError: 'None' has no attribute 'items'");
    const required = fails('[{"name": "f", "description": "D", "parameters": {"type": "object", "properties": {"a": {"type": "string"}}, "required": 5}}]');
    expect(required).toMatchObject({ path: '/0/parameters/required' });
    expect(required.message).toContain("TypeError: argument of type 'int' is not iterable");
  });

  it('conversation: roles printed as given; an assistant message with blank content gets no newline and no eos', () => {
    const text = SEED_OSS.prompt([], {
      messages: [
        { role: 'user', content: ' u1 ' },
        { role: 'assistant', content: ' a1 ' },
        { role: 'assistant', content: '  ' },
        { role: 'tool', content: ' t1 ' },
        { role: 'System', content: 's2' },
      ],
    }).text;
    expect(text).toBe('<seed:bos>user\n u1 <seed:eos><seed:bos>assistant\na1<seed:eos><seed:bos>assistant<seed:bos>tool\n t1 <seed:eos><seed:bos>System\ns2<seed:eos><seed:bos>assistant\n');
  });
});
