/**
 * Ollama as a gpt-oss server (spec conversations.md §A.6, Ollama main @fb30760): the prompt its
 * `/v1/chat/completions` builds for gpt-oss. The request goes through
 *
 *   Go's JSON decoding into `openai.ChatCompletionRequest` (fields matched case-insensitively,
 *     unknown keys dropped, a field of the wrong type refuses the request)
 *   → `openai.FromChatRequest` (one message per content part, `reasoning` → thinking, arguments
 *     parsed into an ordered map, `reasoning_effort` → think)
 *   → `ChatHandler` (roles lower-cased, think defaults to true, `max` → `high`,
 *     `HarmonyMessageHandler.Init` renames the tools, images become `[img-N]` tags)
 *   → `template.collate` (system messages gathered, consecutive same-role messages merged)
 *   → the gpt-oss Go template (system, developer with tools then instructions, messages).
 *
 * Each step is a function below named after what it does. Every drop or rewrite is a warning at
 * the message's JSON Pointer; a request Ollama refuses throws one CompileError
 * (`conversation/refused`) carrying Ollama's message.
 *
 * `messages` of the result lists the rendered messages; note that Ollama writes a tool call's
 * header channel first (`assistant<|channel|>commentary to=functions.f <|constrain|>json`), a
 * tool result without a channel, and a prefilled last message without its end token, so the
 * text is not `renderEnvelope` of each.
 */
import { CompileError, type Diagnostic } from '../diagnostics.js';
import { ollamaCatalog, emitOllamaBuiltinSections, isOllamaBuiltin } from '../emit/ollama/catalog.js';
import { isGoInt } from '../emit/ollama/decode.js';
import { goField, goKind, goLenientJsonText, goMarshal, goString } from '../emit/ollama/gojson.js';
import { findControlTokens } from '../input/control-tokens.js';
import { escapePointerToken, isJsonArray, isJsonNumber, isJsonObject, parseJson, type JsonObject, type JsonValue } from '../ir/json.js';
import type { HarmonyMessage } from '../messages/envelope.js';
import { keptPrint, type ServerPrompt, type ServerRequest } from './types.js';

/** A JSON value and where it stands. */
interface At<T = JsonValue> {
  readonly value: T;
  readonly path: string;
}

/** One tool call as `openai.ToolCall` decodes it. */
interface RequestCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  readonly path: string;
}

/** One message as `openai.Message` decodes it. */
interface RequestMessage {
  readonly role: string;
  /** `any`: undefined when absent (Go: nil, like null). */
  readonly content: JsonValue | undefined;
  readonly reasoning: string;
  /** undefined is Go's nil slice (absent or null); `[]` is an empty, non-nil one. */
  readonly toolCalls: readonly RequestCall[] | undefined;
  readonly name: string;
  readonly toolCallId: string;
  readonly path: string;
  /** Where each read field stands. */
  readonly fields: ReadonlyMap<string, string>;
}

/** One tool call of an `api.Message`. */
interface ApiCall {
  readonly name: string;
  /** The parsed arguments object, or null when the arguments were JSON null (printed `{}`). */
  readonly args: JsonObject | null;
  readonly original: string;
  readonly path: string;
}

/** One `api.Message`, with where it came from. */
interface ApiMessage {
  role: string;
  content: string;
  thinking: string;
  images: number;
  toolCalls: readonly ApiCall[];
  toolName: string;
  readonly path: string;
  /** Where the thinking came from (the request message's `reasoning`). */
  thinkingPath?: string;
  /** The request message this one came from. */
  readonly source: number;
}

/** The fields of `openai.Message`. */
const MESSAGE_FIELDS = ['role', 'content', 'reasoning', 'tool_calls', 'name', 'tool_call_id'] as const;
/** The fields of `openai.ToolCall` and of its `function`. */
const CALL_FIELDS = ['id', 'index', 'type', 'function'] as const;
const FUNCTION_FIELDS = ['name', 'arguments'] as const;
/** Reasoning fields other servers read and Ollama's `openai.Message` has no field for. */
const OTHER_REASONING = ['reasoning_content', 'thinking'];

/** Collects warnings and the decoding errors of one request. */
class Findings {
  readonly diagnostics: Diagnostic[] = [];
  readonly refusals: Diagnostic[] = [];

  warn(code: string, path: string, message: string): void {
    this.diagnostics.push({ code, severity: 'warning', path, message });
  }

  info(code: string, path: string, message: string): void {
    this.diagnostics.push({ code, severity: 'info', path, message });
  }

