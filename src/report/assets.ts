/** The report page's own style and script, inlined into every page (no network, no external file). */
import { createHash } from 'node:crypto';

/** The page's style sheet: screen, keyboard focus and print. */
export const REPORT_CSS = `
:root { color-scheme: light; --fg: #1d1f23; --muted: #5b616b; --line: #d5d9e0; --bg: #ffffff; --panel: #f6f7f9;
  --bar: #3465a4; --bar-bg: #e4e9f1; --err: #a4161a; --err-bg: #fde8e8; --warn: #7a4f00; --warn-bg: #fff1cc;
  --info: #1f5f99; --info-bg: #e6f0fa; --chg: #fff3bf; --chg-line: #b58400; --focus: #0b57d0; }
* { box-sizing: border-box; }
html { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); background: var(--bg); }
body { margin: 0; padding: 0 1.5rem 3rem; max-width: 110rem; overflow-wrap: anywhere; }
h1 { font-size: 1.5rem; margin: 1.25rem 0 .25rem; overflow-wrap: anywhere; }
h2 { font-size: 1.2rem; margin: 2rem 0 .5rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; }
h3 { font-size: 1rem; margin: 1.1rem 0 .4rem; }
p { margin: .4rem 0; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: .86rem; }
a { color: var(--focus); }
.lede { color: var(--muted); max-width: 60rem; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 1rem; top: .5rem; background: var(--bg); padding: .25rem .5rem; z-index: 5; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.cards { display: flex; flex-wrap: wrap; gap: .6rem; margin: 1rem 0 .5rem; padding: 0; list-style: none; }
.cards li { border: 1px solid var(--line); border-radius: 6px; padding: .45rem .8rem; min-width: 9rem; background: var(--panel); }
.cards .k { display: block; color: var(--muted); font-size: .8rem; }
.cards .v { font-size: 1.25rem; font-weight: 650; font-variant-numeric: tabular-nums; }
.cards .s { display: block; color: var(--muted); font-size: .78rem; }
.sev { display: inline-block; border-radius: 4px; padding: 0 .35rem; font-weight: 600; font-size: .82rem; white-space: nowrap; border: 1px solid currentColor; }
.sev.error { color: var(--err); background: var(--err-bg); border-width: 2px; }
.sev.warning { color: var(--warn); background: var(--warn-bg); }
.sev.info { color: var(--info); background: var(--info-bg); }
.sev.none { color: var(--muted); border-color: var(--line); font-weight: 400; }
.tag { display: inline-block; font-size: .78rem; font-weight: 600; border: 2px solid var(--err); color: var(--err); background: var(--err-bg); border-radius: 4px; padding: 0 .3rem; margin-left: .3rem; white-space: nowrap; }
dl.options { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: .5rem 0; font-size: .9rem; }
dl.options dt { color: var(--muted); }
dl.options dd { margin: 0; overflow-wrap: anywhere; }
.gauge { position: relative; height: 1.1rem; background: var(--bar-bg); border: 1px solid var(--line); border-radius: 3px; max-width: 40rem; margin: .4rem 0; }
.gauge .fill { position: absolute; inset: 0 auto 0 0; background: var(--bar); }
.gauge .fill.over { background: repeating-linear-gradient(135deg, var(--err) 0 6px, #c8474b 6px 12px); }
.gauge .mark { position: absolute; top: -.35rem; bottom: -.35rem; width: 0; border-left: 3px solid var(--fg); }
.over-text { color: var(--err); font-weight: 650; }
/* the table is laid out as a grid of rows (its roles given explicitly): rows out of view are not laid out, so 2,000 rows open and sort fast */
table.share { display: block; width: 100%; font-variant-numeric: tabular-nums; }
table.share caption { display: block; text-align: left; color: var(--muted); padding: .25rem 0 .5rem; }
table.share thead, table.share tbody { display: block; }
table.share thead { position: sticky; top: 0; background: var(--bg); z-index: 1; border-bottom: 2px solid var(--fg); }
table.share tr { display: grid; grid-template-columns: 4.2rem minmax(8rem, 3fr) 7rem 7rem minmax(6rem, 2.6fr) 8rem 13rem; align-items: center; border-bottom: 1px solid var(--line); }
table.share thead tr { border-bottom: 0; }
table.share tbody tr.tool { content-visibility: auto; contain-intrinsic-size: auto 2rem; }
table.share th, table.share td { padding: .2rem .45rem; text-align: left; min-width: 0; }
table.share th { font-size: .88rem; }
table.share th.n, table.share td.n { text-align: right; }
th button { font: inherit; font-weight: 650; color: inherit; background: none; border: 1px solid transparent; border-radius: 4px; padding: .15rem .3rem; cursor: pointer; width: 100%; text-align: inherit; }
th button:hover { border-color: var(--line); background: var(--panel); }
th button .ind { display: inline-block; width: 1em; text-align: center; color: var(--muted); }
th[aria-sort="ascending"] button .ind, th[aria-sort="descending"] button .ind { color: var(--fg); }
td.name { overflow-wrap: anywhere; }
td.name a { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .86rem; }
.bar { display: inline-block; vertical-align: middle; width: calc(100% - 4.2rem); height: .8rem; background: var(--bar-bg); border-radius: 2px; overflow: hidden; }
.bar span { display: block; height: 100%; background: var(--bar); min-width: 1px; }
.pct { display: inline-block; width: 4rem; text-align: right; color: var(--muted); font-size: .82rem; }
tr.over td.run { color: var(--err); font-weight: 650; }
tr.over td.run::before { content: "over "; font-weight: 400; font-size: .78rem; }
table.share tr.budget { border-top: 3px solid var(--fg); border-bottom: 3px solid var(--fg); background: var(--panel); }
tr.budget td { grid-column: 1 / -1; font-weight: 650; padding: .35rem .5rem; }
.tools-head { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; border-bottom: 1px solid var(--line); margin: 2rem 0 .5rem; padding-bottom: .25rem; }
.tools-head h2 { border: 0; margin: 0 .5rem 0 0; padding: 0; }
.tools-head button { font: inherit; padding: .2rem .6rem; border: 1px solid var(--line); border-radius: 4px; background: var(--panel); cursor: pointer; }
details.tool { border: 1px solid var(--line); border-radius: 6px; margin: .35rem 0; content-visibility: auto; contain-intrinsic-size: auto 2.4rem; }
details.tool > summary { cursor: pointer; padding: .4rem .7rem; display: flex; flex-wrap: wrap; gap: .3rem .8rem; align-items: baseline; }
details.tool > summary .tname { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-weight: 650; overflow-wrap: anywhere; }
details.tool > summary .meta { color: var(--muted); font-size: .86rem; }
details.tool[open] > summary { border-bottom: 1px solid var(--line); background: var(--panel); }
.panel { padding: .3rem .9rem .8rem; }
.desc { white-space: pre-wrap; overflow-wrap: anywhere; max-width: 70rem; }
.cols { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(22rem, 100%), 1fr)); gap: .8rem; }
figure.col { margin: 0; border: 1px solid var(--line); border-radius: 4px; min-width: 0; }
figure.col figcaption { padding: .3rem .6rem; background: var(--panel); border-bottom: 1px solid var(--line); font-size: .85rem; }
figure.col figcaption b { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
figure.col figcaption .note { color: var(--muted); display: block; font-size: .78rem; min-height: 2.9em; }
pre.r { margin: 0; padding: .5rem .6rem .5rem 1.7rem; white-space: pre-wrap; overflow-wrap: anywhere; line-height: 1.4; }
pre.r .l { display: block; padding-left: 2ch; text-indent: -2ch; min-height: 1.4em; position: relative; }
pre.r .chg { background: var(--chg); box-shadow: inset 3px 0 0 var(--chg-line); }
pre.r .chg::before { content: "\\394"; position: absolute; left: -1.3rem; text-indent: 0; color: var(--chg-line); font-weight: 700; }
mark.ctl { background: var(--err-bg); color: var(--err); outline: 2px dashed var(--err); outline-offset: 0; margin: 0 3px; padding: 0 1px; font-weight: 700; border-radius: 2px; }
mark.ctl::before { content: "\\26A0\\FE0E\\00A0"; }
/* text from the tools is isolated: a bidi control or right-to-left text in a name cannot reorder the page's own text after it */
code, q, bdi, .tname, td.name a, .inv, mark.ctl, .made .mono { unicode-bidi: isolate; }
/* an invisible character (a bidi control, a zero-width or other format character): shown as its code point, kept in the text */
.inv { color: var(--warn); background: var(--warn-bg); outline: 1px dashed var(--warn); border-radius: 2px; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .78em; font-weight: 700; font-style: normal; white-space: nowrap; margin: 0 1px; }
.inv::before { content: "<" attr(data-cp) ">"; }
.made { color: var(--muted); font-size: .88rem; margin: 0 0 .4rem; overflow-wrap: anywhere; }
.refused { margin: 0; padding: .6rem; color: var(--err); background: var(--err-bg); white-space: pre-wrap; overflow-wrap: anywhere; }
.refused strong::before { content: "\\2716\\00A0"; }
.chg-key { display: inline-block; background: var(--chg); box-shadow: inset 3px 0 0 var(--chg-line); padding: 0 .4rem 0 .6rem; }
ol.findings { list-style: none; padding: 0; margin: .3rem 0; }
ol.findings > li { border-left: 4px solid var(--line); padding: .3rem .6rem; margin: .35rem 0; background: var(--bg); }
ol.findings > li.error { border-left: 6px double var(--err); background: var(--err-bg); }
ol.findings > li.warning { border-left-color: var(--warn); }
ol.findings > li.info { border-left-color: var(--info); }
ol.findings .where { font-size: .84rem; overflow-wrap: anywhere; }
ol.findings .msg { margin: .2rem 0; }
pre.frag { margin: .2rem 0 0; padding: .35rem .5rem; background: var(--panel); border: 1px solid var(--line); border-radius: 3px; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 18rem; overflow: auto; }
.legend { display: flex; flex-wrap: wrap; gap: .4rem 1.2rem; font-size: .85rem; color: var(--muted); margin: .5rem 0; padding: 0; list-style: none; }
.notes li { overflow-wrap: anywhere; }
table.costs { border-collapse: collapse; margin: .4rem 0; font-variant-numeric: tabular-nums; font-size: .9rem; display: block; max-width: 100%; overflow-x: auto; }
table.costs th, table.costs td { border-bottom: 1px solid var(--line); padding: .25rem .6rem; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
table.costs .n { text-align: right; white-space: nowrap; }
table.costs td.refused { padding: .25rem .6rem; }
fieldset.count-on { border: 1px solid var(--line); border-radius: 6px; margin: .4rem 0; padding: .3rem .7rem; display: flex; flex-wrap: wrap; gap: .3rem 1rem; }
fieldset.count-on legend { color: var(--muted); font-size: .85rem; padding: 0 .3rem; }
fieldset.count-on label { cursor: pointer; }
.sha code { font-size: .8rem; }
footer { margin-top: 2.5rem; color: var(--muted); font-size: .82rem; border-top: 1px solid var(--line); padding-top: .5rem; }
@media (max-width: 56rem) { table.share tr { grid-template-columns: 3rem minmax(8rem, 1fr) 5rem 6rem 9rem; } table.share .bar-cell, table.share .run, table.share .c-bar, table.share .c-run { display: none; } }
/* a phone (420 px and less): nothing wider than the page; long strings wrap, tables and code scroll in their own box */
@media (max-width: 34rem) {
  body { padding: 0 .6rem 2rem; }
  h1 { font-size: 1.25rem; }
  table.share tr { grid-template-columns: 2.2rem minmax(0, 1fr) 4.2rem 4.6rem 5.4rem; }
  table.share th, table.share td { padding: .2rem .25rem; overflow-wrap: anywhere; }
  table.share th { font-size: .8rem; }
  th button { padding: .1rem; }
  dl.options { grid-template-columns: minmax(0, 1fr); }
  dl.options dd { margin-bottom: .3rem; }
  .cards li { min-width: 0; flex: 1 1 8rem; }
  .panel { padding: .3rem .4rem .6rem; }
  details.tool > summary { padding: .4rem .4rem; }
  pre.r { padding-left: 1.4rem; }
  pre.r .chg::before { left: -1.1rem; }
  .tag { white-space: normal; }
}
@media print {
  html { font-size: 10pt; }
  body { padding: 0; max-width: none; }
  .skip, .tools-head button, .noprint { display: none !important; }
  a { color: inherit; text-decoration: none; }
  th button { border: 0; padding: 0; }
  th button .ind { display: none; }
  th[aria-sort="ascending"] button .ind, th[aria-sort="descending"] button .ind { display: inline-block; }
  table.share thead { position: static; }
  table.share tbody tr.tool { content-visibility: visible; }
  tr, li, figure.col { break-inside: avoid; }
  details.tool { break-inside: auto; content-visibility: visible; }
  .bar, .bar span, .gauge, .gauge .fill, .sev, .tag, mark.ctl, pre.r .chg, ol.findings > li, tr.budget { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .cols { grid-template-columns: 1fr; }
  pre.frag { max-height: none; overflow: visible; }
}
`;

