/**
 * Inventory token counts are exact: the whole developer message (<|start|> to <|end|>) as the
 * inventory counts it equals openai-harmony's `developer_tokens`, for every oracle case (instructions
 * applied), and the tools' shares add up within it.
 */
import { readFileSync } from 'node:fs';
import { encode as gptEncode } from 'gpt-tokenizer/encoding/o200k_harmony';
import o200kRanks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { describe, expect, it } from 'vitest';
import { readTools } from '../../src/api/compile.js';
import { renderCatalog } from '../../src/api/render.js';
import { fromJs } from '../../src/ir/json.js';
import { frameOf, inventory, tokenChunks } from '../../src/inventory.js';
import { countTextTokens, encodeText, textTokenChunks } from '../../src/tokens.js';
import { HAVE_SHARED, readJsonlPlain, readOracleCases, sharedMissingNote, sharedPath } from '../support/shared.js';
import { seededRandom } from '../support/random.js';

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

// gpt-tokenizer's own encoder (quadratic in one long chunk): the reference for inputs small enough for it.
const PLAIN = { disallowedSpecial: new Set<string>() };
const gptIds = (text: string): number[] => gptEncode(text, PLAIN);

/** The bytes o200k_base gives these ids (each id's bytes, from gpt-tokenizer's rank data). */
function idBytes(ids: readonly number[]): Buffer {
  return Buffer.concat(ids.map((id) => {
    const v = o200kRanks[id];
    return typeof v === 'string' ? Buffer.from(v, 'utf8') : Buffer.from(v);
  }));
}


// Alphabets a hostile description may repeat: one character, two alternating, punctuation, letters of
// several scripts and cases, digits, whitespace and line breaks, emoji (surrogate pairs), combining marks.
const ALPHABETS = ['=', '-=', '=*#~!', 'a', 'A', 'aB', 'abcdefghij', 'ABCDEFG', 'é', 'ñü', '日本語', 'Ωπλ', ' ', ' \t', '\n', '\r\n', ' \n/', '0123456789', '😀', '😀a ', 'x\u0301', "'s ", '<|end|>', '/', '.\u00a0'];

/** Text made of runs: each run repeats characters of one alphabet, `maxRun` characters at most. */
function runsText(rnd: () => number, runs: number, maxRun: number): string {
  let out = '';
  for (let r = 0; r < runs; r++) {
    const alphabet = [...ALPHABETS[Math.floor(rnd() * ALPHABETS.length)]];
    const length = 1 + Math.floor(rnd() ** 2 * maxRun);
    const cycle = rnd() < 0.5;
    for (let k = 0; k < length; k++) out += cycle ? alphabet[k % alphabet.length] : alphabet[Math.floor(rnd() * alphabet.length)];
  }
  return out;
}

describe('token counting is linear-ish in one long pre-tokenizer chunk, and exact', () => {
  it('a run of 1,000,000 `=` (one chunk) is counted in well under 5 s (gpt-tokenizer: 58 s for 320,000)', () => {
    countTextTokens('==x'); // the rank table is built on first use
    const t0 = performance.now();
    const n = countTextTokens('='.repeat(1_000_000));
    const ms = performance.now() - t0;
    // 64 `=` are one o200k token
    expect(n).toBe(1_000_000 / 64);
    expect(ms).toBeLessThan(5_000);
  }, 30_000);

  it('dump (inventory) of a tool whose description is 320,000 `=` takes seconds, not minutes', async () => {
    const t0 = performance.now();
    const inv = await inventory(tool('f', '='.repeat(320_000)));
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(inv.tools[0].tokens).toBeGreaterThanOrEqual(5_000);
    expect(inv.totals.catalog).toBe(countTextTokens(inv.catalog));
  }, 30_000);

  it('long runs of many alphabets: the same ids as gpt-tokenizer, and the ids spell the text', () => {
    const rnd = seededRandom(20260613);
    let tokens = 0;
    for (let k = 0; k < 120; k++) {
      const text = runsText(rnd, 1 + Math.floor(rnd() * 12), k % 4 === 0 ? 3_000 : 300);
      const ids = encodeText(text);
      expect(ids, JSON.stringify(text.slice(0, 80))).toEqual(gptIds(text));
      expect(countTextTokens(text)).toBe(ids.length);
      expect(idBytes(ids).equals(Buffer.from(text, 'utf8'))).toBe(true);
      const chunks = textTokenChunks(text);
      expect(chunks.lengths.reduce((a, b) => a + b, 0)).toBe(text.length);
      expect(chunks.counts.reduce((a, b) => a + b, 0)).toBe(ids.length);
      tokens += ids.length;
    }
    expect(tokens).toBeGreaterThan(10_000);
  }, 60_000);

  it('U+FEFF counts as tiktoken counts it: EF BB BF is token 5574 (gpt-tokenizer strips the BOM and splits it in two)', () => {
    expect(encodeText('\uFEFF')).toEqual([5574]);
    expect(encodeText('\uFEFFusing')).toEqual([9251]); // the token whose bytes are EF BB BF "using"
    expect(gptIds('\uFEFF')).not.toEqual([5574]);
    for (const text of ['\uFEFF', 'a\uFEFF\uFEFFb', '\uFEFF// x', `${'\uFEFF'.repeat(700)}=`]) {
      expect(idBytes(encodeText(text)).equals(Buffer.from(text, 'utf8'))).toBe(true);
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
  describe('token counting equals gpt-tokenizer on the whole corpus', () => {
    it('every description, every parameters schema and the rendered corpus catalog in each target', () => {
      const lines = readFileSync(sharedPath('corpus/tools.jsonl'), 'utf8').split('\n').filter(Boolean);
      const tools = lines.map((l) => JSON.parse(l) as { name: string; description?: unknown; parameters?: unknown });
      const texts: string[] = [];
      for (const t of tools) {
        if (typeof t.description === 'string') texts.push(t.description);
        texts.push(JSON.stringify(t.parameters ?? {}));
      }
      const read = readTools(JSON.stringify(tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }))));
      const targets = [{}, { target: 'jsdoc' as const }, { target: 'xml' as const }, { target: 'xml' as const, dialect: 'qwen3-coder' as const }, { target: 'xml' as const, dialect: 'hermes' as const }, { target: 'xml' as const, dialect: 'anthropic' as const }];
      for (const options of targets) texts.push(renderCatalog(read, options).text);
      let exact = 0;
      let tokens = 0;
      const misses: string[] = [];
      for (const text of texts) {
        const want = gptIds(text);
        const ids = encodeText(text);
        if (ids.length === want.length && ids.every((id, k) => id === want[k]) && countTextTokens(text) === want.length) {
          exact++;
          tokens += want.length;
        } else if (misses.length < 5) misses.push(JSON.stringify(text.slice(0, 80)));
      }
      console.log(`token counting: ${exact}/${texts.length} corpus texts give gpt-tokenizer's ids (${tokens} tokens)`);
      expect(misses).toEqual([]);
      expect(exact).toBe(texts.length);
      expect(texts.length).toBeGreaterThan(3_900);
    }, 120_000);
  });
} else {
  it('openai-harmony oracle comparison', () => {
    console.warn(sharedMissingNote('inventory token counts'));
    expect(HAVE_SHARED).toBe(false);
  });
}
