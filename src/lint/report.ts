/** Collecting findings for one tool and flavor, and the text checks every flavor shares. */
import { escapePointerToken, isJsonArray, isJsonObject, type JsonValue } from '../ir/json.js';
import { toolFieldPointer, type ToolDefinition } from '../input/types.js';
import { isIdentifierName } from '../emit/harmony/types.js';
import { localRefPointer, resolvePointer } from '../lower/refs.js';
import { escapeInvisible, findInvisibleCharacters } from './invisible.js';
import { severityOf, type Finding, type LintCode, type LintFlavor } from './types.js';

/** Findings of one tool under one flavor, each (code, pointer) once. */
export class Reporter {
  private readonly seen = new Set<string>();
  constructor(
    readonly out: Finding[],
    readonly flavor: LintFlavor,
    readonly def: ToolDefinition,
    /** Pointers (of the input document) of the tool's `$ref`s that resolve to nothing: `lint/unresolved-ref`, not `lint/any-ref`. */
    readonly brokenRefs: ReadonlySet<string> = new Set(),
  ) {}
  /** Is the `$ref` at this pointer (relative to the tool's parameters) one that resolves to nothing? */
  isBrokenRef(pointer: string): boolean {
    return this.brokenRefs.has(this.def.parametersPointer + pointer);
  }
  /** Report at a pointer relative to the tool's parameters. */
  at(code: LintCode, pointer: string, message: string): void {
    this.abs(code, this.def.parametersPointer + pointer, message);
  }
  /** Report at a pointer of the input document. */
  abs(code: LintCode, path: string, message: string): void {
    const key = `${code}\u0000${path}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.out.push({ code, severity: severityOf(code, this.flavor), tool: this.def.name, path, message, flavor: this.flavor });
  }
}

/** One finding as the report lists it: said the same way (tool, pointer, code, severity, message) under one or more flavors. */
export interface ListedFinding {
  readonly finding: Finding;
  readonly flavors: readonly LintFlavor[];
}

/**
 * The findings as listed: one per (tool, pointer, code, severity, message), with every flavor that
 * says it, in the order first found. The listing and the counts both use this rule: a finding two
 * flavors share is one finding; one that differs (a severity, a message) is one per way it is said.
 */
export function listFindings(findings: readonly Finding[]): ListedFinding[] {
  const merged = new Map<string, { finding: Finding; flavors: LintFlavor[] }>();
  for (const f of findings) {
    const key = [f.tool, f.path, f.code, f.severity, f.message].join('\u0000');
    const had = merged.get(key);
    if (had) {
      if (f.flavor) had.flavors.push(f.flavor);
    } else merged.set(key, { finding: f, flavors: f.flavor ? [f.flavor] : [] });
  }
  return [...merged.values()];
}

/** Counts by severity of the findings as listed ({@link listFindings}): each once, whatever number of flavors say it. */
export function countListedFindings(findings: readonly Finding[]): { errors: number; warnings: number; infos: number } {
  const counts = { errors: 0, warnings: 0, infos: 0 };
  for (const { finding } of listFindings(findings)) {
    if (finding.severity === 'error') counts.errors++;
    else if (finding.severity === 'warning') counts.warnings++;
    else counts.infos++;
  }
  return counts;
}

/** A line break as a reader (and TypeScript) sees one. */
export const LINE_BREAK = /\r\n|[\n\r\u2028\u2029]/;

/** True when the text holds a line break. */
export function hasLineBreak(text: string): boolean {
  return LINE_BREAK.test(text);
}

/** A short quote of a text for messages (first 40 characters, JSON-escaped). */
export function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/** Characters in a property name that change how the line around it reads. */
const LAYOUT_CHARS = /[\s"'`:,;?/{}()[\]|<>=]/u;

/** Check a property name: not an identifier (info), or holding characters that break the `name?: T,` layout (warning). */
export function checkPropertyName(r: Reporter, name: string, pointer: string): void {
  if (isIdentifierName(name)) return;
  if (name === '' || LAYOUT_CHARS.test(name)) {
    r.at('lint/property-name-breaks-layout', pointer, `the property name ${quote(name)} is printed raw: ${name === '' ? 'an empty name leaves `?: T` with no key' : 'its spaces, quotes or punctuation change how the line reads'}`);
  } else {
    r.at('lint/property-name-not-identifier', pointer, `the property name ${quote(name)} is not an identifier and is printed raw (\`${name}?: …\`), which is not valid TypeScript`);
  }
}

/** Control-token spellings: the gpt-oss specials and any other `<|…|>` marker. */
const CONTROL_TOKEN = /<\|[A-Za-z0-9_]+\|>/;

/** The o200k_harmony special tokens (spec harmony §7), besides `<|reserved_…|>`. */
const HARMONY_SPECIALS = new Set(['<|startoftext|>', '<|endoftext|>', '<|return|>', '<|constrain|>', '<|channel|>', '<|start|>', '<|end|>', '<|message|>', '<|call|>']);

/** Every string of a JSON value (object keys too, `key: true`), with its pointer, in document order (iterative: no stack overflow on deep input). */
function* stringsOf(root: JsonValue | undefined, rootPointer: string): Generator<{ text: string; pointer: string; key?: true }> {
  // work items: a value to visit, or an object key to yield; pushed in reverse so they pop in order
  type Item = { v: JsonValue | undefined; pointer: string; key?: string };
  const stack: Item[] = [{ v: root, pointer: rootPointer }];
  while (stack.length) {
    const { v, pointer, key } = stack.pop()!;
    if (key !== undefined) {
      yield { text: key, pointer, key: true };
      continue;
    }
    if (typeof v === 'string') yield { text: v, pointer };
    else if (isJsonArray(v)) for (let k = v.length - 1; k >= 0; k--) stack.push({ v: v[k], pointer: `${pointer}/${k}` });
    else if (isJsonObject(v)) {
      const entries = [...v];
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, x] = entries[i];
        const p = `${pointer}/${escapePointerToken(k)}`;
        stack.push({ v: x, pointer: p });
        stack.push({ v: undefined, pointer: p, key: k });
      }
    }
  }
}

