/**
 * Differential test against vLLM's Hermes and Qwen3-Coder tool parsers
 * (../shared/oracles/xml-parse: 126 model outputs, each with what `extract_tool_calls` returns
 * at four parser commits). Under `server: 'vllm'` every row must equal each version's derived
 * output (tools_called, tool_calls with byte-equal `arguments`, content); each version prints
 * `N/M exact`. The default mode must give well-formed results on every row.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getKey, isJsonObject, JsonSyntaxError, parseJson, type JsonValue } from '../../src/ir/json.js';
import { parseToolCalls, VLLM_PARSER_VERSIONS, XML_PARSE_CODES, type VllmParserVersion, type XmlParseModel, type XmlParseResult } from '../../src/parse/xml/index.js';
import { HAVE_SHARED, readJsonl, readJsonlPlain, sharedMissingNote, sharedPath } from '../support/shared.js';

// raised only by the family readers (test/parse/families/api.test.ts makes each fire)
const FAMILY_ONLY = ['parse/sglang-exception', 'parse/sglang-differs', 'parse/no-server-parser', 'parse/unclosed-reasoning'];

/** Known divergences: version → id → why. Empty: every row is exact. */
const KNOWN_DIVERGENCES: Record<string, Record<string, string>> = {};

interface Derived {
  tools_called: boolean;
  tool_calls: { type: string; function: { name: string; arguments: string } }[];
  content: string | null;
  _exception?: string;
}
interface ExpectedRow {
  id: string;
  dialect: 'hermes' | 'qwen3_coder';
  intended: VllmParserVersion[];
  derived: Record<VllmParserVersion, Derived>;
}
interface InputRow {
  id: string;
  dialect: 'hermes' | 'qwen3_coder';
  output: string;
  tools?: JsonValue;
}

function modelOf(dialect: 'hermes' | 'qwen3_coder'): XmlParseModel {
  return dialect === 'hermes' ? 'hermes' : 'qwen3-coder';
}

function readInputs(): InputRow[] {
  return readJsonl(sharedPath('oracles/xml-parse/inputs.jsonl')).map((row) => {
    const tools = getKey(row, 'tools');
    return {
      id: getKey(row, 'id') as string,
      dialect: getKey(row, 'dialect') as InputRow['dialect'],
      output: getKey(row, 'model_output') as string,
      ...(tools !== undefined && tools !== null ? { tools } : {}),
    };
  });
}

/** Our result in the oracle's shape. */
function asDerived(r: XmlParseResult): Omit<Derived, '_exception'> {
  return { tools_called: r.tool_calls.length > 0, tool_calls: r.tool_calls.map((c) => ({ type: c.type, function: { name: c.function.name, arguments: c.function.arguments } })), content: r.content };
}

function matches(r: XmlParseResult, want: Derived): boolean {
  const { _exception, ...expected } = want;
  if (JSON.stringify(asDerived(r)) !== JSON.stringify(expected)) return false;
  // where vLLM raised, a diagnostic names the exception, message and all
  const named = r.diagnostics.some((d) => d.code === 'parse/vllm-exception' && d.message.includes(_exception ?? '\u0000'));
  return _exception === undefined ? !r.diagnostics.some((d) => d.code === 'parse/vllm-exception') : named;
}

