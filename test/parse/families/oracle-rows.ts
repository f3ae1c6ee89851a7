/**
 * The family-parse oracle rows of one server parser, compared with an emulation: the parser's
 * result (content, each call's name and arguments byte for byte, tools_called, has_tool_call) and
 * the server's response, keys sorted on both sides. Used by the family tests here to run a parser
 * whose path depends on more than the text (vLLM's Mistral parser: the tokenizer's version).
 */
import { serverResponse } from '../../../src/parse/families/index.js';
import type { ParserResult } from '../../../src/parse/families/types.js';
import { readParseTools, type ParseTool } from '../../../src/parse/xml/tools.js';
import { HAVE_SHARED, readJsonlPlain, sharedPath } from '../../support/shared.js';

interface Input {
  id: string;
  family: string;
  output: string;
  tools: unknown[];
  servers: string[];
}
interface Expected {
  id: string;
  expected: Record<string, { commit: string; parser_result: Record<string, unknown>; server: unknown }>;
}

export { HAVE_SHARED };

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
  return v;
}

function recorded(server: string, r: ParserResult): Record<string, unknown> {
  if (r.exception !== undefined) return { _exception: r.exception };
  const calls = r.tool_calls.map((c) => ({ arguments: c.arguments, name: c.name }));
  return server === 'sglang' ? { content: r.content, has_tool_call: r.has_tool_call, tool_calls: calls, tools_called: r.tools_called } : { content: r.content, tool_calls: calls, tools_called: r.tools_called };
}

/** Run `parse` over every row of `key`; the exact count, the total and each row that differs. */
export function oracleRun(key: string, parse: (text: string, tools: readonly ParseTool[] | undefined, family: string) => ParserResult): { exact: number; total: number; wrong: string[] } {
  const server = key.split(':')[0] as 'vllm' | 'sglang';
  const inputs = readJsonlPlain<Input>(sharedPath('oracles/family-parse/inputs.jsonl')).filter((i) => i.servers.includes(key));
  const expected = new Map(readJsonlPlain<Expected>(sharedPath('oracles/family-parse/expected.jsonl')).map((e) => [e.id, e.expected]));
  let exact = 0;
  const wrong: string[] = [];
  for (const input of inputs) {
    const want = expected.get(input.id)![key];
    const got = parse(input.output, readParseTools(input.tools).tools, input.family);
    const a = JSON.stringify(sortKeys([recorded(server, got), serverResponse(server, input.output, got)]));
    const b = JSON.stringify(sortKeys([want.parser_result, want.server]));
    if (a === b) exact++;
    else wrong.push(`${input.id}\n  want ${b}\n  got  ${a}`);
  }
  return { exact, total: inputs.length, wrong };
}
