/**
 * The GLM-4.7 grammar of vLLM's parser engine (`vllm/parser/glm47_moe.py`, `Glm47MoeParser`) as
 * `vllm/tool_parsers/glm47_moe_tool_parser.py` runs it (registered as both `glm45` and `glm47`),
 * at commit 93e3bc8f30b1e135b88a2ffc7f219e3428d39293:
 *
 *     <tool_call>NAME<arg_key>KEY</arg_key><arg_value>VALUE</arg_value></tool_call>
 *
 * - `<tool_call>` opens a call, the name runs to the first `<arg_key>` (or to `</tool_call>`),
 *   stripped; `</tool_call>` ends it; text after a call is dropped from content (kept only when
 *   no call name was sent)
 * - `<think>…</think>` in content is reasoning (left out of content); a lone `</think>` is swallowed
 * - the name must be one of the request's tools (any name when the request has none): a call
 *   to another tool is dropped
 * - arguments: each `<arg_key>K</arg_key>\s*<arg_value>V</arg_value>`, K stripped, V as written,
 *   all strings, then coerced to the schema; a pair the text never closed is left out
 */
import { PyDict, pyStrip, pythonJsonDumps } from '../../xml/python-values.js';
import { skipRegexSpace, type EngineGrammar } from './engine.js';

const KEY_OPEN = '<arg_key>';
const KEY_CLOSE = '</arg_key>';
const VALUE_OPEN = '<arg_value>';
const VALUE_CLOSE = '</arg_value>';

/** `_glm47_arg_converter(raw, partial=False)`: `json.dumps` of every `<arg_key>(.*?)</arg_key>\s*<arg_value>(.*?)</arg_value>` match (DOTALL). */
export function glm47ArgConverter(raw: string): string {
  const params = new PyDict();
  let pos = 0;
  let keyScan = 0;
  for (;;) {
    const p = raw.indexOf(KEY_OPEN, pos);
    if (p < 0) break;
    // the lazy key ends at the first </arg_key> that \s*<arg_value> follows
    keyScan = Math.max(keyScan, p + KEY_OPEN.length);
    let k = -1;
    let valueStart = -1;
    for (;;) {
      const c = raw.indexOf(KEY_CLOSE, keyScan);
      if (c < 0) break;
      const v = skipRegexSpace(raw, c + KEY_CLOSE.length);
      if (raw.startsWith(VALUE_OPEN, v)) {
        k = c;
        valueStart = v + VALUE_OPEN.length;
        break;
      }
      keyScan = c + 1;
    }
    // no pair can close after here: no later <arg_key> matches either
    if (k < 0) break;
    const e = raw.indexOf(VALUE_CLOSE, valueStart);
    if (e < 0) break;
    params.set(pyStrip(raw.slice(p + KEY_OPEN.length, k)), raw.slice(valueStart, e));
    pos = e + VALUE_CLOSE.length;
  }
  return pythonJsonDumps(params);
}

const ARG_TAGS = ['ARG_KEY_START', 'ARG_KEY_END', 'ARG_VALUE_START', 'ARG_VALUE_END'] as const;

/** `glm47_moe_config(thinking=True)` with `Glm47MoeParser`'s overrides (the name stripped). */
export const GLM47_GRAMMAR: EngineGrammar = {
  name: 'glm47_moe',
  terminals: {
    THINK_START: '<think>',
    THINK_END: '</think>',
    TOOL_START: '<tool_call>',
    TOOL_END: '</tool_call>',
    ARG_KEY_START: KEY_OPEN,
    ARG_KEY_END: KEY_CLOSE,
    ARG_VALUE_START: VALUE_OPEN,
    ARG_VALUE_END: VALUE_CLOSE,
  },
  transitions: [
    ['CONTENT', 'THINK_START', 'REASONING', ['REASONING_START']],
    ['REASONING', 'THINK_END', 'CONTENT', ['REASONING_END']],
    ['CONTENT', 'THINK_END', 'CONTENT', []],
    ['REASONING', 'THINK_START', 'REASONING', []],
    ['REASONING', 'TOOL_START', 'TOOL_NAME', ['REASONING_END', 'TOOL_CALL_START']],
    ['CONTENT', 'TOOL_START', 'TOOL_NAME', ['TOOL_CALL_START']],
    ['TOOL_NAME', 'ARG_KEY_START', 'TOOL_ARGS', ['ARG_VALUE_CHUNK']],
    ['TOOL_NAME', 'TOOL_END', 'CONTENT', ['TOOL_CALL_END']],
    ['TOOL_ARGS', 'TOOL_END', 'CONTENT', ['TOOL_CALL_END']],
    ...ARG_TAGS.map((t) => ['TOOL_ARGS', t, 'TOOL_ARGS', ['ARG_VALUE_CHUNK']] as const),
  ],
  argConverter: glm47ArgConverter,
  validateToolNames: true,
  emitName: (_slot, name, base) => base(name === null ? null : pyStrip(name)),
  beforeToolEnd: (slot) => {
    slot.name = pyStrip(slot.name);
  },
  callClosers: ['TOOL_END'],
  callCloseText: '</tool_call>',
};
