/**
 * Python's `json.dumps` on the values `json.loads` made (what transformers' `|tojson` filter
 * calls): key order kept, Python's separators, `ensure_ascii`, `sort_keys`, `indent` and
 * `separators` as Python reads them.
 */
import { formatNumberPython, JsonNumber, quoteJsonString, quoteJsonStringAscii, type JsonObject, type JsonValue } from '../../ir/json.js';
import { compareCodePoints } from './strings.js';

/** Options for {@link pyJsonDumps}, named after `json.dumps`'s. */
export interface PyJsonDumpsOptions {
  /** `ensure_ascii=True`: every non-ASCII character (and DEL) as `\uXXXX`. */
  readonly ensureAscii?: boolean;
  /** `sort_keys=True`: keys in code point order, at every level. */
  readonly sortKeys?: boolean;
  /** `indent=N`: one member a line, N spaces a level (separators then default to `,` and `: `). */
  readonly indent?: number;
  /** `separators=(item, key)`; default `(', ', ': ')`, or `(',', ': ')` with an indent. */
  readonly separators?: readonly [string, string];
}

/** `json.dumps(v, …)` as Python writes it (ensure_ascii off unless asked, as transformers' `tojson` calls it). */
export function pyJsonDumps(v: JsonValue, options: PyJsonDumpsOptions = {}): string {
  const quote = options.ensureAscii ? quoteJsonStringAscii : quoteJsonString;
  const indent = options.indent;
  const [item, key] = options.separators ?? (indent !== undefined ? [',', ': '] : [', ', ': ']);
  const go = (x: JsonValue, level: number): string => {
    if (x === null) return 'null';
    if (typeof x === 'boolean') return x ? 'true' : 'false';
    if (typeof x === 'string') return quote(x);
    if (x instanceof JsonNumber) return formatNumberPython(x);
    const parts: string[] = [];
    let open = '[';
    let close = ']';
    if (Array.isArray(x)) for (const y of x) parts.push(go(y, level + 1));
    else {
      open = '{';
      close = '}';
      let entries = [...(x as JsonObject)];
      if (options.sortKeys) entries = entries.sort(([a], [b]) => compareCodePoints(a, b));
      for (const [k, y] of entries) parts.push(`${quote(k)}${key}${go(y, level + 1)}`);
    }
    // an empty container is `[]` / `{}` whatever the indent, as Python writes it
    if (parts.length === 0) return open + close;
    if (indent === undefined) return open + parts.join(item) + close;
    const inner = `\n${' '.repeat(indent * (level + 1))}`;
    return `${open}${inner}${parts.join(item + inner)}\n${' '.repeat(indent * level)}${close}`;
  };
  return go(v, 0);
}
