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
 * - `escape`: one backslash goes after the first character of each spelling: `<|end|>` → `<\|end|>`,
 *   `</tools>` → `<\/tools>`, `[INST]` → `[\INST]`. A spelling that already has backslashes there
 *   gets one more (`<\|end|>` → `<\\|end|>`), so the mapping is one-to-one:
 *   {@link unescapeControlTokens} removes one backslash after the first character of each escaped
 *   spelling and gives the text back.
 *
 * The spellings are always the generic ones (any `<|name|>`, and the closing tags of
 * {@link CONTROL_CLOSING_TAGS}); when tools are rendered for a model family, that family's own
 * control strings join them ({@link controlSpellings}: its special tokens, the tags its format and
 * the servers' parsers read: `[INST]`, `<seed:eos>`, `]~b]`, `<tool_call>`, `<|"|>`…). The caller
 * (src/api) gathers them; this module only matches them.
 *
 * Where spellings overlap (`]~b]~b]`), every occurrence gets its backslash, so the escaped text
 * spells none: the match of a spelling tolerates the backslashes escaping put after the first
 * character of another one inside it, which is what keeps the mapping one-to-one.
 *
 * Object keys count twice: their text, and the tags a printer makes of them. The qwen3-coder
 * template prints the tool's other keys, the parameters' keys and each property's keywords as
 * `<KEY>…</KEY>` (`render_extra_keys`): such a key is checked as both tags it becomes (`tool_call`
 * → `</tool_call>`, `x</tools` → `</tools>`), and escaped so neither spells anything (a backslash
 * in front when the tag itself starts a spelling: `\tool_call`, printed `<\tool_call>`;
 * the text as `KEY>` otherwise: `x<\/tools`). Other keys (property names, deeper keys) keep the
 * older rule: their text, and `<KEY>` when the key starts like `|name|` or `/tag`.
 * {@link unescapeControlTokensInKey} undoes both (`{ tag: true }` for a key printed as a tag).
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

/**
 * A set of control spellings, compiled: the generic ones and, for a model family, its own strings.
 * Made by {@link controlSpellings}; {@link GENERIC_SPELLINGS} has the generic ones only.
 */
export interface ControlSpellings {
  /** The family whose strings joined the generic spellings (for messages), if any. */
  readonly family?: string;
  /** The family's own strings (literal), as given (only those of two or more characters and without a backslash are used). */
  readonly strings: readonly string[];
}

/** Options of the matching functions: whose spellings (default the generic ones), and for a key, whether a printer makes a tag of it. */
export interface ControlTokenOptions {
  readonly spellings?: ControlSpellings;
  /** A key the qwen3-coder template prints as a tag `<KEY>…</KEY>` (a tool's other key, a parameters key, a property's keyword). */
  readonly tag?: boolean;
}

// `<|name|>` is the form of every special token of o200k_harmony (`<|end|>`, `<|reserved_200013|>`),
// of ChatML (`<|im_start|>`), Llama 3 (`<|eot_id|>`), Phi (`<|user|>`)…: any such name is flagged.
const PIPE_NAME = String.raw`\|[A-Za-z0-9_]+\|>`;
const CLOSING = String.raw`\/(?:${CONTROL_CLOSING_TAGS.join('|')})>`;

/** A string as a regular expression matching it. */
function literal(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** The regular expressions of one set of spellings. */
interface Compiled {
  readonly spellings: ControlSpellings;
  /** The family's strings in use (two characters or more, no backslash), longest first. */
  readonly own: ReadonlySet<string>;
  /** A spelling as a tokenizer or a parser would see it (no backslash), global. */
  readonly find: RegExp;
  /** True when the text holds the first character of some spelling followed (after any backslashes) by its second (else nothing can match). */
  readonly quick: (text: string) => boolean;
  /**
   * For a key printed as a tag whose text has no backslash and does not start with `|` or `/`: by
   * its first character, the texts `KEY>` starts with when `<KEY>` or `</KEY>` starts a spelling.
   */
  readonly tagHeads: ReadonlyMap<string, readonly string[]>;
  /** The first character of each spelling that is followed (after any backslashes) by the rest of one: where escaping puts a backslash. Global. */
  readonly escapeAt: RegExp;
  /** The same with at least one backslash after it: where unescaping takes one away. Global. */
  readonly unescapeAt: RegExp;
  /** escapeAt, sticky: whether a spelling (escaped or not) starts at an index. */
  readonly startsAt: RegExp;
  /** The same for the generic spellings only (the older key rule). */
  readonly genericStartsAt: RegExp;
}

const COMPILED = new WeakMap<ControlSpellings, Compiled>();

/** Every set made, by its family and strings (so each is compiled once). */
const BY_KEY = new Map<string, ControlSpellings>();

/** The spellings of a family: the generic ones and `strings` (its special tokens, format tags, markers). Made once per set of strings. */
export function controlSpellings(strings: readonly string[], family?: string): ControlSpellings {
  const key = `${family ?? ''}\u0000${strings.join('\u0000')}`;
  const hit = BY_KEY.get(key);
  if (hit !== undefined) return hit;
  const s: ControlSpellings = Object.freeze({ ...(family !== undefined ? { family } : {}), strings: Object.freeze([...strings]) });
  compile(s);
  // a handful in practice (one per family); a caller's own sets are kept too, up to a bound
  if (BY_KEY.size >= 256) BY_KEY.delete(BY_KEY.keys().next().value as string);
  BY_KEY.set(key, s);
  return s;
}

/** The generic spellings alone: `<|name|>` and the closing tags. */
export const GENERIC_SPELLINGS: ControlSpellings = controlSpellings([]);

/** The first code point of a string, and the rest. */
function split(s: string): [string, string] {
  const first = String.fromCodePoint(s.codePointAt(0) as number);
  return [first, s.slice(first.length)];
}

function compiledOf(spellings: ControlSpellings | undefined): Compiled {
  const s = spellings ?? GENERIC_SPELLINGS;
  return COMPILED.get(s) ?? compile(s);
}

function compile(s: ControlSpellings): Compiled {
  const own = [...new Set(s.strings)].filter((x) => [...x].length >= 2 && !x.includes('\\')).sort((a, b) => b.length - a.length);
  // the first characters of every spelling: a backslash may follow any of them once escaped
  const firsts = new Set<string>(['<', ...own.map((x) => split(x)[0])]);
  const after = (ch: string) => (firsts.has(ch) ? String.raw`\\*` : '');
  // the rest of a spelling, tolerating the backslashes escaping puts after a first character inside it (not after its last)
  const tolerant = (rest: string) => {
    const cps = [...rest];
    return cps.map((ch, i) => literal(ch) + (i < cps.length - 1 ? after(ch) : '')).join('');
  };
  const alnum = [...firsts].filter((ch) => /^[A-Za-z0-9_]$/.test(ch)).join('');
  const inner = alnum ? String.raw`(?:[A-Za-z0-9_]|(?<=[${alnum}])\\+)+` : '[A-Za-z0-9_]+';
  const pipeTolerant = String.raw`\|${after('|')}${inner}\|${after('|')}>`;
  const closingTolerant = CONTROL_CLOSING_TAGS.map((t) => tolerant(`/${t}>`)).join('|');
  const genericRests = `${pipeTolerant}|${closingTolerant}`;
  // lookaheads per first character, and the second characters that may follow it
  const rests = new Map<string, string[]>([['<', [genericRests]]]);
  const seconds = new Map<string, Set<string>>([['<', new Set(['|', '/'])]]);
  // what `KEY>` starts with when the tag `<KEY>` (a rest after `<`) or `</KEY>` (after `</`, or after `/`) starts a spelling
  const heads = new Map<string, string[]>();
  const head = (t: string) => {
    if (t === '') return;
    const [first] = split(t);
    heads.set(first, [...(heads.get(first) ?? []), t]);
  };
  for (const t of CONTROL_CLOSING_TAGS) head(`${t}>`);
  for (const x of own) {
    const [first, rest] = split(x);
    const list = rests.get(first) ?? [];
    list.push(tolerant(rest));
    rests.set(first, list);
    const set = seconds.get(first) ?? new Set<string>();
    set.add(split(rest)[0]);
    seconds.set(first, set);
    if (first === '<') head(rest.startsWith('/') ? rest.slice(1) : rest);
    if (first === '<' && rest.startsWith('/')) head(rest);
    if (first === '/') head(rest);
  }
  const at = [...rests].map(([first, list]) => `${literal(first)}(?=\\\\*(?:${list.join('|')}))`).join('|');
  const atEscaped = [...rests].map(([first, list]) => `${literal(first)}\\\\(?=\\\\*(?:${list.join('|')}))`).join('|');
  const find = new RegExp(`<(?:${PIPE_NAME}|${CLOSING})${own.map((x) => `|${literal(x)}`).join('')}`, 'g');
  const firstRe = own.length ? new RegExp([...seconds].map(([first, next]) => `${literal(first)}\\\\*(?:${[...next].map(literal).join('|')})`).join('|')) : undefined;
  const c: Compiled = {
    spellings: s,
    own: new Set(own),
    find,
    quick: firstRe ? (text) => firstRe.test(text) : (text) => text.indexOf('<') >= 0,
    tagHeads: heads,
    escapeAt: new RegExp(at, 'g'),
    unescapeAt: new RegExp(atEscaped, 'g'),
    startsAt: new RegExp(at, 'y'),
    genericStartsAt: new RegExp(`<(?=\\\\*(?:${genericRests}))`, 'y'),
  };
  COMPILED.set(s, c);
  return c;
}

/** True when a spelling (escaped or not) starts at `index` of `text`. */
function startsAt(re: RegExp, text: string, index: number): boolean {
  re.lastIndex = index;
  return re.test(text);
}

/** The control-token spellings in a text, in order (empty when there are none). */
export function findControlTokens(text: string, options: ControlTokenOptions = {}): string[] {
  const c = compiledOf(options.spellings);
  if (!c.quick(text)) return [];
  return text.match(c.find) ?? [];
}

/** Neutralise every spelling: one more backslash after its first character (`<|end|>` → `<\|end|>`, `</tools>` → `<\/tools>`, `[INST]` → `[\INST]`). */
export function escapeControlTokens(text: string, options: ControlTokenOptions = {}): string {
  const c = compiledOf(options.spellings);
  if (!c.quick(text)) return text;
  return text.replace(c.escapeAt, (m) => `${m}\\`);
}

/** The inverse of {@link escapeControlTokens}: one backslash fewer after the first character of each escaped spelling. */
export function unescapeControlTokens(text: string, options: ControlTokenOptions = {}): string {
  if (text.indexOf('\\') < 0) return text;
  const c = compiledOf(options.spellings);
  return text.replace(c.unescapeAt, (m) => m.slice(0, -1));
}

// ---------------------------------------------------------------------------------------
// keys

/** The older key rule: the key, leading backslashes set aside, starts like `|name|` or `/tag`, so `<KEY>` spells a generic token. */
function genericTagFormed(key: string, c: Compiled): boolean {
  const k = key.replace(/^\\+/, '');
  if (k[0] !== '|' && k[0] !== '/') return false;
  return startsAt(c.genericStartsAt, `<${k}>`, 0);
}

/** A key printed as a tag: whether `<KEY>` or `</KEY>` (leading backslashes set aside) starts with a spelling, escaped or not. */
function tagStarts(key: string, c: Compiled): boolean {
  if (key.indexOf('\\') < 0) {
    if (key === '' || key[0] === '|' || key[0] === '/') return key !== '' && tagStartsAt(key, c);
    // no backslash to tolerate and no `<|name|>` to match: a spelling's rest is a prefix of `KEY>` (most keys stop here)
    const first = key.charCodeAt(0);
    const candidates = c.tagHeads.get(first >= 0xd800 && first <= 0xdbff ? key.slice(0, 2) : key[0]);
    if (candidates === undefined) return false;
    const t = `${key}>`;
    for (let i = 0; i < candidates.length; i++) if (t.startsWith(candidates[i])) return true;
    return false;
  }
  const k = key.replace(/^\\+/, '');
  return k !== '' && tagStartsAt(k, c);
}

/** {@link tagStarts} by the regular expressions, for a key without leading backslashes. */
function tagStartsAt(k: string, c: Compiled): boolean {
  if (k[0] !== '|' && k[0] !== '/' && k.indexOf('\\') < 0) {
    const candidates = c.tagHeads.get(split(k)[0]);
    if (candidates === undefined) return false;
    const t = `${k}>`;
    for (let i = 0; i < candidates.length; i++) if (t.startsWith(candidates[i])) return true;
    return false;
  }
  const close = `</${k}>`;
  return startsAt(c.startsAt, `<${k}>`, 0) || startsAt(c.startsAt, close, 0) || startsAt(c.startsAt, close, 1);
}

/**
 * The control-token spellings of an object key. With `tag` (a key the qwen3-coder template prints
 * as `<KEY>…</KEY>`): those of both tags. Otherwise the one it makes when it starts like `|name|` or
 * `/tag` (`|im_end|` → `<|im_end|>`), then those in its text.
 */
export function findControlTokensInKey(key: string, options: ControlTokenOptions = {}): string[] {
  if (options.tag) return [...new Set([...findControlTokens(`<${key}>`, options), ...findControlTokens(`</${key}>`, options)])];
  const inside = findControlTokens(key, options);
  const formed = key[0] === '|' || key[0] === '/' ? GENERIC_AT_START.exec(`<${key}>`)?.[0] : undefined;
  return formed !== undefined ? [formed, ...inside] : inside;
}

/** A generic spelling at the start of a text. */
const GENERIC_AT_START = new RegExp(`^<(?:${PIPE_NAME}|${CLOSING})`);

/**
 * Escape a key: its text, and one more backslash in front when it spells a token as a tag
 * (`|im_end|` → `\|im_end|`, printed `<\|im_end|>`; `\|im_end|` → `\\|im_end|`). With `tag`, the
 * text as the tag ends it (`x</tools` → `x<\/tools`) and a backslash in front when `<KEY>` or
 * `</KEY>` starts a spelling (`tool_call` → `\tool_call`).
 */
export function escapeControlTokensInKey(key: string, options: ControlTokenOptions = {}): string {
  const c = compiledOf(options.spellings);
  if (options.tag) return (tagStarts(key, c) ? '\\' : '') + escapeControlTokens(`${key}>`, options).slice(0, -1);
  const text = escapeControlTokens(key, options);
  return genericTagFormed(key, c) ? `\\${text}` : text;
}

/** The inverse of {@link escapeControlTokensInKey} (with the same options). */
export function unescapeControlTokensInKey(key: string, options: ControlTokenOptions = {}): string {
  const c = compiledOf(options.spellings);
  if (options.tag) return unescapeControlTokens(`${key.startsWith('\\') && tagStarts(key, c) ? key.slice(1) : key}>`, options).slice(0, -1);
  const text = unescapeControlTokens(key, options);
  return key.startsWith('\\') && genericTagFormed(key, c) ? text.slice(1) : text;
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
 * `spellsNothing` names tools known to hold no generic spelling in their text (only the keys
 * printed as tags are scanned then, and only while the spellings all start with `<`).
 * `spellings`: a family's (default the generic ones).
 */
export function applyControlTokenPolicy(tools: readonly ToolDefinition[], policy: ControlTokenPolicy = 'keep', spellsNothing?: (tool: ToolDefinition) => boolean, spellings?: ControlSpellings): ControlTokenResult {
  const c = compiledOf(spellings);
  const diagnostics: Diagnostic[] = [];
  const severity: Severity = policy === 'error' ? 'error' : policy === 'escape' ? 'info' : 'warning';
  // a reader's "no `<` anywhere" says nothing of spellings that start otherwise (`[INST]`, `]~b]`)
  const textFree = [...c.own].every((x) => x.startsWith('<')) ? spellsNothing : undefined;
  const out = tools.map((tool) => {
    const report: Report = (pointer, spellings, what) => diagnostics.push(controlTokenDiagnostic(tool, pointer, spellings, what, severity, policy, c));
    // a tool the reader saw to be free of spellings has only its tag keys to check
    const found = textFree?.(tool) ? scanTagKeys(tool, c, report) : scanTool(tool, c, report);
    return found && policy === 'escape' ? escapeTool(tool, c) : tool;
  });
  return { tools: out, diagnostics };
}

/** {@link applyControlTokenPolicy} over a ReadResult: its tools, and its diagnostics followed by the new ones. */
export function applyControlTokensToRead(read: ReadResult, policy: ControlTokenPolicy = 'keep', spellings?: ControlSpellings): ReadResult {
  const r = applyControlTokenPolicy(read.tools, policy, isSpellingFree(read) ? () => true : (t) => isToolSpellingFree(read, t), spellings);
  // nothing found: the read result as it was
  if (r.diagnostics.length === 0) return read;
  return { tools: r.tools, diagnostics: [...read.diagnostics, ...r.diagnostics] };
}

function controlTokenDiagnostic(tool: ToolDefinition, path: string, spellings: readonly string[], what: 'key' | 'value' | 'tag', severity: Severity, policy: ControlTokenPolicy, c: Compiled): Diagnostic {
  const unique = [...new Set(spellings)];
  const list = unique.map((s) => JSON.stringify(s)).join(', ');
  const plural = unique.length > 1 ? 's' : '';
  // the family's own strings are named as its (a generic spelling needs no owner)
  const family = c.spellings.family !== undefined && unique.some((s) => c.own.has(s) && !GENERIC_ONLY.test(s)) ? ` of ${c.spellings.family}` : '';
  const where = what === 'tag' ? 'the key (printed as a tag <KEY> by the qwen3-coder dialect)' : what === 'key' ? 'the key' : 'the text';
  const after = unique.every((s) => s.startsWith('<')) ? '"<"' : 'the first character';
  const message =
    policy === 'escape'
      ? `${where} spells the control token${plural} ${list}${family}; escaped (a backslash after ${after})`
      : `${where} spells the control token${plural} ${list}${family}; the reference prints it as plain text, but an endpoint that tokenizes special tokens in text would read a real token (use controlTokens "escape" or "error", CLI --control-tokens)`;
  return { code: CONTROL_TOKEN_CODE, severity, tool: tool.name, path, message };
}

/** A generic spelling, whole. */
const GENERIC_ONLY = new RegExp(`^<(?:${PIPE_NAME}|${CLOSING})$`);

/** Where the tool's own fields are in the input: the parent of its parameters pointer. */
function bodyPointer(tool: ToolDefinition): string {
  const p = tool.parametersPointer;
  return p.slice(0, p.lastIndexOf('/'));
}

type Report = (pointer: string, spellings: readonly string[], what: 'key' | 'value' | 'tag') => void;

/**
 * How the keys of an object are printed by the qwen3-coder template (`render_extra_keys`): `params`
 * for the parameters schema (its keys are tags, and its `properties` holds the properties), `tag`
 * for the tool's other keys and each property's schema (keys printed as `<KEY>…</KEY>`), `props`
 * for the parameters' `properties` (its values are tag-level), `plain` otherwise (printed as JSON).
 */
type Level = 'params' | 'tag' | 'props' | 'plain';

/** The level of an object's child under `key`. */
function childLevel(level: Level, key: string): Level {
  if (level === 'params' && key === 'properties') return 'props';
  if (level === 'props') return 'tag';
  return 'plain';
}

/** Whether an object of this level has its keys printed as tags. */
const tagLevel = (level: Level) => level === 'params' || level === 'tag';

/** Report each string of the tool that holds a spelling; true when there is one. */
function scanTool(tool: ToolDefinition, c: Compiled, report: Report): boolean {
  const body = bodyPointer(tool);
  let found = false;
  const text = (s: string, pointer: string) => {
    const m = findControlTokens(s, { spellings: c.spellings });
    if (m.length) (found = true), report(pointer, m, 'value');
  };
  text(tool.name, `${body}/name`);
  if (tool.title !== undefined) text(tool.title, `${body}/title`);
  if (tool.description !== undefined && mayHoldSpelling(tool.description, c, 'plain') && scanValue(tool.description, `${body}/description`, report, c, 'plain')) found = true;
  if (tool.parameters !== undefined && mayHoldSpelling(tool.parameters, c, 'params') && scanValue(tool.parameters, tool.parametersPointer, report, c, 'params')) found = true;
  // the other keys the qwen dialects print (`strict`…): their keys are beside name, in the tool's body
  if (tool.extra !== undefined && mayHoldSpelling(tool.extra, c, 'tag') && scanValue(tool.extra, body, report, c, 'tag')) found = true;
  return found;
}

/** For a tool whose text holds no spelling: report the keys the qwen3-coder template prints as tags (the tool's other keys, the parameters' keys, each property's keywords) that spell one; true when one does. */
function scanTagKeys(tool: ToolDefinition, c: Compiled, report: Report): boolean {
  let found = false;
  const keysOf = (o: JsonObject, base: string | (() => string)) => {
    for (const k of o.keys()) {
      if (!tagMayHold(k, c)) continue;
      const m = findControlTokensInKey(k, { spellings: c.spellings, tag: true });
      if (m.length) (found = true), report(`${typeof base === 'string' ? base : base()}/${escapePointerToken(k)}`, m, 'tag');
    }
  };
  if (tool.extra !== undefined) keysOf(tool.extra, () => bodyPointer(tool));
  const params = tool.parameters;
  if (!isJsonObject(params)) return found;
  keysOf(params, tool.parametersPointer);
  const props = params.get('properties');
  if (!isJsonObject(props)) return found;
  for (const [name, schema] of props) if (isJsonObject(schema)) keysOf(schema, () => `${tool.parametersPointer}/properties/${escapePointerToken(name)}`);
  return found;
}

/** False when neither tag of the key can hold a spelling (most keys: checked without building the tags). */
function tagMayHold(key: string, c: Compiled): boolean {
  return tagStarts(key, c) || c.quick(`${key}>`);
}

/**
 * False when no string of the value can hold a spelling: no text has a first character of one,
 * no key has one or starts with `|` or `/` (the tag a key makes), and no key at a tag level makes
 * a tag that starts one. A walk that allocates nothing: most tools stop here, and only the others
 * are scanned with pointers.
 */
function mayHoldSpelling(root: JsonValue, c: Compiled, rootLevel: Level): boolean {
  if (typeof root === 'string') return c.quick(root);
  if (typeof root !== 'object' || root === null) return false;
  const stack: JsonValue[] = [root];
  // each value's level beside it (the keys of tag levels are checked as tags)
  const levels: Level[] = [rootLevel];
  while (stack.length) {
    const v = stack.pop() as JsonValue;
    const level = levels.pop() as Level;
    if (isJsonArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        if (typeof x === 'string') {
          if (c.quick(x)) return true;
        } else if (typeof x === 'object' && x !== null) stack.push(x), levels.push('plain');
      }
    } else if (isJsonObject(v)) {
      // keys, then values: no [key, value] pair made per entry
      for (const k of v.keys()) {
        const ch = k.charCodeAt(0);
        if (ch === 124 /* | */ || ch === 47 /* / */ || c.quick(k)) return true;
        if (tagLevel(level) && tagMayHold(k, c)) return true;
      }
      for (const [k, x] of v) {
        if (typeof x === 'string') {
          if (c.quick(x)) return true;
        } else if (typeof x === 'object' && x !== null) stack.push(x), levels.push(childLevel(level, k));
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
  readonly level: Level;
}

function pointerOf(frame: Frame, base: string): string {
  const tokens: string[] = [];
  for (let f: Frame | undefined = frame; f?.parent !== undefined; f = f.parent) tokens.push(f.token);
  let p = base;
  for (let k = tokens.length - 1; k >= 0; k--) p += `/${tokens[k]}`;
  return p;
}

/**
 * Walk a value without recursion (input may nest 100,000 deep); report strings and keys holding a
 * spelling. `level`: `tag` for the parameters and the tool's other keys (their keys, and the
 * properties' keywords, are printed as tags), `plain` otherwise.
 */
function scanValue(root: JsonValue, base: string, report: Report, c: Compiled, level: Level): boolean {
  let found = false;
  const options = { spellings: c.spellings };
  const stack: Frame[] = [{ value: root, parent: undefined, token: '', level }];
  while (stack.length) {
    const f = stack.pop() as Frame;
    const v = f.value;
    if (typeof v === 'string') {
      const m = findControlTokens(v, options);
      if (m.length) (found = true), report(pointerOf(f, base), m, 'value');
    } else if (isJsonArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        const x = v[i];
        if (typeof x === 'object' && x !== null) stack.push({ value: x, parent: f, token: String(i), level: 'plain' });
        else if (typeof x === 'string' && c.quick(x)) stack.push({ value: x, parent: f, token: String(i), level: 'plain' });
      }
    } else if (isJsonObject(v)) {
      const children: Frame[] = [];
      const tag = tagLevel(f.level);
      for (const [k, x] of v) {
        const child: Frame = { value: x, parent: f, token: escapePointerToken(k), level: childLevel(f.level, k) };
        const m = findControlTokensInKey(k, { ...options, tag });
        if (m.length) (found = true), report(pointerOf(child, base), m, keyOrTag(k, m, tag, options));
        if ((typeof x === 'object' && x !== null) || (typeof x === 'string' && c.quick(x))) children.push(child);
      }
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    }
  }
  return found;
}

/** Whether the spellings `m` of a key are all in its text (`key`) or one comes from a tag it is printed as (`tag`). */
function keyOrTag(key: string, m: readonly string[], tag: boolean, options: ControlTokenOptions): 'key' | 'tag' {
  const inText = findControlTokens(key, options);
  if (!tag) return inText.length === m.length ? 'key' : 'tag';
  return m.every((s) => inText.includes(s)) ? 'key' : 'tag';
}

/** The tool with every string of its name, title, description, parameters and other keys escaped. */
function escapeTool(tool: ToolDefinition, c: Compiled): ToolDefinition {
  const options = { spellings: c.spellings };
  return {
    ...tool,
    name: escapeControlTokens(tool.name, options),
    ...(tool.title !== undefined ? { title: escapeControlTokens(tool.title, options) } : {}),
    ...(tool.description !== undefined ? { description: escapeValue(tool.description, options) } : {}),
    ...(tool.parameters !== undefined ? { parameters: escapeValue(tool.parameters, { ...options, level: 'params' }) } : {}),
    ...(tool.extra !== undefined ? { extra: escapeValue(tool.extra, { ...options, level: 'tag' }) as JsonObject } : {}),
  };
}

/** A container being rebuilt: its source, its children's results so far, and where it goes. */
interface Build {
  readonly src: readonly JsonValue[] | ReadonlyMap<string, JsonValue>;
  readonly keys: readonly string[] | undefined;
  readonly items: JsonValue[];
  readonly level: Level;
  next: number;
}

/**
 * A copy of a value with every string and key escaped, built without recursion. Numbers
 * (JsonNumber) are shared; key order is kept, and keys stay distinct (escaping is one-to-one).
 * `level`: `params` for a parameters schema, `tag` for a tool's other keys: the keys the
 * qwen3-coder template prints as tags (those, and the properties' keywords) are escaped as tags.
 */
export function escapeValue(root: JsonValue, options: { readonly spellings?: ControlSpellings; readonly level?: 'params' | 'tag' | 'plain' } = {}): JsonValue {
  const text = { spellings: options.spellings ?? GENERIC_SPELLINGS };
  // undefined for a container (rebuilt below), the value itself (or escaped) otherwise
  const leaf = (v: JsonValue): JsonValue | undefined => (typeof v === 'string' ? escapeControlTokens(v, text) : isJsonArray(v) || isJsonObject(v) ? undefined : v);
  const first = leaf(root);
  if (first !== undefined) return first;
  const open = (v: JsonValue, level: Level): Build =>
    isJsonArray(v) ? { src: v, keys: undefined, items: [], level: 'plain', next: 0 } : { src: v as ReadonlyMap<string, JsonValue>, keys: [...(v as ReadonlyMap<string, JsonValue>).keys()], items: [], level, next: 0 };
  const size = (b: Build) => (b.keys ? b.keys.length : (b.src as readonly JsonValue[]).length);
  const childOf = (b: Build, k: number): JsonValue => (b.keys ? (b.src as ReadonlyMap<string, JsonValue>).get(b.keys[k]) as JsonValue : (b.src as readonly JsonValue[])[k]);
  const close = (b: Build): JsonValue => {
    if (!b.keys) return b.items;
    const m = new Map<string, JsonValue>();
    const tag = { ...text, tag: tagLevel(b.level) };
    b.keys.forEach((k, i) => m.set(escapeControlTokensInKey(k, tag), b.items[i]));
    return m;
  };
  const stack: Build[] = [open(root, options.level ?? 'plain')];
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
    const index = top.next++;
    const x = childOf(top, index);
    const l = leaf(x);
    if (l !== undefined) top.items.push(l);
    else stack.push(open(x, top.keys ? childLevel(top.level, top.keys[index]) : 'plain'));
  }
  return done;
}
