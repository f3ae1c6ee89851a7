/** `harmony-catalog render`: print the prompt, or one part of it, for a tool file; `--jsonl` for many cases. */
import { isCompileError } from '../diagnostics.js';
import { getKey, isJsonArray, isJsonObject, parseJson, type JsonValue } from '../ir/json.js';
import { asRead, compileTools } from '../api/compile.js';
import { FLAVORS, isRequestBody, MESSAGE_FORMATS, renderPart, renderRequest, SERVERS, TARGETS, XML_DIALECTS, type Flavor, type MessageFormat, type Part, type PartOptions, type ServerName, type Target, type XmlDialect } from '../api/render.js';
import { emitJsdocCatalog, formatJsdoc } from '../emit/jsdoc/index.js';
import { listModels, modelNames, resolveModel } from '../api/models.js';
import { TEMPLATES, type TemplateName } from '../models/templates/index.js';
import { loadTemplateArg, specialFrom, templateKwargsFrom } from './template.js';
import { isIsoDate } from '../api/options.js';
import { CONTROL_TOKEN_POLICIES, type ControlTokenPolicy } from '../input/control-tokens.js';
import { guard, mcpOptionsFrom, printDiagnostics, renderedOutput, UsageError, withoutBom, type CliIo, parseCommandArgs, INPUT_HELP, INPUT_OPTIONS, maxInputBytesFrom, caseLabel, failedCasesLine } from './io.js';
import { inputName, loadToolsArg, noToolsOf } from './sources.js';

/** Help text of `render`. */
export const RENDER_HELP = `Usage: harmony-catalog render <file|-|--mcp "command args"> [options]

Print what the model reads for the tools in <file> (JSON: one tool or a list, in OpenAI Chat,
OpenAI Responses, Anthropic, MCP, Gemini or bare {name, description, parameters} shape), or for a
whole request body (Chat Completions {messages, tools, tool_choice, reasoning_effort}, Responses
{input, instructions, tools, reasoning} or Anthropic Messages {system, messages, tools}): its
conversation is rendered as the chosen server builds the prompt.

Options:
  --part <p>            system | developer | catalog | prompt (default: prompt)
  --instructions <t>    developer instructions (# Instructions)
  --date <YYYY-MM-DD>   current date in the system message
  --effort <e>          reasoning effort: low | medium | high (default: medium)
  --identity <t>        model identity line
  --cutoff <t>          knowledge cutoff (default: 2024-06)
  --browser             add the builtin browser namespace to the system message
  --python              add the builtin python namespace to the system message
  --completion          end the prompt with <|start|>assistant
  --user <text>         add a user message after the developer message (the chat template needs at
                        least one message to render a whole prompt)
  --namespace <name>    namespace of the tools (default: functions)
  --target <t>          harmony | jsdoc | xml (default: harmony)
  --flavor <f>          harmony target: openai-harmony (vLLM, TensorRT-LLM) | chat-template (the official
                        gpt-oss Jinja template: transformers, llama.cpp, LM Studio, mlx-lm) | ollama (Ollama's
                        own gpt-oss template) (default: openai-harmony, or the --server's)
  --server <s>          whose request → prompt mapping a conversation goes through: vllm | transformers |
                        llama.cpp | mlx-lm | ollama (default: vllm for openai-harmony, transformers for the
                        chat template; used for request bodies and --jsonl messages); for another
                        family's template or --template: transformers (default, messages as given)
                        or vllm (its request preprocessing first)
  --dialect <d>         xml target: qwen | qwen3-coder | hermes | anthropic (default: qwen)
  --model <name>        one name for the printer and the whole prompt: gpt-oss, gpt-oss-template,
                        gpt-oss-ollama, qwen, qwen3-coder, hermes, or another family's official chat
                        template (llama-3.1, mistral-nemo, kimi-k2, glm-4.6, granite-4.0…):
                        'harmony-catalog models' lists them; names are case-insensitive and Hugging
                        Face ids of a family's models work too (meta-llama/Llama-3.1-8B-Instruct,
                        Qwen/Qwen3-8B). A family's --part is catalog (its tools block) or prompt; with
                        no messages its prompt has one user message, "hi"
  --template <path>     run this chat template (a .jinja file, a tokenizer_config.json or
                        chat_template.json, or a model folder holding one) over the tools and the
                        conversation; with --model, that family's special tokens and servers apply
  --special <k=v>       a special token the template reads (repeatable), e.g. bos_token=<s>
                        (default: the model folder's tokenizer_config.json, or --model's)
  --template-kwarg <k=json>  a template variable (repeatable), e.g. enable_thinking=false,
                        reasoning_effort='"high"'
  --faithful            openai-harmony layout, but what the reference prints as any is rewritten so the
                        schema's meaning stays visible (refs inlined, anyOf as unions, consts, number enums…)
  --no-format           jsdoc target: do not format the declarations with prettier
  --control-tokens <c>  keep | escape | error: tool text that spells a control token (<|end|>, <|im_start|>,
                        </tool_call>…): keep prints it as the reference does and warns (default), escape
                        writes a backslash after its "<" (<\\|end|>, <\\/tools>), error refuses the input
  --mcp "<cmd> [args]"  read the tools of a live MCP server (stdio) instead of a file
  --mcp-timeout <ms>    time allowed for the MCP server (default: 10000)
  --env KEY=VALUE       set a variable in the MCP server's environment (repeatable); the server
                        inherits this environment otherwise, all of it
${INPUT_HELP}
  --jsonl               read one case a line: {"id", "tools", "instructions"?, "messages"? (Chat
                        Completions, Responses, Anthropic or Harmony messages), "request"? (a whole
                        request body), "reasoning_effort"?, "tool_choice"?, and any option above by
                        name}; write {"id", "text"} or {"id", "error"} a line. text is the part's
                        content (no envelope), or the whole prompt for --part prompt. Warnings
                        name their case (case "a": warning …); exit 1 when any case failed
  --quiet               do not print warnings
  --verbose             print every warning (else 20 of each code, then how many more)
  --newline             end the output with a line break when it does not end with one
  -h, --help            this help

Output: exactly the rendered text, byte for byte, for every target and part (render > prompt.txt is
the prompt): no line break is added, except with --newline or when stdout is a terminal. --jsonl
writes one JSON object a line.
Exit codes: 0 rendered, 1 the input cannot be rendered (errors are listed), is over
--max-input-bytes, or (--jsonl) a case failed, 2 usage error.
`;

