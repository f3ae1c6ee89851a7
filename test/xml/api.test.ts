/** The xml target's API: how catalog, calling instructions and prompt fit together, and the errors where a template raises. */
import { describe, expect, it } from 'vitest';
import { CompileError, isCompileError } from '../../src/diagnostics.js';
import { parseJson } from '../../src/ir/json.js';
import { emitXmlCatalog, renderXmlPrompt, xmlCallingInstructions, XML_DIALECTS, type XmlDialect } from '../../src/emit/xml/index.js';
import { bareTool } from '../support/shared.js';

const tool = (json: string, index = 0) => bareTool(parseJson(json), index);
const F = tool('{"name": "f", "description": "Test tool.", "parameters": {"type": "object", "properties": {"x": {"type": "string"}}}}');

function failure(run: () => unknown): CompileError {
  try {
    run();
  } catch (e) {
    if (isCompileError(e)) return e;
    throw e;
  }
  throw new Error('expected a CompileError');
}

describe('xml API', () => {
  for (const dialect of XML_DIALECTS) {
    it(`${dialect}: the prompt holds the catalog, the catalog holds the calling instructions`, () => {
      const catalog = emitXmlCatalog([F], dialect);
      expect(catalog).toContain(xmlCallingInstructions(dialect));
      expect(renderXmlPrompt({ tools: [F], dialect }).text).toContain(catalog);
    });
    it(`${dialect}: an empty instructions string adds no system message`, () => {
      expect(renderXmlPrompt({ tools: [F], dialect, instructions: '' }).text).toBe(renderXmlPrompt({ tools: [F], dialect }).text);
    });
    it(`${dialect}: addGenerationPrompt false drops only the assistant opening`, () => {
      const on = renderXmlPrompt({ tools: [F], dialect }).text;
      const off = renderXmlPrompt({ tools: [F], dialect, addGenerationPrompt: false }).text;
      expect(on.startsWith(off)).toBe(true);
      expect(on.slice(off.length)).toBe(dialect === 'anthropic' ? '\n\nAssistant:' : '<|im_start|>assistant\n');
    });
  }

  it('no tools: no catalog for qwen, qwen3-coder and anthropic; hermes raises as its template does over None', () => {
    for (const d of ['qwen', 'qwen3-coder', 'anthropic'] as XmlDialect[]) expect(emitXmlCatalog([], d)).toBe('');
    const e = failure(() => emitXmlCatalog([], 'hermes'));
    expect(e.diagnostics[0]).toMatchObject({ code: 'xml/template-fails', severity: 'error', path: '' });
    expect(e.message).toContain("'NoneType' object is not iterable");
  });

  it('qwen templates read messages[0]: no messages raises; hermes and anthropic render', () => {
    for (const d of ['qwen', 'qwen3-coder'] as XmlDialect[]) expect(failure(() => renderXmlPrompt({ tools: [F], dialect: d, messages: [] })).diagnostics[0].code).toBe('xml/template-fails');
    expect(renderXmlPrompt({ tools: [F], dialect: 'hermes', messages: [] }).text.endsWith('</tool_call><|im_end|>\n<|im_start|>assistant\n')).toBe(true);
    expect(renderXmlPrompt({ tools: [F], dialect: 'anthropic', messages: [] }).text.endsWith('</functions>\n\nAssistant:')).toBe(true);
  });

  describe('hermes errors name the tool and the pointer', () => {
    const table: [string, string, string, string][] = [
      ['no parameters', '{"name": "bad", "description": "d"}', '/1/parameters', 'UndefinedError'],
      ['properties not a mapping', '{"name": "bad", "description": "d", "parameters": {"type": "object", "properties": ["x"]}}', '/1/parameters/properties', 'TypeError'],
      ['no description', '{"name": "bad", "parameters": {"type": "object", "properties": {}}}', '/1/description', 'UndefinedError'],
      ['a number description', '{"name": "bad", "description": 7, "parameters": {"type": "object", "properties": {}}}', '/1/description', 'TypeError'],
      ['type "null"', '{"name": "bad", "description": "d", "parameters": {"type": "object", "properties": {"x": {"type": "null"}}}}', '/1/parameters/properties/x/type', 'RecursionError'],
      ['"null" in a type list', '{"name": "bad", "description": "d", "parameters": {"type": "object", "properties": {"x": {"type": ["string", "null"]}}}}', '/1/parameters/properties/x/type/1', 'RecursionError'],
      ['type "null" in additionalProperties', '{"name": "bad", "description": "d", "parameters": {"type": "object", "properties": {"x": {"type": "object", "additionalProperties": {"type": "null"}}}}}', '/1/parameters/properties/x/additionalProperties/type', 'RecursionError'],
      ['a key of a type object', '{"name": "bad", "description": "d", "parameters": {"type": "object", "properties": {"x": {"type": {"date": 1}}}}}', '/1/parameters/properties/x/type/date', 'RecursionError'],
      ['type "items" (the template prints a bound method\'s address)', '{"name": "bad", "description": "d", "parameters": {"type": "object", "properties": {"x": {"type": "items"}}}}', '/1/parameters/properties/x/type', 'memory address'],
    ];
    for (const [name, json, path, says] of table) {
      it(name, () => {
        const e = failure(() => renderXmlPrompt({ tools: [F, tool(json, 1)], dialect: 'hermes' }));
        expect(e.diagnostics).toHaveLength(1);
        expect(e.diagnostics[0]).toMatchObject({ code: 'xml/template-fails', severity: 'error', tool: 'bad', path });
        expect(e.message).toContain(says);
      });
    }
  });

  it('the other dialects render what hermes rejects', () => {
    const odd = tool('{"name": "odd", "description": 7, "parameters": {"type": "object", "properties": {"x": {"type": ["string", "null"]}}}}');
    for (const d of ['qwen', 'qwen3-coder', 'anthropic'] as XmlDialect[]) expect(() => renderXmlPrompt({ tools: [odd], dialect: d })).not.toThrow();
  });
});
