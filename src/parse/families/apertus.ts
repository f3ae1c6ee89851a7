/**
 * Apertus (swiss-ai): tool calls as a JSON array of one-key objects, the key the function's name,
 * `<|tools_prefix|>[{"get_weather": {"city": "Paris"}}, …]<|tools_suffix|>` (vLLM's
 * `examples/tool_chat_template_apertus.jinja`: `{"NAME": ARGS}` per call, `, ` between them).
 * Apertus reasons in `<|inner_prefix|>…<|inner_suffix|>` (split off before `read`).
 *
 * vLLM `vllm/tool_parsers/apertus_tool_parser.py` (commit {@link VLLM_COMMIT}), `extract_tool_calls`:
 * - the first `<|tools_prefix|>` and what follows up to the first `<|tools_suffix|>`, else to the end
 *   (Python's `$`: before a final newline); none: no calls, the text as content;
 * - that text, left-stripped, through `raw_decode` (text after the JSON is kept aside); when it is
 *   no JSON, the fallback `partial_json_loads` raises (the oracle's stub `partial_json_parser` reads
 *   no partial JSON, and the full text is no JSON either), and any exception gives no calls and the
 *   whole text as content;
 * - a value that is no list becomes `[value]` when truthy, else `[]`; each non-empty object gives a
 *   call: its first key the name, `json.dumps(value, ensure_ascii=False)` the arguments; anything
 *   else is skipped; `tools_called` is true even when no call came;
 * - content: the stripped text before the block, then (each after a newline, stripped) the text
 *   after the JSON inside the block and the text after the block, `<|tools_suffix|>` removed
 *   (a second block is content); null when empty.
 */
import type { JsonValue } from '../../ir/json.js';
import { shown, type Note } from '../xml/decode.js';
import type { DialectParse } from '../xml/draft.js';
import { PyDict, PythonException, PythonJsonDecodeError, pyLstrip, pyStrip, pythonJsonDumps, type PyValue } from '../xml/python-values.js';
import type { ParseTool } from '../xml/tools.js';
import { argumentsObject, badName, pyRawDecode, readArrayCalls, type ArrayCallSyntax } from './mistral.js';
import { VLLM_COMMIT, type FamilySyntax, type ParserResult, type ServerCall, type ServerParserEntry } from './types.js';
import { pyValueTruthy } from '../../emit/python/json-loads.js';

const PREFIX = '<|tools_prefix|>';
const SUFFIX = '<|tools_suffix|>';

/** vLLM's Apertus `extract_tool_calls`. */
export function vllmApertus(text: string): ParserResult {
  const p = text.indexOf(PREFIX);
  if (p < 0) return { content: text, tool_calls: [], tools_called: false };
  const from = p + PREFIX.length;
  const f = text.indexOf(SUFFIX, from);
  // `(.*?)(?:SUFFIX|$)`: the first suffix, else the end (or just before a final newline)
  const groupEnd = f >= 0 ? f : text.endsWith('\n') && text.length - 1 >= from ? text.length - 1 : text.length;
  const matchEnd = f >= 0 ? f + SUFFIX.length : groupEnd;
  try {
    const stripped = pyLstrip(text.slice(from, groupEnd));
    let parsed: PyValue;
    let trailing: string;
    try {
      const r = pyRawDecode(stripped);
      parsed = r.value;
      trailing = stripped.slice(r.end);
    } catch (e) {
      if (!(e instanceof PythonJsonDecodeError)) throw e;
      // partial_json_loads(matched, Allow.ALL): with the stub parser, json.loads of a text raw_decode could not read raises
      throw new PythonException('JSONDecodeError', e.detail);
    }
    const items: readonly PyValue[] = parsed !== null && typeof parsed === 'object' && parsed.t === 'list' ? parsed.items : pyValueTruthy(parsed) ? [parsed] : [];
    // the output ended after the array with no suffix: the calls may be cut off
    const cut = f < 0 && pyStrip(trailing) === '';
    const calls: ServerCall[] = [];
    for (const obj of items) {
      if (!(obj instanceof PyDict) || obj.size === 0) continue;
      const [name, args] = obj.entries().next().value as [PyValue, PyValue];
      calls.push({ name: name as string, arguments: pythonJsonDumps(args), ...(cut ? { incomplete: `no ${SUFFIX}` } : {}) });
    }
    let content = pyStrip(text.slice(0, p));
    if (pyStrip(trailing) !== '') {
      const t = pyStrip(trailing.replaceAll(SUFFIX, ''));
      if (t !== '') content = pyStrip(`${content}\n${t}`);
    }
    const after = pyStrip(text.slice(matchEnd).replaceAll(SUFFIX, ''));
    if (after !== '') content = pyStrip(`${content}\n${after}`);
    return { content: content !== '' ? content : null, tool_calls: calls, tools_called: true };
  } catch (e) {
    if (e instanceof PythonException) return { content: text, tool_calls: [], tools_called: false };
    throw e;
  }
}

const err = (code: string, message: string): Note => ({ code, severity: 'error', message });

const APERTUS_SYNTAX: ArrayCallSyntax = {
  open: PREFIX,
  close: SUFFIX,
  element: (obj, tools) => {
    if (obj.size !== 1) return { error: err('parse/invalid-call', obj.size === 0 ? 'an empty object names no function: no call' : `a call is an object with one key, the function's name; this one has ${obj.size} (${[...obj.keys()].map((k) => JSON.stringify(k)).join(', ')}): no call`) };
    const [name, value] = [...obj][0] as [string, JsonValue];
    const bad = badName(name, tools);
    if (bad) return { error: bad };
    const notes: { note: Note; param?: string }[] = [];
    const args = argumentsObject(value, notes);
    if (args === undefined) return { error: err('parse/invalid-call', `the arguments of ${JSON.stringify(name)} are not an object (${shown(value)}): no call`) };
    return { name, args, notes };
  },
};

/** Read Apertus output strictly: every `<|tools_prefix|>[{"NAME": {…}}, …]<|tools_suffix|>` block. */
export function readApertus(text: string, tools: readonly ParseTool[] | undefined): DialectParse {
  return readArrayCalls(text, tools, APERTUS_SYNTAX);
}

export const SYNTAXES: readonly FamilySyntax[] = [
  {
    name: 'apertus',
    example: '<|tools_prefix|>[{"get_weather": {"city": "Paris"}}]<|tools_suffix|>',
    openers: [PREFIX],
    controls: [PREFIX, SUFFIX, '<|inner_prefix|>', '<|inner_suffix|>', '<|assistant_start|>', '<|assistant_end|>'],
    read: readApertus,
  },
];

export const SERVER_PARSERS: readonly ServerParserEntry[] = [
  {
    server: 'vllm',
    name: 'apertus',
    file: 'vllm/tool_parsers/apertus_tool_parser.py',
    commit: VLLM_COMMIT,
    parse: (text) => vllmApertus(text),
  },
];
