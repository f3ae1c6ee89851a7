/**
 * The OpenAI Chat Completions response for a family's reading: the message a server returns
 * (content, `reasoning`, `tool_calls` with ids) and its finish reason, and the same as a stream
 * of chunks. Every chunk can be written in OpenAI's own wire shape (`openAIChunk`).
 *
 * - `finish_reason`: `tool_calls` when calls are returned (vLLM and SGLang say so with auto tool
 *   choice), else the engine's (`stop` by default, `length` when it ran out).
 * - An engine that ran out (`finishReason: 'length'`) may have cut the last call: it is marked
 *   incomplete, as is any call whose closing marker never came. checkToolCalls never runs one.
 */
import type { Diagnostic } from '../../diagnostics.js';
import { copyCompleteness, incompleteReason, markIncomplete } from '../completeness.js';
import { vllmToolCallId, type ChatCompletion, type ChatCompletionChunk, type ChatCompletionFinishReason, type ChatCompletionStreamItem, type ChatCompletionToolCall } from '../openai.js';
import type { FamilyParseResult } from './index.js';
import type { ToolCallEvent } from './stream.js';

/** Options of familyChatCompletion. */
export interface FamilyChatCompletionOptions {
  /** The engine's finish reason (default `stop`); `length` marks the last call incomplete. */
  readonly finishReason?: 'stop' | 'length';
  /** Tool call ids for calls that have none (default vLLM's `chatcmpl-tool-` + 32 hex digits). */
  readonly id?: () => string;
  /** The request's `include_reasoning` (default true): false drops `reasoning`. */
  readonly includeReasoning?: boolean;
}

/** The Chat Completions response for a family's reading. */
export function familyChatCompletion(parsed: FamilyParseResult, options: FamilyChatCompletionOptions = {}): ChatCompletion {
  const id = options.id ?? vllmToolCallId;
  const diagnostics: Diagnostic[] = [];
  const calls: ChatCompletionToolCall[] = parsed.tool_calls.map((c, i) => {
    let call: ChatCompletionToolCall = copyCompleteness(c, { id: c.id ?? id(), type: 'function', function: { name: c.function.name, arguments: c.function.arguments } });
    if (options.finishReason === 'length' && i === parsed.tool_calls.length - 1 && incompleteReason(call) === undefined) {
      // checkToolCalls reports it (call/incomplete)
      call = markIncomplete(call, 'the engine stopped at its token limit (finish_reason length)');
    }
    return call;
  });
  const reasoning = options.includeReasoning === false ? null : (parsed.reasoning_content ?? null);
  const finish: ChatCompletionFinishReason = calls.length > 0 ? 'tool_calls' : (options.finishReason ?? 'stop');
  return { message: { role: 'assistant', content: parsed.content, reasoning, ...(calls.length > 0 ? { tool_calls: calls } : {}) }, finish_reason: finish, diagnostics };
}

/**
 * The streamed chunks of a family's reading, from the events of createToolCallParser (or of a
 * whole reading): first `{role: "assistant", content: ""}`, then content and reasoning deltas, a
 * call as its first delta `{index, id, type, function: {name, arguments: ""}}` and its arguments,
 * and the finish chunk.
 */
export function familyChatCompletionChunks(events: readonly ToolCallEvent[], options: FamilyChatCompletionOptions = {}): ChatCompletionStreamItem[] {
  const id = options.id ?? vllmToolCallId;
  const out: ChatCompletionChunk[] = [{ delta: { role: 'assistant', content: '' }, finish_reason: null }];
  let calls = 0;
  for (const e of events) {
    switch (e.type) {
      case 'content':
        if (e.delta !== '') out.push({ delta: { content: e.delta }, finish_reason: null });
        break;
      case 'reasoning':
        if (e.delta !== '' && options.includeReasoning !== false) out.push({ delta: { reasoning: e.delta }, finish_reason: null });
        break;
      case 'call-start':
        calls++;
        out.push({ delta: { tool_calls: [{ index: e.index, id: e.id ?? id(), type: 'function', function: { name: e.name, arguments: '' } }] }, finish_reason: null });
        break;
      case 'call-arguments':
        if (e.delta !== '') out.push({ delta: { tool_calls: [{ index: e.index, function: { arguments: e.delta } }] }, finish_reason: null });
        break;
      case 'call-end':
        break;
    }
  }
  out.push({ delta: {}, finish_reason: calls > 0 ? 'tool_calls' : (options.finishReason ?? 'stop') });
  return out;
}

/** The events of a whole reading, in order: reasoning, content, then each call. */
export function eventsOfReading(parsed: FamilyParseResult): ToolCallEvent[] {
  const out: ToolCallEvent[] = [];
  if (parsed.reasoning_content) out.push({ type: 'reasoning', delta: parsed.reasoning_content });
  if (parsed.content !== null) out.push({ type: 'content', delta: parsed.content });
  parsed.tool_calls.forEach((c, index) => {
    const why = incompleteReason(c);
    out.push({ type: 'call-start', index, name: c.function.name, ...(c.id !== undefined ? { id: c.id } : {}) }, { type: 'call-arguments', index, delta: c.function.arguments }, { type: 'call-end', index, ...(why !== undefined ? { incomplete: why } : {}) });
  });
  return out;
}

/** What identifies a streamed response on the wire. */
export interface ChunkEnvelope {
  /** The response id (`chatcmpl-…`). */
  readonly id: string;
  /** The model name the server reports. */
  readonly model: string;
  /** Unix seconds. */
  readonly created: number;
}

/**
 * One stream item in OpenAI's wire shape: `{id, object: "chat.completion.chunk", created, model,
 * choices: [{index: 0, delta, logprobs: null, finish_reason}]}`; an error item as `{error}`.
 */
export function openAIChunk(item: ChatCompletionStreamItem, envelope: ChunkEnvelope): Record<string, unknown> {
  if (item.error !== undefined) return { error: { message: item.error.message, type: item.error.type, ...(item.error.status !== undefined ? { code: item.error.status } : {}) } };
  return { id: envelope.id, object: 'chat.completion.chunk', created: envelope.created, model: envelope.model, choices: [{ index: 0, delta: item.delta, logprobs: null, finish_reason: item.finish_reason }] };
}
