/**
 * The JSDoc target's spec: each case in test/cases/jsdoc/<case>.json (`{namespace?, tools}`)
 * printed and compared with snapshots/jsdoc/<case>.d.ts, reviewed by hand and committed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emitJsdocCatalog } from '../../src/emit/jsdoc/catalog.js';
import { getKey, isJsonArray, parseJson } from '../../src/ir/json.js';
import { lowerTool } from '../../src/lower/index.js';
import { ROOT, bareTool } from '../support/shared.js';

const CASES = join(ROOT, 'test/cases/jsdoc');
const names = readdirSync(CASES).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length)).sort();

/** One case's catalog. */
function renderCase(name: string): string {
  const doc = parseJson(readFileSync(join(CASES, `${name}.json`), 'utf8'));
  const list = getKey(doc, 'tools');
  const ns = getKey(doc, 'namespace');
  const tools = (isJsonArray(list) ? list : []).map((t, k) => lowerTool(bareTool(t, k)).tool);
  return emitJsdocCatalog(tools, typeof ns === 'string' ? { namespace: ns } : {});
}

describe('jsdoc snapshots', () => {
  it('has cases', () => {
    expect(names.length).toBeGreaterThanOrEqual(12);
  });
  for (const name of names) {
    it(name, async () => {
      await expect(renderCase(name)).toMatchFileSnapshot(join(ROOT, 'snapshots/jsdoc', `${name}.d.ts`));
    });
  }
});
