/**
 * The API layer: tools read and lowered once (`compileTools`), then printed per target and
 * assembled into messages and whole prompts. `src/index.ts` re-exports it; nothing here imports
 * the facade.
 */
import { CompileError, throwIfErrors, type Diagnostic } from '../diagnostics.js';
import { emitChatTemplateNamespace, type ChatTemplateTool } from '../emit/chat-template/catalog.js';
import { renderJsdocDeveloperMessage, renderJsdocToolsSection } from '../emit/jsdoc/messages.js';
import { emitXmlCatalog, renderXmlPrompt, xmlFindings, type XmlDialect } from '../emit/xml/index.js';
import { renderChatTemplateDeveloper, renderChatTemplatePrompt, renderChatTemplateSystem } from '../messages/chat-template.js';
import { emitHarmonyToolsSection, type HarmonyNamespace } from '../emit/harmony/catalog.js';
import { emitFaithfulToolsSection } from '../emit/harmony/faithful.js';
import type { ControlTokenPolicy } from '../input/control-tokens.js';
import { compileTools, NO_TOOLS, type CompiledTools, type ToolsInput } from './compile.js';
import type { IrTool } from '../ir/nodes.js';
import { lowerTool, type LowerLimits } from '../lower/index.js';
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

/** The two gpt-oss renderers: OpenAI's reference (vLLM, TensorRT-LLM) or the official chat template (transformers, llama.cpp…). */
export type Flavor = 'openai-harmony' | 'chat-template';
/** What to print: the Harmony catalog (in a flavor), a JSDoc-style TypeScript catalog, or an XML catalog (in a dialect). */
export type Target = 'harmony' | 'jsdoc' | 'xml';
/** The flavors, targets and dialects, for validation. */
export const FLAVORS: readonly Flavor[] = ['openai-harmony', 'chat-template'];
export const TARGETS: readonly Target[] = ['harmony', 'jsdoc', 'xml'];
export { XML_DIALECTS, type XmlDialect } from '../emit/xml/index.js';

