/**
 * The servers that render the official gpt-oss chat template (spec conversations.md §A.3–A.5, §C):
 *
 * - transformers: `apply_chat_template` hands the template the messages exactly as given;
 * - llama.cpp: its request parsing (server pre-checks, `common_chat_msgs_parse_oaicompat`), the
 *   messages rebuilt for the template (`to_json_oaicompat`: text parts joined with a newline,
 *   arguments parsed back into objects), its gpt-oss adjustments (`reasoning_content` →
 *   `thinking`, content erased beside tool calls) and its patch of the template;
 * - mlx-lm: `process_message_content` (parts joined, `null` → `""`, string arguments
 *   `json.loads`'d), then the template.
 *
 * Each server rule is one small function named after what it does, with a comment naming the
 * server code it copies; a profile is the list of rules it applies. Whatever a server or the
 * template drops or rewrites is a diagnostic with the message's JSON Pointer. A request the server
 * refuses throws one CompileError (`conversation/refused`, the server's own message); where the
 * template raises, `chat-template/fails` with Jinja2's error text.
 */
import { CompileError, type Diagnostic, type Severity } from '../diagnostics.js';
import type { ChatTemplateTool } from '../emit/chat-template/catalog.js';
import { pyJsonDumps as pyToJson } from '../emit/python/json.js';
import { pyType, type PyTypeName, pyTruthy } from '../emit/python/values.js';
import { findControlTokens } from '../input/control-tokens.js';
import type { ToolDefinition } from '../input/types.js';
import { escapePointerToken, formatPythonFloat, isJsonArray, isJsonObject, JsonNumber, JsonSyntaxError, parseJson, stringifyCompactRust, type JsonObject, type JsonValue } from '../ir/json.js';
import { renderChatTemplateConversation, type ChatTemplateNote } from '../messages/chat-template.js';
import { PythonException, pythonJsonLoads, type PyValue } from '../emit/python/json-loads.js';
import { keptPrint, type ServerPrompt, type ServerRequest } from './types.js';
import { pushAll } from '../ir/arrays.js';

/** The servers that render the official chat template. */
export type TemplateServer = 'transformers' | 'llama.cpp' | 'mlx-lm';

/** Every template server, for validation. */
export const TEMPLATE_SERVERS: readonly TemplateServer[] = ['transformers', 'llama.cpp', 'mlx-lm'];

// ---------------------------------------------------------------------------------------
// Small helpers

/** A JSON object from entries, in order. */
function object(entries: readonly (readonly [string, JsonValue])[]): JsonObject {
  return new Map(entries);
}

/** `base` followed by reference tokens. */
function at(base: string, ...tokens: readonly (string | number)[]): string {
  return base + tokens.map((t) => `/${escapePointerToken(String(t))}`).join('');
}

/** A key of a message, or undefined (absent, or the message is not an object). */
function get(v: JsonValue | undefined, key: string): JsonValue | undefined {
  return isJsonObject(v) ? v.get(key) : undefined;
}

/** A warning (or info) diagnostic. */
function note(code: string, path: string, message: string, severity: Severity = 'warning'): Diagnostic {
  return { code, severity, path, message };
}

/** A request the server refuses: one `conversation/refused` error with the server's own message. */
function refused(server: TemplateServer, path: string, message: string): CompileError {
  return new CompileError([{ code: 'conversation/refused', severity: 'error', path, message: `${server} refuses this request: ${message}` }]);
}

/** A value as nlohmann's `dump()` writes it in llama.cpp's messages (compact JSON). */
function dump(v: JsonValue): string {
  return stringifyCompactRust(v);
}

/** nlohmann's type name of a value (`type must be string, but is number`). */
function nlohmannType(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'string') return 'string';
  if (v instanceof JsonNumber) return 'number';
  return isJsonArray(v) ? 'array' : 'object';
}


// ---------------------------------------------------------------------------------------
// Python's json.loads (mlx-lm parses string arguments with it)

/**
 * `json.loads(text)` as CPython's C scanner reads it ({@link pythonJsonLoads}): NaN and ±Infinity
 * accepted, lone surrogate escapes kept, a duplicate key keeps its first place and its last value,
 * numbers keep the text Python prints (an int exact, a float as its repr); Python's exceptions
 * (JSONDecodeError with line, column and char) are thrown as {@link PythonException}.
 */
export function pyJsonLoads(text: string): JsonValue {
  return jsonValueOf(pythonJsonLoads(text));
}

