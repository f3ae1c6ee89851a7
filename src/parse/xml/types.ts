/** The XML dialects' tool-call parsing: options, result, and the diagnostic codes it reports. */
import type { Diagnostic, Severity } from '../../diagnostics.js';
import type { VllmParserVersion } from './vllm-types.js';

/** The model families whose tool calls are read (qwen and hermes write the same `<tool_call>{JSON}</tool_call>` calls). */
export type XmlParseModel = 'hermes' | 'qwen' | 'qwen3-coder' | 'anthropic';

/** Every model family, for validation. */
export const XML_PARSE_MODELS: readonly XmlParseModel[] = ['hermes', 'qwen', 'qwen3-coder', 'anthropic'];

/** Options of {@link parseToolCalls}. */
export interface XmlParseOptions {
  readonly model: XmlParseModel;
  /**
   * The request's tools: anything `readTools` accepts (OpenAI, Anthropic, MCP, … as JSON text
   * or values) or a compiled tool set `{definitions, tools}`. Absent: a request without tools.
   */
  readonly tools?: unknown;
  /** `vllm`: return exactly what vLLM's parser returns (its quirks included). Absent: decode correctly, and report where vLLM differs. */
  readonly server?: 'vllm';
  /**
   * The vLLM parser version (`parser@commit`), for `server: 'vllm'` and for the differences the
   * default mode reports. Default: the newest of the model's parser (hermes@02bb669b,
   * qwen3_coder@00d0a333). A version of the other parser emulates a misconfigured server.
   */
  readonly version?: VllmParserVersion;
  /** Give each call an id as vLLM does (`chatcmpl-tool-` and 32 random hex digits). */
  readonly ids?: boolean;
}

/** One tool call, in the OpenAI Chat Completions shape. */
export interface XmlToolCall {
  readonly id?: string;
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    /** The arguments as JSON text, written as vLLM writes them (`{"a": 1, "b": "x"}`, non-ASCII as is). */
    readonly arguments: string;
  };
}

/**
 * What the model wrote, read: its text outside the calls, the calls, and what was noticed.
 * Diagnostic paths: `/tool_calls/N` (and `/tool_calls/N/function/arguments/PARAM`) for a returned
 * call, `/content` for the content, `/text#I` for index I of the model's text (a dropped call,
 * stray text), `/tools…` for the tools option, `` for the whole output.
 */
export interface XmlParseResult {
  /** The text outside the calls (vLLM: the text before the first call), or null when there is none. */
  readonly content: string | null;
  readonly tool_calls: readonly XmlToolCall[];
  readonly diagnostics: readonly Diagnostic[];
}

/** Every diagnostic code the parsers report, with its usual severity and meaning. */
export const XML_PARSE_CODES: Readonly<Record<string, { readonly severity: Severity; readonly meaning: string }>> = {
  'parse/bad-option': { severity: 'error', meaning: 'an unknown model, server or version' },
  'parse/tools-unreadable': { severity: 'error', meaning: 'the tools option cannot be read (its errors follow); parsed as without tools' },
  'parse/parser-mismatch': { severity: 'warning', meaning: "the vLLM version names another dialect's parser than the model's" },
  'parse/no-vllm-parser': { severity: 'error', meaning: 'vLLM has no parser for this dialect (anthropic); the default parse is returned' },
  'parse/vllm-exception': { severity: 'warning', meaning: "vLLM's parser raises: no calls, the whole output as content" },
  'parse/vllm-differs': { severity: 'warning', meaning: 'vLLM returns another call, value or content here' },
  'parse/sglang-exception': { severity: 'warning', meaning: "SGLang's parser raises: no calls, the whole output as content" },
  'parse/sglang-differs': { severity: 'warning', meaning: 'SGLang returns another call, value or content here' },
  'parse/no-server-parser': { severity: 'error', meaning: 'the server has no tool parser for this family (or no parser of that name): the default reading is returned' },
  'parse/unclosed-reasoning': { severity: 'warning', meaning: 'the output ends inside the reasoning (its closing marker never came): all of it is reasoning' },
  'parse/no-tools': { severity: 'info', meaning: 'no tools were given: XML parameter values stay text' },
  'parse/invalid-json': { severity: 'error', meaning: "a call's JSON is not valid: the call is dropped, its text stays content" },
  'parse/invalid-call': { severity: 'error', meaning: 'a call without a string name, with non-object arguments, or a malformed tag: dropped' },
  'parse/invalid-name': { severity: 'error', meaning: 'a function name that cannot be one (empty, spaces, braces…) and is no tool: dropped' },
  'parse/truncated': { severity: 'error', meaning: 'the output ends inside a call: dropped, its text stays content' },
  'parse/incomplete-call': { severity: 'error', meaning: 'the output ends before a returned call is closed (no </tool_call>, </function>, </invoke>…): it may be cut off; marked incomplete, never runnable' },
  'parse/stray-close-tag': { severity: 'warning', meaning: 'a block closing tag (</tool_call>, </function_calls>) after a call closes no block: dropped from the content' },
  'parse/type-mismatch': { severity: 'error', meaning: "a value that fits none of the schema's types: kept as text" },
  'parse/unclosed': { severity: 'warning', meaning: 'a closing tag is missing, but what follows ends the value or call (the next parameter, the call\'s close, more calls or blocks): read' },
  'parse/unexpected-text': { severity: 'warning', meaning: 'text inside a call block that is no parameter or call' },
  'parse/empty-tool-call': { severity: 'warning', meaning: 'a call block that holds no call: kept as text' },
  'parse/wrong-dialect': { severity: 'warning', meaning: "a call written in another dialect's format: kept as text" },
  'parse/no-wrapper': { severity: 'warning', meaning: 'a call outside its <tool_call>/<function_calls> block: read' },
  'parse/literal-tag-in-value': { severity: 'warning', meaning: 'a value holds a tag of the format as text' },
  'parse/duplicate-parameter': { severity: 'warning', meaning: 'a parameter (or JSON key) given twice: the last value is used' },
  'parse/unknown-tool': { severity: 'warning', meaning: 'no tool has this name' },
  'parse/unknown-parameter': { severity: 'warning', meaning: 'the tool declares no such parameter' },
  'parse/not-in-enum': { severity: 'warning', meaning: "a value outside the schema's enum/const" },
  'parse/coerced': { severity: 'info', meaning: 'a value read from another spelling (Python None/True, a Python literal, whitespace, a JSON string holding JSON); warning when it changes the structure' },
  'parse/ambiguous-value': { severity: 'info', meaning: 'a value read as a non-string type that the schema would also take as a string' },
  'parse/ignored-key': { severity: 'info', meaning: 'a key of a JSON call other than name and arguments' },
  'parse/unresolved-ref': { severity: 'info', meaning: "a parameter schema's $ref that does not resolve: the value stays text" },
};
