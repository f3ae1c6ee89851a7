/**
 * From a parsed Harmony completion to the OpenAI Chat Completions response a server returns.
 *
 * `vllm` (default) copies vLLM's newest path (`vllm/parser/harmony.py::HarmonyParser.parse` and the
 * chat-completion serving code, spec conversations §B.2 "Newest path"); `vllm-classic` copies the
 * older `OpenAIToolParser` + `parse_chat_output` path (§B.2 table). Both assume the server flags
 * `--tool-call-parser openai --enable-auto-tool-choice --reasoning-parser openai_gptoss`.
 *
 * Where the other servers differ (spec §B.4–B.7 and §C "Output side"; not emulated here):
 *
 * | topic                     | vLLM classic           | vLLM newest (`vllm`)          | llama.cpp                  | Ollama                     | SGLang                                  | mlx-lm           |
 * |---------------------------|------------------------|-------------------------------|----------------------------|----------------------------|-----------------------------------------|------------------|
 * | reasoning field           | `reasoning`            | `reasoning`                   | `reasoning_content`        | `reasoning`                | `reasoning_content`                     | none             |
 * | preamble (commentary)     | content only if no final | content, joined `\n` with finals | content                 | content                    | content, joined with a space            | raw text         |
 * | several finals            | last wins              | joined `\n`                   | concatenated               | concatenated               | joined with a space                     | raw              |
 * | call on analysis channel  | yes                    | yes                           | yes                        | yes                        | only `<\|call\|>`-ended with constrain    | no               |
 * | recipient w/o `functions.`| no                     | yes (bare names)              | no                         | yes (name kept)            | yes (last dot segment)                  | no               |
 * | needs `<\|constrain\|>json` | no                     | no                            | no                         | no                         | yes                                     | —                |
 * | arguments                 | `json.dumps(json.loads())`, ASCII-escaped | same       | compact dump / raw         | compact re-marshal         | `json.dumps(ensure_ascii=False)`        | —                |
 * | invalid JSON arguments    | raw text kept          | raw text kept                 | not a call (grammar)       | the request fails          | call dropped                            | —                |
 * | truncated tool call       | dropped                | returned with raw arguments   | partial / content          | error at done              | held/dropped                            | raw text         |
 * | tool call id              | `chatcmpl-tool-<32 hex>` | same                        | 32 alphanumerics           | `call_<8 [a-z0-9]>`        | unknown                                 | —                |
 * | message without channel   | dropped (open one → content) | dropped                 | skipped                    | content                    | normal text                             | raw              |
 * | end inside a header       | unknown                | raw text of the open message as content (flush fallback) | legacy: whole text as content [U] | — | —                              | raw              |
 * | streamed tool calls       | head + argument pieces | head (id, name) + raw argument pieces | diffs of the parsed message | whole call in the last chunk | [U]                          | —                |
 *
 * [U]: not verified (spec conversations §B marks it so).
 *
 * Failures: where vLLM fails the request (the Harmony parser raised on a token, an invalid
 * `tool_choice`, arguments Python's `json` cannot even attempt), `toChatCompletion` returns a
 * {@link ChatCompletionFailure} (`error` set, no `message`) with one error diagnostic; it never
 * throws for bad model output. It throws a CompileError only when `tools` cannot be read at all.
 */
import { randomUUID } from 'node:crypto';
import type { Diagnostic } from '../diagnostics.js';
import { readTools } from '../input/read.js';
import type { ToolDefinition } from '../input/types.js';
import type { HarmonyOpenMessage, HarmonyParseError, HarmonyParseResult, HarmonyStopToken, ParsedHarmonyMessage } from './types.js';
import { incompleteReason, markIncomplete } from './completeness.js';
import { PythonException, PythonJsonDecodeError, pythonJsonDumps, pythonJsonLoads } from '../emit/python/json-loads.js';
import { pushAll } from '../ir/arrays.js';

// ---------------------------------------------------------------------------------------
// Types

/** The servers whose Chat Completions output is copied. */
export type OpenAIServer = 'vllm' | 'vllm-classic';

/** Tools as a request gives them: any shape readTools accepts, or an already read/compiled set (`{definitions}` or `{tools, diagnostics}`). */
export type ToolsLike = unknown;

/** Options of toChatCompletion. */
export interface ChatCompletionOptions {
  /** Which server's mapping to copy (default `vllm`, the newest vLLM code). */
  readonly server?: OpenAIServer;
  /** The request's `tools` (any shape readTools accepts, or a compiled set); absent or empty = a request without tools. */
  readonly tools?: ToolsLike;
  /** The engine's finish reason; default from `parsed.lastToken` (`<|return|>`, `<|call|>`, `<|endoftext|>` → `stop`, else `length`). */
  readonly finishReason?: 'stop' | 'length';
  /** Tool call ids; default `chatcmpl-tool-` + 32 hex digits (vLLM's `make_tool_call_id`). */
  readonly id?: () => string;
  /** The request's `include_reasoning` (default true): false drops `reasoning`. */
  readonly includeReasoning?: boolean;
  /** The request's `tool_choice` as given (`none`, `auto`, `required`, `{type: "function", function: {name}}`); default `auto` with tools, `none` without. */
  readonly toolChoice?: unknown;
  /** The request's `parallel_tool_calls` (default true): false keeps only the first call. */
  readonly parallelToolCalls?: boolean;
}

