/**
 * What a server hands a model family's official chat template for a whole conversation, before the
 * template runs (the template itself is rendered elsewhere):
 *
 * - transformers: `apply_chat_template(messages, tools=tools, add_generation_prompt=True)` hands the
 *   template the messages and tools exactly as given, with `documents=None`;
 * - vLLM (`/v1/chat/completions`, HF renderer): the request body validated as a
 *   `ChatCompletionRequest` (pydantic, vLLM's validators), then `parse_chat_messages` (content in the
 *   template's content format, reasoning, tool calls, names) and `_postprocess_messages` (arguments
 *   `json.loads`ed), the tools as `[tool.model_dump() for tool in request.tools]`, and only
 *   `add_generation_prompt=True` as a template keyword.
 *
 * Every vLLM rewrite that changes what the template sees is one warning at the JSON Pointer of what
 * changed, in the caller's document (one per message or tool per rule). A request vLLM refuses
 * throws one CompileError (`conversation/refused`) whose message ends with vLLM's own text
 * (`ValidationError: …`, `VLLMValidationError: …`, `ValueError: …`) where it is reproduced exactly;
 * where pydantic's text cannot be (it counts the errors of every member of the message union), the
 * message says so. The rules are those of ../shared/oracles/family-conversations/README.md ("What
 * vLLM does to the request before the template"), read against vLLM's chat_completion/protocol.py
 * and entrypoints/chat_utils.py. Special tokens (`bos_token`, …) are the tokenizer's, not the
 * server's: they are not among the keywords returned here.
 *
 * Not modelled: which member of the message union pydantic picks (the keys are read from the message
 * as sent, as the oracle's derivation reads them), vLLM's multimodal parser (media parts are refused
 * as not emulated), and the tool-call parser flags (`--enable-auto-tool-choice` is assumed on).
 */
import { CompileError, type Diagnostic } from '../diagnostics.js';
import { PythonException } from '../emit/python/json-loads.js';
import { pyReprString, pyType } from '../emit/python/values.js';
import { escapePointerToken, isJsonArray, isJsonObject, JsonNumber, type JsonObject, type JsonValue } from '../ir/json.js';
import { pyJsonLoads } from './template.js';

/** The servers whose template input this module builds. */
export type TemplateServerName = 'transformers' | 'vllm';

/** How message content reaches the template: `string` (text joined) or `openai` (a list of `{type, text}` parts), as vLLM's `--chat-template-content-format` resolves it. */
export type TemplateContentFormat = 'string' | 'openai';

/** A Chat Completions request as a template server reads it: its messages and tools (lossless), and where they sit in the caller's document. */
export interface TemplateServerInput {
  /** The request's `messages`, as given. */
  readonly messages: JsonValue;
  /** The request's `tools`, as given; undefined when the request has none. */
  readonly tools?: JsonValue;
  /** JSON Pointer of `messages` in the caller's document (default `/messages`). */
  readonly messagesPointer?: string;
  /** Each message's own JSON Pointer, when the messages do not sit at `<messagesPointer>/<index>` (e.g. converted from another shape); a field's pointer is its key under the message's. */
  readonly messagePointers?: readonly string[];
  /** JSON Pointer of `tools` in the caller's document (default `/tools`). */
  readonly toolsPointer?: string;
}

/** What the server hands the template: `messages`, `tools` (null when none), the other keywords, and what it rewrote on the way. */
export interface TemplateServerOutput {
  readonly messages: JsonValue;
  readonly tools: JsonValue;
  /** Template keywords besides messages and tools (`add_generation_prompt`, …), in the order the server passes them. */
  readonly kwargs: ReadonlyMap<string, JsonValue>;
  readonly diagnostics: Diagnostic[];
}

/** The `messages`, `tools` and keywords a server hands the chat template for a request; throws a CompileError (`conversation/refused`, the server's text) where the server refuses it. */
export function templateServerInput(server: TemplateServerName, input: TemplateServerInput, contentFormat: TemplateContentFormat): TemplateServerOutput {
  return server === 'transformers' ? transformersInput(input) : vllmInput(input, contentFormat);
}

// ---------------------------------------------------------------------------------------
// transformers

/** transformers' `apply_chat_template`: `render(messages=…, tools=…, documents=None, add_generation_prompt=True)`, nothing converted. */
function transformersInput(input: TemplateServerInput): TemplateServerOutput {
  return {
    messages: input.messages,
    tools: input.tools ?? null,
    kwargs: new Map<string, JsonValue>([
      ['add_generation_prompt', true],
      // render_jinja_template passes documents=documents (None when not given)
      ['documents', null],
    ]),
    diagnostics: [],
  };
}

// ---------------------------------------------------------------------------------------
// Small helpers

/** `base` followed by reference tokens. */
function at(base: string, ...tokens: readonly (string | number)[]): string {
  return base + tokens.map((t) => `/${escapePointerToken(String(t))}`).join('');
}

/** A JSON object from entries, in order. */
function object(entries: readonly (readonly [string, JsonValue])[]): JsonObject {
  return new Map(entries);
}