  /** A request Ollama refuses while decoding it (Go's error, in its words); decoding goes on, as Go's does. */
  refuseLater(path: string, message: string): void {
    this.refusals.push({ code: 'conversation/refused', severity: 'error', path, message });
  }
}

/** A refusal thrown at once: the first error of `FromChatRequest` ends the request. */
function refused(path: string, message: string): CompileError {
  return new CompileError([{ code: 'conversation/refused', severity: 'error', path, message }]);
}

// ---------------------------------------------------------------------------------------
// Go's JSON decoding of the request (`ShouldBindJSON` into openai.ChatCompletionRequest)

/** A Go `string` field: a string, or null (empty); another JSON type fails the request. */
function goStringField(f: At | undefined, field: string, out: Findings): string {
  if (f === undefined || f.value === null) return '';
  if (typeof f.value === 'string') return goString(f.value);
  out.refuseLater(f.path, `json: cannot unmarshal ${goKind(f.value)} into Go struct field ${field} of type string`);
  return '';
}

/** The fields of a JSON object as Go fills a struct (case-insensitive keys, last one wins); keys with no field reported by `unknown`. */
function goStruct<F extends string>(obj: JsonObject, names: readonly F[], path: string, unknown: (key: string, path: string) => void): Map<F, At> {
  const out = new Map<F, At>();
  for (const [key, value] of obj) {
    const p = `${path}/${escapePointerToken(key)}`;
    const m = goField(key, names);
    if (m === undefined) unknown(key, p);
    else out.set(m.field as F, { value, path: p });
  }
  return out;
}

/** One `openai.ToolCall`. */
function decodeCall(v: JsonValue, path: string, out: Findings): RequestCall {
  if (v === null) return { id: '', name: '', arguments: '', path };
  if (!isJsonObject(v)) {
    out.refuseLater(path, `json: cannot unmarshal ${goKind(v)} into Go struct field Message.messages.tool_calls of type openai.ToolCall`);
    return { id: '', name: '', arguments: '', path };
  }
  const f = goStruct(v, CALL_FIELDS, path, (key, p) => out.warn('conversation/ignored-field', p, `${JSON.stringify(key)} is not read: Ollama's tool call has no such field`));
  const index = f.get('index');
  if (index !== undefined && index.value !== null && !isGoInt(index.value)) {
    const shown = isJsonNumber(index.value) ? `number ${index.value.text}` : goKind(index.value);
    out.refuseLater(index.path, `json: cannot unmarshal ${shown} into Go struct field ToolCall.messages.tool_calls.index of type int`);
  }
  goStringField(f.get('type'), 'ToolCall.messages.tool_calls.type', out);
  const fn = f.get('function');
  let name = '';
  let args = '';
  if (fn !== undefined && fn.value !== null) {
    if (!isJsonObject(fn.value)) {
      out.refuseLater(fn.path, `json: cannot unmarshal ${goKind(fn.value)} into Go struct field ToolCall.messages.tool_calls.function of type struct { Name string "json:\\"name\\""; Arguments string "json:\\"arguments\\"" }`);
    } else {
      const g = goStruct(fn.value, FUNCTION_FIELDS, fn.path, (key, p) => out.warn('conversation/ignored-field', p, `${JSON.stringify(key)} is not read: Ollama's tool call function has only name and arguments`));
      name = goStringField(g.get('name'), 'ToolCall.messages.tool_calls.function.name', out);
      args = goStringField(g.get('arguments'), 'ToolCall.messages.tool_calls.function.arguments', out);
    }
  }
  return { id: goStringField(f.get('id'), 'ToolCall.messages.tool_calls.id', out), name, arguments: args, path };
}

