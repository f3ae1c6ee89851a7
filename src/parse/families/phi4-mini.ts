/**
 * Phi-4-mini tool calls: `functools[{"name": "get_weather", "arguments": {"city": "Paris"}}, …]`,
 * every call in one JSON list after the `functools` marker, no closing marker (vLLM's
 * `examples/tool_chat_template_phi4_mini.jinja`; the official template, src/models/templates/phi-4-mini.ts,
 * passes the tools in the system turn and writes no calls). Phi-4-mini does not reason.
 *
 * vLLM `vllm/tool_parsers/phi4mini_tool_parser.py` (`phi4_mini_json`, commit {@link VLLM_COMMIT}),
 * `extract_tool_calls`:
 * - `functools\[(.*?)\]` (DOTALL): from the first `functools[` to the first `]` after it (so an
 *   array inside the arguments cuts the list short); none: no calls, the text as content;
 * - `json.loads("[" + that + "]")`; a JSONDecodeError leaves the list empty, and the result is then
 *   `tools_called` with no calls and no content; any other exception (RecursionError, huge
 *   integers), a call that is no object or lacks `name` (or both `arguments` and `parameters`), a
 *   name that is no str: no calls, the whole text;
 * - each call's `arguments` when the key is there, else `parameters`, `json.dumps(…,
 *   ensure_ascii=False)`; calls found: content None (text around them is dropped).
 *
 * The strict reading: every `functools[…]` list (whitespace allowed before the `[`), each element
 * `{"name": …, "arguments": {…}}` (`parameters` also read); `functools` followed by anything else is
 * the word in a text. A list the output ended inside gives its whole calls (marked incomplete: no
 * `]` came) and drops the cut one.
 */
import type { DialectParse } from '../xml/draft.js';
import { PyDict, PythonException, PythonJsonDecodeError, pythonJsonDumps, pythonJsonLoads, pyTypeName, type PyValue } from '../xml/python-values.js';
import type { ParseTool } from '../xml/tools.js';
import { readCallObject } from './llama3-json.js';
import { pydanticStr, readArrayCalls, type ArrayCallSyntax } from './mistral.js';
import { VLLM_COMMIT, type FamilySyntax, type ParserResult, type ServerCall, type ServerParserEntry } from './types.js';
import { skipWs } from '../xml/draft.js';

const MARKER = 'functools';
const OPEN = 'functools[';

/** Python's `x["key"]` on a value read from JSON: the value, or KeyError / TypeError. */
function subscript(x: PyValue, key: string): PyValue {
  if (x instanceof PyDict) {
    const v = x.get(key);
    if (v === undefined) throw new PythonException('KeyError', `'${key}'`);
    return v;
  }
  if (typeof x === 'string') throw new PythonException('TypeError', "string indices must be integers, not 'str'");
  if (x !== null && typeof x === 'object' && x.t === 'list') throw new PythonException('TypeError', 'list indices must be integers or slices, not str');
  throw new PythonException('TypeError', `'${pyTypeName(x)}' object is not subscriptable`);
}

/** vLLM's `Phi4MiniJsonToolParser.extract_tool_calls`. */
export function vllmPhi4Mini(text: string): ParserResult {
  const none: ParserResult = { content: text, tool_calls: [], tools_called: false };
  const p = text.indexOf(OPEN);
  if (p < 0) return none;
  const close = text.indexOf(']', p + OPEN.length);
  if (close < 0) return none;
  try {
    let items: readonly PyValue[] = [];
    try {
      const list = pythonJsonLoads(`[${text.slice(p + OPEN.length, close)}]`);
      items = (list as Extract<PyValue, { t: 'list' }>).items;
    } catch (e) {
      // logged; the list stays empty
      if (!(e instanceof PythonJsonDecodeError)) throw e;
    }
    const calls: ServerCall[] = items.map((call) => {
      const name = subscript(call, 'name');
      const args = (call as PyDict).has('arguments') ? (call as PyDict).get('arguments')! : subscript(call, 'parameters');
      return { name: pydanticStr('FunctionCall', 'name', name), arguments: pythonJsonDumps(args) };
    });
    return { content: null, tool_calls: calls, tools_called: true };
  } catch (e) {
    if (e instanceof PythonException) return none;
    throw e;
  }
}

const PHI4_SYNTAX: ArrayCallSyntax = {
  open: MARKER,
  element: (obj, tools) => readCallObject(obj, undefined, tools, { nameKey: 'name', argKeys: ['arguments', 'parameters'], argumentsOptional: true }),
};

/** Read Phi-4-mini output strictly: every `functools[{"name": …, "arguments": {…}}, …]`. */
export function readPhi4Mini(text: string, tools: readonly ParseTool[] | undefined): DialectParse {
  const r = readArrayCalls(text, tools, PHI4_SYNTAX);
  // `functools` not followed by a list is the word (Python's module) in a text: no finding
  const word = (at: number) => text.startsWith(MARKER, at) && text[skipWs(text, at + MARKER.length)] !== '[';
  return { ...r, textNotes: r.textNotes.filter((n) => !word(n.at)) };
}

export const SYNTAXES: readonly FamilySyntax[] = [
  {
    name: 'phi4-mini',
    example: 'functools[{"name": "get_weather", "arguments": {"city": "Paris"}}]',
    openers: [MARKER],
    controls: [MARKER, '<|tool|>', '<|/tool|>', '<|tool_call|>', '<|/tool_call|>', '<|end|>', '<|system|>', '<|user|>', '<|assistant|>'],
    read: readPhi4Mini,
  },
];

export const SERVER_PARSERS: readonly ServerParserEntry[] = [
  {
    server: 'vllm',
    name: 'phi4_mini_json',
    file: 'vllm/tool_parsers/phi4mini_tool_parser.py',
    commit: VLLM_COMMIT,
    parse: (text) => vllmPhi4Mini(text),
  },
];
