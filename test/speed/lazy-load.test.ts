/**
 * What importing the library loads: not gpt-tokenizer's o200k_base vocabulary (2.4 MB of
 * JavaScript, about 0.1 s), which only a token count, an encoding or the parser's decoding of token
 * ids needs; those load it on first use, and give the same answers as before (test/dump/tokens,
 * test/parse/harmony). Run against tsc's build (dist/) and the bundled library the package exports
 * (dist/lib/, what a user imports).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeText } from '../../src/tokens.js';
import { ensureBundles } from '../support/build.js';
import { ROOT } from '../support/shared.js';


beforeAll(() => ensureBundles(), 180_000);

const tmp = mkdtempSync(join(tmpdir(), 'hc-lazy-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * In a fresh node: import the library, run `then` on it, and list the gpt-tokenizer vocabulary files (bpeRanks) loaded
 * before and after: ES modules as a loader hook sees them, CommonJS in require's cache.
 */
function tokenizerFiles(index: string, then: string): { before: string[]; after: string[]; stderr: string } {
  const log = join(tmp, `loaded-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(log, '');
  const hooks = join(tmp, 'hooks.mjs');
  writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { appendFileSync(process.env.HC_LOG, url + '\\n'); return next(url, context); }\n`);
  const preload = join(tmp, 'preload.mjs');
  writeFileSync(preload, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  const script = `
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const loaded = () => [...Object.keys(createRequire(import.meta.url).cache), ...readFileSync(process.env.HC_LOG, 'utf8').split('\\n')].filter((f) => f.includes('gpt-tokenizer') && f.includes('bpeRanks'));
const lib = await import(${JSON.stringify(pathToFileURL(join(ROOT, index)).href)});
const before = loaded();
${then}
console.log(JSON.stringify({ before, after: loaded() }));
`;
  const r = spawnSync(process.execPath, ['--import', preload, '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, HC_LOG: log } });
  if (r.status !== 0) throw new Error(r.stderr);
  return { ...(JSON.parse(r.stdout) as { before: string[]; after: string[] }), stderr: r.stderr };
}

describe.each([
  ['tsc’s build', 'dist/index.js', 'dist/tokens.js'],
  ['the package (bundled)', 'dist/lib/index.js', 'dist/lib/tokens.js'],
])('importing the library: %s', (_, index, tokens) => {
  it('does not load the o200k vocabulary; a render does not either', () => {
    const r = tokenizerFiles(index, `lib.renderCatalog('[{"name":"f","parameters":{"type":"object","properties":{"a":{"type":"string"}}}}]');`);
    expect(r.before).toEqual([]);
    expect(r.after).toEqual([]);
  });

  it('the parser loads it when it decodes token ids, and decodes them', () => {
    // <|channel|>final<|message|>Hi there<|end|> as ids (encoded here, in the test's process)
    const ids = [200005, ...encodeText('final'), 200008, ...encodeText('Hi there'), 200007];
    const r = tokenizerFiles(index, `console.error(JSON.stringify(lib.parseHarmony(${JSON.stringify(ids)}).messages));`);
    expect(r.before).toEqual([]);
    expect(r.after.some((f) => f.includes('o200k_base'))).toBe(true);
    expect(r.stderr).toContain('"final"');
    expect(r.stderr).toContain('Hi there');
  });

  it('a token count loads it, and counts', () => {
    const r = tokenizerFiles(index, `const { countTextTokens } = await import(${JSON.stringify(pathToFileURL(join(ROOT, tokens)).href)}); console.error(countTextTokens('Hi there'));`);
    expect(r.before).toEqual([]);
    expect(r.after.some((f) => f.includes('o200k_base'))).toBe(true);
    expect(r.stderr.trim()).toBe(String(encodeText('Hi there').length));
  });
});