const OPTIONS = {
  part: { type: 'string' },
  instructions: { type: 'string' },
  date: { type: 'string' },
  effort: { type: 'string' },
  identity: { type: 'string' },
  cutoff: { type: 'string' },
  browser: { type: 'boolean' },
  python: { type: 'boolean' },
  completion: { type: 'boolean' },
  user: { type: 'string' },
  namespace: { type: 'string' },
  target: { type: 'string' },
  flavor: { type: 'string' },
  dialect: { type: 'string' },
  model: { type: 'string' },
  server: { type: 'string' },
  faithful: { type: 'boolean' },
  template: { type: 'string' },
  special: { type: 'string', multiple: true },
  'template-kwarg': { type: 'string', multiple: true },
  'no-format': { type: 'boolean' },
  'control-tokens': { type: 'string' },
  mcp: { type: 'string' },
  'mcp-timeout': { type: 'string' },
  env: { type: 'string', multiple: true },
  ...INPUT_OPTIONS,
  jsonl: { type: 'boolean' },
  quiet: { type: 'boolean' },
  verbose: { type: 'boolean' },
  newline: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The options of `render` (the render options are shared by `dump`). */
export { OPTIONS as RENDER_OPTIONS };

const PARTS: readonly Part[] = ['system', 'developer', 'catalog', 'prompt'];
const EFFORTS = ['low', 'medium', 'high'] as const;

/** Validate and collect the render options shared by every case. */
export function partOptionsFrom(values: Record<string, unknown>): PartOptions {
  const part = (values.part as string | undefined) ?? 'prompt';
  if (!PARTS.includes(part as Part)) throw new UsageError(`--part must be one of ${PARTS.join(', ')}, not ${JSON.stringify(part)}`);
  const effort = values.effort as string | undefined;
  if (effort !== undefined && !EFFORTS.includes(effort as (typeof EFFORTS)[number])) throw new UsageError(`--effort must be low, medium or high, not ${JSON.stringify(effort)}`);
  const oneOf = (k: string, allowed: readonly string[]) => {
    const v = values[k] as string | undefined;
    if (v !== undefined && !allowed.includes(v)) throw new UsageError(`--${k} must be one of ${allowed.join(', ')}, not ${JSON.stringify(v)}`);
  };
  oneOf('target', TARGETS);
  oneOf('flavor', FLAVORS);
  oneOf('dialect', XML_DIALECTS);
  oneOf('control-tokens', CONTROL_TOKEN_POLICIES);
  oneOf('server', SERVERS);
  if (typeof values.date === 'string' && !isIsoDate(values.date)) throw new UsageError(`--date must be a calendar date written YYYY-MM-DD, not ${JSON.stringify(values.date)}`);
  if (values.namespace !== undefined && !/^[A-Za-z_$][\w$.-]*$/.test(values.namespace as string)) throw new UsageError(`--namespace must be a name (letters, digits, _ $ . -; no spaces), not ${JSON.stringify(values.namespace)}`);
  if (values.server !== undefined && values.target !== undefined && values.target !== 'harmony') throw new UsageError('--server renders gpt-oss prompts: it goes with the harmony target only (or with --model and --template)');
  if (values.flavor !== undefined && values.target !== undefined && values.target !== 'harmony') throw new UsageError('--flavor applies to the harmony target only');
  let family = false;
  if (values.model !== undefined) {
    let resolved: ReturnType<typeof resolveModel>;
    try {
      resolved = resolveModel(values.model as string);
    } catch {
      throw new UsageError(`--model must be one of ${modelNames().join(', ')} (or a Hugging Face id of one of these families), not ${JSON.stringify(values.model)} (harmony-catalog models lists them)`);
    }
    for (const k of ['target', 'flavor', 'dialect'] as const) if (values[k] !== undefined) throw new UsageError(`--model names the printer: drop --${k}`);
    if (values.faithful) throw new UsageError('--faithful keeps the openai-harmony layout: it does not go with --model');
    family = resolved.kind === 'family';
    const templated = family || (resolved.kind === 'builtin' && resolved.model.target === 'xml');
    if (family && (part === 'system' || part === 'developer')) throw new UsageError(`--model ${values.model} has no ${part} message of its own: use --part catalog or prompt`);
    if (templated && values.server !== undefined && values.server !== 'transformers' && values.server !== 'vllm') throw new UsageError(`--server ${values.server} renders gpt-oss prompts; --model ${values.model}'s template is rendered as transformers or vllm hands it a conversation`);
    if (values.template !== undefined && !family) throw new UsageError(`--template goes with a family's --model (its special tokens), not with --model ${values.model}`);
  }
  if (values.template !== undefined) {
    for (const k of ['target', 'flavor', 'dialect'] as const) if (values[k] !== undefined) throw new UsageError(`--template prints what the template prints: drop --${k}`);
    if (values.faithful) throw new UsageError('--faithful keeps the openai-harmony layout: it does not go with --template');
    if (part === 'system' || part === 'developer') throw new UsageError(`a template has no ${part} message of its own: use --part catalog or prompt`);
    if (values.server !== undefined && values.server !== 'transformers' && values.server !== 'vllm') throw new UsageError(`--server ${values.server} renders gpt-oss prompts; --template is rendered as transformers or vllm hands it a conversation`);
  } else if (values.special !== undefined || values['template-kwarg'] !== undefined) {
    if (!family) throw new UsageError('--special and --template-kwarg go with --template or a family\'s --model');
  }
  if (values.dialect !== undefined && values.target !== 'xml') throw new UsageError('--dialect applies to --target xml only');
  if (values.faithful && ((values.target !== undefined && values.target !== 'harmony') || values.flavor === 'chat-template')) throw new UsageError('--faithful keeps the openai-harmony layout: it does not go with --flavor chat-template or another target');
  if (values['no-format'] && values.target !== 'jsdoc') throw new UsageError('--no-format applies to --target jsdoc only');
  if (values.target === 'xml' && (part === 'system' || part === 'developer')) throw new UsageError(`the xml target has no ${part} message of its own: use --part catalog or prompt`);
  const opt = <T>(k: string) => (values[k] !== undefined ? { [k]: values[k] as T } : {});
  return {
    part: part as Part,
    ...opt<string>('instructions'),
    ...opt<string>('date'),
    ...opt<'low' | 'medium' | 'high'>('effort'),
    ...opt<string>('identity'),
    ...opt<string>('cutoff'),
    ...opt<boolean>('browser'),
    ...opt<boolean>('python'),
    ...(values.completion ? { completion: 'assistant' } : {}),
    ...(typeof values.user === 'string' ? { messages: [{ role: 'user' as const, content: values.user }] } : {}),
    ...opt<string>('namespace'),
    ...opt<Target>('target'),
    ...opt<Flavor>('flavor'),
    ...opt<XmlDialect>('dialect'),
    ...opt<string>('model'),
    ...(values.faithful ? { lowering: 'faithful' as const } : {}),
    ...(values['control-tokens'] !== undefined ? { controlTokens: values['control-tokens'] as ControlTokenPolicy } : {}),
    ...opt<ServerName>('server'),
    ...templateOptionFrom(values),
  };
}

/** What `--verbose` says of `--model`: the model the name was read as, and where its template comes from. */
function modelChosen(name: string): string {
  const r = resolveModel(name);
  const info = listModels().find((m) => m.name === r.name);
  return `info [usage/model]: --model ${name} is ${r.name}${info ? ` (${info.models}; ${info.source})` : ''}`;
}

/** `--template`, `--special`, `--template-kwarg` as the API's template option (a family's --model alone takes --special and --template-kwarg over its own template). */
function templateOptionFrom(values: Record<string, unknown>): Pick<PartOptions, 'template'> {
  const special = specialFrom(values.special as string[] | undefined);
  const kwargs = templateKwargsFrom(values['template-kwarg'] as string[] | undefined);
  if (typeof values.template === 'string') return { template: loadTemplateArg(values.template, { toolsGiven: true, special, kwargs }) };
  if ((Object.keys(special).length || kwargs.size) && typeof values.model === 'string') {
    const r = resolveModel(values.model);
    if (r.kind !== 'family') return {};
    const family = r.family;
    return { template: { text: TEMPLATES[family.template as TemplateName].text, name: `the ${family.name} chat template`, special: { ...family.special, ...special }, kwargs } };
  }
  return {};
}

/** Run `render`. */
export async function renderCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const display = { verbose: false, command: 'render' };
  return guard(io, async () => {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS, 'render');
    display.verbose = Boolean(values.verbose);
    if (values.help) {
      io.stdout(RENDER_HELP);
      return 0;
    }
    const options = partOptionsFrom(values);
    if (values.verbose && typeof values.model === 'string') io.stderr(`${modelChosen(values.model)}\n`);
    if (values.jsonl && values.mcp !== undefined) throw new UsageError('--jsonl reads cases from a file, not from --mcp');
    const loaded = await loadToolsArg(positionals[0], values.mcp, io, mcpOptionsFrom(values, io), maxInputBytesFrom(values));
    const text = loaded.input;
    if (values.jsonl) return renderJsonl(text as string, loaded.source, options, io, Boolean(values.quiet));
    if (typeof text === 'string' && isRequestBody(text)) {
      const r = renderRequest(text, options);
      if (!values.quiet) printDiagnostics(r.diagnostics, io, 'warning', display);
      io.stdout(renderedOutput(r.partText, values.newline, io));
      return 0;
    }
    // read once (JSON text is kept by its text: renderPart reads it from there)
    const none = noToolsOf(asRead(text), loaded.source, 'the prompt has no tools section');
    const r = withUserHint(() => renderPart(text, options), values.user !== undefined);
    if (!values.quiet) printDiagnostics(none ? [none, ...r.diagnostics] : r.diagnostics, io, 'warning', display);
    const out = options.target === 'jsdoc' && !values['no-format'] ? await formatDeclarations(r.text, text, options) : r.text;
    io.stdout(renderedOutput(out, values.newline, io));
    return 0;
  }, display);
}

