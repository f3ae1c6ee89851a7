/**
 * Control-token spellings in tool text: `<|end|>`, `<|im_start|>`, `</tool_call>`… written inside a
 * description, a name, an enum value or a property key. The reference renderers print such text
 * as is (openai-harmony tokenizes it as plain text), but an endpoint that tokenizes special
 * tokens inside text would end the message there: a prompt injection. Three policies, applied to
 * the tool definitions before lowering so every target sees the same strings:
 *
 * - `keep` (default): the text is left alone (the reference bytes) and each string holding a
 *   spelling gets a `security/control-token` warning (tool and JSON Pointer).
 * - `error`: the same diagnostic with severity error (a CompileError).
 * - `escape`: one backslash goes after the `<` of each spelling: `<|end|>` → `<\|end|>`,
 *   `</tools>` → `<\/tools>`. A spelling that already has backslashes there gets one more
 *   (`<\|end|>` → `<\\|end|>`), so the mapping is one-to-one: {@link unescapeControlTokens}
 *   removes one backslash from each `<\…\|name|>` / `<\…\/tag>` and gives the text back.
 *
 * Object keys count twice: their text, and the tag the qwen3-coder dialect makes of an unhandled
 * key (`<KEY>…</KEY>`): a key `|im_end|` prints `<|im_end|>`. Such a key is escaped with one more
 * backslash in front (`\|im_end|`, printed `<\|im_end|>`); {@link unescapeControlTokensInKey} undoes it.
 */
import type { Diagnostic, Severity } from '../diagnostics.js';
import { escapePointerToken, isJsonArray, isJsonObject, type JsonObject, type JsonValue } from '../ir/json.js';
import { isSpellingFree, isToolSpellingFree } from './read.js';
import type { ReadResult, ToolDefinition } from './types.js';

/** What to do with control-token spellings in tool text. */
export type ControlTokenPolicy = 'keep' | 'escape' | 'error';

/** The policies, for validation. */
export const CONTROL_TOKEN_POLICIES: readonly ControlTokenPolicy[] = ['keep', 'escape', 'error'];

/** The diagnostic code of a control-token spelling. */
export const CONTROL_TOKEN_CODE = 'security/control-token';

/**
 * Closing tags that end a block or a call in the tool-calling formats of other models (Qwen,
 * Hermes, Qwen3-Coder, Anthropic): text holding one can close the catalog or a call early.
 */
export const CONTROL_CLOSING_TAGS: readonly string[] = [
  'tools', 'tool_call', 'tool_response', 'function', 'functions', 'function_calls', 'function_results', 'invoke', 'parameter',
];

// `<|name|>` is the form of every special token of o200k_harmony (`<|end|>`, `<|reserved_200013|>`),
// of ChatML (`<|im_start|>`), Llama 3 (`<|eot_id|>`), Phi (`<|user|>`)…: any such name is flagged.
const PIPE_NAME = String.raw`\|[A-Za-z0-9_]+\|>`;
const CLOSING = String.raw`\/(?:${CONTROL_CLOSING_TAGS.join('|')})>`;
/** A spelling, with the backslashes an earlier escape put after its `<` (group 1). */
const SPELLING_ANY = new RegExp(String.raw`<(\\*)(${PIPE_NAME}|${CLOSING})`, 'g');
/** A spelling as a tokenizer or a parser would see it (no backslash). */
const SPELLING = new RegExp(String.raw`<(?:${PIPE_NAME}|${CLOSING})`, 'g');
/** An escaped spelling (one or more backslashes after `<`). */
const ESCAPED = new RegExp(String.raw`<\\(\\*)(${PIPE_NAME}|${CLOSING})`, 'g');

// A key the qwen3-coder dialect prints as a tag, `<KEY>…</KEY>`, spells a token with the template's
// `<` and `>` when it starts like one without them: `|im_end|` → `<|im_end|>`, `/tools` → `</tools>`.
const TAG_FORMED = new RegExp(String.raw`^<(?:${PIPE_NAME}|${CLOSING})`);

