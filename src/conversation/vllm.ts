/**
 * vLLM's gpt-oss prompt, as its newest ("gen 3") code builds it (spec conversations §A.1, §A.2):
 *
 *   request validation (what vLLM refuses, refused the same way)
 *   → preamble: the system message (date, effort, builtin tools) and the developer message
 *     (`# Instructions` from the first system/developer message, the function tools)
 *   → one mapping per shape: Chat Completions messages (`parse_chat_input_to_harmony_message`),
 *     Responses input items (`response_input_to_harmony`), Anthropic messages (converted as vLLM's
 *     `/v1/messages` endpoint converts them, then the chat mapping), Harmony-native messages as given
 *   → analysis dropping: vLLM's own (`auto_drop_analysis_messages`, chat only), then
 *     openai-harmony's (`render_conversation_for_completion`, `auto_drop_analysis` on)
 *   → the envelopes and `<|start|>assistant`.
 *
 * Every drop or rewrite is a warning at the message's JSON Pointer; every refusal a
 * `conversation/refused` error, all thrown together as one CompileError.
 */
import { CompileError, type Diagnostic } from '../diagnostics.js';
import { emitHarmonyToolsSection, type HarmonyNamespace } from '../emit/harmony/catalog.js';
import { escapePointerToken, isJsonArray, isJsonObject, stringifyPython, type JsonObject, type JsonValue } from '../ir/json.js';
import { lowerTool } from '../lower/index.js';
import { BROWSER_DESCRIPTION, PYTHON_DESCRIPTION, browserTools } from '../messages/builtins.js';
import { dropAnalysis, renderConversation } from '../messages/conversation.js';
import { renderHarmonyDeveloperContent } from '../messages/developer.js';
import type { HarmonyMessage } from '../messages/envelope.js';
import type { ReasoningEffort } from '../messages/options.js';
import { renderHarmonySystemContent } from '../messages/system.js';
import { toChatMessages } from './read.js';
import { keptPrint, type ConversationInput, type ServerPrompt, type ServerRequest } from './types.js';
import { pushAll } from '../ir/arrays.js';

// ---------------------------------------------------------------------------------------
// Diagnostics

/** Diagnostics of one render: refusals (errors) and what was dropped or rewritten. */
class Report {
  readonly diagnostics: Diagnostic[] = [];
  refuse(path: string, message: string): void {
    this.diagnostics.push({ code: 'conversation/refused', severity: 'error', path, message: `vLLM refuses this request: ${message}` });
  }
  warn(code: string, path: string, message: string): void {
    this.diagnostics.push({ code, severity: 'warning', path, message });
  }
  info(code: string, path: string, message: string): void {
    this.diagnostics.push({ code, severity: 'info', path, message });
  }
  get refused(): boolean {
    return this.diagnostics.some((d) => d.severity === 'error');
  }
}

/** A Harmony message with the pointer of what it was made from. */
interface Sourced {
  readonly message: HarmonyMessage;
  readonly pointer: string;
}

const KNOWN_ROLES = ['system', 'developer', 'user', 'assistant', 'tool'] as const;

/** A field pointer under a message, or the message's own pointer when the message was converted from another shape. */
type FieldAt = (pointer: string, ...tokens: readonly (string | number)[]) => string;
const exactAt: FieldAt = (p, ...tokens) => p + tokens.map((t) => `/${escapePointerToken(String(t))}`).join('');
const itemAt: FieldAt = (p) => p;

/** Python's repr of a string (what vLLM's messages print): single quotes unless the text has one and no double quote. */
function pyRepr(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  return q + s.replace(/\\/g, '\\\\').replace(new RegExp(q, 'g'), `\\${q}`).replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t') + q;
}

/** A value as Python's repr would show it in a message (strings quoted, the rest as JSON). */
function pyShow(v: JsonValue): string {
  return typeof v === 'string' ? pyRepr(v) : v === null ? 'None' : typeof v === 'boolean' ? (v ? 'True' : 'False') : stringifyPython(v);
}

/** `a user message`, `an assistant message`. */
function aRole(role: string): string {
  return `${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}`;
}

/** Today's date, `YYYY-MM-DD`, in local time (vLLM: `datetime.datetime.now().strftime("%Y-%m-%d")`). */
function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------
// Request-level rules

const HARMONY_EFFORTS: readonly string[] = ['low', 'medium', 'high'];
/** `ChatCompletionRequest.reasoning_effort`'s pydantic Literal. */
const CHAT_EFFORT_LITERAL = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'];
/** The Responses `reasoning.effort` Literal (openai's ReasoningEffort). */
const RESPONSES_EFFORT_LITERAL = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'];

