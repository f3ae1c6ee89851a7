/**
 * Reading every family's tool calls, once for every syntax:
 *
 *   --model NAME        → the family's syntax (FAMILY_PARSERS), its reasoning markers, its usual
 *                         vLLM and SGLang parsers
 *   --tool-parser NAME  → the syntax a server parser of that name reads (TOOL_PARSERS)
 *   default reading     → reasoning split off, the syntax read strictly (./<syntax>.ts `read`),
 *                         assembled (content, calls, a cut call marked incomplete, every note),
 *                         then each server's usual parser run on the same text and every place
 *                         where it returns something else reported
 *   server 'vllm'|'sglang' → exactly what that server's parser returns, and what the server
 *                         then sends (serverResponse)
 *
 * A call the output ended inside of is marked incomplete beside its object (completeness.ts):
 * checkToolCalls never finds it runnable.
 */
import { randomUUID } from 'node:crypto';
import type { Diagnostic } from '../../diagnostics.js';
import { incompleteReason, markIncomplete } from '../completeness.js';
import { vllmDifferences } from '../xml/compare.js';
import { assembleReading, incompleteCall, type DialectParse } from '../xml/draft.js';
import { readParseTools } from '../xml/tools.js';
import { parseToolCalls as parseXmlToolCalls } from '../xml/index.js';
import { XML_PARSE_MODELS, type XmlParseOptions, type XmlToolCall } from '../xml/types.js';
import type { VllmExtraction, VllmParserVersion } from '../xml/vllm-types.js';
import { SERVER_PARSERS, SYNTAXES } from './registry.js';
import type { FamilySyntax, ParserResult, ParseServer, ServerCall, ServerParserEntry } from './types.js';
import { pushAll } from '../../ir/arrays.js';
import type { ModelName } from '../../models/names.js';

export type { FamilySyntax, ParserResult, ParseServer, ServerCall, ServerParserEntry } from './types.js';
export { SERVER_PARSERS, SYNTAXES } from './registry.js';

/** The markers around a family's reasoning. */
export interface ReasoningMarkers {
  readonly open: string;
  readonly close: string;
}

/** How one `--model` family's output is read. */
export interface FamilyParser {
  /** The `--model` name. */
  readonly model: string;
  /** Its output syntax: a key of SYNTAXES. */
  readonly syntax: string;
  /** The vLLM `--tool-call-parser` its servers use. */
  readonly vllm?: string;
  /** The SGLang `--tool-call-parser` its servers use. */
  readonly sglang?: string;
  /** Its reasoning markers, for the families that think before they answer. */
  readonly reasoning?: ReasoningMarkers;
}

const THINK: ReasoningMarkers = { open: '<think>', close: '</think>' };

