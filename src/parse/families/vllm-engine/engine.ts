/**
 * vLLM's declarative parser engine (`vllm/parser/engine/`: `streaming_parser_engine.py`,
 * `incremental_lexer.py`, `token_id_scanner.py`, `parser_engine.py`, `adapters.py`) at commit
 * 93e3bc8f30b1e135b88a2ffc7f219e3428d39293, as the tool adapters run it non-streaming:
 * `ParserEngineToolAdapter.extract_tool_calls` → `extract_tool_calls_from_content` → one
 * `_single_pass_parse` of the whole text, started in CONTENT, with no token ids. One
 * implementation; each model is a grammar ({@link EngineGrammar}: terminals, transitions, an
 * argument converter, a few hooks) in a module of its own.
 *
 * - lexing: at each position the longest terminal literal that matches there is a terminal,
 *   everything else is text (the incremental lexer's prefix buffering, given the whole text in
 *   one feed and flushed at the end, comes to exactly that); with no token ids the token-id
 *   scanner passes the text through, so the vocabulary only matters through special tokens
 *   that would be dropped (none by default, see `dropTokens`) and Gemma 4's reasoning ids
 * - a terminal with a transition from the current state changes state and emits its events
 *   (their value is the terminal's text); one without is text of the current state
 * - text is content (CONTENT), reasoning (REASONING), the call's name (TOOL_NAME), its raw
 *   arguments (TOOL_ARGS), or nothing (TOOL_PREAMBLE, TOOL_BETWEEN); at the end an open call
 *   gets its TOOL_CALL_END
 * - calls: the name is sent once it is known and valid (the name text, else a `"name": "…"`
 *   found in the arguments); the arguments are the converter's JSON of the raw text (else the
 *   raw JSON), then coerced to the tool's schema ({@link fixArgTypes})
 * - content: the text before the first tool event, plus the text after it only when no call
 *   name was ever sent (then put first); only-whitespace content is dropped once a call slot
 *   exists; stripped when calls came back (Kimi: kept as written)
 * - any Python exception the engine lets through (a RecursionError, a pydantic
 *   ValidationError for a non-string name) gives no calls and the whole text, as the server
 *   falls back to
 *
 * Not emulated: the streaming-only work the single pass also does (argument deltas computed at
 * every chunk): it changes nothing in the result, except that a ~1,000-deep nested value in an
 * unclosed trailing parameter could raise RecursionError there.
 *
 * Each returned call whose closing marker never came in the text carries `incomplete`.
 */
import { PyDict, PythonException, pyStrip, pyTypeName, pythonJsonDumps, pythonJsonLoads, type PyValue } from '../../xml/python-values.js';
import type { ParseTool } from '../../xml/tools.js';
import type { ParserResult, ServerCall } from '../types.js';
import { fixArgTypes } from './coerce.js';
import { pyValueTruthy } from '../../../emit/python/json-loads.js';

/** The engine's parser states (`ParserState`). */
export type EngineState = 'CONTENT' | 'REASONING' | 'TOOL_PREAMBLE' | 'TOOL_NAME' | 'TOOL_ARGS' | 'TOOL_BETWEEN';

/** The events a transition can emit (`EventType`). */
export type TransitionEvent = 'REASONING_START' | 'REASONING_END' | 'TOOL_CALL_START' | 'ARG_VALUE_CHUNK' | 'TOOL_CALL_END';

/** `Transition(next_state, events)`. */
export interface Transition {
  readonly next: EngineState;
  readonly events: readonly TransitionEvent[];
}

/** One call slot as the engine fills it (`ToolCallSlot`). */
export interface EngineSlot {
  name: string;
  args: string;
  nameSent: boolean;
}

