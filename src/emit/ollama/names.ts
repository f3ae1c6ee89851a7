/**
 * Ollama's tool names for gpt-oss (harmony/harmonyparser.go `FunctionNameMap`): before the
 * prompt is built, `HarmonyMessageHandler.Init` gives each request tool a name the model can
 * write after `functions.`, and keeps the way back for the tool calls it parses.
 */

/** The builtin tools of gpt-oss, which Ollama never renames (`ConvertAndAdd`) and its template prints in the system message. */
export const OLLAMA_BUILTIN_TOOLS: readonly string[] = ['browser.search', 'browser.open', 'browser.find', 'python'];

/** True for the names Ollama's template treats as builtin tools. */
export function isOllamaBuiltin(name: string): boolean {
  return OLLAMA_BUILTIN_TOOLS.includes(name);
}

const LETTER = /^\p{L}$/u;
const DIGIT = /^\p{Nd}$/u;

/**
 * `convertToValidChars`: space, `-` and `.` become `_`; letters (`unicode.IsLetter`), decimal
 * digits (`unicode.IsDigit`), `_` and `$` stay; anything else is removed; nothing left is
 * `unnamed`; a leading digit gets a `_` in front.
 */
export function ollamaValidChars(name: string): string {
  let out = '';
  for (const ch of name) {
    if (ch === ' ' || ch === '-' || ch === '.') out += '_';
    else if (ch === '_' || ch === '$' || LETTER.test(ch) || DIGIT.test(ch)) out += ch;
    // a lone surrogate (U+FFFD on a Go server) is neither: removed
  }
  if (out === '') return 'unnamed';
  // Go tests `unicode.IsDigit(rune(candidate[0]))`: the first BYTE, so only an ASCII digit counts
  // (a UTF-8 lead byte read as a rune is a Latin-1 letter, never a digit): `١٢` keeps no `_`
  if (out.charCodeAt(0) >= 0x30 && out.charCodeAt(0) <= 0x39) out = `_${out}`;
  return out;
}

/** Ollama's renaming state for one request: `userToHarmony` and `harmonyToUser`, filled in tool order. */
export class OllamaNameMap {
  private readonly toPrompt = new Map<string, string>();
  private readonly toUser = new Map<string, string>();

  /** `ConvertAndAdd`: the prompt name of a user name (a taken name gets `_2`, `_3`…; builtins stay as they are). */
  add(userName: string): string {
    const base = ollamaValidChars(userName);
    let candidate = base;
    // `deriveName`: count from 2, so duplicates read `f`, `f_2`, `f_3`
    for (let n = 2; this.toUser.has(candidate); n++) candidate = `${base}_${n}`;
    if (isOllamaBuiltin(userName)) candidate = userName;
    this.toPrompt.set(userName, candidate);
    this.toUser.set(candidate, userName);
    return candidate;
  }

  /** The user name → prompt name map (a user name given twice keeps its last prompt name, as in Ollama). */
  promptNames(): ReadonlyMap<string, string> {
    return this.toPrompt;
  }

  /** The prompt name → user name map that Ollama's parser uses to name the calls it reads (`OriginalFromConverted`). */
  userNames(): ReadonlyMap<string, string> {
    return this.toUser;
  }
}

/**
 * The prompt name of each tool, in order: Ollama renames every tool with a non-empty name
 * (`Init` skips empty ones, which stay empty).
 */
export function ollamaPromptNames(names: readonly string[]): string[] {
  const map = new OllamaNameMap();
  return names.map((n) => (n === '' ? '' : map.add(n)));
}

/** Ollama's user name → prompt name map for a request's tools (`FunctionNameMap.userToHarmony`). */
export function ollamaFunctionNames(names: readonly string[]): Map<string, string> {
  const map = new OllamaNameMap();
  for (const n of names) if (n !== '') map.add(n);
  return new Map(map.promptNames());
}

/** The reverse map Ollama's parser applies to the tool calls it reads (`FunctionNameMap.harmonyToUser`). */
export function ollamaOriginalNames(names: readonly string[]): Map<string, string> {
  const map = new OllamaNameMap();
  for (const n of names) if (n !== '') map.add(n);
  return new Map(map.userNames());
}
