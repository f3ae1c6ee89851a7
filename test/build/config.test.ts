import { describe, expect, it } from 'vitest';
import { ConfigError, keyName, validateConfig } from '../../src/build/config.js';

function problems(value: unknown): readonly string[] {
  try {
    validateConfig(value, 'harmony-catalog.config.json');
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).problems;
  }
  return [];
}

describe('build config', () => {
  it('accepts every kind of source and output', () => {
    expect(
      problems({
        $schema: './schema.json',
        sources: ['tools/*.json', { files: ['a.json', 'b/**/*.json'] }, { module: './tools.mjs', export: ['a', 'b'] }, { mcp: 'node server.js stdio', timeoutMs: 5000, cwd: 'srv' }],
        outputs: [
          { path: 'out/dev.txt', part: 'developer', instructions: 'Hi.', namespace: 'x', namespaceDescription: 'X.' },
          { path: 'out/a.ts', format: 'module', target: 'harmony', flavor: 'chat-template', date: '2025-08-05', effort: 'high', identity: 'Bot.', cutoff: '2024-01', browser: true, python: false },
          { path: 'out/b.json', target: 'xml', dialect: 'hermes', completion: true, controlTokens: 'escape', messages: [{ role: 'user', content: 'hi' }] },
        ],
      }),
    ).toEqual([]);
  });

  it.each<[string, unknown, string[]]>([
    ['not an object', [], ['expected an object with "sources" and "outputs", got an empty list']],
    [
      'missing lists',
      {},
      [
        'sources: missing; expected a list of sources (not empty): paths or globs of JSON files, {"files"}, {"module"} or {"mcp"}',
        'outputs: missing; expected a list of outputs (not empty): {"path", "format"?, …}',
      ],
    ],
    ['an unknown top-level key', { sources: ['a.json'], outputs: [{ path: 'x' }], output: [] }, ['output: unknown key; known keys: $schema, sources, outputs']],
    ['empty sources', { sources: [], outputs: [{ path: 'x' }] }, ['sources: expected a list of sources (not empty): paths or globs of JSON files, {"files"}, {"module"} or {"mcp"}, got an empty list']],
    ['a source of no kind', { sources: [{ file: 'a.json' }], outputs: [{ path: 'x' }] }, ['sources[0]: expected a path or glob string, {"files": …}, {"module": …} or {"mcp": …}, got an object with keys file']],
    ['a bad files entry', { sources: [{ files: 3 }], outputs: [{ path: 'x' }] }, ['sources[0].files: expected a path or a glob (a non-empty string), or a list of them, got 3']],
    ['a bad mcp source', { sources: [{ mcp: 'x', timeoutMs: 0, args: [] }], outputs: [{ path: 'x' }] }, ['sources[0].args: unknown key; known keys: mcp, timeoutMs, cwd, env', 'sources[0].timeoutMs: expected a whole number ≥ 1 (milliseconds), got 0']],
    ['an output without a path', { sources: ['a.json'], outputs: [{ format: 'text' }] }, ['outputs[0].path: missing; expected a non-empty string (a file path, relative to the config file)']],
    ['a bad format', { sources: ['a.json'], outputs: [{ path: 'x', format: 'yaml' }] }, ['outputs[0].format: expected one of "text", "module", "json", got "yaml"']],
    ['a bad target', { sources: ['a.json'], outputs: [{ path: 'x', target: 'markdown' }] }, ['outputs[0].target: expected one of "harmony", "jsdoc", "xml", got "markdown"']],
    ['a bad flavor', { sources: ['a.json'], outputs: [{ path: 'x', flavor: 'vllm' }] }, ['outputs[0].flavor: expected one of "openai-harmony", "chat-template", "ollama", got "vllm"']],
    ['a bad date', { sources: ['a.json'], outputs: [{ path: 'x', date: 'today' }] }, ['outputs[0].date: expected a date, YYYY-MM-DD, got "today"']],
    ['a bad boolean', { sources: ['a.json'], outputs: [{ path: 'x', browser: 'yes' }] }, ['outputs[0].browser: expected true or false, got "yes"']],
    ['an unknown output key', { sources: ['a.json'], outputs: [{ path: 'x', flavour: 'chat-template' }] }, [
      'outputs[0].flavour: unknown key; known keys: path, format, part, target, flavor, dialect, model, instructions, namespace, namespaceDescription, date, effort, identity, cutoff, browser, python, completion, controlTokens, messages, server, messageFormat, template, special, templateKwargs, tokenizer',
    ]],
    ['an output that is not an object', { sources: ['a.json'], outputs: ['out.txt'] }, ['outputs[0]: expected an output object {"path", "format"?, "part"?, "target"?, "flavor"?, render options…}, got "out.txt"']],
  ])('%s', (_name, value, want) => {
    expect(problems(value)).toEqual(want);
  });

  it('lists every problem at once, and the message names the file', () => {
    try {
      validateConfig({ sources: [{ files: [] }], outputs: [{ path: '', effort: 'max' }] }, 'cfg.json');
      throw new Error('expected a ConfigError');
    } catch (e) {
      expect((e as Error).message).toBe(
        'cfg.json: 3 problems:\n' +
          '  sources[0].files: expected a path or a glob (a non-empty string), or a list of them, got an empty list\n' +
          '  outputs[0].path: expected a non-empty string (a file path, relative to the config file), got ""\n' +
          '  outputs[0].effort: expected one of "low", "medium", "high", got "max"',
      );
    }
  });

  it('keyName', () => {
    expect(keyName('/outputs/0/format')).toBe('outputs[0].format');
    expect(keyName('/sources/2')).toBe('sources[2]');
    expect(keyName('/a~1b')).toBe('a/b');
    expect(keyName('')).toBe('(the config)');
  });
});
