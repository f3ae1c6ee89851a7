/**
 * The engine on the 21 real templates of ../shared/oracles/templates (no expected outputs ship
 * with them): each rendered over the 89 family conversations and the 93 corpus-groups catalogs by
 * the engine and, live, by Python Jinja2 in render.py's environment on this machine; the two must
 * agree byte for byte (or on the error line). The suite says plainly when it did not run (no
 * ../shared, or no Python with Jinja2 3.1).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TemplateValue } from '../../src/template/index.js';
import { HAVE_SHARED, sharedMissingNote, sharedPath } from '../support/shared.js';
import { catalogVars, field, readPythonJsonl, renderOutcome, report, sameOutcome } from './support.js';

/** Python renders every job as render.py would (its compile_template, date 2025-08-05). */
const PYTHON = String.raw`
import sys, json, datetime
sys.path.insert(0, sys.argv[1])
import render as R
jobs = json.load(sys.stdin)
today = datetime.datetime(2025, 8, 5)
lines = {}
def cases(path):
    if path not in lines:
        lines[path] = [json.loads(l) for l in open(path, encoding="utf-8") if l.strip()]
    return lines[path]
out = []
for job in jobs:
    t = R.compile_template(open(job["template"], encoding="utf-8").read(), today)
    special = json.load(open(job["vars"], encoding="utf-8"))
    rows = []
    for c in cases(job["inputs"]):
        if job["kind"] == "catalog":
            r = R.render_line(t, c, special, {})
        else:
            try:
                r = {"prompt": t.render(messages=c["messages"], tools=c.get("tools"), documents=None, add_generation_prompt=True, **special)}
                r["prompt"].encode("utf-8")
            except Exception as e:
                r = {"error": f"{type(e).__name__}: {e}"}
        rows.append({"prompt": r["prompt"]} if "prompt" in r else {"error": r["error"]})
    out.append(rows)
json.dump(out, sys.stdout, ensure_ascii=False)
`;

/** True when python3 with Jinja2 3.1 runs here. */
function havePython(): boolean {
  const r = spawnSync('python3', ['-c', 'import jinja2, sys; sys.exit(0 if jinja2.__version__.startswith("3.1") else 1)'], { encoding: 'utf8' });
  return r.status === 0;
}

if (!HAVE_SHARED || !havePython()) {
  describe('the engine vs live Jinja2 on oracles/templates', () => {
    it('did not run', () => {
      console.warn(HAVE_SHARED ? 'the engine vs live Jinja2 on oracles/templates: python3 with Jinja2 3.1 not found; these 21 templates are NOT checked in this run' : sharedMissingNote('the engine vs live Jinja2 on oracles/templates'));
    });
  });
} else {
  const names = readdirSync(sharedPath('oracles/templates'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  const sets = [
    { set: 'conversations', kind: 'conversation', inputs: sharedPath('oracles/family-conversations/inputs.jsonl') },
    { set: 'corpus-groups', kind: 'catalog', inputs: sharedPath('oracles/inputs/corpus-groups.jsonl') },
  ] as const;
  const jobs = names.flatMap((name) => sets.map((s) => ({ name, set: s.set, kind: s.kind, inputs: s.inputs, template: sharedPath('oracles/templates', name, 'template.jinja'), vars: sharedPath('oracles/templates', name, 'vars.json') })));
  let python: { prompt?: string; error?: string }[][] | undefined;
  const pythonRows = (): { prompt?: string; error?: string }[][] => {
    if (python === undefined) {
      const r = spawnSync('python3', ['-c', PYTHON, sharedPath('oracles/families')], { input: JSON.stringify(jobs), encoding: 'utf8', maxBuffer: 1 << 30 });
      if (r.status !== 0) throw new Error(`python failed: ${r.stderr}`);
      python = JSON.parse(r.stdout) as { prompt?: string; error?: string }[][];
    }
    return python;
  };
  const inputs = new Map(sets.map((s) => [s.inputs, readPythonJsonl(s.inputs)]));

  describe('the engine vs live Jinja2 on oracles/templates', () => {
    jobs.forEach((job, j) => {
      it(`${job.name} ${job.set}`, () => {
        const want = pythonRows()[j];
        const text = readFileSync(job.template, 'utf8');
        const special = JSON.parse(readFileSync(job.vars, 'utf8')) as Record<string, string>;
        const cases = inputs.get(job.inputs) as TemplateValue[];
        let exact = 0;
        const differ: string[] = [];
        cases.forEach((c, i) => {
          let vars: Map<string, TemplateValue>;
          if (job.kind === 'catalog') vars = catalogVars(c, special);
          else {
            vars = new Map<string, TemplateValue>([
              ['messages', field(c, 'messages') as TemplateValue],
              ['tools', field(c, 'tools') ?? null],
              ['documents', null],
              ['add_generation_prompt', true],
            ]);
            for (const [k, v] of Object.entries(special)) vars.set(k, v);
          }
          const row = { id: String(field(c, 'id')), ...want[i] };
          const got = renderOutcome(text, vars);
          if (sameOutcome(row, got)) exact++;
          else differ.push(`${row.id}: want ${JSON.stringify(row.error ?? row.prompt).slice(0, 300)}\n   got ${JSON.stringify(got.error ?? got.prompt).slice(0, 300)}`);
        });
        console.log(report(`templates/${job.name}`, job.set, exact, cases.length, []));
        expect(differ).toEqual([]);
      });
    });
  });
}
