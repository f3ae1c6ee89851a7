/** Exact o200k_harmony token counts: ordinary BPE for text (src/bpe.ts), one token per envelope special (spec harmony §7). */
import { countOrdinary, countOrdinaryChunks, encodeOrdinary } from './bpe.js';

/** The Harmony special tokens and their ids in o200k_harmony. */
export const HARMONY_SPECIAL_TOKENS: Readonly<Record<string, number>> = Object.freeze({
  '<|startoftext|>': 199998,
  '<|endoftext|>': 199999,
  '<|return|>': 200002,
  '<|constrain|>': 200003,
  '<|channel|>': 200005,
  '<|start|>': 200006,
  '<|end|>': 200007,
  '<|message|>': 200008,
  '<|call|>': 200012,
});

/** The token that ends a Harmony message. */
export type HarmonyEndToken = '<|end|>' | '<|call|>' | '<|return|>';

/** One Harmony message as text: its header (e.g. `developer`, `assistant<|channel|>final`) and content. */
export interface HarmonyMessageText {
  readonly header: string;
  readonly content: string;
  /** Defaults to `<|end|>`. */
  readonly end?: HarmonyEndToken;
}

// Every `<|…|>` spelling in text is ordinary text (the reference never turns text into a special
// token): text is encoded with no special tokens at all (src/bpe.ts), and the envelope is counted here.

// The specials a header may hold as real envelope tokens (spec harmony §1: channel, ` <|constrain|>json`).
const HEADER_SPECIALS = /(<\|channel\|>|<\|constrain\|>)/;
const HEADER_SPECIAL_IDS: ReadonlyMap<string, number> = new Map([
  ['<|channel|>', 200005],
  ['<|constrain|>', 200003],
]);

/** Number of tokens in the text under ordinary BPE; special-token spellings count as plain text. Linear-ish in the text (O(n log n)). */
export function countTextTokens(text: string): number {
  return text === '' ? 0 : countOrdinary(text);
}

/** Token ids of the text under ordinary BPE; special-token spellings are encoded as plain text. */
export function encodeText(text: string): number[] {
  return text === '' ? [] : encodeOrdinary(text);
}

/** The text's pre-tokenizer chunks (BPE never merges across two): each one's length in UTF-16 units and its number of tokens. */
export function textTokenChunks(text: string): { readonly lengths: readonly number[]; readonly counts: readonly number[] } {
  return countOrdinaryChunks(text);
}

/** Split a header into text pieces and its `<|channel|>` / `<|constrain|>` envelope tokens. */
function headerParts(header: string): string[] {
  return header.split(HEADER_SPECIALS).filter((p) => p !== '');
}

function endToken(end: HarmonyEndToken | undefined): HarmonyEndToken {
  return end ?? '<|end|>';
}

/** Tokens of a whole message, `<|start|>` to its end token inclusive. */
export function countMessageTokens(message: HarmonyMessageText): number {
  let n = 1; // <|start|>
  for (const part of headerParts(message.header)) {
    n += HEADER_SPECIAL_IDS.has(part) ? 1 : countTextTokens(part);
  }
  return n + 1 + countTextTokens(message.content) + 1; // <|message|> … end
}

/** Token ids of a whole message, `<|start|>` to its end token inclusive (envelope specials as their ids). */
export function encodeMessage(message: HarmonyMessageText): number[] {
  const ids: number[] = [HARMONY_SPECIAL_TOKENS['<|start|>']];
  for (const part of headerParts(message.header)) {
    const special = HEADER_SPECIAL_IDS.get(part);
    if (special !== undefined) ids.push(special);
    else appendAll(ids, encodeText(part));
  }
  ids.push(HARMONY_SPECIAL_TOKENS['<|message|>']);
  appendAll(ids, encodeText(message.content));
  ids.push(HARMONY_SPECIAL_TOKENS[endToken(message.end)]);
  return ids;
}

// Push without spreading (a spread of a very long array overflows the call stack).
function appendAll(into: number[], ids: readonly number[]): void {
  for (const id of ids) into.push(id);
}

// The envelope tokens a whole prompt is made of (spec harmony §1).
const PROMPT_SPECIALS = /(<\|(?:start|end|message|channel|constrain|call|return)\|>)/;

/**
 * Token ids of a whole Harmony prompt: the envelope's control-token spellings as their ids, the
 * text between them under ordinary BPE. Exact for prompts whose messages spell no control token
 * in their text (openai-harmony encodes such text as ordinary characters; a server that
 * tokenizes the prompt string with special tokens allowed reads them as here).
 */
export function encodePrompt(prompt: string): number[] {
  const ids: number[] = [];
  for (const part of prompt.split(PROMPT_SPECIALS)) {
    if (part === '') continue;
    const special = HARMONY_SPECIAL_TOKENS[part];
    if (special !== undefined) ids.push(special);
    else appendAll(ids, encodeText(part));
  }
  return ids;
}

/**
 * Number of tokens of a whole Harmony prompt ({@link encodePrompt}). `known` gives the count of
 * texts counted already (a message's content, say): a text between two envelope tokens that is
 * one of them is not counted again.
 */
export function countPromptTokens(prompt: string, known?: ReadonlyMap<string, number>): number {
  let n = 0;
  for (const part of prompt.split(PROMPT_SPECIALS)) {
    if (part === '') continue;
    n += HARMONY_SPECIAL_TOKENS[part] !== undefined ? 1 : (known?.get(part) ?? countTextTokens(part));
  }
  return n;
}