/** Every `--model` family whose tool calls are read here (gpt-oss and anthropic have readers of their own). */
export const FAMILY_PARSERS: readonly FamilyParser[] = [
  { model: 'llama-3.1', syntax: 'llama3-json', vllm: 'llama3_json', sglang: 'llama3' },
  { model: 'llama-3.2', syntax: 'llama3-json', vllm: 'llama3_json', sglang: 'llama3' },
  { model: 'llama-4', syntax: 'llama4-pythonic', vllm: 'llama4_pythonic', sglang: 'pythonic' },
  { model: 'mistral-nemo', syntax: 'mistral', vllm: 'mistral', sglang: 'mistral' },
  { model: 'ministral-3', syntax: 'mistral-v11', vllm: 'mistral', sglang: 'mistral', reasoning: { open: '[THINK]', close: '[/THINK]' } },
  { model: 'granite-3.3', syntax: 'granite-3', vllm: 'granite' },
  { model: 'granite-4.0', syntax: 'granite-4', vllm: 'granite4' },
  { model: 'kimi-k2', syntax: 'kimi-k2', vllm: 'kimi_k2', sglang: 'kimi_k2' },
  { model: 'kimi-k2-thinking', syntax: 'kimi-k2', vllm: 'kimi_k2', sglang: 'kimi_k2', reasoning: THINK },
  { model: 'glm-4.6', syntax: 'glm-4.5', vllm: 'glm45', sglang: 'glm45', reasoning: THINK },
  { model: 'glm-4.7', syntax: 'glm-4.7', vllm: 'glm47', sglang: 'glm47', reasoning: THINK },
  { model: 'minimax-m2', syntax: 'minimax-m2', vllm: 'minimax_m2', sglang: 'minimax-m2', reasoning: THINK },
  { model: 'nemotron-nano-2', syntax: 'nemotron-nano-2', reasoning: THINK },
  { model: 'functionary-3.2', syntax: 'functionary-3.2' },
  { model: 'functionary-3.1', syntax: 'functionary-3.1' },
  { model: 'gemma-4', syntax: 'gemma-4', vllm: 'gemma4', sglang: 'gemma4', reasoning: { open: '<|channel>thought', close: '<channel|>' } },
  { model: 'command-r7b', syntax: 'command-r7b' },
  { model: 'command-r-plus', syntax: 'command-r-plus' },
  { model: 'seed-oss', syntax: 'seed-oss', vllm: 'seed_oss', reasoning: { open: '<seed:think>', close: '</seed:think>' } },
  { model: 'deepseek-v3.1', syntax: 'deepseek-v3.1', vllm: 'deepseek_v31', sglang: 'deepseekv31', reasoning: THINK },
  { model: 'qwen3', syntax: 'hermes', vllm: 'hermes', sglang: 'qwen25', reasoning: THINK },
  { model: 'qwen', syntax: 'hermes', vllm: 'hermes', sglang: 'qwen25' },
  { model: 'hermes', syntax: 'hermes', vllm: 'hermes', sglang: 'hermes' },
  { model: 'qwen3-coder', syntax: 'qwen3-coder', vllm: 'qwen3_coder', sglang: 'qwen3_coder' },
  { model: 'phi-4-mini', syntax: 'phi4-mini', vllm: 'phi4_mini_json' },
];

/**
 * The servers' parser names (`--tool-call-parser` of vLLM and of SGLang), each with the syntax it
 * reads: what `--tool-parser NAME` reads with when no server is asked.
 */
export const TOOL_PARSERS: ReadonlyMap<string, { readonly syntax: string; readonly servers: readonly ParseServer[] }> = new Map([
  ['llama3_json', { syntax: 'llama3-json', servers: ['vllm'] }],
  ['llama3', { syntax: 'llama3-json', servers: ['sglang'] }],
  ['pythonic', { syntax: 'llama4-pythonic', servers: ['vllm', 'sglang'] }],
  ['llama4_pythonic', { syntax: 'llama4-pythonic', servers: ['vllm'] }],
  ['mistral', { syntax: 'mistral', servers: ['vllm', 'sglang'] }],
  ['deepseek_v3', { syntax: 'deepseek-v3', servers: ['vllm'] }],
  ['deepseekv3', { syntax: 'deepseek-v3', servers: ['sglang'] }],
  ['deepseek_v31', { syntax: 'deepseek-v3.1', servers: ['vllm'] }],
  ['deepseekv31', { syntax: 'deepseek-v3.1', servers: ['sglang'] }],
  ['hermes', { syntax: 'hermes', servers: ['vllm', 'sglang'] }],
  ['qwen25', { syntax: 'hermes', servers: ['sglang'] }],
  ['qwen3_coder', { syntax: 'qwen3-coder', servers: ['vllm', 'sglang'] }],
  ['glm45', { syntax: 'glm-4.5', servers: ['vllm', 'sglang'] }],
  ['glm47', { syntax: 'glm-4.7', servers: ['vllm', 'sglang'] }],
  ['kimi_k2', { syntax: 'kimi-k2', servers: ['vllm', 'sglang'] }],
  ['minimax_m2', { syntax: 'minimax-m2', servers: ['vllm'] }],
  ['minimax-m2', { syntax: 'minimax-m2', servers: ['sglang'] }],
  ['seed_oss', { syntax: 'seed-oss', servers: ['vllm'] }],
  ['granite', { syntax: 'granite-3', servers: ['vllm'] }],
  ['granite4', { syntax: 'granite-4', servers: ['vllm'] }],
  ['gemma4', { syntax: 'gemma-4', servers: ['vllm', 'sglang'] }],
  ['phi4_mini_json', { syntax: 'phi4-mini', servers: ['vllm'] }],
  ['apertus', { syntax: 'apertus', servers: ['vllm'] }],
  ['lfm2', { syntax: 'lfm2', servers: ['vllm', 'sglang'] }],
  ['olmo3', { syntax: 'olmo3', servers: ['vllm'] }],
  ['hunyuan_a13b', { syntax: 'hunyuan-a13b', servers: ['vllm'] }],
  ['hy_v3', { syntax: 'hy-v3', servers: ['vllm'] }],
  ['hunyuan', { syntax: 'hy-v3', servers: ['sglang'] }],
]);

