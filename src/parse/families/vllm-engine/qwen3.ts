/**
 * The Qwen3 grammar of vLLM's parser engine (`vllm/parser/qwen3.py`, `Qwen3Parser`) and Seed-OSS's
 * (`vllm/parser/seed_oss.py`: the same grammar with other wrapper tokens), as
 * `vllm/tool_parsers/qwen3_engine_tool_parser.py` (`qwen3_coder`) and
 * `seed_oss_engine_tool_parser.py` (`seed_oss`) run it, at commit
 * 93e3bc8f30b1e135b88a2ffc7f219e3428d39293:
 *
 *     <tool_call>\n<function=NAME>\n<parameter=KEY>\nVALUE\n</parameter>\n</function>\n</tool_call>
 *
 * - `<tool_call>` opens a call block, `<function=` the call (also bare, or right after a
 *   `</function>`), `>` ends the name; `</function>` ends the call, `</tool_call>` the block;
 *   text after a block is dropped from content (kept only when no call name was sent)
 * - `<think>` in content stays text, `</think>` is swallowed (the parser starts in content)
 * - arguments: each `<parameter=KEY>` (KEY as written, up to `>`) to its `</parameter>` or to
 *   the next `<parameter=`, the value `strip()`ped, all as strings, then coerced to the schema;
 *   a parameter the text never closed is left out
 * - no validation of the name: any name is a call
 */
import { PyDict, pyStrip, pythonJsonDumps } from '../../xml/python-values.js';
import { skipRegexSpace, type EngineGrammar, type EngineState, type TransitionEvent } from './engine.js';

/**
 * `_qwen3_arg_converter(raw, partial=False)`: `json.dumps` of every
 * `<\s*parameter\s*=\s*([^>]*)>(.*?)(?:<\s*[/]\s*parameter\s*>|(?=<\s*parameter\s*=))` match (DOTALL).
 */
export function qwen3ArgConverter(raw: string): string {
  const params = new PyDict();
  // where a value ends: a closing tag (consumed) or the next opener (looked ahead at)
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
    } else if (raw.startsWith('parameter', j)) {
      j = skipRegexSpace(raw, j + 9);
      if (raw[j] === '=') {
        termAt.push(p);
        termEnd.push(-1);
      }
    }
  }
  let pos = 0;
  let t = 0;
  for (;;) {
    const p = raw.indexOf('<', pos);
    if (p < 0) break;
    let j = skipRegexSpace(raw, p + 1);
    if (!raw.startsWith('parameter', j)) {
      pos = p + 1;
      continue;
    }
    j = skipRegexSpace(raw, j + 9);
    if (raw[j] !== '=') {
      pos = p + 1;
      continue;
    }
    j = skipRegexSpace(raw, j + 1);
    const gt = raw.indexOf('>', j);
    if (gt < 0) break;
    const start = gt + 1;
    while (t < termAt.length && termAt[t] < start) t++;
    // no value end after this header: none after any later header either (they share or pass its '>')
    if (t === termAt.length) break;
    params.set(raw.slice(j, gt), pyStrip(raw.slice(start, termAt[t])));
    pos = termEnd[t] >= 0 ? termEnd[t] : termAt[t];
  }
  return pythonJsonDumps(params);
}

type Row = readonly [EngineState, string, EngineState, readonly TransitionEvent[]];

/** `qwen3_config(thinking=True, …)` with the four wrapper tokens, plus the parser's overrides (none that the tool path reads). */
function qwen3Grammar(name: string, thinkStart: string, thinkEnd: string, toolStart: string, toolEnd: string): EngineGrammar {
  const rows: Row[] = [
    ['REASONING', 'THINK_START', 'REASONING', []],
    ['REASONING', 'THINK_END', 'CONTENT', ['REASONING_END']],
    ['CONTENT', 'THINK_END', 'CONTENT', []],
    ['REASONING', 'TOOL_START', 'TOOL_PREAMBLE', ['REASONING_END', 'TOOL_CALL_START']],
    ['CONTENT', 'TOOL_START', 'TOOL_PREAMBLE', ['REASONING_END', 'TOOL_CALL_START']],
    ['CONTENT', 'FUNC_PREFIX', 'TOOL_NAME', ['TOOL_CALL_START']],
    ['TOOL_PREAMBLE', 'TOOL_END', 'CONTENT', ['TOOL_CALL_END']],
    ['TOOL_PREAMBLE', 'FUNC_PREFIX', 'TOOL_NAME', []],
    ['TOOL_NAME', 'CLOSE_ANGLE', 'TOOL_ARGS', []],
    ['TOOL_NAME', 'FUNC_END', 'TOOL_BETWEEN', ['TOOL_CALL_END']],
    ['TOOL_ARGS', 'FUNC_END', 'TOOL_BETWEEN', ['TOOL_CALL_END']],
    ['TOOL_ARGS', 'PARAM_START', 'TOOL_ARGS', ['ARG_VALUE_CHUNK']],
    ['TOOL_ARGS', 'PARAM_END', 'TOOL_ARGS', ['ARG_VALUE_CHUNK']],
    ['TOOL_BETWEEN', 'TOOL_END', 'CONTENT', []],
    ['TOOL_BETWEEN', 'TOOL_START', 'TOOL_PREAMBLE', ['TOOL_CALL_START']],
    ['TOOL_BETWEEN', 'FUNC_PREFIX', 'TOOL_NAME', ['TOOL_CALL_START']],
  ];
  return {
    name,
    terminals: {
      THINK_START: thinkStart,
      THINK_END: thinkEnd,
      TOOL_START: toolStart,
      TOOL_END: toolEnd,
      FUNC_PREFIX: '<function=',
      FUNC_END: '</function>',
      PARAM_START: '<parameter=',
      PARAM_END: '</parameter>',
      CLOSE_ANGLE: '>',
    },
    transitions: rows,
    argConverter: qwen3ArgConverter,
    callClosers: ['FUNC_END'],
    callCloseText: '</function>',
    blockOpeners: ['TOOL_START'],
    blockClosers: ['TOOL_END'],
    blockCloseText: toolEnd,
  };
}

/** `Qwen3Parser` (`qwen3_coder`, also registered as `qwen3_xml` and `mimo`). */
export const QWEN3_GRAMMAR: EngineGrammar = qwen3Grammar('qwen3', '<think>', '</think>', '<tool_call>', '</tool_call>');

/** `SeedOssParser` (`seed_oss`). */
export const SEED_OSS_GRAMMAR: EngineGrammar = qwen3Grammar('seed_oss', '<seed:think>', '</seed:think>', '<seed:tool_call>', '</seed:tool_call>');
