/**
 * The batch CLI end to end against both gpt-oss oracles: `render --jsonl` over the oracle
 * input files, exactly as a user would run it, for each flavor.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { HAVE_SHARED, readJsonlPlain, sharedMissingNote, sharedPath } from '../support/shared.js';

/** The output rows by id; the exit status is 1 exactly when some case failed (`failing`). */
async function jsonl(argv: string[], stdin: string, failing = false): Promise<Map<string, { text?: string; error?: string }>> {
  const r = await runCli(argv, { stdin });
  expect(r.code).toBe(failing ? 1 : 0);
  return new Map(r.out.trim().split('\n').map((l) => { const row = JSON.parse(l); return [row.id, row]; }));
}

if (HAVE_SHARED) {
  describe('render --jsonl against the oracles', () => {
    for (const set of ['corpus-groups', 'corpus-single']) {
      it(`${set}: openai-harmony developer messages`, async () => {
        const got = await jsonl(['render', '-', '--jsonl', '--part', 'developer', '--quiet'], readFileSync(sharedPath(`oracles/inputs/${set}.jsonl`), 'utf8'));
        const want = readJsonlPlain<{ id: string; developer: string }>(sharedPath(`oracles/openai-harmony/${set}.jsonl`));
        const exact = want.filter((w) => got.get(w.id)?.text === w.developer).length;
        console.log(`render --jsonl openai-harmony ${set}: ${exact}/${want.length} exact`);
        expect(exact).toBe(want.length);
      });
      it(`${set}: chat-template whole prompts (one user "hi", date 2025-08-05, generation prompt)`, async () => {
        // the template oracle renders each case with one user message "hi" and the generation prompt
        const lines = readFileSync(sharedPath(`oracles/inputs/${set}.jsonl`), 'utf8').trim().split('\n')
          .map((l) => `${l.slice(0, l.lastIndexOf('}'))}, "messages": [{"role": "user", "content": "hi"}], "completion": true}`).join('\n');
        const want = readJsonlPlain<{ id: string; prompt?: string; error?: string }>(sharedPath(`oracles/chat-template/${set}.jsonl`));
        const got = await jsonl(['render', '-', '--jsonl', '--flavor', 'chat-template', '--date', '2025-08-05', '--quiet'], lines, want.some((w) => w.error !== undefined));
        const exact = want.filter((w) => (w.error !== undefined ? got.get(w.id)?.error !== undefined : got.get(w.id)?.text === w.prompt)).length;
        console.log(`render --jsonl chat-template ${set}: ${exact}/${want.length} exact`);
        expect(exact).toBe(want.length);
      });
    }
  });
} else {
  describe('render --jsonl against the oracles (not available)', () => {
    it('says plainly that it did not run', () => {
      console.warn(sharedMissingNote('render --jsonl oracle'));
      expect(HAVE_SHARED).toBe(false);
    });
  });
}