/**
 * A template that needs a conversation and was given none (the official gpt-oss template raises on
 * an empty message list) is a usage error that says how to give one: `--user`.
 */
function withUserHint<T>(render: () => T, userGiven: boolean): T {
  try {
    return render();
  } catch (e) {
    const empty = !userGiven && isCompileError(e) ? e.diagnostics.find((d) => d.code === 'chat-template/fails' && d.path === '/messages') : undefined;
    if (empty !== undefined) throw new UsageError(`${empty.message.replace(/ \(Jinja2: .*\)$/s, '')}: give the conversation a first message with --user "…" (or render a whole request body, or ask for --part developer)`);
    throw e;
  }
}

/** Options a jsonl case may carry by name, with their types. */
const CASE_OPTIONS: Record<string, 'string' | 'boolean'> = {
  instructions: 'string', date: 'string', effort: 'string', identity: 'string', cutoff: 'string',
  browser: 'boolean', python: 'boolean', namespace: 'string', part: 'string', completion: 'boolean',
  target: 'string', flavor: 'string', dialect: 'string', server: 'string', message_format: 'string', model: 'string',
};

/** A case's `template` (a path), `special` ({name: string}) and `template_kwargs` ({name: JSON}): the command line's --template, --special, --template-kwarg. */
function caseTemplate(line: JsonValue, out: Record<string, unknown>): void {
  const path = getKey(line, 'template');
  const special = getKey(line, 'special');
  const kwargs = getKey(line, 'template_kwargs');
  if (path === undefined && special === undefined && kwargs === undefined) return;
  if (path !== undefined && typeof path !== 'string') throw new UsageError('"template" must be the path of a template file or folder');
  if (special !== undefined && (!isJsonObject(special) || [...special.values()].some((v) => typeof v !== 'string'))) throw new UsageError('"special" must be an object of strings ({"bos_token": "<s>"})');
  if (kwargs !== undefined && !isJsonObject(kwargs)) throw new UsageError('"template_kwargs" must be an object ({"enable_thinking": false})');
  const values: Record<string, unknown> = { ...out, ...(path !== undefined ? { template: path } : {}) };
  values.special = special !== undefined ? [...(special as Map<string, string>)].map(([k, v]) => `${k}=${v}`) : undefined;
  const option = templateOptionFrom(values);
  if (option.template === undefined) throw new UsageError('"special" and "template_kwargs" go with "template" or a family\'s "model"');
  out.template = kwargs !== undefined ? { ...option.template, kwargs: kwargs as Map<string, JsonValue> } : option.template;
}