/** The reasoning effort vLLM puts in the system message, or a refusal. */
function effortOf(request: ServerRequest, report: Report): ReasoningEffort {
  const e = request.effort;
  const format = request.conversation.format;
  const path = format === 'responses' ? '/reasoning/effort' : format === 'anthropic' ? '/output_config/effort' : '/reasoning_effort';
  if (e === undefined || e === null) return 'medium'; // SystemContent.new()'s default
  // request validation: a pydantic Literal (the Anthropic endpoint assigns output_config.effort unchecked)
  const literal = format === 'responses' ? RESPONSES_EFFORT_LITERAL : format === 'anthropic' ? undefined : CHAT_EFFORT_LITERAL;
  if (typeof e !== 'string' || (literal !== undefined && !literal.includes(e))) {
    const allowed = (literal ?? HARMONY_EFFORTS).map((x) => `'${x}'`).join(', ');
    report.refuse(path, `reasoning_effort: Input should be ${allowed} (got ${pyShow(e)})`);
    return 'medium';
  }
  // OnlineRenderer._make_request_with_harmony: `if reasoning_effort == "none": raise ValueError` (Chat Completions path only)
  if (e === 'none' && format !== 'responses') {
    report.refuse(path, "Harmony does not support reasoning_effort='none'");
    return 'medium';
  }
  // harmony_utils.get_system_message: only the keys of REASONING_EFFORT
  if (!HARMONY_EFFORTS.includes(e)) {
    report.refuse(path, `reasoning_effort=${pyRepr(e)} is not supported by Harmony. Supported values are: high, medium, low.`);
    return 'medium';
  }
  return e as ReasoningEffort;
}

/** `ChatCompletionRequest` validation of `tools` and `tool_choice` (`check_tool_usage`). */
function checkTools(request: ServerRequest, report: Report): void {
  const format = request.conversation.format;
  if (format !== 'chat' && format !== 'harmony') return;
  // an empty tools list is refused by the request validation
  if (request.toolsGiven === 'empty') report.refuse('/tools', 'tools is an empty list (leave "tools" out when there are none)');
  const choice = request.toolChoice;
  if (choice === undefined || choice === null || choice === 'none') return;
  if (request.toolsGiven === 'absent') {
    report.refuse('/tool_choice', 'When using `tool_choice`, `tools` must be set.');
    return;
  }
  if (choice === 'auto' || choice === 'required') return;
  const fn = isJsonObject(choice) ? choice.get('function') : undefined;
  const name = isJsonObject(fn) ? fn.get('name') : undefined;
  if (!isJsonObject(choice) || choice.get('type') !== 'function' || typeof name !== 'string') {
    report.refuse('/tool_choice', 'tool_choice must be "none", "auto", "required" or {"type": "function", "function": {"name": …}}');
    return;
  }
  if (!request.tools.definitions.some((d) => d.name === name)) report.refuse('/tool_choice', 'The tool specified in `tool_choice` does not match any of the specified `tools`');
}

// ---------------------------------------------------------------------------------------
// Content: vLLM's text flattening

/** `flatten_input_text_content`: a string as is; a list → every item's text (or bare string) joined; no text → undefined (None). */
function flatten(content: JsonValue | undefined): string | undefined {
  if (content === undefined || content === null || typeof content === 'string') return content ?? undefined;
  if (!isJsonArray(content)) return undefined;
  const texts: string[] = [];
  for (const item of content) {
    if (typeof item === 'string') texts.push(item);
    else if (isJsonObject(item)) {
      const t = item.get('text');
      if (typeof t === 'string') texts.push(t);
    }
  }
  return texts.length ? texts.join('') : undefined;
}

/** Content part types the OpenAI message param of each role accepts (pydantic validates the parts as they are read). */
const PART_TYPES: Readonly<Record<string, readonly string[]>> = {
  user: ['text', 'image_url', 'input_audio', 'file'],
  assistant: ['text', 'refusal'],
  system: ['text'],
  developer: ['text'],
  tool: ['text'],
};

// ---------------------------------------------------------------------------------------
// Chat Completions messages

/** A chat message as vLLM's mapping reads it, after validation. */
interface ChatMessage {
  readonly role: string;
  readonly raw: JsonObject;
  readonly pointer: string;
  readonly content: JsonValue | undefined;
  /** `reasoning`, or `reasoning_content` renamed when `reasoning` is absent. */
  readonly reasoning: JsonValue | undefined;
  readonly toolCalls: readonly JsonValue[];
}

/** Keys vLLM's message types declare; other keys are dropped by the request validation. */
const CHAT_KEYS = new Set(['role', 'content', 'name', 'tool_calls', 'tool_call_id', 'reasoning', 'reasoning_content']);

