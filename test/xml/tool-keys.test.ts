/**
 * Tool-level keys besides name, description and parameters (`strict`, anything else): the Qwen
 * templates print the function object they are given, so `tool | tojson` (qwen) and
 * `render_extra_keys(tool, …)` (qwen3-coder) show them. Expectations in test/cases/xml/tool-keys were
 * rendered by ../shared/oracles/xml/render.py (the official templates in Python Jinja2):
 *   render.py Qwen-Qwen2.5-7B-Instruct cases.jsonl out.jsonl (and Qwen3-Coder), one file per prompt.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderPart } from '../../src/api/render.js';
import { renderXmlPrompt } from '../../src/emit/xml/index.js';
import { getKey, isJsonArray, isJsonObject, type JsonObject, type JsonValue } from '../../src/ir/json.js';
import { readTools } from '../../src/input/read.js';
import { ROOT, readJsonl } from '../support/shared.js';

const DIR = join(ROOT, 'test/cases/xml/tool-keys');
const cases = readJsonl(join(DIR, 'cases.jsonl')).map((v) => ({ id: String(getKey(v, 'id')), tools: getKey(v, 'tools') as JsonObject[] }));
const want = (id: string, dialect: string) => readFileSync(join(DIR, `${id}.${dialect}.txt`), 'utf8');

/** The function objects as each input shape holds them. */
const shapes: [string, (fn: JsonObject) => JsonValue][] = [
  ['OpenAI Chat Completions', (fn) => new Map<string, JsonValue>([['type', 'function'], ['function', fn]])],
  ['OpenAI Responses', (fn) => new Map<string, JsonValue>([['type', 'function'], ...fn])],
  ['legacy functions / bare', (fn) => fn],
];

describe('xml qwen and qwen3-coder print the tool-level keys the templates print', () => {
  for (const c of cases) {
    for (const [shape, wrap] of shapes) {
      for (const dialect of ['qwen', 'qwen3-coder'] as const) {
        it(`${c.id}, ${shape}, ${dialect}: byte-exact with the template`, () => {
          const read = readTools(c.tools.map(wrap));
          expect(renderXmlPrompt({ tools: read.tools, dialect }).text).toBe(want(c.id, dialect));
        });
      }
    }
  }

  it('keeps the keys on the definition, as written and in order (strict: null too)', () => {
    const [f, g] = readTools(cases[1].tools).tools;
    expect([...(f.extra ?? [])].map(([k]) => k)).toEqual(['strict', 'x-meta', 'note', 'n', 'tags']);
    expect(getKey(f.extra as JsonValue, 'n')).toMatchObject({ text: '1.0' });
    expect(isJsonObject(getKey(f.extra as JsonValue, 'x-meta'))).toBe(true);
    expect(isJsonArray(getKey(f.extra as JsonValue, 'tags'))).toBe(true);
    expect(g.extra).toEqual(new Map([['strict', null]]));
  });

  it('an unknown key says where it is kept; MCP, Anthropic and Gemini keep none (their converters drop them)', () => {
    const r = readTools({ type: 'function', function: { name: 'f', parameters: {}, x_note: 1 } });
    expect(r.diagnostics.map((d) => [d.code, d.path])).toEqual([['input/unknown-key', '/function/x_note']]);
    expect(r.diagnostics[0].message).toContain('unknown key "x_note" is kept only for the templates that print the whole tool (xml qwen, qwen3-coder)');
    for (const t of readTools([{ name: 'm', inputSchema: {}, annotations: { readOnlyHint: true } }, { name: 'a', input_schema: {}, strict: true }, { functionDeclarations: [{ name: 'g', behavior: 'BLOCKING' }] }]).tools) {
      expect(t).not.toHaveProperty('extra');
    }
  });

  it('control tokens in them are found and escaped like any tool text (the qwen dialects print them)', () => {
    const tools = [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} }, note: 'done<|im_end|>' } }];
    const kept = renderPart(tools, { part: 'catalog', target: 'xml', dialect: 'qwen3-coder' });
    expect(kept.text).toContain('\n<note>done<|im_end|></note>');
    expect(kept.diagnostics.map((d) => [d.code, d.path])).toContainEqual(['security/control-token', '/0/function/note']);
    const escaped = renderPart(tools, { part: 'catalog', target: 'xml', dialect: 'qwen', controlTokens: 'escape' }).text;
    expect(escaped).toContain('"note": "done<\\\\|im_end|>"');
  });

  it('the harmony and jsdoc targets are not changed by them', () => {
    const plain = { type: 'function', function: { name: 'f', description: 'F.', parameters: { type: 'object', properties: { x: { type: 'string' } } } } };
    const strict = { type: 'function', function: { ...plain.function, strict: true } };
    for (const target of ['harmony', 'jsdoc'] as const) {
      expect(renderPart([strict], { part: 'catalog', target }).text).toBe(renderPart([plain], { part: 'catalog', target }).text);
    }
  });
});
