/**
 * Issue 22, item 12: a bound on input. Every command that reads a file or standard input reads at
 * most --max-input-bytes (default 256 MiB) of it: past the limit it stops reading and says so in
 * one line, exit 1; /dev/zero as a file or on stdin ends promptly instead of growing without end.
 */
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_INPUT_BYTES, InputTooLargeError, readFileBounded, readStreamBounded } from '../../src/cli/io.js';
import { runCli } from '../support/cli.js';
import { ROOT } from '../support/shared.js';

const tmp = mkdtempSync(join(tmpdir(), 'hc-input-limit-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const WEATHER_FILE = join(ROOT, 'examples/weather.json');
const WEATHER = readFileSync(WEATHER_FILE, 'utf8');
const SIZE = Buffer.byteLength(WEATHER);

/** Each command that reads input, with the arguments it needs besides the input. */
const COMMANDS: [string, string[]][] = [
  ['render', []],
  ['lint', []],
  ['diff', []],
  ['dump', []],
  ['report', []],
  ['tokens', []],
];

describe('--max-input-bytes', () => {
  it('the default is 256 MiB', () => {
    expect(DEFAULT_MAX_INPUT_BYTES).toBe(256 * 1024 * 1024);
  });

  for (const [command, extra] of COMMANDS) {
    it(`${command}: a file over the limit is refused in one line naming the file and the limit, exit 1`, async () => {
      const r = await runCli([command, WEATHER_FILE, ...extra, '--max-input-bytes', '100']);
      expect(r.code).toBe(1);
      expect(r.out).toBe('');
      expect(r.err).toBe(`harmony-catalog: ${WEATHER_FILE} is larger than the input limit of 100 bytes: stopped reading there (--max-input-bytes N reads more)\n`);
    });

    it(`${command}: standard input over the limit is refused the same way`, async () => {
      const r = await runCli([command, '-', ...extra, '--max-input-bytes', '512'], { stdin: WEATHER });
      expect(r.code).toBe(1);
      expect(r.err).toBe('harmony-catalog: standard input is larger than the input limit of 512 bytes: stopped reading there (--max-input-bytes N reads more)\n');
    });

    it(`${command}: an input of exactly the limit is read`, async () => {
      const r = await runCli([command, WEATHER_FILE, ...extra, '--max-input-bytes', String(SIZE)]);
      expect(r.err).not.toContain('input limit');
      expect(r.code === 0 || r.code === 1).toBe(true); // diff exits 1 when the flavors differ
      expect(r.out).not.toBe('');
    });
  }

  it('a value that is not a whole number of bytes is a usage error (exit 2)', async () => {
    for (const v of ['0', '-5', '1e6', '12MB', '']) {
      const r = await runCli(['render', WEATHER_FILE, `--max-input-bytes=${v}`]);
      expect(r.code, v).toBe(2);
      expect(r.err, v).toContain('--max-input-bytes must be a whole number of bytes');
    }
  });

  it('every reading command lists it in its --help', async () => {
    for (const [command] of COMMANDS) expect((await runCli([command, '--help'])).out, command).toContain('--max-input-bytes <n>');
  });
});

describe('reading stops at the limit', () => {
  it('a regular file over the limit is refused before it is read', () => {
    const big = join(tmp, 'big.json');
    writeFileSync(big, Buffer.alloc(5000, 0x20));
    expect(() => readFileBounded(big, 4999)).toThrow(InputTooLargeError);
    expect(readFileBounded(big, 5000).length).toBe(5000);
  });

  it.runIf(existsSync('/dev/zero'))('/dev/zero as a file: refused at the limit, promptly', () => {
    const t = Date.now();
    let err: unknown;
    try {
      readFileBounded('/dev/zero', 8 << 20);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputTooLargeError);
    expect((err as InputTooLargeError).message).toBe('/dev/zero is larger than the input limit of 8,388,608 bytes (8 MiB): stopped reading there (--max-input-bytes N reads more)');
    expect(Date.now() - t).toBeLessThan(5000);
  });

  it.runIf(existsSync('/dev/zero'))('/dev/zero as a stream (what stdin is with < /dev/zero): refused at the limit, the stream destroyed', async () => {
    const stream = createReadStream('/dev/zero');
    await expect(readStreamBounded(stream, 8 << 20, 'standard input')).rejects.toThrow('standard input is larger than the input limit of 8,388,608 bytes (8 MiB)');
    expect(stream.destroyed).toBe(true);
  });

  it.runIf(existsSync('/dev/zero'))('render /dev/zero ends with exit 1 at the limit', async () => {
    const r = await runCli(['render', '/dev/zero', '--max-input-bytes', String(4 << 20)]);
    expect(r.code).toBe(1);
    expect(r.err).toBe('harmony-catalog: /dev/zero is larger than the input limit of 4,194,304 bytes (4 MiB): stopped reading there (--max-input-bytes N reads more)\n');
  });

  it('a stream within the limit is read whole', async () => {
    async function* chunks() {
      yield Buffer.from('ab');
      yield 'cd';
    }
    expect((await readStreamBounded(chunks(), 4, 'x')).toString()).toBe('abcd');
    await expect(readStreamBounded(chunks(), 3, 'x')).rejects.toThrow(InputTooLargeError);
  });
});
