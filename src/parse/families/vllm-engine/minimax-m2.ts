/**
 * The MiniMax-M2 grammar of vLLM's parser engine (`vllm/parser/minimax_m2.py`, `MinimaxM2Parser`)
 * as `vllm/tool_parsers/minimax_m2_tool_parser.py` (`minimax_m2`) runs it, at commit
 * 93e3bc8f30b1e135b88a2ffc7f219e3428d39293:
 *
 *     <minimax:tool_call>\n<invoke name="NAME">\n<parameter name="KEY">VALUE</parameter>\n</invoke>\n</minimax:tool_call>
 *
 * - `<minimax:tool_call>` opens a block (text inside it outside an invoke is dropped),
 *   `<invoke name="` / `<invoke name='` / `<invoke name=` opens a call (also outside a block),
 *   `">` / `'>` / `>` ends the name, `</invoke>` ends the call, `</minimax:tool_call>` the block
 *   (a stray one is swallowed); text after a call is dropped from content (kept only when no
 *   call name was sent)
 * - `<think>` in content stays text, `</think>` is swallowed
 * - the name must be one of the request's tools (any name when the request has none)
 * - arguments: each `<parameter name="K">` (double-, single- or unquoted K, stripped; an empty
 *   one skipped) to its `</parameter>` or the next `<parameter name=`, the value stripped, all
 *   strings, then coerced to the schema; a parameter the text never closed is left out
 */
import { PyDict, pyStrip, pythonJsonDumps } from '../../xml/python-values.js';
import { isRegexSpace, skipRegexSpace, type EngineGrammar, type EngineState, type TransitionEvent } from './engine.js';
import { lowerBound } from '../../../ir/arrays.js';

/** For each index, the next index at or after it holding `ch` (-1: none). */
function nextIndexTable(s: string, ch: string): Int32Array {
  const out = new Int32Array(s.length + 1);
  let next = -1;
  out[s.length] = -1;
  for (let i = s.length - 1; i >= 0; i--) {
    if (s[i] === ch) next = i;
    out[i] = next;
  }
  return out;
}

/**
 * `_minimax_m2_arg_converter(raw, partial=False)`: `json.dumps` of every
 * `<\s*parameter\s+name\s*=\s*(?:"([^"]*)"|'([^']*)'|([^>\s]+))\s*>(.*?)(?:<\s*[/]\s*parameter\s*>|(?=<\s*parameter\s+name\s*=))`
 * match (DOTALL), with the regex's fallback from one quoting of the name to the next when no
 * value end follows.
 */
export function minimaxM2ArgConverter(raw: string): string {
  const params = new PyDict();
  const n = raw.length;
  // `<\s*parameter\s+name\s*=` at p: the index after the `=`, or -1
  const opener = (p: number): number => {
    let j = skipRegexSpace(raw, p + 1);
    if (!raw.startsWith('parameter', j)) return -1;
    const k = skipRegexSpace(raw, j + 9);
    if (k === j + 9 || !raw.startsWith('name', k)) return -1;
    j = skipRegexSpace(raw, k + 4);
    return raw[j] === '=' ? j + 1 : -1;
  };
  const termAt: number[] = [];
  const termEnd: number[] = [];
  for (let p = raw.indexOf('<'); p >= 0; p = raw.indexOf('<', p + 1)) {
    let j = skipRegexSpace(raw, p + 1);
    if (raw[j] === '/') {
      j = skipRegexSpace(raw, j + 1);
      if (!raw.startsWith('parameter', j)) continue;
      j = skipRegexSpace(raw, j + 9);
      if (raw[j] === '>') {
        termAt.push(p);
        termEnd.push(j + 1);
      }
    } else if (opener(p) >= 0) {
      termAt.push(p);
      termEnd.push(-1);
    }
  }
  const nextDq = nextIndexTable(raw, '"');
  const nextSq = nextIndexTable(raw, "'");
  let pos = 0;
  for (;;) {
    const p = raw.indexOf('<', pos);
    if (p < 0) break;
    const eq = opener(p);
    if (eq < 0) {
      pos = p + 1;
      continue;
    }
    const j = skipRegexSpace(raw, eq);
    // the alternatives in the regex's order: each gives (name, where the value starts)
    const tries: [string, number][] = [];
    const quoted = (q: string, table: Int32Array): void => {
      if (raw[j] !== q) return;
      const close = table[j + 1];
      if (close < 0) return;
      const k = skipRegexSpace(raw, close + 1);
      if (raw[k] === '>') tries.push([raw.slice(j + 1, close), k + 1]);
    };
    quoted('"', nextDq);
    quoted("'", nextSq);
    let r = j;
    while (r < n && raw[r] !== '>' && !isRegexSpace(raw[r])) r++;
    if (r > j) {
      const k = skipRegexSpace(raw, r);
      if (raw[k] === '>') tries.push([raw.slice(j, r), k + 1]);
    }
    let matched = false;
    for (const [name, start] of tries) {
      const t = lowerBound(termAt, start);
      if (t === termAt.length) continue;
      const key = pyStrip(name);
      if (key) params.set(key, pyStrip(raw.slice(start, termAt[t])));
      pos = termEnd[t] >= 0 ? termEnd[t] : termAt[t];
      matched = true;
      break;
    }
    if (!matched) pos = p + 1;
  }
  return pythonJsonDumps(params);
}

