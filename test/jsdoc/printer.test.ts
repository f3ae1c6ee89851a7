/** The JSDoc printer's rules as tables: names, comments, precedence, the catalog shell, messages. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JSDOC_NAMESPACE, emitJsdocCatalog, formatJsdoc, jsdocNamespaceName } from '../../src/emit/jsdoc/catalog.js';
import { commentLines, compactJson, docBlock, escapeComment } from '../../src/emit/jsdoc/doc.js';
import { jsdocRoutingLines, renderJsdocDeveloperMessage, renderJsdocToolsSection } from '../../src/emit/jsdoc/messages.js';
import { NameTable, isIdentifierName, propertyKey, sanitizeIdentifier, targetName } from '../../src/emit/jsdoc/names.js';
import { brokenAliasEdges, jsdocType, valueType } from '../../src/emit/jsdoc/types.js';
import { parseJson } from '../../src/ir/json.js';
import type { IrTool } from '../../src/ir/nodes.js';
import { lowerSchema, lowerTool } from '../../src/lower/index.js';
import { ROOT, bareTool } from '../support/shared.js';

/** The type text of a schema written as JSON text (lossless), at the top level, without aliases. */
function typeOf(schemaJson: string): string {
  const r = lowerSchema(parseJson(schemaJson));
  return jsdocType(r.node, '', { aliases: new Map(), definitions: r.definitions, brokenEdges: new Set() }).text;
}

/** Tools from `{name, description?, parameters?}` JSON text. */
function tools(json: string): IrTool[] {
  const list = parseJson(json);
  if (!Array.isArray(list)) throw new Error('not a list');
  return list.map((t, k) => lowerTool(bareTool(t, k)).tool);
}

describe('names', () => {
  it.each([
    ['get_weather', true],
    ['$dollar', true],
    ['日本', true],
    ['x-y', false],
    ['1st', false],
    ['', false],
    ['with space', false],
  ])('isIdentifierName(%j) is %s', (name, want) => {
    expect(isIdentifierName(name)).toBe(want);
  });

  it.each([
    ['city', 'city'],
    ['x-y', '"x-y"'],
    ['1st', '"1st"'],
    ['quote"key', '"quote\\"key"'],
    ['delete', 'delete'], // reserved words are fine as property names
    ['', '""'],
  ])('propertyKey(%j) is %s', (name, want) => {
    expect(propertyKey(name)).toBe(want);
  });

  it.each([
    ['get-weather', 'get_weather'],
    ['a.b/c', 'a_b_c'],
    ['1password', '_1password'],
    ['delete', 'delete_'],
    ['string', 'string_'],
    ['type', 'type'],
    ['日本語', '日本語'],
    ['', '_'],
  ])('sanitizeIdentifier(%j) is %s', (name, want) => {
    expect(sanitizeIdentifier(name)).toBe(want);
  });

  it.each([
    ['', 'Root'],
    ['/$defs/Node', 'Node'],
    ['/properties/a~1b~0c', 'a/b~c'],
  ])('targetName(%j) is %s', (target, want) => {
    expect(targetName(target)).toBe(want);
  });

  it('NameTable hands out each name once, Array never', () => {
    const t = new NameTable();
    expect(['search', 'search', 'search_2', 'search', 'Array', 'get-x', 'get_x'].map((n) => t.claim(n))).toEqual([
      'search',
      'search_2',
      'search_2_2',
      'search_3',
      'Array_2',
      'get_x',
      'get_x_2',
    ]);
  });
});

