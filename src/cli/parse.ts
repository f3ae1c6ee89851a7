/** `harmony-catalog parse`: read what the model wrote — Harmony completions (gpt-oss) or the XML dialects' tool calls. */
import { isCompileError } from '../diagnostics.js';
import { getKey, isJsonArray, isJsonNumber, isJsonObject, parseJson, toJs, type JsonValue } from '../ir/json.js';
import { compileTools } from '../api/compile.js';
import { toolsOfInput } from '../api/render.js';
import { parseCompletion, parseFamilyName } from '../api/parse.js';
import { TOOL_PARSERS } from '../parse/families/index.js';
import type { HarmonyParseMode } from '../parse/types.js';
import type { CheckToolCallsResult } from '../parse/check.js';
import { caseLabel, failedCasesLine, guard, INPUT_HELP, INPUT_OPTIONS, maxInputBytesFrom, printDiagnostics, readInputArg, UsageError, type CliIo, parseCommandArgs } from './io.js';

/** Help text of `parse`. */
export const PARSE_HELP = `Usage: harmony-catalog parse <file|-> [options]

Read what the model wrote: its answer, its reasoning and its tool calls, checked against the tools.
For gpt-oss (the default), <file> is the completion after the prompt's <|start|>assistant: Harmony
text with its control tokens spelled out (<|channel|>, <|call|>…), as a server detokenizes it with
special tokens, or a JSON list of o200k_harmony token ids (exact where the text is ambiguous). For
every other family (--model) it is the model's text, with its calls in the family's own syntax.

Options:
  --model <m>           gpt-oss (default), anthropic, or any family: llama-3.1, llama-3.2, llama-4,
                        mistral-nemo, ministral-3, granite-3.3, granite-4.0, kimi-k2, glm-4.6,
                        glm-4.7, minimax-m2, nemotron-nano-2, functionary-3.1, functionary-3.2,
                        gemma-4, command-r7b, command-r-plus, seed-oss, deepseek-v3.1, qwen3, qwen,
                        hermes, qwen3-coder, phi-4-mini (names and Hugging Face ids as --model takes
                        them in render)
  --tool-parser <name>  read with the syntax of the server parser of this name, as your server's
                        --tool-call-parser says it (vLLM: llama3_json, pythonic, llama4_pythonic,
                        mistral, deepseek_v3, deepseek_v31, hermes, qwen3_coder, glm45, glm47,
                        kimi_k2, minimax_m2, seed_oss, granite, granite4, gemma4, phi4_mini_json,
                        apertus, lfm2, olmo3, hunyuan_a13b, hy_v3; SGLang: llama3, pythonic,
                        mistral, deepseekv3, deepseekv31, qwen25, hermes, qwen3_coder, glm45,
                        glm47, kimi_k2, minimax-m2, gemma4, lfm2, hunyuan)
  --server <s>          vllm | sglang: exactly what that server's tool parser returns, quirks
                        included (the family's usual parser, or --tool-parser's); default: the
                        family's syntax read strictly, every repair and dropped piece reported,
                        and every place where vLLM or SGLang returns something else reported.
                        gpt-oss: vllm is the reading given already
  --format <f>          messages (default; harmony is the same): gpt-oss, the messages as
                        openai-harmony parses them; other families, the assistant message
                        {role, content, reasoning_content?, tool_calls?};
                        openai: the Chat Completions response ({message, finish_reason})
  --mode <m>            gpt-oss: strict (default) | lenient (openai-harmony's strict=False) |
                        tolerant (never fails: problems become diagnostics with byte offsets)
  --tools <file>        the tools the prompt was rendered with (any shape render reads): tool calls
                        are checked against their schemas (unknown tool, unknown parameter, JSON
                        that does not parse, arguments that break the schema, a schema that cannot
                        be compiled), and a call the output cut off is call/incomplete (never
                        runnable; the printed response stays what the server returns); stderr
                        ends with how many calls are runnable
  --finish-reason <r>   --format openai: the engine's finish reason, stop | length (gpt-oss
                        default: stop when the input ends with a stop token, else length; other
                        families: stop). length marks the last call as possibly cut off
  --jsonl               read one case a line: {"id", "completion" | "tokens", "tools"?}; write
                        {"id", "messages", "error"?} (--format messages) or {"id", "response"} /
                        {"id", "error"} (--format openai) a line, the same shapes for every model
  --quiet               do not print warnings
  --verbose             print every warning (else 20 of each code, then how many more)
${INPUT_HELP}
  -h, --help            this help

Exit codes: 0 parsed (with --mode tolerant and no --tools, always), 1 the completion was refused
(strict/lenient parse error), a tool call is invalid for --tools or cut off (never runnable), the
output wrote a tool result or turn itself, or the reading has an error (a call dropped or cut off:
parse/incomplete-call), or (--jsonl) any case did (its line is still written, the other cases
still run, and stderr says how many failed), 2 usage error.
`;

