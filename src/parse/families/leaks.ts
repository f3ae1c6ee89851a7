/**
 * Leaks in a family's output: what a model writes that is not its own to write.
 *
 * - `leak/fabricated-tool-result` (error): the output holds the opening of a tool result as the
 *   family's template writes it (`<tool_response>`, `<|start_header_id|>ipython`,
 *   `<｜tool▁output▁begin｜>`, `[TOOL_RESULTS]`…): the model wrote the result itself, and what
 *   follows must not be believed.
 * - `leak/fabricated-turn` (error): the opening of a user or system turn (`<|im_start|>user`,
 *   `[INST]`, `<|user|>`…): the model went on writing the next turn.
 * - `leak/control-token-in-content` (warning): one of the family's control strings (its special
 *   tokens and the markers its format and parsers read) in the content the reading returns: a
 *   server's tokenizer reads it as a token, and it is no text of the answer.
 *
 * The openings are those the official templates print (test/parse/families/leaks.test.ts renders a
 * conversation through each template and finds each one before the tool result or the next turn).
 */
import type { Diagnostic } from '../../diagnostics.js';
import { MODEL_FAMILIES } from '../../models/families.js';
import { byteOffset } from '../xml/draft.js';
import { familyControls, familyParser, type FamilyParseResult } from './index.js';

/** What opens a tool result and another turn in one family's prompt. */
export interface LeakMarkers {
  /** What opens a tool result (any one of them). */
  readonly results: readonly string[];
  /** What opens a user or system turn. */
  readonly turns: readonly string[];
}

const LLAMA3: LeakMarkers = { results: ['<|start_header_id|>ipython', '<|start_header_id|>tool'], turns: ['<|start_header_id|>user', '<|start_header_id|>system'] };
const QWEN: LeakMarkers = { results: ['<tool_response>', '<|im_start|>tool'], turns: ['<|im_start|>user', '<|im_start|>system'] };
const MISTRAL: LeakMarkers = { results: ['[TOOL_RESULTS]'], turns: ['[INST]', '[SYSTEM_PROMPT]'] };
const GLM: LeakMarkers = { results: ['<|observation|>', '<tool_response>'], turns: ['<|user|>', '<|system|>'] };
const GRANITE: LeakMarkers = { results: ['<|start_of_role|>tool'], turns: ['<|start_of_role|>user', '<|start_of_role|>system'] };
const COHERE_TURNS = ['<|START_OF_TURN_TOKEN|><|USER_TOKEN|>'];

/** Each family's leak markers, by `--model` name. */
export const LEAK_MARKERS: Readonly<Record<string, LeakMarkers>> = {
  'llama-3.1': LLAMA3,
  'llama-3.2': LLAMA3,
  'functionary-3.1': LLAMA3,
  'functionary-3.2': LLAMA3,
  'llama-4': { results: ['<|header_start|>ipython', '<|header_start|>tool'], turns: ['<|header_start|>user', '<|header_start|>system'] },
  'mistral-nemo': MISTRAL,
  'ministral-3': MISTRAL,
  'granite-3.3': GRANITE,
  'granite-4.0': { results: [...GRANITE.results, '<tool_response>'], turns: GRANITE.turns },
  'kimi-k2': { results: ['<|im_system|>tool'], turns: ['<|im_user|>', '<|im_system|>system'] },
  'kimi-k2-thinking': { results: ['<|im_system|>tool'], turns: ['<|im_user|>', '<|im_system|>system'] },
  'glm-4.6': GLM,
  'glm-4.7': GLM,
  'minimax-m2': { results: [']~b]tool'], turns: [']~b]user', ']~b]system'] },
  'nemotron-nano-2': { results: ['<TOOL_RESPONSE>'], turns: ['<SPECIAL_11>User', '<SPECIAL_10>System'] },
  'gemma-4': { results: ['<|tool_response>'], turns: ['<|turn>user', '<|turn>system'] },
  'command-r7b': { results: ['<|START_TOOL_RESULT|>'], turns: COHERE_TURNS },
  'command-r-plus': { results: ['<results>'], turns: COHERE_TURNS },
  'seed-oss': { results: ['<seed:bos>tool'], turns: ['<seed:bos>user', '<seed:bos>system'] },
  'deepseek-v3.1': { results: ['<｜tool▁output▁begin｜>', '<｜tool▁outputs▁begin｜>'], turns: ['<｜User｜>'] },
  qwen3: QWEN,
  qwen: QWEN,
  hermes: QWEN,
  'qwen3-coder': QWEN,
  'phi-4-mini': { results: ['<|tool|>', '<|tool_response|>'], turns: ['<|user|>', '<|system|>'] },
};

function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

/** The first place (at or after `from`) where one of `markers` occurs, and which. */
function firstMarker(text: string, markers: readonly string[], from = 0): { at: number; marker: string } | undefined {
  let best: { at: number; marker: string } | undefined;
  for (const m of markers) {
    const at = text.indexOf(m, from);
    if (at >= 0 && (best === undefined || at < best.at)) best = { at, marker: m };
  }
  return best;
}

/**
 * The leaks of one output read as `model`'s (a family name; undefined when only a server parser
 * was named): a fabricated tool result or turn anywhere in the text, and the family's control
 * strings in the content returned.
 */
export function familyLeaks(text: string, reading: FamilyParseResult, model: string | undefined): Diagnostic[] {
  if (model === undefined) return [];
  const out: Diagnostic[] = [];
  const markers = LEAK_MARKERS[model];
  if (markers) {
    const r = firstMarker(text, markers.results);
    if (r) out.push({ code: 'leak/fabricated-tool-result', severity: 'error', path: `/text#${r.at}`, message: `the output writes a tool result itself (${JSON.stringify(r.marker)} at byte ${byteOffset(text, r.at)}: ${JSON.stringify(clip(text.slice(r.at)))}): what follows is the model's invention, not a tool's answer` });
    const t = firstMarker(text, markers.turns);
    if (t) out.push({ code: 'leak/fabricated-turn', severity: 'error', path: `/text#${t.at}`, message: `the output opens another turn (${JSON.stringify(t.marker)} at byte ${byteOffset(text, t.at)}): the model went on writing a turn that is not its own` });
  }
  const content = reading.content;
  if (content !== null && familyParser(model) !== undefined) {
    const special = Object.values(MODEL_FAMILIES.find((f) => f.name === model)?.special ?? {});
    const controls = [...new Set([...familyControls(model), ...special])].filter((c) => c.length > 1);
    const found = firstMarker(content, controls);
    if (found) out.push({ code: 'leak/control-token-in-content', severity: 'warning', path: '/content', message: `the content holds ${JSON.stringify(found.marker)}, a control string of ${model} (its servers' tokenizers read it as a token): no text of the answer` });
  }
  return out;
}
