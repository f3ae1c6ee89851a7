/**
 * Granite 3.x tool calls: `<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris"}}, …]`,
 * one JSON list of every call after the `<|tool_call|>` token (Granite 3.3's template,
 * src/models/templates/granite-3.3.ts, tells the model to "respond only with <|tool_call|> followed by
 * a JSON list of tools used"; Granite 3.1 may write the string `<tool_call>` instead). Granite 3.3
 * reasons in `<think>…</think>` (then answers in `<response>…</response>`) when thinking is asked.
 *
 * vLLM `vllm/tool_parsers/granite_tool_parser.py` (`granite`, commit {@link VLLM_COMMIT}),
 * `extract_tool_calls`:
 * - the text stripped, `<|tool_call|>` then `<tool_call>` removed from its start, left-stripped;
 *   unless what is left starts with `[`: no calls, the text as content (text before the token is
 *   never read past);
 * - `json.loads` of all that is left (text after the list fails it); a value that is no list, a
 *   call that is no object or lacks `name` or `arguments`, a name that is no str, any exception:
 *   no calls, the whole text;
 * - each call `json.dumps(arguments, ensure_ascii=False)`; content None; an empty list gives
 *   `tools_called` with no calls.
 *
 * The strict reading: every `<|tool_call|>[…]` list, each element `{"name": …, "arguments": {…}}`
 * (`<|end_of_text|>` after the list taken with it); text around the list is content. A list the
 * output ended inside gives its whole calls (marked incomplete: no `]` came) and drops the cut one.
 */
import type { DialectParse } from '../xml/draft.js';
import { PyDict, PythonException, pyLstrip, pyStrip, pythonJsonDumps, pythonJsonLoads, pyTypeName, type PyValue } from '../xml/python-values.js';
import type { ParseTool } from '../xml/tools.js';
import { readCallObject } from './llama3-json.js';
import { pydanticStr, readArrayCalls, type ArrayCallSyntax } from './mistral.js';
import { VLLM_COMMIT, type FamilySyntax, type ParserResult, type ServerCall, type ServerParserEntry } from './types.js';

const BOT = '<|tool_call|>';
const BOT_STRING = '<tool_call>';
const EOT = '<|end_of_text|>';

/** Python's `x["key"]` on a value read from JSON: the value, or KeyError / TypeError. */
export function pySubscriptKey(x: PyValue, key: string): PyValue {
  if (x instanceof PyDict) {
    const v = x.get(key);
    if (v === undefined) throw new PythonException('KeyError', `'${key}'`);
    return v;
  }
  if (typeof x === 'string') throw new PythonException('TypeError', "string indices must be integers, not 'str'");
  if (x !== null && typeof x === 'object' && x.t === 'list') throw new PythonException('TypeError', 'list indices must be integers or slices, not str');
  throw new PythonException('TypeError', `'${pyTypeName(x)}' object is not subscriptable`);
}

const removePrefix = (s: string, p: string) => (s.startsWith(p) ? s.slice(p.length) : s);

/** vLLM's `GraniteToolParser.extract_tool_calls`. */
export function vllmGranite(text: string): ParserResult {
  const none: ParserResult = { content: text, tool_calls: [], tools_called: false };
  const stripped = pyLstrip(removePrefix(removePrefix(pyStrip(text), BOT), BOT_STRING));
  if (stripped === '' || stripped[0] !== '[') return none;
  try {
    const value = pythonJsonLoads(stripped);
    if (!(value !== null && typeof value === 'object' && value.t === 'list')) throw new PythonException('Exception', `Expected dict or list, got <class '${pyTypeName(value)}'>`);
    const calls: ServerCall[] = value.items.map((call) => {
      const name = pySubscriptKey(call, 'name');
      const args = pySubscriptKey(call, 'arguments');
      return { name: pydanticStr('FunctionCall', 'name', name), arguments: pythonJsonDumps(args) };
    });
    return { content: null, tool_calls: calls, tools_called: true };
  } catch (e) {
    if (e instanceof PythonException) return none;
    throw e;
  }
}

const GRANITE3_SYNTAX: ArrayCallSyntax = {
  open: BOT,
  trailer: EOT,
  element: (obj, tools) => readCallObject(obj, undefined, tools, { nameKey: 'name', argKeys: ['arguments', 'parameters'], argumentsOptional: true }),
};

/** Read Granite 3.x output strictly: every `<|tool_call|>[{"name": …, "arguments": {…}}, …]`. */
export function readGranite3(text: string, tools: readonly ParseTool[] | undefined): DialectParse {
  return readArrayCalls(text, tools, GRANITE3_SYNTAX);
}

export const SYNTAXES: readonly FamilySyntax[] = [
  {
    name: 'granite-3',
    example: '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris"}}]',
    openers: [BOT],
    controls: [BOT, BOT_STRING, EOT, '<|start_of_role|>', '<|end_of_role|>', '<think>', '</think>', '<response>', '</response>'],
    read: readGranite3,
  },
];

export const SERVER_PARSERS: readonly ServerParserEntry[] = [
  {
    server: 'vllm',
    name: 'granite',
    file: 'vllm/tool_parsers/granite_tool_parser.py',
    commit: VLLM_COMMIT,
    parse: (text) => vllmGranite(text),
  },
];
