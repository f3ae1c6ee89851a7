/**
 * Whole-prompt cases under test/cases/xml, runnable without ../shared. The qwen, qwen3-coder and
 * hermes expectations were generated with the shared oracle's render.py environment
 * (test/cases/xml/generate.py: the official templates in Python Jinja2, as transformers renders
 * them); the anthropic ones were written and checked by hand (no template exists).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCompileError } from '../../src/diagnostics.js';
import { getKey, isJsonArray, type JsonValue } from '../../src/ir/json.js';
import { renderXmlPrompt, XML_DIALECTS, type XmlMessage } from '../../src/emit/xml/index.js';
import { ROOT, bareTool, readJsonl } from '../support/shared.js';

const DIR = join(ROOT, 'test/cases/xml');

interface Case {
  readonly id: string;
  readonly tools: readonly JsonValue[];
  readonly instructions?: string;
  readonly messages?: readonly XmlMessage[];
  readonly addGenerationPrompt?: boolean;
}

function readCases(): Case[] {
  return readJsonl(join(DIR, 'cases.jsonl')).map((v) => {
    const tools = getKey(v, 'tools');
    const instructions = getKey(v, 'instructions');
    const messages = getKey(v, 'messages');
    const gen = getKey(v, 'add_generation_prompt');
    return {
      id: String(getKey(v, 'id')),
      tools: isJsonArray(tools) ? tools : [],
      ...(typeof instructions === 'string' ? { instructions } : {}),
      ...(isJsonArray(messages) ? { messages: messages.map((m) => ({ role: String(getKey(m, 'role')), content: String(getKey(m, 'content')) })) } : {}),
      ...(typeof gen === 'boolean' ? { addGenerationPrompt: gen } : {}),
    };
  });
}

const cases = readCases();

describe('xml whole-prompt cases (test/cases/xml)', () => {
  for (const dialect of XML_DIALECTS) {
    for (const c of cases) {
      const textFile = join(DIR, `${c.id}.${dialect}.txt`);
      const errorFile = join(DIR, `${c.id}.${dialect}.error.txt`);
      // every case has a rendering for each template dialect; anthropic only where one was written by hand
      if (dialect === 'anthropic' && !existsSync(textFile)) continue;
      it(`${dialect} ${c.id}`, () => {
        const run = () =>
          renderXmlPrompt({
            tools: c.tools.map((t, i) => bareTool(t, i)),
            dialect,
            ...(c.instructions !== undefined ? { instructions: c.instructions } : {}),
            ...(c.messages ? { messages: c.messages } : {}),
            ...(c.addGenerationPrompt !== undefined ? { addGenerationPrompt: c.addGenerationPrompt } : {}),
          }).text;
        if (existsSync(errorFile)) {
          const python = readFileSync(errorFile, 'utf8');
          let error: unknown;
          try {
            run();
          } catch (e) {
            error = e;
          }
          expect(isCompileError(error), `${c.id} should fail as the template does: ${python}`).toBe(true);
          if (!isCompileError(error)) return;
          expect(error.diagnostics[0].code).toBe('xml/template-fails');
          // the message names the Python exception the template raised
          expect(error.message).toContain(python.slice(0, python.indexOf(':')));
        } else {
          expect(existsSync(textFile), `${textFile} exists`).toBe(true);
          expect(run()).toBe(readFileSync(textFile, 'utf8'));
        }
      });
    }
  }
});