/** A model's grammar on the engine (`ParserEngineConfig` plus the parser class's overrides). */
export interface EngineGrammar {
  /** The config's name. */
  readonly name: string;
  /** Terminal name → its literal. */
  readonly terminals: Readonly<Record<string, string>>;
  /** `[state, terminal, next state, events]` rows. */
  readonly transitions: readonly (readonly [EngineState, string, EngineState, readonly TransitionEvent[]])[];
  /** `arg_converter(raw, partial=False)`: the raw argument text as a JSON object string (the partial form only feeds streaming deltas). */
  readonly argConverter?: (raw: string) => string;
  /**
   * `tool_args_json`: argument text goes through the JSON streaming buffer, one chunk per
   * character (a top-level closing brace held back to the next one); otherwise one chunk per text
   * piece. Only the chunk count can matter (Kimi K2 looks for a name again at every chunk).
   */
  readonly toolArgsJson?: boolean;
  /** `strip_content_whitespace_with_tools` (default true). */
  readonly stripContentWhitespaceWithTools?: boolean;
  /** `drop_whitespace_only_content_before_tools` (default true). */
  readonly dropWhitespaceOnlyContentBeforeTools?: boolean;
  /** `validate_tool_names`: a name not among the request's tools is never sent. */
  readonly validateToolNames?: boolean;
  /**
   * Special tokens of the tokenizer that are no terminal of the grammar: each is dropped where no
   * transition takes it (`_build_drop_info`). The oracle's stub vocabulary gives none for these
   * families; a real tokenizer's `all_special_tokens` would.
   */
  readonly dropTokens?: readonly string[];
  /** `_preprocess_feed` on the one feed (Gemma 4 puts a `<|channel>` in front). */
  readonly preprocess?: (text: string) => string;
  /** `_emit_name_delta` override: `base` is the engine's own. */
  readonly emitName?: (slot: EngineSlot, name: string | null, base: (name: string | null) => void) => void;
  /** `_handle_tool_end` override's work before the engine's own. */
  readonly beforeToolEnd?: (slot: EngineSlot) => void;
  /** `_extract_args_json` override. */
  readonly extractArgsJson?: (raw: string) => string;
  /** `_events_to_delta` override: true when the model's parser returns no delta at all. */
  readonly dropsDelta?: (reasoning: string | null, content: string | null, toolDeltas: boolean) => boolean;
  /** The terminals whose transition closes a call properly (any other TOOL_CALL_END leaves it incomplete). */
  readonly callClosers: readonly string[];
  /** The closing marker named in `incomplete`. */
  readonly callCloseText: string;
  /** Terminals that open and close a block of calls, and the block's closing marker. */
  readonly blockOpeners?: readonly string[];
  readonly blockClosers?: readonly string[];
  readonly blockCloseText?: string;
}

const DROP = '__DROP__';
const TOOL_STATES: ReadonlySet<EngineState> = new Set(['TOOL_PREAMBLE', 'TOOL_NAME', 'TOOL_ARGS', 'TOOL_BETWEEN']);

interface Compiled {
  readonly grammar: EngineGrammar;
  /** First character → [literal, terminal name], longest first. */
  readonly byFirst: ReadonlyMap<string, readonly (readonly [string, string])[]>;
  readonly transitions: ReadonlyMap<string, Transition>;
  readonly hasDrops: boolean;
  readonly callClosers: ReadonlySet<string>;
  readonly blockOpeners: ReadonlySet<string>;
  readonly blockClosers: ReadonlySet<string>;
}

const compiledCache = new WeakMap<EngineGrammar, Compiled>();

function compile(g: EngineGrammar): Compiled {
  const hit = compiledCache.get(g);
  if (hit) return hit;
  const configured = new Set(Object.values(g.terminals));
  const literals: [string, string][] = Object.entries(g.terminals).map(([name, lit]) => [lit, name]);
  const drops = [...new Set((g.dropTokens ?? []).filter((t) => t !== '' && !configured.has(t)))];
  for (const t of drops) literals.push([t, DROP]);
  const byFirst = new Map<string, [string, string][]>();
  for (const [lit, name] of literals) {
    if (lit === '') continue;
    const list = byFirst.get(lit[0]) ?? [];
    list.push([lit, name]);
    byFirst.set(lit[0], list);
  }
  for (const list of byFirst.values()) list.sort((a, b) => b[0].length - a[0].length);
  const transitions = new Map<string, Transition>();
  for (const [state, terminal, next, events] of g.transitions) transitions.set(`${state} ${terminal}`, { next, events });
  const c: Compiled = {
    grammar: g,
    byFirst,
    transitions,
    hasDrops: drops.length > 0,
    callClosers: new Set(g.callClosers),
    blockOpeners: new Set(g.blockOpeners ?? []),
    blockClosers: new Set(g.blockClosers ?? []),
  };
  compiledCache.set(g, c);
  return c;
}

