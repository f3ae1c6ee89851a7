/** The API side of conversations: messages in any shape read once, and a server profile chosen for them. */
import { CompileError, type Diagnostic } from '../diagnostics.js';
import { defaultServer, flavorOfServer, readConversation, renderServerPrompt, SERVERS, type ConversationInput, type MessageFormat, type ServerFlavor, type ServerName, type ServerPrompt } from '../conversation/index.js';
import { fromJs, isJsonObject, JsValueError, type JsonValue } from '../ir/json.js';
import { cachedPrint, type CompiledTools } from './compile.js';

/** Options that say how a conversation is read and whose mapping renders it. */
export interface ServerOptions {
  /**
   * Whose request → prompt mapping to copy: `vllm` (openai-harmony), `transformers`, `llama.cpp`,
   * `mlx-lm` (the official chat template, after each server's preprocessing) or `ollama` (its own
   * template). Default: `vllm` for the openai-harmony flavor, `transformers` for the chat template,
   * `ollama` for the ollama flavor, whenever `messages` are Chat Completions, Responses or Anthropic
   * messages. Harmony-native messages with no server are rendered as openai-harmony renders them.
   */
  readonly server?: ServerName;
  /** The shape of `messages`: `chat`, `responses`, `anthropic`, `harmony`, or `auto` (default: told apart by shape). */
  readonly messageFormat?: MessageFormat | 'auto';
  /** `tool_choice` as a request gives it. */
  readonly toolChoice?: unknown;
}

/** Today's date, `YYYY-MM-DD` in local time (what the servers print when no date is pinned). */
export function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** A JS or JSON value as a lossless JsonValue; a value JSON cannot hold is an input error at its pointer. */
export function asJson(value: unknown, pointer: string): JsonValue {
  try {
    return fromJs(value, pointer);
  } catch (e) {
    if (e instanceof JsValueError) throw new CompileError([{ code: 'input/not-json', severity: 'error', path: e.pointer, message: e.message }]);
    throw e;
  }
}

/** The legacy camel-case `contentType` of Harmony messages, as the serde name `content_type`. */
function snakeContentType(m: JsonValue): JsonValue {
  if (!isJsonObject(m) || !m.has('contentType') || m.has('content_type')) return m;
  const out = new Map<string, JsonValue>();
  for (const [k, v] of m) out.set(k === 'contentType' ? 'content_type' : k, v);
  return out;
}

/** Read the `messages` of the API (any shape) into one conversation. */
export function readMessages(messages: readonly unknown[], format: MessageFormat | 'auto' = 'auto', pointer = '/messages'): { conversation: ConversationInput; diagnostics: readonly Diagnostic[] } {
  const json = asJson(messages, pointer);
  const items = Array.isArray(json) ? json.map(snakeContentType) : json;
  return readConversation(items, { pointer, format });
}

/** A usage error of the API. */
function usage(code: string, message: string): CompileError {
  return new CompileError([{ code, severity: 'error', path: '', message }]);
}

/**
 * The server a render goes through, or undefined for the reference renderer alone. `layout` is
 * the flavor the target/flavor options chose (undefined when the target has no gpt-oss layout);
 * `flavorGiven` says whether the caller named the flavor (a server implies its flavor otherwise).
 */
export function chooseServer(layout: ServerFlavor | undefined, flavorGiven: boolean, options: ServerOptions, conversation: ConversationInput | undefined): ServerName | undefined {
  const server = options.server;
  if (server !== undefined) {
    if (!SERVERS.includes(server)) throw usage('usage/server', `server must be one of ${SERVERS.join(', ')}, not ${JSON.stringify(server)}`);
    if (layout === undefined) throw usage('usage/server', `a server renders gpt-oss prompts: --server ${server} does not go with the jsdoc or xml target`);
    if (flavorGiven && flavorOfServer(server) !== layout) throw usage('usage/server', `${server} prints the ${flavorOfServer(server)} layout, not ${layout}: drop --flavor or pick a server of that flavor`);
    return server;
  }
  if (layout === 'ollama') return 'ollama';
  if (layout === undefined || conversation === undefined || conversation.items.length === 0 && conversation.instructions === undefined) return undefined;
  return conversation.format === 'harmony' ? undefined : defaultServer(layout);
}

/** Everything a server render needs beyond the conversation. */
export interface ServerRenderOptions {
  readonly effort?: unknown;
  readonly date?: string;
  readonly toolChoice?: unknown;
  readonly browser?: boolean;
  readonly python?: boolean;
  readonly identity?: string;
  readonly cutoff?: string | null;
  /** Instructions given beside the messages: a first system message (chat, harmony) or the request's instructions (responses, anthropic). */
  readonly instructions?: string;
}

/** The conversation with the caller's instructions put where the request shape keeps them. */
function withInstructions(conversation: ConversationInput, instructions: string | undefined): ConversationInput {
  if (instructions === undefined) return conversation;
  if (conversation.format === 'responses' || conversation.format === 'anthropic') {
    if (conversation.instructions !== undefined) throw usage('usage/instructions', 'the request has instructions of its own: do not give --instructions beside them');
    return { ...conversation, instructions, instructionsPointer: '/instructions' };
  }
  const first = new Map<string, JsonValue>([
    ['role', conversation.format === 'harmony' ? 'developer' : 'system'],
    ['content', instructions],
  ]);
  return { ...conversation, items: [first, ...conversation.items], pointers: ['/instructions', ...conversation.pointers] };
}

/** Render a conversation through a server's profile. */
export function renderThroughServer(server: ServerName, tools: CompiledTools, toolsGiven: 'absent' | 'empty' | 'some', conversation: ConversationInput, options: ServerRenderOptions): ServerPrompt {
  const builtinTools = [...(options.browser ? (['browser'] as const) : []), ...(options.python ? (['python'] as const) : [])];
  return renderServerPrompt(server, {
    conversation: withInstructions(conversation, options.instructions),
    // the profile prints the tools' part of the prompt once per compiled set: the print cache keeps it
    tools: { definitions: tools.definitions, tools: tools.lowered, keep: (key, make) => cachedPrint(tools, `server ${key}`, {}, [], make) },
    toolsGiven,
    ...(options.effort !== undefined ? { effort: asJson(options.effort, '/reasoning_effort') } : {}),
    date: options.date ?? today(),
    ...(options.toolChoice !== undefined ? { toolChoice: asJson(options.toolChoice, '/tool_choice') } : {}),
    ...(builtinTools.length ? { builtinTools } : {}),
    ...(options.identity !== undefined ? { identity: options.identity } : {}),
    ...(typeof options.cutoff === 'string' ? { cutoff: options.cutoff } : {}),
  });
}
