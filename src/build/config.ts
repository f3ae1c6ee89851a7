/**
 * The build config (`harmony-catalog.config.json`): its TypeBox schema, and reading it with errors
 * that name the key and say what was expected.
 */
import { readFileSync } from 'node:fs';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { FLAVORS, MESSAGE_FORMATS, SERVERS, TARGETS, XML_DIALECTS } from '../api/render.js';
import { CONTROL_TOKEN_POLICIES } from '../input/control-tokens.js';
import { modelNames } from '../api/models.js';
import { pushAll } from '../ir/arrays.js';

/** The default config file name. */
export const CONFIG_FILE = 'harmony-catalog.config.json';

const NonEmpty = (description: string) => Type.String({ minLength: 1, description });
const Strings = (description: string) =>
  Type.Union([NonEmpty(description), Type.Array(NonEmpty(description), { minItems: 1 })], { description: `${description} (a non-empty string), or a list of them` });
const Literals = <T extends string>(values: readonly T[], description: string) => Type.Union(values.map((v) => Type.Literal(v)), { description });

/** JSON files: a path or a glob (`*`, `?`, `**`), or several; relative to the config file. */
export const FilesSource = Type.Object({ files: Strings('a path or a glob') }, { additionalProperties: false });
/** An ES module (.js/.mjs) exporting tools (any shape) or TypeBox/JSON schemas (one tool each, named after the export). */
export const ModuleSource = Type.Object(
  {
    module: NonEmpty('the path of an ES module'),
    export: Type.Optional(Strings('an export name')),
  },
  { additionalProperties: false },
);
/**
 * A live MCP server over stdio: its command line, split like a shell would (never run through one); it runs in
 * the config's directory unless `cwd` says otherwise, with the environment of the build plus `env`.
 */
export const McpSource = Type.Object(
  {
    mcp: NonEmpty('a command line, e.g. "node server.js stdio"'),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 1, description: 'milliseconds' })),
    cwd: Type.Optional(NonEmpty('a directory, relative to the config file')),
    env: Type.Optional(
      Type.Record(Type.String(), Type.String(), { description: 'an object of environment variables, {"NAME": "value"}, set over the inherited environment' }),
    ),
  },
  { additionalProperties: false },
);

/** The output formats. */
export const OUTPUT_FORMATS = ['text', 'module', 'json'] as const;
/** The parts a text output can hold. */
export const OUTPUT_PARTS = ['system', 'developer', 'catalog', 'prompt'] as const;

/** One output file. */
export const Output = Type.Object(
  {
    path: NonEmpty('a file path, relative to the config file'),
    format: Type.Optional(Literals(OUTPUT_FORMATS, 'the file format')),
    part: Type.Optional(Literals(OUTPUT_PARTS, 'the part a text output holds')),
    target: Type.Optional(Literals(TARGETS, 'the target')),
    flavor: Type.Optional(Literals(FLAVORS, 'the flavor')),
    dialect: Type.Optional(Literals(XML_DIALECTS, 'the dialect of the xml target')),
    model: Type.Optional(Literals(modelNames(), 'a model name (harmony-catalog models lists them)')),
    instructions: Type.Optional(Type.String({ description: 'developer instructions' })),
    namespace: Type.Optional(NonEmpty('a namespace name')),
    namespaceDescription: Type.Optional(Type.String({ description: 'the namespace description' })),
    date: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'a date, YYYY-MM-DD' })),
    effort: Type.Optional(Literals(['low', 'medium', 'high'] as const, 'the reasoning effort')),
    identity: Type.Optional(Type.String({ description: 'the model identity line' })),
    cutoff: Type.Optional(Type.String({ description: 'the knowledge cutoff' })),
    browser: Type.Optional(Type.Boolean()),
    python: Type.Optional(Type.Boolean()),
    completion: Type.Optional(Type.Boolean()),
    controlTokens: Type.Optional(Literals(CONTROL_TOKEN_POLICIES, 'what to do with tool text that spells a control token')),
    messages: Type.Optional(
      Type.Array(Type.Record(Type.String(), Type.Unknown(), { description: 'a message: OpenAI Chat Completions, Responses, Anthropic or Harmony {"role", "content", …}' }), {
        description: 'the conversation after the system and developer messages (any message shape render reads)',
      }),
    ),
    server: Type.Optional(Literals(SERVERS, 'whose request → prompt mapping renders the conversation')),
    messageFormat: Type.Optional(Literals(MESSAGE_FORMATS, 'the shape of messages (default: told apart by shape)')),
    template: Type.Optional(NonEmpty('a chat template: a .jinja file, a tokenizer_config.json or chat_template.json, or a model folder holding one, relative to the config file')),
    special: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'an object of the special tokens the template reads, {"bos_token": "<s>"}' })),
    templateKwargs: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'an object of template variables, {"enable_thinking": false}' })),
    tokenizer: Type.Optional(NonEmpty('what counts the tokens: a tokenizer.json or a model folder (relative to the config file), a Hugging Face model id in the local cache, or "gpt-oss"')),
  },
  { additionalProperties: false, description: 'an output object {"path", "format"?, "part"?, "target"?, "flavor"?, render options…}' },
);

