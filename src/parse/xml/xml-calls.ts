/**
 * Default-mode parsing of the two XML call formats:
 *
 * - qwen3-coder: `<tool_call>\n<function=NAME>\n<parameter=P>\nVALUE\n</parameter>\n</function>\n</tool_call>`
 *   (one newline after `>` and before `</parameter>` belongs to the layout, not the value)
 * - anthropic: `<function_calls>\n<invoke name="NAME">\n<parameter name="P">VALUE</parameter>\n</invoke>\n</function_calls>`
 *   (values exactly as written)
 *
 * A `</parameter>` ends a value only when what follows (after whitespace) is another
 * parameter, the end of the call, of the block, or of the text; a parameter tag inside a value
 * opens a nested literal block that its own `</parameter>` closes (Qwen3-Coder: only at a line
 * start). A missing `</parameter>` ends at the next declared parameter or at the call's end, with
 * a warning; output that ends inside a call drops that call (its text stays content), with an error;
 * output that ends after a call's parameters but before its block is closed (no `</function>` and
 * no `</tool_call>`, or no `</tool_call>`; an unwrapped call: no `</function>`) returns the call
 * marked incomplete (never runnable). A missing close tag followed by more calls or blocks is a warning.
 */
import type { JsonValue } from '../../ir/json.js';
import { decodeValue, declaredParameters, parameterSchema, type Note, type ValueSpelling } from './decode.js';
import { finder, type CallDraft, type DialectParse, type TextNote, skipWs } from './draft.js';
import { nesting, type Accept } from './nesting.js';
import { findTool, type ParseTool } from './tools.js';
import { isPlausibleFunctionName } from './vllm-qwen3-coder.js';
import { firstAtOrAfter } from '../../ir/arrays.js';

/** How one XML dialect spells its tags. */
interface XmlSyntax {
  readonly dialect: string;
  readonly wrapperOpen: string;
  readonly wrapperClose: string;
  /** The call tag's fixed start (`<function=`, `<invoke`). */
  readonly callOpen: string;
  readonly callClose: string;
  readonly paramOpen: string;
  readonly paramClose: string;
  /** Read a tag's name at `at` (which starts with the tag's fixed part): the name and the index after `>`; `truncated` when the text ends first; `malformed` otherwise. */
  readonly readCallName: (text: string, at: number) => TagRead;
  readonly readParamName: (text: string, at: number) => TagRead;
  /** Qwen3-Coder: the newline after `>` and the one before `</parameter>` are layout. */
  readonly layoutNewlines: boolean;
  /** Qwen3-Coder: a parameter tag opens (a nested literal block, or the next parameter) only at a line start. */
  readonly lineStartOpens: boolean;
  readonly spelling: ValueSpelling;
  /** The tags whose literal presence in a value is worth a warning. */
  readonly literalTags: readonly string[];
}

type TagRead = { readonly name: string; readonly end: number } | { readonly error: 'truncated' | 'malformed' };

function readUntilGt(text: string, at: number, prefix: string): TagRead {
  const gt = text.indexOf('>', at + prefix.length);
  if (gt < 0) return { error: 'truncated' };
  return { name: text.slice(at + prefix.length, gt), end: gt + 1 };
}

export function readNameAttribute(tag: string): (text: string, at: number) => TagRead {
  const re = new RegExp(`${tag}[ \\t\\n\\r]+name[ \\t\\n\\r]*=[ \\t\\n\\r]*"([^"]*)"[ \\t\\n\\r]*>`, 'y');
  return (text, at) => {
    re.lastIndex = at;
    const m = re.exec(text);
    if (m) return { name: m[1], end: at + m[0].length };
    return text.indexOf('>', at) < 0 ? { error: 'truncated' } : { error: 'malformed' };
  };
}