/** Every string of a tool with its pointer: its name, its description, and every key and string of its parameters. */
function toolStrings(def: ToolDefinition): { text: string; pointer: string; key?: true }[] {
  return [{ text: def.name, pointer: toolFieldPointer(def, 'name') }, ...stringsOf(def.description, toolFieldPointer(def, 'description')), ...stringsOf(def.parameters, def.parametersPointer)];
}

/** Report each control-token spelling in the tool's name, description and parameters. */
export function checkControlTokens(r: Reporter): void {
  const all = toolStrings(r.def);
  for (const s of all) {
    const m = CONTROL_TOKEN.exec(s.text);
    if (!m) continue;
    const token = m[0];
    const special = HARMONY_SPECIALS.has(token) || /^<\|reserved_\d+\|>$/.test(token);
    const how =
      r.flavor === 'chat-template'
        ? 'a server that tokenizes the rendered template with special tokens allowed (transformers does) turns it into the real token, so this text can end the developer message and start another one'
        : 'openai-harmony encodes it as ordinary text, but it still reads as a message boundary to the model, and any server that re-tokenizes the prompt text turns it into the real token';
    r.abs('lint/control-token', s.pointer, `${quote(s.text)} holds ${token}${special ? ', a gpt-oss control token' : ', a control-token spelling'}: ${how} (possible prompt injection)`);
  }
}

/** What a string of the tool is, for a message: its name, its description, a property name, another key, a description, text. */
function whatString(def: ToolDefinition, s: { pointer: string; key?: true }): string {
  if (s.pointer === toolFieldPointer(def, 'name')) return 'the tool name';
  if (s.pointer === toolFieldPointer(def, 'description')) return 'the tool description';
  const cut = s.pointer.lastIndexOf('/');
  const parent = s.pointer.slice(s.pointer.lastIndexOf('/', cut - 1) + 1, cut);
  const last = s.pointer.slice(cut + 1);
  if (s.key) return parent === 'properties' ? 'the property name' : 'the key';
  if (parent === 'enum') return 'the enum value';
  if (parent === 'examples') return 'the example';
  return last === 'description' ? 'the description' : last === 'title' ? 'the title' : last === 'default' ? 'the default' : 'the text';
}

