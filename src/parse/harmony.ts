/**
 * The Harmony stream parser: what gpt-oss wrote, read as openai-harmony v0.0.8's `StreamableParser`
 * reads it (spec conversations §B.1), fed completion text, bytes or o200k_harmony token ids, in chunks
 * cut anywhere. One state machine: expect `<|start|>` → header (up to `<|message|>`) → content (up to a
 * stop token) → expect `<|start|>` …; batch parsing is the stream fed to the end.
 */
import type { Diagnostic, Severity } from '../diagnostics.js';
import type { HarmonyMessage } from '../messages/envelope.js';
import {
  FIRST_SPECIAL_ID,
  LAST_SPECIAL_ID,
  MAX_SPECIAL_LENGTH,
  TOKEN,
  checkUtf8,
  decodeLossy,
  decodeValid,
  firstTokenOf,
  isStopToken,
  specialIdOf,
  tokenPiece,
  utf8Bytes,
  utf8ErrorText,
  utf8Length,
} from './harmony-tokens.js';
import type {
  HarmonyOpenMessage,
  HarmonyParseError,
  HarmonyParseMode,
  HarmonyParseResult,
  HarmonyStopToken,
  ParsedHarmonyMessage,
} from './types.js';

/** Options of `parseHarmony` and `createHarmonyParser`. */
export interface HarmonyParseOptions {
  /** `strict` (default, openai-harmony's `strict=True`), `lenient` (`strict=False`) or `tolerant` (never refuses; problems become diagnostics). */
  readonly mode?: HarmonyParseMode;
  /** The role the prompt opened with `<|start|>{role}` (default `assistant`); `null` when the completion itself starts with `<|start|>`. */
  readonly role?: string | null;
}

/** What the parser reports while it reads. */
export type HarmonyParseEvent =
  | {
      readonly type: 'message-start';
      readonly role: string;
      readonly name?: string;
      readonly channel?: string;
      readonly recipient?: string;
      readonly content_type?: string;
    }
  | { readonly type: 'content'; readonly delta: string }
  | { readonly type: 'message-end'; readonly message: ParsedHarmonyMessage; readonly stop: HarmonyStopToken | 'end-of-input' }
  | { readonly type: 'error'; readonly error: HarmonyParseError }
  | { readonly type: 'diagnostic'; readonly diagnostic: Diagnostic };

/** The parser's state as openai-harmony's stream exposes it (`current_role`, `current_channel`, …, `messages`). */
export interface HarmonyStreamState {
  /** The open message's role; before its header is read, the role the prompt gave (first message only). */
  readonly currentRole: string | null;
  readonly currentChannel: string | null;
  readonly currentRecipient: string | null;
  readonly currentContentType: string | null;
  /** Text the last content token (or text chunk) added; null after a stop token or while a UTF-8 character is incomplete. */
  readonly lastContentDelta: string | null;
  /** The open message's content so far (complete characters only); `''` outside content. */
  readonly currentContent: string;
  readonly messages: readonly ParsedHarmonyMessage[];
}

/** A streaming Harmony parser: push chunks, then `end()`. */
export interface HarmonyParser {
  /** Feed completion text, its UTF-8 bytes, or token ids; returns what happened. Refuses input after an error. */
  push(chunk: string | readonly number[] | Uint8Array): HarmonyParseEvent[];
  /** The end of the completion (openai-harmony's `process_eos`). */
  end(): HarmonyParseEvent[];
  /** Everything parsed so far (the whole parse once `end()` was called). */
  result(): HarmonyParseResult;
  /** The state after the last push. */
  readonly state: HarmonyStreamState;
}

/** Parse a whole completion (the text after the prompt's `<|start|>assistant`, or its token ids). */
export function parseHarmony(input: string | readonly number[], options: HarmonyParseOptions = {}): HarmonyParseResult {
  const parser = new StreamParser(options);
  parser.push(input);
  parser.end();
  return parser.result();
}

/** A parser to feed chunk by chunk. */
export function createHarmonyParser(options: HarmonyParseOptions = {}): HarmonyParser {
  return new StreamParser(options);
}

const KNOWN_ROLES: ReadonlySet<string> = new Set(['user', 'assistant', 'system', 'developer', 'tool']);

/** A parsed message as an envelope message, so it renders back through `renderEnvelope`. */
export function harmonyMessageToEnvelope(m: ParsedHarmonyMessage): HarmonyMessage {
  // a role outside the five (only possible with a custom `role` option) renders as a tool author of that name
  const known = KNOWN_ROLES.has(m.role);
  const role = (known ? m.role : 'tool') as HarmonyMessage['role'];
  const name = known ? m.name : (m.name ?? m.role);
  return {
    role,
    ...(name !== undefined ? { name } : {}),
    ...(m.recipient !== undefined ? { recipient: m.recipient } : {}),
    ...(m.channel !== undefined ? { channel: m.channel } : {}),
    ...(m.content_type !== undefined ? { contentType: m.content_type } : {}),
    content: m.content,
  };
}

