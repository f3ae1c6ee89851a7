/**
 * The message and request shapes the conversation reader reads (`src/conversation/read.ts`), as
 * TypeScript types: OpenAI Chat Completions messages (tool calls, tool results, content parts,
 * the reasoning fields servers read), OpenAI Responses input items, Anthropic Messages, and
 * Harmony-native messages; and the three request bodies `renderRequest` takes. Types only.
 *
 * As for tools (`src/input/shapes.ts`), the reader takes more than these say: unknown keys are
 * reported or ignored as each server does, and a value typed `unknown` (JSON read at run time) is
 * accepted (`UnknownInput`) and checked when read, each problem at its JSON Pointer.
 */
import type { HarmonyMessage } from '../messages/envelope.js';
import type { ToolsDocument, UnknownInput } from '../input/shapes.js';

// ---------------------------------------------------------------------------------------
// OpenAI Chat Completions

/** A text part: `{type: 'text', text}`. */
export interface ChatTextPart {
  readonly type: 'text';
  readonly text: string;
}

/** A content part of a Chat Completions message: text, an image, audio, a file, or (assistant) a refusal. */
export type ChatContentPart =
  | ChatTextPart
  | { readonly type: 'image_url'; readonly image_url: { readonly url: string; readonly detail?: 'auto' | 'low' | 'high' } }
  | { readonly type: 'input_audio'; readonly input_audio: { readonly data: string; readonly format: string } }
  | { readonly type: 'file'; readonly file: { readonly file_data?: string; readonly file_id?: string; readonly filename?: string } }
  | { readonly type: 'refusal'; readonly refusal: string };

/**
 * A tool call of an assistant message: `{id, type: 'function', function: {name, arguments}}`.
 * `arguments` is the JSON text OpenAI returns, or an object (what some templates expect; the
 * servers' handling of each differs, and the render says so).
 */
export interface ChatToolCall {
  readonly id?: string;
  readonly type?: 'function';
  readonly function: {
    readonly name: string;
    readonly arguments: string | { readonly [key: string]: unknown };
  };
}

/** `{role: 'system', content}`. */
export interface ChatSystemMessage {
  readonly role: 'system';
  readonly content: string | readonly ChatTextPart[];
  readonly name?: string;
}

/** `{role: 'developer', content}` (OpenAI's name for system instructions on reasoning models). */
export interface ChatDeveloperMessage {
  readonly role: 'developer';
  readonly content: string | readonly ChatTextPart[];
  readonly name?: string;
}

/** `{role: 'user', content}`: text, or content parts. */
export interface ChatUserMessage {
  readonly role: 'user';
  readonly content: string | readonly ChatContentPart[];
  readonly name?: string;
}

/**
 * `{role: 'assistant', content, tool_calls?, reasoning?}`: `content` is null beside tool calls in
 * what OpenAI clients send. The reasoning is read from `reasoning` (vLLM, Ollama),
 * `reasoning_content` (llama.cpp, vLLM's older name) or `thinking` (the gpt-oss chat template);
 * which one a server reads, and what it drops, is a diagnostic of the render.
 */
export interface ChatAssistantMessage {
  readonly role: 'assistant';
  readonly content?: string | readonly ChatContentPart[] | null;
  readonly tool_calls?: readonly ChatToolCall[] | null;
  readonly reasoning?: string | null;
  readonly reasoning_content?: string | null;
  readonly thinking?: string | null;
  readonly refusal?: string | null;
  readonly name?: string;
  /** The legacy single function call. */
  readonly function_call?: { readonly name: string; readonly arguments: string } | null;
}

/** `{role: 'tool', tool_call_id, content}`: the result of the call with that id. */
export interface ChatToolMessage {
  readonly role: 'tool';
  readonly tool_call_id: string;
  readonly content: string | readonly ChatTextPart[];
  /** The tool's name (some templates print it). */
  readonly name?: string;
}

/** The legacy `{role: 'function', name, content}` result. */
export interface ChatFunctionMessage {
  readonly role: 'function';
  readonly name: string;
  readonly content: string | null;
}

/** An OpenAI Chat Completions message. */
export type ChatMessage = ChatSystemMessage | ChatDeveloperMessage | ChatUserMessage | ChatAssistantMessage | ChatToolMessage | ChatFunctionMessage;

// ---------------------------------------------------------------------------------------
// OpenAI Responses

