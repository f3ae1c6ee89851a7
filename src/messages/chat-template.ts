/**
 * Messages as the official gpt-oss chat template renders them under Jinja2 (what
 * transformers, llama.cpp, LM Studio, mlx-lm and SGLang's chat completions put in front of
 * the model; spec chat-template-format.md §3.2–3.4): the system message, the developer
 * message, the conversation loop, and the whole prompt. The loop runs on the messages as a
 * server hands them over (raw JSON values, every key visible, Jinja2's Undefined and Python's
 * `+`/`in` semantics), and says what it dropped or rewrote as notes for the server profiles
 * (src/conversation/template.ts). Where Jinja2 raises, no text is produced: a CompileError with
 * a `chat-template/fails` diagnostic.
 */
import { CompileError, type Diagnostic } from '../diagnostics.js';
import { assertUtf8, emitChatTemplateNamespace, type ChatTemplateText, type ChatTemplateTool } from '../emit/chat-template/catalog.js';
import { CHAT_TEMPLATE_BROWSER, CHAT_TEMPLATE_PYTHON } from '../emit/chat-template/builtins.js';
import { firstLoneSurrogate, JinjaError, pyConcatOperand, surrogateError, undefinedAttribute, undefinedElement } from '../emit/python/errors.js';
import { pyContains } from '../emit/python/jinja.js';
import { pyJsonDumps as pyToJson } from '../emit/python/json.js';
import { plainType, pyStr, pyTruthy, pyType } from '../emit/python/values.js';
import { fromJs, isJsonArray, isJsonObject, isWellFormed, type JsonObject, type JsonValue } from '../ir/json.js';
import { pushAll } from '../ir/arrays.js';

export type { ChatTemplateText, ChatTemplateTool } from '../emit/chat-template/catalog.js';

/** The template's default `model_identity`. */
export const CHAT_TEMPLATE_IDENTITY = 'You are ChatGPT, a large language model trained by OpenAI.';

/** Options of the system message: the template's keyword arguments. */
export interface ChatTemplateSystemOptions {
  /** `model_identity`. Default: the ChatGPT identity. */
  readonly identity?: string;
  /** The date `strftime_now("%Y-%m-%d")` gives the server (`YYYY-MM-DD`). Default: today, local time. */
  readonly date?: string;
  /** `reasoning_effort`: any string, the template does not check it. Default `medium`. */
  readonly effort?: string;
  /** `builtin_tools`: `browser` and/or `python` (a list naming neither still writes the `# Tools` heading). */
  readonly builtinTools?: readonly string[];
  /** Add the routing line, as the template does when `tools` is not empty. */
  readonly functionTools?: boolean;
}

/** Options of the developer message. */
export interface ChatTemplateDeveloperOptions {
  /** The developer (or system) message's content: `# Instructions` when not empty. */
  readonly instructions?: string;
}

/** A tool call of an assistant message: `{name, arguments}` or the OpenAI form `{type, function: {name, arguments}}`. */
export interface ChatTemplateToolCall {
  readonly name?: string;
  /** An object (written with tojson) or a string (written with tojson too, so double-encoded). */
  readonly arguments?: unknown;
  /** The content type after `commentary ` (default `json`). */
  readonly content_type?: string;
  readonly type?: string;
  readonly function?: { readonly name: string; readonly arguments?: unknown; readonly content_type?: string };
}

/** A conversation message as transformers passes it to the template. */
export interface ChatTemplateMessage {
  /** `system`/`developer` (only as the first message), `user`, `assistant`, `tool`; other roles are skipped. */
  readonly role: string;
  readonly content?: unknown;
  /** The assistant's analysis. */
  readonly thinking?: unknown;
  /** Only the first call is rendered. */
  readonly tool_calls?: readonly ChatTemplateToolCall[];
}

/** Options of a whole prompt. */
export interface ChatTemplatePromptOptions extends ChatTemplateSystemOptions, ChatTemplateDeveloperOptions {
  /** The function tools. */
  readonly tools?: readonly ChatTemplateTool[];
  /** The conversation, after the developer message made from `instructions` (if any). */
  readonly messages?: readonly ChatTemplateMessage[];
  /** End with `<|start|>assistant`. Default true. */
  readonly addGenerationPrompt?: boolean;
}