/** One tool call of a Chat Completions message. */
export interface ChatCompletionToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/** The assistant message of a Chat Completions response. */
export interface ChatCompletionMessage {
  readonly role: 'assistant';
  readonly content: string | null;
  readonly reasoning: string | null;
  /** Absent when no call is returned (`tool_choice` auto/none); always present (maybe empty) for `required` and a named tool choice. */
  readonly tool_calls?: readonly ChatCompletionToolCall[];
}

/** Why the completion ended, as the response says it. */
export type ChatCompletionFinishReason = 'stop' | 'length' | 'tool_calls';

/** Why the server failed the request. */
export interface ChatCompletionError {
  /** `request`: the request itself is refused (HTTP 400); `parse`: the output parser raised and the request fails. */
  readonly type: 'request' | 'parse';
  /** The server's error text (the Harmony parser's message, the validator's message). */
  readonly message: string;
  /** HTTP status when known (400 for refused requests; unknown for a parser exception). */
  readonly status?: number;
  /** Index of the refused token (token input). */
  readonly tokenIndex?: number;
}

/** A successful response: the message and its finish reason. */
export interface ChatCompletion {
  readonly message: ChatCompletionMessage;
  readonly finish_reason: ChatCompletionFinishReason;
  /** What the server dropped, rewrote or fell back on (paths `/messages/<i>` into `parsed.messages`, `/open` for the open message). */
  readonly diagnostics: readonly Diagnostic[];
  readonly error?: undefined;
}

/** A failed request: what vLLM raised; there is no message. */
export interface ChatCompletionFailure {
  readonly error: ChatCompletionError;
  readonly diagnostics: readonly Diagnostic[];
  readonly message?: undefined;
  readonly finish_reason?: undefined;
}

/** What toChatCompletion returns: a response, or the failure vLLM answers with. */
export type ChatCompletionResult = ChatCompletion | ChatCompletionFailure;

// ---------------------------------------------------------------------------------------
// vLLM's rules, one function each

/** Token ids the gpt-oss engine stops on (`generation_config` eos ids): `<|return|>`, `<|call|>`, `<|endoftext|>`. */
export const ENGINE_STOP_TOKENS: readonly number[] = [200002, 200012, 199999];

/** The engine's finish reason for a completion whose last token is `lastToken`: `stop` on a stop token, else `length`. */
export function engineFinishReason(lastToken: number | undefined): 'stop' | 'length' {
  return lastToken !== undefined && ENGINE_STOP_TOKENS.includes(lastToken) ? 'stop' : 'length';
}

/** vLLM's `make_tool_call_id`: `chatcmpl-tool-` + a uuid4 as 32 hex digits. */
export function vllmToolCallId(): string {
  return `chatcmpl-tool-${randomUUID().replace(/-/g, '')}`;
}

const BUILTIN_NAMESPACES = ['python', 'browser', 'container'];

/**
 * vLLM's `is_function_recipient` on the Chat Completions path: `functions.X` with X non-empty, or
 * any bare recipient that is not `assistant`, does not start with `<|`, and whose first dot segment
 * is not a builtin namespace (`python`, `browser`, `container`).
 */
export function isFunctionRecipient(recipient: string | undefined): boolean {
  if (!recipient) return false;
  if (recipient.startsWith('<|')) return false;
  if (recipient.startsWith('functions.')) return recipient.length > 'functions.'.length;
  if (recipient === 'assistant') return false;
  return !BUILTIN_NAMESPACES.includes(recipient.split('.', 1)[0]);
}

/** vLLM's `extract_function_from_recipient`: the recipient minus a leading `functions.`. */
export function functionNameOf(recipient: string): string {
  return recipient.startsWith('functions.') ? recipient.slice('functions.'.length) : recipient;
}

// Python's str.isspace() characters, for rstrip().
const PY_TRAILING_SPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/;

/** vLLM's `_normalize_recipient`: a recipient holding `<|constrain|>` (older openai-harmony) is cut there, right-stripped, and dropped when nothing is left. */
export function normalizeRecipient(recipient: string | undefined): string | undefined {
  if (recipient === undefined) return undefined;
  const at = recipient.indexOf('<|constrain|>');
  if (at < 0) return recipient;
  const cut = recipient.slice(0, at).replace(PY_TRAILING_SPACE, '');
  return cut === '' ? undefined : cut;
}

/** Where vLLM puts a message's text (`_SegmentType`): a tool call, reasoning, content, or nowhere. */
export type SegmentKind = 'tool' | 'reasoning' | 'content' | 'ignore';