/** A content part of a Responses message. */
export type ResponsesContentPart =
  | { readonly type: 'input_text'; readonly text: string }
  | { readonly type: 'output_text'; readonly text: string; readonly annotations?: readonly unknown[] }
  | { readonly type: 'input_image'; readonly image_url?: string | null; readonly file_id?: string | null; readonly detail?: 'auto' | 'low' | 'high' }
  | { readonly type: 'input_file'; readonly file_data?: string; readonly file_id?: string | null; readonly filename?: string }
  | { readonly type: 'refusal'; readonly refusal: string };

/** A Responses message item: `{type?: 'message', role, content}` (its text parts are joined, as vLLM does). */
export interface ResponsesMessageItem {
  readonly type?: 'message';
  readonly role: 'user' | 'assistant' | 'system' | 'developer';
  readonly content: string | readonly ResponsesContentPart[];
  readonly id?: string;
  readonly status?: string;
}

/** A Responses function call: `{type: 'function_call', call_id, name, arguments}`. */
export interface ResponsesFunctionCall {
  readonly type: 'function_call';
  readonly call_id: string;
  readonly name: string;
  /** The arguments' JSON text. */
  readonly arguments: string;
  readonly id?: string;
  readonly status?: string;
}

/** A Responses function result: `{type: 'function_call_output', call_id, output}`. */
export interface ResponsesFunctionCallOutput {
  readonly type: 'function_call_output';
  readonly call_id: string;
  readonly output: string | readonly ResponsesContentPart[];
  readonly id?: string;
  readonly status?: string;
}

/** A Responses reasoning item: its `content` (reasoning text) is the next assistant message's reasoning; a summary alone has no chat equivalent. */
export interface ResponsesReasoningItem {
  readonly type: 'reasoning';
  readonly id?: string;
  readonly summary?: readonly { readonly type: 'summary_text'; readonly text: string }[];
  readonly content?: readonly { readonly type: 'reasoning_text'; readonly text: string }[];
  readonly encrypted_content?: string | null;
}

/**
 * A Responses input item (a string input is one user message). Items of other types (web search
 * calls, MCP calls…) are read too: each is a warning saying it has no chat equivalent.
 */
export type ResponsesInputItem = ResponsesMessageItem | ResponsesFunctionCall | ResponsesFunctionCallOutput | ResponsesReasoningItem;

// ---------------------------------------------------------------------------------------
// Anthropic Messages

/** An image source: base64 data or a URL. */
export type AnthropicImageSource =
  | { readonly type: 'base64'; readonly media_type: string; readonly data: string }
  | { readonly type: 'url'; readonly url: string };

/** `{type: 'text', text}`. */
export interface AnthropicTextBlock {
  readonly type: 'text';
  readonly text: string;
  readonly cache_control?: unknown;
  readonly citations?: readonly unknown[] | null;
}

/** `{type: 'image', source}`. */
export interface AnthropicImageBlock {
  readonly type: 'image';
  readonly source: AnthropicImageSource;
  readonly cache_control?: unknown;
}

/** `{type: 'tool_use', id, name, input}`: a call (its `input` becomes the call's JSON arguments). */
export interface AnthropicToolUseBlock {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: { readonly [key: string]: unknown };
  readonly cache_control?: unknown;
}

/** `{type: 'tool_result', tool_use_id, content?, is_error?}`, in a user message: the result of that call. */
export interface AnthropicToolResultBlock {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  readonly content?: string | readonly (AnthropicTextBlock | AnthropicImageBlock)[];
  readonly is_error?: boolean;
  readonly cache_control?: unknown;
}

/** `{type: 'thinking', thinking, signature?}`: the assistant's reasoning. */
export interface AnthropicThinkingBlock {
  readonly type: 'thinking';
  readonly thinking: string;
  readonly signature?: string;
}

/** `{type: 'redacted_thinking', data}`: opaque, dropped (as vLLM drops it). */
export interface AnthropicRedactedThinkingBlock {
  readonly type: 'redacted_thinking';
  readonly data: string;
}

/** A content block of an Anthropic message. */
export type AnthropicContentBlock = AnthropicTextBlock | AnthropicImageBlock | AnthropicToolUseBlock | AnthropicToolResultBlock | AnthropicThinkingBlock | AnthropicRedactedThinkingBlock;

/** An Anthropic message: `{role: 'user' | 'assistant', content}` (the system prompt is the request's `system`, or the `instructions` option). */
export interface AnthropicMessage {
  readonly role: 'user' | 'assistant';
  readonly content: string | readonly AnthropicContentBlock[];
}

// ---------------------------------------------------------------------------------------
// Harmony-native

