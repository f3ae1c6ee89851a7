/**
 * Faithful mode: each rewrite rule as a table row (schema → the tool's entry), the IR left
 * untouched, cycles that stop, and (with ../shared) every corpus tool and edge case parsed
 * by the TypeScript compiler's parser with its parameter names found as property keys.
 */
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { emitFaithfulTool, FAITHFUL_RULES } from '../../src/emit/harmony/faithful.js';
import { renderFaithfulCatalog } from '../../src/api/render.js';
import { harmonyType, REFERENCE_RULES } from '../../src/emit/harmony/types.js';
import { emitHarmonyTool } from '../../src/emit/harmony/catalog.js';
import { readTools } from '../../src/index.js';
import { getKey, isJsonObject, type JsonValue } from '../../src/ir/json.js';
import type { IrTool } from '../../src/ir/nodes.js';
import { faithfulLowerTool, faithfulTool } from '../../src/lower/faithful.js';
import { lowerTool } from '../../src/lower/index.js';
import { HAVE_SHARED, readJsonl, sharedPath } from '../support/shared.js';

function lowered(parameters: unknown, name = 'f'): IrTool {
  return lowerTool(readTools([{ name, description: 'd', parameters }]).tools[0]).tool;
}

/** The faithful entry of a tool with one property `p` (or with these parameters when `root`). */
function entry(schema: unknown, root = false): string {
  const params = root ? schema : { type: 'object', properties: { p: schema } };
  return emitFaithfulTool(lowered(params));
}

const wrap = (body: string) => `// d\ntype f = (_: {\n${body}}) => any;\n`;

/** [rule, schema of property p, the lines between `{` and `}`]. */
const RULES: [string, unknown, string][] = [
  ['anyOf with null → nullable', { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'A name.' }, '// A name.\np?: string | null,\n'],
  ['anyOf → oneOf', { anyOf: [{ type: 'string' }, { type: 'number', description: 'an id' }] }, 'p?:\n | string\n | number // an id\n,\n'],
  ['anyOf of two and null keeps null as a variant', { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] }, 'p?:\n | string\n | number\n | null\n,\n'],
  ['oneOf with null → nullable', { oneOf: [{ type: 'integer' }, { type: 'null' }] }, 'p?: number | null,\n'],
  ['type list with null → nullable, keeping the properties', { type: ['object', 'null'], properties: { a: { type: 'string' } } }, 'p?: {\n    a?: string,\n    } | null,\n'],
  ['type list of two → union of full types', { type: ['string', 'integer'], enum: ['a', 1] }, 'p?: "a" | 1,\n'],
  ['allOf of objects → one object', { allOf: [{ type: 'object', properties: { x: { type: 'string' } }, required: ['x'] }, { type: 'object', properties: { y: { type: 'number' } } }] }, 'p?: {\n    x: string,\n    y?: number,\n    },\n'],
  ['allOf of other schemas → intersection', { allOf: [{ type: 'string' }, { $ref: 'https://example.com/s.json' }] }, 'p?: string & any /* $ref: https://example.com/s.json (not resolved) */,\n'],
  ['const → a one-value enum', { const: 'v1' }, 'p?: "v1",\n'],
  ['type beside const → the literal', { type: 'string', const: 'v1' }, 'p?: "v1",\n'],
  ['number enum → union of literals', { type: 'integer', enum: [1, 2, 3] }, 'p?: 1 | 2 | 3,\n'],
  ['boolean enum → literal', { type: 'boolean', enum: [true] }, 'p?: true,\n'],
  ['enum strings escaped as JSON strings', { type: 'string', enum: ['say "hi"', 'a\nb'] }, 'p?: "say \\"hi\\"" | "a\\nb",\n'],
  ['enum without type', { enum: ['a', null, 2] }, 'p?: "a" | null | 2,\n'],
  ['empty enum admits nothing', { enum: [] }, 'p?: never,\n'],
  ['multi-line description → // lines', { type: 'string', description: 'Line one.\nLine two.\r\nLine three.' }, '// Line one.\n// Line two.\n// Line three.\np?: string,\n'],
  ['multi-line title → // lines', { type: 'string', title: 'T1\nT2' }, '// T1\n// T2\n//\np?: string,\n'],
  ['defaults as JSON', { type: 'string', enum: ['a\nb', 'c'], default: 'a\nb' }, 'p?: "a\\nb" | "c", // default: "a\\nb"\n'],
  ['examples as JSON, non-strings kept', { type: 'string', examples: ['x', 3, { k: true }] }, '// Examples:\n// - "x"\n// - 3\n// - {"k":true}\np?: string,\n'],
  ['constraints as one comment line', { type: 'string', format: 'email', maxLength: 100, deprecated: true }, '// format: email, maxLength: 100, deprecated\np?: string,\n'],
  ['a description of array items → an `// items:` line', { type: 'array', items: { type: 'string', description: 'A tag.' } }, '// items: A tag.\np?: string[],\n'],
  ['nullable array items', { type: 'array', items: { type: 'string', nullable: true } }, 'p?: (string | null)[],\n'],
  ['array of an enum grouped', { type: 'array', items: { type: 'string', enum: ['a', 'b'] } }, 'p?: ("a" | "b")[],\n'],
  ['tuple (prefixItems, no more items)', { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false }, 'p?: [string, number],\n'],
  ['tuple (draft-07, rest typed)', { type: 'array', items: [{ type: 'string' }], additionalItems: { type: 'boolean' } }, 'p?: [string, ...boolean[]],\n'],
  ['additionalProperties and patternProperties → index signatures', { type: 'object', properties: { a: { type: 'string' } }, patternProperties: { '^x-': { type: 'number' } }, additionalProperties: { type: 'boolean', description: 'flags' } }, 'p?: {\n    a?: string,\n    // keys matching "^x-"\n    [key: string]: number,\n    // flags\n    [key: string]: boolean,\n    },\n'],
  ['required names without a property → required any', { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'ghost'] }, 'p?: {\n    a: string,\n    ghost: any,\n    },\n'],
  ['the false schema → never', false, 'p?: never,\n'],
  ['type null → null', { type: 'null' }, 'p?: null,\n'],
];