/** One `openai.Message`: what Ollama reads of a Chat Completions message. */
function decodeMessage(v: JsonValue, path: string, out: Findings): RequestMessage {
  const empty: RequestMessage = { role: '', content: undefined, reasoning: '', toolCalls: undefined, name: '', toolCallId: '', path, fields: new Map() };
  if (v === null) return empty;
  if (!isJsonObject(v)) {
    out.refuseLater(path, `json: cannot unmarshal ${goKind(v)} into Go struct field ChatCompletionRequest.messages of type openai.Message`);
    return empty;
  }
  const f = goStruct(v, MESSAGE_FIELDS, path, (key, p) => {
    if (OTHER_REASONING.includes(key)) {
      if (v.get(key) !== null) out.warn('conversation/dropped-reasoning', p, `${JSON.stringify(key)} is not read: Ollama reads past reasoning from "reasoning" only`);
    } else out.warn('conversation/ignored-field', p, `${JSON.stringify(key)} is not read: Ollama's chat message has no such field`);
  });
  const tc = f.get('tool_calls');
  let toolCalls: RequestCall[] | undefined;
  if (tc !== undefined && tc.value !== null) {
    if (isJsonArray(tc.value)) toolCalls = tc.value.map((c, k) => decodeCall(c, `${tc.path}/${k}`, out));
    else out.refuseLater(tc.path, `json: cannot unmarshal ${goKind(tc.value)} into Go struct field Message.messages.tool_calls of type []openai.ToolCall`);
  }
  const fields = new Map<string, string>();
  for (const [k, x] of f) fields.set(k, x.path);
  return {
    role: goStringField(f.get('role'), 'Message.messages.role', out),
    content: f.get('content')?.value,
    reasoning: goStringField(f.get('reasoning'), 'Message.messages.reasoning', out),
    toolCalls,
    name: goStringField(f.get('name'), 'Message.messages.name', out),
    toolCallId: goStringField(f.get('tool_call_id'), 'Message.messages.tool_call_id', out),
    path,
    fields,
  };
}

// ---------------------------------------------------------------------------------------
// openai.FromChatRequest

/** Go's `%T` of a decoded `any` that is neither a string nor a list. */
function goTypeName(v: JsonValue | undefined): string {
  if (v === undefined || v === null) return '<nil>';
  if (typeof v === 'boolean') return 'bool';
  if (isJsonObject(v)) return 'map[string]interface {}';
  return 'float64';
}

/** `FromCompletionToolCall`: arguments `json.Unmarshal`ed into an ordered map; `""`, invalid JSON or a non-object fails the request. */
function parseCalls(calls: readonly RequestCall[]): ApiCall[] {
  return calls.map((c) => {
    let v: JsonValue;
    try {
      v = parseJson(goLenientJsonText(c.arguments));
    } catch {
      throw refused(`${c.path}/function/arguments`, 'invalid tool call arguments');
    }
    // JSON null decodes into a nil map without error (the template prints it `{}`)
    if (v !== null && !isJsonObject(v)) throw refused(`${c.path}/function/arguments`, 'invalid tool call arguments');
    return { name: c.name, args: v, original: c.arguments, path: c.path };
  });
}

/** `nameFromToolCallID`: the name of the last tool call with this id in the whole request (any message, any role). */
function nameFromToolCallId(messages: readonly RequestMessage[], id: string): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    for (const tc of messages[i].toolCalls ?? []) if (tc.id === id) return tc.name;
  }
  return '';
}

/** Go's `base64.StdEncoding.DecodeString` validity (padding required; CR and LF skipped). */
function isStdBase64(s: string): boolean {
  const t = s.replace(/[\r\n]/g, '');
  return /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(t);
}

/** Where Go's base64 decoder reports the first bad byte (best effort: the first character outside the alphabet, else the end). */
function base64ErrorOffset(s: string): number {
  const m = /[^A-Za-z0-9+/=\r\n]/.exec(s);
  return m ? m.index : s.length;
}

/** `decodeImageURL`: only base64 data URIs (`data:;base64,` or an image/jpeg|jpg|png|webp one) are read. */
function checkImageUrl(url: string, path: string): void {
  if (url.startsWith('http://') || url.startsWith('https://')) throw refused(path, 'image URLs are not currently supported, please use base64 encoded data instead');
  let data: string | undefined;
  if (url.startsWith('data:;base64,')) data = url.slice('data:;base64,'.length);
  else {
    for (const t of ['jpeg', 'jpg', 'png', 'webp']) {
      const prefix = `data:image/${t};base64,`;
      if (url.startsWith(prefix)) {
        data = url.slice(prefix.length);
        break;
      }
    }
  }
  if (data === undefined || !isStdBase64(data)) throw refused(path, 'invalid image input');
}

/** One content part as `FromChatRequest` reads it: text, or an image/audio (an image-only message). */
function readPart(part: JsonValue, path: string): { text: string } | { image: true } {
  const format = () => refused(path, 'invalid message format');
  if (!isJsonObject(part)) throw format();
  const type = part.get('type');
  if (type === 'text') {
    const text = part.get('text');
    if (typeof text !== 'string') throw format();
    return { text: goString(text) };
  }
  if (type === 'image_url') {
    const iu = part.get('image_url');
    let url: JsonValue | undefined = iu;
    if (isJsonObject(iu)) url = iu.get('url');
    if (typeof url !== 'string') throw format();
    checkImageUrl(url, `${path}/image_url`);
    return { image: true };
  }
  if (type === 'input_audio') {
    const audio = part.get('input_audio');
    if (!isJsonObject(audio)) throw refused(path, 'invalid input_audio format');
    const data = audio.get('data');
    if (typeof data !== 'string') throw refused(path, 'invalid input_audio format: missing data');
    if (!isStdBase64(data)) throw refused(`${path}/input_audio/data`, `invalid input_audio base64 data: illegal base64 data at input byte ${base64ErrorOffset(data)}`);
    return { image: true };
  }
  throw format();
}

