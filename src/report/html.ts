/** HTML text of the report: escaping, control-token spellings and invisible characters marked, changed lines marked, JSON fragments. */
import { isJsonArray, isJsonNumber, isJsonObject, quoteJsonString, type JsonValue } from '../ir/json.js';
import { findInvisibleCharacters } from '../lint/invisible.js';

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

// C0 controls (but tab and line breaks) and DEL: shown as their Unicode control pictures (U+2400…), never raw
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Text as HTML text or attribute value: `& < > " '` escaped, control characters shown as control pictures. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]).replace(CONTROLS, (c) => (c === '\u007f' ? '\u2421' : String.fromCharCode(0x2400 + c.charCodeAt(0))));
}

/**
 * Text from the tools as HTML text: escaped (as `escapeHtml`), and each invisible character (a
 * bidi control such as U+202E, a zero-width space, tag characters: `findInvisibleCharacters`) in a
 * `<span class="inv">` of its own. The span isolates it (`unicode-bidi: isolate`), so a
 * right-to-left override cannot reorder anything after it, and the page shows it as a mark
 * (`<U+202E>`, from its `data-cp`); the character itself stays in the text, so copying gives the
 * text as written.
 */
export function visibleText(text: string): string {
  const found = findInvisibleCharacters(text);
  if (found.length === 0) return escapeHtml(text);
  let out = '';
  let at = 0;
  for (const c of found) {
    out += escapeHtml(text.slice(at, c.index));
    const label = c.name.length > 60 ? `${c.name.slice(0, 59)}\u2026` : c.name;
    const mark = c.codePoint.includes('\u2026') ? label : c.codePoint;
    out += `<span class="inv" data-cp="${escapeHtml(mark)}" title="${escapeHtml(`${c.codePoint} ${c.name}: an invisible character (the model reads it)`)}">${escapeHtml(text.slice(c.index, c.index + c.length))}</span>`;
    at = c.index + c.length;
  }
  return out + escapeHtml(text.slice(at));
}

/** A number with thousands separators (`276,479`). */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** `1 tool`, `2 tools`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

function regexQuote(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Text from the tools as HTML (`visibleText`) with each control-token spelling (of `spellings`) in a
 * `<mark class="ctl">`: the page shows it with a visible marker and an outline (not colour alone),
 * its title says what it is.
 */
export function markedText(text: string, spellings: readonly string[]): string {
  if (spellings.length === 0) return visibleText(text);
  const re = new RegExp([...spellings].sort((a, b) => b.length - a.length).map(regexQuote).join('|'), 'g');
  let out = '';
  let at = 0;
  for (const m of text.matchAll(re)) {
    out += visibleText(text.slice(at, m.index));
    out += `<mark class="ctl" title="control-token spelling: a server that tokenizes special tokens in text reads a real token here">${visibleText(m[0])}</mark>`;
    at = m.index + m[0].length;
  }
  return out + visibleText(text.slice(at));
}

/**
 * A rendering as the HTML inside its `<pre>`: one block per line (so a line too long for its column
 * wraps with a hanging indent, and a wrap never reads as a line break), control tokens marked, and
 * the lines of `changed` (0-based) with class `chg`. The text content is the rendering, byte for byte.
 */
export function renderingHtml(text: string, spellings: readonly string[], changed: ReadonlySet<number> = new Set()): string {
  const lines = text.split('\n');
  return lines.map((line, i) => `<span class="${changed.has(i) ? 'l chg' : 'l'}">${markedText(line, spellings)}${i < lines.length - 1 ? '\n' : ''}</span>`).join('');
}

/** JSON with two-space indentation, numbers as written, key order kept. */
export function prettyJson(v: JsonValue, indent = ''): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return quoteJsonString(v);
  if (isJsonNumber(v)) return v.text;
  const inner = `${indent}  `;
  if (isJsonArray(v)) return v.length === 0 ? '[]' : `[\n${v.map((x) => inner + prettyJson(x, inner)).join(',\n')}\n${indent}]`;
  if (isJsonObject(v)) {
    if (v.size === 0) return '{}';
    return `{\n${[...v].map(([k, x]) => `${inner}${quoteJsonString(k)}: ${prettyJson(x, inner)}`).join(',\n')}\n${indent}}`;
  }
  return String(v);
}

/** JSON on one line, `{"a": 1, "b": [2]}`, numbers as written, key order kept. */
export function compactJson(v: JsonValue): string {
  if (isJsonArray(v)) return `[${v.map(compactJson).join(', ')}]`;
  if (isJsonObject(v)) return `{${[...v].map(([k, x]) => `${quoteJsonString(k)}: ${compactJson(x)}`).join(', ')}}`;
  return prettyJson(v);
}

/** A schema fragment as shown: on one line when it fits in `width` characters, else indented. */
export function fragmentText(v: JsonValue, width = 100): string {
  const one = compactJson(v);
  return one.length <= width ? one : prettyJson(v);
}

/** At most `lines` lines and `chars` characters of a text, and how much was left out. */
export function clip(text: string, lines = 40, chars = 3000): { readonly text: string; readonly omitted: number } {
  let end = Math.min(text.length, chars);
  let at = -1;
  for (let n = 0; n < lines; n++) {
    at = text.indexOf('\n', at + 1);
    if (at < 0) break;
  }
  if (at >= 0) end = Math.min(end, at);
  return end >= text.length ? { text, omitted: 0 } : { text: text.slice(0, end), omitted: text.length - end };
}
