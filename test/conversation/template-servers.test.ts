/**
 * The template-server profiles (src/conversation/template-servers.ts): what transformers and vLLM hand
 * a model family's official chat template.
 *
 * Differential part, against ../shared/oracles/family-conversations: for each of the 89 request cases
 * of inputs.jsonl and both content formats, the `messages` and `tools` vLLM hands the template must be
 * byte-identical to vllm-template-inputs.jsonl when both are written by the same lossless serialiser
 * (Python's json.dumps layout, key order kept; the oracle file itself is written that way, checked
 * below), and every request vLLM refuses must be refused with the oracle's text word for word, in
 * vllm-template-inputs.jsonl and in every template's vllm.jsonl (`ValidationError: …` and
 * `VLLMValidationError: …` rows are refusals before any template runs: the same for every template).
 * Prints `vllm template inputs (string): N/M exact`, `(openai): N/M exact`, `refusals: N/M exact`.
 *
 * Unit part: the warnings (code and pointer) and the refusals vLLM's rules give, and the transformers
 * profile (as given, no warnings).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { templateServerInput, type TemplateContentFormat, type TemplateServerInput, type TemplateServerOutput } from '../../src/conversation/template-servers.js';
import { isCompileError, type Diagnostic } from '../../src/diagnostics.js';
import { fromJs, getKey, isJsonArray, parseJson, stringifyPython, type JsonValue } from '../../src/ir/json.js';
import { HAVE_SHARED, readJsonl, sharedMissingNote, sharedPath } from '../support/shared.js';

/** The prefix every refusal message starts with; vLLM's own text follows it. */
const REFUSED = 'vLLM refuses this request: ';

/** Cases where we differ from the oracle on purpose: id → why (none). */
const KNOWN_DIVERGENCES: Record<string, string> = {};

/** One vLLM run: what the template gets, or the refusal text (without our prefix) and its diagnostic. */
function runVllm(input: TemplateServerInput, format: TemplateContentFormat): { out?: TemplateServerOutput; refused?: string; error?: Diagnostic } {
  try {
    return { out: templateServerInput('vllm', input, format) };
  } catch (e) {
    if (!isCompileError(e)) throw e;
    const d = e.diagnostics.find((x) => x.severity === 'error');
    if (d === undefined) throw e;
    return { refused: d.message.startsWith(REFUSED) ? d.message.slice(REFUSED.length) : d.message, error: d };
  }
}

/** A request from plain JavaScript values (lossless JSON). */
function req(messages: unknown, tools?: unknown): TemplateServerInput {
  return { messages: fromJs(messages), ...(tools !== undefined ? { tools: fromJs(tools) } : {}) };
}

/** The output as plain JSON text, Python's layout (key order kept). */
const text = (v: JsonValue): string => stringifyPython(v);

/** The warnings of a run as `code path` lines. */
const warnings = (out: TemplateServerOutput): string[] => out.diagnostics.map((d) => `${d.code} ${d.path}`);

const FAMILY = 'oracles/family-conversations';