/** `FromChatRequest` over the messages: `api.Message`s, or the first error Ollama returns. */
function fromChatRequest(messages: readonly RequestMessage[], out: Findings): ApiMessage[] {
  const api: ApiMessage[] = [];
  messages.forEach((msg, index) => {
    const isTool = msg.role.toLowerCase() === 'tool';
    let toolName = '';
    if (isTool) {
      toolName = msg.name;
      if (toolName === '' && msg.toolCallId !== '') toolName = nameFromToolCallId(messages, msg.toolCallId);
    }
    const base = { images: 0, source: index };
    const content = msg.content;
    const reasoningPath = msg.fields.get('reasoning');
    if (typeof content === 'string') {
      const toolCalls = parseCalls(msg.toolCalls ?? []);
      api.push({ ...base, role: msg.role, content: goString(content), thinking: msg.reasoning, toolCalls, toolName, path: msg.path, ...(reasoningPath ? { thinkingPath: reasoningPath } : {}) });
    } else if (isJsonArray(content)) {
      const contentPath = msg.fields.get('content') as string;
      content.forEach((part, k) => {
        const p = readPart(part, `${contentPath}/${k}`);
        if ('text' in p) api.push({ ...base, role: msg.role, content: p.text, thinking: '', toolCalls: [], toolName: '', path: `${contentPath}/${k}` });
        else {
          api.push({ ...base, role: msg.role, content: '', thinking: '', toolCalls: [], toolName: '', images: 1, path: `${contentPath}/${k}` });
          out.warn('conversation/image-placeholder', `${contentPath}/${k}`, 'gpt-oss reads no images: Ollama passes the data on and writes an [img-N] tag in the text');
        }
      });
      // tool calls, the tool name, and the reasoning go to the last message made so far: this message's last part, or (no parts) the previous message
      if (api.length > 0 && (msg.toolCalls?.length ?? 0) > 0) {
        const last = api[api.length - 1];
        last.toolCalls = parseCalls(msg.toolCalls ?? []);
        last.toolName = toolName;
        last.thinking = msg.reasoning;
        if (reasoningPath) last.thinkingPath = reasoningPath;
        if (content.length === 0) out.warn('conversation/merged-message', msg.path, 'the content list is empty: Ollama attaches this message\'s tool calls and reasoning to the message before it');
      } else {
        if (msg.reasoning !== '' && reasoningPath) out.warn('conversation/dropped-reasoning', reasoningPath, 'the reasoning of a message with list content and no tool calls is dropped by Ollama');
        if (isTool && toolName !== '' && content.length > 0) out.warn('conversation/unnamed-tool-result', msg.path, `with list content, Ollama drops the tool name ${JSON.stringify(toolName)}: each part becomes a result from "functions."`);
        if (content.length === 0) out.warn('conversation/dropped-message', msg.path, 'the content list is empty: Ollama makes no message of it');
      }
      if (content.length > 1) out.warn('conversation/merged-message', contentPath, isTool ? 'each content part becomes its own tool result in Ollama' : 'each content part becomes its own message in Ollama, merged back with blank lines between them');
    } else {
      // content is only optional if tool calls are present (an empty list counts: Go's slice is not nil)
      if (msg.toolCalls === undefined) throw refused(msg.fields.get('content') ?? msg.path, `invalid message content type: ${goTypeName(content)}`);
      if (content !== undefined && content !== null) out.warn('conversation/ignored-field', msg.fields.get('content') as string, `content of type ${goTypeName(content)} is dropped: Ollama reads strings and part lists only`);
      if (isTool && toolName !== '') out.warn('conversation/unnamed-tool-result', msg.path, `without content, Ollama drops the tool name ${JSON.stringify(toolName)}`);
      const toolCalls = parseCalls(msg.toolCalls);
      api.push({ ...base, role: msg.role, content: '', thinking: msg.reasoning, toolCalls, toolName: '', path: msg.path, ...(reasoningPath ? { thinkingPath: reasoningPath } : {}) });
    }
  });
  return api;
}

