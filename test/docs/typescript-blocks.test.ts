/**
 * Every ```ts / ```typescript block of README.md and docs/*.md type-checks under `strict`
 * against the package's published types, imported by name (issue 22, item 15).
 *
 * Each block is written as its own ES module into a temporary folder inside the project, so
 * `'harmony-catalog'` resolves to this package through its own `exports` (dist/*.d.ts), as it does
 * for a user. The names a snippet leaves to its reader (their model function, their tools text,
 * their tool runner…) are declared once in a hidden preamble. A block that is a fragment by
 * nature (a signature listing) is skipped when the line before its fence is
 * `<!-- not-checked: why -->`; the test prints how many blocks were checked and skipped, and why.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/shared.js';

type TS = typeof import('typescript');
const ts = createRequire(import.meta.url)('typescript') as TS;

/** One fenced TypeScript block. */
interface Block {
  readonly file: string;
  /** 1-based, per file, counting every TypeScript block (checked or not). */
  readonly index: number;
  /** The line of the opening fence (1-based). */
  readonly line: number;
  readonly code: string;
  /** The reason of a `<!-- not-checked: … -->` mark, when the block has one. */
  readonly skip?: string;
}

/** Every TypeScript block of a Markdown file. */
function blocksOf(file: string): Block[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(ts|typescript)\s*$/.exec(lines[i]);
    if (!open) {
      const other = /^\s*(`{3,}|~{3,})/.exec(lines[i]);
      if (other) { // skip any other fenced block whole, so its content is never read as a fence
        const fence = other[1];
        for (i++; i < lines.length && !new RegExp(`^\\s*${fence}${fence[0]}*\\s*$`).test(lines[i]); i++);
      }
      continue;
    }
    const fence = open[2];
    let p = i - 1;
    while (p >= 0 && lines[p].trim() === '') p--;
    const mark = p >= 0 ? /^\s*<!--\s*not-checked:\s*(.*?)\s*-->\s*$/.exec(lines[p]) : null;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !new RegExp(`^\\s*${fence}${fence[0]}*\\s*$`).test(lines[i]); i++) body.push(lines[i].slice(open[1].length));
    out.push({ file, index: out.length + 1, line: start + 1, code: body.join('\n') + '\n', ...(mark ? { skip: mark[1] || '(no reason given)' } : {}) });
  }
  return out;
}

/**
 * What the snippets leave to their reader, declared as globals. A block that declares one of
 * these names itself shadows it.
 */
const PREAMBLE = `// The reader's own names the snippets use (a module: the package is type: module, so .ts files are modules).
export {};
declare global {
  const toolsJsonText: string;                                         // their tools file, read
  const tools: import('harmony-catalog').CompiledTools;                // their tools, compiled
  const messages: import('harmony-catalog').PromptMessage[];           // their conversation so far
  const completion: string;                                            // the model's raw completion text
  const res: import('harmony-catalog').ChatCompletionResult;           // docs/parsing.md: the response of the block before
  const stream: AsyncIterable<string>;                                 // the completion, as it streams in
  const chatCompletionsBody: unknown;                                  // a request body they received
  const fs: typeof import('node:fs/promises');
  function model(prompt: string): Promise<string>;                     // their engine
  function run(name: string, args: unknown): Promise<unknown>;         // their tool runner
  function myTemplate(tools: readonly import('harmony-catalog').ToolDefinition[]): string;
}
`;

/** Modules a snippet imports by a relative path, as the reader's project would have them (path from the block's folder). */
const STUBS: Readonly<Record<string, string>> = {
  '../src/tools.ts': `export declare const tools: import('harmony-catalog').CompiledTools;\n`,
};

/** The file name of a block in the temporary folder. */
function slug(b: Block): string {
  return `${b.file.replace(/\.md$/, '').replace(/[^A-Za-z0-9]+/g, '-')}-${b.index}.ts`;
}

describe('the TypeScript blocks of README.md and docs/*.md', () => {
  it('type-check under strict, importing harmony-catalog by name', () => {
    // the blocks import the built package's types (dist/*.d.ts), as a user's code would
    if (!existsSync(join(ROOT, 'dist/index.d.ts')) || !existsSync(join(ROOT, 'dist/lib/index.js'))) execFileSync('npm', ['run', 'build'], { cwd: ROOT });

    const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
    const blocks = files.flatMap(blocksOf);
    const checked = blocks.filter((b) => b.skip === undefined);
    const skipped = blocks.filter((b) => b.skip !== undefined);

    // inside the project (git-ignored .tmp/), so the package's own name resolves through its exports
    const made = !existsSync(join(ROOT, '.tmp'));
    mkdirSync(join(ROOT, '.tmp'), { recursive: true });
    const dir = mkdtempSync(join(ROOT, '.tmp', 'docs-ts-'));
    try {
      const blockDir = join(dir, 'test'); // blocks sit in a test/ folder: docs/tools.md's test file imports ../src/tools.js
      mkdirSync(blockDir, { recursive: true });
      writeFileSync(join(dir, 'preamble.ts'), PREAMBLE);
      for (const [path, text] of Object.entries(STUBS)) {
        mkdirSync(dirname(join(blockDir, path)), { recursive: true });
        writeFileSync(join(blockDir, path), text);
      }
      const byPath = new Map<string, Block>();
      for (const b of checked) {
        const path = join(blockDir, slug(b));
        writeFileSync(path, b.code);
        byPath.set(ts.sys.resolvePath(path), b);
      }

      const options: import('typescript').CompilerOptions = {
        strict: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        lib: ['lib.es2022.d.ts'],
        types: ['node'],
        noEmit: true,
        skipLibCheck: true,
        esModuleInterop: true,
        forceConsistentCasingInFileNames: true,
      };
      const program = ts.createProgram({ rootNames: [join(dir, 'preamble.ts'), ...byPath.keys()], options });
      const diagnostics = ts.getPreEmitDiagnostics(program);

      const host: import('typescript').FormatDiagnosticsHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' };
      const failures = new Map<string, string[]>(); // per block (or outside them): its diagnostics
      for (const d of diagnostics) {
        const b = d.file ? byPath.get(ts.sys.resolvePath(d.file.fileName)) : undefined;
        const where = b ? `${b.file}, TypeScript block #${b.index} (fence at line ${b.line})` : d.file ? `outside the blocks: ${relative(ROOT, d.file.fileName)}` : 'the compiler options';
        let at = '';
        if (b && d.file && d.start !== undefined) at = `${b.file}:${b.line + d.file.getLineAndCharacterOfPosition(d.start).line + 1}: `;
        const list = failures.get(where) ?? [];
        list.push(at + ts.formatDiagnostic(d, host).trimEnd().replace(/\n/g, '\n    '));
        failures.set(where, list);
      }

      console.log(
        `docs TypeScript blocks: ${checked.length} checked, ${skipped.length} skipped by a not-checked mark` +
          skipped.map((b) => `\n  skipped ${b.file} #${b.index} (line ${b.line}): ${b.skip}`).join(''),
      );
      const report = [...failures].map(([where, list]) => `${where}:\n  ${list.join('\n  ')}`).join('\n\n');
      expect(report, `${failures.size} block(s) do not type-check`).toBe('');
      expect(checked.length).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      if (made) {
        try {
          rmdirSync(join(ROOT, '.tmp')); // ours: removed when nothing else is in it
        } catch {
          /* another suite's files are in it */
        }
      }
    }
  }, 120_000);
});
