/**
 * The API side of parsing: what the model wrote → messages (gpt-oss Harmony) or tool calls (the
 * XML dialects), the OpenAI response a server returns, tool calls checked against the catalog and
 * leaks flagged. What `harmony-catalog parse` prints.
 */
import type { Diagnostic } from '../diagnostics.js';
import { checkToolCalls, toolCallsFromParse } from '../parse/check.js';
import { parseHarmony } from '../parse/harmony.js';
import { findLeaks } from '../parse/leaks.js';
import { toChatCompletion } from '../parse/openai.js';
import type { HarmonyParseMode, HarmonyParseResult } from '../parse/types.js';
import { parseToolCalls } from '../parse/xml/index.js';
import type { CompiledTools } from './compile.js';

/** The model families whose output can be read: gpt-oss (Harmony) and the XML dialects. */
export type ParseModel = 'gpt-oss' | 'hermes' | 'qwen' | 'qwen3-coder' | 'anthropic';
/** Every parse model, for validation. */
export const PARSE_MODELS: readonly ParseModel[] = ['gpt-oss', 'hermes', 'qwen', 'qwen3-coder', 'anthropic'];

/** Options of parseCompletion. */
export interface ParseCompletionOptions {
  /** Default `gpt-oss`. */
  readonly model?: ParseModel;
  /** gpt-oss: `harmony` (default) gives the messages; `openai` gives the Chat Completions message vLLM returns. */
  readonly format?: 'harmony' | 'openai';
  /** gpt-oss: `strict` (default), `lenient`, `tolerant`. */
  readonly mode?: HarmonyParseMode;
  /** The tools the prompt was rendered with (compiled): calls are checked against them. */
  readonly tools?: CompiledTools;
  /** XML dialects: `vllm` returns what vLLM's tool parser returns. */
  readonly server?: 'vllm';
  /** gpt-oss `openai`: the engine's finish reason. */
  readonly finishReason?: 'stop' | 'length';
}

/** A parse: what to print, what was noticed, and whether it failed (a refused completion, an invalid call). */
export interface ParsedCompletion {
  /** gpt-oss harmony: `{messages, error?}`; openai: `{response}` or `{error}`; xml: `{content, tool_calls}`. */
  readonly output: unknown;
  readonly diagnostics: readonly Diagnostic[];
  readonly failed: boolean;
  /** gpt-oss: the parse itself. */
  readonly parsed?: HarmonyParseResult;
}

/** Read a completion: Harmony messages (and the vLLM response) for gpt-oss, tool calls for the XML dialects; calls checked when tools are given. */
export async function parseCompletion(input: string | readonly number[], options: ParseCompletionOptions = {}): Promise<ParsedCompletion> {
  const model = options.model ?? 'gpt-oss';
  if (model !== 'gpt-oss') {
    const r = parseToolCalls(typeof input === 'string' ? input : '', { model, ...(options.tools ? { tools: options.tools } : {}), ...(options.server ? { server: options.server } : {}) });
    // the calls themselves: a call the output ended inside of carries that mark (never runnable)
    const checks = options.tools ? await checkToolCalls(r.tool_calls, options.tools) : undefined;
    const diagnostics = [...r.diagnostics, ...(checks?.diagnostics ?? [])];
    return { output: { content: r.content, tool_calls: r.tool_calls }, diagnostics, failed: diagnostics.some((d) => d.severity === 'error') };
  }
  const parsed = parseHarmony(input, { ...(options.mode ? { mode: options.mode } : {}) });
  const diagnostics: Diagnostic[] = [...parsed.diagnostics, ...findLeaks(parsed)];
  let failed = parsed.error !== undefined;
  if (options.tools) {
    const checks = await checkToolCalls(toolCallsFromParse(parsed), options.tools);
    diagnostics.push(...checks.diagnostics);
    if (checks.diagnostics.some((d) => d.severity === 'error')) failed = true;
  }
  if (options.format === 'openai') {
    const r = toChatCompletion(parsed, { ...(options.tools ? { tools: options.tools } : {}), ...(options.finishReason ? { finishReason: options.finishReason } : {}) });
    diagnostics.push(...r.diagnostics);
    if (r.error) return { output: { error: r.error.message }, diagnostics, failed: true, parsed };
    return { output: { response: { message: r.message, finish_reason: r.finish_reason } }, diagnostics, failed, parsed };
  }
  return { output: { messages: parsed.messages, ...(parsed.error ? { error: parsed.error.message } : {}) }, diagnostics, failed, parsed };
}
