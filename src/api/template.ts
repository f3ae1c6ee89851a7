/**
 * Prompts made by running a chat template: a family's official template (`--model`) or any
 * template a user brings (`--template`), over the tools and a whole conversation, as a server
 * hands them to it (transformers: as given; vLLM: after its request preprocessing).
 */
import { CompileError, isCompileError, type Diagnostic } from '../diagnostics.js';
import { templateServerInput, type TemplateServerName } from '../conversation/template-servers.js';
import { toChatMessages, withInputPointers } from '../conversation/read.js';
import type { ConversationInput } from '../conversation/types.js';
import { firstLoneSurrogate, JinjaError, surrogateError } from '../emit/python/errors.js';
import type { PyDate } from '../emit/python/strings.js';
import { wrappedTool } from '../emit/xml/template.js';
import { isJsonArray, isJsonObject, parseJson, quoteJsonString, type JsonValue } from '../ir/json.js';
import { compileTemplate, detectContentFormat } from '../template/index.js';
import type { CompiledTools } from './compile.js';
import { pushAll } from '../ir/arrays.js';

/** A template as the API takes it: its text, the special tokens it is given, and template kwargs. */
export interface TemplateSpec {
  /** The Jinja text of the template. */
  readonly text: string;
  /** A name for messages (`the llama-3.1 chat template`, or the file's name). */
  readonly name?: string;
  /** Special tokens handed to the template as variables (`bos_token`, `eos_token`…). */
  readonly special?: Readonly<Record<string, string>>;
  /** Template kwargs (`enable_thinking`, `reasoning_effort`…), as JSON values. */
  readonly kwargs?: ReadonlyMap<string, JsonValue>;
  /** A warning said whenever vLLM renders it (what a default server does instead). */
  readonly vllmNote?: string;
}

/** The servers that hand a conversation to a chat template of a family. */
export type TemplateServer = TemplateServerName;

/** Everything a template render takes. */
export interface TemplateRenderInput {
  readonly template: TemplateSpec;
  readonly tools: CompiledTools;
  /** The conversation, when there is one; without it, one user message `hi` (the oracles' first turn). */
  readonly conversation?: ConversationInput;
  /** A first system message, when a non-empty string. */
  readonly instructions?: string;
  /** `transformers` (default: as given) or `vllm` (its request preprocessing first). */
  readonly server?: TemplateServer;
  /** `add_generation_prompt` (default true). */
  readonly addGenerationPrompt?: boolean;
  /** Today for `strftime_now` (default: today). */
  readonly date?: PyDate;
  /** Check the prompt against the messages for what the template loses (default true). */
  readonly findings?: boolean;
  /**
   * How "no tools" reaches the template: `none` (default: None, as transformers hands it) or
   * `empty list` (`[]`: what the catalog span falls back to when the template raises on None,
   * as Command R+'s loop over the tools does).
   */
  readonly noToolsAs?: 'none' | 'empty list';
}

/** A template's prompt and what was noticed. */
export interface TemplatePrompt {
  readonly text: string;
  readonly diagnostics: readonly Diagnostic[];
}

/** A string-keyed map of JSON values, in order. */
function obj(entries: [string, JsonValue][]): Map<string, JsonValue> {
  return new Map(entries);
}

/** The messages and their pointers: the conversation as Chat Completions messages, or one user message `hi`, after a system message with the instructions. */
function chatMessages(input: TemplateRenderInput): { messages: JsonValue[]; pointers: string[]; diagnostics: Diagnostic[]; moved?: ReadonlyMap<string, string> } {
  const messages: JsonValue[] = [];
  const pointers: string[] = [];
  const diagnostics: Diagnostic[] = [];
  let moved: ReadonlyMap<string, string> | undefined;
  if (typeof input.instructions === 'string' && input.instructions !== '') {
    messages.push(obj([['role', 'system'], ['content', input.instructions]]));
    pointers.push('/instructions');
  }
  if (input.conversation === undefined || input.conversation.items.length === 0 && input.conversation.instructions === undefined) {
    messages.push(obj([['role', 'user'], ['content', 'hi']]));
    pointers.push('');
  } else {
    const chat = toChatMessages(input.conversation);
    pushAll(messages, chat.messages);
    pushAll(pointers, chat.pointers);
    pushAll(diagnostics, chat.diagnostics);
    moved = chat.moved;
  }
  return { messages, pointers, diagnostics, ...(moved !== undefined ? { moved } : {}) };
}

