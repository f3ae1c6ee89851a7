/**
 * The family readings over every ../shared/oracles/family-parse output, in every mode (the strict
 * reading and each server the row names):
 * - streaming: any split of the text (every position for short rows, characters and UTF-8 bytes;
 *   seeded random splits for the rest) gives the same result as one push, and the events add up
 *   to it (content, reasoning, calls);
 * - never runnable: a call the output cut off (mid-arguments, mid-name, in a second call) is never
 *   runnable by checkToolCalls in any mode; nothing throws.
 */
import { describe, expect, it } from 'vitest';
import { checkToolCalls } from '../../src/parse/check.js';
import { parseFamilyToolCalls, type FamilyParseOptions, type FamilyParseResult } from '../../src/parse/families/index.js';
import { createToolCallParser, type ToolCallEvent } from '../../src/parse/families/stream.js';
import { seededRandom } from '../support/random.js';
import { HAVE_SHARED, readJsonlPlain, sharedMissingNote, sharedPath } from '../support/shared.js';

interface Input {
  id: string;
  family: string;
  kind: string;
  output: string;
  tools: unknown[];
  servers: string[];
}

/** The oracle family → how a user names it: a `--model` family, or the server parser's name where no family has that syntax. */
const READ_AS: Readonly<Record<string, FamilyParseOptions>> = {
  llama3: { model: 'llama-3.1' },
  llama4_pythonic: { model: 'llama-4' },
  mistral_pre_v11: { model: 'mistral-nemo' },
  mistral_v11: { model: 'ministral-3' },
  deepseek_v3: { toolParser: 'deepseek_v3' },
  deepseek_v31: { model: 'deepseek-v3.1' },
  hermes_qwen3: { model: 'qwen3' },
  qwen3_coder: { model: 'qwen3-coder' },
  glm45: { model: 'glm-4.6' },
  glm47: { model: 'glm-4.7' },
  kimi_k2: { model: 'kimi-k2' },
  minimax_m2: { model: 'minimax-m2' },
  seed_oss: { model: 'seed-oss' },
  granite4: { model: 'granite-4.0' },
  granite3: { model: 'granite-3.3' },
  gemma4: { model: 'gemma-4' },
  phi4_mini: { model: 'phi-4-mini' },
  apertus: { toolParser: 'apertus' },
  lfm2: { toolParser: 'lfm2' },
  olmo3: { toolParser: 'olmo3' },
  hunyuan_a13b: { toolParser: 'hunyuan_a13b' },
  hy_v3: { toolParser: 'hy_v3' },
};

/** Every mode of a row: the strict reading, and each server's parser by name. */
function modes(input: Input): { label: string; options: FamilyParseOptions }[] {
  const base = READ_AS[input.family]!;
  return [
    { label: 'strict', options: { ...base, tools: input.tools } },
    ...input.servers.map((key) => {
      const [server, name] = key.split(':') as ['vllm' | 'sglang', string];
      return { label: key, options: { toolParser: name, server, tools: input.tools } };
    }),
  ];
}

function plain(r: FamilyParseResult): unknown {
  return { content: r.content, reasoning_content: r.reasoning_content, tool_calls: r.tool_calls.map((c) => c.function), diagnostics: r.diagnostics };
}

/** What the events add up to. */
function added(events: readonly ToolCallEvent[]): { content: string; reasoning: string; calls: { name: string; arguments: string }[] } {
  let content = '';
  let reasoning = '';
  const calls: { name: string; arguments: string }[] = [];
  for (const e of events) {
    if (e.type === 'content') content += e.delta;
    else if (e.type === 'reasoning') reasoning += e.delta;
    else if (e.type === 'call-start') calls[e.index] = { name: e.name, arguments: '' };
    else if (e.type === 'call-arguments') calls[e.index]!.arguments += e.delta;
  }
  return { content, reasoning, calls };
}

