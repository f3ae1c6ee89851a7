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
