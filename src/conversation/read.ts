/**
 * Reading conversations: the message shapes told apart (OpenAI Chat Completions, OpenAI Responses
 * input items, Anthropic Messages, Harmony-native), whole request bodies recognised, and other
 * shapes converted to Chat Completions messages for the servers that read nothing else.
 *
 * Items are kept as given (lossless JsonValues): each server profile reads the raw fields itself,
 * the way the servers do. Every conversion rule that loses something says so in a diagnostic.
 */
import { CompileError, type Diagnostic } from '../diagnostics.js';
import {
  escapePointerToken,
  fromJs,
  isJsonArray,
  isJsonObject,
  JsValueError,
  stringifyPython,
  type JsonObject,
  type JsonValue,
} from '../ir/json.js';
import { checkConversationDepth } from './depth.js';
import { MESSAGE_FORMATS, type ConversationInput, type MessageFormat } from './types.js';
import { pushAll } from '../ir/arrays.js';

// ---------------------------------------------------------------------------------------
// Small helpers over lossless JSON

/** A key of an object value, or undefined. */
function field(v: JsonValue | undefined, key: string): JsonValue | undefined {
  return isJsonObject(v) ? v.get(key) : undefined;
}

/** A string key of an object value, or undefined. */
function strField(v: JsonValue | undefined, key: string): string | undefined {
  const x = field(v, key);
  return typeof x === 'string' ? x : undefined;
}

/** A JSON object from entries, in order (undefined values left out). */
function object(entries: readonly (readonly [string, JsonValue | undefined])[]): JsonObject {
  const m = new Map<string, JsonValue>();
  for (const [k, v] of entries) if (v !== undefined) m.set(k, v);
  return m;
}

/** `base` followed by reference tokens. */
function at(base: string, ...tokens: readonly (string | number)[]): string {
  return base + tokens.map((t) => `/${escapePointerToken(String(t))}`).join('');
}

/** A value (lossless JSON or a JS value) as lossless JSON; a value JSON cannot hold is an error at its pointer. */
function toJsonValue(value: unknown, pointer: string): JsonValue {
  try {
    return fromJs(value, pointer);
  } catch (e) {
    if (e instanceof JsValueError) throw new CompileError([{ code: 'input/not-json', severity: 'error', path: e.pointer, message: e.message }]);
    throw e;
  }
}

/** The text of a `{type: "text", text}`-style part list joined with `sep`, and whether a part had no text. */
function joinTexts(parts: readonly JsonValue[], sep: string, textTypes: readonly string[]): { text: string; dropped: number[] } {
  const texts: string[] = [];
  const dropped: number[] = [];
  parts.forEach((p, i) => {
    const t = strField(p, 'text');
    if (typeof p === 'string') texts.push(p);
    else if (t !== undefined && textTypes.includes(strField(p, 'type') ?? 'text')) texts.push(t);
    else dropped.push(i);
  });
  return { text: texts.join(sep), dropped };
}

// ---------------------------------------------------------------------------------------
// Telling the shapes apart

/** Responses input item types (`type` without a role, or `message`). */
const RESPONSES_ITEM_TYPES = new Set([
  'message',
  'function_call',
  'function_call_output',
  'reasoning',
  'item_reference',
  'web_search_call',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'code_interpreter_call',
  'image_generation_call',
  'local_shell_call',
  'local_shell_call_output',
  'mcp_call',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'custom_tool_call',
  'custom_tool_call_output',
]);
/** Content part types only Responses uses. */
const RESPONSES_PART_TYPES = new Set(['input_text', 'output_text', 'input_image', 'input_file']);
/** Content block types only Anthropic uses (`image` counts when it has a `source`). */
const ANTHROPIC_BLOCK_TYPES = new Set(['tool_use', 'tool_result', 'thinking', 'redacted_thinking', 'document', 'server_tool_use', 'web_search_tool_result', 'search_result', 'tool_reference']);
/** Content part types only Chat Completions uses. */
const CHAT_PART_TYPES = new Set(['image_url', 'input_audio', 'file', 'refusal']);
/** Message keys only Chat Completions uses. */
const CHAT_KEYS = ['tool_calls', 'tool_call_id', 'reasoning', 'reasoning_content', 'thinking', 'refusal', 'function_call', 'audio'];

/** What one item looks like: the shapes it can only be, and why (for messages). */
interface ItemShape {
  readonly formats: ReadonlyMap<MessageFormat, string>;
  /** Set when the item is no message at all. */
  readonly problem?: string;
}

/** The shapes one item can only belong to (empty: any shape that has plain `{role, content}` messages). */
function shapeOf(item: JsonValue): ItemShape {
  const formats = new Map<MessageFormat, string>();
  if (!isJsonObject(item)) return { formats, problem: `a message must be an object, not ${describe(item)}` };
  const role = field(item, 'role');
  const type = strField(item, 'type');
  if (role === undefined) {
    if (type !== undefined && RESPONSES_ITEM_TYPES.has(type)) formats.set('responses', `an item of type "${type}"`);
    else return { formats, problem: type !== undefined ? `an item of type "${type}" is no message this reader knows` : 'a message needs a "role" (or a Responses item "type")' };
    return { formats };
  }
  if (type !== undefined && RESPONSES_ITEM_TYPES.has(type)) formats.set('responses', `an item of type "${type}"`);
  for (const k of ['channel', 'recipient', 'content_type']) if (item.has(k)) formats.set('harmony', `a "${k}"`);
  if (role === 'tool' && item.has('name') && !item.has('tool_call_id')) formats.set('harmony', 'a tool message with a "name" and no "tool_call_id"');
  if (!formats.has('harmony')) {
    for (const k of CHAT_KEYS) if (item.has(k)) formats.set('chat', `"${k}"`);
    if (role === 'tool' || role === 'function') formats.set('chat', `role "${role}"`);
    if (item.get('content') === null) formats.set('chat', 'content null');
  }
  const content = item.get('content');
  if (isJsonArray(content)) {
    for (const part of content) {
      const t = strField(part, 'type');
      if (t === undefined) continue;
      if (RESPONSES_PART_TYPES.has(t)) formats.set('responses', `a "${t}" content part`);
      else if (ANTHROPIC_BLOCK_TYPES.has(t) || (t === 'image' && field(part, 'source') !== undefined)) formats.set('anthropic', `a "${t}" content block`);
      else if (CHAT_PART_TYPES.has(t)) formats.set('chat', `a "${t}" content part`);
    }
  }
  return { formats };
}

