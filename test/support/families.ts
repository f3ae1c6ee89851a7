/**
 * The one differential harness of the model families (../shared/oracles/families/<template>/):
 * each family printer × corpus-single, corpus-groups and synthetic-visible, whole prompts byte for
 * byte, errors against errors of the same Python kind; `N/M exact` per family and set. Each
 * family's test file calls `describeFamily(printer, knownDivergences)`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCompileError, type Diagnostic } from '../../src/diagnostics.js';
import type { ToolDefinition } from '../../src/input/types.js';
import { getKey, isJsonArray, parseJson, type JsonValue } from '../../src/ir/json.js';
import type { FamilyPrinter } from '../../src/emit/families/types.js';
import { HAVE_SHARED, ROOT, bareTool, readJsonlPlain, readOracleCases, sharedMissingNote, sharedPath } from './shared.js';

/** The three sets, with their inputs (synthetic-visible: only the ids the family's file holds). */
export const FAMILY_SETS: readonly [name: string, inputs: string][] = [
  ['corpus-single', 'oracles/inputs/corpus-single.jsonl'],
  ['corpus-groups', 'oracles/inputs/corpus-groups.jsonl'],
  ['synthetic-visible', 'oracles/synthetic/visible/inputs.jsonl'],
];

/** Why 1e400 cannot match: Python reads it as inf; our reader refuses numbers beyond double range (openai-harmony parity). */
export const OVERFLOW = 'the input holds 1e400: Python reads it as float inf and prints Infinity/inf; our lossless JSON reader refuses numbers beyond double range, as openai-harmony does';
/** Why a nameless tool cannot match: a ToolDefinition always has a name. */
export const NAMELESS = 'the tool has no "name": a ToolDefinition always has one (the reader refuses a nameless tool), so the template\'s missing-key rendering cannot be printed';

const INPUT_REJECTED = 'input is not valid JSON for our reader';

interface Row {
  id: string;
  prompt?: string;
  error?: string;
}

/** The whole prompt of one oracle case through a printer: text, or the error message. */
export function renderCase(printer: FamilyPrinter, raw: unknown, tools: readonly unknown[], instructions: string | undefined): { text?: string; error?: string } {
  if (typeof raw === 'string') return { error: INPUT_REJECTED };
  try {
    const defs = tools.map((t, i) => bareTool(t as Parameters<typeof bareTool>[0], i));
    return { text: printer.prompt(defs, { date: '2025-08-05', ...(instructions !== undefined ? { instructions } : {}) }).text };
  } catch (e) {
    if (isCompileError(e)) return { error: e.message };
    throw e;
  }
}

/** Our message names the Python exception the template raised (`TypeError`, `UndefinedError`…) and its text; an input our reader rejects matches any error. */
export function sameError(python: string, ours: string): boolean {
  if (ours === INPUT_REJECTED) return true;
  return ours.includes(python);
}

/** One describe block per family: every set compared, `N/M exact` printed, known divergences listed by id. */
export function describeFamily(printer: FamilyPrinter, known: Readonly<Record<string, string>> = {}): void {
  if (!HAVE_SHARED) {
    describe(`family ${printer.name} (oracle not available)`, () => {
      it('says plainly that the oracle comparison did not run', () => {
        console.warn(sharedMissingNote(`family ${printer.name}`));
        expect(existsSync(sharedPath('oracles'))).toBe(false);
      });
    });
    return;
  }
  describe(`family ${printer.name} (${printer.template})`, () => {
    for (const [name, inputs] of FAMILY_SETS) {
      it(`${name}: every prompt byte-exact, every template error an error`, () => {
        const want = new Map(readJsonlPlain<Row>(sharedPath('oracles/families', printer.template, `${name}.jsonl`)).map((r) => [r.id, r]));
        const cases = readOracleCases(sharedPath(inputs)).filter((c) => want.has(c.id));
        let exact = 0;
        const diverging: string[] = [];
        const knownHere: string[] = [];
        for (const c of cases) {
          const w = want.get(c.id)!;
          const got = renderCase(printer, c.raw, c.tools, c.instructions);
          const ok = w.error !== undefined ? got.error !== undefined && sameError(w.error, got.error) : got.text === w.prompt;
          if (ok) exact++;
          else if (c.id in known) knownHere.push(c.id);
          else diverging.push(c.id);
        }
        console.log(`family ${printer.name} ${name}: ${exact}/${cases.length} exact${knownHere.length ? ` (known divergences: ${knownHere.join(', ')})` : ''}`);
        expect(diverging).toEqual([]);
      });
    }
  });
}

/** Bare tools from JSON text (a list of `{name, description?, parameters?}`). */
export function bareTools(json: string): ToolDefinition[] {
  return (parseJson(json) as JsonValue[]).map((t, i) => bareTool(t, i));
}

/** The one diagnostic of the CompileError a call throws (the test fails when it throws none, or several). */
export function oneFailure(run: () => unknown): Diagnostic {
  try {
    run();
  } catch (e) {
    if (isCompileError(e)) {
      expect(e.diagnostics).toHaveLength(1);
      return e.diagnostics[0];
    }
    throw e;
  }
  throw new Error('expected the template to fail');
}

/** One case under test/cases/families/<family>/: `NAME.json` (tools, instructions?) and the template's whole prompt `NAME.txt`. */
export function familyCase(family: string, name: string): { tools: ToolDefinition[]; instructions?: string; want: string } {
  const dir = join(ROOT, 'test/cases/families', family);
  const input = parseJson(readFileSync(join(dir, `${name}.json`), 'utf8'));
  const list = getKey(input, 'tools');
  const instructions = getKey(input, 'instructions');
  return {
    tools: isJsonArray(list) ? list.map((t, i) => bareTool(t, i)) : [],
    ...(typeof instructions === 'string' ? { instructions } : {}),
    want: readFileSync(join(dir, `${name}.txt`), 'utf8'),
  };
}
