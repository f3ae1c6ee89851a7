/**
 * The document size readTools counts (every value, the nesting of containers) and the pre-pass's
 * use of it: a bound within the limits skips the size walk; the verdict and the diagnostics are
 * those of the walk, whatever the limits.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileTools } from '../../src/api/compile.js';
import { renderCatalog } from '../../src/api/render.js';
import { isCompileError } from '../../src/diagnostics.js';
import { parseJsonSpans } from '../../src/ir/json.js';
import { documentSize, readTools } from '../../src/input/read.js';
import { lowerTool } from '../../src/lower/index.js';

describe('the size of a document', () => {
  it.each([
    ['5', 1, 0],
    ['"s"', 1, 0],
    ['[]', 1, 1],
    ['{}', 1, 1],
    ['[1, {"a": [true]}]', 5, 3],
    ['{"a": {"b": {"c": {}}}, "d": [[], null]}', 7, 4],
    ['[{"name": "f", "parameters": {"type": "object"}}]', 5, 3],
  ])('%s: %i values, %i levels (counted by hand)', (text, values, depth) => {
    const r = parseJsonSpans(text);
    expect([r.values, r.depth]).toEqual([values, depth]);
  });

  it('readTools counts the same for JSON text and for the same plain objects', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (v) => {
        const tools = [{ name: 'f', parameters: { type: 'object', properties: { a: { default: v } } } }];
        const fromText = documentSize(readTools(JSON.stringify(tools)));
        const fromObjects = documentSize(readTools(tools));
        expect(fromText).toBeDefined();
        // -0 and other numbers JSON.stringify rewrites count the same: one value each
        expect(fromObjects).toEqual(fromText);
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it('is not known for a value read as it is (a lossless JsonValue)', () => {
    const parsed = parseJsonSpans('[{"name": "f"}]').value;
    expect(documentSize(readTools(parsed))).toBeUndefined();
  });
});

describe('the pre-pass with a size bound', () => {
  /** A tool whose schema nests `depth` objects and lists `width` enum values at the bottom. */
  const tool = (depth: number, width: number) => {
    let schema: Record<string, unknown> = { type: 'string', enum: Array.from({ length: width }, (_, k) => `v${k}`) };
    for (let k = 0; k < depth; k++) schema = { type: 'object', properties: { x: schema } };
    return [{ name: 'f', parameters: schema }];
  };

  it('gives the walk’s verdict and diagnostics at every limit around the schema’s size', () => {
    let refused = 0;
    let skipped = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 120 }), (depth, width, maxDepth, maxNodes) => {
        const read = readTools(tool(depth, width));
        const size = documentSize(read);
        expect(size).toBeDefined();
        const limits = { maxDepth, maxNodes };
        const walked = lowerTool(read.tools[0]!, { limits });
        const bounded = lowerTool(read.tools[0]!, { limits, sizeBound: size });
        expect(bounded.diagnostics).toEqual(walked.diagnostics);
        expect(bounded.tool).toEqual(walked.tool);
        if (walked.diagnostics.some((d) => d.severity === 'error')) refused++;
        if (size && 1 + 2 * size.values <= maxNodes && size.depth <= maxDepth * 2 + 2) skipped++;
      }),
      { seed: 11, numRuns: 1500 },
    );
    // both sides of the limits were tried: schemas refused, and schemas whose walk the bound skipped
    expect(refused).toBeGreaterThan(100);
    expect(skipped).toBeGreaterThan(100);
  });

  it('a schema beyond the limits is still refused through the API (the bound does not hide it)', () => {
    const properties = Object.fromEntries(Array.from({ length: 200 }, (_, k) => [`p${k}`, { type: 'string' }]));
    const big = [{ name: 'f', parameters: { type: 'object', properties } }];
    expect(() => compileTools(big, { limits: { maxNodes: 100 } })).toThrow();
    try {
      compileTools(big, { limits: { maxNodes: 100 } });
    } catch (e) {
      expect(isCompileError(e) && e.diagnostics.map((d) => d.code)).toEqual(['schema/too-large']);
    }
    expect(renderCatalog(big).text).toContain('type f = (_:');
  });
});
