/**
 * Messages nested thousands of levels deep (issue 22, item 9): in a content part, in the content,
 * in a tool call's arguments (an object, or JSON text a server parses), in a key no server reads.
 * Every server and family refuses them with a CompileError `conversation/too-deep` at the
 * message's pointer (before: `RangeError: Maximum call stack size exceeded`), through
 * renderPrompt, renderRequest (a JS body or JSON text) and the CLI; a message 50 levels deep, or
 * just under the limit, still renders wherever the server takes its shape.
 */
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderPrompt, renderRequest } from '../../src/api/render.js';
import { CompileError } from '../../src/diagnostics.js';
import { deepPath, MAX_MESSAGE_DEPTH, textNesting } from '../../src/conversation/depth.js';
import { fromJs, parseJson } from '../../src/ir/json.js';
import { runCli } from '../support/cli.js';

/** `n` arrays (or objects `{"a": …}`) around "x". */
function deep(kind: 'array' | 'object', n: number): unknown {
  let v: unknown = 'x';
  for (let i = 0; i < n; i++) v = kind === 'array' ? [v] : { a: v };
  return v;
}

/** JSON text of a value without recursion (JSON.stringify overflows on these values). */
function text(root: unknown): string {
  const parts: string[] = [];
  const stack: unknown[] = [root];
  const RAW = Symbol('raw');
  type Raw = { [RAW]: string };
  const raw = (s: string): Raw => ({ [RAW]: s });
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'object' && v !== null && RAW in v) parts.push((v as Raw)[RAW]);
    else if (Array.isArray(v)) {
      parts.push('[');
      stack.push(raw(']'));
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i], ...(i > 0 ? [raw(',')] : []));
    } else if (typeof v === 'object' && v !== null) {
      parts.push('{');
      stack.push(raw('}'));
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) stack.push(entries[i][1], raw(`${JSON.stringify(entries[i][0])}:`), ...(i > 0 ? [raw(',')] : []));
    } else parts.push(JSON.stringify(v));
  }
  return parts.join('');
}

const TOOLS = [{ type: 'function', function: { name: 'f', description: 'F', parameters: { type: 'object', properties: { a: {} } } } }];
const call = (args: unknown) => [{ role: 'user', content: 'hi' }, { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: args } }] }];
const ARGS = '/messages/1/tool_calls/0/function/arguments';

/** Where the value `d` goes, the pointer the diagnostic names (a prefix of it for structured values), and the containers above `d`. */
const SHAPES = {
  part: { messages: (d: unknown) => [{ role: 'user', content: [{ type: 'text', text: 'hi', extra: d }] }], pointer: '/messages/0/content/0/extra', above: 3 },
  content: { messages: (d: unknown) => [{ role: 'user', content: [d] }], pointer: '/messages/0/content/0', above: 2 },
  argsObject: { messages: (d: unknown) => call(d), pointer: ARGS, above: 4 },
  argsString: { messages: (d: unknown) => call(text(d)), pointer: ARGS, above: 4 },
  extraKey: { messages: (d: unknown) => [{ role: 'user', content: 'hi', metadata: d }], pointer: '/messages/0/metadata', above: 1 },
} as const;
type Shape = keyof typeof SHAPES;

/** Each server and family, and the shapes it renders (the others it refuses for what they are, at any depth). */
const TARGETS: Record<string, { options: object; renders: Record<'array' | 'object', readonly Shape[]> }> = {
  vllm: { options: { server: 'vllm' }, renders: { array: ['part', 'argsString', 'extraKey'], object: ['part', 'argsString', 'extraKey'] } },
  transformers: { options: { server: 'transformers' }, renders: { array: ['argsObject', 'argsString', 'extraKey'], object: ['argsObject', 'argsString', 'extraKey'] } },
  'llama.cpp': { options: { server: 'llama.cpp' }, renders: { array: ['part', 'argsObject', 'argsString', 'extraKey'], object: ['part', 'argsObject', 'argsString', 'extraKey'] } },
  'mlx-lm': { options: { server: 'mlx-lm' }, renders: { array: ['part', 'argsString', 'extraKey'], object: ['part', 'argsString', 'extraKey'] } },
  ollama: { options: { server: 'ollama' }, renders: { array: ['part', 'extraKey'], object: ['part', 'argsString', 'extraKey'] } },
  qwen3: { options: { model: 'qwen3' }, renders: { array: ['argsObject', 'argsString', 'extraKey'], object: ['argsObject', 'argsString', 'extraKey'] } },
  hermes: { options: { model: 'hermes' }, renders: { array: ['argsObject', 'argsString', 'extraKey'], object: ['argsObject', 'argsString', 'extraKey'] } },
  'qwen3-coder': { options: { model: 'qwen3-coder' }, renders: { array: ['extraKey'], object: ['argsObject', 'extraKey'] } },
};

/** The three ways in: renderPrompt with JS messages, renderRequest with a JS body and with its JSON text. */
function routes(messages: unknown[], options: object): [string, () => unknown][] {
  return [
    ['renderPrompt', () => renderPrompt({ tools: TOOLS, messages: messages as never, date: '2025-08-05', ...options })],
    ['renderRequest (object)', () => renderRequest({ tools: TOOLS, messages }, { date: '2025-08-05', ...options })],
    ['renderRequest (text)', () => renderRequest(text({ tools: TOOLS, messages }), { date: '2025-08-05', ...options })],
  ];
}

function failure(f: () => unknown): CompileError {
  try {
    f();
  } catch (e) {
    if (e instanceof CompileError) return e;
    throw e;
  }
  throw new Error('expected a CompileError');
}