/** What `reasoning_effort` becomes: `thinkFromReasoningEffort`, then ChatHandler's default (true for a thinking model) and harmony's `max` → `high`. */
function reasoningLevel(effort: JsonValue | undefined, out: Findings): { level: string | undefined; error?: Diagnostic } {
  const at = '/reasoning_effort';
  if (effort === undefined || effort === null || effort === '') return { level: 'medium' };
  if (typeof effort !== 'string') {
    out.refuseLater(at, `json: cannot unmarshal ${goKind(effort)} into Go struct field ChatCompletionRequest.reasoning_effort of type string`);
    return { level: 'medium' };
  }
  switch (effort) {
    case 'none':
      out.warn('conversation/effort-mapped', at, 'reasoning_effort "none": Ollama writes no Reasoning line (gpt-oss then reasons at its default level)');
      return { level: undefined };
    case 'minimal':
      out.warn('conversation/effort-mapped', at, 'reasoning_effort "minimal" is "low" in Ollama');
      return { level: 'low' };
    case 'low':
    case 'medium':
    case 'high':
      return { level: effort };
    case 'max':
    case 'xhigh':
    case 'ultra':
      out.warn('conversation/effort-mapped', at, `reasoning_effort ${JSON.stringify(effort)} is "max" in Ollama, which its gpt-oss path writes as "high"`);
      return { level: 'high' };
    default:
      return {
        level: undefined,
        error: { code: 'conversation/refused', severity: 'error', path: at, message: `invalid reasoning value: ${JSON.stringify(effort)} (must be "minimal", "low", "medium", "high", "xhigh", "ultra", "max", or "none")` },
      };
  }
}

// ---------------------------------------------------------------------------------------
// ChatHandler, chatPrompt, template.collate

/** `imageTaggedMessages`: each image adds an `[img-N]` tag (numbered over the request) before the message text (or replaces an `[img]` in it). */
function tagImages(messages: ApiMessage[]): void {
  let n = 0;
  for (const m of messages) {
    let prefix = '';
    for (let k = 0; k < m.images; k++) {
      const tag = `[img-${n++}]`;
      if (m.content.includes('[img]')) m.content = m.content.replace('[img]', tag);
      else prefix += tag;
    }
    m.content = prefix + m.content;
  }
}

/** `collate`: every system message's content joined by blank lines; consecutive messages of one role (not tool) merged, the later one's thinking and tool calls lost. */
function collate(messages: readonly ApiMessage[], out: Findings): { system: string; messages: ApiMessage[] } {
  const system: string[] = [];
  const collated: ApiMessage[] = [];
  for (const m of messages) {
    if (m.role === 'system') {
      if (system.length > 0) out.warn('conversation/merged-message', m.path, 'Ollama gathers every system message, wherever it stands, into the developer message\'s instructions, joined with blank lines');
      system.push(m.content);
    }
    const prev = collated[collated.length - 1];
    if (prev !== undefined && prev.role === m.role && m.role !== 'tool') {
      prev.content += `\n\n${m.content}`;
      if (m.role === 'system') continue;
      const lost: string[] = [];
      if (m.thinking !== '') lost.push('its reasoning');
      if (m.toolCalls.length > 0) lost.push(`its ${m.toolCalls.length === 1 ? 'tool call' : `${m.toolCalls.length} tool calls`}`);
      // parts of one list content were reported as merged already
      if (lost.length > 0 || m.source !== prev.source) {
        out.warn('conversation/merged-message', m.path, `Ollama merges consecutive ${JSON.stringify(m.role)} messages into one, the contents joined with a blank line${lost.length ? `; ${lost.join(' and ')} ${lost.length > 1 ? 'are' : 'is'} dropped` : ''}`);
      }
    } else collated.push({ ...m });
  }
  return { system: system.join('\n\n'), messages: collated };
}

/**
 * Control-token spellings in the text the template prints: Ollama tokenizes the rendered prompt
 * with the vocabulary's special tokens split out of it (`BytePairEncoding.Encode` looks for every
 * `SpecialVocabulary()` string in the text), so a `<|end|>` in a message is a real token there.
 * The printed strings: content (system messages go to the developer message), an assistant's
 * reasoning after the last user message, tool call names, a tool message's name. The arguments
 * are printed through json.Marshal, which writes `<` and `>` as `\u003c` and `\u003e`.
 */