/** A short description of a value for messages. */
function describe(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'boolean') return 'a boolean';
  if (isJsonArray(v)) return 'an array';
  if (isJsonObject(v)) return 'an object';
  return 'a number';
}

const FORMAT_NAMES: Readonly<Record<MessageFormat, string>> = {
  chat: 'OpenAI Chat Completions',
  responses: 'OpenAI Responses',
  anthropic: 'Anthropic Messages',
  harmony: 'Harmony-native',
};

/** Options of readConversation. */
export interface ReadConversationOptions {
  /** JSON Pointer of the messages in the caller's document. Default `/messages`. */
  readonly pointer?: string;
  /** The shape; `auto` (default) tells it apart from the messages. */
  readonly format?: MessageFormat | 'auto';
}

/**
 * Read a conversation: a list of messages (or a Responses `input` string) in one shape, told
 * apart per conversation (an explicit `format` wins). Plain `{role, content}` lists are `chat`.
 * Throws a CompileError for mixed or unrecognisable shapes, with each item's pointer.
 */
export function readConversation(value: unknown, options: ReadConversationOptions = {}): { conversation: ConversationInput; diagnostics: Diagnostic[] } {
  const pointer = options.pointer ?? '/messages';
  const json = toJsonValue(value, pointer);
  const explicit = options.format !== undefined && options.format !== 'auto' ? options.format : undefined;
  if (options.format !== undefined && options.format !== 'auto' && !MESSAGE_FORMATS.includes(options.format)) {
    throw new CompileError([{ code: 'usage/message-format', severity: 'error', path: '', message: `format must be one of ${MESSAGE_FORMATS.join(', ')} or auto, not ${JSON.stringify(options.format)}` }]);
  }
  // a Responses `input` may be a plain string: one user message
  if (typeof json === 'string') {
    if (explicit !== undefined && explicit !== 'responses') {
      throw new CompileError([{ code: 'conversation/not-a-list', severity: 'error', path: pointer, message: `the messages are a string; only the Responses API takes a string input (format ${explicit} needs a list)` }]);
    }
    return { conversation: { format: 'responses', items: [json], pointers: [pointer] }, diagnostics: [] };
  }
  if (!isJsonArray(json)) {
    throw new CompileError([{ code: 'conversation/not-a-list', severity: 'error', path: pointer, message: `the messages must be a list, not ${describe(json)}` }]);
  }
  const pointers = json.map((_, i) => at(pointer, i));
  // nothing recursive reads a message before its depth is known (conversation/too-deep)
  checkConversationDepth({ format: 'chat', items: json, pointers });
  const format = explicit ?? detectFormat(json, pointers);
  return { conversation: { format, items: json, pointers }, diagnostics: [] };
}

/** The one shape of a list of messages; throws for items that are no message, or for mixed shapes. */
function detectFormat(items: readonly JsonValue[], pointers: readonly string[]): MessageFormat {
  const errors: Diagnostic[] = [];
  const firstSeen = new Map<MessageFormat, { pointer: string; why: string }>();
  items.forEach((item, i) => {
    const s = shapeOf(item);
    if (s.problem !== undefined) {
      errors.push({ code: 'conversation/unknown-shape', severity: 'error', path: pointers[i], message: s.problem });
      return;
    }
    if (s.formats.size > 1) {
      const list = [...s.formats].map(([f, why]) => `${FORMAT_NAMES[f]} (${why})`).join(' and ');
      errors.push({ code: 'conversation/mixed-shapes', severity: 'error', path: pointers[i], message: `this message mixes shapes: it looks like ${list}` });
      return;
    }
    for (const [f, why] of s.formats) if (!firstSeen.has(f)) firstSeen.set(f, { pointer: pointers[i], why });
  });
  if (firstSeen.size > 1) {
    const list = [...firstSeen].map(([f, s]) => `${FORMAT_NAMES[f]} at ${s.pointer} (${s.why})`).join(', ');
    errors.push({ code: 'conversation/mixed-shapes', severity: 'error', path: [...firstSeen.values()][1].pointer, message: `the messages mix shapes: ${list}; a conversation is written in one shape (pass the format to say which)` });
  }
  if (errors.length) throw new CompileError(errors);
  const [only] = firstSeen.keys();
  return only ?? 'chat';
}

// ---------------------------------------------------------------------------------------
// Whole request bodies

