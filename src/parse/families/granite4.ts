/**
 * Granite 4.0 tool calls, the Hermes form: each call `<tool_call>\n{"name": "get_weather",
 * "arguments": {"city": "Paris"}}\n</tool_call>`, a newline between calls and after the answer's
 * text (src/models/templates/granite-4.0.ts). Granite 4.0 does not reason.
 *
 * vLLM `vllm/tool_parsers/granite4_tool_parser.py` (`granite4`, commit {@link VLLM_COMMIT}),
 * `extract_tool_calls`:
 * - the text cut at every `<tool_call>` and `</tool_call>`; the pieces between a start and an end
 *   are the calls, every other non-empty piece is content, joined as it is (not stripped; only an
 *   empty content is None);
 * - two starts in a row, an end without a start, nothing between start and end, a start never
 *   closed: an assertion fails, and then (as on any exception) no calls and the whole text;
 * - each call `json.loads` of its piece (whitespace around allowed), which must be a dict with
 *   `name` (a str) and `arguments`: a str or None is kept as it is (None fails FunctionCall's
 *   check), anything else `json.dumps(…, ensure_ascii=False)`;
 * - `tools_called` only when a call came; with none, the text (all of it is content).
 *
 * The strict reading is the Hermes one (src/parse/xml/hermes.ts `parseJsonCalls`): a call's JSON
 * ends where its braces close, invalid JSON drops it, a `</tool_call>` missing before the next
 * `<tool_call>` is a warning, the output ending after the JSON returns the call marked incomplete
 * (no `</tool_call>`), inside it drops the call.
 */
import { finder } from '../xml/draft.js';
import { parseJsonCalls } from '../xml/hermes.js';
import { PyDict, PythonException, pythonJsonDumps, pythonJsonLoads } from '../xml/python-values.js';
import { pySubscriptKey } from './granite.js';
import { pydanticStr } from './mistral.js';
import { VLLM_COMMIT, type FamilySyntax, type ParserResult, type ServerCall, type ServerParserEntry } from './types.js';

const START = '<tool_call>';
const END = '</tool_call>';

/** vLLM's `Granite4ToolParser.extract_tool_calls` (a fresh parser: no call left open before). */
export function vllmGranite4(text: string): ParserResult {
  const none: ParserResult = { content: text, tool_calls: [], tools_called: false };
  try {
    const textSegments: string[] = [];
    const tcSegments: string[] = [];
    let inTc = false;
    let last = 0;
    let i = 0;
    const find = finder(text);
    for (;;) {
      const s = find(START, i);
      const e = find(END, i);
      if (s < 0 && e < 0) break;
      if (s >= 0 && (e < 0 || s < e)) {
        if (inTc) throw new PythonException('AssertionError', 'Two tool call start tokens found in a row');
        if (s > last) textSegments.push(text.slice(last, s));
        inTc = true;
        last = i = s + START.length;
      } else {
        if (!inTc) throw new PythonException('AssertionError', 'Tool call end token found without corresponding start token');
        if (e === last) throw new PythonException('AssertionError', 'Expected the model to generate text between tool call tokens');
        tcSegments.push(text.slice(last, e));
        inTc = false;
        last = i = e + END.length;
      }
    }
    if (inTc) throw new PythonException('AssertionError', 'The model generated an incomplete tool call');
    if (last < text.length) textSegments.push(text.slice(last));
    const parsed = tcSegments.map((t) => pythonJsonLoads(t));
    const calls: ServerCall[] = parsed.map((tc) => {
      if (!(tc instanceof PyDict)) throw new PythonException('AssertionError', '');
      const name = pySubscriptKey(tc, 'name');
      const args = pySubscriptKey(tc, 'arguments');
      const dumped = args === null || typeof args === 'string' ? args : pythonJsonDumps(args);
      return { name: pydanticStr('FunctionCall', 'name', name), arguments: pydanticStr('FunctionCall', 'arguments', dumped) };
    });
    const content = textSegments.join('');
    return { content: content !== '' ? content : null, tool_calls: calls, tools_called: calls.length > 0 };
  } catch (e) {
    if (e instanceof PythonException) return none;
    throw e;
  }
}

export const SYNTAXES: readonly FamilySyntax[] = [
  {
    name: 'granite-4',
    example: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
    openers: [START],
    controls: [START, END, '<|start_of_role|>', '<|end_of_role|>', '<|end_of_text|>', '<tool_response>', '</tool_response>'],
    read: parseJsonCalls,
  },
];

export const SERVER_PARSERS: readonly ServerParserEntry[] = [
  {
    server: 'vllm',
    name: 'granite4',
    file: 'vllm/tool_parsers/granite4_tool_parser.py',
    commit: VLLM_COMMIT,
    parse: (text) => vllmGranite4(text),
  },
];