/** The spelling a key makes at the start of `<KEY>` once its leading backslashes are set aside, if any. */
function tagFormed(key: string): string | undefined {
  const k = key.replace(/^\\+/, '');
  if (k[0] !== '|' && k[0] !== '/') return undefined;
  return TAG_FORMED.exec(`<${k}>`)?.[0];
}

/**
 * The control-token spellings of an object key: the one it makes when a printer wraps it in `<`
 * and `>` (qwen3-coder prints unhandled keys as tags: `|im_end|` → `<|im_end|>`), then those in its text.
 */
export function findControlTokensInKey(key: string): string[] {
  const inside = findControlTokens(key);
  const formed = key.startsWith('\\') ? undefined : tagFormed(key);
  return formed !== undefined ? [formed, ...inside] : inside;
}

/**
 * Escape a key: its text, and one more backslash in front when it spells a token as a tag
 * (`|im_end|` → `\|im_end|`, printed `<\|im_end|>`; `\|im_end|` → `\\|im_end|`).
 */
export function escapeControlTokensInKey(key: string): string {
  const text = escapeControlTokens(key);
  return tagFormed(key) !== undefined ? `\\${text}` : text;
}

/** The inverse of {@link escapeControlTokensInKey}. */
export function unescapeControlTokensInKey(key: string): string {
  const text = unescapeControlTokens(key);
  return key.startsWith('\\') && tagFormed(key) !== undefined ? text.slice(1) : text;
}

/** The control-token spellings in a text, in order (empty when there are none). */
export function findControlTokens(text: string): string[] {
  if (text.indexOf('<') < 0) return [];
  return text.match(SPELLING) ?? [];
}

/** Neutralise every spelling: one more backslash after its `<` (`<|end|>` → `<\|end|>`, `</tools>` → `<\/tools>`). */
export function escapeControlTokens(text: string): string {
  if (text.indexOf('<') < 0) return text;
  return text.replace(SPELLING_ANY, (_m, slashes: string, rest: string) => `<\\${slashes}${rest}`);
}

/** The inverse of {@link escapeControlTokens}: one backslash fewer after the `<` of each escaped spelling. */
export function unescapeControlTokens(text: string): string {
  if (text.indexOf('\\') < 0) return text;
  return text.replace(ESCAPED, (_m, slashes: string, rest: string) => `<${slashes}${rest}`);
}