/** A request body, read: its kind, its tools and conversation, and the options it carries. */
export interface RequestBody {
  /** `chat` (Chat Completions), `responses` or `anthropic` (Messages). */
  readonly kind: 'chat' | 'responses' | 'anthropic';
  /** The function tools as given (Chat Completions: every entry as given; Responses/Anthropic: builtin and server tools left out). */
  readonly tools?: JsonValue;
  /** Where `tools` stands in the body (`/tools`). */
  readonly toolsPointer: string;
  /** The pointer in the body of each entry of `tools` (they differ from `/tools/N` when entries were left out). */
  readonly toolPointers?: readonly string[];
  /** Whether the body had a `tools` key, and whether it was an empty list. */
  readonly toolsGiven: 'absent' | 'empty' | 'some';
  /** Builtin tools the body asks for (Responses `web_search_preview` → browser, `code_interpreter` → python). */
  readonly builtinTools?: readonly ('browser' | 'python')[];
  readonly conversation: ConversationInput;
  /** `reasoning_effort` / `reasoning.effort` / `output_config.effort`, as given. */
  readonly effort?: JsonValue;
  /** Where the effort stands in the body. */
  readonly effortPointer?: string;
  /** `tool_choice` as given. */
  readonly toolChoice?: JsonValue;
  readonly model?: string;
  /** Keys not used (infos), tools left out (infos/warnings). */
  readonly diagnostics: Diagnostic[];
}

/** Keys each kind reads. */
const USED_KEYS: Readonly<Record<RequestBody['kind'], readonly string[]>> = {
  chat: ['model', 'messages', 'tools', 'tool_choice', 'reasoning_effort'],
  responses: ['model', 'input', 'instructions', 'tools', 'tool_choice', 'reasoning'],
  anthropic: ['model', 'system', 'messages', 'tools', 'tool_choice', 'output_config'],
};

/** Responses tool types vLLM skips when building the developer message (`get_developer_message`), and the builtin namespace each enables. */
const RESPONSES_BUILTIN_TOOLS: Readonly<Record<string, 'browser' | 'python' | undefined>> = {
  web_search_preview: 'browser',
  code_interpreter: 'python',
  container: undefined,
};

/**
 * Recognise a whole request body: Chat Completions `{model?, messages, tools?, tool_choice?,
 * reasoning_effort?}`, Responses `{input, instructions?, tools?, reasoning?: {effort}}` or
 * Anthropic Messages `{system?, messages, tools?, max_tokens, …}`. Returns undefined when the value
 * is none of them. Keys that do not shape the prompt are reported as infos. Throws a CompileError
 * for a body whose parts cannot be read (messages not a list, tool types no server renders…).
 */