const OPTIONS = {
  format: { type: 'string' },
  mode: { type: 'string' },
  tools: { type: 'string' },
  model: { type: 'string' },
  server: { type: 'string' },
  'tool-parser': { type: 'string' },
  'finish-reason': { type: 'string' },
  jsonl: { type: 'boolean' },
  quiet: { type: 'boolean' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  ...INPUT_OPTIONS,
} as const;

const FORMATS = ['messages', 'harmony', 'openai'] as const;
const MODES: readonly HarmonyParseMode[] = ['strict', 'lenient', 'tolerant'];

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!allowed.includes(value as T)) throw new UsageError(`${name} must be one of ${allowed.join(', ')}, not ${JSON.stringify(value)}`);
  return value as T;
}

/** The completion of a file: token ids when it is a JSON list of whole numbers, else the text as it is. */
export function completionInput(text: string): string | number[] {
  const t = text.trim();
  if (!t.startsWith('[') || !t.endsWith(']')) return text;
  let v: JsonValue;
  try {
    v = parseJson(t);
  } catch {
    return text;
  }
  if (!isJsonArray(v) || !v.every((x) => isJsonNumber(x) && /^\d+$/.test(x.text))) return text;
  return v.map((x) => (x as { value: number }).value);
}

/** Run `parse`. */
export async function parseCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const display = { verbose: false, command: 'parse' };
  return guard(io, async () => {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS, 'parse');
    display.verbose = Boolean(values.verbose);
    if (values.help) {
      io.stdout(PARSE_HELP);
      return 0;
    }
    const format = oneOf('--format', values.format, FORMATS) ?? 'messages';
    const mode = oneOf('--mode', values.mode, MODES);
    const toolParser = values['tool-parser'];
    let model: string;
    try {
      model = values.model === undefined && toolParser !== undefined ? 'by-tool-parser' : parseFamilyName(values.model ?? 'gpt-oss');
    } catch (e) {
      if (isCompileError(e)) throw new UsageError(e.diagnostics[0].message);
      throw e;
    }
    if (toolParser !== undefined && !TOOL_PARSERS.has(toolParser)) throw new UsageError(`unknown --tool-parser ${JSON.stringify(toolParser)}: the servers' names are ${[...TOOL_PARSERS.keys()].join(', ')}`);
    const server = oneOf('--server', values.server, ['vllm', 'sglang'] as const);
    const finish = oneOf('--finish-reason', values['finish-reason'], ['stop', 'length'] as const);
    if (model !== 'gpt-oss' && mode !== undefined) throw new UsageError('--mode applies to gpt-oss completions only');
    if (model === 'gpt-oss' && toolParser !== undefined) throw new UsageError('--tool-parser goes with the other families: gpt-oss output is read by its Harmony parser');
    if (model === 'gpt-oss' && server === 'sglang') throw new UsageError("SGLang's gpt-oss reading is not emulated: --server vllm (the reading given already) or no --server");
    if (toolParser !== undefined && server !== undefined && !TOOL_PARSERS.get(toolParser)!.servers.includes(server)) throw new UsageError(`${server === 'vllm' ? 'vLLM' : 'SGLang'} has no tool parser named ${toolParser}`);
    if (finish !== undefined && format !== 'openai') throw new UsageError('--finish-reason goes with --format openai');
    const tools = values.tools !== undefined ? compileTools(toolsOfInput(await readInputArg(values.tools, io, maxInputBytesFrom(values)))) : undefined;
    if (tools && !values.quiet) printDiagnostics(tools.diagnostics, io, 'warning', display);
    const input = await readInputArg(positionals[0], io, maxInputBytesFrom(values));
    const base: Base = { ...(model !== 'by-tool-parser' ? { model } : {}), ...(toolParser !== undefined ? { toolParser } : {}), format, ...(mode ? { mode } : {}), ...(server ? { server } : {}), ...(finish ? { finishReason: finish } : {}) };
    if (values.jsonl) return parseJsonl(input, base, tools, io, Boolean(values.quiet), display);
    const r = await parseCompletion(model === 'gpt-oss' ? completionInput(input) : input, { ...base, ...(tools ? { tools } : {}) });
    if (!values.quiet) printDiagnostics(r.diagnostics, io, 'warning', display);
    if (r.checks && !values.quiet) io.stderr(`${checkedLine(r.checks, tools?.lowered.length ?? 0)}\n`);
    io.stdout(`${JSON.stringify(r.output, null, 2)}\n`);
    return r.failed ? 1 : 0;
  }, display);
}

