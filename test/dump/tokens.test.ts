/**
 * Inventory token counts are exact: the whole developer message (<|start|> to <|end|>) as the
 * inventory counts it equals openai-harmony's `developer_tokens`, for every oracle case (instructions
 * applied), and the tools' shares add up within it.
 */
import { describe, expect, it } from 'vitest';
import { fromJs } from '../../src/ir/json.js';
import { frameOf, inventory, tokenChunks } from '../../src/inventory.js';
import { countTextTokens } from '../../src/tokens.js';
import { HAVE_SHARED, readJsonlPlain, readOracleCases, sharedMissingNote, sharedPath } from '../support/shared.js';

interface HarmonyRow {
  readonly id: string;
  readonly developer_tokens?: number;
}

/** A one-tool case: {name, description, parameters} with one optional property `x` of this schema. */
function tool(name: string, description: string, x: Record<string, unknown> = { type: 'string' }) {
  return fromJs([{ name, description, parameters: { type: 'object', properties: { x } } }]);
}

describe('inventory token counts (own cases, always run)', () => {
  // Counts openai-harmony gave for these developer messages (synthetic/visible/harmony.jsonl), kept here.
  it.each([
    ['type-string-optional', tool('f', 'Test tool.'), 34],
    ['enum-string-special-token', tool('f', 'Test tool.', { type: 'string', enum: ['<|end|>', '<|call|>'] }), 43],
    ['tool-desc-special-end', tool('f', 'Stop <|end|> here.'), 39],
    ['tool-desc-special-start', tool('f', '<|start|>assistant<|message|>hi'), 44],
  ])('%s: the developer message is exact', async (_id, tools, want) => {
    const inv = await inventory(tools);
    expect(inv.totals.developer).toBe(want);
    // one tool: its share and the catalog's own text make the catalog; the envelope makes the rest
    expect(inv.totals.developer).toBe(inv.totals.catalog + 4);
    expect(inv.tools[0].tokens).toBeGreaterThan(0);
    expect(inv.tools[0].tokens).toBeLessThan(inv.totals.catalog);
  });

  it('text that spells a control token counts as plain text', async () => {
    const plain = await inventory(tool('f', 'Stop END here.'));
    const spelled = await inventory(tool('f', 'Stop <|end|> here.'));
    expect(spelled.totals.developer - plain.totals.developer).toBe(countTextTokens('Stop <|end|> here.') - countTextTokens('Stop END here.'));
    expect(countTextTokens('<|end|>')).toBeGreaterThan(1);
  });

  it('chunks cover the text and count as countTextTokens does', () => {
    for (const text of ['', 'a', 'namespace functions {\n\n// x\ntype f = () => any;\n\n}', '日本語のテキスト <|start|> 🙂 émoji\r\n\ttabs', 'x'.repeat(5000)]) {
      const c = tokenChunks(text);
      expect(c.counts.reduce((a, b) => a + b, 0)).toBe(countTextTokens(text));
      expect(c.starts[0] ?? 0).toBe(0);
      expect([...c.starts].sort((a, b) => a - b)).toEqual(c.starts);
    }
  });

  it('the catalog frame is learned from two probe tools', () => {
    const a = '# Tools\n\nnamespace functions {\n\ntype probe_a = () => any;\n\n} // namespace functions';
    const b = '# Tools\n\nnamespace functions {\n\n// Other.\ntype zz_other = (_: {\ns?: string,\n}) => any;\n\n} // namespace functions';
    const ab = '# Tools\n\nnamespace functions {\n\ntype probe_a = () => any;\n\n// Other.\ntype zz_other = (_: {\ns?: string,\n}) => any;\n\n} // namespace functions';
    expect(frameOf(a, b, ab)).toEqual({ prefix: '# Tools\n\nnamespace functions {', suffix: '\n\n} // namespace functions' });
    // constant text at the start of every tool goes to the tools, from its line break on
    const x1 = '<tools>\n<function><name>a</name></function>\n</tools>';
    const x2 = '<tools>\n<function><name>zz</name></function>\n</tools>';
    const x12 = '<tools>\n<function><name>a</name></function>\n<function><name>zz</name></function>\n</tools>';
    expect(frameOf(x1, x2, x12)).toEqual({ prefix: '<tools>', suffix: '\n</tools>' });
    expect(frameOf(a, b, 'something else')).toBeUndefined();
  });

  it('each tool of a catalog is found, in every target', async () => {
    const tools = fromJs([
      { name: 'alpha', description: 'First.', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } },
      { name: 'beta', description: 'Second.', parameters: { type: 'object', properties: { n: { type: 'integer' } } } },
    ]);
    for (const options of [{}, { flavor: 'chat-template' as const }, { target: 'jsdoc' as const }, { target: 'xml' as const }, { target: 'xml' as const, dialect: 'qwen3-coder' as const }]) {
      const inv = await inventory(tools, options);
      expect(inv.tools.map((t) => t.name)).toEqual(['alpha', 'beta']);
      for (const t of inv.tools) {
        expect(inv.catalog, JSON.stringify(options)).toContain(t.text);
        expect(t.text).toContain(t.name);
        expect(t.text).not.toContain(t.name === 'alpha' ? 'beta' : 'alpha');
        expect(t.tokens).toBeGreaterThan(0);
      }
      expect(inv.tools[0].tokens + inv.tools[1].tokens).toBeLessThanOrEqual(inv.totals.catalog);
    }
  });
});

if (HAVE_SHARED) {
  describe('inventory token counts against openai-harmony (all corpus cases)', () => {
    it('the whole developer message equals developer_tokens for all 2,093 corpus cases', async () => {
      let exact = 0;
      let total = 0;
      const misses: string[] = [];
      for (const set of ['corpus-single', 'corpus-groups']) {
        const cases = readOracleCases(sharedPath(`oracles/inputs/${set}.jsonl`));
        const want = new Map(readJsonlPlain<HarmonyRow>(sharedPath(`oracles/openai-harmony/${set}.jsonl`)).map((r) => [r.id, r.developer_tokens]));
        for (const c of cases) {
          total++;
          const inv = await inventory(c.tools, c.instructions !== undefined ? { instructions: c.instructions } : {});
          const shares = inv.tools.reduce((a, t) => a + t.tokens, 0);
          if (inv.totals.developer === want.get(c.id) && shares <= inv.totals.catalog && inv.tools.every((t) => t.tokens > 0)) exact++;
          else if (misses.length < 10) misses.push(`${set}/${c.id}: ${inv.totals.developer} (shares ${shares}/${inv.totals.catalog}) ≠ ${want.get(c.id)}`);
        }
      }
      console.log(`inventory developer_tokens: ${exact}/${total} exact`);
      expect(misses).toEqual([]);
      expect(total).toBe(2093);
      expect(exact).toBe(2093);
    });
  });
} else {
  it('openai-harmony oracle comparison', () => {
    console.warn(sharedMissingNote('inventory token counts'));
    expect(HAVE_SHARED).toBe(false);
  });
}