// ---------------------------------------------------------------------------------------------
// Header text → fields (openai-harmony's `parse_header_from_string`)

interface HeaderFields {
  readonly role: string;
  readonly name?: string;
  readonly recipient?: string;
  readonly channel?: string;
  readonly contentType?: string;
}

interface HeaderProblem {
  readonly code: string;
  /** The reference's error text. */
  readonly message: string;
}

interface HeaderParse {
  readonly fields: HeaderFields;
  /** Words left over (the whole rest when recipient and content type are not read). */
  readonly remaining?: string;
  readonly problems: readonly HeaderProblem[];
}

const CHANNEL_MARK = '<|channel|>';
const CONSTRAIN_MARK = '<|constrain|>';

/** Rust's `char::is_whitespace` (Unicode White_Space), used by the reference to end a channel name and to trim. */
function isRustWhitespace(c: number): boolean {
  return (
    (c >= 9 && c <= 13) || c === 32 || c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000
  );
}

/** Rust's `str::trim` (White_Space, not JavaScript's set, which adds U+FEFF and lacks U+0085). */
function rustTrim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isRustWhitespace(s.charCodeAt(a))) a++;
  while (b > a && isRustWhitespace(s.charCodeAt(b - 1))) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

/** Rust's `str::split_ascii_whitespace`: space, tab, LF, FF, CR (not VT), empty fields dropped. */
function splitAsciiWhitespace(s: string): string[] {
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i <= s.length; i++) {
    const c = i < s.length ? s.charCodeAt(i) : 32;
    const ws = c === 32 || c === 9 || c === 10 || c === 12 || c === 13;
    if (ws) {
      if (start >= 0) out.push(s.slice(start, i));
      start = -1;
    } else if (start < 0) start = i;
  }
  return out;
}

const RUST_ESCAPED = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}\p{Grapheme_Extend}]/u;

/** Rust's `{:?}` of a string (the reference prints leftover header words with it): quotes, `\"`, `\\`, `\n`, `\u{…}`. */
function rustDebugString(s: string): string {
  let out = '"';
  for (const ch of s) {
    switch (ch) {
      case '\0': out += '\\0'; break;
      case '\t': out += '\\t'; break;
      case '\r': out += '\\r'; break;
      case '\n': out += '\\n'; break;
      case '\\': out += '\\\\'; break;
      case '"': out += '\\"'; break;
      default:
        // Rust escapes non-printable characters (control, format, unassigned, separators but the space)
        // and grapheme extenders as \u{hex}
        out += ch !== ' ' && RUST_ESCAPED.test(ch) ? `\\u{${ch.codePointAt(0)!.toString(16)}}` : ch;
    }
  }
  return out + '"';
}

/**
 * Read a header's text as openai-harmony does. `role` is the role the prompt gave (first message) or
 * null (read it from the text). `withRecipient`: read the recipient and content type (the normal path;
 * false for the non-strict salvage of a header cut by a stop token, where every word is content).
 * Not `lax`: stop at the first problem, as the reference raises. `lax`: note it and carry on.
 */
