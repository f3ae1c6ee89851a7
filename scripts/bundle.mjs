#!/usr/bin/env node
/**
 * The bundles (`npm run build`, after tsc): the CLI, dist/bin/harmony-catalog.cjs (the file `bin` names), and the library.
 *
 * - dist/bin/cli.cjs: one script with the command line and everything `render` needs (the API, the
 *   readers, the lowering, every printer, TypeBox's checks), compiled by the launcher
 *   dist/bin/harmony-catalog.cjs from V8's code cache (cli.cjs.cache, step 4). A render loads these
 *   and nothing else. The launcher is CommonJS: node 20 loads an ES module entry through its
 *   asynchronous loader, about 9 ms more at every start.
 * - dist/bin/chunks/: the other commands (lint, diff, dump, parse, build, models, and the MCP
 *   source `render --mcp` loads), bundled apart and loaded when they run.
 * - The optional packages (prettier, the MCP SDK, gpt-tokenizer, ajv, diff, zod) stay outside the
 *   bundle, imported from node_modules by the code that needs them when it runs. The build fails
 *   if the render file would import one of them at start-up.
 * - The version is written in (`harmony-catalog --version` reads no package.json).
 *
 * - dist/lib/: the library, each entry of package.json's `exports` bundled (step 5); its types are
 *   tsc's (dist/*.d.ts).
 * - dist/lib/cjs/: each entry for `require` (a CommonJS file that requires the ES module) and the
 *   same types as CommonJS declarations (.d.cts), for TypeScript projects that are CommonJS (step 6).
 *
 * It bundles tsc's output (dist/), the code the tests ran.
 *
 *   node scripts/bundle.mjs [--no-minify]   (names kept: for reading a profile)
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const OUT = join(DIST, 'bin');
const ENTRY = join(OUT, 'harmony-catalog.cjs');
const SCRIPT = join(OUT, 'cli.cjs');
// the script is run as a function of these (CommonJS's five, and the importer): the launcher and the
// warm-up wrap it the same way, or V8 would not take the cache (it is keyed by the source text)
const WRAP_HEAD = '(function (exports, require, module, __filename, __dirname, __hc_import) {';
const WRAP_TAIL = '\n})';
/** The warm-up (run in a child node): the script compiled as the launcher compiles it, main run on the examples, the cache written. */
const WARM_UP = `
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
const file = process.env.HC_SCRIPT;
const [head, tail] = JSON.parse(process.env.HC_WRAP);
const script = new Script(head + readFileSync(file, 'utf8') + tail, { filename: file });
const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file), (s) => import(s.startsWith('.') ? new URL(s, pathToFileURL(file)).href : s));
const io = { stdout: () => {}, stderr: () => {}, stdin: async () => '', isTTY: false, env: {} };
const runs = [
  ['render', 'examples/weather.json', '--date', '2025-06-28'],
  ['render', 'examples/weather.json', '--part', 'catalog'],
  ['render', 'examples/weather.json', '--flavor', 'chat-template', '--part', 'developer'],
  ['render', 'examples/weather.json', '--flavor', 'ollama', '--date', '2025-06-28'],
  ['render', 'examples/weather.json', '--target', 'xml', '--dialect', 'qwen'],
  ['render', 'examples/weather.json', '--target', 'jsdoc'],
  ['render', 'examples/agent-loop.json', '--date', '2025-08-05'],
  ['render', 'examples/agent-loop.json', '--date', '2025-08-05', '--server', 'llama.cpp'],
  ['render', 'examples/agent-loop.json', '--date', '2025-08-05', '--server', 'ollama'],
];
for (const argv of runs) {
  const code = await module.exports.main(argv, io);
  if (code !== 0) throw new Error(argv.join(' ') + ': exit ' + code);
}
writeFileSync(file + '.cache', script.createCachedData());
`;
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

