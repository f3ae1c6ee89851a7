/** The Harmony system message content (spec §2). */
import type { ReasoningEffort } from './options.js';

/** Settings of the system message. */
export interface SystemMessageOptions {
  /** Model identity; `null` leaves the line out. Default: the ChatGPT identity. */
  readonly identity?: string | null;
  /** Knowledge cutoff; `null` leaves the line out. Default `2024-06`. */
  readonly cutoff?: string | null;
  /** Current date (`YYYY-MM-DD`); no line when absent. */
  readonly date?: string;
  /** Reasoning effort. Default `medium`. */
  readonly effort?: ReasoningEffort;
  /** Valid channels; `null` writes no channel line (and so no routing line). Default analysis, commentary, final. */
  readonly channels?: readonly string[] | null;
  /** Add ` Channel must be included for every message.` Default true. */
  readonly channelRequired?: boolean;
}

/** The default model identity. */
export const DEFAULT_IDENTITY = 'You are ChatGPT, a large language model trained by OpenAI.';
/** The default knowledge cutoff. */
export const DEFAULT_CUTOFF = '2024-06';
/** The default channels. */
export const DEFAULT_CHANNELS: readonly string[] = ['analysis', 'commentary', 'final'];

/**
 * System content: identity/cutoff/date, reasoning, the system's own tools section, channels.
 * `toolsSection` is the already printed `# Tools` section of the builtin namespaces, if any;
 * `hasFunctionTools` adds the routing line (a developer `functions` namespace with tools).
 */
export function renderHarmonySystemContent(options: SystemMessageOptions, toolsSection: string | undefined, hasFunctionTools: boolean): string {
  const head = [
    options.identity === undefined ? DEFAULT_IDENTITY : options.identity,
    options.cutoff === undefined ? `Knowledge cutoff: ${DEFAULT_CUTOFF}` : options.cutoff === null ? null : `Knowledge cutoff: ${options.cutoff}`,
    options.date !== undefined ? `Current date: ${options.date}` : null,
  ].filter((x): x is string => x !== null && x !== '');
  const sections: string[] = [];
  if (head.length) sections.push(head.join('\n'));
  sections.push(`Reasoning: ${options.effort ?? 'medium'}`);
  if (toolsSection) sections.push(toolsSection);
  const channels = options.channels === undefined ? DEFAULT_CHANNELS : options.channels;
  if (channels !== null) {
    let line = `# Valid channels: ${channels.join(', ')}.`;
    if (options.channelRequired ?? true) line += ' Channel must be included for every message.';
    if (hasFunctionTools) line += "\nCalls to these tools must go to the commentary channel: 'functions'.";
    sections.push(line);
  }
  return sections.join('\n\n');
}
