/**
 * Issue 22, item 20: the API's tools and messages are typed for the shapes the readers take (not
 * `unknown`), values typed `unknown` are still accepted, and the two lists once both called
 * `tools` have their own names: `readTools(…).definitions` (tool definitions) and
 * `compileTools(…).lowered` (the IR), `tools` kept on both as a deprecated alias.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileTools, readTools } from '../../src/api/compile.js';
import { completionsAt, EQUAL, languageService, makeProject, ts, tsc, type Project } from './support.js';

const TOOLS = '[{"type": "function", "function": {"name": "get_weather", "description": "Weather.", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]';

/** The renamed properties: new names typed, old names still compiling (an editor strikes them through: see the deprecation test). */
const RENAMED = `import { compileTools, readTools, type CompiledTools, type IrTool, type ReadToolsResult, type ToolDefinition } from 'harmony-catalog';
${EQUAL}
const read = readTools('[]');
const compiled = compileTools(read);
export const definitions: readonly ToolDefinition[] = read.definitions;
export const same: readonly ToolDefinition[] = compiled.definitions;
export const lowered: readonly IrTool[] = compiled.lowered;
// the two names no longer hold different things: definitions are not IR, and IR is not definitions
// @ts-expect-error definitions are not the lowered IR
export const wrong: readonly IrTool[] = read.definitions;
// @ts-expect-error the lowered IR is not definitions
export const wrong2: readonly ToolDefinition[] = compiled.lowered;
// the old names still compile, with what they held
export const oldRead: readonly ToolDefinition[] = read.tools;
export const oldCompiled: readonly IrTool[] = compiled.tools;
export const types: [Equal<ReadToolsResult['definitions'], ReadToolsResult['tools']>, Equal<CompiledTools['lowered'], CompiledTools['tools']>] = [true, true];
`;

/** Tools in every shape the reader takes, typed; unknown values still accepted. */
const TOOL_SHAPES = `import { compileTools, readTools, renderCatalog, renderPrompt, type AiSdkToolRecord, type AnthropicTool, type BareTool, type GeminiTool, type McpTool, type McpToolsList, type McpToolsListResponse, type OpenAIChatTool, type OpenAIFunctions, type OpenAIResponsesTool, type ToolsInput } from 'harmony-catalog';
${EQUAL}
const schema = { type: 'object', properties: { city: { type: 'string', description: 'The city' } }, required: ['city'] } as const;
export const chat = { type: 'function', function: { name: 'get_weather', description: 'Weather.', parameters: schema, strict: true } } satisfies OpenAIChatTool;
export const responses = { type: 'function', name: 'get_weather', parameters: schema } satisfies OpenAIResponsesTool;
export const anthropic = { name: 'get_weather', description: 'Weather.', input_schema: schema } satisfies AnthropicTool;
export const mcp = { name: 'get_weather', title: 'Weather', inputSchema: schema, annotations: { readOnlyHint: true } } satisfies McpTool;
export const bare = { name: 'ping' } satisfies BareTool;
export const gemini = { functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: schema }] } satisfies GeminiTool;
export const list = { tools: [mcp], nextCursor: 'x' } satisfies McpToolsList;
export const rpc = { jsonrpc: '2.0', id: 1, result: { tools: [mcp] } } satisfies McpToolsListResponse;
export const legacy = { functions: [{ name: 'ping' }] } satisfies OpenAIFunctions;
export const aiSdk = { get_weather: { description: 'Weather.', inputSchema: schema, execute: async () => 17 } } satisfies AiSdkToolRecord;

renderCatalog([chat, responses, anthropic, mcp, bare]);
renderCatalog([gemini]);
for (const t of [list, rpc, legacy, aiSdk, chat]) renderCatalog(t);
compileTools(readTools('[]'));
renderCatalog(compileTools('[]'));
renderPrompt({ tools: [anthropic] });

// JSON read at run time: typed unknown (fetch's json()) or any (JSON.parse): accepted, checked when read
declare const fromJson: unknown;
renderCatalog(fromJson);
readTools(fromJson);
compileTools(fromJson);
renderPrompt({ tools: fromJson });
renderCatalog(JSON.parse('[]'));

// the shapes are real types: what a shape requires, it requires
// @ts-expect-error an Anthropic tool has an input_schema
export const noSchema: AnthropicTool = { name: 'x' };
// @ts-expect-error a function has a name
export const noName: OpenAIChatTool = { type: 'function', function: { description: 'x' } };
// @ts-expect-error an MCP tool's inputSchema is a schema
export const badSchema: McpTool = { name: 'x', inputSchema: 'object' };

// the parameter is typed, not unknown (a union whose members are the shapes: of unknown, Extract keeps nothing)
type HasShape<T> = Equal<Extract<T, OpenAIChatTool>, OpenAIChatTool>;
export const typed: [HasShape<ToolsInput>, HasShape<Parameters<typeof renderCatalog>[0]>, HasShape<Parameters<typeof readTools>[0]>, HasShape<Parameters<typeof compileTools>[0]>] = [true, true, true, true];

// what an editor offers (test: completions)
renderCatalog([{ type: 'function', function: { /*function-keys*/ } }]);
renderCatalog([{ name: 'x', input_schema: { type: 'object', properties: { a: { /*schema-keys*/ } } } }]);
`;