/** The JSON value of what json.loads made (str keys, list, dict, int, float, str, bool, None only). */
function jsonValueOf(v: PyValue): JsonValue {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  switch (v.t) {
    case 'int':
      return new JsonNumber(v.v.toString(), Number(v.v));
    case 'float':
      // NaN keeps a float's text (json.dumps writes NaN); ±inf a float text beyond double range
      if (Number.isNaN(v.v)) return new JsonNumber('nan.0', NaN);
      if (!Number.isFinite(v.v)) return new JsonNumber(v.v > 0 ? '1e999' : '-1e999', v.v);
      return new JsonNumber(formatPythonFloat(v.v), v.v);
    case 'list':
      return v.items.map(jsonValueOf);
    case 'dict':
      return new Map([...v.entries()].map(([k, x]) => [k as string, jsonValueOf(x)]));
    default:
      throw new TypeError(`json.loads does not make a ${v.t}`);
  }
}

// ---------------------------------------------------------------------------------------
// What every template server reads the same way

/** What a server's preprocessing gives the template, and what it noticed on the way. */
interface Prepared {
  readonly messages: readonly JsonValue[];
  readonly tools: readonly ChatTemplateTool[];
  readonly diagnostics: readonly Diagnostic[];
  /** llama.cpp: `thinking` ← `reasoning_content`. */
  readonly fieldAliases?: Readonly<Record<string, string>>;
  /** llama.cpp patches the content channel-tag test out of the template. */
  readonly checkContentChannelTags?: boolean;
}

/** The pair the printer reads for each compiled tool. */
function toolPairs(request: ServerRequest): ChatTemplateTool[] {
  return request.tools.definitions.map((def, i) => ({ def, ir: request.tools.tools[i] }));
}

/** Fields of user and assistant messages carrying text the model would be expected to see, which a server never passes to the template or the template never prints. */
function ignoredFields(server: TemplateServer, items: readonly JsonValue[], pointers: readonly string[]): Diagnostic[] {
  // transformers and mlx-lm pass every key; the template reads `thinking` and not the others.
  // llama.cpp rebuilds each message from what it parsed (role, content, reasoning_content, name,
  // tool_call_id, tool_calls: common_chat_msgs_parse_oaicompat), so a client `thinking` is gone.
  const unread = server === 'llama.cpp' ? ['thinking', 'reasoning', 'refusal'] : ['reasoning', 'reasoning_content', 'refusal'];
  const out: Diagnostic[] = [];
  items.forEach((m, i) => {
    if (!isJsonObject(m)) return;
    const role = m.get('role');
    if (role === 'user' && pyTruthy(m.get('name'))) out.push(note('conversation/ignored-field', at(pointers[i], 'name'), `the template never prints a message's \`name\`: the model does not see who wrote it`));
    if (role !== 'assistant') return;
    if (pyTruthy(m.get('name'))) out.push(note('conversation/ignored-field', at(pointers[i], 'name'), `the template never prints a message's \`name\``));
    for (const key of unread) {
      if (!pyTruthy(m.get(key))) continue;
      const hint =
        key === 'thinking'
          ? 'llama.cpp reads the reasoning from `reasoning_content` only'
          : server === 'llama.cpp'
            ? 'llama.cpp reads the reasoning from `reasoning_content`'
            : 'the template reads the reasoning from `thinking` only';
      out.push(note('conversation/ignored-field', at(pointers[i], key), `${server} never shows the model \`${key}\`: ${hint}`));
    }
  });
  return out;
}

/** Request options that do not reach the prompt under this server. */
function ignoredOptions(server: TemplateServer, request: ServerRequest): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (request.cutoff !== undefined && request.cutoff !== '2024-06') {
    out.push(note('conversation/ignored-option', '', `the template always writes "Knowledge cutoff: 2024-06": the cutoff ${JSON.stringify(request.cutoff)} is not printed`));
  }
  const choice = request.toolChoice;
  if (choice !== undefined && choice !== 'auto') {
    // llama.cpp: tool_choice shapes the grammar (common_chat_params_init_gpt_oss), never the prompt;
    // transformers' apply_chat_template and mlx-lm's server take no tool_choice at all
    const message =
      server === 'llama.cpp'
        ? 'llama.cpp applies tool_choice through its output grammar: the prompt (tools included) is the same whatever it says'
        : `${server} does not read tool_choice: the tools stay in the prompt and nothing tells the model what was chosen`;
    out.push(note('conversation/ignored-option', '/tool_choice', message, server === 'llama.cpp' ? 'info' : 'warning'));
  }
  if (request.effort !== undefined && server !== 'transformers') {
    // llama.cpp (oaicompat_chat_params_parse) and mlx-lm (server.py) read no reasoning_effort field:
    // the template sees it only through chat_template_kwargs (mlx-lm also --chat-template-args)
    out.push(note('conversation/effort-as-template-kwarg', '/reasoning_effort', `${server} passes reasoning_effort to the template only as chat_template_kwargs.reasoning_effort: this profile renders the given effort that way`, 'info'));
  }
  return out;
}