function streamed(text: string | Uint8Array, cuts: readonly number[], options: FamilyParseOptions): { events: ToolCallEvent[]; result: FamilyParseResult } {
  const p = createToolCallParser(options);
  const events: ToolCallEvent[] = [];
  let at = 0;
  for (const c of [...cuts, text.length]) {
    events.push(...p.push(text.slice(at, c)));
    at = c;
  }
  const end = p.end();
  return { events: [...events, ...end.events], result: end.result };
}

if (HAVE_SHARED) {
  const inputs = readJsonlPlain<Input>(sharedPath('oracles/family-parse/inputs.jsonl'));
  describe('family readings over the family-parse outputs', () => {
    it('streaming: any split gives the one-push result, and the events add up to it', () => {
      const random = seededRandom(21);
      let runs = 0;
      const wrong: string[] = [];
      for (const input of inputs) {
        const bytes = new TextEncoder().encode(input.output);
        for (const { label, options } of modes(input)) {
          const whole = parseFamilyToolCalls(input.output, options);
          const want = JSON.stringify(plain(whole));
          const splits: { text: string | Uint8Array; cuts: number[] }[] = [];
          if (input.output.length <= 160) for (let k = 1; k < input.output.length; k++) splits.push({ text: input.output, cuts: [k] });
          for (let n = 0; n < 6; n++) {
            const cuts = [...new Set(Array.from({ length: 1 + Math.floor(random() * 12) }, () => Math.floor(random() * input.output.length)))].sort((a, b) => a - b);
            splits.push({ text: input.output, cuts });
            const bcuts = [...new Set(Array.from({ length: 1 + Math.floor(random() * 12) }, () => Math.floor(random() * bytes.length)))].sort((a, b) => a - b);
            splits.push({ text: bytes, cuts: bcuts });
          }
          splits.push({ text: input.output, cuts: Array.from({ length: input.output.length - 1 }, (_, k) => k + 1) });
          for (const s of splits) {
            runs++;
            const { events, result } = streamed(s.text, s.cuts, options);
            const got = JSON.stringify(plain(result));
            const sum = added(events);
            const ok = got === want && sum.content === (result.content ?? '') && sum.reasoning === (result.reasoning_content ?? '') && JSON.stringify(sum.calls) === JSON.stringify(result.tool_calls.map((c) => c.function));
            if (!ok && wrong.length < 10) wrong.push(`${input.id} ${label} cuts ${s.cuts.slice(0, 8).join(',')}${typeof s.text === 'string' ? '' : ' (bytes)'}: ${got === want ? `events add up to ${JSON.stringify(sum)}` : `result ${got}\n  want ${want}`}`);
          }
        }
      }
      console.log(`family readings streamed: ${runs} splits over ${inputs.length} outputs, every mode`);
      expect(wrong).toEqual([]);
    });

    it('never runnable: a call the output cut off is never runnable, in any mode', async () => {
      let checked = 0;
      const wrong: string[] = [];
      for (const input of inputs.filter((i) => i.kind.startsWith('truncated_'))) {
        for (const { label, options } of modes(input)) {
          const r = parseFamilyToolCalls(input.output, options);
          const checks = await checkToolCalls(r.tool_calls, input.tools);
          const runnable = checks.calls.filter((c) => c.runnable).length;
          // the cut falls in the only call, or in the second of two
          const allowed = input.kind === 'truncated_second_call' ? 1 : 0;
          checked++;
          if (runnable > allowed) wrong.push(`${input.id} ${label}: ${runnable} runnable of ${JSON.stringify(r.tool_calls.map((c) => c.function))}`);
        }
      }
      console.log(`cut-off outputs read in every mode: ${checked}, cut calls runnable: ${wrong.length}`);
      expect(wrong).toEqual([]);
    });
  });
} else {
  describe('family readings over the family-parse outputs (not available)', () => {
    it('says plainly that it did not run', () => {
      console.log(sharedMissingNote('family-parse readings'));
      expect(HAVE_SHARED).toBe(false);
    });
  });
}
