/**
 * The family tool-call parsers: one module per output syntax, each giving
 *
 * - the servers' own parsers as behaviour (`ServerParserEntry`): exactly what vLLM's
 *   `extract_tool_calls` or SGLang's `detect_and_parse` returns for a whole text, at the commits
 *   `../shared/oracles/family-parse/README.md` names, quirks included;
 * - the family's syntax read strictly (`FamilySyntax.read`): every call with where it stands,
 *   whether it was closed, and every repair or dropped piece as a note.
 *
 * The assembly (content, diagnostics, incompleteness, reasoning, the server response) is in
 * ./index.ts, once for every syntax.
 */
import type { DialectParse } from '../xml/draft.js';
import type { ParseTool } from '../xml/tools.js';

/** One call as a server's parser returns it: the name and the `arguments` string byte for byte. */
export interface ServerCall {
  readonly name: string;
  readonly arguments: string;
  /**
   * Set when the text ended before this call's closing marker came (the output may be cut off by
   * max_tokens): the closing marker(s) that never came, e.g. `no <｜tool▁call▁end｜>`. Not part of
   * what the server returns; the call is then never runnable.
   */
  readonly incomplete?: string;
}

/**
 * What a server's tool parser returns for a whole text (non-streaming). vLLM:
 * `ExtractedToolCallInformation(tools_called, tool_calls, content)`. SGLang:
 * `StreamingParseResult(normal_text, calls)` as `content` and `tool_calls`, with `has_tool_call`.
 */
export interface ParserResult {
  /** vLLM `content` (None → null); SGLang `normal_text` (a string, possibly ""). */
  readonly content: string | null;
  readonly tool_calls: readonly ServerCall[];
  /** vLLM `tools_called`; SGLang: whether any call came back. */
  readonly tools_called: boolean;
  /** SGLang only: `detector.has_tool_call(text)`. */
  readonly has_tool_call?: boolean;
  /**
   * Set when the parser (or the server around it) raised: `Type: message` as Python prints it.
   * The parser's other fields are then what the server falls back to.
   */
  readonly exception?: string;
}

/** The servers whose parsers are emulated. */
export type ParseServer = 'vllm' | 'sglang';

/** One server parser: its registered name (the server's own flag value), source file and commit, and the behaviour. */
export interface ServerParserEntry {
  readonly server: ParseServer;
  /** The name the server's flag takes: vLLM `--tool-call-parser NAME`, SGLang `--tool-call-parser NAME`. */
  readonly name: string;
  /** The parser's file in the server's repository. */
  readonly file: string;
  /** The repository commit the behaviour follows. */
  readonly commit: string;
  /** Run the parser over a whole text, with the request's tools (undefined: a request without tools). */
  readonly parse: (text: string, tools: readonly ParseTool[] | undefined) => ParserResult;
}

/** A family's output syntax, read strictly. */
export interface FamilySyntax {
  /** Its name, e.g. `llama3-json`. */
  readonly name: string;
  /** What the syntax looks like, in one line (`harmony-catalog parse --help`, docs). */
  readonly example: string;
  /**
   * The strings that open a call (or a block of calls): text before the first of them is the
   * answer's text whatever follows, so a stream may hand it on at once. Empty when a call has
   * no opener of its own (Llama 3's bare JSON, pythonic lists): the stream then holds back text
   * that could still become a call.
   */
  readonly openers: readonly string[];
  /** The control strings the format and the servers' parsers read (tags, special tokens). */
  readonly controls: readonly string[];
  /**
   * Read the whole text strictly: each call in the text with its arguments decoded (an object),
   * where it starts, the text ranges the calls take (content is the rest), `incomplete` on a call
   * whose closing marker never came, and every repair, coercion or dropped piece as a note.
   */
  readonly read: (text: string, tools: readonly ParseTool[] | undefined) => DialectParse;
}

/** The vLLM and SGLang commits the server parsers follow (`../shared/oracles/family-parse/README.md`). */
export const VLLM_COMMIT = '93e3bc8f30b1e135b88a2ffc7f219e3428d39293';
export const SGLANG_COMMIT = '8471c9ebe61229fe24c99ca4a2b2c5b9ac576e43';