/** vLLM's `_SegmentType.from_channel_and_recipient`: function recipient → tool; `analysis` → reasoning; `final` or recipient-less `commentary` → content; else ignored. */
export function segmentKind(channel: string | undefined, recipient: string | undefined): SegmentKind {
  if (recipient !== undefined && isFunctionRecipient(recipient)) return 'tool';
  if (channel === 'analysis') return 'reasoning';
  if (channel === 'final' || (channel === 'commentary' && recipient === undefined)) return 'content';
  return 'ignore';
}

/** The outcome of `json.dumps(json.loads(text))` in Python. */
export type PythonJsonRoundTrip =
  | { readonly kind: 'ok'; readonly text: string }
  /** `json.loads` raised JSONDecodeError: vLLM keeps the text raw. */
  | { readonly kind: 'invalid'; readonly message: string; readonly offset: number }
  /** `json.loads` raised something else (RecursionError, ValueError on a huge integer): the exception escapes and vLLM fails the request. */
  | { readonly kind: 'raises'; readonly message: string };

// CPython's default recursion limit: vLLM's json.loads raises RecursionError about there (the exact depth depends on the caller's stack).
const JSON_MAX_DEPTH = 1000;

/**
 * `json.dumps(json.loads(text))` as CPython computes it: `", "` / `": "` separators, non-ASCII
 * escaped `\uXXXX` (ensure_ascii), key order kept (a duplicate key keeps its first position and
 * takes the last value), integers exact, floats as `repr` (`1e+21`, `3.0`), `NaN`/`Infinity`
 * accepted and printed back, lone surrogate escapes kept. The arguments rewrite of vLLM.
 */
export function pythonJsonRoundTrip(text: string): PythonJsonRoundTrip {
  try {
    return { kind: 'ok', text: pythonJsonDumps(pythonJsonLoads(text, undefined, { maxDepth: JSON_MAX_DEPTH }), { ensureAscii: true }) };
  } catch (e) {
    if (e instanceof PythonJsonDecodeError) return { kind: 'invalid', message: e.reason, offset: e.offset };
    if (e instanceof PythonException) return { kind: 'raises', message: e.message };
    throw e;
  }
}

/** vLLM's arguments for a call: raw when the content type is set and lacks `json`, else the Python round trip, raw when that raises JSONDecodeError. */
export function vllmArguments(content: string, contentType: string | undefined): PythonJsonRoundTrip & { readonly arguments: string } {
  if (contentType !== undefined && !contentType.includes('json')) return { kind: 'ok', text: content, arguments: content };
  const r = pythonJsonRoundTrip(content);
  return { ...r, arguments: r.kind === 'ok' ? r.text : content };
}

// ---------------------------------------------------------------------------------------
// Request-level rules

/** What the request asked for, after vLLM's validator (`check_tool_usage`). */
type ToolChoice = { kind: 'none' } | { kind: 'auto' } | { kind: 'required' } | { kind: 'named'; name: string };

/** Tool definitions from anything the API takes as tools (no reading when already read or compiled). */
export function toolDefinitionsOf(tools: ToolsLike): readonly ToolDefinition[] {
  if (tools === undefined || tools === null) return [];
  if (typeof tools === 'object' && !Array.isArray(tools) && !(tools instanceof Map)) {
    const o = tools as { definitions?: unknown; tools?: unknown; diagnostics?: unknown };
    if (Array.isArray(o.definitions) && o.definitions.every(isToolDefinition)) return o.definitions as ToolDefinition[];
    if (Array.isArray(o.tools) && Array.isArray(o.diagnostics) && o.tools.every(isToolDefinition)) return o.tools as ToolDefinition[];
  }
  return readTools(tools).tools;
}

function isToolDefinition(x: unknown): x is ToolDefinition {
  if (typeof x !== 'object' || x === null) return false;
  const t = x as Partial<ToolDefinition>;
  return typeof t.name === 'string' && typeof t.format === 'string' && typeof t.pointer === 'string' && typeof t.parametersPointer === 'string';
}

/** vLLM's request validator on `tool_choice`: the default, and what it refuses (400). */
function resolveToolChoice(given: unknown, tools: readonly ToolDefinition[], toolsGiven: boolean): ToolChoice | { refused: string } {
  // check_tool_usage: no tool_choice → "auto" when tools are given (default "none" otherwise)
  if (given === undefined || given === null) return tools.length > 0 ? { kind: 'auto' } : { kind: 'none' };
  if (given === 'none') return { kind: 'none' };
  if (!toolsGiven) return { refused: 'When using `tool_choice`, `tools` must be set.' };
  if (given === 'auto') return { kind: 'auto' };
  if (given === 'required') return { kind: 'required' };
  const named = typeof given === 'object' ? (given as { type?: unknown; function?: { name?: unknown } }) : undefined;
  if (named?.type === 'function' && typeof named.function?.name === 'string') {
    const name = named.function.name;
    if (!tools.some((t) => t.name === name)) return { refused: `Tool '${name}' has not been passed in \`tools\`.` };
    return { kind: 'named', name };
  }
  const shown = typeof given === 'string' ? given : JSON.stringify(given);
  return { refused: `Invalid value for \`tool_choice\`: ${shown}! Only named tools, "none", "auto" or "required" are supported.` };
}