/** The label of a template in messages. */
function labelOf(t: TemplateSpec): string {
  return t.name ?? 'the chat template';
}

/** Render a template over the tools and the conversation, as the server hands them to it. Throws a CompileError where the template (or the server) refuses. */
export function renderWithTemplate(input: TemplateRenderInput): TemplatePrompt {
  const server = input.server ?? 'transformers';
  const compiled = compileOrFail(input.template);
  const { messages, pointers, diagnostics: converted, moved } = chatMessages(input);
  const diagnostics: Diagnostic[] = [];
  const tools: JsonValue = input.tools.definitions.length ? wrappedTools(input.tools) : input.noToolsAs === 'empty list' ? [] : null;
  const handed = templateServerInput(
    server,
    { messages, ...(tools !== null ? { tools } : {}), messagePointers: pointers },
    server === 'vllm' ? detectContentFormat(compiled.ast) : 'string',
  );
  pushAll(diagnostics, handed.diagnostics);
  if (server === 'vllm' && input.template.vllmNote !== undefined) diagnostics.push({ code: 'server/tokenizer-mode', severity: 'warning', path: '', message: input.template.vllmNote });
  const vars = new Map<string, JsonValue>();
  for (const [k, v] of Object.entries(input.template.special ?? {})) vars.set(k, v);
  vars.set('messages', handed.messages);
  vars.set('tools', handed.tools);
  for (const [k, v] of handed.kwargs) vars.set(k, v);
  vars.set('add_generation_prompt', input.addGenerationPrompt ?? true);
  for (const [k, v] of input.template.kwargs ?? []) vars.set(k, v);
  let text: string;
  try {
    text = compiled.render(vars, input.date !== undefined ? { today: input.date } : {});
  } catch (e) {
    if (e instanceof JinjaError) throw templateFails(input, e);
    throw e;
  }
  const s = firstLoneSurrogate(text);
  if (s !== undefined) throw new CompileError([{ code: 'template/fails', severity: 'error', path: '', message: `${labelOf(input.template)}'s prompt holds a lone surrogate (U+${s.codePoint.toString(16).toUpperCase()}), which cannot be written as UTF-8 (Python: ${surrogateError(s.codePoint, s.position).text})` }]);
  if (input.conversation !== undefined && input.findings !== false) pushAll(diagnostics, templateFindings((v) => compiled.render(v, input.date !== undefined ? { today: input.date } : {}), vars, text, pointers, labelOf(input.template)));
  // the server and the template read converted messages: their findings point where the input has each field
  return { text, diagnostics: [...converted, ...withInputPointers(diagnostics, moved)] };
}

/** The tools as a template reads them, `{"type": "function", "function": tool}` each, kept per compiled tool set (the engine's sandbox never changes them, and a server's preprocessing copies them). */
const WRAPPED = new WeakMap<CompiledTools, JsonValue[]>();

/** The wrapped tools of a compiled tool set, made once. */
function wrappedTools(c: CompiledTools): JsonValue[] {
  let w = WRAPPED.get(c);
  if (w === undefined) {
    w = c.definitions.map(wrappedTool);
    WRAPPED.set(c, w);
  }
  return w;
}

/** A marker no template prints by itself, numbered. */
function marker(n: number): string {
  return `\u27e6hc${n}\u27e7`;
}

/** A copy of a JSON object with one key set. */
function withKey(m: JsonValue, key: string, value: JsonValue): JsonValue {
  if (!isJsonObject(m)) return m;
  const out = new Map(m);
  out.set(key, value);
  return out;
}

/** The template run again on changed messages: its text, or undefined when it raises on them (then nothing is concluded). */
type Rerender = (vars: ReadonlyMap<string, JsonValue>) => string;

