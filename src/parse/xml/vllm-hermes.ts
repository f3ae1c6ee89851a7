/**
 * vLLM's Hermes tool parser (`vllm/tool_parsers/hermes_tool_parser.py`, non-streaming
 * `extract_tool_calls`), as behaviour: the one vLLM uses for Hermes and Qwen2.5/Qwen3
 * `<tool_call>{"name": …, "arguments": …}</tool_call>` output.
 *
 * - each `<tool_call>` up to the first `</tool_call>` (a literal one inside a JSON string cuts
 *   the call), or to the end of the output when unclosed
 * - every body through Python's `json.loads`; any exception anywhere (bad JSON, a missing
 *   `name`/`arguments` key, a name that is not a string) drops every call and returns the
 *   whole output as content
 * - `arguments` re-serialised with `json.dumps(…, ensure_ascii=False)`; becf329d first decodes
 *   a string `arguments` with `json.loads`, 02bb669b serialises the string itself (double-encoded)
 * - content is the text before the first `<tool_call>`, or null when empty
 *
 * A call whose `<tool_call>` the output never closed is returned, as vLLM returns it, marked
 * incomplete beside its object (completeness.ts): never runnable.
 */
import { PyDict, PythonException, pyTypeName, pythonJsonDumps, pythonJsonLoads, pyStrRepr, type PyValue } from './python-values.js';
import { markIncomplete } from '../completeness.js';
import { vllmFallback, type VllmExtraction, type VllmToolCall } from './vllm-types.js';

const START = '<tool_call>';
const END = '</tool_call>';

/** `re.findall(r"<tool_call>(.*?)</tool_call>|<tool_call>(.*)", text, re.DOTALL)`, each match's non-empty group, and whether its `</tool_call>` came. */
export function hermesToolCallBodies(text: string): { readonly body: string; readonly closed: boolean }[] {
  const out: { body: string; closed: boolean }[] = [];
  let pos = 0;
  for (;;) {
    const p = text.indexOf(START, pos);
    if (p < 0) break;
    const c = text.indexOf(END, p + START.length);
    if (c >= 0) {
      out.push({ body: text.slice(p + START.length, c), closed: true });
      pos = c + END.length;
    } else {
      out.push({ body: text.slice(p + START.length), closed: false });
      pos = text.length;
    }
  }
  return out;
}

/** Python's `fc[key]` on what json.loads returned. */
function getItem(fc: PyValue, key: string): PyValue {
  if (fc instanceof PyDict) {
    const v = fc.get(key);
    if (v === undefined) throw new PythonException('KeyError', pyStrRepr(key));
    return v;
  }
  if (typeof fc === 'string') throw new PythonException('TypeError', "string indices must be integers, not 'str'");
  if (fc !== null && typeof fc === 'object' && (fc.t === 'list' || fc.t === 'tuple')) throw new PythonException('TypeError', `${fc.t} indices must be integers or slices, not str`);
  throw new PythonException('TypeError', `'${pyTypeName(fc)}' object is not subscriptable`);
}

/** pydantic's check of `FunctionCall(name=…)`: a str. */
function validateName(name: PyValue): string {
  if (typeof name === 'string') return name;
  const shown = name === null ? 'None' : typeof name === 'boolean' ? (name ? 'True' : 'False') : pythonJsonDumps(name);
  throw new PythonException('ValidationError', `1 validation error for FunctionCall\nname\n  Input should be a valid string [type=string_type, input_value=${shown}, input_type=${pyTypeName(name)}]`);
}

/** vLLM's Hermes `extract_tool_calls` at commit 02bb669b (`decodeStringArguments` false) or becf329d (true). */
export function vllmHermes(text: string, decodeStringArguments: boolean): VllmExtraction {
  if (!text.includes(START)) return { tools_called: false, tool_calls: [], content: text };
  try {
    const bodies = hermesToolCallBodies(text);
    const raw = bodies.map(({ body }) => pythonJsonLoads(body));
    if (decodeStringArguments) {
      // becf329d: `if isinstance(fc["arguments"], str): fc["arguments"] = json.loads(fc["arguments"])`
      for (const fc of raw) {
        const args = getItem(fc, 'arguments');
        if (typeof args === 'string') (fc as PyDict).set('arguments', pythonJsonLoads(args));
      }
    }
    const calls: VllmToolCall[] = raw.map((fc, k) => {
      const name = getItem(fc, 'name');
      const args = pythonJsonDumps(getItem(fc, 'arguments'));
      const call: VllmToolCall = { type: 'function', function: { name: validateName(name), arguments: args } };
      return bodies[k].closed ? call : markIncomplete(call, `no ${END}`);
    });
    const content = text.slice(0, text.indexOf(START));
    return { tools_called: true, tool_calls: calls, content: content || null };
  } catch (e) {
    if (e instanceof PythonException) return vllmFallback(text, e.message);
    throw e;
  }
}
