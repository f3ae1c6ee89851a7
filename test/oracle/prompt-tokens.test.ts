/**
 * Whole-prompt token counts against openai-harmony: `encodePrompt` of each conversation prompt of
 * ../shared/oracles/conversations equals the tokens openai-harmony rendered (`prompt_tokens`), except
 * where a message spells a control token as text (`prompt_text_ambiguous`: openai-harmony encodes it
 * as ordinary text, a prompt string cannot say so). Then `dump` of a request body counts the same.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderRequest } from '../../src/api/render.js';
import { getKey, toJs, type JsonValue } from '../../src/ir/json.js';
import { countPromptTokens, encodePrompt } from '../../src/tokens.js';
import { runCli } from '../support/cli.js';
import { HAVE_SHARED, readJsonl, readJsonlPlain, sharedMissingNote, sharedPath } from '../support/shared.js';

interface Row {
  id: string;
  prompt?: string;
  prompt_tokens?: number[];
  prompt_text_ambiguous?: boolean;
  harmony_messages?: { content: string | unknown[] }[];
}

/** openai-harmony encodes each text part of a message on its own: BPE never merges across two parts, which a prompt string cannot show. */
function hasSeveralParts(r: Row): boolean {
  return (r.harmony_messages ?? []).some((m) => Array.isArray(m.content) && m.content.length > 1);
}

if (HAVE_SHARED) {
  describe('whole-prompt token counts against openai-harmony', () => {
    const rows = readJsonlPlain<Row>(sharedPath('oracles/conversations/expected-openai-harmony.jsonl')).filter((r) => r.prompt !== undefined);
    it('encodePrompt(prompt) equals prompt_tokens for every prompt that spells no control token as text', () => {
      let exact = 0;
      const ambiguous = rows.filter((r) => r.prompt_text_ambiguous).map((r) => r.id);
      const clear = rows.filter((r) => !r.prompt_text_ambiguous);
      const parts: string[] = [];
      for (const r of clear) {
        const ids = encodePrompt(r.prompt!);
        if (JSON.stringify(ids) === JSON.stringify(r.prompt_tokens)) {
          expect(countPromptTokens(r.prompt!)).toBe(r.prompt_tokens!.length);
          exact++;
        } else if (hasSeveralParts(r)) parts.push(r.id);
        else expect(ids, r.id).toEqual(r.prompt_tokens);
      }
      console.log(`prompt tokens: ${exact}/${clear.length} exact; known: ${parts.length} rows whose messages have several text parts, which openai-harmony encodes part by part (${parts.join(', ')}); ${ambiguous.length} rows spell a control token as text, where only the engine's tokens are exact (${ambiguous.join(', ')})`);
      expect(exact).toBeGreaterThan(130);
    });

    it('dump of a request body adds the whole prompt, counted as openai-harmony counts it', async () => {
      const inputs = readJsonl(sharedPath('oracles/conversations/inputs.jsonl'));
      const row = inputs.find((r) => getKey(r, 'id') === 'C05_tools_no_system') as JsonValue;
      const want = rows.find((r) => r.id === 'C05_tools_no_system')!;
      const body = { messages: toJs(getKey(row, 'messages')!), tools: toJs(getKey(row, 'tools')!) };
      expect(renderRequest(body, { date: '2025-08-05' }).text).toBe(want.prompt);
      const r = await runCli(['dump', '-', '--date', '2025-08-05', '--format', 'json'], { stdin: JSON.stringify(body) });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.out).totals.prompt).toBe(want.prompt_tokens!.length);
    });
  });
} else {
  describe('whole-prompt token counts (oracle not available)', () => {
    it('says plainly that the comparison did not run', () => {
      console.warn(sharedMissingNote('whole-prompt token counts'));
      expect(existsSync(sharedPath('oracles'))).toBe(false);
    });
  });
}