/**
 * What the template lost or garbled of the conversation, found by checking the prompt against the
 * messages (any template, no table of quirks): a tool call whose name never reaches the prompt
 * (the call is rendered again under a marker name), arguments printed double-encoded (the
 * arguments string appears as a JSON string literal), reasoning that never reaches the prompt, a
 * `null` content printed as Python's `None`, and a tool result whose call is not shown.
 */
export function templateFindings(rerender: Rerender, vars: ReadonlyMap<string, JsonValue>, text: string, pointers: readonly string[], label: string): Diagnostic[] {
  const messages = vars.get('messages');
  if (!isJsonArray(messages)) return [];
  const out: Diagnostic[] = [];
  const at = (i: number) => pointers[i] ?? `/messages/${i}`;
  const again = (changed: JsonValue[]): string | undefined => {
    const v = new Map(vars);
    v.set('messages', changed);
    try {
      return rerender(v);
    } catch {
      return undefined;
    }
  };
  // every call, every reasoning text and every null content under its own marker, one render each kind
  const calls: { i: number; j: number; id: JsonValue | undefined; mark: string; argsMark: string }[] = [];
  const reasonings: { i: number; key: string; mark: string }[] = [];
  const nulls: { i: number; mark: string }[] = [];
  let n = 0;
  const named = messages.map((m, i) => {
    const tc = isJsonObject(m) ? m.get('tool_calls') : undefined;
    if (!isJsonArray(tc) || !tc.length) return m;
    return withKey(m, 'tool_calls', tc.map((c, j) => {
      const fn = isJsonObject(c) ? c.get('function') : undefined;
      if (!isJsonObject(fn) || typeof fn.get('name') !== 'string') return c;
      const mark = marker(n++);
      const argsMark = marker(n++);
      calls.push({ i, j, id: isJsonObject(c) ? c.get('id') : undefined, mark, argsMark });
      const args = fn.get('arguments');
      if (typeof args === 'string' && /^\s*[{[]/.test(args) && text.includes(quoteJsonString(args))) {
        out.push({ code: 'template/arguments-double-encoded', severity: 'warning', path: `${at(i)}/tool_calls/${j}/function/arguments`, message: `${label} prints these arguments as a JSON string literal (double-encoded): it expects them as an object, and was given the JSON text` });
      }
      // the arguments under a marker of their own, in the form they came in (JSON text, or an object)
      const markedArgs: JsonValue = typeof args === 'string' ? `{${quoteJsonString(argsMark)}: ${quoteJsonString(argsMark)}}` : isJsonObject(args) ? new Map([[argsMark, argsMark]]) : (args ?? null);
      return withKey(c, 'function', withKey(withKey(fn, 'name', mark), 'arguments', markedArgs));
    }));
  });
  const hidden = new Set<JsonValue>();
  if (calls.length) {
    const t = again(named);
    for (const c of t === undefined ? [] : calls) {
      const name = t!.includes(c.mark);
      const args = t!.includes(c.argsMark);
      if (name && args) continue;
      const path = `${at(c.i)}/tool_calls/${c.j}`;
      if (!name && !args) {
        if (c.id !== undefined) hidden.add(c.id);
        out.push({ code: 'template/call-not-shown', severity: 'warning', path, message: `${label} does not print this tool call: the model will not see that it made it` });
      } else if (!name) out.push({ code: 'template/call-name-not-shown', severity: 'warning', path: `${path}/function/name`, message: `${label} prints this call's arguments but not the tool's name: the model will not see which tool it called` });
      else out.push({ code: 'template/call-arguments-not-shown', severity: 'warning', path: `${path}/function/arguments`, message: `${label} prints this call's tool name but not its arguments` });
    }
  }
  const thought = messages.map((m, i) => {
    if (!isJsonObject(m) || m.get('role') !== 'assistant') return m;
    let x: JsonValue = m;
    for (const key of ['reasoning_content', 'reasoning']) {
      const r = m.get(key);
      if (typeof r !== 'string' || r.trim() === '') continue;
      const mark = marker(n++);
      reasonings.push({ i, key, mark });
      x = withKey(x, key, mark);
    }
    return x;
  });
  if (reasonings.length) {
    const t = again(thought);
    // a message with both fields loses only what neither prints
    const shown = new Set(reasonings.filter((r) => t !== undefined && t.includes(r.mark)).map((r) => r.i));
    const said = new Set<number>();
    for (const r of t === undefined ? [] : reasonings) {
      if (shown.has(r.i) || said.has(r.i)) continue;
      said.add(r.i);
      out.push({ code: 'template/reasoning-dropped', severity: 'warning', path: `${at(r.i)}/${r.key}`, message: `${label} does not print this reasoning: the model will not see it` });
    }
  }
  const blanked = messages.map((m, i) => {
    if (!isJsonObject(m) || !m.has('content') || m.get('content') !== null) return m;
    const mark = marker(n++);
    nulls.push({ i, mark });
    return withKey(m, 'content', mark);
  });
  if (nulls.length && text.includes('None')) {
    const t = again(blanked);
    if (t !== undefined) {
      for (const z of nulls) {
        if (t.includes(z.mark) && t.split(z.mark).join('None') === text) out.push({ code: 'template/none-printed', severity: 'warning', path: `${at(z.i)}/content`, message: `${label} prints this null content as Python's None` });
      }
    }
  }
  messages.forEach((m, i) => {
    if (!isJsonObject(m) || m.get('role') !== 'tool') return;
    const id = m.get('tool_call_id');
    if (id !== undefined && hidden.has(id)) out.push({ code: 'template/result-without-call', severity: 'warning', path: `${at(i)}`, message: `${label} does not print the call this tool result answers` });
  });
  return out;
}

/** The compiled template, or a CompileError quoting Jinja2's TemplateSyntaxError. */
function compileOrFail(t: TemplateSpec) {
  try {
    return compileTemplate(t.text);
  } catch (e) {
    if (e instanceof JinjaError) throw new CompileError([{ code: 'template/syntax', severity: 'error', path: '', message: `${labelOf(t)} cannot be compiled (Jinja2: ${e.text})` }]);
    throw e;
  }
}

/**
 * The CompileError for a template that raised, with where: the tool that makes it raise (the
 * template raises the same error with that tool alone and not without tools), else the first
 * message at which it raises (the same error on the conversation cut after that message), else the
 * whole input.
 */
function templateFails(input: TemplateRenderInput, error: JinjaError): CompileError {
  const same = (changed: TemplateRenderInput): boolean => {
    try {
      renderWithTemplate(changed);
      return false;
    } catch (e) {
      const d = e instanceof CompileError ? e.diagnostics[0] : undefined;
      return d !== undefined && d.message.endsWith(`(Jinja2: ${error.text})`);
    }
  };
  const noFindings = { ...input, findings: false };
  const defs = input.tools.definitions;
  let where: { tool?: string; path: string } = { path: '' };
  if (defs.length && !same({ ...noFindings, tools: { ...input.tools, definitions: [], lowered: [], tools: [] } })) {
    const i = defs.length === 1 ? 0 : defs.findIndex((d, k) => same({ ...noFindings, tools: { ...input.tools, definitions: [d], lowered: [input.tools.lowered[k]], tools: [input.tools.lowered[k]] } }));
    if (i >= 0) where = { tool: defs[i].name, path: defs[i].pointer };
  } else if (input.conversation !== undefined && input.conversation.items.length > 1) {
    const items = input.conversation.items;
    for (let k = 1; k < items.length; k++) {
      if (same({ ...noFindings, conversation: { ...input.conversation, items: items.slice(0, k), pointers: input.conversation.pointers.slice(0, k) } })) {
        where = { path: input.conversation.pointers[k - 1] ?? '' };
        break;
      }
    }
  }
  const onWhat = where.tool !== undefined ? ' on this tool' : where.path !== '' ? ' at this message' : '';
  return new CompileError([{ code: 'template/fails', severity: 'error', ...(where.tool !== undefined ? { tool: where.tool } : {}), path: where.path, message: `${labelOf(input.template)} fails${onWhat} (Jinja2: ${error.text})` }]);
}

/**
 * The tools' span of a template's prompt: the text the tools add (the prompt rendered with and
 * without them). Where the tools also change other places (Llama 3.1 adds `Environment: ipython`
 * to its system turn), the largest inserted piece is the catalog, and a warning says how many
 * other places change; where no piece was only inserted, the span from the first change to the last.
 * Where the template raises without tools (None), the prompt without them is rendered with `[]`.
 * `render` renders one prompt (default: the engine; a family passes its kept first-turn printer, byte-equal to it).
 */
export function templateCatalog(input: TemplateRenderInput, render: (input: TemplateRenderInput) => TemplatePrompt = renderWithTemplate): TemplatePrompt {
  if (input.tools.definitions.length === 0) return { text: '', diagnostics: [] };
  const withTools = render(input);
  const noTools: TemplateRenderInput = { ...input, tools: { ...input.tools, definitions: [], lowered: [], tools: [] } };
  let without: string;
  try {
    without = render(noTools).text;
  } catch (e) {
    if (!isCompileError(e)) throw e;
    // a template that raises without tools (it loops over None): the prompt with an empty list of them
    try {
      without = render({ ...noTools, noToolsAs: 'empty list' }).text;
    } catch {
      throw e;
    }
  }
  const a = withTools.text;
  let p = 0;
  while (p < a.length && p < without.length && a[p] === without[p]) p++;
  let s = 0;
  while (s < a.length - p && s < without.length - p && a[a.length - 1 - s] === without[without.length - 1 - s]) s++;
  const diagnostics: Diagnostic[] = [...withTools.diagnostics];
  if (without.length === p + s) {
    const [from, to] = placePiece(a, p, a.length - s);
    return { text: a.slice(from, to), diagnostics };
  }
  const pieces = insertedPieces(a.slice(p, a.length - s), without.slice(p, without.length - s));
  const label = labelOf(input.template);
  if (pieces === undefined || pieces.length === 0) {
    diagnostics.push({ code: 'template/catalog-span', severity: 'warning', path: '', message: `${label} rewrites the prompt when tools are given (no piece is only inserted): the catalog printed runs from the first change to the last` });
    return { text: a.slice(p, a.length - s), diagnostics };
  }
  const largest = pieces.reduce((x, y) => (y[1] - y[0] > x[1] - x[0] ? y : x));
  if (pieces.length > 1) diagnostics.push({ code: 'template/catalog-span', severity: 'warning', path: '', message: `${label} changes ${pieces.length} places of the prompt when tools are given: the catalog printed is the largest piece; the others (${pieces.filter((x) => x !== largest).map((x) => JSON.stringify(a.slice(p + x[0], p + x[1]).slice(0, 40))).join(', ')}) are not in it` });
  const [from, to] = placePiece(a, p + largest[0], p + largest[1]);
  return { text: a.slice(from, to), diagnostics };
}

/** Characters a piece of text does not start with: whitespace, and the closing half of a bracket or marker before it. */
const NOT_FIRST = /[\s>\]})]/;