/**
 * The page's script: sort the table (header buttons: click, Enter or Space), keep the running
 * total and the budget line right after a sort, open a tool's panel from its link, expand or
 * collapse every panel, and open the panels to print (up to 200 tools). It reads only the page.
 */
export const REPORT_SCRIPT = `(function () {
  'use strict';
  var table = document.getElementById('share');
  if (!table) return;
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.querySelectorAll('tr.tool'));
  var budgetRow = body.querySelector('tr.budget');
  var overhead = Number(table.getAttribute('data-overhead')) || 0;
  var budgetText = table.getAttribute('data-budget');
  var budget = budgetText === null ? null : Number(budgetText);
  var numberFormat = new Intl.NumberFormat('en-US');
  var fmt = function (n) { return numberFormat.format(n); };
  var num = function (r, k) { return Number(r.getAttribute('data-' + k)); };
  var byIndex = function (a, b) { return num(a, 'i') - num(b, 'i'); };
  var compare = {
    i: byIndex,
    name: function (a, b) { var x = a.getAttribute('data-name'), y = b.getAttribute('data-name'); return x < y ? -1 : x > y ? 1 : 0; },
    params: function (a, b) { return num(a, 'params') - num(b, 'params'); },
    tokens: function (a, b) { return num(a, 'tokens') - num(b, 'tokens'); },
    findings: function (a, b) { return (num(a, 'errors') - num(b, 'errors')) || (num(a, 'warnings') - num(b, 'warnings')) || (num(a, 'findings') - num(b, 'findings')); }
  };
  var firstDirection = { i: 'ascending', name: 'ascending', params: 'descending', tokens: 'descending', findings: 'descending' };
  var current = { key: 'i', dir: 'ascending' };

  function layout(order) {
    var frag = document.createDocumentFragment();
    var run = overhead, placed = false;
    for (var k = 0; k < order.length; k++) {
      var r = order[k], t = num(r, 'tokens');
      if (budgetRow && !placed && run + t > budget) { frag.appendChild(budgetRow); placed = true; }
      run += t;
      r.querySelector('td.run').textContent = fmt(run);
      if (budget !== null) r.classList.toggle('over', run > budget);
      frag.appendChild(r);
    }
    if (budgetRow && !placed) frag.appendChild(budgetRow);
    body.appendChild(frag);
  }

  function sortBy(key, dir) {
    var cmp = compare[key];
    var sign = dir === 'ascending' ? 1 : -1;
    var order = rows.slice().sort(function (a, b) { return sign * cmp(a, b) || byIndex(a, b); });
    layout(order);
    current = { key: key, dir: dir };
    var heads = table.tHead.querySelectorAll('th[data-key]');
    for (var h = 0; h < heads.length; h++) {
      var th = heads[h], on = th.getAttribute('data-key') === key;
      if (on) th.setAttribute('aria-sort', dir); else th.removeAttribute('aria-sort');
      th.querySelector('.ind').textContent = on ? (dir === 'ascending' ? '\\u25B2' : '\\u25BC') : '\\u2195';
    }
    var status = document.getElementById('sort-status');
    if (status) status.textContent = 'Sorted by ' + table.tHead.querySelector('th[data-key="' + key + '"] .label').textContent + ', ' + dir + '.';
    table.setAttribute('data-sorted', key + ' ' + dir);
  }

  // the tokens counted on another model (a report of several --model/--template columns)
  var costs = null;
  var costsText = table.getAttribute('data-costs');
  if (costsText) { try { costs = JSON.parse(costsText); } catch (err) { costs = null; } }
  var pct = function (part, whole) { if (whole <= 0) return '\u2013'; var p = (100 * part) / whole; return p > 0 && p < 0.1 ? '<0.1%' : p.toFixed(1) + '%'; };
  var setText = function (sel, text) { var xs = document.querySelectorAll(sel); for (var i = 0; i < xs.length; i++) xs[i].textContent = text; };
  function countOn(k) {
    var c = costs && costs[k];
    if (!c) return;
    overhead = c.overhead;
    table.setAttribute('data-overhead', String(c.overhead));
    table.setAttribute('data-count-on', String(k));
    var mark = c.exact ? '' : '\u2248';
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i], t = num(r, 't' + k);
      r.setAttribute('data-tokens', String(t));
      r.querySelector('td.tokens').textContent = mark + fmt(t);
      r.querySelector('.bar > span').style.width = ((100 * t) / c.max).toFixed(2) + '%';
      r.querySelector('.pct').textContent = pct(t, c.catalog);
    }
    setText('.cap-catalog', mark + fmt(c.catalog));
    setText('.cap-max', fmt(c.max));
    setText('.cap-overhead', fmt(c.overhead));
    setText('.cap-on code', c.name);
    sortBy(current.key, current.dir);
    var status = document.getElementById('sort-status');
    if (status) status.textContent = 'Tokens counted on ' + c.name + (c.exact ? '.' : ' (an o200k estimate).');
  }
  var group = document.getElementById('count-on');
  if (group && costs) {
    group.addEventListener('change', function (e) { if (e.target && e.target.name === 'count-on') countOn(Number(e.target.value)); });
    // a browser that restores the form's state may check another model than the one the page was written for
    var checked = group.querySelector('input:checked');
    if (checked && checked.value !== table.getAttribute('data-count-on')) countOn(Number(checked.value));
  }

  table.tHead.addEventListener('click', function (e) {
    var button = e.target.closest ? e.target.closest('th[data-key] button') : null;
    if (!button) return;
    var key = button.parentNode.getAttribute('data-key');
    var dir = key === current.key ? (current.dir === 'ascending' ? 'descending' : 'ascending') : firstDirection[key];
    sortBy(key, dir);
  });

  // a panel kept as text (large reports) is put in the page when it is first opened
  document.addEventListener('toggle', function (e) {
    var d = e.target;
    if (!d || d.tagName !== 'DETAILS' || !d.open) return;
    var panel = d.querySelector('.panel[data-fill]');
    if (!panel) return;
    var source = document.getElementById(panel.getAttribute('data-fill'));
    panel.removeAttribute('data-fill');
    if (source) panel.innerHTML = source.textContent;
  }, true);
  // a panel open from the start (the only tool of a page) is filled now
  var openAtStart = document.querySelectorAll('details.tool[open] .panel[data-fill]');
  for (var o = 0; o < openAtStart.length; o++) {
    var fillFrom = document.getElementById(openAtStart[o].getAttribute('data-fill'));
    openAtStart[o].removeAttribute('data-fill');
    if (fillFrom) openAtStart[o].innerHTML = fillFrom.textContent;
  }

  function openFromHash() {
    var id = decodeURIComponent(location.hash.slice(1));
    var d = id ? document.getElementById(id) : null;
    if (d && d.tagName === 'DETAILS') {
      d.open = true;
      var s = d.querySelector('summary');
      if (s) s.focus({ preventScroll: true });
    }
  }
  window.addEventListener('hashchange', openFromHash);
  openFromHash();

  var panels = function () { return document.querySelectorAll('details.tool'); };
  var setAll = function (open) { var p = panels(); for (var i = 0; i < p.length; i++) p[i].open = open; };
  var ex = document.getElementById('expand-all'), co = document.getElementById('collapse-all');
  if (ex) ex.addEventListener('click', function () { setAll(true); });
  if (co) co.addEventListener('click', function () { setAll(false); });

  var opened = [];
  window.addEventListener('beforeprint', function () {
    var p = panels();
    if (p.length > 200) return;
    opened = [];
    for (var i = 0; i < p.length; i++) if (!p[i].open) { p[i].open = true; opened.push(p[i]); }
  });
  window.addEventListener('afterprint', function () { for (var i = 0; i < opened.length; i++) opened[i].open = false; opened = []; });
  document.documentElement.setAttribute('data-ready', 'true');
})();`;

/** The Content-Security-Policy of the page: nothing from the network; only the page's own script runs (by its hash). */
export const REPORT_CSP = `default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'sha256-${createHash('sha256').update(REPORT_SCRIPT, 'utf8').digest('base64')}'; base-uri 'none'; form-action 'none'`;