/** `re.search(r'"name"\s*:\s*"([^"]*)"', args)` (regex module `\s`), its group when non-empty: `_try_extract_name`. */
export function tryExtractName(args: string): string | null {
  let from = 0;
  for (;;) {
    const at = args.indexOf('"name"', from);
    if (at < 0) return null;
    let j = skipRegexSpace(args, at + 6);
    if (args[j] === ':') {
      j = skipRegexSpace(args, j + 1);
      if (args[j] === '"') {
        const close = args.indexOf('"', j + 1);
        // no closing quote here: none after any later start either
        if (close < 0) return null;
        const name = args.slice(j + 1, close);
        return name === '' ? null : name;
      }
    }
    from = at + 1;
  }
}

// The `regex` module's `\s` on str: str.isspace() less the four separators \x1c-\x1f.
const REGEX_SPACE = new Set('\t\n\u000b\u000c\r \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000');

/** Whether a character is `\s` for the `regex` module. */
export function isRegexSpace(c: string | undefined): boolean {
  return c !== undefined && REGEX_SPACE.has(c);
}

/** The index after the run of `\s` starting at `i`. */
export function skipRegexSpace(s: string, i: number): number {
  while (i < s.length && REGEX_SPACE.has(s[i])) i++;
  return i;
}


/** pydantic's `FunctionCall(name=…)`: a str, else ValidationError. */
function validatedName(name: PyValue): string {
  if (typeof name === 'string') return name;
  const shown = name === null ? 'None' : typeof name === 'boolean' ? (name ? 'True' : 'False') : pythonJsonDumps(name);
  throw new PythonException('ValidationError', `1 validation error for FunctionCall\nname\n  Input should be a valid string [type=string_type, input_value=${shown}, input_type=${pyTypeName(name)}]`);
}

/** `_extract_name_and_args(raw_body)`: a JSON body's `name` and its `arguments`/`parameters` (else the rest) as JSON. */
function extractNameAndArgs(rawBody: string): [PyValue, string] {
  const raw = pyStrip(rawBody);
  let parsed: PyValue;
  try {
    parsed = pythonJsonLoads(raw);
  } catch (e) {
    // `except json.JSONDecodeError` only: a ValueError (a too long int) goes on
    if (e instanceof PythonException && e.type === 'JSONDecodeError') return ['', raw];
    throw e;
  }
  if (!(parsed instanceof PyDict)) return ['', raw];
  const name = parsed.get('name') ?? '';
  for (const key of ['arguments', 'parameters']) {
    if (parsed.has(key)) {
      const val = parsed.get(key)!;
      return [name, typeof val === 'string' ? val : pythonJsonDumps(val)];
    }
  }
  const without = new PyDict();
  for (const [k, v] of parsed.entries()) if (k !== 'name') without.set(k, v);
  return [name, pythonJsonDumps(without)];
}

interface Slot extends EngineSlot {
  /** A name the last attempt to send failed with (the attempt repeats at every chunk while it stays). */
  failedName: string | undefined;
  /** An attempt with `"name"` from the arguments is due (made at the last chunk; evaluated lazily). */
  pending: boolean;
  /** Whether a TOOL_CALL_END came, and whether the first one came from the call's closing terminal. */
  ended: boolean;
  cut: boolean;
  /** The block of calls it opened in, or -1. */
  block: number;
}

/** Run the grammar's parser over a whole text: `extract_tool_calls(text, ChatCompletionRequest(tools, tool_choice="auto"))`. */
export function runEngine(grammar: EngineGrammar, text: string, tools: readonly ParseTool[] | undefined): ParserResult {
  try {
    return run(compile(grammar), text, tools && tools.length > 0 ? tools : undefined);
  } catch (e) {
    if (e instanceof PythonException) return { content: text, tool_calls: [], tools_called: false, exception: `${e.type}: ${e.detail}` };
    throw e;
  }
}