describe('messages 5,000 levels deep: a CompileError at the message, on every server and family', () => {
  for (const [target, { options }] of Object.entries(TARGETS)) {
    it(target, () => {
      for (const kind of ['array', 'object'] as const) {
        for (const [shape, s] of Object.entries(SHAPES)) {
          for (const [route, f] of routes(s.messages(deep(kind, 5000)), options)) {
            const e = failure(f);
            const where = `${target} ${kind} ${shape} ${route}`;
            expect(e.diagnostics.map((d) => d.code), where).toEqual(['conversation/too-deep']);
            const d = e.diagnostics[0];
            expect(d.severity).toBe('error');
            // the field's pointer, then a few tokens of the deep value (never 5,000 of them)
            if (shape === 'argsString') expect(d.path, where).toBe(ARGS);
            else expect(d.path.startsWith(s.pointer), `${where}: ${d.path}`).toBe(true);
            expect(d.path.length, where).toBeLessThan(60);
            expect(d.message).toMatch(/nests deeper than 1000 levels/);
          }
        }
      }
    });
  }
});

describe('messages 50 levels deep, and just within the limit, still render', () => {
  for (const [target, { options, renders }] of Object.entries(TARGETS)) {
    it(target, () => {
      for (const kind of ['array', 'object'] as const) {
        for (const shape of renders[kind]) {
          const s = SHAPES[shape];
          for (const n of [50, MAX_MESSAGE_DEPTH - s.above]) {
            for (const [route, f] of routes(s.messages(deep(kind, n)), options)) {
              const where = `${target} ${kind} ${shape} ${n} ${route}`;
              let r: { text: string };
              try {
                r = f() as { text: string };
              } catch (e) {
                // at the limit, mlx-lm's json.loads of string arguments runs out of Python's recursion limit: its own refusal
                if (n > 50 && e instanceof CompileError && e.diagnostics.every((d) => d.code === 'conversation/refused' && /RecursionError/.test(d.message))) continue;
                throw new Error(`${where}: ${(e as Error).message}`);
              }
              expect(r.text.length, where).toBeGreaterThan(0);
            }
            // one level more: refused
            expect(failure(routes(s.messages(deep(kind, n + (n === 50 ? 1000 : 1))), options)[0][1]).diagnostics[0].code, `${target} ${kind} ${shape} ${n + 1}`).toBe('conversation/too-deep');
          }
        }
      }
    });
  }
});

describe('the other ways in', () => {
  it('Anthropic system blocks and Responses items nested too deep', () => {
    const anthropic = failure(() => renderRequest({ max_tokens: 10, system: [{ type: 'text', text: 'sys', x: deep('object', 5000) }], messages: [{ role: 'user', content: 'hi' }] }, { date: '2025-08-05' }));
    expect(anthropic.diagnostics.map((d) => [d.code, d.path.slice(0, 14)])).toEqual([['conversation/too-deep', '/system/0/x/a/']]);
    const responses = failure(() => renderRequest({ input: [{ type: 'function_call', call_id: 'c', name: 'f', arguments: text(deep('array', 5000)) }] }, { date: '2025-08-05' }));
    expect(responses.diagnostics.map((d) => [d.code, d.path])).toEqual([['conversation/too-deep', '/input/0/arguments']]);
  });

  it('the CLI: one error naming the message, exit 1 (no internal error)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hc-deep-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'request.json');
    writeFileSync(file, text({ tools: TOOLS, messages: SHAPES.argsObject.messages(deep('array', 5000)) }));
    for (const server of ['vllm', 'transformers', 'ollama']) {
      const r = await runCli(['render', file, '--server', server, '--date', '2025-08-05']);
      expect(r.code, r.err).toBe(1);
      expect(r.err).toContain('conversation/too-deep');
      expect(r.err).toContain('/messages/1/tool_calls/0/function/arguments/0');
      expect(r.err).not.toMatch(/internal error|call stack/i);
    }
  });

  it('fromJs converts a value of any depth without recursion, and still finds cycles', () => {
    const v = deep('array', 100_000);
    const j = fromJs(v);
    let d = 0;
    for (let x: unknown = j; Array.isArray(x); x = x[0]) d++;
    expect(d).toBe(100_000);
    const cyclic: unknown[] = [1];
    cyclic.push([[cyclic]]);
    expect(() => fromJs(cyclic)).toThrow(/cycle/);
    // toJSON, holes, undefined, Map entries: converted as before
    // eslint-disable-next-line no-sparse-arrays
    const holes = fromJs([1, , undefined, { toJSON: () => ({ b: new Map([['c', [2n]]]) }) }]) as unknown[];
    expect(holes.length).toBe(4);
    expect(1 in holes).toBe(false);
    expect(holes[2]).toBe(null);
    expect(text(JSON.parse(JSON.stringify(holes, (_, x) => (x instanceof Map ? Object.fromEntries(x) : typeof x === 'object' && x !== null && 'text' in x ? Number((x as { text: string }).text) : x))))).toBe('[1,null,null,{"b":{"c":[2]}}]');
  });

  it('deepPath and textNesting: the levels counted', () => {
    expect(textNesting('{"a": "[[[", "b": [[1]]}')).toBe(3);
    expect(textNesting('"\\"[" [')).toBe(1);
    expect(deepPath(parseJson('[[["x"]]]'), 3)).toBeUndefined();
    expect(deepPath(parseJson('[[[["x"]]]]'), 3)).toEqual(['0', '0', '0']);
    expect(deepPath(parseJson('{"arguments": "[[1]]"}'), 3)).toBeUndefined();
    expect(deepPath(parseJson('{"arguments": "[[[1]]]"}'), 3)).toEqual(['arguments']);
    expect(deepPath(parseJson('{"content": "[[[1]]]"}'), 3)).toBeUndefined();
  });
});