/** The request settings both the batch and the streaming forms read. */
interface RequestView {
  readonly choice: ToolChoice;
  readonly includeReasoning: boolean;
  readonly parallel: boolean;
  readonly id: () => string;
}

function requestView(options: ChatCompletionOptions | ChatCompletionStreamOptions, diagnostics: Diagnostic[]): RequestView | ChatCompletionError {
  const given = options.tools;
  const tools = toolDefinitionsOf(given);
  const toolsGiven = given !== undefined && given !== null;
  if (toolsGiven && tools.length === 0) {
    diagnostics.push({
      code: 'response/empty-tools',
      severity: 'warning',
      path: '/tools',
      message: 'the request has an empty tools list; the newest vLLM refuses `tools: []` with HTTP 400 (read here as a request without tools)',
    });
  }
  const choice = resolveToolChoice(options.toolChoice, tools, toolsGiven && tools.length > 0);
  if ('refused' in choice) return { type: 'request', message: choice.refused, status: 400 };
  return { choice, includeReasoning: options.includeReasoning ?? true, parallel: options.parallelToolCalls ?? true, id: options.id ?? vllmToolCallId };
}

function failure(error: ChatCompletionError, diagnostics: Diagnostic[], path: string): ChatCompletionFailure {
  diagnostics.push({ code: error.type === 'request' ? 'response/request-refused' : 'response/request-failed', severity: 'error', path, message: `vLLM fails the request: ${error.message}` });
  return { error, diagnostics };
}

// ---------------------------------------------------------------------------------------
// toChatCompletion

/** One call found in the output, before the request decides whether it is returned. */
interface FoundCall {
  readonly index: number;
  readonly name: string;
  readonly arguments: string;
  /** False when the end of the output cut it off (no stop token): the returned call is marked (completeness.ts). */
  readonly complete: boolean;
}

/** What never came for a Harmony call cut off by the end of the output. */
const NO_CALL_TOKEN = 'no <|call|>';

/**
 * The Chat Completions message and finish reason the server returns for a parsed Harmony completion
 * (without response ids, `usage`…). A call cut off by the end of the output (no `<|call|>`) is returned
 * as vLLM returns it, byte for byte, and marked beside its object (completeness.ts): checkToolCalls
 * reports it `call/incomplete`, never runnable. Bad model output never throws: vLLM's failures come back as a
 * {@link ChatCompletionFailure}. Feed a strict parse (`parseHarmony(…, {mode: 'strict'})`) for vLLM's
 * exact behaviour; a tolerant parse gives what the recovered messages would map to.
 */
export function toChatCompletion(parsed: HarmonyParseResult, options: ChatCompletionOptions = {}): ChatCompletionResult {
  const diagnostics: Diagnostic[] = [];
  const view = requestView(options, diagnostics);
  if ('type' in view) return failure(view, diagnostics, '/tool_choice');
  // HarmonyParser.process_chunk lets a HarmonyError on a token escape: the request fails
  if (parsed.error && parsed.error.stage === 'token') {
    return failure({ type: 'parse', message: parsed.error.message, ...(parsed.error.tokenIndex !== undefined ? { tokenIndex: parsed.error.tokenIndex } : {}) }, diagnostics, '/completion');
  }
  const engine = options.finishReason ?? engineFinishReason(parsed.lastToken);
  const mapped = (options.server ?? 'vllm') === 'vllm-classic' ? mapClassic(parsed, diagnostics) : mapNewest(parsed, diagnostics);
  if ('raises' in mapped) return failure({ type: 'parse', message: mapped.raises }, diagnostics, mapped.path);
  return shapeResponse(mapped, engine, view, diagnostics);
}

interface Mapped {
  readonly content: string | null;
  readonly reasoning: string | null;
  readonly calls: readonly FoundCall[];
}

