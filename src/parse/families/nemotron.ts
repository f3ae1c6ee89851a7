/**
 * NVIDIA Nemotron Nano 2 tool calls: `<TOOLCALL>[{"name": "get_weather", "arguments": {"city":
 * "Paris"}}, …]</TOOLCALL>`, one list of every call, after the answer's text and a newline
 * (src/models/templates/nemotron-nano-2.ts: `{"name": "` + name + `", "arguments": ` + arguments|tojson
 * (a string as it is) + `}`, `, ` between calls). Nemotron Nano 2 reasons in `<think>…</think>`
 * first (the generation prompt opens it unless thinking is off; split off before `read`).
 *
 * No server parser: neither vLLM nor SGLang registers one for it at the oracle's commits.
 *
 * The strict reading: every `<TOOLCALL>[…]</TOOLCALL>` list, each element `{"name": …, "arguments":
 * {…}}` (a JSON string holding an object, as the template's instructions show it, or null read
 * with a warning; no `arguments`: `{}` with a warning); invalid JSON drops the element (its text stays
 * content); a list the output ended inside gives its whole calls marked incomplete and drops the cut
 * one; whole calls with no `</TOOLCALL>` at the end are marked incomplete; a stray `</TOOLCALL>`
 * right after the block is dropped with a warning.
 */
import type { DialectParse } from '../xml/draft.js';
import type { ParseTool } from '../xml/tools.js';
import { readCallObject } from './llama3-json.js';
import { readArrayCalls, type ArrayCallSyntax } from './mistral.js';
import type { FamilySyntax, ServerParserEntry } from './types.js';

const OPEN = '<TOOLCALL>';
const CLOSE = '</TOOLCALL>';

const NEMOTRON_SYNTAX: ArrayCallSyntax = {
  open: OPEN,
  close: CLOSE,
  element: (obj, tools) => readCallObject(obj, undefined, tools, { nameKey: 'name', argKeys: ['arguments', 'parameters'], argumentsOptional: true }),
};

/** Read Nemotron Nano 2 output strictly: every `<TOOLCALL>[{"name": …, "arguments": {…}}, …]</TOOLCALL>`. */
export function readNemotronNano2(text: string, tools: readonly ParseTool[] | undefined): DialectParse {
  return readArrayCalls(text, tools, NEMOTRON_SYNTAX);
}

export const SYNTAXES: readonly FamilySyntax[] = [
  {
    name: 'nemotron-nano-2',
    example: '<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Paris"}}]</TOOLCALL>',
    openers: [OPEN],
    controls: [OPEN, CLOSE, '<think>', '</think>', '<AVAILABLE_TOOLS>', '</AVAILABLE_TOOLS>', '<TOOL_RESPONSE>', '</TOOL_RESPONSE>', '<SPECIAL_10>', '<SPECIAL_11>', '<SPECIAL_12>'],
    read: readNemotronNano2,
  },
];

export const SERVER_PARSERS: readonly ServerParserEntry[] = [];