describe('comments', () => {
  it.each([
    ['plain', 'plain'],
    ['a */ b', 'a *\\/ b'],
    ['**/**/', '**\\/**\\/'],
    ['/* open', '/* open'],
  ])('escapeComment(%j)', (text, want) => {
    expect(escapeComment(text)).toBe(want);
  });

  it.each([
    ['one', ['one']],
    ['a\r\nb\rc\nd\u2028e\u2029f', ['a', 'b', 'c', 'd', 'e', 'f']],
    ['a\n\nb\n\n \n', ['a', '', 'b']],
    ['   ', []],
    ['ends */\nhere', ['ends *\\/', 'here']],
  ])('commentLines(%j)', (text, want) => {
    expect(commentLines(text)).toEqual(want);
  });

  it('docBlock: one line, several lines, blank lines as a bare star', () => {
    expect(docBlock([], '  ')).toBe('');
    expect(docBlock(['x'], '  ')).toBe('  /** x */\n');
    expect(docBlock(['a', '', '@b'], '  ')).toBe('  /**\n   * a\n   *\n   * @b\n   */\n');
  });

  it('compactJson keeps number text and key order', () => {
    expect(compactJson(parseJson('{"z":1.0,"a":[1E2,-0,"x\\n"],"n":null,"t":true}'))).toBe('{"z":1.0,"a":[1E2,-0,"x\\n"],"n":null,"t":true}');
  });
});

describe('types', () => {
  it.each([
    // scalars and literals
    ['{"type":"string"}', 'string'],
    ['{"type":"integer"}', 'number'],
    ['{"type":"null"}', 'null'],
    ['{}', 'any'],
    ['true', 'any'],
    ['false', 'never'],
    ['{"type":"STRING"}', 'any /* type "STRING" */'],
    ['{"const":"a\\"b"}', '"a\\"b"'],
    ['{"enum":[1.50,-2,1E3]}', '1.50 | -2 | 1E3'],
    ['{"enum":[]}', 'never'],
    ['{"enum":[{"a":[1,{}]}]}', '{ a: [1, { [key: string]: never }] }'],
    // precedence
    ['{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"number"}]}}', '(string | number)[]'],
    ['{"type":"array","items":{"type":"array","items":{"type":"string"}}}', 'string[][]'],
    ['{"type":"array","items":{"const":-1}}', '-1[]'],
    ['{"type":"array","items":{"type":"string","nullable":true}}', '(string | null)[]'],
    ['{"anyOf":[{"allOf":[{"$ref":"#/x"},{"$ref":"#/y"}]},{"type":"string"}],"x":{},"y":{}}', '(unknown /* unresolved $ref "#/x" */ & unknown /* unresolved $ref "#/y" */) | string'],
    ['{"allOf":[{"type":"string"},{"anyOf":[{"type":"string"},{"type":"null"}]}]}', 'string & (string | null)'],
    ['{"allOf":[{"type":"string"},{"type":"number"}],"nullable":true}', '(string & number) | null'],
    ['{"type":"array","items":{"allOf":[{"type":"string"},{"type":"number"}]}}', '(string & number)[]'],
    // unions flatten and drop duplicates
    ['{"anyOf":[{"type":"string"},{"anyOf":[{"type":"number"},{"type":"string"}]}]}', 'string | number'],
    ['{"type":["string","null"],"nullable":true}', 'string | null'],
    // keywords intersections simplify
    ['{"type":"string","const":"x"}', '"x"'],
    ['{"type":"string","enum":["a","b"],"const":"b"}', '"b"'],
    ['{"type":"string","enum":["a",1]}', '"a"'],
    ['{"type":"string","enum":[1]}', '1'],
    // tuples
    ['{"prefixItems":[{"type":"string"}],"items":false}', '[string]'],
    ['{"prefixItems":[{"type":"string"}]}', '[string, ...any[]]'],
    ['{"items":[{"type":"string"},{"anyOf":[{"type":"string"},{"type":"number"}]}],"minItems":1,"additionalItems":{"type":"boolean"}}', '[string, (string | number)?, ...boolean[]]'],
    // objects
    ['{"type":"object"}', '{ [key: string]: any }'],
    ['{"type":"object","additionalProperties":false}', '{}'],
  ])('%s → %s', (schema, want) => {
    expect(typeOf(schema)).toBe(want);
  });

  it('valueType covers every JSON value', () => {
    expect(valueType(parseJson('[null,true,false,"s",0.10,[],{},{"x-y":1}]')).text).toBe('[null, true, false, "s", 0.10, [], { [key: string]: never }, { "x-y": 1 }]');
  });

  it('brokenAliasEdges breaks only cycles outside objects, arrays and tuples', () => {
    const r = lowerSchema(
      parseJson(
        '{"properties":{"a":{"$ref":"#/$defs/A"},"l":{"$ref":"#/$defs/L"},"o":{"$ref":"#/$defs/O"}},"$defs":{' +
          '"A":{"anyOf":[{"type":"string"},{"$ref":"#/$defs/B"}]},"B":{"allOf":[{"$ref":"#/$defs/A"}]},' +
          '"L":{"type":"array","items":{"$ref":"#/$defs/L"}},"O":{"properties":{"o":{"$ref":"#/$defs/O"}}}}}',
      ),
    );
    expect([...brokenAliasEdges(r.definitions)]).toEqual(['/$defs/B\u0000/$defs/A']);
  });
});

