/** Build: a module source exporting an AI SDK tool record with a zod schema, and an output that renders a conversation through a server. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { renderPrompt } from '../../src/api/render.js';
import { runCli } from '../support/cli.js';
import { ROOT } from '../support/shared.js';

// one folder for the suite, removed after it (each run left an hc-build-* folder behind)
const dir = mkdtempSync(join(tmpdir(), 'hc-build-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('build', () => {
  it('reads zod schemas in an AI SDK record and renders a conversation output as the server builds it', async () => {
    const zod = pathToFileURL(join(ROOT, 'node_modules/zod/index.js')).href;
    writeFileSync(join(dir, 'tools.mjs'), `import { z } from ${JSON.stringify(zod)};\nexport const tools = { get_weather: { description: 'Get the weather', inputSchema: z.object({ city: z.string().describe('City') }) } };\n`);
    const messages = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
    ];
    writeFileSync(
      join(dir, 'harmony-catalog.config.json'),
      JSON.stringify({ sources: [{ module: './tools.mjs' }], outputs: [{ path: 'catalog.txt', part: 'catalog' }, { path: 'conv.txt', date: '2025-08-05', server: 'vllm', messages }] }),
    );
    const r = await runCli(['build', '--config', join(dir, 'harmony-catalog.config.json')]);
    expect(r.code, r.err).toBe(0);
    const catalog = readFileSync(join(dir, 'catalog.txt'), 'utf8');
    expect(catalog).toContain('type get_weather = (_: {\n// City\ncity: string,\n}) => any;');
    const tools = [{ name: 'get_weather', description: 'Get the weather', parameters: { type: 'object', properties: { city: { type: 'string', description: 'City' } }, required: ['city'] } }];
    expect(readFileSync(join(dir, 'conv.txt'), 'utf8')).toBe(renderPrompt({ tools, messages, server: 'vllm', date: '2025-08-05' }).text);
  });
});
