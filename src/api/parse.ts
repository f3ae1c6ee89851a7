/**
 * The API side of parsing: what the model wrote → messages (gpt-oss Harmony; every other family:
 * the assistant message its tool calls and reasoning make), the OpenAI response a server returns,
 * tool calls checked against the catalog and leaks flagged. What `harmony-catalog parse` prints.
 */
import { CompileError, type Diagnostic } from '../diagnostics.js';
import { checkToolCalls, toolCallsFromParse, type CheckToolCallsResult } from '../parse/check.js';
import { FAMILY_PARSERS, parseToolCalls, TOOL_PARSERS, type FamilyParseResult } from '../parse/families/index.js';
import { familyLeaks } from '../parse/families/leaks.js';
import { familyChatCompletion } from '../parse/families/response.js';
import { parseHarmony } from '../parse/harmony.js';
import { findLeaks } from '../parse/leaks.js';
import { toChatCompletion } from '../parse/openai.js';
import type { HarmonyParseMode, HarmonyParseResult } from '../parse/types.js';
import type { CompiledTools } from './compile.js';
import { resolveModel } from './models.js';
import { pushAll } from '../ir/arrays.js';

/** The families whose output can be read (any name `--model` takes for them is accepted too). */
export type ParseModel = 'gpt-oss' | 'anthropic' | (typeof FAMILY_PARSERS)[number]['model'] | (string & {});
/** Every family whose output can be read: gpt-oss (Harmony), anthropic (`<invoke>`), and every family parser. */
export const PARSE_MODELS: readonly string[] = ['gpt-oss', 'anthropic', ...FAMILY_PARSERS.map((f) => f.model)];

/** Options of parseCompletion. */
export interface ParseCompletionOptions {
  /** Default `gpt-oss`; any family name, alias or Hugging Face id `--model` takes. */
  readonly model?: ParseModel;
  /** A server's parser name (vLLM's or SGLang's `--tool-call-parser`): read with the syntax it reads; with `server`, exactly that parser. */
  readonly toolParser?: string;
  /**
   * `harmony` / `messages` (default): the messages (gpt-oss: as openai-harmony parses them; other
   * families: the assistant message, `{role, content, reasoning_content?, tool_calls?}`);
   * `openai`: the Chat Completions response the server returns (`{message, finish_reason}`).
   */
  readonly format?: 'harmony' | 'messages' | 'openai';
  /** gpt-oss: `strict` (default), `lenient`, `tolerant`. */
  readonly mode?: HarmonyParseMode;
  /** The tools the prompt was rendered with (compiled): calls are checked against them. */
  readonly tools?: CompiledTools;
  /** `vllm` / `sglang`: what that server's tool parser returns (gpt-oss: vLLM's reading is the one given already). */
  readonly server?: 'vllm' | 'sglang';
  /** The engine's finish reason: `length` marks the last call as possibly cut off. */
  readonly finishReason?: 'stop' | 'length';
}

/** A parse: what to print, what was noticed, and whether it failed (a refused completion, an invalid call). */
export interface ParsedCompletion {
  /** `{messages, error?}`; openai: `{response}` or `{error}`. */
  readonly output: unknown;
  readonly diagnostics: readonly Diagnostic[];
  readonly failed: boolean;
  /** gpt-oss: the parse itself. */
  readonly parsed?: HarmonyParseResult;
  /** Every other family: the reading itself. */
  readonly reading?: FamilyParseResult;
  /** With tools: every call checked against them. */
  readonly checks?: CheckToolCallsResult;
}

/** The family name of a `--model` value, for reading its output. */
export function parseFamilyName(model: string): string {
  const lower = model.trim().toLowerCase();
  if (lower === 'gpt-oss' || lower === 'anthropic') return lower;
  const r = resolveModel(model);
  if (!PARSE_MODELS.includes(r.name)) throw new CompileError([{ code: 'usage/model', severity: 'error', path: '', message: `the output of ${r.name} cannot be read yet: the families read are ${PARSE_MODELS.join(', ')}` }]);
  return r.name;
}

