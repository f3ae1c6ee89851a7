/**
 * The API layer: tools read and lowered once (`compileTools`), then printed per target and
 * assembled into messages and whole prompts. `src/index.ts` re-exports it; nothing here imports
 * the facade.
 */
import { CompileError, isCompileError, type Diagnostic } from '../diagnostics.js';
import { firstLoneSurrogate } from '../emit/python/errors.js';
import { defaultServer, type ConversationInput, type ServerFlavor, type ServerName } from '../conversation/index.js';
import { readRequestBody } from '../conversation/read.js';
import { emitOllamaToolsSection } from '../emit/ollama/catalog.js';
import { getKey, isJsonArray, isJsonObject, parseJson, type JsonValue } from '../ir/json.js';
import { asJson, chooseServer, readMessages, renderThroughServer, type ServerOptions } from './conversation.js';
import { emitChatTemplateNamespace, type ChatTemplateTool } from '../emit/chat-template/catalog.js';
import { renderJsdocDeveloperMessage, renderJsdocToolsSection } from '../emit/jsdoc/messages.js';
import { emitXmlCatalog, renderXmlPrompt, xmlFindings, type XmlDialect } from '../emit/xml/index.js';
import { renderChatTemplateDeveloper, renderChatTemplatePrompt, renderChatTemplateSystem } from '../messages/chat-template.js';
import { emitHarmonyToolsSection, type HarmonyNamespace } from '../emit/harmony/catalog.js';
import { emitFaithfulToolsSection } from '../emit/harmony/faithful.js';
import type { ControlTokenPolicy } from '../input/control-tokens.js';
import { cachedPrint, compileTools, NO_TOOLS, readToolsAt, type CompiledTools, type ToolsInput } from './compile.js';
import { controlSpellingsFor, messageControlWarnings } from './controls.js';
import type { IrTool } from '../ir/nodes.js';
import { lowerTool, type LowerLimits } from '../lower/index.js';
import { renderOllama } from '../conversation/ollama.js';
import { familyPrinter } from '../emit/families/registry.js';
import { resolveModel, withModel, type ModelName } from './models.js';
import type { MessagesInput, RequestInput } from './messages.js';
import { renderWithTemplate, templateCatalog, type TemplateRenderInput, type TemplateServer, type TemplateSpec } from './template.js';
import { TEMPLATE_OF_BUILTIN, type ModelFamily } from '../models/families.js';
import { TEMPLATES, type TemplateName } from '../models/templates/index.js';
import { familyDate } from '../emit/families/common.js';
import { checkOptions, completionRole } from './options.js';
import { BROWSER_DESCRIPTION, PYTHON_DESCRIPTION, browserTools } from '../messages/builtins.js';
import { renderConversation, type ConversationOptions } from '../messages/conversation.js';
import { renderHarmonyDeveloperContent } from '../messages/developer.js';
import { renderEnvelope, type HarmonyMessage } from '../messages/envelope.js';
import type { ResponseFormat } from '../messages/options.js';
import { renderHarmonySystemContent, type SystemMessageOptions } from '../messages/system.js';


/** A rendering and what was noticed on the way. */
export interface RenderResult {
  /** The text (for a message: its content, without the envelope). */
  readonly text: string;
  readonly diagnostics: readonly Diagnostic[];
}

/** A rendered message: its content, and the whole message with its envelope. */
export interface MessageResult extends RenderResult {
  /** `<|start|>{header}<|message|>{text}<|end|>`. */
  readonly message: string;
}

/** The gpt-oss layouts: OpenAI's reference (vLLM, TensorRT-LLM), the official chat template (transformers, llama.cpp, mlx-lm…), or Ollama's own template. */
export type Flavor = 'openai-harmony' | 'chat-template' | 'ollama';
/** What to print: the Harmony catalog (in a flavor), a JSDoc-style TypeScript catalog, or an XML catalog (in a dialect). */
export type Target = 'harmony' | 'jsdoc' | 'xml';
/** The flavors, targets and dialects, for validation. */
export const FLAVORS: readonly Flavor[] = ['openai-harmony', 'chat-template', 'ollama'];
export { SERVERS, MESSAGE_FORMATS, type ServerName, type MessageFormat } from '../conversation/index.js';
export const TARGETS: readonly Target[] = ['harmony', 'jsdoc', 'xml'];
export { XML_DIALECTS, type XmlDialect } from '../emit/xml/index.js';

/** Options that choose the printer. */
export interface TargetOptions {
  /**
   * One name for the printer and the whole prompt assembly (`harmony-catalog models` lists them):
   * `gpt-oss`, `gpt-oss-template`, `gpt-oss-ollama`, `qwen`, `qwen3-coder`, `hermes` stand for a
   * target/flavor/dialect; `llama-3.1`, `mistral-nemo`, `kimi-k2`, `glm-4.6`, `granite-4.0`… are the
   * other families' official chat templates. Any other string is resolved too (case-insensitive; a
   * Hugging Face id such as `Qwen/Qwen3-8B` names its family); an unknown name is a CompileError.
   */
  readonly model?: ModelName;
  /** Default `harmony`. */
  readonly target?: Target;
  /** For the harmony target. Default `openai-harmony`. */
  readonly flavor?: Flavor;
  /** For the xml target. Default `qwen`. */
  readonly dialect?: XmlDialect;
  /**
   * A chat template to run instead of a family's own: its Jinja text, the special tokens it is
   * given (`bos_token`…) and template kwargs (`enable_thinking: false`…). With `model`, the family's
   * special tokens and server notes apply to it; alone, any template renders.
   */
  readonly template?: TemplateOption;
}

