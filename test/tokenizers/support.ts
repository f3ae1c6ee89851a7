/** The shared token oracle (../shared/oracles/tokens) for the tokenizer tests: its tokenizer files gunzipped at run time, its cases' texts. */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sharedPath } from '../support/shared.js';

/** One row of cases-<name>.jsonl. */
export interface TokenCase {
  readonly id: string;
  readonly tokenizer: string;
  readonly text?: string;
  readonly text_parts?: readonly (readonly [string, number])[];
  readonly text_ref?: { readonly file: string; readonly id: string };
  readonly text_sha256: string;
  readonly count: number;
  readonly ids?: readonly number[];
  readonly ids_sha256?: string;
}

/** The oracle's manifest.json. */
export interface TokenManifest {
  readonly tokenizers: Readonly<Record<string, { readonly sha256: string; readonly bytes: number }>>;
  readonly counts: Readonly<Record<string, { readonly visible: number }>>;
}

/** The oracle's manifest. */
export function tokenManifest(): TokenManifest {
  return JSON.parse(readFileSync(sharedPath('oracles', 'tokens', 'manifest.json'), 'utf8')) as TokenManifest;
}

/** The cases of one tokenizer. */
export function tokenCases(name: string): TokenCase[] {
  return readFileSync(sharedPath('oracles', 'tokens', `cases-${name}.jsonl`), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as TokenCase);
}

const prompts = new Map<string, Map<string, string>>();

/** The text of a case: inline, built by repetition, or the prompt of the referenced oracle row. */
export function caseText(c: TokenCase): string {
  if (c.text !== undefined) return c.text;
  if (c.text_parts) return c.text_parts.map(([s, n]) => s.repeat(n)).join('');
  if (!c.text_ref) throw new Error(`${c.id}: no text, text_parts or text_ref`);
  let rows = prompts.get(c.text_ref.file);
  if (!rows) {
    rows = new Map();
    for (const line of readFileSync(sharedPath('oracles', c.text_ref.file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const r = JSON.parse(line) as { id: string; prompt?: string };
      if (typeof r.prompt === 'string') rows.set(r.id, r.prompt);
    }
    prompts.set(c.text_ref.file, rows);
  }
  const prompt = rows.get(c.text_ref.id);
  if (prompt === undefined) throw new Error(`${c.id}: ${c.text_ref.file} has no prompt for ${c.text_ref.id}`);
  return prompt;
}

/** sha256 of text (UTF-8), hex. */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

let dir: string | undefined;

/** A temporary folder for this test file's gunzipped tokenizers (removed by removeTokenizerFiles). */
function tempDir(): string {
  dir ??= mkdtempSync(join(tmpdir(), 'hc-tokenizers-'));
  return dir;
}

/** Gunzip ../shared/oracles/tokens/tokenizers/<name>/tokenizer.json.gz into a temp folder (checked against the manifest's sha256); its path. */
export function tokenizerFile(name: string): string {
  const folder = join(tempDir(), name);
  const path = join(folder, 'tokenizer.json');
  const bytes = gunzipSync(readFileSync(sharedPath('oracles', 'tokens', 'tokenizers', name, 'tokenizer.json.gz')));
  const want = tokenManifest().tokenizers[name]?.sha256;
  const got = createHash('sha256').update(bytes).digest('hex');
  if (got !== want) throw new Error(`${name}: the gunzipped tokenizer.json has sha256 ${got}, the manifest says ${want}`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path, bytes);
  return path;
}

/** Remove the temporary tokenizer files. */
export function removeTokenizerFiles(): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
}
