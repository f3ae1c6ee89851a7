/**
 * The official chat templates shipped under src/models/templates/: each text is checked against the
 * git blob id its provenance records (this needs nothing outside the project), each module is what
 * scripts/import-template.mjs writes for that text and provenance, and, when ../shared is present,
 * each text equals the template the oracles were rendered with, byte for byte.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { officialTemplate, TEMPLATES, type TemplateName } from '../../src/models/templates/index.js';
import type { OfficialTemplate } from '../../src/models/types.js';
import { HAVE_SHARED, ROOT, sharedMissingNote, sharedPath } from '../support/shared.js';

const DIR = join(ROOT, 'src/models/templates');
const SCRIPT = join(ROOT, 'scripts/import-template.mjs');

/** The git blob id of a text's UTF-8 bytes (what `git hash-object` prints for a file holding them). */
function gitBlobId(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** Where, under ../shared/oracles, the template each family's oracles were rendered with lives. */
const SHARED_TEMPLATE: Readonly<Record<TemplateName, string>> = {
  'llama-3.1': 'families/meta-llama-Llama-3.1-8B-Instruct/template.jinja',
  'llama-3.2': 'families/meta-llama-Llama-3.2-3B-Instruct/template.jinja',
  'llama-4': 'families/meta-llama-Llama-4-Scout-17B-16E-Instruct/template.jinja',
  'mistral-nemo': 'families/mistralai-Mistral-Nemo-Instruct-2407/template.jinja',
  'ministral-3': 'families/mistralai-Ministral-3-14B-Reasoning-2512/template.jinja',
  'kimi-k2': 'families/moonshotai-Kimi-K2-Instruct/template.jinja',
  'kimi-k2-thinking': 'families/moonshotai-Kimi-K2-Thinking/template.jinja',
  'glm-4.6': 'families/zai-org-GLM-4.6/template.jinja',
  'glm-4.7': 'families/zai-org-GLM-4.7-Flash/template.jinja',
  'minimax-m2': 'families/MiniMaxAI-MiniMax-M2/template.jinja',
  'functionary-3.2': 'families/meetkai-functionary-medium-v3.2/template.jinja',
  'functionary-3.1': 'families/meetkai-functionary-medium-v3.1/template.jinja',
  'command-r7b': 'families/CohereForAI-c4ai-command-r7b-12-2024-tool_use/template.jinja',
  'command-r-plus': 'families/CohereForAI-c4ai-command-r-plus-tool_use/template.jinja',
  'granite-3.3': 'families/ibm-granite-granite-3.3-2B-Instruct/template.jinja',
  'granite-4.0': 'families/ibm-granite-granite-4.0/template.jinja',
  'nemotron-nano-2': 'families/NVIDIA-Nemotron-Nano-v2/template.jinja',
  'seed-oss': 'families/ByteDance-Seed-OSS/template.jinja',
  'gemma-4': 'families/google-gemma-4-31B-it/template.jinja',
  'deepseek-v3.1': 'families/deepseek-ai-DeepSeek-V3.1/template.jinja',
  qwen3: 'families/Qwen-Qwen3-0.6B/template.jinja',
  'phi-4-mini': 'families/microsoft-Phi-4-mini-instruct/template.jinja',
  'qwen2.5': 'xml/templates/Qwen-Qwen2.5-7B-Instruct.jinja',
  'qwen3-coder': 'xml/templates/Qwen3-Coder.jinja',
  hermes: 'xml/templates/NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja',
  'gpt-oss': 'chat-template/chat_template.jinja',
};

const entries = Object.entries(TEMPLATES) as [TemplateName, OfficialTemplate][];

/** The source file's text: the template with `source.restored` undone (the text itself when nothing was restored). */
function sourceText(t: OfficialTemplate): string {
  const r = t.source.restored;
  return r === undefined ? t.text : t.text.replace(r.to, () => r.from);
}

describe('official chat templates: provenance', () => {
  it('every module of src/models/templates/ is in TEMPLATES, under its file name', () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith('.ts') && f !== 'index.ts').map((f) => f.replace(/\.ts$/, '')).sort();
    expect(Object.keys(TEMPLATES).sort()).toEqual(files);
    expect(files.length).toBe(26);
    expect(officialTemplate('qwen3')).toBe(TEMPLATES.qwen3);
    expect(officialTemplate('kimi-k2-thinking')).toBe(TEMPLATES['kimi-k2-thinking']);
    expect(officialTemplate('kimi-k2-instruct')).toBeUndefined();
    expect(officialTemplate('toString')).toBeUndefined();
  });

  it.each(entries)('%s: git blob of the text (with source.restored undone) equals source.blob', (_name, t) => {
    expect(t.text.length).toBeGreaterThan(0);
    expect(Buffer.from(t.text, 'utf8').toString('utf8')).toBe(t.text); // no lone surrogate
    expect(gitBlobId(sourceText(t))).toBe(t.source.blob);
  });

  it('a restored template says where, and its restored span is there once: only kimi-k2-thinking', () => {
    const restored = entries.filter(([, t]) => t.source.restored !== undefined);
    expect(restored.map(([name]) => name)).toEqual(['kimi-k2-thinking']);
    for (const [, t] of restored) {
      const r = t.source.restored as { from: string; to: string };
      expect(t.text.split(r.to).length).toBe(2);
      expect(t.text).not.toBe(sourceText(t));
      expect(t.source.note).toMatch(/quotes the official line/);
    }
  });

  it.each(entries)('%s: provenance fields are complete', (_name, t) => {
    const s = t.source;
    expect(s.repo).toMatch(/^[\w.-]+\/[\w.-]+$/);
    expect(s.model).toMatch(/^[\w.-]+\/[\w.-]+$/);
    expect(s.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(s.blob).toMatch(/^[0-9a-f]{40}$/);
    expect(s.path.length).toBeGreaterThan(0);
    expect(s.licence.length).toBeGreaterThan(0);
  });

  it('the import script holds no template text', () => {
    const script = readFileSync(SCRIPT, 'utf8');
    const leaked = entries.flatMap(([name, t]) =>
      t.text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length >= 30 && script.includes(l)).map((l) => `${name}: ${l}`),
    );
    expect(leaked).toEqual([]);
  });

  describe('each module is what scripts/import-template.mjs writes', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'import-template-'));
    afterAll(() => rmSync(tmp, { recursive: true, force: true }));
    it.each(entries)('%s', (name, t) => {
      const module = readFileSync(join(DIR, `${name}.ts`), 'utf8');
      const doc = /^\/\*\* (.*) \*\/\n/.exec(module)?.[1];
      expect(doc).toBeDefined();
      const input = join(tmp, `${name}.jinja`);
      const out = join(tmp, `${name}.ts`);
      writeFileSync(input, sourceText(t));
      const s = t.source;
      const args = [SCRIPT, input, out, '--repo', s.repo, '--path', s.path, '--commit', s.commit, '--licence', s.licence, '--model', s.model, '--doc', doc as string, '--blob-prefix', s.blob];
      if (s.note !== undefined) args.push('--note', s.note);
      if (s.restored !== undefined) args.push('--restore-from', s.restored.from, '--restore-to', s.restored.to);
      execFileSync(process.execPath, args, { stdio: 'pipe' });
      // the written module imports the types relative to where it is written: compare the rest
      const normal = (m: string): string => m.replace(/^import type \{ OfficialTemplate \} from '[^']*';$/m, "import type { OfficialTemplate } from 'TYPES';");
      expect(normal(readFileSync(out, 'utf8'))).toBe(normal(module));
    });
  });
});

if (HAVE_SHARED) describe('official chat templates: equal to the templates the oracles were rendered with', () => {
  it('each text equals its ../shared template byte for byte', () => {
    const lines: string[] = [];
    let same = 0;
    for (const [name, t] of entries) {
      const rel = SHARED_TEMPLATE[name];
      const path = sharedPath('oracles', rel);
      if (!existsSync(path)) {
        lines.push(`${name}: MISSING oracles/${rel}`);
        continue;
      }
      const bytes = Buffer.from(t.text, 'utf8');
      const equal = bytes.equals(readFileSync(path));
      if (equal) same++;
      lines.push(`${name}: ${equal ? 'identical to' : 'DIFFERS from'} oracles/${rel} (${bytes.length} bytes, blob ${t.source.blob.slice(0, 10)})`);
    }
    lines.push(`${same}/${entries.length} identical`);
    console.log(lines.join('\n'));
    expect(same).toBe(entries.length);
  });
});

else describe('official chat templates: ../shared comparison (not available)', () => {
  it('says plainly that the comparison did not run', () => {
    console.warn(sharedMissingNote('official chat templates vs ../shared'));
    expect(existsSync(sharedPath('oracles'))).toBe(false);
  });
});
