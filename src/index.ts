/**
 * harmony-catalog: tool definitions → the text a model reads.
 *
 * The pipeline, one stage per folder:
 *   input/    readTools: JSON text or JS values in any tool shape → ToolDefinition[] (+ warnings)
 *   lower/    lowerTool: each parameters schema → the IR (an in-place pre-pass first: limits, refs, unknown keywords)
 *   emit/     one printer per target: harmony (openai-harmony, faithful), chat-template, jsdoc, xml
 *   messages/ system and developer message assembly, whole prompts (harmony and the chat template)
 * Around it: lint/, diff.ts, inventory.ts (tokens), build/, mcp/, testing/ (vitest matcher), cli/.
 *   api/      compileTools (read + lower once) and the render functions, per target and part
 *   conversation/  messages in any shape (Chat, Responses, Anthropic, Harmony) → the prompt a server builds
 *   parse/    what the model wrote: the Harmony stream parser, the OpenAI response, tool calls checked, XML dialects
 * Errors are data (Diagnostic); input that cannot be rendered throws one CompileError.
 * This file only re-exports: nothing inside src/ imports it.
 */
export { CompileError, formatDiagnostic, isCompileError, type Diagnostic, type Severity } from './diagnostics.js';
export { JsonNumber, parseJson, fromJs, toJs, type JsonValue, type JsonObject, type JsonArray } from './ir/json.js';
export type * from './ir/nodes.js';
export type { ToolDefinition, ToolFormat, ReadResult } from './input/types.js';
export type {
  UnknownInput,
  ToolSchema,
  JsonSchemaObject,
  SchemaLibraryValue,
  FunctionDefinition,
  OpenAIChatTool,
  OpenAIResponsesTool,
  AnthropicTool,
  McpTool,
  BareTool,
  GeminiFunctionDeclaration,
  GeminiTool,
  McpToolsList,
  McpToolsListResponse,
  OpenAIFunctions,
  AiSdkTool,
  AiSdkFunctionTool,
  AiSdkLegacyTool,
  AiSdkToolRecord,
  ToolShape,
  ToolsContainer,
  ToolsDocument,
} from './input/shapes.js';
export { CONTROL_TOKEN_CODE, CONTROL_TOKEN_POLICIES, GENERIC_SPELLINGS, controlSpellings, escapeControlTokens, escapeControlTokensInKey, findControlTokens, findControlTokensInKey, unescapeControlTokens, unescapeControlTokensInKey, type ControlTokenPolicy, type ControlSpellings, type ControlTokenOptions } from './input/control-tokens.js';
export { lowerSchema, lowerTool, type LowerOptions, type LowerLimits, type LowerResult } from './lower/index.js';
export { harmonyType } from './emit/harmony/types.js';
export { emitHarmonyTool, emitHarmonyNamespace, emitHarmonyToolsSection, type HarmonyNamespace } from './emit/harmony/catalog.js';
export { renderConversation, dropAnalysis, type ConversationOptions } from './messages/conversation.js';
export { renderEnvelope, messageHeader, type HarmonyMessage } from './messages/envelope.js';
export type { ReasoningEffort, ResponseFormat } from './messages/options.js';
export type { SystemMessageOptions } from './messages/system.js';

export { readTools, compileTools, setCaching, clearTextCache, type ToolsInput, type ReadToolsResult, type CompiledTools, type CompileOptions } from './api/compile.js';
export type {
  MessageShape,
  MessagesInput,
  OtherMessage,
  ChatMessage,
  ChatSystemMessage,
  ChatDeveloperMessage,
  ChatUserMessage,
  ChatAssistantMessage,
  ChatToolMessage,
  ChatFunctionMessage,
  ChatToolCall,
  ChatTextPart,
  ChatContentPart,
  ResponsesInputItem,
  ResponsesMessageItem,
  ResponsesFunctionCall,
  ResponsesFunctionCallOutput,
  ResponsesReasoningItem,
  ResponsesContentPart,
  AnthropicMessage,
  AnthropicContentBlock,
  AnthropicTextBlock,
  AnthropicImageBlock,
  AnthropicImageSource,
  AnthropicToolUseBlock,
  AnthropicToolResultBlock,
  AnthropicThinkingBlock,
  AnthropicRedactedThinkingBlock,
  HarmonyInputMessage,
  RequestInput,
  ChatCompletionsRequest,
  ResponsesRequest,
  AnthropicMessagesRequest,
} from './api/messages.js';
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
  type TemplateOption,
} from './api/render.js';

