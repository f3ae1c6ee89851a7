/**
 * How deep a conversation may nest. Every server profile, the chat-template engine and the JSON
 * printers walk message values recursively; a message nested thousands of levels deep (in its
 * content, a content part, a tool call's arguments, or the JSON text of string arguments, which
 * the template servers and Ollama parse) would exhaust the stack. Such a conversation is refused
 * before anything recursive runs, by an iterative walk, with the message's JSON Pointer: the
 * limit and the walk are those of schemas (`schema/too-deep`) and of the parse readers
 * (`MAX_VALUE_DEPTH`).
 */
import { CompileError, type Diagnostic } from '../diagnostics.js';
import { escapePointerToken, isJsonArray, isJsonObject, type JsonValue } from '../ir/json.js';
import type { ConversationInput } from './types.js';

/**
 * How many levels of arrays and objects a message may nest, the message itself being the first.
 * Python's `json.loads` refuses deeper text (RecursionError at its default limit of 1000), so a
 * vLLM or transformers server never sees such a request.
 */
export const MAX_MESSAGE_DEPTH = 1000;

/** Tokens of a deep path named in the diagnostic: enough to name the message's field. */
const SHOWN_TOKENS = 5;

/** Keys whose string values are JSON text a server parses (a tool call's `arguments`). */
const JSON_TEXT_KEYS = new Set(['arguments']);

/**
 * The nesting of JSON text: the most arrays and objects open at once (brackets inside strings
 * not counted); 0 for text with none. Linear, no parsing: text that is not JSON still counts.
 */
export function textNesting(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) max = depth;
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return max;
}

/**
 * Where a value nests deeper than `limit` levels (the value itself, when a container, being level
 * 1): the reference tokens to the first container past the limit (or to the string whose JSON text
 * takes it there), or undefined when it does not. Iterative: any depth is measured.
 */
export function deepPath(root: JsonValue, limit: number): string[] | undefined {
  // each entry: the value, its level (containers above it, itself included), its parent entry and its token
  interface Entry {
    readonly v: JsonValue;
    readonly level: number;
    readonly parent: Entry | undefined;
    readonly token: string;
    readonly key: string | undefined;
  }
  const stack: Entry[] = [{ v: root, level: isJsonArray(root) || isJsonObject(root) ? 1 : 0, parent: undefined, token: '', key: undefined }];
  const path = (e: Entry): string[] => {
    const out: string[] = [];
    for (let x: Entry | undefined = e; x?.parent !== undefined; x = x.parent) out.push(x.token);
    return out.reverse();
  };
  while (stack.length) {
    const e = stack.pop() as Entry;
    const v = e.v;
    if (typeof v === 'string') {
      if (e.key !== undefined && JSON_TEXT_KEYS.has(e.key) && e.level + textNesting(v) > limit) return path(e);
      continue;
    }
    if (isJsonArray(v)) {
      if (e.level > limit) return path(e);
      for (let i = v.length - 1; i >= 0; i--) {
        const x = v[i];
        stack.push({ v: x, level: isJsonArray(x) || isJsonObject(x) ? e.level + 1 : e.level, parent: e, token: String(i), key: undefined });
      }
    } else if (isJsonObject(v)) {
      if (e.level > limit) return path(e);
      const entries = [...v];
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, x] = entries[i];
        stack.push({ v: x, level: isJsonArray(x) || isJsonObject(x) ? e.level + 1 : e.level, parent: e, token: k, key: k });
      }
    }
  }
  return undefined;
}

/** The diagnostic for a value at `pointer` nesting too deep along `tokens`. */
function tooDeep(pointer: string, tokens: readonly string[], what: string, limit: number): Diagnostic {
  const shown = tokens.slice(0, SHOWN_TOKENS).map(escapePointerToken).join('/');
  const at = pointer + (shown === '' ? '' : `/${shown}`);
  const more = tokens.length > SHOWN_TOKENS ? ` (${tokens.length - SHOWN_TOKENS} levels further down)` : '';
  return {
    code: 'conversation/too-deep',
    severity: 'error',
    path: at,
    message: `${what} nests deeper than ${limit} levels${more}: it is not rendered (Python's json refuses such a request, and the printers would exhaust the stack)`,
  };
}

/**
 * Refuse a conversation any of whose messages (or its instructions) nests deeper than
 * MAX_MESSAGE_DEPTH levels, counting the JSON text of string `arguments` where it stands: a
 * CompileError `conversation/too-deep` naming each such message's pointer (and the field).
 */
export function checkConversationDepth(conversation: ConversationInput, limit = MAX_MESSAGE_DEPTH): void {
  const errors: Diagnostic[] = [];
  conversation.items.forEach((item, i) => {
    const p = deepPath(item, limit);
    if (p !== undefined) errors.push(tooDeep(conversation.pointers[i], p, 'this message', limit));
  });
  if (conversation.instructions !== undefined) {
    const p = deepPath(conversation.instructions, limit);
    if (p !== undefined) errors.push(tooDeep(conversation.instructionsPointer ?? '/instructions', p, 'the instructions', limit));
  }
  if (errors.length) throw new CompileError(errors);
}