// 2. the render file: the command line and render, with the modules above imported from their chunks when used.
//    It is a classic script (CommonJS), not a module: node 20 keeps no compile cache for modules, and
//    a script can be compiled from V8's code cache (step 4). Its dynamic imports (the chunks, the
//    optional packages) go through `__hc_import`, which the launcher gives it: a script's own
//    `import()` needs a flag or an experimental loader in node 20.
const result = await build({
  ...common,
  format: 'cjs',
  stdin: { ...entry, contents: "import './cli/render.js';\nexport { main } from './cli/main.js';\n" },
  outfile: SCRIPT,
  write: false,
  define: { __HARMONY_CATALOG_VERSION__: JSON.stringify(pkg.version), 'import.meta.url': '__hc_import_meta_url' },
  banner: { js: "var __hc_import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
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
const outputMeta = Object.values(result.metafile.outputs)[0];
const startup = outputMeta.imports.filter((i) => i.kind === 'require-call' || i.kind === 'import-statement');
const eager = startup.filter((i) => !i.path.startsWith('node:'));
if (eager.length) {
  console.error(`bundle: ${relative(ROOT, SCRIPT)} would load ${eager.map((i) => i.path).join(', ')} at start-up; load it on use (a dynamic import) or bundle it apart`);
  process.exit(1);
}
// every dynamic import becomes a call of the launcher's importer; the build stops when the count of
// `import(` in the text is not the count esbuild reports (one would be in a string, say)
const dynamic = outputMeta.imports.filter((i) => i.kind === 'dynamic-import').length;
const text = result.outputFiles[0].text;
const calls = text.match(/(?<![\w$.])import\(/g) ?? [];
if (calls.length !== dynamic) {
  console.error(`bundle: ${relative(ROOT, SCRIPT)} spells import( ${calls.length} times for ${dynamic} dynamic imports; cannot route them through the launcher`);
  process.exit(1);
}
mkdirSync(OUT, { recursive: true });
writeFileSync(SCRIPT, text.replace(/(?<![\w$.])import\(/g, '__hc_import('));

// 3. the launcher (what `bin` names): compiles the script with V8's code cache when it has one that
//    fits (same script, same node), runs it, and calls main. CommonJS, loaded by node's synchronous
//    loader; its import() loads the chunks (ES modules) beside it.
writeFileSync(
  ENTRY,
  `#!/usr/bin/env node
// harmony-catalog's command line: the bundle (cli.cjs) compiled from V8's code cache (cli.cjs.cache,
// made by the build) when this node accepts it, else from its text.
'use strict';
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { join } = require('node:path');
const { Script } = require('node:vm');
const file = join(__dirname, 'cli.cjs');
let cachedData;
try {
  cachedData = readFileSync(file + '.cache');
} catch {
  // no cache: compiled from the text
}
const script = new Script(${JSON.stringify(WRAP_HEAD)} + readFileSync(file, 'utf8') + ${JSON.stringify(WRAP_TAIL)}, { filename: file, cachedData });
const cli = { exports: {} };
script.runInThisContext()(cli.exports, createRequire(file), cli, file, __dirname, (specifier) => import(specifier));
cli.exports.main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(\`harmony-catalog: internal error: \${e?.message ?? String(e)}\\nPlease report this with the input that caused it.\\n\`);
    process.exitCode = 70;
  },
);
`,
);
chmodSync(ENTRY, 0o755);

// 4. the code cache: the script compiled and run on the examples in a child node (the node that will
//    run it), then V8's cache of it, with every function those renders compiled, written beside it
const warm = spawnSync(process.execPath, ['--input-type=module', '-e', WARM_UP], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, HC_SCRIPT: SCRIPT, HC_WRAP: JSON.stringify([WRAP_HEAD, WRAP_TAIL]) } });
if (warm.status !== 0) {
  console.error(`bundle: the code cache was not made: ${warm.stderr}`);
  process.exit(1);
}


// 5. the library as the package exports it (dist/lib/): each entry of package.json's `exports`, bundled
//    from tsc's output with TypeBox and diff inside, one copy of every module shared among the entries
//    through chunks (so the caches and the compiled-set registry stay single). Node 20 loads each ES
//    module file on its own: 129 of ours and TypeBox's 218 cost about 0.2 s at `import`; one file an
//    entry and a few chunks, about 0.06 s. The types stay tsc's (dist/*.d.ts).
const LIB = join(DIST, 'lib');
const libEntries = {};
/** Each entry's export key (`.`, `./mcp`…), by its path. */
const exportKeys = {};
for (const [key, e] of Object.entries(pkg.exports)) {
  if (typeof e === 'string') continue; // ./package.json
  const path = /^\.\/dist\/(.+)\.d\.ts$/.exec(e.types)?.[1];
  // `require` first: TypeScript takes the first condition that applies, and a CommonJS importer must get the .d.cts (step 6)
  if (path === undefined || e.import !== `./dist/lib/${path}.js` || e.default !== e.import || e.require !== `./dist/lib/cjs/${path}.cjs` || Object.keys(e)[0] !== 'require') {
    console.error(`bundle: package.json exports[${JSON.stringify(key)}] should give require ./dist/lib/cjs/<path>.cjs (first), types ./dist/<path>.d.ts, and import (and default) ./dist/lib/<path>.js`);
    process.exit(1);
  }
  libEntries[path] = join(DIST, `${path}.js`);
  exportKeys[path] = key;
}
if (pkg.main !== pkg.exports['.'].import) {
  console.error('bundle: package.json main should be exports["."].import');
  process.exit(1);
}
rmSync(LIB, { recursive: true, force: true });
await build({
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // loaded on use (prettier, ajv, the MCP SDK, the vocabulary), or the user's own (vitest, zod)
  external: [...OPTIONAL.filter((p) => p !== 'diff'), 'vitest'].flatMap((p) => [p, `${p}/*`]),
  legalComments: 'none',
  logLevel: 'warning',
  entryPoints: libEntries,
  outdir: LIB,
  splitting: true,
  chunkNames: 'chunks/[hash]',
});

// 6. CommonJS: TypeScript reads the .d.ts files of this package (type: module) as an ES module's
//    declarations, which a CommonJS file cannot import (`module: node16`: TS1471 for `import x =
//    require()`, TS1541 for `import type`), although Node (≥ 20.19, engines) loads the package with
//    require(). So each entry's `require` condition names a CommonJS file of its own,
//    dist/lib/cjs/<path>.cjs (`module.exports = require('../<path>.js')`: the same ES module, the
//    object require() returned before), and TypeScript reads the declarations beside it:
//    <path>.d.cts, tsc's .d.ts files reachable from the entries copied as .d.cts with their relative
//    specifiers ending in .cjs. Same declarations, read as CommonJS, less one line: the main entry's
//    CommonJS declarations do not load the vitest matcher's augmentation (src/testing/matchers.ts).
//    A `declare module 'vitest'` read from CommonJS resolves vitest's own CommonJS declarations, and
//    those do not type-check under `module: node16` (they re-export its ES module: TS1479), so a
//    CommonJS project with vitest installed would get vitest's error from importing this package.
//    `harmony-catalog/vitest` still loads it (a project that uses vitest).
const CJS = join(LIB, 'cjs');
/** Lines of a declaration file left out of its CommonJS copy (each must be there: the build fails when one is not). */
const ESM_ONLY = { 'index.d.ts': ["export type {} from './testing/matchers.js';"] };
/** The relative specifiers of a declaration file (`from './x.js'`, `import './x.js'`, `import("./x.js")`). */
const RELATIVE = /(\bfrom\s*|\bimport\s*|\bimport\(\s*)(['"])(\.{1,2}\/[^'"]*)\2/g;
const declarations = new Set();
const reached = Object.keys(libEntries).map((p) => join(DIST, `${p}.d.ts`));
while (reached.length) {
  const file = reached.pop();
  if (declarations.has(file)) continue;
  if (!existsSync(file)) {
    console.error(`bundle: ${relative(ROOT, file)} (reached from the entries' declarations) does not exist`);
    process.exit(1);
  }
  declarations.add(file);
  for (const m of readFileSync(file, 'utf8').matchAll(RELATIVE)) {
    if (!m[3].endsWith('.js')) {
      console.error(`bundle: ${relative(ROOT, file)} imports ${m[3]}: expected a relative specifier ending in .js`);
      process.exit(1);
    }
    reached.push(join(dirname(file), m[3].replace(/\.js$/, '.d.ts')));
  }
}
for (const file of declarations) {
  const rel = relative(DIST, file).replace(/\\/g, '/');
  let text = readFileSync(file, 'utf8');
  for (const line of ESM_ONLY[rel] ?? []) {
    const lines = text.split('\n');
    if (!lines.includes(line)) {
      console.error(`bundle: ${relative(ROOT, file)} should have the line ${line} (left out of its CommonJS declarations)`);
      process.exit(1);
    }
    text = lines.filter((l) => l !== line).join('\n');
  }
  const out = join(CJS, rel.replace(/\.d\.ts$/, '.d.cts'));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text.replace(RELATIVE, (_, head, q, spec) => `${head}${q}${spec.replace(/\.js$/, '.cjs')}${q}`));
}
for (const path of Object.keys(libEntries)) {
  const shim = join(CJS, `${path}.cjs`);
  const target = relative(dirname(shim), join(LIB, `${path}.js`)).replace(/\\/g, '/');
  writeFileSync(shim, `'use strict';\n// require('${pkg.name}${exportKeys[path].slice(1)}'): the ES module itself (Node >= 20.19 loads it with require); see package.json exports\nmodule.exports = require(${JSON.stringify(target.startsWith('.') ? target : `./${target}`)});\n`);
}

// the stamp the tests compare with tsc's output to know the bundles are current (test/support/build.ts)
writeFileSync(join(DIST, '.bundled'), `${new Date().toISOString()}\n`);
