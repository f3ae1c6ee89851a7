/**
 * `lint --template FILE` (and LintOptions.template): each tool read as the given chat template
 * prints it, flavor `template`: where the template raises on a tool, and each description it does
 * not print, at the JSON Pointer of that description in the input.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lintTools, LINT_RULES, severityOf } from '../../src/lint/index.js';
import { runCli } from '../support/cli.js';
import { ROOT } from '../support/shared.js';

const weather = join(ROOT, 'examples/weather.json');
const weatherText = readFileSync(weather, 'utf8');
const tmp = mkdtempSync(join(tmpdir(), 'hc-lint-template-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// prints each tool's name and its parameters with their descriptions, never the tool's own description
const PARAMS_ONLY = '{%- if tools %}{% for t in tools %}<tool name="{{ t.function.name }}">{% if t.function.parameters %}{% for k, p in t.function.parameters.properties.items() %}{{ k }}: {{ p.type }}{% if p.description %} -- {{ p.description }}{% endif %};{% endfor %}{% endif %}</tool>\n{% endfor %}{% endif %}{% for m in messages %}[{{ m.role }}] {{ m.content }}\n{% endfor %}';
// raises on a tool without parameters (Jinja2: an undefined attribute has no items())
const NEEDS_PARAMS = '{%- if tools %}{% for t in tools %}{{ t.function.name }}({% for k in t.function.parameters.properties.keys() %}{{ k }} {% endfor %}) -- {{ t.function.description }}\n{% endfor %}{% endif %}{% for m in messages %}{{ m.content }}{% endfor %}';
const JSON_ALL = '{%- if tools %}{% for t in tools %}{{ t | tojson }}\n{% endfor %}{% endif %}{% for m in messages %}{{ m.content }}{% endfor %}';

function templateFile(name: string, text: string): string {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
}

describe('lint under a given template (flavor "template")', () => {
  it('a description the template does not print: lint/dropped-description at its pointer; those it prints: nothing', () => {
    const r = lintTools(weatherText, { template: { text: PARAMS_ONLY, name: 'the template params.jinja' } });
    expect(r.findings.map((f) => [f.code, f.severity, f.path, f.flavor])).toEqual([
      ['lint/dropped-description', 'warning', '/0/function/description', 'template'],
      ['lint/dropped-description', 'warning', '/1/function/description', 'template'],
    ]);
    expect(r.findings[0]!.message).toBe('the template params.jinja does not print this description: the model never sees it');
    // a template that prints the whole tool drops nothing
    expect(lintTools(weatherText, { template: { text: JSON_ALL } }).findings).toEqual([]);
  });

  it('a template that raises on a tool: lint/template-error, an error, at the tool', () => {
    const r = lintTools(weatherText, { template: { text: NEEDS_PARAMS, name: 'the template needs.jinja' } });
    expect(r.findings.map((f) => [f.code, f.severity, f.path, f.tool])).toEqual([
      // it prints the parameter names, not their descriptions
      ['lint/dropped-description', 'warning', '/0/function/parameters/properties/location/description', 'get_current_weather'],
      ['lint/dropped-description', 'warning', '/0/function/parameters/properties/days/description', 'get_current_weather'],
      ['lint/template-error', 'error', '/1', 'get_location'],
    ]);
    expect(r.findings[2]!.message).toMatch(/^the template needs\.jinja fails on this tool \(Jinja2: UndefinedError: /);
  });

  it('the gpt-oss flavors are read too when asked; the codes and severities are the rules\'', () => {
    const r = lintTools(weatherText, { template: { text: PARAMS_ONLY }, flavors: ['openai-harmony'] });
    expect(new Set(r.findings.map((f) => f.flavor))).toEqual(new Set(['openai-harmony', 'template']));
    for (const f of r.findings.filter((x) => x.flavor === 'template')) {
      expect(LINT_RULES[f.code as keyof typeof LINT_RULES].flavors).toContain('template');
      expect(f.severity).toBe(severityOf(f.code as keyof typeof LINT_RULES, 'template'));
    }
  });
});

describe('harmony-catalog lint --template', () => {
  it('prints the template findings, and exits 1 on a template error', async () => {
    const params = templateFile('params.jinja', PARAMS_ONLY);
    const r = await runCli(['lint', weather, '--template', params]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('  /0/function/description  warning  lint/dropped-description  [template]  the template params.jinja does not print this description');
    expect(r.out.trimEnd().split('\n').at(-1)).toBe('0 errors, 2 warnings, 0 infos in 2 tools (template)');
    const needs = templateFile('needs.jinja', NEEDS_PARAMS);
    const e = await runCli(['lint', weather, '--template', needs, '--format', 'json']);
    expect(e.code).toBe(1);
    const j = JSON.parse(e.out) as { flavors: string[]; findings: { code: string }[] };
    expect(j.flavors).toEqual(['template']);
    expect(j.findings.map((f) => f.code)).toEqual(['lint/dropped-description', 'lint/dropped-description', 'lint/template-error']);
  });

  it('a model folder with --special; --flavor adds a gpt-oss flavor; --special alone is a usage error', async () => {
    const folder = join(tmp, 'Model');
    mkdirSync(folder);
    writeFileSync(join(folder, 'chat_template.jinja'), `{{ bos_token }}${PARAMS_ONLY}`);
    const r = await runCli(['lint', weather, '--template', folder, '--special', 'bos_token=<s>', '--flavor', 'chat-template', '--format', 'json']);
    const j = JSON.parse(r.out) as { flavors: string[]; findings: { flavor: string }[] };
    expect(j.flavors).toEqual(['chat-template', 'template']);
    expect(new Set(j.findings.map((f) => f.flavor))).toEqual(new Set(['chat-template', 'template']));
    const bad = await runCli(['lint', weather, '--special', 'bos_token=<s>']);
    expect(bad.code).toBe(2);
    const missing = await runCli(['lint', weather, '--template', join(tmp, 'nope.jinja')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('--template: no such file or folder');
  });

  it('dump --template lists the template\'s findings for each tool', async () => {
    const r = await runCli(['dump', weather, '--template', templateFile('p2.jinja', PARAMS_ONLY), '--format', 'json'], { env: { HF_HUB_CACHE: tmp } });
    const j = JSON.parse(r.out) as { tools: { findings: { code: string; flavor: string }[] }[] };
    expect(j.tools.map((t) => t.findings.map((f) => `${f.code} ${f.flavor}`))).toEqual([['lint/dropped-description template'], ['lint/dropped-description template']]);
  });
});