function spelledTokens(messages: readonly ApiMessage[], request: readonly RequestMessage[], out: Findings): void {
  let lastUser = -1;
  messages.forEach((m, i) => {
    if (m.role === 'user') lastUser = i;
  });
  const check = (text: string, path: string) => {
    const spellings = [...new Set(findControlTokens(text).filter((s) => s.startsWith('<|')))];
    if (spellings.length) out.warn('security/control-token', path, `${spellings.join(', ')} in this text: Ollama tokenizes the prompt with its special tokens, so the model reads ${spellings.length > 1 ? 'real control tokens' : 'a real control token'} here, not text`);
  };
  messages.forEach((m, i) => {
    if (m.role !== 'system' && m.role !== 'user' && m.role !== 'assistant' && m.role !== 'tool') return;
    const own = request[m.source];
    // a string content is the message's; a part's text is the part's
    check(m.content, own !== undefined && own.path === m.path ? (own.fields.get('content') ?? `${m.path}/content`) : m.path);
    if (m.role === 'assistant') {
      if (i > lastUser && m.thinking !== '') check(m.thinking, m.thinkingPath ?? m.path);
      for (const c of m.toolCalls) check(c.name, `${c.path}/function/name`);
    }
    const namePath = own?.fields.get('name');
    if (m.role === 'tool' && namePath !== undefined && m.toolName === own?.name) check(m.toolName, namePath);
  });
}

// ---------------------------------------------------------------------------------------
// The gpt-oss Go template

/** The system message: identity, cutoff, date, the Reasoning line, builtin tool sections, channels, the routing line. */
function systemContent(date: string, level: string | undefined, builtins: readonly string[], functionTools: boolean): string {
  let s = `You are ChatGPT, a large language model trained by OpenAI.\nKnowledge cutoff: 2024-06\nCurrent date: ${date}`;
  if (level !== undefined) s += `\n\nReasoning: ${level}`;
  s += emitOllamaBuiltinSections(builtins);
  s += '\n\n# Valid channels: analysis, commentary, final. Channel must be included for every message.';
  // the routing line only when a tool goes to the functions namespace
  if (functionTools) s += "\nCalls to these tools must go to the commentary channel: 'functions'.";
  return s;
}

/** The developer message: the tools section first, then `⏎⏎# Instructions⏎⏎{System}` (so with no tools it starts with a blank line). */
function developerContent(catalog: string, system: string): string | undefined {
  if (catalog === '' && system === '') return undefined;
  return catalog + (system !== '' ? `\n\n# Instructions\n\n${system}` : '');
}

/** One rendered piece: the message, and the text the template writes for it. */
interface Piece {
  readonly message: HarmonyMessage;
  readonly text: string;
}

