/**
 * The faster lossless parser (src/ir/json.ts) against the parser it replaced
 * (reference-json.ts): the same value (number text, key order, duplicate keys) or the same error
 * (message, offset, line, column), on the corpus, on generated JSON, and on generated near-JSON.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonNumber, JsonSyntaxError, parseJson, type JsonValue } from '../../src/ir/json.js';
import { HAVE_SHARED, sharedPath } from '../support/shared.js';
import { referenceParseJson } from './reference-json.js';

/** A value as text that tells every difference the parser can make: kinds, number text, key order. */
function canon(root: JsonValue): string {
  // iterative: the values nest 100,000 deep
  const out: string[] = [];
  const todo: (JsonValue | { text: string })[] = [root];
  while (todo.length) {
    const v = todo.pop() as JsonValue | { text: string };
    if (v instanceof JsonNumber) out.push(`n(${v.text}|${v.value})`);
    else if (Array.isArray(v)) {
      todo.push({ text: ']' });
      for (let k = v.length - 1; k >= 0; k--) todo.push(v[k], { text: ',' });
      out.push('[');
    } else if (v instanceof Map) {
      todo.push({ text: '}' });
      for (const [k, x] of [...v].reverse()) todo.push(x, { text: `,${JSON.stringify(k)}:` });
      out.push('{');
    } else if (v !== null && typeof v === 'object') out.push(v.text);
    else out.push(JSON.stringify(v));
  }
  return out.join('');
}

/** What a parser makes of a text: the canonical value, or the error's message and place. */
function outcome(parse: (text: string) => JsonValue, text: string): string {
  try {
    return `ok ${canon(parse(text))}`;
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    return `error ${e.message} @${e.offset} ${e.line}:${e.column}`;
  }
}

function same(text: string): void {
  expect(outcome(parseJson, text), JSON.stringify(text.slice(0, 200))).toBe(outcome(referenceParseJson, text));
}

/** Characters that matter to a JSON parser, and some that do not. */
const PIECES = ['"', '\\', '{', '}', '[', ']', ',', ':', '-', '+', '.', '0', '1', '9', 'e', 'E', ' ', '\n', '\t', '\r', 'true', 'false', 'null', 'tru', 'u', '\\u', '\\ud83d', '\\ude00', '\\u00e9', 'x', 'é', '\u0000', '\u001f', '\ud83d\ude00', '\ud800', '\udc00', '1e400', '"a"', '{"a":1}', '[1,2]'];

/** Valid JSON text, with whitespace and escapes of every kind. */
const jsonText = fc.jsonValue({ maxDepth: 4 }).chain((v) =>
  fc.constantFrom(0, 1, 2).map((indent) => JSON.stringify(v, null, indent === 0 ? undefined : indent === 1 ? 1 : '\t') ?? 'null'),
);

/** Valid JSON with a few pieces inserted, deleted or replaced: mostly invalid, in every way. */
const nearJson = fc.tuple(jsonText, fc.array(fc.tuple(fc.nat(), fc.nat(), fc.constantFrom(...PIECES), fc.constantFrom('insert', 'delete', 'replace')), { minLength: 1, maxLength: 3 })).map(([text, edits]) => {
  let t = text;
  for (const [at, len, piece, how] of edits) {
    const p = t.length ? at % (t.length + 1) : 0;
    if (how === 'insert') t = t.slice(0, p) + piece + t.slice(p);
    else if (how === 'delete') t = t.slice(0, p) + t.slice(p + 1 + (len % 3));
    else t = t.slice(0, p) + piece + t.slice(p + 1);
  }
  return t;
});

/** Strings made of the pieces alone. */
const pieceSoup = fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((xs) => xs.join(''));

