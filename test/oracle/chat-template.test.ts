/**
 * Differential test against the official gpt-oss chat template rendered by Jinja2
 * (../shared/oracles/chat-template and synthetic/visible/template.jsonl): every case's whole
 * prompt is compared byte for byte; a case where the template raises must make us throw a
 * CompileError with a `chat-template/fails` diagnostic quoting the same Jinja2 error.
 * Each set reports `N/M exact`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCompileError, type CompileError } from '../../src/diagnostics.js';
import { fromJs, getKey, isJsonArray, type JsonValue } from '../../src/ir/json.js';
import type { ToolDefinition } from '../../src/input/types.js';
import { lowerTool } from '../../src/lower/index.js';
import { renderChatTemplatePrompt, type ChatTemplateTool } from '../../src/messages/chat-template.js';
import { bareTool, HAVE_SHARED, readJsonlPlain, readOracleCases, ROOT, sharedMissingNote, sharedPath, type OracleCase } from '../support/shared.js';

/** Known divergences: id → why. */
const KNOWN_DIVERGENCES: Record<string, string> = {
  'raw-default-1e400-overflow':
    'Python json reads 1e400 as inf and the template prints `// default: Infinity,`; our JSON reader (src/ir/json.ts, like serde_json) refuses a number out of double range, and fromJs refuses Infinity, so the tool cannot reach the printer',
};

interface Row {
  id: string;
  prompt?: string;
  error?: string;
}

/**
 * The case's tools as printer input. bareTool turns a missing name into "": the template
 * fails on a missing name but renders an empty one, so the name is kept as written
 * (ToolDefinition cannot say "no name"; the input stage refuses such a tool anyway).
 */
function toolsOf(tools: readonly JsonValue[]): ChatTemplateTool[] {
  return tools.map((t, i) => {
    const def: ToolDefinition = { ...bareTool(t, i), name: getKey(t, 'name') as string };
    return { def, ir: lowerTool(def).tool };
  });
}

/**
 * A line our lossless reader refuses (the raw-json family) is read as JavaScript values
 * instead, the other way tools reach the API (fromJs): it keeps a lone surrogate, and
 * refuses 1e400 (Infinity) as the text reader does.
 */
function casesOf(path: string): { c: OracleCase; tools?: readonly JsonValue[]; instructions?: string }[] {
  return readOracleCases(sharedPath(path)).map((c) => {
    if (typeof c.raw !== 'string') return { c, tools: c.tools, ...(c.instructions !== undefined ? { instructions: c.instructions } : {}) };
    try {
      const v = fromJs(JSON.parse(c.raw));
      const tools = getKey(v, 'tools');
      const instr = getKey(v, 'instructions');
      return { c, tools: isJsonArray(tools) ? tools : [], ...(typeof instr === 'string' ? { instructions: instr } : {}) };
    } catch {
      return { c };
    }
  });
}

function render(tools: readonly JsonValue[], instructions: string | undefined): { text?: string; error?: CompileError } {
  try {
    const text = renderChatTemplatePrompt({
      tools: toolsOf(tools),
      ...(instructions !== undefined ? { instructions } : {}),
      messages: [{ role: 'user', content: 'hi' }],
      date: '2025-08-05',
    }).text;
    return { text };
  } catch (e) {
    if (isCompileError(e)) return { error: e };
    throw e;
  }
}

function compareSet(name: string, inputs: string, expected: string): void {
  it(`${name}: every whole prompt is byte-exact, every template error is ours too`, () => {
    const cases = casesOf(inputs);
    const want = new Map(readJsonlPlain<Row>(sharedPath(expected)).map((r) => [r.id, r]));
    let exact = 0;
    let errors = 0;
    let sameText = 0;
    const diverging: string[] = [];
    const knownHere: string[] = [];
    for (const { c, tools, instructions } of cases) {
      const w = want.get(c.id);
      expect(w, `oracle row for ${c.id}`).toBeDefined();
      let ok = false;
      if (tools !== undefined) {
        const got = render(tools, instructions);
        if (w!.error !== undefined) {
          errors++;
          const first = got.error?.diagnostics.find((d) => d.severity === 'error');
          ok = first?.code === 'chat-template/fails';
          if (ok && first!.message.includes(`${w!.error})`)) sameText++;
        } else ok = got.text === w!.prompt;
      }
      if (ok) exact++;
      else if (c.id in KNOWN_DIVERGENCES) knownHere.push(c.id);
      else diverging.push(c.id);
    }
    console.log(`chat-template ${name}: ${exact}/${cases.length} exact (${sameText}/${errors} template errors quoted word for word${knownHere.length ? `; known divergences: ${knownHere.join(', ')}` : ''})`);
    expect(diverging).toEqual([]);
    expect(sameText).toBe(errors);
  });
}

