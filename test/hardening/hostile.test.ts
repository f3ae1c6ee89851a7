/**
 * Hostile inputs (test/hardening/hostile-cases.mjs): each renders within a loose time bound or
 * fails with a clear CompileError, never a crash (no RangeError, no stack overflow), in every
 * printer it concerns. Real time and peak memory per case: `node bench/hostile.mjs`.
 */
import { describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';
import { HOSTILE_CASES, manyToolsText, nestedPropertiesText, runHostileCase } from './hostile-cases.mjs';

/** Loose bounds (a slow, shared 2-core machine): what matters is that nothing is quadratic or unbounded. */
const BOUND_MS: Record<string, number> = { 'schema-10mb': 40_000, 'tools-100000': 40_000, 'tools-100000-all-bad': 30_000, 'enum-100000': 30_000, 'control-tokens-1mb': 30_000, 'ref-chain-10000': 30_000 };

describe('hostile inputs: a clear error or a bounded output, never a crash', () => {
  for (const c of HOSTILE_CASES) {
    it(`${c.name}: ${c.what}`, () => {
      const t = performance.now();
      const r = runHostileCase(api, c);
      const ms = performance.now() - t;
      expect(r.bad, JSON.stringify(r.bad).slice(0, 500)).toEqual([]);
      expect(ms).toBeLessThan(BOUND_MS[c.name] ?? 10_000);
      if (c.minInputBytes) expect(r.inputBytes).toBeGreaterThanOrEqual(c.minInputBytes);
      // outputs stay in proportion to the input (no blow-up: a 2^40 ref fan-out is cut by the faithful expansion budget)
      for (const x of r.results) if (x.length !== undefined && r.inputBytes !== undefined) expect(x.length, x.name).toBeLessThan(20 * r.inputBytes + 1_000_000);
    }, 120_000);
  }

  it('the errors say what is wrong, where', () => {
    const deep = `[{"name":"f","parameters":${nestedPropertiesText(10000)}}]`;
    let e: unknown;
    try {
      api.renderCatalog(deep);
    } catch (x) {
      e = x;
    }
    expect(api.isCompileError(e)).toBe(true);
    expect((e as api.CompileError).diagnostics).toEqual([expect.objectContaining({ code: 'schema/too-deep', severity: 'error', tool: 'f', path: '/0/parameters' })]);
    expect((e as api.CompileError).message).toContain('nests deeper than 128 levels');
  });

  it('duplicate keys: the last value, at the first position (as serde_json and Python read them)', () => {
    const r = api.renderCatalog('[{"name": "a", "name": "b", "parameters": {"type": "object", "properties": {"x": {"type": "string"}, "y": {"type": "number"}, "x": {"type": "boolean"}}}}]');
    expect(r.text).toContain('type b = (_: {\nx?: boolean,\ny?: number,\n}) => any;');
  });

  it('$ref cycles and self references render with a warning, in every target', () => {
    const input = '[{"name": "f", "parameters": {"type": "object", "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}, "properties": {"a": {"$ref": "#/$defs/A"}, "me": {"$ref": "#/properties/me"}}}}]';
    const r = api.renderCatalog(input);
    expect(r.text).toContain('a?: any,\nme?: any,');
    const cycles = r.diagnostics.filter((d) => d.code === 'schema/ref-cycle');
    expect(cycles.map((d) => d.path)).toEqual(expect.arrayContaining(['/0/parameters/$defs/A/$ref', '/0/parameters/properties/me/$ref']));
    expect(cycles.every((d) => d.severity === 'warning')).toBe(true);
    for (const target of ['jsdoc', 'xml'] as const) expect(api.renderCatalog(input, { target }).text.length).toBeGreaterThan(0);
  });

  it('time grows linearly with the number of tools (5,000 vs 50,000: at most 20×, loosely; bench/hostile.mjs reports the real ratio)', () => {
    const small = manyToolsText(5000);
    const large = manyToolsText(50000);
    api.renderCatalog(manyToolsText(500));
    const time = (text: string) => {
      const runs: number[] = [];
      for (let i = 0; i < 3; i++) {
        const t = performance.now();
        // read afresh each time: a second renderCatalog of the same text is the cached result
        api.renderCatalog(api.readTools(text));
        runs.push(performance.now() - t);
      }
      // the fastest of three: the least disturbed by the other test files running beside this one
      return Math.min(...runs);
    };
    const ratio = time(large) / time(small);
    expect(ratio).toBeLessThan(20);
  }, 120_000);
});
