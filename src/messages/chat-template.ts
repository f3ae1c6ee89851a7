/**
 * Messages as the official gpt-oss chat template renders them under Jinja2 (what
 * transformers, llama.cpp, LM Studio, mlx-lm and SGLang's chat completions put in front of
 * the model; spec chat-template-format.md §3.2–3.4): the system message, the developer
 * message, the conversation loop, and the whole prompt. Where Jinja2 raises, no text is
 * produced: a CompileError with a `chat-template/fails` diagnostic.
 */
import { CompileError, type Diagnostic } from '../diagnostics.js';
import { assertUtf8, emitChatTemplateNamespace, type ChatTemplateText, type ChatTemplateTool } from '../emit/chat-template/catalog.js';
import { CHAT_TEMPLATE_BROWSER, CHAT_TEMPLATE_PYTHON } from '../emit/chat-template/builtins.js';
import { JinjaError, pyConcatOperand, pyContains, pyStr, pyToJson, pyTruthy, undefinedAttribute, undefinedElement } from '../emit/chat-template/python.js';
import { fromJs, isJsonArray, isJsonObject, type JsonValue } from '../ir/json.js';

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
  let out = `${options.identity ?? CHAT_TEMPLATE_IDENTITY}\n`;
  out += 'Knowledge cutoff: 2024-06\n';
  out += `Current date: ${options.date ?? today()}\n\n`;
  out += `Reasoning: ${options.effort ?? 'medium'}\n\n`;
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

/** `message.key` of a message as written (undefined when absent or not an object). */
function attr(m: JsonValue, key: string): JsonValue | undefined {
  return isJsonObject(m) ? m.get(key) : undefined;
}

/** `"key" in message`. */
function has(m: JsonValue, key: string): boolean {
  return isJsonObject(m) && m.has(key);
}

/** `"…" + message.key`: the key must be there and be a string. */
function textOf(m: JsonValue, key: string, pointer: string): string {
  const v = attr(m, key);
  if (v === undefined) throw messageFailure(pointer, `the message has no \`${key}\``, undefinedAttribute(m, key));
  try {
    return pyConcatOperand(v);
  } catch (e) {
    throw messageFailure(`${pointer}/${key}`, `the message's \`${key}\` is not a string`, e as JinjaError);
  }
}

const CHANNEL_IN_CONTENT =
  "You have passed a message containing <|channel|> tags in the content field. Instead of doing this, you should pass analysis messages (the string between '<|message|>' and '<|end|>') in the 'thinking' field, and final messages (the string between '<|message|>' and '<|end|>') in the 'content' field.";
const CHANNEL_IN_THINKING =
  "You have passed a message containing <|channel|> tags in the thinking field. Instead of doing this, you should pass analysis messages (the string between '<|message|>' and '<|end|>') in the 'thinking' field, and final messages (the string between '<|message|>' and '<|end|>') in the 'content' field.";
const CONTENT_AND_THINKING = 'Cannot pass both content and thinking in an assistant message with tool calls! Put the analysis message in one or the other, but not both.';
const TOOL_WITHOUT_CALL = 'Message has tool role, but there was no previous assistant message with a tool call!';

/** The template refuses assistant text that already holds channel tags. */
function checkNoChannelTags(m: JsonValue, key: 'content' | 'thinking', pointer: string): void {
  if (!has(m, key)) return;
  const v = attr(m, key) as JsonValue;
  try {
    if (pyContains(v, '<|channel|>analysis<|message|>') || pyContains(v, '<|channel|>final<|message|>')) {
      throw messageFailure(`${pointer}/${key}`, `the assistant ${key} holds <|channel|> tags`, new JinjaError('TemplateError', key === 'content' ? CHANNEL_IN_CONTENT : CHANNEL_IN_THINKING));
    }
  } catch (e) {
    if (e instanceof JinjaError) throw messageFailure(`${pointer}/${key}`, `the assistant ${key} is not text`, e);
    throw e;
  }
}

/**
 * The template's message loop (spec §3.4): user, assistant (analysis only before a tool call
 * with no later final answer; only the first tool call), tool results named after the last
 * call; later system and developer messages are dropped.
 */