/** Validate chat messages as vLLM's request validation does; report the fields it does not read. */
function readChatMessages(items: readonly JsonValue[], pointers: readonly string[], fieldAt: FieldAt, report: Report): ChatMessage[] {
  const out: ChatMessage[] = [];
  items.forEach((m, i) => {
    const p = pointers[i];
    if (!isJsonObject(m)) {
      report.refuse(p, 'a message must be an object');
      return;
    }
    const role = m.get('role');
    if (typeof role !== 'string') {
      report.refuse(fieldAt(p, 'role'), 'a message needs a string "role"');
      return;
    }
    if (role === 'function' || role === 'bot') {
      report.refuse(fieldAt(p, 'role'), `role ${pyRepr(role)} is not accepted (vLLM's message validation refuses the legacy "function" role and "bot")`);
      return;
    }
    if (!(KNOWN_ROLES as readonly string[]).includes(role)) {
      // Message.from_role_and_contents(role, …) → openai-harmony's Role(role) fails
      report.refuse(fieldAt(p, 'role'), `${pyRepr(role)} is not a valid Role: openai-harmony knows system, developer, user, assistant and tool`);
      return;
    }
    checkContent(role, m, p, fieldAt, report);
    // protocol.py _normalize_messages_before: reasoning_content → reasoning when reasoning is absent
    let reasoning = m.get('reasoning');
    const rc = m.get('reasoning_content');
    if (rc !== undefined && rc !== null) {
      if (reasoning === undefined || reasoning === null) {
        reasoning = rc;
        if (role === 'assistant') report.warn('conversation/reasoning-content-renamed', fieldAt(p, 'reasoning_content'), 'reasoning_content is read as "reasoning" (vLLM renames it when "reasoning" is absent)');
      } else report.warn('conversation/ignored-field', fieldAt(p, 'reasoning_content'), 'reasoning_content is dropped: the message has "reasoning", which vLLM keeps');
    }
    if (reasoning !== undefined && reasoning !== null && typeof reasoning !== 'string') report.refuse(fieldAt(p, rc !== undefined && m.get('reasoning') == null ? 'reasoning_content' : 'reasoning'), 'reasoning must be a string');
    if (role !== 'assistant' && typeof reasoning === 'string' && reasoning !== '') report.warn('conversation/ignored-field', fieldAt(p, m.has('reasoning') ? 'reasoning' : 'reasoning_content'), `vLLM reads reasoning only on assistant messages: dropped from this ${role} message`);
    const toolCalls = readToolCalls(role, m, p, fieldAt, report);
    const name = m.get('name');
    if (name !== undefined) {
      if (typeof name !== 'string') report.refuse(fieldAt(p, 'name'), 'name must be a string');
      else report.warn('conversation/ignored-field', fieldAt(p, 'name'), role === 'tool' ? 'vLLM names a tool result from its tool_call_id: "name" is not read' : `vLLM does not read the name of ${aRole(role)} message`);
    }
    const id = m.get('tool_call_id');
    if (id !== undefined && id !== null && typeof id !== 'string') report.refuse(fieldAt(p, 'tool_call_id'), 'tool_call_id must be a string');
    if (role !== 'tool' && id !== undefined) report.warn('conversation/ignored-field', fieldAt(p, 'tool_call_id'), `tool_call_id is read only on tool messages: ignored on this ${role} message`);
    for (const k of m.keys()) {
      if (CHAT_KEYS.has(k)) continue;
      const why =
        k === 'thinking'
          ? 'vLLM does not read "thinking" (it reads "reasoning", or "reasoning_content" renamed)'
          : k === 'refusal'
            ? 'vLLM does not read an assistant refusal'
            : `vLLM's message validation drops the key "${k}"`;
      report.warn('conversation/ignored-field', fieldAt(p, k), why);
    }
    out.push({ role, raw: m, pointer: p, content: m.get('content'), reasoning: reasoning ?? undefined, toolCalls });
  });
  return out;
}

/**
 * Content validation (the request's message union: openai's ChatCompletion*MessageParam, vLLM's
 * CustomChatCompletionMessageParam): null only on assistants; a list holds objects of the role's
 * part types (a bare string fails, as in the oracle's G033).
 */
function checkContent(role: string, m: JsonObject, p: string, fieldAt: FieldAt, report: Report): void {
  const content = m.get('content');
  if (content === undefined || typeof content === 'string') return;
  if (content === null) {
    // only the assistant message type has Optional content
    if (role !== 'assistant') report.refuse(fieldAt(p, 'content'), `${aRole(role)} message's content must be a string or a list of parts, not null`);
    return;
  }
  if (!isJsonArray(content)) {
    report.refuse(fieldAt(p, 'content'), 'content must be a string or a list of parts');
    return;
  }
  const allowed = PART_TYPES[role];
  content.forEach((part, k) => {
    const pp = fieldAt(p, 'content', k);
    const type = isJsonObject(part) ? part.get('type') : undefined;
    // the parts are validated lazily as vLLM reads them (a ValidatorIterator): a bare string fails every part type
    if (!isJsonObject(part) || typeof type !== 'string' || !allowed.includes(type)) {
      report.refuse(pp, `${aRole(role)} content part must be an object of type ${allowed.map((t) => `"${t}"`).join(', ')}, not ${typeof part === 'string' ? 'a bare string' : typeof type === 'string' ? `type "${type}"` : 'this'}`);
      return;
    }
    if (type === 'text' && typeof part.get('text') !== 'string') report.refuse(fieldAt(pp, 'text'), 'a text part needs a string "text"');
    if (type !== 'text') report.warn('conversation/content-part-dropped', pp, `a "${type}" part has no text: vLLM renders it as nothing`);
  });
}