/** Today's date, local time, as `strftime("%Y-%m-%d")` writes it. */
function today(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** `render_builtin_tools`: `# Tools` and the browser and python blocks, in that order whatever the list's order. */
function builtinSection(names: readonly string[] | undefined): string {
  if (!names || names.length === 0) return '';
  return `# Tools\n\n${names.includes('browser') ? CHAT_TEMPLATE_BROWSER : ''}${names.includes('python') ? CHAT_TEMPLATE_PYTHON : ''}`;
}

/** `build_system_message()`: the knowledge cutoff is always written, the date always, the effort unchecked. */
function systemContent(options: ChatTemplateSystemOptions): string {
  return systemText(options, options.effort, '/reasoning_effort');
}

/**
 * `build_system_message()` with `reasoning_effort` as any template argument: `"Reasoning: " +
 * reasoning_effort` needs a str (a number, null, a list… raise as Jinja2 does, at `effortPointer`);
 * undefined is Jinja2's "not defined" (`medium`).
 */
function systemText(options: ChatTemplateSystemOptions, effort: JsonValue | undefined, effortPointer: string): string {
  let out = `${options.identity ?? CHAT_TEMPLATE_IDENTITY}\n`;
  out += 'Knowledge cutoff: 2024-06\n';
  out += `Current date: ${options.date ?? today()}\n\n`;
  let reasoning = 'medium';
  if (effort !== undefined) {
    try {
      reasoning = pyConcatOperand(effort);
    } catch (e) {
      throw messageFailure(effortPointer, `the reasoning effort is ${plainType(effort)}, and the template adds it to a string`, e as JinjaError);
    }
  }
  out += `Reasoning: ${reasoning}\n\n`;
  out += builtinSection(options.builtinTools);
  out += '# Valid channels: analysis, commentary, final. Channel must be included for every message.';
  if (options.functionTools) out += "\nCalls to these tools must go to the commentary channel: 'functions'.";
  return out;
}

/** `# Instructions⏎⏎{instructions}⏎⏎` when the instructions are not empty, then `# Tools⏎⏎` and the namespace when there are tools. */
function developerContent(tools: readonly ChatTemplateTool[], instructions: JsonValue | undefined): ChatTemplateText {
  let text = pyTruthy(instructions) ? `# Instructions\n\n${pyStr(instructions as JsonValue)}\n\n` : '';
  if (tools.length === 0) return { text, diagnostics: [] };
  const ns = emitChatTemplateNamespace(tools);
  text += `# Tools\n\n${ns.text}`;
  return { text, diagnostics: ns.diagnostics };
}

/** The system message content. */
export function renderChatTemplateSystem(options: ChatTemplateSystemOptions = {}): ChatTemplateText {
  const text = systemContent(options);
  assertUtf8(text, []);
  return { text, diagnostics: [] };
}

/** The developer message content (empty when there are neither instructions nor tools: the template writes no developer message then). */
export function renderChatTemplateDeveloper(tools: readonly ChatTemplateTool[], options: ChatTemplateDeveloperOptions = {}): ChatTemplateText {
  const r = developerContent(tools, options.instructions);
  assertUtf8(r.text, tools);
  return r;
}

/** A conversation failure as a CompileError. */
function messageFailure(pointer: string, reason: string, error: JinjaError): CompileError {
  return new CompileError([{ code: 'chat-template/fails', severity: 'error', path: pointer, message: `the gpt-oss chat template fails on this conversation: ${reason} (Jinja2: ${error.text})` }]);
}

// ---------------------------------------------------------------------------------------
// Jinja2 values: what `message.key` and `list[0]` give the template

/** Jinja2's Undefined: what `x.name` or `x[0]` give when there is nothing there. Testing it is false; using it raises its error. */
class Undefined {
  constructor(readonly error: JinjaError) {}
}

/** A value as the template holds it: a JSON value, or Undefined. */
type TemplateValue = JsonValue | Undefined;

/** `obj.name` (the sandbox's getattr): a dict's key, else Undefined; the attribute of an Undefined raises. */
function attrOf(obj: TemplateValue, name: string): TemplateValue {
  if (obj instanceof Undefined) throw obj.error;
  if (isJsonObject(obj) && obj.has(name)) return obj.get(name) as JsonValue;
  return new Undefined(undefinedAttribute(obj, name));
}

/** `obj[0]` (the sandbox's getitem): the first item of a list or the first character of a str, else Undefined (never raises). */
function firstOf(obj: JsonValue): TemplateValue {
  if (isJsonArray(obj) && obj.length > 0) return obj[0];
  if (typeof obj === 'string' && obj.length > 0) return [...obj][0];
  return new Undefined(undefinedElement(obj, 0));
}

/** Jinja2 truthiness: Undefined is false. */
function truthy(v: TemplateValue): boolean {
  return !(v instanceof Undefined) && pyTruthy(v);
}

/** `"…" + v`: v must be a str; an Undefined raises its own error. */
function concatenated(v: TemplateValue): string {
  if (v instanceof Undefined) throw v.error;
  return pyConcatOperand(v);
}

/** `v + "…"`: only a str can have a str added; Python's error for anything else. */
function addedTo(v: TemplateValue): string {
  if (v instanceof Undefined) throw v.error;
  if (typeof v === 'string') return v;
  if (isJsonArray(v)) throw new JinjaError('TypeError', 'can only concatenate list (not "str") to list');
  throw new JinjaError('TypeError', `unsupported operand type(s) for +: '${pyType(v)}' and 'str'`);
}

/** `"key" in message` for a message the template reads as a dict. */
function hasKey(m: JsonValue, key: string): boolean {
  return isJsonObject(m) && m.has(key);
}

// ---------------------------------------------------------------------------------------
// The conversation: messages as a server hands them to the template

/** A conversation as a server hands it to the template: the messages as JSON values (every key visible), and the template's keyword arguments. */
export interface ChatTemplateConversationRequest {
  /** `messages`, as given (dicts, lists, null content… exactly what Jinja2 would see). */
  readonly messages: readonly JsonValue[];
  /** The JSON Pointer of each message in the caller's document. Default `{messagesPointer}/{k}`. */
  readonly pointers?: readonly string[];
  /** The JSON Pointer of the messages list (for an empty conversation). Default `/messages`. */
  readonly messagesPointer?: string;
  /** `tools` (only function tools; empty when the request has none). */
  readonly tools?: readonly ChatTemplateTool[];
  /** `reasoning_effort` as given (any JSON value: the template adds it to a string); undefined when not passed. */
  readonly effort?: JsonValue;
  /** Where the effort stands in the caller's document. Default `/reasoning_effort`. */
  readonly effortPointer?: string;
  /** `model_identity`. */
  readonly identity?: string;
  /** What `strftime_now("%Y-%m-%d")` gives. Default: today, local time. */
  readonly date?: string;
  /** `builtin_tools`. */
  readonly builtinTools?: readonly string[];
  /** `add_generation_prompt`. Default true. */
  readonly addGenerationPrompt?: boolean;
  /** false: the test for `<|channel|>` tags in `content` is removed, as llama.cpp patches it out. Default true. */
  readonly checkContentChannelTags?: boolean;
  /** Message fields the template reads under another name than the caller wrote (llama.cpp: `thinking` ← `reasoning_content`): pointers name the caller's field. */
  readonly fieldAliases?: Readonly<Record<string, string>>;
  /** Where the tools namespace, printed once, may be kept and found again (a server's print cache): `make` prints it. */
  readonly keepNamespace?: (make: () => ChatTemplateText) => ChatTemplateText;
}

/** What the template did with a message field that the model does not see as written (server profiles turn these into warnings). */
export type ChatTemplateNote =
  /** The first system/developer content is not a str: printed as Python's `str()` of it. */
  | { readonly kind: 'instructions-repr'; readonly pointer: string }
  /** A message the loop has no branch for (a later system/developer message, an unknown role): not printed. */
  | { readonly kind: 'dropped-message'; readonly pointer: string; readonly role?: JsonValue }
  /** `thinking` not printed: on a final answer (`final`), or beside a tool call a later final answer follows (`answered`). */
  | { readonly kind: 'dropped-thinking'; readonly pointer: string; readonly why: 'final' | 'answered' }
  /** Content beside a tool call not printed: a later final answer follows. */
  | { readonly kind: 'dropped-preamble'; readonly pointer: string }
  /** Content beside a tool call printed on the analysis channel. */
  | { readonly kind: 'preamble-as-analysis'; readonly pointer: string }
  /** Only the first of `count` tool calls printed; `pointer` is the second. */
  | { readonly kind: 'calls-collapsed'; readonly pointer: string; readonly count: number }
  /** String arguments printed with tojson: a JSON string literal (double-encoded). */
  | { readonly kind: 'string-arguments'; readonly pointer: string }
  /** A tool result printed as `functions.{name}` (the first call of the last tool-call message), its content with tojson. */
  | { readonly kind: 'tool-result'; readonly pointer: string; readonly index: number; readonly name: string; readonly content: JsonValue }
  /** Text printed into the prompt as is (or as JSON), for scans of what it spells. */
  | { readonly kind: 'printed'; readonly pointer: string; readonly text: string };

/** A conversation rendered by the template: the whole prompt, its parts, and what the template did with each message. */
export interface ChatTemplateConversation extends ChatTemplateText {
  /** The system message content. */
  readonly system: string;
  /** The developer message content, when the template writes one. */
  readonly developer?: string;
  /** `# Tools⏎⏎` and the functions namespace, when there are tools. */
  readonly catalog?: string;
  readonly notes: readonly ChatTemplateNote[];
}

const CHANNEL_IN_CONTENT =
  "You have passed a message containing <|channel|> tags in the content field. Instead of doing this, you should pass analysis messages (the string between '<|message|>' and '<|end|>') in the 'thinking' field, and final messages (the string between '<|message|>' and '<|end|>') in the 'content' field.";
const CHANNEL_IN_THINKING =
  "You have passed a message containing <|channel|> tags in the thinking field. Instead of doing this, you should pass analysis messages (the string between '<|message|>' and '<|end|>') in the 'thinking' field, and final messages (the string between '<|message|>' and '<|end|>') in the 'content' field.";
const CONTENT_AND_THINKING = 'Cannot pass both content and thinking in an assistant message with tool calls! Put the analysis message in one or the other, but not both.';
const TOOL_WITHOUT_CALL = 'Message has tool role, but there was no previous assistant message with a tool call!';
const NOT_SERIALIZABLE = new JinjaError('TypeError', 'Object of type Undefined is not JSON serializable');

/** A stretch of the prompt and where its text came from (to name the source of a lone surrogate). */
interface Span {
  readonly start: number;
  readonly end: number;
  /** A JSON Pointer, or `catalog` for the tools namespace. */
  readonly source: string;
}

/** The UTF-16 index of the first lone surrogate of a string, or -1. */
function loneSurrogateIndex(s: string): number {
  if (isWellFormed(s)) return -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
      return i;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return i;
  }
  return -1;
}

