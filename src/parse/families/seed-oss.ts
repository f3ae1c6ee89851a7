/**
 * Seed-OSS tool calls, read strictly:
 * `<seed:tool_call>\n<function=NAME>\n<parameter=K>V</parameter>\n</function>\n</seed:tool_call>`.
 * The template (models/templates/seed-oss.ts) writes a string value as it is, with no newline
 * around it, and any other value with Jinja's `| string` (Python's str(): `True`, `None`, `2.5`,
 * `['a', 'b']`, `{'k': 1}`). Reasoning is `<seed:think>…</seed:think>` before the answer (split off by
 * the caller).
 *
 * - the XML reader of ../xml/xml-calls.ts with Seed-OSS's block tags: values exactly as written
 *   (no layout newline taken off), a non-string decoded by the parameter's schema from its Python
 *   spelling (`True`, `None`, a Python literal for arrays and objects, noted as coerced where it is
 *   not JSON)
 * - a parameter tag opens only at a line start (the template puts each on its own line), so a
 *   `<parameter=` inside a value is text
 * - a `</seed:tool_call>` right after a call that closes no block is left out of the content with
 *   a `parse/stray-close-tag` warning
 *
 * vLLM's `seed_oss` parser is the streaming-engine one (./vllm-engine/); SGLang registers none.
 */
import { parseXmlCalls } from '../xml/xml-calls.js';
import { withStrayCloses } from '../xml/draft.js';
import type { FamilySyntax, ServerParserEntry } from './types.js';

const BLOCK = '<seed:tool_call>';
const BLOCK_END = '</seed:tool_call>';
const FN_PREFIX = '<function=';
const FN_END = '</function>';
const P_PREFIX = '<parameter=';
const P_END = '</parameter>';

type TagRead = { readonly name: string; readonly end: number } | { readonly error: 'truncated' | 'malformed' };

/** A `<function=NAME>` / `<parameter=NAME>` tag at `at`: the name up to `>`. */
function readUntilGt(prefix: string): (text: string, at: number) => TagRead {
  return (text, at) => {
    const gt = text.indexOf('>', at + prefix.length);
    return gt < 0 ? { error: 'truncated' } : { name: text.slice(at + prefix.length, gt), end: gt + 1 };
  };
}

/** Seed-OSS's call syntax for the XML reader. */
export const SEED_OSS_SYNTAX = {
  dialect: 'seed-oss',
  wrapperOpen: BLOCK,
  wrapperClose: BLOCK_END,
  callOpen: FN_PREFIX,
  callClose: FN_END,
  paramOpen: P_PREFIX,
  paramClose: P_END,
  readCallName: readUntilGt(FN_PREFIX),
  readParamName: readUntilGt(P_PREFIX),
  layoutNewlines: false,
  lineStartOpens: true,
  spelling: 'python-str',
  literalTags: [P_END, P_PREFIX, FN_END, FN_PREFIX, BLOCK_END, BLOCK],
} satisfies Parameters<typeof parseXmlCalls>[2];

export const SYNTAXES: readonly FamilySyntax[] = [
  {
    name: 'seed-oss',
    example: '<seed:tool_call>\\n<function=get_weather>\\n<parameter=city>Paris</parameter>\\n</function>\\n</seed:tool_call>',
    openers: [BLOCK, FN_PREFIX],
    controls: [BLOCK, BLOCK_END, FN_PREFIX, FN_END, P_PREFIX, P_END, '<seed:bos>', '<seed:eos>'],
    read: (text, tools) => withStrayCloses(text, parseXmlCalls(text, tools, SEED_OSS_SYNTAX), BLOCK_END, BLOCK),
  },
];

export const SERVER_PARSERS: readonly ServerParserEntry[] = [];
