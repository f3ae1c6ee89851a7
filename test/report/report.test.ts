/**
 * The HTML report as text: every string from the tools escaped, the structure a reviewer and the
 * page's script rely on (one row and one panel per tool, sort data, the budget line), totals equal
 * to the inventory's, the differing lines of the two gpt-oss flavors marked, and the CLI.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inventory } from '../../src/inventory.js';
import { buildReport, dialectColumn, flavorColumn, modelColumn, renderReport, reportColumns } from '../../src/report/index.js';
import { changedLines } from '../../src/report/index.js';
import { escapeHtml, fragmentText, markedText, renderingHtml } from '../../src/report/html.js';
import { parseJson } from '../../src/ir/json.js';
import { runCli } from '../support/cli.js';
import { ROOT } from '../support/shared.js';
import { HOSTILE } from './support.js';

const weather = join(ROOT, 'examples/weather.json');
const events = join(ROOT, 'examples/events.json');
const weatherText = readFileSync(weather, 'utf8');
const eventsText = readFileSync(events, 'utf8');

/** The text between the start and end markers, one occurrence each. */
function between(html: string, start: string, end: string): string {
  const a = html.indexOf(start);
  expect(a, `${start} in the page`).toBeGreaterThanOrEqual(0);
  const b = html.indexOf(end, a + start.length);
  return html.slice(a + start.length, b);
}

/** The attributes of the table's tool rows, in page order. */
function rows(html: string): Record<string, string>[] {
  return [...html.matchAll(/<tr class="tool[^"]*"([^>]*)>/g)].map((m) => Object.fromEntries([...m[1].matchAll(/ (data-[a-z]+|id)="([^"]*)"/g)].map((a) => [a[1], a[2]])));
}

function count(html: string, s: string): number {
  return html.split(s).length - 1;
}

