/**
 * The report's header (the version and date that made it, an MCP server's name and version), a
 * single tool's panel open, the Ollama column's own findings, the narrow-screen style, and text
 * from the tools that holds bidi controls and other invisible characters: isolated, shown as a
 * mark, and a lint finding (`lint/invisible-character`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCompileError } from '../../src/diagnostics.js';
import { lintTools } from '../../src/lint/index.js';
import { findInvisibleCharacters } from '../../src/lint/invisible.js';
import { REPORT_CSS } from '../../src/report/assets.js';
import { visibleText } from '../../src/report/html.js';
import { buildReport, flavorColumn, modelColumn, renderReport, reportDate } from '../../src/report/index.js';
import { runCli } from '../support/cli.js';
import { ROOT } from '../support/shared.js';
import { BIDI } from './support.js';

const weather = join(ROOT, 'examples/weather.json');
const weatherText = readFileSync(weather, 'utf8');
const eventsText = readFileSync(join(ROOT, 'examples/events.json'), 'utf8');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const AT = new Date('2025-06-28T12:34:56.789Z');

/** The text between the start and end markers. */
function between(html: string, start: string, end: string): string {
  const a = html.indexOf(start);
  expect(a, `${start} in the page`).toBeGreaterThanOrEqual(0);
  return html.slice(a + start.length, html.indexOf(end, a + start.length));
}

