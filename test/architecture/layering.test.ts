/**
 * The layering of src/ (docs/architecture.md): src/index.ts only re-exports and no module inside
 * src/ imports it; data flows input → lower → emit → messages → parse → conversation → api →
 * the tools around it → cli, and no module imports a later stage than its own. Every import is
 * counted: static, `export … from`, `import type`, and dynamic `import('…')`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/shared.js';

const SRC = join(ROOT, 'src');

/** Each stage's rank: a module may import modules of its own rank or lower. Keyed by the first path segment under src/. */
const RANK: Readonly<Record<string, number>> = {
  diagnostics: 0, ir: 0,
  'o200k-ranks': 1, bpe: 1, tokens: 1, tokenizers: 1, input: 1,
  lower: 2,
  emit: 3, models: 3, template: 3, // template: the chat-template engine (beside emit: it builds on emit/python)
  messages: 4,
  parse: 5, // a parsed message is a messages/ envelope
  conversation: 6,
  api: 7,
  lint: 8, diff: 8, inventory: 8, build: 8, mcp: 8, report: 8, testing: 8,
  cli: 9,
  index: 10,
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** The relative module specifiers a source file imports, in any of the four forms. */
export function importsOf(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  const out: string[] = [];
  for (const m of code.matchAll(/(?:^|[^\w$.])(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|[^\w$.])import\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|[^\w$.])import\s*['"]([^'"]+)['"]/g)) {
    out.push((m[1] ?? m[2] ?? m[3]) as string);
  }
  return out;
}

const stageOf = (file: string): string => {
  const r = relative(SRC, file);
  return r.includes('/') ? (r.split('/')[0] as string) : r.replace(/\.ts$/, '');
};

const edges = sources(SRC).flatMap((file) =>
  importsOf(readFileSync(file, 'utf8'))
    .filter((s) => s.startsWith('.'))
    .map((s) => ({ from: file, to: resolve(dirname(file), s).replace(/\.js$/, '.ts'), spec: s })),
);

describe('layering of src/', () => {
  it('reads every form of import (the checks below see them all)', () => {
    expect(importsOf(`import { a } from './a.js';\nimport type { B } from "../b.js";\nexport { c } from './c.js';\nexport * from './d.js';\nimport './e.js';\nconst f = await import('./f.js');\n// import { g } from './g.js';\n/* import('./h.js') */`)).toEqual(['./a.js', '../b.js', './c.js', './d.js', './e.js', './f.js']);
    expect(edges.length).toBeGreaterThan(300);
  });

  it('no module inside src/ imports src/index.ts', () => {
    const index = join(SRC, 'index.ts');
    expect(edges.filter((e) => e.to === index).map((e) => relative(ROOT, e.from))).toEqual([]);
  });

  it('src/index.ts only re-exports', () => {
    const code = readFileSync(join(SRC, 'index.ts'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
    const statements = code.split(/;\s*/).map((s) => s.trim()).filter(Boolean);
    expect(statements.filter((s) => !/^export\s+(?:type\s+)?(?:\*|\{[\s\S]*\})(?:\s+as\s+\w+)?\s+from\s+['"][^'"]+['"]$/.test(s))).toEqual([]);
  });

  it('every stage of src/ has a rank', () => {
    expect([...new Set(sources(SRC).map(stageOf))].filter((s) => RANK[s] === undefined)).toEqual([]);
  });

  it('no module imports a later stage than its own', () => {
    const back = edges.filter((e) => (RANK[stageOf(e.to)] as number) > (RANK[stageOf(e.from)] as number)).map((e) => `${relative(ROOT, e.from)} imports ${e.spec}`);
    expect(back).toEqual([]);
  });
});