function parseHeaderText(
  input: string,
  role: string | null,
  withRecipient: boolean,
  lax: boolean,
  fallbackRole: string,
): HeaderParse | HeaderProblem {
  const problems: HeaderProblem[] = [];
  let text = input;
  let channel: string | undefined;
  const at = text.indexOf(CHANNEL_MARK);
  if (at >= 0) {
    // the channel name runs to the first whitespace or `<` (so `finalHello` is one name)
    const from = at + CHANNEL_MARK.length;
    let to = from;
    while (to < text.length) {
      const c = text.charCodeAt(to);
      if (c === 60 || isRustWhitespace(c)) break;
      to++;
    }
    if (to === from) {
      const p = { code: 'parse/empty-channel', message: 'channel marker present but no channel value found in header' };
      if (!lax) return p;
      problems.push(p);
    } else channel = text.slice(from, to);
    text = text.slice(0, at) + text.slice(to);
  }
  text = rustTrim(text);
  // a space goes before every <|constrain|>, so `to=x<|constrain|>json` splits into two words
  if (text.includes(CONSTRAIN_MARK)) text = rustTrim(text.split(CONSTRAIN_MARK).join(` ${CONSTRAIN_MARK}`));
  const parts = splitAsciiWhitespace(text);

  let theRole: string;
  let name: string | undefined;
  if (role !== null) theRole = role;
  else if (parts.length === 0) {
    const p = { code: 'parse/missing-role', message: 'message header did not contain a role' };
    if (!lax) return p;
    problems.push(p);
    theRole = fallbackRole;
  } else {
    const word = parts[0];
    if (KNOWN_ROLES.has(word)) theRole = word;
    else if (parts.length > 1 || word.startsWith('to=')) {
      // an unknown first word followed by more words (or itself `to=…`) is a tool author
      parts.shift();
      theRole = 'tool';
    } else {
      const p = { code: 'parse/unknown-role', message: `Unknown role: ${word}` };
      if (!lax) return p;
      problems.push(p);
      parts.shift();
      theRole = 'tool';
    }
    // the reference names the author only when it is a tool, with the first word as written
    if (theRole === 'tool') name = word;
  }
  if (parts.length > 0 && parts[0] === theRole) parts.shift();

  let recipient: string | undefined;
  let contentType: string | undefined;
  if (withRecipient && parts.length > 0) {
    const count = parts.length;
    const last = parts.pop()!;
    if (last.startsWith('to=')) recipient = last.slice(3);
    // a single word is the recipient even without `to=` (`commentary json` → recipient `json`)
    else if (count === 1) recipient = last;
    else {
      contentType = last;
      const before = parts.pop()!;
      recipient = before.startsWith('to=') ? before.slice(3) : before;
    }
  }
  const remaining = parts.length > 0 ? parts.join(' ') : undefined;
  if (withRecipient && remaining !== undefined) {
    const p = { code: 'parse/extra-header-words', message: `unexpected tokens remaining in message header: Some(${rustDebugString(remaining)})` };
    if (!lax) return p;
    problems.push(p);
  }
  const fields: HeaderFields = {
    role: theRole,
    ...(name !== undefined ? { name } : {}),
    ...(recipient !== undefined ? { recipient } : {}),
    ...(channel !== undefined ? { channel } : {}),
    ...(contentType !== undefined ? { contentType } : {}),
  };
  return { fields, ...(remaining !== undefined ? { remaining } : {}), problems };
}

function isProblem(r: HeaderParse | HeaderProblem): r is HeaderProblem {
  return (r as HeaderProblem).code !== undefined;
}

function toMessage(h: HeaderFields, content: string): ParsedHarmonyMessage {
  // the keys in the order openai-harmony's serde writes them (role, name, recipient, content, channel, content_type)
  return {
    role: h.role,
    ...(h.name !== undefined ? { name: h.name } : {}),
    ...(h.recipient !== undefined ? { recipient: h.recipient } : {}),
    content,
    ...(h.channel !== undefined ? { channel: h.channel } : {}),
    ...(h.contentType !== undefined ? { content_type: h.contentType } : {}),
  };
}

function startEvent(h: HeaderFields): HarmonyParseEvent {
  return {
    type: 'message-start',
    role: h.role,
    ...(h.name !== undefined ? { name: h.name } : {}),
    ...(h.channel !== undefined ? { channel: h.channel } : {}),
    ...(h.recipient !== undefined ? { recipient: h.recipient } : {}),
    ...(h.contentType !== undefined ? { content_type: h.contentType } : {}),
  };
}

function stopName(id: number): HarmonyStopToken {
  return id === TOKEN.call ? '<|call|>' : id === TOKEN.return ? '<|return|>' : '<|end|>';
}

/** A call: an assistant message with a recipient (openai-harmony ends those with `<|call|>`). */
function isCall(h: HeaderFields): boolean {
  return h.role === 'assistant' && h.recipient !== undefined && h.recipient !== 'all';
}

function snippet(s: string): string {
  return JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);
}

const REPLACEMENT = '\uFFFD';
const REPLACEMENT_BYTES = Uint8Array.of(0xef, 0xbf, 0xbd);
const START_REFUSED = (id: number | undefined): string => `Unexpected token ${id} while expecting start token ${TOKEN.start}`;
/** How much refused text is tokenized to name its first token (far more than any first pre-token). */
const STRAY_PREFIX = 4096;
const EOS_IN_HEADER = 'Unexpected EOS while waiting for message header to complete';

// Phases (openai-harmony's ExpectStart / Header / Content, plus Stray: text that follows a message in
// strict text input, held until its end so the refused token can be named by its id).
const EXPECT_START = 0;
const HEADER = 1;
const CONTENT = 2;
const STRAY = 3;

function isNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95;
}

class StreamParser implements HarmonyParser {
  private readonly mode: HarmonyParseMode;
  private readonly tolerant: boolean;
  private readonly fallbackRole: string;
  private phase: number;
  /** The role the prompt gave, until the first header is read (openai-harmony's `next_role`). */
  private nextRole: string | null;