/** Structural equality that also compares key order (what a template's `tojson` or `items()` sees). */
function sameJson(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (a instanceof JsonNumber) return b instanceof JsonNumber && a.text === b.text;
  if (isJsonArray(a)) return isJsonArray(b) && a.length === b.length && a.every((x, k) => sameJson(x, b[k]));
  if (isJsonObject(a)) {
    if (!isJsonObject(b) || a.size !== b.size) return false;
    const bk = [...b.keys()];
    return [...a].every(([k, x], i) => bk[i] === k && sameJson(x, b.get(k) as JsonValue));
  }
  return false;
}

/** Python's `x is None` for a key read with `.get()`: absent or null. */
const isNone = (v: JsonValue | undefined): v is null | undefined => v === undefined || v === null;

/** Python's type name of a value (`str`, `int`, `NoneType`, …). */
const pyTypeOf = (v: JsonValue | undefined): string => (v === undefined ? 'NoneType' : pyType(v));

/** A keyword's name in a message: `reasoning_content`, quoted for prose. */
const q = (k: string): string => `"${k}"`;

/** Diagnostics of one conversion. */
class Report {
  readonly diagnostics: Diagnostic[] = [];
  warn(code: string, path: string, message: string): void {
    this.diagnostics.push({ code, severity: 'warning', path, message });
  }
}

/** What a message or tool lost: keys with why, reported as one warning (at the key when there is one, else at the whole). */
class Dropped {
  private readonly items: { pointer: string; what: string }[] = [];
  add(pointer: string, what: string): void {
    this.items.push({ pointer, what });
  }
  report(report: Report, code: string, wholePointer: string, lead: string): void {
    if (this.items.length === 0) return;
    const path = this.items.length === 1 ? this.items[0].pointer : wholePointer;
    report.warn(code, path, `${lead}: ${this.items.map((i) => i.what).join('; ')}`);
  }
}

// ---------------------------------------------------------------------------------------
// Refusals

/** The prefix of every refusal message; the server's own text follows it. */
const REFUSED = 'vLLM refuses this request: ';

/** One pydantic error: its location (pydantic's `loc`, union members named) and message. */
interface PydanticError {
  readonly loc: readonly (string | number)[];
  readonly msg: string;
}

/** A refusal with vLLM's text. */
function refusal(path: string, text: string): CompileError {
  return new CompileError([{ code: 'conversation/refused', severity: 'error', path, message: REFUSED + text }]);
}

/** A pydantic ValidationError of the request, as the oracle writes it: count, model, the first error's dotted location and message. */
function validationError(path: string, errors: readonly PydanticError[]): CompileError {
  const n = errors.length;
  const first = errors[0];
  return refusal(path, `ValidationError: ${n} validation error${n === 1 ? '' : 's'} for ChatCompletionRequest; first: ${first.loc.join('.')}: ${first.msg}`);
}

/** A refusal by pydantic whose exact text is not reproduced here (its error count spans every member of the message union). */
function unionRefusal(path: string, why: string): CompileError {
  return refusal(path, `ValidationError (pydantic's validation of the messages; its exact text, which counts the errors of every message type, is not reproduced): ${why}`);
}

/** vLLM's own VLLMValidationError text: `message (parameter=…, value=…)`. */
function vllmValidationError(path: string, message: string, parameter?: string, value?: string): CompileError {
  const extras = [parameter !== undefined ? `parameter=${parameter}` : '', value !== undefined ? `value=${value}` : ''].filter(Boolean);
  return refusal(path, `VLLMValidationError: ${message}${extras.length ? ` (${extras.join(', ')})` : ''}`);
}

// ---------------------------------------------------------------------------------------
// pydantic, on the few types the request's messages and tools are validated against

const FIELD_REQUIRED = 'Field required';
const NOT_STRING = 'Input should be a valid string';
const NOT_DICT = 'Input should be a valid dictionary';

/** A required (or optional, None allowed when `nullable`) `str` field of a TypedDict or model. */
function strField(o: JsonObject, key: string, loc: readonly (string | number)[], errors: PydanticError[], required: boolean, nullable = false): void {
  const v = o.get(key);
  if (v === undefined) {
    if (required) errors.push({ loc: [...loc, key], msg: FIELD_REQUIRED });
  } else if (typeof v !== 'string' && !(nullable && v === null)) errors.push({ loc: [...loc, key], msg: NOT_STRING });
}

/** A required `Literal["…"]` field. */
function literalField(o: JsonObject, key: string, value: string, loc: readonly (string | number)[], errors: PydanticError[]): void {
  const v = o.get(key);
  if (v === undefined) errors.push({ loc: [...loc, key], msg: FIELD_REQUIRED });
  else if (v !== value) errors.push({ loc: [...loc, key], msg: `Input should be '${value}'` });
}