/** The name each tool message answers, by its `tool_call_id` (the most recent earlier call with that id) or its own `name`. */
function ownName(items: readonly JsonValue[], index: number): { name: string; by: 'tool_call_id' | 'name' } | undefined {
  const m = items[index];
  const id = get(m, 'tool_call_id');
  if (typeof id === 'string') {
    for (let k = index - 1; k >= 0; k--) {
      const calls = get(items[k], 'tool_calls');
      if (!isJsonArray(calls)) continue;
      for (let c = calls.length - 1; c >= 0; c--) {
        if (get(calls[c], 'id') !== id) continue;
        const fn = get(calls[c], 'function');
        const name = get(fn, 'name') ?? get(calls[c], 'name');
        if (typeof name === 'string') return { name, by: 'tool_call_id' };
      }
    }
  }
  const name = get(m, 'name');
  return typeof name === 'string' && name !== '' ? { name, by: 'name' } : undefined;
}

/** The template's notes as diagnostics (what it dropped or rewrote, and control tokens it printed). */
function noteDiagnostics(server: TemplateServer, notes: readonly ChatTemplateNote[], items: readonly JsonValue[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const n of notes) {
    switch (n.kind) {
      case 'instructions-repr':
        out.push(note('conversation/instructions-repr', n.pointer, "the first message's content is not text: the template prints Python's str() of it as the instructions (a list of parts becomes `[{'type': 'text', …}]`)"));
        break;
      case 'dropped-message': {
        const role = n.role;
        const message =
          role === 'system' || role === 'developer'
            ? `a ${role} message after the first message is dropped: the template reads instructions only from messages[0]`
            : `the template has no branch for ${role === undefined ? 'a message without a role' : `role ${JSON.stringify(role)}`}: the message is not printed`;
        out.push(note('conversation/dropped-message', n.pointer, message));
        break;
      }
      case 'dropped-thinking':
        out.push(
          note(
            'conversation/dropped-reasoning',
            n.pointer,
            n.why === 'final'
              ? 'the reasoning of a final answer is never printed: the template drops the analysis of answered turns'
              : 'the reasoning beside this tool call is not printed: a later assistant message without tool calls (a final answer) follows',
          ),
        );
        break;
      case 'dropped-preamble':
        out.push(note('conversation/dropped-preamble', n.pointer, 'the content beside this tool call is not printed: a later assistant message without tool calls (a final answer) follows'));
        break;
      case 'preamble-as-analysis':
        out.push(note('conversation/preamble-as-analysis', n.pointer, 'the content beside a tool call is printed on the analysis channel (as reasoning), not as a commentary preamble'));
        break;
      case 'calls-collapsed':
        out.push(note('conversation/parallel-calls-collapsed', n.pointer, `only the first of ${n.count} tool calls is printed: the template renders tool_calls[0] and drops the others`));
        break;
      case 'string-arguments':
        out.push(note('conversation/arguments-double-encoded', n.pointer, 'the arguments are a string: the template prints them with tojson, so the model sees a JSON string literal ("{\\"location\\": …}"), not an object'));
        break;
      case 'tool-result': {
        const own = ownName(items, n.index);
        if (own !== undefined && own.name !== n.name) {
          out.push(
            note(
              'conversation/tool-result-renamed',
              at(n.pointer, own.by),
              `this result is printed as functions.${n.name}'s (the first call of the last tool-call message; the template ignores tool_call_id and name), but it answers ${own.name}`,
            ),
          );
        }
        if (typeof n.content === 'string') out.push(note('conversation/tool-result-json', at(n.pointer, 'content'), 'the template prints a tool result with tojson: the text is written as a JSON string literal (quoted, escaped)', 'info'));
        else out.push(note('conversation/tool-result-json', at(n.pointer, 'content'), `the tool result is ${plainPyType(pyType(n.content))}: the template prints it as JSON`));
        break;
      }
      case 'printed': {
        const spellings = [...new Set(findControlTokens(n.text).filter((s) => s.startsWith('<|')))];
        if (spellings.length) {
          out.push(
            note(
              'security/control-token',
              n.pointer,
              `${spellings.join(', ')} in this text: ${server} tokenizes the prompt with its special tokens, so the model reads ${spellings.length > 1 ? 'real control tokens' : 'a real control token'} here, not text`,
            ),
          );
        }
        break;
      }
    }
  }
  return out;
}

/** A Python type in plain words. */
function plainPyType(t: PyTypeName): string {
  return { str: 'a string', int: 'a number', float: 'a number', bool: 'a boolean', NoneType: 'null', list: 'a list', dict: 'an object' }[t];
}

// ---------------------------------------------------------------------------------------
// transformers: the messages as given

/** transformers: `apply_chat_template(messages, tools=…, add_generation_prompt=True, **kwargs)` passes the dicts unchanged. */
function prepareTransformers(request: ServerRequest): Prepared {
  const { items, pointers } = request.conversation;
  return { messages: items, tools: toolPairs(request), diagnostics: ignoredFields('transformers', items, pointers) };
}

// ---------------------------------------------------------------------------------------
// llama.cpp