/** Tool calls, validated as openai's ChatCompletionMessageFunctionToolCallParam (`id`, `type`, `function.name`, `function.arguments` required strings). */
function readToolCalls(role: string, m: JsonObject, p: string, fieldAt: FieldAt, report: Report): readonly JsonValue[] {
  const calls = m.get('tool_calls');
  if (calls === undefined || calls === null) return [];
  if (!isJsonArray(calls)) {
    report.refuse(fieldAt(p, 'tool_calls'), 'tool_calls must be a list');
    return [];
  }
  calls.forEach((c, k) => {
    const cp = fieldAt(p, 'tool_calls', k);
    if (!isJsonObject(c)) return report.refuse(cp, 'a tool call must be an object');
    if (typeof c.get('id') !== 'string') report.refuse(fieldAt(cp, 'id'), 'a tool call needs a string "id"');
    const type = c.get('type');
    if (type === 'custom') {
      report.warn('conversation/ignored-field', cp, 'a custom tool call: vLLM maps only function calls, so this renders as a call to "functions." with no arguments');
      return;
    }
    if (type !== 'function') return report.refuse(fieldAt(cp, 'type'), 'a tool call needs "type": "function"');
    const fn = c.get('function');
    if (!isJsonObject(fn)) return report.refuse(fieldAt(cp, 'function'), 'a tool call needs a "function" object');
    if (typeof fn.get('name') !== 'string') report.refuse(fieldAt(cp, 'function', 'name'), 'a tool call needs a string function.name');
    const args = fn.get('arguments');
    if (args === undefined) report.refuse(fieldAt(cp, 'function', 'arguments'), 'function.arguments: Field required');
    else if (typeof args !== 'string') report.refuse(fieldAt(cp, 'function', 'arguments'), 'function.arguments: Input should be a valid string (the JSON text of the arguments)');
  });
  if (role !== 'assistant' && calls.length) report.warn('conversation/ignored-field', fieldAt(p, 'tool_calls'), `tool_calls of ${aRole(role)} message are not rendered (vLLM still reads their ids to name tool results)`);
  return calls;
}

/** The first system/developer message's text (`extract_instructions_from_messages`), and the rest. */
function peelInstructions<T extends { role: string; content: JsonValue | undefined; pointer: string }>(messages: readonly T[], report: Report): { instructions: string | undefined; rest: T[]; pointer?: string } {
  const first = messages[0];
  if (first === undefined || (first.role !== 'system' && first.role !== 'developer')) return { instructions: undefined, rest: [...messages] };
  const instructions = flatten(first.content);
  if (instructions === undefined) report.warn('conversation/dropped-message', first.pointer, `the first ${first.role} message has no text: vLLM takes it as the instructions and finds none`);
  return { instructions, rest: messages.slice(1), pointer: first.pointer };
}

/** A developer message with `# Instructions` (`get_system_or_developer_message`, default environment). */
function instructionsMessage(text: string): HarmonyMessage {
  return { role: 'developer', content: renderHarmonyDeveloperContent(text, undefined) };
}

