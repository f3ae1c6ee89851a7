/**
 * The lossless JSON parser as it was before issue 12 (src/ir/json.ts at a83a464, verbatim): the
 * reference the faster parser is checked against (test/speed/json-parse.test.ts).
 */
import { JsonNumber, JsonSyntaxError, type JsonValue } from '../../src/ir/json.js';

const MAX_PARSE_DEPTH = 100_000;

/** The pre-issue-12 parseJson. */
export function referenceParseJson(text: string): JsonValue {
  let i = 0;
  const n = text.length;
  const fail = (msg: string, at = i): never => {
    let line = 1;
    let col = 1;
    for (let k = 0; k < at && k < n; k++) {
      if (text.charCodeAt(k) === 10) {
        line++;
        col = 1;
      } else col++;
    }
    throw new JsonSyntaxError(msg, at, line, col);
  };
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else break;
    }
  };
  const parseString = (): string => {
    // text[i] === '"'
    i++;
    let out = '';
    let start = i;
    for (;;) {
      if (i >= n) fail('EOF while parsing a string');
      const c = text.charCodeAt(i);
      if (c === 34) {
        out += text.slice(start, i);
        i++;
        return out;
      }
      if (c === 92) {
        out += text.slice(start, i);
        i++;
        if (i >= n) fail('EOF while parsing a string');
        const e = text[i];
        i++;
        switch (e) {
          case '"': out += '"'; break;
          case '\\': out += '\\'; break;
          case '/': out += '/'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'n': out += '\n'; break;
          case 'r': out += '\r'; break;
          case 't': out += '\t'; break;
          case 'u': {
            const cu = hex4();
            if (cu >= 0xd800 && cu <= 0xdbff) {
              if (text[i] !== '\\' || text[i + 1] !== 'u') fail('lone leading surrogate in hex escape');
              i += 2;
              const lo = hex4();
              if (lo < 0xdc00 || lo > 0xdfff) fail('lone leading surrogate in hex escape');
              out += String.fromCharCode(cu, lo);
            } else if (cu >= 0xdc00 && cu <= 0xdfff) {
              fail('lone trailing surrogate in hex escape');
            } else out += String.fromCharCode(cu);
            break;
          }
          default:
            fail('invalid escape', i - 1);
        }
        start = i;
        continue;
      }
      if (c < 0x20) fail('control character (\\u0000-\\u001F) found while parsing a string');
      if (c >= 0xd800 && c <= 0xdfff) {
        // a raw lone surrogate in the JS string (not from valid UTF-8 text)
        const next = text.charCodeAt(i + 1);
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          i += 2;
          continue;
        }
        fail('invalid Unicode (lone surrogate) in a string');
      }
      i++;
    }
  };
  const hex4 = (): number => {
    if (i + 4 > n) fail('unexpected end of hex escape');
    let v = 0;
    for (let k = 0; k < 4; k++) {
      const h = text.charCodeAt(i + k);
      let d: number;
      if (h >= 48 && h <= 57) d = h - 48;
      else if (h >= 65 && h <= 70) d = h - 55;
      else if (h >= 97 && h <= 102) d = h - 87;
      else return fail('invalid hex escape', i + k);
      v = v * 16 + d;
    }
    i += 4;
    return v;
  };
  const parseNumber = (): JsonNumber => {
    const start = i;
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else if (text[i] >= '1' && text[i] <= '9') while (text[i] >= '0' && text[i] <= '9') i++;
    else fail('invalid number');
    if (text[i] === '.') {
      i++;
      if (!(text[i] >= '0' && text[i] <= '9')) fail('invalid number');
      while (text[i] >= '0' && text[i] <= '9') i++;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!(text[i] >= '0' && text[i] <= '9')) fail('invalid number');
      while (text[i] >= '0' && text[i] <= '9') i++;
    }
    const t = text.slice(start, i);
    const v = Number(t);
    if (!Number.isFinite(v)) fail('number out of range', start);
    return new JsonNumber(t, v);
  };
  const literal = (word: string, value: JsonValue): JsonValue => {
    if (text.startsWith(word, i)) {
      i += word.length;
      return value;
    }
    return fail('expected value');
  };

  // Explicit stack of open containers.
  type Frame = { arr: JsonValue[] } | { obj: Map<string, JsonValue>; key: string };
  const stack: Frame[] = [];
  let result: JsonValue | undefined;

  const parseScalarOrOpen = (): JsonValue | Frame => {
    ws();
    if (i >= n) fail('EOF while parsing a value');
    const c = text[i];
    if (c === '{') {
      i++;
      return { obj: new Map<string, JsonValue>(), key: '' };
    }
    if (c === '[') {
      i++;
      return { arr: [] };
    }
    if (c === '"') return parseString();
    if (c === '-' || (c >= '0' && c <= '9')) return parseNumber();
    if (c === 't') return literal('true', true);
    if (c === 'f') return literal('false', false);
    if (c === 'n') return literal('null', null);
    return fail('expected value');
  };
  const isFrame = (v: JsonValue | Frame): v is Frame =>
    v !== null && typeof v === 'object' && !(v instanceof JsonNumber) && !Array.isArray(v) && !(v instanceof Map);

  // Returns true when a new value is expected after this step.
  let value = parseScalarOrOpen();
  for (;;) {
    if (isFrame(value)) {
      if (stack.length >= MAX_PARSE_DEPTH) fail('recursion limit exceeded');
      stack.push(value);
      ws();
      if ('arr' in value) {
        if (text[i] === ']') {
          i++;
          stack.pop();
          value = value.arr;
        } else {
          value = parseScalarOrOpen();
          continue;
        }
      } else {
        if (text[i] === '}') {
          i++;
          stack.pop();
          value = value.obj;
        } else {
          if (text[i] !== '"') fail('key must be a string');
          value.key = parseString();
          ws();
          if (text[i] !== ':') fail('expected `:`');
          i++;
          value = parseScalarOrOpen();
          continue;
        }
      }
    }
    // `value` is complete: attach it to the parent, or finish.
    for (;;) {
      const top = stack[stack.length - 1];
      if (!top) {
        result = value as JsonValue;
        break;
      }
      if ('arr' in top) top.arr.push(value as JsonValue);
      else top.obj.set(top.key, value as JsonValue);
      ws();
      if ('arr' in top) {
        if (text[i] === ',') {
          i++;
          value = parseScalarOrOpen();
          break;
        }
        if (text[i] === ']') {
          i++;
          stack.pop();
          value = top.arr;
          continue;
        }
        fail('expected `,` or `]`');
      } else {
        if (text[i] === ',') {
          i++;
          ws();
          if (text[i] !== '"') fail('key must be a string');
          top.key = parseString();
          ws();
          if (text[i] !== ':') fail('expected `:`');
          i++;
          value = parseScalarOrOpen();
          break;
        }
        if (text[i] === '}') {
          i++;
          stack.pop();
          value = top.obj;
          continue;
        }
        fail('expected `,` or `}`');
      }
    }
    if (result !== undefined) break;
  }
  ws();
  if (i < n) fail('trailing characters');
  return result;
}
