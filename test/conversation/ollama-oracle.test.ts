/**
 * Differential test against ../shared/oracles/conversations/servers-derived.jsonl, the `ollama`
 * column: each conversation rendered by renderOllama and compared byte for byte with the prompt
 * derived from Ollama's code (or, for a refused request, its error message). These rows are
 * DERIVED (the Go template transcribed, not run on Ollama): where a row disagrees with Ollama's
 * code, the code wins and the row is listed below with the reason.
 */
import { describe, expect, it } from 'vitest';
import { renderOllama } from '../../src/conversation/ollama.js';
import type { ServerRequest } from '../../src/conversation/types.js';
import { isCompileError } from '../../src/diagnostics.js';
import { readTools } from '../../src/input/read.js';
import { getKey, isJsonArray, type JsonValue } from '../../src/ir/json.js';
import { lowerTool } from '../../src/lower/index.js';
import { HAVE_SHARED, readJsonl, readJsonlPlain, sharedMissingNote, sharedPath } from '../support/shared.js';

/** Rows whose derivation disagrees with Ollama's code: id → why (our output follows the code). */
const KNOWN_DIVERGENCES: Record<string, string> = {
  C39_user_image_part:
    'the derivation drops the image part; Ollama\'s server/prompt.go imageTaggedMessages (no renderer for gpt-oss) writes "[img-0]" as the image message\'s content before template.collate joins it, so Ollama reads "Describe\\n\\n[img-0]"',
};

/** The request a row describes. */
function requestOf(row: JsonValue): ServerRequest {
  const messages = getKey(row, 'messages');
  const items = isJsonArray(messages) ? messages : [];
  const toolsRaw = getKey(row, 'tools');
  const definitions = isJsonArray(toolsRaw) && toolsRaw.length > 0 ? readTools(toolsRaw).tools : [];
  const effort = getKey(row, 'reasoning_effort');
  const date = getKey(row, 'date');
  return {
    conversation: { format: 'chat', items, pointers: items.map((_, i) => `/messages/${i}`) },
    tools: { definitions, tools: definitions.map((d) => lowerTool(d).tool) },
    toolsGiven: toolsRaw === undefined ? 'absent' : isJsonArray(toolsRaw) && toolsRaw.length === 0 ? 'empty' : 'some',
    ...(effort !== undefined && effort !== null ? { effort } : {}),
    ...(typeof date === 'string' ? { date } : {}),
  };
}

/** The derivation writes errors as Python saw them (`ValueError: …`, `None`): Ollama's message is the Go one. */
function goMessage(pythonError: string): string {
  return pythonError.replace(/^ValueError: /, '').replace(/: None$/, ': <nil>');
}

interface Expected { id: string; ollama: { prompt?: string; error?: string } }

if (HAVE_SHARED) describe('Ollama oracle (servers-derived)', () => {
  it('every derived Ollama prompt is byte-exact, or the same refusal', () => {
    const inputs = readJsonl(sharedPath('oracles/conversations/servers-derived.jsonl'));
    const want = new Map(readJsonlPlain<Expected>(sharedPath('oracles/conversations/servers-derived.jsonl')).map((r) => [r.id, r.ollama]));
    let exact = 0;
    const diverging: string[] = [];
    const stale: string[] = [];
    for (const row of inputs) {
      const id = getKey(row, 'id') as string;
      const w = want.get(id);
      expect(w, id).toBeDefined();
      let ok: boolean;
      try {
        const got = renderOllama(requestOf(row));
        ok = w!.prompt !== undefined && got.text === w!.prompt;
      } catch (e) {
        if (!isCompileError(e)) throw e;
        ok = w!.error !== undefined && e.diagnostics.some((d) => d.code === 'conversation/refused' && d.message === goMessage(w!.error!));
      }
      if (ok) {
        exact++;
        if (id in KNOWN_DIVERGENCES) stale.push(id);
      } else if (!(id in KNOWN_DIVERGENCES)) diverging.push(id);
    }
    console.log(`ollama servers-derived: ${exact}/${inputs.length} exact (known divergences, decided by Ollama's code: ${Object.keys(KNOWN_DIVERGENCES).join(', ')})`);
    expect(inputs.length).toBe(30);
    expect(diverging).toEqual([]);
    expect(stale).toEqual([]);
  });

  it('the known divergence is what Ollama\'s code does: the image tag is in the prompt', () => {
    const row = readJsonl(sharedPath('oracles/conversations/servers-derived.jsonl')).find((r) => getKey(r, 'id') === 'C39_user_image_part');
    expect(row).toBeDefined();
    const got = renderOllama(requestOf(row!)).text;
    const derived = want39();
    expect(got).toBe(derived.replace('<|start|>user<|message|>Describe\n\n<|end|>', '<|start|>user<|message|>Describe\n\n[img-0]<|end|>'));
  });
});
else it('Ollama oracle (servers-derived)', () => {
  console.log(sharedMissingNote('Ollama oracle (servers-derived)'));
  expect(HAVE_SHARED).toBe(false);
});

function want39(): string {
  const r = readJsonlPlain<Expected>(sharedPath('oracles/conversations/servers-derived.jsonl')).find((x) => x.id === 'C39_user_image_part');
  return r!.ollama.prompt!;
}
