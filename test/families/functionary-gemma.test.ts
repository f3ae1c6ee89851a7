/**
 * Functionary v3.2, Functionary v3.1 and Gemma 4: the oracle comparison (when ../shared is
 * there) and hand-written cases for each rule of each template. Every expected text below was
 * produced by the real template (`render.py <template-folder> IN.jsonl OUT.jsonl`) over the same
 * input; none is copied from ../shared.
 */
import { describe, expect, it } from 'vitest';
import { FUNCTIONARY_31 } from '../../src/emit/families/functionary-3.1.js';
import { FUNCTIONARY_32 } from '../../src/emit/families/functionary-3.2.js';
import { FAMILIES } from '../../src/emit/families/functionary-gemma.js';
import { GEMMA_4 } from '../../src/emit/families/gemma-4.js';
import { familyPrinter } from '../../src/emit/families/registry.js';
import type { FamilyPrinter } from '../../src/emit/families/types.js';
import type { ToolDefinition } from '../../src/input/types.js';
import { bareTools, describeFamily, familyCase, NAMELESS, oneFailure, OVERFLOW } from '../support/families.js';

describeFamily(FUNCTIONARY_32, { 'raw-default-1e400-overflow': OVERFLOW });
describeFamily(FUNCTIONARY_31, { 'raw-default-1e400-overflow': OVERFLOW, 'tool-name-missing': NAMELESS });
describeFamily(GEMMA_4, { 'raw-default-1e400-overflow': OVERFLOW });

/** A tool `f` ("Test tool.") with these properties (and `required`, when given). */
function withProps(properties: string, required?: string): ToolDefinition[] {
  return bareTools(`[{"name": "f", "description": "Test tool.", "parameters": {"type": "object", "properties": ${properties}${required !== undefined ? `, "required": ${required}` : ''}}}]`);
}

/** The tool block of Functionary v3.2 for one tool `f`: between the namespace's braces. */
function fn32(body: string): string {
  return `// Supported function definitions that should be called when necessary.\nnamespace functions {\n\n// Test tool.\ntype f = (_: {\n${body}\n}) => any;\n\n} // namespace functions`;
}

/** The Gemma 4 declaration of one tool `f` with these properties. */
function gemmaF(properties: string, tail = ''): string {
  return `<|tool>declaration:f{description:<|"|>Test tool.<|"|>,parameters:{properties:{${properties}},${tail}type:<|"|>OBJECT<|"|>}}<tool|>`;
}

describe('functionary-gemma group: names', () => {
  it('registers functionary-3.2, functionary-3.1 and gemma-4 under their --model names', () => {
    expect(FAMILIES.map((f) => f.name)).toEqual(['functionary-3.2', 'functionary-3.1', 'gemma-4']);
    expect(familyPrinter('functionary-3.2')).toBe(FUNCTIONARY_32);
    expect(familyPrinter('functionary-3.1')).toBe(FUNCTIONARY_31);
    expect(familyPrinter('gemma-4')).toBe(GEMMA_4);
    for (const f of FAMILIES) expect(f.source).toMatch(/@ [0-9a-f]{40}/);
  });

  it.each(['functionary-3.2', 'functionary-3.1', 'gemma-4'])('%s: the weather tool with instructions is the template\'s whole prompt', (name) => {
    const c = familyCase(name, 'weather-instructions');
    const printer = familyPrinter(name) as FamilyPrinter;
    expect(printer.prompt(c.tools, { ...(c.instructions !== undefined ? { instructions: c.instructions } : {}) }).text).toBe(c.want);
    // the catalog is the tools block exactly as it stands in the prompt
    const block = printer.catalog(c.tools).text;
    expect(block).not.toBe('');
    expect(c.want).toContain(block);
  });

  it.each([FUNCTIONARY_32, FUNCTIONARY_31, GEMMA_4])('$name: a lone surrogate fails as UTF-8 encoding does, at its position in the prompt', (printer) => {
    const position = { 'functionary-3.2': 426, 'functionary-3.1': 173, 'gemma-4': 58 }[printer.name];
    // our JSON reader refuses a lone surrogate; a JavaScript string can hold one
    const [t] = bareTools('[{"name": "f", "description": "", "parameters": {"type": "object", "properties": {}}}]');
    const d = oneFailure(() => printer.prompt([{ ...t, description: 'a\ud83db' }]));
    expect(d).toMatchObject({ code: 'family/template-fails', tool: 'f', path: '/0/description' });
    expect(d.message).toContain(`UnicodeEncodeError: 'utf-8' codec can't encode character '\\ud83d' in position ${position}: surrogates not allowed`);
  });
});