/** The result of applying a policy: the tools (escaped or as they were) and the diagnostics found. */
export interface ControlTokenResult {
  readonly tools: readonly ToolDefinition[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Apply a policy to read tools: find every string (object keys included) of each tool's name,
 * title, description and parameters holding a spelling; report each (warning for `keep`, error
 * for `error`, info for `escape`), and for `escape` return the tools with every string escaped.
 * `spellsNothing` names tools known to hold no spelling (skipped).
 */
export function applyControlTokenPolicy(tools: readonly ToolDefinition[], policy: ControlTokenPolicy = 'keep', spellsNothing?: (tool: ToolDefinition) => boolean): ControlTokenResult {
  const diagnostics: Diagnostic[] = [];
  const severity: Severity = policy === 'error' ? 'error' : policy === 'escape' ? 'info' : 'warning';
  const out = tools.map((tool) => {
    // a tool the reader saw to be free of spellings has nothing to scan
    if (spellsNothing?.(tool)) return tool;
    const found = scanTool(tool, (pointer, spellings, what) => diagnostics.push(controlTokenDiagnostic(tool, pointer, spellings, what, severity, policy)));
    return found && policy === 'escape' ? escapeTool(tool) : tool;
  });
  return { tools: out, diagnostics };
}

/** {@link applyControlTokenPolicy} over a ReadResult: its tools, and its diagnostics followed by the new ones. */
export function applyControlTokensToRead(read: ReadResult, policy: ControlTokenPolicy = 'keep'): ReadResult {
  // nothing in the input can spell one: nothing to report or escape
  if (isSpellingFree(read)) return read;
  const r = applyControlTokenPolicy(read.tools, policy, (t) => isToolSpellingFree(read, t));
  return { tools: r.tools, diagnostics: r.diagnostics.length ? [...read.diagnostics, ...r.diagnostics] : read.diagnostics };
}

function controlTokenDiagnostic(tool: ToolDefinition, path: string, spellings: readonly string[], what: 'key' | 'value' | 'tag', severity: Severity, policy: ControlTokenPolicy): Diagnostic {
  const list = [...new Set(spellings)].map((s) => JSON.stringify(s)).join(', ');
  const where = what === 'tag' ? 'the key (printed as a tag <KEY> by the qwen3-coder dialect)' : what === 'key' ? 'the key' : 'the text';
  const message =
    policy === 'escape'
      ? `${where} spells the control token${spellings.length > 1 ? 's' : ''} ${list}; escaped (a backslash after "<")`
      : `${where} spells the control token${spellings.length > 1 ? 's' : ''} ${list}; the reference prints it as plain text, but an endpoint that tokenizes special tokens in text would read a real token (use controlTokens "escape" or "error", CLI --control-tokens)`;
  return { code: CONTROL_TOKEN_CODE, severity, tool: tool.name, path, message };
}

/** Where the tool's own fields are in the input: the parent of its parameters pointer. */
function bodyPointer(tool: ToolDefinition): string {
  const p = tool.parametersPointer;
  return p.slice(0, p.lastIndexOf('/'));
}

type Report = (pointer: string, spellings: readonly string[], what: 'key' | 'value' | 'tag') => void;

/** Report each string of the tool that holds a spelling; true when there is one. */
function scanTool(tool: ToolDefinition, report: Report): boolean {
  const body = bodyPointer(tool);
  let found = false;
  const text = (s: string, pointer: string) => {
    const m = findControlTokens(s);
    if (m.length) (found = true), report(pointer, m, 'value');
  };
  text(tool.name, `${body}/name`);
  if (tool.title !== undefined) text(tool.title, `${body}/title`);
  if (tool.description !== undefined && mayHoldSpelling(tool.description) && scanValue(tool.description, `${body}/description`, report)) found = true;
  if (tool.parameters !== undefined && mayHoldSpelling(tool.parameters) && scanValue(tool.parameters, tool.parametersPointer, report)) found = true;
  // the other keys the qwen dialects print (`strict`…): their keys are beside name, in the tool's body
  if (tool.extra !== undefined && mayHoldSpelling(tool.extra) && scanValue(tool.extra, body, report)) found = true;
  return found;
}

/**
 * False when no string of the value can hold a spelling: no text has a `<`, and no key has one or
 * starts with `|` or `/` (the tag a key makes). A walk that allocates nothing: most tools stop here,
 * and only the others are scanned with pointers.
 */
function mayHoldSpelling(root: JsonValue): boolean {
  if (typeof root === 'string') return root.indexOf('<') >= 0;
  if (typeof root !== 'object' || root === null) return false;
  const stack: JsonValue[] = [root];
  while (stack.length) {
    const v = stack.pop() as JsonValue;
    if (isJsonArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        if (typeof x === 'string') {
          if (x.indexOf('<') >= 0) return true;
        } else if (typeof x === 'object' && x !== null) stack.push(x);
      }
    } else if (isJsonObject(v)) {
      // keys, then values: no [key, value] pair made per entry
      for (const k of v.keys()) {
        const c = k.charCodeAt(0);
        if (c === 124 /* | */ || c === 47 /* / */ || k.indexOf('<') >= 0) return true;
      }
      for (const x of v.values()) {
        if (typeof x === 'string') {
          if (x.indexOf('<') >= 0) return true;
        } else if (typeof x === 'object' && x !== null) stack.push(x);
      }
    }
  }
  return false;
}

/** A value being walked: its parent frame and its token, so a pointer is built only when needed. */
interface Frame {
  readonly value: JsonValue;
  readonly parent: Frame | undefined;
  readonly token: string;
}

function pointerOf(frame: Frame, base: string): string {
  const tokens: string[] = [];
  for (let f: Frame | undefined = frame; f?.parent !== undefined; f = f.parent) tokens.push(f.token);
  let p = base;
  for (let k = tokens.length - 1; k >= 0; k--) p += `/${tokens[k]}`;
  return p;
}

/** Walk a value without recursion (input may nest 100,000 deep); report strings and keys holding a spelling. */
function scanValue(root: JsonValue, base: string, report: Report): boolean {
  let found = false;
  const stack: Frame[] = [{ value: root, parent: undefined, token: '' }];
  while (stack.length) {
    const f = stack.pop() as Frame;
    const v = f.value;
    if (typeof v === 'string') {
      const m = findControlTokens(v);
      if (m.length) (found = true), report(pointerOf(f, base), m, 'value');
    } else if (isJsonArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        const x = v[i];
        if (typeof x === 'object' && x !== null) stack.push({ value: x, parent: f, token: String(i) });
        else if (typeof x === 'string' && x.indexOf('<') >= 0) stack.push({ value: x, parent: f, token: String(i) });
      }
    } else if (isJsonObject(v)) {
      const children: Frame[] = [];
      for (const [k, x] of v) {
        const child: Frame = { value: x, parent: f, token: escapePointerToken(k) };
        const m = findControlTokensInKey(k);
        if (m.length) (found = true), report(pointerOf(child, base), m, findControlTokens(k).length === m.length ? 'key' : 'tag');
        if ((typeof x === 'object' && x !== null) || (typeof x === 'string' && x.indexOf('<') >= 0)) children.push(child);
      }
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    }
  }
  return found;
}

