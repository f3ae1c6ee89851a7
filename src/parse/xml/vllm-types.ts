/** What a vLLM tool parser's `extract_tool_calls` returns, and the parser versions emulated. */

/** The vLLM tool-parser versions emulated: parser file @ commit. */
export type VllmParserVersion = 'hermes@02bb669b' | 'hermes@becf329d' | 'qwen3_coder@0b13f933' | 'qwen3_coder@00d0a333';

/** Every emulated version, the newest of each parser first. */
export const VLLM_PARSER_VERSIONS: readonly VllmParserVersion[] = ['hermes@02bb669b', 'hermes@becf329d', 'qwen3_coder@00d0a333', 'qwen3_coder@0b13f933'];

/**
 * The newest version of each parser (the default). Read from the code itself, there being no
 * dates in the oracle: hermes@02bb669b and qwen3_coder@00d0a333 take the request's tools in the
 * parser constructor (`__init__(tokenizer, tools)`, the later ToolParser API), import the
 * reorganised protocol modules and the shared `find_tool_properties`/`partial_tag_overlap`
 * utilities; hermes@becf329d and qwen3_coder@0b13f933 still take only the tokenizer and read
 * the tools from each request.
 */
export const NEWEST_VLLM_VERSION = { hermes: 'hermes@02bb669b', qwen3_coder: 'qwen3_coder@00d0a333' } as const;

/** One call as vLLM returns it (ids left out). */
export interface VllmToolCall {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/** `ExtractedToolCallInformation`, plus the exception vLLM logged when it fell back to the whole output as content. */
export interface VllmExtraction {
  readonly tools_called: boolean;
  readonly tool_calls: readonly VllmToolCall[];
  readonly content: string | null;
  /** `Type: message` of the exception caught by `extract_tool_calls` (then no calls, content = the whole output). */
  readonly exception?: string;
}

/** The fallback of every parser's `except Exception`: no calls, the whole output as content. */
export function vllmFallback(text: string, exception: string): VllmExtraction {
  return { tools_called: false, tool_calls: [], content: text, exception };
}
