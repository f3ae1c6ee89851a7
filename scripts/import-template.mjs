#!/usr/bin/env node
/**
 * Write one official chat template as a data module of src/models/templates/.
 *
 *   node scripts/import-template.mjs FILE.jinja OUT.ts --repo OWNER/NAME --path PATH --commit SHA40 \
 *     --licence TEXT --model OWNER/NAME [--note TEXT] [--doc TEXT] [--blob-prefix HEX]
 *     [--restore-from TEXT --restore-to TEXT]
 *
 * FILE.jinja holds the template's exact bytes, as read from the public source (e.g.
 * `git --git-dir=MIRROR show SHA40:PATH > FILE.jinja`; when the template is a string inside a
 * larger file, the string's value). The script checks that the bytes are UTF-8, computes their git
 * blob id (sha1 of "blob <byte length>\0<bytes>", what `git hash-object FILE.jinja` prints), checks
 * it against --blob-prefix when given (the id a README or a tree records), and writes OUT.ts:
 * `export const TEMPLATE: OfficialTemplate = { text, source }` with the text as a JSON string
 * literal. This script holds no template text of its own.
 *
 * When the only public copy changed one span of the official text and the official span is known
 * from public quotes (say where in --note), --restore-from and --restore-to name it: the span must
 * occur exactly once in FILE.jinja; the module's text has it replaced, its blob stays the file's,
 * and `source.restored` records both spans so that anyone can undo the replacement and check the blob.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TYPES = join(ROOT, 'src/models/types.js');
const USAGE =
  'usage: node scripts/import-template.mjs FILE.jinja OUT.ts --repo OWNER/NAME --path PATH --commit SHA40 --licence TEXT --model OWNER/NAME [--note TEXT] [--doc TEXT] [--blob-prefix HEX] [--restore-from TEXT --restore-to TEXT]';

function fail(message) {
  process.stderr.write(`import-template: ${message}\n${USAGE}\n`);
  process.exit(2);
}

/** Positional arguments and `--name value` options. */
function parseArgs(argv) {
  const positional = [];
  const options = {};
  const known = new Set(['repo', 'path', 'commit', 'licence', 'model', 'note', 'doc', 'blob-prefix', 'restore-from', 'restore-to']);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const name = a.slice(2);
      if (!known.has(name)) fail(`unknown option ${a}`);
      if (i + 1 >= argv.length) fail(`${a} needs a value`);
      options[name] = argv[++i];
    } else positional.push(a);
  }
  return { positional, options };
}

/** The git blob id of some bytes. */
function gitBlobId(bytes) {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** A JSON string literal that is also a TypeScript one, with invisible or line-breaking characters escaped. */
function literal(s) {
  return JSON.stringify(s).replace(/[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Text that can sit inside a block comment. */
function commentSafe(s) {
  return s.replace(/\*\//g, '*\\/').replace(/\s*\n\s*/g, ' ');
}

function main() {
  const { positional, options } = parseArgs(process.argv.slice(2));
  if (positional.length !== 2) fail('give FILE.jinja and OUT.ts');
  const [file, out] = positional;
  for (const required of ['repo', 'path', 'commit', 'licence', 'model']) if (!options[required]) fail(`--${required} is required`);
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*\/[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(options.repo)) fail(`--repo ${options.repo} is not OWNER/NAME`);
  if (!/^[0-9a-f]{40}$/.test(options.commit)) fail(`--commit must be the full 40-hex commit, not ${options.commit}`);
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*\/[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(options.model)) fail(`--model ${options.model} is not OWNER/NAME`);

  const bytes = readFileSync(file);
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    fail(`${file} is not valid UTF-8`);
  }
  if (!Buffer.from(text, 'utf8').equals(bytes)) fail(`${file} does not survive a UTF-8 round trip`);
  const blob = gitBlobId(bytes);
  const prefix = options['blob-prefix'];
  if (prefix !== undefined) {
    if (!/^[0-9a-f]{4,40}$/.test(prefix)) fail(`--blob-prefix ${prefix} is not hex`);
    if (!blob.startsWith(prefix)) fail(`${file} has blob ${blob}, not ${prefix}…: wrong bytes`);
  }

  const from = options['restore-from'];
  const to = options['restore-to'];
  if ((from === undefined) !== (to === undefined)) fail('--restore-from and --restore-to go together');
  if (from !== undefined) {
    if (from === '' || to === '') fail('--restore-from and --restore-to must not be empty');
    const at = text.indexOf(from);
    if (at < 0 || text.indexOf(from, at + 1) >= 0) fail(`--restore-from must occur exactly once in ${file}`);
    if (options.note === undefined) fail('--note must say where the restored text is quoted');
    text = text.slice(0, at) + to + text.slice(at + from.length);
  }

  let typesSpec = relative(dirname(resolve(out)), TYPES).split('\\').join('/');
  if (!typesSpec.startsWith('.')) typesSpec = `./${typesSpec}`;
  const doc = options.doc ?? `Chat template of ${options.model}, from ${options.repo} ${options.path}.`;
  const source = [
    `    repo: ${literal(options.repo)},`,
    `    path: ${literal(options.path)},`,
    `    commit: ${literal(options.commit)},`,
    `    blob: ${literal(blob)},`,
    `    licence: ${literal(options.licence)},`,
    `    model: ${literal(options.model)},`,
    ...(options.note !== undefined ? [`    note: ${literal(options.note)},`] : []),
    ...(from !== undefined ? [`    restored: { from: ${literal(from)}, to: ${literal(to)} },`] : []),
  ];
  const module = [
    `/** ${commentSafe(doc)} */`,
    from === undefined
      ? `// Written by scripts/import-template.mjs: the text is the source's bytes, checked by source.blob. Do not edit by hand.`
      : `// Written by scripts/import-template.mjs: the text is the source's bytes with source.restored applied, checked by source.blob. Do not edit by hand.`,
    `import type { OfficialTemplate } from '${typesSpec}';`,
    '',
    'export const TEMPLATE: OfficialTemplate = {',
    `  text: ${literal(text)},`,
    '  source: {',
    ...source,
    '  },',
    '};',
    '',
  ].join('\n');
  mkdirSync(dirname(resolve(out)), { recursive: true });
  writeFileSync(out, module);
  process.stdout.write(`${out}: ${bytes.length} bytes, blob ${blob}\n`);
}

main();