if (HAVE_SHARED) {
  describe('vLLM template inputs vs ../shared/oracles/family-conversations', () => {
    const inputs = readJsonl(sharedPath(FAMILY, 'inputs.jsonl'));
    const expectedLines = readFileSync(sharedPath(FAMILY, 'vllm-template-inputs.jsonl'), 'utf8').split('\n').filter((l) => l.trim() !== '');
    const expected = expectedLines.map((l) => parseJson(l));
    const caseInput = (v: JsonValue): TemplateServerInput => {
      const tools = getKey(v, 'tools');
      return { messages: getKey(v, 'messages') as JsonValue, ...(tools !== undefined ? { tools } : {}) };
    };

    it('the oracle file is written as our serialiser writes it (so equal text is byte-for-byte equality)', () => {
      expect(inputs.length).toBe(89);
      expect(expected.length).toBe(89);
      expect(expectedLines.filter((l) => text(parseJson(l)) !== l)).toEqual([]);
    });

    for (const format of ['string', 'openai'] as const) {
      it(`messages and tools for the "${format}" content format`, () => {
        let exact = 0;
        const diverging: string[] = [];
        inputs.forEach((v, i) => {
          const id = getKey(v, 'id') as string;
          const want = getKey(expected[i], format);
          expect(getKey(expected[i], 'id')).toBe(id);
          const got = runVllm(caseInput(v), format);
          const wantError = getKey(want, 'error');
          let why: string | undefined;
          if (typeof wantError === 'string') {
            if (got.refused === undefined) why = `vLLM refuses (${wantError}), we do not`;
            else if (got.refused !== wantError) why = `refusal text differs: want ${wantError} / got ${got.refused}`;
          } else if (got.out === undefined) why = `we refuse (${got.refused}), vLLM does not`;
          else if (text(got.out.messages) !== text(getKey(want, 'messages') as JsonValue)) why = `messages differ:\n  want ${text(getKey(want, 'messages') as JsonValue)}\n  got  ${text(got.out.messages)}`;
          else if (text(got.out.tools) !== text(getKey(want, 'tools') as JsonValue)) why = `tools differ:\n  want ${text(getKey(want, 'tools') as JsonValue)}\n  got  ${text(got.out.tools)}`;
          if (why === undefined) exact++;
          else if (!(id in KNOWN_DIVERGENCES)) diverging.push(`${id}: ${why}`);
        });
        console.log(`vllm template inputs (${format}): ${exact}/${inputs.length} exact${diverging.length ? `\n${diverging.join('\n')}` : ''}`);
        expect(diverging).toEqual([]);
        expect(exact).toBe(inputs.length - Object.keys(KNOWN_DIVERGENCES).length);
      });
    }

    it('refusals: vllm-template-inputs.jsonl and every template’s vllm.jsonl, word for word', () => {
      const byId = new Map(inputs.map((v) => [getKey(v, 'id') as string, v]));
      const rows: { where: string; id: string; want: string; format: TemplateContentFormat }[] = [];
      expected.forEach((row) => {
        for (const format of ['string', 'openai'] as const) {
          const e = getKey(getKey(row, format), 'error');
          if (typeof e === 'string') rows.push({ where: 'vllm-template-inputs.jsonl', id: getKey(row, 'id') as string, want: e, format });
        }
      });
      const templates = readdirSync(sharedPath(FAMILY), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
      expect(templates.length).toBe(25);
      let templateErrors = 0;
      for (const t of templates) {
        for (const row of readJsonl(sharedPath(FAMILY, t, 'vllm.jsonl'))) {
          const e = getKey(row, 'error');
          if (typeof e !== 'string') continue;
          // ValidationError / VLLMValidationError: refused before the template; the rest are the template's own errors
          if (/^(?:ValidationError|VLLMValidationError): /.test(e)) rows.push({ where: `${t}/vllm.jsonl`, id: getKey(row, 'id') as string, want: e, format: 'string' });
          else templateErrors++;
        }
      }
      let exact = 0;
      const diverging: string[] = [];
      for (const r of rows) {
        const input = byId.get(r.id);
        expect(input, r.id).toBeDefined();
        const got = runVllm(caseInput(input!), r.format);
        if (got.refused === r.want) exact++;
        else diverging.push(`${r.where} ${r.id}: want ${r.want} / got ${got.refused ?? 'no refusal'}`);
      }
      console.log(`refusals: ${exact}/${rows.length} exact (${templateErrors} other vllm.jsonl errors are the templates' own, raised after the preprocessing)`);
      expect(diverging).toEqual([]);
      expect(rows.length).toBe(54 + 25 * 27);
      expect(exact).toBe(rows.length);
    });
  });
} else {
  describe('vLLM template inputs vs ../shared/oracles/family-conversations (not available)', () => {
    it('says plainly that the oracle comparisons did not run', () => {
      console.warn(sharedMissingNote('template servers (family conversations)'));
      expect(HAVE_SHARED).toBe(false);
    });
  });
}

// ---------------------------------------------------------------------------------------
// Unit tests

const SYSTEM = { role: 'system', content: 'Be brief.' };
const USER = { role: 'user', content: 'Weather in Paris?' };
const CALL = { id: 'abcDEF123', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } };
const RESULT = { role: 'tool', tool_call_id: 'abcDEF123', content: '{"t": 18}' };
const TOOL = { type: 'function', function: { name: 'get_weather', description: 'Weather.', parameters: { type: 'object', properties: { location: { type: 'string' } } } } };