/** Messages in every shape the conversation reader takes, typed; the README's agent loop; unknown values still accepted. */
const MESSAGES = `import { renderPrompt, renderRequest, parseHarmony, toChatCompletion, type AnthropicMessage, type ChatMessage, type ChatToolMessage, type HarmonyInputMessage, type MessagesInput, type PromptMessage, type PromptOptions, type ResponsesInputItem } from 'harmony-catalog';
${EQUAL}
const chat: ChatMessage[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: [{ type: 'text', text: 'Weather?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } }] },
  { role: 'assistant', content: null, reasoning: 'Need the city.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_location', arguments: '{}' } }] },
  { role: 'tool', tool_call_id: 'call_1', content: '{"city": "Lisbon"}' },
  { role: 'assistant', content: 'Rain.', reasoning_content: 'It rains.' },
];
const responses: ResponsesInputItem[] = [
  { role: 'user', content: [{ type: 'input_text', text: 'Weather?' }] },
  { type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: 'Need the city.' }] },
  { type: 'function_call', call_id: 'call_1', name: 'get_location', arguments: '{}' },
  { type: 'function_call_output', call_id: 'call_1', output: '{"city": "Lisbon"}' },
];
const anthropic: AnthropicMessage[] = [
  { role: 'user', content: 'Weather?' },
  { role: 'assistant', content: [{ type: 'thinking', thinking: 'Need the city.', signature: 'x' }, { type: 'tool_use', id: 'toolu_1', name: 'get_location', input: {} }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '{"city": "Lisbon"}' }] },
];
const harmony: HarmonyInputMessage[] = [
  { role: 'user', content: 'Weather?' },
  { role: 'assistant', channel: 'analysis', content: 'Need the city.' },
  { role: 'assistant', recipient: 'functions.get_location', channel: 'commentary', content_type: '<|constrain|>json', content: '{}' },
  { role: 'tool', name: 'functions.get_location', channel: 'commentary', content: '{"city": "Lisbon"}' },
];
for (const messages of [chat, responses, anthropic, harmony]) renderPrompt({ messages });
renderRequest({ model: 'openai/gpt-oss-20b', messages: chat, tools: [], reasoning_effort: 'low', temperature: 0 });
renderRequest({ input: responses, instructions: 'Be brief.', reasoning: { effort: 'high' } });
renderRequest({ system: 'Be brief.', messages: anthropic, max_tokens: 1024 });

// the README's agent loop: a response's message goes back into the conversation as it is
const messages: PromptMessage[] = [{ role: 'user', content: 'Weather?' }];
const response = toChatCompletion(parseHarmony('<|channel|>final<|message|>Rain.<|return|>'));
if (!response.error) {
  const { message } = response;
  messages.push({ role: 'assistant', content: message.content, reasoning: message.reasoning, tool_calls: message.tool_calls });
  for (const call of message.tool_calls ?? []) messages.push({ role: 'tool', tool_call_id: call.id, content: '{}' });
}
renderPrompt({ messages });
// the fields of a PromptMessage that could be read before it had shapes still can (any type)
const lastMessage = messages[messages.length - 1]!;
export const read: unknown[] = [lastMessage.role, lastMessage.content, lastMessage.name, lastMessage.channel, lastMessage.recipient, lastMessage.contentType];
// and a message object of any other type is still a PromptMessage
declare const stored: Record<string, unknown>;
messages.push(stored);
messages.push({ type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' });

// JSON read at run time
declare const fromJson: unknown;
declare const list: unknown[];
renderPrompt({ messages: list });
renderRequest(fromJson);
renderRequest('{"messages": []}');
renderPrompt({ messages: JSON.parse('[]') });

// the shapes are real types
// @ts-expect-error a tool result names its call
export const noId: ChatToolMessage = { role: 'tool', content: 'x' };
// @ts-expect-error a role is one of the roles
export const badRole: ChatMessage = { role: 'robot', content: 'x' };

// messages are typed, not unknown
export const typed: [Equal<PromptOptions['messages'], MessagesInput | undefined>, Equal<Extract<MessagesInput[number], ChatToolMessage>, ChatToolMessage>] = [true, true];

// what an editor offers (test: completions)
renderPrompt({ messages: [{ role: '/*roles*/' }] });
renderPrompt({ messages: [{ role: 'tool', /*tool-message-keys*/ }] });
renderPrompt({ messages: [{ role: 'assistant', tool_calls: [{ function: { /*call-keys*/ } }] }] });
`;

