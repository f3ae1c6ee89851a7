/** `harmony-catalog tokens`: the number of tokens (and their ids) of a text under a model's own tokenizer, or gpt-oss's o200k_harmony. */
import { isCompileError } from '../diagnostics.js';
import { resolveTokenizer, type Tokenizer } from '../tokenizers/index.js';
import { guard, INPUT_HELP, INPUT_OPTIONS, maxInputBytesFrom, parseCommandArgs, readInputArg, UsageError, withoutBom, type CliIo, failedCasesLine } from './io.js';

/** Help text of `tokens`. */
export const TOKENS_HELP = `Usage: harmony-catalog tokens <file|-> [--tokenizer PATH|MODEL-ID|gpt-oss] [--ids] [--jsonl]

Count the tokens of a text (a rendered prompt, say) as a server counts it: every control token of
the tokenizer spelled in the text (<|im_start|>, <|eot_id|>, <start_of_turn>…) is its one token,
and nothing is added around the text (no BOS/EOS). A leading byte order mark is not counted.

Options:
  --tokenizer <t>   which tokenizer counts:
                      a tokenizer.json, or a model folder that holds one (Hugging Face format:
                      Llama 3, Qwen, DeepSeek, Gemma, gpt-oss… any BPE model);
                      a model id (Qwen/Qwen3-8B) whose files are in the Hugging Face cache
                      (HF_HUB_CACHE, HF_HOME/hub or ~/.cache/huggingface/hub; nothing is downloaded);
                      gpt-oss: o200k_harmony, the project's own encoder (the default; a folder
                      named gpt-oss is ./gpt-oss)
  --ids             print the token ids too: a JSON list on the line after the count
  --jsonl           read one text a line: {"id", "text"}; write {"id", "count"} ({"id", "count",
                    "ids"} with --ids) or {"id", "error"} a line
${INPUT_HELP}
  -h, --help        this help

Output: the count, one line (and the ids with --ids).
Exit codes: 0 counted, 1 the tokenizer cannot be read (the file is missing, not JSON, broken or of
a model type that is not supported: the message says which), the input is over --max-input-bytes,
or (--jsonl) a line failed (its output line holds "error"; the other lines are still counted),
2 usage error.
`;

const OPTIONS = {
  tokenizer: { type: 'string' },
  ids: { type: 'boolean' },
  jsonl: { type: 'boolean' },
  ...INPUT_OPTIONS,
  help: { type: 'boolean', short: 'h' },
} as const;

/** Run `tokens`. */
export async function tokensCommand(argv: readonly string[], io: CliIo): Promise<number> {
  return guard(io, async () => {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS, 'tokens');
    if (values.help) {
      io.stdout(TOKENS_HELP);
      return 0;
    }
    if (values.tokenizer === '') throw new UsageError('--tokenizer needs a path, a model id or gpt-oss');
    const text = await readInputArg(positionals[0], io, maxInputBytesFrom(values));
    const tokenizer = resolveTokenizer(values.tokenizer, { env: io.env });
    if (values.jsonl) return tokensJsonl(text, tokenizer, Boolean(values.ids), io);
    if (values.ids) {
      const ids = tokenizer.encode(text);
      io.stdout(`${ids.length}\n${JSON.stringify(ids)}\n`);
    } else io.stdout(`${tokenizer.count(text)}\n`);
    return 0;
  }, { command: 'tokens' });
}

/** One `{"id", "count", "ids"?}` (or `{"id", "error"}`) line for each `{"id", "text"}` line; exit status 1 when any line failed. */
function tokensJsonl(text: string, tokenizer: Tokenizer, withIds: boolean, io: CliIo): number {
  const lines = text.split('\n');
  let failed = 0;
  for (let k = 0; k < lines.length; k++) {
    const raw = lines[k] as string;
    if (raw.trim() === '') continue;
    let id: unknown = null;
    try {
      let row: unknown;
      try {
        row = JSON.parse(withoutBom(raw)); // a BOM may start any line (files joined with cat)
      } catch (e) {
        throw new UsageError(`line ${k + 1} is not JSON: ${(e as Error).message}`);
      }
      if (typeof row !== 'object' || row === null || Array.isArray(row)) throw new UsageError(`line ${k + 1} is not an object`);
      const r = row as Record<string, unknown>;
      id = r.id ?? null;
      if (typeof r.text !== 'string') throw new UsageError(`line ${k + 1}: "text" must be a string`);
      if (withIds) {
        const ids = tokenizer.encode(r.text);
        io.stdout(`${JSON.stringify({ id, count: ids.length, ids })}\n`);
      } else io.stdout(`${JSON.stringify({ id, count: tokenizer.count(r.text) })}\n`);
    } catch (e) {
      if (!(e instanceof UsageError) && !isCompileError(e)) throw e;
      failed++;
      io.stdout(`${JSON.stringify({ id, error: e.message })}\n`);
    }
  }
  if (failed) io.stderr(failedCasesLine(failed, lines));
  return failed ? 1 : 0;
}
