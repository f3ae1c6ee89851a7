/**
 * Differential test of the template servers against ../shared/oracles/conversations:
 *
 * - `transformers` on the 153 conversations of inputs.jsonl vs expected-chat-template.jsonl (the
 *   official template under real Jinja2: a prompt byte for byte, or the same Jinja2 error text);
 * - `llama.cpp` and `mlx-lm` on the 30 rows of servers-derived.jsonl (derived from the servers'
 *   code, not run on them: reported apart, with the rows where we follow the code rather than the
 *   derivation listed below with the reason).
 *
 * Each set prints `N/M exact`. A row is exact when the prompt is byte-identical, or when both
 * refuse: the oracle's error text must then appear in our error message (template errors quote
 * Jinja2 word for word; llama.cpp and mlx-lm errors quote the server's message), except the
 * error texts listed below.
 */
import { describe, expect, it } from 'vitest';
import { renderTemplateServer, type TemplateServer } from '../../src/conversation/template.js';
import type { ServerRequest } from '../../src/conversation/types.js';
import { isCompileError, type CompileError } from '../../src/diagnostics.js';
import { readTools } from '../../src/input/read.js';
import { getKey, isJsonArray, type JsonValue } from '../../src/ir/json.js';
import { lowerTool } from '../../src/lower/index.js';
import { HAVE_SHARED, readJsonl, readJsonlPlain, sharedMissingNote, sharedPath } from '../support/shared.js';

/** Rows where we differ from the oracle on purpose: id → why. */
const KNOWN_DIVERGENCES: Record<TemplateServer, Record<string, string>> = {
  transformers: {
    G203_tool_type_not_function:
      'a tool `{"type": "web_search_preview"}` has no function: the input stage (readTools) refuses it before any server profile runs, so we never reach the template, which fails at `tool.function` (UndefinedError)',
  },
  'llama.cpp': {
    C19_tool_call_with_thinking:
      'the derivation keeps the client `thinking`; llama.cpp rebuilds each message from what common_chat_msgs_parse_oaicompat read (role, content, reasoning_content, name, tool_call_id, tool_calls), so `thinking` never reaches the template (spec A.4: "Not read: reasoning, thinking"): no analysis is printed',
    C22_tool_call_preamble_and_thinking:
      'same cause as C19: `thinking` is not read by llama.cpp, so the template sees content beside the tool call and no thinking, and prints the content as analysis instead of raising "Cannot pass both content and thinking"',
    C36_channel_tags_in_content:
      'llama.cpp patches the template (common_chat_templates_init, "temporary hack", PR #15230): the `<|channel|>` test on `content` becomes `{%- if false %}`, so the content is printed instead of raising the TemplateError the derivation (plain Jinja2) gives',
  },
  'mlx-lm': {},
};

/** Refusals whose oracle text is not the server's message (both sides refuse: counted exact, the text is not compared): id → why. */
const ERROR_TEXT_DIFFERS: Record<TemplateServer, Record<string, string>> = {
  transformers: {},
  'llama.cpp': {
    C32_arguments_empty_string:
      'the derivation quotes Python\'s JSONDecodeError; llama.cpp parses with nlohmann::json and says "Failed to parse tool call arguments as JSON: [json.exception.parse_error.101] …"',
    C39_user_image_part:
      'the derivation quotes common_chat_msgs_parse_oaicompat ("Unsupported content part type"); the server checks first (oaicompat_chat_params_parse) and, with no multimodal projector (gpt-oss has none), refuses with "image input is not supported - hint: …"',
  },
  'mlx-lm': {},
};

interface InputRow {
  id: string;
  messages: JsonValue;
  tools?: JsonValue;
  options?: JsonValue;
}

interface ExpectedRow {
  id: string;
  prompt?: string;
  error?: string;
}

/** The request a server profile reads: messages as given, tools read and lowered (as the API compiles them). */
function requestOf(messages: JsonValue, tools: JsonValue | undefined, options: { date?: string; effort?: JsonValue; builtinTools?: JsonValue; toolChoice?: JsonValue }): ServerRequest {
  const items = isJsonArray(messages) ? messages : [];
  const definitions = tools === undefined ? [] : readTools(tools).tools;
  const builtins = isJsonArray(options.builtinTools) ? options.builtinTools.filter((b): b is 'browser' | 'python' => b === 'browser' || b === 'python') : undefined;
  return {
    conversation: { format: 'chat', items, pointers: items.map((_, k) => `/messages/${k}`) },
    tools: { definitions, tools: definitions.map((d) => lowerTool(d).tool) },
    toolsGiven: tools === undefined ? 'absent' : isJsonArray(tools) && tools.length === 0 ? 'empty' : 'some',
    ...(options.effort !== undefined ? { effort: options.effort } : {}),
    ...(options.date !== undefined ? { date: options.date } : {}),
    ...(builtins !== undefined ? { builtinTools: builtins } : {}),
    ...(options.toolChoice !== undefined ? { toolChoice: options.toolChoice } : {}),
  };
}