  // header being read
  private hdrPieces: (string | Uint8Array)[] = [];
  private hdrHasBytes = false;
  private hdrUnknown = -1;
  private hdrWithStart = false;
  private msgOffset = 0;

  // content being read
  private cur: HeaderFields | null = null;
  private parts: string[] = [];
  private pend = new Uint8Array(16);
  private pendLen = 0;
  private poisoned = false;
  private lastDelta: string | null = null;

  private readonly messages: ParsedHarmonyMessage[] = [];
  private readonly stops: (HarmonyStopToken | undefined)[] = [];
  private readonly diagnostics: Diagnostic[] = [];
  private error: HarmonyParseError | undefined;
  private ended = false;
  private endInfo: { completed: number; partial: boolean; open: HarmonyOpenMessage | undefined } | undefined;

  // position
  private pos = 0;
  private tokenIndex = 0;
  private lastToken: number | undefined;

  // text input
  private carry = '';
  private bytes: InstanceType<typeof TextDecoder> | null = null;
  private strayParts: string[] = [];
  private strayLength = 0;
  private strayOffset = 0;
  // tolerant: a run of text between messages
  private runStart = -1;
  private runText = '';

  private out: HarmonyParseEvent[] = [];

  constructor(options: HarmonyParseOptions) {
    this.mode = options.mode ?? 'strict';
    this.tolerant = this.mode === 'tolerant';
    this.nextRole = options.role === undefined ? 'assistant' : options.role;
    this.fallbackRole = this.nextRole ?? 'assistant';
    // openai-harmony: a parser created with a role starts inside that message's header
    this.phase = this.nextRole !== null ? HEADER : EXPECT_START;
  }

  get state(): HarmonyStreamState {
    const inContent = this.phase === CONTENT && this.cur !== null;
    const h = this.cur;
    return {
      currentRole: inContent ? h!.role : this.nextRole,
      currentChannel: inContent ? (h!.channel ?? null) : null,
      currentRecipient: inContent ? (h!.recipient ?? null) : null,
      currentContentType: inContent ? (h!.contentType ?? null) : null,
      lastContentDelta: this.lastDelta,
      currentContent: inContent ? this.joinedContent() : '',
      messages: this.messages,
    };
  }

  push(chunk: string | readonly number[] | Uint8Array): HarmonyParseEvent[] {
    const out: HarmonyParseEvent[] = (this.out = []);
    if (this.error !== undefined || this.ended) return out;
    if (typeof chunk === 'string') {
      this.flushBytes();
      if (chunk !== '') this.feedText(chunk, false);
    } else if (chunk instanceof Uint8Array) {
      this.feedBytes(chunk);
    } else {
      this.flushBytes();
      this.flushCarry();
      for (let i = 0; i < chunk.length && this.error === undefined; i++) this.feedToken(chunk[i]);
    }
    return out;
  }

  end(): HarmonyParseEvent[] {
    const out: HarmonyParseEvent[] = (this.out = []);
    if (this.ended) return out;
    if (this.error === undefined) {
      this.flushBytes();
      this.flushCarry();
    }
    if (this.error === undefined && this.phase === STRAY) this.refuseStray();
    this.ended = true;
    if (this.error !== undefined) return out;
    this.endInfo = { completed: this.messages.length, partial: this.phase !== EXPECT_START, open: this.openMessage() };
    switch (this.phase) {
      case EXPECT_START:
        // the reference: end of input while waiting for `<|start|>` is fine
        this.flushRun();
        break;
      case HEADER:
        if (this.tolerant) {
          this.diag('parse/cut-in-header', 'error', this.pos, `the completion ends inside a message header (the message opened at byte ${this.msgOffset} has no <|message|>); the message is dropped`);
        } else this.fail({ message: EOS_IN_HEADER, stage: 'eos', offset: this.pos });
        break;
      case CONTENT: {
        const h = this.cur!;
        // the reference's process_eos completes a message cut inside its content
        this.endMessage(undefined);
        if (isCall(h)) {
          this.diag('parse/incomplete-call', 'error', this.pos, `the call to ${h.recipient} was cut before <|call|>: the completion ends inside its arguments, which are incomplete`);
        } else {
          this.diag('parse/cut-in-content', 'warning', this.pos, `the completion ends inside a message's content, with no stop token`);
        }
        break;
      }
    }
    return out;
  }