/** The family parser of a `--model` name (already resolved to a family name), or undefined. */
export function familyParser(model: string): FamilyParser | undefined {
  return FAMILY_PARSERS.find((f) => f.model === model);
}

/**
 * What the chat-completions response carries after the server's parser ran (auto tool choice),
 * `tool_calls: null` meaning the field is absent:
 * - vLLM (`vllm/parser/abstract_parser.py` `_extract_tool_calls`): calls found → the calls and the
 *   parser's content (only whitespace → null); none → no calls and the original text as content.
 * - SGLang (`serving_chat.py` `_process_tool_calls`, `FunctionCallParser.parse_non_stream`):
 *   `has_tool_call` false or an exception → the text unchanged; calls → the calls and
 *   `normal_text`; none → `tool_calls: []` and the whole text; `""` content → null.
 */
export function serverResponse(server: ParseServer, text: string, r: ParserResult): { content: string | null; tool_calls: { name: string; arguments: string }[] | null } {
  const calls = (cs: readonly ServerCall[]) => cs.map((c) => ({ name: c.name, arguments: c.arguments }));
  if (server === 'vllm') {
    if (r.exception === undefined && r.tools_called) return { content: r.content === null || r.content.trim() === '' ? null : r.content, tool_calls: calls(r.tool_calls) };
    return { content: text, tool_calls: null };
  }
  const orNull = (s: string | null) => (s === '' ? null : s);
  if (r.exception !== undefined || !r.has_tool_call) return { content: orNull(text), tool_calls: null };
  if (r.tool_calls.length > 0) return { content: orNull(r.content), tool_calls: calls(r.tool_calls) };
  return { content: orNull(text), tool_calls: [] };
}

/** Options of {@link parseFamilyToolCalls}. */
export interface FamilyParseOptions {
  /** The `--model` family (a family name: see FAMILY_PARSERS). */
  readonly model?: ModelName;
  /** A server parser name (vLLM's or SGLang's `--tool-call-parser`): read with the syntax it reads; with `server`, exactly that server's parser. */
  readonly toolParser?: string;
  /** The request's tools: anything `readTools` accepts, or a compiled tool set. */
  readonly tools?: unknown;
  /** `vllm` / `sglang`: exactly what that server's parser returns, and what the server sends. Absent: the strict reading. */
  readonly server?: ParseServer;
  /** Give each call an id (`chatcmpl-tool-` and 32 hex digits, as vLLM does). */
  readonly ids?: boolean;
}

/** What the model wrote, read. Diagnostic paths as for parseToolCalls (`/tool_calls/N…`, `/content`, `/text#I`). */
export interface FamilyParseResult {
  /** The text outside the calls (and the reasoning), or null. */
  readonly content: string | null;
  /** The reasoning, for a family that thinks (`reasoning_content`); absent when the family has no reasoning markers or a server's tool parser was asked. */
  readonly reasoning_content?: string | null;
  readonly tool_calls: readonly XmlToolCall[];
  readonly diagnostics: readonly Diagnostic[];
}

function toolCallId(): string {
  return `chatcmpl-tool-${randomUUID().replaceAll('-', '')}`;
}

function openAiCall(name: string, args: string, ids: boolean | undefined): XmlToolCall {
  return ids ? { id: toolCallId(), type: 'function', function: { name, arguments: args } } : { type: 'function', function: { name, arguments: args } };
}

const SERVER_WORD: Record<ParseServer, 'vLLM' | 'SGLang'> = { vllm: 'vLLM', sglang: 'SGLang' };

/** A server's result in the shape the difference report reads. */
function asExtraction(server: ParseServer, text: string, r: ParserResult): VllmExtraction {
  const sent = serverResponse(server, text, r);
  const calls = (sent.tool_calls ?? []).map((c) => ({ type: 'function' as const, function: c }));
  return r.exception !== undefined ? { tools_called: false, tool_calls: [], content: text, exception: r.exception } : { tools_called: calls.length > 0, tool_calls: calls, content: sent.content };
}