/** A chat template as the API takes it (`readTemplateFile` reads one from a file's text). */
export interface TemplateOption {
  /** The template's Jinja text. */
  readonly text: string;
  /** A name for messages (default `the chat template`). */
  readonly name?: string;
  /** Special tokens handed to the template (`bos_token`, `eos_token`…). */
  readonly special?: Readonly<Record<string, string>>;
  /** Template kwargs, any JSON values (`enable_thinking`, `reasoning_effort`…). */
  readonly kwargs?: Readonly<Record<string, unknown>> | ReadonlyMap<string, unknown>;
}

/** Options for the tools section. */
export interface CatalogOptions extends TargetOptions {
  /**
   * `exact` (default) prints what the reference prints. `faithful` (openai-harmony flavor only)
   * keeps the Harmony layout but first rewrites what the reference would print as `any`
   * (refs inlined, anyOf → oneOf, allOf merged, const → enum, number enums as literals…), so
   * everything the schema says stays visible; the text parses as TypeScript.
   */
  readonly lowering?: 'exact' | 'faithful';
  /** The namespace of the tools. Default `functions`. */
  readonly namespace?: string;
  /** A description of that namespace (`// ` lines under its heading; openai-harmony flavor). */
  readonly namespaceDescription?: string;
  /** Lowering limits. */
  readonly limits?: Partial<LowerLimits>;
  /** Control-token spellings in tool text (`<|end|>`, `</tool_call>`…): `keep` (default, the reference bytes, a `security/control-token` warning), `escape` (`<\|end|>`), `error`. */
  readonly controlTokens?: ControlTokenPolicy;
}

/** Options for the developer message. */
export interface DeveloperMessageOptions extends CatalogOptions {
  /** `# Instructions` text (an empty string still writes the heading, except in the chat template, which skips empty instructions). */
  readonly instructions?: string;
  /** `# Response Formats` (beyond the reference; OpenAI's documented layout; openai-harmony flavor). */
  readonly responseFormats?: readonly ResponseFormat[];
}

/** Options for the system message. */
export interface SystemOptions extends SystemMessageOptions, TargetOptions {
  /** Add the builtin `browser` namespace. */
  readonly browser?: boolean;
  /** Add the builtin `python` namespace. */
  readonly python?: boolean;
  /** Write the routing line (set by renderPrompt when a `functions` namespace has tools). */
  readonly functionTools?: boolean;
}

export type { PromptMessage } from './messages.js';

/** Options for a whole prompt. */
export interface PromptOptions extends DeveloperMessageOptions, SystemOptions, ConversationOptions, ServerOptions {
  /** The function tools (any input shape). */
  readonly tools?: ToolsInput;
  /**
   * Conversation messages after the system and developer messages, in any shape `messageFormat`
   * allows (`PromptMessage`: Chat Completions, Responses, Anthropic, Harmony); values of another
   * type (JSON read at run time) are read and checked too.
   */
  readonly messages?: MessagesInput;
}

/** A whole prompt and its parts. */
export interface PromptResult extends RenderResult {
  /** The system message content. */
  readonly system: string;
  /** The developer message content, when there is one. */
  readonly developer?: string;
  /** The tools section, when there are tools. */
  readonly catalog?: string;
}

function functionsNamespace(tools: readonly IrTool[], options: CatalogOptions): HarmonyNamespace {
  return { name: options.namespace ?? 'functions', ...(options.namespaceDescription !== undefined ? { description: options.namespaceDescription } : {}), tools };
}

function pairs(c: CompiledTools): ChatTemplateTool[] {
  return c.definitions.map((def, i) => ({ def, ir: c.lowered[i] }));
}

function targetOf(o: TargetOptions & { lowering?: 'exact' | 'faithful' }): 'openai-harmony' | 'faithful' | 'chat-template' | 'ollama' | 'jsdoc' | 'xml' | 'family' | 'template' {
  if (o.template !== undefined) {
    if (o.lowering === 'faithful') throw new CompileError([{ code: 'usage/faithful', severity: 'error', path: '', message: 'faithful lowering keeps the openai-harmony layout; it does not apply to a template' }]);
    if (o.model !== undefined && resolveModel(o.model).kind !== 'family') throw new CompileError([{ code: 'usage/template', severity: 'error', path: '', message: `a template goes with a family's --model (its special tokens), not with --model ${o.model}` }]);
    if (o.target !== undefined || o.flavor !== undefined || o.dialect !== undefined) throw new CompileError([{ code: 'usage/template', severity: 'error', path: '', message: 'a template prints what it prints: drop the target, flavor and dialect' }]);
    return 'template';
  }
  if (o.model !== undefined) {
    const r = resolveModel(o.model);
    if (r.kind === 'family') {
      if (o.lowering === 'faithful') throw new CompileError([{ code: 'usage/faithful', severity: 'error', path: '', message: `faithful lowering keeps the openai-harmony layout; it does not apply to --model ${o.model}` }]);
      return 'family';
    }
    return targetOf(withModel(o));
  }
  const target = o.target ?? 'harmony';
  const kind = target === 'harmony' ? (o.flavor ?? 'openai-harmony') : target;
  if (o.lowering === 'faithful') {
    if (kind !== 'openai-harmony') throw new CompileError([{ code: 'usage/faithful', severity: 'error', path: '', message: `faithful lowering keeps the openai-harmony layout; it does not apply to ${target === 'harmony' ? `the ${kind} flavor` : `the ${kind} target`}` }]);
    return 'faithful';
  }
  return kind;
}