/** A required nested TypedDict field, its own fields checked by `inner`. */
function dictField(o: JsonObject, key: string, loc: readonly (string | number)[], errors: PydanticError[], inner: (v: JsonObject, loc: readonly (string | number)[]) => void): void {
  const v = o.get(key);
  if (v === undefined) errors.push({ loc: [...loc, key], msg: FIELD_REQUIRED });
  else if (!isJsonObject(v)) errors.push({ loc: [...loc, key], msg: NOT_DICT });
  else inner(v, [...loc, key]);
}

/**
 * One tool call against openai's `ChatCompletionMessageToolCallUnionParam` (function | custom): the
 * errors of both members, in field order (`id`, `function{arguments, name}`, `type`; `id`,
 * `custom{input, name}`, `type`), located under the member's name as pydantic writes them.
 */
function toolCallErrors(call: JsonValue, index: number): PydanticError[] {
  const fn: PydanticError[] = [];
  const custom: PydanticError[] = [];
  const fLoc = [index, 'ChatCompletionMessageFunctionToolCallParam'];
  const cLoc = [index, 'ChatCompletionMessageCustomToolCallParam'];
  if (!isJsonObject(call)) return [{ loc: fLoc, msg: NOT_DICT }, { loc: cLoc, msg: NOT_DICT }];
  strField(call, 'id', fLoc, fn, true);
  dictField(call, 'function', fLoc, fn, (f, l) => {
    strField(f, 'arguments', l, fn, true);
    strField(f, 'name', l, fn, true);
  });
  literalField(call, 'type', 'function', fLoc, fn);
  if (fn.length === 0) return [];
  strField(call, 'id', cLoc, custom, true);
  dictField(call, 'custom', cLoc, custom, (c, l) => {
    strField(c, 'input', l, custom, true);
    strField(c, 'name', l, custom, true);
  });
  literalField(call, 'type', 'custom', cLoc, custom);
  return custom.length === 0 ? [] : [...fn, ...custom];
}

/** pydantic's lax `bool`: true/false, 0/1, and the strings it recognises; otherwise which error. */
function laxBool(v: JsonValue): boolean | 'parsing' | 'type' {
  if (typeof v === 'boolean') return v;
  if (v instanceof JsonNumber) return v.value === 0 ? false : v.value === 1 ? true : 'parsing';
  if (typeof v === 'string') {
    const s = v.toLowerCase();
    if (['0', 'off', 'f', 'false', 'n', 'no'].includes(s)) return false;
    if (['1', 'on', 't', 'true', 'y', 'yes'].includes(s)) return true;
    return 'parsing';
  }
  return 'type';
}

/** A `bool | None` field: its errors, and its value as validated (null when absent or None). */
function optionalBool(o: JsonObject, key: string, loc: readonly (string | number)[], errors: PydanticError[]): boolean | null {
  const v = o.get(key);
  if (isNone(v)) return null;
  const b = laxBool(v);
  if (b === 'parsing') errors.push({ loc: [...loc, key], msg: 'Input should be a valid boolean, unable to interpret input' });
  else if (b === 'type') errors.push({ loc: [...loc, key], msg: 'Input should be a valid boolean' });
  return typeof b === 'boolean' ? b : null;
}

/** `tools: list[ChatCompletionToolsParam] | None`: every field error, in order (`type`, `function{name, description, parameters, strict, defer_loading}`, `defer_loading`). */
function toolsErrors(tools: JsonValue | undefined): PydanticError[] {
  const errors: PydanticError[] = [];
  if (isNone(tools)) return errors;
  if (!isJsonArray(tools)) return [{ loc: ['tools'], msg: 'Input should be a valid list' }];
  tools.forEach((t, i) => {
    const loc = ['tools', i];
    if (!isJsonObject(t)) {
      errors.push({ loc, msg: 'Input should be a valid dictionary or instance of ChatCompletionToolsParam' });
      return;
    }
    // type: Literal["function"] = "function"
    if (t.has('type') && t.get('type') !== 'function') errors.push({ loc: [...loc, 'type'], msg: "Input should be 'function'" });
    const fn = t.get('function');
    if (fn === undefined) errors.push({ loc: [...loc, 'function'], msg: FIELD_REQUIRED });
    else if (!isJsonObject(fn)) errors.push({ loc: [...loc, 'function'], msg: 'Input should be a valid dictionary or instance of FunctionDefinition' });
    else {
      const fl = [...loc, 'function'];
      strField(fn, 'name', fl, errors, true);
      strField(fn, 'description', fl, errors, false, true);
      const p = fn.get('parameters');
      if (!isNone(p) && !isJsonObject(p)) errors.push({ loc: [...fl, 'parameters'], msg: NOT_DICT });
      optionalBool(fn, 'strict', fl, errors);
      optionalBool(fn, 'defer_loading', fl, errors);
    }
    optionalBool(t, 'defer_loading', loc, errors);
  });
  return errors;
}

/** Content a message type accepts: a string or a list of parts (openai's `Iterable[…]`, validated lazily; vLLM's `list[…]`), and None where `nullable`. */
function contentOk(v: JsonValue | undefined, required: boolean, nullable: boolean): boolean {
  if (v === undefined) return !required;
  if (v === null) return nullable;
  return typeof v === 'string' || isJsonArray(v);
}