/**
 * Where an inserted piece [from, to) of `text` stands. The same inserted text can often stand at
 * several places (slid left while the character before it equals its last one, or right while its
 * first equals the one after it: the text is the same); the place is the leftmost one whose piece
 * does not start with whitespace or a closing `>`, `]`, `}`, `)` (that character ends what comes
 * before it, as a header's blank line or `<sop>`'s `>`), else the leftmost one: a whole turn
 * inserted before another turn starts at its own opener.
 */
function placePiece(text: string, from: number, to: number): [number, number] {
  let f = from;
  let t = to;
  while (f > 0 && text[f - 1] === text[t - 1]) {
    f--;
    t--;
  }
  const leftmost: [number, number] = [f, t];
  for (;;) {
    if (!NOT_FIRST.test(text[f]!)) return [f, t];
    if (t >= text.length || text[f] !== text[t]) return leftmost;
    f++;
    t++;
  }
}

/** Where `withTools` inserts text into `without` (both the changed middles), line by line: [start, end) offsets in `withTools`; undefined when a line of `without` is not kept. */
function insertedPieces(withTools: string, without: string): [number, number][] | undefined {
  const out: [number, number][] = [];
  let cursor = 0;
  for (const line of without.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
    const at = withTools.indexOf(line, cursor);
    if (at < 0) return undefined;
    if (at > cursor) out.push([cursor, at]);
    cursor = at + line.length;
  }
  if (cursor < withTools.length) out.push([cursor, withTools.length]);
  return out;
}