/** The printed tools section of compiled tools, per target. */
function catalogOf(c: CompiledTools, allOptions: CatalogOptions): RenderResult {
  // kept per compiled tools and printer options: the printers below see only CATALOG_KEYS
  return cachedPrint(c, 'catalog', allOptions as PromptOptions, CATALOG_KEYS, (options) => {
  switch (targetOf(options)) {
    case 'openai-harmony':
      return { text: emitHarmonyToolsSection([functionsNamespace(c.lowered, options)]), diagnostics: c.diagnostics };
    case 'faithful':
      return { text: emitFaithfulToolsSection([functionsNamespace(c.lowered, options)], { rewritten: true }), diagnostics: c.diagnostics };
    case 'chat-template': {
      const ns = emitChatTemplateNamespace(pairs(c), options.namespace ?? 'functions');
      return { text: `# Tools\n\n${ns.text}`, diagnostics: [...c.diagnostics, ...ns.diagnostics] };
    }
    case 'ollama': {
      const ns = emitOllamaToolsSection(c.lowered, c.definitions);
      return { text: ns.text, diagnostics: [...c.diagnostics, ...ns.diagnostics] };
    }
    case 'jsdoc':
      return { text: renderJsdocToolsSection(c.lowered, options), diagnostics: c.diagnostics };
    case 'xml': {
      const dialect = options.dialect ?? 'qwen';
      return { text: emitXmlCatalog(c.definitions, dialect), diagnostics: [...c.diagnostics, ...xmlFindings(c.definitions, dialect)] };
    }
    case 'family': {
      // the span the tools add to the official template's prompt (rendered by the family's kept printer where it has one), and the family's own findings
      const r = templateCatalog(templateInput(c, options, undefined), (input) => firstTurnPrinted(input, options) ?? renderWithTemplate(input));
      return { text: r.text, diagnostics: [...c.diagnostics, ...familyFindings(c, options), ...r.diagnostics] };
    }
    case 'template': {
      const r = templateCatalog(templateInput(c, options, undefined));
      return { text: r.text, diagnostics: [...c.diagnostics, ...r.diagnostics] };
    }
  }
  });
}

/** Every option a tools section depends on (the cache key of catalogOf). */
// a template (an object) makes the key undefined: what it prints is not kept
const CATALOG_KEYS = ['model', 'target', 'flavor', 'dialect', 'lowering', 'namespace', 'namespaceDescription', 'template', 'date', 'server'] as const;
/** Every option a developer message depends on (the cache key of developerOf). */
const DEVELOPER_KEYS = [...CATALOG_KEYS, 'instructions', 'responseFormats', 'effort', 'identity', 'cutoff'] as const;

/** The options checked (a date, a namespace, a completion role…) and the model resolved into target options. */
function prepare<T extends TargetOptions & { date?: unknown; namespace?: unknown; completion?: unknown; effort?: unknown }>(options: T): T {
  checkOptions(options);
  return withModel(options);
}

/** The family of the options' model. */
function resolveFamily(options: TargetOptions): { family: ModelFamily } {
  const r = resolveModel(options.model ?? '');
  if (r.kind !== 'family') throw new Error('not a family model');
  return r;
}

/** The template a family or `template` option renders with: its text, special tokens and kwargs. */
function templateSpecOf(options: TargetOptions): TemplateSpec {
  const model = options.model !== undefined ? resolveModel(options.model) : undefined;
  const family = model?.kind === 'family' ? model.family : xmlTemplate(options);
  const t = options.template;
  if (t !== undefined) {
    if (typeof t !== 'object' || t === null || typeof t.text !== 'string') throw new CompileError([{ code: 'usage/template', severity: 'error', path: '', message: 'template is { text, name?, special?, kwargs? } with the Jinja text in text' }]);
    const kwargs = t.kwargs instanceof Map ? [...t.kwargs] : Object.entries(t.kwargs ?? {});
    return {
      text: t.text,
      name: t.name ?? 'the chat template',
      special: { ...(family?.special ?? {}), ...(t.special ?? {}) },
      kwargs: new Map(kwargs.map(([k, v]) => [k, asJson(v, `/template/kwargs/${k}`)])),
      ...(vllmNoteOf(family) !== undefined ? { vllmNote: vllmNoteOf(family) } : {}),
    };
  }
  if (family === undefined) throw new CompileError([{ code: 'usage/template', severity: 'error', path: '', message: `--model ${options.model}'s official template is not shipped: give the template (--template chat_template.jinja)` }]);
  return { text: TEMPLATES[family.template as TemplateName].text, name: `the ${model?.name ?? family.template} chat template`, special: family.special, ...(vllmNoteOf(family) !== undefined ? { vllmNote: vllmNoteOf(family) } : {}) };
}

/** What a default vLLM server does instead of the family's template, if anything. */
function vllmNoteOf(family: ModelFamily | (typeof TEMPLATE_OF_BUILTIN)[string] | undefined): string | undefined {
  return family !== undefined && 'vllmNote' in family ? family.vllmNote : undefined;
}

/** The official template of the xml target's dialect (Qwen2.5, Qwen3-Coder, Hermes), for conversations; undefined for another target or the anthropic dialect. */
function xmlTemplate(options: TargetOptions): (typeof TEMPLATE_OF_BUILTIN)[string] | undefined {
  return options.template === undefined && targetOf(options) === 'xml' ? TEMPLATE_OF_BUILTIN[options.dialect ?? 'qwen'] : undefined;
}

/** The server a template renders a conversation as: transformers (default) or vLLM. */
function templateServer(options: ServerOptions, who: string): TemplateServer {
  const s = options.server;
  if (s === undefined || s === 'transformers' || s === 'vllm') return s ?? 'transformers';
  throw new CompileError([{ code: 'usage/server', severity: 'error', path: '', message: `${who} renders as transformers or vllm hands a conversation to its template; --server ${s} renders gpt-oss prompts only` }]);
}

