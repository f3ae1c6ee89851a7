/**
 * `toChatCompletion` and `chatCompletionChunks` for every family: a gpt-oss Harmony parse through
 * vLLM's mapping (./openai.ts), any other family's reading (parseToolCalls) through
 * ./families/response.ts. The public entry points; the two mappings stay where they are.
 */
import type { FamilyParseResult } from './families/index.js';
import { eventsOfReading, familyChatCompletion, familyChatCompletionChunks } from './families/response.js';
import { chatCompletionChunks as harmonyChunks, toChatCompletion as harmonyCompletion, type ChatCompletionOptions, type ChatCompletionResult, type ChatCompletionStreamItem, type ChatCompletionStreamOptions } from './openai.js';
import type { Diagnostic } from '../diagnostics.js';
import type { HarmonyParseResult } from './types.js';

function isHarmony(parsed: HarmonyParseResult | FamilyParseResult): parsed is HarmonyParseResult {
  return Array.isArray((parsed as HarmonyParseResult).messages);
}

/**
 * The Chat Completions response a server returns for what the model wrote: a gpt-oss parse
 * (parseHarmony) as vLLM maps it, or any other family's reading (parseToolCalls): its content,
 * `reasoning`, calls (`finish_reason` `tool_calls`), or the engine's `stop`/`length`.
 */
export function toChatCompletion(parsed: HarmonyParseResult | FamilyParseResult, options: ChatCompletionOptions = {}): ChatCompletionResult {
  if (isHarmony(parsed)) return harmonyCompletion(parsed, options);
  return familyChatCompletion(parsed, { ...(options.finishReason ? { finishReason: options.finishReason } : {}), ...(options.id ? { id: options.id } : {}), ...(options.includeReasoning !== undefined ? { includeReasoning: options.includeReasoning } : {}) });
}

/** The streamed chunks of the same response (`{delta, finish_reason}` each; openAIChunk gives the wire shape). */
export function chatCompletionChunks(parsed: HarmonyParseResult | FamilyParseResult, options: ChatCompletionStreamOptions & { readonly finishReason?: 'stop' | 'length' } = {}): { chunks: ChatCompletionStreamItem[]; diagnostics: readonly Diagnostic[] } {
  if (isHarmony(parsed)) return harmonyChunks(parsed, options);
  return { chunks: familyChatCompletionChunks(eventsOfReading(parsed), { ...(options.finishReason ? { finishReason: options.finishReason } : {}), ...(options.id ? { id: options.id } : {}), ...(options.includeReasoning !== undefined ? { includeReasoning: options.includeReasoning } : {}) }), diagnostics: [] };
}
