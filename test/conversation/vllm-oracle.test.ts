/**
 * Differential test against the conversations oracle (../shared/oracles/conversations): each
 * Chat Completions conversation is rendered through the vLLM profile and compared byte for byte
 * with what vLLM's mapping + the real openai-harmony v0.0.8 printed; requests vLLM refuses must be
 * refused (a CompileError). Each set reports `N/M exact`.
 */
import { describe, expect, it } from 'vitest';
import { isCompileError, type Diagnostic } from '../../src/diagnostics.js';
import { readConversation } from '../../src/conversation/read.js';
import type { ServerPrompt, ServerRequest } from '../../src/conversation/types.js';
import { renderVllm } from '../../src/conversation/vllm.js';
import { readTools } from '../../src/input/read.js';
import { getKey, isJsonArray, type JsonValue } from '../../src/ir/json.js';
import { lowerTool } from '../../src/lower/index.js';
import { renderHarmonyDeveloperContent } from '../../src/messages/developer.js';
import type { HarmonyMessage } from '../../src/messages/envelope.js';
import { HAVE_SHARED, readJsonl, readJsonlPlain, sharedMissingNote, sharedPath } from '../support/shared.js';

/** Known divergences: id → why. Empty: every case is exact. */
const KNOWN_DIVERGENCES: Record<string, string> = {};

/** Refusals that do not come from the vLLM profile itself, with why that is right. */
const REFUSED_ELSEWHERE: Record<string, string> = {
  G203_tool_type_not_function: 'a {type: "web_search_preview"} entry in Chat Completions tools: vLLM refuses it in ChatCompletionToolsParam validation; here the tool reader refuses it (input/unknown-shape) before the profile runs',
};

interface Expected {
  id: string;
  prompt?: string;
  prompt_text_ambiguous?: boolean;
  harmony_messages?: { role: string; name?: string; recipient?: string; channel?: string; content_type?: string; content: string | { type: string; text?: string; instructions?: string | null }[] }[];
  error?: { kind: string; type: string; message: string };
}

/** The ServerRequest of an oracle input row: tools read and lowered, options as given. */
function requestOf(row: JsonValue): ServerRequest {
  const tools = getKey(row, 'tools');
  const options = getKey(row, 'options');
  const read = tools !== undefined && isJsonArray(tools) && tools.length ? readTools(tools) : { tools: [], diagnostics: [] };
  const lowered = read.tools.map((t) => lowerTool(t).tool);
  const { conversation } = readConversation(getKey(row, 'messages'));
  const effort = getKey(options, 'reasoning_effort');
  const toolChoice = getKey(options, 'tool_choice');
  const builtins = getKey(options, 'builtin_tools');
  return {
    conversation,
    tools: { definitions: read.tools, tools: lowered },
    toolsGiven: tools === undefined ? 'absent' : isJsonArray(tools) && tools.length === 0 ? 'empty' : 'some',
    date: getKey(options, 'date') as string,
    ...(effort !== undefined ? { effort } : {}),
    ...(toolChoice !== undefined ? { toolChoice } : {}),
    ...(isJsonArray(builtins) ? { builtinTools: builtins as ('browser' | 'python')[] } : {}),
  };
}

/** Render a row: the prompt, or the CompileError's diagnostics. */
function render(row: JsonValue): { prompt?: ServerPrompt; refused?: readonly Diagnostic[] } {
  try {
    return { prompt: renderVllm(requestOf(row)) };
  } catch (e) {
    if (isCompileError(e)) return { refused: e.diagnostics };
    throw e;
  }
}

/** The oracle's Harmony message (openai-harmony's serde form) as an envelope message's fields. */
function fromSerde(m: NonNullable<Expected['harmony_messages']>[number]): HarmonyMessage {
  const content =
    typeof m.content === 'string'
      ? m.content
      : m.content.map((c) => (c.type === 'developer_content' ? renderHarmonyDeveloperContent(c.instructions ?? undefined, undefined) : (c.text ?? ''))).join('');
  return {
    role: m.role as HarmonyMessage['role'],
    ...(m.name !== undefined ? { name: m.name } : {}),
    ...(m.recipient !== undefined ? { recipient: m.recipient } : {}),
    ...(m.channel !== undefined ? { channel: m.channel } : {}),
    ...(m.content_type !== undefined ? { contentType: m.content_type } : {}),
    content,
  };
}