/** Everything a template render takes, from the options. */
function templateInput(c: CompiledTools, options: PromptOptions, conversation: ConversationInput | undefined): TemplateRenderInput {
  const template = templateSpecOf(options);
  return {
    template,
    tools: c,
    ...(conversation !== undefined ? { conversation } : {}),
    ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    server: templateServer(options, template.name ?? 'the chat template'),
    ...(options.date !== undefined ? { date: familyDate(options.date) } : {}),
  };
}

/** A whole prompt from a template: a family's official one, the XML dialects' for a conversation, or the caller's. */
function templatePrompt(c: CompiledTools, options: PromptOptions, conversation: ConversationInput | undefined, readDiagnostics: readonly Diagnostic[] = []): PromptResult {
  // the first turn (no conversation) is kept per compiled tools and options, as a catalog is
  if (conversation === undefined) return cachedPrint(c, 'template prompt', options, TEMPLATE_PROMPT_KEYS, (o) => templatePromptOf(c, o, undefined, readDiagnostics));
  return templatePromptOf(c, options, conversation, readDiagnostics);
}

/** Every option a template's first-turn prompt depends on (the cache key of templatePrompt). */
const TEMPLATE_PROMPT_KEYS = ['model', 'template', 'date', 'server', 'instructions'] as const;

function templatePromptOf(c: CompiledTools, options: PromptOptions, conversation: ConversationInput | undefined, readDiagnostics: readonly Diagnostic[]): PromptResult {
  const input = templateInput(c, options, conversation);
  const p = firstTurnPrinted(input, options) ?? renderWithTemplate(input);
  // the family's control strings in message text: a warning (never escaped)
  const spelled = messageControlWarnings(controlSpellingsFor(options), conversation, options.instructions);
  return { text: p.text, system: '', diagnostics: [...c.diagnostics, ...familyFindings(c, options), ...readDiagnostics, ...p.diagnostics, ...spelled] };
}

/** A family's own findings about the tools (its lint rules, src/models/findings.ts), when its official template renders them. */
function familyFindings(c: CompiledTools, options: TargetOptions): readonly Diagnostic[] {
  if (options.template !== undefined || targetOf(options) !== 'family' || !c.definitions.length) return [];
  return resolveFamily(options).family.findings?.(c.definitions) ?? [];
}

/**
 * The first turn of a family whose hand-written printer is kept (src/emit/families/registry.ts:
 * measured faster than the engine, and byte-equal to it on every oracle case): its text, or
 * undefined when the engine renders (a conversation, a server's preprocessing, a template of the
 * caller's, or a printer that raises or prints a lone surrogate: the engine then says the error).
 */
function firstTurnPrinted(input: TemplateRenderInput, options: PromptOptions): { text: string; diagnostics: readonly Diagnostic[] } | undefined {
  if (input.conversation !== undefined || input.server !== 'transformers' || input.noToolsAs === 'empty list' || options.template !== undefined || targetOf(options) !== 'family') return undefined;
  const printer = familyPrinter(resolveFamily(options).family.name);
  if (printer === undefined) return undefined;
  try {
    const text = printer.prompt(input.tools.definitions, { ...(options.instructions !== undefined ? { instructions: options.instructions } : {}), ...(options.date !== undefined ? { date: options.date } : {}) });
    return firstLoneSurrogate(text) === undefined ? { text, diagnostics: [] } : undefined;
  } catch (e) {
    if (isCompileError(e)) return undefined;
    throw e;
  }
}

/** A family has no system or developer message of its own: its template builds the turns around the tools. */
function noFamilyPart(options: TargetOptions, part: string): CompileError {
  return new CompileError([{ code: 'usage/no-such-part', severity: 'error', path: '', message: `${options.template !== undefined ? 'a template' : `--model ${options.model}`} has no ${part} message of its own: its template builds its turns around the tools (ask for the catalog or the prompt)` }]);
}

/** The tools section for the tools, in the chosen target (default: openai-harmony's `# Tools`). */
export function renderCatalog(tools: ToolsInput, options: CatalogOptions = {}): RenderResult {
  const o = prepare(options);
  return catalogOf(compileTools(tools, o), o);
}

/** The developer message: instructions, the tools section, response formats. */
export function renderDeveloperMessage(tools: ToolsInput | undefined, rawOptions: DeveloperMessageOptions = {}): MessageResult {
  const options = prepare(rawOptions);
  const c = tools === undefined ? NO_TOOLS : compileTools(tools, options);
  const d = developerOf(c, options);
  return { text: d.text, message: renderEnvelope({ role: 'developer', content: d.text }), diagnostics: d.diagnostics };
}

function developerOf(c: CompiledTools, allOptions: DeveloperMessageOptions): RenderResult {
  // kept per compiled tools and options: the printers below see only DEVELOPER_KEYS
  return cachedPrint(c, 'developer', allOptions as PromptOptions, DEVELOPER_KEYS, (options) => {
  switch (targetOf(options)) {
    case 'openai-harmony':
    case 'faithful': {
      const section = c.lowered.length || options.namespaceDescription !== undefined ? catalogOf(c, options).text : undefined;
      return { text: renderHarmonyDeveloperContent(options.instructions, section, options.responseFormats), diagnostics: c.diagnostics };
    }
    case 'chat-template': {
      const d = renderChatTemplateDeveloper(pairs(c), options.instructions !== undefined ? { instructions: options.instructions } : {});
      return { text: d.text, diagnostics: [...c.diagnostics, ...d.diagnostics] };
    }
    case 'ollama': {
      const p = ollamaParts(c, options);
      return { text: p.developer ?? '', diagnostics: [...c.diagnostics, ...p.diagnostics] };
    }
    case 'jsdoc':
      return { text: renderJsdocDeveloperMessage(c.lowered, options), diagnostics: c.diagnostics };
    case 'xml':
      throw new CompileError([{ code: 'usage/no-developer-message', severity: 'error', path: '', message: 'the xml target has no developer message: its templates put the tools in the system turn (use the catalog or the whole prompt)' }]);
    case 'family':
    case 'template':
      throw noFamilyPart(options, 'developer');
  }
  });
}