export function readRequestBody(value: unknown, options: { readonly messageFormat?: MessageFormat } = {}): RequestBody | undefined {
  // a list (of tools) is never a body: say so before converting it
  if (Array.isArray(value)) return undefined;
  const body = toJsonValue(value, '');
  if (!isJsonObject(body)) return undefined;
  const diagnostics: Diagnostic[] = [];
  const model = strField(body, 'model');
  let kind: RequestBody['kind'];
  let conversation: ConversationInput;
  if (body.has('messages')) {
    const read = readConversation(body.get('messages'), { pointer: '/messages', ...(options.messageFormat !== undefined ? { format: options.messageFormat } : {}) });
    pushAll(diagnostics, read.diagnostics);
    conversation = read.conversation;
    kind = conversation.format === 'anthropic' || (conversation.format === 'chat' && !hasChatSignal(conversation) && looksAnthropic(body)) ? 'anthropic' : 'chat';
    if (kind === 'anthropic') {
      const system = body.get('system');
      conversation = { ...conversation, format: 'anthropic', ...(system !== undefined && system !== null ? { instructions: system, instructionsPointer: '/system' } : {}) };
    } else if (body.has('system')) {
      diagnostics.push({ code: 'request/ignored-key', severity: 'warning', path: '/system', message: 'a Chat Completions body has no "system" key: put a system message first in "messages"' });
    }
  } else if (body.has('input')) {
    kind = 'responses';
    const read = readConversation(body.get('input'), { pointer: '/input', format: 'responses' });
    pushAll(diagnostics, read.diagnostics);
    const instructions = body.get('instructions');
    conversation = { ...read.conversation, ...(instructions !== undefined && instructions !== null ? { instructions, instructionsPointer: '/instructions' } : {}) };
  } else return undefined;
  if (conversation.instructions !== undefined) checkConversationDepth({ ...conversation, items: [], pointers: [] });

  // tools
  const errors: Diagnostic[] = [];
  const rawTools = body.get('tools');
  const toolsGiven: RequestBody['toolsGiven'] = rawTools === undefined || rawTools === null ? 'absent' : isJsonArray(rawTools) && rawTools.length === 0 ? 'empty' : 'some';
  let tools: JsonValue | undefined = rawTools === null ? undefined : rawTools;
  let toolPointers: string[] | undefined;
  const builtinTools: ('browser' | 'python')[] = [];
  if (isJsonArray(rawTools) && kind !== 'chat') {
    const kept: JsonValue[] = [];
    toolPointers = [];
    rawTools.forEach((t, i) => {
      const p = at('/tools', i);
      const type = strField(t, 'type');
      if (kind === 'responses' && type !== undefined && type !== 'function') {
        if (type in RESPONSES_BUILTIN_TOOLS) {
          const ns = RESPONSES_BUILTIN_TOOLS[type];
          if (ns !== undefined && !builtinTools.includes(ns)) builtinTools.push(ns);
          diagnostics.push({
            code: 'request/builtin-tool',
            severity: 'info',
            path: p,
            message: `a "${type}" tool is not a function tool: vLLM leaves it out of the developer message${ns !== undefined ? ` and adds the builtin ${ns} namespace to the system message when its tool server provides one` : ''}`,
          });
        } else {
          // vLLM: get_developer_message raises ValueError(f"tool type {tool.type} not supported")
          errors.push({ code: 'request/unsupported-tool', severity: 'error', path: p, message: `tool type ${type} not supported: vLLM renders function tools and skips web_search_preview, code_interpreter and container; any other type is refused` });
        }
        return;
      }
      if (kind === 'anthropic' && type !== undefined && type !== 'custom' && !isJsonObject(field(t, 'input_schema'))) {
        diagnostics.push({ code: 'request/builtin-tool', severity: 'warning', path: p, message: `an Anthropic server tool ("${type}") runs on Anthropic's side and has no function definition: left out of the prompt` });
        return;
      }
      kept.push(t);
      toolPointers!.push(p);
    });
    tools = kept;
  }
  if (errors.length) throw new CompileError([...errors, ...diagnostics]);

  // effort and tool choice
  let effort: JsonValue | undefined;
  let effortPointer: string | undefined;
  if (kind === 'chat' && body.has('reasoning_effort')) {
    effort = body.get('reasoning_effort');
    effortPointer = '/reasoning_effort';
  } else if (kind === 'responses' && body.has('reasoning')) {
    const r = body.get('reasoning');
    if (isJsonObject(r)) {
      if (r.has('effort')) {
        effort = r.get('effort');
        effortPointer = '/reasoning/effort';
      }
      for (const k of r.keys()) if (k !== 'effort') diagnostics.push({ code: 'request/ignored-key', severity: 'info', path: at('/reasoning', k), message: `reasoning.${k} does not change the prompt` });
    }
  } else if (kind === 'anthropic') {
    const oc = body.get('output_config');
    if (isJsonObject(oc)) {
      if (oc.has('effort')) {
        // vLLM's Anthropic endpoint: output_config.effort → reasoning_effort
        effort = oc.get('effort');
        effortPointer = '/output_config/effort';
      }
      for (const k of oc.keys()) if (k !== 'effort') diagnostics.push({ code: 'request/ignored-key', severity: 'info', path: at('/output_config', k), message: `output_config.${k} does not change the prompt` });
    }
  }
  const toolChoice = body.has('tool_choice') ? body.get('tool_choice') : undefined;

  for (const k of body.keys()) {
    if (USED_KEYS[kind].includes(k) || (kind === 'chat' && k === 'system')) continue;
    // a stored conversation would change the prompt: a warning; other keys shape sampling or the response only
    const stored = kind === 'responses' && (k === 'previous_response_id' || k === 'conversation');
    diagnostics.push(
      stored
        ? { code: 'request/ignored-key', severity: 'warning', path: at('', k), message: `"${k}": the stored conversation it names is not available here, so the prompt holds only this request's input` }
        : { code: 'request/ignored-key', severity: 'info', path: at('', k), message: `"${k}" does not change the prompt` },
    );
  }
  if (kind === 'responses' && conversation.instructions !== undefined && typeof conversation.instructions !== 'string') {
    throw new CompileError([{ code: 'conversation/refused', severity: 'error', path: '/instructions', message: 'Responses "instructions" must be a string' }]);
  }
  return {
    kind,
    ...(tools !== undefined ? { tools } : {}),
    toolsPointer: '/tools',
    ...(toolPointers !== undefined ? { toolPointers } : {}),
    toolsGiven,
    ...(builtinTools.length ? { builtinTools } : {}),
    conversation,
    ...(effort !== undefined ? { effort } : {}),
    ...(effortPointer !== undefined ? { effortPointer } : {}),
    ...(toolChoice !== undefined ? { toolChoice } : {}),
    ...(model !== undefined ? { model } : {}),
    diagnostics,
  };
}

/** True when some message carries a key only Chat Completions has. */
function hasChatSignal(c: ConversationInput): boolean {
  return c.items.some((m) => shapeOf(m).formats.has('chat'));
}

/** Body keys only Anthropic Messages has (plain `{role, content}` messages fit both): `system`, tools with `input_schema`, `thinking`, `stop_sequences`, `top_k`, `output_config`. */
function looksAnthropic(body: JsonObject): boolean {
  if (['system', 'stop_sequences', 'top_k', 'output_config'].some((k) => body.has(k))) return true;
  if (isJsonObject(body.get('thinking'))) return true;
  const tools = body.get('tools');
  return isJsonArray(tools) && tools.some((t) => field(t, 'input_schema') !== undefined);
}

// ---------------------------------------------------------------------------------------
// Other shapes → Chat Completions messages

/** Chat Completions messages made from a conversation, each with the pointer of what it came from. */
export interface ChatMessages {
  readonly messages: JsonValue[];
  readonly pointers: string[];
  readonly diagnostics: Diagnostic[];
  /**
   * Where a field of a converted message came from in the input, when that is not the message's
   * pointer plus the field's name: `/messages/1/reasoning` (an Anthropic `thinking` block made
   * into `reasoning`) → `/messages/1/content/0`. Longest prefix first; see `inputPointer`.
   */
  readonly moved?: ReadonlyMap<string, string>;
}

/**
 * A pointer into the converted chat messages as a pointer into the input: the longest `moved`
 * prefix (whole tokens) replaced by where it came from; any other pointer as it is.
 */
export function inputPointer(moved: ReadonlyMap<string, string> | undefined, path: string): string {
  if (moved === undefined || moved.size === 0) return path;
  for (let end = path.length; end > 0; end = path.lastIndexOf('/', end - 1)) {
    const to = moved.get(path.slice(0, end));
    if (to !== undefined) return to + path.slice(end);
  }
  return path;
}