/** One message as llama.cpp parsed it (common_chat_msg). */
interface LlamaMessage {
  readonly role: string;
  readonly content: string;
  readonly parts: readonly string[];
  readonly reasoning: string;
  readonly name: string;
  readonly toolCallId: string;
  readonly calls: readonly { readonly name: string; readonly arguments: JsonValue; readonly id: string; readonly pointer: string }[];
  /** Whether the request's message had no content (`null`, absent, or no parts). */
  readonly contentMissing: boolean;
}

const LLAMA_REF = ' (ref: https://github.com/ggml-org/llama.cpp/issues/8367 & https://github.com/ggml-org/llama.cpp/issues/12279)';
const NO_MMPROJ = ' input is not supported - hint: if this is unexpected, you may need to provide the mmproj';

/** nlohmann's `json_value(obj, key, "")`: the key's string, or the default when it is absent, null or not a string. */
function jsonValueString(v: JsonValue, key: string): string {
  const x = get(v, key);
  return typeof x === 'string' ? x : '';
}

/**
 * llama.cpp's server checks before parsing (`oaicompat_chat_params_parse`, tools/server): every
 * non-assistant message needs `content`, an assistant one `content` or `tool_calls`; content is a
 * string, null or a list; an image or audio part needs a multimodal projector (gpt-oss has none),
 * any other part type but `text` is refused.
 */
function llamaServerChecks(items: readonly JsonValue[], pointers: readonly string[]): void {
  items.forEach((m, i) => {
    const p = pointers[i];
    const role = jsonValueString(m, 'role');
    const hasContent = isJsonObject(m) && m.has('content');
    if (role !== 'assistant' && !hasContent) throw refused('llama.cpp', p, "All non-assistant messages must contain 'content'");
    if (role === 'assistant') {
      if (!hasContent && !(isJsonObject(m) && m.has('tool_calls'))) throw refused('llama.cpp', p, "Assistant message must contain either 'content' or 'tool_calls'!");
      if (!hasContent) return;
    }
    const content = get(m, 'content') as JsonValue;
    if (typeof content === 'string' || content === null) return;
    if (!isJsonArray(content)) throw refused('llama.cpp', at(p, 'content'), "Expected 'content' to be a string or an array");
    content.forEach((part, k) => {
      const type = jsonValueString(part, 'type');
      if (type === 'image_url') throw refused('llama.cpp', at(p, 'content', k), `image${NO_MMPROJ}`);
      if (type === 'input_audio') throw refused('llama.cpp', at(p, 'content', k), `audio${NO_MMPROJ}`);
      if (type !== 'text') throw refused('llama.cpp', at(p, 'content', k), 'unsupported content[].type');
    });
  });
}

/** The members nlohmann iterates: a list's items, an object's values, nothing for null, the value itself otherwise. */
function nlohmannMembers(v: JsonValue, pointer: string): [JsonValue, string][] {
  if (v === null) return [];
  if (isJsonArray(v)) return v.map((x, k) => [x, at(pointer, k)]);
  if (isJsonObject(v)) return [...v].map(([k, x]) => [x, at(pointer, k)]);
  return [[v, pointer]];
}

/**
 * `common_chat_msgs_parse_oaicompat` (common/chat.cpp): each message an object with a string
 * `role`; content a string, `text` parts or null; tool calls of type `function` with a name and
 * `arguments` (a non-string is dumped); `reasoning_content`, `name`, `tool_call_id` read as strings.
 * Errors are "Failed to parse messages: …" with nlohmann's exception text where it throws.
 */
