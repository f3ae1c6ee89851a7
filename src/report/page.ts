/** The report page: the model of `index.ts` as one HTML document, every string from the tools escaped. */
import type { Diagnostic, Severity } from '../diagnostics.js';
import { REPORT_CSP, REPORT_CSS, REPORT_SCRIPT } from './assets.js';
import type { InventoryTokenizer } from '../inventory.js';
import type { ColumnCost, ReportFinding, ReportModel, ReportTool } from './index.js';
import { clip, escapeHtml as e, formatCount, fragmentText, markedText, plural, renderingHtml, visibleText as v } from './html.js';
import { maxOf } from '../ir/arrays.js';

const MARK: Record<Severity, string> = { error: '\u2716', warning: '\u25B2', info: '\u2139\uFE0E' };
const NOUN: Record<Severity, [string, string]> = { error: ['error', 'errors'], warning: ['warning', 'warnings'], info: ['info', 'infos'] };

/** A severity badge: its mark and its word (never colour alone). */
function badge(severity: Severity, n?: number): string {
  const [one, many] = NOUN[severity];
  const text = n === undefined ? one : `${formatCount(n)} ${n === 1 ? one : many}`;
  return `<span class="sev ${severity}">${MARK[severity]} ${text}</span>`;
}

/** The counts of findings, each with its badge; `none` when there are none. */
function countBadges(c: { errors: number; warnings: number; infos: number }): string {
  const out: string[] = [];
  if (c.errors) out.push(badge('error', c.errors));
  if (c.warnings) out.push(badge('warning', c.warnings));
  if (c.infos) out.push(badge('info', c.infos));
  return out.length ? out.join(' ') : '<span class="sev none">no findings</span>';
}

/** The compact counts of the table (marks and numbers, the words for screen readers and in the title). */
function compactCounts(c: { errors: number; warnings: number; infos: number }): string {
  const words = [c.errors ? plural(c.errors, 'error') : '', c.warnings ? plural(c.warnings, 'warning') : '', c.infos ? plural(c.infos, 'info') : ''].filter(Boolean).join(', ') || 'no findings';
  const marks: string[] = [];
  if (c.errors) marks.push(`<span class="sev error">${MARK.error} ${c.errors}</span>`);
  if (c.warnings) marks.push(`<span class="sev warning">${MARK.warning} ${c.warnings}</span>`);
  if (c.infos) marks.push(`<span class="sev info">${MARK.info} ${c.infos}</span>`);
  return `<span title="${e(words)}"><span aria-hidden="true">${marks.join(' ') || '<span class="sev none">\u2013</span>'}</span><span class="sr">${e(words)}</span></span>`;
}

const CONTROL_TAG = '<span class="tag" title="its text spells a control token">\u26A0\uFE0E control token</span>';
const INVISIBLE_TAG = '<span class="tag" title="its text holds an invisible character: a bidi control, a zero-width or other format character (lint/invisible-character)">\u26A0\uFE0E invisible characters</span>';

/** The tags of a tool's name: a control-token spelling, an invisible character in its text. */
function toolTags(t: ReportTool): string {
  return `${t.controlTokens.length ? CONTROL_TAG : ''}${t.invisible ? INVISIBLE_TAG : ''}`;
}

function percent(part: number, whole: number): string {
  if (whole <= 0) return '\u2013';
  const p = (100 * part) / whole;
  return p > 0 && p < 0.1 ? '<0.1%' : `${p.toFixed(1)}%`;
}

/** The whole page. */
export function reportPage(m: ReportModel): string {
  const parts: string[] = [];
  for (const part of reportPageParts(m)) parts.push(part);
  return parts.join('');
}

/**
 * The whole page in parts, in order (their concatenation is `reportPage`): a row or a panel at a
 * time, so that a page of any number of tools is written out without being held as one string
 * (a string of JavaScript holds at most about 500 million characters: some 170,000 tools).
 * `onTool` is told of each tool's panel as it is made (for progress).
 */