/** The system message: identity, dates, reasoning, builtin tools, channels and the routing line. */
export function renderSystemMessage(rawOptions: SystemOptions = {}): MessageResult {
  const options = prepare(rawOptions);
  const text = systemOf(options);
  return { text, message: renderEnvelope({ role: 'system', content: text }), diagnostics: [] };
}

function systemOf(options: SystemOptions): string {
  switch (targetOf(options)) {
    case 'chat-template': {
      const builtinTools = [...(options.browser ? ['browser'] : []), ...(options.python ? ['python'] : [])];
      return renderChatTemplateSystem({
        ...(options.identity ? { identity: options.identity } : {}),
        ...(options.date !== undefined ? { date: options.date } : {}),
        ...(options.effort !== undefined ? { effort: options.effort } : {}),
        builtinTools,
        functionTools: options.functionTools ?? false,
      }).text;
    }
    case 'ollama':
      // Ollama writes its routing line from the tools it is given: a system message alone has none
      return ollamaParts(NO_TOOLS, options).system;
    case 'family':
    case 'template':
      throw noFamilyPart(options, 'system');
    case 'xml':
      throw new CompileError([{ code: 'usage/no-system-message', severity: 'error', path: '', message: 'the xml target has no separate system message: its templates build the system turn around the tools (use the catalog or the whole prompt)' }]);
    case 'openai-harmony':
    case 'faithful':
    case 'jsdoc': {
      const namespaces: HarmonyNamespace[] = [];
      if (options.browser) namespaces.push({ name: 'browser', description: BROWSER_DESCRIPTION, tools: browserTools().map((t) => lowerTool(t).tool) });
      if (options.python) namespaces.push({ name: 'python', description: PYTHON_DESCRIPTION, tools: [] });
      const section = namespaces.length ? emitHarmonyToolsSection(namespaces) : undefined;
      return renderHarmonySystemContent(options, section, options.functionTools ?? false);
    }
  }
}

/**
 * A whole prompt: the system message, the developer message (when there are tools or
 * instructions), the conversation, and `<|start|>assistant` when `completion` is set.
 * The chat-template flavor and the xml target assemble it as their templates do.
 */
export function renderPrompt(rawOptions: PromptOptions = {}): PromptResult {
  return withinStack(() => promptOf(rawOptions));
}

/**
 * A render whose recursion ran out of stack, as a CompileError: values are measured before
 * anything recursive reads them (`conversation/too-deep`, `schema/too-deep`), so this is the last
 * guard, for a caller that is itself deep in its stack.
 */
function withinStack<T>(render: () => T): T {
  try {
    return render();
  } catch (e) {
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      throw new CompileError([{ code: 'input/too-deep', severity: 'error', path: '', message: 'the input nests too deeply to be rendered (the stack ran out)' }]);
    }
    throw e;
  }
}

function promptOf(rawOptions: PromptOptions): PromptResult {
  const options = prepare(rawOptions);
  const c = options.tools === undefined ? NO_TOOLS : compileTools(options.tools, options);
  const kind = targetOf(options);
  const conversation = options.messages !== undefined ? readMessages(options.messages, options.messageFormat) : undefined;
  // a template renders as transformers (default) or vLLM hands it the conversation (templateServer)
  if (kind === 'template' || kind === 'family') return templatePrompt(c, options, conversation?.conversation, conversation?.diagnostics);
  // the XML dialects' own printers render text turns; a conversation with calls, or a server named, runs their official template
  if (kind === 'xml' && xmlTemplate(options) !== undefined && (options.server !== undefined || (conversation !== undefined && needsTemplate(conversation.conversation, options)))) return templatePrompt(c, options, conversation?.conversation, conversation?.diagnostics);
  const server = chooseServer(layoutOf(kind), options.flavor !== undefined, options, conversation?.conversation);
  if (server !== undefined) {
    const conv = conversation?.conversation ?? { format: 'chat' as const, items: [], pointers: [] };
    return serverPrompt(server, c, c.lowered.length ? 'some' : 'absent', conv, options, conversation?.diagnostics ?? []);
  }
  if (kind === 'xml') return xmlPrompt(c, options, conversation?.conversation);
  const messages = harmonyMessages(conversation?.conversation);
  if (kind === 'chat-template') return chatTemplatePrompt(c, options, messages);
  const ns = options.namespace ?? 'functions';
  const system = systemOf({ ...options, functionTools: ns === 'functions' && c.lowered.length > 0 });
  const hasTools = c.lowered.length > 0 || options.namespaceDescription !== undefined;
  const catalog = hasTools ? catalogOf(c, options).text : undefined;
  const hasDeveloper = hasTools || options.instructions !== undefined || (options.responseFormats?.length ?? 0) > 0;
  const developer = hasDeveloper ? developerOf(c, options).text : undefined;
  const head: HarmonyMessage[] = [{ role: 'system', content: system }];
  if (developer !== undefined) head.push({ role: 'developer', content: developer });
  const text = renderConversation([...head, ...messages], options);
  return { text, system, ...(developer !== undefined ? { developer } : {}), ...(catalog !== undefined ? { catalog } : {}), diagnostics: [...c.diagnostics, ...(conversation?.diagnostics ?? [])] };
}