/** Diagnostics about converted chat messages with their pointers into the input (see `inputPointer`). */
export function withInputPointers(diagnostics: readonly Diagnostic[], moved: ReadonlyMap<string, string> | undefined): Diagnostic[] {
  if (moved === undefined || moved.size === 0) return [...diagnostics];
  return diagnostics.map((d) => {
    const path = inputPointer(moved, d.path);
    return path === d.path ? d : { ...d, path };
  });
}

/**
 * The conversation as OpenAI Chat Completions messages, for the servers that read no other shape
 * (the template servers, Ollama; vLLM for Anthropic requests). Chat messages are returned as given.
 *
 * - Anthropic (as vLLM's `/v1/messages` endpoint converts, `_convert_anthropic_to_openai_request`):
 *   `system` (string or text blocks, with any system-role messages) → one first system message;
 *   `text` blocks → content (one block → a string, several → text parts; empty text skipped);
 *   `image` → an `image_url` part; `tool_use` → `tool_calls` (`arguments` = Python `json.dumps` of
 *   `input`); `tool_result` in a user message → a `tool` message with `tool_call_id` placed before
 *   that user message (its text blocks joined with a newline; images follow as a user message);
 *   `thinking` → `reasoning` (vLLM and Ollama read `reasoning`, the chat template `thinking`,
 *   llama.cpp `reasoning_content`); `redacted_thinking` dropped; a user message left empty is dropped.
 * - Responses: `instructions` → a first system message; `message` items → messages with their text
 *   parts joined (as vLLM flattens them); `function_call` → an assistant `tool_calls` entry
 *   (consecutive calls merged into one message); `function_call_output` → a `tool` message;
 *   `reasoning` → `reasoning` of the next assistant message; a string input → one user message.
 * - Harmony-native: `analysis` → `reasoning` of the next assistant message; a call (`recipient`
 *   `functions.X`) → `tool_calls` (ids made up: `call_0`, `call_1`…; a commentary preamble before it
 *   becomes its content); a tool author `functions.X` → a `tool` message answering the latest call to X;
 *   `final` → assistant content; system/developer/user → the same role.
 */
export function toChatMessages(conversation: ConversationInput): ChatMessages {
  switch (conversation.format) {
    case 'chat': {
      const out: ChatMessages = { messages: [...conversation.items], pointers: [...conversation.pointers], diagnostics: [] };
      if (conversation.instructions !== undefined) {
        out.messages.unshift(object([['role', 'system'], ['content', conversation.instructions]]));
        out.pointers.unshift(conversation.instructionsPointer ?? '/instructions');
      }
      return out;
    }
    case 'anthropic':
      return anthropicToChat(conversation);
    case 'responses':
      return responsesToChat(conversation);
    case 'harmony':
      return harmonyToChat(conversation);
  }
}

/** A builder of chat messages with their pointers and diagnostics. */
class ChatOut implements ChatMessages {
  readonly messages: JsonValue[] = [];
  readonly pointers: string[] = [];
  readonly diagnostics: Diagnostic[] = [];
  readonly moved = new Map<string, string>();
  push(m: JsonValue, pointer: string): void {
    this.messages.push(m);
    this.pointers.push(pointer);
  }
  warn(code: string, path: string, message: string): void {
    this.diagnostics.push({ code, severity: 'warning', path, message });
  }
  info(code: string, path: string, message: string): void {
    this.diagnostics.push({ code, severity: 'info', path, message });
  }
}

