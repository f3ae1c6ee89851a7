/**
 * What a completion should not contain: text the model wrote in someone else's name or in the
 * envelope's spelling. A model that writes `<|start|>functions.get_weather to=assistant…` has made
 * up a tool result (and may then answer from it); one that writes `<|start|>user…` speaks for the
 * user; control-token spellings that reached content as text (`<|end|>` tokenized as characters, a
 * reserved token) are a sign of injection or of a tokenizer mismatch; a function call on the
 * analysis channel is one the tool-choice rules did not expect.
 */
import type { Diagnostic } from '../diagnostics.js';
import { isFunctionRecipient, normalizeRecipient } from './openai.js';
import type { HarmonyParseResult } from './types.js';

// `<|name|>`: every special token of o200k_harmony (`<|end|>`, `<|reserved_200013|>`) and of other chat formats.
const CONTROL_SPELLING = /<\|[A-Za-z0-9_]+\|>/g;

const TURN_ROLES = new Set(['user', 'system', 'developer']);

/** Control-token spellings in a text, each once, in order of appearance. */
export function controlTokenSpellings(text: string): string[] {
  return [...new Set(text.match(CONTROL_SPELLING) ?? [])];
}

/**
 * Leaks in a parse: `leak/fabricated-tool-result` (a message authored by a tool), `leak/fabricated-turn`
 * (a user, system or developer message), `leak/control-token-in-content` (a `<|…|>` spelling in content,
 * or the raw header vLLM returns as content when the output ends inside one), `leak/call-on-analysis`
 * (a function call on the analysis channel). Paths are `/messages/<i>` (and `/open`).
 */
export function findLeaks(parsed: HarmonyParseResult): Diagnostic[] {
  const out: Diagnostic[] = [];
  parsed.messages.forEach((m, i) => {
    const path = `/messages/${i}`;
    if (m.role === 'tool') {
      const author = m.name ?? 'a tool';
      out.push({
        code: 'leak/fabricated-tool-result',
        severity: 'error',
        path,
        message: `the completion contains a message authored by ${JSON.stringify(author)}${m.recipient !== undefined ? ` to ${JSON.stringify(m.recipient)}` : ''}: the model wrote a tool result itself (${JSON.stringify(clip(m.content))}); no tool ran`,
      });
    } else if (TURN_ROLES.has(m.role)) {
      out.push({ code: 'leak/fabricated-turn', severity: 'error', path, message: `the completion contains a ${m.role} message (${JSON.stringify(clip(m.content))}): the model wrote a turn that is not its own` });
    }
    const spellings = controlTokenSpellings(m.content);
    if (spellings.length) {
      out.push({
        code: 'leak/control-token-in-content',
        severity: 'warning',
        path,
        message: `the content holds control-token spelling${spellings.length > 1 ? 's' : ''} ${list(spellings)} as text`,
      });
    }
    if (m.role === 'assistant' && m.channel === 'analysis' && isFunctionRecipient(normalizeRecipient(m.recipient))) {
      out.push({
        code: 'leak/call-on-analysis',
        severity: 'warning',
        path,
        message: `a call to ${JSON.stringify(m.recipient)} on the analysis channel (function calls belong on commentary); servers still return it as a call`,
      });
    }
  });
  const open = parsed.open;
  if (open && open.state === 'header' && open.raw !== '') {
    // vLLM's flush fallback returns this raw header text, control tokens spelled out, as content
    const spellings = controlTokenSpellings(open.raw);
    out.push({
      code: 'leak/control-token-in-content',
      severity: 'warning',
      path: '/open',
      message: `the output ended inside a message header; vLLM returns its raw text ${JSON.stringify(clip(open.raw))} as content${spellings.length ? `, control tokens ${list(spellings)} included` : ''}`,
    });
  }
  return out;
}

function list(spellings: readonly string[]): string {
  const shown = spellings.slice(0, 5).join(', ');
  return spellings.length > 5 ? `${shown}, …` : shown;
}

function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 60)}…` : s;
}