/** One case of a jsonl file → its options (the command line's, overridden by the case's). */
function caseOptions(line: JsonValue, base: PartOptions): PartOptions {
  const out: Record<string, unknown> = { ...base };
  for (const [k, type] of Object.entries(CASE_OPTIONS)) {
    const v = getKey(line, k);
    if (v === undefined || v === null) continue;
    if (typeof v !== type) throw new UsageError(`"${k}" must be a ${type}`);
    if (k === 'completion') out.completion = v ? 'assistant' : undefined;
    else if (k === 'message_format') {
      if (!MESSAGE_FORMATS.includes(v as MessageFormat)) throw new UsageError(`"message_format" must be one of ${MESSAGE_FORMATS.join(', ')}`);
      out.messageFormat = v;
    } else out[k] = v;
  }
  caseTemplate(line, out);
  const messages = getKey(line, 'messages');
  if (messages !== undefined && messages !== null) {
    if (!isJsonArray(messages)) throw new UsageError('"messages" must be a list of messages');
    out.messages = messages;
  }
  // a request's own fields: validated by the server the case goes through, as that server does
  const effort = getKey(line, 'reasoning_effort');
  if (effort !== undefined) out.effort = effort;
  const toolChoice = getKey(line, 'tool_choice');
  if (toolChoice !== undefined) out.toolChoice = toolChoice;
  partOptionsFrom({ ...out, effort: typeof out.effort === 'string' && ['low', 'medium', 'high'].includes(out.effort) ? out.effort : undefined });
  return out as PartOptions;
}