if (HAVE_SHARED) {
  describe('vLLM conversations oracle (openai-harmony rows)', () => {
    const rows = readJsonl(sharedPath('oracles/conversations/inputs.jsonl'));
    const want = new Map(readJsonlPlain<Expected>(sharedPath('oracles/conversations/expected-openai-harmony.jsonl')).map((r) => [r.id, r]));

    it('every prompt is byte-exact and every refused request is refused', () => {
      let prompts = 0;
      let promptsExact = 0;
      let errors = 0;
      let errorsExact = 0;
      const diverging: string[] = [];
      for (const row of rows) {
        const id = getKey(row, 'id') as string;
        const w = want.get(id);
        expect(w, `oracle row for ${id}`).toBeDefined();
        const got = render(row);
        let ok: boolean;
        if (w!.error !== undefined) {
          errors++;
          const code = id in REFUSED_ELSEWHERE ? 'input/unknown-shape' : 'conversation/refused';
          ok = got.refused !== undefined && got.refused.some((d) => d.severity === 'error' && d.code === code);
          if (ok) errorsExact++;
        } else {
          prompts++;
          // prompt_text_ambiguous rows: a control-token spelling inside content; the text is still exact as text
          ok = got.prompt?.text === w!.prompt;
          if (ok) promptsExact++;
        }
        if (!ok && !(id in KNOWN_DIVERGENCES)) diverging.push(id);
      }
      expect(rows.every((r) => readConversation(getKey(r, 'messages')).conversation.format === 'chat')).toBe(true);
      console.log(`vllm conversations prompts: ${promptsExact}/${prompts} exact`);
      console.log(`vllm conversations refusals: ${errorsExact}/${errors} exact`);
      expect(rows.length).toBe(153);
      expect(diverging).toEqual([]);
    });

    it('the Harmony messages after the system and developer messages match the oracle', () => {
      let n = 0;
      let exact = 0;
      const diverging: string[] = [];
      for (const row of rows) {
        const id = getKey(row, 'id') as string;
        const w = want.get(id)!;
        if (w.harmony_messages === undefined) continue;
        const got = render(row).prompt;
        // the oracle lists the system and developer messages of the preamble first
        const preamble = (got?.developer !== undefined ? 2 : 1);
        const expected = w.harmony_messages.slice(preamble).map(fromSerde);
        n++;
        if (got !== undefined && JSON.stringify(got.messages) === JSON.stringify(expected)) exact++;
        else if (!(id in KNOWN_DIVERGENCES)) diverging.push(id);
      }
      console.log(`vllm conversations harmony_messages: ${exact}/${n} exact`);
      expect(diverging).toEqual([]);
    });

    it('Harmony-native messages equal to vLLM\'s mapping render the same prompt', () => {
      let n = 0;
      let exact = 0;
      const diverging: string[] = [];
      for (const row of rows) {
        const id = getKey(row, 'id') as string;
        const w = want.get(id)!;
        const got = render(row).prompt;
        if (got === undefined || w.harmony_messages === undefined) continue;
        // the instructions as the oracle's developer_content holds them
        const devContent = w.harmony_messages[1]?.role === 'developer' && typeof w.harmony_messages[1].content !== 'string' ? w.harmony_messages[1].content[0] : undefined;
        const instructions = devContent?.type === 'developer_content' ? devContent.instructions : undefined;
        // with no instructions, a leading developer message would be read as them: not representable, skipped
        if ((instructions === undefined || instructions === null) && got.messages![0]?.role === 'developer') continue;
        const items: unknown[] = [
          ...(typeof instructions === 'string' ? [{ role: 'developer', content: instructions }] : []),
          ...got.messages!.map((m) => ({ role: m.role, ...(m.name !== undefined ? { name: m.name } : {}), ...(m.recipient !== undefined ? { recipient: m.recipient } : {}), ...(m.channel !== undefined ? { channel: m.channel } : {}), ...(m.contentType !== undefined ? { content_type: m.contentType } : {}), content: m.content })),
        ];
        const base = requestOf(row);
        const { conversation } = readConversation(items, { format: 'harmony' });
        n++;
        if (renderVllm({ ...base, conversation }).text === w.prompt) exact++;
        else diverging.push(id);
      }
      console.log(`vllm conversations harmony-native round trip: ${exact}/${n} exact`);
      expect(n).toBeGreaterThan(130);
      expect(diverging).toEqual([]);
    });

    it('refusals name vLLM\'s reason at the request\'s pointer', () => {
      const byId = new Map(rows.map((r) => [getKey(r, 'id') as string, r]));
      const refused = (id: string) => render(byId.get(id)!).refused ?? [];
      expect(refused('G031_user_null_content')).toContainEqual(expect.objectContaining({ code: 'conversation/refused', path: '/messages/0/content' }));
      expect(refused('G138_tool_call_missing_arguments')).toContainEqual(expect.objectContaining({ path: '/messages/1/tool_calls/0/function/arguments' }));
      expect(refused('C38_reasoning_effort_none')[0].message).toContain("Harmony does not support reasoning_effort='none'");
      expect(refused('G184_effort_minimal')[0].message).toContain("reasoning_effort='minimal' is not supported by Harmony. Supported values are: high, medium, low.");
      expect(refused('G252_tool_choice_without_tools')[0].message).toContain('When using `tool_choice`, `tools` must be set.');
    });
  });
} else {
  describe('vLLM conversations oracle', () => {
    it('is not run without ../shared', () => {
      const note = sharedMissingNote('vLLM conversations oracle');
      console.log(note);
      expect(note).toContain('NOT run');
    });
  });
}