describe('transformers: the messages and tools as given', () => {
  it('hands the template the very values, tools null when absent, no warnings', () => {
    const input = req([SYSTEM, USER, { role: 'assistant', content: null, reasoning_content: 'x', tool_calls: [{ ...CALL, function: { name: 'f', arguments: { a: 1 } } }] }, RESULT], [TOOL]);
    const out = templateServerInput('transformers', input, 'openai');
    expect(out.messages).toBe(input.messages);
    expect(out.tools).toBe(input.tools);
    expect(out.diagnostics).toEqual([]);
    expect([...out.kwargs]).toEqual([
      ['add_generation_prompt', true],
      ['documents', null],
    ]);
    expect(templateServerInput('transformers', req([USER]), 'string').tools).toBeNull();
  });
});

describe('vLLM: what the template gets', () => {
  it('a plain string-argument loop: arguments parsed, calls in pydantic field order, only add_generation_prompt', () => {
    const out = templateServerInput('vllm', req([SYSTEM, USER, { role: 'assistant', content: null, tool_calls: [CALL] }, RESULT], [TOOL]), 'string');
    expect(text(out.messages)).toBe(
      text(
        fromJs([
          SYSTEM,
          USER,
          { role: 'assistant', content: '', tool_calls: [{ id: 'abcDEF123', function: { arguments: { location: 'Paris' }, name: 'get_weather' }, type: 'function' }] },
          { role: 'tool', content: '{"t": 18}', tool_call_id: 'abcDEF123' },
        ]),
      ),
    );
    expect(text(out.tools)).toBe(text(fromJs([TOOL])));
    expect([...out.kwargs]).toEqual([['add_generation_prompt', true]]);
    expect(warnings(out)).toEqual(['conversation/content-null /messages/2/content', 'conversation/arguments-parsed /messages/2/tool_calls']);
  });

  it('openai format: strings wrapped (one warning for the conversation), null → [], tool content stays a string', () => {
    const out = templateServerInput('vllm', req([SYSTEM, USER, { role: 'assistant', content: null, tool_calls: [CALL] }, RESULT], [TOOL]), 'openai');
    const m = out.messages as readonly JsonValue[];
    expect(text(m[0])).toBe('{"role": "system", "content": [{"type": "text", "text": "Be brief."}]}');
    expect(text(getKey(m[2], 'content') as JsonValue)).toBe('[]');
    expect(getKey(m[3], 'content')).toBe('{"t": 18}');
    expect(warnings(out)).toEqual(['conversation/content-null /messages/2/content', 'conversation/content-wrapped /messages', 'conversation/arguments-parsed /messages/2/tool_calls']);
  });

  it('reasoning_content is renamed and set twice; reasoning is copied; reasoning wins over a different reasoning_content', () => {
    const a = (extra: object) => ({ role: 'assistant', content: 'ok', ...extra });
    const out = templateServerInput('vllm', req([USER, a({ reasoning_content: 'R1' }), USER, a({ reasoning: 'R2' }), USER, a({ reasoning: 'R3', reasoning_content: 'other' }), USER, a({ reasoning_content: null })]), 'string');
    const m = out.messages as readonly JsonValue[];
    expect(text(m[1])).toBe('{"role": "assistant", "content": "ok", "reasoning": "R1", "reasoning_content": "R1"}');
    expect(text(m[3])).toBe('{"role": "assistant", "content": "ok", "reasoning": "R2", "reasoning_content": "R2"}');
    expect(text(m[5])).toBe('{"role": "assistant", "content": "ok", "reasoning": "R3", "reasoning_content": "R3"}');
    expect(text(m[7])).toBe('{"role": "assistant", "content": "ok"}');
    expect(warnings(out)).toEqual([
      'conversation/reasoning-content-renamed /messages/1/reasoning_content',
      'conversation/reasoning-copied /messages/3/reasoning',
      'conversation/ignored-field /messages/5/reasoning_content',
      'conversation/ignored-field /messages/7/reasoning_content',
    ]);
  });

  it('reasoning on a user message, a non-string name, tool_call_id off a tool message and unknown keys are dropped: one warning per message', () => {
    const out = templateServerInput('vllm', req([{ role: 'user', content: 'hi', reasoning: 'r', extra: 1 }, { role: 'assistant', content: 'a', tool_call_id: 'x' }, { role: 'tool', tool_call_id: 'x', name: 5, content: 'r' }]), 'string');
    expect(text(out.messages)).toBe('[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "a"}, {"role": "tool", "content": "r", "tool_call_id": "x"}]');
    expect(warnings(out)).toEqual(['conversation/ignored-field /messages/0', 'conversation/ignored-field /messages/1/tool_call_id', 'conversation/ignored-field /messages/2/name']);
  });

  it('a string name is kept; tool messages keep tool_call_id', () => {
    const out = templateServerInput('vllm', req([{ role: 'user', content: 'hi', name: 'Ann' }, { role: 'tool', name: 'get_weather', content: 'r' }]), 'string');
    expect(text(out.messages)).toBe('[{"role": "user", "content": "hi", "name": "Ann"}, {"role": "tool", "content": "r", "name": "get_weather"}]');
    expect(out.diagnostics).toEqual([]);
  });

  it('arguments: "" and invalid JSON become {} (a warning at the arguments), valid JSON that is not an object is kept as vLLM\'s code keeps it', () => {
    const call = (id: string, args: string) => ({ id, type: 'function', function: { name: 'f', arguments: args } });
    const out = templateServerInput('vllm', req([USER, { role: 'assistant', content: null, tool_calls: [call('a', ''), call('b', '{"x": 1'), call('c', '[1, 2]'), call('d', '{"n": 1e2, "m": 5}')] }]), 'string');
    const calls = getKey((out.messages as readonly JsonValue[])[1], 'tool_calls') as readonly JsonValue[];
    expect(calls.map((c) => text(getKey(getKey(c, 'function'), 'arguments') as JsonValue))).toEqual(['{}', '{}', '[1, 2]', '{"n": 100.0, "m": 5}']);
    expect(warnings(out)).toEqual([
      'conversation/content-null /messages/1/content',
      'conversation/arguments-replaced /messages/1/tool_calls/0/function/arguments',
      'conversation/arguments-replaced /messages/1/tool_calls/1/function/arguments',
      'conversation/arguments-parsed /messages/1/tool_calls',
    ]);
    expect(out.diagnostics[1].message).toContain('Expecting value: line 1 column 1 (char 0)');
  });

  it('an empty tool_calls list is removed, tool_calls null left out, extra call keys dropped', () => {
    const out = templateServerInput('vllm', req([USER, { role: 'assistant', content: 'a', tool_calls: [] }, USER, { role: 'assistant', content: 'b', tool_calls: null }, USER, { role: 'assistant', content: 'c', tool_calls: [{ ...CALL, index: 0 }] }]), 'string');
    const m = out.messages as readonly JsonValue[];
    expect(text(m[1])).toBe('{"role": "assistant", "content": "a"}');
    expect(text(m[3])).toBe('{"role": "assistant", "content": "b"}');
    expect(text(getKey(m[5], 'tool_calls') as JsonValue)).toBe('[{"id": "abcDEF123", "function": {"arguments": {"location": "Paris"}, "name": "get_weather"}, "type": "function"}]');
    expect(warnings(out)).toEqual(['conversation/ignored-field /messages/3/tool_calls', 'conversation/ignored-field /messages/5/tool_calls/0/index', 'conversation/ignored-field /messages/1/tool_calls', 'conversation/arguments-parsed /messages/5/tool_calls']);
  });

  it('content parts: joined with "\\n" (string), text dicts (openai), a tool message always a string, a text part without text skipped', () => {
    const parts = [{ type: 'text', text: 'a' }, 'b', { type: 'input_text', text: 'c', extra: 1 }, { type: 'text', text: null }];
    const input = req([{ role: 'user', content: parts }, { role: 'tool', tool_call_id: 'x', content: [{ type: 'text', text: 'r1' }, { type: 'text', text: 'r2' }] }]);
    const s = templateServerInput('vllm', input, 'string');
    expect(text(s.messages)).toBe('[{"role": "user", "content": "a\\nb\\nc"}, {"role": "tool", "content": "r1\\nr2", "tool_call_id": "x"}]');
    expect(warnings(s)).toEqual(['conversation/content-part-dropped /messages/0/content/3', 'conversation/content-flattened /messages/0/content', 'conversation/content-flattened /messages/1/content']);
    const o = templateServerInput('vllm', input, 'openai');
    expect(text(o.messages)).toBe('[{"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}, {"type": "text", "text": "c"}]}, {"role": "tool", "content": "r1\\nr2", "tool_call_id": "x"}]');
    expect(warnings(o)).toEqual(['conversation/content-part-dropped /messages/0/content/3', 'conversation/content-parts-rewritten /messages/0/content', 'conversation/content-flattened /messages/1/content']);
  });

  it('tools: re-dumped as {type, function: {name, description, parameters, strict?}}, unknown keys dropped, missing ones null', () => {
    const out = templateServerInput('vllm', req([USER], [{ function: { parameters: { type: 'object' }, name: 'a', extra: 1 }, x: 2 }, { type: 'function', function: { name: 'b', description: 'd', parameters: {}, strict: 'true' } }]), 'string');
    expect(text(out.tools)).toBe('[{"type": "function", "function": {"name": "a", "description": null, "parameters": {"type": "object"}}}, {"type": "function", "function": {"name": "b", "description": "d", "parameters": {}, "strict": true}}]');
    expect(warnings(out)).toEqual(['conversation/ignored-field /tools/0', 'conversation/tool-defaulted /tools/0', 'conversation/tool-rewritten /tools/0', 'conversation/tool-rewritten /tools/1']);
  });

  it('pointers follow messagesPointer and toolsPointer', () => {
    const out = templateServerInput('vllm', { messages: fromJs([USER, { role: 'assistant', content: null, tool_calls: [CALL] }]), tools: fromJs([{ type: 'function', function: { name: 'f' } }]), messagesPointer: '/body/messages', toolsPointer: '/body/tools' }, 'string');
    expect(warnings(out)).toEqual(['conversation/content-null /body/messages/1/content', 'conversation/arguments-parsed /body/messages/1/tool_calls', 'conversation/tool-defaulted /body/tools/0/function']);
  });
});

