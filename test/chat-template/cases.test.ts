/**
 * File cases of the chat-template flavor: test/cases/chat-template/.
 *
 * - `<name>.json`: bare tools `[{name, description, parameters}]`; `<name>.txt` is the developer
 *   message content the official template renders for them (or `<name>.error.txt`: the error
 *   Jinja2 raises).
 * - `prompt-<name>.json`: the template's keyword arguments (`messages`, `tools`,
 *   `reasoning_effort`, `model_identity`, `builtin_tools`, `add_generation_prompt`);
 *   `prompt-<name>.txt` is the whole rendered prompt (or `.error.txt`).
 *
 * Every expected file was made by ../shared/oracles/chat-template/render.py (Python Jinja2,
 * date 2025-08-05) from the JSON next to it, not written by hand: a tools file as
 * `{"id", "tools"}` (the developer content cut from between `<|start|>developer<|message|>`
 * and the `<|end|>` before `<|start|>user`), a prompt file as `{"id", ...kwargs}`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CompileError } from '../../src/diagnostics.js';
import { getKey, isJsonArray, isJsonObject, parseJson, type JsonValue } from '../../src/ir/json.js';
import { renderChatTemplateDeveloper, renderChatTemplatePrompt, type ChatTemplateMessage } from '../../src/messages/chat-template.js';
import { loweredBareTools, ROOT } from '../support/shared.js';

const DIR = join(ROOT, 'test/cases/chat-template');

const toolsOf = loweredBareTools;

/** Render one case file: the developer content for a tools file, the whole prompt for a prompt file. */
function renderCase(name: string, input: JsonValue): string {
  if (!name.startsWith('prompt-')) return renderChatTemplateDeveloper(toolsOf(isJsonArray(input) ? input : [])).text;
  const kw = (k: string) => getKey(input, k);
  const tools = kw('tools');
  const messages = kw('messages');
  const effort = kw('reasoning_effort');
  const identity = kw('model_identity');
  const builtins = kw('builtin_tools');
  return renderChatTemplatePrompt({
    // the template's tools are OpenAI-wrapped: {type: "function", function: {...}}
    tools: toolsOf(isJsonArray(tools) ? tools.map((t) => getKey(t, 'function') ?? t) : []),
    messages: isJsonArray(messages) ? messages.map((m) => (isJsonObject(m) ? (Object.fromEntries(m) as unknown as ChatTemplateMessage) : (m as unknown as ChatTemplateMessage))) : [],
    ...(typeof effort === 'string' ? { effort } : {}),
    ...(typeof identity === 'string' ? { identity } : {}),
    ...(isJsonArray(builtins) ? { builtinTools: builtins.filter((b): b is string => typeof b === 'string') } : {}),
    addGenerationPrompt: kw('add_generation_prompt') === true,
    date: '2025-08-05',
  }).text;
}

const names = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -'.json'.length))
  .sort();

describe('chat-template case files (expected text from render.py)', () => {
  it('has the cases', () => {
    expect(names.length).toBeGreaterThanOrEqual(70);
  });
  for (const name of names) {
    const input = parseJson(readFileSync(join(DIR, `${name}.json`), 'utf8'));
    const files = readdirSync(DIR);
    if (files.includes(`${name}.txt`)) {
      it(`${name}: renders byte for byte`, () => {
        expect(renderCase(name, input)).toBe(readFileSync(join(DIR, `${name}.txt`), 'utf8'));
      });
    } else {
      it(`${name}: fails as Jinja2 does`, () => {
        const want = readFileSync(join(DIR, `${name}.error.txt`), 'utf8');
        let error: unknown;
        try {
          renderCase(name, input);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(CompileError);
        const first = (error as CompileError).diagnostics.find((d) => d.severity === 'error');
        expect(first?.code).toBe('chat-template/fails');
        expect(first?.message).toContain(`(Jinja2: ${want})`);
      });
    }
  }
});