/** The gpt-oss layout of a target/flavor, when it has one (servers render only those). */
function layoutOf(kind: ReturnType<typeof targetOf>): ServerFlavor | undefined {
  return kind === 'openai-harmony' || kind === 'chat-template' || kind === 'ollama' ? kind : undefined;
}

/** Harmony-native messages as the envelope printer takes them (the reference renderer's path). */
function harmonyMessages(conversation: ConversationInput | undefined): HarmonyMessage[] {
  if (conversation === undefined) return [];
  return conversation.items.map((m, i): HarmonyMessage => {
    const field = (k: string): string | undefined => {
      const v = getKey(m, k);
      if (v === undefined || v === null) return undefined;
      if (typeof v !== 'string') throw new CompileError([{ code: 'conversation/invalid-message', severity: 'error', path: `${conversation.pointers[i]}/${k}`, message: `a Harmony message's ${k} must be a string` }]);
      return v;
    };
    const name = field('name');
    const recipient = field('recipient');
    const channel = field('channel');
    const contentType = field('content_type');
    return { role: (field('role') ?? 'user') as HarmonyMessage['role'], ...(name !== undefined ? { name } : {}), ...(recipient !== undefined ? { recipient } : {}), ...(channel !== undefined ? { channel } : {}), ...(contentType !== undefined ? { contentType } : {}), content: field('content') ?? '' };
  });
}

/** A whole prompt through a server's profile. */
function serverPrompt(server: ServerName, c: CompiledTools, toolsGiven: 'absent' | 'empty' | 'some', conversation: ConversationInput, options: PromptOptions, readDiagnostics: readonly Diagnostic[]): PromptResult {
  const p = renderThroughServer(server, c, toolsGiven, conversation, {
    ...(options.effort !== undefined ? { effort: options.effort } : {}),
    ...(options.date !== undefined ? { date: options.date } : {}),
    ...(options.toolChoice !== undefined ? { toolChoice: options.toolChoice } : {}),
    ...(options.browser ? { browser: true } : {}),
    ...(options.python ? { python: true } : {}),
    ...(typeof options.identity === 'string' ? { identity: options.identity } : {}),
    ...(options.cutoff !== undefined ? { cutoff: options.cutoff } : {}),
    ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
  });
  return {
    text: p.text,
    system: p.system,
    ...(p.developer !== undefined ? { developer: p.developer } : {}),
    ...(p.catalog !== undefined ? { catalog: p.catalog } : {}),
    diagnostics: [...c.diagnostics, ...readDiagnostics, ...p.diagnostics],
  };
}

/** Ollama's system and developer messages for tools alone (its template prints them around the conversation). */
function ollamaParts(c: CompiledTools, options: SystemOptions & DeveloperMessageOptions) {
  return renderOllama({
    conversation: { format: 'chat', items: options.instructions !== undefined ? [new Map<string, JsonValue>([['role', 'system'], ['content', options.instructions]])] : [], pointers: options.instructions !== undefined ? ['/instructions'] : [] },
    tools: c,
    toolsGiven: c.lowered.length ? 'some' : 'absent',
    ...(options.effort !== undefined ? { effort: options.effort } : {}),
    ...(options.date !== undefined ? { date: options.date } : {}),
    ...(options.identity ? { identity: options.identity } : {}),
    ...(typeof options.cutoff === 'string' ? { cutoff: options.cutoff } : {}),
  });
}

function chatTemplatePrompt(c: CompiledTools, options: PromptOptions, messages: readonly HarmonyMessage[]): PromptResult {
  const tools = pairs(c);
  const sys = { ...options, functionTools: tools.length > 0 };
  const p = renderChatTemplatePrompt({
    ...(options.identity ? { identity: options.identity } : {}),
    ...(options.date !== undefined ? { date: options.date } : {}),
    ...(options.effort !== undefined ? { effort: options.effort } : {}),
    builtinTools: [...(options.browser ? ['browser'] : []), ...(options.python ? ['python'] : [])],
    ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    tools,
    messages: messages.map((m) => ({ role: m.role, content: m.content })),
    addGenerationPrompt: completionRole(options.completion) !== undefined,
  });
  const developer = renderChatTemplateDeveloper(tools, options.instructions !== undefined ? { instructions: options.instructions } : {}).text;
  return {
    text: p.text,
    system: systemOf(sys),
    ...(developer !== '' ? { developer } : {}),
    ...(tools.length ? { catalog: catalogOf(c, options).text } : {}),
    diagnostics: [...c.diagnostics, ...p.diagnostics],
  };
}

function xmlPrompt(c: CompiledTools, options: PromptOptions, conversation: ConversationInput | undefined): PromptResult {
  const dialect = options.dialect ?? 'qwen';
  const messages = conversation === undefined ? undefined : xmlMessages(conversation);
  const p = renderXmlPrompt({
    tools: c.definitions,
    dialect,
    ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    ...(messages !== undefined ? { messages } : {}),
    addGenerationPrompt: completionRole(options.completion) !== undefined,
  });
  const spelled = messageControlWarnings(controlSpellingsFor(options), conversation, options.instructions);
  return { text: p.text, system: '', catalog: emitXmlCatalog(c.definitions, dialect), diagnostics: [...c.diagnostics, ...p.diagnostics, ...spelled] };
}