export function* reportPageParts(m: ReportModel, onTool?: (done: number, total: number) => void): Generator<string> {
  const title = `harmony-catalog report${m.source !== undefined ? `: ${m.source}` : ''}`;
  yield `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${e(REPORT_CSP)}">
<meta name="generator" content="${e(`harmony-catalog${m.version !== undefined ? ` ${m.version}` : ''}`)}">
<meta name="color-scheme" content="light">
<link rel="icon" href="data:,">
<title>${e(title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<a class="skip" href="#share">Skip to the table</a>
<header>
<h1>${v(title)}</h1>
${made(m)}
${lede(m)}
${totals(m)}
${costs(m)}
${budget(m)}
${options(m)}
${legend(m)}
</header>
<main>
`;
  yield* tableParts(m);
  yield '\n';
  yield* panelsParts(m, onTool);
  yield `\n${notes(m)}
</main>
<footer>
<p>Made by <code>harmony-catalog report</code>. One file: no network, nothing loaded from elsewhere; its script only sorts the table${m.costs.length > 1 ? ', switches the model the tokens are counted on' : ''} and opens panels. ${footerTokens(m)}</p>
</footer>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`;
}

/** Who made the page and when; for tools listed from an MCP server, the server's name and version. */
function made(m: ReportModel): string {
  const by = `harmony-catalog${m.version !== undefined ? ` <span id="made-version">${e(m.version)}</span>` : ''}`;
  const s = m.mcpServer;
  const server = s === undefined ? '' : ` The tools are those the MCP server <span id="mcp-server"><bdi class="mono">${s.name !== undefined ? v(s.name) : '(no name)'}</bdi>${s.version !== undefined ? ` <bdi class="mono">${v(s.version)}</bdi>` : ''}</span> listed (its <code>serverInfo</code>).`;
  return `<p class="made" id="made">Made by ${by} on <time id="made-at" datetime="${e(m.madeAt)}">${e(m.madeAt)}</time>.${server}</p>`;
}