type Row = readonly [EngineState, string, EngineState, readonly TransitionEvent[]];

const INVOKES = ['INVOKE_PREFIX_DQ', 'INVOKE_PREFIX_SQ', 'INVOKE_PREFIX_UNQUOTED'];
const NAME_ENDS = ['NAME_END_DQ', 'NAME_END_SQ', 'NAME_END_UNQUOTED'];

/** `minimax_m2_config()`. */
export const MINIMAX_M2_GRAMMAR: EngineGrammar = {
  name: 'minimax_m2',
  terminals: {
    THINK_START: '<think>',
    THINK_END: '</think>',
    TOOL_START: '<minimax:tool_call>',
    PARAM_START: '<parameter name=',
    PARAM_END: '</parameter>',
    TOOL_END: '</minimax:tool_call>',
    INVOKE_PREFIX_DQ: '<invoke name="',
    INVOKE_PREFIX_SQ: "<invoke name='",
    INVOKE_PREFIX_UNQUOTED: '<invoke name=',
    INVOKE_END: '</invoke>',
    NAME_END_DQ: '">',
    NAME_END_SQ: "'>",
    NAME_END_UNQUOTED: '>',
  },
  transitions: [
    ['REASONING', 'THINK_START', 'REASONING', []],
    ['REASONING', 'THINK_END', 'CONTENT', ['REASONING_END']],
    ['CONTENT', 'THINK_END', 'CONTENT', []],
    ['REASONING', 'TOOL_START', 'TOOL_PREAMBLE', ['REASONING_END']],
    ['CONTENT', 'TOOL_START', 'TOOL_PREAMBLE', []],
    ['TOOL_ARGS', 'PARAM_START', 'TOOL_ARGS', ['ARG_VALUE_CHUNK']],
    ['TOOL_ARGS', 'PARAM_END', 'TOOL_ARGS', ['ARG_VALUE_CHUNK']],
    ['TOOL_PREAMBLE', 'TOOL_END', 'CONTENT', []],
    ['TOOL_BETWEEN', 'TOOL_END', 'CONTENT', []],
    ['CONTENT', 'TOOL_END', 'CONTENT', []],
    ['TOOL_ARGS', 'INVOKE_END', 'TOOL_BETWEEN', ['TOOL_CALL_END']],
    ...(['CONTENT', 'TOOL_PREAMBLE', 'TOOL_BETWEEN'] as const).flatMap((s) => INVOKES.map((t): Row => [s, t, 'TOOL_NAME', ['TOOL_CALL_START']])),
    ...NAME_ENDS.map((t): Row => ['TOOL_NAME', t, 'TOOL_ARGS', []]),
  ],
  argConverter: minimaxM2ArgConverter,
  validateToolNames: true,
  callClosers: ['INVOKE_END'],
  callCloseText: '</invoke>',
  blockOpeners: ['TOOL_START'],
  blockClosers: ['TOOL_END'],
  blockCloseText: '</minimax:tool_call>',
};