/** Split off the reasoning at the start of the text (whitespace before the opener allowed). */
export function splitReasoning(text: string, markers: ReasoningMarkers | undefined): { reasoning: string | null | undefined; rest: string; offset: number; unclosed: boolean } {
  if (markers === undefined) return { reasoning: undefined, rest: text, offset: 0, unclosed: false };
  let i = 0;
  while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  let from = -1;
  if (text.startsWith(markers.open, i)) from = i + markers.open.length;
  else {
    // the template may have opened the reasoning in the prompt: a close marker with no opener before it
    const c = text.indexOf(markers.close);
    if (c >= 0 && text.lastIndexOf(markers.open, c) < 0) from = 0;
  }
  if (from < 0) return { reasoning: null, rest: text, offset: 0, unclosed: false };
  const c = text.indexOf(markers.close, from);
  if (c < 0) return { reasoning: text.slice(from), rest: '', offset: text.length, unclosed: true };
  const offset = c + markers.close.length;
  return { reasoning: text.slice(from, c), rest: text.slice(offset), offset, unclosed: false };
}

/** Shift a reading of `rest` to the indexes of the whole text. */
function shifted(parse: DialectParse, offset: number): DialectParse {
  if (offset === 0) return parse;
  return {
    calls: parse.calls.map((c) => ({ ...c, start: c.start + offset })),
    consumed: parse.consumed.map(([a, b]) => [a + offset, b + offset] as const),
    textNotes: parse.textNotes.map((t) => ({ ...t, at: t.at + offset })),
  };
}

/** What to read with: the syntax, the family (if any), and the server parsers to run. */
interface Plan {
  readonly syntax: FamilySyntax;
  readonly family?: FamilyParser;
  /** The server parser asked (server mode). */
  readonly serverParser?: ServerParserEntry;
  /** The parsers whose results the default reading is compared with. */
  readonly compare: readonly ServerParserEntry[];
  readonly diagnostics: readonly Diagnostic[];
}

function badOption(path: string, message: string): Diagnostic {
  return { code: 'parse/bad-option', severity: 'error', path, message };
}

function plan(options: FamilyParseOptions): Plan | { readonly error: Diagnostic } {
  const diagnostics: Diagnostic[] = [];
  const server = options.server;
  if (server !== undefined && server !== 'vllm' && server !== 'sglang') return { error: badOption('/server', `unknown server ${JSON.stringify(server)}: "vllm", "sglang", or no server for the strict reading`) };
  let family: FamilyParser | undefined;
  let syntaxName: string | undefined;
  let parserName: string | undefined;
  if (options.toolParser !== undefined) {
    const tp = TOOL_PARSERS.get(options.toolParser);
    if (!tp) return { error: badOption('/toolParser', `unknown tool parser ${JSON.stringify(options.toolParser)}: one of ${[...TOOL_PARSERS.keys()].join(', ')}`) };
    if (server !== undefined && !tp.servers.includes(server)) return { error: badOption('/toolParser', `${SERVER_WORD[server]} has no tool parser named ${JSON.stringify(options.toolParser)} (${tp.servers.map((s) => SERVER_WORD[s]).join(' and ')} has)`) };
    syntaxName = tp.syntax;
    parserName = options.toolParser;
    if (options.model !== undefined) {
      family = familyParser(options.model);
      if (family && family.syntax !== tp.syntax) diagnostics.push({ code: 'parse/parser-mismatch', severity: 'warning', path: '/toolParser', message: `${options.toolParser} reads the ${tp.syntax} syntax, not ${options.model}'s (${family.syntax}): this is what a server configured with it returns` });
    }
  } else {
    family = options.model !== undefined ? familyParser(options.model) : undefined;
    if (!family) return { error: badOption('/model', `no tool-call reader for ${JSON.stringify(options.model)}: one of ${FAMILY_PARSERS.map((f) => f.model).join(', ')}`) };
    syntaxName = family.syntax;
    if (server !== undefined) parserName = family[server];
  }
  const syntax = SYNTAXES.get(syntaxName);
  if (!syntax) return { error: badOption('/model', `the ${syntaxName} syntax has no reader yet`) };
  let serverParser: ServerParserEntry | undefined;
  if (server !== undefined) {
    serverParser = parserName !== undefined ? SERVER_PARSERS.get(`${server}:${parserName}`) : undefined;
    if (!serverParser) diagnostics.push({ code: 'parse/no-server-parser', severity: 'error', path: '/server', message: `${SERVER_WORD[server]} has no tool parser for ${options.model ?? syntaxName} output: the strict reading is returned` });
  }
  const compare: ServerParserEntry[] = [];
  if (serverParser === undefined) {
    if (parserName !== undefined && options.toolParser !== undefined) {
      for (const s of TOOL_PARSERS.get(parserName)!.servers) {
        const p = SERVER_PARSERS.get(`${s}:${parserName}`);
        if (p) compare.push(p);
      }
    } else if (family) {
      for (const s of ['vllm', 'sglang'] as const) {
        const name = family[s];
        const p = name !== undefined ? SERVER_PARSERS.get(`${s}:${name}`) : undefined;
        if (p) compare.push(p);
      }
    }
  }
  return { syntax, ...(family ? { family } : {}), ...(serverParser ? { serverParser } : {}), compare, diagnostics };
}