describe('catalog', () => {
  it('an empty catalog is an empty namespace', () => {
    expect(emitJsdocCatalog([])).toBe('declare namespace functions {\n}\n');
  });

  it.each([
    [undefined, 'functions'],
    ['tools', 'tools'],
    ['a.b', 'a.b'],
    ['my-tools', 'my_tools'],
    ['a.delete', 'a_delete'],
  ])('namespace %j is declared as %s', (ns, want) => {
    const text = emitJsdocCatalog(tools('[{"name":"x"}]'), ns === undefined ? {} : { namespace: ns });
    expect(text.startsWith(`declare namespace ${want} {\n`)).toBe(true);
    expect(jsdocNamespaceName(ns ?? JSDOC_NAMESPACE)).toBe(want);
  });

  it('a tool name that needs quoting in @name is JSON-quoted', () => {
    const text = emitJsdocCatalog(tools('[{"name":" padded "},{"name":"two\\nlines"},{"name":"a */ b"}]'));
    expect(text).toContain('@name " padded "');
    expect(text).toContain('@name "two\\nlines"');
    expect(text).toContain('@name a *\\/ b');
  });

  it('formatJsdoc runs prettier (TypeScript parser), and catalog.ts loads prettier only inside it', async () => {
    const text = emitJsdocCatalog(tools('[{"name":"f","parameters":{"type":"object","properties":{"a":{"type":"string"}}}}]'));
    expect(await formatJsdoc(text)).toBe('declare namespace functions {\n  type f = (_: { a?: string }) => any;\n}\n');
    const source = readFileSync(join(ROOT, 'src/emit/jsdoc/catalog.ts'), 'utf8');
    expect(source).not.toMatch(/^import[^;]*['"]prettier['"]/m);
    expect(source).toContain("await import('prettier')");
  });
});

describe('messages', () => {
  const two = tools('[{"name":"a","description":"A."},{"name":"b","parameters":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}}]');

  it('the routing lines name the namespace and say how to call', () => {
    const lines = jsdocRoutingLines();
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('`namespace functions`');
    expect(lines[1]).toMatch(/^Call a function by writing its name and a JSON object of its arguments/);
    expect(jsdocRoutingLines({ namespace: 'my-tools' })[0]).toContain('`namespace my_tools`');
  });

  it('the tools section: heading, routing lines, catalog', () => {
    expect(renderJsdocToolsSection(two)).toBe(`# Tools\n\n${jsdocRoutingLines().join('\n')}\n\n${emitJsdocCatalog(two).trimEnd()}`);
  });

  it.each([
    ['instructions and tools', two, 'Be brief.', `# Instructions\n\nBe brief.\n\n${renderJsdocToolsSection(two)}`],
    ['tools only', two, undefined, renderJsdocToolsSection(two)],
    ['instructions only', [], 'Be brief.', '# Instructions\n\nBe brief.'],
    ['empty instructions keep the heading', [], '', '# Instructions\n\n'],
    ['nothing', [], undefined, ''],
  ])('developer message: %s', (_label, list, instructions, want) => {
    expect(renderJsdocDeveloperMessage(list, instructions === undefined ? {} : { instructions })).toBe(want);
  });
});