/**
 * Report each string of the tool (its name, description, and every key and string of its
 * parameters) that holds invisible characters: bidi controls, zero-width and other format
 * characters, tag characters (`findInvisibleCharacters`). The same message under every flavor:
 * the model reads the characters whatever the renderer, and no reviewer sees them.
 */
export function checkInvisibleCharacters(r: Reporter): void {
  const def = r.def;
  const all = toolStrings(def);
  for (const s of all) {
    const found = findInvisibleCharacters(s.text);
    if (!found.length) continue;
    const counts = new Map<string, number>();
    for (const c of found) {
      const k = `${c.codePoint} ${c.name}`;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    const list = [...counts].map(([k, n]) => (n > 1 ? `${k} (${n} times)` : k));
    const shown = list.length > 5 ? `${list.slice(0, 5).join(', ')} and ${list.length - 5} more` : list.join(', ');
    const what = whatString(def, s);
    // a run of tag characters is one entry of the list, each of its characters one of the count
    const n = found.reduce((a, c) => a + [...s.text.slice(c.index, c.index + c.length)].length, 0);
    const it = n === 1 ? 'it' : 'them';
    const bidi = found.some((c) => c.bidi) ? '; a bidi control reorders the text shown after it, so what a reviewer reads is not the order the model reads' : '';
    r.abs(
      'lint/invisible-character',
      s.pointer,
      `${what} ${escapeInvisible(quote(s.text))}${what === 'the tool name' ? '' : ` of tool ${escapeInvisible(quote(def.name))}`} holds ${n === 1 ? 'an invisible character' : `${n} invisible characters`}, ${shown}: the model reads ${it}, most editors and reviews do not show ${it}${bidi}`,
    );
  }
}

/** JSON Schema keywords that constrain a value and that neither renderer prints. */
export const CONSTRAINT_KEYWORDS = [
  'format', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minItems', 'maxItems', 'uniqueItems', 'contains', 'minProperties', 'maxProperties', 'propertyNames', 'deprecated',
] as const;

/** The constraint keywords a raw schema object carries (`deprecated` and `uniqueItems` only when true). */
export function constraintsOf(schema: JsonValue | undefined): string[] {
  if (!isJsonObject(schema)) return [];
  return CONSTRAINT_KEYWORDS.filter((k) => {
    const v = schema.get(k);
    if (v === undefined) return false;
    if (k === 'deprecated' || k === 'uniqueItems') return v === true;
    return true;
  });
}

/** Report the constraints of a raw schema (one finding per schema). */
export function checkConstraints(r: Reporter, schema: JsonValue | undefined, pointer: string): void {
  const ks = constraintsOf(schema);
  if (ks.length) r.at('lint/dropped-constraint', pointer, `${ks.join(', ')} ${ks.length === 1 ? 'is' : 'are'} not shown to the model; say it in the description if it matters`);
}

/**
 * Report every `$ref` of the tool that resolves to nothing (the lowering's `schema/unresolved-ref`,
 * wherever it sits, shown or not) as an error: the model sees `any` there, and no validator can
 * compile the parameters, so checkToolCalls finds no call to the tool runnable.
 */
export function checkBrokenRefs(r: Reporter): void {
  for (const path of r.brokenRefs) {
    const holder = rawAt(r.def.parameters, path.slice(r.def.parametersPointer.length, -'/$ref'.length));
    const ref = String(isJsonObject(holder) ? holder.get('$ref') : '');
    const what = localRefPointer(ref) === undefined ? `$ref ${quote(ref)} is not a local reference ("#/…") and cannot be resolved` : `$ref ${quote(ref)} points to nothing in this schema`;
    r.abs('lint/unresolved-ref', path, `${what}: the model sees \`any\` here, and the parameters cannot be compiled, so no call to this tool can be checked (checkToolCalls: call/schema-not-compiled, never runnable); make it point to a definition of this schema`);
  }
}

/** The schema as written at a pointer relative to the tool's parameters. */
export function rawAt(root: JsonValue | undefined, pointer: string): JsonValue | undefined {
  return root === undefined ? undefined : resolvePointer(root, pointer);
}
