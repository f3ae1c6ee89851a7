/**
 * harmony-catalog: tool definitions → the text a model reads.
 *
 * The pipeline, one stage per folder:
 *   input/    readTools: JSON text or JS values in any tool shape → ToolDefinition[] (+ warnings)
 *   lower/    lowerTool: each parameters schema → the IR (a json-schema-traverse pre-pass first)
 *   emit/     one printer per target: harmony (openai-harmony), …
 *   messages/ system and developer message assembly, whole prompts
 * Errors are data (Diagnostic); input that cannot be rendered throws one CompileError.
 */
import { throwIfErrors, type Diagnostic } from './diagnostics.js';
import { emitHarmonyToolsSection, type HarmonyNamespace } from './emit/harmony/catalog.js';
import type { ReadResult, ToolDefinition } from './input/types.js';
import { readTools as readToolsInput } from './input/read.js';
import type { IrTool } from './ir/nodes.js';
import { lowerTool, type LowerLimits } from './lower/index.js';
import { BROWSER_DESCRIPTION, PYTHON_DESCRIPTION, browserTools } from './messages/builtins.js';
import { renderConversation, type ConversationOptions } from './messages/conversation.js';
import { renderHarmonyDeveloperContent } from './messages/developer.js';
import { renderEnvelope, type HarmonyMessage } from './messages/envelope.js';
import type { ResponseFormat } from './messages/options.js';
import { renderHarmonySystemContent, type SystemMessageOptions } from './messages/system.js';

export { CompileError, formatDiagnostic, isCompileError, type Diagnostic, type Severity } from './diagnostics.js';
export { JsonNumber, parseJson, fromJs, toJs, type JsonValue, type JsonObject, type JsonArray } from './ir/json.js';
export type * from './ir/nodes.js';
export type { ToolDefinition, ToolFormat, ReadResult } from './input/types.js';
export { lowerSchema, lowerTool, type LowerOptions, type LowerLimits, type LowerResult } from './lower/index.js';
export { harmonyType } from './emit/harmony/types.js';
export { emitHarmonyTool, emitHarmonyNamespace, emitHarmonyToolsSection, type HarmonyNamespace } from './emit/harmony/catalog.js';
export { renderConversation, dropAnalysis, type ConversationOptions } from './messages/conversation.js';
export { renderEnvelope, messageHeader, type HarmonyMessage } from './messages/envelope.js';
export type { ReasoningEffort, ResponseFormat } from './messages/options.js';
export type { SystemMessageOptions } from './messages/system.js';

/** Tools as the API takes them: JSON text, a JS value in any supported shape, or what `readTools` returned. */
export type ToolsInput = string | ReadResult | readonly ToolDefinition[] | unknown;

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

/** Options for the tools section. */
export interface CatalogOptions {
  /** The namespace of the tools. Default `functions`. */
  readonly namespace?: string;
  /** A description of that namespace (`// ` lines under its heading). */
  readonly namespaceDescription?: string;
  /** Lowering limits. */
  readonly limits?: Partial<LowerLimits>;
}

/** Options for the developer message. */
export interface DeveloperMessageOptions extends CatalogOptions {
  /** `# Instructions` text (an empty string still writes the heading). */
  readonly instructions?: string;
  /** `# Response Formats` (beyond the reference; OpenAI's documented layout). */
  readonly responseFormats?: readonly ResponseFormat[];
}

