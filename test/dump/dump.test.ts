import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderPart } from '../../src/index.js';
import { inventory } from '../../src/inventory.js';
import { countMessageTokens, countPromptTokens, countTextTokens } from '../../src/tokens.js';
import { ROOT } from '../support/shared.js';
import { runCli } from '../support/cli.js';

const weather = join(ROOT, 'examples/weather.json');
const weatherText = readFileSync(weather, 'utf8');
const calendar = join(ROOT, 'examples/build/tools/calendar.json');

const HEAD =
  'tool                 params  tokens  findings\n' +
  'get_current_weather       3      69         1\n' +
  'get_location              0      15         0\n' +
  '\n' +
  '2 tools; tokens (o200k_harmony): system 64, developer 101, catalog 97; the whole prompt 165\n' +
  '(messages counted whole, <|start|> to <|end|>; catalog text outside any tool: 13)\n';
// the lint's words are its own: only the start of each finding line is checked here
const FINDINGS = '\nfindings:\n  info [lint/dropped-constraint] tool "get_current_weather" at /0/function/parameters/properties/days: ';
const DAYS_FINDING = { code: 'lint/dropped-constraint', severity: 'info', tool: 'get_current_weather', path: '/0/function/parameters/properties/days', flavor: 'openai-harmony' };