function conversation(loop: readonly JsonValue[], pointers: readonly string[], addGenerationPrompt: boolean): string {
  let out = '';
  let lastToolCall: JsonValue | undefined;
  loop.forEach((m, i) => {
    const p = pointers[i];
    const role = attr(m, 'role');
    if (role === 'assistant') {
      checkNoChannelTags(m, 'content', p);
      checkNoChannelTags(m, 'thinking', p);
      if (has(m, 'tool_calls')) {
        const futureFinal = loop.slice(i + 1).some((f) => attr(f, 'role') === 'assistant' && !has(f, 'tool_calls'));
        const calls = attr(m, 'tool_calls') as JsonValue;
        if (!isJsonArray(calls) || calls.length === 0) throw messageFailure(`${p}/tool_calls`, 'the assistant message has no first tool call', undefinedElement(calls, 0));
        let call = calls[0];
        const fn = attr(call, 'function');
        if (pyTruthy(fn)) call = fn as JsonValue;
        const callPointer = `${p}/tool_calls/0${pyTruthy(fn) ? '/function' : ''}`;
        if (pyTruthy(attr(m, 'content')) && pyTruthy(attr(m, 'thinking'))) throw messageFailure(p, 'the assistant message has both content and thinking beside a tool call', new JinjaError('TemplateError', CONTENT_AND_THINKING));
        if (pyTruthy(attr(m, 'content')) && !futureFinal) out += `<|start|>assistant<|channel|>analysis<|message|>${textOf(m, 'content', p)}<|end|>`;
        else if (pyTruthy(attr(m, 'thinking')) && !futureFinal) out += `<|start|>assistant<|channel|>analysis<|message|>${textOf(m, 'thinking', p)}<|end|>`;
        out += `<|start|>assistant to=functions.${textOf(call, 'name', callPointer)}<|channel|>commentary `;
        out += `${has(call, 'content_type') ? textOf(call, 'content_type', callPointer) : 'json'}<|message|>`;
        const args = attr(call, 'arguments');
        if (args === undefined) throw messageFailure(callPointer, 'the tool call has no arguments', new JinjaError('TypeError', 'Object of type Undefined is not JSON serializable'));
        out += `${pyToJson(args)}<|call|>`;
        lastToolCall = attr(call, 'name');
      } else if (i === loop.length - 1 && !addGenerationPrompt) {
        // the analysis is kept only for a final assistant turn of a training render
        if (has(m, 'thinking')) out += `<|start|>assistant<|channel|>analysis<|message|>${textOf(m, 'thinking', p)}<|end|>`;
        out += `<|start|>assistant<|channel|>final<|message|>${textOf(m, 'content', p)}<|return|>`;
      } else {
        out += `<|start|>assistant<|channel|>final<|message|>${textOf(m, 'content', p)}<|end|>`;
        lastToolCall = undefined;
      }
    } else if (role === 'tool') {
      if (lastToolCall === undefined) throw messageFailure(p, 'a tool message follows no assistant tool call', new JinjaError('TemplateError', TOOL_WITHOUT_CALL));
      let name: string;
      try {
        name = pyConcatOperand(lastToolCall);
      } catch (e) {
        throw messageFailure(p, 'the last tool call name is not a string', e as JinjaError);
      }
      const content = attr(m, 'content');
      if (content === undefined) throw messageFailure(p, 'the tool message has no content', new JinjaError('TypeError', 'Object of type Undefined is not JSON serializable'));
      out += `<|start|>functions.${name} to=assistant<|channel|>commentary<|message|>${pyToJson(content)}<|end|>`;
    } else if (role === 'user') {
      out += `<|start|>user<|message|>${textOf(m, 'content', p)}<|end|>`;
    }
  });
  return out;
}

/**
 * A whole prompt as `apply_chat_template` renders it: the system message, the developer
 * message (from `instructions`, or a first system/developer message, and the tools), the
 * conversation, and `<|start|>assistant`.
 */
export function renderChatTemplatePrompt(options: ChatTemplatePromptOptions = {}): ChatTemplateText {
  const tools = options.tools ?? [];
  const given = options.messages ?? [];
  const head: ChatTemplateMessage[] = options.instructions ? [{ role: 'developer', content: options.instructions }] : [];
  const messages = [...head, ...given].map((m) => fromJs(m));
  const pointers = [...head.map(() => '/instructions'), ...given.map((_, k) => `/messages/${k}`)];
  let text = `<|start|>system<|message|>${systemContent({ ...options, functionTools: tools.length > 0 })}<|end|>`;
  if (messages.length === 0) throw messageFailure('/messages', 'the template needs at least one message', undefinedElement([], 0));
  const first = messages[0];
  const isDeveloper = attr(first, 'role') === 'developer' || attr(first, 'role') === 'system';
  const developerMessage = isDeveloper ? attr(first, 'content') : '';
  const diagnostics: Diagnostic[] = [];
  if (pyTruthy(developerMessage) || tools.length > 0) {
    const dev = developerContent(tools, developerMessage);
    diagnostics.push(...dev.diagnostics);
    text += `<|start|>developer<|message|>${dev.text}<|end|>`;
  }
  text += conversation(isDeveloper ? messages.slice(1) : messages, isDeveloper ? pointers.slice(1) : pointers, options.addGenerationPrompt ?? true);
  if (options.addGenerationPrompt ?? true) text += '<|start|>assistant';
  assertUtf8(text, tools);
  return { text, diagnostics };
}