  result(): HarmonyParseResult {
    const info = this.endInfo ?? { completed: this.messages.length, partial: this.phase !== EXPECT_START, open: this.openMessage() };
    return {
      messages: this.messages.slice(),
      stops: this.stops.slice(),
      completedBeforeEnd: info.completed,
      partial: info.partial,
      ...(info.open !== undefined ? { open: info.open } : {}),
      ...(this.error !== undefined ? { error: this.error } : {}),
      diagnostics: this.diagnostics.slice(),
      ...(this.lastToken !== undefined ? { lastToken: this.lastToken } : {}),
    };
  }

  // ------------------------------------------------------------------ input kinds

  private feedToken(id: number): void {
    const index = this.tokenIndex++;
    this.lastToken = id;
    const piece = tokenPiece(id);
    const length = piece === undefined ? 0 : typeof piece === 'string' ? utf8Length(piece) : piece.length;
    if (id >= FIRST_SPECIAL_ID && id <= LAST_SPECIAL_ID && typeof piece === 'string') this.onSpecial(id, piece, index);
    else this.onOrdinaryToken(id, piece, index);
    this.pos += length;
  }

  private feedBytes(chunk: Uint8Array): void {
    // ignoreBOM: a leading U+FEFF is the model's text
    this.bytes ??= new TextDecoder('utf-8', { ignoreBOM: true });
    const text = this.bytes.decode(chunk, { stream: true });
    if (text !== '') this.feedText(text, false);
  }

  private flushBytes(): void {
    if (this.bytes === null) return;
    const text = this.bytes.decode();
    this.bytes = null;
    if (text !== '' && this.error === undefined) this.feedText(text, false);
  }

  private flushCarry(): void {
    if (this.carry === '') return;
    const text = this.carry;
    this.carry = '';
    this.feedText(text, true);
  }

  /**
   * Split text on the o200k_harmony special spellings. Unless `final`, a tail that may be the start of
   * a spelling (or half of a surrogate pair) is kept for the next chunk.
   */
  private feedText(chunk: string, final: boolean): void {
    const text = this.carry === '' ? chunk : this.carry + chunk;
    this.carry = '';
    const n = text.length;
    let seg = 0;
    let i = 0;
    for (;;) {
      const j = text.indexOf('<|', i);
      if (j < 0) break;
      const limit = Math.min(n, j + MAX_SPECIAL_LENGTH);
      let k = j + 2;
      while (k < limit && isNameChar(text.charCodeAt(k))) k++;
      if (k + 1 < n && text.charCodeAt(k) === 124 && text.charCodeAt(k + 1) === 62) {
        const spelling = text.slice(j, k + 2);
        const id = specialIdOf(spelling);
        if (id !== undefined) {
          if (j > seg) this.onText(text.slice(seg, j));
          if (this.error !== undefined) return;
          this.lastToken = id;
          this.onSpecial(id, spelling, -1);
          this.pos += spelling.length;
          if (this.error !== undefined) return;
          seg = i = k + 2;
          continue;
        }
      } else if (!final && n - j < MAX_SPECIAL_LENGTH && (k === n || (k === n - 1 && text.charCodeAt(k) === 124))) {
        if (j > seg) this.onText(text.slice(seg, j));
        this.carry = text.slice(j);
        return;
      }
      i = j + 1;
    }
    let end = n;
    if (!final && end > seg) {
      const c = text.charCodeAt(end - 1);
      if (c === 60 || (c >= 0xd800 && c <= 0xdbff)) end--; // `<` may open a spelling; a high surrogate waits for its pair
    }
    if (end > seg) this.onText(text.slice(seg, end));
    if (end < n) this.carry = text.slice(end);
  }

  // ------------------------------------------------------------------ the state machine

  private onSpecial(id: number, spelling: string, index: number): void {
    switch (this.phase) {
      case EXPECT_START:
        if (id === TOKEN.start) {
          this.flushRun();
          this.beginHeader(true);
        } else this.refuse(id, spelling, index);
        return;
      case STRAY:
        this.refuseStray();
        return;
      case HEADER:
        if (id === TOKEN.message) this.finishHeader(index);
        else if (isStopToken(id) && this.mode !== 'strict') this.stopInHeader(id, index);
        else if (id === TOKEN.start && this.tolerant) this.restartHeader();
        // strict: every other token, stop tokens included, is header text
        else this.addHeader(spelling);
        return;
      case CONTENT:
        if (isStopToken(id)) this.endMessage(stopName(id));
        // other control tokens inside content are kept as their text
        else this.addContentText(spelling);
        return;
    }
  }

