/** Whole conversations (spec §6): message order, analysis dropping, the completion prompt. */
import { renderEnvelope, type HarmonyMessage } from './envelope.js';

/** How to render a conversation. */
export interface ConversationOptions {
  /** End with `<|start|>{role}` for the model to complete (usually `assistant`; `true` means the assistant). */
  readonly completion?: string | boolean;
  /** Drop earlier analysis messages when the conversation has a final answer (the reference's default). Default true. */
  readonly dropAnalysis?: boolean;
  /** Training render: the last assistant `final` message ends with `<|return|>`. */
  readonly training?: boolean;
}

/**
 * The reference's analysis dropping: when the last assistant message is on `final`, every
 * `analysis` message before the first `final` one is dropped (analysis between finals stays);
 * nothing is dropped while a tool-call turn is open.
 */
export function dropAnalysis(messages: readonly HarmonyMessage[]): HarmonyMessage[] {
  const lastAssistant = [...messages].reverse().find((m) => m.role === 'assistant');
  if (!lastAssistant || lastAssistant.channel !== 'final') return [...messages];
  const firstFinal = messages.findIndex((m) => m.role === 'assistant' && m.channel === 'final');
  return messages.filter((m, i) => !(i < firstFinal && m.role === 'assistant' && m.channel === 'analysis'));
}

/** Render messages one after another, with nothing between them. */
export function renderConversation(messages: readonly HarmonyMessage[], options: ConversationOptions = {}): string {
  const list = options.dropAnalysis === false ? [...messages] : dropAnalysis(messages);
  let lastFinal = -1;
  if (options.training) list.forEach((m, i) => m.role === 'assistant' && m.channel === 'final' && (lastFinal = i));
  // concatenated, not joined: a long message (the tools) is not copied into a new flat string on every render
  let out = '';
  for (let i = 0; i < list.length; i++) out += renderEnvelope(list[i], i === lastFinal);
  const role = options.completion === true ? 'assistant' : options.completion;
  if (role) out += `<|start|>${role}`;
  return out;
}