/**
 * transformers hands the text on as UTF-8: a lone surrogate (only reachable from JavaScript
 * strings) fails there. In the tools it names the tool (assertUtf8); elsewhere the message or
 * option it came from.
 */
function assertConversationUtf8(text: string, spans: readonly Span[], tools: readonly ChatTemplateTool[]): void {
  const at = loneSurrogateIndex(text);
  if (at < 0) return;
  const span = spans.find((s) => at >= s.start && at < s.end);
  if (span === undefined || span.source === 'catalog') return assertUtf8(text, tools);
  const s = firstLoneSurrogate(text) as { codePoint: number; position: number };
  const error = surrogateError(s.codePoint, s.position);
  const reason = `the rendered text holds a lone surrogate (U+${s.codePoint.toString(16).toUpperCase()}), which cannot be written as UTF-8`;
  throw new CompileError([{ code: 'chat-template/fails', severity: 'error', path: span.source, message: `the gpt-oss chat template fails on this conversation: ${reason} (Python: ${error.text})` }]);
}

/**
 * The template run on a conversation as a server hands it over (spec chat-template-format.md
 * §3.2–3.4, conversations.md §A.3), with Jinja2's semantics on the raw values: the system
 * message, the developer message (the first system/developer message's content and the
 * tools), the message loop, the generation prompt. Where Jinja2 raises, throws a CompileError
 * (`chat-template/fails`) with the pointer of the value that failed and Jinja2's error text.
 */
