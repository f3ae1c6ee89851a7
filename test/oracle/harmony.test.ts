/**
 * Differential test against openai-harmony (../shared/oracles/openai-harmony and synthetic):
 * every case is rendered and compared byte for byte; each set reports `N/M exact`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderDeveloperMessage, renderPrompt } from '../../src/api/render.js';
import { isCompileError } from '../../src/diagnostics.js';
import { renderHarmonyConversationJson } from '../../src/messages/serde.js';
import { HAVE_SHARED, readJsonlPlain, readOracleCases, sharedMissingNote, sharedPath } from '../support/shared.js';

/** Known divergences: id → why. Empty: every case is exact. */
const KNOWN_DIVERGENCES: Record<string, string> = {};

interface Row { id: string; developer?: string; error?: string }

function developerOf(tools: unknown, instructions: string | undefined): { text?: string; error?: string } {
  try {
    return { text: renderDeveloperMessage(tools, instructions !== undefined ? { instructions } : {}).text };
  } catch (e) {
    if (isCompileError(e)) return { error: e.message };
    throw e;
  }
}

function compareSet(name: string, inputs: string, expected: string): void {
  it(`${name}: every developer message is byte-exact`, () => {
    const cases = readOracleCases(sharedPath(inputs));
    const want = new Map(readJsonlPlain<Row>(sharedPath(expected)).map((r) => [r.id, r]));
    let exact = 0;
    const diverging: string[] = [];
    for (const c of cases) {
      const w = want.get(c.id);
      expect(w, `oracle row for ${c.id}`).toBeDefined();
      // a line that is not JSON (raw-json family) is handed over as text, as the reference reads it
      const got = developerOf(typeof c.raw === 'string' ? c.raw : c.tools, c.instructions);
      const ok = w!.error !== undefined ? got.error !== undefined : got.text === w!.developer;
      if (ok) exact++;
      else if (!(c.id in KNOWN_DIVERGENCES)) diverging.push(c.id);
    }
    console.log(`openai-harmony ${name}: ${exact}/${cases.length} exact`);
    expect(diverging).toEqual([]);
  });
}

if (HAVE_SHARED) describe('openai-harmony oracle', () => {
  compareSet('corpus-single', 'oracles/inputs/corpus-single.jsonl', 'oracles/openai-harmony/corpus-single.jsonl');
  compareSet('corpus-groups', 'oracles/inputs/corpus-groups.jsonl', 'oracles/openai-harmony/corpus-groups.jsonl');
  compareSet('synthetic-visible', 'oracles/synthetic/visible/inputs.jsonl', 'oracles/synthetic/visible/harmony.jsonl');

  it('edge cases: every developer content is byte-exact', () => {
    const dir = sharedPath('oracles/openai-harmony/edge');
    const names = readdirSync(dir).filter((f) => f.endsWith('.tools.json'));
    let exact = 0;
    for (const f of names) {
      const tools = readFileSync(`${dir}/${f}`, 'utf8');
      const want = readFileSync(`${dir}/${f.replace('.tools.json', '.developer_content.txt')}`, 'utf8');
      const got = renderDeveloperMessage(tools).text;
      expect(got, f).toBe(want);
      exact++;
    }
    console.log(`openai-harmony edge: ${exact}/${names.length} exact`);
    expect(names.length).toBe(10);
  });

  it('rendering goldens: every whole prompt is byte-exact (trailing whitespace trimmed, as upstream compares)', () => {
    const dir = sharedPath('oracles/openai-harmony/golden');
    const cases = JSON.parse(readFileSync(`${dir}/cases.json`, 'utf8')) as { golden: string; oracle_mode: string; stdin: unknown; oracle_args: string[] }[];
    let exact = 0;
    for (const c of cases) {
      const args = c.oracle_args;
      const flag = (f: string) => args.includes(f);
      const value = (f: string) => (args.includes(f) ? args[args.indexOf(f) + 1] : undefined);
      let text: string;
      if (c.oracle_mode === 'tools') {
        const date = value('--date');
        text = renderPrompt({ tools: JSON.stringify(c.stdin), ...(date ? { date } : {}), browser: flag('--browser'), python: flag('--python'), ...(flag('--completion') ? { completion: 'assistant' } : {}) }).text;
      } else {
        const completion = value('--completion');
        text = renderHarmonyConversationJson(c.stdin, { ...(completion ? { completion } : {}), dropAnalysis: !flag('--no-auto-drop'), training: flag('--training') }).text;
      }
      const want = readFileSync(`${dir}/${c.golden}`, 'utf8');
      expect(text.trimEnd(), c.golden).toBe(want.trimEnd());
      exact++;
    }
    console.log(`openai-harmony goldens: ${exact}/${cases.length} exact`);
    expect(cases.length).toBe(19);
  });
});

else describe('openai-harmony oracle (not available)', () => {
  it('says plainly that the oracle comparison did not run', () => {
    console.warn(sharedMissingNote('openai-harmony oracle'));
    expect(existsSync(sharedPath('oracles'))).toBe(false);
  });
});
