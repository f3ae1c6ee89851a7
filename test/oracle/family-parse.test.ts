/**
 * Every server parser against ../shared/oracles/family-parse: the family outputs parsed by the
 * real vLLM and SGLang parser code. Per `server:parser`, the parser's own result (content /
 * normal_text, each call's name and `arguments` string byte for byte, tools_called, SGLang's
 * has_tool_call) and the chat-completions response the server then sends. `N/M exact` per
 * parser; a divergence is listed by id with its reason, never hidden.
 */
import { describe, expect, it } from 'vitest';
import { SERVER_PARSERS } from '../../src/parse/families/registry.js';
import { oracleRun } from '../parse/families/oracle-rows.js';
import { HAVE_SHARED, readJsonlPlain, sharedMissingNote, sharedPath } from '../support/shared.js';

/** Known divergences: `server:parser id` → reason (none). */
const KNOWN: Readonly<Record<string, string>> = {};

if (HAVE_SHARED) {
  const inputs = readJsonlPlain<{ servers: string[] }>(sharedPath('oracles/family-parse/inputs.jsonl'));
  const commits = new Set(readJsonlPlain<{ expected: Record<string, { commit: string }> }>(sharedPath('oracles/family-parse/expected.jsonl')).flatMap((e) => Object.entries(e.expected).map(([k, v]) => `${k} ${v.commit}`)));
  const keys = [...new Set(inputs.flatMap((i) => i.servers))].sort();
  describe('family-parse oracle: every server parser', () => {
    for (const key of keys) {
      it(key, () => {
        const entry = SERVER_PARSERS.get(key);
        expect(entry, `no parser registered as ${key}`).toBeDefined();
        // the behaviour follows the commit the oracle ran
        expect([...commits].filter((c) => c.startsWith(`${key} `))).toEqual([`${key} ${entry!.commit}`]);
        const r = oracleRun(key, (text, tools) => entry!.parse(text, tools));
        const known = r.wrong.filter((w) => KNOWN[`${key} ${w.split('\n')[0]}`] !== undefined);
        const wrong = r.wrong.filter((w) => !known.includes(w));
        console.log(`family-parse ${key} (${entry!.name}): ${r.exact}/${r.total} exact${known.length ? `; known: ${known.map((w) => `${w.split('\n')[0]}: ${KNOWN[`${key} ${w.split('\n')[0]}`]}`).join('; ')}` : ''}`);
        expect(wrong).toEqual([]);
      });
    }
  });
} else {
  describe('family-parse oracle (not available)', () => {
    it('says plainly that it did not run', () => {
      console.log(sharedMissingNote('family-parse'));
      expect(HAVE_SHARED).toBe(false);
    });
  });
}
