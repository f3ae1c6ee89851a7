/**
 * The hand-written printers kept beside the engine (src/emit/families/registry.ts) against the
 * engine running the same family's official template: byte-equal on every case of
 * ../shared/oracles/families (corpus-single, corpus-groups, synthetic-visible), a printer raising
 * exactly where the engine raises; and the same over text conversations of our own (user,
 * assistant, system and tool turns). The printers stay only while this holds and the bench
 * (bench/template.mjs) measures them faster. The API's first turn of these families is the
 * printer's: the same bytes and errors as the engine's (`renderPrompt` beside `renderWithTemplate`).
 */
import { describe, expect, it } from 'vitest';
import { compileTools, readTools, type CompiledTools } from '../../src/api/compile.js';
import { renderPart, renderPrompt } from '../../src/api/render.js';
import { renderWithTemplate, templateCatalog } from '../../src/api/template.js';
import { readMessages } from '../../src/api/conversation.js';
import { FAMILY_PRINTERS } from '../../src/emit/families/registry.js';
import type { FamilyMessage } from '../../src/emit/families/types.js';
import { firstLoneSurrogate } from '../../src/emit/python/errors.js';
import { isCompileError } from '../../src/diagnostics.js';
import { modelFamily } from '../../src/models/families.js';
import { TEMPLATES, type TemplateName } from '../../src/models/templates/index.js';
import { FAMILY_SETS, outcome } from '../support/families.js';
import { HAVE_SHARED, readOracleCases, sharedMissingNote, sharedPath } from '../support/shared.js';

const DATE = { year: 2025, month: 8, day: 5 };

/** The engine running the family's official template (no printer anywhere on this path). */
function engine(name: string, tools: CompiledTools, instructions: string | undefined, messages?: readonly FamilyMessage[]): string {
  const f = modelFamily(name)!;
  const conversation = messages !== undefined ? readMessages(messages.map((m) => ({ ...m }))).conversation : undefined;
  return renderWithTemplate({
    template: { text: TEMPLATES[f.template as TemplateName].text, name: `the ${name} chat template`, special: f.special },
    tools,
    ...(instructions !== undefined ? { instructions } : {}),
    ...(conversation !== undefined ? { conversation } : {}),
    server: 'transformers',
    date: DATE,
    findings: false,
  }).text;
}

describe('the kept printers', () => {
  it('each prints a family whose official template is shipped, and is found by its name', () => {
    expect(FAMILY_PRINTERS.map((p) => p.name)).toEqual(['mistral-nemo', 'kimi-k2', 'minimax-m2', 'functionary-3.2', 'gemma-4', 'command-r-plus', 'seed-oss']);
    for (const p of FAMILY_PRINTERS) expect(modelFamily(p.name)?.name).toBe(p.name);
  });
});

if (HAVE_SHARED) {
  describe('kept printers = the engine on every oracle case (first turn)', () => {
    for (const printer of FAMILY_PRINTERS) {
      it(`${printer.name}: printer, API and engine agree on every case of every set`, () => {
        const lines: string[] = [];
        for (const [set, inputs] of FAMILY_SETS) {
          const cases = readOracleCases(sharedPath(inputs));
          let same = 0;
          let raised = 0;
          const differ: string[] = [];
          for (const c of cases) {
            if (typeof c.raw === 'string') continue;
            let tools: CompiledTools;
            try {
              tools = compileTools(readTools(c.tools));
            } catch (e) {
              if (isCompileError(e)) continue; // refused by the reader before any template runs
              throw e;
            }
            const want = outcome(() => engine(printer.name, tools, c.instructions));
            const printed = outcome(() => printer.prompt(tools.definitions, { date: '2025-08-05', ...(c.instructions !== undefined ? { instructions: c.instructions } : {}) }));
            const api = outcome(() => renderPrompt({ model: printer.name, tools, date: '2025-08-05', ...(c.instructions !== undefined ? { instructions: c.instructions } : {}) }).text);
            // the printer raises where the engine raises (a lone surrogate is the caller's to refuse), else the same bytes
            const printerOk = want.error !== undefined ? printed.error !== undefined || (printed.text !== undefined && firstLoneSurrogate(printed.text) !== undefined) : printed.text === want.text;
            if (printerOk && api.text === want.text && api.error === want.error) same++;
            else differ.push(c.id);
            if (want.error !== undefined) raised++;
          }
          lines.push(`fast path ${printer.name} ${set}: ${same}/${same + differ.length} the same as the engine (${raised} raise on both)`);
          expect(differ, `${printer.name} ${set}`).toEqual([]);
        }
        console.log(lines.join('\n'));
      });
    }
  });
} else {
  describe('kept printers = the engine on every oracle case (not available)', () => {
    it('says plainly that the comparison did not run', () => {
      console.warn(sharedMissingNote('kept printers vs the engine'));
      expect(HAVE_SHARED).toBe(false);
    });
  });
}

