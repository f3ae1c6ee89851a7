/**
 * Two properties of every family's reading that no oracle case pins down, on each syntax's own
 * example call (SYNTAXES[…].example, a get_weather call):
 * - nothing cut off is ever runnable: every strict prefix of the call (after no text, or after a
 *   sentence), read in every mode (the default reading, and the family's vLLM and SGLang parsers),
 *   gives no call that checkToolCalls finds runnable; the whole call is runnable. A cut inside a
 *   closing marker (`</functi`, `</TOO`, a lone `<`) counts: the servers return such a call as
 *   whole (found by bench/fuzz-parse.mjs: functionary-3.1, nemotron-nano-2, command-r7b, glm-4.7,
 *   kimi-k2-thinking under SGLang).
 * - streaming: the text split in two at every place gives the one-push result (Command R7B's
 *   `<|START_RESPONSE|>` was once handed on as content before the reading took it out).
 */
import { describe, expect, it } from 'vitest';
import { checkToolCalls } from '../../../src/parse/check.js';
import { FAMILY_PARSERS, parseFamilyToolCalls, SYNTAXES, type FamilyParseOptions } from '../../../src/parse/families/index.js';
import { createToolCallParser } from '../../../src/parse/families/stream.js';
import { toChatCompletion } from '../../../src/parse/response.js';

const TOOLS = [
  { type: 'function', function: { name: 'get_weather', description: 'Weather in a city.', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] } } },
  { type: 'function', function: { name: 'get_time', description: 'The time in a zone.', parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] } } },
];

/** The example as the model writes it: a few examples spell their line breaks `\n`. */
const exampleOf = (syntax: string): string => SYNTAXES.get(syntax)!.example.replace(/\\n/g, '\n');

function modes(f: (typeof FAMILY_PARSERS)[number]): { label: string; options: FamilyParseOptions }[] {
  const servers = [...(f.vllm ? (['vllm'] as const) : []), ...(f.sglang ? (['sglang'] as const) : [])];
  return [{ label: 'default', options: { model: f.model, tools: TOOLS } }, ...servers.map((server) => ({ label: server, options: { model: f.model, tools: TOOLS, server } }))];
}

async function runnable(text: string, options: FamilyParseOptions): Promise<number> {
  const calls = toChatCompletion(parseFamilyToolCalls(text, options)).message?.tool_calls ?? [];
  if (calls.length === 0) return 0;
  return (await checkToolCalls(calls, TOOLS)).calls.filter((c) => c.runnable).length;
}

describe('every family: no strict prefix of a call is runnable', () => {
  for (const f of FAMILY_PARSERS) {
    it(`${f.model} (${f.syntax})`, async () => {
      const whole = exampleOf(f.syntax);
      // the whole call is runnable in the default reading: the property below is not empty
      expect(await runnable(whole, { model: f.model, tools: TOOLS })).toBeGreaterThan(0);
      const wrong: string[] = [];
      for (const before of ['', 'Let me check.\n']) {
        for (let k = 1; k < whole.length; k++) {
          const text = before + whole.slice(0, k);
          for (const { label, options } of modes(f)) if ((await runnable(text, options)) > 0) wrong.push(`${label}: ${JSON.stringify(text)}`);
        }
      }
      expect(wrong).toEqual([]);
    });
  }
});

describe('every family: a text split in two anywhere streams to the one-push result', () => {
  const plain = (v: unknown): string => JSON.stringify(v);
  for (const f of FAMILY_PARSERS) {
    it(`${f.model} (${f.syntax})`, () => {
      const syntax = SYNTAXES.get(f.syntax)!;
      const texts = [
        `Sure.\n${exampleOf(f.syntax)}`,
        // the syntax's control strings between words, where a reading may take them out of the content
        `Hello ${syntax.controls.join(' x ')} there`,
        ...(f.model === 'command-r7b' ? ['<|START_RESPONSE|>Hello<|END_RESPONSE|>', `<|START_THINKING|>plan<|END_THINKING|>${exampleOf(f.syntax)}`] : []),
        // bench/fuzz-parse.mjs seed 1, case 71186: a call whose value the reader repaired (no
        // </function> after it) was handed on early; a close tag at the very end makes its value run on
        ...(f.syntax === 'qwen3-coder'
          ? ['<tool_call>\n<function=get_weather>\n<parameter=city>\nQ\n</parameter>\n</fun<tool_call>\n<function=get_weather>\n<parameter=city>\nA\n</parameter>\n</function>\n</tool_call><tool_call>\n<function=get_weather>\n<parameter=city>\nB\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=get_time>\n<parameter=zone>\nCET\n</parameter>\n</function>\n</tool_call></parameter> ']
          : []),
      ];
      const wrong: string[] = [];
      for (const text of texts) {
        for (const { label, options } of modes(f)) {
          const want = plain(parseFamilyToolCalls(text, options));
          for (let k = 1; k < text.length; k++) {
            const p = createToolCallParser(options);
            p.push(text.slice(0, k));
            p.push(text.slice(k));
            if (plain(p.end().result) !== want) wrong.push(`${label} split at ${k}: ${JSON.stringify(text)}`);
          }
        }
      }
      expect(wrong).toEqual([]);
    });
  }
});