/** A source entry: a path or glob string, or one of the source objects. */
export const Source = Type.Union([NonEmpty('a path or a glob'), FilesSource, ModuleSource, McpSource], {
  description: 'a path or glob string, {"files": …}, {"module": …} or {"mcp": …}',
});

/** The whole config. */
export const BuildConfigSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    sources: Type.Array(Source, { minItems: 1, description: 'a list of sources (not empty): paths or globs of JSON files, {"files"}, {"module"} or {"mcp"}' }),
    outputs: Type.Array(Output, { minItems: 1, description: 'a list of outputs (not empty): {"path", "format"?, …}' }),
  },
  { additionalProperties: false },
);

/** A config as written. */
export type BuildConfig = Static<typeof BuildConfigSchema>;
/** One output as written. */
export type OutputConfig = Static<typeof Output>;
/** One source as written. */
export type SourceConfig = Static<typeof Source>;

/** A config that cannot be used: every problem, each naming its key. */
export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(file: string, problems: readonly string[]) {
    super(`${file}: ${problems.length === 1 ? problems[0] : `${problems.length} problems:\n${problems.map((p) => `  ${p}`).join('\n')}`}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** `/outputs/0/format` → `outputs[0].format`. */
export function keyName(pointer: string): string {
  if (pointer === '') return '(the config)';
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, t) => (/^\d+$/.test(t) ? `${acc}[${t}]` : acc === '' ? t : `${acc}.${t}`), '');
}

/** What a schema expects, in words. */
export function expected(schema: TSchema): string {
  if (schema.anyOf && typeof schema.description === 'string' && !(schema.anyOf as TSchema[]).every((m) => m.const !== undefined)) return schema.description;
  if ((schema.type === 'array' || schema.type === 'object') && typeof schema.description === 'string') return schema.description;
  if (schema.anyOf) {
    const members = schema.anyOf as TSchema[];
    if (members.every((m) => m.const !== undefined)) return `one of ${members.map((m) => JSON.stringify(m.const)).join(', ')}`;
    return members.map(expected).join(', or ');
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const what = typeof schema.description === 'string' ? ` (${schema.description})` : '';
  switch (schema.type) {
    case 'string':
      if (typeof schema.pattern === 'string' && typeof schema.description === 'string') return schema.description;
      return `${schema.minLength ? 'a non-empty string' : 'a string'}${what}`;
    case 'integer':
      return `a whole number${schema.minimum !== undefined ? ` ≥ ${schema.minimum}` : ''}${what}`;
    case 'number':
      return `a number${what}`;
    case 'boolean':
      return 'true or false';
    case 'array':
      return `a list${schema.minItems ? ' (not empty)' : ''}`;
    case 'object': {
      const keys = Object.keys((schema.properties as Record<string, unknown>) ?? {});
      return `an object with ${keys.map((k) => JSON.stringify(k)).join(', ')}`;
    }
    default:
      return 'a value';
  }
}

function got(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.length ? 'a list' : 'an empty list';
  if (typeof v === 'object') return 'an object';
  return JSON.stringify(v);
}

/** A source object's own schema, picked by its key, so errors are about that kind of source. */
function sourceSchema(v: unknown): TSchema | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  if ('mcp' in v) return McpSource;
  if ('module' in v) return ModuleSource;
  if ('files' in v) return FilesSource;
  return undefined;
}

/** One problem per error, naming the key and what was expected. */
function describe(e: ValueError, base = ''): string {
  const key = keyName(base + e.path);
  switch (e.type) {
    case ValueErrorType.ObjectAdditionalProperties:
      return `${key}: unknown key (expected one of the known keys)`;
    case ValueErrorType.ObjectRequiredProperty:
      return `${key}: missing; expected ${expected(e.schema)}`;
    default:
      return `${key}: expected ${expected(e.schema)}, got ${got(e.value)}`;
  }
}

/** Validate a parsed config; every problem is listed. */
export function validateConfig(value: unknown, file: string): BuildConfig {
  const problems: string[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ConfigError(file, [`expected an object with "sources" and "outputs", got ${got(value)}`]);
  const v = value as Record<string, unknown>;
  const known = Object.keys(BuildConfigSchema.properties);
  for (const k of Object.keys(v)) if (!known.includes(k)) problems.push(`${keyName(`/${k}`)}: unknown key; known keys: ${known.join(', ')}`);
  for (const k of ['sources', 'outputs'] as const) {
    if (!(k in v)) problems.push(`${k}: missing; expected ${expected(BuildConfigSchema.properties[k])}`);
    else if (!Array.isArray(v[k]) || (v[k] as unknown[]).length === 0) problems.push(`${k}: expected ${expected(BuildConfigSchema.properties[k])}, got ${Array.isArray(v[k]) ? 'an empty list' : got(v[k])}`);
  }
  if (v.$schema !== undefined && typeof v.$schema !== 'string') problems.push(`$schema: expected a string, got ${got(v.$schema)}`);
  if (Array.isArray(v.sources)) {
    v.sources.forEach((s, i) => {
      if (typeof s === 'string') {
        if (s === '') problems.push(`sources[${i}]: expected a path or a glob, got ""`);
        return;
      }
      const schema = sourceSchema(s);
      if (!schema) {
        problems.push(`sources[${i}]: expected ${expected(Source)}, got ${got(s)}${typeof s === 'object' && s ? ` with keys ${Object.keys(s).join(', ') || '(none)'}` : ''}`);
        return;
      }
      for (const e of firstPerKey(Value.Errors(schema, s))) problems.push(describeUnknown(e, `/sources/${i}`, schema));
      if (schema === McpSource) pushAll(problems, envNameProblems((s as { env?: unknown }).env, `/sources/${i}/env`));
    });
  }
  if (Array.isArray(v.outputs)) {
    v.outputs.forEach((o, i) => {
      for (const e of firstPerKey(Value.Errors(Output, o))) problems.push(describeUnknown(e, `/outputs/${i}`, Output));
    });
  }
  if (problems.length) throw new ConfigError(file, problems);
  return value as BuildConfig;
}

/** An `env` object's names that no environment can hold (empty, or with "=" or a NUL in them). */
function envNameProblems(env: unknown, pointer: string): string[] {
  if (typeof env !== 'object' || env === null || Array.isArray(env)) return [];
  return Object.keys(env)
    .filter((name) => name === '' || name.includes('=') || name.includes('\0'))
    .map((name) => `${keyName(pointer)}: ${JSON.stringify(name)} is not a variable name (a name is not empty and has no "=")`);
}

/** One error per key (a union reports several errors for one value). */
function firstPerKey(errors: Iterable<ValueError>): ValueError[] {
  const seen = new Set<string>();
  const out: ValueError[] = [];
  for (const e of errors) {
    if (seen.has(e.path)) continue;
    seen.add(e.path);
    out.push(e);
  }
  return out;
}

/** Like describe, with the known keys named for an unknown key. */
function describeUnknown(e: ValueError, base: string, schema: TSchema): string {
  if (e.type === ValueErrorType.ObjectAdditionalProperties) {
    const keys = Object.keys((schema.properties as Record<string, unknown>) ?? {});
    return `${keyName(base + e.path)}: unknown key; known keys: ${keys.join(', ')}`;
  }
  if (e.type === ValueErrorType.Object) return `${keyName(base + e.path)}: expected ${expected(e.schema)}, got ${got(e.value)}`;
  return describe(e, base);
}

/** Read and validate a config file (JSON). */
export function readConfig(file: string): BuildConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ConfigError(file, [code === 'ENOENT' ? 'no such file (give --config <file>, or create harmony-catalog.config.json)' : `cannot read it: ${(e as Error).message}`]);
  }
  let value: unknown;
  try {
    // a UTF-8 byte order mark is no part of the JSON
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    throw new ConfigError(file, [`not JSON: ${(e as Error).message}`]);
  }
  return validateConfig(value, file);
}
