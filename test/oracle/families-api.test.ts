/**
 * The families as a user renders them: `renderPart(tools, { model })` over ../shared/oracles/families
 * (first turn: corpus-single, corpus-groups, synthetic-visible) and `renderRequest(body, { model,
 * server })` over ../shared/oracles/family-conversations (89 agent conversations × transformers and
 * vLLM), through the API: the official template shipped in src/models/templates/, the server
 * step, the engine. Prompts byte for byte; errors by the oracle's own text inside ours. `N/M exact`
 * per family, set and server; each divergence named by id with its reason.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderPart, renderRequest } from '../../src/api/render.js';
import { getKey, parseJson, type JsonValue } from '../../src/ir/json.js';
import { MODEL_FAMILIES, TEMPLATE_OF_BUILTIN } from '../../src/models/families.js';
import { FAMILY_SETS, outcome, NAMELESS, OVERFLOW } from '../support/families.js';
import { HAVE_SHARED, readJsonlPlain, readOracleCases, sharedMissingNote, sharedPath } from '../support/shared.js';

interface Row {
  id: string;
  prompt?: string;
  error?: string;
}

/** Every model with a shipped template, with the oracle folder it is checked against. */
const MODELS: readonly { name: string; folder: string }[] = [
  ...MODEL_FAMILIES.map((f) => ({ name: f.name, folder: f.oracle.replace(/^families\//, '') })),
  ...Object.entries(TEMPLATE_OF_BUILTIN).map(([name, t]) => ({ name, folder: t.oracle.replace(/^xml\//, '') })),
];

/** First-turn cases our reader refuses before any template runs (a ToolDefinition has a name; numbers beyond double range are refused as openai-harmony refuses them). */
const FIRST_TURN_KNOWN: Readonly<Record<string, string>> = {
  'raw-default-1e400-overflow': OVERFLOW,
  'tool-name-missing': NAMELESS,
};

/** Python's RecursionError says `… while calling a Python object` or not depending on the caller's stack depth, not on the template. */
const RECURSION_PHASE = "Python's RecursionError text depends on the caller's stack depth (the oracle stopped in a C call: '… while calling a Python object'); ours is the same RecursionError";

/** A RecursionError on both sides, worded by another stack depth. */
function sameRecursion(want: Row, got: { error?: string }): boolean {
  return want.error?.startsWith('RecursionError: maximum recursion depth exceeded') === true && got.error?.includes('RecursionError: maximum recursion depth exceeded') === true;
}

/** An oracle error (`Type: message`) matches ours when ours quotes it. */
function matches(want: Row, got: { text?: string; error?: string }): boolean {
  return want.error !== undefined ? got.error !== undefined && got.error.includes(want.error) : got.text === want.prompt;
}

if (HAVE_SHARED) {
  describe('families through the API: first turn (renderPart, --model)', () => {
    for (const m of MODELS.filter((x) => MODEL_FAMILIES.some((f) => f.name === x.name))) {
      it(`${m.name}: every set`, () => {
        const lines: string[] = [];
        for (const [set, inputs] of FAMILY_SETS) {
          const path = sharedPath('oracles/families', m.folder, `${set}.jsonl`);
          const want = new Map(readJsonlPlain<Row>(path).map((r) => [r.id, r]));
          const cases = readOracleCases(sharedPath(inputs)).filter((c) => want.has(c.id));
          let exact = 0;
          const known: string[] = [];
          const diverging: string[] = [];
          for (const c of cases) {
            const got = typeof c.raw === 'string' ? { error: 'not JSON for our reader' } : outcome(() => renderPart(c.tools, { model: m.name, date: '2025-08-05', ...(c.instructions !== undefined ? { instructions: c.instructions } : {}) }).text);
            if (matches(want.get(c.id)!, got)) exact++;
            else if (sameRecursion(want.get(c.id)!, got)) known.push(c.id);
            else if (c.id in FIRST_TURN_KNOWN || typeof c.raw === 'string') known.push(c.id);
            else diverging.push(c.id);
          }
          lines.push(`families API ${m.name} ${set}: ${exact}/${cases.length} exact${known.length ? `; known divergences: ${known.map((id) => `${id} (${FIRST_TURN_KNOWN[id] ?? (sameRecursion(want.get(id)!, { error: 'RecursionError: maximum recursion depth exceeded' }) ? RECURSION_PHASE : 'a lone surrogate: the line is not JSON our reader takes')})`).join(', ')}` : ''}`);
          expect(diverging, `${m.name} ${set}`).toEqual([]);
        }
        console.log(lines.join('\n'));
      });
    }
  });

  describe('families through the API: whole conversations (renderRequest, --model, --server)', () => {
    const inputs = readFileSync(sharedPath('oracles/family-conversations/inputs.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => parseJson(l));
    for (const m of MODELS) {
      for (const server of ['transformers', 'vllm'] as const) {
        it(`${m.name} ${server}`, () => {
          const path = sharedPath('oracles/family-conversations', m.folder, `${server}.jsonl`);
          expect(existsSync(path), path).toBe(true);
          const want = readJsonlPlain<Row>(path);
          let exact = 0;
          const diverging: string[] = [];
          inputs.forEach((c: JsonValue, i) => {
            const body = new Map<string, JsonValue>([['messages', getKey(c, 'messages') as JsonValue]]);
            const tools = getKey(c, 'tools');
            if (tools !== undefined) body.set('tools', tools);
            const got = outcome(() => renderRequest(body, { model: m.name, server, date: '2025-08-05' }).text);
            if (matches(want[i], got)) exact++;
            else diverging.push(`${want[i].id}: ${got.error ?? 'a prompt'} ≠ ${want[i].error ?? 'a prompt'}`.slice(0, 300));
          });
          console.log(`family conversations API ${m.name} ${server}: ${exact}/${want.length} exact`);
          expect(diverging).toEqual([]);
        });
      }
    }
  });
} else {
  describe('families through the API (oracle not available)', () => {
    it('says plainly that the oracle comparison did not run', () => {
      console.warn(sharedMissingNote('families through the API'));
      expect(existsSync(sharedPath('oracles'))).toBe(false);
    });
  });
}
