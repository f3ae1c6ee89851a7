/**
 * One differential test of whole conversations through the public API, as a user renders them:
 * each oracle row of ../shared/oracles/conversations is sent as the request body a server receives
 * (`{messages, tools?, reasoning_effort?, tool_choice?}`) to `renderRequest` with `server` set,
 * and compared byte for byte with what that server's path printed (or refused). `N/M exact` per
 * set and server. The module-level suites (test/conversation/*-oracle.test.ts) check the same rows
 * against each profile alone; this one checks the reading of bodies, the dispatcher and the API.
 */
import { describe, expect, it } from 'vitest';
import { renderRequest, type ServerName } from '../../src/api/render.js';
import { isCompileError } from '../../src/diagnostics.js';
import { getKey, isJsonArray, type JsonValue } from '../../src/ir/json.js';
import { HAVE_SHARED, readJsonl, readJsonlPlain, sharedMissingNote, sharedPath } from '../support/shared.js';

/** Rows where the API's answer differs from the oracle's, with why. */
const KNOWN_DIVERGENCES: Record<string, Record<string, string>> = {
  transformers: {
    G203_tool_type_not_function:
      'a {type: "web_search_preview"} entry in Chat Completions tools: the template raises an UndefinedError on it; the tool reader refuses it first (input/unknown-shape). Both refuse the request; only the error text differs',
  },
  'llama.cpp': {
    C19_tool_call_with_thinking: 'the derivation keeps a client `thinking` field; llama.cpp rebuilds each message from the fields it parses (role, content, reasoning_content, name, tool_call_id, tool_calls), so `thinking` never reaches the template (spec A.4: "Not read: reasoning, thinking")',
    C22_tool_call_preamble_and_thinking: 'as C19: the client `thinking` field is not among the fields llama.cpp parses',
    C36_channel_tags_in_content: 'the derivation raises the template\'s content channel-tag error; llama.cpp patches that test out of the template (common_chat_templates_init, "temporary hack", PR #15230), so it renders',
  },
  ollama: {
    C39_user_image_part:
      'the derivation gives an image-only part no content; Ollama (server/prompt.go imageTaggedMessages) gives it `[img-0]` before collate merges the messages, so the prompt reads `Describe\\n\\n[img-0]`',
  },
};

interface Expected {
  id: string;
  prompt?: string;
  error?: unknown;
}

/** The body a server receives for an input row, and the template options it is rendered with. */
function bodyOf(row: JsonValue): { body: Map<string, JsonValue>; browser: boolean; python: boolean; date: string } {
  const options = getKey(row, 'options');
  const body = new Map<string, JsonValue>([['messages', getKey(row, 'messages') as JsonValue]]);
  const tools = getKey(row, 'tools');
  if (tools !== undefined) body.set('tools', tools);
  const effort = getKey(options, 'reasoning_effort') ?? getKey(row, 'reasoning_effort');
  if (effort !== undefined) body.set('reasoning_effort', effort);
  const toolChoice = getKey(options, 'tool_choice');
  if (toolChoice !== undefined) body.set('tool_choice', toolChoice);
  const builtins = getKey(options, 'builtin_tools');
  const has = (n: string) => isJsonArray(builtins) && builtins.includes(n);
  return { body, browser: has('browser'), python: has('python'), date: (getKey(options, 'date') ?? getKey(row, 'date')) as string };
}

/** Render a row through a server: the prompt text, or `error` when the server refuses it. */
function render(row: JsonValue, server: ServerName): { prompt?: string; error?: string } {
  const { body, browser, python, date } = bodyOf(row);
  try {
    // the template servers take builtin tools as template arguments; vLLM's Chat Completions never shows them
    const builtins = server === 'transformers' ? { ...(browser ? { browser } : {}), ...(python ? { python } : {}) } : {};
    return { prompt: renderRequest(body, { server, date, ...builtins }).text };
  } catch (e) {
    if (isCompileError(e)) return { error: e.message };
    throw e;
  }
}

function compare(rows: readonly JsonValue[], expected: ReadonlyMap<string, Expected>, server: ServerName): { exact: number; total: number; failures: string[] } {
  let exact = 0;
  const failures: string[] = [];
  for (const row of rows) {
    const id = getKey(row, 'id') as string;
    const want = expected.get(id);
    if (!want) continue;
    const got = render(row, server);
    const ok = want.error !== undefined ? got.error !== undefined : got.prompt === want.prompt;
    if (ok) exact++;
    else if (!KNOWN_DIVERGENCES[server]?.[id]) failures.push(`${id}: ${got.error ?? 'rendered'} vs ${want.error !== undefined ? 'refused' : 'a prompt'}`);
  }
  return { exact, total: expected.size, failures };
}

if (HAVE_SHARED) describe('conversations through the API (renderRequest, per server)', () => {
  const dir = (f: string) => sharedPath('oracles', 'conversations', f);
  const inputs = HAVE_SHARED ? readJsonl(dir('inputs.jsonl')) : [];
  const byId = (rows: Expected[]) => new Map(rows.map((r) => [r.id, r]));

  it('vllm: every openai-harmony row byte-exact, every refusal refused', () => {
    const r = compare(inputs, byId(readJsonlPlain<Expected>(dir('expected-openai-harmony.jsonl'))), 'vllm');
    console.log(`conversations vllm (openai-harmony rows): ${r.exact}/${r.total} exact`);
    expect(r.failures).toEqual([]);
    expect(r.exact).toBe(r.total - Object.keys(KNOWN_DIVERGENCES.vllm ?? {}).length);
  });

  it('transformers: every chat-template row byte-exact, every template error an error', () => {
    const r = compare(inputs, byId(readJsonlPlain<Expected>(dir('expected-chat-template.jsonl'))), 'transformers');
    console.log(`conversations transformers (chat-template rows): ${r.exact}/${r.total} exact (known divergences: ${Object.keys(KNOWN_DIVERGENCES.transformers).join(', ')})`);
    expect(r.failures).toEqual([]);
  });

  const derived = HAVE_SHARED ? readJsonl(dir('servers-derived.jsonl')) : [];
  for (const server of ['llama.cpp', 'mlx-lm', 'ollama'] as const) {
    it(`${server}: the derived rows (from the server's code, not run on it)`, () => {
      const expected = new Map<string, Expected>();
      for (const row of derived) {
        const e = getKey(row, server);
        const id = getKey(row, 'id') as string;
        expected.set(id, { id, ...(getKey(e, 'prompt') !== undefined ? { prompt: getKey(e, 'prompt') as string } : { error: getKey(e, 'error') }) });
      }
      const r = compare(derived, expected, server);
      console.log(`conversations ${server} (derived rows): ${r.exact}/${r.total} exact${KNOWN_DIVERGENCES[server] ? ` (known divergences: ${Object.keys(KNOWN_DIVERGENCES[server]).join(', ')})` : ''}`);
      expect(r.failures).toEqual([]);
    });
  }
});

else describe('conversations through the API (oracle not available)', () => {
  it('says plainly that the oracle comparison is not run', () => {
    const note = sharedMissingNote('conversations (vllm, transformers, llama.cpp, mlx-lm, ollama)');
    console.warn(note);
    expect(note).toContain('NOT run');
  });
});