if (HAVE_SHARED) describe('vLLM XML tool parsers oracle (xml-parse)', () => {
  const inputs = readInputs();
  const expected = new Map(readJsonlPlain<ExpectedRow>(sharedPath('oracles/xml-parse/expected.jsonl')).map((r) => [r.id, r]));

  it('has every row', () => {
    expect(inputs.length).toBe(126);
    for (const row of inputs) expect(expected.get(row.id), row.id).toBeDefined();
  });

  for (const version of VLLM_PARSER_VERSIONS) {
    it(`${version}: every row equals the derived output`, () => {
      let exact = 0;
      const diverging: string[] = [];
      for (const row of inputs) {
        const want = expected.get(row.id)!.derived[version];
        const got = parseToolCalls(row.output, { model: modelOf(row.dialect), tools: row.tools, server: 'vllm', version });
        if (matches(got, want)) exact++;
        else if (!(row.id in (KNOWN_DIVERGENCES[version] ?? {}))) {
          diverging.push(row.id);
          console.log(row.id, JSON.stringify(asDerived(got)), got.diagnostics.map((d) => d.message), '\n  want', JSON.stringify(want));
        }
      }
      console.log(`vLLM ${version}: ${exact}/${inputs.length} exact`);
      expect(diverging).toEqual([]);
    });
  }

  it('every row equals one of its two intended versions (the default version of its model)', () => {
    let exact = 0;
    for (const row of inputs) {
      const e = expected.get(row.id)!;
      const got = parseToolCalls(row.output, { model: modelOf(row.dialect), tools: row.tools, server: 'vllm' });
      if (e.intended.some((v) => matches(got, e.derived[v]))) exact++;
      else console.log(row.id, 'matches neither intended version');
    }
    console.log(`vLLM intended versions: ${exact}/${inputs.length} exact`);
    expect(exact).toBe(inputs.length);
  });

  it('the two versions of each parser differ on exactly the rows where the oracle has them differ', () => {
    // (the oracle README says 2 Hermes rows and 18 Qwen3-Coder rows; its expected.jsonl has 1 and 15)
    const ours: string[] = [];
    const theirs: string[] = [];
    for (const row of inputs) {
      const e = expected.get(row.id)!;
      const [a, b] = e.intended;
      const ra = parseToolCalls(row.output, { model: modelOf(row.dialect), tools: row.tools, server: 'vllm', version: a });
      const rb = parseToolCalls(row.output, { model: modelOf(row.dialect), tools: row.tools, server: 'vllm', version: b });
      if (JSON.stringify(asDerived(ra)) !== JSON.stringify(asDerived(rb))) ours.push(row.id);
      if (JSON.stringify(e.derived[a]) !== JSON.stringify(e.derived[b])) theirs.push(row.id);
    }
    console.log(`rows where the two versions of the row's parser differ: ${ours.length} (oracle: ${theirs.length})`);
    expect(ours).toEqual(theirs);
    expect(ours.length).toBeGreaterThan(10);
  });

  it('default mode: every row gives a well-formed result, and the parse codes fire', () => {
    const fired = new Set<string>();
    for (const row of inputs) {
      const r = parseToolCalls(row.output, { model: modelOf(row.dialect), tools: row.tools });
      expect(r.content === null || (typeof r.content === 'string' && r.content.trim() !== ''), row.id).toBe(true);
      for (const c of r.tool_calls) {
        expect(c.type).toBe('function');
        expect(typeof c.function.name === 'string' && c.function.name !== '', row.id).toBe(true);
        let args: JsonValue | undefined;
        try {
          args = parseJson(c.function.arguments);
        } catch (e) {
          if (!(e instanceof JsonSyntaxError)) throw e;
        }
        expect(isJsonObject(args), `${row.id}: ${c.function.arguments}`).toBe(true);
      }
      for (const d of r.diagnostics) {
        expect(Object.keys(XML_PARSE_CODES), `${row.id}: ${d.code}`).toContain(d.code);
        expect(['error', 'warning', 'info']).toContain(d.severity);
        expect(typeof d.path).toBe('string');
        expect(d.message.length, d.code).toBeGreaterThan(10);
        fired.add(d.code);
      }
      // nothing is lost: a call that was not returned leaves its text in the content
      if (r.tool_calls.length === 0 && /<tool_call>|<function=/.test(row.output)) expect(r.content, row.id).not.toBeNull();
    }
    // codes no row of this oracle raises (option errors, anthropic, stray text inside a call, a stray </tool_call>): test/parse/xml.test.ts covers them
    const notHere = ['parse/bad-option', 'parse/tools-unreadable', 'parse/parser-mismatch', 'parse/no-vllm-parser', 'parse/unexpected-text', 'parse/stray-close-tag', ...FAMILY_ONLY];
    const missing = Object.keys(XML_PARSE_CODES).filter((c) => !fired.has(c) && !notHere.includes(c));
    console.log(`default mode: ${fired.size} diagnostic codes fire on the oracle rows`);
    expect(missing).toEqual([]);
  });
});

else describe('vLLM XML tool parsers oracle (not available)', () => {
  it('says plainly that the oracle comparison did not run', () => {
    console.warn(sharedMissingNote('vLLM XML tool parsers oracle (xml-parse)'));
    expect(existsSync(sharedPath('oracles'))).toBe(false);
  });
});
