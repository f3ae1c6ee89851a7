/**
 * Hermes / Qwen2.5 / Qwen3 tool calls: `<tool_call>\n{"name": NAME, "arguments": {…}}\n</tool_call>`
 * (models/templates/hermes.ts, qwen2.5.ts, qwen3.ts). Reasoning (Qwen3) is `<think>…</think>`
 * before the calls, split off by the caller.
 *
 * vLLM `hermes` (`vllm/tool_parsers/hermes_tool_parser.py`) at {@link VLLM_COMMIT}: its
 * non-streaming `extract_tool_calls` is the same code as at 02bb669b, so ../xml/vllm-hermes.ts
 * (`vllmHermes(text, false)`) is that behaviour:
 * - each `<tool_call>` to the first `</tool_call>` (or to the end), every body through `json.loads`
 * - any exception (bad JSON, no `name`/`arguments`, a name that is no string) drops every call
 *   and returns the whole output as content; content is the text before the first `<tool_call>`
 *
 * SGLang `qwen25` (`python/sglang/srt/function_call/qwen25_detector.py`) at {@link SGLANG_COMMIT}:
 * - a call is `<tool_call>\n` up to the first `\n</tool_call>` after it; a call never closed is none
 * - each body stripped through `json.loads`; a body that is no JSON is skipped, any other
 *   exception (a body that is no object: `'int' object has no attribute 'get'`, a list name:
 *   unhashable) leaves the parser (the server then returns the text unchanged)
 * - content is the text before the first `<tool_call>\n`, stripped
 *
 * SGLang `hermes` (`python/sglang/srt/function_call/hermes_detector.py`):
 * - each `<tool_call>` to the first `</tool_call>` (or to the end), empty bodies skipped, each
 *   body stripped through `json.loads`; any exception gives no calls and the whole text
 * - content is the text before the first `<tool_call>`, stripped
 *
 * Both SGLang detectors go through `parse_base_json`: a JSON list is several calls; a call whose
 * name is empty or names no tool of the request is dropped; the arguments are `parameters` when
 * that is truthy, else `arguments` (default `{}`), `json.dumps(…, ensure_ascii=False)`.
 *
 * The strict reading is ../xml/hermes.ts `parseJsonCalls`; a `</tool_call>` right after a call
 * that closes no block is left out of the content with a `parse/stray-close-tag` warning.
 */
import { incompleteReason } from '../completeness.js';
import { withStrayCloses } from '../xml/draft.js';
import { parseJsonCalls } from '../xml/hermes.js';
import { PyDict, PythonException, pythonJsonDumps, pythonJsonLoads, pyStrip, pyTypeName, type PyValue } from '../xml/python-values.js';
import type { ParseTool } from '../xml/tools.js';
import { hermesToolCallBodies, vllmHermes } from '../xml/vllm-hermes.js';
import { SGLANG_COMMIT, VLLM_COMMIT, type FamilySyntax, type ParserResult, type ServerCall, type ServerParserEntry } from './types.js';
import { pyValueTruthy } from '../../emit/python/json-loads.js';
import { pushAll } from '../../ir/arrays.js';

const START = '<tool_call>';
const END = '</tool_call>';

// ---------------------------------------------------------------------------------------
// vLLM

function vllmHermesParser(text: string): ParserResult {
  const x = vllmHermes(text, false);
  // an exception is caught inside extract_tool_calls (logged): no calls, the whole output
  return {
    content: x.content,
    tool_calls: x.tool_calls.map((c) => {
      const why = incompleteReason(c);
      return { name: c.function.name, arguments: c.function.arguments, ...(why !== undefined ? { incomplete: why } : {}) };
    }),
    tools_called: x.tools_called,
  };
}

// ---------------------------------------------------------------------------------------
// SGLang


/** `d.get(key)` on what json.loads returned (AttributeError when it is no dict). */
function pyDictGet(d: PyValue, key: string): PyValue | undefined {
  if (!(d instanceof PyDict)) throw new PythonException('AttributeError', `'${pyTypeName(d)}' object has no attribute 'get'`);
  return d.get(key);
}

/**
 * SGLang `BaseFormatDetector.parse_base_json` (SGLANG_FORWARD_UNKNOWN_TOOLS off): each object of
 * the action (a list is several), a name naming a tool of the request, its `parameters` or
 * `arguments` as `json.dumps(…, ensure_ascii=False)`. Python exceptions are thrown.
 */