export function renderChatTemplateConversation(request: ChatTemplateConversationRequest): ChatTemplateConversation {
  const tools = request.tools ?? [];
  const messages = request.messages;
  const messagesPointer = request.messagesPointer ?? '/messages';
  const pointers = messages.map((_, k) => request.pointers?.[k] ?? `${messagesPointer}/${k}`);
  const aliases = request.fieldAliases ?? {};
  const field = (p: string, key: string) => `${p}/${aliases[key] ?? key}`;
  const addGenerationPrompt = request.addGenerationPrompt ?? true;
  const notes: ChatTemplateNote[] = [];
  const spans: Span[] = [];
  const diagnostics: Diagnostic[] = [];

  const system = systemText(
    { ...(request.identity !== undefined ? { identity: request.identity } : {}), ...(request.date !== undefined ? { date: request.date } : {}), builtinTools: request.builtinTools ?? [], functionTools: tools.length > 0 },
    request.effort,
    request.effortPointer ?? '/reasoning_effort',
  );
  let text = `<|start|>system<|message|>${system}<|end|>`;
  spans.push({ start: 0, end: text.length, source: '' });

  // `messages[0].role`: an empty list has no element 0
  if (messages.length === 0) throw messageFailure(messagesPointer, 'the template needs at least one message', undefinedElement([], 0));
  const first = messages[0];
  const role0 = attrOf(first, 'role');
  const isDeveloper = role0 === 'developer' || role0 === 'system';
  const developerMessage: TemplateValue = isDeveloper ? attrOf(first, 'content') : '';
  let developer: string | undefined;
  let catalog: string | undefined;
  if (truthy(developerMessage) || tools.length > 0) {
    text += '<|start|>developer<|message|>';
    let dev = '';
    if (truthy(developerMessage)) {
      const v = developerMessage as JsonValue;
      const printed = pyStr(v);
      notes.push(typeof v === 'string' ? { kind: 'printed', pointer: field(pointers[0], 'content'), text: printed } : { kind: 'instructions-repr', pointer: field(pointers[0], 'content') });
      dev += '# Instructions\n\n';
      spans.push({ start: text.length + dev.length, end: text.length + dev.length + printed.length, source: field(pointers[0], 'content') });
      dev += `${printed}\n\n`;
    }
    if (tools.length > 0) {
      const print = () => emitChatTemplateNamespace(tools);
      const ns = request.keepNamespace !== undefined ? request.keepNamespace(print) : print();
      pushAll(diagnostics, ns.diagnostics);
      catalog = `# Tools\n\n${ns.text}`;
      spans.push({ start: text.length + dev.length, end: text.length + dev.length + catalog.length, source: 'catalog' });
      dev += catalog;
    }
    developer = dev;
    text += `${dev}<|end|>`;
  }

  // the loop: only assistant, tool and user messages have a branch
  let lastToolCall: string | undefined;
  const printed = (pointer: string, t: string) => {
    notes.push({ kind: 'printed', pointer, text: t });
    return t;
  };
  /** `"<|channel|>analysis<|message|>" in message.key or "<|channel|>final<|message|>" in message.key`. */
  const checkChannelTags = (v: JsonValue, key: 'content' | 'thinking', p: string) => {
    let found: boolean;
    try {
      found = pyContains(v, '<|channel|>analysis<|message|>') || pyContains(v, '<|channel|>final<|message|>');
    } catch (e) {
      throw messageFailure(field(p, key), `the assistant ${key} is ${plainType(v)}, and the template looks for <|channel|> tags in it`, e as JinjaError);
    }
    if (found) throw messageFailure(field(p, key), `the assistant ${key} holds <|channel|> tags`, new JinjaError('TemplateError', key === 'content' ? CHANNEL_IN_CONTENT : CHANNEL_IN_THINKING));
  };
  /** `"…" + message.key + "…"`: the key must be there and hold a str. */
  const stringOf = (v: TemplateValue, p: string, key: string, what: string): string => {
    try {
      return concatenated(v);
    } catch (e) {
      if (v instanceof Undefined) throw messageFailure(p, `the ${what} has no \`${key}\``, e as JinjaError);
      throw messageFailure(field(p, key), `the ${what}'s \`${key}\` is ${plainType(v)}, and the template adds it to a string`, e as JinjaError);
    }
  };

  for (let i = isDeveloper ? 1 : 0; i < messages.length; i++) {
    const m = messages[i];
    const p = pointers[i];
    const from = text.length;
    const role = attrOf(m, 'role');
    if (role === 'assistant') {
      const content = attrOf(m, 'content');
      const thinking = attrOf(m, 'thinking');
      // the first test is removed by llama.cpp (common_chat_templates_init patches it to `if false`)
      if (hasKey(m, 'content') && (request.checkContentChannelTags ?? true)) checkChannelTags(content as JsonValue, 'content', p);
      if (hasKey(m, 'thinking')) checkChannelTags(thinking as JsonValue, 'thinking', p);
      if (hasKey(m, 'tool_calls')) {
        // a later assistant message without tool_calls is a final answer: the analysis of this turn is dropped
        const futureFinal = messages.slice(i + 1).some((f) => attrOf(f, 'role') === 'assistant' && !hasKey(f, 'tool_calls'));
        const calls = (m as JsonObject).get('tool_calls') as JsonValue;
        let call = firstOf(calls);
        let callPointer = `${p}/tool_calls/0`;
        let fn: TemplateValue;
        try {
          fn = attrOf(call, 'function');
        } catch (e) {
          throw messageFailure(`${p}/tool_calls`, 'the assistant message has no first tool call', e as JinjaError);
        }
        if (truthy(fn)) {
          call = fn;
          callPointer += '/function';
        }
        if (truthy(content) && truthy(thinking)) throw messageFailure(p, 'the assistant message has both content and thinking beside a tool call', new JinjaError('TemplateError', CONTENT_AND_THINKING));
        if (truthy(content)) {
          if (!futureFinal) {
            text += `<|start|>assistant<|channel|>analysis<|message|>${printed(field(p, 'content'), stringOf(content, p, 'content', 'assistant message'))}<|end|>`;
            notes.push({ kind: 'preamble-as-analysis', pointer: field(p, 'content') });
          } else notes.push({ kind: 'dropped-preamble', pointer: field(p, 'content') });
        } else if (truthy(thinking)) {
          if (!futureFinal) text += `<|start|>assistant<|channel|>analysis<|message|>${printed(field(p, 'thinking'), stringOf(thinking, p, 'thinking', 'assistant message'))}<|end|>`;
          else notes.push({ kind: 'dropped-thinking', pointer: field(p, 'thinking'), why: 'answered' });
        }
        const nameValue = attrOf(call, 'name');
        let name: string;
        try {
          name = concatenated(nameValue);
        } catch (e) {
          if (nameValue instanceof Undefined) throw messageFailure(callPointer, 'the tool call has no name', e as JinjaError);
          throw messageFailure(`${callPointer}/name`, `the tool call name is ${plainType(nameValue)}, and the template adds it to a string`, e as JinjaError);
        }
        text += `<|start|>assistant to=functions.${printed(`${callPointer}/name`, name)}<|channel|>commentary `;
        // `tool_call.content_type if tool_call.content_type is defined else "json"`, then `+ "<|message|>"`
        const contentType = attrOf(call, 'content_type');
        if (contentType instanceof Undefined) text += 'json';
        else {
          try {
            text += printed(`${callPointer}/content_type`, addedTo(contentType));
          } catch (e) {
            throw messageFailure(`${callPointer}/content_type`, `the tool call's content_type is ${plainType(contentType)}, and the template adds a string to it`, e as JinjaError);
          }
        }
        const args = attrOf(call, 'arguments');
        if (args instanceof Undefined) throw messageFailure(callPointer, 'the tool call has no arguments', NOT_SERIALIZABLE);
        text += `<|message|>${printed(`${callPointer}/arguments`, pyToJson(args))}<|call|>`;
        if (typeof args === 'string') notes.push({ kind: 'string-arguments', pointer: `${callPointer}/arguments` });
        if (isJsonArray(calls) && calls.length > 1) notes.push({ kind: 'calls-collapsed', pointer: `${p}/tool_calls/1`, count: calls.length });
        lastToolCall = name;
      } else if (i === messages.length - 1 && !addGenerationPrompt) {
        // the analysis is kept only for a final assistant turn of a training render
        if (hasKey(m, 'thinking')) text += `<|start|>assistant<|channel|>analysis<|message|>${printed(field(p, 'thinking'), stringOf(thinking, p, 'thinking', 'assistant message'))}<|end|>`;
        text += `<|start|>assistant<|channel|>final<|message|>${printed(field(p, 'content'), stringOf(content, p, 'content', 'assistant message'))}<|return|>`;
      } else {
        text += `<|start|>assistant<|channel|>final<|message|>${printed(field(p, 'content'), stringOf(content, p, 'content', 'assistant message'))}<|end|>`;
        if (truthy(thinking)) notes.push({ kind: 'dropped-thinking', pointer: field(p, 'thinking'), why: 'final' });
        lastToolCall = undefined;
      }
    } else if (role === 'tool') {
      if (lastToolCall === undefined) throw messageFailure(p, 'a tool message follows no assistant tool call', new JinjaError('TemplateError', TOOL_WITHOUT_CALL));
      const content = attrOf(m, 'content');
      if (content instanceof Undefined) throw messageFailure(p, 'the tool message has no content', NOT_SERIALIZABLE);
      text += `<|start|>functions.${lastToolCall} to=assistant<|channel|>commentary<|message|>${printed(field(p, 'content'), pyToJson(content))}<|end|>`;
      notes.push({ kind: 'tool-result', pointer: p, index: i, name: lastToolCall, content });
    } else if (role === 'user') {
      text += `<|start|>user<|message|>${printed(field(p, 'content'), stringOf(attrOf(m, 'content'), p, 'content', 'user message'))}<|end|>`;
    } else {
      notes.push({ kind: 'dropped-message', pointer: p, ...(role instanceof Undefined ? {} : { role }) });
    }
    spans.push({ start: from, end: text.length, source: p });
  }
  if (addGenerationPrompt) text += '<|start|>assistant';
  assertConversationUtf8(text, spans, tools);
  return { text, system, ...(developer !== undefined ? { developer } : {}), ...(catalog !== undefined ? { catalog } : {}), diagnostics, notes };
}

/**
 * A whole prompt as `apply_chat_template` renders it: the system message, the developer
 * message (from `instructions`, or a first system/developer message, and the tools), the
 * conversation, and `<|start|>assistant`.
 */
export function renderChatTemplatePrompt(options: ChatTemplatePromptOptions = {}): ChatTemplateText {
  const given = options.messages ?? [];
  const head: ChatTemplateMessage[] = options.instructions ? [{ role: 'developer', content: options.instructions }] : [];
  const r = renderChatTemplateConversation({
    messages: [...head, ...given].map((m) => fromJs(m)),
    pointers: [...head.map(() => '/instructions'), ...given.map((_, k) => `/messages/${k}`)],
    tools: options.tools ?? [],
    ...(options.effort !== undefined ? { effort: options.effort } : {}),
    ...(options.identity !== undefined ? { identity: options.identity } : {}),
    ...(options.date !== undefined ? { date: options.date } : {}),
    builtinTools: options.builtinTools ?? [],
    addGenerationPrompt: options.addGenerationPrompt ?? true,
  });
  return { text: r.text, diagnostics: r.diagnostics };
}