/** True when an XML dialect's conversation needs its official template (tool calls, results, reasoning, a server), not its printer of text turns. */
function needsTemplate(conversation: ConversationInput, options: PromptOptions): boolean {
  if (xmlTemplate(options) === undefined) return false;
  if (options.server !== undefined || conversation.format !== 'chat') return true;
  return conversation.items.some((m) => !isJsonObject(m) || [...m.keys()].some((k) => k !== 'role' && k !== 'content') || typeof m.get('content') !== 'string');
}

/** The xml templates' messages: `{role, content}` with text content only (their tool-call turns are not rendered here). */
function xmlMessages(conversation: ConversationInput, who = 'the xml target'): { role: HarmonyMessage['role']; content: string }[] {
  return conversation.items.map((m, i) => {
    const role = getKey(m, 'role');
    const content = getKey(m, 'content');
    const extra = isJsonObject(m) ? [...m.keys()].filter((k) => k !== 'role' && k !== 'content') : [];
    if (typeof role !== 'string' || typeof content !== 'string' || extra.length) {
      throw new CompileError([{ code: 'usage/xml-messages', severity: 'error', path: conversation.pointers[i], message: `${who} renders {role, content} messages with text content only${extra.length ? ` (this one has ${extra.map((k) => JSON.stringify(k)).join(', ')})` : ''}; tool-call turns are rendered for gpt-oss (--server)` }]);
    }
    return { role: role as HarmonyMessage['role'], content };
  });
}

/** The parts of a prompt the CLI and batch rendering can print. */
export type Part = 'system' | 'developer' | 'catalog' | 'prompt';

/** Options of `renderPart`: a prompt's options and which part to return. */
export interface PartOptions extends PromptOptions {
  /** Which part: the system or developer message content, the tools section, or the whole prompt. Default `prompt`. */
  readonly part?: Part;
}

/** One part of the prompt for these tools: what `render --part` prints. */
export function renderPart(tools: ToolsInput, rawOptions: PartOptions = {}): RenderResult {
  const options = prepare(rawOptions);
  if ((targetOf(options) === 'family' || targetOf(options) === 'template') && (options.part === 'system' || options.part === 'developer')) throw noFamilyPart(options, options.part);
  if (targetOf(options) === 'xml' && (options.part === 'system' || options.part === 'developer')) {
    throw new CompileError([{ code: 'usage/no-such-part', severity: 'error', path: '', message: `the xml target has no ${options.part} message of its own: its templates build one system turn around the tools (ask for the catalog or the prompt)` }]);
  }
  const part = options.part ?? 'prompt';
  if (part === 'prompt' || ((part === 'system' || part === 'developer') && usesServer(options))) {
    const p = renderPrompt({ ...options, tools });
    if (part === 'prompt') return { text: p.text, diagnostics: p.diagnostics };
    return { text: part === 'system' ? p.system : (p.developer ?? ''), diagnostics: p.diagnostics };
  }
  const c = compileTools(tools, options);
  switch (part) {
    case 'catalog':
      // no tools, no tools section
      return c.lowered.length || options.namespaceDescription !== undefined ? catalogOf(c, options) : { text: '', diagnostics: c.diagnostics };
    case 'developer':
      return developerOf(c, options);
    case 'system': {
      const ns = options.namespace ?? 'functions';
      return { text: systemOf({ ...options, functionTools: c.lowered.length > 0 && (targetOf(options) === 'chat-template' || ns === 'functions') }), diagnostics: c.diagnostics };
    }
  }
}


/**
 * The `# Tools` section for the tools, faithful: `renderCatalog` with `lowering: 'faithful'`
 * (read, control tokens, lowered, rewritten, printed). Throws a CompileError as `renderCatalog` does.
 */
export function renderFaithfulCatalog(tools: ToolsInput, options: CatalogOptions = {}): RenderResult {
  return renderCatalog(tools, { ...options, lowering: 'faithful' });
}

/** True when the options send the render through a server's profile (a server named, the ollama flavor, or messages that are not Harmony-native). */
function usesServer(options: PromptOptions): boolean {
  if (options.server !== undefined || options.flavor === 'ollama') return true;
  if (!options.messages?.length) return false;
  return readMessages(options.messages, options.messageFormat).conversation.format !== 'harmony';
}

/** A request body as a server receives it: its tools, messages and options. */
export interface RequestRenderOptions extends Omit<PartOptions, 'tools' | 'messages'> {}

/** What a request body held, read: its kind and the model it names. */
export interface RequestPromptResult extends PromptResult {
  /** `chat` (Chat Completions), `responses` or `anthropic` (Messages). */
  readonly kind: 'chat' | 'responses' | 'anthropic';
  /** The part asked for (`part`), or the whole prompt. */
  readonly partText: string;
}

/**
 * False when JSON text cannot be a request body, without parsing it: a list (of tools), or text
 * with no `"messages"` or `"input"` key anywhere. Tool files, the common input, are then parsed once.
 */