/** A profile run: the prompt, the CompileError it threw, or the input stage's refusal (the request never reached the profile). */
function run(server: TemplateServer, build: () => ServerRequest): { text?: string; error?: CompileError; inputRefused?: CompileError } {
  let request: ServerRequest;
  try {
    request = build();
  } catch (e) {
    if (isCompileError(e)) return { inputRefused: e };
    throw e;
  }
  try {
    return { text: renderTemplateServer(server, request).text };
  } catch (e) {
    if (isCompileError(e)) return { error: e };
    throw e;
  }
}

/** Compare one set: every row exact, or a known divergence; prints `N/M exact`. */
function compare(label: string, server: TemplateServer, rows: { id: string; build: () => ServerRequest; want: ExpectedRow }[]): void {
  let exact = 0;
  let refusals = 0;
  let sameText = 0;
  const diverging: string[] = [];
  const textDiffers: string[] = [];
  const known = KNOWN_DIVERGENCES[server];
  for (const { id, build, want } of rows) {
    const got = run(server, build);
    let ok: boolean;
    if (want.error !== undefined) {
      refusals++;
      const first = got.error?.diagnostics.find((d) => d.severity === 'error');
      ok = first !== undefined;
      // the oracle writes `{Type}: {message}`; llama.cpp's own messages carry no Python type
      const text = server === 'llama.cpp' ? want.error.replace(/^[A-Za-z]+Error: /, '') : want.error;
      if (ok && first!.message.includes(text)) sameText++;
      else if (ok && !(id in ERROR_TEXT_DIFFERS[server])) textDiffers.push(`${id}: want ${want.error} / got ${first!.message}`);
    } else ok = got.text === want.prompt;
    if (ok) exact++;
    else if (!(id in known)) diverging.push(`${id}: ${got.error?.message ?? got.inputRefused?.message ?? 'prompt differs'}`);
  }
  const missing = Object.keys(known).filter((id) => !rows.some((r) => r.id === id));
  console.log(`${label} ${server}: ${exact}/${rows.length} exact (${sameText}/${refusals} refusals quoted word for word; known divergences: ${Object.keys(known).join(', ') || 'none'})`);
  expect(diverging).toEqual([]);
  expect(textDiffers).toEqual([]);
  expect(missing).toEqual([]);
  expect(exact).toBe(rows.length - Object.keys(known).length);
}

if (HAVE_SHARED) {
  describe('template servers vs the conversation oracles', () => {
    const inputs = readJsonl(sharedPath('oracles/conversations/inputs.jsonl')).map((v) => ({
      id: getKey(v, 'id') as string,
      messages: getKey(v, 'messages') as JsonValue,
      tools: getKey(v, 'tools'),
      options: getKey(v, 'options'),
    })) as InputRow[];

    it('transformers: expected-chat-template.jsonl (real Jinja2 on the official template)', () => {
      const want = new Map(readJsonlPlain<ExpectedRow>(sharedPath('oracles/conversations/expected-chat-template.jsonl')).map((r) => [r.id, r]));
      expect(inputs.length).toBe(153);
      const rows = inputs.map((r) => {
        const o = r.options;
        const w = want.get(r.id);
        expect(w, `oracle row for ${r.id}`).toBeDefined();
        return {
          id: r.id,
          want: w!,
          build: () =>
            requestOf(r.messages, r.tools, {
              date: getKey(o, 'date') as string,
              ...(getKey(o, 'reasoning_effort') !== undefined ? { effort: getKey(o, 'reasoning_effort') } : {}),
              ...(getKey(o, 'builtin_tools') !== undefined ? { builtinTools: getKey(o, 'builtin_tools') } : {}),
              ...(getKey(o, 'tool_choice') !== undefined ? { toolChoice: getKey(o, 'tool_choice') } : {}),
            }),
        };
      });
      compare('conversations (Jinja2)', 'transformers', rows);
    });

    const derived = readJsonl(sharedPath('oracles/conversations/servers-derived.jsonl'));
    for (const server of ['llama.cpp', 'mlx-lm'] as const) {
      it(`${server}: servers-derived.jsonl (derived from the server's code, not run on it)`, () => {
        expect(derived.length).toBe(30);
        const rows = derived.map((v) => {
          const w = getKey(v, server);
          return {
            id: getKey(v, 'id') as string,
            want: { id: getKey(v, 'id') as string, ...(typeof getKey(w, 'prompt') === 'string' ? { prompt: getKey(w, 'prompt') as string } : {}), ...(typeof getKey(w, 'error') === 'string' ? { error: getKey(w, 'error') as string } : {}) },
            build: () =>
              requestOf(getKey(v, 'messages') as JsonValue, getKey(v, 'tools'), {
                date: getKey(v, 'date') as string,
                ...(getKey(v, 'reasoning_effort') !== undefined ? { effort: getKey(v, 'reasoning_effort') } : {}),
              }),
          };
        });
        compare('servers-derived', server, rows);
      });
    }
  });
} else {
  describe('template servers vs the conversation oracles (not available)', () => {
    it('says plainly that the oracle comparisons did not run', () => {
      console.warn(sharedMissingNote('template servers (conversations)'));
      expect(HAVE_SHARED).toBe(false);
    });
  });
}
