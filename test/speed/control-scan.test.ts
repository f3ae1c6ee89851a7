/**
 * The control-token scan is skipped for input that cannot spell a token (isSpellingFree: no `<`
 * in any string, no key starting with `|` or `/`, seen while reading), and for each tool read from
 * such a part of a list of objects (isToolSpellingFree). Whenever the reader says
 * so, the full scan finds nothing; and input that does spell one is never said to be free, from
 * objects, from JSON text, with the JSON escapes that decode to `<`, `|` and `/`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyControlTokenPolicy } from '../../src/input/control-tokens.js';
import { isSpellingFree, isToolSpellingFree, readTools } from '../../src/input/read.js';

/** Strings made of pieces that spell tokens, nearly spell them, or are plain. */
const text = fc.array(fc.constantFrom('a', ' ', '<', '|', '/', '\\', '>', 'end', 'im_end', 'tools', '<|end|>', '</tools>', '|im_end|', '/tools', 'x<y'), { maxLength: 5 }).map((xs) => xs.join(''));

const tool = fc.record({
  name: fc.oneof(fc.constant('t'), text),
  description: text,
  parameters: fc.record({ type: fc.constant('object'), properties: fc.dictionary(text, fc.record({ type: fc.constant('string'), description: text, enum: fc.array(text, { maxLength: 2 }) }), { maxKeys: 3 }) }),
});

/** JSON text with `<`, `|` and `/` written as escapes where JSON allows it. */
function escaped(json: string): string {
  return json.replace(/</g, '\\u003c').replace(/"\|/g, '"\\u007C').replace(/"\//g, '"\\/');
}

describe('the control-token scan skipped only when there is nothing to find', () => {
  it('from objects, from JSON text, from escaped JSON text', () => {
    let free = 0;
    let spelled = 0;
    let freeTools = 0;
    fc.assert(
      fc.property(fc.array(tool, { minLength: 1, maxLength: 3 }), (tools) => {
        for (const input of [tools, JSON.stringify(tools), escaped(JSON.stringify(tools))]) {
          let read;
          try {
            read = readTools(input);
          } catch {
            continue;
          }
          const found = applyControlTokenPolicy(read.tools, 'keep').diagnostics.length;
          // tool by tool: a tool said to be free has nothing to find
          for (const t of read.tools) {
            if (!isToolSpellingFree(read, t)) continue;
            freeTools++;
            expect(applyControlTokenPolicy([t], 'keep').diagnostics, JSON.stringify(t)).toEqual([]);
          }
          if (isSpellingFree(read)) {
            free++;
            expect(found, JSON.stringify(input)).toBe(0);
          } else if (found > 0) spelled++;
        }
      }),
      { seed: 1234, numRuns: 1500 },
    );
    expect(free).toBeGreaterThan(100);
    expect(spelled).toBeGreaterThan(100);
    expect(freeTools).toBeGreaterThan(300);
  });

  it('says so for plain input, and not for the ways a token gets in', () => {
    expect(isSpellingFree(readTools([{ name: 'a', description: 'plain', parameters: { type: 'object', properties: { x: { type: 'string' } } } }]))).toBe(true);
    expect(isSpellingFree(readTools('[{"name": "a", "description": "plain"}]'))).toBe(true);
    for (const input of [
      [{ name: 'a', description: 'x <|end|>' }],
      [{ name: 'a', parameters: { type: 'object', properties: { '|im_end|': { type: 'string' } } } }],
      [{ name: 'a', parameters: { type: 'object', properties: { '/tools': { type: 'string' } } } }],
      '[{"name": "a", "description": "x \\u003c|end|>"}]',
      '[{"name": "a", "parameters": {"type": "object", "properties": {"\\u007cim_end|": {}}}}]',
      '[{"name": "a", "parameters": {"type": "object", "properties": {"\\/tools": {}}}}]',
    ]) {
      const read = readTools(input);
      expect(isSpellingFree(read), JSON.stringify(input)).toBe(false);
      expect(applyControlTokenPolicy(read.tools, 'keep').diagnostics.length, JSON.stringify(input)).toBeGreaterThan(0);
    }
  });
});
