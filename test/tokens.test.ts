import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import {
  HARMONY_SPECIAL_TOKENS,
  countMessageTokens,
  countTextTokens,
  encodeMessage,
  encodeText,
} from '../src/tokens.js';
import { HAVE_SHARED, readJsonlPlain, sharedMissingNote, sharedPath } from './support/shared.js';

interface HarmonyRow {
  readonly id: string;
  readonly developer?: string;
  readonly developer_tokens?: number;
  readonly error?: string;
}

const FIRST_SPECIAL_ID = 199998;

/** Developer content as the reference prints it for a one-tool catalog with `x` of the given property line. */
function dev(toolComment: string, typeName: string, propLine: string): string {
  return `# Tools\n\n## functions\n\nnamespace functions {\n\n// ${toolComment}\ntype ${typeName} = (_: {\n${propLine}\n}) => any;\n\n} // namespace functions`;
}

describe('o200k_harmony token counts, built-in (always run)', () => {
  // Ids from openai-harmony's own test files (golden/test_simple_reasoning_response.txt, test_simple_tool_call.txt).
  it.each([
    ['User asks: "What is 2 + 2?" Simple arithmetic. Provide answer.', [1844, 31064, 25, 392, 4827, 382, 220, 17, 659, 220, 17, 16842, 12295, 81645, 13, 51441, 6052, 13]],
    ['User asks: "What is the weather in Tokyo?" We need to use lookup_weather tool.', [1844, 31064, 25, 392, 4827, 382, 290, 11122, 306, 40510, 16842, 1416, 1309, 316, 1199, 37342, 170154, 4584, 13]],
    ['analysis', [35644]],
    ['2 + 2 = 4.', [17, 659, 220, 17, 314, 220, 19, 13]],
    ['', []],
  ])('encodeText(%j)', (text, ids) => {
    expect(encodeText(text)).toEqual(ids);
    expect(countTextTokens(text)).toBe(ids.length);
  });

  it('encodes a header with <|channel|> as an envelope token (upstream ids)', () => {
    const ids = encodeMessage({ header: 'assistant<|channel|>final', content: '2 + 2 = 4.' });
    expect(ids).toEqual([200006, 173781, 200005, 17196, 200008, 17, 659, 220, 17, 314, 220, 19, 13, 200007]);
    expect(countMessageTokens({ header: 'assistant<|channel|>final', content: '2 + 2 = 4.' })).toBe(ids.length);
    const call = encodeMessage({ header: 'assistant to=lookup_weather<|channel|>analysis code', content: '{"location": "Tokyo"}', end: '<|call|>' });
    expect(call.slice(0, 9)).toEqual([200006, 173781, 316, 28, 29712, 170154, 200005, 35644, 3490]);
    expect(call.slice(9)).toEqual([200008, 10848, 7693, 1243, 392, 173844, 18583, 200012]);
  });

  it('counts <|constrain|> in a header as one token and ends with the requested token', () => {
    const header = 'assistant to=functions.f<|channel|>commentary <|constrain|>json';
    const ids = encodeMessage({ header, content: '{}', end: '<|call|>' });
    expect(ids.filter((id) => id >= FIRST_SPECIAL_ID)).toEqual([200006, 200005, 200003, 200008, 200012]);
    expect(countMessageTokens({ header, content: '{}', end: '<|call|>' })).toBe(ids.length);
    expect(encodeMessage({ header: 'assistant', content: 'x', end: '<|return|>' }).at(-1)).toBe(HARMONY_SPECIAL_TOKENS['<|return|>']);
  });

  it('treats special-token spellings in text as ordinary text, anywhere, without throwing', () => {
    for (const spelling of Object.keys(HARMONY_SPECIAL_TOKENS)) {
      for (const text of [spelling, `a ${spelling} b`, `${spelling}${spelling}`]) {
        const ids = encodeText(text);
        expect(ids.length).toBeGreaterThan(1);
        expect(ids.every((id) => id < FIRST_SPECIAL_ID)).toBe(true);
        expect(countTextTokens(text)).toBe(ids.length);
      }
    }
    // a header's other specials are text too; only <|channel|> and <|constrain|> are envelope tokens
    const ids = encodeMessage({ header: 'user<|end|>', content: '<|start|>assistant<|message|>hi' });
    expect(ids.filter((id) => id >= FIRST_SPECIAL_ID)).toEqual([200006, 200008, 200007]);
  });

  // Developer messages with the counts openai-harmony gave (synthetic/visible/harmony.jsonl), kept here.
  it.each([
    ['type-string-optional', dev('Test tool.', 'f', 'x?: string,'), 34],
    ['enum-string-special-token', dev('Test tool.', 'f', 'x?: "<|end|>" | "<|call|>",'), 43],
    ['tool-desc-special-end', dev('Stop <|end|> here.', 'f', 'x?: string,'), 39],
    ['tool-desc-special-start', dev('<|start|>assistant<|message|>hi', 'f', 'x?: string,'), 44],
    ['tool-name-special-token', dev('Test tool.', 'f<|end|>', 'x?: string,'), 39],
  ])('developer message %s', (_id, content, tokens) => {
    expect(countMessageTokens({ header: 'developer', content })).toBe(tokens);
    expect(encodeMessage({ header: 'developer', content })).toHaveLength(tokens);
  });

  it('HARMONY_SPECIAL_TOKENS holds the spec §7 ids', () => {
    expect(HARMONY_SPECIAL_TOKENS).toEqual({
      '<|startoftext|>': 199998,
      '<|endoftext|>': 199999,
      '<|return|>': 200002,
      '<|constrain|>': 200003,
      '<|channel|>': 200005,
      '<|start|>': 200006,
      '<|end|>': 200007,
      '<|message|>': 200008,
      '<|call|>': 200012,
    });
  });
});