/** An optional `str` field (None allowed when `nullable`). */
const optStr = (v: JsonValue | undefined, nullable = false): boolean => v === undefined || typeof v === 'string' || (nullable && v === null);

/**
 * Why no member of vLLM's `ChatCompletionMessageParam` union accepts a message (openai's developer,
 * system, user, assistant, tool and function message params, vLLM's CustomChatCompletionMessageParam),
 * or undefined when one does. Only the fields that decide acceptance are checked; content parts
 * are checked later, as vLLM reads them.
 */
function unionProblem(m: JsonObject): string | undefined {
  const role = m.get('role');
  if (typeof role !== 'string') return role === undefined ? 'a message needs a "role"' : 'a message\'s "role" must be a string';
  const content = m.get('content');
  const name = m.get('name');
  const calls = m.get('tool_calls');
  // vLLM's CustomChatCompletionMessageParam (any role; content not None; tool_calls validated at once)
  const customOk =
    contentOk(content, false, false) &&
    optStr(name) &&
    optStr(m.get('tool_call_id'), true) &&
    (isNone(calls) || (isJsonArray(calls) && calls.every((c, k) => toolCallErrors(c, k).length === 0))) &&
    optStr(m.get('reasoning'), true) &&
    (isNone(m.get('tools')) || isJsonArray(m.get('tools'))) &&
    optStr(m.get('task'), true);
  if (customOk) return undefined;
  let own: string | undefined;
  switch (role) {
    case 'developer':
    case 'system':
    case 'user':
      if (!contentOk(content, true, false)) own = `a ${role} message needs content: a string or a list of parts${content === null ? ' (null is accepted only on assistant messages)' : ''}`;
      else if (!optStr(name)) own = '"name" must be a string';
      break;
    case 'assistant':
      if (!contentOk(content, false, true)) own = 'content must be a string, a list of parts or null';
      else if (!optStr(name)) own = '"name" must be a string';
      else if (!optStr(m.get('refusal'), true)) own = '"refusal" must be a string or null';
      // openai's `tool_calls: Iterable[…]` is not Optional; vLLM's message type takes null, but not null content
      else if (calls === null) own = 'tool_calls null is accepted only beside non-null content (openai\'s assistant message type wants a list, vLLM\'s own type refuses content null)';
      break;
    case 'tool':
      if (!contentOk(content, true, false)) own = `a tool message needs content: a string or a list of parts${content === null ? ', not null' : ''}`;
      else if (typeof m.get('tool_call_id') !== 'string') own = 'tool_call_id must be a string';
      break;
    case 'function':
      if (!contentOk(content, true, true)) own = 'a function message needs content: a string or null';
      else if (typeof name !== 'string') own = 'a function message needs a string "name"';
      break;
    default:
      own = 'no message type accepts it';
  }
  return own;
}

// ---------------------------------------------------------------------------------------
// Content parts (chat_utils._parse_chat_message_content_part)

/** Part types vLLM's `MM_PARSER_MAP` reads, plus text and refusal: the list its "Unsupported chat content part type" error prints. */
const SUPPORTED_PART_TYPES = [
  'audio_embeds',
  'audio_url',
  'image_embeds',
  'image_pil',
  'image_url',
  'input_audio',
  'input_image',
  'input_text',
  'output_text',
  'prompt_embeds',
  'refusal',
  'text',
  'thinking',
  'tool_reference',
  'video_url',
];
/** The part types that carry text, and the key it is read from. */
const TEXT_PART_KEY: Readonly<Record<string, string>> = { text: 'text', input_text: 'text', output_text: 'text', refusal: 'refusal', thinking: 'thinking' };
/** Keys that make a part without `type` (or with a `uuid`) a media part (chat_utils: image_url, image_pil, …). */
const MEDIA_KEYS = ['image_url', 'image_pil', 'image_embeds', 'audio_embeds', 'prompt_embeds', 'audio_url', 'input_audio', 'video_url'];

/** One parsed part: text (its value as vLLM read it), a tool reference, or nothing (skipped). */
type ParsedPart = { readonly kind: 'text'; readonly text: JsonValue } | { readonly kind: 'tool_reference'; readonly name: JsonValue } | { readonly kind: 'skipped'; readonly why: string };

/** A media part: vLLM hands it to its multimodal parser, which this module does not emulate. */
function mediaRefusal(path: string, type: string): CompileError {
  return refusal(path, `a "${type}" content part goes to vLLM's multimodal parser (placeholders, media loading), which is not emulated here: only text-only conversations are supported`);
}