/** The messages part of the template: system and unknown roles skipped, thinking only after the last user message, content as `final`, calls channel-first, tool results without a channel, an open last message when prefilling. */
function renderMessages(messages: readonly ApiMessage[], renames: ReadonlyMap<string, string>, out: Findings): { pieces: Piece[]; prefill: boolean } {
  let lastUser = -1;
  messages.forEach((m, i) => {
    if (m.role === 'user') lastUser = i;
  });
  const last = messages[messages.length - 1];
  const prefillContent = last !== undefined && last.role === 'assistant' && last.content.length > 0;
  const prefillThinking = !prefillContent && last !== undefined && last.role === 'assistant' && last.thinking.length > 0;
  if (prefillContent || prefillThinking) out.info('conversation/prefill', last.path, `the conversation ends with an assistant message: Ollama leaves its ${prefillContent ? 'content' : 'reasoning'} open for the model to continue (no <|end|>, no new <|start|>assistant)`);

  const renamedInCatalog = (name: string, path: string, what: string) => {
    const shown = renames.get(name);
    if (shown !== undefined && shown !== name) out.warn('conversation/tool-renamed', path, `${what} names ${JSON.stringify(name)}, which Ollama's tool list shows as ${JSON.stringify(shown)}: Ollama renames tools in the list but not in the history`);
  };

  const pieces: Piece[] = [];
  messages.forEach((m, i) => {
    const before = pieces.length;
    switch (m.role) {
      case 'system':
        return;
      case 'tool': {
        // `<|start|>functions.{{ $msg.ToolName }} to=assistant<|message|>`: no channel, content raw; builtins without functions.
        const builtin = isOllamaBuiltin(m.toolName);
        const author = builtin ? m.toolName : `functions.${m.toolName}`;
        if (m.toolName === '') out.warn('conversation/unnamed-tool-result', m.path, 'no tool name: no "name" and no earlier tool call with this tool_call_id, so Ollama writes the result as from "functions."');
        else if (!builtin) renamedInCatalog(m.toolName, m.path, 'this tool result');
        const message: HarmonyMessage = { role: 'tool', name: author, recipient: 'assistant', content: m.content };
        pieces.push({ message, text: `<|start|>${author} to=assistant<|message|>${m.content}<|end|>` });
        return;
      }
      case 'assistant': {
        if (m.thinking !== '') {
          // `{{- if and $msg.Thinking (gt $i $lastUserIdx) }}`; `$prefillingThinkingOnly` is one flag for the whole template, so every analysis shown stays open then
          if (i > lastUser) {
            const end = prefillThinking ? '' : '<|end|>';
            pieces.push({ message: { role: 'assistant', channel: 'analysis', content: m.thinking }, text: `<|start|>assistant<|channel|>analysis<|message|>${m.thinking}${end}` });
          } else out.warn('conversation/dropped-reasoning', m.thinkingPath ?? m.path, 'Ollama shows reasoning only for assistant messages after the last user message');
        }
        if (m.content.length > 0) {
          // `$prefillingContent` is one flag for the whole template: every final message stays open when the last one does
          const end = prefillContent ? '' : '<|end|>';
          if (m.toolCalls.length > 0) out.warn('conversation/preamble-as-final', m.path, 'content beside tool calls is written on the final channel by Ollama (not as a commentary preamble)');
          pieces.push({ message: { role: 'assistant', channel: 'final', content: m.content }, text: `<|start|>assistant<|channel|>final<|message|>${m.content}${end}` });
        }
        for (const c of m.toolCalls) {
          // `$isBuiltin`: python and browser.* go to the analysis channel without the functions. prefix; names are the history's own (not renamed)
          const builtin = isOllamaBuiltin(c.name);
          const recipient = builtin ? c.name : `functions.${c.name}`;
          const channel = builtin ? 'analysis' : 'commentary';
          // `{{ $toolCall.Function.Arguments }}`: json.Marshal of a Go map (sorted keys, compact, HTML-escaped)
          const args = c.args === null ? '{}' : goMarshal(c.args);
          if (args !== c.original) {
            // only whitespace dropped: info; keys reordered, numbers or escapes rewritten: the model reads other text than was sent
            const shown = args.length > 80 ? `${args.slice(0, 77)}...` : args;
            const msg = `Ollama re-serialises the arguments as ${shown} (json.Marshal of a Go map: keys sorted, compact, float64 numbers, <>& escaped)`;
            if (args === withoutWhitespace(c.original)) out.info('conversation/rewritten-arguments', `${c.path}/function/arguments`, msg);
            else out.warn('conversation/rewritten-arguments', `${c.path}/function/arguments`, msg);
          }
          if (!builtin) renamedInCatalog(c.name, `${c.path}/function/name`, 'this tool call');
          pieces.push({
            message: { role: 'assistant', channel, recipient, contentType: '<|constrain|>json', content: args },
            text: `<|start|>assistant<|channel|>${channel} to=${recipient} <|constrain|>json<|message|>${args}<|call|>`,
          });
        }
        break;
      }
      case 'user':
        pieces.push({ message: { role: 'user', content: m.content }, text: `<|start|>user<|message|>${m.content}<|end|>` });
        return;
      default:
        out.warn('conversation/dropped-message', m.path, m.role === 'developer' ? 'Ollama\'s gpt-oss template has no place for a developer message: it is dropped' : `Ollama's gpt-oss template renders no ${JSON.stringify(m.role)} role: the message is dropped`);
        return;
    }
    if (pieces.length === before) out.warn('conversation/dropped-message', m.path, 'nothing of this assistant message is shown (no content, no tool call, no reasoning after the last user message)');
  });
  return { pieces, prefill: prefillContent || prefillThinking };
}

/** JSON text without the whitespace between its tokens. */
function withoutWhitespace(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
      out += ch;
    } else if (ch !== ' ' && ch !== '\t' && ch !== '\n' && ch !== '\r') out += ch;
  }
  return out;
}

/** Warnings for the request-level options Ollama has no place for. */
function ignoredOptions(request: ServerRequest, out: Findings): void {
  const conv = request.conversation;
  if (conv.instructions !== undefined) out.warn('conversation/ignored-field', conv.instructionsPointer ?? '', 'Chat Completions requests carry no instructions: convert them to a system message first');
  if (request.toolChoice !== undefined && request.toolChoice !== null) out.warn('conversation/ignored-field', '/tool_choice', "tool_choice is not read: Ollama's chat completions request has no such field");
  if (request.builtinTools !== undefined && request.builtinTools.length > 0) out.warn('conversation/ignored-field', '', 'Ollama has no builtin-tools option: its template shows browser and python only for function tools named browser.search, browser.open, browser.find or python');
  if (request.identity !== undefined) out.warn('conversation/ignored-field', '', "Ollama's gpt-oss template writes its own identity line (You are ChatGPT…)");
  if (request.cutoff !== undefined) out.warn('conversation/ignored-field', '', "Ollama's gpt-oss template writes its own knowledge cutoff (2024-06)");
}

