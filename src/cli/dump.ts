/** `harmony-catalog dump`: the inventory of a tool set, one row per tool (parameters, tokens, findings) and the totals. */
import { formatDiagnostic, noToolsWarning } from '../diagnostics.js';
import { inventory, type Inventory, type InventoryTool } from '../inventory.js';
import { guard, mcpOptionsFrom, printDiagnostics, UsageError, type CliIo, parseCommandArgs, INPUT_HELP, isUsageCompileError, maxInputBytesFrom } from './io.js';
import { partOptionsFrom, RENDER_OPTIONS } from './render.js';
import { isRequestBody, toolsOfInput } from '../api/render.js';
import { readRequestBody } from '../conversation/read.js';
import { parseJson, type JsonValue } from '../ir/json.js';
import type { InventoryOptions } from '../inventory.js';
import { inputName, loadToolsArg } from './sources.js';
import { countedWith, templateTokenizer, TOKENIZER_HELP, tokenizerArg, tokenizerNote } from './tokenizer.js';
import { maxOf, pushAll } from '../ir/arrays.js';
import { LONG_INPUT, progressLine } from './progress.js';

/** Help text of `dump`. */
export const DUMP_HELP = `Usage: harmony-catalog dump <file|-|--mcp "command args"> [options]

One row per tool: its name, parameter count, tokens (its share of the developer message, or of
the whole prompt for a model with no developer message) and lint findings; then the totals of the
parts the model has (gpt-oss: system message, developer message, catalog; every model: the whole
prompt). gpt-oss's messages are counted whole, <|start|> to <|end|>, with its o200k_harmony.
Another --model (or --template) is counted with its own tokenizer when one is given or found
(--tokenizer; the file and its sha256 are printed), else with o200k_harmony as an estimate, and
said so. <file> may be a whole request body (Chat Completions, Responses, Anthropic): its function
tools are listed, and the totals add the whole prompt with its conversation, as the --server
builds it.

Options:
  --sort <key>          input (default) | tokens (most first) | name
  --show                print each tool's rendering too
  --format <f>          text (default) | json | markdown
  --max-tokens <n>      exit 1 when the catalog is over n tokens (the output is still printed)
${TOKENIZER_HELP}
  --mcp "<cmd> [args]"  read the tools of a live MCP server (stdio) instead of a file
  --mcp-timeout <ms>    time allowed for the MCP server (default: 10000)
  --env KEY=VALUE       set a variable in the MCP server's environment (repeatable); the server
                        inherits this environment otherwise, all of it
${INPUT_HELP}
  --quiet               do not print warnings
  --verbose             print every warning (else 20 of each code, then how many more)
  -h, --help            this help
Render options, as for 'harmony-catalog render' (see its --help): --instructions, --namespace,
  --date, --effort, --identity, --cutoff, --browser, --python, --server, --model, --template,
  --special, --template-kwarg, and the target/flavor options.

--format json prints {"tools": [{"name", "parameters", "tokens", "findings"}],
"totals": {"system"?, "developer"?, "catalog", "prompt"?}, "tokenizer": {"name", "path"?,
"sha256"?, "from", "exact", "wanted"?}, "diagnostics": [every input warning]} (with --show each
tool also has "text"); "system" and "developer" only for gpt-oss, "exact": false for an estimate.
Colours are used only on a terminal, never when NO_COLOR is set.
Exit codes: 0 listed, 1 the input cannot be rendered or the catalog is over --max-tokens, 2 usage error.
`;

// The render options of `render`, without those that make no sense here (a part, jsonl cases, a final newline).
const { part: _part, jsonl: _jsonl, help: _help, newline: _newline, ...RENDER_ONLY } = RENDER_OPTIONS;