describe('faithful: each rule', () => {
  it.each(RULES)('%s', (_rule, schema, body) => {
    expect(entry(schema)).toBe(wrap(body));
  });

  it('non-identifier property names → JSON strings; identifiers stay bare', () => {
    const props = { 'x-y': { type: 'string' }, $ok: { type: 'string' }, 日本: { type: 'string' }, 'with space': { type: 'string' }, 'q"k': { type: 'string' }, '1st': { type: 'string' } };
    expect(entry({ type: 'object', properties: props }, true)).toBe(wrap('"x-y"?: string,\n$ok?: string,\n日本?: string,\n"with space"?: string,\n"q\\"k"?: string,\n"1st"?: string,\n'));
  });

  it('local $ref inlined, the ref\'s own annotations first; a cycle stops at the second visit', () => {
    const params = {
      type: 'object',
      properties: { n: { $ref: '#/$defs/N', description: 'sibling' }, tree: { $ref: '#/$defs/Node' } },
      $defs: {
        N: { type: 'integer', description: 'def' },
        Node: { type: 'object', properties: { value: { type: 'number' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } }, required: ['value'] },
      },
    };
    expect(entry(params, true)).toBe(
      wrap('// sibling\n// def\nn?: number,\ntree?: {\n    value: number,\n    children?: any /* $ref: #/$defs/Node (recursive: not expanded again) */[],\n    },\n'),
    );
  });

  it('a ref to the root stops at once; refs that fan out stop at the expansion budget', () => {
    expect(entry({ type: 'object', properties: { self: { $ref: '#' } } }, true)).toBe(wrap('self?: any /* $ref: # (recursive: not expanded again) */,\n'));
    // 2^30 expansions if nothing stopped it
    const defs: Record<string, unknown> = { D0: { type: 'string' } };
    for (let k = 1; k <= 30; k++) defs[`D${k}`] = { type: 'object', properties: { a: { $ref: `#/$defs/D${k - 1}` }, b: { $ref: `#/$defs/D${k - 1}` } } };
    const text = entry({ type: 'object', properties: { top: { $ref: '#/$defs/D30' } }, $defs: defs }, true);
    expect(text.length).toBeLessThan(1_000_000);
    expect(text).toContain('(recursive: not expanded again)');
  });

  it('an object beside a oneOf of objects is distributed; required-only branches become required keys', () => {
    const params = { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } }, anyOf: [{ required: ['id'] }, { required: ['name'] }] };
    expect(entry(params, true)).toBe('// d\ntype f = (_: \n | {\n   id: string,\n   name?: string,\n   }\n | {\n   id?: string,\n   name: string,\n   }) => any;\n');
  });

  it('type names in another case are read as the type they name (an info each); unknown names stay any, with a comment', () => {
    const r = renderFaithfulCatalog([{ name: 'f', description: 'd', parameters: { type: 'OBJECT', properties: { s: { type: 'STRING', nullable: true }, d: { type: 'dict' } }, required: ['s'] } }]);
    expect(r.text).toContain('type f = (_: {\ns: string | null,\nd?: any /* type: "dict" */,\n}) => any;');
    expect(r.diagnostics.filter((d) => d.code === 'faithful/type-case').map((d) => d.path)).toEqual(['/0/parameters/type', '/0/parameters/properties/s/type']);
    const lowered = faithfulLowerTool(readTools([{ name: 'g', parameters: { type: 'object', properties: { a: { const: 1 } } } }]).tools[0]);
    expect(emitFaithfulTool(lowered.tool, { rewritten: true })).toBe('type g = (_: {\na?: 1,\n}) => any;\n');
  });

  it('a described root that is not an object keeps its description', () => {
    expect(entry({ type: 'string', description: 'Raw\ntext.' }, true)).toBe('// d\ntype f = (_: // Raw\n// text.\nstring) => any;\n');
  });

  it('descriptions of tools and namespaces split at every line break (a lone \\r too)', () => {
    const r = renderFaithfulCatalog([{ name: 'f', description: 'one\rtwo\u2028three\n' }], { namespaceDescription: 'ns\none' });
    expect(r.text).toBe('# Tools\n\n## functions\n\n// ns\n// one\nnamespace functions {\n\n// one\n// two\n// three\ntype f = () => any;\n\n} // namespace functions');
  });

  it('the IR is never changed; the reference printer is the default and unchanged', () => {
    const params = { type: 'object', properties: { a: { anyOf: [{ $ref: '#/$defs/X' }, { type: 'null' }] }, b: { allOf: [{ type: 'object', properties: { x: { const: 1 } } }] } }, required: ['ghost'], $defs: { X: { type: 'integer', enum: [1, 2] } } };
    const tool = lowered(params);
    const before = emitHarmonyTool(tool);
    const freeze = (v: unknown): void => {
      if (typeof v !== 'object' || v === null || Object.isFrozen(v) || v instanceof Map) return;
      Object.freeze(v);
      for (const x of Object.values(v)) freeze(x);
    };
    freeze(tool);
    for (const def of tool.definitions.values()) freeze(def);
    const f = faithfulTool(tool);
    expect(f).not.toBe(tool);
    expect(emitHarmonyTool(tool)).toBe(before);
    expect(harmonyType(tool.parameters!, '')).toBe(harmonyType(tool.parameters!, '', REFERENCE_RULES));
    expect(harmonyType(f.parameters!, '', FAITHFUL_RULES)).toBe('{\na?: 1 | 2 | null,\nb?: {\n    x?: 1,\n    },\nghost: any,\n}');
  });
});

