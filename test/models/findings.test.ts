/**
 * The families' own lint rules (src/models/findings.ts): `family/unparseable` warnings where an
 * official template prints a tool so that it cannot be read back, said by `renderPrompt` and
 * `renderPart` (prompt and catalog) with the tool and its JSON Pointer, and by `lintTools` when the
 * template read is the family's official one. The prompts they sit beside are the engine's (checked
 * against the oracles elsewhere); here the texts are only looked at for the spot each rule is about.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderPart, renderPrompt } from '../../src/api/render.js';
import type { Diagnostic } from '../../src/diagnostics.js';
import { getKey, parseJson, type JsonValue } from '../../src/ir/json.js';
import { lintTools } from '../../src/lint/index.js';
import { MODEL_FAMILIES } from '../../src/models/families.js';
import { TEMPLATES, type TemplateName } from '../../src/models/templates/index.js';
import { ROOT } from '../support/shared.js';

const at = (ds: readonly Diagnostic[]) => ds.filter((d) => d.code === 'family/unparseable').map((d) => [d.tool, d.path]);

describe('family/unparseable, per family', () => {
  it('every family with rules is one of these seven', () => {
    expect(MODEL_FAMILIES.filter((f) => f.findings !== undefined).map((f) => f.name)).toEqual(['mistral-nemo', 'granite-4.0', 'functionary-3.1', 'gemma-4', 'command-r7b', 'command-r-plus', 'seed-oss']);
  });

  it('command-r7b: a name or description pasted between quotes unescaped', () => {
    const tools = [{ name: 'a', description: 'Say "hi"', parameters: { type: 'object', properties: {} } }, { name: 'b', description: 'fine', parameters: { type: 'object', properties: {} } }];
    const p = renderPrompt({ model: 'command-r7b', tools });
    expect(p.text).toContain('"description": "Say "hi""');
    expect(p.diagnostics.filter((d) => d.code === 'family/unparseable')).toEqual([{ code: 'family/unparseable', severity: 'warning', tool: 'a', path: '/0/description', message: expect.stringContaining("Command R7B's template pastes the tool's description between quotes") as string }]);
  });

  it('functionary-3.1: every tool\'s JSON is HTML-escaped; a name or description holding & < > \' " is said too', () => {
    const tools = [{ name: 'a&b', description: 'Use <b> & "q"', parameters: { type: 'object', properties: {} } }, { name: 'c', description: 'plain', parameters: { type: 'object', properties: {} } }];
    const p = renderPrompt({ model: 'functionary-3.1', tools });
    expect(p.text).toContain('{&#34;name&#34;: &#34;a&amp;b&#34;');
    expect(at(p.diagnostics)).toEqual([['a&b', '/0'], ['a&b', '/0/name'], ['a&b', '/0/description'], ['c', '/1']]);
    expect(p.diagnostics.find((d) => d.path === '/0/name')?.message).toBe('the name holds "&", which Functionary v3.1 prints HTML-escaped as "&amp;"');
  });

  it('gemma-4: a string holding the <|"|> delimiter, at each place it is printed', () => {
    const tools = [{ name: 'f', description: 'Quote <|"|> inside', parameters: { type: 'object', properties: { x: { type: 'string', enum: ['a<|"|>b', 'fine'] } } } }];
    const p = renderPrompt({ model: 'gemma-4', tools });
    expect(p.text).toContain('description:<|"|>Quote <|"|> inside<|"|>');
    expect(at(p.diagnostics)).toEqual([['f', '/0/description'], ['f', '/0/parameters/properties/x/enum/0']]);
  });

  it('granite-4.0: "</tools>" inside a tool line ends the block early', () => {
    const p = renderPrompt({ model: 'granite-4.0', tools: [{ name: 'f', description: 'see </tools> here' }] });
    expect(p.text).toContain('see </tools> here');
    expect(at(p.diagnostics)).toEqual([['f', '/0/description']]);
    expect(at(renderPrompt({ model: 'granite-4.0', tools: [{ name: 'f', description: 'fine' }] }).diagnostics)).toEqual([]);
  });

  it('mistral-nemo: string values pasted between quotes unescaped (a quote, a backslash, a line break)', () => {
    const tools = [{ name: 'say', description: 'Say "hi".\nThen \\ go', parameters: { type: 'object', properties: {} } }];
    const p = renderPrompt({ model: 'mistral-nemo', tools, instructions: 'Be brief.' });
    expect(p.text).toBe('<s>[AVAILABLE_TOOLS][{"type": "function", "function": {"name": "say", "description": "Say "hi".\nThen \\ go", "parameters": {"type": "object", "properties": {}}}}][/AVAILABLE_TOOLS][INST]Be brief.\n\nhi[/INST]');
    expect(p.diagnostics.filter((d) => d.code === 'family/unparseable')).toEqual([{ code: 'family/unparseable', severity: 'warning', tool: 'say', path: '/0/description', message: expect.stringContaining('a double quote') as string }]);
  });

  it.each([
    ['command-r-plus', 'def f('],
    ['seed-oss', 'def f('],
  ])('%s: a description or a property description holding """ ends the stub\'s docstring', (model, stub) => {
    const tools = [{ name: 'f', description: 'ends """ early', parameters: { type: 'object', properties: { x: { type: 'string', description: 'also """ here' }, y: { type: 'string', description: 'fine' } } } }];
    const p = renderPrompt({ model, tools });
    expect(p.text).toContain(stub);
    expect(at(p.diagnostics)).toEqual([['f', '/0/description'], ['f', '/0/parameters/properties/x/description']]);
  });

  it('the catalog part says them once; a family without rules, or a template of the caller\'s, says none', () => {
    const tools = [{ name: 'say', description: 'Say "hi"', parameters: { type: 'object', properties: {} } }];
    expect(at(renderPart(tools, { model: 'mistral-nemo', part: 'catalog' }).diagnostics)).toEqual([['say', '/0/description']]);
    expect(at(renderPart(tools, { model: 'mistral-nemo' }).diagnostics)).toEqual([['say', '/0/description']]);
    expect(at(renderPrompt({ model: 'llama-3.1', tools }).diagnostics)).toEqual([]);
    // the same text given as the caller's template: the engine renders it, the family's rules are not assumed
    const template = { text: TEMPLATES['mistral-nemo'].text };
    expect(at(renderPrompt({ template, tools }).diagnostics)).toEqual([]);
  });

  it('lint says them when the template read is the family\'s official one', () => {
    const tools = JSON.stringify([{ name: 'f', description: 'ends """ early', parameters: { type: 'object', properties: {} } }]);
    const official = { text: TEMPLATES['seed-oss' as TemplateName].text };
    expect(at(lintTools(tools, { model: 'seed-oss', template: official }).diagnostics)).toEqual([['f', '/0/description']]);
    // another template under the family's special tokens: not the family's rules
    expect(at(lintTools(tools, { model: 'seed-oss', template: { text: '{{ tools | tojson }}' } }).diagnostics)).toEqual([]);
  });
});

/** The hand-checked whole prompts of test/cases/families/<family>/ (tools and instructions in NAME.json, the prompt in NAME.txt). */
describe('hand-checked prompts through the API (test/cases/families)', () => {
  const dir = join(ROOT, 'test/cases/families');
  const cases = readdirSync(dir).flatMap((family) => readdirSync(join(dir, family)).filter((f) => f.endsWith('.json')).map((f) => [family, f.replace(/\.json$/, '')] as const));
  it('there are cases for five families', () => {
    expect(new Set(cases.map(([f]) => f)).size).toBe(5);
  });
  it.each(cases)('%s: %s', (model, name) => {
    // read losslessly: `1.0` stays a float, as Python reads it
    const input = parseJson(readFileSync(join(dir, model, `${name}.json`), 'utf8'));
    const instructions = getKey(input, 'instructions');
    const want = readFileSync(join(dir, model, `${name}.txt`), 'utf8');
    expect(renderPrompt({ model, tools: getKey(input, 'tools') as JsonValue[], date: '2025-08-05', ...(typeof instructions === 'string' ? { instructions } : {}) }).text).toBe(want);
  });
});