describe('renderReport: escaping', () => {
  it('a description, a property key and a tool name holding markup are text: no element of theirs is in the page', async () => {
    const html = await renderReport(HOSTILE, { source: 'hostile <b>.json' });
    // the page's own script is the only script; no img or svg element at all
    expect(count(html, '<script')).toBe(1);
    expect(html).not.toMatch(/<(?:img|svg)\b/i);
    // no tag of the page has an event-handler attribute (the tools' `onerror=`, `onload=` are text)
    const tags = [...html.matchAll(/<[a-zA-Z][^>]*>/g)].map((m) => m[0].replace(/="[^"]*"/g, '=""')); // attribute values hold no raw quote
    expect(tags.filter((t) => /\son[a-z]+\s*=/i.test(t))).toEqual([]);
    expect(html).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;&lt;img src=x onerror=&quot;window.__pwned = 2&quot;&gt;');
    expect(html).toContain('&lt;/pre&gt;&lt;/details&gt;&lt;script&gt;window.__pwned = 3&lt;/script&gt;');
    expect(html).toContain('x&quot;&gt;&lt;svg onload=window.__pwned=4&gt;');
    // a name in attributes: quotes escaped, so the attribute does not end early
    expect(html).toContain('data-name="x&quot; onmouseover=&quot;window.__pwned=5"');
    expect(html).toContain('<title>harmony-catalog report: hostile &lt;b&gt;.json</title>');
    // control characters are shown as control pictures, never raw
    expect(html).not.toMatch(/[\u0000\u0007]/);
    expect(html).toContain('\u2400\u2407');
  });

  it('kept as raw text (a large report), a panel holds no tag of the tools and cannot end its element', async () => {
    const html = await renderReport(HOSTILE, { inlinePanels: false });
    expect(count(html, '<script type="text/x-panel"')).toBe(HOSTILE.length);
    // every </script is the end of one of the page's script elements
    expect(count(html, '</script')).toBe(HOSTILE.length + 1);
    const panel = between(html, '<script type="text/x-panel" id="p-0">', '</script>');
    expect(panel).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    expect(panel).not.toContain('<!--');
  });

  it('only the page\'s own script may run: the Content-Security-Policy allows it by its hash, and nothing from the network', async () => {
    const html = await renderReport(weatherText);
    const script = between(html, '<script>', '</script>');
    const csp = between(html, '<meta http-equiv="Content-Security-Policy" content="', '">').replace(/&#39;/g, "'");
    expect(csp).toContain(`script-src 'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`);
    expect(csp).toContain("default-src 'none'");
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    expect(html).not.toMatch(/@import|url\(/);
  });

  it('control-token spellings are marked with a visible marker and a title, in renderings, messages and fragments', async () => {
    const html = await renderReport(HOSTILE);
    expect(html).toContain('<mark class="ctl" title="control-token spelling');
    expect(count(html, '>&lt;|end|&gt;</mark>')).toBeGreaterThanOrEqual(3 + 1); // three columns and the lint messages
    expect(html).toMatch(/mark\.ctl::before \{ content: "\\26A0/);
    // the row of the tool says so in words
    expect(between(html, '<tr class="tool" role="row" id="r-0"', '</tr>')).toContain('control token</span>');
    expect(between(html, '<tr class="tool" role="row" id="r-1"', '</tr>')).not.toContain('control token</span>');
  });

  it('escapeHtml, markedText, renderingHtml and fragmentText', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(markedText('a<|end|>b<c', ['<|end|>'])).toBe('a<mark class="ctl" title="control-token spelling: a server that tokenizes special tokens in text reads a real token here">&lt;|end|&gt;</mark>b&lt;c');
    expect(renderingHtml('one\ntwo <\n\nthree', [], new Set([1]))).toBe('<span class="l">one\n</span><span class="l chg">two &lt;\n</span><span class="l">\n</span><span class="l">three</span>');
    expect(fragmentText(parseJson('{"type": "integer", "minimum": 1.0}'))).toBe('{"type": "integer", "minimum": 1.0}');
    expect(fragmentText(parseJson(`{"enum": [${'"abcdefghij", '.repeat(12)}"z"]}`))).toMatch(/^\{\n {2}"enum": \[\n {4}"abcdefghij",\n/);
  });
});

describe('renderReport: structure and numbers', () => {
  it('one row and one panel per tool, in input order, with the data the sort reads', async () => {
    const inv = await inventory(weatherText, { lint: ['openai-harmony', 'chat-template'] });
    const html = await renderReport(weatherText);
    const r = rows(html);
    expect(r.map((x) => x['data-name'])).toEqual(['get_current_weather', 'get_location']);
    expect(r.map((x) => Number(x['data-tokens']))).toEqual(inv.tools.map((t) => t.tokens));
    expect(r.map((x) => Number(x['data-params']))).toEqual([3, 0]);
    expect(r.map((x) => x['data-i'])).toEqual(['0', '1']);
    // get_current_weather: 1 lint finding and 6 of Ollama's own (the defaults, bounds and enum it drops, no property optional)
    expect(r.map((x) => x['data-findings'])).toEqual(['7', '0']);
    expect(count(html, '<details class="tool"')).toBe(2);
    expect(html).toContain('<details class="tool" id="t-1">');
    expect(html).toContain('<a href="#t-0">get_current_weather</a>');
    // sortable headings are buttons; the table starts in input order
    for (const key of ['i', 'name', 'params', 'tokens', 'findings']) expect(html).toMatch(new RegExp(`<th [^>]*data-key="${key}"[^>]*><button type="button">`));
    expect(html).toMatch(/<th [^>]*data-key="i" aria-sort="ascending">/);
    expect(between(html, '<table class="share" id="share" role="table"', '>')).toContain(` data-overhead="${inv.totals.catalog - inv.tools.reduce((a, t) => a + t.tokens, 0)}"`);
  });

  it('the totals are the inventory\'s: tools, system, developer, catalog, findings by severity', async () => {
    for (const [text, options] of [[weatherText, {}], [eventsText, {}], [eventsText, { flavor: 'ollama' as const, instructions: 'Be brief.' }]] as const) {
      const inv = await inventory(text, { ...options, lint: ['openai-harmony', 'chat-template'] });
      const { html, model } = await buildReport(text, options);
      expect(model.inventory.totals).toEqual(inv.totals);
      expect(between(html, '<span id="total-tools">', '<')).toBe(String(inv.tools.length));
      expect(between(html, '<span id="total-system">', '<')).toBe(inv.totals.system.toLocaleString('en-US'));
      expect(between(html, '<span id="total-developer">', '<')).toBe(inv.totals.developer.toLocaleString('en-US'));
      expect(between(html, '<span id="total-catalog">', '<')).toBe(inv.totals.catalog.toLocaleString('en-US'));
      expect(rows(html).map((x) => Number(x['data-tokens']))).toEqual(inv.tools.map((t) => t.tokens));
    }
    const html = await renderReport(eventsText);
    // events: 1 error, 9 warnings, 6 infos (what `lint` counts: a finding both flavors say is one), and Ollama's own 14 infos
    expect(between(html, 'id="total-findings">', '</span></span>')).toBe('<span class="sev error">\u2716 1 error</span> <span class="sev warning">\u25B2 9 warnings</span> <span class="sev info">\u2139\uFE0E 20 infos');
  });

  it('the options used are listed', async () => {
    const html = await renderReport(weatherText, { source: 'examples/weather.json', instructions: 'Be <brief>.', date: '2025-06-28', maxTokens: 90 });
    const dl = between(html, '<dl class="options" id="options">', '</dl>');
    expect(dl).toContain('<dt>input</dt><dd><code>examples/weather.json</code></dd>');
    expect(dl).toContain('<dt>tokens counted on</dt><dd><code>openai-harmony</code></dd>');
    expect(dl).toContain('<dt>columns</dt><dd><code>openai-harmony</code>, <code>chat-template</code>, <code>ollama</code></dd>');
    expect(dl).toContain('<dt>instructions</dt><dd><code>Be &lt;brief&gt;.</code></dd>');
    expect(dl).toContain('<dt>date</dt><dd><code>2025-06-28</code></dd>');
    expect(dl).toContain('<dt>max tokens</dt><dd>90</dd>');
  });

  it('a budget line sits where the running total (with the catalog\'s own tokens) first goes over --max-tokens', async () => {
    // weather: 13 tokens of its own, then 69 and 15: 82 fits in 90, 97 does not
    const html = await renderReport(weatherText, { maxTokens: 90 });
    const body = between(html, '<tbody role="rowgroup">', '</tbody>');
    const order = [...body.matchAll(/<tr class="(tool[^"]*|budget)"/g)].map((m) => m[1]);
    expect(order).toEqual(['tool', 'budget', 'tool over']);
    expect(between(html, '<table class="share" id="share" role="table"', '>')).toContain(' data-budget="90"');
    expect(html).toContain('over budget by 7 tokens');
    expect([...body.matchAll(/<td role="cell" class="n run">([\d,]+)</g)].map((m) => m[1])).toEqual(['82', '97']);
    // everything fits: the line goes last; no budget, no line
    const fits = between(await renderReport(weatherText, { maxTokens: 1000 }), '<tbody role="rowgroup">', '</tbody>');
    expect([...fits.matchAll(/<tr class="(tool[^"]*|budget)"/g)].map((m) => m[1])).toEqual(['tool', 'tool', 'budget']);
    const none = await renderReport(weatherText);
    expect(none).not.toContain('<tr class="budget"');
    expect(none).not.toContain('data-budget=');
  });

  it('each tool under each column side by side; the lines where openai-harmony and chat-template differ are marked', async () => {
    const { html, model } = await buildReport(weatherText);
    expect(model.columns.map((c) => c.name)).toEqual(['openai-harmony', 'chat-template', 'ollama']);
    expect(model.diffed).toEqual([0, 1]);
    const panel = between(html, '<details class="tool" id="t-0">', '</details>');
    expect(count(panel, '<figure class="col">')).toBe(3);
    const [harmony, template, ollama] = panel.split('<figure class="col">').slice(1);
    expect([...harmony.matchAll(/<span class="l chg">(.*?)\n?<\/span>/g)].map((m) => m[1])).toEqual(['format?: &quot;celsius&quot; | &quot;fahrenheit&quot;, // default: celsius', 'days?: number, // default: 1']);
    expect([...template.matchAll(/<span class="l chg">(.*?)\n?<\/span>/g)].map((m) => m[1])).toEqual(['format?: &quot;celsius&quot; | &quot;fahrenheit&quot;, // default: celsius,', 'days?: number, // default: 1,']);
    expect(ollama).not.toContain('chg"');
    expect(harmony).toContain('(tokens counted here)');
    // the text shown is the tool's own text in its catalog, as the inventory has it
    const inv = await inventory(weatherText);
    expect(model.tools[0].entries[0]).toEqual({ text: inv.tools[0].text.replace(/^\n+|\s+$/g, '') });
    // a tool the two print alike says so
    expect(between(html, '<details class="tool" id="t-1">', '</details>')).toContain('Same text under <code>openai-harmony</code> and <code>chat-template</code>.');
  });

  it('a tool a renderer refuses: the reason in its column; error findings with their marker, pointer and schema text', async () => {
    const html = await renderReport(eventsText);
    const panel = between(html, '<details class="tool" id="t-0" open>', '</details>'); // the only tool: its panel is open
    expect(panel).toContain('<p class="refused"><strong>chat-template refuses this tool:</strong> the gpt-oss chat template fails on this tool');
    const error = between(panel, '<li class="error">', '</li>');
    expect(error).toContain('<span class="sev error">\u2716 error</span> <code>lint/template-error</code>');
    expect(error).toContain('at <code>/tools/0/inputSchema/properties/priority/default</code>');
    expect(error).toContain('<pre class="frag" aria-label="the input at /tools/0/inputSchema/properties/priority/default">2</pre>');
    // errors first, then warnings, then infos
    const severities = [...panel.matchAll(/<li class="(error|warning|info)">/g)].map((m) => m[1]);
    expect(severities).toEqual([...severities].sort((a, b) => ['error', 'warning', 'info'].indexOf(a) - ['error', 'warning', 'info'].indexOf(b)));
    expect(severities).toHaveLength(16 + 14); // lint's, and Ollama's own (ollama/…)
    // the fragment of an anyOf finding is the anyOf, as written
    expect(panel).toContain('aria-label="the input at /tools/0/inputSchema/properties/location/anyOf">[{&quot;type&quot;: &quot;string&quot;}, {&quot;type&quot;: &quot;null&quot;}]</pre>');
  });

  it('columns: the xml dialects, jsdoc, --model names, and a column list given by the caller', async () => {
    expect(reportColumns({ target: 'xml', dialect: 'hermes' }).map((c) => c.name)).toEqual(['hermes', 'qwen', 'qwen3-coder', 'anthropic']);
    expect(reportColumns({ flavor: 'chat-template' }).map((c) => c.name)).toEqual(['chat-template', 'openai-harmony', 'ollama']);
    expect(reportColumns({ lowering: 'faithful' }).map((c) => c.name)).toEqual(['faithful', 'chat-template', 'ollama']);
    expect(reportColumns({ target: 'jsdoc' }).map((c) => c.name)).toEqual(['jsdoc']);
    const { html, model } = await buildReport(weatherText, { target: 'xml', dialect: 'qwen3-coder', columns: [dialectColumn('qwen3-coder'), dialectColumn('qwen')] });
    expect(model.counted).toBe('qwen3-coder');
    expect(model.lint).toEqual([]);
    expect(html).toContain('<span class="sev none">not linted</span>');
    expect(between(html, '<details class="tool" id="t-0">', '</details>')).toContain('&lt;name&gt;get_current_weather&lt;/name&gt;');
    // any (name, catalog) pair is a column: its frame is cut off, as for the built-in ones
    const upper = { name: 'shout', catalog: () => 'HEAD\n', note: 'a test column' };
    const custom = await buildReport(weatherText, { columns: [flavorColumn('openai-harmony'), { ...upper, catalog: (r: { tools: readonly { name: string }[] }) => `BEGIN\n${r.tools.map((t) => t.name.toUpperCase()).join('\n')}\nEND` }] });
    expect(custom.model.tools.map((t) => t.entries[1])).toEqual([{ text: 'GET_CURRENT_WEATHER' }, { text: 'GET_LOCATION' }]);
    expect(modelColumn('gpt-oss-template')).toMatchObject({ name: 'gpt-oss-template', diff: 'chat-template', lint: 'chat-template' });
  });

  it('changedLines reads a unified diff: the old text\'s removed lines and the new text\'s added ones, 0-based', () => {
    const patch = ['--- a', '+++ b', '@@ -1,4 +1,5 @@', ' one', '-two', '+TWO', '+two and a half', ' three', '-four', '@@ -10,0 +11,1 @@', '+eleven'].join('\n');
    const { a, b } = changedLines(patch);
    expect([...a]).toEqual([1, 3]);
    expect([...b]).toEqual([1, 2, 10]);
  });
});

describe('harmony-catalog report', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hc-report-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the page to stdout by default', async () => {
    const r = await runCli(['report', weather]);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out.startsWith('<!doctype html>')).toBe(true);
    expect(r.out).toContain(`<title>harmony-catalog report: ${weather}</title>`);
  });

  it('-o writes the file and prints its path on stderr; over --max-tokens exits 1 with the page written', async () => {
    const out = join(dir, 'report.html');
    const r = await runCli(['report', events, '-o', out, '--title', 'examples/events.json']);
    expect(r).toMatchObject({ code: 0, out: '', err: `${out}\n` });
    expect(readFileSync(out, 'utf8')).toContain('<h1>harmony-catalog report: examples/events.json</h1>');
    const over = join(dir, 'over.html');
    const o = await runCli(['report', events, '-o', over, '--max-tokens', '100']);
    expect(o.code).toBe(1);
    expect(o.err).toBe(`${over}\nharmony-catalog: over budget: the catalog is 143 tokens, more than --max-tokens 100\n`);
    expect(existsSync(over)).toBe(true);
  });

  it('--flavor, --dialect and --model repeat: one column each, the first counted', async () => {
    const r = await runCli(['report', weather, '--flavor', 'ollama', '--flavor', 'openai-harmony']);
    expect(between(r.out, '<dt>columns</dt><dd>', '</dd>')).toBe('<code>ollama</code>, <code>openai-harmony</code>');
    expect(between(r.out, '<dt>tokens counted on</dt><dd>', '</dd>')).toBe('<code>ollama</code>');
    const x = await runCli(['report', weather, '--target', 'xml', '--dialect', 'qwen', '--dialect', 'hermes']);
    expect(between(x.out, '<dt>columns</dt><dd>', '</dd>')).toBe('<code>qwen</code>, <code>hermes</code>');
    // the Hermes template raises on a tool without parameters: said in its column
    expect(between(x.out, '<details class="tool" id="t-1">', '</details>')).toContain('<p class="refused"><strong>hermes refuses this tool:</strong>');
    // the counted rendering must print every tool (its tokens are counted): hermes first cannot
    const h = await runCli(['report', weather, '--target', 'xml', '--dialect', 'hermes']);
    expect(h.code).toBe(1);
    expect(h.err).toContain('error [xml/template-fails] tool "get_location"');
    const m = await runCli(['report', weather, '--model', 'gpt-oss', '--model', 'qwen']);
    expect(m.code).toBe(0);
    expect(between(m.out, '<dt>columns</dt><dd>', '</dd>')).toBe('<code>gpt-oss</code>, <code>qwen</code>');
  });

  it('usage errors exit 2 with one plain line', async () => {
    for (const argv of [['--flavor', 'vllm'], ['--max-tokens', 'many'], ['--dialect', 'qwen'], ['--model', 'nope'], ['--model', 'gpt-oss', '--flavor', 'ollama']]) {
      const r = await runCli(['report', weather, ...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(/^harmony-catalog: .+\nRun 'harmony-catalog report --help' for usage\.\n$/);
    }
    const w = await runCli(['report', weather, '-o', join(dir, 'no/such/dir/r.html')]);
    expect(w.code).toBe(1);
    expect(w.err).toMatch(/^harmony-catalog: cannot write .*no\/such\/dir\/r\.html: ENOENT/);
  });

  it('is listed in the help', async () => {
    const r = await runCli(['--help']);
    expect(r.out).toMatch(/\n {2}report +one self-contained HTML page/);
    expect((await runCli(['report', '--help'])).out).toContain('Usage: harmony-catalog report <file|-|--mcp "command args"> [-o report.html]');
  });
});