  private onOrdinaryToken(id: number, piece: string | Uint8Array | undefined, index: number): void {
    switch (this.phase) {
      case EXPECT_START:
        this.refuse(id, piece === undefined ? REPLACEMENT : typeof piece === 'string' ? piece : decodeLossy(piece), index);
        return;
      case STRAY:
        this.refuseStray();
        return;
      case HEADER:
        if (piece === undefined) {
          if (this.hdrUnknown < 0) this.hdrUnknown = id;
          this.hdrPieces.push(REPLACEMENT_BYTES);
          this.hdrHasBytes = true;
        } else {
          this.hdrPieces.push(piece);
          if (typeof piece !== 'string') this.hdrHasBytes = true;
        }
        return;
      case CONTENT:
        this.addContentToken(piece);
        return;
    }
  }

  private onText(text: string): void {
    const length = utf8Length(text);
    switch (this.phase) {
      case EXPECT_START:
        if (this.tolerant) this.strayRun(text);
        else {
          this.phase = STRAY;
          this.strayParts = [text];
          this.strayLength = text.length;
          this.strayOffset = this.pos;
        }
        break;
      case STRAY:
        // only the first pre-token decides the first token: a bounded prefix is enough (and keeps a
        // huge refused tail from being tokenized)
        if (this.strayLength < STRAY_PREFIX) {
          this.strayParts.push(text);
          this.strayLength += text.length;
        }
        break;
      case HEADER:
        this.addHeader(text);
        break;
      case CONTENT:
        this.addContentText(text);
        break;
    }
    this.pos += length;
  }

  // ---------------------------------------------------------------- between messages

  private refuse(id: number, text: string, index: number): void {
    if (this.tolerant) {
      this.strayRun(text);
      return;
    }
    this.fail({ message: START_REFUSED(id), stage: 'token', ...(index >= 0 ? { tokenIndex: index } : {}), offset: this.pos });
  }

  /** Strict text input: the text after a message is refused, named by the id of its first BPE token. */
  private refuseStray(): void {
    const text = this.strayParts.join('').slice(0, STRAY_PREFIX);
    this.strayParts = [];
    this.phase = EXPECT_START;
    this.fail({ message: START_REFUSED(firstTokenOf(text)), stage: 'token', offset: this.strayOffset });
  }

  private strayRun(text: string): void {
    if (this.runStart < 0) {
      this.runStart = this.pos;
      this.runText = '';
    }
    if (this.runText.length <= 40) this.runText += text;
  }

  private flushRun(): void {
    if (this.runStart < 0) return;
    this.diag('parse/stray-text', 'error', this.runStart, `text between messages, where <|start|> must come, is ignored: ${snippet(this.runText)}`);
    this.runStart = -1;
    this.runText = '';
  }

  // ---------------------------------------------------------------- header

  private beginHeader(withStart: boolean): void {
    this.phase = HEADER;
    this.hdrPieces = [];
    this.hdrHasBytes = false;
    this.hdrUnknown = -1;
    this.hdrWithStart = withStart;
    this.msgOffset = this.pos;
  }

  private addHeader(text: string): void {
    this.hdrPieces.push(text);
  }

  /** Tolerant: `<|start|>` inside a header starts the message again (a doubled or misplaced `<|start|>`). */
  private restartHeader(): void {
    const dropped = this.headerLossy();
    // a completion that itself begins with <|start|> (the prompt did not open the message) is fine
    if (dropped !== '' || this.hdrWithStart) {
      this.diag('parse/start-in-header', 'error', this.pos, `<|start|> inside the header of the message opened at byte ${this.msgOffset}; the header so far (${snippet(dropped)}) is dropped`);
    }
    this.nextRole = null;
    this.beginHeader(true);
  }

  /** The header's text, decoded strictly as the reference does at `<|message|>`. */
  private headerStrict(): { text: string } | { unknown: number } | { utf8: string } {
    if (this.hdrUnknown >= 0) return { unknown: this.hdrUnknown };
    if (!this.hdrHasBytes) return { text: this.hdrPieces.join('') };
    const bytes = this.headerBytes();
    const bad = utf8ErrorText(bytes);
    return bad !== undefined ? { utf8: bad } : { text: decodeValid(bytes, 0, bytes.length) };
  }

  private headerBytes(): Uint8Array {
    const chunks = this.hdrPieces.map((p) => (typeof p === 'string' ? utf8Bytes(p) : p));
    let n = 0;
    for (const c of chunks) n += c.length;
    const all = new Uint8Array(n);
    n = 0;
    for (const c of chunks) {
      all.set(c, n);
      n += c.length;
    }
    return all;
  }

  private headerLossy(): string {
    if (!this.hdrHasBytes) return this.hdrPieces.join('');
    return decodeLossy(this.headerBytes());
  }