/** Qwen3-Coder's call syntax. */
export const QWEN3_CODER_SYNTAX: XmlSyntax = {
  dialect: 'qwen3-coder',
  wrapperOpen: '<tool_call>',
  wrapperClose: '</tool_call>',
  callOpen: '<function=',
  callClose: '</function>',
  paramOpen: '<parameter=',
  paramClose: '</parameter>',
  readCallName: (text, at) => readUntilGt(text, at, '<function='),
  readParamName: (text, at) => readUntilGt(text, at, '<parameter='),
  layoutNewlines: true,
  lineStartOpens: true,
  spelling: 'python-str',
  literalTags: ['</parameter>', '<parameter=', '</function>', '<function=', '</tool_call>', '<tool_call>'],
};

/** The Anthropic `<function_calls>` syntax. */
export const ANTHROPIC_SYNTAX: XmlSyntax = {
  dialect: 'anthropic',
  wrapperOpen: '<function_calls>',
  wrapperClose: '</function_calls>',
  callOpen: '<invoke',
  callClose: '</invoke>',
  paramOpen: '<parameter',
  paramClose: '</parameter>',
  readCallName: readNameAttribute('<invoke'),
  readParamName: readNameAttribute('<parameter'),
  layoutNewlines: false,
  lineStartOpens: false,
  spelling: 'json',
  literalTags: ['</parameter>', '<parameter ', '</invoke>', '<invoke ', '</function_calls>', '<function_calls>'],
};


interface CallResult {
  readonly ok: boolean;
  readonly draft?: CallDraft;
  /** Index after the call (its close tag, or where it stopped). */
  readonly end: number;
  readonly truncated: boolean;
}