/** What the checks of --tools found, in one line (the calls that may run, by name). */
export function checkedLine(checks: CheckToolCallsResult, toolCount: number): string {
  const n = checks.calls.length;
  const runnable = checks.calls.filter((c) => c.runnable);
  const names = runnable.map((c) => c.name).join(', ');
  return `checked ${n} tool call${n === 1 ? '' : 's'} against ${toolCount} tool${toolCount === 1 ? '' : 's'}: ${runnable.length} runnable${names ? ` (${names})` : ''}${runnable.length < n ? `, ${n - runnable.length} not (the errors above say why)` : ''}`;
}

type Base = { model?: string; toolParser?: string; format: 'messages' | 'harmony' | 'openai'; mode?: HarmonyParseMode; server?: 'vllm' | 'sglang'; finishReason?: 'stop' | 'length' };

async function parseJsonl(text: string, base: Base, tools: ReturnType<typeof compileTools> | undefined, io: CliIo, quiet: boolean, display: { verbose: boolean }): Promise<number> {
  const lines = text.split('\n');
  let failed = 0;
  for (let k = 0; k < lines.length; k++) {
    const raw = lines[k];
    if (raw.trim() === '') continue;
    let id: unknown = null;
    try {
      let line: JsonValue;
      try {
        line = parseJson(raw);
      } catch (e) {
        throw new UsageError(`line ${k + 1} is not JSON: ${(e as Error).message}`);
      }
      if (!isJsonObject(line)) throw new UsageError(`line ${k + 1} is not an object`);
      const idv = getKey(line, 'id');
      id = idv === undefined ? null : toJs(idv);
      const completion = getKey(line, 'completion');
      const tokens = getKey(line, 'tokens');
      let input: string | number[];
      const gptOss = base.model === 'gpt-oss';
      if (tokens !== undefined && gptOss) {
        if (!isJsonArray(tokens) || !tokens.every((t) => isJsonNumber(t) && /^\d+$/.test(t.text))) throw new UsageError(`line ${k + 1}: "tokens" must be a list of token ids`);
        input = tokens.map((t) => (t as { value: number }).value);
      } else if (typeof completion === 'string') input = completion;
      else throw new UsageError(`line ${k + 1}: give "completion" (text)${gptOss ? ' or "tokens" (ids)' : ''}`);
      const caseTools = getKey(line, 'tools');
      const t = caseTools !== undefined ? compileTools(caseTools) : tools;
      const finish = getKey(line, 'engine_finish_reason');
      const r = await parseCompletion(input, { ...base, ...(t ? { tools: t } : {}), ...(base.format === 'openai' && base.finishReason === undefined && (finish === 'stop' || finish === 'length') ? { finishReason: finish } : {}) });
      if (!quiet) printDiagnostics(r.diagnostics, io, 'warning', { ...display, prefix: `${caseLabel(id, k)}: ` });
      if (r.failed) failed++;
      io.stdout(`${JSON.stringify({ id, ...(r.output as object) })}\n`);
    } catch (e) {
      if (!(e instanceof UsageError) && !isCompileError(e)) throw e;
      failed++;
      io.stdout(`${JSON.stringify({ id, error: e.message })}\n`);
    }
  }
  if (failed && !quiet) io.stderr(failedCasesLine(failed, lines, 'refused, or a call invalid or cut off, as a single parse would exit 1'));
  return failed ? 1 : 0;
}