/** `parse_chat_inputs_to_harmony_messages`: each chat message mapped, tool results named through all calls' ids. */
function mapChat(messages: readonly ChatMessage[], fieldAt: FieldAt, report: Report): Sourced[] {
  // tool_call_id → function name over every message's tool calls (later duplicates win)
  const idNames = new Map<string, string | null>();
  for (const m of messages) {
    for (const c of m.toolCalls) {
      const fn = isJsonObject(c) ? c.get('function') : undefined;
      const name = isJsonObject(fn) ? fn.get('name') : undefined;
      const id = isJsonObject(c) ? c.get('id') : undefined;
      if (typeof id === 'string') idNames.set(id, typeof name === 'string' ? name : null);
    }
  }
  const out: Sourced[] = [];
  const push = (message: HarmonyMessage, pointer: string) => out.push({ message, pointer });
  for (const m of messages) {
    const p = m.pointer;
    const reasoning = typeof m.reasoning === 'string' ? m.reasoning : '';
    if (m.role === 'assistant' && m.toolCalls.length) {
      // the preamble (content) comes before the analysis
      const content = flatten(m.content);
      if (content) push({ role: 'assistant', channel: 'commentary', content }, p);
      if (reasoning) push({ role: 'assistant', channel: 'analysis', content: reasoning }, fieldAt(p, m.raw.has('reasoning') ? 'reasoning' : 'reasoning_content'));
      m.toolCalls.forEach((c, k) => {
        const fn = isJsonObject(c) ? c.get('function') : undefined;
        const name = isJsonObject(fn) && typeof fn.get('name') === 'string' ? (fn.get('name') as string) : '';
        const args = isJsonObject(fn) && typeof fn.get('arguments') === 'string' ? (fn.get('arguments') as string) : '';
        // content_type "json", not "<|constrain|>json": a deliberate choice in vLLM's code
        push({ role: 'assistant', recipient: `functions.${name}`, channel: 'commentary', contentType: 'json', content: args }, fieldAt(p, 'tool_calls', k));
      });
      continue;
    }
    if (m.role === 'tool') {
      const id = m.raw.get('tool_call_id');
      const key = typeof id === 'string' ? id : '';
      const known = idNames.has(key);
      const name = known ? idNames.get(key) : '';
      if (!known) {
        report.warn(
          'conversation/unknown-tool-call-id',
          fieldAt(p, m.raw.has('tool_call_id') ? 'tool_call_id' : 'role'),
          typeof id === 'string' ? `no tool call has the id ${JSON.stringify(id)}: vLLM names the result "functions." (no name)` : 'a tool result without a tool_call_id: vLLM names it "functions." (no name)',
        );
      }
      // a custom tool call has no function name: Python formats None as "None"
      push({ role: 'tool', name: `functions.${name === null ? 'None' : name}`, recipient: 'assistant', channel: 'commentary', content: flatten(m.content) ?? '' }, p);
      continue;
    }
    let analysis = false;
    if (m.role === 'assistant' && reasoning) {
      push({ role: 'assistant', channel: 'analysis', content: reasoning }, fieldAt(p, m.raw.has('reasoning') ? 'reasoning' : 'reasoning_content'));
      analysis = true;
    }
    if (m.role === 'system' || m.role === 'developer') {
      const text = flatten(m.content);
      if (text === undefined) report.warn('conversation/dropped-message', p, `${aRole(m.role)} message with no text is skipped by vLLM`);
      else push(instructionsMessage(text), p);
      continue;
    }
    // `content or ""`: null, "", [] give one empty text
    const c = m.content;
    const parts: string[] = typeof c === 'string' ? [c] : isJsonArray(c) && c.length ? c.map((x) => (isJsonObject(x) && typeof x.get('text') === 'string' ? (x.get('text') as string) : '')) : [''];
    if (m.role === 'assistant') {
      // only the first part's text decides whether there is a final message
      if (parts[0]) push({ role: 'assistant', channel: 'final', content: parts.join('') }, p);
      else if (!analysis) {
        const lost = parts.join('');
        report.warn('conversation/dropped-message', p, lost ? 'an assistant message whose first content part is empty is dropped by vLLM, with the text of its other parts' : 'an assistant message with no content, reasoning or tool calls is dropped by vLLM');
      } else if (parts.join('')) report.warn('conversation/dropped-message', fieldAt(p, 'content'), "the content's first part is empty: vLLM drops the final message with the text of its other parts");
      continue;
    }
    push({ role: 'user', content: parts.join('') }, p);
  }
  return out;
}

/** vLLM's `auto_drop_analysis_messages`: every analysis message before the last assistant `final` is dropped. */
function vllmDropAnalysis(messages: readonly Sourced[], report: Report): Sourced[] {
  let lastFinal = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].message.role === 'assistant' && messages[i].message.channel === 'final') {
      lastFinal = i;
      break;
    }
  }
  return messages.filter((s, i) => {
    if (i < lastFinal && s.message.channel === 'analysis') {
      report.warn('conversation/dropped-reasoning', s.pointer, 'reasoning of an answered turn is dropped: vLLM keeps analysis only when no later assistant final message follows');
      return false;
    }
    return true;
  });
}

// ---------------------------------------------------------------------------------------
// Responses input items

