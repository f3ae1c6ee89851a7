/**
 * The Kimi K2 grammar of vLLM's parser engine (`vllm/parser/kimi_k2.py`, `KimiK2Parser`) as
 * `vllm/tool_parsers/kimi_k2_tool_parser.py` (`kimi_k2`) runs it, at commit
 * 93e3bc8f30b1e135b88a2ffc7f219e3428d39293:
 *
 *     <|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{…}<|tool_call_end|><|tool_calls_section_end|>
 *
 * - a call only inside a section; the header (`functions.NAME:IDX`, up to
 *   `<|tool_call_argument_begin|>`) gives the name: the text before the first `:` of
 *   `.+:\d+` (first line, stripped), less `functions.`; a header without `:digits` gives no
 *   name, and then a `"name": "…"` in the arguments does
 * - everything after the section's start is never content again (the parser stays in a tool
 *   state, and text after a call is dropped when a call name was sent)
 * - `<think>` in content stays text, `</think>` is swallowed
 * - arguments: the raw text between `<|tool_call_argument_begin|>` and `<|tool_call_end|>`
 *   (or `<|tool_calls_section_end|>`), stripped, `{}` when empty, then coerced to the schema
 *   when it is a JSON object; invalid JSON is returned as written
 * - content keeps its whitespace (not stripped), only-whitespace content is dropped
 */
import type { EngineGrammar, EngineSlot } from './engine.js';
import { pyStrip } from '../../xml/python-values.js';

// Unicode decimal digits: the regex module's \d on str
const DIGIT = /\p{Nd}/u;

/** `KimiK2Parser._extract_tool_id_and_name(header)`: the name of `_TOOL_ID_RE.match(header.strip())` (`(?P<id>.+:\d+)`), or null. */
export function kimiToolName(header: string | null): string | null {
  if (header === null) return null;
  const s = pyStrip(header);
  // `.` stops at a newline: the match lies in the first line
  const nl = s.indexOf('\n');
  const line = nl < 0 ? s : s.slice(0, nl);
  // greedy `.+` then `:\d+`: the last ':' (not the first character) followed by a digit
  let colon = -1;
  for (let j = line.length - 1; j >= 1; j--) {
    if (line[j] === ':' && DIGIT.test(String.fromCodePoint(line.codePointAt(j + 1) ?? 0))) {
      colon = j;
      break;
    }
  }
  if (colon < 0) return null;
  const id = pyStrip(line.slice(0, colon + 1));
  const first = id.split(':')[0];
  return first.startsWith('functions.') ? first.slice('functions.'.length) : first;
}

/** `kimi_k2_config(thinking=True)` with `KimiK2Parser`'s overrides. */
export const KIMI_K2_GRAMMAR: EngineGrammar = {
  name: 'kimi_k2',
  terminals: {
    THINK_START: '<think>',
    THINK_END: '</think>',
    TOOL_SECTION_START: '<|tool_calls_section_begin|>',
    TOOL_SECTION_END: '<|tool_calls_section_end|>',
    TOOL_START: '<|tool_call_begin|>',
    TOOL_END: '<|tool_call_end|>',
    ARG_START: '<|tool_call_argument_begin|>',
  },
  transitions: [
    ['REASONING', 'THINK_START', 'REASONING', []],
    ['REASONING', 'THINK_END', 'CONTENT', ['REASONING_END']],
    ['CONTENT', 'THINK_END', 'CONTENT', []],
    ['REASONING', 'TOOL_SECTION_START', 'TOOL_PREAMBLE', ['REASONING_END']],
    ['CONTENT', 'TOOL_SECTION_START', 'TOOL_PREAMBLE', []],
    ['TOOL_PREAMBLE', 'TOOL_START', 'TOOL_NAME', ['TOOL_CALL_START']],
    ['TOOL_NAME', 'ARG_START', 'TOOL_ARGS', []],
    ['TOOL_ARGS', 'TOOL_END', 'TOOL_BETWEEN', ['TOOL_CALL_END']],
    ['TOOL_ARGS', 'TOOL_SECTION_END', 'TOOL_PREAMBLE', ['TOOL_CALL_END']],
    ['TOOL_BETWEEN', 'TOOL_START', 'TOOL_NAME', ['TOOL_CALL_START']],
    ['TOOL_PREAMBLE', 'TOOL_SECTION_END', 'TOOL_PREAMBLE', []],
    ['TOOL_BETWEEN', 'TOOL_SECTION_END', 'TOOL_PREAMBLE', []],
  ],
  toolArgsJson: true,
  stripContentWhitespaceWithTools: false,
  emitName: (slot: EngineSlot, name, base) => {
    const toolName = kimiToolName(name);
    if (!toolName) {
      slot.name = '';
      return;
    }
    base(toolName);
  },
  beforeToolEnd: (slot) => {
    if (slot.nameSent) return;
    const toolName = kimiToolName(slot.name);
    if (toolName) slot.name = toolName;
  },
  extractArgsJson: (raw) => pyStrip(raw) || '{}',
  callClosers: ['TOOL_END'],
  callCloseText: '<|tool_call_end|>',
  blockOpeners: ['TOOL_SECTION_START'],
  blockClosers: ['TOOL_SECTION_END'],
  blockCloseText: '<|tool_calls_section_end|>',
};
