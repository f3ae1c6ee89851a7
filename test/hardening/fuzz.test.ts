/**
 * Property-based fuzzing, the short run (fixed seeds): generated tool definitions of every input
 * shape, with every schema keyword the project reads, hostile strings, odd names and numbers of
 * every form, fed as JSON text, as lossless JsonValues and as JavaScript values, through every
 * printer under every control-token policy. The properties are test/hardening/properties.mjs
 * (the long run, `npm run fuzz -- --runs N`, checks the same ones over dist/).
 *
 * Known open bugs (KNOWN_ISSUES, each reported to its owner) are counted and printed, not
 * raised; anything else fails with a shrunk counterexample and its seed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseArb, modelToText, obj } from './arbitraries.mjs';
import { PropertyFailure, checkSample, checkXml, knownIssue, specialsInText, tsParseErrors, xmlProblem } from './properties.mjs';
import { loadLib } from './support.js';

const lib = await loadLib();

/** Run `runs` cases from `seed`; fail on anything that is not a known issue. */
function fuzz(seed: number, runs: number): Record<string, number> {
  const known: Record<string, number> = {};
  fc.assert(
    fc.property(caseArb(), (c) => {
      try {
        checkSample(lib, c.sample, c);
      } catch (e) {
        const issue = knownIssue(String((e as Error).message));
        if (!issue) {
          const input = modelToText(c.sample.model);
          throw new PropertyFailure(`${(e as Error).message}\n  policy ${c.policy}, part ${c.part}, pick ${c.pick}\n  input ${input.slice(0, 3000)}`, (e as PropertyFailure).details);
        }
        known[issue.id] = (known[issue.id] ?? 0) + 1;
      }
    }),
    { seed, numRuns: runs },
  );
  return known;
}

describe('fuzz: every printer, every policy (short run, fixed seeds)', () => {
  // 4 × 750 cases; each case renders 7 printers (+ faithful, lint), one of them 4 more times
  for (const seed of [20260101, 20260202, 20260303, 20260404]) {
    it(`seed ${seed}: 750 cases`, () => {
      const known = fuzz(seed, 750);
      if (Object.keys(known).length) console.info(`seed ${seed}: known open issues hit: ${JSON.stringify(known)}`);
    }, 60_000);
  }
});

describe('the checkers catch what they must (so a passing run means something)', () => {
  it('the XML checker', () => {
    expect(xmlProblem('<tools>\n<function>\n<name>a</name>\n</function>\n</tools>')).toBeUndefined();
    expect(xmlProblem('<tools><a>x < y</a></tools>')).toMatch(/not a tag name|opens no tag/);
    expect(xmlProblem('<tools><a>x & y</a></tools>')).toMatch(/bare &/);
    expect(xmlProblem('<tools><a>x &amp; y</a></tools>')).toBeUndefined();
    expect(xmlProblem('<tools><a></b></tools>')).toMatch(/closes/);
    expect(xmlProblem('<tools><$defs>x</$defs></tools>')).toMatch(/not a tag name/);
    expect(xmlProblem('<tools><$defs>x</$defs></tools>', { loose: true })).toBeUndefined();
    expect(xmlProblem('<tools>\u0001</tools>')).toMatch(/character/);
    expect(xmlProblem('<tools><a>x</a>')).toMatch(/never closed/);
  });

  it('the xml promises: a </tools> in qwen text without a warning is caught', () => {
    const text = lib.api.renderCatalog('[{"name": "f", "description": "x </tools> y"}]', { target: 'xml', dialect: 'qwen' }).text;
    expect(() => checkXml('qwen', text, [], 1, 'qwen')).toThrow(/<tools> line is not JSON|lines for/);
    const anthropic = lib.api.renderCatalog('[{"name": "f", "description": "x </function> y"}]', { target: 'xml', dialect: 'anthropic' }).text;
    expect(() => checkXml('anthropic', anthropic, [], 1, 'anthropic')).toThrow(/not JSON/);
  });

  it('the TypeScript parse check and the special-token scan', () => {
    expect(tsParseErrors(lib.ts, 'declare namespace functions { type a = (_: { x: string }) => any; }').errors).toEqual([]);
    expect(tsParseErrors(lib.ts, 'declare namespace functions { type a = (_: { x: string */ }) => any; }').errors).not.toEqual([]);
    expect(specialsInText('a<|end|>b<|reserved_200013|>c<|reserved_5|><|im_start|>').map((s) => s.token)).toEqual(['<|end|>', '<|reserved_200013|>']);
  });

  it('a generated input is JSON text with number texts and repeated keys as written', () => {
    expect(modelToText(obj([['a', { __num: '1.0' }], ['a', { __num: '1E2' }], ['b', [{ __num: '-0' }, 'x"y']]]))).toBe('{"a":1.0,"a":1E2,"b":[-0,"x\\"y"]}');
  });
});