/** `_parse_chat_message_content_mm_part` and `_parse_chat_message_content_part` on one part. */
function parsePart(part: JsonValue, path: string): ParsedPart {
  // plain text parts (a bare string)
  if (typeof part === 'string') return { kind: 'text', text: part };
  if (!isJsonObject(part)) throw unionRefusal(path, `a content part must be an object or a string, not ${pyTypeOf(part)}`);
  const type = part.get('type');
  const uuid = part.get('uuid');
  if (typeof type === 'string' && SUPPORTED_PART_TYPES.includes(type) && isNone(uuid)) {
    if (type === 'tool_reference') return { kind: 'tool_reference', name: part.get('name') ?? null };
    const key = TEXT_PART_KEY[type];
    if (key === undefined) throw mediaRefusal(path, type);
    const text = part.get(key) ?? null;
    // PART_TYPES_TO_SKIP_NONE_CONTENT: a text or refusal part without its text is skipped
    if (text === null && (type === 'text' || type === 'refusal')) return { kind: 'skipped', why: `a "${type}" part without ${q(key)} is skipped by vLLM` };
    return { kind: 'text', text };
  }
  // no type (or a uuid): told apart by its keys
  if (isNone(type) || !isNone(uuid)) {
    for (const k of MEDIA_KEYS) if (part.has(k) && !(k === 'input_audio' && part.get(k) === null)) throw mediaRefusal(path, k);
    if (part.has('tool_reference')) return { kind: 'tool_reference', name: part.get('name') ?? null };
    throw refusal(path, "ValueError: Missing 'type' field in multimodal part.");
  }
  if (typeof type !== 'string') throw refusal(path, "ValueError: Invalid 'type' field in multimodal part.");
  throw vllmValidationError(path, `Unsupported chat content part type: ${pyReprString(type)}. Supported types: ${SUPPORTED_PART_TYPES.join(', ')}.`, 'type', type);
}

/** Python's `"\n".join(texts)`: a TypeError (vLLM answers it as an error) when an item is not a str. */
function joinTexts(texts: readonly JsonValue[], path: string): string {
  const bad = texts.findIndex((t) => typeof t !== 'string');
  if (bad >= 0) throw refusal(path, `TypeError: sequence item ${bad}: expected str instance, ${pyTypeOf(texts[bad])} found`);
  return texts.join('\n');
}

// ---------------------------------------------------------------------------------------
// vLLM

/** Keys vLLM's conversion reads from a message; every other key never reaches the template. */
const READ_KEYS = new Set(['role', 'content', 'name', 'tool_call_id', 'tool_calls', 'reasoning', 'reasoning_content', 'task', 'tools']);