const compilerOptions = { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, types: [] };

let project: Project;
beforeAll(() => {
  project = makeProject('types-shapes', {
    'package.json': JSON.stringify({ name: 'shapes-user', private: true, type: 'module' }),
    // one tsconfig per fixture (tsc), and all of them for the language service
    'tsconfig.json': JSON.stringify({ compilerOptions, files: ['renamed.ts', 'tools.ts', 'messages.ts'] }),
    'tsconfig.renamed.json': JSON.stringify({ compilerOptions, files: ['renamed.ts'] }),
    'tsconfig.tools.json': JSON.stringify({ compilerOptions, files: ['tools.ts'] }),
    'tsconfig.messages.json': JSON.stringify({ compilerOptions, files: ['messages.ts'] }),
    'renamed.ts': RENAMED,
    'tools.ts': TOOL_SHAPES,
    'messages.ts': MESSAGES,
  });
}, 300_000);
afterAll(() => project?.remove());

describe('readTools(…).definitions and compileTools(…).lowered', () => {
  it('hold the definitions and the IR; tools is the same list on each (an alias)', () => {
    const read = readTools(TOOLS);
    expect(read.definitions.map((d) => d.name)).toEqual(['get_weather']);
    expect(read.tools).toBe(read.definitions);
    // a read result's keys stay what they were (JSON of it, code that tells it by its keys)
    expect(Object.keys(read)).toEqual(['tools', 'diagnostics']);
    expect(JSON.parse(JSON.stringify(read))).toHaveProperty('tools');
    const c = compileTools(read);
    expect(c.definitions).toBe(read.definitions);
    expect(c.lowered).toHaveLength(1);
    expect(c.lowered[0]!.name).toBe('get_weather');
    expect(c.tools).toBe(c.lowered);
    expect(Object.isFrozen(c.lowered)).toBe(true);
  });

  it('the names type-check as what they hold, the old names too (tsc exit 0)', () => {
    const r = tsc(project.dir, 'tsconfig.renamed.json');
    expect(r.out).toBe('');
    expect(r.code).toBe(0);
  });

  it('an editor marks the old names deprecated, and only them', () => {
    const ls = languageService(project.dir);
    const file = ls.file('renamed.ts');
    const source = ls.service.getProgram()!.getSourceFile(file)!;
    const deprecated = ls.service
      .getSuggestionDiagnostics(file)
      .filter((d) => d.reportsDeprecated)
      .map((d) => `${source.getLineAndCharacterOfPosition(d.start!).line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
    // each use of the old name in code (not in comments): `x.tools` and `T['tools']`
    const expected = RENAMED.split('\n').flatMap((l, i) => (l.trimStart().startsWith('//') ? [] : [...l.matchAll(/\.tools\b|\['tools'\]/g)].map(() => `${i + 1}: 'tools' is deprecated.`)));
    expect(expected).toHaveLength(4);
    expect(deprecated).toEqual(expected);
  });
});

describe('tools and messages typed for the shapes the readers take', () => {
  it('every tool shape, and unknown values, type-check; a wrong shape does not; the parameter is not unknown (tsc exit 0)', () => {
    const r = tsc(project.dir, 'tsconfig.tools.json');
    expect(r.out).toBe('');
    expect(r.code).toBe(0);
  });

  it('every message shape, request bodies, the README loop and unknown values type-check; a wrong shape does not (tsc exit 0)', () => {
    const r = tsc(project.dir, 'tsconfig.messages.json');
    expect(r.out).toBe('');
    expect(r.code).toBe(0);
  });

  it('an editor completes a tool\'s keys and its schema\'s keywords', () => {
    const ls = languageService(project.dir);
    expect(completionsAt(ls, 'tools.ts', '/*function-keys*/')).toEqual(expect.arrayContaining(['name', 'description', 'parameters', 'strict']));
    expect(completionsAt(ls, 'tools.ts', '/*schema-keys*/')).toEqual(expect.arrayContaining(['type', 'description', 'enum', 'properties', 'required', 'items']));
  });

  it('an editor completes a message\'s roles and keys, and a tool call\'s', () => {
    const ls = languageService(project.dir);
    expect(completionsAt(ls, 'messages.ts', '/*roles*/')).toEqual(expect.arrayContaining(['system', 'developer', 'user', 'assistant', 'tool']));
    expect(completionsAt(ls, 'messages.ts', '/*tool-message-keys*/')).toEqual(expect.arrayContaining(['tool_call_id', 'content']));
    expect(completionsAt(ls, 'messages.ts', '/*call-keys*/')).toEqual(expect.arrayContaining(['name', 'arguments']));
  });
});
