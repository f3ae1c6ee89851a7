/**
 * What the fuzzing and the hostile inputs found, one test each (shrunk inputs).
 *
 * Every one is fixed: plain tests that must keep passing. (A bug found and not yet fixed is
 * listed in KNOWN_ISSUES of properties.mjs, so long fuzz runs count it instead of stopping.)
 */
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';
import { hostileCase, runHostileCase } from './hostile-cases.mjs';
import { checkXml, tsParseErrors } from './properties.mjs';

/** The JSDoc catalog (the TypeScript part of the jsdoc target's tools section). */
function jsdocCatalog(input: string): string {
  const text = api.renderCatalog(input, { target: 'jsdoc' }).text;
  return text.slice(text.indexOf('declare namespace '));
}

const parseErrors = (text: string) => tsParseErrors(ts, text, 'catalog.d.ts').errors;

describe('fixed', () => {
  it('jsdoc: a patternProperties pattern ending in * (or holding /*) no longer closes the doc comment (src/emit/jsdoc/types.ts)', () => {
    // was `/** Keys matching //*/ */`: the pattern's `*` and the label's closing `/` made `*/`
    for (const pattern of ['/*', '^x-.*', 'a*']) {
      const input = JSON.stringify([{ name: 'a', parameters: { type: 'object', properties: { o: { type: 'object', patternProperties: { [pattern]: {} } } } } }]);
      const cat = jsdocCatalog(input);
      expect(parseErrors(cat), pattern).toEqual([]);
      expect(cat).toContain('Keys matching /');
    }
  });

  it('jsdoc: U+2028 in an unknown type name or a $ref no longer breaks `T[]` (src/emit/jsdoc/types.ts)', () => {
    // was `any /* type "\u2028" */[]`: TypeScript reads U+2028 as a line break, and `[]` after a line break is not an array type
    const input = JSON.stringify([
      { name: 'a', parameters: { type: 'object', properties: { x: { items: { type: '\u2028' } }, y: { type: 'array', items: { $ref: '#/$defs/\u2029' } } } } },
    ]);
    const cat = jsdocCatalog(input);
    expect(parseErrors(cat)).toEqual([]);
    expect(cat).toContain('any /* type "\\u2028" */[]');
    expect(cat).toContain('/* unresolved $ref "#/$defs/\\u2029" */');
  });

  it('jsdoc: a $ref chain 10,000 long no longer overflows the stack (brokenAliasEdges is iterative; src/emit/jsdoc/types.ts)', () => {
    const r = runHostileCase(api, { ...hostileCase('ref-chain-10000'), targets: [{ target: 'jsdoc' }] });
    expect(r.bad).toEqual([]);
  });

  it('controlTokens escape: a key that makes a token as a qwen3-coder tag (`|end|>` → `<|end|>>`) is escaped too (src/input/control-tokens.ts; long run 1)', () => {
    const input = '[{"type":"function","function":{"name":"","parameters":{"type":"object","properties":{"":{"|end|>":""}},"required":[""]}}}]';
    const r = api.renderCatalog(input, { target: 'xml', dialect: 'qwen3-coder', controlTokens: 'escape' });
    expect(api.findControlTokens(r.text).filter((t) => t.startsWith('<|'))).toEqual([]);
    expect(r.text).toContain('<\\|end|>>');
    expect(api.renderCatalog(input).diagnostics.filter((d) => d.code === 'security/control-token').map((d) => d.path)).toEqual(['/0/function/parameters/properties//|end|>']);
  });

  it('read: 100,000 tools with an error each are labelled in linear time (was 322 s: a scan of every tool per problem; src/input/read.ts)', () => {
    const tools = Array.from({ length: 100000 }, (_, i) => ({ name: `t${i}`, description: `bad \ud800 ${i}` }));
    const t = performance.now();
    let error: unknown;
    try {
      api.readTools(tools);
    } catch (e) {
      error = e;
    }
    expect(performance.now() - t).toBeLessThan(20_000);
    const ds = (error as api.CompileError).diagnostics;
    expect(ds).toHaveLength(100000);
    expect(ds[99999]).toEqual(expect.objectContaining({ code: 'input/invalid-unicode', tool: 't99999', path: '/99999/description' }));
  }, 60_000);
});