  private finishHeader(index: number): void {
    const decoded = this.headerStrict();
    let text: string;
    if ('text' in decoded) text = decoded.text;
    else {
      if (!this.tolerant) {
        // the reference clears its state before parsing the header: a failure leaves it expecting <|start|>
        this.phase = EXPECT_START;
        this.fail({ message: 'could not decode header', stage: 'token', ...(index >= 0 ? { tokenIndex: index } : {}), offset: this.pos });
        return;
      }
      this.diag('parse/undecodable-header', 'error', this.msgOffset, 'could not decode header (invalid UTF-8 or an unknown token id); read with replacement characters');
      text = this.headerLossy();
    }
    const parsed = parseHeaderText(text, this.nextRole, true, this.tolerant, this.fallbackRole);
    if (isProblem(parsed)) {
      this.phase = EXPECT_START; // as above; `next_role` is kept
      this.fail({ message: parsed.message, stage: 'token', ...(index >= 0 ? { tokenIndex: index } : {}), offset: this.pos });
      return;
    }
    for (const p of parsed.problems) this.diag(p.code, 'error', this.msgOffset, `${p.message} (in the header of the message at byte ${this.msgOffset}; read anyway)`);
    this.nextRole = null;
    this.openContent(parsed.fields);
  }

  private openContent(h: HeaderFields): void {
    this.cur = h;
    this.phase = CONTENT;
    this.parts = [];
    this.pendLen = 0;
    this.poisoned = false;
    this.out.push(startEvent(h));
  }

  /**
   * A stop token before `<|message|>`. Lenient (the reference's strict=False): for the first message
   * only (the one whose role the prompt gave), the header's channel is kept and its other words become
   * the content; a later message is dropped. Tolerant: the same salvage for every message, with a
   * diagnostic.
   */
  private stopInHeader(id: number, index: number): void {
    const stop = stopName(id);
    if (this.tolerant) {
      this.diag('parse/stop-in-header', 'error', this.pos, `${stop} inside the header of the message opened at byte ${this.msgOffset} (no <|message|>); its words are read as content`);
      if (this.hdrPieces.length > 0) {
        const parsed = parseHeaderText(this.headerLossy(), this.nextRole, false, true, this.fallbackRole) as HeaderParse;
        for (const p of parsed.problems) this.diag(p.code, 'error', this.msgOffset, `${p.message} (in the header of the message at byte ${this.msgOffset}; read anyway)`);
        this.salvage(parsed, stop);
      }
    } else if (this.nextRole !== null && this.hdrPieces.length > 0) {
      const decoded = this.headerStrict();
      const at = { stage: 'token' as const, ...(index >= 0 ? { tokenIndex: index } : {}), offset: this.pos };
      if (!('text' in decoded)) {
        // no context on this path in the reference: the tokenizer's own error text
        const why = 'unknown' in decoded ? `Invalid token error: Invalid token for decoding: ${decoded.unknown}` : `Invalid utf-8 sequence: ${decoded.utf8}`;
        this.fail({ message: `Could not decode tokens: ${why}`, ...at });
        return;
      }
      const parsed = parseHeaderText(decoded.text, this.nextRole, false, false, this.fallbackRole);
      if (isProblem(parsed)) {
        this.fail({ message: parsed.message, ...at });
        return;
      }
      this.salvage(parsed, stop);
    }
    this.phase = EXPECT_START;
    this.nextRole = null;
  }

  private salvage(parsed: HeaderParse, stop: HarmonyStopToken): void {
    const h: HeaderFields = {
      role: parsed.fields.role,
      ...(parsed.fields.name !== undefined ? { name: parsed.fields.name } : {}),
      ...(parsed.fields.channel !== undefined ? { channel: parsed.fields.channel } : {}),
    };
    const content = parsed.remaining ?? '';
    this.out.push(startEvent(h));
    if (content !== '') this.out.push({ type: 'content', delta: content });
    const message = toMessage(h, content);
    this.messages.push(message);
    this.stops.push(stop);
    this.out.push({ type: 'message-end', message, stop });
  }

  // ---------------------------------------------------------------- content

  private delta(text: string): void {
    this.parts.push(text);
    this.lastDelta = text;
    this.out.push({ type: 'content', delta: text });
  }

  private addContentText(text: string): void {
    if (this.pendLen === 0 && !this.poisoned) this.delta(text);
    else if (this.poisoned) this.lastDelta = null;
    else this.addContentBytes(utf8Bytes(text));
  }

  private addContentToken(piece: string | Uint8Array | undefined): void {
    // an id the vocabulary lacks: the reference can never decode its pending tokens again, so the
    // rest of this message's content is lost and becomes one U+FFFD at its end
    if (piece === undefined) this.poisoned = true;
    if (piece === undefined || this.poisoned) {
      this.lastDelta = null;
      return;
    }
    if (typeof piece === 'string') {
      if (this.pendLen === 0) this.delta(piece);
      else this.addContentBytes(utf8Bytes(piece));
    } else this.addContentBytes(piece);
  }