/**
 * The control string the text ends inside: a strict prefix of one of the syntax's control strings
 * or openers (or the family's reasoning markers) at the very end, not whitespace alone. The output
 * stopped while a marker was being written (max_tokens): a call before it may be missing its close.
 */
function endsInsideControl(text: string, p: Plan): string | undefined {
  const markers = [...p.syntax.controls, ...p.syntax.openers, ...(p.family?.reasoning ? [p.family.reasoning.open, p.family.reasoning.close] : [])];
  for (const m of markers) {
    for (let k = Math.min(m.length - 1, text.length); k > 0; k--) {
      const part = m.slice(0, k);
      if (part.trim() !== '' && text.endsWith(part)) return m;
    }
  }
  return undefined;
}

/** Why the last call of a text is cut off, read strictly (a server may return it as whole): undefined when it is not. */
function lastCallCut(text: string, p: Plan): string | undefined {
  const strict = p.syntax.read(text, undefined);
  const last = strict.calls[strict.calls.length - 1];
  if (last?.incomplete !== undefined) return last.incomplete;
  const inside = endsInsideControl(text, p);
  return inside !== undefined ? `the output ends inside ${JSON.stringify(inside)}` : undefined;
}

/**
 * Read the tool calls of one model output in its family's syntax. Without `server`: the syntax read
 * strictly (reasoning split off for a family that thinks), every repair, coercion and dropped
 * piece a diagnostic, a cut-off call marked incomplete (never runnable), and every place where
 * the family's vLLM or SGLang parser returns something else reported. With `server`: exactly what
 * that server sends after its parser (content, each call's `arguments` byte for byte).
 */
