/** `harmony-catalog tokens`: the count (and ids) of a text under a tokenizer.json, a cached model id, or gpt-oss. */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GPT_OSS_TOKENIZER } from '../../src/tokenizers/index.js';
import { runCli } from '../support/cli.js';
import { HAVE_SHARED, ROOT, sharedMissingNote, sharedPath } from '../support/shared.js';
import { caseText, removeTokenizerFiles, tokenCases, tokenizerFile } from './support.js';
import { added, byteLevelToy } from './toy.js';

const tmp = mkdtempSync(join(tmpdir(), 'hc-tokens-cli-'));
const toy = join(tmp, 'toy', 'tokenizer.json');
mkdirSync(join(tmp, 'toy'));
writeFileSync(toy, JSON.stringify(byteLevelToy()));
const input = join(tmp, 'prompt.txt');
writeFileSync(input, '<|a|>hello world');
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
  removeTokenizerFiles();
});

describe('harmony-catalog tokens', () => {
  it('--help says what it counts and how; the top-level help lists the command', async () => {
    const r = await runCli(['tokens', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Usage: harmony-catalog tokens <file|-> [--tokenizer PATH|MODEL-ID|gpt-oss] [--ids] [--jsonl]');
    for (const s of ['--tokenizer', '--ids', '--jsonl', 'Hugging Face cache', 'no BOS/EOS', 'Exit codes']) expect(r.out).toContain(s);
    expect((await runCli(['--help'])).out).toMatch(/\n {2}tokens +the number of tokens/);
  });

  it('usage errors exit 2: no input, two inputs, an unknown option, an empty --tokenizer', async () => {
    for (const argv of [['tokens'], ['tokens', 'a', 'b'], ['tokens', '-', '--count'], ['tokens', '-', '--tokenizer', '']]) {
      const r = await runCli(argv, { stdin: 'x' });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toMatch(/^harmony-catalog: .+\nRun 'harmony-catalog tokens --help' for usage.\n$/);
    }
    expect((await runCli(['tokens', join(tmp, 'nope.txt')])).code).toBe(2);
  });

  it('without --tokenizer (or with gpt-oss), the o200k_harmony count of the text, its ids with --ids', async () => {
    const text = 'What is the weather in Paris?<|end|>';
    const want = GPT_OSS_TOKENIZER.encode(text);
    expect(await runCli(['tokens', '-'], { stdin: text })).toEqual({ code: 0, out: `${want.length}\n`, err: '' });
    expect(await runCli(['tokens', '-', '--tokenizer', 'gpt-oss', '--ids'], { stdin: text })).toEqual({ code: 0, out: `${want.length}\n${JSON.stringify(want)}\n`, err: '' });
  });

  it('--tokenizer: a tokenizer.json, its folder, or a model id in the Hugging Face cache', async () => {
    expect(await runCli(['tokens', input, '--tokenizer', toy, '--ids'])).toEqual({ code: 0, out: '7\n[300,259,260,111,114,108,100]\n', err: '' });
    expect((await runCli(['tokens', input, '--tokenizer', join(tmp, 'toy')])).out).toBe('7\n');
    const cache = join(tmp, 'hub');
    const snap = join(cache, 'models--Org--Toy', 'snapshots', 'abc');
    mkdirSync(snap, { recursive: true });
    writeFileSync(join(snap, 'tokenizer.json'), JSON.stringify(byteLevelToy({ added_tokens: [added(300, '<|a|>', { special: true }), added(301, 'hello world')] })));
    expect(await runCli(['tokens', input, '--tokenizer', 'Org/Toy'], { env: { HF_HUB_CACHE: cache } })).toEqual({ code: 0, out: '2\n', err: '' });
    const missing = await runCli(['tokens', input, '--tokenizer', 'Org/Missing'], { env: { HF_HUB_CACHE: cache } });
    expect(missing.code).toBe(1);
    expect(missing.err).toContain(`error [tokenizer/not-found]: Org/Missing: no such tokenizer file or folder, and the Hugging Face cache (${cache}) holds no tokenizer.json`);
  });

  it('a tokenizer that cannot be read: exit 1, one message naming the file', async () => {
    const bad = join(tmp, 'bad.json');
    writeFileSync(bad, 'not json');
    const r = await runCli(['tokens', input, '--tokenizer', bad]);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err.split('\n')[0]).toMatch(new RegExp(`^error \\[tokenizer/not-json\\]: ${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not a tokenizer.json: it is not JSON`));
    const gone = await runCli(['tokens', input, '--tokenizer', join(tmp, 'gone')]);
    expect(gone.code).toBe(1);
    expect(gone.err).toContain(`error [tokenizer/not-found]: ${join(tmp, 'gone')}: no such tokenizer file or folder`);
  });

  it('--jsonl: {"id", "text"} rows in, {"id", "count", "ids"?} rows out; a bad row is an {"id", "error"} row, and makes the exit status 1', async () => {
    const rows = [JSON.stringify({ id: 'a', text: 'hello world' }), '', JSON.stringify({ id: 2, text: '<think>' }), '{"id": "x", "text": ', JSON.stringify({ id: 'n', text: 5 }), '[1]'].join('\n');
    const r = await runCli(['tokens', '-', '--jsonl', '--tokenizer', toy], { stdin: rows });
    expect(r.code).toBe(1);
    expect(r.err).toBe('harmony-catalog: 3 of 5 cases failed (their lines hold "error")\n');
    const out = r.out.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(out.slice(0, 2)).toEqual([{ id: 'a', count: 6 }, { id: 2, count: 1 }]);
    expect(out[2]).toMatchObject({ id: null, error: expect.stringContaining('line 4 is not JSON') });
    expect(out[3]).toEqual({ id: 'n', error: 'line 5: "text" must be a string' });
    expect(out[4]).toEqual({ id: null, error: 'line 6 is not an object' });
    const ids = await runCli(['tokens', '-', '--jsonl', '--ids', '--tokenizer', toy], { stdin: rows });
    expect(JSON.parse(ids.out.split('\n')[0] as string)).toEqual({ id: 'a', count: 6, ids: [259, 260, 111, 114, 108, 100] });
  });

  describe('a closed output pipe ends the command quietly (the command as a process: src bundled by esbuild)', () => {
    const script = join(tmp, 'tokens-cli.mjs');
    beforeAll(async () => {
      await build({
        stdin: { contents: "import { tokensCommand } from './src/cli/tokens.ts';\nimport { processIo } from './src/cli/io.ts';\ntokensCommand(process.argv.slice(2), processIo()).then((c) => { process.exitCode = c; });\n", resolveDir: ROOT, loader: 'ts' },
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        outfile: script,
        logLevel: 'silent',
      });
    });

    it('tokens --jsonl --ids on 20,000 rows | head -1: exit 0, nothing on stderr', async () => {
      const rows = join(tmp, 'rows.jsonl');
      writeFileSync(rows, Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ id: i, text: `hello world number ${i}, `.repeat(20) })).join('\n'));
      const child = spawn(process.execPath, [script, rows, '--jsonl', '--ids', '--tokenizer', toy], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      let first = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.stdout.on('data', (d: Buffer) => {
        if (first === '') first = d.toString('utf8');
        child.stdout.destroy();
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      expect(first).toMatch(/^\{"id":0,"count":\d+,"ids":\[/);
      expect(stderr).toBe('');
      expect(code).toBe(0);
    }, 60_000);
  });
});

if (HAVE_SHARED) {
  describe('harmony-catalog tokens on a real tokenizer.json (shared/oracles/tokens)', () => {
    it('Qwen3: the count and ids the Rust tokenizers crate gives for a rendered prompt', async () => {
      const qwen = tokenizerFile('qwen3');
      const c = tokenCases('qwen3').find((x) => x.text_ref !== undefined && x.ids !== undefined);
      expect(c).toBeDefined();
      const r = await runCli(['tokens', '-', '--tokenizer', qwen, '--ids'], { stdin: caseText(c!) });
      expect(r).toEqual({ code: 0, out: `${c!.count}\n${JSON.stringify(c!.ids)}\n`, err: '' });
    });
  });
} else {
  describe('harmony-catalog tokens on a real tokenizer.json (not available)', () => {
    it('says plainly that the real tokenizer files are not used', () => {
      console.warn(sharedMissingNote('test/tokenizers/cli.test.ts'));
      expect(existsSync(sharedPath('oracles'))).toBe(false);
    });
  });
}