/** vLLM's HarmonyParser.parse: every completed assistant message classified; content and reasoning parts joined with `\n`. */
function mapNewest(parsed: HarmonyParseResult, diagnostics: Diagnostic[]): Mapped | { raises: string; path: string } {
  const content: string[] = [];
  const reasoning: string[] = [];
  const calls: FoundCall[] = [];
  for (let i = 0; i < parsed.messages.length; i++) {
    const m = parsed.messages[i];
    const path = `/messages/${i}`;
    // HarmonyParser.parse skips messages whose author is not the assistant (fabricated tool results, user turns)
    if (m.role !== 'assistant') {
      diagnostics.push({ code: 'response/message-dropped', severity: 'info', path, message: `a message authored by ${describeAuthor(m)} in the output is ignored` });
      continue;
    }
    const recipient = normalizeRecipient(m.recipient);
    const kind = segmentKind(m.channel, recipient);
    switch (kind) {
      case 'reasoning':
        // empty texts are skipped (`case REASONING if … and text`)
        if (m.content) reasoning.push(m.content);
        break;
      case 'content':
        if (m.content) content.push(m.content);
        break;
      case 'tool': {
        const a = vllmArguments(m.content, m.content_type);
        if (a.kind === 'raises') return { raises: `json.loads on the arguments of ${recipient}: ${a.message}`, path };
        if (a.kind === 'invalid') {
          diagnostics.push({ code: 'response/arguments-not-json', severity: 'warning', path, message: `the arguments of ${recipient} are not JSON (${a.message}); returned as written` });
        }
        const complete = i < parsed.completedBeforeEnd;
        if (!complete) {
          diagnostics.push({ code: 'response/truncated-call', severity: 'warning', path, message: `the call to ${recipient} was cut off by the end of the output; vLLM returns it with the arguments written so far (checkToolCalls: call/incomplete, never runnable)` });
        }
        calls.push({ index: i, name: functionNameOf(recipient!), arguments: a.arguments, complete });
        break;
      }
      case 'ignore':
        diagnostics.push({ code: 'response/message-dropped', severity: 'info', path, message: `${describeMessage(m)} is neither content, reasoning nor a function call: dropped` });
        break;
    }
  }
  // flush(): process_eos raised (the output ended inside a header): vLLM decodes the tokens it kept since the
  // last completed message (`_current_message_tokens`: from the `<|start|>` after that message's stop token, or
  // from the first token) and adds them as one more `final` part: `Answer.` + `<|start|>assistant` → `Answer.\n<|start|>assistant`
  const open = parsed.open;
  if (open && open.state === 'header') {
    diagnostics.push({
      code: 'response/flush-fallback',
      severity: 'warning',
      path: '/open',
      message: `the output ended inside a message header; vLLM returns the header's raw text ${JSON.stringify(open.raw)} as content`,
    });
    if (open.raw) content.push(open.raw);
  }
  return { content: content.length ? content.join('\n') : null, reasoning: reasoning.length ? reasoning.join('\n') : null, calls };
}

/** The older vLLM path (OpenAIToolParser + parse_chat_output): last final wins, a preamble only without a final, an open call dropped. */
function mapClassic(parsed: HarmonyParseResult, diagnostics: Diagnostic[]): Mapped | { raises: string; path: string } {
  const reasoning: string[] = [];
  const calls: FoundCall[] = [];
  let final: string | undefined;
  let preamble: string | undefined;
  let openContent: string | undefined;
  const done = parsed.completedBeforeEnd;
  for (let i = 0; i < parsed.messages.length; i++) {
    const m = parsed.messages[i];
    const path = `/messages/${i}`;
    if (m.role !== 'assistant') continue;
    const complete = i < done;
    // the open (incomplete) analysis message is appended to reasoning too
    if (m.channel === 'analysis' && m.content) reasoning.push(m.content);
    if (m.recipient !== undefined && m.recipient.startsWith('functions.')) {
      if (!complete) {
        diagnostics.push({ code: 'response/truncated-call', severity: 'warning', path, message: `the call to ${m.recipient} was cut off by the end of the output; the classic vLLM path drops it` });
        continue;
      }
      const a = vllmArguments(m.content, m.content_type);
      if (a.kind === 'raises') return { raises: `json.loads on the arguments of ${m.recipient}: ${a.message}`, path };
      calls.push({ index: i, name: m.recipient.slice('functions.'.length), arguments: a.arguments, complete: true });
      continue;
    }
    if (!complete) {
      // the open message is content only on `final` or no channel, without a recipient
      if ((m.channel === 'final' || m.channel === undefined) && m.recipient === undefined) openContent = m.content;
      continue;
    }
    // the last final wins (an assignment in a loop)
    if (m.channel === 'final') final = m.content;
    else if (m.channel === 'commentary' && m.recipient === undefined) preamble = m.content;
  }
  const content = final || (final === undefined ? openContent : undefined) || preamble || null;
  return { content, reasoning: reasoning.length ? reasoning.join('\n') : null, calls };
}

