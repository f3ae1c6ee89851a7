/**
 * The repo's own examples kept as catalog snapshots with `harmony-catalog/vitest`:
 * snapshots/examples/<test name>.<ext> (.txt harmony, .d.ts jsdoc, .xml xml), one per tool set and target.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { setup } from '../../src/testing/vitest.js';
import { ROOT } from '../support/shared.js';

setup();

const example = (path: string) => readFileSync(join(ROOT, 'examples', path), 'utf8');

it('weather', async () => {
  await expect(example('weather.json')).toMatchCatalogSnapshot();
});

it('weather jsdoc', async () => {
  await expect(example('weather.json')).toMatchCatalogSnapshot({ target: 'jsdoc' });
});

it('weather xml', async () => {
  await expect(example('weather.json')).toMatchCatalogSnapshot({ target: 'xml' });
});

it('weather chat-template flavor', async () => {
  await expect(example('weather.json')).toMatchCatalogSnapshot({ flavor: 'chat-template' });
});

it('calendar and tickets', async () => {
  // two tool sets in one test: each its own file (the second gets -2)
  await expect(example('build/tools/calendar.json')).toMatchCatalogSnapshot();
  await expect(example('build/tools/tickets.json')).toMatchCatalogSnapshot();
});

it('build example developer message', async () => {
  await expect(example('weather.json')).toMatchCatalogSnapshot({ part: 'developer', instructions: 'You are a helpful assistant for a travel desk.', file: 'examples/weather-developer.txt' });
});

it('weather ollama flavor', async () => {
  // reviewed against Ollama's gpt-oss template rules (docs/targets.md shows the same text)
  const text = await import('../../src/api/render.js').then((m) => m.renderCatalog(example('weather.json'), { flavor: 'ollama' }).text);
  expect(readFileSync(join(ROOT, 'docs/targets.md'), 'utf8')).toContain(text);
  await expect(example('weather.json')).toMatchCatalogSnapshot({ flavor: 'ollama' });
});

it('agent loop, as each server renders the conversation', async () => {
  const { renderRequest } = await import('../../src/api/render.js');
  for (const server of ['vllm', 'llama.cpp', 'mlx-lm', 'ollama'] as const) {
    const text = renderRequest(example('agent-loop.json'), { server, date: '2025-08-05' }).text;
    // the README shows the conversation part of each, one message a line
    const shown = text.slice(text.indexOf('<|start|>user')).replaceAll('<|start|>', '\n<|start|>').trim();
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(shown);
  }
});

it('weather llama-3.1 model', async () => {
  // the catalog of a family is the span its official template's tools add (the engine, checked against the oracles); the matcher takes `model` as render does
  await expect(example('weather.json')).toMatchCatalogSnapshot({ model: 'llama-3.1' });
});