/** The assistant message of a family's reading, as the next turn's history takes it. */
function assistantMessage(r: FamilyParseResult): Record<string, unknown> {
  return { role: 'assistant', content: r.content, ...(r.reasoning_content !== undefined && r.reasoning_content !== null ? { reasoning_content: r.reasoning_content } : {}), ...(r.tool_calls.length > 0 ? { tool_calls: r.tool_calls } : {}) };
}

/** Read a completion: Harmony messages (and the vLLM response) for gpt-oss, the tool calls and reasoning of every other family; calls checked when tools are given. */
export async function parseCompletion(input: string | readonly number[], options: ParseCompletionOptions = {}): Promise<ParsedCompletion> {
  const model = options.toolParser !== undefined && options.model === undefined ? undefined : parseFamilyName(options.model ?? 'gpt-oss');
  if (model !== 'gpt-oss') {
    if (options.toolParser !== undefined && !TOOL_PARSERS.has(options.toolParser)) {
      throw new CompileError([{ code: 'usage/tool-parser', severity: 'error', path: '', message: `unknown tool parser ${JSON.stringify(options.toolParser)}: the servers' names are ${[...TOOL_PARSERS.keys()].join(', ')}` }]);
    }
    const text = typeof input === 'string' ? input : '';
    const r = parseToolCalls(text, { ...(model !== undefined ? { model } : {}), ...(options.toolParser !== undefined ? { toolParser: options.toolParser } : {}), ...(options.tools ? { tools: options.tools } : {}), ...(options.server ? { server: options.server } : {}) });
    const response = familyChatCompletion(r, { ...(options.finishReason ? { finishReason: options.finishReason } : {}) });
    // the calls themselves: a call the output ended inside of carries that mark (never runnable)
    const checks = options.tools ? await checkToolCalls(response.message.tool_calls ?? [], options.tools) : undefined;
    const diagnostics = [...r.diagnostics, ...familyLeaks(text, r, model), ...(checks?.diagnostics ?? [])];
    const failed = diagnostics.some((d) => d.severity === 'error');
    const output = options.format === 'openai' ? { response: { message: response.message, finish_reason: response.finish_reason } } : { messages: [assistantMessage(r)] };
    return { output, diagnostics, failed, reading: r, ...(checks ? { checks } : {}) };
  }
  if (options.toolParser !== undefined) throw new CompileError([{ code: 'usage/tool-parser', severity: 'error', path: '', message: 'gpt-oss output is read by its Harmony parser: --tool-parser goes with the other families' }]);
  if (options.server === 'sglang') throw new CompileError([{ code: 'usage/server', severity: 'error', path: '', message: "SGLang's gpt-oss reading is not emulated: --server vllm (the reading given already) or no --server" }]);
  const parsed = parseHarmony(input, { ...(options.mode ? { mode: options.mode } : {}) });
  const diagnostics: Diagnostic[] = [...parsed.diagnostics, ...findLeaks(parsed)];
  let failed = parsed.error !== undefined;
  const checks = options.tools ? await checkToolCalls(toolCallsFromParse(parsed), options.tools) : undefined;
  if (checks) {
    pushAll(diagnostics, checks.diagnostics);
    if (checks.diagnostics.some((d) => d.severity === 'error')) failed = true;
  }
  const checked = checks ? { checks } : {};
  if (options.format === 'openai') {
    const r = toChatCompletion(parsed, { ...(options.tools ? { tools: options.tools } : {}), ...(options.finishReason ? { finishReason: options.finishReason } : {}) });
    pushAll(diagnostics, r.diagnostics);
    if (r.error) return { output: { error: r.error.message }, diagnostics, failed: true, parsed, ...checked };
    return { output: { response: { message: r.message, finish_reason: r.finish_reason } }, diagnostics, failed, parsed, ...checked };
  }
  return { output: { messages: parsed.messages, ...(parsed.error ? { error: parsed.error.message } : {}) }, diagnostics, failed, parsed, ...checked };
}