export function parseFamilyToolCalls(text: string, options: FamilyParseOptions): FamilyParseResult {
  const p = plan(options);
  if ('error' in p) return { content: text === '' ? null : text, tool_calls: [], diagnostics: [p.error] };
  const diagnostics: Diagnostic[] = [...p.diagnostics];
  const read = readParseTools(options.tools);
  pushAll(diagnostics, read.diagnostics);
  const tools = read.tools;

  if (p.serverParser) {
    const entry = p.serverParser;
    const label = `${SERVER_WORD[entry.server]} ${entry.name}`;
    const r = entry.parse(text, tools);
    if (r.exception !== undefined) diagnostics.push({ code: entry.server === 'vllm' ? 'parse/vllm-exception' : 'parse/sglang-exception', severity: 'warning', path: '', message: `${label} raises ${r.exception}: the server returns no tool calls and the whole output as content` });
    const sent = serverResponse(entry.server, text, r);
    const sentCalls = sent.tool_calls ?? [];
    // the server's parser may return as whole a call the strict reading finds cut off (or the text
    // ends inside a control string): the last call is then marked incomplete all the same
    const lastCut = sentCalls.length > 0 && r.exception === undefined ? lastCallCut(text, p) : undefined;
    const returned = sentCalls.map((c, i) => {
      const call = openAiCall(c.name, c.arguments, options.ids);
      const why = r.exception === undefined ? (r.tool_calls[i]?.incomplete ?? (i === sentCalls.length - 1 ? lastCut : undefined)) : undefined;
      if (why === undefined) return call;
      diagnostics.push(incompleteCall(i, c.name, why, label));
      return markIncomplete(call, why);
    });
    return { content: sent.content, tool_calls: returned, diagnostics };
  }

  const split = splitReasoning(text, p.family?.reasoning);
  if (split.unclosed) diagnostics.push({ code: 'parse/unclosed-reasoning', severity: 'warning', path: '/reasoning_content', message: `the output ends inside the reasoning (no ${p.family!.reasoning!.close}): all of it is reasoning, there is no answer` });
  const parse = shifted(p.syntax.read(split.rest, tools), split.offset);
  const reading = assembleReading(text, { ...parse, consumed: split.offset > 0 ? [[0, split.offset], ...parse.consumed] : parse.consumed });
  pushAll(diagnostics, reading.diagnostics);
  // a call the reader found closed, but the text ends inside a control string (its closing marker being written): cut off
  const cutIn = reading.calls.length > 0 && incompleteReason(reading.calls[reading.calls.length - 1]!) === undefined ? endsInsideControl(text, p) : undefined;
  if (cutIn !== undefined) {
    const last = reading.calls.length - 1;
    diagnostics.push(incompleteCall(last, reading.calls[last]!.function.name, `the output ends inside ${JSON.stringify(cutIn)}`, undefined));
  }
  const calls = reading.calls.map((c, i) => {
    const call = openAiCall(c.function.name, c.function.arguments, options.ids);
    const why = incompleteReason(c) ?? (i === reading.calls.length - 1 && cutIn !== undefined ? `the output ends inside ${JSON.stringify(cutIn)}` : undefined);
    return why === undefined ? call : markIncomplete(call, why);
  });
  const ours = { content: reading.content, calls: reading.calls.map((c) => c.function) };
  for (const entry of p.compare) {
    // the servers read the whole text (their reasoning parser is another step): compared on the answer only
    const r = entry.parse(split.rest, tools);
    pushAll(diagnostics, vllmDifferences(split.rest, ours, [[entry.name, asExtraction(entry.server, split.rest, r)]], SERVER_WORD[entry.server]));
  }
  return { content: reading.content, ...(split.reasoning !== undefined ? { reasoning_content: split.reasoning } : {}), tool_calls: calls, diagnostics };
}

/** Every syntax's control strings, for the family: what the security policy escapes in tool text. */
export function familyControls(model: string): readonly string[] {
  const f = familyParser(model);
  const s = f ? SYNTAXES.get(f.syntax) : undefined;
  return [...(s?.controls ?? []), ...(f?.reasoning ? [f.reasoning.open, f.reasoning.close] : [])];
}

/** Options of {@link parseToolCalls}: a family (or a server parser name), the tools, a server. */
export interface ParseToolCallsOptions extends FamilyParseOptions {
  /**
   * For hermes, qwen and qwen3-coder: an older vLLM parser (`hermes@02bb669b`, `hermes@becf329d`,
   * `qwen3_coder@0b13f933`, `qwen3_coder@00d0a333`) for `server: 'vllm'` and the differences
   * reported; absent, the parsers of the commit the family readings follow.
   */
  readonly version?: VllmParserVersion;
}

/**
 * Read the tool calls of one model output: every family behind `--model` (and every server
 * parser name with `toolParser`), anthropic's `<invoke>` calls, and the older vLLM parsers of
 * hermes/qwen3-coder (`version`). See parseFamilyToolCalls.
 */
export function parseToolCalls(text: string, options: ParseToolCallsOptions): FamilyParseResult {
  if (options.toolParser === undefined && (options.model === 'anthropic' || (options.version !== undefined && (XML_PARSE_MODELS as readonly string[]).includes(options.model ?? '')))) {
    if (options.server === 'sglang') {
      return { content: text === '' ? null : text, tool_calls: [], diagnostics: [badOption('/server', `SGLang has no parser for ${options.model}${options.version !== undefined ? ` at vLLM's ${options.version}` : ''}: "vllm", or no server for the strict reading`)] };
    }
    return parseXmlToolCalls(text, options as XmlParseOptions);
  }
  if (options.version !== undefined) {
    return { content: text === '' ? null : text, tool_calls: [], diagnostics: [badOption('/version', `a vLLM parser version goes with hermes, qwen or qwen3-coder, not ${JSON.stringify(options.model ?? options.toolParser)}`)] };
  }
  return parseFamilyToolCalls(text, options);
}