  /**
   * Bytes that may not be whole UTF-8 characters, handled as the reference does per token: the valid
   * prefix is emitted; one invalid sequence becomes U+FFFD (bytes after it wait for the next token); a
   * sequence cut at the end waits.
   */
  private addContentBytes(bytes: Uint8Array): void {
    const need = this.pendLen + bytes.length;
    if (need > this.pend.length) {
      const grown = new Uint8Array(Math.max(need, this.pend.length * 2));
      grown.set(this.pend.subarray(0, this.pendLen));
      this.pend = grown;
    }
    this.pend.set(bytes, this.pendLen);
    this.pendLen = need;
    const { validUpTo, errorLen } = checkUtf8(this.pend, 0, this.pendLen);
    if (errorLen < 0) {
      const text = decodeValid(this.pend, 0, this.pendLen);
      this.pendLen = 0;
      this.delta(text);
      return;
    }
    let text = decodeValid(this.pend, 0, validUpTo);
    let drop = validUpTo;
    if (errorLen > 0) {
      text += REPLACEMENT;
      drop += errorLen;
    }
    if (drop > 0) {
      this.pend.copyWithin(0, drop, this.pendLen);
      this.pendLen -= drop;
    }
    if (text === '') this.lastDelta = null;
    else this.delta(text);
  }

  private joinedContent(): string {
    if (this.parts.length > 1) this.parts = [this.parts.join('')];
    return this.parts.length === 1 ? this.parts[0] : '';
  }

  private endMessage(stop: HarmonyStopToken | undefined): void {
    const h = this.cur!;
    let content = this.joinedContent();
    // the reference appends what never decoded: U+FFFD for unknown ids, then the pending bytes, lossily
    if (this.poisoned) content += REPLACEMENT;
    if (this.pendLen > 0) content += decodeLossy(this.pend, 0, this.pendLen);
    const message = toMessage(h, content);
    this.messages.push(message);
    this.stops.push(stop);
    this.phase = EXPECT_START;
    this.cur = null;
    this.parts = [];
    this.pendLen = 0;
    this.poisoned = false;
    this.lastDelta = null;
    this.out.push({ type: 'message-end', message, stop: stop ?? 'end-of-input' });
    if (stop !== undefined && stop !== '<|call|>' && isCall(h)) {
      this.diag('parse/call-not-ended-by-call', 'warning', this.pos, `the call to ${h.recipient} ends with ${stop}, not <|call|>`);
    }
  }

  // ---------------------------------------------------------------- results

  private openMessage(): HarmonyOpenMessage | undefined {
    if (this.phase === HEADER) {
      const text = this.headerLossy();
      const parsed = parseHeaderText(text, this.nextRole, true, true, this.fallbackRole) as HeaderParse;
      const h = parsed.fields;
      // what the header says so far (a role the prompt gave, or the first word when it is a role)
      const role = this.nextRole ?? (parsed.problems.some((p) => p.code === 'parse/missing-role') ? undefined : h.role);
      return {
        state: 'header',
        ...(role !== undefined ? { role } : {}),
        ...(h.name !== undefined ? { name: h.name } : {}),
        ...(h.recipient !== undefined ? { recipient: h.recipient } : {}),
        ...(h.channel !== undefined ? { channel: h.channel } : {}),
        ...(h.contentType !== undefined ? { content_type: h.contentType } : {}),
        content: '',
        raw: (this.hdrWithStart ? '<|start|>' : '') + text,
      };
    }
    if (this.phase === CONTENT && this.cur !== null) {
      const h = this.cur;
      const content = this.joinedContent();
      return {
        state: 'content',
        role: h.role,
        ...(h.name !== undefined ? { name: h.name } : {}),
        ...(h.recipient !== undefined ? { recipient: h.recipient } : {}),
        ...(h.channel !== undefined ? { channel: h.channel } : {}),
        ...(h.contentType !== undefined ? { content_type: h.contentType } : {}),
        content,
        raw: `${this.hdrWithStart ? '<|start|>' : ''}${this.headerLossy()}<|message|>${content}`,
      };
    }
    return undefined;
  }

  private fail(error: HarmonyParseError): void {
    this.error = error;
    this.out.push({ type: 'error', error });
  }

  private diag(code: string, severity: Severity, offset: number, message: string): void {
    const diagnostic: Diagnostic = { code, severity, path: `/completion#${offset}`, message: `${message} (byte ${offset})` };
    this.diagnostics.push(diagnostic);
    this.out.push({ type: 'diagnostic', diagnostic });
  }
}
