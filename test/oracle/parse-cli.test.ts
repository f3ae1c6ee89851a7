/**
 * `harmony-catalog parse --jsonl` over the parse oracle's own input file (../shared/oracles/parse/inputs.jsonl,
 * `{id, completion, tokens, tools?, engine_finish_reason}` a line), as a user would run it: messages and errors
 * equal openai-harmony's batch parse (strict), and the vLLM response of each row equals the oracle's (ids aside).
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { HAVE_SHARED, readJsonlPlain, sharedMissingNote, sharedPath } from '../support/shared.js';

interface Expected {
  id: string;
  engine: { batch: { messages?: unknown[]; error?: string } };
  derived: { vllm_chat_completion: { message?: { tool_calls?: { id?: string }[] }; finish_reason?: string; error?: unknown } };
}

/** A response without its generated ids. */
function withoutIds(r: { message?: { tool_calls?: { id?: string }[] } } & Record<string, unknown>): unknown {
  const calls = r.message?.tool_calls?.map(({ id: _id, ...rest }) => rest);
  return { ...r, ...(r.message ? { message: { ...r.message, ...(calls ? { tool_calls: calls } : {}) } } : {}) };
}

if (HAVE_SHARED) {
  describe('parse --jsonl over the oracle inputs', () => {
    const input = readFileSync(sharedPath('oracles/parse/inputs.jsonl'), 'utf8');
    const expected = new Map(readJsonlPlain<Expected>(sharedPath('oracles/parse/expected.jsonl')).map((r) => [r.id, r]));

    it('--format harmony: messages and errors equal openai-harmony\'s batch parse (token ids in, strict)', async () => {
      const r = await runCli(['parse', '-', '--jsonl', '--quiet'], { stdin: input });
      // a refused case fails the run (exit 1), as a single parse of it would; its line is still written
      expect(r.code).toBe([...expected.values()].some((e) => e.engine.batch.error !== undefined) ? 1 : 0);
      const rows = r.out.trim().split('\n').map((l) => JSON.parse(l) as { id: string; messages?: unknown[]; error?: string });
      let exact = 0;
      for (const row of rows) {
        const want = expected.get(row.id)!.engine.batch;
        if (want.error !== undefined ? row.error === want.error : JSON.stringify(row.messages) === JSON.stringify(want.messages)) exact++;
        else expect({ id: row.id, ...row }).toEqual({ id: row.id, ...want });
      }
      console.log(`parse --jsonl --format harmony: ${exact}/${expected.size} exact`);
      expect(exact).toBe(expected.size);
    });

    it('--format openai: the vLLM response of every row (ids aside)', async () => {
      const r = await runCli(['parse', '-', '--jsonl', '--quiet', '--format', 'openai'], { stdin: input });
      const rows = r.out.trim().split('\n').map((l) => JSON.parse(l) as { id: string; response?: Record<string, unknown>; error?: string });
      let exact = 0;
      for (const row of rows) {
        const want = expected.get(row.id)!.derived.vllm_chat_completion;
        if (want.error !== undefined) {
          expect(row.error, row.id).toBeDefined();
          exact++;
          continue;
        }
        const { engine_finish_reason: _e, flush_fallback: _f, tool_calls_parsed_but_not_returned: _t, ...plain } = want as Record<string, unknown>;
        expect(withoutIds(row.response as never), row.id).toEqual(withoutIds(plain as never));
        exact++;
      }
      console.log(`parse --jsonl --format openai: ${exact}/${expected.size} exact`);
      expect(exact).toBe(expected.size);
    });
  });
} else {
  describe('parse --jsonl over the oracle inputs (oracle not available)', () => {
    it('says plainly that the comparison did not run', () => {
      console.warn(sharedMissingNote('parse --jsonl'));
      expect(existsSync(sharedPath('oracles'))).toBe(false);
    });
  });
}