const OPTIONS = {
  ...RENDER_ONLY,
  sort: { type: 'string' },
  show: { type: 'boolean' },
  format: { type: 'string' },
  'max-tokens': { type: 'string' },
  tokenizer: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const SORTS = ['input', 'tokens', 'name'] as const;
const FORMATS = ['text', 'json', 'markdown'] as const;
type Sort = (typeof SORTS)[number];
type Format = (typeof FORMATS)[number];

/** Run `dump`. */
export async function dumpCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const display = { verbose: false, command: 'dump' };
  return guard(io, async () => {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS, 'dump');
    display.verbose = Boolean(values.verbose);
    if (values.help) {
      io.stdout(DUMP_HELP);
      return 0;
    }
    const sort = oneOf('--sort', values.sort ?? 'input', SORTS);
    const format = oneOf('--format', values.format ?? 'text', FORMATS);
    const max = values['max-tokens'];
    if (max !== undefined && !/^\d+$/.test(max)) throw new UsageError(`--max-tokens must be a whole number of tokens, not ${JSON.stringify(max)}`);
    const { part: _p, ...given } = partOptionsFrom(values);
    const loaded = await loadToolsArg(positionals[0], values.mcp, io, mcpOptionsFrom(values, io), maxInputBytesFrom(values));
    // a request body: its function tools, and its conversation and options for the whole prompt
    const body = typeof loaded.input === 'string' && isRequestBody(loaded.input) ? readRequestBody(parseJson(loaded.input.replace(/^\uFEFF/, ''))) : undefined;
    const tokenizer = tokenizerArg(values.tokenizer) ?? templateTokenizer(values.template);
    const counting = { ...(tokenizer !== undefined ? { tokenizer } : {}), hubCache: { env: io.env } };
    const options: InventoryOptions = { ...(body ? { ...given, ...requestOptions(body) } : given), ...counting };

    const progress = progressLine('dump', { eager: typeof loaded.input === 'string' && loaded.input.length >= LONG_INPUT });
    progress.update('counting tokens and linting');
    const counted = await inventory(toolsOfInput(loaded.input), options).finally(() => progress.end());
    // the whole prompt is left out when it cannot be rendered (the chat template with no message), but not when the options do not go together
    if (isUsageCompileError(counted.promptError)) throw counted.promptError;
    const none = counted.tools.length === 0 ? noToolsWarning(inputName(loaded.source), 'there is nothing to count') : undefined;
    const inv = none ? { ...counted, diagnostics: [none, ...counted.diagnostics] } : counted;
    if (!values.quiet) printDiagnostics(inv.diagnostics, io, 'warning', display);
    const rows = sortRows(inv.tools, sort);
    const color = useColor(io);
    const show = Boolean(values.show);
    const model = values.model;
    io.stdout(format === 'json' ? formatJson(inv, rows, show) : format === 'markdown' ? formatMarkdown(inv, rows, show, model) : formatText(inv, rows, show, color, model));
    if (max !== undefined && inv.totals.catalog > Number(max)) {
      io.stderr(`${paint(color, RED, `harmony-catalog: over budget: the catalog is ${inv.totals.catalog} tokens${tokensLabel(inv)}, more than --max-tokens ${max}`)}\n`);
      return 1;
    }
    return 0;
  }, display);
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) throw new UsageError(`${flag} must be one of ${allowed.join(', ')}, not ${JSON.stringify(value)}`);
  return value as T;
}

/** Rows in the asked order (ties keep the input order). */
export function sortRows(tools: readonly InventoryTool[], sort: Sort): InventoryTool[] {
  const rows = [...tools];
  if (sort === 'tokens') rows.sort((a, b) => b.tokens - a.tokens);
  if (sort === 'name') rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return rows;
}

// ---------------------------------------------------------------------------------------
// Colours: only on a terminal, never with NO_COLOR (https://no-color.org: set and not empty)

const BOLD = [1, 22] as const;
const DIM = [2, 22] as const;
const RED = [31, 39] as const;
const YELLOW = [33, 39] as const;

function useColor(io: CliIo): boolean {
  const no = io.env.NO_COLOR;
  return io.isTTY && (no === undefined || no === '');
}

function paint(on: boolean, [open, close]: readonly [number, number], s: string): string {
  return on ? `\u001b[${open}m${s}\u001b[${close}m` : s;
}

// ---------------------------------------------------------------------------------------
// Formats

/** The rendering of a tool as shown: its catalog text without the blank lines around it. */
function shown(tool: InventoryTool): string {
  return tool.text.replace(/^\n+|\n+$/g, '');
}

function findingLine(f: InventoryTool['findings'][number]): string {
  return `${formatDiagnostic(f)}${f.flavor !== undefined ? ` (${f.flavor})` : ''}`;
}

/** ` (o200k estimate)` or ` (counted with NAME)` after a count; nothing for gpt-oss's own o200k_harmony. */
function tokensLabel(inv: Inventory): string {
  const t = inv.tokenizer;
  if (!t.exact) return ' (an o200k estimate)';
  return t.name === 'o200k_harmony' ? '' : ` (counted with ${t.name})`;
}

/** The totals of the parts the layout has: `system 64, developer 101, catalog 97` and the whole prompt. */
function totalsList(inv: Inventory, sep: string, prompt: string): string {
  const t = inv.totals;
  const parts = [...(t.system !== undefined ? [`system ${t.system}`] : []), ...(t.developer !== undefined ? [`developer ${t.developer}`] : []), `catalog ${t.catalog}`];
  return `${parts.join(sep)}${t.prompt !== undefined ? `${prompt}the whole prompt ${t.prompt}` : ''}`;
}