/** Today's date, `YYYY-MM-DD` in local time (Go's `time.Now().Format("2006-01-02")`). */
function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * The prompt Ollama's `/v1/chat/completions` builds for gpt-oss from a Chat Completions request.
 * Throws a CompileError (`conversation/refused`, Ollama's message) where Ollama refuses it. An
 * empty conversation is rendered (system and developer messages, then `<|start|>assistant`),
 * although Ollama's endpoint refuses `messages: []`.
 */
export function renderOllama(request: ServerRequest): ServerPrompt {
  const out = new Findings();
  const conv = request.conversation;
  if (conv.format !== 'chat') throw refused('', `Ollama reads Chat Completions messages; convert ${conv.format} messages first`);

  // decoding: tools (api.Tool), messages (openai.Message), reasoning_effort
  const catalog = keptPrint(request.tools, 'ollama catalog', () => ollamaCatalog(request.tools.tools, request.tools.definitions));
  const toolRefusals = catalog.diagnostics.filter((d) => d.severity === 'error').map((d) => ({ ...d, code: 'conversation/refused' }));
  const requestMessages = conv.items.map((item, i) => decodeMessage(item, conv.pointers[i] ?? `/messages/${i}`, out));
  const effort = reasoningLevel(request.effort, out);
  if (toolRefusals.length > 0 || out.refusals.length > 0) throw new CompileError([...toolRefusals, ...out.refusals]);

  const api = fromChatRequest(requestMessages, out);
  if (effort.error) throw new CompileError([effort.error]);
  // ChatHandler answers a request left with no message with an empty `done_reason: "load"` reply: no prompt is built
  if (conv.items.length > 0 && api.length === 0) {
    throw refused(conv.pointers[0]?.replace(/\/[^/]*$/, '') ?? '/messages', 'no message is left once the content lists are read (all empty): Ollama loads the model and replies with an empty message (done_reason "load") without building a prompt');
  }
  ignoredOptions(request, out);

  // ChatHandler: api.Message.UnmarshalJSON lower-cases roles; chatPrompt tags images; Template.Execute collates
  for (const m of api) m.role = m.role.toLowerCase();
  for (const m of api) {
    if (m.thinking !== '' && m.role !== 'assistant') out.warn('conversation/dropped-reasoning', m.thinkingPath ?? m.path, `reasoning on a ${JSON.stringify(m.role)} message is not shown by Ollama's template`);
    // the calls' own pointer: with an empty content list they sit on the message before theirs
    if (m.toolCalls.length > 0 && m.role !== 'assistant') out.warn('conversation/ignored-field', m.toolCalls[0].path.replace(/\/\d+$/, ''), `tool calls on a ${JSON.stringify(m.role)} message are not shown by Ollama's template`);
  }
  for (const r of requestMessages) {
    const lower = r.role.toLowerCase();
    const namePath = r.fields.get('name');
    if (namePath !== undefined && r.name !== '' && lower !== 'tool') out.warn('conversation/ignored-field', namePath, `"name" is read for tool messages only: Ollama drops the name of a ${JSON.stringify(lower)} message`);
    const idPath = r.fields.get('tool_call_id');
    if (idPath !== undefined && r.toolCallId !== '' && lower !== 'tool') out.warn('conversation/ignored-field', idPath, `"tool_call_id" is used for tool messages only`);
  }
  tagImages(api);
  spelledTokens(api, requestMessages, out);
  const { system, messages } = collate(api, out);

  const functionTools = catalog.text !== '';
  const sys = systemContent(request.date ?? today(), effort.level, catalog.builtins, functionTools);
  const developer = developerContent(catalog.text, system);
  const { pieces, prefill } = renderMessages(messages, catalog.renames, out);

  let text = `<|start|>system<|message|>${sys}<|end|>`;
  if (developer !== undefined) text += `<|start|>developer<|message|>${developer}<|end|>`;
  for (const p of pieces) text += p.text;
  if (!prefill) text += '<|start|>assistant';

  const catalogFindings = catalog.diagnostics.filter((d) => d.severity !== 'error');
  return {
    text,
    system: sys,
    ...(developer !== undefined ? { developer } : {}),
    ...(functionTools ? { catalog: catalog.text } : {}),
    messages: pieces.map((p) => p.message),
    diagnostics: [...catalogFindings, ...out.diagnostics],
  };
}