/** `response_input_to_harmony` over the input items (a string input is one user message). */
function mapResponses(items: readonly JsonValue[], pointers: readonly string[], report: Report): Sourced[] {
  const out: Sourced[] = [];
  const calls: { callId: string; name: string }[] = [];
  items.forEach((item, i) => {
    const p = pointers[i];
    if (typeof item === 'string') {
      out.push({ message: { role: 'user', content: item }, pointer: p });
      return;
    }
    if (!isJsonObject(item)) return report.refuse(p, 'an input item must be an object');
    const type = item.has('type') ? item.get('type') : 'message';
    switch (type) {
      case 'message': {
        const role = item.get('role');
        const content = item.get('content');
        if (typeof role !== 'string' || !['user', 'assistant', 'system', 'developer'].includes(role)) return report.refuse(exactAt(p, 'role'), 'a message item needs a role of user, assistant, system or developer');
        if (typeof content !== 'string' && !isJsonArray(content)) return report.refuse(exactAt(p, 'content'), 'a message item needs content: a string or a list of parts');
        if (role === 'system' || role === 'developer') {
          const text = flatten(content);
          if (text) out.push({ message: instructionsMessage(text), pointer: p });
          else report.warn('conversation/dropped-message', p, `${aRole(role)} item with no text is skipped by vLLM`);
          return;
        }
        let text: string;
        if (typeof content === 'string') text = content;
        else {
          const parts: string[] = [];
          content.forEach((c, k) => {
            const t = isJsonObject(c) ? c.get('text') : undefined;
            if (typeof t === 'string') parts.push(t);
            else report.warn('conversation/content-part-dropped', exactAt(p, 'content', k), `a ${isJsonObject(c) && typeof c.get('type') === 'string' ? `"${c.get('type') as string}" ` : ''}part has no text: vLLM renders it as nothing`);
          });
          text = parts.join('');
        }
        // an assistant message item is always a final message, even empty
        out.push({ message: role === 'assistant' ? { role: 'assistant', channel: 'final', content: text } : { role: 'user', content: text }, pointer: p });
        return;
      }
      case 'function_call': {
        const name = item.get('name');
        const args = item.get('arguments');
        const callId = item.get('call_id');
        if (typeof name !== 'string') report.refuse(exactAt(p, 'name'), 'a function_call needs a string name');
        if (typeof args !== 'string') report.refuse(exactAt(p, 'arguments'), 'a function_call needs string arguments');
        if (typeof callId !== 'string') report.refuse(exactAt(p, 'call_id'), 'a function_call needs a string call_id');
        if (typeof name !== 'string' || typeof args !== 'string') return;
        if (typeof callId === 'string') calls.push({ callId, name });
        out.push({ message: { role: 'assistant', recipient: `functions.${name}`, channel: 'commentary', contentType: 'json', content: args }, pointer: p });
        return;
      }
      case 'function_call_output': {
        const callId = item.get('call_id');
        const output = item.get('output');
        if (typeof callId !== 'string') return report.refuse(exactAt(p, 'call_id'), 'a function_call_output needs a string call_id');
        if (typeof output !== 'string') return report.refuse(exactAt(p, 'output'), 'vLLM reads a function_call_output\'s "output" as text: it must be a string');
        // the most recent earlier function_call with this call_id names the result
        const call = [...calls].reverse().find((c) => c.callId === callId);
        if (call === undefined) return report.refuse(exactAt(p, 'call_id'), `No call message found for ${callId}`);
        out.push({ message: { role: 'tool', name: `functions.${call.name}`, recipient: 'assistant', channel: 'commentary', content: output }, pointer: p });
        return;
      }
      case 'reasoning': {
        const content = item.get('content');
        if (!isJsonArray(content) || content.length === 0) {
          report.warn('conversation/dropped-reasoning', p, 'a reasoning item without content is skipped: vLLM reads only "content" (not "summary" or "encrypted_content")');
          return;
        }
        const texts: string[] = [];
        content.forEach((c, k) => {
          const t = isJsonObject(c) ? c.get('text') : undefined;
          if (typeof t === 'string') texts.push(t);
          else report.refuse(exactAt(p, 'content', k), 'a reasoning content item needs a string "text"');
        });
        for (const k of ['summary', 'encrypted_content']) {
          const v = item.get(k);
          if (v !== undefined && v !== null && !(isJsonArray(v) && v.length === 0)) report.warn('conversation/ignored-field', exactAt(p, k), `vLLM does not read a reasoning item's ${k}`);
        }
        out.push({ message: { role: 'assistant', channel: 'analysis', content: texts.join('\n') }, pointer: p });
        return;
      }
      default:
        report.refuse(exactAt(p, 'type'), `Unknown input type: ${typeof type === 'string' ? type : pyShow(type ?? null)}`);
    }
  });
  return out;
}

// ---------------------------------------------------------------------------------------
// Harmony-native messages

const HARMONY_KEYS = new Set(['role', 'name', 'recipient', 'channel', 'content_type', 'content']);