describe('found by fuzzing, fixed afterwards', () => {
  it('jsdoc-unicode-identifiers (src/emit/jsdoc/names.ts): a name TypeScript 6.0.3 does not take as an identifier is sanitized or quoted', () => {
    // names.ts tests identifiers with the runtime's \p{ID_Start}/\p{ID_Continue} (Unicode 17 in Node 20.20);
    // TypeScript's scanner tables are older and disagree on ~9,000 code points (U+13460 𓑠 among them)
    for (const name of ['\u{13460}', 'x\u{13460}']) {
      const input = JSON.stringify([{ name, parameters: { type: 'object', properties: { [name]: { type: 'string' } } } }]);
      expect(parseErrors(jsdocCatalog(input)), name).toEqual([]);
    }
  });

  it('tool-field-pointers (src/lint/report.ts, harmony.ts, chat-template.ts; src/emit/xml/findings.ts, hermes.ts; src/emit/chat-template/catalog.ts): findings on a name or description point into the body', () => {
    // `${def.pointer}/name` is `/0/name` for OpenAI Chat input, whose name is at /0/function/name
    // (the body is the parent of def.parametersPointer)
    const input = '[{"type": "function", "function": {"name": "a<|end|>", "description": "x </tools> y"}}]';
    const qwen = api.renderCatalog(input, { target: 'xml', dialect: 'qwen' }).diagnostics.filter((d) => d.code === 'xml/unparseable');
    expect(qwen.map((d) => d.path)).toEqual(['/0/function/description']);
  });

  /** Findings of the lint (src/lint/index.ts, when present in this checkout) at a path, per flavor. */
  async function lintAt(input: string, path: string): Promise<string[]> {
    const { lintTools } = await import('../../src/lint/index.js');
    return lintTools(input).findings.filter((f) => f.path === path).map((f) => `${f.flavor}`);
  }

  it('lint-json-default-line-separator (src/lint/chat-template.ts, harmony.ts): a default printed as JSON with U+2028 is flagged', async () => {
    // the template prints `// default: "\"\u2028 "` (tojson escapes \n, not U+2028); harmony prints ["\u2028"] raw in `// default: [...]`
    expect(await lintAt('[{"name": "a", "description": "", "parameters": {"type": "object", "properties": {"x": {"default": "\\"\u2028 "}}}}]', '/0/parameters/properties/x/default')).toContain('chat-template');
    expect(await lintAt('[{"name": "a", "parameters": {"type": "object", "properties": {"x": {"default": ["\u2028 "]}}}}]', '/0/parameters/properties/x/default')).toContain('openai-harmony');
  });

  it('lint-type-name-line-break (src/lint/harmony.ts, chat-template.ts): a type-list entry with a line break is flagged', async () => {
    // {"type": ["a\nb"]} prints `x: a\nb,`: the property line is broken, nothing is flagged
    const input = '[{"name": "a", "description": "", "parameters": {"type": "object", "properties": {"x": {"type": ["a\\nb"]}}}}]';
    expect(api.renderCatalog(input).text).toContain('x?: a\nb,');
    const flagged = [...(await lintAt(input, '/0/parameters/properties/x/type/0')), ...(await lintAt(input, '/0/parameters/properties/x/type'))];
    expect(flagged).toEqual(expect.arrayContaining(['openai-harmony', 'chat-template']));
  });

  it('lint on 10,000-deep nesting (src/lint/report.ts stringsOf recurses): a CompileError or findings, no RangeError', async () => {
    const { lintTools } = await import('../../src/lint/index.js');
    let error: unknown;
    try {
      lintTools(hostileCase('nesting-10000-text').build());
    } catch (e) {
      error = e;
    }
    if (error !== undefined) expect(api.isCompileError(error)).toBe(true);
  });

  it('qwen3-coder: an extra key named like the catalog\'s own tags (tools, function, parameters…) is flagged (src/emit/xml/findings.ts)', () => {
    // {"parameters": {"tools": false}} prints `<tools>False</tools>` inside <tools>…</tools>: a consumer that
    // cuts the catalog at the first </tools> loses the rest, and there is no xml/unparseable warning
    const input = '[{"name": "f", "parameters": {"tools": false}}]';
    const r = api.renderCatalog(input, { target: 'xml', dialect: 'qwen3-coder' });
    expect(() => checkXml('qwen3-coder', r.text, r.diagnostics, 1, 'qwen3-coder')).not.toThrow();
  });

  it('renderFaithfulCatalog applies controlTokens (src/emit/harmony/faithful.ts reads the tools itself, not through compileTools)', () => {
    // renderCatalog(x, {lowering: 'faithful', controlTokens: 'escape'}) escapes; renderFaithfulCatalog(x, {controlTokens: 'escape'}) does not
    const input = '[{"name": "f", "parameters": {"type": "object", "properties": {"a": {"type": "string", "description": "<|end|>"}}}}]';
    const viaCatalog = api.renderCatalog(input, { lowering: 'faithful', controlTokens: 'escape' } as api.CatalogOptions).text;
    expect(api.findControlTokens(viaCatalog)).toEqual([]);
    const render = (api as unknown as Record<string, (i: string, o: object) => { text: string }>).renderFaithfulCatalog;
    expect(api.findControlTokens(render(input, { controlTokens: 'escape' }).text)).toEqual([]);
  });

  it('faithful-nested-union (src/emit/harmony/faithful.ts): a oneOf variant that is itself a union parses as TypeScript', () => {
    // prints `a:\n | string\n | \n    | string\n    | number\n,`: `| |` is "Type expected"
    const input = '[{"name": "a", "parameters": {"type": "object", "properties": {"a": {"oneOf": [{"anyOf": [{"type": "string"}, {"type": ["string", "number"]}]}]}}, "required": ["a"]}}]';
    const text = api.renderCatalog(input, { lowering: 'faithful' } as api.CatalogOptions).text;
    expect(tsParseErrors(ts, text.slice(text.indexOf('namespace '), text.lastIndexOf('} // namespace') + 1)).errors).toEqual([]);
  });
});