/** Options for the system message. */
export interface SystemOptions extends SystemMessageOptions {
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

const READ = new WeakSet<object>();

/** Read tool definitions in any supported shape; throws a CompileError listing every problem. */
export function readTools(input: unknown, options: { source?: string } = {}): ReadResult {
  const r = readToolsInput(input, options);
  READ.add(r);
  return r;
}

function asRead(input: ToolsInput): ReadResult {
  if (typeof input === 'object' && input !== null && READ.has(input)) return input as ReadResult;
  return readTools(input);
}

/** Lowered tools with every diagnostic of reading and lowering; throws when any is an error. */
export function compileTools(input: ToolsInput, options: { limits?: Partial<LowerLimits> } = {}): { tools: IrTool[]; diagnostics: Diagnostic[] } {
  const read = asRead(input);
  const diagnostics: Diagnostic[] = [...read.diagnostics];
  const tools = read.tools.map((t) => {
    const r = lowerTool(t, options.limits ? { limits: options.limits } : {});
    diagnostics.push(...r.diagnostics);
    return r.tool;
  });
  throwIfErrors(diagnostics);
  return { tools, diagnostics };
}

function functionsNamespace(tools: readonly IrTool[], options: CatalogOptions): HarmonyNamespace {
  return { name: options.namespace ?? 'functions', ...(options.namespaceDescription !== undefined ? { description: options.namespaceDescription } : {}), tools };
}

/** The `# Tools` section for the tools (openai-harmony layout). */
export function renderCatalog(tools: ToolsInput, options: CatalogOptions = {}): RenderResult {
  const c = compileTools(tools, options);
  return { text: emitHarmonyToolsSection([functionsNamespace(c.tools, options)]), diagnostics: c.diagnostics };
}

/** The developer message: instructions, the tools section, response formats. */
export function renderDeveloperMessage(tools: ToolsInput | undefined, options: DeveloperMessageOptions = {}): MessageResult {
  const c = tools === undefined ? { tools: [], diagnostics: [] } : compileTools(tools, options);
  const section = c.tools.length || options.namespaceDescription !== undefined ? emitHarmonyToolsSection([functionsNamespace(c.tools, options)]) : undefined;
  const text = renderHarmonyDeveloperContent(options.instructions, section, options.responseFormats);
  return { text, message: renderEnvelope({ role: 'developer', content: text }), diagnostics: c.diagnostics };
}

/** The system message: identity, dates, reasoning, builtin tools, channels and the routing line. */
export function renderSystemMessage(options: SystemOptions = {}): MessageResult {
  const namespaces: HarmonyNamespace[] = [];
  const diagnostics: Diagnostic[] = [];
  if (options.browser) {
    const tools = browserTools().map((t) => lowerTool(t).tool);
    namespaces.push({ name: 'browser', description: BROWSER_DESCRIPTION, tools });
  }
  if (options.python) namespaces.push({ name: 'python', description: PYTHON_DESCRIPTION, tools: [] });
  const section = namespaces.length ? emitHarmonyToolsSection(namespaces) : undefined;
  const text = renderHarmonySystemContent(options, section, options.functionTools ?? false);
  return { text, message: renderEnvelope({ role: 'system', content: text }), diagnostics };
}

/**
 * A whole prompt: the system message, the developer message (when there are tools or
 * instructions), the conversation, and `<|start|>assistant` when `completion` is set.
 */
export function renderPrompt(options: PromptOptions = {}): PromptResult {
  const c = options.tools === undefined ? { tools: [] as IrTool[], diagnostics: [] as Diagnostic[] } : compileTools(options.tools, options);
  const ns = options.namespace ?? 'functions';
  const system = renderSystemMessage({ ...options, functionTools: ns === 'functions' && c.tools.length > 0 });
  const hasTools = c.tools.length > 0 || options.namespaceDescription !== undefined;
  const catalog = hasTools ? emitHarmonyToolsSection([functionsNamespace(c.tools, options)]) : undefined;
  const hasDeveloper = hasTools || options.instructions !== undefined || (options.responseFormats?.length ?? 0) > 0;
  const developer = hasDeveloper ? renderHarmonyDeveloperContent(options.instructions, catalog, options.responseFormats) : undefined;
  const head: HarmonyMessage[] = [{ role: 'system', content: system.text }];
  if (developer !== undefined) head.push({ role: 'developer', content: developer });
  const text = renderConversation([...head, ...(options.messages ?? [])], options);
  return {
    text,
    system: system.text,
    ...(developer !== undefined ? { developer } : {}),
    ...(catalog !== undefined ? { catalog } : {}),
    diagnostics: [...c.diagnostics, ...system.diagnostics],
  };
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
  const p = renderPrompt({ ...options, tools });
  switch (options.part ?? 'prompt') {
    case 'system':
      return { text: p.system, diagnostics: p.diagnostics };
    case 'developer':
      return { text: p.developer ?? '', diagnostics: p.diagnostics };
    case 'catalog':
      return { text: p.catalog ?? '', diagnostics: p.diagnostics };
    case 'prompt':
      return { text: p.text, diagnostics: p.diagnostics };
  }
}