/** Harmony-native messages as given: every field kept, content parts' text joined. */
function readHarmony(items: readonly JsonValue[], pointers: readonly string[], report: Report): (Sourced & { role: string; content: JsonValue | undefined })[] {
  const out: (Sourced & { role: string; content: JsonValue | undefined })[] = [];
  items.forEach((m, i) => {
    const p = pointers[i];
    if (!isJsonObject(m)) return report.refuse(p, 'a message must be an object');
    const role = m.get('role');
    if (typeof role !== 'string' || !(KNOWN_ROLES as readonly string[]).includes(role)) return report.refuse(exactAt(p, 'role'), `${typeof role === 'string' ? pyRepr(role) : 'a missing role'} is not a valid Role: openai-harmony knows system, developer, user, assistant and tool`);
    const header: Record<string, string> = {};
    for (const k of ['name', 'recipient', 'channel', 'content_type']) {
      const v = m.get(k);
      if (v === undefined || v === null) continue;
      if (typeof v !== 'string') report.refuse(exactAt(p, k), `a Harmony message's ${k} must be a string`);
      else header[k] = v;
    }
    const content = m.get('content');
    let text = '';
    if (typeof content === 'string') text = content;
    else if (isJsonArray(content)) {
      content.forEach((c, k) => {
        const t = isJsonObject(c) ? c.get('text') : typeof c === 'string' ? c : undefined;
        if (typeof t === 'string') text += t;
        else report.warn('conversation/content-part-dropped', exactAt(p, 'content', k), 'a content item that is not text is rendered as nothing');
      });
    } else if (content !== undefined && content !== null) report.refuse(exactAt(p, 'content'), 'content must be a string or a list of {"type": "text", "text"} items');
    for (const k of m.keys()) if (!HARMONY_KEYS.has(k)) report.warn('conversation/ignored-field', exactAt(p, k), `a Harmony message has no "${k}": ignored`);
    const message: HarmonyMessage = {
      role: role as HarmonyMessage['role'],
      ...(header.name !== undefined ? { name: header.name } : {}),
      ...(header.recipient !== undefined ? { recipient: header.recipient } : {}),
      ...(header.channel !== undefined ? { channel: header.channel } : {}),
      ...(header.content_type !== undefined ? { contentType: header.content_type } : {}),
      content: text,
    };
    out.push({ message, pointer: p, role, content });
  });
  return out;
}

// ---------------------------------------------------------------------------------------
// The whole prompt

/**
 * The prompt vLLM builds for a gpt-oss request: Chat Completions (the newest mapping), Responses
 * input items, Anthropic messages (through vLLM's own conversion to chat) or Harmony-native
 * messages (rendered as given). Throws a CompileError (`conversation/refused`) for what vLLM refuses.
 */
