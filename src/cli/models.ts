/** `harmony-catalog models`: every `--model` name, the models it covers, and where its template comes from. */
import { listModels } from '../api/models.js';
import { guard, parseCommandArgs, UsageError, type CliIo } from './io.js';

/** Help text of `models`. */
export const MODELS_HELP = `Usage: harmony-catalog models [--format text|json]

Every name --model takes (render, dump, build outputs, the vitest matcher, --jsonl cases), with
its aliases, the models it covers and where its template comes from.

Options:
  --format <f>   text (default) | json: [{"name", "aliases", "models", "source"}]
  -h, --help     this help
`;

const OPTIONS = { format: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

/** Run `models`. */
export async function modelsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  return guard(io, async () => {
    const { values } = parseCommandArgs(argv, OPTIONS, 'models', 0);
    if (values.help) {
      io.stdout(MODELS_HELP);
      return 0;
    }
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, not ${JSON.stringify(format)}`);
    const rows = listModels();
    if (format === 'json') {
      io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
      return 0;
    }
    const names = rows.map((r) => [r.name, ...r.aliases].join(', '));
    const width = Math.max(...names.map((n) => n.length));
    io.stdout(rows.map((r, i) => `${names[i].padEnd(width)}  ${r.models}\n${' '.repeat(width)}  from ${r.source}\n`).join(''));
    return 0;
  }, { command: 'models' });
}