/** The tool with every string of its name, title, description, parameters and other keys escaped. */
function escapeTool(tool: ToolDefinition): ToolDefinition {
  return {
    ...tool,
    name: escapeControlTokens(tool.name),
    ...(tool.title !== undefined ? { title: escapeControlTokens(tool.title) } : {}),
    ...(tool.description !== undefined ? { description: escapeValue(tool.description) } : {}),
    ...(tool.parameters !== undefined ? { parameters: escapeValue(tool.parameters) } : {}),
    ...(tool.extra !== undefined ? { extra: escapeValue(tool.extra) as JsonObject } : {}),
  };
}

/** A container being rebuilt: its source, its children's results so far, and where it goes. */
interface Build {
  readonly src: readonly JsonValue[] | ReadonlyMap<string, JsonValue>;
  readonly keys: readonly string[] | undefined;
  readonly items: JsonValue[];
  next: number;
}

/**
 * A copy of a value with every string and key escaped, built without recursion. Numbers
 * (JsonNumber) are shared; key order is kept, and keys stay distinct (escaping is one-to-one).
 */
export function escapeValue(root: JsonValue): JsonValue {
  // undefined for a container (rebuilt below), the value itself (or escaped) otherwise
  const leaf = (v: JsonValue): JsonValue | undefined => (typeof v === 'string' ? escapeControlTokens(v) : isJsonArray(v) || isJsonObject(v) ? undefined : v);
  const first = leaf(root);
  if (first !== undefined) return first;
  const open = (v: JsonValue): Build => (isJsonArray(v) ? { src: v, keys: undefined, items: [], next: 0 } : { src: v as ReadonlyMap<string, JsonValue>, keys: [...(v as ReadonlyMap<string, JsonValue>).keys()], items: [], next: 0 });
  const size = (b: Build) => (b.keys ? b.keys.length : (b.src as readonly JsonValue[]).length);
  const childOf = (b: Build, k: number): JsonValue => (b.keys ? (b.src as ReadonlyMap<string, JsonValue>).get(b.keys[k]) as JsonValue : (b.src as readonly JsonValue[])[k]);
  const close = (b: Build): JsonValue => {
    if (!b.keys) return b.items;
    const m = new Map<string, JsonValue>();
    b.keys.forEach((k, i) => m.set(escapeControlTokensInKey(k), b.items[i]));
    return m;
  };
  const stack: Build[] = [open(root)];
  let done: JsonValue = null;
  while (stack.length) {
    const top = stack[stack.length - 1];
    if (top.next === size(top)) {
      stack.pop();
      const v = close(top);
      if (stack.length) stack[stack.length - 1].items.push(v);
      else done = v;
      continue;
    }
    const x = childOf(top, top.next++);
    const l = leaf(x);
    if (l !== undefined) top.items.push(l);
    else stack.push(open(x));
  }
  return done;
}