export function renderVllm(request: ServerRequest): ServerPrompt {
  const report = new Report();
  const conversation = request.conversation;
  const format = conversation.format;
  let date = request.date;
  if (date === undefined) {
    date = today();
    report.info('conversation/date-defaulted', '', `no date given: today's date (${date}) is used, as vLLM does unless VLLM_SYSTEM_START_DATE pins it`);
  }
  const effort = effortOf(request, report);
  checkTools(request, report);
  const builtins = request.builtinTools ?? [];
  if (builtins.length && format !== 'responses') {
    report.warn('conversation/ignored-option', '', `vLLM's Chat Completions path never adds builtin tools (supports_browsing and supports_code_interpreter are off): ${builtins.join(', ')} left out`);
  }
  if (request.identity !== undefined) report.info('conversation/ignored-option', '', 'a vLLM request cannot change the model identity: rendered as asked');
  if (request.cutoff !== undefined) report.info('conversation/ignored-option', '', 'a vLLM request cannot change the knowledge cutoff: rendered as asked');
  if (request.toolChoice === 'none' && request.tools.tools.length && (format === 'chat' || format === 'harmony')) {
    report.info('conversation/tool-choice', '/tool_choice', 'tool_choice "none" keeps the tools in the prompt (vLLM leaves them out only with --exclude-tools-when-tool-choice-none)');
  }

  let instructions: string | undefined;
  let instructionsPointer = '';
  let messages: Sourced[];
  let chatPath = false;
  switch (format) {
    case 'chat':
    case 'anthropic': {
      chatPath = true;
      // Anthropic: converted as vLLM's /v1/messages endpoint converts it; Chat: as given
      const chat = format === 'anthropic' ? toChatMessages(conversation) : withChatInstructions(conversation);
      pushAll(report.diagnostics, chat.diagnostics);
      const fieldAt = format === 'chat' ? exactAt : itemAt;
      const read = readChatMessages(chat.messages, chat.pointers, fieldAt, report);
      const peeled = peelInstructions(read, report);
      instructions = peeled.instructions;
      instructionsPointer = peeled.pointer ?? '';
      messages = mapChat(peeled.rest, fieldAt, report);
      break;
    }
    case 'responses': {
      // request.instructions, else (newest) a leading system/developer input item
      const items = [...conversation.items];
      const pointers = [...conversation.pointers];
      if (conversation.instructions !== undefined && conversation.instructions !== null) {
        if (typeof conversation.instructions !== 'string') report.refuse(conversation.instructionsPointer ?? '/instructions', 'instructions must be a string');
        else instructions = conversation.instructions;
        instructionsPointer = conversation.instructionsPointer ?? '/instructions';
      } else if (items.length && typeof items[0] !== 'string') {
        const first = items[0];
        const role = isJsonObject(first) ? first.get('role') : undefined;
        const type = isJsonObject(first) ? (first.get('type') ?? 'message') : undefined;
        if ((role === 'system' || role === 'developer') && type === 'message') {
          instructions = flatten((first as JsonObject).get('content'));
          if (instructions === undefined) report.warn('conversation/dropped-message', pointers[0], `the first ${role} item has no text: vLLM takes it as the instructions and finds none`);
          instructionsPointer = pointers[0];
          items.shift();
          pointers.shift();
        }
      }
      messages = mapResponses(items, pointers, report);
      break;
    }
    case 'harmony': {
      const read = readHarmony(conversation.items, conversation.pointers, report);
      const withInstr = conversation.instructions !== undefined ? [{ message: { role: 'system' as const, content: '' }, pointer: conversation.instructionsPointer ?? '/instructions', role: 'system', content: conversation.instructions }, ...read] : read;
      // a leading system/developer message gives the instructions, as vLLM's extract_instructions_from_messages reads it
      const peeled = peelInstructions(withInstr, report);
      instructions = peeled.instructions;
      instructionsPointer = peeled.pointer ?? '';
      if (peeled.pointer !== undefined) {
        const first = withInstr[0].message;
        for (const k of ['name', 'recipient', 'channel', 'contentType'] as const) {
          if (first[k] !== undefined) report.warn('conversation/ignored-field', exactAt(peeled.pointer, k === 'contentType' ? 'content_type' : k), `the first ${first.role} message becomes the developer message's instructions: its ${k === 'contentType' ? 'content_type' : k} is dropped`);
        }
      }
      messages = peeled.rest.map((s) => ({ message: s.message, pointer: s.pointer }));
      break;
    }
  }
  if (report.refused) throw new CompileError(report.diagnostics);

  // vLLM's own analysis dropping runs on the mapped chat messages (parse_chat_inputs_to_harmony_messages)
  if (chatPath) messages = vllmDropAnalysis(messages, report);

  // the preamble: build_harmony_preamble
  const functionTools = request.tools.tools;
  const catalog = functionTools.length ? keptPrint(request.tools, 'openai-harmony functions', () => ({ text: emitHarmonyToolsSection([{ name: 'functions', tools: functionTools }]) })).text : undefined;
  const namespaces: HarmonyNamespace[] = [];
  if (format === 'responses') {
    if (builtins.includes('browser')) namespaces.push({ name: 'browser', description: BROWSER_DESCRIPTION, tools: browserTools().map((t) => lowerTool(t).tool) });
    if (builtins.includes('python')) namespaces.push({ name: 'python', description: PYTHON_DESCRIPTION, tools: [] });
  }
  const system = renderHarmonySystemContent(
    {
      ...(request.identity !== undefined ? { identity: request.identity } : {}),
      ...(request.cutoff !== undefined ? { cutoff: request.cutoff } : {}),
      date,
      effort,
    },
    namespaces.length ? emitHarmonyToolsSection(namespaces) : undefined,
    catalog !== undefined,
  );
  // a developer message when the instructions are non-empty or there are function tools
  const developer = instructions || catalog !== undefined ? renderHarmonyDeveloperContent(instructions, catalog) : undefined;
  if (instructions === '' && developer === undefined) report.warn('conversation/dropped-message', instructionsPointer, 'the instructions are empty and there are no tools: vLLM writes no developer message');

  const head: HarmonyMessage[] = [{ role: 'system', content: system }, ...(developer !== undefined ? [{ role: 'developer' as const, content: developer }] : [])];
  // openai-harmony's auto_drop_analysis (render_conversation_for_completion): a no-op after vLLM's own drop
  const all = [...head, ...messages.map((s) => s.message)];
  const kept = new Set(dropAnalysis(all));
  const rendered = messages.filter((s) => {
    if (kept.has(s.message)) return true;
    report.warn('conversation/dropped-reasoning', s.pointer, 'analysis before the first final message is dropped: openai-harmony drops it when the conversation ends with a final answer');
    return false;
  });
  const conversationMessages = rendered.map((s) => s.message);
  const text = renderConversation([...head, ...conversationMessages], { completion: 'assistant', dropAnalysis: false });
  return {
    text,
    system,
    ...(developer !== undefined ? { developer } : {}),
    ...(catalog !== undefined ? { catalog } : {}),
    messages: conversationMessages,
    diagnostics: report.diagnostics,
  };
}

/** Chat messages with request-level instructions (when a caller set them) as a first system message. */
function withChatInstructions(c: ConversationInput): { messages: readonly JsonValue[]; pointers: readonly string[]; diagnostics: readonly Diagnostic[] } {
  if (c.instructions === undefined) return { messages: c.items, pointers: c.pointers, diagnostics: [] };
  return { messages: [new Map<string, JsonValue>([['role', 'system'], ['content', c.instructions]]), ...c.items], pointers: [c.instructionsPointer ?? '/instructions', ...c.pointers], diagnostics: [] };
}
