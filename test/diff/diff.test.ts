/**
 * Diff of two flavors, tool by tool: statuses, patches, the CLI, and (with ../shared) the
 * corpus, whose identical/differ/fail split must match what the two oracles say.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { diffFlavors, diffSummary, formatDiff } from '../../src/diff.js';
import { HAVE_SHARED, readJsonlPlain, readOracleCases, sharedPath } from '../support/shared.js';
import { captureIo } from '../support/cli.js';

const SAME = { name: 'ping', description: 'Ping the server.' };
const DEFAULTED = { name: 'get_weather', description: 'Weather.', parameters: { type: 'object', properties: { unit: { type: 'string', enum: ['c', 'f'], default: 'c' } } } };
const UNDOCUMENTED = { name: 'undocumented', parameters: { type: 'object', properties: { q: { type: 'string' } } } };

describe('diffFlavors', () => {
  it('identical, differ and fail, with the counts and a unified diff', () => {
    const r = diffFlavors([SAME, DEFAULTED, UNDOCUMENTED]);
    expect([r.identical, r.differ, r.errors]).toEqual([1, 1, 1]);
    expect(r.tools.map((t) => t.status)).toEqual(['identical', 'differ', 'error']);
    expect(r.tools[0].a).toEqual({ text: '// Ping the server.\ntype ping = () => any;\n\n' });
    expect(r.tools[0].b).toEqual(r.tools[0].a);
    expect(r.tools[1].patch).toBe(
      [
        '--- get_weather (openai-harmony)',
        '+++ get_weather (chat-template)',
        '@@ -1,5 +1,5 @@',
        ' // Weather.',
        ' type get_weather = (_: {',
        '-unit?: "c" | "f", // default: c',
        '+unit?: "c" | "f", // default: c,',
        ' }) => any;',
        ' ',
        '',
      ].join('\n'),
    );
    expect('error' in r.tools[2].b && r.tools[2].b.error).toMatch(/no description/);
    expect('text' in r.tools[2].a).toBe(true);
    expect(diffSummary(r)).toBe('1 tool identical, 1 differ, 1 fail');
    const text = formatDiff(r);
    expect(text).toContain('tool undocumented: fails under chat-template\n  the gpt-oss chat template fails on this tool: the tool has no description');
    expect(text.endsWith('1 tool identical, 1 differ, 1 fail\n')).toBe(true);
  });

  it('any two flavors, faithful included; context lines as asked', () => {
    const r = diffFlavors([DEFAULTED], { a: 'openai-harmony', b: 'faithful', context: 0 });
    expect(r.tools[0].patch).toBe(
      ['--- get_weather (openai-harmony)', '+++ get_weather (faithful)', '@@ -3,1 +3,1 @@', '-unit?: "c" | "f", // default: c', '+unit?: "c" | "f", // default: "c"', ''].join('\n'),
    );
    const same = diffFlavors([SAME], { a: 'chat-template', b: 'chat-template' });
    expect(diffSummary(same)).toBe('1 tool identical, 0 differ');
  });

  it('a schema that cannot be lowered fails on both sides, with the lowering error', () => {
    let s: unknown = { type: 'string' };
    for (let k = 0; k < 200; k++) s = { type: 'object', properties: { x: s } };
    const r = diffFlavors([{ name: 'deep', description: 'd', parameters: s }]);
    expect(r.tools[0].status).toBe('error');
    expect('error' in r.tools[0].a && r.tools[0].a.error).toMatch(/schema\/too-deep/);
    expect(formatDiff(r)).toContain('tool deep: fails under openai-harmony and chat-template\n');
  });
});


describe('diff: CLI', () => {
  it('exit 0 when every tool is the same, 1 when some differ or fail', async () => {
    let io = captureIo(JSON.stringify([SAME]));
    expect(await main(['diff', '-'], io)).toBe(0);
    expect(io.out).toBe('1 tool identical, 0 differ\n');
    io = captureIo(JSON.stringify([SAME]));
    expect(await main(['diff', '-', '--identical'], io)).toBe(0);
    expect(io.out).toBe('tool ping: identical\n1 tool identical, 0 differ\n');
    io = captureIo(JSON.stringify([SAME, DEFAULTED, UNDOCUMENTED]));
    expect(await main(['diff', '-'], io)).toBe(1);
    expect(io.out).toContain('+unit?: "c" | "f", // default: c,\n');
    expect(io.out.endsWith('1 tool identical, 1 differ, 1 fail\n')).toBe(true);
  });

  it('--a/--b and --format json', async () => {
    const io = captureIo(JSON.stringify([DEFAULTED]));
    expect(await main(['diff', '-', '--a', 'chat-template', '--b', 'faithful', '--format', 'json'], io)).toBe(1);
    const j = JSON.parse(io.out) as { a: string; b: string; identical: number; differ: number; errors: number; tools: { status: string; patch: string }[] };
    expect([j.a, j.b, j.identical, j.differ, j.errors]).toEqual(['chat-template', 'faithful', 0, 1, 0]);
    expect(j.tools[0].patch).toContain('+++ get_weather (faithful)');
  });

  it('usage errors exit 2', async () => {
    for (const args of [['diff'], ['diff', '-', '--a', 'xml'], ['diff', '-', '--context', '-1'], ['diff', '-', '--format', 'html'], ['diff', 'a', 'b']]) {
      const io = captureIo('[]');
      expect(await main(args, io), args.join(' ')).toBe(2);
    }
    const io = captureIo();
    expect(await main(['diff', '--help'], io)).toBe(0);
    expect(io.out).toContain('Usage: harmony-catalog diff');
  });
});

/** The catalog entry inside a developer message: between `namespace functions {⏎⏎` and `} // namespace functions`. */
function entryOf(developer: string): string {
  const head = 'namespace functions {\n\n';
  const start = developer.indexOf(head);
  const end = developer.lastIndexOf('} // namespace functions');
  return developer.slice(start + head.length, end);
}

if (HAVE_SHARED) {
  describe('diff: corpus', () => {
    it('openai-harmony vs chat-template on each corpus tool: the same split as the two oracles, tool by tool', () => {
      const cases = readOracleCases(sharedPath('oracles/inputs/corpus-single.jsonl'));
      const harmony = new Map(readJsonlPlain<{ id: string; developer: string }>(sharedPath('oracles/openai-harmony/corpus-single.jsonl')).map((r) => [r.id, r.developer]));
      const template = new Map(readJsonlPlain<{ id: string; prompt?: string; error?: string }>(sharedPath('oracles/chat-template/corpus-single.jsonl')).map((r) => [r.id, r]));
      const counts = { identical: 0, differ: 0, errors: 0 };
      const mismatched: string[] = [];
      for (const c of cases) {
        const r = diffFlavors(c.tools);
        const t = r.tools[0];
        counts[t.status === 'identical' ? 'identical' : t.status === 'differ' ? 'differ' : 'errors']++;
        const tpl = template.get(c.id)!;
        const want = tpl.error !== undefined ? 'error' : entryOf(harmony.get(c.id)!) === entryOf(tpl.prompt!) ? 'identical' : 'differ';
        if (want !== t.status) mismatched.push(`${c.id}: ${t.status}, oracles say ${want}`);
      }
      console.log(`diff openai-harmony vs chat-template over ${cases.length} corpus tools: ${counts.identical} identical, ${counts.differ} differ, ${counts.errors} fail`);
      expect(mismatched).toEqual([]);
      expect(counts).toEqual({ identical: 511, differ: 1465, errors: 24 });
    });
  });
}
