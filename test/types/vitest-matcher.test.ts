/**
 * Issue 22, item 20: the vitest matcher's types load from the package entry. A project whose
 * tsconfig `include`s its tests but not the setup file that calls `setup()` (the usual layout:
 * `vitest.setup.ts` at the root, named in vitest's `setupFiles`) still sees
 * `expect(…).toMatchCatalogSnapshot()` typed in a test that imports the package, or a module that
 * does. And a project without vitest installed (an optional peer) type-checks the package as well.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, tsc, type Project } from './support.js';

const compilerOptions = { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, types: [] };

const projects: Project[] = [];
let withVitest: Project;
let withoutVitest: Project;

beforeAll(() => {
  withVitest = makeProject('types-vitest', {
    'package.json': JSON.stringify({ name: 'matcher-user', private: true, type: 'module' }),
    'tsconfig.json': JSON.stringify({ compilerOptions, include: ['src', 'test'] }),
    // the setup file: outside `include`, as vitest's setupFiles usually is
    'vitest.setup.ts': "import { setup } from 'harmony-catalog/vitest';\nsetup();\n",
    'src/tools.ts': "import { compileTools } from 'harmony-catalog';\nexport const tools = compileTools('[{\"name\": \"ping\"}]');\n",
    // the test imports the package only through its own tools module (docs/tools.md's example)
    'test/tools.test.ts': `import { expect, it } from 'vitest';
import { tools } from '../src/tools.js';

it('weather tools', async () => {
  await expect(tools).toMatchCatalogSnapshot();
  await expect(tools).toMatchCatalogSnapshot({ target: 'jsdoc' });
  await expect('[]').toMatchCatalogSnapshot({ model: 'qwen3', file: 'qwen3.txt' });
  // the options are typed
  // @ts-expect-error not a target
  await expect(tools).toMatchCatalogSnapshot({ target: 'yaml' });
  // the matcher returns a promise (await it)
  const pending: Promise<void> = expect(tools).toMatchCatalogSnapshot();
  await pending;
});
`,
    // a test that imports the package itself, nothing of its tools
    'test/direct.test.ts': `import { expect, it } from 'vitest';
import type { CatalogSnapshotOptions } from 'harmony-catalog';

const options: CatalogSnapshotOptions = { flavor: 'chat-template' };
it('direct', async () => {
  await expect('[]').toMatchCatalogSnapshot(options);
});
`,
  });
  projects.push(withVitest);
  // outside the repository: vitest is not installed there (the package's own dependencies' types are)
  withoutVitest = makeProject(
    'types-no-vitest',
    {
      'package.json': JSON.stringify({ name: 'no-vitest-user', private: true, type: 'module' }),
      'tsconfig.json': JSON.stringify({ compilerOptions: { ...compilerOptions, types: ['node'] }, files: ['index.ts'] }),
      'index.ts': "import { renderCatalog, type CatalogSnapshotOptions } from 'harmony-catalog';\nexport const text: string = renderCatalog('[]').text;\nexport const options: CatalogSnapshotOptions = { target: 'xml' };\n",
    },
    { outside: true, link: ['@sinclair/typebox', '@types/node'] },
  );
  projects.push(withoutVitest);
}, 300_000);
afterAll(() => {
  for (const p of projects) p.remove();
});

describe('the vitest matcher\'s types', () => {
  it('load from the package entry: tests type-check without the setup file in tsconfig include (tsc exit 0)', () => {
    const r = tsc(withVitest.dir);
    expect(r.out).toBe('');
    expect(r.code).toBe(0);
  });

  it('the setup file is indeed outside the program: tsc does not list it', () => {
    const r = tsc(withVitest.dir, 'tsconfig.json', ['--listFilesOnly']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('test/tools.test.ts');
    expect(r.out).not.toContain('vitest.setup.ts');
  });

  it('do not need vitest: a project without it type-checks the package (no skipLibCheck; tsc exit 0)', () => {
    const r = tsc(withoutVitest.dir);
    expect(r.out).toBe('');
    expect(r.code).toBe(0);
    // and vitest is not installed where it could be found from there
    expect(() => createRequire(join(withoutVitest.dir, 'index.js')).resolve('vitest')).toThrow(/Cannot find module 'vitest'/);
  });
});