/** The tokenizer as the page names it: its name, the start of its sha256 (all of it in the title), or the o200k estimate. */
function tokenizerHtml(t: InventoryTokenizer): string {
  if (!t.exact) return `an o200k estimate${t.path !== undefined ? ` (gpt-oss's <code>${e(t.path)}</code>)` : ''}: gpt-oss's o200k_harmony counted this model's text${t.wanted !== undefined ? `; its own counts need its tokenizer.json (<code>--tokenizer</code>, or <code>${e(t.wanted)}</code> in the Hugging Face cache)` : ''}`;
  if (t.path === undefined) return `<code>${e(t.name)}</code> (gpt-oss's own tokenizer, built in)`;
  return `<code>${e(t.name)}</code> <span class="sha" title="${e(`${t.path}\nsha256 ${t.sha256 ?? '?'}`)}">(sha256 <code>${e((t.sha256 ?? '').slice(0, 12))}…</code>)</span>`;
}

/** What the counts of the counted rendering are, in one sentence. */
function countingSentence(m: ReportModel): string {
  const t = m.inventory.tokenizer;
  if (t.exact && t.path === undefined && t.name === 'o200k_harmony') return `Token counts are exact (o200k_harmony) for the <code>${e(m.counted)}</code> rendering.`;
  if (t.exact) return `Token counts are exact for the <code>${e(m.counted)}</code> rendering: counted with its own tokenizer, ${tokenizerHtml(t)}.`;
  return `Token counts for the <code>${e(m.counted)}</code> rendering are o200k estimates, not its own tokenizer's (give its tokenizer.json with <code>--tokenizer</code>${t.wanted !== undefined ? `, or have <code>${e(t.wanted)}</code> in the Hugging Face cache` : ''}).`;
}

function footerTokens(m: ReportModel): string {
  const t = m.inventory.tokenizer;
  const what = t.exact && t.path === undefined && t.name === 'o200k_harmony' ? 'o200k_harmony (the gpt-oss tokenizer)' : t.exact ? `${e(t.name)}${t.sha256 !== undefined ? ` (sha256 ${e(t.sha256)})` : ''}` : 'o200k_harmony, as an estimate of another model\'s tokens';
  const where = m.inventory.totals.system !== undefined ? 'the developer message' : 'the whole prompt';
  return `Tokens: ${what}; a tool's tokens are its share of ${where} (the ${where === 'the developer message' ? 'message' : 'prompt'} is tokenised once and each piece is given to the tool its text starts in, so the shares add up to the catalog).`;
}

/** The columns whose renderer says its own findings (ReportColumn.findings: `ollama`). */
function sayingColumns(m: ReportModel): readonly string[] {
  return m.checked.slice(m.lint.length);
}

/** Where the findings come from, in words. */
function findingSources(m: ReportModel): string {
  const cols = sayingColumns(m).map((c) => `<code>${e(c)}</code>`);
  const lint = m.lint.length ? `lint's under ${m.lint.map((f) => `<code>${e(f)}</code>`).join(' and ')}` : '';
  return [lint, cols.length ? `what the ${cols.join(' and ')} renderer${cols.length > 1 ? 's say' : ' says'} of ${cols.length > 1 ? 'their' : 'its'} own rendering` : ''].filter(Boolean).join(', and ');
}

function lede(m: ReportModel): string {
  const cols = m.columns.map((c) => `<code>${e(c.name)}</code>`).join(', ');
  return `<p class="lede">What the model reads for ${plural(m.tools.length, 'tool')}, what each tool costs and what it loses. ${countingSentence(m)}${m.costs.length > 1 ? ` What the same catalog costs on each of ${m.costs.map((c) => `<code>${e(c.name)}</code>`).join(', ')} is under <a href="#costs">Cost on each model</a>, each counted with its own tokenizer where it is known.` : ''} Each tool's rendering under ${cols} is in its panel${m.diffed ? `, with the lines where <code>${e(m.columns[m.diffed[0]].name)}</code> and <code>${e(m.columns[m.diffed[1]].name)}</code> differ marked` : ''}${m.checked.length ? `, and the findings (what the model will not see, or will misread: ${findingSources(m)}) with the JSON Pointer into the input and the schema text there` : ''}.</p>`;
}

function totals(m: ReportModel): string {
  const t = m.inventory.totals;
  const card = (k: string, v: string, s = '') => `<li><span class="k">${k}</span><span class="v">${v}</span>${s ? `<span class="s">${s}</span>` : ''}</li>`;
  const findings = m.checked.length
    ? `<li><span class="k">Findings (${[m.lint.length ? `lint: ${m.lint.map((f) => e(f)).join(', ')}` : '', ...sayingColumns(m).map(e)].filter(Boolean).join('; ')})</span><span class="v" id="total-findings">${countBadges(m.counts)}</span><span class="s">${plural(m.tools.filter((x) => x.findings.length).length, 'tool')} with findings</span></li>`
    : `<li><span class="k">Findings</span><span class="v"><span class="sev none">not linted</span></span><span class="s">lint reads the openai-harmony and chat-template renderings</span></li>`;
  return `<section aria-labelledby="totals-h"><h2 id="totals-h" class="sr">Totals</h2>
<ul class="cards" id="totals">
${card('Tools', `<span id="total-tools">${formatCount(m.tools.length)}</span>`)}
${t.system !== undefined ? `${card('System message', `<span id="total-system">${formatCount(t.system)}</span>`, 'tokens, &lt;|start|&gt; to &lt;|end|&gt;')}\n` : ''}${t.developer !== undefined ? `${card('Developer message', `<span id="total-developer">${formatCount(t.developer)}</span>`, 'tokens, &lt;|start|&gt; to &lt;|end|&gt;')}\n` : ''}${card(t.system !== undefined ? 'Catalog (# Tools)' : 'Catalog (the tools block)', `<span id="total-catalog">${approx(m.inventory.tokenizer)}${formatCount(t.catalog)}</span>`, `${m.inventory.tokenizer.exact ? 'tokens' : 'tokens, an o200k estimate'}; ${formatCount(m.overhead)} outside any tool`)}
${t.prompt !== undefined ? `${card('Whole prompt', `<span id="total-prompt">${approx(m.inventory.tokenizer)}${formatCount(t.prompt)}</span>`, m.inventory.tokenizer.exact ? 'tokens, control tokens counted as one' : 'tokens, an o200k estimate')}\n` : ''}${findings}
</ul></section>`;
}

/** `≈` before an estimated count. */
function approx(t: InventoryTokenizer): string {
  return t.exact ? '' : '\u2248';
}

/** What the same catalog costs on each model column, each counted with its own tokenizer (two or more such columns). */
function costs(m: ReportModel): string {
  if (m.costs.length < 2) return '';
  const first = m.costs.find((c) => c.error === undefined);
  const rel = (c: ColumnCost) => (first === undefined || c === first || c.error !== undefined || first.totals.catalog <= 0 ? '' : ` <span class="meta">(${c.totals.catalog >= first.totals.catalog ? '+' : ''}${(((c.totals.catalog - first.totals.catalog) / first.totals.catalog) * 100).toFixed(1)}% vs <code>${e(first.name)}</code>)</span>`);
  const rows = m.costs.map((c, k) => {
    if (c.error !== undefined) return `<tr data-k="${k}"><th scope="row"><code>${e(c.name)}</code></th><td class="n">\u2013</td><td class="n">\u2013</td><td class="refused">${v(c.error)}</td></tr>`;
    const a = approx(c.tokenizer);
    return `<tr data-k="${k}"><th scope="row"><code>${e(c.name)}</code></th><td class="n cost-catalog">${a}${formatCount(c.totals.catalog)}${rel(c)}</td><td class="n cost-prompt">${c.totals.prompt !== undefined ? `${a}${formatCount(c.totals.prompt)}` : '\u2013'}</td><td>${tokenizerHtml(c.tokenizer)}</td></tr>`;
  });
  return `<section aria-labelledby="costs-h" id="costs"><h2 id="costs-h">Cost on each model</h2>
<p>The same ${plural(m.tools.length, 'tool')} on each model: its catalog (the tools' share of its prompt) and its whole prompt, counted with that model's own tokenizer where it was given or found in the Hugging Face cache; \u2248 marks an o200k estimate. The table below counts on the model chosen above it.</p>
<table class="costs" id="cost-table"><thead><tr><th scope="col">Model</th><th scope="col" class="n">Catalog tokens</th><th scope="col" class="n">Whole prompt</th><th scope="col">Counted with</th></tr></thead>
<tbody>${rows.join('')}</tbody></table></section>`;
}

function budget(m: ReportModel): string {
  if (m.maxTokens === undefined) return '';
  const cat = m.inventory.totals.catalog;
  const max = m.maxTokens;
  const scale = Math.max(cat, max, 1);
  const over = cat > max;
  const verdict = over ? `<span class="over-text">${MARK.error} over budget by ${formatCount(cat - max)} tokens</span>` : `within budget: ${formatCount(max - cat)} tokens left`;
  return `<section aria-labelledby="budget-h" id="budget"><h2 id="budget-h">Budget</h2>
<p>The catalog is ${formatCount(cat)} tokens; the budget (<code>--max-tokens</code>) is ${formatCount(max)}: ${verdict}. The line in the table shows which tools fit, in the order shown.</p>
<div class="gauge" role="img" aria-label="catalog ${formatCount(cat)} tokens against a budget of ${formatCount(max)}"><span class="fill${over ? ' over' : ''}" style="width:${((100 * cat) / scale).toFixed(2)}%"></span><span class="mark" style="left:${((100 * max) / scale).toFixed(2)}%"></span></div>
</section>`;
}

const OPTION_NAMES: readonly [string, string][] = [
  ['target', 'target'], ['flavor', 'flavor'], ['dialect', 'dialect'], ['lowering', 'lowering'], ['namespace', 'namespace'],
  ['namespaceDescription', 'namespace description'], ['instructions', 'instructions'], ['date', 'date'], ['effort', 'reasoning effort'],
  ['identity', 'identity'], ['cutoff', 'knowledge cutoff'], ['browser', 'browser tool'], ['python', 'python tool'], ['server', 'server'],
  ['controlTokens', 'control tokens'], ['completion', 'completion'],
];

function options(m: ReportModel): string {
  const o = m.options as Record<string, unknown>;
  const rows: [string, string][] = [];
  if (m.source !== undefined) rows.push(['input', `<code>${e(m.source)}</code>`]);
  rows.push(['tokens counted on', `<code>${e(m.counted)}</code>`]);
  rows.push(['columns', m.columns.map((c) => `<code>${e(c.name)}</code>`).join(', ')]);
  rows.push(['lint', m.lint.length ? m.lint.map((f) => `<code>${e(f)}</code>`).join(', ') : 'none']);
  if (sayingColumns(m).length) rows.push(['findings of the renderer', sayingColumns(m).map((c) => `<code>${e(c)}</code>`).join(', ')]);
  if (m.diffed) rows.push(['lines marked Δ', `where <code>${e(m.columns[m.diffed[0]].name)}</code> and <code>${e(m.columns[m.diffed[1]].name)}</code> differ`]);
  if (m.maxTokens !== undefined) rows.push(['max tokens', formatCount(m.maxTokens)]);
  if (m.inventory.tokenizer.path !== undefined || !m.inventory.tokenizer.exact) rows.push(['tokenizer', tokenizerHtml(m.inventory.tokenizer)]);
  for (const [k, label] of OPTION_NAMES) {
    const v = o[k];
    if (v === undefined) continue;
    rows.push([label, typeof v === 'boolean' ? (v ? 'yes' : 'no') : `<code>${e(String(v))}</code>`]);
  }
  if (Array.isArray(o.messages)) rows.push(['messages', formatCount(o.messages.length)]);
  return `<section aria-labelledby="options-h"><h2 id="options-h">Options</h2>
<dl class="options" id="options">${rows.map(([k, v]) => `<dt>${e(k)}</dt><dd>${v}</dd>`).join('')}</dl></section>`;
}

function legend(m: ReportModel): string {
  const items = [
    `${badge('error')} unsafe or refused under that flavor`,
    `${badge('warning')} something the schema says is lost or misread`,
    `${badge('info')} a loss that is usually harmless`,
    `<mark class="ctl">&lt;|end|&gt;</mark> text that spells a control token`,
  ];
  if (m.diffed) items.push(`<span class="chg-key">\u0394 a line</span> that differs between <code>${e(m.columns[m.diffed[0]].name)}</code> and <code>${e(m.columns[m.diffed[1]].name)}</code>`);
  return `<ul class="legend" aria-label="Legend">${items.map((i) => `<li>${i}</li>`).join('')}</ul>`;
}

/** The model columns the table's tokens can be switched between (two or more, one of them the counted rendering), else none. */
function switchable(m: ReportModel): readonly ColumnCost[] {
  return m.costs.length > 1 && m.costs.some((c) => c.counted) ? m.costs : [];
}

/** The radio buttons that count the table on another model. */
function countOn(m: ReportModel, costs: readonly ColumnCost[]): string {
  if (!costs.length) return '';
  const buttons = costs.map((c, k) => `<label><input type="radio" name="count-on" value="${k}"${c.counted ? ' checked' : ''}${c.error !== undefined ? ' disabled' : ''}> <code>${e(c.name)}</code>${c.error !== undefined ? ' (cannot be counted)' : c.tokenizer.exact ? '' : ' (o200k estimate)'}</label>`);
  return `<fieldset class="count-on noprint" id="count-on"><legend>Count the tokens on</legend>${buttons.join(' ')}</fieldset>`;
}

/** The table of token shares: its heading and caption, then a row at a time. */
function* tableParts(m: ReportModel): Generator<string> {
  const costs = switchable(m);
  const max = maxOf(m.tools.map((t) => t.tokens), 1);
  const cat = m.inventory.totals.catalog;
  const a = approx(m.inventory.tokenizer);
  let run = m.overhead;
  let placed = false;
  const budgetRow = m.maxTokens === undefined ? '' : `<tr class="budget" role="row"><td role="cell" colspan="7">\u2500\u2500 Budget: ${formatCount(m.maxTokens)} catalog tokens (<code>--max-tokens</code>). Tools above this line fit, in this order (running total with the catalog's own <span class="cap-overhead">${formatCount(m.overhead)}</span>); tools below it go over. \u2500\u2500</td></tr>`;
  const th = (key: string, label: string, numeric = false, sorted = false) =>
    `<th scope="col" role="columnheader"${numeric ? ' class="n"' : ''} data-key="${key}"${sorted ? ' aria-sort="ascending"' : ''}><button type="button"><span class="label">${label}</span> <span class="ind" aria-hidden="true">${sorted ? '\u25B2' : '\u2195'}</span></button></th>`;
  // what the script needs to count the table on another model: each model's catalog, overhead, largest tool
  const costData = costs.length
    ? ` data-costs="${e(JSON.stringify(costs.map((c) => ({ name: c.name, catalog: c.totals.catalog, overhead: c.overhead, max: maxOf(c.tools, 1), exact: c.tokenizer.exact }))))}" data-count-on="${costs.findIndex((c) => c.counted)}"`
    : '';
  const on = `<span class="cap-on">${costs.length ? ` on <code>${e(costs.find((c) => c.counted)?.name ?? '')}</code>` : ''}</span>`;
  yield `<section aria-labelledby="share-h"><h2 id="share-h">Token share per tool</h2>
<p class="noprint">Sort with the column headings (buttons: click, or Enter). A tool's name opens its panel: its renderings side by side and its findings.</p>
${countOn(m, costs)}
<p id="sort-status" class="sr" aria-live="polite"></p>
<table class="share" id="share" role="table" data-overhead="${m.overhead}"${m.maxTokens !== undefined ? ` data-budget="${m.maxTokens}"` : ''}${costData} data-sorted="i ascending">
<caption>${plural(m.tools.length, 'tool')}, <span class="cap-catalog">${a}${formatCount(cat)}</span> catalog tokens${on}. A bar is a tool's tokens against the largest tool's (<span class="cap-max">${formatCount(max)}</span>); the percentage, its share of the catalog; the running total adds the catalog's own <span class="cap-overhead">${formatCount(m.overhead)}</span> tokens and the tools above.</caption>
<thead role="rowgroup"><tr role="row">${th('i', '#', true, true)}${th('name', 'Tool')}${th('params', 'Params', true)}${th('tokens', 'Tokens', true)}<th scope="col" role="columnheader" class="c-bar">Share</th><th scope="col" role="columnheader" class="n c-run">Running total</th>${th('findings', 'Findings')}</tr></thead>
<tbody role="rowgroup">
`;
  // one row at a time, separated by line breaks
  let first = true;
  const row = (r: string) => {
    const out = first ? r : `\n${r}`;
    first = false;
    return out;
  };
  for (const t of m.tools) {
    if (m.maxTokens !== undefined && !placed && run + t.tokens > m.maxTokens) {
      yield row(budgetRow);
      placed = true;
    }
    run += t.tokens;
    const over = m.maxTokens !== undefined && run > m.maxTokens;
    const perModel = costs.map((c, k) => ` data-t${k}="${c.tools[t.index] ?? 0}"`).join('');
    yield row(
      `<tr class="tool${over ? ' over' : ''}" role="row" id="r-${t.index}" data-i="${t.index}" data-name="${e(t.name)}" data-params="${t.parameters}" data-tokens="${t.tokens}"${perModel} data-errors="${t.counts.errors}" data-warnings="${t.counts.warnings}" data-findings="${t.findings.length}">` +
        `<td role="cell" class="n">${t.index + 1}</td>` +
        `<td role="cell" class="name"><a href="#t-${t.index}">${markedText(t.name, t.controlTokens)}</a>${toolTags(t)}</td>` +
        `<td role="cell" class="n">${t.parameters}</td>` +
        `<td role="cell" class="n tokens">${a}${formatCount(t.tokens)}</td>` +
        `<td role="cell" class="bar-cell"><span class="bar" aria-hidden="true"><span style="width:${((100 * t.tokens) / max).toFixed(2)}%"></span></span><span class="pct">${e(percent(t.tokens, cat))}</span></td>` +
        `<td role="cell" class="n run">${formatCount(run)}</td>` +
        `<td role="cell" class="findings">${compactCounts(t.counts)}</td></tr>`,
    );
  }
  if (m.maxTokens !== undefined && !placed) yield row(budgetRow);
  yield `\n</tbody>
</table>
</section>`;
}

/** Up to this many tools, the panels are in the page as HTML (found by the browser's search, printed, shown without script); above, each is filled in when opened. */
export const INLINE_PANELS_UP_TO = 200;

/** The tools' panels, one at a time: inline, or (many tools) the list of summaries, then each body as raw text the script fills in. */
function* panelsParts(m: ReportModel, onTool?: (done: number, total: number) => void): Generator<string> {
  const inline = m.inlinePanels ?? m.tools.length <= INLINE_PANELS_UP_TO;
  const n = m.tools.length;
  // a page of one tool opens its panel: there is nothing else to choose
  const open = n === 1 ? ' open' : '';
  yield `<section aria-labelledby="tools-h"><div class="tools-head"><h2 id="tools-h">Tools</h2><button type="button" id="expand-all">Open all</button><button type="button" id="collapse-all">Close all</button></div>
`;
  for (const [k, t] of m.tools.entries()) {
    const sep = k === 0 ? '' : '\n';
    if (inline) {
      yield `${sep}<details class="tool" id="t-${t.index}"${open}>${panelSummary(m, t)}<div class="panel">${panelBody(m, t)}</div></details>`;
      onTool?.(k + 1, n);
    } else yield `${sep}<details class="tool" id="t-${t.index}"${open}>${panelSummary(m, t)}<div class="panel" data-fill="p-${t.index}"><p class="meta">This panel is filled in by the page's script when it is opened.</p></div></details>`;
  }
  yield '\n</section>';
  if (inline) return;
  for (const [k, t] of m.tools.entries()) {
    // the panel's HTML is kept as raw text (not parsed into the page) until it is opened: a 2,000-tool page opens fast.
    // it holds no "<" but its own tags (every string from the tools is escaped), so nothing in it can end the element
    yield `\n<script type="text/x-panel" id="p-${t.index}">${panelBody(m, t)}</script>`;
    onTool?.(k + 1, n);
  }
}

function diffSummary(m: ReportModel, t: ReportTool): string {
  if (!m.diffed || t.diff === undefined) return '';
  const [a, b] = [m.columns[m.diffed[0]].name, m.columns[m.diffed[1]].name];
  if (t.diff === 'identical') return `<span class="meta">same text under ${e(a)} and ${e(b)}</span>`;
  if (t.diff === 'error') return `<span class="meta">${MARK.error} refused by ${[t.entries[m.diffed[0]], t.entries[m.diffed[1]]].map((x, k) => ('error' in x ? e(k === 0 ? a : b) : '')).filter(Boolean).join(' and ')}</span>`;
  return `<span class="meta">\u0394 differs between ${e(a)} and ${e(b)}</span>`;
}

/** A tool's panel summary: its name, size and findings. */
function panelSummary(m: ReportModel, t: ReportTool): string {
  const cat = m.inventory.totals.catalog;
  return `<summary><span class="tname">${markedText(t.name, t.controlTokens)}</span>${toolTags(t)}<span class="meta">${plural(t.parameters, 'parameter')} \u00B7 ${plural(t.tokens, 'token')} (${e(percent(t.tokens, cat))} of the catalog)</span>${countBadges(t.counts)}${diffSummary(m, t)}</summary>`;
}

/** A tool's panel: its renderings side by side, its findings and notes. */
function panelBody(m: ReportModel, t: ReportTool): string {
  const figures = m.columns.map((c, k) => {
    const entry = t.entries[k];
    const counted = c.name === m.counted ? ' <span class="meta">(tokens counted here)</span>' : '';
    const changed = t.changed[k];
    const caption = `<figcaption><b>${e(c.name)}</b>${counted}${changed.size ? ` <span class="meta">\u0394 ${plural(changed.size, 'line')}</span>` : ''}${c.note !== undefined ? `<span class="note">${e(c.note)}</span>` : ''}</figcaption>`;
    const body = 'text' in entry
      ? `<pre class="r" tabindex="0" aria-label="${e(`${t.name} under ${c.name}`)}">${renderingHtml(entry.text, t.controlTokens, changed)}</pre>`
      : `<p class="refused"><strong>${e(c.name)} refuses this tool:</strong> ${markedText(entry.error, t.controlTokens)}</p>`;
    return `<figure class="col">${caption}${body}</figure>`;
  });
  const diffNote = (() => {
    if (!m.diffed || t.diff === undefined) return '';
    const [a, b] = [m.columns[m.diffed[0]].name, m.columns[m.diffed[1]].name];
    if (t.diff === 'identical') return `<p>Same text under <code>${e(a)}</code> and <code>${e(b)}</code>.</p>`;
    if (t.diff === 'error') return '';
    if (t.patch !== undefined) return `<p>The two differ; the unified diff (taken with the default render options):</p><pre class="frag">${markedText(t.patch, t.controlTokens)}</pre>`;
    return `<p><span class="chg-key">\u0394</span> marks the lines where <code>${e(a)}</code> and <code>${e(b)}</code> differ.</p>`;
  })();
  return `<p class="meta">At <code>${v(t.pointer || '/')}</code> in the input${t.title !== undefined ? `; title <q><bdi>${markedText(t.title, t.controlTokens)}</bdi></q>` : ''}. <a href="#r-${t.index}" class="noprint">Back to its row</a></p>
<h3>What the model reads</h3>
${diffNote}
<div class="cols">${figures.join('')}</div>
${findingsList(m, t)}
${toolNotesList(t)}`;
}

function findingsList(m: ReportModel, t: ReportTool): string {
  if (!m.checked.length) return '';
  if (!t.findings.length) return `<h3>Findings</h3><p>None under ${m.checked.map((f) => `<code>${e(f)}</code>`).join(' or ')}.</p>`;
  return `<h3>Findings (${t.findings.length})</h3>
<ol class="findings">${t.findings.map((f) => finding(f, t.controlTokens)).join('')}</ol>`;
}

function finding(f: ReportFinding, spellings: readonly string[]): string {
  let fragment = '';
  if (f.fragment !== undefined) {
    const c = clip(fragmentText(f.fragment));
    fragment = `<pre class="frag" aria-label="the input at ${e(f.path)}">${markedText(c.text, spellings)}${c.omitted ? `\n\u2026 (${plural(c.omitted, 'more character')})` : ''}</pre>`;
  }
  return `<li class="${f.severity}">${badge(f.severity)} <code>${e(f.code)}</code> <span class="meta">[${f.flavors.map(e).join(', ')}]</span>
<div class="where">at <code>${v(f.path)}</code></div>
<p class="msg">${markedText(f.message, spellings)}</p>${fragment}</li>`;
}

function diagnosticItem(d: Diagnostic, spellings: readonly string[] = []): string {
  return `<li>${badge(d.severity)} <code>${e(d.code)}</code>${d.path ? ` at <code>${v(d.path)}</code>` : ''}: <bdi>${markedText(d.message, spellings)}</bdi></li>`;
}

function toolNotesList(t: ReportTool): string {
  if (!t.notes.length) return '';
  return `<h3>Notes from reading and rendering (${t.notes.length})</h3><ul class="notes">${t.notes.map((d) => diagnosticItem(d, t.controlTokens)).join('')}</ul>`;
}

function notes(m: ReportModel): string {
  if (!m.notes.length) return '';
  return `<section aria-labelledby="notes-h"><h2 id="notes-h">Notes on the whole input</h2><ul class="notes">${m.notes.map((d) => diagnosticItem(d)).join('')}</ul></section>`;
}