describe('functionary-3.2: TypeScript namespace with Python values', () => {
  it('prints the system turn and an empty namespace without tools, the instructions as a second system turn, and ends with >>>', () => {
    expect(FUNCTIONARY_32.catalog([]).text).toBe('');
    const text = FUNCTIONARY_32.prompt([], { instructions: 'Sys.' }).text;
    expect(text).toBe(
      '<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nYou are capable of executing available function(s) if required.\nOnly execute function(s) when absolutely necessary.\nAsk for the required input to:recipient==all\nUse JSON for function arguments.\nRespond in this format:\n>>>${recipient}\n${content}\nAvailable functions:\n' +
        '// Supported function definitions that should be called when necessary.\nnamespace functions {\n\n} // namespace functions<|eot_id|>' +
        '<|start_header_id|>system<|end_header_id|>\n\nSys.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nhi<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n>>>',
    );
  });

  it('prints values as Python str(): True, dicts and lists in repr, 1e+16; a "." closes descriptions; only type "string" quotes the default', () => {
    const t = withProps('{"a": {"type": "boolean", "default": true, "enum": [true, false]}, "b": {"type": "object", "default": {"k": [1, "x", null]}, "properties": {}}, "c": {"type": "number", "default": 1e16, "description": "Multi\\nline"}, "d": {"type": "string", "default": "x", "description": "Done."}}');
    expect(FUNCTIONARY_32.catalog(t).text).toBe(fn32(['// Default=True.', 'a?: True | False,', "// Default={'k': [1, 'x', None]}.", 'b?: {', '},', '// Multi', 'line. Default=1e+16.', 'c?: number,', '// Done. Default="x".', 'd?: string,'].join('\n')));
  });

  it('maps integer/float to number, joins type lists, takes the distinct oneOf types (case-insensitive) and prints an empty Format= beside oneOf', () => {
    const t = withProps('{"a": {"type": "integer"}, "b": {"type": "float"}, "c": {"type": ["integer", "null"]}, "d": {"oneOf": [{"type": "string"}, {"type": "String"}, {"type": "integer"}]}, "e": {"oneOf": [{"format": "date"}, {"format": "time"}]}, "f": {"description": "No type"}}');
    expect(FUNCTIONARY_32.catalog(t).text).toBe(fn32(['a?: number,', 'b?: number,', 'c?: integer | null,', '// Format=', 'd?: string | integer,', '// Format=date or time', 'e?: ,', '// No type.', 'f?: ,'].join('\n')));
  });

  it('writes enum values raw and drops the separator after any value equal to the last one (Python ==, 1 == True)', () => {
    const t = withProps('{"a": {"enum": ["x", "y", "x"]}, "b": {"enum": [1, true, 2]}, "c": {"type": "string", "enum": ["say \\"hi\\""], "nullable": true}}');
    expect(FUNCTIONARY_32.catalog(t).text).toBe(fn32(['a?: "x""y" | "x",', 'b?: 1 | True | 2,', 'c?: "say "hi"" | null,'].join('\n')));
  });

  it('prints arrays as T[], nested T[][], object items as an indented {…}[], and [] when items have no type', () => {
    const t = withProps(
      '{"a": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}}, "b": {"type": "array", "items": {"type": "object", "properties": {"k": {"type": "integer"}}, "required": ["k"]}}, "c": {"type": "array", "items": {"enum": [1, 2]}}, "d": {"type": "array", "items": {}}, "e": {"type": "array", "description": "E", "items": {"type": "string"}}}',
      '["a"]',
    );
    expect(FUNCTIONARY_32.catalog(t).text).toBe(fn32(['a: string[][],', 'b?: {', '    k: number,', '}[],', 'c?: [],', 'd?: [],', '// E.', 'e?: string[],'].join('\n')));
  });

  it('indents nested objects and writes examples with single quotes turned double; a property is optional unless `required` contains it', () => {
    const t = withProps('{"o": {"type": "object", "description": "Obj", "examples": [{"q": "it\'s"}], "properties": {"p": {"type": "string", "maximum": 3, "minLength": 1}}}}', '["o"]');
    expect(FUNCTIONARY_32.catalog(t).text).toBe(fn32(['// Obj.', '// Example o:', '// {"q": "it"s"}', 'o: {', '    // Maximum=3 Minimum length=1', '    p?: string,', '},'].join('\n')));
  });

  it('tests a string `required` as a substring and takes a non-iterable one for "all required"', () => {
    const t = [...withProps('{"x": {"type": "string"}, "xy": {"type": "string"}, "z": {"type": "string"}}', '"xyq"'), ...bareTools('[{"name": "g", "description": "Test tool.", "parameters": {"type": "object", "properties": {"x": {"type": "string"}}, "required": true}}]')];
    const text = FUNCTIONARY_32.catalog(t).text;
    expect(text).toContain('type f = (_: {\nx: string,\nxy: string,\nz?: string,\n}) => any;');
    expect(text).toContain('type g = (_: {\nx: string,\n}) => any;');
  });

  it('leaves out a tool with an empty name and prints () => any without properties', () => {
    const t = bareTools('[{"name": "", "description": "Nameless.", "parameters": {}}, {"name": "g", "description": "No params."}, {"name": "h", "description": "Empty.", "parameters": {"type": "object", "properties": {}}}]');
    expect(FUNCTIONARY_32.catalog(t).text).toBe('// Supported function definitions that should be called when necessary.\nnamespace functions {\n\n// No params.\ntype g = () => any;\n\n// Empty.\ntype h = () => any;\n\n} // namespace functions');
  });

  it.each([
    ['a number tool description', '[{"name": "f", "description": 123}]', '/0/description', 'TypeError: can only concatenate str (not "int") to str'],
    ['a number property description', '[{"name": "f", "description": "D", "parameters": {"type": "object", "properties": {"x": {"type": "string", "description": 5}}}}]', '/0/parameters/properties/x/description', "UndefinedError: 'int object' has no attribute 'endswith'"],
    ['items: false', '[{"name": "f", "description": "D", "parameters": {"type": "object", "properties": {"x": {"type": "array", "items": false}}}}]', '/0/parameters/properties/x/items', "TypeError: argument of type 'bool' is not iterable"],
    ['string parameters', '[{"name": "f", "description": "D", "parameters": "object"}]', '/0/parameters', "UndefinedError: 'str object' has no attribute 'get'"],
    ['a list of properties', '[{"name": "f", "description": "D", "parameters": {"type": "object", "properties": [{"name": "x"}]}}]', '/0/parameters/properties', "UndefinedError: 'list object' has no attribute 'items'"],
    ['enum: null', '[{"name": "f", "description": "D", "parameters": {"type": "object", "properties": {"x": {"enum": null}}}}]', '/0/parameters/properties/x/enum', "TypeError: 'NoneType' object is not iterable"],
    ['a number oneOf format', '[{"name": "f", "description": "D", "parameters": {"type": "object", "properties": {"x": {"oneOf": [{"format": 1}, {"format": "b"}]}}}}]', '/0/parameters/properties/x/oneOf/0/format', "TypeError: unsupported operand type(s) for +: 'int' and 'str'"],
  ])('fails as the template does on %s', (_what, json, path, error) => {
    const d = oneFailure(() => FUNCTIONARY_32.prompt(bareTools(json)));
    expect(d).toMatchObject({ code: 'family/template-fails', severity: 'error', tool: 'f', path });
    expect(d.message).toMatch(/^the Functionary v3\.2 template fails on this tool: /);
    expect(d.message.endsWith(`(Jinja2: ${error})`)).toBe(true);
  });

  it('prints an absent tool description as an empty comment', () => {
    expect(FUNCTIONARY_32.catalog(bareTools('[{"name": "f", "parameters": {"type": "object", "properties": {}}}]')).text).toContain('\n\n// \ntype f = () => any;\n\n');
  });
});