/** Anthropic Messages → chat, as vLLM's Anthropic endpoint converts them. */
function anthropicToChat(c: ConversationInput): ChatMessages {
  const out = new ChatOut();
  // system: the top-level `system` and any system-role message, joined with nothing
  const systemParts: string[] = [];
  const systemPointer = c.instructionsPointer ?? '/system';
  const addSystem = (v: JsonValue | undefined, p: string): void => {
    if (typeof v === 'string') systemParts.push(v);
    else if (isJsonArray(v)) {
      v.forEach((b, i) => {
        const text = strField(b, 'text');
        if (strField(b, 'type') === 'text' && text) {
          // vLLM strips Claude Code's attribution header (a per-request hash)
          if (text.startsWith('x-anthropic-billing-header')) out.warn('conversation/no-chat-equivalent', at(p, i), 'an x-anthropic-billing-header system block is dropped (as vLLM drops it)');
          else systemParts.push(text);
        } else if (strField(b, 'type') !== 'text') out.warn('conversation/no-chat-equivalent', at(p, i), `a system block of type ${JSON.stringify(strField(b, 'type') ?? null)} has no text: dropped`);
      });
    } else if (v !== undefined && v !== null) out.warn('conversation/no-chat-equivalent', p, `a system of ${describe(v)} has no text: dropped`);
  };
  addSystem(c.instructions, systemPointer);
  c.items.forEach((m, i) => {
    if (strField(m, 'role') === 'system') addSystem(field(m, 'content'), at(c.pointers[i], 'content'));
  });
  if (systemParts.length) {
    out.push(object([['role', 'system'], ['content', systemParts.join('')]]), c.instructions !== undefined ? systemPointer : c.pointers[c.items.findIndex((m) => strField(m, 'role') === 'system')]);
    // the top-level system is the message's content itself
    if (c.instructions !== undefined) out.moved.set(at(systemPointer, 'content'), systemPointer);
  }

  c.items.forEach((m, i) => {
    const p = c.pointers[i];
    const role = field(m, 'role');
    if (role === 'system') return;
    const content = field(m, 'content');
    if (typeof content === 'string' || !isJsonArray(content)) {
      out.push(object([['role', role ?? null], ['content', content ?? null]]), p);
      return;
    }
    const parts: JsonValue[] = [];
    /** The block each part came from. */
    const partBlocks: string[] = [];
    const toolCalls: JsonValue[] = [];
    const reasoning: string[] = [];
    /** The block the reasoning came from (the first, when several are joined). */
    let reasoningBlock: string | undefined;
    content.forEach((b, k) => {
      const bp = at(p, 'content', k);
      const type = strField(b, 'type');
      switch (type) {
        case 'text': {
          const text = strField(b, 'text');
          if (text) {
            parts.push(object([['type', 'text'], ['text', text]]));
            partBlocks.push(bp);
          } else out.info('conversation/no-chat-equivalent', bp, 'an empty text block is skipped');
          break;
        }
        case 'image': {
          const url = imageUrl(field(b, 'source'));
          if (url !== undefined) {
            parts.push(object([['type', 'image_url'], ['image_url', object([['url', url]])]]));
            partBlocks.push(bp);
          }
          break;
        }
        case 'thinking': {
          const t = strField(b, 'thinking');
          if (t !== undefined) {
            reasoning.push(t);
            reasoningBlock ??= bp;
            out.info('conversation/reasoning-field', bp, 'thinking becomes "reasoning" (read by vLLM and Ollama; the chat template reads "thinking", llama.cpp "reasoning_content")');
          }
          if (field(b, 'signature') !== undefined) out.info('conversation/no-chat-equivalent', at(bp, 'signature'), 'the thinking signature has no chat equivalent: dropped');
          break;
        }
        case 'redacted_thinking':
          out.warn('conversation/no-chat-equivalent', bp, 'redacted thinking is opaque: dropped (as vLLM drops it)');
          break;
        case 'tool_use': {
          const id = strField(b, 'id');
          if (!id) out.warn('conversation/no-chat-equivalent', bp, 'a tool_use without an id: vLLM makes one from the clock (call_<seconds>); call_0 here');
          const input = field(b, 'input');
          // vLLM: "arguments": json.dumps(block.input or {}), Python's default separators and ASCII escapes
          const args = stringifyPython(isEmptyish(input) ? new Map() : (input as JsonValue), { ensureAscii: true });
          // tool_calls/N is this block: its function's name and arguments are the block's name and input
          const cp = at(p, 'tool_calls', toolCalls.length);
          out.moved.set(cp, bp);
          out.moved.set(at(cp, 'function'), bp);
          out.moved.set(at(cp, 'function', 'name'), at(bp, 'name'));
          out.moved.set(at(cp, 'function', 'arguments'), at(bp, 'input'));
          toolCalls.push(
            object([
              ['id', id || 'call_0'],
              ['type', 'function'],
              ['function', object([['name', strField(b, 'name') ?? ''], ['arguments', args]])],
            ]),
          );
          break;
        }
        case 'tool_result': {
          if (role === 'user') {
            const r = field(b, 'content');
            let text = '';
            const images: string[] = [];
            if (typeof r === 'string') text = r;
            else if (isJsonArray(r)) {
              const texts: string[] = [];
              r.forEach((item, j) => {
                const it = strField(item, 'type');
                if (it === 'text') texts.push(strField(item, 'text') ?? '');
                else if (it === 'image') {
                  const url = imageUrl(field(item, 'source'));
                  if (url) images.push(url);
                } else out.warn('conversation/no-chat-equivalent', at(bp, 'content', j), `a tool_result item of type ${JSON.stringify(it ?? null)} is dropped`);
              });
              text = texts.join('\n');
            }
            if (field(b, 'is_error') === true) out.warn('conversation/no-chat-equivalent', at(bp, 'is_error'), 'is_error has no chat equivalent: the result reads as an ordinary one');
            out.push(object([['role', 'tool'], ['tool_call_id', strField(b, 'tool_use_id') ?? ''], ['content', text]]), bp);
            out.moved.set(at(bp, 'tool_call_id'), at(bp, 'tool_use_id'));
            out.moved.set(at(bp, 'role'), bp);
            if (images.length) out.push(object([['role', 'user'], ['content', images.map((u) => object([['type', 'image_url'], ['image_url', object([['url', u]])]]))]]), bp);
          } else {
            const r = field(b, 'content');
            out.warn('conversation/no-chat-equivalent', bp, 'a tool_result outside a user message becomes text "Tool result: …" (as vLLM does)');
            parts.push(object([['type', 'text'], ['text', `Tool result: ${typeof r === 'string' ? r : r === undefined || r === null ? '' : stringifyPython(r)}`]]));
          }
          break;
        }
        default:
          out.warn('conversation/no-chat-equivalent', bp, `a content block of type ${JSON.stringify(type ?? null)} has no chat equivalent: dropped`);
      }
    });
    const entries: [string, JsonValue][] = [['role', role ?? null]];
    if (parts.length) entries.push(['content', parts.length === 1 && strField(parts[0], 'type') === 'text' ? (strField(parts[0], 'text') as string) : parts]);
    if (reasoning.length) entries.push(['reasoning', reasoning.join('')]);
    // the fields made from blocks point at their blocks (only for a message that is sent)
    if (!(role === 'user' && !parts.length)) {
      // `reasoning`, and the fields a server copies it into (vLLM's `reasoning_content`, a template's `thinking`)
      if (reasoningBlock !== undefined) for (const k of ['reasoning', 'reasoning_content', 'thinking']) out.moved.set(at(p, k), reasoningBlock);
      if (parts.length === 1 && strField(parts[0], 'type') === 'text') out.moved.set(at(p, 'content'), at(partBlocks[0] as string, 'text'));
      else partBlocks.forEach((block, j) => out.moved.set(at(p, 'content', j), block));
      if (toolCalls.length) out.moved.set(at(p, 'tool_calls'), at(p, 'content'));
    }
    if (toolCalls.length) entries.push(['tool_calls', toolCalls]);
    // a user message left without content (only tool results) is not sent
    if (role === 'user' && !parts.length) return;
    out.push(object(entries), p);
  });
  return out;
}

