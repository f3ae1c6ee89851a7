/**
 * Compile once, render many: a cached render gives the bytes and diagnostics of an uncached one.
 *
 * Every oracle case (corpus-single, corpus-groups, synthetic-visible) is rendered with the caches
 * off (`setCaching(false)`: read, lowered and printed afresh, the printers seeing every option),
 * then twice with them on (a miss, then a hit), from JSON text and from a read result, for the
 * openai-harmony and chat-template flavors and the hermes XML dialect: the same text and the same
 * diagnostics (or the same error) each time. Then every option that changes bytes is varied on one
 * compiled set, in an order that mixes hits and misses.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { asRead, compileTools, readTools, setCaching } from '../../src/api/compile.js';
import { renderCatalog, renderDeveloperMessage, renderPrompt, type CatalogOptions, type PromptOptions } from '../../src/api/render.js';
import { isCompileError } from '../../src/diagnostics.js';
import { JsonNumber, type JsonValue } from '../../src/ir/json.js';
import { HAVE_SHARED, readJsonlPlain, readOracleCases, sharedPath, type OracleCase } from '../support/shared.js';
import { renderServerPrompt } from '../../src/conversation/index.js';
import { SERVERS, type ServerRequest } from '../../src/conversation/types.js';
import { fromJs } from '../../src/ir/json.js';

afterEach(() => setCaching(true));

/** JSON text of a lossless value, numbers as written (the text a caller would have). */
function textOf(v: JsonValue): string {
  if (v instanceof JsonNumber) return v.text;
  if (Array.isArray(v)) return `[${v.map(textOf).join(',')}]`;
  if (v instanceof Map) return `{${[...v].map(([k, x]) => `${JSON.stringify(k)}:${textOf(x)}`).join(',')}}`;
  return JSON.stringify(v);
}

/** A render's outcome as one comparable value: its text (and message) and diagnostics, or its error's diagnostics. */
function outcome(fn: () => { text: string; message?: string; diagnostics: readonly unknown[] }): unknown {
  try {
    const r = fn();
    return { text: r.text, message: r.message, diagnostics: r.diagnostics };
  } catch (e) {
    if (isCompileError(e)) return { error: e.diagnostics };
    throw e;
  }
}

const CONFIGS: readonly { name: string; options: CatalogOptions; developer: boolean }[] = [
  { name: 'openai-harmony', options: {}, developer: true },
  { name: 'chat-template', options: { flavor: 'chat-template' }, developer: true },
  { name: 'xml hermes', options: { target: 'xml', dialect: 'hermes' }, developer: false },
];

const SETS = [
  ['corpus-single', 'oracles/inputs/corpus-single.jsonl'],
  ['corpus-groups', 'oracles/inputs/corpus-groups.jsonl'],
  ['synthetic-visible', 'oracles/synthetic/visible/inputs.jsonl'],
] as const;

/** The case's tools as JSON text (the raw line of a case that is not JSON, as the oracle tests hand it over). */
function caseText(c: OracleCase): string {
  return typeof c.raw === 'string' ? c.raw : textOf(c.tools as JsonValue);
}

if (HAVE_SHARED) describe('cached renders are the uncached bytes, over the oracle sets', () => {
  for (const [set, path] of SETS) {
    it(`${set}: catalog and developer message, cached twice = uncached, from text and from a read result`, () => {
      const cases = readOracleCases(sharedPath(path));
      let renders = 0;
      let hits = 0;
      for (const c of cases) {
        const text = caseText(c);
        for (const cfg of CONFIGS) {
          const calls: [string, (input: unknown) => unknown][] = [['catalog', (input) => outcome(() => renderCatalog(input, cfg.options))]];
          if (cfg.developer) {
            const developer = { ...cfg.options, ...(c.instructions !== undefined ? { instructions: c.instructions } : {}) };
            calls.push(['developer', (input) => outcome(() => renderDeveloperMessage(input, developer))]);
          }
          for (const [what, call] of calls) {
            setCaching(false);
            const uncached = call(text);
            setCaching(true);
            // from JSON text: a miss, then a hit on the text cache
            const label = `${c.id} ${cfg.name} ${what}`;
            expect(call(text), `${label} (text, first)`).toEqual(uncached);
            expect(call(text), `${label} (text, again)`).toEqual(uncached);
            // from a read result (when the text reads): compiled and printed once, then kept
            let read: unknown;
            try {
              read = readTools(text);
            } catch {
              read = undefined;
            }
            if (read !== undefined) {
              expect(call(read), `${label} (read result, first)`).toEqual(uncached);
              expect(call(read), `${label} (read result, again)`).toEqual(uncached);
              hits++;
            }
            renders += 5;
          }
        }
      }
      console.log(`cache ${set}: ${cases.length} cases, ${renders} renders (${hits} read results rendered twice), cached = uncached`);
      expect(cases.length).toBeGreaterThan(90);
    });
  }
});