describe('functionary-3.1: HTML-escaped Markup', () => {
  const weather = bareTools('[{"name": "a&b", "description": "Use <b> & \\"q\\" \'x\'", "parameters": {"type": "object", "properties": {"x": {"type": "string", "enum": ["<a>"]}}}}]');

  it('escapes the name, the description and the JSON (& < > \' ")', () => {
    const text = FUNCTIONARY_31.catalog(weather).text;
    expect(text.startsWith('You have access to the following functions:\n\n')).toBe(true);
    expect(text).toContain(
      "Use the function 'a&amp;b' to 'Use &lt;b&gt; &amp; &#34;q&#34; &#39;x&#39;'\n{&#34;name&#34;: &#34;a&amp;b&#34;, &#34;description&#34;: &#34;Use &lt;b&gt; &amp; \\&#34;q\\&#34; &#39;x&#39;&#34;, &#34;parameters&#34;: {&#34;type&#34;: &#34;object&#34;, &#34;properties&#34;: {&#34;x&#34;: {&#34;type&#34;: &#34;string&#34;, &#34;enum&#34;: [&#34;&lt;a&gt;&#34;]}}}}\n\n\nThink very carefully",
    );
    expect(text.endsWith('- Put the entire function call reply on one line')).toBe(true);
  });

  it('warns that the JSON is HTML-escaped, and where a name or description holds an escaped character', () => {
    const d = FUNCTIONARY_31.prompt(weather).diagnostics;
    expect(d.map((x) => [x.code, x.path])).toEqual([
      ['family/unparseable', '/0'],
      ['family/unparseable', '/0/name'],
      ['family/unparseable', '/0/description'],
    ]);
    expect(d[1].message).toContain('&amp;');
  });

  it('prints the tool JSON with the tool\'s other keys, as the template dumps the function object whole', () => {
    const [t] = bareTools('[{"name": "f", "description": "D"}]');
    expect(FUNCTIONARY_31.catalog([{ ...t, extra: new Map([['strict', true]]) }]).text).toContain('{&#34;name&#34;: &#34;f&#34;, &#34;description&#34;: &#34;D&#34;, &#34;strict&#34;: true}');
  });

  it('prints no tools section without tools (a bare newline where a code interpreter would go)', () => {
    expect(FUNCTIONARY_31.prompt([]).text).toBe('<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n\nCutting Knowledge Date: December 2023\n\n<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nhi<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n');
  });

  it.each([
    ['a missing description', '[{"name": "f", "parameters": {"type": "object", "properties": {}}}]', '/0', "UndefinedError: 'dict object' has no attribute 'description'"],
    ['a number description', '[{"name": "f", "description": 123}]', '/0/description', "TypeError: unsupported operand type(s) for +: 'Markup' and 'int'"],
    ['a null description', '[{"name": "f", "description": null}]', '/0/description', "TypeError: unsupported operand type(s) for +: 'Markup' and 'NoneType'"],
  ])('fails as the template does on %s', (_what, json, path, error) => {
    const d = oneFailure(() => FUNCTIONARY_31.prompt(bareTools(json)));
    expect(d).toMatchObject({ code: 'family/template-fails', tool: 'f', path });
    expect(d.message.endsWith(`(Jinja2: ${error})`)).toBe(true);
  });

  it('prints a tool result as an ipython turn and an assistant turn without >>>', () => {
    const text = FUNCTIONARY_31.prompt([], { messages: [{ role: 'assistant', content: 'a' }, { role: 'tool', content: 't' }], addGenerationPrompt: false }).text;
    expect(text.endsWith('<|start_header_id|>assistant<|end_header_id|>\n\na<|eot_id|><|start_header_id|>ipython<|end_header_id|>\n\nt<|eot_id|>')).toBe(true);
  });
});

