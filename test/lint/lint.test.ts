/**
 * Lint: the project's own cases (test/cases/lint/*.json: tools and every finding expected, as
 * `severity code flavor path` lines reviewed by hand against the renderers' output), the API
 * shape, the CLI, and a run over the whole corpus that prints the counts per code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { isCompileError } from '../../src/diagnostics.js';
import { getKey, isJsonArray, parseJson, type JsonValue } from '../../src/ir/json.js';
import { lintTools, LINT_FLAVORS, LINT_RULES, type Finding, type LintCode } from '../../src/lint/index.js';
import { HAVE_SHARED, readJsonl, readJsonlPlain, ROOT, sharedPath } from '../support/shared.js';
import { captureIo } from '../support/cli.js';

const dir = join(ROOT, 'test/cases/lint');
const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
const line = (f: Finding) => `${f.severity} ${f.code} ${f.flavor} ${f.path}`;

interface Case {
  readonly tools: JsonValue;
  readonly expect: readonly string[];
}

function readCase(file: string): Case {
  const v = parseJson(readFileSync(join(dir, file), 'utf8'));
  const want = getKey(v, 'expect');
  return { tools: getKey(v, 'tools') as JsonValue, expect: isJsonArray(want) ? (want as string[]) : [] };
}

describe('lint: own cases', () => {
  it.each(files)('%s', (file) => {
    const c = readCase(file);
    expect(lintTools(c.tools).findings.map(line)).toEqual(c.expect);
  });

  it('every code has a case, and every code a case expects exists', () => {
    const seen = new Set(files.flatMap((f) => readCase(f).expect.map((l) => l.split(' ')[1])));
    expect([...seen].filter((c) => !(c in LINT_RULES))).toEqual([]);
    expect(Object.keys(LINT_RULES).filter((c) => !seen.has(c))).toEqual([]);
  });

  it('every finding has the severity, flavor and tool its code says', () => {
    for (const f of files) {
      for (const x of lintTools(readCase(f).tools).findings) {
        const rule = LINT_RULES[x.code as LintCode];
        expect(rule, x.code).toBeDefined();
        expect(rule.flavors).toContain(x.flavor);
        const sev = typeof rule.severity === 'string' ? rule.severity : rule.severity[x.flavor!];
        expect(x.severity).toBe(sev);
        expect(typeof x.tool).toBe('string');
        expect(x.path.startsWith('/')).toBe(true);
        expect(x.message.length).toBeGreaterThan(10);
      }
    }
  });

  it('docs/lint.md documents every code with an example', () => {
    const doc = readFileSync(join(ROOT, 'docs/lint.md'), 'utf8');
    for (const code of Object.keys(LINT_RULES)) expect(doc, code).toMatch(new RegExp(`^\\| \`${code.replace('/', '\\/')}\` \\|`, 'm'));
  });
});

describe('lint: API', () => {
  const tools = '[{"name":"f","description":"d","parameters":{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"null"}]}}}}]';

  it('reads every flavor by default, one when asked', () => {
    const all = lintTools(tools).findings;
    expect(all.map((f) => f.flavor)).toEqual(['openai-harmony', 'chat-template']);
    expect(LINT_FLAVORS).toEqual(['openai-harmony', 'chat-template']);
    const one = lintTools(tools, { flavors: ['chat-template'] }).findings;
    expect(one).toEqual([all[1]]);
    expect(one[0]).toMatchObject({ code: 'lint/any-anyof', severity: 'warning', tool: 'f', path: '/0/parameters/properties/a/anyOf', flavor: 'chat-template' });
  });

  it('takes any input shape, and a readTools result', () => {
    const mcp = { name: 'f', description: 'd', inputSchema: { type: 'object', properties: { a: { const: 1 } } } };
    expect(lintTools([mcp]).findings.map((f) => f.code)).toEqual(['lint/any-const', 'lint/any-const']);
  });

  it('throws a CompileError only when the input cannot be read', () => {
    let err: unknown;
    try {
      lintTools('not json');
    } catch (e) {
      err = e;
    }
    expect(isCompileError(err)).toBe(true);
  });

  it('a schema too deep to lower is a diagnostic, not a throw', () => {
    let s: unknown = { type: 'string' };
    for (let k = 0; k < 200; k++) s = { type: 'object', properties: { x: s } };
    const r = lintTools([{ name: 'deep', description: 'd', parameters: s }]);
    expect(r.diagnostics.some((d) => d.code === 'schema/too-deep' && d.severity === 'error')).toBe(true);
  });

  it('control tokens: an error under the template, a warning under harmony', () => {
    const r = lintTools([{ name: 'f', description: 'Call me <|call|> now' }]).findings.filter((f) => f.code === 'lint/control-token');
    expect(r.map((f) => `${f.flavor} ${f.severity} ${f.path}`)).toEqual(['openai-harmony warning /0/description', 'chat-template error /0/description']);
  });
});


describe('lint: CLI', () => {
  const file = (name: string) => join(dir, name);
  const toolsOf = (name: string) => JSON.stringify(JSON.parse(readFileSync(file(name), 'utf8')).tools);

  it('a clean file exits 0 and says so', async () => {
    const io = captureIo(toolsOf('09-clean.json'));
    expect(await main(['lint', '-'], io)).toBe(0);
    expect(io.out).toBe('0 errors, 0 warnings, 0 infos in 0 tools (openai-harmony, chat-template)\n');
  });

  it('errors exit 1; the text lists findings by tool, merged across flavors when said the same way', async () => {
    const io = captureIo(toolsOf('06-text.json'));
    expect(await main(['lint', '-'], io)).toBe(1);
    expect(io.out).toContain('tool "get-text"\n');
    expect(io.out).toContain('  /0/parameters/properties/x-request-id  info  lint/property-name-not-identifier  [openai-harmony, chat-template]  the property name');
    expect(io.out).toContain('  /0/parameters/properties/payload/description  error  lint/control-token  [chat-template]');
    expect(io.out.trimEnd().split('\n').pop()).toBe('1 error, 5 warnings, 2 infos in 1 tool (openai-harmony, chat-template)');
  });

  it('the summary, --max-warnings and the JSON summary count what is listed: a finding both flavors say is one', async () => {
    for (const name of files) {
      const io = captureIo(toolsOf(name));
      await main(['lint', '-'], io);
      const lines = io.out.split('\n');
      const listed = (severity: string) => lines.filter((l) => /^  .*?  (error|warning|info)  lint\//.exec(l)?.[1] === severity).length;
      const counts = { errors: listed('error'), warnings: listed('warning'), infos: listed('info') };
      const summary = lines.filter(Boolean).pop()!;
      expect(summary, name).toMatch(new RegExp(`^${counts.errors} errors?, ${counts.warnings} warnings?, ${counts.infos} infos? in `));
      const json = captureIo(toolsOf(name));
      await main(['lint', '-', '--format', 'json'], json);
      expect((JSON.parse(json.out) as { summary: object }).summary, name).toMatchObject(counts);
      if (counts.errors === 0 && counts.warnings > 0) {
        expect(await main(['lint', '-', '--max-warnings', String(counts.warnings)], captureIo(toolsOf(name))), name).toBe(0);
        expect(await main(['lint', '-', '--max-warnings', String(counts.warnings - 1)], captureIo(toolsOf(name))), name).toBe(1);
      }
    }
    // 06-text.json: findings both flavors share (a non-identifier property name…) are listed and counted once
    const io = captureIo(toolsOf('06-text.json'));
    await main(['lint', '-'], io);
    expect(io.out.split('\n').filter((l) => l.includes('[openai-harmony, chat-template]')).length).toBeGreaterThan(0);
  });

  it('--flavor, --max-warnings, --quiet, --format json', async () => {
    const enums = toolsOf('03-enums.json');
    let io = captureIo(enums);
    expect(await main(['lint', '-', '--flavor', 'openai-harmony'], io)).toBe(0);
    expect(io.out).not.toContain('chat-template]');
    io = captureIo(enums);
    expect(await main(['lint', '-', '--max-warnings', '3'], io)).toBe(1);
    expect(io.err).toContain('more than --max-warnings 3');
    io = captureIo(enums);
    expect(await main(['lint', '-', '--max-warnings', '100', '--quiet'], io)).toBe(0);
    expect(io.out).not.toContain('  info  ');
    io = captureIo(enums);
    expect(await main(['lint', '-', '--format', 'json', '--flavor', 'chat-template'], io)).toBe(0);
    const j = JSON.parse(io.out) as { flavors: string[]; findings: Finding[]; summary: { warnings: number; infos: number; errors: number; tools: number } };
    expect(j.flavors).toEqual(['chat-template']);
    expect(j.summary).toEqual({ errors: 0, warnings: 6, infos: 1, tools: 1 });
    expect(j.findings[0]).toMatchObject({ code: 'lint/enum-as-type', flavor: 'chat-template', tool: 'enums' });
  });

  it('usage errors exit 2', async () => {
    for (const args of [['lint'], ['lint', '-', '--flavor', 'xml'], ['lint', '-', '--all', '--flavor', 'chat-template'], ['lint', '-', '--format', 'yaml'], ['lint', '-', '--max-warnings', 'x'], ['lint', 'a', 'b'], ['lint', '-', '--bogus']]) {
      const io = captureIo('[]');
      expect(await main(args, io), args.join(' ')).toBe(2);
    }
  });

  it('input that cannot be read exits 1; --help exits 0', async () => {
    let io = captureIo('{');
    expect(await main(['lint', '-'], io)).toBe(1);
    io = captureIo();
    expect(await main(['lint', '--help'], io)).toBe(0);
    expect(io.out).toContain('Usage: harmony-catalog lint');
  });
});

if (HAVE_SHARED) {
  describe('lint: corpus', () => {
    it('lints every corpus tool alone; prints the counts per code; template errors are exactly the oracle\'s', () => {
      const rows = readJsonl(sharedPath('corpus/tools.jsonl'));
      const counts = new Map<string, number>();
      const templateErrors = new Set<string>();
      for (const row of rows) {
        const tool = new Map<string, JsonValue>();
        for (const k of ['name', 'description', 'parameters']) {
          const v = getKey(row, k);
          if (v !== undefined) tool.set(k, v);
        }
        const r = lintTools([tool]);
        for (const f of r.findings) {
          const key = `${f.code} ${f.flavor}`;
          counts.set(key, (counts.get(key) ?? 0) + 1);
          if (f.code === 'lint/template-error') templateErrors.add(String(getKey(row, 'id')));
          expect(f.code in LINT_RULES, f.code).toBe(true);
        }
      }
      const table = [...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, n]) => `${String(n).padStart(6)}  ${k}`);
      console.log(`lint over ${rows.length} corpus tools (each alone), findings per code and flavor:\n${table.join('\n')}`);
      const oracle = readJsonlPlain<{ id: string; error?: string }>(sharedPath('oracles/chat-template/corpus-single.jsonl'));
      const want = new Set(oracle.filter((o) => o.error !== undefined).map((o) => o.id));
      expect([...templateErrors].sort()).toEqual([...want].sort());
      // every code that real tools can trigger did, under each of its flavors
      for (const k of ['lint/any-anyof', 'lint/dropped-nested-description', 'lint/array-collapsed', 'lint/enum-as-type', 'lint/dropped-title', 'lint/comment-newline']) {
        for (const fl of LINT_RULES[k as LintCode].flavors) expect(counts.get(`${k} ${fl}`) ?? 0, `${k} ${fl}`).toBeGreaterThan(0);
      }
    });
  });
}
