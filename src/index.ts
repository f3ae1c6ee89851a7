/**
 * harmony-catalog: tool definitions → the text a model reads.
 *
 * The pipeline, one stage per folder:
 *   input/    readTools: JSON text or JS values in any tool shape → ToolDefinition[] (+ warnings)
 *   lower/    lowerTool: each parameters schema → the IR (a json-schema-traverse pre-pass first)
 *   emit/     one printer per target: harmony (openai-harmony, faithful), chat-template, jsdoc, xml
 *   messages/ system and developer message assembly, whole prompts (harmony and the chat template)
 * Around it: lint/, diff.ts, inventory.ts (tokens), build/, mcp/, testing/ (vitest matcher), cli/.
 *   api/      compileTools (read + lower once) and the render functions, per target and part
 * Errors are data (Diagnostic); input that cannot be rendered throws one CompileError.
 * This file only re-exports: nothing inside src/ imports it.
 */
export { CompileError, formatDiagnostic, isCompileError, type Diagnostic, type Severity } from './diagnostics.js';
export { JsonNumber, parseJson, fromJs, toJs, type JsonValue, type JsonObject, type JsonArray } from './ir/json.js';
export type * from './ir/nodes.js';
export type { ToolDefinition, ToolFormat, ReadResult } from './input/types.js';
export { CONTROL_TOKEN_CODE, CONTROL_TOKEN_POLICIES, escapeControlTokens, escapeControlTokensInKey, findControlTokens, findControlTokensInKey, unescapeControlTokens, unescapeControlTokensInKey, type ControlTokenPolicy } from './input/control-tokens.js';
export { lowerSchema, lowerTool, type LowerOptions, type LowerLimits, type LowerResult } from './lower/index.js';
export { harmonyType } from './emit/harmony/types.js';
export { emitHarmonyTool, emitHarmonyNamespace, emitHarmonyToolsSection, type HarmonyNamespace } from './emit/harmony/catalog.js';
export { renderConversation, dropAnalysis, type ConversationOptions } from './messages/conversation.js';
export { renderEnvelope, messageHeader, type HarmonyMessage } from './messages/envelope.js';
export type { ReasoningEffort, ResponseFormat } from './messages/options.js';
export type { SystemMessageOptions } from './messages/system.js';

export { readTools, compileTools, type ToolsInput, type CompiledTools } from './api/compile.js';
export {
  renderCatalog,
  renderDeveloperMessage,
  renderSystemMessage,
  renderPrompt,
  renderPart,
  renderFaithfulCatalog,
  FLAVORS,
  TARGETS,
  XML_DIALECTS,
  type RenderResult,
  type MessageResult,
  type Flavor,
  type Target,
  type XmlDialect,
  type TargetOptions,
  type CatalogOptions,
  type DeveloperMessageOptions,
  type SystemOptions,
  type PromptMessage,
  type PromptOptions,
  type PromptResult,
  type Part,
  type PartOptions,
} from './api/render.js';

export { lintTools, LINT_RULES, type Finding, type LintFlavor } from './lint/index.js';
export { diffFlavors } from './diff.js';
export { emitFaithfulToolsSection } from './emit/harmony/faithful.js';
export { faithfulTool, faithfulLowerTool } from './lower/faithful.js';
export { emitJsdocCatalog, formatJsdoc } from './emit/jsdoc/index.js';
export { emitXmlCatalog, renderXmlPrompt, xmlCallingInstructions } from './emit/xml/index.js';
export { renderChatTemplatePrompt, renderChatTemplateSystem, renderChatTemplateDeveloper } from './messages/chat-template.js';
export { renderHarmonyConversationJson } from './messages/serde.js';

/** Tool by tool, what the model sees and what it costs in tokens (loads the tokenizer on first use). */
export async function inventory(input: import('./api/compile.js').ToolsInput, options: import('./inventory.js').InventoryOptions = {}): Promise<import('./inventory.js').Inventory> {
  return (await import('./inventory.js')).inventory(input, options);
}
