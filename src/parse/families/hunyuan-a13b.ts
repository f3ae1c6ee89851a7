/**
 * Hunyuan A13B: tool calls as one JSON array inside `<tool_calls>…</tool_calls>`,
 * `<tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris"}}, …]</tool_calls>`
 * (vLLM's `examples/tool_chat_template_hunyuan_a13b.jinja`); a reply without calls starts with
 * `助手：`. The model reasons in `<think>…</think>` and may wrap the answer in
 * `<answer>…</answer>` (vLLM's hunyuan_a13b reasoning parser; split off before `read`).
 *
 * vLLM `vllm/tool_parsers/hunyuan_a13b_tool_parser.py` (commit {@link VLLM_COMMIT}), `extract_tool_calls`:
 * - each `<tool_calls>…</tool_calls>` in turn (the first `</tool_calls>` closes it; unclosed: none),
 *   skipping one that lies strictly inside a `<think>…</think>`; the first whose stripped body
 *   `json.loads` reads is the block, the text before it the content;
 * - no such block: no calls, the text as content with its first `助手：` removed;
 * - a block that is no list: no calls, the content (or the whole text when that is empty);
 * - each item an object with `name` and `arguments` gives a call (others skipped): an object's
 *   arguments through `json.dumps(…, ensure_ascii=False)`, a string's as is; a name or arguments
 *   of another type fails pydantic's check, and then (as on any exception) no calls and the whole
 *   text as content;
 * - `tools_called` only when a call came; content null when empty or only whitespace.
 */
import type { DialectParse } from '../xml/draft.js';
import { PyDict, PythonException, pyStrip, pythonJsonDumps, pythonJsonLoads, type PyValue } from '../xml/python-values.js';
import type { ParseTool } from '../xml/tools.js';
import { nameArgumentsElement, pydanticStr, readArrayCalls, type ArrayCallSyntax } from './mistral.js';
import { VLLM_COMMIT, type FamilySyntax, type ParserResult, type ServerCall, type ServerParserEntry } from './types.js';

const OPEN = '<tool_calls>';
const CLOSE = '</tool_calls>';
const THINK = '<think>';
const THINK_END = '</think>';

/** `re.finditer(r"<think>(.*?)</think>", text, re.DOTALL)` spans, in order. */
function thinkRegions(text: string): [number, number][] {
  const out: [number, number][] = [];
  let pos = 0;
  for (;;) {
    const s = text.indexOf(THINK, pos);
    if (s < 0) break;
    const e = text.indexOf(THINK_END, s + THINK.length);
    if (e < 0) break;
    out.push([s, e + THINK_END.length]);
    pos = e + THINK_END.length;
  }
  return out;
}

/** `preprocess_model_output`: the content before the first block that is JSON, and its parsed body. */
function firstJsonBlock(text: string): { content: string; value: PyValue } | undefined {
  const regions = thinkRegions(text);
  let r = 0;
  let pos = 0;
  for (;;) {
    const start = text.indexOf(OPEN, pos);
    if (start < 0) return undefined;
    const c = text.indexOf(CLOSE, start + OPEN.length);
    if (c < 0) return undefined;
    const end = c + CLOSE.length;
    pos = end;
    // the regions are disjoint and in order: only the last one opening before `start` can hold the block
    while (r + 1 < regions.length && regions[r + 1][0] < start) r++;
    const inThink = regions.length > 0 && regions[r][0] < start && end < regions[r][1];
    if (inThink) continue;
    try {
      return { content: text.slice(0, start), value: pythonJsonLoads(pyStrip(text.slice(start + OPEN.length, c))) };
    } catch (e) {
      if (!(e instanceof PythonException)) throw e;
    }
  }
}

/** vLLM's Hunyuan A13B `extract_tool_calls`. */
export function vllmHunyuanA13b(text: string): ParserResult {
  const block = firstJsonBlock(text);
  if (block === undefined) return { content: text === '' ? text : text.replace('助手：', ''), tool_calls: [], tools_called: false };
  const { content, value } = block;
  if (!(value !== null && typeof value === 'object' && value.t === 'list')) return { content: content !== '' ? content : text, tool_calls: [], tools_called: false };
  try {
    const calls: ServerCall[] = [];
    for (const call of value.items) {
      if (!(call instanceof PyDict) || !call.has('name') || !call.has('arguments')) continue;
      const args = call.get('arguments')!;
      const name = pydanticStr('FunctionCall', 'name', call.get('name')!);
      calls.push({ name, arguments: args instanceof PyDict ? pythonJsonDumps(args) : pydanticStr('FunctionCall', 'arguments', args) });
    }
    return { content: pyStrip(content) === '' ? null : content, tool_calls: calls, tools_called: calls.length > 0 };
  } catch (e) {
    if (e instanceof PythonException) return { content: text, tool_calls: [], tools_called: false };
    throw e;
  }
}

const HUNYUAN_SYNTAX: ArrayCallSyntax = { open: OPEN, close: CLOSE, element: nameArgumentsElement([]) };

/** Read Hunyuan A13B output strictly: every `<tool_calls>[{"name": …, "arguments": {…}}, …]</tool_calls>` block. */
export function readHunyuanA13b(text: string, tools: readonly ParseTool[] | undefined): DialectParse {
  return readArrayCalls(text, tools, HUNYUAN_SYNTAX);
}

export const SYNTAXES: readonly FamilySyntax[] = [
  {
    name: 'hunyuan-a13b',
    example: '<tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris"}}]</tool_calls>',
    openers: [OPEN],
    controls: [OPEN, CLOSE, THINK, THINK_END, '<answer>', '</answer>', '<tool_response>', '</tool_response>', '<|eos|>', '<|extra_0|>', '<|extra_4|>', '<|startoftext|>'],
    read: readHunyuanA13b,
  },
];

export const SERVER_PARSERS: readonly ServerParserEntry[] = [
  {
    server: 'vllm',
    name: 'hunyuan_a13b',
    file: 'vllm/tool_parsers/hunyuan_a13b_tool_parser.py',
    commit: VLLM_COMMIT,
    parse: (text) => vllmHunyuanA13b(text),
  },
];