/** A small set with a bit of everything the options act on: control tokens, refs, nesting, a namespace. */
const TOOLS = JSON.stringify([
  { name: 'get_weather', description: 'Weather <|end|> now.', parameters: { type: 'object', properties: { city: { type: 'string', description: 'City', default: 'Paris' }, days: { type: 'integer', minimum: 1 }, unit: { anyOf: [{ const: 'c' }, { const: 'f' }] }, node: { $ref: '#/$defs/node' } }, required: ['city'], $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' }, deep: { type: 'object', properties: { deeper: { type: 'object', properties: { x: { type: 'string' } } } } } } } } } },
  { name: 'lookup', description: 'Look up.\nTwo lines.', parameters: { type: 'object', properties: { q: { type: 'string', enum: ['a', 'b'] }, tags: { type: 'array', items: { type: 'string' } } } } },
  { name: 'no_params', description: 'Nothing.' },
]);

/** Option sets that each change bytes or diagnostics somewhere. */
const VARIANTS: readonly PromptOptions[] = [
  {},
  { flavor: 'chat-template' },
  { flavor: 'ollama' },
  { target: 'jsdoc' },
  { target: 'jsdoc', namespace: 'tools' },
  { target: 'xml' },
  { target: 'xml', dialect: 'qwen3-coder' },
  { target: 'xml', dialect: 'hermes' },
  { model: 'gpt-oss-template' },
  { model: 'qwen3-coder' },
  { model: 'llama-3.1' },
  { namespace: 'tools' },
  { namespaceDescription: 'Tools of the app.' },
  { namespace: 'functions', namespaceDescription: '' },
  { lowering: 'faithful' },
  { controlTokens: 'escape' },
  { controlTokens: 'error' },
  { controlTokens: 'escape', flavor: 'chat-template' },
  { limits: { maxDepth: 2 } },
  { limits: { maxDepth: 2, maxNodes: 1_000_000 } },
  { limits: { maxNodes: 20 } },
  { instructions: 'Be brief.' },
  { instructions: '' },
  { instructions: 'Be brief.', flavor: 'chat-template' },
  { responseFormats: [{ name: 'answer', schema: { type: 'object' } }] },
  { flavor: 'ollama', date: '2025-06-28', effort: 'high' },
  { flavor: 'ollama', identity: 'You are a bot.', cutoff: '2025-01' },
  { flavor: 'ollama', instructions: 'Be brief.' },
];

if (HAVE_SHARED) describe('cached conversations are the uncached bytes, through every server', () => {
  it('each conversation oracle row with tools, through each server: uncached, then twice from text and twice from one read result', () => {
    interface Row { id: string; messages: unknown[]; tools?: unknown[]; options?: { date?: string; reasoning_effort?: string; tool_choice?: unknown } }
    const rows = readJsonlPlain<Row>(sharedPath('oracles/conversations/inputs.jsonl')).filter((r) => Array.isArray(r.tools) && r.tools.length > 0);
    let renders = 0;
    let prompts = 0;
    for (const row of rows) {
      const text = JSON.stringify(row.tools);
      const o = row.options ?? {};
      for (const server of SERVERS) {
        const call = (tools: unknown) =>
          outcome(() =>
            renderPrompt({
              tools,
              messages: row.messages as PromptOptions['messages'],
              server,
              date: o.date ?? '2025-08-05',
              ...(o.reasoning_effort !== undefined ? { effort: o.reasoning_effort as PromptOptions['effort'] } : {}),
              ...(o.tool_choice !== undefined ? { toolChoice: o.tool_choice } : {}),
            }),
          );
        setCaching(false);
        const uncached = call(text);
        setCaching(true);
        const label = `${row.id} ${server}`;
        expect(call(text), `${label} (text, first)`).toEqual(uncached);
        expect(call(text), `${label} (text, again)`).toEqual(uncached);
        let read: unknown;
        try {
          read = readTools(text);
        } catch {
          read = undefined;
        }
        if (read !== undefined) {
          expect(call(read), `${label} (read result, first)`).toEqual(uncached);
          expect(call(read), `${label} (read result, again)`).toEqual(uncached);
        }
        renders += 5;
        if ((uncached as { text?: string }).text !== undefined) prompts++;
      }
    }
    console.log(`cache conversations: ${rows.length} rows with tools × ${SERVERS.length} servers, ${renders} renders (${prompts} uncached prompts, the rest refusals), cached = uncached`);
    expect(prompts).toBeGreaterThan(rows.length * 2);
  });
});

describe('the cache key: every option that changes bytes', () => {
  it('each option set, rendered on one compiled set in an order that mixes misses and hits, gives the uncached outcome', () => {
    setCaching(false);
    const want = VARIANTS.map((o) => ({
      catalog: outcome(() => renderCatalog(TOOLS, o)),
      developer: outcome(() => renderDeveloperMessage(TOOLS, o)),
      prompt: outcome(() => renderPrompt({ ...o, tools: TOOLS })),
    }));
    setCaching(true);
    const read = readTools(TOOLS);
    // forwards, backwards, then every other one: each option set meets the others' cached results
    const order = [...VARIANTS.keys(), ...[...VARIANTS.keys()].reverse(), ...[...VARIANTS.keys()].filter((k) => k % 2 === 0)];
    const distinct = new Set<string>();
    for (const k of order) {
      const o = VARIANTS[k];
      for (const input of [TOOLS, read]) {
        const got = { catalog: outcome(() => renderCatalog(input, o)), developer: outcome(() => renderDeveloperMessage(input, o)), prompt: outcome(() => renderPrompt({ ...o, tools: input })) };
        expect(got, JSON.stringify(o)).toEqual(want[k]);
        distinct.add(JSON.stringify(got.catalog));
      }
    }
    // the option sets do print differently (the test would not see a key that leaves one out otherwise)
    expect(distinct.size).toBeGreaterThan(VARIANTS.length * 0.6);
  });

  it('options of values the key cannot spell are rendered uncached, and still right', () => {
    const date = { toString: () => '2025-06-28' };
    setCaching(false);
    const want = outcome(() => renderDeveloperMessage(TOOLS, { flavor: 'ollama', date: date as unknown as string }));
    setCaching(true);
    const read = readTools(TOOLS);
    expect(outcome(() => renderDeveloperMessage(read, { flavor: 'ollama', date: date as unknown as string }))).toEqual(want);
    expect(outcome(() => renderDeveloperMessage(read, { flavor: 'ollama', date: date as unknown as string }))).toEqual(want);
  });
});

describe('what is kept, and for how long', () => {
  it('a second render of the same read result or the same text returns the kept result', () => {
    const read = readTools(TOOLS);
    expect(renderCatalog(read)).toBe(renderCatalog(read));
    expect(compileTools(read)).toBe(compileTools(read));
    expect(compileTools(read)).not.toBe(compileTools(read, { controlTokens: 'escape' }));
    expect(renderCatalog(TOOLS)).toBe(renderCatalog(TOOLS));
    // another string with the same text is the same key
    expect(renderCatalog(` ${TOOLS}`.slice(1))).toBe(renderCatalog(TOOLS));
    // kept results are frozen: a caller cannot change what the next caller gets
    expect(Object.isFrozen(renderCatalog(read))).toBe(true);
    expect(Object.isFrozen(renderCatalog(read).diagnostics)).toBe(true);
    expect(Object.isFrozen(read.tools[0])).toBe(true);
  });

  it('a server profile prints the tools once per compiled set: a later prompt takes the kept catalog', () => {
    const c = compileTools(TOOLS);
    for (const server of SERVERS) {
      const made: string[] = [];
      const kept = new Map<string, object>();
      const keep = <T extends object>(key: string, make: () => T): T => {
        if (!kept.has(key)) {
          made.push(key);
          kept.set(key, make());
        }
        return kept.get(key) as T;
      };
      const request: ServerRequest = {
        conversation: { format: 'chat', items: [fromJs({ role: 'user', content: 'Weather in Paris?' })], pointers: ['/messages/0'] },
        tools: { definitions: c.definitions, tools: c.tools, keep },
        toolsGiven: 'some',
        date: '2025-08-05',
      };
      const first = renderServerPrompt(server, request).text;
      expect(first, server).toContain('get_weather');
      expect(renderServerPrompt(server, request).text, server).toBe(first);
      expect(made, server).toHaveLength(1);
      // what is kept is what the prompt prints
      const [key, value] = [...kept][0];
      kept.set(key, { ...value, text: '<<the kept catalog>>' });
      expect(renderServerPrompt(server, request).text, server).toContain('<<the kept catalog>>');
      // with nowhere to keep it, each prompt prints the tools itself
      expect(renderServerPrompt(server, { ...request, tools: { definitions: c.definitions, tools: c.tools } }).text, server).toBe(first);
    }
  });

  it('what compileTools returned is tools input too: its read result, compiled once', () => {
    const c = compileTools(TOOLS);
    expect(compileTools(c)).toBe(c);
    expect(readTools(c)).toBe(asRead(TOOLS));
    expect(renderPrompt({ tools: c, date: '2025-06-28' }).text).toBe(renderPrompt({ tools: TOOLS, date: '2025-06-28' }).text);
    expect(renderCatalog(c, { flavor: 'chat-template' })).toEqual(renderCatalog(TOOLS, { flavor: 'chat-template' }));
  });

  it('JavaScript objects the caller owns are read afresh: a change shows at once', () => {
    const tools = [{ name: 'a', description: 'one' }];
    const before = renderCatalog(tools).text;
    tools[0].description = 'two';
    tools.push({ name: 'b', description: 'three' });
    const after = renderCatalog(tools).text;
    expect(before).toContain('// one');
    expect(after).toContain('// two');
    expect(after).toContain('type b = () => any;');
  });

  it('the text cache is bounded: an old text is read again after 16 newer ones', () => {
    const first = asRead(TOOLS);
    expect(asRead(TOOLS)).toBe(first);
    for (let k = 0; k < 16; k++) asRead(JSON.stringify([{ name: `t${k}` }]));
    expect(asRead(TOOLS)).not.toBe(first);
  });

  it('errors are not kept', () => {
    const bad = JSON.stringify([{ name: 'a', description: 'x <|end|>' }]);
    expect(() => renderCatalog(bad, { controlTokens: 'error' })).toThrow();
    expect(() => renderCatalog(bad, { controlTokens: 'error' })).toThrow();
    expect(renderCatalog(bad).text).toContain('x <|end|>');
  });

  it('the corpus reads the same whether cached or not', () => {
    if (!HAVE_SHARED) return;
    const text = readFileSync(sharedPath('corpus/tools.jsonl'), 'utf8').split('\n').filter(Boolean).join(',');
    setCaching(false);
    const want = outcome(() => renderCatalog(`[${text}]`));
    setCaching(true);
    expect(outcome(() => renderCatalog(`[${text}]`))).toEqual(want);
    expect(outcome(() => renderCatalog(`[${text}]`))).toEqual(want);
  });
});