export { renderRequest, isRequestBody, SERVERS, MESSAGE_FORMATS, type ServerName, type MessageFormat, type RequestRenderOptions, type RequestPromptResult } from './api/render.js';
export type { ServerOptions } from './api/conversation.js';
export { readConversation, readRequestBody, toChatMessages, renderServerPrompt, flavorOfServer, defaultServer, type ConversationInput, type ServerRequest, type ServerPrompt, type CompiledToolSet } from './conversation/index.js';
export { parseCompletion, PARSE_MODELS, type ParseModel, type ParseCompletionOptions, type ParsedCompletion } from './api/parse.js';
export { parseHarmony, createHarmonyParser, harmonyMessageToEnvelope, type HarmonyParseOptions, type HarmonyParseEvent, type HarmonyParser, type HarmonyStreamState } from './parse/harmony.js';
export type { ParsedHarmonyMessage, HarmonyParseResult, HarmonyParseError, HarmonyParseMode, HarmonyStopToken, HarmonyOpenMessage } from './parse/types.js';
export { toChatCompletion, chatCompletionChunks } from './parse/response.js';
export {
  createChatCompletionStream,
  accumulateChunks,
  type ChatCompletionOptions,
  type ChatCompletionResult,
  type ChatCompletion,
  type ChatCompletionFailure,
  type ChatCompletionMessage,
  type ChatCompletionToolCall,
  type ChatCompletionChunk,
  type ChatCompletionStream,
  type ChatCompletionStreamOptions,
} from './parse/openai.js';
export { checkToolCalls, toolCallsFromParse, type CheckToolCallsOptions, type CheckToolCallsResult, type CheckedToolCall, type ToolCallInput } from './parse/check.js';
export { findLeaks } from './parse/leaks.js';
export { XML_PARSE_MODELS, type XmlParseModel, type XmlParseOptions, type XmlParseResult, type XmlToolCall } from './parse/xml/index.js';
export { parseToolCalls, parseFamilyToolCalls, serverResponse, FAMILY_PARSERS, TOOL_PARSERS, SERVER_PARSERS, SYNTAXES, type ParseToolCallsOptions, type FamilyParseOptions, type FamilyParseResult, type FamilyParser, type FamilySyntax, type ParserResult, type ParseServer, type ServerCall, type ServerParserEntry, type ReasoningMarkers } from './parse/families/index.js';
export { createToolCallParser, type ToolCallEvent, type ToolCallStreamParser } from './parse/families/stream.js';
export { familyChatCompletion, familyChatCompletionChunks, eventsOfReading, openAIChunk, type FamilyChatCompletionOptions, type ChunkEnvelope } from './parse/families/response.js';
export { familyLeaks, LEAK_MARKERS, type LeakMarkers } from './parse/families/leaks.js';
export { emitOllamaToolsSection } from './emit/ollama/catalog.js';
export { renderReport, buildReport, reportColumns, flavorColumn, dialectColumn, jsdocColumn, modelColumn, templateColumn, type Report, type ReportOptions, type ReportColumn, type ReportModel, type ColumnCost, type ColumnRender } from './report/index.js';
export { listModels, modelNames, type ModelInfo, type ModelName, type KnownModelName } from './api/models.js';
// the vitest matcher's options, and its types (`expect(…).toMatchCatalogSnapshot()`): a test that
// imports the package sees the matcher typed (src/testing/matchers.ts: types only, nothing loaded
// at run time; scripts/bundle.mjs leaves this line out of the CommonJS declarations)
export type { CatalogSnapshotOptions } from './testing/options.js';
export type {} from './testing/matchers.js';
export { familyControlSpellings, familyControlStrings } from './api/controls.js';
export { lintTools, LINT_RULES, type Finding, type LintFlavor, type LintOptions, type LintResult } from './lint/index.js';
export { diffFlavors, type DiffOptions, type DiffResult, type DiffSide } from './diff.js';
export { emitFaithfulToolsSection } from './emit/harmony/faithful.js';
export { faithfulTool, faithfulLowerTool } from './lower/faithful.js';
export { emitJsdocCatalog, formatJsdoc } from './emit/jsdoc/index.js';
export { emitXmlCatalog, renderXmlPrompt, xmlCallingInstructions } from './emit/xml/index.js';
export { renderChatTemplatePrompt, renderChatTemplateSystem, renderChatTemplateDeveloper } from './messages/chat-template.js';
export { renderHarmonyConversationJson } from './messages/serde.js';

export { inventory, type Inventory, type InventoryOptions, type InventoryTokenizer, type InventoryTotals } from './inventory.js';
export { countTokens, encode, loadTokenizer, resolveTokenizer, tokenizerFromJson, findCachedTokenizer, hubCacheDir, GPT_OSS_TOKENIZER, GPT_OSS_TOKENIZER_SHA256 } from './tokenizers/index.js';
export type { Tokenizer, TokenizerOption, TokenizeOptions, HubCacheOptions, TokenSpans } from './tokenizers/index.js';
export { compileTemplate, renderTemplate, detectContentFormat, type CompiledTemplate, type TemplateValue, type TemplateVars, type TemplateAst } from './template/index.js';
export { readTemplateFile, renderWithTemplate, templateCatalog, type TemplateSpec, type TemplateRenderInput, type TemplatePrompt } from './api/template.js';
export { MODEL_FAMILIES, type ModelFamily } from './models/families.js';
export { TEMPLATES, type TemplateName } from './models/templates/index.js';
export type { OfficialTemplate, TemplateSource } from './models/types.js';
