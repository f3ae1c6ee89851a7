/**
 * Ollama's gpt-oss tools section: the `# Tools` part of the developer message its Go template
 * writes (the gpt-oss template's `range .Tools` block), a third layout beside openai-harmony's
 * and the official chat template's:
 *
 *   # Tools⏎⏎## functions⏎⏎namespace functions {
 *   per tool:      ⏎[⏎// {description}]⏎type {name} = (_: {  …  ⏎}) => any;   (or ⏎type {name} = () => any;)
 *   per property:  [⏎  // {description}]⏎  {name}: {ToTypeScriptType},        (sorted by name, no `?`)
 *   ⏎⏎} // namespace functions
 *
 * Tools are renamed first (`FunctionNameMap`), builtin tools (`browser.*`, `python`) go to the
 * system message instead. What is printed comes from the IR, or, given the tools as written,
 * from the schema as Ollama's Go decoder reads it (decode.ts), which also reports what that
 * decoding drops or refuses.
 */
import { CompileError, type Diagnostic } from '../../diagnostics.js';
import type { IrTool } from '../../ir/nodes.js';
import { decodeOllamaTool, type OllamaToolSource } from './decode.js';
import { compareGoStrings, goString } from './gojson.js';
import { isOllamaBuiltin, OllamaNameMap } from './names.js';
import { ollamaTypeScriptType, ollamaViewFromIr, type OllamaToolView } from './types.js';
import { pushAll } from '../../ir/arrays.js';

export type { OllamaToolSource } from './decode.js';
export { emitOllamaBuiltinSections } from './builtins.js';
export { ollamaFunctionNames, ollamaOriginalNames, ollamaPromptNames, ollamaValidChars, isOllamaBuiltin, OLLAMA_BUILTIN_TOOLS } from './names.js';
export { ollamaTypeScriptType, ollamaTypeName, ollamaViewFromIr, type OllamaToolView, type OllamaPropertyView, type OllamaTypeView } from './types.js';

/** A tools section and its findings (errors among them when Ollama would refuse the tools). */
export interface OllamaCatalog {
  /** The `# Tools` section of the developer message; `''` when no tool goes there (none, or only builtins). */
  readonly text: string;
  /** Each tool's name in the prompt, in order (after `FunctionNameMap`). */
  readonly promptNames: readonly string[];
  /** Ollama's user name → prompt name map for these tools. */
  readonly renames: ReadonlyMap<string, string>;
  /** The prompt names that are builtin tools (printed in the system message, not here). */
  readonly builtins: readonly string[];
  /** Findings; `ollama/refused` errors when Go's decoder fails on a tool. */
  readonly diagnostics: readonly Diagnostic[];
}

/** The label diagnostics give a tool: its name, or `#index`. */
function label(name: string, index: number): string {
  return name !== '' ? name : `#${index}`;
}

/** One tool in the template's `range .Tools` block (`{{if .Function.Description }}`, `{{ range $name, $prop := … }}`). */
function emitTool(view: OllamaToolView, name: string): string {
  let out = '\n';
  if (view.description !== '') out += `\n// ${goString(view.description)}`;
  if (view.properties.length === 0) return `${out}\ntype ${name} = () => any;`;
  out += `\ntype ${name} = (_: {`;
  // the template ranges over a Go map: text/template visits its keys in sorted (byte) order
  const props = [...view.properties].map((p) => ({ ...p, name: goString(p.name) })).sort((a, b) => compareGoStrings(a.name, b.name));
  for (const p of props) {
    if (p.description !== '') out += `\n  // ${goString(p.description)}`;
    out += `\n  ${p.name}: ${ollamaTypeScriptType(p)},`;
  }
  return `${out}\n}) => any;`;
}

/**
 * The tools section as Ollama prints it, without throwing: Go's refusals are `ollama/refused`
 * errors among the diagnostics. `sources` (the tools as written, e.g. the ToolDefinitions the
 * IR was lowered from, same order) make the printed text follow Go's reading of the schema;
 * without them, the IR's.
 */
export function ollamaCatalog(tools: readonly IrTool[], sources?: readonly OllamaToolSource[]): OllamaCatalog {
  const diagnostics: Diagnostic[] = [];
  const views = tools.map((t, i) => {
    const src = sources?.[i];
    if (src === undefined) return ollamaViewFromIr(t);
    const d = decodeOllamaTool(src, label(t.name, i));
    pushAll(diagnostics, d.diagnostics);
    return d.view;
  });
  const map = new OllamaNameMap();
  // `HarmonyMessageHandler.Init` renames every tool with a name; an empty name stays empty
  const promptNames = views.map((v) => (v.name === '' ? '' : map.add(goString(v.name))));
  const builtins: string[] = [];
  let body = '';
  views.forEach((v, i) => {
    const name = promptNames[i];
    const at = tools[i].pointer;
    if (name !== goString(v.name)) {
      diagnostics.push({ code: 'ollama/tool-renamed', severity: 'warning', tool: label(v.name, i), path: at, message: `Ollama shows this tool as ${JSON.stringify(name)} (its FunctionNameMap keeps letters, digits, _ and $; space, - and . become _; a taken name gets _2, _3…) and maps calls back to the original name` });
    }
    if (isOllamaBuiltin(name)) {
      builtins.push(name);
      diagnostics.push({ code: 'ollama/builtin-tool', severity: 'info', tool: label(v.name, i), path: at, message: `${JSON.stringify(name)} is a gpt-oss builtin for Ollama's template: the system message gets its fixed section, and this tool's description and parameters are not shown` });
      return;
    }
    body += emitTool(v, name);
  });
  const text = views.length > builtins.length ? `# Tools\n\n## functions\n\nnamespace functions {${body}\n\n} // namespace functions` : '';
  return { text, promptNames, renames: map.promptNames(), builtins, diagnostics };
}

/**
 * The `# Tools` section Ollama's gpt-oss template writes for these tools (`''` when none goes
 * to the developer message), with its findings. Throws a CompileError (`ollama/refused`) when
 * Ollama's decoder would refuse a tool as written.
 */
export function emitOllamaToolsSection(tools: readonly IrTool[], sources?: readonly OllamaToolSource[]): { text: string; diagnostics: readonly Diagnostic[] } {
  const c = ollamaCatalog(tools, sources);
  if (c.diagnostics.some((d) => d.severity === 'error')) throw new CompileError(c.diagnostics);
  return { text: c.text, diagnostics: c.diagnostics };
}