/** vLLM's preprocessing of a Chat Completions request for an HF chat template. */
function vllmInput(input: TemplateServerInput, format: TemplateContentFormat): TemplateServerOutput {
  const mp = input.messagesPointer ?? '/messages';
  const tp = input.toolsPointer ?? '/tools';
  const pointerOf = (i: number): string => input.messagePointers?.[i] ?? at(mp, i);
  const report = new Report();
  const tools = input.tools;

  // --- request validation: vLLM's "before" validators, pydantic's field validation, the "after" validator

  // check_tool_usage: an empty tools array is refused
  if (isJsonArray(tools) && tools.length === 0) throw vllmValidationError(tp, '`tools` must not be an empty array. Either provide at least one tool or omit the field entirely.', 'tools');
  if (!isJsonArray(input.messages)) throw unionRefusal(mp, 'messages must be a list');
  // _normalize_messages_before: tool_calls that are not a list are made one with list(); reasoning_content renamed (below)
  const messages = input.messages.map((m, i) => {
    if (!isJsonObject(m)) return m;
    const calls = m.get('tool_calls');
    if (isNone(calls) || isJsonArray(calls)) return m;
    const p = at(pointerOf(i), 'tool_calls');
    if (typeof calls === 'string') return new Map([...m, ['tool_calls', [...calls]]]);
    if (isJsonObject(calls)) return new Map([...m, ['tool_calls', [...calls.keys()]]]);
    throw refusal(p, `TypeError: '${pyTypeOf(calls)}' object is not iterable`);
  });
  // field validation: every message against the message union, then the tools (messages come first in the model)
  messages.forEach((m, i) => {
    const problem = isJsonObject(m) ? unionProblem(normalizedReasoning(m)) : `a message must be an object, not ${pyTypeOf(m)}`;
    if (problem !== undefined) throw unionRefusal(pointerOf(i), `messages.${i}: ${problem}`);
  });
  const toolErrors = toolsErrors(tools);
  if (toolErrors.length) throw validationError(at(tp, ...toolErrors[0].loc.slice(1)), toolErrors);
  // _materialize_tool_calls_after: list() over each assistant message's tool_calls validates them one by one (openai's lazy
  // Iterable): the first bad call refuses the request with the errors of that call only
  messages.forEach((m, i) => {
    const calls = isJsonObject(m) && m.get('role') === 'assistant' ? m.get('tool_calls') : undefined;
    if (!isJsonArray(calls)) return;
    calls.forEach((c, k) => {
      const errors = toolCallErrors(c, k);
      if (errors.length) throw validationError(at(pointerOf(i), 'tool_calls', k), errors);
    });
  });

  // --- parse_chat_messages: one template message per request message
  const out: JsonValue[] = [];
  const wrapped: number[] = [];
  messages.forEach((raw, i) => {
    const m = raw as JsonObject;
    const p = pointerOf(i);
    const role = m.get('role') as string;
    const dropped = new Dropped();
    const msg = new Map<string, JsonValue>([['role', role]]);
    msg.set('content', convertContent(m, role, p, format, report, wrapped, i));

    // _normalize_messages_before: reasoning_content is popped, and becomes reasoning when reasoning is None
    const rc = m.get('reasoning_content');
    const r = m.get('reasoning');
    const reasoning = !isNone(rc) && isNone(r) ? rc : r;
    if (role === 'assistant') {
      // tool_calls: the validated calls, `{id, function: {arguments, name}, type}` (pydantic's field order)
      const calls = m.get('tool_calls');
      if (isJsonArray(calls)) msg.set('tool_calls', calls.map((c, k) => validatedCall(c as JsonObject, at(p, 'tool_calls', k), dropped)));
      else if (calls === null) dropped.add(at(p, 'tool_calls'), 'tool_calls null is left out');
      // _parse_chat_message_content: an assistant's reasoning is set as both reasoning and reasoning_content (the latter "keep compatibility")
      if (!isNone(reasoning)) {
        msg.set('reasoning', reasoning);
        msg.set('reasoning_content', reasoning);
        if (!isNone(rc) && isNone(r)) report.warn('conversation/reasoning-content-renamed', at(p, 'reasoning_content'), 'reasoning_content is renamed "reasoning" by vLLM, and the template gets it as both "reasoning" and "reasoning_content"');
        else if (isNone(rc)) report.warn('conversation/reasoning-copied', at(p, 'reasoning'), 'vLLM hands "reasoning" to the template also as "reasoning_content"');
        else if (!sameJson(rc, r as JsonValue)) dropped.add(at(p, 'reasoning_content'), 'reasoning_content is replaced by "reasoning" (vLLM keeps "reasoning" when both are set)');
      } else {
        if (rc === null) dropped.add(at(p, 'reasoning_content'), 'reasoning_content null is left out');
        if (r === null) dropped.add(at(p, 'reasoning'), 'reasoning null is left out');
      }
    } else {
      if (m.has('tool_calls')) dropped.add(at(p, 'tool_calls'), `tool_calls are read only on assistant messages`);
      for (const k of ['reasoning', 'reasoning_content']) if (m.has(k)) dropped.add(at(p, k), `${k} is passed only on assistant messages`);
    }
    // tool messages keep tool_call_id (whatever its value)
    if (role === 'tool' && m.has('tool_call_id')) msg.set('tool_call_id', m.get('tool_call_id') as JsonValue);
    else if (m.has('tool_call_id')) dropped.add(at(p, 'tool_call_id'), 'tool_call_id is passed only on tool messages');
    // name and task are kept only when they are strings
    for (const k of ['name', 'task']) {
      const v = m.get(k);
      if (typeof v === 'string') msg.set(k, v);
      else if (v !== undefined) dropped.add(at(p, k), `${k} is passed only when it is a string`);
    }
    // a developer message always gets `tools` (None when it has none)
    if (role === 'developer') {
      msg.set('tools', m.get('tools') ?? null);
      if (!m.has('tools')) report.warn('conversation/field-added', p, 'vLLM adds "tools": null to a developer message');
    } else if (m.has('tools')) dropped.add(at(p, 'tools'), 'tools are passed only on developer messages');
    for (const k of m.keys()) if (!READ_KEYS.has(k)) dropped.add(at(p, k), `${q(k)} is not read`);
    out.push(msg);
    dropped.report(report, 'conversation/ignored-field', p, 'vLLM drops part of this message before the template');
  });
  if (wrapped.length) {
    const list = wrapped.length <= 8 ? wrapped.join(', ') : `${wrapped.slice(0, 8).join(', ')} and ${wrapped.length - 8} more`;
    report.warn('conversation/content-wrapped', mp, `the template's content format is "openai": vLLM hands string content as a list [{"type": "text", "text": …}] (messages ${list})`);
  }

  // --- _postprocess_messages: arguments json.loads'ed; an empty tool_calls list removed
  out.forEach((msg, i) => postprocess(msg as Map<string, JsonValue>, pointerOf(i), report));

  return {
    messages: out,
    tools: isJsonArray(tools) ? tools.map((t, i) => dumpTool(t as JsonObject, at(tp, i), report)) : null,
    // build_chat_params: add_generation_prompt, continue_final_message, documents, reasoning_effort; the None ones
    // (documents, reasoning_effort) and continue_final_message (not a template variable) never reach the template
    kwargs: new Map<string, JsonValue>([['add_generation_prompt', true]]),
    diagnostics: report.diagnostics,
  };
}

/** The message as pydantic validates it: `reasoning_content` renamed `reasoning` when `reasoning` is None (`_normalize_messages_before`). */
function normalizedReasoning(m: JsonObject): JsonObject {
  const rc = m.get('reasoning_content');
  if (!m.has('reasoning_content')) return m;
  const n = new Map(m);
  n.delete('reasoning_content');
  if (!isNone(rc) && isNone(m.get('reasoning'))) n.set('reasoning', rc);
  return n;
}

