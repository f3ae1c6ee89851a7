/**
 * `functionary-3.1`: MeetKai's Functionary medium v3.1 chat template (Llama 3.1 based). Each
 * tool is `Use the function 'NAME' to 'DESCRIPTION'` and the bare function's JSON, built as
 * `"…"|safe + text`: the `|safe` literal is a MarkupSafe `Markup`, so Python Jinja2 HTML-escapes
 * every str added to it, the name, the description and the JSON (`&#34;`, `&#39;`, `&amp;`,
 * `&lt;`, `&gt;`). llama.cpp's minja does not; the official template under transformers does.
 */
import type { Diagnostic } from '../../diagnostics.js';
import type { JsonValue } from '../../ir/json.js';
import { toolFieldPointer, type ToolDefinition } from '../../input/types.js';
import { failAt, JinjaError, undefinedAttribute } from '../python/errors.js';
import { markupEscape } from '../python/jinja.js';
import { pyJsonDumps } from '../python/json.js';
import { pyType } from '../python/values.js';
import { templateFunction } from '../xml/template.js';
import { defineFamily, familyMessages, perTool, unparseable } from './common.js';
import type { FamilyMessage, FamilyPrinter, FamilyPromptOptions } from './types.js';

const FAMILY = 'Functionary v3.1';

/** The calling instructions after the tools. */
const CALLING_INSTRUCTIONS =
  'Think very carefully before calling functions.\nIf a you choose to call a function ONLY reply in the following format:\n<{start_tag}={function_name}>{parameters}{end_tag}\nwhere\n\nstart_tag => `<function`\nparameters => a JSON dict with the function argument name as key and function argument value as value.\nend_tag => `</function>`\n\nHere is an example,\n<function=example_function_name>{"example_name": "example_value"}</function>\n\nReminder:\n- If looking for real time information use relevant functions before falling back to brave_search\n- Function calls MUST follow the specified format, start with <function= and end with </function>\n- Required parameters MUST be specified\n- Only call one function at a time\n- Put the entire function call reply on one line';

/** `Markup + value`: a str is escaped; anything else is a TypeError (Undefined raises its own UndefinedError). */
function markupAdd(tool: ToolDefinition, value: JsonValue | undefined, field: 'name' | 'description'): string {
  if (typeof value === 'string') return markupEscape(value);
  if (value === undefined) failAt(tool.pointer, `the tool has no ${field}, and the template adds t["function"]["${field}"] to the line`, undefinedAttribute(new Map(), field));
  // Markup.__add__ returns NotImplemented for what is not a str
  const error = new JinjaError('TypeError', `unsupported operand type(s) for +: 'Markup' and '${pyType(value)}'`);
  return failAt(toolFieldPointer(tool, field), `the tool ${field} is a Python ${pyType(value)}, and the template adds it to a Markup string`, error);
}

/** One tool: `Use the function 'NAME' to 'DESCRIPTION'⏎{json}` with name, description and JSON HTML-escaped. */
function toolLine(tool: ToolDefinition): string {
  const fn = templateFunction(tool);
  let out = "Use the function '" + markupAdd(tool, fn.get('name'), 'name');
  out += "' to '" + markupAdd(tool, fn.get('description'), 'description');
  // `t["function"] | tojson()` is a str, escaped in turn when added to the Markup
  return `${out}'\n${markupEscape(pyJsonDumps(fn))}`;
}

/** `You have access…` through the calling instructions, as the system turn holds them. */
function catalogText(tools: readonly ToolDefinition[]): string {
  return `You have access to the following functions:\n\n${perTool(FAMILY, tools, toolLine)
    .map((l) => `${l}\n\n`)
    .join('')}\n${CALLING_INSTRUCTIONS}`;
}

const ESCAPED = /[&<>'"]/;

/** `family/unparseable` warnings: every tool's JSON is HTML-escaped, and so is a name or description holding `& < > ' "`. */
function findings(tools: readonly ToolDefinition[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const tool of tools) {
    const warn = (path: string, message: string) => out.push(unparseable(tool, path, message));
    warn(tool.pointer, 'Functionary v3.1 HTML-escapes the tool\'s JSON (Jinja2 Markup: `"` reads `&#34;`), so the model reads {&#34;name&#34;: …}, which does not parse as JSON');
    for (const field of ['name', 'description'] as const) {
      const v = field === 'name' ? tool.name : tool.description;
      const m = typeof v === 'string' ? ESCAPED.exec(v) : null;
      if (m) warn(toolFieldPointer(tool, field), `the ${field} holds "${m[0]}", which Functionary v3.1 prints HTML-escaped as "${markupEscape(m[0])}"`);
    }
  }
  return out;
}

/** One turn: a tool result is an `ipython` turn; any other role but user/system an assistant turn. */
function turn(m: FamilyMessage): string {
  const role = m.role === 'tool' ? 'ipython' : m.role;
  return `<|start_header_id|>${role}<|end_header_id|>\n\n${m.content}<|eot_id|>`;
}

/** The whole prompt: the Llama 3.1 system turn with the functions, then the turns. */
function render(tools: readonly ToolDefinition[], options: FamilyPromptOptions): string {
  const messages = familyMessages(options);
  // no code_interpreter tool: a bare "\n" where "Environment: ipython\n\n" would go
  let text = '<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n\nCutting Knowledge Date: December 2023\n\n';
  if (tools.length > 0) text += `\n${catalogText(tools)}\n\n`;
  text += '<|eot_id|>';
  for (const m of messages) text += turn(m);
  if (options.addGenerationPrompt ?? true) text += '<|start_header_id|>assistant<|end_header_id|>\n\n';
  return text;
}

/** The Functionary v3.1 printer. */
export const FUNCTIONARY_31: FamilyPrinter = defineFamily({
  name: 'functionary-3.1',
  aliases: [],
  models: 'MeetKai Functionary medium/small v3.1 (Llama 3.1 based)',
  template: 'meetkai-functionary-medium-v3.1',
  source: 'llama.cpp models/templates/meetkai-functionary-medium-v3.1.jinja @ 8b576b6c55bc4e6be898b47522f0ef402b93ef62 (ggml-org/llama.cpp#9639; later edits adding `| tojson` not used)',
  toolsBlock: catalogText,
  render,
  findings,
  utf8: { label: FAMILY, wording: 'template-fails', checkCatalog: true },
});