export function sglangParseBaseJson(action: PyValue, tools: readonly ParseTool[] | undefined): { name: string; arguments: string }[] {
  const known = new PyDict();
  for (const t of tools ?? []) if (t.name !== '') known.set(t.name, true);
  const acts = action !== null && typeof action === 'object' && !(action instanceof PyDict) && action.t === 'list' ? action.items : [action];
  const out: { name: string; arguments: string }[] = [];
  for (const act of acts) {
    const name = pyDictGet(act, 'name');
    // `name and name in tool_indices`: an unhashable name raises TypeError
    if (!pyValueTruthy(name) || !known.has(name!)) continue;
    const parameters = pyDictGet(act, 'parameters');
    const given = pyValueTruthy(parameters) ? parameters! : pyDictGet(act, 'arguments');
    const args = given === undefined ? new PyDict() : given;
    out.push({ name: name as string, arguments: pythonJsonDumps(args) });
  }
  return out;
}

const QWEN25_BOT = '<tool_call>\n';
const QWEN25_EOT = '\n</tool_call>';

/** SGLang `Qwen25Detector.detect_and_parse`. */
function sglangQwen25(text: string, tools: readonly ParseTool[] | undefined): ParserResult {
  const idx = text.indexOf(QWEN25_BOT);
  if (idx < 0) return { content: text, tool_calls: [], tools_called: false, has_tool_call: false };
  const normal = pyStrip(text.slice(0, idx));
  const calls: ServerCall[] = [];
  try {
    // `<tool_call>\n(.*?)\n</tool_call>` findall (DOTALL): once no `\n</tool_call>` follows, none will
    for (let pos = idx; pos >= 0; pos = text.indexOf(QWEN25_BOT, pos)) {
      const e = text.indexOf(QWEN25_EOT, pos + QWEN25_BOT.length);
      if (e < 0) break;
      const body = text.slice(pos + QWEN25_BOT.length, e);
      pos = e + QWEN25_EOT.length;
      let parsed: PyValue;
      try {
        parsed = pythonJsonLoads(pyStrip(body));
      } catch (err) {
        // only json.JSONDecodeError is caught (logged): the body is skipped
        if (err instanceof PythonException && err.type === 'JSONDecodeError') continue;
        throw err;
      }
      pushAll(calls, sglangParseBaseJson(parsed, tools));
    }
  } catch (err) {
    if (!(err instanceof PythonException)) throw err;
    return { content: text, tool_calls: [], tools_called: false, has_tool_call: true, exception: err.message };
  }
  return { content: normal, tool_calls: calls, tools_called: calls.length > 0, has_tool_call: true };
}

/** SGLang `HermesDetector.detect_and_parse`. */
function sglangHermes(text: string, tools: readonly ParseTool[] | undefined): ParserResult {
  const idx = text.indexOf(START);
  if (idx < 0) return { content: text, tool_calls: [], tools_called: false, has_tool_call: false };
  const normal = pyStrip(text.slice(0, idx));
  const calls: ServerCall[] = [];
  try {
    for (const { body, closed } of hermesToolCallBodies(text)) {
      if (body === '') continue;
      for (const c of sglangParseBaseJson(pythonJsonLoads(pyStrip(body)), tools)) calls.push(closed ? c : { ...c, incomplete: `no ${END}` });
    }
  } catch (err) {
    if (!(err instanceof PythonException)) throw err;
    // `except Exception` (logged): the whole text, no calls
    return { content: text, tool_calls: [], tools_called: false, has_tool_call: true };
  }
  return { content: normal, tool_calls: calls, tools_called: calls.length > 0, has_tool_call: true };
}

// ---------------------------------------------------------------------------------------
// The strict reading


export const SYNTAXES: readonly FamilySyntax[] = [
  {
    name: 'hermes',
    example: '<tool_call>\\n{"name": "get_weather", "arguments": {"city": "Paris"}}\\n</tool_call>',
    openers: [START],
    controls: [START, END],
    read: (text, tools) => withStrayCloses(text, parseJsonCalls(text, tools), END, START),
  },
];

export const SERVER_PARSERS: readonly ServerParserEntry[] = [
  { server: 'vllm', name: 'hermes', file: 'vllm/tool_parsers/hermes_tool_parser.py', commit: VLLM_COMMIT, parse: (text) => vllmHermesParser(text) },
  { server: 'sglang', name: 'qwen25', file: 'python/sglang/srt/function_call/qwen25_detector.py', commit: SGLANG_COMMIT, parse: sglangQwen25 },
  { server: 'sglang', name: 'hermes', file: 'python/sglang/srt/function_call/hermes_detector.py', commit: SGLANG_COMMIT, parse: sglangHermes },
];