/**
 * A Harmony message as openai-harmony's serde writes it: `{role, name?, recipient?, channel?,
 * content_type?, content}` (`contentType` is read too; content a string or text parts). An
 * assistant message with a `recipient` is a call; a `tool` message's `name` is its author
 * (`functions.get_weather`).
 */
export interface HarmonyInputMessage {
  readonly role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  readonly name?: string;
  readonly recipient?: string;
  readonly channel?: 'analysis' | 'commentary' | 'final' | (string & {});
  readonly content_type?: string;
  readonly contentType?: string;
  readonly content: string | readonly { readonly type: 'text'; readonly text: string }[];
}

// ---------------------------------------------------------------------------------------
// All of them

/** A message in any shape the reader reads (one conversation is written in one shape; `messageFormat` names it, else it is told apart). */
export type MessageShape = ChatMessage | ResponsesInputItem | AnthropicMessage | HarmonyInputMessage;

/**
 * A conversation message as the API takes it: an OpenAI Chat Completions message, a Responses
 * input item, an Anthropic message, or a Harmony message (`{role, name?, recipient?, channel?,
 * content_type?, content}`; `contentType` is accepted too); any other object is read at run time
 * (and refused, at its pointer, when it is none of these).
 */
export type PromptMessage = (MessageShape & MessageFields) | HarmonyMessage | OtherMessage;

/** An object of another type, read at run time (reading a field of a `PromptMessage` gives its value, of any type). */
export interface OtherMessage {
  readonly [key: string]: unknown;
}

/**
 * The fields a `PromptMessage` could always be read by without narrowing it first (`m.role`,
 * `m.content`…, of any type), as when it was a Harmony message or any object: kept readable on
 * every shape, `unknown` where a shape has no such field.
 */
export interface MessageFields {
  readonly role?: unknown;
  readonly name?: unknown;
  readonly recipient?: unknown;
  readonly channel?: unknown;
  readonly contentType?: unknown;
  readonly content?: unknown;
}

/** The `messages` of the API: messages in any of the shapes, or values of any type (JSON read at run time), checked when read. */
export type MessagesInput = readonly (MessageShape | UnknownInput)[];

// ---------------------------------------------------------------------------------------
// Request bodies

/** An OpenAI Chat Completions request body: `{model?, messages, tools?, tool_choice?, reasoning_effort?, …}` (other keys do not change the prompt: infos). */
export interface ChatCompletionsRequest {
  readonly model?: string;
  readonly messages: readonly (ChatMessage | UnknownInput)[];
  readonly tools?: ToolsDocument | null;
  readonly tool_choice?: 'auto' | 'none' | 'required' | { readonly type: 'function'; readonly function: { readonly name: string } } | null;
  readonly reasoning_effort?: 'low' | 'medium' | 'high' | (string & {}) | null;
  readonly [key: string]: unknown;
}

/** An OpenAI Responses request body: `{model?, input, instructions?, tools?, tool_choice?, reasoning?: {effort}, …}`. */
export interface ResponsesRequest {
  readonly model?: string;
  readonly input: string | readonly (ResponsesInputItem | UnknownInput)[];
  readonly instructions?: string | null;
  /** Function tools, and builtin ones (`web_search_preview` → browser, `code_interpreter` → python). */
  readonly tools?: readonly ({ readonly type: string; readonly [key: string]: unknown } | UnknownInput)[] | null;
  readonly tool_choice?: unknown;
  readonly reasoning?: { readonly effort?: 'low' | 'medium' | 'high' | (string & {}) | null; readonly [key: string]: unknown } | null;
  readonly [key: string]: unknown;
}

/** An Anthropic Messages request body: `{model?, system?, messages, tools?, tool_choice?, max_tokens, …}`. */
export interface AnthropicMessagesRequest {
  readonly model?: string;
  readonly system?: string | readonly AnthropicTextBlock[] | null;
  readonly messages: readonly (AnthropicMessage | UnknownInput)[];
  readonly tools?: ToolsDocument | null;
  readonly tool_choice?: unknown;
  readonly max_tokens?: number;
  readonly output_config?: { readonly effort?: string; readonly [key: string]: unknown };
  readonly [key: string]: unknown;
}

/** A request body `renderRequest` takes: JSON text, or a Chat Completions, Responses or Anthropic Messages body (any value typed `unknown` too, checked when read). */
export type RequestInput = string | ChatCompletionsRequest | ResponsesRequest | AnthropicMessagesRequest | UnknownInput;