/** The serving layer: which calls are returned under the request's tool_choice, and the finish reason. */
function shapeResponse(mapped: Mapped, engine: 'stop' | 'length', view: RequestView, diagnostics: Diagnostic[]): ChatCompletion {
  const reasoning = view.includeReasoning ? mapped.reasoning : null;
  let calls = mapped.calls;
  if (!view.parallel && calls.length > 1) {
    // maybe_filter_parallel_tool_calls keeps the first call
    for (const c of calls.slice(1)) {
      diagnostics.push({ code: 'response/tool-call-not-returned', severity: 'warning', path: `/messages/${c.index}`, message: `the call to ${c.name} is dropped: parallel_tool_calls is false and only the first call is returned` });
    }
    calls = calls.slice(0, 1);
  }
  // a cut call is returned as vLLM returns it; its completeness goes beside it, not into its JSON
  const toToolCalls = () =>
    calls.map((c): ChatCompletionToolCall => {
      const call: ChatCompletionToolCall = { id: view.id(), type: 'function', function: { name: c.name, arguments: c.arguments } };
      return c.complete ? call : markIncomplete(call, NO_CALL_TOKEN);
    });
  switch (view.choice.kind) {
    case 'none':
      for (const c of calls) {
        diagnostics.push({
          code: 'response/tool-call-not-returned',
          severity: 'warning',
          path: `/messages/${c.index}`,
          message: `the model called ${c.name} with arguments ${c.arguments}, but the request has no tools (or tool_choice "none"): vLLM parses the call and does not return it (tool_calls_parsed_but_not_returned)`,
        });
      }
      return { message: { role: 'assistant', content: mapped.content, reasoning }, finish_reason: engine, diagnostics };
    case 'auto':
      if (calls.length === 0) return { message: { role: 'assistant', content: mapped.content, reasoning }, finish_reason: engine, diagnostics };
      return { message: { role: 'assistant', content: mapped.content, reasoning, tool_calls: toToolCalls() }, finish_reason: 'tool_calls', diagnostics };
    case 'required':
      // content `or ""`, and finish_reason tool_calls only when the engine stopped
      return { message: { role: 'assistant', content: mapped.content ?? '', reasoning, tool_calls: toToolCalls() }, finish_reason: engine === 'stop' ? 'tool_calls' : engine, diagnostics };
    case 'named':
      // a named tool choice keeps the engine's finish reason
      return { message: { role: 'assistant', content: mapped.content ?? '', reasoning, tool_calls: toToolCalls() }, finish_reason: engine, diagnostics };
  }
}

function describeAuthor(m: ParsedHarmonyMessage): string {
  return m.name !== undefined ? `${m.role} ${JSON.stringify(m.name)}` : JSON.stringify(m.role);
}

function describeMessage(m: ParsedHarmonyMessage): string {
  const channel = m.channel === undefined ? 'a message without a channel' : `a message on channel ${JSON.stringify(m.channel)}`;
  return m.recipient !== undefined ? `${channel} to ${JSON.stringify(m.recipient)}` : channel;
}

// ---------------------------------------------------------------------------------------
// Streaming

/**
 * What the streaming form consumes, one event per parser step (the events of `createHarmonyParser`
 * fit): `message-start` once the header is complete (after `<|message|>`), `content` for each decoded
 * piece, `message-end` when a stop token (or the end of the input: `stop` undefined or
 * `end-of-input`) completes it, `error` when the parser refused a token; `diagnostic` is ignored.
 */
export type HarmonyStreamEvent =
  | { readonly type: 'message-start'; readonly role: string; readonly name?: string; readonly channel?: string; readonly recipient?: string; readonly content_type?: string }
  | { readonly type: 'content'; readonly delta: string }
  | { readonly type: 'message-end'; readonly message: ParsedHarmonyMessage; readonly stop?: HarmonyStopToken | 'end-of-input' }
  | { readonly type: 'error'; readonly error: HarmonyParseError }
  | { readonly type: 'diagnostic'; readonly diagnostic: Diagnostic };

/** Options of createChatCompletionStream (the batch options without `server` and `finishReason`). */
export interface ChatCompletionStreamOptions {
  readonly tools?: ToolsLike;
  readonly id?: () => string;
  readonly includeReasoning?: boolean;
  readonly toolChoice?: unknown;
  readonly parallelToolCalls?: boolean;
}

/** A tool call piece of a streamed delta: the first carries `id`, `type` and `name`; later ones only `arguments`. */
export interface ChatCompletionToolCallDelta {
  readonly index: number;
  readonly id?: string;
  readonly type?: 'function';
  readonly function: { readonly name?: string; readonly arguments?: string };
}

/** A streamed delta (`choices[0].delta`). */
export interface ChatCompletionDelta {
  readonly role?: 'assistant';
  readonly content?: string;
  readonly reasoning?: string;
  readonly tool_calls?: readonly ChatCompletionToolCallDelta[];
}

/** One streamed chunk (`choices[0]`). */
export interface ChatCompletionChunk {
  readonly delta: ChatCompletionDelta;
  readonly finish_reason: ChatCompletionFinishReason | null;
  readonly error?: undefined;
}

/** The error chunk vLLM streams (`data: {"error": …}`, then `[DONE]`) when the parser raises. */
export interface ChatCompletionStreamError {
  readonly error: ChatCompletionError;
  readonly delta?: undefined;
  readonly finish_reason?: undefined;
}

/** What a stream step yields. */
export type ChatCompletionStreamItem = ChatCompletionChunk | ChatCompletionStreamError;

/** How the input ended, for the finish chunk. */
export interface ChatCompletionStreamEnd {
  /** The engine's finish reason; default from `lastToken`. */
  readonly finishReason?: 'stop' | 'length';
  readonly lastToken?: number;
  /** The message open at the end: in a header, its raw text is streamed as content (vLLM's flush fallback). */
  readonly open?: HarmonyOpenMessage;
}