/** A text table with the totals under it. */
export function formatText(inv: Inventory, rows: readonly InventoryTool[], show: boolean, color = false, model?: string): string {
  const exact = inv.tokenizer.exact;
  const head = ['tool', 'params', exact ? 'tokens' : 'est. tokens', 'findings'];
  const cells = rows.map((t) => [t.name, String(t.parameters), String(t.tokens), String(t.findings.length)]);
  const width = head.map((h, k) => maxOf(cells.map((c) => c[k].length), h.length));
  const line = (c: readonly string[]) => c.map((x, k) => (k === 0 ? x.padEnd(width[k]) : x.padStart(width[k]))).join('  ').trimEnd();
  const out: string[] = [paint(color, BOLD, line(head))];
  cells.forEach((c, i) => {
    const text = line(c);
    out.push(rows[i].findings.length ? paint(color, YELLOW, text) : text);
  });
  const n = inv.tools.length;
  out.push('');
  out.push(`${n} tool${n === 1 ? '' : 's'}; tokens (${countedWith(inv.tokenizer)}): ${totalsList(inv, ', ', '; ')}`);
  const overhead = inv.totals.catalog - inv.tools.reduce((a, t) => a + t.tokens, 0);
  const how = inv.totals.system !== undefined ? 'messages counted whole, <|start|> to <|end|>' : 'the catalog is its share of the whole prompt';
  out.push(paint(color, DIM, `(${how}; catalog text outside any tool: ${overhead})`));
  const note = tokenizerNote(inv.tokenizer, model);
  if (note !== undefined) out.push(paint(color, DIM, `(${note})`));
  const findings = rows.flatMap((t) => t.findings.map(findingLine));
  if (findings.length) pushAll(out, ['', paint(color, BOLD, 'findings:')], findings.map((f) => `  ${f}`));
  if (show) for (const t of rows) out.push('', paint(color, BOLD, `── ${t.name} (${t.tokens} ${exact ? 'tokens' : 'tokens, an o200k estimate'}) ──`), shown(t));
  return `${out.join('\n')}\n`;
}

/** `{"tools": [...], "totals": {...}, "tokenizer": {...}, "diagnostics": [...]}`: every input diagnostic, however many. */
export function formatJson(inv: Inventory, rows: readonly InventoryTool[], show: boolean): string {
  const tools = rows.map((t) => ({ name: t.name, parameters: t.parameters, tokens: t.tokens, findings: t.findings, ...(show ? { text: t.text } : {}) }));
  return `${JSON.stringify({ tools, totals: inv.totals, tokenizer: inv.tokenizer, diagnostics: inv.diagnostics }, null, 2)}\n`;
}

function mdCell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/`/g, '\\`').replace(/\n/g, ' ');
}

/** A GitHub-flavoured Markdown table, the totals, and with --show a fenced block per tool. */
export function formatMarkdown(inv: Inventory, rows: readonly InventoryTool[], show: boolean, model?: string): string {
  const exact = inv.tokenizer.exact;
  const out = [`| tool | parameters | ${exact ? 'tokens' : 'est. tokens'} | findings |`, '| --- | ---: | ---: | ---: |'];
  for (const t of rows) out.push(`| ${mdCell(t.name)} | ${t.parameters} | ${t.tokens} | ${t.findings.length} |`);
  const what = inv.tokenizer.name === 'o200k_harmony' ? (exact ? 'o200k_harmony tokens' : 'o200k estimates') : `tokens of ${mdCell(inv.tokenizer.name)}`;
  out.push('', `**Totals** (${what}): ${totalsList(inv, ' · ', ' · ')}`);
  const note = tokenizerNote(inv.tokenizer, model);
  if (note !== undefined) out.push('', `_${mdCell(note)}_`);
  const findings = rows.flatMap((t) => t.findings.map(findingLine));
  if (findings.length) pushAll(out, ['', '**Findings**', ''], findings.map((f) => `- ${mdCell(f)}`));
  if (show) {
    for (const t of rows) {
      const text = shown(t);
      const fence = '`'.repeat(maxOf([...text.matchAll(/`{3,}/g)].map((m) => m[0].length + 1), 3));
      out.push('', `### ${mdCell(t.name)} (${t.tokens} ${exact ? 'tokens' : 'tokens, an o200k estimate'})`, '', fence, text, fence);
    }
  }
  return `${out.join('\n')}\n`;
}

/** The render options a request body carries: its messages (in their shape), reasoning effort, tool choice and instructions. */
function requestOptions(body: NonNullable<ReturnType<typeof readRequestBody>>): Partial<InventoryOptions> {
  const c = body.conversation;
  const instructions = typeof c.instructions === 'string' ? c.instructions : undefined;
  return {
    messages: c.items as JsonValue[] as never,
    messageFormat: c.format,
    ...(typeof body.effort === 'string' ? { effort: body.effort as InventoryOptions['effort'] } : {}),
    ...(body.toolChoice !== undefined ? { toolChoice: body.toolChoice } : {}),
    ...(instructions !== undefined ? { instructions } : {}),
  };
}
