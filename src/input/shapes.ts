/**
 * The tool shapes `readTools` reads, as TypeScript types: what an editor completes and shows for
 * the API's `tools`, and what code that builds tools can be checked against. Types only (nothing
 * here runs); the reader itself is `read.ts`, which recognises the shapes by their keys
 * (`formats.ts`).
 *
 * The reader takes more than these types say: keys it does not use are kept for the printers that
 * read them or ignored, as each format's servers do; and a value typed `unknown` (JSON read at run
 * time) is accepted as it is (`UnknownInput`) and checked when it is read, each problem a
 * diagnostic with its JSON Pointer.
 */

/**
 * Any other value: what JSON read at run time is typed as (`unknown`), or a value of another type.
 * Accepted where the API takes input and checked when it is read: a value that is none of the
 * shapes is a CompileError saying which shapes are read, at its JSON Pointer.
 */
// `{} | null | undefined` accepts every value, `unknown` included, yet (unlike `unknown`) does not
// absorb the typed shapes beside it in a union: editors still complete their keys
export type UnknownInput = {} | null | undefined;

/** A JSON Schema object: `type`, `properties`, `required`, `enum`, `description`… (every keyword is read). */
export interface JsonSchemaObject {
  readonly type?: string | readonly string[];
  readonly description?: string;
  readonly properties?: { readonly [name: string]: ToolSchema };
  readonly required?: readonly string[];
  readonly items?: ToolSchema | readonly ToolSchema[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly default?: unknown;
  readonly anyOf?: readonly ToolSchema[];
  readonly oneOf?: readonly ToolSchema[];
  readonly allOf?: readonly ToolSchema[];
  readonly $ref?: string;
  readonly $defs?: { readonly [name: string]: ToolSchema };
  readonly additionalProperties?: ToolSchema;
  readonly [keyword: string]: unknown;
}

/**
 * A tool's parameters schema: a JSON Schema object or boolean, or a schema library's value whose
 * JSON Schema is read: a zod 4 schema (zod's `toJSONSchema`), a TypeBox schema (it is JSON
 * Schema), any Standard JSON Schema value, the AI SDK's `jsonSchema()` / `zodSchema()`.
 */
export type ToolSchema = JsonSchemaObject | boolean | SchemaLibraryValue;

/** A schema library's schema value (zod 4, TypeBox, Standard JSON Schema…): an object, read by what it is. */
export type SchemaLibraryValue = object;

/** A function's name, description and parameters (OpenAI Chat Completions' `function`, legacy `functions` entries). */
export interface FunctionDefinition {
  readonly name: string;
  readonly description?: string | null;
  /** The arguments' JSON Schema; absent for a tool that takes none. */
  readonly parameters?: ToolSchema | null;
  /** OpenAI's structured-outputs flag (kept; some templates print it). */
  readonly strict?: boolean | null;
}

/** OpenAI Chat Completions: `{type: 'function', function: {name, description?, parameters?, strict?}}` (format `openai-chat`). */
export interface OpenAIChatTool {
  readonly type: 'function';
  readonly function: FunctionDefinition;
}

/** OpenAI Responses: `{type: 'function', name, description?, parameters?, strict?}` (format `openai-responses`). */
export interface OpenAIResponsesTool extends FunctionDefinition {
  readonly type: 'function';
}

/** Anthropic Messages: `{name, description?, input_schema}` (`type: 'custom'` optional; format `anthropic`). */
export interface AnthropicTool {
  readonly type?: 'custom';
  readonly name: string;
  readonly description?: string;
  readonly input_schema: ToolSchema;
  readonly cache_control?: unknown;
}

/** An MCP tool, as `tools/list` lists it: `{name, title?, description?, inputSchema}` (format `mcp`). */
export interface McpTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: ToolSchema;
  readonly outputSchema?: ToolSchema;
  readonly annotations?: { readonly [key: string]: unknown };
  readonly _meta?: { readonly [key: string]: unknown };
}

/** A bare tool: `{name, description?, parameters?}` (format `bare`). */
export interface BareTool {
  readonly name: string;
  readonly description?: string;
  readonly parameters?: ToolSchema | null;
}

/** A Gemini function declaration: `parameters` (Gemini's OpenAPI subset) or `parametersJsonSchema` (JSON Schema as it is; snake_case too). */
export interface GeminiFunctionDeclaration {
  readonly name: string;
  readonly description?: string;
  readonly parameters?: ToolSchema;
  readonly parametersJsonSchema?: ToolSchema;
  readonly parameters_json_schema?: ToolSchema;
}

/** A Gemini `Tool`: `{functionDeclarations: […]}` (or the REST API's `function_declarations`; format `gemini`). */
export type GeminiTool = { readonly functionDeclarations: readonly GeminiFunctionDeclaration[] } | { readonly function_declarations: readonly GeminiFunctionDeclaration[] };

/** An MCP `tools/list` result: `{tools: […], nextCursor?}`. */
export interface McpToolsList {
  readonly tools: readonly McpTool[];
  readonly nextCursor?: string;
}

/** A JSON-RPC response to `tools/list`: `{jsonrpc: '2.0', id, result: {tools: […]}}`. */
export interface McpToolsListResponse {
  readonly jsonrpc: '2.0';
  readonly id: string | number | null;
  readonly result: McpToolsList;
}

/** Legacy OpenAI functions: `{functions: [{name, description?, parameters?}]}` (format `openai-functions`). */
export interface OpenAIFunctions {
  readonly functions: readonly FunctionDefinition[];
}

/**
 * One tool of a Vercel AI SDK tool record: `tool({description, inputSchema, execute})` (`parameters`
 * before AI SDK 5). Its functions (`execute`…) are its code, not its definition: dropped.
 */
export type AiSdkTool = AiSdkFunctionTool | AiSdkLegacyTool;

/** An AI SDK 5 tool: `{description?, inputSchema, execute?…}`. */
export interface AiSdkFunctionTool {
  readonly type?: 'function' | 'dynamic';
  readonly description?: string;
  readonly inputSchema: ToolSchema;
  readonly outputSchema?: ToolSchema;
  readonly execute?: (...args: never[]) => unknown;
  readonly providerOptions?: { readonly [provider: string]: unknown };
}

/** An AI SDK 4 tool: `{description?, parameters, execute?}`. */
export interface AiSdkLegacyTool {
  readonly description?: string;
  readonly parameters: ToolSchema;
  readonly execute?: (...args: never[]) => unknown;
}

/** A Vercel AI SDK tool record `{[name]: tool({…})}` (format `ai-sdk`). */
export interface AiSdkToolRecord {
  readonly [name: string]: AiSdkTool;
}

/** One tool in any shape the reader reads. */
export type ToolShape = OpenAIChatTool | OpenAIResponsesTool | AnthropicTool | McpTool | BareTool;

/** A value holding tools: one tool, or a container (MCP `tools/list` result or response, Gemini Tool, legacy functions, AI SDK record). */
export type ToolsContainer = McpToolsList | McpToolsListResponse | GeminiTool | OpenAIFunctions | AiSdkToolRecord;

/** Tools as a document holds them: a tool or a container, or a list of these. */
export type ToolsDocument = ToolShape | ToolsContainer | readonly (ToolShape | ToolsContainer)[];
