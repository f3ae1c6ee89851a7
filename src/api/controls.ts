/**
 * Each model family's control strings, for the control-token policy (src/input/control-tokens.ts):
 * what joins the generic spellings (`<|name|>`, the closing tags) when tools or messages are
 * rendered for that family. Gathered here, where the families' parsers and templates are known,
 * and handed down to the input stage as strings.
 *
 * A family's control strings are
 * - what its parser reads (`familyControls`: the syntax's `controls`, tags and special tokens its
 *   format and the servers' parsers read, and its reasoning markers),
 * - the special tokens its tokenizer hands the template (`bos_token`…),
 * - the tokens of its leak markers (what opens a tool result or a turn, role names set aside:
 *   `]~b]` of `]~b]user`),
 * - and the control tokens its official template prints that none of those name
 *   ({@link TEMPLATE_TOKENS}).
 */
import type { Diagnostic } from '../diagnostics.js';
import { controlSpellings, findControlTokens, type ControlSpellings } from '../input/control-tokens.js';
import { escapePointerToken, isJsonArray, isJsonObject, type JsonValue } from '../ir/json.js';
import { MODEL_FAMILIES, TEMPLATE_OF_BUILTIN } from '../models/families.js';
import { familyControls } from '../parse/families/index.js';
import { LEAK_MARKERS } from '../parse/families/leaks.js';
import type { ConversationInput } from '../conversation/types.js';
import { resolveModel, type ModelName } from './models.js';

/**
 * Control tokens the families' official templates print that neither their parser's controls, nor
 * their special tokens, nor their leak markers name (test/hardening/family-control-tokens.test.ts
 * finds every token-like literal of each template among the family's strings).
 */
export const TEMPLATE_TOKENS: Readonly<Record<string, readonly string[]>> = {
  'ministral-3': ['[SYSTEM_PROMPT]', '[/SYSTEM_PROMPT]', '[IMG]'],
  'minimax-m2': [']~!b[', ']~b]', '[e~['],
  'gemma-4': ['<|turn>', '<turn|>', '<|tool>', '<tool|>'],
  'seed-oss': ['<seed:pad>', '<seed:cot_budget_reflect>', '</seed:cot_budget_reflect>'],
  'deepseek-v3.1': ['<｜Assistant｜>', '<｜User｜>'],
};

/** The token of a leak marker: the marker without the role name after its last token (`<|start_header_id|>ipython` → `<|start_header_id|>`). */
function markerToken(marker: string): string {
  return marker.replace(/(?<=[>\]|｜])[A-Za-z_]+$/, '');
}

/** Every control string of a family (by its `--model` name, resolved), without the generic `<|name|>` ones it needs not list. */
export function familyControlStrings(family: string): string[] {
  const special = MODEL_FAMILIES.find((f) => f.name === family)?.special ?? TEMPLATE_OF_BUILTIN[family]?.special ?? {};
  const leaks = LEAK_MARKERS[family];
  const all = [
    ...familyControls(family),
    ...Object.values(special),
    ...(leaks ? [...leaks.results, ...leaks.turns].map(markerToken) : []),
    ...(TEMPLATE_TOKENS[family] ?? []),
  ];
  return [...new Set(all)].filter((s) => [...s].length >= 2 && !/^<\|[A-Za-z0-9_]+\|>$/.test(s));
}

/** The options that say which family tools and messages are rendered for. */
interface FamilyOptions {
  readonly model?: ModelName;
  readonly target?: string;
  readonly dialect?: string;
}

/**
 * The family the options render for: a family's `--model` (resolved: aliases, Hugging Face ids), a
 * built-in XML name or the xml target's dialect (qwen, qwen3-coder, hermes). Undefined for
 * gpt-oss (its tokens are all `<|name|>`), the anthropic dialect and a template without a model.
 */
export function renderedFamily(options: FamilyOptions): string | undefined {
  if (typeof options.model === 'string') {
    const r = resolveModel(options.model);
    if (r.kind === 'family') return r.name;
    return r.model.dialect;
  }
  if (options.target === 'xml') {
    const d = options.dialect ?? 'qwen';
    return d in TEMPLATE_OF_BUILTIN ? d : undefined;
  }
  return undefined;
}

/** The spellings of the family the options render for (the generic ones when none). */
export function controlSpellingsFor(options: FamilyOptions): ControlSpellings | undefined {
  const family = renderedFamily(options);
  return family === undefined ? undefined : controlSpellings(familyControlStrings(family), family);
}

/** The spellings of a family by its `--model` name (any name `--model` takes), for escaping and unescaping text as `controlTokens` does when rendering for it. */
export function familyControlSpellings(model: ModelName): ControlSpellings {
  const family = renderedFamily({ model });
  return controlSpellings(family === undefined ? [] : familyControlStrings(family), family);
}

/**
 * Warnings for message text that spells one of the family's control strings: the conversation's
 * strings (content, reasoning, names, arguments… every string of each message) and the
 * instructions. Message text is the caller's own and is never escaped; but the family's servers
 * tokenize the rendered prompt with its special tokens (transformers and vLLM apply the chat
 * template, then tokenize the text), so the model reads a real token there.
 */
export function messageControlWarnings(spellings: ControlSpellings | undefined, conversation: ConversationInput | undefined, instructions: string | undefined): Diagnostic[] {
  if (spellings === undefined) return [];
  const out: Diagnostic[] = [];
  const check = (text: string, path: string) => {
    const found = [...new Set(findControlTokens(text, { spellings }))];
    if (!found.length) return;
    const many = found.length > 1;
    out.push({
      code: 'security/control-token',
      severity: 'warning',
      path,
      message: `${found.map((s) => JSON.stringify(s)).join(', ')} in this text: ${many ? 'control strings' : 'a control string'} of ${spellings.family ?? 'the model'}; its servers tokenize the rendered prompt with its special tokens (and its tool parser reads the format's tags), so the model reads ${many ? 'them' : 'it'} as the format's own, not as text (message text is not escaped)`,
    });
  };
  if (typeof instructions === 'string') check(instructions, '/instructions');
  if (conversation !== undefined) conversation.items.forEach((m, i) => walkStrings(m, conversation.pointers[i] ?? `/messages/${i}`, check));
  return out;
}

/** Every string of a value with its pointer, without recursion. */
function walkStrings(root: JsonValue, base: string, visit: (text: string, path: string) => void): void {
  const stack: [JsonValue, string][] = [[root, base]];
  while (stack.length) {
    const [v, p] = stack.pop() as [JsonValue, string];
    if (typeof v === 'string') visit(v, p);
    else if (isJsonArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push([v[i] as JsonValue, `${p}/${i}`]);
    else if (isJsonObject(v)) {
      const entries = [...v];
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i][1], `${p}/${escapePointerToken(entries[i][0])}`]);
    }
  }
}