function mayBeRequestText(text: string): boolean {
  if (/^\uFEFF?\s*\[/.test(text)) return false;
  return text.includes('"messages"') || text.includes('"input"');
}

/** True when the value (JSON text or a JS value) is a whole request body: Chat Completions, Responses or Anthropic Messages. */
export function isRequestBody(value: unknown): boolean {
  if (typeof value === 'string' && !mayBeRequestText(value)) return false;
  try {
    return readRequestBody(typeof value === 'string' ? parseJson(value) : asJson(value, '')) !== undefined;
  } catch (e) {
    // a body whose messages nest too deep is a body (renderRequest says where), not a tool file
    return e instanceof CompileError && e.diagnostics.some((d) => d.code === 'conversation/too-deep');
  }
}

/**
 * Render a whole request body (OpenAI Chat Completions `{model, messages, tools, tool_choice,
 * reasoning_effort}`, Responses `{input, instructions, tools, reasoning}` or Anthropic Messages
 * `{system, messages, tools}`) as a server builds its prompt: its tools, messages and options are
 * all used; options given here fill in what the body does not say (a body's own value wins,
 * except `server`, `flavor` and `date`, which a body cannot carry).
 */
export function renderRequest(body: RequestInput, rawOptions: RequestRenderOptions = {}): RequestPromptResult {
  return withinStack(() => requestOf(body, rawOptions));
}

function requestOf(body: RequestInput, rawOptions: RequestRenderOptions): RequestPromptResult {
  const options = prepare(rawOptions);
  let json: JsonValue;
  try {
    json = typeof body === 'string' ? parseJson(body.charCodeAt(0) === 0xfeff ? body.slice(1) : body) : asJson(body, '');
  } catch (e) {
    if (e instanceof CompileError) throw e;
    throw new CompileError([{ code: 'input/not-json', severity: 'error', path: '', message: `the request is not JSON: ${(e as Error).message}` }]);
  }
  const rb = readBody(json, targetOf(options));
  if (rb === undefined) throw new CompileError([{ code: 'input/not-a-request', severity: 'error', path: '', message: 'not a request body: expected Chat Completions {messages, …}, Responses {input, …} or Anthropic Messages {messages, max_tokens, …}' }]);
  const given = rb.tools !== undefined && isJsonArray(rb.tools) ? rb.tools : [];
  const pointers = rb.toolPointers ?? given.map((_, i) => `${rb.toolsPointer}/${i}`);
  const c = given.length === 0 ? NO_TOOLS : compileTools(readToolsAt(given, pointers), options);
  const toolsGiven = rb.toolsGiven;
  const kind = targetOf(options);
  if (kind === 'template' || kind === 'family' || xmlTemplate(options) !== undefined) {
    const p = templatePrompt(c, options, rb.conversation, rb.diagnostics);
    const part = options.part ?? 'prompt';
    if (part === 'system' || part === 'developer') throw noFamilyPart(options, part);
    const partText = part === 'catalog' ? catalogOf(c, options).text : p.text;
    return { ...p, kind: rb.kind, partText };
  }
  const server = chooseServer(layoutOf(kind), options.flavor !== undefined, options, rb.conversation) ?? (layoutOf(kind) !== undefined ? defaultServer(layoutOf(kind) as ServerFlavor) : undefined);
  if (server === undefined) throw new CompileError([{ code: 'usage/server', severity: 'error', path: '', message: 'a request body renders as a gpt-oss server builds it: use the harmony target (openai-harmony, chat-template or ollama flavor)' }]);
  const merged: PromptOptions = {
    ...options,
    ...(rb.builtinTools?.includes('browser') ? { browser: true } : {}),
    ...(rb.builtinTools?.includes('python') ? { python: true } : {}),
    ...(rb.effort !== undefined ? { effort: rb.effort as PromptOptions['effort'] } : {}),
    ...(rb.toolChoice !== undefined ? { toolChoice: rb.toolChoice } : {}),
  };
  const p = serverPrompt(server, c, toolsGiven, rb.conversation, merged, rb.diagnostics);
  const part = options.part ?? 'prompt';
  const partText = part === 'prompt' ? p.text : part === 'system' ? p.system : part === 'developer' ? (p.developer ?? '') : (p.catalog ?? '');
  return { ...p, kind: rb.kind, partText };
}

/**
 * A request body read. A chat template's server hands Chat Completions messages to the template
 * as given: where their shapes cannot be told apart (a tool message with a `name` and no
 * `tool_call_id` reads as Harmony-native beside Chat messages), they are read as Chat messages.
 */
function readBody(json: JsonValue, kind: ReturnType<typeof targetOf>): ReturnType<typeof readRequestBody> {
  try {
    return readRequestBody(json);
  } catch (e) {
    const mixed = e instanceof CompileError && e.diagnostics.some((d) => d.code === 'conversation/mixed-shapes');
    if (!mixed || (kind !== 'template' && kind !== 'family' && kind !== 'xml')) throw e;
    return readRequestBody(json, { messageFormat: 'chat' });
  }
}

/**
 * The tools of a value that may be a whole request body: its function tools, read with pointers
 * into the body (an info says the rest of the body is not used here); any other value as it is.
 * What commands that read tools only (lint, dump, diff, build, parse --tools) take.
 */
export function toolsOfInput(value: ToolsInput): ToolsInput {
  if (typeof value !== 'string' && (typeof value !== 'object' || value === null || Array.isArray(value))) return value;
  if (typeof value === 'string' && !mayBeRequestText(value)) return value;
  let json: JsonValue;
  try {
    json = typeof value === 'string' ? parseJson(value.charCodeAt(0) === 0xfeff ? value.slice(1) : value) : asJson(value, '');
  } catch {
    return value;
  }
  let rb: ReturnType<typeof readRequestBody>;
  try {
    rb = readRequestBody(json);
  } catch {
    return value;
  }
  if (rb === undefined) return value;
  const given = rb.tools !== undefined && isJsonArray(rb.tools) ? rb.tools : [];
  const note: Diagnostic = { code: 'input/request-body', severity: 'info', path: '', message: `a ${rb.kind === 'chat' ? 'Chat Completions' : rb.kind === 'responses' ? 'Responses' : 'Anthropic Messages'} request body: its ${given.length} function tool${given.length === 1 ? '' : 's'} are read; its messages are not used here (render renders the whole request)` };
  return readToolsAt(given, rb.toolPointers ?? given.map((_, i) => `${rb.toolsPointer}/${i}`), [note]);
}