describe('gemma-4: its own declaration syntax', () => {
  it('prints no system turn without tools or instructions, and trims the instructions', () => {
    expect(GEMMA_4.prompt([]).text).toBe('<bos><|turn>user\nhi<turn|>\n<|turn>model\n<|channel>thought\n<channel|>');
    expect(GEMMA_4.prompt([], { instructions: '  Sys  ' }).text.startsWith('<bos><|turn>system\nSys<turn|>\n<|turn>user\n')).toBe(true);
  });

  it('sorts properties ignoring case, upper-cases types, and skips properties named like schema keywords', () => {
    const t = withProps('{"b": {"type": "string"}, "A": {"type": "integer"}, "a": {"type": "boolean"}, "type": {"type": "string"}, "description": {"type": "string"}, "é": {"type": "number"}}');
    expect(GEMMA_4.catalog(t).text).toBe(gemmaF('A:{type:<|"|>INTEGER<|"|>},a:{type:<|"|>BOOLEAN<|"|>},b:{type:<|"|>STRING<|"|>},é:{type:<|"|>NUMBER<|"|>}'));
  });

  it('drops defaults, examples, titles and constraints, and prints enum only for STRING', () => {
    const t = withProps('{"s": {"type": "string", "description": "S", "enum": ["x", "y"], "default": "x", "examples": ["y"], "title": "T", "maxLength": 3}, "n": {"type": "integer", "enum": [1, 2], "nullable": true, "minimum": 0}}', '["s"]');
    expect(GEMMA_4.catalog(t).text).toBe(gemmaF('n:{nullable:true,type:<|"|>INTEGER<|"|>},s:{description:<|"|>S<|"|>,enum:[<|"|>x<|"|>,<|"|>y<|"|>],type:<|"|>STRING<|"|>}', 'required:[<|"|>s<|"|>],'));
  });

  it('prints array items member by member, objects with their properties, and an object without properties by its own keys', () => {
    const t = withProps(
      '{"l": {"type": "array", "items": {"type": "object", "properties": {"z": {"type": "string"}, "Y": {"type": "number"}}, "required": ["z"], "default": null, "enum": ["p"]}}, "t": {"type": "array", "items": {"type": ["string", "null"]}}, "o": {"type": "object", "properties": {"q": {"type": "integer"}}, "required": ["q"]}, "m": {"type": "object", "additionalProperties": {"type": "string"}}}',
    );
    expect(GEMMA_4.catalog(t).text).toBe(
      gemmaF(
        'l:{items:{enum:[<|"|>p<|"|>],properties:{Y:{type:<|"|>NUMBER<|"|>},z:{type:<|"|>STRING<|"|>}},required:[<|"|>z<|"|>],type:<|"|>OBJECT<|"|>},type:<|"|>ARRAY<|"|>},' +
          'm:{properties:{additionalProperties:{type:<|"|>STRING<|"|>}},type:<|"|>OBJECT<|"|>},' +
          'o:{properties:{q:{type:<|"|>INTEGER<|"|>}},required:[<|"|>q<|"|>],type:<|"|>OBJECT<|"|>},' +
          't:{items:{type:[<|"|>STRING<|"|>,<|"|>NULL<|"|>]},type:<|"|>ARRAY<|"|>}',
      ),
    );
  });

  it('leaves `parameters:{` open without a type, loops over a string `required`, prints a number description as str()', () => {
    const t = bareTools('[{"name": "f", "description": "No type.", "parameters": {"properties": {"x": {"type": "string"}}, "required": ["x"]}}, {"name": "g", "parameters": {"type": "object", "properties": {}, "required": "ab"}}, {"name": "h", "description": 5, "parameters": "object"}]');
    expect(GEMMA_4.catalog(t).text).toBe(
      '<|tool>declaration:f{description:<|"|>No type.<|"|>,parameters:{properties:{x:{type:<|"|>STRING<|"|>}},required:[<|"|>x<|"|>],}<tool|>' +
        '<|tool>declaration:g{description:<|"|><|"|>,parameters:{required:[<|"|>a<|"|>,<|"|>b<|"|>],type:<|"|>OBJECT<|"|>}}<tool|>' +
        '<|tool>declaration:h{description:<|"|>5<|"|>,parameters:{}<tool|>',
    );
  });

  it('writes strings raw between <|"|> markers and warns where one holds the marker', () => {
    const t = bareTools('[{"name": "f", "description": "Quote <|\\"|> inside", "parameters": {"type": "object", "properties": {"x": {"type": "string", "enum": ["a<|\\"|>b"]}}}}]');
    const out = GEMMA_4.prompt(t);
    expect(out.text).toContain('description:<|"|>Quote <|"|> inside<|"|>');
    expect(out.text).toContain('enum:[<|"|>a<|"|>b<|"|>]');
    expect(out.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ['family/unparseable', '/0/description'],
      ['family/unparseable', '/0/parameters/properties/x/enum/0'],
    ]);
  });

  it.each([
    ['a list of properties', '[{"name": "f", "description": "D", "parameters": {"type": "object", "properties": [{"name": "x"}]}}]', '/0/parameters/properties', "AttributeError: 'list' object has no attribute 'items'"],
    ['a number `required`', '[{"name": "f", "description": "D", "parameters": {"type": "object", "properties": {}, "required": 5}}]', '/0/parameters/required', "TypeError: 'int' object is not iterable"],
  ])('fails as the template does on %s', (_what, json, path, error) => {
    const d = oneFailure(() => GEMMA_4.prompt(bareTools(json)));
    expect(d).toMatchObject({ code: 'family/template-fails', tool: 'f', path });
    expect(d.message.endsWith(`(Jinja2: ${error})`)).toBe(true);
  });

  it('continues an assistant turn after an assistant message and strips its thinking', () => {
    const text = GEMMA_4.prompt([], {
      messages: [
        { role: 'user', content: ' u ' },
        { role: 'assistant', content: ' a1 <|channel>think<channel|>rest ' },
        { role: 'tool', content: 'ignored' },
        { role: 'assistant', content: 'a2' },
      ],
    }).text;
    expect(text).toBe('<bos><|turn>user\nu<turn|>\n<|turn>model\na1 rest<turn|>\na2<turn|>\n<|turn>model\n<|channel>thought\n<channel|>');
  });

  it('prints numbers inside items as Python str() (1.0 stays 1.0)', () => {
    expect(GEMMA_4.catalog(withProps('{"x": {"type": "array", "items": {"enum": [1.0, 100]}}}')).text).toBe(gemmaF('x:{items:{enum:[1.0,100]},type:<|"|>ARRAY<|"|>}'));
  });
});