describe('parseJson: the same values and errors as the parser it replaced', () => {
  it('on generated JSON text (numbers of every form, escapes, nesting)', () => {
    fc.assert(fc.property(jsonText, (t) => same(t)), { seed: 12, numRuns: 1500 });
    const numbers = fc.tuple(fc.constantFrom('', '-'), fc.constantFrom('0', '7', '10', '123456789012345678901234567890'), fc.constantFrom('', '.0', '.5', '.000001'), fc.constantFrom('', 'e1', 'E+2', 'e-300', 'e400', 'E-400')).map((p) => p.join(''));
    fc.assert(fc.property(numbers, (n) => same(`[${n}, {"k": ${n}}]`)), { seed: 13, numRuns: 300 });
  });

  it('on near-JSON: every error with its message, offset, line and column', () => {
    let errors = 0;
    fc.assert(
      fc.property(fc.oneof(nearJson, pieceSoup), (t) => {
        same(t);
        if (outcome(referenceParseJson, t).startsWith('error')) errors++;
      }),
      { seed: 14, numRuns: 4000 },
    );
    // the generator does reach the error paths
    expect(errors).toBeGreaterThan(1000);
  });

  it('on the strings read as constants (keywords, type names) and strings that only start like them', () => {
    const words = ['type', 'description', 'properties', 'required', 'string', 'object', 'null', 'enum', '$ref', 'input_schema'];
    const near = fc.tuple(fc.constantFrom(...words), fc.constantFrom('', 's', '\\u0065', '\\"', '\\n', ' ', 'é', '\ud83d\ude00', '"'), fc.constantFrom('', 't', '\\u0074', '$', '"')).map(([w, after, before]) => `${before}${w}${after}`);
    fc.assert(
      fc.property(fc.array(fc.tuple(near, near), { maxLength: 5 }), (pairs) => {
        same(`{${pairs.map(([k, v]) => `"${k}": "${v}"`).join(', ')}}`);
        same(`[${pairs.map(([k, v]) => `{"${k}": ["${v}"]}`).join(',')}]`);
      }),
      { seed: 15, numRuns: 1500 },
    );
    for (const t of ['{"type": "string"}', '{"typ": "strin"}', '{"types": "strings"}', '{"typ\u0065": "string"}', '{"type":"string","type":"object"}', '"null"', '"nul"', '{"": ""}']) same(t);
    // the constants are the strings the reference reads
    expect(canon(parseJson('{"type": "string", "enum": ["null", "object"]}'))).toBe('{,"type":"string","enum":[,"null","object"]}');
  });

  it('on the hand-picked cases: duplicate keys, __proto__, integer keys, surrogates, depth', () => {
    for (const t of [
      '{"a": 1, "b": 2, "a": 3}', '{"__proto__": {"x": 1}}', '{"b": 1, "10": 2, "2": 3}', '"\\ud83d\\ude00"', '"\\ud83d"', '"\\ude00"', '"\\ud83dx"', '"\\ud83d\\u0041"',
      '"\ud83d\ude00"', '"\ud800"', '"\udc00"', '"a\\qb"', '"\\u12"', '"\\u12g4"', '"abc', '"abc\\', '[', '{', '{"a"', '{"a":', '{"a" 1}', '[1,]', '{"a":1,}', '01', '-', '1.', '1e', '1e+',
      '\ufeff{}', '  \n\t\r[ ]  ', '', ' ', 'nul', 'truex', '[1 2]', '{"a":1 "b":2}', '\n\n  {"a": 1e999}',
      '['.repeat(100_001) + ']'.repeat(100_001), '['.repeat(100_000) + ']'.repeat(100_000),
    ]) same(t);
  });

  if (HAVE_SHARED) it('on every corpus tool and oracle input line', () => {
    let lines = 0;
    for (const file of ['corpus/tools.jsonl', 'corpus/edge-cases.jsonl', 'oracles/inputs/corpus-single.jsonl', 'oracles/inputs/corpus-groups.jsonl', 'oracles/synthetic/visible/inputs.jsonl']) {
      for (const line of readFileSync(sharedPath(file), 'utf8').split('\n')) {
        if (line === '') continue;
        same(line);
        lines++;
      }
    }
    expect(lines).toBeGreaterThan(4000);
  });
});
