/**
 * `dump` and `report` at any number of tools (issue 22, item 10). With 130,000 tools both died
 * with "internal error: Maximum call stack size exceeded": `Math.max(...rows)` and
 * `out.push(...list)` pass every element as an argument. Each function that had such a spread is
 * run here on 200,000 elements (a whole dump or report of that size takes too long for the suite:
 * `node bench/scale.mjs` times them); the report's page is written a part at a time (never one
 * string: a JavaScript string holds some 500 million characters at most), the diagnostics are
 * given to their tools in linear time, and progress goes to stderr only when it is a terminal.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatMarkdown, formatText } from '../../src/cli/dump.js';
import { progressLine } from '../../src/cli/progress.js';
import type { Diagnostic } from '../../src/diagnostics.js';
import type { ToolDefinition } from '../../src/input/types.js';
import type { Inventory, InventoryTool } from '../../src/inventory.js';
import { maxOf, minOf, pushAll } from '../../src/ir/arrays.js';
import { parseJson } from '../../src/ir/json.js';
import { schemaForAjv } from '../../src/parse/check.js';
import { renderReport, reportModel, toolNotes, type ReportModel } from '../../src/report/index.js';
import { reportPage, reportPageParts } from '../../src/report/page.js';
import { renderTemplate } from '../../src/template/index.js';
import { runCli } from '../support/cli.js';

const N = 200_000;

describe('no spread of a long list into a call', () => {
  it('pushAll, maxOf and minOf take 1,000,000 elements', () => {
    const big = Array.from({ length: 1_000_000 }, (_, i) => i % 1000);
    expect(pushAll([1], big, new Set([7])).length).toBe(1_000_002);
    expect(maxOf(big)).toBe(999);
    expect(maxOf([], 3)).toBe(3);
    expect(minOf(big, 5)).toBe(0);
    expect(maxOf([1, NaN, 2])).toBeNaN();
  });

  it("dump's text and markdown tables of 200,000 rows", () => {
    const tools: InventoryTool[] = Array.from({ length: N }, (_, i) => ({ name: `tool_${i}`, parameters: 1, tokens: 10 + (i % 7), findings: [], text: `type tool_${i} = () => any;` }));
    const inv: Inventory = { tools, totals: { catalog: 12 * N, system: 60, developer: 12 * N + 20 }, tokenizer: { name: 'o200k_harmony', from: 'builtin', exact: true }, system: '', developer: '', catalog: '', diagnostics: [] };
    const text = formatText(inv, tools, false);
    expect(text.split('\n').length).toBeGreaterThan(N);
    // the name column is as wide as the longest name
    expect(text).toContain(`tool_199999  `);
    expect(formatMarkdown(inv, tools, true).length).toBeGreaterThan(N * 40);
  });

  it("the report's table of 200,000 tools, made a part at a time", async () => {
    const small = await reportModel('[{"name": "f", "description": "F.", "parameters": {"type": "object", "properties": {"a": {"type": "string"}}}}]', { maxTokens: 1_000_000 });
    const tool = small.tools[0];
    const m: ReportModel = { ...small, inlinePanels: false, tools: Array.from({ length: N }, (_, i) => ({ ...tool, index: i, name: `f${i}`, tokens: 5 + (i % 3) })) };
    // the parts up to the end of the table (the panels after it are not made: the parts are lazy)
    let rows = 0;
    let chars = 0;
    for (const part of reportPageParts(m)) {
      chars += part.length;
      if (part.includes('<tr class="tool')) rows++;
      if (part.includes('</table>')) break;
    }
    expect(rows).toBe(N);
    expect(chars).toBeGreaterThan(N * 100);
  });

  it('the parts of a page are the page', async () => {
    for (const options of [{}, { maxTokens: 50, inlinePanels: false }]) {
      const m = await reportModel(readFileSync(join(__dirname, '../../examples/weather.json'), 'utf8'), options);
      expect([...reportPageParts(m)].join('')).toBe(reportPage(m));
    }
  });

  it('a schema whose anyOf has 200,000 members, copied for Ajv', () => {
    const schema = parseJson(`{"anyOf": [${Array.from({ length: N }, (_, i) => `{"const": ${i}}`).join(',')}]}`);
    expect(((schemaForAjv(schema) as { anyOf: unknown[] }).anyOf).length).toBe(N);
  });

  it('a template call with *args of 200,000 values', () => {
    const text = '{% macro f() %}{{ varargs | length }}{% endmacro %}{{ f(*items) }}';
    expect(renderTemplate(text, { items: Array.from({ length: N }, (_, i) => i) })).toBe(String(N));
  });
});

describe('the report at scale', () => {
  it('gives 200,000 diagnostics to 200,000 tools in linear time (it looked at every tool for each)', () => {
    const tools = Array.from({ length: N }, (_, i) => ({ pointer: `/tools/${i}` }) as ToolDefinition);
    const diagnostics: Diagnostic[] = Array.from({ length: N }, (_, i) => ({ code: 'input/unknown-key', severity: 'warning', path: `/tools/${N - 1 - i}/strict`, message: 'x' }));
    diagnostics.push({ code: 'x', severity: 'info', path: '', message: 'no tool' }, { code: 'x', severity: 'info', path: '/tools/12x', message: 'no tool' });
    const t0 = performance.now();
    const notes = toolNotes(diagnostics, tools);
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(notes.length).toBe(N + 1);
    expect(notes[0].map((d) => d.path)).toEqual(['/tools/0/strict']);
    expect(notes[N - 1].map((d) => d.path)).toEqual([`/tools/${N - 1}/strict`]);
    expect(notes[N].map((d) => d.path)).toEqual(['', '/tools/12x']);
    // a tool at the root takes every pointer; the first of two tools with one pointer takes its diagnostics
    const root = toolNotes([{ code: 'x', severity: 'info', path: '/a/b', message: '' }], [{ pointer: '' } as ToolDefinition]);
    expect(root[0].length).toBe(1);
    const twice = toolNotes([{ code: 'x', severity: 'info', path: '/0/a', message: '' }], [{ pointer: '/0' }, { pointer: '/0' }] as ToolDefinition[]);
    expect(twice.map((l) => l.length)).toEqual([1, 0, 0]);
  });

  it('the CLI writes the page in parts: the same bytes to a file and to stdout as renderReport', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hc-scale-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'tools.json');
    const tools = Array.from({ length: 300 }, (_, i) => ({ name: `t${i}`, description: `Tool ${i}.`, parameters: { type: 'object', properties: { a: { type: 'string' } } }, strict_mode: true }));
    const text = JSON.stringify(tools);
    (await import('node:fs')).writeFileSync(file, text);
    const out = join(dir, 'r.html');
    // the same date (SOURCE_DATE_EPOCH) and version in the header
    const env = { SOURCE_DATE_EPOCH: '1751112000' };
    const a = await runCli(['report', file, '-o', out, '--quiet', '--title', 'x'], { env });
    expect(a.code, a.err).toBe(0);
    const b = await runCli(['report', file, '--quiet', '--title', 'x'], { env });
    expect(b.code, b.err).toBe(0);
    const version = (JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as { version: string }).version;
    const expected = await renderReport(text, { source: 'x', madeAt: new Date(1751112000 * 1000), version });
    expect(readFileSync(out, 'utf8')).toBe(expected);
    expect(b.out).toBe(expected);
    // not a terminal: no progress line
    expect(a.err).not.toContain('\r');
  });
});

describe('progress on stderr', () => {
  const fake = (isTTY: boolean) => {
    const writes: string[] = [];
    let t = 0;
    return { stream: { isTTY, write: (s: string) => writes.push(s) }, writes, tick: (ms: number) => void (t += ms), now: () => t };
  };

  it('nothing when stderr is not a terminal, however long the work', () => {
    const f = fake(false);
    const p = progressLine('report', { stream: f.stream, now: f.now, eager: true });
    for (let i = 0; i < 100; i++) {
      f.tick(500);
      p.update('rendering each tool', i, 100);
    }
    p.end();
    expect(f.writes).toEqual([]);
  });

  it('on a terminal: quiet for the first second (unless the input is large), ten updates a second at most, then cleared', () => {
    const f = fake(true);
    const p = progressLine('report', { stream: f.stream, now: f.now });
    p.update('counting tokens');
    f.tick(500);
    p.update('rendering each tool', 1, 1000);
    expect(f.writes).toEqual([]);
    f.tick(600);
    p.update('rendering each tool', 2, 1000);
    f.tick(10);
    p.update('rendering each tool', 3, 1000); // too soon
    f.tick(100);
    p.update('rendering each tool', 1000, 1000);
    p.update('writing the page'); // a new stage: at once
    p.end();
    expect(f.writes).toEqual([
      '\r\u001b[2Kharmony-catalog report: rendering each tool 2/1,000',
      '\r\u001b[2Kharmony-catalog report: rendering each tool 1,000/1,000',
      '\r\u001b[2Kharmony-catalog report: writing the page',
      '\r\u001b[2K',
    ]);
    const eager = fake(true);
    const q = progressLine('dump', { stream: eager.stream, now: eager.now, eager: true });
    q.update('counting tokens and linting');
    q.end();
    expect(eager.writes).toEqual(['\r\u001b[2Kharmony-catalog dump: counting tokens and linting', '\r\u001b[2K']);
  });
});
