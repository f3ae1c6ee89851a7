/**
 * Differential test of the template engine against ../shared/oracles/family-conversations: the
 * 25 official templates over whole agent conversations, as two servers hand them to the
 * template. `transformers.jsonl`: the case's messages and tools exactly as inputs.jsonl gives
 * them. `vllm.jsonl`: the messages and tools vLLM's preprocessing made (vllm-template-inputs.jsonl),
 * in the content format `detectContentFormat` picks for the template (checked against the
 * README's table); rows where vLLM refused the request before any template ran are counted apart
 * ("request errors, not the engine's"). Each set prints `<template> <set>: N/M exact`; the exact
 * counts are asserted.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileTemplate, detectContentFormat, type TemplateValue } from '../../src/template/index.js';
import { HAVE_SHARED, sharedMissingNote, sharedPath } from '../support/shared.js';
import { field, readPythonJsonl, readRows, renderOutcome, report, sameOutcome } from './support.js';

const LLAMA3 = { bos_token: '<|begin_of_text|>' };
const MISTRAL = { bos_token: '<s>', eos_token: '</s>', unk_token: '<unk>' };
const COHERE = { bos_token: '<BOS_TOKEN>' };
const QWEN = { eos_token: '<|im_end|>', pad_token: '<|endoftext|>' };

/** Each template: where its file is, the special tokens it is given, and the content format the README's table says vLLM picks. */
const TEMPLATES: readonly { name: string; file: string; special: Readonly<Record<string, string>>; format: 'string' | 'openai' }[] = [
  { name: 'meta-llama-Llama-3.1-8B-Instruct', file: 'families', special: LLAMA3, format: 'string' },
  { name: 'meta-llama-Llama-3.2-3B-Instruct', file: 'families', special: LLAMA3, format: 'string' },
  { name: 'meta-llama-Llama-4-Scout-17B-16E-Instruct', file: 'families', special: { bos_token: '<|begin_of_text|>' }, format: 'openai' },
  { name: 'mistralai-Mistral-Nemo-Instruct-2407', file: 'families', special: MISTRAL, format: 'string' },
  { name: 'mistralai-Ministral-3-14B-Reasoning-2512', file: 'families', special: MISTRAL, format: 'openai' },
  { name: 'moonshotai-Kimi-K2-Instruct', file: 'families', special: {}, format: 'openai' },
  { name: 'moonshotai-Kimi-K2-Thinking', file: 'families', special: {}, format: 'string' },
  { name: 'zai-org-GLM-4.6', file: 'families', special: {}, format: 'openai' },
  { name: 'zai-org-GLM-4.7-Flash', file: 'families', special: {}, format: 'openai' },
  { name: 'MiniMaxAI-MiniMax-M2', file: 'families', special: {}, format: 'openai' },
  { name: 'meetkai-functionary-medium-v3.2', file: 'families', special: LLAMA3, format: 'string' },
  { name: 'meetkai-functionary-medium-v3.1', file: 'families', special: LLAMA3, format: 'string' },
  { name: 'CohereForAI-c4ai-command-r7b-12-2024-tool_use', file: 'families', special: COHERE, format: 'string' },
  { name: 'CohereForAI-c4ai-command-r-plus-tool_use', file: 'families', special: COHERE, format: 'string' },
  { name: 'ibm-granite-granite-3.3-2B-Instruct', file: 'families', special: {}, format: 'string' },
  { name: 'ibm-granite-granite-4.0', file: 'families', special: {}, format: 'openai' },
  { name: 'NVIDIA-Nemotron-Nano-v2', file: 'families', special: {}, format: 'string' },
  { name: 'ByteDance-Seed-OSS', file: 'families', special: {}, format: 'string' },
  { name: 'google-gemma-4-31B-it', file: 'families', special: { bos_token: '<bos>' }, format: 'openai' },
  { name: 'deepseek-ai-DeepSeek-V3.1', file: 'families', special: { bos_token: '<｜begin▁of▁sentence｜>' }, format: 'string' },
  { name: 'Qwen-Qwen3-0.6B', file: 'families', special: {}, format: 'string' },
  { name: 'microsoft-Phi-4-mini-instruct', file: 'families', special: {}, format: 'string' },
  { name: 'Qwen-Qwen2.5-7B-Instruct', file: 'xml', special: QWEN, format: 'string' },
  { name: 'Qwen3-Coder', file: 'xml', special: QWEN, format: 'string' },
  { name: 'NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use', file: 'xml', special: { bos_token: '<|begin_of_text|>', eos_token: '<|im_end|>' }, format: 'string' },
];

/** Rows the engine does not match, by template, set and id, with the reason. */
const KNOWN: Readonly<Record<string, Readonly<Record<string, string>>>> = {};

