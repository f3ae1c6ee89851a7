/**
 * The project's own openai-harmony cases: one input under test/cases/harmony, one expected
 * developer message under snapshots/harmony (each reviewed by hand against the rules of
 * spec harmony-format.md; they cover every rule without ../shared).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderDeveloperMessage, renderPrompt, renderSystemMessage } from '../src/index.js';
import { ROOT } from './support/shared.js';

const dir = join(ROOT, 'test/cases/harmony');
const cases = readdirSync(dir).filter((f) => f.endsWith('.json'));

describe('openai-harmony printer: own cases', () => {
  it.each(cases)('%s', async (file) => {
    const text = renderDeveloperMessage(readFileSync(join(dir, file), 'utf8')).text;
    await expect(text).toMatchFileSnapshot(join(ROOT, 'snapshots/harmony', file.replace(/\.json$/, '.txt')));
  });
  it('has a case for every rule family', () => {
    expect(cases.length).toBeGreaterThanOrEqual(10);
  });
});

describe('messages', () => {
  const tools = '[{"name":"f","description":"d"}]';
  it('system: defaults, date, effort and the routing line only with function tools', () => {
    expect(renderSystemMessage().text).toBe(
      'You are ChatGPT, a large language model trained by OpenAI.\nKnowledge cutoff: 2024-06\n\nReasoning: medium\n\n# Valid channels: analysis, commentary, final. Channel must be included for every message.',
    );
    const p = renderPrompt({ tools, date: '2025-01-02', effort: 'low', identity: 'I am X.', cutoff: '2023-01' });
    expect(p.system).toBe("I am X.\nKnowledge cutoff: 2023-01\nCurrent date: 2025-01-02\n\nReasoning: low\n\n# Valid channels: analysis, commentary, final. Channel must be included for every message.\nCalls to these tools must go to the commentary channel: 'functions'.");
    expect(renderPrompt({ tools, namespace: 'other' }).system).not.toContain('Calls to these tools');
    expect(renderPrompt({ tools: '[]' }).system).not.toContain('Calls to these tools');
  });
  it('developer: instructions heading even when empty, no developer message without tools or instructions', () => {
    expect(renderDeveloperMessage(tools, { instructions: '' }).text).toBe('# Instructions\n\n\n\n# Tools\n\n## functions\n\nnamespace functions {\n\n// d\ntype f = () => any;\n\n} // namespace functions');
    expect(renderPrompt({ tools: '[]', completion: 'assistant' }).text).toBe(`<|start|>system<|message|>${renderSystemMessage().text}<|end|><|start|>assistant`);
  });
  it('a custom namespace with a description writes // lines under its heading', () => {
    expect(renderDeveloperMessage(tools, { namespace: 'crm', namespaceDescription: 'CRM tools.\nUse with care.' }).text).toBe(
      '# Tools\n\n## crm\n\n// CRM tools.\n// Use with care.\nnamespace crm {\n\n// d\ntype f = () => any;\n\n} // namespace crm',
    );
  });
  it('response formats follow instructions and tools (documented layout, beyond the reference)', () => {
    const d = renderDeveloperMessage(tools, { responseFormats: [{ name: 'shopping_list', description: 'A list.', schema: { type: 'object', properties: { items: { type: 'array' } } } }] }).text;
    expect(d.endsWith('\n\n# Response Formats\n\n## shopping_list\n\n// A list.\n{"type":"object","properties":{"items":{"type":"array"}}}')).toBe(true);
  });
  it('browser and python builtins go to the system message, in name order', () => {
    const s = renderSystemMessage({ python: true, browser: true }).text;
    expect(s.indexOf('## browser')).toBeGreaterThan(0);
    expect(s.indexOf('## browser')).toBeLessThan(s.indexOf('## python'));
    expect(s).toContain('type open = (_: {\nid?: number | string, // default: -1\n');
    expect(s).toContain('## python\n\nUse this tool to execute Python code');
  });
  it('conversation: messages follow, tool calls end with <|call|>, completion prompt last', () => {
    const p = renderPrompt({
      tools,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', channel: 'commentary', recipient: 'functions.f', contentType: '<|constrain|>json', content: '{}' },
        { role: 'tool', name: 'functions.f', recipient: 'assistant', channel: 'commentary', content: '"ok"' },
      ],
      completion: 'assistant',
    }).text;
    expect(p.endsWith('<|start|>user<|message|>hi<|end|><|start|>assistant to=functions.f<|channel|>commentary <|constrain|>json<|message|>{}<|call|><|start|>functions.f to=assistant<|channel|>commentary<|message|>"ok"<|end|><|start|>assistant')).toBe(true);
  });
});
