/** `harmony-catalog render`: print the prompt, or one part of it, for a tool file; `--jsonl` for many cases. */
import { parseArgs } from 'node:util';
import { isCompileError } from '../diagnostics.js';
import { getKey, isJsonArray, isJsonObject, parseJson, type JsonValue } from '../ir/json.js';
import { renderPart, type Part, type PartOptions } from '../index.js';
import { guard, printDiagnostics, readInputArg, UsageError, type CliIo } from './io.js';

/** Help text of `render`. */
export const RENDER_HELP = `Usage: harmony-catalog render <file|-> [options]

Print what the model reads for the tools in <file> (JSON: one tool or a list, in OpenAI Chat,
OpenAI Responses, Anthropic, MCP, Gemini or bare {name, description, parameters} shape).

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
  --namespace <name>    namespace of the tools (default: functions)
  --jsonl               read one case a line: {"id", "tools", "instructions"?, "messages"?, and any
                        option above by name}; write {"id", "text"} or {"id", "error"} a line.
                        text is the part's content (no envelope), or the whole prompt for --part prompt
  --quiet               do not print warnings
  -h, --help            this help

Exit codes: 0 rendered, 1 the input cannot be rendered (errors are listed), 2 usage error.
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
  namespace: { type: 'string' },
  jsonl: { type: 'boolean' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const PARTS: readonly Part[] = ['system', 'developer', 'catalog', 'prompt'];
const EFFORTS = ['low', 'medium', 'high'] as const;

/** Validate and collect the render options shared by every case. */
export function partOptionsFrom(values: Record<string, unknown>): PartOptions {
  const part = (values.part as string | undefined) ?? 'prompt';
  if (!PARTS.includes(part as Part)) throw new UsageError(`--part must be one of ${PARTS.join(', ')}, not ${JSON.stringify(part)}`);
  const effort = values.effort as string | undefined;
  if (effort !== undefined && !EFFORTS.includes(effort as (typeof EFFORTS)[number])) throw new UsageError(`--effort must be low, medium or high, not ${JSON.stringify(effort)}`);
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
    ...opt<string>('namespace'),
  };
}

/** Run `render`. */
export async function renderCommand(argv: readonly string[], io: CliIo): Promise<number> {
  return guard(io, async () => {
    let parsed;
    try {
      parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const { values, positionals } = parsed;
    if (values.help) {
      io.stdout(RENDER_HELP);
      return 0;
    }
    if (positionals.length > 1) throw new UsageError(`render takes one input, got ${positionals.length}: ${positionals.join(' ')}`);
    const options = partOptionsFrom(values);
    const text = await readInputArg(positionals[0], io);
    if (values.jsonl) return renderJsonl(text, options, io, Boolean(values.quiet));
    const r = renderPart(text, options);
    if (!values.quiet) printDiagnostics(r.diagnostics, io);
    io.stdout(r.text.endsWith('\n') ? r.text : `${r.text}\n`);
    return 0;
  });
}

/** Options a jsonl case may carry by name, with their types. */
const CASE_OPTIONS: Record<string, 'string' | 'boolean'> = {
  instructions: 'string', date: 'string', effort: 'string', identity: 'string', cutoff: 'string',
  browser: 'boolean', python: 'boolean', namespace: 'string', part: 'string', completion: 'boolean',
};

/** One case of a jsonl file → its options (the command line's, overridden by the case's). */
function caseOptions(line: JsonValue, base: PartOptions): PartOptions {
  const out: Record<string, unknown> = { ...base };
  for (const [k, type] of Object.entries(CASE_OPTIONS)) {
    const v = getKey(line, k);
    if (v === undefined || v === null) continue;
    if (typeof v !== type) throw new UsageError(`"${k}" must be a ${type}`);
    if (k === 'completion') out.completion = v ? 'assistant' : undefined;
    else out[k] = v;
  }
  const messages = getKey(line, 'messages');
  if (isJsonArray(messages)) {
    out.messages = messages.map((m) => {
      const role = getKey(m, 'role');
      const content = getKey(m, 'content');
      if (!isJsonObject(m) || typeof role !== 'string' || typeof content !== 'string') throw new UsageError('each message must be {"role": string, "content": string}');
      return { role, content };
    });
  }
  return partOptionsFrom(out) && (out as PartOptions);
}

async function renderJsonl(text: string, options: PartOptions, io: CliIo, quiet: boolean): Promise<number> {
  const lines = text.split('\n');
  lines.forEach((raw, k) => {
    if (raw.trim() === '') return;
    let id: unknown = null;
    try {
      let line: JsonValue;
      try {
        line = parseJson(raw);
      } catch (e) {
        const m = /"id"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(raw);
        if (m) id = JSON.parse(`"${m[1]}"`);
        throw new UsageError(`line ${k + 1} is not JSON: ${(e as Error).message}`);
      }
      id = getKey(line, 'id') ?? null;
      if (id !== null && typeof id !== 'string' && typeof id !== 'object') id = String(id);
      const tools = getKey(line, 'tools');
      const r = renderPart(tools === undefined ? [] : tools, caseOptions(line, options));
      if (!quiet) printDiagnostics(r.diagnostics, io);
      io.stdout(`${JSON.stringify({ id: plainId(id), text: r.text })}\n`);
    } catch (e) {
      if (!(e instanceof UsageError) && !isCompileError(e)) throw e;
      io.stdout(`${JSON.stringify({ id: plainId(id), error: e.message })}\n`);
    }
  });
  return 0;
}

function plainId(id: unknown): unknown {
  return typeof id === 'object' && id !== null && 'value' in id ? (id as { value: number }).value : id;
}