/** A Chat Completions stream fed parser events. */
export interface ChatCompletionStream {
  /** The chunks to send for one event (the first call also yields the `role: assistant, content: ""` chunk). */
  push(event: HarmonyStreamEvent): ChatCompletionStreamItem[];
  /** The last chunks: the flush fallback's content, then the finish reason. */
  end(info?: ChatCompletionStreamEnd): ChatCompletionStreamItem[];
  /** What was dropped or fell back, as in toChatCompletion. */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * A streaming Chat Completions response as vLLM streams it (`HarmonyParser.parse_delta` and the
 * stream generator): first `{role: "assistant", content: ""}`; `final` and recipient-less
 * `commentary` text as `content`, `analysis` as `reasoning`; a function call as a first tool delta
 * `{index, id, type, function: {name, arguments: ""}}` then raw argument pieces; `finish_reason`
 * `tool_calls` when a call was streamed, the tool choice is not named and the engine stopped.
 *
 * Streaming differs from the batch response the way vLLM's does: parts are not joined with `\n`
 * (two finals stream as `ab`, not `a\nb`), arguments are raw (not re-serialised), the role of a
 * message is not checked, `finish_reason` stays `length` when the engine ran out (the batch form
 * says `tool_calls`), and a character cut at the end is not streamed (no delta for it). Known divergence: with tool_choice `none` (the default without tools)
 * vLLM's newest stream generator skips the Harmony parser and streams the decoded text as content;
 * here tool deltas are dropped (with a diagnostic) and the rest is streamed as with tools.
 */
export function createChatCompletionStream(options: ChatCompletionStreamOptions = {}): ChatCompletionStream {
  const diagnostics: Diagnostic[] = [];
  const view = requestView(options, diagnostics);
  let started = false;
  let failed = false;
  let finished = false;
  let kind: SegmentKind = 'ignore';
  let recipient: string | undefined;
  let messageIndex = 0;
  let nextToolIndex = 0;
  let toolsStreamed = false;
  let currentCall: number | undefined;
  // the head delta of the call being streamed: marked cut off (completeness.ts) when its message ends without a stop token
  let currentHead: ChatCompletionToolCallDelta | undefined;

  const first = (): ChatCompletionStreamItem[] => {
    if (started) return [];
    started = true;
    return [{ delta: { role: 'assistant', content: '' }, finish_reason: null }];
  };
  const fail = (error: ChatCompletionError, path: string): ChatCompletionStreamItem[] => {
    failed = true;
    diagnostics.push({ code: error.type === 'request' ? 'response/request-refused' : 'response/request-failed', severity: 'error', path, message: `vLLM fails the request: ${error.message}` });
    return [{ error }];
  };
  // maybe_filter_parallel_tool_calls: with parallel_tool_calls false only index 0 is sent
  const sent = (index: number | undefined): index is number => index !== undefined && (('type' in view) || view.parallel || index === 0);

  const push = (event: HarmonyStreamEvent): ChatCompletionStreamItem[] => {
    if (failed || finished) return [];
    if ('type' in view) return fail(view, '/tool_choice');
    const out = first();
    switch (event.type) {
      case 'message-start': {
        // segments are classified by channel and recipient only (parse_delta does not look at the role)
        recipient = normalizeRecipient(event.recipient);
        kind = segmentKind(event.channel, recipient);
        currentCall = undefined;
        if (kind === 'tool') {
          if (view.choice.kind === 'none') {
            diagnostics.push({ code: 'response/tool-call-not-returned', severity: 'warning', path: `/messages/${messageIndex}`, message: `the call to ${recipient} is not streamed: the request has no tools (or tool_choice "none")` });
            break;
          }
          currentCall = nextToolIndex++;
          toolsStreamed = true;
          if (!sent(currentCall)) {
            diagnostics.push({ code: 'response/tool-call-not-returned', severity: 'warning', path: `/messages/${messageIndex}`, message: `the call to ${recipient} is not streamed: parallel_tool_calls is false and only the first call is sent` });
            break;
          }
          currentHead = { index: currentCall, id: view.id(), type: 'function', function: { name: functionNameOf(recipient!), arguments: '' } };
          out.push({ delta: { tool_calls: [currentHead] }, finish_reason: null });
        }
        break;
      }
      case 'content': {
        if (event.delta === '') break;
        if (kind === 'content') out.push({ delta: { content: event.delta }, finish_reason: null });
        else if (kind === 'reasoning' && view.includeReasoning) out.push({ delta: { reasoning: event.delta }, finish_reason: null });
        else if (kind === 'tool' && sent(currentCall)) out.push({ delta: { tool_calls: [{ index: currentCall, function: { arguments: event.delta } }] }, finish_reason: null });
        break;
      }
      case 'message-end':
        if (currentHead && (event.stop === undefined || event.stop === 'end-of-input')) markIncomplete(currentHead, NO_CALL_TOKEN);
        currentHead = undefined;
        kind = 'ignore';
        recipient = undefined;
        currentCall = undefined;
        messageIndex++;
        break;
      case 'error':
        if (event.error.stage === 'token') {
          return [...out, ...fail({ type: 'parse', message: event.error.message, ...(event.error.tokenIndex !== undefined ? { tokenIndex: event.error.tokenIndex } : {}) }, '/completion')];
        }
        break;
      case 'diagnostic':
        break;
    }
    return out;
  };

  const end = (info: ChatCompletionStreamEnd = {}): ChatCompletionStreamItem[] => {
    if (failed || finished) return [];
    if ('type' in view) return fail(view, '/tool_choice');
    finished = true;
    // the input ended inside a call's content (no message-end pushed): it was cut off
    if (currentHead) markIncomplete(currentHead, NO_CALL_TOKEN);
    const out = first();
    const engine = info.finishReason ?? engineFinishReason(info.lastToken);
    const delta: { content?: string } = {};
    if (info.open && info.open.state === 'header') {
      // flush(): process_eos raised; the raw text of the open message is a `final` segment
      diagnostics.push({ code: 'response/flush-fallback', severity: 'warning', path: '/open', message: `the output ended inside a message header; vLLM streams the header's raw text ${JSON.stringify(info.open.raw)} as content` });
      if (info.open.raw) delta.content = info.open.raw;
    }
    const named = view.choice.kind === 'named';
    out.push({ delta, finish_reason: toolsStreamed && !named && engine === 'stop' ? 'tool_calls' : engine });
    return out;
  };

  return { push, end, diagnostics };
}

/** The events a parser would have emitted for a whole parse (one content event per message), ending with `error` when it refused a token. */
export function eventsFromParse(parsed: HarmonyParseResult): HarmonyStreamEvent[] {
  const events: HarmonyStreamEvent[] = [];
  parsed.messages.forEach((m, i) => {
    events.push({
      type: 'message-start',
      role: m.role,
      ...(m.name !== undefined ? { name: m.name } : {}),
      ...(m.channel !== undefined ? { channel: m.channel } : {}),
      ...(m.recipient !== undefined ? { recipient: m.recipient } : {}),
      ...(m.content_type !== undefined ? { content_type: m.content_type } : {}),
    });
    if (m.content !== '') events.push({ type: 'content', delta: m.content });
    const stop = parsed.stops[i];
    events.push({ type: 'message-end', message: m, ...(stop !== undefined ? { stop } : {}) });
  });
  if (parsed.error && parsed.error.stage === 'token') events.push({ type: 'error', error: parsed.error });
  return events;
}

/** Every chunk of a streamed response for a whole parse (replayed through createChatCompletionStream). */
export function chatCompletionChunks(parsed: HarmonyParseResult, options: ChatCompletionStreamOptions & { readonly finishReason?: 'stop' | 'length' } = {}): { chunks: ChatCompletionStreamItem[]; diagnostics: readonly Diagnostic[] } {
  const stream = createChatCompletionStream(options);
  const chunks: ChatCompletionStreamItem[] = [];
  for (const e of eventsFromParse(parsed)) pushAll(chunks, stream.push(e));
  pushAll(chunks, stream.end({
      ...(options.finishReason !== undefined ? { finishReason: options.finishReason } : {}),
      ...(parsed.lastToken !== undefined ? { lastToken: parsed.lastToken } : {}),
      ...(parsed.open !== undefined ? { open: parsed.open } : {}),
    }));
  return { chunks, diagnostics: stream.diagnostics };
}

/**
 * Concatenate streamed chunks the way a client does: content, reasoning, and each tool call by index.
 * A call whose message the stream saw end without a stop token keeps that mark (completeness.ts, not
 * in the JSON): checkToolCalls reports it `call/incomplete`, never runnable.
 */
export function accumulateChunks(chunks: readonly ChatCompletionStreamItem[]): { content: string | null; reasoning: string | null; tool_calls: ChatCompletionToolCall[]; finish_reason: ChatCompletionFinishReason | null; error?: ChatCompletionError } {
  let content: string | null = null;
  let reasoning: string | null = null;
  const calls: { id: string; name: string; arguments: string; cut?: string }[] = [];
  let finish: ChatCompletionFinishReason | null = null;
  for (const c of chunks) {
    if (c.error) return { content, reasoning, tool_calls: [], finish_reason: null, error: c.error };
    // the first chunk's `content: ""` does not make the content non-null
    if (c.delta.content) content = (content ?? '') + c.delta.content;
    if (c.delta.reasoning) reasoning = (reasoning ?? '') + c.delta.reasoning;
    for (const t of c.delta.tool_calls ?? []) {
      const call = (calls[t.index] ??= { id: '', name: '', arguments: '' });
      if (t.id !== undefined) call.id = t.id;
      call.cut ??= incompleteReason(t);
      if (t.function.name !== undefined) call.name += t.function.name;
      if (t.function.arguments !== undefined) call.arguments += t.function.arguments;
    }
    if (c.finish_reason !== null) finish = c.finish_reason;
  }
  // a call the stream marked cut off keeps the mark (completeness.ts), not in its JSON
  const toolCalls = calls.map((c): ChatCompletionToolCall => {
    const call: ChatCompletionToolCall = { id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } };
    return c.cut === undefined ? call : markIncomplete(call, c.cut);
  });
  return { content, reasoning, tool_calls: toolCalls, finish_reason: finish };
}
