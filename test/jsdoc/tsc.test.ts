/**
 * The JSDoc catalog is valid TypeScript: the TypeScript compiler (strict, lib es2022 from
 * node_modules/typescript/lib, in-memory files) reports no diagnostic for the catalog of our
 * own cases, of all corpus tools plus the edge cases (when ../shared is present), and of
 * their prettier-formatted text. Each catalog is checked twice: as a global script
 * (`.d.ts`) and inside a module (`.ts` with `export {}`, strict-mode reserved words).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { emitJsdocCatalog, formatJsdoc } from '../../src/emit/jsdoc/catalog.js';
import { getKey, isJsonArray, parseJson, type JsonValue } from '../../src/ir/json.js';
import type { IrTool } from '../../src/ir/nodes.js';
import { lowerTool } from '../../src/lower/index.js';
import { HAVE_SHARED, ROOT, bareTool, readJsonl, sharedPath } from '../support/shared.js';

const OPTIONS: ts.CompilerOptions = {
  noEmit: true,
  strict: true,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2022.d.ts'],
  types: [],
  // the default libs need no checking; our .d.ts files must be checked, so not skipLibCheck
  skipDefaultLibCheck: true,
};

const libCache = new Map<string, ts.SourceFile | undefined>();

/** Diagnostics of in-memory files (name → text), as `file:line:col message`. */
function typecheck(files: ReadonlyMap<string, string>): string[] {
  const host = ts.createCompilerHost(OPTIONS);
  const readLib = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language) => {
    const text = files.get(name);
    if (text !== undefined) return ts.createSourceFile(name, text, language, true);
    if (!libCache.has(name)) libCache.set(name, readLib(name, language));
    return libCache.get(name);
  };
  const exists = host.fileExists.bind(host);
  host.fileExists = (name) => files.has(name) || exists(name);
  host.writeFile = () => {};
  const program = ts.createProgram([...files.keys()], OPTIONS, host);
  expect(program.getSourceFiles().some((f) => f.fileName.endsWith('lib.es2022.d.ts'))).toBe(true);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const msg = ts.flattenDiagnosticMessageText(d.messageText, ' ');
    if (!d.file || d.start === undefined) return msg;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    const src = d.file.text.split('\n')[line];
    return `${d.file.fileName}:${line + 1}:${character + 1} ${msg}\n    ${src}`;
  });
}

/**
 * Diagnostics of catalogs, each checked as a global declaration file (one program each: they
 * all declare `namespace functions`) and inside a module (`export {}`; all in one program).
 */
function typecheckCatalogs(catalogs: ReadonlyMap<string, string>): string[] {
  const errors: string[] = [];
  for (const [name, text] of catalogs) errors.push(...typecheck(new Map([[`/${name}.d.ts`, text]])));
  errors.push(...typecheck(new Map([...catalogs].map(([name, text]) => [`/${name}.module.ts`, `${text}export {};\n`]))));
  return errors;
}

/** Tools from bare `{name, description, parameters}` values. */
function lowerAll(values: readonly JsonValue[]): IrTool[] {
  return values.map((v, k) => lowerTool(bareTool(v, k)).tool);
}

const CASES = join(ROOT, 'test/cases/jsdoc');

describe('jsdoc catalog type-checks', () => {
  it('the checker reports what TypeScript rejects, in both forms', () => {
    const bad = 'declare namespace functions {\n  type A = A | string;\n  type B = { a: C };\n  type delete = 1;\n}\n';
    const errors = typecheckCatalogs(new Map([['bad', bad]]));
    for (const file of ['/bad.d.ts', '/bad.module.ts']) {
      expect(errors.some((e) => e.startsWith(`${file}:2:`) && e.includes('circularly references itself'))).toBe(true);
      expect(errors.some((e) => e.startsWith(`${file}:3:`) && e.includes("Cannot find name 'C'"))).toBe(true);
      expect(errors.some((e) => e.startsWith(`${file}:4:`))).toBe(true);
    }
  });

  it('our cases, as printed and as formatted by prettier', async () => {
    const catalogs = new Map<string, string>();
    for (const f of readdirSync(CASES).filter((x) => x.endsWith('.json'))) {
      const doc = parseJson(readFileSync(join(CASES, f), 'utf8'));
      const list = getKey(doc, 'tools');
      const ns = getKey(doc, 'namespace');
      const catalog = emitJsdocCatalog(lowerAll(isJsonArray(list) ? list : []), typeof ns === 'string' ? { namespace: ns } : {});
      const name = f.slice(0, -'.json'.length);
      catalogs.set(name, catalog);
      catalogs.set(`${name}.formatted`, await formatJsdoc(catalog));
    }
    const errors = typecheckCatalogs(catalogs);
    console.log(`jsdoc tsc: ${catalogs.size / 2} case catalogs (as printed and formatted, each as .d.ts and module), ${errors.length} diagnostics`);
    expect(errors).toEqual([]);
  });

  if (HAVE_SHARED) {
    it('every corpus tool and edge case in one catalog', async () => {
      const values = [...readJsonl(sharedPath('corpus/tools.jsonl')), ...readJsonl(sharedPath('corpus/edge-cases.jsonl'))];
      const tools = lowerAll(values);
      const catalog = emitJsdocCatalog(tools);
      const errors = typecheckCatalogs(new Map([['corpus', catalog], ['corpus.formatted', await formatJsdoc(catalog)]]));
      console.log(`jsdoc tsc: ${tools.length} tools in one catalog (${catalog.length} chars; as printed and formatted, each as .d.ts and module), ${errors.length} diagnostics`);
      expect(errors.slice(0, 20)).toEqual([]);
      expect(tools.length).toBe(2022);
    }, 120_000);
  }
});