/** Quote one word for an --mcp command (POSIX single quotes). */
function q(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

describe('the header: version, date, MCP server', () => {
  it('says the version and the date (ISO 8601, UTC, to the second) that made the page', async () => {
    const html = await renderReport(weatherText, { version: '9.8.7', madeAt: AT });
    expect(html).toContain('<p class="made" id="made">Made by harmony-catalog <span id="made-version">9.8.7</span> on <time id="made-at" datetime="2025-06-28T12:34:56Z">2025-06-28T12:34:56Z</time>.</p>');
    expect(html).toContain('<meta name="generator" content="harmony-catalog 9.8.7">');
    // in the header, under the title
    expect(between(html, '<header>', '</header>').indexOf('id="made"')).toBeGreaterThan(between(html, '<header>', '</header>').indexOf('<h1>'));
    // the same options, the same bytes
    expect(await renderReport(weatherText, { version: '9.8.7', madeAt: AT })).toBe(html);
  });

  it('SOURCE_DATE_EPOCH sets the date (the API default reads the environment); anything but whole seconds is refused', async () => {
    expect(reportDate({ SOURCE_DATE_EPOCH: '1751112000' }).toISOString()).toBe('2025-06-28T12:00:00.000Z');
    const now = Date.now();
    expect(Math.abs(reportDate({}).getTime() - now)).toBeLessThan(60_000);
    for (const bad of ['12.5', '-1', 'soon', '99999999999999999']) {
      let thrown: unknown;
      try {
        reportDate({ SOURCE_DATE_EPOCH: bad });
      } catch (e) {
        thrown = e;
      }
      expect(isCompileError(thrown), bad).toBe(true);
      if (isCompileError(thrown)) expect(thrown.diagnostics[0]?.code).toBe('report/bad-source-date-epoch');
    }
    const saved = process.env.SOURCE_DATE_EPOCH;
    process.env.SOURCE_DATE_EPOCH = '1751112000';
    try {
      expect(await renderReport(weatherText)).toContain('<time id="made-at" datetime="2025-06-28T12:00:00Z">');
    } finally {
      if (saved === undefined) delete process.env.SOURCE_DATE_EPOCH;
      else process.env.SOURCE_DATE_EPOCH = saved;
    }
  });

  it('the CLI: the version --version prints and SOURCE_DATE_EPOCH; the same page on every run; a bad SOURCE_DATE_EPOCH is a usage error', async () => {
    expect((await runCli(['--version'])).out).toBe(`${VERSION}\n`);
    const env = { SOURCE_DATE_EPOCH: '1751112000' };
    const a = await runCli(['report', weather], { env });
    expect(a.code, a.err).toBe(0);
    expect(a.out).toContain(`Made by harmony-catalog <span id="made-version">${VERSION}</span> on <time id="made-at" datetime="2025-06-28T12:00:00Z">2025-06-28T12:00:00Z</time>.`);
    expect((await runCli(['report', weather], { env })).out).toBe(a.out);
    const bad = await runCli(['report', weather], { env: { SOURCE_DATE_EPOCH: 'yesterday' } });
    expect(bad.code).toBe(2);
    expect(bad.err).toBe('harmony-catalog: SOURCE_DATE_EPOCH must be a whole number of seconds since 1970-01-01 UTC, not "yesterday"\nRun \'harmony-catalog report --help\' for usage.\n');
    expect((await runCli(['report', '--help'])).out).toContain('SOURCE_DATE_EPOCH');
  });

  it('--mcp: the server\'s name and version (its serverInfo) in the header', async () => {
    const server = `${q(process.execPath)} ${q(join(ROOT, 'test/support/mcp-paged-server.mjs'))}`;
    const r = await runCli(['report', '--mcp', server, '--mcp-timeout', '30000'], { env: { SOURCE_DATE_EPOCH: '1751112000' } });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(' The tools are those the MCP server <span id="mcp-server"><bdi class="mono">paged-test-server</bdi> <bdi class="mono">1.2.3</bdi></span> listed (its <code>serverInfo</code>).</p>');
    expect(r.out).toContain(`<h1>harmony-catalog report: mcp: ${server.replace(/'/g, '&#39;')}</h1>`);
    // a file: no server
    const f = await runCli(['report', weather]);
    expect(f.out).not.toContain('id="mcp-server"');
    // the API takes it as given, its text isolated and its invisible characters shown
    const html = await renderReport(weatherText, { mcpServer: { name: 'evil\u202Eserver <b>' } });
    expect(html).toContain('<span id="mcp-server"><bdi class="mono">evil<span class="inv" data-cp="U+202E"');
    expect(html).toContain('server &lt;b&gt;</bdi></span> listed');
  });
});

describe('a single tool', () => {
  it('its panel is open (inline or filled in by the script); with two tools none is', async () => {
    const one = await renderReport(eventsText);
    expect(one).toContain('<details class="tool" id="t-0" open>');
    const lazy = await renderReport(eventsText, { inlinePanels: false });
    expect(lazy).toContain('<details class="tool" id="t-0" open><summary>');
    // the script fills a panel open from the start
    expect(between(lazy, '<script>', '</script>')).toContain("querySelectorAll('details.tool[open] .panel[data-fill]')");
    const two = await renderReport(weatherText);
    expect(two).not.toMatch(/<details class="tool"[^>]* open>/);
  });
});

describe('the Ollama column: its own findings, listed and counted like lint\'s', () => {
  it('what Ollama drops or does not show of a tool is listed under [ollama], with the pointer and the schema text there', async () => {
    const { html, model } = await buildReport(weatherText);
    expect(model.checked).toEqual(['openai-harmony', 'chat-template', 'ollama']);
    const t = model.tools[0];
    const ollama = t.findings.filter((f) => f.flavors.includes('ollama'));
    expect(ollama.map((f) => `${f.severity} ${f.code} ${f.path}`)).toEqual([
      'info ollama/dropped-keyword /0/function/parameters/properties/format/default',
      'info ollama/dropped-keyword /0/function/parameters/properties/days/minimum',
      'info ollama/dropped-keyword /0/function/parameters/properties/days/maximum',
      'info ollama/dropped-keyword /0/function/parameters/properties/days/default',
      'info ollama/not-shown /0/function/parameters/properties/format/enum',
      'info ollama/not-shown /0/function/parameters/required',
    ]);
    expect(ollama.every((f) => f.flavors.length === 1)).toBe(true);
    expect(t.counts).toEqual({ errors: 0, warnings: 0, infos: t.findings.length });
    expect(model.counts.infos).toBe(t.findings.length);
    const panel = between(html, '<details class="tool" id="t-0">', '</details>');
    expect(panel).toContain('<code>ollama/not-shown</code> <span class="meta">[ollama]</span>\n<div class="where">at <code>/0/function/parameters/properties/format/enum</code></div>\n<p class="msg">the enum values are not shown: Ollama prints only the type</p><pre class="frag" aria-label="the input at /0/function/parameters/properties/format/enum">[&quot;celsius&quot;, &quot;fahrenheit&quot;]</pre>');
    expect(html).toContain('<span class="k">Findings (lint: openai-harmony, chat-template; ollama)</span>');
    expect(between(html, '<dl class="options" id="options">', '</dl>')).toContain('<dt>findings of the renderer</dt><dd><code>ollama</code></dd>');
    // a tool Ollama says nothing of: "None under …" names it
    expect(between(html, '<details class="tool" id="t-1">', '</details>')).toContain('None under <code>openai-harmony</code> or <code>chat-template</code> or <code>ollama</code>.');
  });

  it('Ollama counted first: its findings are listed once, not as notes too; a gpt-oss-ollama model column says them; lint: false says none', async () => {
    const counted = await buildReport(weatherText, { flavor: 'ollama' });
    const t = counted.model.tools[0];
    expect(t.findings.filter((f) => f.code.startsWith('ollama/'))).toHaveLength(6);
    expect(t.notes.filter((d) => d.code.startsWith('ollama/'))).toEqual([]);
    const model = await buildReport(weatherText, { model: 'gpt-oss-ollama', columns: [modelColumn('gpt-oss-ollama')] });
    expect(model.model.tools[0].findings.filter((f) => f.flavors.includes('gpt-oss-ollama'))).toHaveLength(6);
    const off = await buildReport(weatherText, { lint: false });
    expect(off.model.checked).toEqual([]);
    expect(off.model.tools.flatMap((x) => x.findings)).toEqual([]);
    expect(off.html).toContain('<span class="sev none">not linted</span>');
    // a column list without Ollama: none of its findings
    const two = await buildReport(weatherText, { columns: [flavorColumn('openai-harmony'), flavorColumn('chat-template')] });
    expect(two.model.tools[0].findings.some((f) => f.code.startsWith('ollama/'))).toBe(false);
  });
});

describe('usable at 420 px: the narrow-screen style', () => {
  it('a media query for phones; wide tables scroll in their own box; columns never wider than the page; long words wrap', () => {
    const phone = between(REPORT_CSS, '@media (max-width: 34rem) {', '\n}\n');
    expect(phone).toContain('table.share tr { grid-template-columns: 2.2rem minmax(0, 1fr)');
    expect(phone).toContain('dl.options { grid-template-columns: minmax(0, 1fr); }');
    expect(REPORT_CSS).toMatch(/table\.costs \{[^}]*display: block; max-width: 100%; overflow-x: auto;/);
    expect(REPORT_CSS).toContain('.cols { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(22rem, 100%), 1fr));');
    for (const rule of [/td\.name \{ overflow-wrap: anywhere; \}/, /pre\.r \{[^}]*overflow-wrap: anywhere;/, /pre\.frag \{[^}]*overflow: auto;/, /\.made \{[^}]*overflow-wrap: anywhere;/]) expect(REPORT_CSS).toMatch(rule);
  });
});

describe('bidi controls and invisible characters', () => {
  it('findInvisibleCharacters: bidi controls, zero-width and format characters, tag runs; not emoji joiners, Persian non-joiners or emoji flags', () => {
    expect(findInvisibleCharacters('a\u202Eb\u200Bc\u00AD').map((c) => [c.index, c.codePoint, c.name, c.bidi])).toEqual([
      [1, 'U+202E', 'RIGHT-TO-LEFT OVERRIDE', true],
      [3, 'U+200B', 'ZERO WIDTH SPACE', false],
      [5, 'U+00AD', 'SOFT HYPHEN', false],
    ]);
    expect(findInvisibleCharacters('x\u{E0069}\u{E0067}\u{E006E}y').map((c) => [c.codePoint, c.name, c.length])).toEqual([['U+E0069\u2026U+E006E', 'TAG CHARACTERS "ign"', 6]]);
    expect(findInvisibleCharacters('\u2066\u2067\u2068\u2069\u202A\u202B\u202C\u202D\u200E\u200F\u061C\uFEFF\u2060').map((c) => c.codePoint)).toEqual(['U+2066', 'U+2067', 'U+2068', 'U+2069', 'U+202A', 'U+202B', 'U+202C', 'U+202D', 'U+200E', 'U+200F', 'U+061C', 'U+FEFF', 'U+2060']);
    // spelling, not hiding: an emoji ZWJ sequence, a Persian word with a non-joiner, a flag's tag sequence
    expect(findInvisibleCharacters('\u{1F468}\u200D\u{1F469}\u200D\u{1F467} \u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645 \u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}')).toEqual([]);
    // a joiner between Latin letters hides
    expect(findInvisibleCharacters('get\u200Cweather').map((c) => c.codePoint)).toEqual(['U+200C']);
  });

  it('lint/invisible-character: a warning naming the code point and the tool, at the pointer of the name, the description, the property name', () => {
    const { findings } = lintTools(BIDI, { flavors: ['openai-harmony'] });
    const inv = findings.filter((f) => f.code === 'lint/invisible-character');
    expect(inv.map((f) => `${f.severity} ${f.tool} ${f.path}`)).toEqual([
      'warning get\u202Eweather /0/name',
      'warning get\u202Eweather /0/description',
      'warning get\u202Eweather /0/parameters/properties/unit\u202E',
      'warning get\u202Eweather /0/parameters/properties/unit\u202E/description',
      'warning get\u202Eweather /0/parameters/properties/unit\u202E/enum/0',
      'warning get\u202Eweather /0/parameters/properties/note/description',
      'warning get\u202Eweather /0/parameters/required/0',
    ]);
    expect(inv[0].message).toBe('the tool name "get\\u202Eweather" holds an invisible character, U+202E RIGHT-TO-LEFT OVERRIDE: the model reads it, most editors and reviews do not show it; a bidi control reorders the text shown after it, so what a reviewer reads is not the order the model reads');
    expect(inv[2].message).toMatch(/^the property name "unit\\u202E" of tool "get\\u202Eweather" holds an invisible character, U\+202E RIGHT-TO-LEFT OVERRIDE: /);
    expect(inv[5].message).toMatch(/^the description "A note\.\\u\{E0069\}\\u\{E0067\}\\u\{E006E\}" of tool "get\\u202Eweather" holds 3 invisible characters, U\+E0069…U\+E006E TAG CHARACTERS "ign": the model reads them/);
    // the messages themselves hold no invisible character: printed on a terminal, nothing is reordered
    for (const f of inv) expect(findInvisibleCharacters(f.message), f.message).toEqual([]);
    // the same finding under each flavor (listed once), and under a given template
    expect(lintTools(BIDI).findings.filter((f) => f.code === 'lint/invisible-character').map((f) => f.flavor)).toEqual([...Array(7).fill('openai-harmony'), ...Array(7).fill('chat-template')]);
    expect(lintTools(BIDI, { template: { text: '{% for t in tools %}{{ t.function.name }}{% endfor %}', name: 't.jinja' } }).findings.filter((f) => f.code === 'lint/invisible-character')).toHaveLength(7);
  });

  it('the lint command\'s text: every line free of invisible characters (names, pointers, messages shown as escapes); --format json keeps them', async () => {
    const file = join(ROOT, 'test/cases/lint/11-invisible.json');
    const text = await runCli(['lint', file]);
    expect(text.out).toContain('tool "get\\u202Eweather"\n');
    expect(text.out).toContain('  /tools/0/parameters/properties/unit\\u200B  warning  lint/invisible-character');
    for (const line of text.out.split('\n')) expect(findInvisibleCharacters(line), line).toEqual([]);
    const json = await runCli(['lint', file, '--format', 'json']);
    expect(json.out).toContain('"tool": "get\u202Eweather"');
  });

  it('visibleText: each invisible character kept, in an isolated span of its own that shows its code point', () => {
    expect(visibleText('a\u202E<b>')).toBe('a<span class="inv" data-cp="U+202E" title="U+202E RIGHT-TO-LEFT OVERRIDE: an invisible character (the model reads it)">\u202E</span>&lt;b&gt;');
    expect(visibleText('x\u{E0069}\u{E0067}')).toBe('x<span class="inv" data-cp="TAG CHARACTERS &quot;ig&quot;" title="U+E0069\u2026U+E0067 TAG CHARACTERS &quot;ig&quot;: an invisible character (the model reads it)">\u{E0069}\u{E0067}</span>');
    expect(visibleText('plain & simple')).toBe('plain &amp; simple');
    expect(REPORT_CSS).toContain('code, q, bdi, .tname, td.name a, .inv, mark.ctl, .made .mono { unicode-bidi: isolate; }');
    expect(REPORT_CSS).toContain('.inv::before { content: "<" attr(data-cp) ">"; }');
  });

  it('in the page, every invisible character of the tools is in its mark (names, renderings, pointers, messages, schema text), inline and kept as raw text', async () => {
    for (const inlinePanels of [true, false]) {
      const { html, model } = await buildReport(BIDI, { inlinePanels, madeAt: AT });
      // outside attribute values and the marks, no invisible character is left in the page
      const bare = html.replace(/<span class="inv"[^>]*>[^<]*<\/span>/g, '').replace(/="[^"]*"/g, '=""');
      expect(findInvisibleCharacters(bare), `inlinePanels ${inlinePanels}`).toEqual([]);
      const marks = [...html.matchAll(/<span class="inv" data-cp="([^"]*)"/g)].map((m) => m[1]);
      expect(new Set(marks)).toEqual(new Set(['U+202E', 'U+200B', 'U+2066', 'U+00AD', 'TAG CHARACTERS &quot;ign&quot;']));
      // the tool name in the table and the panel, the pointer of a finding
      expect(html).toContain('<a href="#t-0">get<span class="inv" data-cp="U+202E"');
      expect(html).toContain('<span class="tname">get<span class="inv" data-cp="U+202E"');
      expect(html).toContain('<div class="where">at <code>/0/parameters/properties/unit<span class="inv" data-cp="U+202E"');
      // the row says so in words; a plain tool has no such tag
      expect(between(html, 'id="r-0"', '</tr>')).toContain('invisible characters</span>');
      expect(between(html, 'id="r-1"', '</tr>')).not.toContain('invisible characters</span>');
      expect(model.tools.map((t) => t.invisible)).toEqual([true, false]);
      expect(model.tools[0].findings.filter((f) => f.code === 'lint/invisible-character')).toHaveLength(7);
    }
  });
});