/** True for what Python's `x or {}` replaces: absent, null, `{}`. */
function isEmptyish(v: JsonValue | undefined): boolean {
  return v === undefined || v === null || v === false || v === '' || (isJsonObject(v) && v.size === 0) || (isJsonArray(v) && v.length === 0);
}

/** The URL of an Anthropic image source: a URL, or a data URL of base64 data. */
function imageUrl(source: JsonValue | undefined): string | undefined {
  if (!isJsonObject(source)) return undefined;
  if (strField(source, 'type') === 'url') return strField(source, 'url') ?? '';
  return `data:${strField(source, 'media_type') ?? 'image/jpeg'};base64,${strField(source, 'data') ?? ''}`;
}

/** Responses input items → chat. */
function responsesToChat(c: ConversationInput): ChatMessages {
  const out = new ChatOut();
  if (c.instructions !== undefined) out.push(object([['role', 'system'], ['content', c.instructions]]), c.instructionsPointer ?? '/instructions');
  let pendingReasoning: { text: string; pointer: string } | undefined;
  /** The open assistant message that consecutive function calls join. */
  let callMessage: { calls: JsonValue[]; index: number } | undefined;
  const flushReasoning = (): void => {
    if (pendingReasoning === undefined) return;
    out.warn('conversation/no-chat-equivalent', pendingReasoning.pointer, 'a reasoning item with no assistant message after it becomes an assistant message with empty content');
    out.push(object([['role', 'assistant'], ['content', ''], ['reasoning', pendingReasoning.text]]), pendingReasoning.pointer);
    pendingReasoning = undefined;
  };
  c.items.forEach((item, i) => {
    const p = c.pointers[i];
    if (typeof item === 'string') {
      flushReasoning();
      callMessage = undefined;
      out.push(object([['role', 'user'], ['content', item]]), p);
      return;
    }
    const type = strField(item, 'type') ?? 'message';
    if (type !== 'function_call') callMessage = undefined;
    switch (type) {
      case 'message': {
        const role = strField(item, 'role') ?? 'user';
        const text = flattenResponsesContent(field(item, 'content'), at(p, 'content'), out);
        const entries: [string, JsonValue][] = [['role', role], ['content', text]];
        if (role === 'assistant' && pendingReasoning !== undefined) {
          entries.push(['reasoning', pendingReasoning.text]);
          pendingReasoning = undefined;
        } else flushReasoning();
        out.push(object(entries), p);
        return;
      }
      case 'function_call': {
        const call = object([
          ['id', strField(item, 'call_id') ?? strField(item, 'id') ?? ''],
          ['type', 'function'],
          ['function', object([['name', strField(item, 'name') ?? ''], ['arguments', strField(item, 'arguments') ?? '']])],
        ]);
        if (callMessage !== undefined) {
          // consecutive calls: one assistant message
          callMessage.calls.push(call);
          const prev = out.messages[callMessage.index] as JsonObject;
          out.messages[callMessage.index] = object([...prev].map(([k, v]) => [k, k === 'tool_calls' ? [...callMessage!.calls] : v] as const));
          return;
        }
        const entries: [string, JsonValue][] = [['role', 'assistant'], ['content', null]];
        if (pendingReasoning !== undefined) entries.push(['reasoning', pendingReasoning.text]);
        pendingReasoning = undefined;
        entries.push(['tool_calls', [call]]);
        callMessage = { calls: [call], index: out.messages.length };
        out.push(object(entries), p);
        return;
      }
      case 'function_call_output': {
        flushReasoning();
        const o = field(item, 'output');
        const text = typeof o === 'string' ? o : flattenResponsesContent(o, at(p, 'output'), out);
        out.push(object([['role', 'tool'], ['tool_call_id', strField(item, 'call_id') ?? ''], ['content', text]]), p);
        return;
      }
      case 'reasoning': {
        flushReasoning();
        const parts = field(item, 'content');
        const texts = isJsonArray(parts) ? parts.map((x) => strField(x, 'text') ?? '') : [];
        if (!texts.length) {
          out.warn('conversation/no-chat-equivalent', p, 'a reasoning item without content (only a summary or encrypted content) has no chat equivalent: dropped');
          return;
        }
        if (isJsonArray(field(item, 'summary')) && (field(item, 'summary') as JsonValue[]).length) out.info('conversation/no-chat-equivalent', at(p, 'summary'), 'the reasoning summary is dropped (the content is kept)');
        pendingReasoning = { text: texts.join('\n'), pointer: p };
        return;
      }
      default:
        flushReasoning();
        out.warn('conversation/no-chat-equivalent', p, `a Responses item of type "${type}" has no chat equivalent: dropped`);
    }
  });
  flushReasoning();
  return out;
}

/** Responses message content as text: a string as is, parts' texts joined (non-text parts dropped, with a warning). */
function flattenResponsesContent(content: JsonValue | undefined, pointer: string, out: ChatOut): string {
  if (typeof content === 'string') return content;
  if (!isJsonArray(content)) return '';
  const { text, dropped } = joinTexts(content, '', ['input_text', 'output_text', 'text', 'reasoning_text']);
  for (const k of dropped) out.warn('conversation/content-part-dropped', at(pointer, k), `a ${JSON.stringify(strField(content[k], 'type') ?? null)} part has no text: dropped`);
  return text;
}