/**
 * `--jsonl`: one case a line, one `{"id", "text"}` or `{"id", "error"}` line out for each. Warnings
 * are printed with the case's id (`case "a": warning […]`). Exit status: 1 when any case failed
 * (its error line is written and the other cases still run), else 0. A file that is one JSON
 * document (a tools list, a request body) rather than one case a line is a usage error saying so.
 */
async function renderJsonl(text: string, source: string, options: PartOptions, io: CliIo, quiet: boolean): Promise<number> {
  const lines = text.split('\n');
  notOneDocument(text, lines, source);
  let failed = 0;
  lines.forEach((raw, k) => {
    if (raw.trim() === '') return;
    let id: unknown = null;
    try {
      let line: JsonValue;
      try {
        line = parseJson(withoutBom(raw)); // a BOM may start any line (files joined with cat)
      } catch (e) {
        const m = /"id"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(raw);
        if (m) id = JSON.parse(`"${m[1]}"`);
        throw new UsageError(`line ${k + 1} is not JSON: ${(e as Error).message}`);
      }
      if (!isJsonObject(line)) throw new UsageError(`line ${k + 1} is not a case: a case is an object ({"id", "tools", …}), not ${isJsonArray(line) ? 'a list' : 'a single value'}`);
      id = getKey(line, 'id') ?? null;
      if (id !== null && typeof id !== 'string' && typeof id !== 'object') id = String(id);
      const display = { prefix: `${caseLabel(plainId(id), k)}: ` };
      const request = getKey(line, 'request');
      if (request !== undefined) {
        if (!isJsonObject(request)) throw new UsageError('"request" must be a request body (an object)');
        const r = renderRequest(request, caseOptions(line, options));
        if (!quiet) printDiagnostics(r.diagnostics, io, 'warning', display);
        io.stdout(`${JSON.stringify({ id: plainId(id), text: r.partText })}\n`);
        return;
      }
      const tools = getKey(line, 'tools');
      const r = renderPart(tools === undefined ? [] : tools, caseOptions(line, options));
      if (!quiet) printDiagnostics(r.diagnostics, io, 'warning', display);
      io.stdout(`${JSON.stringify({ id: plainId(id), text: r.text })}\n`);
    } catch (e) {
      if (!(e instanceof UsageError) && !isCompileError(e)) throw e;
      failed++;
      io.stdout(`${JSON.stringify({ id: plainId(id), error: e.message })}\n`);
    }
  });
  if (failed && !quiet) io.stderr(failedCasesLine(failed, lines));
  return failed ? 1 : 0;
}


