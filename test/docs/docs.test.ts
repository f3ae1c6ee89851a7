/** The documentation keeps up with the code: every diagnostic code the conversation and parse stages emit is documented, and every local link resolves. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
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
  it('docs/conversations.md lists every conversation, request and security diagnostic code', () => {
    const doc = readFileSync(join(ROOT, 'docs/conversations.md'), 'utf8');
    // security/control-token: text a server's tokenizer reads as a control token (issue 22, item 23)
    const codes = codesIn('src/conversation', ['conversation', 'request', 'security']);
    expect(codes).toContain('security/control-token');
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

describe('docs/cli.md and the help texts (issue 22, item 23)', () => {
  it('docs/cli.md lists every exit code the CLI uses', () => {
    const codes = new Set<number>();
    for (const f of readdirSync(join(ROOT, 'src/cli'))) {
      const text = readFileSync(join(ROOT, 'src/cli', f), 'utf8');
      for (const m of text.matchAll(/process\.exit(?:Code = |\()(\d+)|return (\d+);/g)) codes.add(Number(m[1] ?? m[2]));
    }
    expect([...codes].sort((a, b) => a - b)).toEqual([0, 1, 2, 70, 74]);
    const doc = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
    const section = doc.slice(doc.indexOf('**Exit codes**, every command'), doc.indexOf('**Batch mode**'));
    for (const c of codes) expect(section, String(c)).toMatch(new RegExp(`\\b${c} `));
  });

  it('every docs file a --help names exists; lint --help names docs/lint.md, no README section', async () => {
    for (const command of ['render', 'lint', 'diff', 'dump', 'report', 'tokens', 'build', 'models', 'parse']) {
      const help = (await runCli([command, '--help'])).out;
      expect(help, command).not.toMatch(/README/);
      for (const m of help.matchAll(/docs\/[\w.-]+\.md/g)) expect(existsSync(join(ROOT, m[0])), `${command}: ${m[0]}`).toBe(true);
    }
    expect((await runCli(['lint', '--help'])).out).toContain('docs/lint.md');
  });
});

describe('docs/tools.md: the dump examples are the command\'s true output', () => {
  const doc = readFileSync(join(ROOT, 'docs/tools.md'), 'utf8');
  // every console block of a dump of the examples that needs nothing outside the repository (no ~/models)
  const blocks = [...doc.matchAll(/```console\n\$ harmony-catalog (dump examples\/[^\n]*)\n([\s\S]*?)```/g)].filter((m) => !m[1]!.includes('~'));

  it('the text tables, with the whole-prompt total', async () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    for (const [, command, shown] of blocks) {
      const r = await runCli(command!.split(' ').map((a) => (a.startsWith('examples/') ? join(ROOT, a) : a)));
      expect(r.out, command).toBe(shown);
      expect(shown, command).toContain('the whole prompt ');
    }
  });

  it('--format json, with "prompt" and "diagnostics"', async () => {
    const m = /`--format json` prints \(`(dump examples\/weather\.json --format json)`\):\n\n```json\n([\s\S]*?)```/.exec(doc);
    expect(m).not.toBeNull();
    const r = await runCli(m![1]!.split(' ').map((a) => (a.startsWith('examples/') ? join(ROOT, a) : a)));
    expect(m![2]).toBe(r.out);
    const shown = JSON.parse(m![2]!) as { totals: Record<string, number>; diagnostics: unknown[] };
    expect(Object.keys(shown.totals)).toEqual(['system', 'developer', 'catalog', 'prompt']);
    expect(shown.diagnostics).toEqual([]);
  });
});
