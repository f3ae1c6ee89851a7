/** Python value semantics the templates print through; expected values are CPython 3.11's repr/strip/json.dumps outputs. */
import { describe, expect, it } from 'vitest';
import { JsonNumber, parseJson, type JsonValue } from '../../src/ir/json.js';
import { pyJsonDumps } from '../../src/emit/python/json.js';
import { compareCodePoints, pyStrip } from '../../src/emit/python/strings.js';
import { pyRepr, pyStr } from '../../src/emit/python/values.js';

const j = (text: string): JsonValue => parseJson(text);

describe('pyRepr', () => {
  const table: [string, JsonValue, string][] = [
    ['single quotes by default', 'abc', "'abc'"],
    ['double quotes when it holds only single quotes', "it's", `"it's"`],
    ['single quotes when it holds double quotes', 'say "hi"', `'say "hi"'`],
    ['both quotes: single, escaped', `both ' and "`, `'both \\' and "'`],
    ['backslash doubled', 'a\\b', "'a\\\\b'"],
    ['tab, newline, carriage return', 'tab\tnl\ncr\r', "'tab\\tnl\\ncr\\r'"],
    ['C0, DEL and C1 as \\x', '\u0000\u001f\u007f\u0080\u009f', "'\\x00\\x1f\\x7f\\x80\\x9f'"],
    ['non-printable BMP: Zs, Cf, Zl', '\u00a0\u00ad\u200b\u2028\u3000', "'\\xa0\\xad\\u200b\\u2028\\u3000'"],
    ['printable non-ASCII kept', 'é ü 名前 🌍', "'é ü 名前 🌍'"],
    ['private use escaped', '\ue000', "'\\ue000'"],
    ['astral format char as \\U', '\u{e0001}', "'\\U000e0001'"],
    ['astral private use as \\U', '\u{100000}', "'\\U00100000'"],
    ['list of mixed values', j('[1, 2.0, true, null, {"k": "v"}]'), "[1, 2.0, True, None, {'k': 'v'}]"],
    ['empty object', j('{}'), '{}'],
    ['float exponent', j('1e16'), '1e+16'],
    ['small float', j('0.00001'), '1e-05'],
    ['negative zero float', j('-0.0'), '-0.0'],
    ['negative zero int is 0', j('-0'), '0'],
    ['integer beyond u64 exact', j('18446744073709551616'), '18446744073709551616'],
    ['overflowed float literal is inf', new JsonNumber('1e400', Infinity), 'inf'],
  ];
  for (const [name, value, want] of table) it(name, () => expect(pyRepr(value)).toBe(want));
});

describe('pyStr', () => {
  it('prints a string as itself and anything else as its repr', () => {
    expect(pyStr("it's")).toBe("it's");
    expect(pyStr(false)).toBe('False');
    expect(pyStr(null)).toBe('None');
    expect(pyStr(j('["string", "null"]'))).toBe("['string', 'null']");
  });
});

describe('pyStrip', () => {
  it("strips what str.isspace() accepts (U+001C–U+001F, U+0085 too) and keeps U+FEFF, unlike String.prototype.trim", () => {
    const s = ' \u001c\u001d\u001e\u001f\u0085\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\t\n\u000b\u000c\r x \ufeff';
    expect(pyStrip(s)).toBe('x \ufeff');
    expect(pyStrip('   ')).toBe('');
  });
});

describe('pyJsonDumps', () => {
  it('uses Python separators, keeps key order and number text, writes non-ASCII raw', () => {
    expect(pyJsonDumps(j('{"b": [1.50, 5.0, -0, 1E2], "a": "ü\\u0001"}'))).toBe('{"b": [1.5, 5.0, 0, 100.0], "a": "ü\\u0001"}');
  });
  it('ensure_ascii escapes non-ASCII and DEL as lowercase \\uXXXX, astral as a surrogate pair', () => {
    expect(pyJsonDumps('ü\u007f🌍', { ensureAscii: true })).toBe('"\\u00fc\\u007f\\ud83c\\udf0d"');
    // printable ASCII is written as it is, but for the quote and the backslash (json.dumps('"\\', ensure_ascii=True))
    expect(pyJsonDumps('a"b\\c', { ensureAscii: true })).toBe('"a\\"b\\\\c"');
    expect(pyJsonDumps('a"b\\c')).toBe('"a\\"b\\\\c"');
  });
  it('sort_keys sorts by code point at every level', () => {
    // UTF-16 order would put the astral key (a surrogate pair) before U+FF5E
    const v = j('{"b": {"z": 1, "y": 2}, "\\uff5e": 0, "\\ud83c\\udf0d": 0, "a": 1}');
    expect(pyJsonDumps(v, { sortKeys: true })).toBe('{"a": 1, "b": {"y": 2, "z": 1}, "～": 0, "🌍": 0}');
    expect(compareCodePoints('\uff5e', '\u{1f30d}')).toBe(-1);
  });
});
