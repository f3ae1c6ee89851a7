/** xmlFindings: `xml/unparseable` warnings where a dialect prints text a consumer cannot parse back. */
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/ir/json.js';
import { renderXmlPrompt, xmlFindings, XML_DIALECTS, type XmlDialect } from '../../src/emit/xml/index.js';
import { bareTool } from '../support/shared.js';

const tool = (json: string, index = 0) => bareTool(parseJson(json), index);
const paths = (json: string, dialect: XmlDialect) => xmlFindings([tool(json)], dialect).map((d) => d.path);

const CLEAN = '{"name": "f", "description": "Plain text.", "parameters": {"type": "object", "properties": {"x": {"type": "string", "enum": ["a", "b"], "default": "a"}}, "$defs": {"U": {"type": "string"}}}}';

describe('xmlFindings', () => {
  it('finds nothing in plain tools, whatever the dialect', () => {
    for (const d of XML_DIALECTS) expect(xmlFindings([tool(CLEAN)], d)).toEqual([]);
  });

  it('every finding is a warning naming the tool and a pointer', () => {
    const [d] = xmlFindings([tool('{"name": "ok", "description": "x"}', 0), tool('{"name": "leaky", "description": "a </tools> b"}', 1)], 'qwen');
    expect(d).toEqual({ code: 'xml/unparseable', severity: 'warning', tool: 'leaky', path: '/1/description', message: expect.stringContaining('</tools>') });
  });

  const table: [string, XmlDialect, string, string[]][] = [
    ['qwen: </tools> in a description', 'qwen', '{"name": "f", "description": "x </tools> y"}', ['/0/description']],
    ['qwen: </tools> in a property key', 'qwen', '{"name": "f", "description": "d", "parameters": {"type": "object", "properties": {"</tools>": {"type": "string"}}}}', ['/0/parameters/properties/<~1tools>']],
    ['qwen: a < is fine inside JSON', 'qwen', '{"name": "f", "description": "a < b & c"}', []],
    ['qwen: </tool_call> in an enum value', 'qwen', '{"name": "f", "description": "d", "parameters": {"type": "object", "properties": {"x": {"enum": ["</tool_call>"]}}}}', ['/0/parameters/properties/x/enum/0']],
    ['qwen: a property named default is a name, not a value', 'qwen', '{"name": "f", "description": "d", "parameters": {"type": "object", "properties": {"default": {"type": "string", "title": "</tool_call>"}}}}', []],
    ['hermes: </tools> in a parameter description', 'hermes', '{"name": "f", "description": "d", "parameters": {"type": "object", "properties": {"x": {"type": "string", "description": "</tools>"}}}}', ['/0/parameters/properties/x/description']],
    ['hermes: the schema of an empty-properties tool is not printed', 'hermes', '{"name": "f", "description": "d", "parameters": {"type": "object", "properties": {}, "title": "</tools>"}}', []],
    ['qwen3-coder: < and & in descriptions', 'qwen3-coder', '{"name": "f", "description": "a & b", "parameters": {"type": "object", "properties": {"x": {"type": "string", "description": "x < y"}}}}', ['/0/description', '/0/parameters/properties/x/description']],
    ['qwen3-coder: </description> inside a description', 'qwen3-coder', '{"name": "f", "description": "ends </description> early"}', ['/0/description']],
    ['qwen3-coder: < inside an extra key printed as JSON', 'qwen3-coder', '{"name": "f", "description": "d", "parameters": {"type": "object", "properties": {"x": {"type": "string", "enum": ["ok", "<b>"]}}}}', ['/0/parameters/properties/x/enum/1']],
    ['qwen3-coder: a key that cannot be a tag name', 'qwen3-coder', '{"name": "f", "description": "d", "parameters": {"type": "object", "properties": {"x": {"type": "string", "x-my key": 1}}}}', ['/0/parameters/properties/x/x-my key']],
    ['qwen3-coder: > in a parameter name breaks <parameter=…>', 'qwen3-coder', '{"name": "f", "description": "d", "parameters": {"type": "object", "properties": {"a>b": {"type": "string"}}}}', ['/0/parameters/properties/a>b']],
    // two problems each: the catalog's XML breaks (<), and a call cannot carry the value
    ['qwen3-coder: </parameter> in a default value', 'qwen3-coder', '{"name": "f", "description": "d", "parameters": {"type": "object", "properties": {"x": {"type": "string", "default": "</parameter>"}}}}', ['/0/parameters/properties/x/default', '/0/parameters/properties/x/default']],
    ['qwen3-coder: </function> in a nested default', 'qwen3-coder', '{"name": "f", "description": "d", "parameters": {"type": "object", "properties": {"o": {"type": "object", "properties": {"y": {"default": "</function>"}}}}}}', ['/0/parameters/properties/o/properties/y/default', '/0/parameters/properties/o/properties/y/default']],
    ['anthropic: </function> inside the JSON', 'anthropic', '{"name": "f", "description": "a </function> b"}', ['/0/description']],
    ['anthropic: < and & are fine', 'anthropic', '{"name": "f", "description": "a < b & c"}', []],
    ['anthropic: a double quote in a name', 'anthropic', '{"name": "f\\"g", "description": "d", "parameters": {"type": "object", "properties": {"q\\"x": {"type": "string"}}}}', ['/0/name', '/0/parameters/properties/q"x']],
    ['anthropic: </invoke> in an enum value', 'anthropic', '{"name": "f", "description": "d", "parameters": {"type": "object", "properties": {"x": {"enum": ["</invoke>"]}}}}', ['/0/parameters/properties/x/enum/0']],
  ];
  for (const [name, dialect, json, want] of table) it(name, () => expect(paths(json, dialect)).toEqual(want));

  it('renderXmlPrompt reports the findings with the text', () => {
    const r = renderXmlPrompt({ tools: [tool('{"name": "f", "description": "x </tools> y", "parameters": {"type": "object", "properties": {}}}')], dialect: 'qwen' });
    expect(r.text).toContain('x </tools> y');
    expect(r.diagnostics.map((d) => d.code)).toEqual(['xml/unparseable']);
  });
});