/** The special-token keys of `tokenizer_config.json` transformers hands a template (its `special_tokens_map`). */
const SPECIAL_KEYS = ['bos_token', 'eos_token', 'unk_token', 'sep_token', 'pad_token', 'cls_token', 'mask_token'] as const;

/** The special tokens of a tokenizer config (`bos_token`…: a string, or an `{content}` object as newer configs write them). */
function specialTokensOf(config: ReadonlyMap<string, JsonValue>): Record<string, string> {
  const special: Record<string, string> = {};
  for (const k of SPECIAL_KEYS) {
    const v = config.get(k);
    const s = typeof v === 'string' ? v : isJsonObject(v) && typeof v.get('content') === 'string' ? (v.get('content') as string) : undefined;
    if (s !== undefined) special[k] = s;
  }
  return special;
}

/** The special tokens of a `tokenizer_config.json` text (none when it is not a JSON object). */
export function readConfigSpecialTokens(text: string): Record<string, string> {
  try {
    const config = parseJson(text.replace(/^\uFEFF/, ''));
    return isJsonObject(config) ? specialTokensOf(config) : {};
  } catch {
    return {};
  }
}

/** A usage-level error about a template file. */
function badTemplate(name: string, message: string): CompileError {
  return new CompileError([{ code: 'template/file', severity: 'error', path: '', message: `${name}: ${message}` }]);
}