function llamaParseMessages(items: readonly JsonValue[], pointers: readonly string[]): LlamaMessage[] {
  const fail = (path: string, message: string) => refused('llama.cpp', path, `Failed to parse messages: ${message}`);
  const str = (v: JsonValue, path: string): string => {
    if (typeof v !== 'string') throw fail(path, `[json.exception.type_error.302] type must be string, but is ${nlohmannType(v)}`);
    return v;
  };
  const need = (o: JsonObject, key: string, path: string): JsonValue => {
    if (!o.has(key)) throw fail(path, `[json.exception.out_of_range.403] key '${key}' not found`);
    return o.get(key) as JsonValue;
  };
  return items.map((m, i) => {
    const p = pointers[i];
    if (!isJsonObject(m)) throw fail(p, `Expected 'message' to be an object, got ${dump(m)}`);
    if (!m.has('role')) throw fail(p, `Missing 'role' in message: ${dump(m)}`);
    const role = str(m.get('role') as JsonValue, at(p, 'role'));
    let content = '';
    const parts: string[] = [];
    const hasContent = m.has('content');
    const hasCalls = m.has('tool_calls');
    if (hasContent) {
      const c = m.get('content') as JsonValue;
      if (typeof c === 'string') content = c;
      else if (isJsonArray(c)) {
        c.forEach((part, k) => {
          const pp = at(p, 'content', k);
          if (!isJsonObject(part) || !part.has('type')) throw fail(pp, `Missing content part type: ${dump(part)}`);
          const type = part.get('type') as JsonValue;
          if (type !== 'text' && type !== 'media_marker') throw fail(pp, `Unsupported content part type: ${dump(type)}`);
          parts.push(str(need(part, 'text', pp), at(pp, 'text')));
        });
      } else if (c !== null) throw fail(at(p, 'content'), `Invalid 'content' type: expected string or array, got ${dump(c)} (ref: https://github.com/ggml-org/llama.cpp/issues/8367)`);
    }
    const calls: LlamaMessage['calls'][number][] = [];
    if (hasCalls) {
      for (const [call, cp] of nlohmannMembers(m.get('tool_calls') as JsonValue, at(p, 'tool_calls'))) {
        if (!isJsonObject(call) || !call.has('type')) throw fail(cp, `Missing tool call type: ${dump(call)}`);
        if (call.get('type') !== 'function') throw fail(cp, `Unsupported tool call type: ${dump(call)}`);
        if (!call.has('function')) throw fail(cp, `Missing tool call function: ${dump(call)}`);
        const fn = call.get('function') as JsonValue;
        if (!isJsonObject(fn) || !fn.has('name')) throw fail(cp, `Missing tool call name: ${dump(call)}`);
        const name = str(fn.get('name') as JsonValue, at(cp, 'function', 'name'));
        const args = need(fn, 'arguments', at(cp, 'function'));
        const id = call.has('id') ? str(call.get('id') as JsonValue, at(cp, 'id')) : '';
        calls.push({ name, arguments: args, id, pointer: cp });
      }
    }
    if (!hasContent && !hasCalls) throw fail(p, `Expected 'content' or 'tool_calls'${LLAMA_REF}`);
    const reasoning = m.has('reasoning_content') ? str(m.get('reasoning_content') as JsonValue, at(p, 'reasoning_content')) : '';
    const name = m.has('name') ? str(m.get('name') as JsonValue, at(p, 'name')) : '';
    const toolCallId = m.has('tool_call_id') ? str(m.get('tool_call_id') as JsonValue, at(p, 'tool_call_id')) : '';
    const given = m.get('content');
    return { role, content, parts, reasoning, name, toolCallId, calls, contentMissing: given === undefined || given === null || (isJsonArray(given) && given.length === 0) };
  });
}

/**
 * The tools as llama.cpp hands them to the template (`common_chat_tools_parse_oaicompat` then
 * `common_chat_tools_to_json_oaicompat`): each rebuilt from its name, `description` (default
 * `""`: a tool without one renders `// ` where the template would fail) and parameters.
 */
