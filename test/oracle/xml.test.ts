/**
 * Differential test against the official chat templates (../shared/oracles/xml, rendered by
 * render.py with Python Jinja2 as transformers does): every dialect × set, whole prompts
 * compared byte for byte, errors against errors; each reports `N/M exact`.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isCompileError } from '../../src/diagnostics.js';
import { renderXmlPrompt, type XmlDialect } from '../../src/emit/xml/index.js';
import { HAVE_SHARED, bareTool, readJsonlPlain, readOracleCases, sharedMissingNote, sharedPath } from '../support/shared.js';

/** Oracle directory of each dialect with a template (anthropic has none: test/xml covers it). */
const ORACLE_DIRS: Record<Exclude<XmlDialect, 'anthropic'>, string> = {
  qwen: 'Qwen-Qwen2.5-7B-Instruct',
  'qwen3-coder': 'Qwen3-Coder',
  hermes: 'NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use',
};

const SETS: readonly [name: string, inputs: string][] = [
  ['corpus-single', 'oracles/inputs/corpus-single.jsonl'],
  ['corpus-groups', 'oracles/inputs/corpus-groups.jsonl'],
  ['synthetic-visible', 'oracles/synthetic/visible/inputs.jsonl'],
];

const OVERFLOW = 'the input holds 1e400: Python reads it as float inf and prints Infinity/inf; our lossless JSON reader (serde_json parity) rejects numbers beyond double range';
const NAMELESS = 'the tool has no "name": a ToolDefinition always has one (bareTool gives "", the reader rejects a nameless tool), so we cannot print the template\'s missing-key rendering';

/** Known divergences: dialect → id → why. */
const KNOWN_DIVERGENCES: Record<string, Record<string, string>> = {
  qwen: { 'raw-default-1e400-overflow': OVERFLOW, 'tool-name-missing': `${NAMELESS} (tojson leaves the key out)` },
  'qwen3-coder': { 'raw-default-1e400-overflow': OVERFLOW },
  hermes: { 'raw-default-1e400-overflow': OVERFLOW, 'tool-name-missing': `${NAMELESS} (the template raises UndefinedError on tool.name)` },
};

const INPUT_REJECTED = 'input is not valid JSON for our reader';

interface Row {
  id: string;
  prompt?: string;
  error?: string;
}

function render(dialect: XmlDialect, raw: unknown, tools: readonly unknown[], instructions: string | undefined): { text?: string; error?: string } {
  // a line our JSON reader rejects (raw-json family) is an input error on our side
  if (typeof raw === 'string') return { error: INPUT_REJECTED };
  try {
    const defs = tools.map((t, i) => bareTool(t as Parameters<typeof bareTool>[0], i));
    return { text: renderXmlPrompt({ tools: defs, dialect, ...(instructions !== undefined ? { instructions } : {}) }).text };
  } catch (e) {
    if (isCompileError(e)) return { error: e.message };
    throw e;
  }
}

/** Our message names the Python exception the template raised; an input our reader rejects matches any. */
function sameKind(python: string, ours: string): boolean {
  if (ours === INPUT_REJECTED) return true;
  return ours.includes(python.slice(0, python.indexOf(':')));
}

function compareSet(dialect: Exclude<XmlDialect, 'anthropic'>, name: string, inputs: string): void {
  it(`xml ${dialect} ${name}: every prompt is byte-exact`, () => {
    const cases = readOracleCases(sharedPath(inputs));
    const want = new Map(readJsonlPlain<Row>(sharedPath('oracles/xml', ORACLE_DIRS[dialect], `${name}.jsonl`)).map((r) => [r.id, r]));
    const known = KNOWN_DIVERGENCES[dialect] ?? {};
    let exact = 0;
    const diverging: string[] = [];
    const stillKnown: string[] = [];
    for (const c of cases) {
      const w = want.get(c.id);
      expect(w, `oracle row for ${c.id}`).toBeDefined();
      const got = render(dialect, c.raw, c.tools, c.instructions);
      // an error matches an error of the same Python kind (RecursionError, UndefinedError, TypeError…)
      const ok = w!.error !== undefined ? got.error !== undefined && sameKind(w!.error, got.error) : got.text === w!.prompt;
      if (ok) exact++;
      else if (c.id in known) stillKnown.push(c.id);
      else diverging.push(c.id);
    }
    console.log(`xml ${dialect} ${name}: ${exact}/${cases.length} exact${stillKnown.length ? ` (known divergences: ${stillKnown.join(', ')})` : ''}`);
    expect(diverging).toEqual([]);
    // every listed divergence of this set still diverges (no stale entries)
    const listedHere = Object.keys(known).filter((id) => cases.some((c) => c.id === id));
    expect(stillKnown.sort()).toEqual(listedHere.sort());
  });
}

if (HAVE_SHARED) describe('xml chat-template oracles', () => {
  for (const dialect of Object.keys(ORACLE_DIRS) as Exclude<XmlDialect, 'anthropic'>[]) {
    for (const [name, inputs] of SETS) compareSet(dialect, name, inputs);
  }
});

else describe('xml chat-template oracles (not available)', () => {
  it('says plainly that the oracle comparison did not run', () => {
    console.warn(sharedMissingNote('xml chat-template oracles'));
    expect(existsSync(sharedPath('oracles'))).toBe(false);
  });
});