/** The exact count of each template and set where it is not every row. */
const EXPECTED: Readonly<Record<string, number>> = {};

function templateText(t: (typeof TEMPLATES)[number]): string {
  return readFileSync(t.file === 'families' ? sharedPath('oracles/families', t.name, 'template.jinja') : sharedPath('oracles/xml/templates', `${t.name}.jinja`), 'utf8');
}

/** The template's variables: messages, tools (None when absent), the generation prompt, the special tokens; `documents=None` as transformers passes it. */
function vars(messages: TemplateValue, tools: TemplateValue | undefined, special: Readonly<Record<string, string>>, documents: boolean): Map<string, TemplateValue> {
  const v = new Map<string, TemplateValue>([
    ['messages', messages],
    ['tools', tools ?? null],
  ]);
  if (documents) v.set('documents', null);
  v.set('add_generation_prompt', true);
  for (const [k, x] of Object.entries(special)) v.set(k, x);
  return v;
}

if (!HAVE_SHARED) {
  describe('template engine vs oracles/family-conversations', () => {
    it('did not run: the oracles are absent', () => {
      console.warn(sharedMissingNote('template engine vs oracles/family-conversations'));
    });
  });
} else {
  const dir = 'oracles/family-conversations';
  const inputs = readPythonJsonl(sharedPath(dir, 'inputs.jsonl'));
  const vllmInputs = new Map(readPythonJsonl(sharedPath(dir, 'vllm-template-inputs.jsonl')).map((r) => [field(r, 'id') as string, r]));

  describe('detectContentFormat agrees with the README table (vLLM --chat-template-content-format auto)', () => {
    for (const t of TEMPLATES) {
      it(t.name, () => {
        expect(detectContentFormat(compileTemplate(templateText(t)).ast)).toBe(t.format);
      });
    }
  });

  describe('template engine vs oracles/family-conversations', () => {
    for (const t of TEMPLATES) {
      const text = templateText(t);
      it(`${t.name} transformers`, () => {
        const rows = readRows(sharedPath(dir, t.name, 'transformers.jsonl'));
        const known = KNOWN[`${t.name} transformers`] ?? {};
        let exact = 0;
        const knownHere: [string, string][] = [];
        const unexplained: string[] = [];
        rows.forEach((row, i) => {
          const c = inputs[i];
          expect(field(c, 'id')).toBe(row.id);
          const got = renderOutcome(text, vars(field(c, 'messages') as TemplateValue, field(c, 'tools'), t.special, true));
          if (sameOutcome(row, got)) exact++;
          else if (row.id in known) knownHere.push([row.id, known[row.id]]);
          else unexplained.push(`${row.id}: want ${JSON.stringify(row.error ?? row.prompt).slice(0, 400)}\n   got ${JSON.stringify(got.error ?? got.prompt).slice(0, 400)}`);
        });
        console.log(report(t.name, 'transformers', exact, rows.length, knownHere));
        expect(unexplained).toEqual([]);
        expect(exact).toBe(EXPECTED[`${t.name} transformers`] ?? rows.length);
      });

      it(`${t.name} vllm`, () => {
        const rows = readRows(sharedPath(dir, t.name, 'vllm.jsonl'));
        const format = detectContentFormat(compileTemplate(text).ast);
        const known = KNOWN[`${t.name} vllm`] ?? {};
        let exact = 0;
        let requestErrors = 0;
        const knownHere: [string, string][] = [];
        const unexplained: string[] = [];
        for (const row of rows) {
          const handed = field(vllmInputs.get(row.id) as TemplateValue, format) as TemplateValue;
          const refused = field(handed, 'error');
          if (refused !== undefined) {
            // vLLM refused the request before the template: not the engine's to render
            expect(row.error).toBe(refused);
            requestErrors++;
            continue;
          }
          // vLLM hands only add_generation_prompt besides messages and tools (documents=None is dropped)
          const got = renderOutcome(text, vars(field(handed, 'messages') as TemplateValue, field(handed, 'tools'), t.special, false));
          if (sameOutcome(row, got)) exact++;
          else if (row.id in known) knownHere.push([row.id, known[row.id]]);
          else unexplained.push(`${row.id}: want ${JSON.stringify(row.error ?? row.prompt).slice(0, 400)}\n   got ${JSON.stringify(got.error ?? got.prompt).slice(0, 400)}`);
        }
        console.log(`${report(t.name, 'vllm', exact, rows.length - requestErrors, knownHere)} (+${requestErrors} request errors, not the engine's)`);
        expect(unexplained).toEqual([]);
        expect(exact).toBe(EXPECTED[`${t.name} vllm`] ?? rows.length - requestErrors);
      });
    }
  });
}
