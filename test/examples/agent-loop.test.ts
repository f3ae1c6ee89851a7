/** The shipped conversation examples: the agent loop runs end to end, and each completion's committed parse is what `parse` prints. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { ROOT } from '../support/shared.js';

describe('examples', () => {
  it('examples/agent-loop.mjs: render → parse → check → run → render, to the final answer', () => {
    // the example imports the package by name ('harmony-catalog': its exports, the built dist/lib/), as a user's script would
    if (!existsSync(join(ROOT, 'dist/lib/index.js'))) execFileSync('npm', ['run', 'build'], { cwd: ROOT });
    const out = execFileSync(process.execPath, [join(ROOT, 'examples/agent-loop.mjs')], { cwd: ROOT, encoding: 'utf8' });
    expect(out).toContain('call: get_location({}) → {"city":"Lisbon, Portugal"}');
    expect(out).toContain('call: get_current_weather({"location": "Lisbon, Portugal", "format": "celsius"})');
    // the third prompt ends with the weather result, named after its call as vLLM names it
    expect(out).toContain('_current_weather to=assistant<|channel|>commentary<|message|>{"location":"Lisbon, Portugal","temperature":17,"conditions":"light rain"}<|end|><|start|>assistant');
    expect(out.trimEnd().endsWith('answer: Yes. It is raining lightly in Lisbon today (17 °C), so take an umbrella.')).toBe(true);
  });

  it('examples/family-agent-loop.mjs: the same loop for Qwen3 (vLLM\'s hand-off to its template, its own call syntax read back)', () => {
    if (!existsSync(join(ROOT, 'dist/lib/index.js'))) execFileSync('npm', ['run', 'build'], { cwd: ROOT });
    const out = execFileSync(process.execPath, [join(ROOT, 'examples/family-agent-loop.mjs')], { cwd: ROOT, encoding: 'utf8' });
    expect(out).toContain('reasoning: I need the user\'s location first.');
    expect(out).toContain('call: get_location({}) → {"city":"Lisbon, Portugal"}');
    expect(out).toContain('call: get_current_weather({"location": "Lisbon, Portugal", "format": "celsius"})');
    // the third prompt: the call as Qwen3's template prints it from the history, then its result
    expect(out).toContain('"celsius"}}\n</tool_call><|im_end|>\n<|im_start|>user\n<tool_response>\n{"location":"Lisbon, Portugal","temperature":17,"conditions":"light rain"}\n</tool_response><|im_end|>\n<|im_start|>assistant\n');
    expect(out.trimEnd().endsWith('Yes. It is raining lightly in Lisbon today (17 °C), so take an umbrella.')).toBe(true);
    // no diagnostics: the calls are whole and valid for the tools
    expect(out).not.toMatch(/^(error|warning) \[/m);
  });

  for (const name of ['completion-call', 'completion-call-2', 'completion-final']) {
    it(`examples/${name}.parsed.json is what \`parse\` prints for examples/${name}.txt`, async () => {
      const r = await runCli(['parse', join(ROOT, `examples/${name}.txt`)]);
      expect(r.code).toBe(0);
      expect(r.out).toBe(readFileSync(join(ROOT, `examples/${name}.parsed.json`), 'utf8'));
    });
  }
});