/** Harmony-native messages → chat. */
function harmonyToChat(c: ConversationInput): ChatMessages {
  const out = new ChatOut();
  if (c.instructions !== undefined) out.push(object([['role', 'system'], ['content', c.instructions]]), c.instructionsPointer ?? '/instructions');
  let reasoning: { text: string; pointer: string } | undefined;
  let preamble: { text: string; pointer: string } | undefined;
  let calls: { index: number; list: JsonValue[] } | undefined;
  const lastCallId = new Map<string, string>();
  let nextId = 0;
  const flush = (): void => {
    if (preamble !== undefined) {
      out.warn('conversation/no-chat-equivalent', preamble.pointer, 'a commentary preamble with no call after it becomes assistant content (a final answer in chat)');
      out.push(object([['role', 'assistant'], ['content', preamble.text], ...(reasoning !== undefined ? [['reasoning', reasoning.text] as const] : [])]), preamble.pointer);
      preamble = undefined;
      reasoning = undefined;
    }
    if (reasoning !== undefined) {
      out.push(object([['role', 'assistant'], ['content', ''], ['reasoning', reasoning.text]]), reasoning.pointer);
      reasoning = undefined;
    }
  };
  c.items.forEach((m, i) => {
    const p = c.pointers[i];
    const role = strField(m, 'role');
    const text = harmonyText(field(m, 'content'), at(p, 'content'), out);
    const channel = strField(m, 'channel');
    const recipient = strField(m, 'recipient');
    const isCall = role === 'assistant' && recipient !== undefined && recipient !== 'all' && recipient !== 'assistant';
    if (!isCall) calls = undefined;
    if (role === 'assistant' && !isCall) {
      if (channel === 'analysis') {
        flush();
        reasoning = { text, pointer: p };
      } else if (channel === 'commentary') {
        if (preamble !== undefined) flush();
        preamble = { text, pointer: p };
      } else {
        if (preamble !== undefined) flush();
        if (channel !== 'final') out.warn('conversation/no-chat-equivalent', p, `an assistant message on channel ${JSON.stringify(channel ?? null)} becomes ordinary assistant content`);
        out.push(object([['role', 'assistant'], ['content', text], ...(reasoning !== undefined ? [['reasoning', reasoning.text] as const] : [])]), p);
        reasoning = undefined;
      }
      return;
    }
    if (isCall) {
      const name = recipient!.startsWith('functions.') ? recipient!.slice('functions.'.length) : recipient!;
      if (!recipient!.startsWith('functions.')) out.warn('conversation/no-chat-equivalent', at(p, 'recipient'), `a call to ${recipient} (not a functions.* tool) becomes a function call named "${name}"`);
      const ct = strField(m, 'content_type');
      if (ct !== undefined && ct !== 'json' && ct !== '<|constrain|>json') out.warn('conversation/no-chat-equivalent', at(p, 'content_type'), `content type ${JSON.stringify(ct)} has no chat equivalent: dropped`);
      const id = `call_${nextId++}`;
      lastCallId.set(name, id);
      const call = object([['id', id], ['type', 'function'], ['function', object([['name', name], ['arguments', text]])]]);
      if (calls !== undefined) {
        calls.list.push(call);
        const prev = out.messages[calls.index] as JsonObject;
        out.messages[calls.index] = object([...prev].map(([k, v]) => [k, k === 'tool_calls' ? [...calls!.list] : v] as const));
        return;
      }
      const entries: [string, JsonValue][] = [['role', 'assistant'], ['content', preamble?.text ?? null]];
      if (reasoning !== undefined) entries.push(['reasoning', reasoning.text]);
      entries.push(['tool_calls', [call]]);
      preamble = undefined;
      reasoning = undefined;
      calls = { index: out.messages.length, list: [call] };
      out.push(object(entries), p);
      return;
    }
    flush();
    if (role === 'tool') {
      const author = strField(m, 'name') ?? '';
      const name = author.startsWith('functions.') ? author.slice('functions.'.length) : author;
      let id = lastCallId.get(name);
      if (id === undefined) {
        id = `call_${nextId++}`;
        out.warn('conversation/no-chat-equivalent', p, `a result of ${author || 'an unnamed tool'} with no call before it: given the made-up id ${id}`);
      }
      out.push(object([['role', 'tool'], ['tool_call_id', id], ['content', text]]), p);
      return;
    }
    if (channel !== undefined) out.warn('conversation/no-chat-equivalent', at(p, 'channel'), `a ${role} message's channel has no chat equivalent: dropped`);
    out.push(object([['role', role ?? 'user'], ['content', text]]), p);
  });
  flush();
  if (nextId > 0) out.info('conversation/no-chat-equivalent', c.pointers[0] ?? '', 'Harmony calls carry no ids: the chat messages use made-up ids call_0, call_1… to pair calls with results');
  return out;
}

/** A Harmony-native content (a string or `{type: "text", text}` parts) as text. */
function harmonyText(content: JsonValue | undefined, pointer: string, out: ChatOut): string {
  if (typeof content === 'string') return content;
  if (!isJsonArray(content)) return '';
  const { text, dropped } = joinTexts(content, '', ['text']);
  for (const k of dropped) out.warn('conversation/content-part-dropped', at(pointer, k), 'a content item that is not text is dropped');
  return text;
}
