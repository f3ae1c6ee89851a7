/**
 * What the family oracle suites share (test/oracle/families-api.test.ts, test/families/fast-path.test.ts):
 * the three sets of ../shared/oracles/families/ with their inputs, and the reasons of the two
 * divergences every family has through the API, and how one render's outcome is taken.
 */
import { isCompileError } from '../../src/diagnostics.js';

/** The prompt or the error message of one render (a CompileError's message; anything else is thrown). */
export function outcome(run: () => string): { text?: string; error?: string } {
  try {
    return { text: run() };
  } catch (e) {
    if (isCompileError(e)) return { error: e.message };
    throw e;
  }
}

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