/**
 * A message's content as vLLM hands it to the template: parsed part by part
 * (`_parse_chat_message_content_parts`), then `string` joins the texts with "\n" and `openai` keeps
 * `{type: "text", text}` dicts; a tool message's content is always a string.
 */
function convertContent(m: JsonObject, role: string, p: string, format: TemplateContentFormat, report: Report, wrapped: number[], index: number): JsonValue {
  const content = m.get('content');
  const cp = at(p, 'content');
  // content None → no parts; a string → one text part
  const parts: { part: JsonValue; pointer: string }[] = isNone(content) ? [] : typeof content === 'string' ? [{ part: object([['type', 'text'], ['text', content]]), pointer: cp }] : (content as readonly JsonValue[]).map((part, k) => ({ part, pointer: at(cp, k) }));
  const parsed: Exclude<ParsedPart, { kind: 'skipped' }>[] = [];
  for (const { part, pointer } of parts) {
    const r = parsePart(part, pointer);
    if (r.kind === 'skipped') report.warn('conversation/content-part-dropped', pointer, r.why);
    else parsed.push(r);
  }
  const none = isNone(content);
  const noneWhat = content === null ? 'content null' : 'a message without content';
  if (format === 'string') {
    // wrap_dicts=False: texts (a tool reference by its name) joined with "\n"
    const text = joinTexts(parsed.map((x) => (x.kind === 'text' ? x.text : x.name)), cp);
    if (none) report.warn('conversation/content-null', content === null ? cp : p, `${noneWhat} is handed to the template as "" (vLLM's "string" content format)`);
    else if (isJsonArray(content)) report.warn('conversation/content-flattened', cp, `the ${content.length} content part${content.length === 1 ? '' : 's'} reach the template as one string, texts joined with "\\n" (vLLM's "string" content format)`);
    return text;
  }
  // wrap_dicts=True: {"type": "text", "text"} dicts, a tool reference as {"type": "tool_reference", "name"}
  const dicts: JsonValue[] = parsed.map((x) => (x.kind === 'text' ? object([['type', 'text'], ['text', x.text]]) : object([['type', 'tool_reference'], ['name', x.name]])));
  if (role === 'tool') {
    // tool messages: text parts joined with "\n" into a string, unless a part is not text (kept as the list)
    if (dicts.some((d) => (d as JsonObject).get('type') !== 'text')) return dicts;
    const text = joinTexts(dicts.map((d) => (d as JsonObject).get('text') ?? ''), cp);
    if (none) report.warn('conversation/content-null', content === null ? cp : p, `${noneWhat} of a tool message is handed to the template as ""`);
    else if (isJsonArray(content)) report.warn('conversation/content-flattened', cp, `the ${content.length} content part${content.length === 1 ? '' : 's'} of a tool message reach the template as one string, texts joined with "\\n" (vLLM joins tool results)`);
    return text;
  }
  if (none) report.warn('conversation/content-null', content === null ? cp : p, `${noneWhat} is handed to the template as [] (vLLM's "openai" content format)`);
  else if (typeof content === 'string') wrapped.push(index);
  else if (!sameJson(content as JsonValue, dicts)) report.warn('conversation/content-parts-rewritten', cp, 'the content parts reach the template rewritten as vLLM reads them: {"type": "text", "text"} dicts only (other keys dropped, text-like parts and bare strings made text parts, parts without text skipped)');
  return dicts;
}

/** A tool call as pydantic validated it: `{id, function: {arguments, name}, type}` (a custom call `{id, custom: {input, name}, type}`), other keys dropped. */
function validatedCall(c: JsonObject, p: string, dropped: Dropped): JsonObject {
  if (c.get('type') === 'custom') {
    // openai's custom tool call type validated it (the function type did not)
    const custom = c.get('custom') as JsonObject;
    return object([['id', c.get('id') as string], ['custom', object([['input', custom.get('input') as string], ['name', custom.get('name') as string]])], ['type', 'custom']]);
  }
  const fn = c.get('function') as JsonObject;
  for (const k of c.keys()) if (!['id', 'function', 'type'].includes(k)) dropped.add(at(p, k), `the tool call's ${q(k)} is not a field of openai's tool call type`);
  for (const k of fn.keys()) if (!['arguments', 'name'].includes(k)) dropped.add(at(p, 'function', k), `the tool call's function.${k} is not a field of openai's tool call type`);
  return object([
    ['id', c.get('id') as string],
    ['function', object([['arguments', fn.get('arguments') as string], ['name', fn.get('name') as string]])],
    ['type', 'function'],
  ]);
}