/**
 * A --jsonl file whose first line is not a case but that is one JSON document as a whole (a tools
 * list, a request body, pretty-printed or on one line) is a usage error: rendering it as cases
 * would print one case with "id": null, or an error a line.
 */
function notOneDocument(text: string, lines: readonly string[], source: string): void {
  const first = lines.find((l) => l.trim() !== '');
  if (first === undefined) return;
  let firstValue: JsonValue | undefined;
  try {
    firstValue = parseJson(withoutBom(first));
  } catch {
    // not JSON alone: maybe the first line of a pretty-printed document
  }
  // an object a line is cases; a file of one line is a case when it has an "id" (else a tools file or a request body)
  if (firstValue !== undefined && isJsonObject(firstValue) && (lines.filter((l) => l.trim() !== '').length > 1 || getKey(firstValue, 'id') !== undefined)) return;
  let whole: JsonValue;
  try {
    whole = parseJson(withoutBom(text));
  } catch {
    return; // neither: each line says what is wrong with it
  }
  const what = isJsonArray(whole) ? `a list of ${whole.length} value${whole.length === 1 ? '' : 's'} (tools?)` : isRequestBody(withoutBom(text)) ? 'a request body' : 'one JSON document';
  throw new UsageError(`--jsonl reads one case a line ({"id", "tools", "messages"?, …}), and ${inputName(source)} is ${what}: render it without --jsonl`);
}

function plainId(id: unknown): unknown {
  return typeof id === 'object' && id !== null && 'value' in id ? (id as { value: number }).value : id;
}

/** The jsdoc target's declarations, formatted by prettier (loaded only here) where they stand in the text. */
async function formatDeclarations(text: string, input: unknown, options: PartOptions): Promise<string> {
  const declarations = emitJsdocCatalog(compileTools(input, options).lowered, options.namespace !== undefined ? { namespace: options.namespace } : {}).trimEnd();
  if (!declarations || !text.includes(declarations)) return text;
  const formatted = (await formatJsdoc(declarations)).trimEnd();
  return text.replace(declarations, () => formatted);
}