/**
 * A template from the text of a file: a Jinja file as it is, or a JSON config
 * (`tokenizer_config.json`, `chat_template.json`) whose `chat_template` is a string or a list of
 * named templates (`[{name, template}]`); as transformers picks among named templates, `tool_use`
 * when tools are given and it exists, else `default`. Its special tokens (`bos_token`,
 * `eos_token`…: a string or an `{content}` object) come with it.
 */
export function readTemplateFile(text: string, name: string, options: { readonly toolsGiven: boolean }): TemplateSpec {
  const trimmed = text.replace(/^\uFEFF/, '');
  if (!/^\s*\{/.test(trimmed) || !/\.json$/i.test(name)) return { text: trimmed, name };
  let config: JsonValue;
  try {
    config = parseJson(trimmed);
  } catch (e) {
    throw badTemplate(name, `not JSON: ${(e as Error).message}`);
  }
  if (!isJsonObject(config)) throw badTemplate(name, 'a template config is a JSON object with a "chat_template" key');
  const special = specialTokensOf(config);
  const ct = config.get('chat_template');
  if (typeof ct === 'string') return { text: ct, name, special };
  if (isJsonArray(ct)) {
    const named = new Map<string, string>();
    for (const [i, t] of ct.entries()) {
      const n = isJsonObject(t) ? t.get('name') : undefined;
      const body = isJsonObject(t) ? t.get('template') : undefined;
      if (typeof n !== 'string' || typeof body !== 'string') throw badTemplate(name, `chat_template/${i} is not {"name", "template"} with two strings`);
      named.set(n, body);
    }
    // transformers: `tool_use` when tools are given and it exists, else `default`
    const pick = options.toolsGiven && named.has('tool_use') ? 'tool_use' : 'default';
    const chosen = named.get(pick);
    if (chosen === undefined) throw badTemplate(name, `it has several chat templates (${[...named.keys()].join(', ')}) and none named "default" (transformers refuses it: "This model has multiple chat templates with no default specified!")`);
    return { text: chosen, name: `${name} (${pick})`, special };
  }
  throw badTemplate(name, ct === undefined ? 'it has no "chat_template"' : '"chat_template" is neither a string nor a list of named templates');
}
