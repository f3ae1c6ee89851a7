/**
 * Issue 22, item 20: a CommonJS TypeScript project imports the package's types. With `module:
 * node16` TypeScript reads the package (type: module) as an ES module, which a CommonJS file may
 * not import (TS1541 for `import type`, TS1471 for `import x = require()`), although Node ≥ 20.19
 * (`engines`) loads it with require(). Each export's `require` condition names a CommonJS file
 * and its declarations (dist/lib/cjs/, made by scripts/bundle.mjs): the project type-checks, and
 * what tsc emits for it runs. The package is installed as `npm pack` ships it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/shared.js';
import { makeProject, requireEsm, tsc, type Project } from './support.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; engines: { node: string }; exports: Record<string, string | Record<string, string>> };
const entries = Object.keys(pkg.exports).filter((k) => k !== './package.json');
/**
 * The entries a CommonJS project imports under node16 with no skipLibCheck: all but `./vitest`,
 * whose declarations import vitest's, and vitest's own CommonJS declarations do not type-check under
 * node16 (they re-export its ES module: TS1479 in node_modules/vitest/index.d.cts). Under nodenext
 * they do, and the `./vitest` entry is checked there.
 */
const node16Entries = entries.filter((k) => k !== './vitest');

/** A `.ts` file of a CommonJS package (type: commonjs): types only. */
const TYPES = `import type { CompiledTools, ModelName, PromptMessage, ReadToolsResult, RenderResult, ToolDefinition } from '${pkg.name}';
${node16Entries.map((k, i) => `import type * as entry${i} from '${pkg.name}${k.slice(1)}';`).join('\n')}

export const model: ModelName = 'qwen3';
export const message: PromptMessage = { role: 'user', content: 'hi' };
export function names(read: ReadToolsResult): string[] {
  return read.definitions.map((d: ToolDefinition) => d.name);
}
export function count(c: CompiledTools): number {
  return c.lowered.length;
}
export type Rendered = RenderResult;
export type Entries = [${node16Entries.map((_, i) => `typeof entry${i}`).join(', ')}];
`;

/** A `.cts` file: values, through require (what Node runs). */
const VALUES = `import hc = require('${pkg.name}');
import { CompileError, renderCatalog, readTools } from '${pkg.name}';
import inventory = require('${pkg.name}/inventory');

const read = readTools('[{"name": "ping", "description": "Ping."}]');
const text: string = renderCatalog(read, { model: 'gpt-oss' }).text;
let refused = '';
try {
  hc.renderCatalog('[{"name": 1}]');
} catch (e) {
  if (e instanceof CompileError) refused = e.diagnostics[0]!.code;
}
const counted: Promise<unknown> = inventory.inventory(read);
void counted;
console.log(JSON.stringify({ text, names: read.definitions.map((d) => d.name), refused }));
`;

/** The matcher entry, from CommonJS (checked under nodenext: see node16Entries). */
const VITEST_ENTRY = `import { setup, type CatalogSnapshotOptions } from '${pkg.name}/vitest';
import { expect } from 'vitest';
setup();
const options: CatalogSnapshotOptions = { target: 'xml' };
export const pending: Promise<void> = expect('[]').toMatchCatalogSnapshot(options);
`;

const compilerOptions = { module: 'node16', moduleResolution: 'node16', strict: true, noEmit: true };

let project: Project;
beforeAll(() => {
  project = makeProject('types-cjs', {
    'package.json': JSON.stringify({ name: 'cjs-user', private: true, type: 'commonjs' }),
    'tsconfig.json': JSON.stringify({ compilerOptions, files: ['types.ts', 'values.cts'] }),
    // the same project under nodenext (which models require(esm)) and emitting, to run what tsc writes
    'tsconfig.nodenext.json': JSON.stringify({ compilerOptions: { ...compilerOptions, module: 'nodenext', moduleResolution: 'nodenext' }, files: ['types.ts', 'values.cts', 'vitest-entry.ts'] }),
    'tsconfig.emit.json': JSON.stringify({ compilerOptions: { ...compilerOptions, noEmit: false, outDir: 'out', target: 'es2022' }, files: ['types.ts', 'values.cts'] }),
    'types.ts': TYPES,
    'values.cts': VALUES,
    'vitest-entry.ts': VITEST_ENTRY,
  });
}, 300_000);
afterAll(() => project?.remove());

describe('a CommonJS TypeScript project', () => {
  it('every export entry has a require condition first, naming a .cjs with its .d.cts beside it in the package', () => {
    for (const k of entries) {
      const e = pkg.exports[k] as Record<string, string>;
      expect(Object.keys(e)[0], k).toBe('require');
      expect(e.require, k).toMatch(/^\.\/dist\/lib\/cjs\/.+\.cjs$/);
      expect(readFileSync(join(project.dir, 'node_modules', pkg.name, e.require!.replace(/\.cjs$/, '.d.cts')), 'utf8').length, k).toBeGreaterThan(0);
    }
  });

  it(`imports the types and the values of ${node16Entries.join(', ')}: module node16, strict, no skipLibCheck (tsc exit 0)`, () => {
    const r = tsc(project.dir);
    expect(r.out).toBe('');
    expect(r.code).toBe(0);
  });

  it('and under module nodenext, the ./vitest entry and its matcher too (tsc exit 0)', () => {
    const r = tsc(project.dir, 'tsconfig.nodenext.json');
    expect(r.out).toBe('');
    expect(r.code).toBe(0);
  });

  it.runIf(requireEsm())(`what tsc emits runs on Node ${process.versions.node} (require loads the package)`, () => {
    const emitted = tsc(project.dir, 'tsconfig.emit.json');
    expect(emitted.out).toBe('');
    expect(emitted.code).toBe(0);
    expect(readFileSync(join(project.dir, 'out/values.cjs'), 'utf8')).toContain(`require("${pkg.name}")`);
    const r = spawnSync(process.execPath, [join(project.dir, 'out/values.cjs')], { cwd: project.dir, encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      text: '# Tools\n\n## functions\n\nnamespace functions {\n\n// Ping.\ntype ping = () => any;\n\n} // namespace functions',
      names: ['ping'],
      refused: 'input/missing-name',
    });
  });
});