/** Text conversations of our own (no oracle needed): each role, a system message first or later, an empty text. */
const CONVERSATIONS: readonly (readonly FamilyMessage[])[] = [
  [{ role: 'user', content: 'hi' }],
  [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'What is the weather?' }],
  [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'user', content: 'c' }],
  [{ role: 'user', content: 'weather?' }, { role: 'assistant', content: 'calling' }, { role: 'tool', content: '{"temp": 21}' }, { role: 'assistant', content: 'It is 21.' }, { role: 'user', content: 'thanks' }],
  [{ role: 'user', content: '  spaced  ' }, { role: 'assistant', content: '' }, { role: 'user', content: 'again' }],
  [{ role: 'assistant', content: 'first' }],
  [{ role: 'user', content: 'x' }, { role: 'system', content: 'late system' }, { role: 'user', content: 'y' }],
];

const TOOLS = compileTools(readTools(JSON.stringify([
  { name: 'get_weather', description: 'Weather for a city.', parameters: { type: 'object', properties: { city: { type: 'string', description: 'City name' }, days: { type: 'integer', description: 'Forecast days', default: 1 } }, required: ['city'] } },
  { name: 'ping', description: 'No arguments.', parameters: { type: 'object', properties: {} } },
])));

describe('kept printers = the engine over text conversations', () => {
  for (const printer of FAMILY_PRINTERS) {
    it(`${printer.name}: ${CONVERSATIONS.length} conversations × with and without tools × with and without instructions`, () => {
      let same = 0;
      const differ: string[] = [];
      for (const [i, messages] of CONVERSATIONS.entries()) {
        for (const tools of [TOOLS, compileTools(readTools('[]'))]) {
          for (const instructions of [undefined, 'You are terse.']) {
            const want = outcome(() => engine(printer.name, tools, instructions, messages));
            const got = outcome(() => printer.prompt(tools.definitions, { messages, date: '2025-08-05', ...(instructions !== undefined ? { instructions } : {}) }));
            const ok = want.error !== undefined ? got.error !== undefined : got.text === want.text;
            if (ok) same++;
            else differ.push(`conversation ${i}, ${tools.definitions.length} tools, instructions ${instructions !== undefined}`);
          }
        }
      }
      expect(differ).toEqual([]);
      expect(same).toBe(CONVERSATIONS.length * 4);
    });
  }
});

describe('kept printers = the engine for the catalog part (the span the tools add)', () => {
  for (const printer of FAMILY_PRINTERS) {
    it(`${printer.name}: --part catalog through the printer is the engine's span; the no-tools prompt (the span's other half) is the engine's or both raise`, () => {
      const f = modelFamily(printer.name)!;
      const none = compileTools(readTools('[]'));
      const want = outcome(() => engine(printer.name, none, undefined));
      const got = outcome(() => printer.prompt([], { date: '2025-08-05' }));
      if (want.error !== undefined) expect(got.error).toBeDefined();
      else expect(got.text).toBe(want.text);
      const span = templateCatalog({ template: { text: TEMPLATES[f.template as TemplateName].text, name: `the ${printer.name} chat template`, special: f.special }, tools: TOOLS, server: 'transformers', date: DATE }).text;
      expect(span).not.toBe('');
      // the catalog is the span without instructions (a catalog option does not include them)
      for (const instructions of [undefined, 'You are terse.']) {
        expect(renderPart(TOOLS, { model: printer.name, part: 'catalog', date: '2025-08-05', ...(instructions !== undefined ? { instructions } : {}) }).text).toBe(span);
      }
    });
  }
});

describe('the catalog span of a template that raises without tools', () => {
  it('is taken against the prompt with an empty list of tools (a loop over None raises, over [] does not)', () => {
    const template = { text: '{% for t in tools %}[{{ t.function.name }}]{% endfor %}hi' };
    expect(() => renderPrompt({ template, tools: [] })).toThrow(/'NoneType' object is not iterable/);
    expect(renderPart(TOOLS, { template, part: 'catalog' }).text).toBe('[get_weather][ping]');
    // a template that raises on an empty list too: its error, as before
    const strict = { text: '{% if not tools %}{{ raise_exception("tools needed") }}{% endif %}{% for t in tools %}[{{ t.function.name }}]{% endfor %}' };
    expect(() => renderPart(TOOLS, { template: strict, part: 'catalog' })).toThrow(/tools needed/);
  });
});
