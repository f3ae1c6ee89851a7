// What the benchmarks share: the corpus as one catalog, and medians.
import { readFileSync } from 'node:fs';

/** The corpus as a user would hand it over: one JSON array of bare tools (metadata dropped), and its size. */
export function corpusCatalog(corpusPath) {
  const lines = readFileSync(corpusPath, 'utf8').split('\n').filter(Boolean);
  // numbers go through JSON.parse here only to drop the corpus metadata; the benches read the text losslessly
  const text = `[${lines.map((l) => { const t = JSON.parse(l); return JSON.stringify({ name: t.name, description: t.description, parameters: t.parameters }); }).join(',')}]`;
  return { text, count: lines.length };
}

/** The median of some numbers. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