if (HAVE_SHARED) describe('chat template oracle', () => {
  compareSet('corpus-single', 'oracles/inputs/corpus-single.jsonl', 'oracles/chat-template/corpus-single.jsonl');
  compareSet('corpus-groups', 'oracles/inputs/corpus-groups.jsonl', 'oracles/chat-template/corpus-groups.jsonl');
  compareSet('synthetic-visible', 'oracles/synthetic/visible/inputs.jsonl', 'oracles/synthetic/visible/template.jsonl');
});

else describe('chat template oracle (not available)', () => {
  it('says plainly that the oracle comparison did not run', () => {
    console.warn(sharedMissingNote('chat template oracle'));
    expect(existsSync(sharedPath('oracles'))).toBe(false);
  });
});

/** True when python3 with Jinja2 can run render.py here. */
const HAVE_JINJA2 = HAVE_SHARED && spawnSync('python3', ['-c', 'import jinja2'], { stdio: 'ignore' }).status === 0;
const CASES = join(ROOT, 'test/cases/chat-template');

/** Render every case file of test/cases/chat-template with render.py: name → the expected file's text. */
function renderCaseFiles(): Map<string, { file: string; text: string }> {
  const names = readdirSync(CASES).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
  // composed as text, so the number text of each file reaches Python as written (a raw newline
  // can only be whitespace in JSON, so joining lines is safe)
  const lines = names.map((n) => {
    const text = readFileSync(join(CASES, `${n}.json`), 'utf8').trim().replace(/\n/g, ' ');
    return n.startsWith('prompt-') ? `{"id": ${JSON.stringify(n)}, ${text.slice(1)}` : `{"id": ${JSON.stringify(n)}, "tools": ${text}}`;
  });
  const dir = mkdtempSync(join(tmpdir(), 'chat-template-'));
  try {
    writeFileSync(join(dir, 'in.jsonl'), `${lines.join('\n')}\n`);
    const r = spawnSync('python3', [sharedPath('oracles/chat-template/render.py'), join(dir, 'in.jsonl'), join(dir, 'out.jsonl')], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`render.py failed: ${r.stderr}`);
    const out = new Map<string, { file: string; text: string }>();
    for (const row of readJsonlPlain<Row>(join(dir, 'out.jsonl'))) {
      if (row.error !== undefined) out.set(row.id, { file: `${row.id}.error.txt`, text: row.error });
      else if (row.id.startsWith('prompt-')) out.set(row.id, { file: `${row.id}.txt`, text: row.prompt! });
      else {
        const p = row.prompt!;
        const open = '<|start|>developer<|message|>';
        out.set(row.id, { file: `${row.id}.txt`, text: p.slice(p.indexOf(open) + open.length, p.lastIndexOf('<|end|><|start|>user<|message|>hi<|end|>')) });
      }
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (HAVE_JINJA2) describe('chat template case files', () => {
  it('every expected file in test/cases/chat-template is what render.py prints today', () => {
    const rendered = renderCaseFiles();
    for (const [name, want] of rendered) {
      const path = join(CASES, want.file);
      expect(existsSync(path), `${name}: ${want.file}`).toBe(true);
      expect(readFileSync(path, 'utf8'), want.file).toBe(want.text);
    }
    console.log(`chat-template case files: ${rendered.size}/${rendered.size} agree with render.py`);
  });
});

else describe('chat template case files (render.py not available)', () => {
  it('says plainly that the case files were not re-rendered', () => {
    console.warn('chat template case files: ../shared/oracles or python3 with Jinja2 not found; test/cases/chat-template was NOT re-checked against render.py');
    expect(HAVE_JINJA2).toBe(false);
  });
});
