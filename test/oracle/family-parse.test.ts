/**
 * Every server parser against ../shared/oracles/family-parse: the family outputs parsed by the
 * real vLLM and SGLang parser code. Per `server:parser`, the parser's own result (content /
 * normal_text, each call's name and `arguments` string byte for byte, tools_called, SGLang's
 * has_tool_call) and the chat-completions response the server then sends. `N/M exact` per
 * parser; a divergence is listed by id with its reason, never hidden.
 */
import { describe, expect, it } from 'vitest';
import { serverResponse } from '../../src/parse/families/index.js';
import { SERVER_PARSERS } from '../../src/parse/families/registry.js';
import type { ParserResult } from '../../src/parse/families/types.js';
import { readParseTools } from '../../src/parse/xml/tools.js';
import { HAVE_SHARED, readJsonlPlain, sharedMissingNote, sharedPath } from '../support/shared.js';

interface Input {
  id: string;
  family: string;
  output: string;
  tools: unknown[];
  servers: string[];
}
interface Expected {
  id: string;
  expected: Record<string, { file: string; commit: string; parser_result: Record<string, unknown>; server: { content: string | null; tool_calls: { name: string; arguments: string }[] | null } }>;
}

/** Known divergences: `server:parser id` → reason. */
const KNOWN: Readonly<Record<string, string>> = {};

/** The parser result as the oracle records it. */
function recorded(server: string, r: ParserResult): Record<string, unknown> {
  if (r.exception !== undefined) return { _exception: r.exception };
  const calls = r.tool_calls.map((c) => ({ arguments: c.arguments, name: c.name }));
  return server === 'sglang' ? { content: r.content, has_tool_call: r.has_tool_call, tool_calls: calls, tools_called: r.tools_called } : { content: r.content, tool_calls: calls, tools_called: r.tools_called };
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
  return v;
}

if (HAVE_SHARED) {
  const inputs = readJsonlPlain<Input>(sharedPath('oracles/family-parse/inputs.jsonl'));
  const expected = new Map(readJsonlPlain<Expected>(sharedPath('oracles/family-parse/expected.jsonl')).map((e) => [e.id, e.expected]));
  const keys = [...new Set(inputs.flatMap((i) => i.servers))].sort();
  describe('family-parse oracle: every server parser', () => {
    for (const key of keys) {
      it(key, () => {
        const [server, name] = key.split(':') as ['vllm' | 'sglang', string];
        const entry = SERVER_PARSERS.get(key);
        expect(entry, `no parser registered as ${key}`).toBeDefined();
        let exact = 0;
        let total = 0;
        const wrong: string[] = [];
        const known: string[] = [];
        for (const input of inputs.filter((i) => i.servers.includes(key))) {
          const want = expected.get(input.id)![key];
          total++;
          const tools = readParseTools(input.tools).tools;
          const got = entry!.parse(input.output, tools);
          expect(want.commit).toBe(entry!.commit);
          const same = JSON.stringify(sortKeys(recorded(server, got))) === JSON.stringify(sortKeys(want.parser_result)) && JSON.stringify(sortKeys(serverResponse(server, input.output, got))) === JSON.stringify(sortKeys({ content: want.server.content, tool_calls: want.server.tool_calls }));
          if (same) exact++;
          else if (KNOWN[`${key} ${input.id}`]) known.push(`${input.id}: ${KNOWN[`${key} ${input.id}`]}`);
          else wrong.push(`${input.id}\n  want ${JSON.stringify(sortKeys(want.parser_result))} ${JSON.stringify(want.server)}\n  got  ${JSON.stringify(sortKeys(recorded(server, got)))} ${JSON.stringify(serverResponse(server, input.output, got))}`);
        }
        console.log(`family-parse ${key} (${name}): ${exact}/${total} exact${known.length ? `; known: ${known.join('; ')}` : ''}`);
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