describe('vLLM: refusals, in its own words', () => {
  const refused = (input: TemplateServerInput, format: TemplateContentFormat = 'string') => {
    const r = runVllm(input, format);
    expect(r.out).toBeUndefined();
    expect(r.error?.code).toBe('conversation/refused');
    return { text: r.refused, path: r.error?.path };
  };
  const withCall = (call: unknown) => req([USER, { role: 'assistant', content: null, tool_calls: [{ ...CALL, id: 'ok1' }, call] }]);

  it('tool calls: pydantic\'s union errors of the first bad call (function and custom members counted)', () => {
    expect(refused(withCall({ ...CALL, function: { name: 'f', arguments: { a: 1 } } }))).toEqual({ text: 'ValidationError: 3 validation errors for ChatCompletionRequest; first: 1.ChatCompletionMessageFunctionToolCallParam.function.arguments: Input should be a valid string', path: '/messages/1/tool_calls/1' });
    expect(refused(withCall({ type: 'function', function: CALL.function })).text).toBe('ValidationError: 4 validation errors for ChatCompletionRequest; first: 1.ChatCompletionMessageFunctionToolCallParam.id: Field required');
    expect(refused(withCall({ id: 'x', function: CALL.function })).text).toBe('ValidationError: 3 validation errors for ChatCompletionRequest; first: 1.ChatCompletionMessageFunctionToolCallParam.type: Field required');
    expect(refused(withCall('not a call')).text).toBe('ValidationError: 2 validation errors for ChatCompletionRequest; first: 1.ChatCompletionMessageFunctionToolCallParam: Input should be a valid dictionary');
    expect(refused(withCall({ id: 'x', type: 'function', function: { arguments: '{}' } })).text).toBe('ValidationError: 3 validation errors for ChatCompletionRequest; first: 1.ChatCompletionMessageFunctionToolCallParam.function.name: Field required');
  });

  it('tools: an empty list (vLLM\'s check_tool_usage) and pydantic\'s field errors', () => {
    expect(refused(req([USER], []))).toEqual({ text: 'VLLMValidationError: `tools` must not be an empty array. Either provide at least one tool or omit the field entirely. (parameter=tools)', path: '/tools' });
    expect(refused(req([USER], [{ type: 'function', function: { description: 'd' } }]))).toEqual({ text: 'ValidationError: 1 validation error for ChatCompletionRequest; first: tools.0.function.name: Field required', path: '/tools/0/function/name' });
    expect(refused(req([USER], [TOOL, { type: 'custom', custom: {} }])).text).toBe("ValidationError: 2 validation errors for ChatCompletionRequest; first: tools.1.type: Input should be 'function'");
  });

  it('content parts vLLM cannot read', () => {
    expect(refused(req([{ role: 'user', content: [{ type: 'audio', data: 'x' }] }])).text).toBe("VLLMValidationError: Unsupported chat content part type: 'audio'. Supported types: audio_embeds, audio_url, image_embeds, image_pil, image_url, input_audio, input_image, input_text, output_text, prompt_embeds, refusal, text, thinking, tool_reference, video_url. (parameter=type, value=audio)");
    expect(refused(req([{ role: 'user', content: [{ text: 'x' }] }]))).toEqual({ text: "ValueError: Missing 'type' field in multimodal part.", path: '/messages/0/content/0' });
    expect(refused(req([{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'http://x' } }] }])).text).toContain('not emulated');
  });

  it('messages no message type accepts: refused, saying the exact pydantic text is not reproduced', () => {
    for (const m of [{ role: 'user', content: null }, { content: 'x' }, { role: 'assistant', content: null, tool_calls: null }, { role: 'tool', tool_call_id: 'x', content: null }]) {
      const r = refused(req([m]));
      expect(r.path).toBe('/messages/0');
      expect(r.text).toMatch(/^ValidationError \(pydantic's validation of the messages; its exact text, which counts the errors of every message type, is not reproduced\): messages\.0: /);
    }
  });

  it('a custom tool call passes validation, then fails on item["function"] (KeyError)', () => {
    expect(refused(withCall({ id: 'c', type: 'custom', custom: { name: 'f', input: 'x' } }))).toEqual({ text: "KeyError: 'function'", path: '/messages/1/tool_calls/1' });
  });
});