/** `_postprocess_messages` on one message: an empty tool_calls list removed, every arguments string `json.loads`ed ({} when it is not JSON). */
function postprocess(msg: Map<string, JsonValue>, p: string, report: Report): void {
  const calls = msg.get('tool_calls');
  if (msg.get('role') !== 'assistant' || !isJsonArray(calls)) return;
  if (calls.length === 0) {
    // "Drop empty tool_calls to keep templates on the normal assistant path."
    msg.delete('tool_calls');
    report.warn('conversation/ignored-field', at(p, 'tool_calls'), 'an empty tool_calls list is removed by vLLM: the template sees no tool_calls');
    return;
  }
  const parsed = calls.map((c, k) => {
    const call = c as JsonObject;
    // `item["function"]` on a custom tool call: a KeyError, which vLLM answers as a server error
    if (!call.has('function')) throw refusal(at(p, 'tool_calls', k), "KeyError: 'function'");
    const fn = call.get('function') as JsonObject;
    const args = fn.get('arguments') as string;
    let value: JsonValue;
    try {
      value = pyJsonLoads(args);
    } catch (e) {
      // except json.JSONDecodeError: arguments = {} (valid JSON that is not an object is kept as json.loads made it);
      // any other exception (RecursionError, ValueError) fails the request
      if (!(e instanceof PythonException)) throw e;
      if (e.type !== 'JSONDecodeError') throw refusal(at(p, 'tool_calls', k, 'function', 'arguments'), `${e.type}: ${e.detail}`);
      report.warn('conversation/arguments-replaced', at(p, 'tool_calls', k, 'function', 'arguments'), `the arguments are not JSON (json.loads: ${e.detail}): vLLM hands the template {} instead`);
      value = new Map();
    }
    return object([['id', call.get('id') as JsonValue], ['function', object([['arguments', value], ['name', fn.get('name') as JsonValue]])], ['type', call.get('type') as JsonValue]]);
  });
  msg.set('tool_calls', parsed);
  report.warn('conversation/arguments-parsed', at(p, 'tool_calls'), `vLLM hands the template ${calls.length === 1 ? 'the tool call' : `the ${calls.length} tool calls`} as {"id", "function": {"arguments": <the JSON-decoded arguments, not a string>, "name"}, "type"}`);
}

/** `ChatCompletionToolsParam.model_dump()`: `{type, function: {name, description, parameters, strict?, defer_loading?}, defer_loading?}`, other keys dropped, missing description/parameters null. */
function dumpTool(t: JsonObject, p: string, report: Report): JsonObject {
  const fn = t.get('function') as JsonObject;
  const fp = at(p, 'function');
  const dropped = new Dropped();
  const defaulted: string[] = [];
  const noErrors: PydanticError[] = [];
  // FunctionDefinition: strict and defer_loading kept only when not None; the tool's defer_loading is copied
  // into the function when the function has none (_propagate_defer_loading)
  const strict = optionalBool(fn, 'strict', [], noErrors);
  const toolDefer = optionalBool(t, 'defer_loading', [], noErrors);
  const fnDefer = optionalBool(fn, 'defer_loading', [], noErrors) ?? toolDefer;
  const f = new Map<string, JsonValue>([
    ['name', fn.get('name') as string],
    ['description', fn.get('description') ?? null],
    ['parameters', fn.get('parameters') ?? null],
  ]);
  if (strict !== null) f.set('strict', strict);
  if (fnDefer !== null) f.set('defer_loading', fnDefer);
  const tool = new Map<string, JsonValue>([
    ['type', 'function'],
    ['function', f],
  ]);
  if (toolDefer !== null) tool.set('defer_loading', toolDefer);
  // what the dump changed
  for (const k of t.keys()) if (!tool.has(k)) dropped.add(at(p, k), `${q(k)} is not a field of vLLM's tool type`);
  for (const k of fn.keys()) if (!f.has(k)) dropped.add(at(fp, k), fn.get(k) === null ? `function.${k} null is left out` : `function.${k} is not a field of vLLM's function definition`);
  dropped.report(report, 'conversation/ignored-field', p, "vLLM's tool dump drops part of this tool");
  if (!t.has('type')) defaulted.push('"type": "function" is added');
  for (const k of ['description', 'parameters']) if (!fn.has(k)) defaulted.push(`function.${k} is added as null`);
  if (defaulted.length) report.warn('conversation/tool-defaulted', t.has('type') ? fp : p, `vLLM's tool dump fills in defaults: ${defaulted.join('; ')}`);
  const coerced = (['strict', 'defer_loading'] as const).filter((k) => !isNone(fn.get(k)) && typeof fn.get(k) !== 'boolean');
  const kept = (from: JsonObject, to: JsonObject) => [...from.keys()].filter((k) => to.has(k)).join(',') === [...to.keys()].filter((k) => from.has(k)).join(',');
  const rewritten: string[] = [];
  if (!kept(t, tool) || !kept(fn, f)) rewritten.push('its keys are put in the order type, function{name, description, parameters, strict, defer_loading}');
  if (coerced.length || (!isNone(t.get('defer_loading')) && typeof t.get('defer_loading') !== 'boolean')) rewritten.push('boolean fields given as numbers or strings become true/false');
  if (toolDefer !== null && isNone(fn.get('defer_loading'))) rewritten.push("the tool's defer_loading is copied into the function");
  if (rewritten.length) report.warn('conversation/tool-rewritten', p, `vLLM's tool dump rewrites this tool: ${rewritten.join('; ')}`);
  return tool;
}
