/** `harmony-catalog parse`: read what the model wrote — Harmony completions (gpt-oss) or the XML dialects' tool calls. */
import { isCompileError } from '../diagnostics.js';
import { getKey, isJsonArray, isJsonNumber, isJsonObject, parseJson, toJs, type JsonValue } from '../ir/json.js';
import { compileTools } from '../api/compile.js';
import { toolsOfInput } from '../api/render.js';
import { parseCompletion, PARSE_MODELS, type ParseModel } from '../api/parse.js';
import type { HarmonyParseMode } from '../parse/types.js';
import { guard, printDiagnostics, readInputArg, UsageError, type CliIo, parseCommandArgs } from './io.js';

/** Help text of `parse`. */
export const PARSE_HELP = `Usage: harmony-catalog parse <file|-> [options]

Read what the model wrote. For gpt-oss (the default), <file> is the completion after the prompt's
<|start|>assistant: Harmony text with its control tokens spelled out (<|channel|>, <|call|>…), as a
server detokenizes it with special tokens, or a JSON list of o200k_harmony token ids (exact where
the text is ambiguous). For --model hermes | qwen | qwen3-coder | anthropic, <file> is the model's
text with its XML tool calls.

Options:
  --format <f>          harmony (default): the messages, as openai-harmony parses them;
                        openai: the Chat Completions message vLLM returns ({message, finish_reason})
  --mode <m>            gpt-oss: strict (default) | lenient (openai-harmony's strict=False) |
                        tolerant (never fails: problems become diagnostics with byte offsets)
  --tools <file>        the tools the prompt was rendered with (any shape render reads): tool calls
                        are checked against their schemas (unknown tool, JSON that does not parse,
                        arguments that break the schema, a schema that cannot be compiled), and a
                        call the output cut off is call/incomplete (never runnable; the printed
                        response stays what vLLM returns); vLLM returns calls only when there are tools
  --model <m>           gpt-oss (default) | hermes | qwen | qwen3-coder | anthropic
  --server <s>          xml dialects: vllm returns what vLLM's tool parser returns, quirks included
                        (default: decode by the schema and report every coercion)
  --finish-reason <r>   gpt-oss --format openai: the engine's finish reason, stop | length (default:
                        stop when the input ends with a stop token, else length)
  --jsonl               read one case a line: {"id", "completion" | "tokens", "tools"?}; write
                        {"id", "messages", "error"?} (--format harmony) or {"id", "response"} /
                        {"id", "error"} (--format openai) a line
  --quiet               do not print warnings
  --verbose             print every warning (else 20 of each code, then how many more)
  -h, --help            this help

Exit codes: 0 parsed (with --mode tolerant and no --tools, always), 1 the completion was refused
(strict/lenient parse error), a tool call is invalid for --tools or cut off (never runnable), or an
xml dialect's output has an error (a call dropped, or cut off: parse/incomplete-call), 2 usage error.
`;

const OPTIONS = {
  format: { type: 'string' },
  mode: { type: 'string' },
  tools: { type: 'string' },
  model: { type: 'string' },
  server: { type: 'string' },
  'finish-reason': { type: 'string' },
  jsonl: { type: 'boolean' },
  quiet: { type: 'boolean' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const FORMATS = ['harmony', 'openai'] as const;
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
  return guard(io, async () => {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS, 'parse');
    if (values.help) {
      io.stdout(PARSE_HELP);
      return 0;
    }
    const format = oneOf('--format', values.format, FORMATS) ?? 'harmony';
    const mode = oneOf('--mode', values.mode, MODES);
    const model = oneOf('--model', values.model, PARSE_MODELS) ?? 'gpt-oss';
    const server = oneOf('--server', values.server, ['vllm'] as const);
    const finish = oneOf('--finish-reason', values['finish-reason'], ['stop', 'length'] as const);
    if (model !== 'gpt-oss' && mode !== undefined) throw new UsageError('--mode applies to gpt-oss completions only');
    if (model === 'gpt-oss' && server !== undefined) throw new UsageError('--server applies to the xml dialects (gpt-oss --format openai is what vLLM returns already)');
    if (finish !== undefined && (model !== 'gpt-oss' || format !== 'openai')) throw new UsageError('--finish-reason goes with gpt-oss --format openai');
    const tools = values.tools !== undefined ? compileTools(toolsOfInput(await readInputArg(values.tools, io))) : undefined;
    const display = { verbose: Boolean(values.verbose) };
    if (tools && !values.quiet) printDiagnostics(tools.diagnostics, io, 'warning', display);
    const input = await readInputArg(positionals[0], io);
    const base = { model, format, ...(mode ? { mode } : {}), ...(server ? { server } : {}), ...(finish ? { finishReason: finish } : {}) };
    if (values.jsonl) return parseJsonl(input, base, tools, io, Boolean(values.quiet), display);
    const r = await parseCompletion(model === 'gpt-oss' ? completionInput(input) : input, { ...base, ...(tools ? { tools } : {}) });
    if (!values.quiet) printDiagnostics(r.diagnostics, io, 'warning', display);
    io.stdout(`${JSON.stringify(r.output, null, 2)}\n`);
    return r.failed ? 1 : 0;
  });
}

type Base = { model: ParseModel; format: 'harmony' | 'openai'; mode?: HarmonyParseMode; server?: 'vllm'; finishReason?: 'stop' | 'length' };

async function parseJsonl(text: string, base: Base, tools: ReturnType<typeof compileTools> | undefined, io: CliIo, quiet: boolean, display: { verbose: boolean }): Promise<number> {
  const lines = text.split('\n');
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
      if (tokens !== undefined && base.model === 'gpt-oss') {
        if (!isJsonArray(tokens) || !tokens.every((t) => isJsonNumber(t) && /^\d+$/.test(t.text))) throw new UsageError(`line ${k + 1}: "tokens" must be a list of token ids`);
        input = tokens.map((t) => (t as { value: number }).value);
      } else if (typeof completion === 'string') input = completion;
      else throw new UsageError(`line ${k + 1}: give "completion" (text)${base.model === 'gpt-oss' ? ' or "tokens" (ids)' : ''}`);
      const caseTools = getKey(line, 'tools');
      const t = caseTools !== undefined ? compileTools(caseTools) : tools;
      const finish = getKey(line, 'engine_finish_reason');
      const r = await parseCompletion(input, { ...base, ...(t ? { tools: t } : {}), ...(base.format === 'openai' && base.model === 'gpt-oss' && base.finishReason === undefined && (finish === 'stop' || finish === 'length') ? { finishReason: finish } : {}) });
      if (!quiet) printDiagnostics(r.diagnostics, io, 'warning', display);
      io.stdout(`${JSON.stringify({ id, ...(r.output as object) })}\n`);
    } catch (e) {
      if (!(e instanceof UsageError) && !isCompileError(e)) throw e;
      io.stdout(`${JSON.stringify({ id, error: e.message })}\n`);
    }
  }
  return 0;
}

