/**
 * Go's `encoding/json` as Ollama uses it: strings as a Go server holds them (UTF-8, so a lone
 * surrogate is U+FFFD), `json.Marshal` of a decoded value (maps with sorted keys, float64
 * numbers, HTML-safe escapes), and Go's case-insensitive matching of JSON keys to struct fields.
 */
import { isJsonArray, isJsonNumber, isJsonObject, type JsonValue } from '../../ir/json.js';

/** A string as a Go server holds it: lone surrogates (which UTF-8 cannot carry; Go decodes a lone `\ud800` escape as U+FFFD) become U+FFFD. */
export function goString(s: string): string {
  // fast path: no surrogate at all
  if (!/[\ud800-\udfff]/.test(s)) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out += s[i] + s[i + 1];
        i++;
        continue;
      }
    }
    out += c >= 0xd800 && c <= 0xdfff ? '\ufffd' : s[i];
  }
  return out;
}

/**
 * JSON text as Go's decoder reads it where a strict parser refuses: an escaped lone surrogate
 * (`"\ud800"`) is U+FFFD in Go (encoding/json `unquote`), so it is rewritten to `\ufffd` first.
 */
export function goLenientJsonText(text: string): string {
  return text.replace(/\\(?:u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|u[dD][89a-fA-F][0-9a-fA-F]{2}|[\s\S])/g, (m) =>
    m.length === 6 && /^\\u[dD][89a-fA-F]/.test(m) ? '\\ufffd' : m,
  );
}

/** Compare two strings by their UTF-8 bytes (Go's string order), not by UTF-16 code units. */
export function compareGoStrings(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.codePointAt(i) as number;
    const cb = b.codePointAt(j) as number;
    if (ca !== cb) return ca < cb ? -1 : 1;
    i += ca > 0xffff ? 2 : 1;
    j += cb > 0xffff ? 2 : 1;
  }
  const ra = a.length - i;
  const rb = b.length - j;
  return ra === rb ? 0 : ra < rb ? -1 : 1;
}

/** A float64 as Go's json.Marshal writes it: JavaScript's shortest form (same digits, same 1e21 / 1e-6 switch to exponents), except that Go keeps `-0`. */
export function goFloat(n: number): string {
  return Object.is(n, -0) ? '-0' : String(n);
}

/** A JSON string as Go's json.Marshal writes it (HTML escaping on: `<>&` as `\u003c`…, U+2028/U+2029 escaped, `\b \f \n \r \t` short, other controls `\u00xx`). */
export function goQuote(s: string): string {
  let out = '"';
  const t = goString(s);
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    switch (c) {
      case 0x22: out += '\\"'; break;
      case 0x5c: out += '\\\\'; break;
      case 0x08: out += '\\b'; break;
      case 0x0c: out += '\\f'; break;
      case 0x0a: out += '\\n'; break;
      case 0x0d: out += '\\r'; break;
      case 0x09: out += '\\t'; break;
      case 0x3c: out += '\\u003c'; break;
      case 0x3e: out += '\\u003e'; break;
      case 0x26: out += '\\u0026'; break;
      case 0x2028: out += '\\u2028'; break;
      case 0x2029: out += '\\u2029'; break;
      default:
        out += c < 0x20 ? `\\u00${c.toString(16).padStart(2, '0')}` : t[i];
    }
  }
  return `${out}"`;
}

/**
 * `json.Marshal` of what `json.Unmarshal` into `any` made of a value: numbers are float64,
 * objects are Go maps (written with keys in sorted byte order), compact, HTML-escaped.
 */
export function goMarshal(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return goQuote(v);
  if (isJsonNumber(v)) return goFloat(v.value);
  if (isJsonArray(v)) return `[${v.map(goMarshal).join(',')}]`;
  // a Go map: keys (as Go holds them) in byte order; a key that only a lone surrogate told apart collapses, the later value winning
  const entries = new Map<string, JsonValue>();
  for (const [k, x] of v) entries.set(goString(k), x);
  const keys = [...entries.keys()].sort(compareGoStrings);
  return `{${keys.map((k) => `${goQuote(k)}:${goMarshal(entries.get(k) as JsonValue)}`).join(',')}}`;
}

/** Go's folded form of a JSON key (encoding/json `foldName`): ASCII upper-cased; the Kelvin sign and the long s fold to K and S. */
function foldKey(key: string): string {
  return key.replace(/[a-z\u212a\u017f]/g, (c) => (c === '\u212a' ? 'K' : c === '\u017f' ? 'S' : c.toUpperCase()));
}

/** One JSON key matched to a Go struct field: the field, and whether only the case-insensitive match found it. */
export interface GoFieldMatch {
  readonly field: string;
  readonly folded: boolean;
}

/**
 * The struct field a JSON key decodes into, as encoding/json picks it: an exact name first, else
 * a case-insensitive match (`Type` fills `type`); undefined when no field takes the key (Go drops it).
 */
export function goField(key: string, fields: readonly string[]): GoFieldMatch | undefined {
  if (fields.includes(key)) return { field: key, folded: false };
  const f = foldKey(key);
  for (const field of fields) if (foldKey(field) === f) return { field, folded: true };
  return undefined;
}

/** The JSON kind Go names in its decode errors (`string`, `number`, `object`, `array`, `bool`). */
export function goKind(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (isJsonNumber(v)) return 'number';
  if (isJsonArray(v)) return 'array';
  return isJsonObject(v) ? 'object' : 'value';
}
