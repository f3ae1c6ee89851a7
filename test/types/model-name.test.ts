/**
 * Issue 22, item 20: `model` is typed as the union of the known `--model` names, still taking any
 * string. `KnownModelName` (a literal union in src/api/models.ts) is checked here against the
 * names the registry knows at run time (`modelNames()`), both ways, so the two cannot drift; every
 * public option that takes a model is `ModelName`; and an editor completes the known names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelNames } from '../../src/api/models.js';
import { completionsAt, EQUAL, languageService, makeProject, tsc, type Project } from './support.js';

const names = modelNames();

const FIXTURE = `import { compileTools, familyControlSpellings, modelColumn, renderCatalog, renderPrompt, renderRequest } from 'harmony-catalog';
import type { CatalogOptions, CatalogSnapshotOptions, CompileOptions, DeveloperMessageOptions, ColumnRender, DiffSide, FamilyParseOptions, KnownModelName, LintOptions, ModelName, PartOptions, PromptOptions, RequestRenderOptions, SystemOptions, TargetOptions } from 'harmony-catalog';
${EQUAL}
// every name the registry knows, and no other: a missing key or an extra one does not compile
export const every: { readonly [K in KnownModelName]: true } = {
${names.map((n) => `  ${JSON.stringify(n)}: true,`).join('\n')}
};

// any string is still a ModelName (a Hugging Face id, another spelling)
export const id: ModelName = 'openai/gpt-oss-20b';
declare const fromCli: string;
renderCatalog('[]', { model: fromCli });
renderCatalog('[]', { model: 'Qwen/Qwen3-8B' });
export const widened: string = id;

// the known names are kept in the type: it is not plain string
export const notString: Equal<ModelName, string> = false;
export const known: Equal<Extract<ModelName, KnownModelName>, KnownModelName> = true;

// every option that takes a model takes ModelName
export const options: [
  Equal<Exclude<TargetOptions['model'], undefined>, ModelName>,
  Equal<Exclude<CatalogOptions['model'], undefined>, ModelName>,
  Equal<Exclude<DeveloperMessageOptions['model'], undefined>, ModelName>,
  Equal<Exclude<SystemOptions['model'], undefined>, ModelName>,
  Equal<Exclude<PromptOptions['model'], undefined>, ModelName>,
  Equal<Exclude<PartOptions['model'], undefined>, ModelName>,
  Equal<Exclude<RequestRenderOptions['model'], undefined>, ModelName>,
  Equal<Exclude<CompileOptions['model'], undefined>, ModelName>,
  Equal<Exclude<CatalogSnapshotOptions['model'], undefined>, ModelName>,
  Equal<Parameters<typeof familyControlSpellings>[0], ModelName>,
  Equal<Exclude<LintOptions['model'], undefined>, ModelName>,
  Equal<Exclude<FamilyParseOptions['model'], undefined>, ModelName>,
  Equal<Exclude<ColumnRender['model'], undefined>, ModelName>,
  Equal<Parameters<typeof modelColumn>[0], ModelName>,
  // a diff side is a flavor, 'ollama', or a model name
  Equal<Extract<DiffSide, KnownModelName>, KnownModelName>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true];

compileTools('[]', { model: 'llama-3.1' });
renderRequest('{"messages": []}', { model: 'qwen3' });
renderPrompt({ model: '/*complete-here*/' });
`;

let project: Project;
beforeAll(() => {
  project = makeProject('types-model-name', {
    'package.json': JSON.stringify({ name: 'model-name-user', private: true, type: 'module' }),
    'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, types: [] }, files: ['models.ts'] }),
    'models.ts': FIXTURE,
  });
}, 300_000);
afterAll(() => project?.remove());

describe('ModelName', () => {
  it('the runtime list has names, each once', () => {
    expect(names.length).toBeGreaterThan(30);
    expect(new Set(names).size).toBe(names.length);
  });

  it('KnownModelName is exactly modelNames(); every model option is ModelName; any string is still accepted (tsc exit 0)', () => {
    const r = tsc(project.dir);
    expect(r.out).toBe('');
    expect(r.code).toBe(0);
  });

  it('an editor completes every known name in a `model` option', () => {
    const offered = completionsAt(languageService(project.dir), 'models.ts', '/*complete-here*/');
    expect([...offered].sort()).toEqual([...names].sort());
  });
});
