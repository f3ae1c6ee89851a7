#!/usr/bin/env node
/**
 * The bundled CLI (`npm run build`, after tsc): dist/bin/harmony-catalog.js, the file `bin` names.
 *
 * - dist/bin/harmony-catalog.js: one file with the command line and everything `render` needs
 *   (the API, the readers, the lowering, every printer, TypeBox's checks). A render loads this
 *   file and nothing else.
 * - dist/bin/chunks/: the other commands (lint, diff, dump, parse, build, models, and the MCP
 *   source `render --mcp` loads), bundled apart and loaded when they run.
 * - The optional packages (prettier, the MCP SDK, gpt-tokenizer, ajv, diff, zod) stay outside the
 *   bundle, imported from node_modules by the code that needs them when it runs. The build fails
 *   if the render file would import one of them at start-up.
 * - The version is written in (`harmony-catalog --version` reads no package.json).
 *
 * It bundles tsc's output (dist/), the code the tests ran; the library (dist/index.js and the
 * other exports) stays as tsc emits it.
 *
 *   node scripts/bundle.mjs [--no-minify]   (names kept: for reading a profile)
 */
import { chmodSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const OUT = join(DIST, 'bin');
const ENTRY = join(OUT, 'harmony-catalog.js');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** Packages loaded only by the commands (or options) that use them: never in the bundle. */
const OPTIONAL = ['prettier', '@modelcontextprotocol/sdk', 'gpt-tokenizer', 'ajv', 'diff', 'zod', 'typescript'];
const external = OPTIONAL.flatMap((p) => [p, `${p}/*`]);

const common = { bundle: true, format: 'esm', platform: 'node', target: 'node20', external, legalComments: 'none', logLevel: 'warning', minify: !process.argv.includes('--no-minify') };
const entry = { contents: "import './cli/render.js';\nimport './cli/main.js';\n", resolveDir: DIST, sourcefile: 'harmony-catalog.js', loader: 'js' };

// 0. what the render file holds: the modules its entry reaches by static imports; every module
//    imported dynamically from there and not among them (the other commands, the MCP source…) is
//    bundled apart and loaded when it is used
const survey = await build({ ...common, stdin: entry, outfile: ENTRY, write: false, metafile: true, logLevel: 'silent' });
const inputs = survey.metafile.inputs;
const staticSet = new Set();
// (the entry itself is not among the inputs: start from what it imports)
const todo = ['dist/cli/render.js', 'dist/cli/main.js'];
while (todo.length) {
  const f = todo.pop();
  if (staticSet.has(f)) continue;
  staticSet.add(f);
  for (const i of inputs[f]?.imports ?? []) if (i.kind === 'import-statement' && !i.external) todo.push(i.path);
}
const apartFiles = new Set();
for (const f of staticSet) for (const i of inputs[f]?.imports ?? []) if (i.kind === 'dynamic-import' && !i.external && !staticSet.has(i.path)) apartFiles.add(i.path);
/** Each module bundled apart: its absolute path → its chunk's name (`cli/lint.js` → `cli-lint`). */
const APART = new Map([...apartFiles].sort().map((f) => [resolve(ROOT, f), relative(DIST, resolve(ROOT, f)).replace(/\.js$/, '').replace(/[\\/]/g, '-')]));

rmSync(OUT, { recursive: true, force: true });

// 1. the modules loaded on use, sharing chunks among themselves
await build({
  ...common,
  entryPoints: [...APART].map(([file, name]) => ({ in: file, out: name })),
  outdir: join(OUT, 'chunks'),
  chunkNames: 'shared-[hash]',
  splitting: true,
});

// 2. the render file: the command line and render, with the modules above imported from their chunks when used
const result = await build({
  ...common,
  stdin: entry,
  outfile: ENTRY,
  define: { __HARMONY_CATALOG_VERSION__: JSON.stringify(pkg.version) },
  banner: { js: '#!/usr/bin/env node' },
  metafile: true,
  plugins: [
    {
      name: 'load-apart',
      setup(b) {
        b.onResolve({ filter: /^\.\.?\// }, (args) => {
          const name = APART.get(resolve(args.resolveDir, args.path));
          return name === undefined ? undefined : { path: `./chunks/${name}.js`, external: true };
        });
      },
    },
  ],
});

// nothing optional at start-up: the render file's static imports are node's own modules and nothing else
const startup = Object.values(result.metafile.outputs)[0].imports.filter((i) => i.kind === 'import-statement');
const eager = startup.filter((i) => !i.path.startsWith('node:'));
if (eager.length) {
  console.error(`bundle: ${relative(ROOT, ENTRY)} would load ${eager.map((i) => i.path).join(', ')} at start-up; load it on use (a dynamic import) or bundle it apart`);
  process.exit(1);
}
chmodSync(ENTRY, 0o755);
