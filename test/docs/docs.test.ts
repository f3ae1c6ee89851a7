/** The documentation keeps up with the code: every diagnostic code the conversation and parse stages emit is documented, and every local link resolves. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/shared.js';

/** Every `'family/code'` string literal of the files under a folder. */
function codesIn(dir: string, families: readonly string[]): Set<string> {
  const out = new Set<string>();
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) for (const m of readFileSync(p, 'utf8').matchAll(new RegExp(`'((?:${families.join('|')})/[a-z-]+)'`, 'g'))) out.add(m[1]);
    }
  };
  walk(join(ROOT, dir));
  return out;
}

describe('docs', () => {
  it('docs/conversations.md lists every conversation and request diagnostic code', () => {
    const doc = readFileSync(join(ROOT, 'docs/conversations.md'), 'utf8');
    const codes = codesIn('src/conversation', ['conversation', 'request']);
    expect(codes.size).toBeGreaterThan(20);
    for (const c of codes) expect(doc, c).toContain(`\`${c}\``);
  });

  it('docs/parsing.md lists every tool-call check and leak code', () => {
    const doc = readFileSync(join(ROOT, 'docs/parsing.md'), 'utf8');
    const codes = codesIn('src/parse', ['call', 'leak']);
    expect(codes.size).toBeGreaterThan(8);
    for (const c of codes) expect(doc, c).toContain(`\`${c}\``);
  });

  it('every relative link of README.md and docs/ points at a file that exists', () => {
    const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    for (const f of files) {
      for (const m of readFileSync(join(ROOT, f), 'utf8').matchAll(/\]\(([^)#:\s]+)(#[^)]*)?\)/g)) {
        expect(existsSync(resolve(dirname(join(ROOT, f)), m[1])), `${f}: ${m[1]}`).toBe(true);
      }
    }
  });
});

describe('docs/models.md', () => {
  it('names every model --model takes', async () => {
    const { modelNames } = await import('../../src/api/models.js');
    const doc = readFileSync(join(ROOT, 'docs/models.md'), 'utf8');
    for (const n of modelNames()) expect(doc, n).toContain(`\`${n}\``);
  });
});
