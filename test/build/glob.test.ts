import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expandGlob, isGlob } from '../../src/build/glob.js';

const dir = mkdtempSync(join(tmpdir(), 'hc-glob-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
for (const f of ['a.json', 'b.json', 'c.txt', 'ab.json', '.hidden.json', 'sub/d.json', 'sub/deep/e.json', 'sub/deep/f.txt', '.git/g.json', 'node_modules/x/h.json', 'other/i.json']) {
  mkdirSync(dirname(join(dir, f)), { recursive: true });
  writeFileSync(join(dir, f), '[]');
}

describe('expandGlob', () => {
  it.each<[string, string[]]>([
    ['*.json', ['a.json', 'ab.json', 'b.json']],
    ['?.json', ['a.json', 'b.json']],
    ['a*.json', ['a.json', 'ab.json']],
    ['**/*.json', ['a.json', 'ab.json', 'b.json', 'other/i.json', 'sub/d.json', 'sub/deep/e.json']],
    ['sub/**/*.json', ['sub/d.json', 'sub/deep/e.json']],
    ['sub/**', ['sub/d.json', 'sub/deep/e.json', 'sub/deep/f.txt']],
    ['*/d.json', ['sub/d.json']],
    ['./sub/*/e.json', ['sub/deep/e.json']],
    ['.*.json', ['.hidden.json']],
    ['node_modules/*/h.json', ['node_modules/x/h.json']],
    ['a.json', ['a.json']],
    ['missing.json', []],
    ['*.yaml', []],
    ['nope/**/*.json', []],
  ])('%s', (pattern, want) => {
    expect(expandGlob(pattern, dir)).toEqual(want);
  });

  it('an absolute pattern gives absolute paths', () => {
    expect(expandGlob(`${dir}/sub/*.json`, '/')).toEqual([`${dir}/sub/d.json`]);
  });

  it('regular-expression characters in a pattern are literal', () => {
    writeFileSync(join(dir, 'x+(1).json'), '[]');
    expect(expandGlob('x+(1).json', dir)).toEqual(['x+(1).json']);
    expect(expandGlob('x+(?).json', dir)).toEqual(['x+(1).json']);
    expect(expandGlob('x+*.json', dir)).toEqual(['x+(1).json']);
  });

  it('isGlob', () => {
    expect(isGlob('a/*.json')).toBe(true);
    expect(isGlob('a/?.json')).toBe(true);
    expect(isGlob('a/b.json')).toBe(false);
  });
});