describe('o200k_harmony token counts vs the openai-harmony oracle', () => {
  if (!HAVE_SHARED) {
    it('oracle files present', () => {
      console.log(sharedMissingNote('tokens'));
      expect(HAVE_SHARED).toBe(false); // nothing to compare; the built-in cases above still ran
    });
    return;
  }

  const files = [
    'oracles/openai-harmony/corpus-single.jsonl',
    'oracles/openai-harmony/corpus-groups.jsonl',
    'oracles/synthetic/visible/harmony.jsonl',
  ];

  it.each(files)('%s: every developer message count is exact', (file) => {
    const path = sharedPath(file);
    expect(existsSync(path), `${path} missing`).toBe(true);
    const rows = readJsonlPlain<HarmonyRow>(path).filter((r) => typeof r.developer === 'string');
    const misses: string[] = [];
    let exact = 0;
    for (const row of rows) {
      const got = countMessageTokens({ header: 'developer', content: row.developer as string });
      if (got === row.developer_tokens) exact++;
      else misses.push(`${row.id}: got ${got}, want ${row.developer_tokens}`);
    }
    console.log(`tokens ${file}: ${exact}/${rows.length} exact`);
    expect(rows.length).toBeGreaterThan(0);
    expect(misses.slice(0, 20)).toEqual([]);
  });

  it('encodeMessage agrees with countMessageTokens and holds no special id beyond the envelope', () => {
    const rows = readJsonlPlain<HarmonyRow>(sharedPath('oracles/synthetic/visible/harmony.jsonl')).filter((r) => typeof r.developer === 'string');
    for (const row of rows) {
      const message = { header: 'developer', content: row.developer as string };
      const ids = encodeMessage(message);
      expect(ids.length, row.id).toBe(countMessageTokens(message));
      expect(ids.filter((id) => id >= FIRST_SPECIAL_ID), row.id).toEqual([200006, 200008, 200007]);
    }
  });

  it('timing: count all corpus-single developer texts concatenated (printed, not asserted)', () => {
    const rows = readJsonlPlain<HarmonyRow>(sharedPath('oracles/openai-harmony/corpus-single.jsonl'));
    const all = rows.map((r) => r.developer ?? '').join('');
    const times: number[] = [];
    let count = 0;
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      count = countTextTokens(all);
      times.push(performance.now() - t0);
    }
    const first = times[0];
    times.sort((a, b) => a - b);
    const median = (times[9] + times[10]) / 2;
    console.log(
      `tokens timing: ${rows.length} developer texts, ${all.length} chars, ${count} tokens; ` +
        `median of 20 runs ${median.toFixed(1)} ms (first run ${first.toFixed(1)} ms, min ${times[0].toFixed(1)} ms, max ${times[19].toFixed(1)} ms)`,
    );
    expect(count).toBeGreaterThan(0);
  });
});
