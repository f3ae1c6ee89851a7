/**
 * Conversations as servers build them: one reader per message shape (read.ts), one profile per
 * server (vllm.ts, template.ts for transformers / llama.cpp / mlx-lm, ollama.ts). This module
 * picks the profile and hands it the messages in the shape it reads: vLLM reads Chat Completions
 * messages, Responses items and Harmony-native messages itself; the template servers and Ollama
 * read Chat Completions messages, so other shapes are converted first (each conversion rule is
 * a diagnostic where something has no equivalent).
 */
import { CompileError, isCompileError, type Diagnostic } from '../diagnostics.js';
import { renderOllama } from './ollama.js';
import { toChatMessages, withInputPointers } from './read.js';
import { renderTemplateServer } from './template.js';
import type { ServerName, ServerPrompt, ServerRequest } from './types.js';
import { renderVllm } from './vllm.js';

export { readConversation, readRequestBody, toChatMessages } from './read.js';
export { SERVERS, MESSAGE_FORMATS, type ServerName, type MessageFormat, type ConversationInput, type ServerRequest, type ServerPrompt, type CompiledToolSet } from './types.js';
export { templateServerInput, type TemplateServerName, type TemplateContentFormat, type TemplateServerInput, type TemplateServerOutput } from './template-servers.js';

/** The gpt-oss layout each server prints: openai-harmony's, the official chat template's, or Ollama's own Go template. */
export type ServerFlavor = 'openai-harmony' | 'chat-template' | 'ollama';

/** Which layout a server prints. */
export function flavorOfServer(server: ServerName): ServerFlavor {
  switch (server) {
    case 'vllm':
      return 'openai-harmony';
    case 'transformers':
    case 'llama.cpp':
    case 'mlx-lm':
      return 'chat-template';
    case 'ollama':
      return 'ollama';
  }
}

/** The server whose mapping a flavor copies when none is named: vLLM for openai-harmony, transformers for the chat template, Ollama for its own. */
export function defaultServer(flavor: ServerFlavor): ServerName {
  return flavor === 'openai-harmony' ? 'vllm' : flavor === 'chat-template' ? 'transformers' : 'ollama';
}

/** The request with its conversation as Chat Completions messages (the template servers and Ollama read no other shape). */
function asChat(request: ServerRequest): { request: ServerRequest; diagnostics: readonly Diagnostic[]; moved?: ReadonlyMap<string, string> } {
  if (request.conversation.format === 'chat' && request.conversation.instructions === undefined) return { request, diagnostics: [] };
  const c = toChatMessages(request.conversation);
  return { request: { ...request, conversation: { format: 'chat', items: c.messages, pointers: c.pointers } }, diagnostics: c.diagnostics, ...(c.moved !== undefined ? { moved: c.moved } : {}) };
}

/** The whole prompt a server builds for a request. Throws a CompileError where the server refuses it. */
export function renderServerPrompt(server: ServerName, request: ServerRequest): ServerPrompt {
  if (server === 'vllm') return renderVllm(request);
  const { request: chat, diagnostics, moved } = asChat(request);
  let p: ServerPrompt;
  try {
    p = server === 'ollama' ? renderOllama(chat) : renderTemplateServer(server, chat);
  } catch (e) {
    // what the server refuses is said where the input has it, too
    if (isCompileError(e) && moved?.size) throw new CompileError(withInputPointers(e.diagnostics, moved));
    throw e;
  }
  // the server reads converted messages: its findings point where the input has each field (a thinking block, not `reasoning`)
  const own = withInputPointers(p.diagnostics, moved);
  return diagnostics.length || moved?.size ? { ...p, diagnostics: [...diagnostics, ...own] } : p;
}