/** Parse TypeScript; return the syntax errors and every property key found. */
function parse(text: string): { errors: string[]; keys: Set<string> } {
  const f = ts.createSourceFile('catalog.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const errors = (f as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  const keys = new Set<string>();
  const visit = (n: ts.Node): void => {
    if (ts.isPropertySignature(n) && (ts.isIdentifier(n.name) || ts.isStringLiteral(n.name))) keys.add(n.name.text);
    ts.forEachChild(n, visit);
  };
  visit(f);
  return { errors, keys };
}

/** A tool name TypeScript accepts after `type` (names are printed verbatim: the model calls the tool by that name). */
function isTypeAliasName(name: string): boolean {
  return /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u.test(name) && !['break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum', 'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'import', 'in', 'instanceof', 'new', 'null', 'return', 'super', 'switch', 'this', 'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with'].includes(name);
}

describe('faithful: parses as TypeScript', () => {
  it('own edge shapes: the namespace block parses, every parameter name is a key', () => {
    const params = { type: 'object', properties: { 'a-b': { oneOf: [{ type: 'object', description: 'obj\nmulti', properties: { 'c d': { type: 'string', enum: ['x"y', 'z\u2028w'] } } }, { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } }] }, e: { type: 'string', default: 'l1\nl2', examples: ['a\nb'] } } };
    const text = renderFaithfulCatalog([{ name: 'f', description: 'd', parameters: params }]).text;
    const p = parse(text.slice(text.indexOf('namespace functions {')));
    expect(p.errors).toEqual([]);
    expect([...p.keys]).toEqual(expect.arrayContaining(['a-b', 'c d', 'e']));
  });

  if (HAVE_SHARED) {
    it.each([
      ['corpus/tools.jsonl', 2000],
      ['corpus/edge-cases.jsonl', 22],
    ])('%s: every tool\'s faithful catalog parses with no syntax error, and keeps every parameter name', (file, count) => {
      const rows = readJsonl(sharedPath(file));
      expect(rows.length).toBe(count);
      let renamed = 0;
      const failures: string[] = [];
      for (const row of rows) {
        const name = getKey(row, 'name') as string;
        const tool = new Map<string, JsonValue>();
        for (const k of ['name', 'description', 'parameters']) {
          const v = getKey(row, k);
          if (v !== undefined) tool.set(k, v);
        }
        const text = renderFaithfulCatalog([tool]).text;
        const src = text.slice(text.indexOf('namespace functions {'));
        if (!isTypeAliasName(name)) {
          // printed as an identifier, the real name on a comment line above it
          renamed++;
          if (!src.includes(`// name: ${JSON.stringify(name)} (call the tool by this name)\n`)) failures.push(`${name}: the real name is not given`);
        }
        const p = parse(src);
        if (p.errors.length) failures.push(`${name}: ${p.errors.join('; ')}`);
        const props = getKey(getKey(row, 'parameters') ?? null, 'properties');
        if (isJsonObject(props)) for (const k of props.keys()) if (!p.keys.has(k)) failures.push(`${name}: parameter ${JSON.stringify(k)} is not a property key`);
      }
      console.log(`faithful ${file}: ${rows.length} tools parsed as TypeScript, ${failures.length} failures (${renamed} tool names are not identifiers: printed as identifiers, the name to call in a comment)`);
      expect(failures).toEqual([]);
    });
  }
});