function llamaTools(request: ServerRequest): { tools: ChatTemplateTool[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const tools = toolPairs(request).map(({ def, ir }) => {
    if (def.description === undefined) {
      diagnostics.push({ ...note('conversation/tool-description-defaulted', def.pointer, 'the tool has no description: llama.cpp gives it "" (the template prints an empty `// ` line where it would fail on a missing one)'), tool: def.name });
      const withDescription: ToolDefinition = { ...def, description: '' };
      return { def: withDescription, ir };
    }
    if (typeof def.description !== 'string') {
      throw refused('llama.cpp', `${def.parametersPointer.slice(0, def.parametersPointer.lastIndexOf('/'))}/description`, `Failed to parse tools: [json.exception.type_error.302] type must be string, but is ${nlohmannType(def.description)}; tools = …`);
    }
    return { def, ir };
  });
  return { tools, diagnostics };
}

/** llama.cpp's join of text parts (`to_json_oaicompat`, concat_typed_text): a newline before each part once the text is not empty. */
function joinLlamaParts(parts: readonly string[]): string {
  let text = '';
  for (const part of parts) {
    if (text !== '') text += '\n';
    text += part;
  }
  return text;
}

/** nlohmann's exception for an empty text, the usual case (`arguments: ""`); other syntax errors are described in our words. */
function nlohmannParseError(text: string, e: JsonSyntaxError): string {
  if (text === '') return '[json.exception.parse_error.101] parse error at line 1, column 1: attempting to parse an empty input; check that the input is a string, a JSON value, or a JSON text';
  return `parse error at line ${e.line}, column ${e.column}: ${e.message.replace(/ at line \d+ column \d+$/, '')}`;
}

/**
 * The messages llama.cpp hands the gpt-oss template, from what it parsed:
 * - `to_json_oaicompat` (common/chat.cpp): role; content a string (the text, the parts joined,
 *   or `""` for none/null/empty); `reasoning_content`, `name`, `tool_call_id` only when not empty;
 *   `tool_calls` only when not empty, each `{type, function: {name, arguments}, id?}`;
 * - `workaround::func_args_not_string`: each arguments string parsed back into JSON (a failure
 *   refuses the request);
 * - `common_chat_params_init_gpt_oss` (common/parsers/gpt-oss.cpp, newest): a string
 *   `reasoning_content` is copied to `thinking`, and beside non-empty `tool_calls` the content is
 *   erased (so a preamble gives way to the reasoning instead of making the template raise).
 */
function llamaTemplateMessages(parsed: readonly LlamaMessage[], pointers: readonly string[], diagnostics: Diagnostic[]): JsonValue[] {
  return parsed.map((m, i) => {
    const p = pointers[i];
    const out = new Map<string, JsonValue>([['role', m.role]]);
    let content = m.content;
    if (content === '' && m.parts.length > 0) {
      content = joinLlamaParts(m.parts);
      if (m.parts.length > 1) diagnostics.push(note('conversation/content-joined', at(p, 'content'), `llama.cpp joins the ${m.parts.length} text parts with a newline: the model reads one text`));
    }
    out.set('content', content);
    if (m.reasoning !== '') out.set('reasoning_content', m.reasoning);
    if (m.name !== '') out.set('name', m.name);
    if (m.toolCallId !== '') out.set('tool_call_id', m.toolCallId);
    if (m.calls.length > 0) {
      const calls = m.calls.map((c) => {
        let args = c.arguments;
        if (typeof args === 'string') {
          const given = args;
          try {
            args = parseJson(given);
          } catch (e) {
            if (!(e instanceof JsonSyntaxError)) throw e;
            throw refused('llama.cpp', at(c.pointer, 'function', 'arguments'), `Failed to parse tool call arguments as JSON: ${nlohmannParseError(given, e)}`);
          }
          const printed = pyToJson(args);
          if (printed !== c.arguments) diagnostics.push(note('conversation/arguments-reformatted', at(c.pointer, 'function', 'arguments'), `llama.cpp parses the arguments and the template prints them as JSON: the model reads ${printed}`, 'info'));
        }
        const fn = object([
          ['name', c.name],
          ['arguments', args],
        ]);
        return object([['type', 'function'], ['function', fn], ...(c.id !== '' ? ([['id', c.id]] as const) : [])]);
      });
      out.set('tool_calls', calls);
    } else if (m.contentMissing && (m.role === 'assistant' || m.role === 'user' || m.role === 'tool')) {
      diagnostics.push(note('conversation/null-content', p, `the message has no content: llama.cpp gives it "" and the template prints an empty ${m.role === 'assistant' ? 'final answer' : `${m.role} message`}`));
    }
    if (m.reasoning !== '') {
      out.set('thinking', m.reasoning);
      if (m.calls.length > 0) {
        out.delete('content');
        if (content !== '') diagnostics.push(note('conversation/content-erased', at(p, 'content'), 'llama.cpp erases the content beside tool calls when the message has reasoning_content: the preamble is not printed, the reasoning is'));
      }
    }
    return out;
  });
}

/**
 * llama.cpp (`--jinja`, the model's template): its request checks, its parsing, the messages
 * rebuilt for the template, and the template with its content channel-tag test patched out.
 */
function prepareLlamaCpp(request: ServerRequest): Prepared {
  const { items, pointers } = request.conversation;
  llamaServerChecks(items, pointers);
  const parsed = llamaParseMessages(items, pointers);
  const diagnostics: Diagnostic[] = [...ignoredFields('llama.cpp', items, pointers)];
  items.forEach((m, i) => {
    const calls = get(m, 'tool_calls');
    if (calls !== undefined && parsed[i].calls.length === 0) {
      diagnostics.push(note('conversation/ignored-field', at(pointers[i], 'tool_calls'), 'tool_calls holds no call: llama.cpp drops the key, and the message is printed as a final answer'));
    }
  });
  const last = parsed[parsed.length - 1];
  if (last !== undefined && last.role === 'assistant') {
    diagnostics.push(
      note(
        'conversation/prefill-not-modelled',
        pointers[pointers.length - 1],
        'llama.cpp treats a last assistant message as a prefill (its content continues the generation prompt; with thinking enabled, recent versions refuse the request): this profile renders it as the template does',
      ),
    );
  }
  const tools = llamaTools(request);
  pushAll(diagnostics, tools.diagnostics);
  const messages = llamaTemplateMessages(parsed, pointers, diagnostics);
  return { messages, tools: tools.tools, diagnostics, fieldAliases: { thinking: 'reasoning_content' }, checkContentChannelTags: false };
}

// ---------------------------------------------------------------------------------------
// mlx-lm

/** A Python exception text, `{type}: {message}`. */
function pyError(type: string, message: string): string {
  return `${type}: ${message}`;
}

/** `x[key]` in Python on a JSON value: a dict's item, or Python's error for anything else. */
function pySubscript(v: JsonValue, key: string): JsonValue {
  if (isJsonObject(v)) {
    if (!v.has(key)) throw pyError('KeyError', `'${key}'`);
    return v.get(key) as JsonValue;
  }
  if (typeof v === 'string') throw pyError('TypeError', "string indices must be integers, not 'str'");
  if (isJsonArray(v)) throw pyError('TypeError', 'list indices must be integers or slices, not str');
  throw pyError('TypeError', `'${pyType(v)}' object is not subscriptable`);
}

/** `x.get(key)` in Python: a dict's item (None when absent), or AttributeError. */
function pyGet(v: JsonValue, key: string): JsonValue | undefined {
  if (!isJsonObject(v)) throw pyError('AttributeError', `'${pyType(v)}' object has no attribute 'get'`);
  return v.get(key);
}

/** `for x in v` in Python: a list's items, a dict's keys, a str's characters; TypeError for anything else. */
function pyIter(v: JsonValue, pointer: string): [JsonValue, string][] {
  if (isJsonArray(v)) return v.map((x, k) => [x, at(pointer, k)]);
  if (isJsonObject(v)) return [...v.keys()].map((k) => [k, at(pointer, k)]);
  if (typeof v === 'string') return [...v].map((c) => [c, pointer]);
  throw pyError('TypeError', `'${pyType(v)}' object is not iterable`);
}

/**
 * mlx-lm's `process_message_content` (mlx_lm/server.py @d78bf58), on a copy: list content →
 * the text fragments joined with "" (any non-text part → ValueError), `content` None (or absent)
 * → "", each truthy `function.arguments` → `json.loads` (a dict, so no double encoding; `""` is
 * falsy and stays). Nothing else is rewritten: `reasoning`, `reasoning_content` pass through
 * unread, a client `thinking` is used.
 */
function mlxProcessMessages(items: readonly JsonValue[], pointers: readonly string[], diagnostics: Diagnostic[]): JsonValue[] {
  return items.map((m, i) => {
    const p = pointers[i];
    const run = <T>(pointer: string, f: () => T): T => {
      try {
        return f();
      } catch (e) {
        if (typeof e === 'string') throw refused('mlx-lm', pointer, e);
        if (e instanceof PythonException) throw refused('mlx-lm', pointer, pyError(e.type, e.detail));
        throw e;
      }
    };
    const content = run(p, () => pyGet(m, 'content'));
    const out = new Map(m as JsonObject);
    if (isJsonArray(content)) {
      const fragments: [JsonValue, number][] = [];
      content.forEach((part, k) => {
        const pp = at(p, 'content', k);
        if (run(pp, () => pySubscript(part, 'type')) === 'text') fragments.push([run(pp, () => pySubscript(part, 'text')), k]);
      });
      if (fragments.length !== content.length) {
        const k = content.findIndex((_, j) => !fragments.some(([, f]) => f === j));
        throw refused('mlx-lm', at(p, 'content', k), pyError('ValueError', "Only 'text' content type is supported."));
      }
      const bad = fragments.findIndex(([f]) => typeof f !== 'string');
      if (bad >= 0) throw refused('mlx-lm', at(p, 'content', fragments[bad][1], 'text'), pyError('TypeError', `sequence item ${bad}: expected str instance, ${pyType(fragments[bad][0])} found`));
      out.set('content', fragments.map(([f]) => f as string).join(''));
      if (content.length !== 1) diagnostics.push(note('conversation/content-joined', at(p, 'content'), content.length === 0 ? 'mlx-lm reads an empty part list as ""' : `mlx-lm joins the ${content.length} text parts with no separator: the model reads one text`));
    } else if (content === undefined || content === null) {
      out.set('content', '');
      const role = get(m, 'role');
      if (!pyTruthy(get(m, 'tool_calls')) && (role === 'assistant' || role === 'user' || role === 'tool')) {
        diagnostics.push(note('conversation/null-content', p, `the message has no content: mlx-lm gives it "" and the template prints an empty ${role === 'assistant' ? 'final answer' : `${role} message`}`));
      }
    }
    const calls = get(m, 'tool_calls');
    if (pyTruthy(calls)) {
      const newCalls: JsonValue[] = [];
      for (const [call, cp] of run(at(p, 'tool_calls'), () => pyIter(calls as JsonValue, at(p, 'tool_calls')))) {
        const fn = run(cp, () => pyGet(call, 'function'));
        if (pyTruthy(fn)) {
          const args = run(at(cp, 'function'), () => pyGet(fn as JsonValue, 'arguments'));
          if (pyTruthy(args)) {
            const ap = at(cp, 'function', 'arguments');
            if (typeof args !== 'string') throw refused('mlx-lm', ap, pyError('TypeError', `the JSON object must be str, bytes or bytearray, not ${pyType(args as JsonValue)}`));
            const parsed = run(ap, () => pyJsonLoads(args));
            const printed = pyToJson(parsed);
            if (printed !== args) diagnostics.push(note('conversation/arguments-reformatted', ap, `mlx-lm parses the arguments (json.loads) and the template prints them as JSON: the model reads ${printed}`, 'info'));
            newCalls.push(new Map([...(call as JsonObject), ['function', new Map([...(fn as JsonObject), ['arguments', parsed]])]]));
            continue;
          }
        }
        newCalls.push(call);
      }
      if (isJsonArray(calls)) out.set('tool_calls', newCalls);
    }
    return out;
  });
}

/** mlx-lm's server: `process_message_content`, then the template. */
function prepareMlxLm(request: ServerRequest): Prepared {
  const { items, pointers } = request.conversation;
  const diagnostics: Diagnostic[] = [...ignoredFields('mlx-lm', items, pointers)];
  const messages = mlxProcessMessages(items, pointers, diagnostics);
  return { messages, tools: toolPairs(request), diagnostics };
}

/**
 * After the prompt is made, mlx-lm's `_tokenize` reads `messages[-1]["role"]`, and when that is
 * `user`, `m["role"]` of each leading message up to the first that is not `system` (prompt-cache
 * segments): a missing role there is a KeyError.
 */
function mlxAfterRender(items: readonly JsonValue[], pointers: readonly string[]): void {
  const lastIndex = items.length - 1;
  const last = items[lastIndex];
  if (!isJsonObject(last) || !last.has('role')) throw refused('mlx-lm', pointers[lastIndex], pyError('KeyError', "'role'"));
  if (last.get('role') !== 'user') return;
  for (let k = 0; k < items.length; k++) {
    const m = items[k];
    if (!isJsonObject(m) || !m.has('role')) throw refused('mlx-lm', pointers[k], pyError('KeyError', "'role'"));
    if (m.get('role') !== 'system') return;
  }
}

// ---------------------------------------------------------------------------------------
// The profiles

/** Diagnostics ordered by the message they point into (request-level and tool diagnostics first); stable within a message. */
function inMessageOrder(diagnostics: readonly Diagnostic[], pointers: readonly string[]): Diagnostic[] {
  const indexOf = (path: string) => pointers.findIndex((p) => path === p || path.startsWith(`${p}/`));
  return diagnostics
    .map((d, k) => ({ d, k, m: indexOf(d.path) }))
    .sort((a, b) => a.m - b.m || a.k - b.k)
    .map((x) => x.d);
}

/**
 * The whole prompt a template server builds for a Chat Completions request: its preprocessing,
 * then the official template (Python Jinja2 semantics) with `add_generation_prompt=True`,
 * `reasoning_effort`, `builtin_tools` and `model_identity` as template arguments.
 * Throws a CompileError where the server refuses the request (`conversation/refused`) or the
 * template raises (`chat-template/fails`).
 */
export function renderTemplateServer(server: TemplateServer, request: ServerRequest): ServerPrompt {
  const conversation = request.conversation;
  if (conversation.format !== 'chat' || conversation.instructions !== undefined) {
    const what = conversation.format !== 'chat' ? `${conversation.format} messages` : 'request-level instructions';
    throw new CompileError([{ code: 'conversation/wrong-format', severity: 'error', path: conversation.instructionsPointer ?? '', message: `${server} reads Chat Completions messages only: convert ${what} to chat messages first` }]);
  }
  const prepared = server === 'transformers' ? prepareTransformers(request) : server === 'llama.cpp' ? prepareLlamaCpp(request) : prepareMlxLm(request);
  const pointers = conversation.pointers;
  const messagesPointer = pointers.length > 0 ? pointers[0].slice(0, pointers[0].lastIndexOf('/')) : '/messages';
  const r = renderChatTemplateConversation({
    messages: prepared.messages,
    pointers,
    messagesPointer,
    tools: prepared.tools,
    ...(request.effort !== undefined ? { effort: request.effort } : {}),
    effortPointer: '/reasoning_effort',
    ...(request.identity !== undefined ? { identity: request.identity } : {}),
    ...(request.date !== undefined ? { date: request.date } : {}),
    builtinTools: request.builtinTools ?? [],
    addGenerationPrompt: true,
    ...(prepared.checkContentChannelTags !== undefined ? { checkContentChannelTags: prepared.checkContentChannelTags } : {}),
    ...(prepared.fieldAliases !== undefined ? { fieldAliases: prepared.fieldAliases } : {}),
    // llama.cpp hands the template the tools as it re-parsed them; transformers and mlx-lm as given
    keepNamespace: (make) => keptPrint(request.tools, server === 'llama.cpp' ? 'chat-template namespace llama.cpp' : 'chat-template namespace', make),
  });
  if (server === 'mlx-lm') mlxAfterRender(conversation.items, pointers);
  const diagnostics = inMessageOrder(
    [...ignoredOptions(server, request), ...prepared.diagnostics, ...r.diagnostics, ...noteDiagnostics(server, r.notes, conversation.items)],
    pointers,
  );
  return {
    text: r.text,
    system: r.system,
    ...(r.developer !== undefined ? { developer: r.developer } : {}),
    ...(r.catalog !== undefined ? { catalog: r.catalog } : {}),
    diagnostics,
  };
}