/** Options that choose the printer. */
export interface TargetOptions {
  /** Default `harmony`. */
  readonly target?: Target;
  /** For the harmony target. Default `openai-harmony`. */
  readonly flavor?: Flavor;
  /** For the xml target. Default `qwen`. */
  readonly dialect?: XmlDialect;
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

/** A conversation message as the API takes it (content as text). */
export type PromptMessage = HarmonyMessage;

/** Options for a whole prompt. */
export interface PromptOptions extends DeveloperMessageOptions, SystemOptions, ConversationOptions {
  /** The function tools (any input shape). */
  readonly tools?: ToolsInput;
  /** Conversation messages after the system and developer messages. */
  readonly messages?: readonly PromptMessage[];
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
  return c.definitions.map((def, i) => ({ def, ir: c.tools[i] }));
}

function targetOf(o: TargetOptions & { lowering?: 'exact' | 'faithful' }): 'openai-harmony' | 'faithful' | 'chat-template' | 'jsdoc' | 'xml' {
  const target = o.target ?? 'harmony';
  const kind = target === 'harmony' ? (o.flavor ?? 'openai-harmony') : target;
  if (o.lowering === 'faithful') {
    if (kind !== 'openai-harmony') throw new CompileError([{ code: 'usage/faithful', severity: 'error', path: '', message: `faithful lowering keeps the openai-harmony layout; it does not apply to ${target === 'harmony' ? `the ${kind} flavor` : `the ${kind} target`}` }]);
    return 'faithful';
  }
  return kind;
}

/** The printed tools section of compiled tools, per target. */
function catalogOf(c: CompiledTools, options: CatalogOptions): RenderResult {
  switch (targetOf(options)) {
    case 'openai-harmony':
      return { text: emitHarmonyToolsSection([functionsNamespace(c.tools, options)]), diagnostics: c.diagnostics };
    case 'faithful':
      return { text: emitFaithfulToolsSection([functionsNamespace(c.tools, options)], { rewritten: true }), diagnostics: c.diagnostics };
    case 'chat-template': {
      const ns = emitChatTemplateNamespace(pairs(c), options.namespace ?? 'functions');
      return { text: `# Tools\n\n${ns.text}`, diagnostics: [...c.diagnostics, ...ns.diagnostics] };
    }
    case 'jsdoc':
      return { text: renderJsdocToolsSection(c.tools, options), diagnostics: c.diagnostics };
    case 'xml': {
      const dialect = options.dialect ?? 'qwen';
      return { text: emitXmlCatalog(c.definitions, dialect), diagnostics: [...c.diagnostics, ...xmlFindings(c.definitions, dialect)] };
    }
  }
}

/** The tools section for the tools, in the chosen target (default: openai-harmony's `# Tools`). */
export function renderCatalog(tools: ToolsInput, options: CatalogOptions = {}): RenderResult {
  return catalogOf(compileTools(tools, options), options);
}

/** The developer message: instructions, the tools section, response formats. */
export function renderDeveloperMessage(tools: ToolsInput | undefined, options: DeveloperMessageOptions = {}): MessageResult {
  const c = tools === undefined ? NO_TOOLS : compileTools(tools, options);
  const d = developerOf(c, options);
  return { text: d.text, message: renderEnvelope({ role: 'developer', content: d.text }), diagnostics: d.diagnostics };
}

function developerOf(c: CompiledTools, options: DeveloperMessageOptions): RenderResult {
  switch (targetOf(options)) {
    case 'openai-harmony':
    case 'faithful': {
      const section = c.tools.length || options.namespaceDescription !== undefined ? catalogOf(c, options).text : undefined;
      return { text: renderHarmonyDeveloperContent(options.instructions, section, options.responseFormats), diagnostics: c.diagnostics };
    }
    case 'chat-template': {
      const d = renderChatTemplateDeveloper(pairs(c), options.instructions !== undefined ? { instructions: options.instructions } : {});
      return { text: d.text, diagnostics: [...c.diagnostics, ...d.diagnostics] };
    }
    case 'jsdoc':
      return { text: renderJsdocDeveloperMessage(c.tools, options), diagnostics: c.diagnostics };
    case 'xml':
      throw new CompileError([{ code: 'usage/no-developer-message', severity: 'error', path: '', message: 'the xml target has no developer message: its templates put the tools in the system turn (use the catalog or the whole prompt)' }]);
  }
}

/** The system message: identity, dates, reasoning, builtin tools, channels and the routing line. */
export function renderSystemMessage(options: SystemOptions = {}): MessageResult {
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
export function renderPrompt(options: PromptOptions = {}): PromptResult {
  const c = options.tools === undefined ? NO_TOOLS : compileTools(options.tools, options);
  const kind = targetOf(options);
  if (kind === 'chat-template') return chatTemplatePrompt(c, options);
  if (kind === 'xml') return xmlPrompt(c, options);
  const ns = options.namespace ?? 'functions';
  const system = systemOf({ ...options, functionTools: ns === 'functions' && c.tools.length > 0 });
  const hasTools = c.tools.length > 0 || options.namespaceDescription !== undefined;
  const catalog = hasTools ? catalogOf(c, options).text : undefined;
  const hasDeveloper = hasTools || options.instructions !== undefined || (options.responseFormats?.length ?? 0) > 0;
  const developer = hasDeveloper ? developerOf(c, options).text : undefined;
  const head: HarmonyMessage[] = [{ role: 'system', content: system }];
  if (developer !== undefined) head.push({ role: 'developer', content: developer });
  const text = renderConversation([...head, ...(options.messages ?? [])], options);
  return { text, system, ...(developer !== undefined ? { developer } : {}), ...(catalog !== undefined ? { catalog } : {}), diagnostics: c.diagnostics };
}

function chatTemplatePrompt(c: CompiledTools, options: PromptOptions): PromptResult {
  const tools = pairs(c);
  const sys = { ...options, functionTools: tools.length > 0 };
  const p = renderChatTemplatePrompt({
    ...(options.identity ? { identity: options.identity } : {}),
    ...(options.date !== undefined ? { date: options.date } : {}),
    ...(options.effort !== undefined ? { effort: options.effort } : {}),
    builtinTools: [...(options.browser ? ['browser'] : []), ...(options.python ? ['python'] : [])],
    ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    tools,
    messages: (options.messages ?? []).map((m) => ({ role: m.role, content: m.content })),
    addGenerationPrompt: options.completion !== undefined,
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

function xmlPrompt(c: CompiledTools, options: PromptOptions): PromptResult {
  const dialect = options.dialect ?? 'qwen';
  const p = renderXmlPrompt({
    tools: c.definitions,
    dialect,
    ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    ...(options.messages !== undefined ? { messages: options.messages.map((m) => ({ role: m.role, content: m.content })) } : {}),
    addGenerationPrompt: options.completion !== undefined,
  });
  return { text: p.text, system: '', catalog: emitXmlCatalog(c.definitions, dialect), diagnostics: [...c.diagnostics, ...p.diagnostics] };
}

/** The parts of a prompt the CLI and batch rendering can print. */
export type Part = 'system' | 'developer' | 'catalog' | 'prompt';

/** Options of `renderPart`: a prompt's options and which part to return. */
export interface PartOptions extends PromptOptions {
  /** Which part: the system or developer message content, the tools section, or the whole prompt. Default `prompt`. */
  readonly part?: Part;
}

/** One part of the prompt for these tools: what `render --part` prints. */
export function renderPart(tools: ToolsInput, options: PartOptions = {}): RenderResult {
  if (targetOf(options) === 'xml' && (options.part === 'system' || options.part === 'developer')) {
    throw new CompileError([{ code: 'usage/no-such-part', severity: 'error', path: '', message: `the xml target has no ${options.part} message of its own: its templates build one system turn around the tools (ask for the catalog or the prompt)` }]);
  }
  const part = options.part ?? 'prompt';
  if (part === 'prompt') {
    const p = renderPrompt({ ...options, tools });
    return { text: p.text, diagnostics: p.diagnostics };
  }
  const c = compileTools(tools, options);
  switch (part) {
    case 'catalog':
      // no tools, no tools section
      return c.tools.length || options.namespaceDescription !== undefined ? catalogOf(c, options) : { text: '', diagnostics: c.diagnostics };
    case 'developer':
      return developerOf(c, options);
    case 'system': {
      const ns = options.namespace ?? 'functions';
      return { text: systemOf({ ...options, functionTools: c.tools.length > 0 && (targetOf(options) === 'chat-template' || ns === 'functions') }), diagnostics: c.diagnostics };
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