function run(c: Compiled, input: string, tools: readonly ParseTool[] | undefined): ParserResult {
  const g = c.grammar;
  const text = g.preprocess ? g.preprocess(input) : input;
  let state: EngineState = 'CONTENT';
  let toolIndex = -1;
  const slots: Slot[] = [];
  const contentParts: string[] = [];
  const reasoningParts: string[] = [];
  let deferred = '';
  let seenTool = false;
  let blockOpen = false;
  let blockId = 0;

  const valid = (name: string): boolean => !g.validateToolNames || tools === undefined || tools.some((t) => t.name === name);

  const slotAt = (idx: number): Slot => {
    const i = idx < 0 ? idx + slots.length : idx;
    if (i < 0 || i >= slots.length) throw new PythonException('IndexError', 'list index out of range');
    return slots[i];
  };

  // `_emit_name_delta` (with the grammar's override around it)
  const emit = (slot: Slot, name: string | null): void => {
    const base = (n: string | null): void => {
      if (!n || !valid(n)) return;
      slot.name = n;
      slot.nameSent = true;
    };
    if (g.emitName) g.emitName(slot, name, base);
    else base(name);
  };

  const resolvePending = (slot: Slot): void => {
    if (!slot.pending) return;
    slot.pending = false;
    if (!slot.nameSent) emit(slot, tryExtractName(slot.args));
  };

  // `_handle_arg_chunk`
  const argChunk = (idx: number, value: string): void => {
    seenTool = true;
    const slot = slotAt(idx);
    if (value) slot.args += value;
    if (slot.nameSent) return;
    if (slot.name) {
      if (slot.name === slot.failedName) return;
      const tried = slot.name;
      emit(slot, tried);
      if (!slot.nameSent && slot.name === tried) slot.failedName = tried;
    } else if (value) slot.pending = true;
  };

  // `_handle_tool_end`
  const toolEnd = (idx: number, closer: boolean): void => {
    seenTool = true;
    if (idx >= slots.length) return;
    const slot = slotAt(idx);
    if (!slot.ended) {
      slot.ended = true;
      slot.cut = !closer;
    }
    resolvePending(slot);
    g.beforeToolEnd?.(slot);
    if (g.argConverter) {
      // `_flush_arg_converter`: only its exceptions reach the result
      let finalJson: string | null = null;
      try {
        finalJson = g.argConverter(slot.args);
      } catch (e) {
        if (!(e instanceof PythonException && e.isA('ValueError', 'TypeError'))) throw e;
      }
      if (finalJson) fixArgTypes(finalJson, slot.name, tools);
    }
    if (!slot.nameSent) {
      const name = slot.name || tryExtractName(slot.args);
      if (name && valid(name)) {
        slot.name = name;
        slot.nameSent = true;
        slot.failedName = undefined;
      }
    }
  };

  // `_feed_args_text` / `_feed_args_char` / `_flush_safe_args`
  let argsBuffer = '';
  let argsDepth = 0;
  let argsInString = false;
  let argsEscape = false;
  const feedArgsText = (v: string): void => {
    for (const ch of v) {
      argsBuffer += ch;
      if (argsEscape) argsEscape = false;
      else if (argsInString) {
        if (ch === '\\') argsEscape = true;
        else if (ch === '"') argsInString = false;
      } else if (ch === '"') argsInString = true;
      else if (ch === '{' || ch === '[') argsDepth++;
      else if (ch === '}' || ch === ']') {
        if (argsDepth > 0) argsDepth--;
        if (argsDepth === 0) continue;
      }
      const chunk = argsBuffer;
      argsBuffer = '';
      argChunk(toolIndex, chunk);
    }
  };

  const textChunk = (v: string): void => {
    if (seenTool) deferred += v;
    else contentParts.push(v);
  };

  // `_emit_for_state`
  const emitForState = (v: string): void => {
    switch (state) {
      case 'TOOL_ARGS':
        if (g.toolArgsJson) feedArgsText(v);
        else argChunk(toolIndex, v);
        return;
      case 'CONTENT':
        textChunk(v);
        return;
      case 'REASONING':
        reasoningParts.push(v);
        return;
      case 'TOOL_NAME':
        seenTool = true;
        slotAt(toolIndex).name += v;
        return;
      default:
        return;
    }
  };

  // `_on_terminal`
  const onTerminal = (terminal: string, value: string): void => {
    const tr = c.transitions.get(`${state} ${terminal}`);
    if (!tr) {
      if (c.hasDrops && terminal === DROP) return;
      emitForState(value);
      return;
    }
    if (c.blockOpeners.has(terminal)) {
      blockOpen = true;
      blockId++;
    }
    if (c.blockClosers.has(terminal)) blockOpen = false;
    if (state === 'TOOL_ARGS' && tr.next !== 'TOOL_ARGS' && argsBuffer) {
      const chunk = argsBuffer;
      argsBuffer = '';
      argChunk(toolIndex, chunk);
    }
    state = tr.next;
    if (state === 'TOOL_ARGS') {
      argsDepth = 0;
      argsInString = false;
      argsEscape = false;
    }
    for (const ev of tr.events) {
      switch (ev) {
        case 'TOOL_CALL_START':
          toolIndex++;
          seenTool = true;
          while (slots.length <= toolIndex) slots.push({ name: '', args: '', nameSent: false, failedName: undefined, pending: false, ended: false, cut: false, block: blockOpen ? blockId : -1 });
          break;
        case 'ARG_VALUE_CHUNK':
          argChunk(toolIndex, value);
          break;
        case 'TOOL_CALL_END':
          toolEnd(toolIndex, c.callClosers.has(terminal));
          break;
        default:
          // REASONING_START / REASONING_END: no effect on what the tool parser returns
          break;
      }
    }
  };

  // the lexer: the longest literal at each position, text between
  const n = text.length;
  let textStart = 0;
  let i = 0;
  while (i < n) {
    const cands = c.byFirst.get(text[i]);
    let hit: readonly [string, string] | undefined;
    if (cands) for (const cand of cands) if (text.startsWith(cand[0], i)) {
      hit = cand;
      break;
    }
    if (!hit) {
      i++;
      continue;
    }
    if (i > textStart) emitForState(text.slice(textStart, i));
    onTerminal(hit[1], hit[0]);
    i += hit[0].length;
    textStart = i;
  }
  if (n > textStart) emitForState(text.slice(textStart));

  // `finish()`
  if (argsBuffer) argChunk(toolIndex, argsBuffer);
  if (TOOL_STATES.has(state)) {
    if (toolIndex >= 0) toolEnd(toolIndex, false);
    state = 'CONTENT';
  }
  for (const slot of slots) resolvePending(slot);

  // `_events_to_delta(events, finished=True)`
  const toolDeltas = slots.some((s) => s.nameSent);
  const parts = deferred && (!seenTool || !toolDeltas) ? [deferred, ...contentParts] : contentParts;
  let contentStr = parts.join('');
  if (contentStr && !pyStrip(contentStr) && slots.length > 0 && g.dropWhitespaceOnlyContentBeforeTools !== false) contentStr = '';
  const reasoning = reasoningParts.join('') || null;
  let delta: { content: string | null } | null = contentStr || toolDeltas || reasoning ? { content: contentStr || null } : null;
  if (delta && g.dropsDelta?.(reasoning, delta.content, toolDeltas)) delta = null;

  // `_build_extracted_result()`
  const calls: ServerCall[] = [];
  for (const slot of slots) {
    if (!slot.name && !slot.args) continue;
    let name: PyValue = pyStrip(slot.name);
    const raw = slot.args;
    let argsJson: string;
    const baseArgs = (): string => (g.extractArgsJson ? g.extractArgsJson(raw) : pyStrip(raw) ? extractNameAndArgs(raw)[1] : '{}');
    if (!name && pyStrip(raw)) [name, argsJson] = extractNameAndArgs(raw);
    else if (pyStrip(raw)) {
      if (g.argConverter) {
        try {
          argsJson = g.argConverter(raw);
        } catch (e) {
          if (!(e instanceof PythonException && e.isA('ValueError', 'TypeError'))) throw e;
          argsJson = baseArgs();
        }
      } else argsJson = baseArgs();
    } else argsJson = '{}';
    if (!pyValueTruthy(name) || !(typeof name === 'string' ? valid(name) : !g.validateToolNames || tools === undefined)) continue;
    const callName = validatedName(name);
    argsJson = fixArgTypes(argsJson, callName, tools);
    const missing: string[] = [];
    if (!slot.ended || slot.cut) missing.push(g.callCloseText);
    if (blockOpen && slot.block === blockId && g.blockCloseText !== undefined) missing.push(g.blockCloseText);
    calls.push({ name: callName, arguments: argsJson, ...(missing.length > 0 ? { incomplete: missing.map((m) => `no ${m}`).join(', ') } : {}) });
  }

  const toolsCalled = calls.length > 0;
  let content = delta?.content ?? null;
  if (content) {
    if (toolsCalled) {
      if (g.stripContentWhitespaceWithTools !== false) content = pyStrip(content);
      else if (g.dropWhitespaceOnlyContentBeforeTools !== false && !pyStrip(content)) content = '';
    }
    content = content || null;
  }
  return { content, tool_calls: calls, tools_called: toolsCalled };
}