describe('harmony-catalog dump', () => {
  it('prints one row per tool and the totals', async () => {
    const r = await runCli(['dump', weather]);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out.startsWith(HEAD + FINDINGS)).toBe(true);
    expect(r.out.split('\n').filter((l) => l.startsWith('  '))).toHaveLength(1);
  });

  it('totals are whole messages: the developer total is the count of the message render prints', async () => {
    const dev = renderPart(weatherText, { part: 'developer' }).text;
    const sys = renderPart(weatherText, { part: 'system' }).text;
    const inv = await inventory(weatherText);
    expect(inv.totals.developer).toBe(countMessageTokens({ header: 'developer', content: dev }));
    expect(inv.totals.system).toBe(countMessageTokens({ header: 'system', content: sys }));
    // the whole prompt's count takes the developer message's count from above: it equals a count of its own
    expect(inv.totals.prompt).toBe(countPromptTokens(inv.prompt!));
    const withMessages = await inventory(weatherText, { instructions: 'Be brief.', messages: [{ role: 'user', content: 'Weather in Paris?' }] });
    expect(withMessages.prompt).toContain('Weather in Paris?');
    expect(withMessages.totals.prompt).toBe(countPromptTokens(withMessages.prompt!));
    expect(withMessages.totals.prompt).toBeGreaterThan(inv.totals.prompt! + 3);
    // shares add up: every token of the catalog is a tool's or the catalog's own
    const catalog = renderPart(weatherText, { part: 'catalog' }).text;
    expect(inv.totals.catalog).toBe(countTextTokens(catalog));
    expect(inv.tools.reduce((a, t) => a + t.tokens, 0)).toBeLessThanOrEqual(inv.totals.catalog);
    expect(inv.totals.developer).toBe(inv.totals.catalog + 4); // <|start|>developer<|message|> … <|end|>
  });

  it('--format json prints {tools: [{name, parameters, tokens, findings}], totals: {system, developer, catalog}, tokenizer, diagnostics}', async () => {
    const r = await runCli(['dump', weather, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({
      tools: [
        { name: 'get_current_weather', parameters: 3, tokens: 69, findings: [expect.objectContaining(DAYS_FINDING)] },
        { name: 'get_location', parameters: 0, tokens: 15, findings: [] },
      ],
      // with no conversation, the whole prompt is the two messages: 64 + 101
      totals: { system: 64, developer: 101, catalog: 97, prompt: 165 },
      // gpt-oss's own tokenizer, built in: exact
      tokenizer: { name: 'o200k_harmony', from: 'builtin', exact: true },
      diagnostics: [],
    });
    expect(Object.keys((JSON.parse(r.out) as { tools: { findings: object[] }[] }).tools[0].findings[0]).sort()).toEqual(['code', 'flavor', 'message', 'path', 'severity', 'tool']);
    const shown = JSON.parse((await runCli(['dump', weather, '--format', 'json', '--show'])).out) as { tools: { text: string }[] };
    expect(shown.tools[1].text).toBe('\n\n// Gets the location of the user.\ntype get_location = () => any;');
  });

  it('--format markdown prints a table, and with --show a fenced block per tool', async () => {
    const r = await runCli(['dump', weather, '--format', 'markdown', '--show']);
    expect(r.code).toBe(0);
    expect(r.out.startsWith(
      '| tool | parameters | tokens | findings |\n| --- | ---: | ---: | ---: |\n| get_current_weather | 3 | 69 | 1 |\n| get_location | 0 | 15 | 0 |\n\n' +
        '**Totals** (o200k_harmony tokens): system 64 · developer 101 · catalog 97 · the whole prompt 165\n\n' +
        '**Findings**\n\n- info [lint/dropped-constraint] tool "get_current_weather" at /0/function/parameters/properties/days: ',
    )).toBe(true);
    expect(r.out.slice(r.out.indexOf('\n\n### '))).toBe(
      '\n\n### get_current_weather (69 tokens)\n\n```\n// Gets the current weather in the provided location.\ntype get_current_weather = (_: {\n// The city and state, e.g. San Francisco, CA\nlocation: string,\nformat?: "celsius" | "fahrenheit", // default: celsius\n// Forecast days\ndays?: number, // default: 1\n}) => any;\n```\n\n' +
        '### get_location (15 tokens)\n\n```\n// Gets the location of the user.\ntype get_location = () => any;\n```\n',
    );
  });

  it('--sort tokens puts the largest first; --sort name by name; default: input order', async () => {
    const rows = async (...a: string[]) => (JSON.parse((await runCli(['dump', calendar, '--format', 'json', ...a])).out) as { tools: { name: string; tokens: number }[] }).tools;
    expect((await rows()).map((t) => t.name)).toEqual(['list_events', 'create_event']);
    const byTokens = await rows('--sort', 'tokens');
    expect(byTokens.map((t) => t.tokens)).toEqual([...byTokens.map((t) => t.tokens)].sort((a, b) => b - a));
    expect((await rows('--sort', 'name')).map((t) => t.name)).toEqual(['create_event', 'list_events']);
  });

  it('--show prints each tool rendering under the table', async () => {
    const r = await runCli(['dump', weather, '--show']);
    expect(r.out.startsWith(HEAD)).toBe(true);
    expect(r.out).toContain('\n── get_location (15 tokens) ──\n// Gets the location of the user.\ntype get_location = () => any;\n');
  });

  it('colours only on a terminal, never with NO_COLOR', async () => {
    const esc = '\u001b[';
    expect((await runCli(['dump', weather], { isTTY: true })).out).toContain(esc);
    expect((await runCli(['dump', weather], { isTTY: true, env: { NO_COLOR: '1' } })).out).not.toContain(esc);
    expect((await runCli(['dump', weather], { isTTY: false })).out).not.toContain(esc);
    expect((await runCli(['dump', weather], { isTTY: true, env: { NO_COLOR: '' } })).out).toContain(esc); // empty: not set (no-color.org)
    expect((await runCli(['dump', weather, '--format', 'json'], { isTTY: true })).out).not.toContain(esc);
    const plain = (await runCli(['dump', weather], { isTTY: true })).out.replace(/\u001b\[\d+m/g, '');
    expect(plain).toBe((await runCli(['dump', weather])).out);
  });

  it('--max-tokens: exit 1 over the budget (the table is still printed), 0 within it', async () => {
    const over = await runCli(['dump', weather, '--max-tokens', '96']);
    expect(over.code).toBe(1);
    expect(over.out.startsWith(HEAD)).toBe(true);
    expect(over.err).toBe('harmony-catalog: over budget: the catalog is 97 tokens, more than --max-tokens 96\n');
    expect((await runCli(['dump', weather, '--max-tokens', '97'])).code).toBe(0);
  });

  it('render options apply as in render', async () => {
    const totals = async (...a: string[]) => (JSON.parse((await runCli(['dump', weather, '--format', 'json', ...a])).out) as { totals: Record<string, number> }).totals;
    const base = await totals();
    const instr = await totals('--instructions', 'Answer in French.');
    expect(instr.catalog).toBe(base.catalog);
    expect(instr.developer).toBe(
      countMessageTokens({ header: 'developer', content: renderPart(weatherText, { part: 'developer', instructions: 'Answer in French.' }).text }),
    );
    const ns = await totals('--namespace', 'weather_service_tools');
    expect(ns.catalog).toBeGreaterThan(base.catalog);
    const browser = await totals('--browser');
    expect(browser.system).toBeGreaterThan(base.system);
    expect(browser.developer).toBe(base.developer);
    const ct = await totals('--flavor', 'chat-template', '--date', '2025-08-05');
    expect(ct.system).toBe(countMessageTokens({ header: 'system', content: renderPart(weatherText, { part: 'system', flavor: 'chat-template', date: '2025-08-05', messages: [{ role: 'user', content: 'hi' }] }).text }));
    const xml = await totals('--target', 'xml');
    // the xml templates have no system or developer message of their own: only the catalog (its share of the prompt) and the prompt
    expect(Object.keys(xml)).toEqual(['catalog', 'prompt']);
    expect(Math.abs(xml.catalog - countTextTokens(renderPart(weatherText, { part: 'catalog', target: 'xml' }).text))).toBeLessThanOrEqual(1);
    expect(xml.prompt).toBe(countTextTokens(renderPart(weatherText, { part: 'prompt', target: 'xml' }).text));
    const bad = await runCli(['dump', weather, '--target', 'yaml']);
    expect(bad.code).toBe(2);
  });

  it('findings are the lint\'s for the flavor rendered; none for targets lint does not read', async () => {
    const findings = async (...a: string[]) =>
      (JSON.parse((await runCli(['dump', join(ROOT, 'examples/build/tools/tickets.json'), '--format', 'json', ...a])).out) as { tools: { findings: { code: string; flavor: string; path: string }[] }[] }).tools[0].findings;
    expect(await findings('--flavor', 'chat-template')).toEqual([expect.objectContaining({ code: 'lint/type-list-drops-schema', flavor: 'chat-template', path: '/0/input_schema/properties/cabin/type' })]);
    expect((await findings()).every((f) => f.flavor === 'openai-harmony')).toBe(true);
    expect(await findings('--target', 'xml')).toEqual([]);
    // a Gemini declaration is linted where it is in the input
    const gemini = JSON.stringify({ functionDeclarations: [{ name: 'g', parameters: { type: 'OBJECT', properties: { d: { type: 'STRING', format: 'date-time' } } } }] });
    const g = JSON.parse((await runCli(['dump', '-', '--format', 'json'], { stdin: gemini })).out) as { tools: { findings: { path: string }[] }[] };
    expect(g.tools[0].findings.map((f) => f.path)).toEqual(['/functionDeclarations/0/parameters/properties/d']);
  });

  it('reads standard input with -', async () => {
    const r = await runCli(['dump', '-'], { stdin: weatherText });
    expect(r.out).toBe((await runCli(['dump', weather])).out);
  });

  it.each([
    [['dump', weather, '--sort', 'size'], /--sort must be one of input, tokens, name, not "size"/],
    [['dump', weather, '--format', 'yaml'], /--format must be one of text, json, markdown/],
    [['dump', weather, '--max-tokens', 'ten'], /--max-tokens must be a whole number/],
    [['dump', weather, weather], /dump takes one input, got 2/],
    [['dump'], /missing input/],
    [['dump', weather, '--mcp', 'node x.js'], /give either a file or --mcp, not both/],
    [['dump', '--part', 'catalog', weather], /unknown option --part\n/],
    // an unknown option near a known one says which (issue 22, item 17)
    [['dump', weather, '--tokeniser', 'x'], /unknown option --tokeniser \(did you mean --tokenizer\?\)/],
    [['dump', weather, '--max-token', '5'], /unknown option --max-token \(did you mean --max-tokens\?\)/],
  ])('usage error %j', async (argv, message) => {
    const r = await runCli(argv);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.out).toBe('');
  });

  it('tools that cannot be rendered: the problems, exit 1', async () => {
    const r = await runCli(['dump', '-'], { stdin: '[{"name": "a", "parameters": 5}' });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^error \[input\/not-json\]/);
    expect(r.out).toBe('');
  });

  it('--help', async () => {
    const r = await runCli(['dump', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Usage: harmony-catalog dump <file\|-\|--mcp "command args">/);
  });
});