/** Scan one output in an XML dialect. */
export function parseXmlCalls(text: string, tools: readonly ParseTool[] | undefined, syntax: XmlSyntax): DialectParse {
  const find = finder(text);
  const calls: CallDraft[] = [];
  const consumed: [number, number][] = [];
  const textNotes: TextNote[] = [];
  const note = (at: number, code: string, severity: Note['severity'], message: string, tool?: string) =>
    textNotes.push({ at, note: { code, severity, message }, ...(tool !== undefined ? { tool } : {}) });
  const S = syntax;

  /** Is the text at `i` (after whitespace) a point where a value may structurally end? */
  const structuralAfterClose = (i: number, declared: ReadonlySet<string> | undefined): boolean => {
    const j = skipWs(text, i);
    if (j >= text.length) return true;
    if (text.startsWith(S.callClose, j) || text.startsWith(S.wrapperClose, j)) return true;
    if (text.startsWith(S.paramOpen, j)) {
      const r = S.readParamName(text, j);
      return 'name' in r ? declared === undefined || declared.has(r.name) : declared === undefined;
    }
    return false;
  };

  const isOpenAt = (i: number): boolean => text.startsWith(S.paramOpen, i) && (!S.lineStartOpens || text[i - 1] === '\n') && (S.lineStartOpens || 'name' in S.readParamName(text, i));
  // the walks of nested parameter tags, answered in linear time (nesting.ts); a value's end accepted per tool's declared names
  const walks = nesting(text, S.paramOpen, S.paramClose, isOpenAt);
  // one set of declared names per tool, so that each tool's rule is one `accept` (nesting.ts keeps its answers per accept)
  const declaredSets = new Map<ParseTool, ReadonlySet<string> | undefined>();
  const declaredOf = (tool: ParseTool | undefined): ReadonlySet<string> | undefined => {
    if (tool === undefined) return undefined;
    if (!declaredSets.has(tool)) declaredSets.set(tool, declaredParameters(tool.parameters));
    return declaredSets.get(tool);
  };
  const accepts = new Map<ReadonlySet<string> | undefined, Accept>();
  const acceptFor = (declared: ReadonlySet<string> | undefined): Accept => {
    let a = accepts.get(declared);
    if (a === undefined) accepts.set(declared, (a = (close) => structuralAfterClose(close + S.paramClose.length, declared)));
    return a;
  };
  // the openers with a name, by name, and the call ends a value may run to: found once, searched by place
  let openers: { all: number[]; byName: Map<string, number[]> } | undefined;
  const openersByName = () => {
    if (openers !== undefined) return openers;
    openers = { all: [], byName: new Map() };
    for (let i = find(S.paramOpen, 0); i >= 0; i = find(S.paramOpen, i + 1)) {
      if (!isOpenAt(i)) continue;
      const r = S.readParamName(text, i);
      if (!('name' in r)) continue;
      openers.all.push(i);
      const list = openers.byName.get(r.name);
      if (list) list.push(i);
      else openers.byName.set(r.name, [i]);
    }
    return openers;
  };
  let callEnds: number[] | undefined;
  const callEndsOf = () => {
    if (callEnds !== undefined) return callEnds;
    callEnds = [];
    for (let i = find(S.callClose, 0); i >= 0; i = find(S.callClose, i + 1)) {
      const j = skipWs(text, i + S.callClose.length);
      if (j >= text.length || text.startsWith(S.wrapperClose, j)) callEnds.push(i);
    }
    return callEnds;
  };

  /** The end of a value starting at `from`: [valueEnd, afterClose, how] or undefined when the text ends inside it. */
  const valueEnd = (from: number, current: string, seen: ReadonlySet<string>, declared: ReadonlySet<string> | undefined): [number, number, 'closed' | 'next-parameter' | 'call-end'] | undefined => {
    // the first </parameter> at level 0 (a parameter tag inside the value opens a nested literal block) that a structural tag follows
    const close = walks.end(from, acceptFor(declared));
    if (close >= 0) return [close, close + S.paramClose.length, 'closed'];
    // no </parameter>: the next parameter (declared and not yet given, when the tool declares them) ends it, else the call's end
    const o = openersByName();
    let next = -1;
    const consider = (list: readonly number[] | undefined) => {
      const i = list === undefined ? -1 : firstAtOrAfter(list, from);
      if (i >= 0 && (next < 0 || i < next)) next = i;
    };
    if (declared === undefined) consider(o.all);
    else for (const name of declared) if (!seen.has(name) && name !== current) consider(o.byName.get(name));
    if (next >= 0) return [next, next, 'next-parameter'];
    const end = firstAtOrAfter(callEndsOf(), from);
    if (end >= 0) return [end, end, 'call-end'];
    return undefined;
  };

  const parseCall = (at: number, wrapped: boolean): CallResult => {
    const head = S.readCallName(text, at);
    if ('error' in head) {
      if (head.error === 'truncated') {
        note(at, 'parse/truncated', 'error', `the output ends inside a ${S.callOpen} tag: no call (the text stays content)`);
        return { ok: false, end: text.length, truncated: true };
      }
      note(at, 'parse/invalid-call', 'error', `a ${S.callOpen} tag without a well-formed name="…": no call (the text stays content)`);
      return { ok: false, end: at + S.callOpen.length, truncated: false };
    }
    const name = head.name;
    const tool = findTool(tools, name);
    let ok = true;
    if (!tool && !isPlausibleFunctionName(name)) {
      ok = false;
      note(at, 'parse/invalid-name', 'error', `${JSON.stringify(name)} is not a function name (empty, or holding whitespace, quotes, braces or angle brackets) and no tool has it: no call (the text stays content)`);
    }
    const declared = declaredOf(tool);
    const args = new Map<string, JsonValue>();
    const notes: { note: Note; param?: string }[] = [];
    const seen = new Set<string>();
    let i = head.end;
    let end = -1;
    let incomplete: string | undefined;
    for (;;) {
      const j = skipWs(text, i);
      if (text.startsWith(S.callClose, j)) {
        end = j + S.callClose.length;
        break;
      }
      if (text.startsWith(S.paramOpen, j)) {
        const p = S.readParamName(text, j);
        if ('error' in p && p.error === 'truncated') {
          note(j, 'parse/truncated', 'error', `the output ends inside a parameter tag of ${JSON.stringify(name)}: no call (the text stays content)`, name);
          return { ok: false, end: text.length, truncated: true };
        }
        if ('name' in p) {
          let from = p.end;
          if (S.layoutNewlines && text[from] === '\n') from++;
          const found = valueEnd(from, p.name, seen, declared);
          if (!found) {
            note(j, 'parse/truncated', 'error', `the output ends inside the value of ${JSON.stringify(p.name)} of ${JSON.stringify(name)}: no call (the text stays content)`, name);
            return { ok: false, end: text.length, truncated: true };
          }
          const [vEnd, after, how] = found;
          let raw = text.slice(from, vEnd);
          if (S.layoutNewlines && raw.endsWith('\n')) raw = raw.slice(0, -1);
          if (how === 'next-parameter') notes.push({ param: p.name, note: { code: 'parse/unclosed', severity: 'warning', message: `no ${S.paramClose} after the value of ${JSON.stringify(p.name)}: it ends where the next parameter starts` } });
          if (how === 'call-end') notes.push({ param: p.name, note: { code: 'parse/unclosed', severity: 'warning', message: `no ${S.paramClose} after the value of ${JSON.stringify(p.name)}: it ends at ${S.callClose}` } });
          const literal = S.literalTags.filter((t) => raw.includes(t));
          if (literal.length > 0) notes.push({ param: p.name, note: { code: 'parse/literal-tag-in-value', severity: 'warning', message: `the value of ${JSON.stringify(p.name)} holds ${literal.join(', ')} as text: read as part of the value (what follows it is not a structural tag), but a reader that cuts at the first one reads something else` } });
          if (seen.has(p.name)) notes.push({ param: p.name, note: { code: 'parse/duplicate-parameter', severity: 'warning', message: `${JSON.stringify(p.name)} is given twice: the last value is used` } });
          seen.add(p.name);
          const schema = tool ? parameterSchema(tool.parameters, p.name) : undefined;
          if (tool && !schema) {
            notes.push({ param: p.name, note: { code: 'parse/unknown-parameter', severity: 'warning', message: `${JSON.stringify(name)} declares no parameter ${JSON.stringify(p.name)}: its value is kept as text` } });
          }
          if (schema) {
            const d = decodeValue(raw, schema, S.spelling);
            args.set(p.name, d.value);
            for (const n of d.notes) notes.push({ param: p.name, note: n });
          } else args.set(p.name, raw);
          i = after;
          continue;
        }
      }
      if (j >= text.length || text.startsWith(S.wrapperClose, j) || text.startsWith(S.wrapperOpen, j) || text.startsWith(S.callOpen, j)) {
        // the output ends: the call may be cut off (incomplete); else the model went on and only the tag is missing
        if (j >= text.length) incomplete = `no ${S.callClose}`;
        else notes.push({ note: { code: 'parse/unclosed', severity: 'warning', message: `no ${S.callClose} after the call to ${JSON.stringify(name)} (${S.callOpen} or a call block follows): the call ends after its last parameter` } });
        end = j;
        break;
      }
      // text that is neither a parameter nor a close (or a malformed parameter tag): up to the next tag
      let k = text.length;
      for (const t of [S.paramOpen, S.callClose, S.wrapperClose]) {
        const x = find(t, j + 1);
        if (x >= 0 && x < k) k = x;
      }
      notes.push({ note: { code: 'parse/unexpected-text', severity: 'warning', message: `text inside the call to ${JSON.stringify(name)} that is not a parameter, left out: ${JSON.stringify(text.slice(j, k).slice(0, 80))}` } });
      i = k;
    }
    if (!ok) return { ok: false, end, truncated: false };
    if (tools !== undefined && !tool) notes.push({ note: { code: 'parse/unknown-tool', severity: 'warning', message: `no tool is named ${JSON.stringify(name)}: its values are kept as text` } });
    if (!wrapped) notes.push({ note: { code: 'parse/no-wrapper', severity: 'warning', message: `the call to ${JSON.stringify(name)} is not inside ${S.wrapperOpen}…${S.wrapperClose}: read as a call all the same` } });
    return { ok: true, end, truncated: false, draft: { name, args, start: at, notes, ...(incomplete !== undefined ? { incomplete } : {}) } };
  };

  let pos = 0;
  while (pos < text.length) {
    const w = find(S.wrapperOpen, pos);
    const f = find(S.callOpen, pos);
    if (w < 0 && f < 0) break;
    if (f >= 0 && (w < 0 || f < w)) {
      const r = parseCall(f, false);
      if (r.ok) {
        calls.push(r.draft!);
        consumed.push([f, r.end]);
      }
      pos = Math.max(r.end, f + 1);
      continue;
    }
    // a wrapper block
    const blockCalls: CallResult[] = [];
    // the notes of this block are the ones added from here on (a search of all notes per block would be quadratic)
    const notesBefore = textNotes.length;
    let i = w + S.wrapperOpen.length;
    let blockEnd = text.length;
    let closed = false;
    for (;;) {
      const j = skipWs(text, i);
      if (text.startsWith(S.callOpen, j)) {
        const r = parseCall(j, true);
        blockCalls.push(r);
        if (r.truncated) break;
        i = Math.max(r.end, j + 1);
        continue;
      }
      if (text.startsWith(S.wrapperClose, j)) {
        blockEnd = j + S.wrapperClose.length;
        closed = true;
        break;
      }
      if (j >= text.length || text.startsWith(S.wrapperOpen, j)) {
        blockEnd = j;
        break;
      }
      if (blockCalls.length === 0) {
        // a block that holds no call: it stays text
        const c = find(S.wrapperClose, j);
        blockEnd = c < 0 ? text.length : c + S.wrapperClose.length;
        closed = c >= 0;
        if (S.dialect === 'qwen3-coder' && text[j] === '{' && (c < 0 || c > j)) note(w, 'parse/wrong-dialect', 'warning', `this ${S.wrapperOpen} holds JSON, the Hermes/Qwen2.5 call format: parse it with model "qwen" or "hermes"; kept as text here`);
        else note(w, 'parse/empty-tool-call', 'warning', `${S.wrapperOpen} holds no ${S.callOpen} call: kept as text`);
        break;
      }
      let k = text.length;
      for (const t of [S.callOpen, S.wrapperClose, S.wrapperOpen]) {
        const x = find(t, j + 1);
        if (x >= 0 && x < k) k = x;
      }
      note(j, 'parse/unexpected-text', 'warning', `text between the calls of a ${S.wrapperOpen} block, kept as content: ${JSON.stringify(text.slice(j, k).slice(0, 80))}`);
      i = k;
    }
    if (blockCalls.length === 0 && !textNotes.slice(notesBefore).some((t) => t.at === w)) {
      note(w, 'parse/empty-tool-call', 'warning', `${S.wrapperOpen} holds no ${S.callOpen} call: kept as text`);
    }
    // the output ends inside the block: its last call may be cut off (the calls before it were followed by more)
    const cutAtEnd = !closed && blockEnd >= text.length;
    const last = blockCalls[blockCalls.length - 1];
    if (cutAtEnd && last?.ok) {
      const d = last.draft!;
      blockCalls[blockCalls.length - 1] = { ...last, draft: { ...d, incomplete: `${d.incomplete !== undefined ? `${d.incomplete}, ` : ''}no ${S.wrapperClose}` } };
    }
    const good = blockCalls.filter((r) => r.ok);
    for (const r of good) calls.push(r.draft!);
    if (good.length > 0 && good.length === blockCalls.length && !textNotes.slice(notesBefore).some((t) => t.at > w && t.at < blockEnd && t.note.code === 'parse/unexpected-text')) {
      consumed.push([w, blockEnd]);
      if (!closed && !cutAtEnd) note(w, 'parse/unclosed', 'warning', `no ${S.wrapperClose} after this block (another block starts): its calls are read all the same`, good[0].draft!.name);
    } else for (const r of good) consumed.push([r.draft!.start, r.end]);
    pos = Math.max(blockEnd, w + 1);
  }
  return { calls, consumed, textNotes };
}

export { argumentPointer } from './draft.js';
