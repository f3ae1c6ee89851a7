/**
 * Mistral's two syntaxes read strictly (hand-checked cases), the vLLM and SGLang parsers on cases
 * checked against the real Python code, and the family-parse oracle rows of vllm:mistral (the
 * tokenizer chosen by the row's family: mistral_v11 has [ARGS] in its vocabulary) and sglang:mistral.
 */
import { describe, expect, it } from 'vitest';
import { guessMistralTokenizer, readMistral, readMistralV11, sglangMistral, SERVER_PARSERS, SYNTAXES, vllmMistral } from '../../../src/parse/families/mistral.js';
import { HAVE_SHARED, oracleRun } from './oracle-rows.js';
import { brief } from './brief.js';

const tools = [{ name: 'get_weather' }, { name: 'calc' }];

/** A reading in short: each call as `name args [incomplete]`, the content, and the text notes' codes with their index. */

describe('mistral (pre-v11) strict reading', () => {
  it('one call with its id, and the </s> after it', () => {
    const t = '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "a1B2c3D4e"}]</s>';
    const r = readMistral(t, tools);
    expect(brief(t, r)).toEqual({ calls: ['get_weather {"city": "Paris"}'], callNotes: [[]], content: null, notes: [] });
    expect(r.calls[0].start).toBe(13);
    expect(r.consumed).toEqual([[0, t.length]]);
  });
  it('two calls after text, v0.3 writes a space before the array', () => {
    const t = 'Sure.\n\n[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "calc", "arguments": {"x": 1}}]';
    expect(brief(t, readMistral(t, tools))).toEqual({ calls: ['get_weather {"city": "Paris"}', 'calc {"x": 1}'], callNotes: [[], []], content: 'Sure.\n\n', notes: [] });
  });
  it('cut in the second call: the first returned incomplete (no ]), the second dropped as truncated, its text content', () => {
    const t = '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "calc", "arguments": {"x": 1';
    expect(brief(t, readMistral(t, tools))).toEqual({ calls: ['get_weather {"city": "Paris"} [no ]]'], callNotes: [[]], content: '{"name": "calc", "arguments": {"x": 1', notes: ['parse/truncated@70'] });
  });
  it('the output ends after the whole call, before ]: returned incomplete', () => {
    const t = '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}';
    expect(brief(t, readMistral(t, tools))).toEqual({ calls: ['get_weather {"city": "Paris"} [no ]]'], callNotes: [[]], content: null, notes: [] });
  });
  it('cut in the only call: no call, all text content', () => {
    const t = '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Par';
    expect(brief(t, readMistral(t, tools))).toEqual({ calls: [], callNotes: [], content: t, notes: ['parse/truncated@13'] });
  });
  it('invalid JSON in one call: that call dropped (its text stays), the other read', () => {
    const t = `[TOOL_CALLS][{"name": "get_weather", "arguments": {'city': 'Paris'}}, {"name": "calc", "arguments": {"x": 1}}]`;
    const b = brief(t, readMistral(t, tools));
    expect(b.calls).toEqual(['calc {"x": 1}']);
    expect(b.content).toBe(`{"name": "get_weather", "arguments": {'city': 'Paris'}}`);
    expect(b.notes).toEqual(['parse/invalid-json@51']);
  });
  it('a trailing comma breaks the array: no call from it', () => {
    const t = '[TOOL_CALLS][{"name": "calc", "arguments": {}},]';
    expect(brief(t, readMistral(t, tools))).toEqual({ calls: [], callNotes: [], content: t, notes: ['parse/invalid-json@47'] });
  });
  it('arguments as a JSON string, an unknown key: read with notes; a duplicate key noted', () => {
    const t = '[TOOL_CALLS][{"name": "calc", "arguments": "{\\"x\\": 1}", "extra": 1}, {"name": "calc", "arguments": {"x": 1, "x": 2}}]';
    expect(brief(t, readMistral(t, tools))).toEqual({ calls: ['calc {"x": 1}', 'calc {"x": 2}'], callNotes: [['parse/coerced', 'parse/ignored-key'], ['parse/duplicate-parameter:x']], content: null, notes: [] });
  });
  it('text after the calls stays content', () => {
    const t = '[TOOL_CALLS][{"name": "calc", "arguments": {}}]\n\nDone.';
    expect(brief(t, readMistral(t, tools))).toEqual({ calls: ['calc {}'], callNotes: [[]], content: '\n\nDone.', notes: [] });
  });
  it('a plain answer: nothing read, nothing consumed', () => {
    const r = readMistral('The capital of France is Paris.</s>', tools);
    expect(r).toEqual({ calls: [], consumed: [], textNotes: [] });
  });
  it('the v11 form, an empty array, a bare opener: no call, each noted', () => {
    expect(brief('[TOOL_CALLS]calc[ARGS]{}', readMistral('[TOOL_CALLS]calc[ARGS]{}', tools)).notes).toEqual(['parse/wrong-dialect@0']);
    expect(brief('[TOOL_CALLS][]', readMistral('[TOOL_CALLS][]', tools)).notes).toEqual(['parse/empty-tool-call@0']);
    expect(brief('x[TOOL_CALLS]', readMistral('x[TOOL_CALLS]', tools))).toEqual({ calls: [], callNotes: [], content: 'x[TOOL_CALLS]', notes: ['parse/truncated@1'] });
  });
});

describe('mistral-v11 strict reading', () => {
  it('two calls and the </s>', () => {
    const t = '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}[TOOL_CALLS]calc[ARGS]{"x": 1}</s>';
    const r = readMistralV11(t, tools);
    expect(brief(t, r)).toEqual({ calls: ['get_weather {"city": "Paris"}', 'calc {"x": 1}'], callNotes: [[], []], content: null, notes: [] });
    expect(r.calls.map((c) => c.start)).toEqual([0, 46]);
  });
  it('a call id before [ARGS], text before and after', () => {
    const t = 'Let me see.[TOOL_CALLS]get_weather[CALL_ID]a1B2c3D4e[ARGS]{"city": "Paris"}\n\nDone.';
    expect(brief(t, readMistralV11(t, tools))).toEqual({ calls: ['get_weather {"city": "Paris"}'], callNotes: [[]], content: 'Let me see.\n\nDone.', notes: [] });
  });
  it('cut in the second call: the first kept (complete: its JSON closed), the second dropped', () => {
    const t = '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}[TOOL_CALLS]calc[ARGS]{"x": 1';
    expect(brief(t, readMistralV11(t, tools))).toEqual({ calls: ['get_weather {"city": "Paris"}'], callNotes: [[]], content: '[TOOL_CALLS]calc[ARGS]{"x": 1', notes: ['parse/truncated@46'] });
  });
  it('cut in the name, or right after [ARGS]: truncated', () => {
    expect(brief('[TOOL_CALLS]get_wea', readMistralV11('[TOOL_CALLS]get_wea', tools)).notes).toEqual(['parse/truncated@0']);
    expect(brief('[TOOL_CALLS]calc[ARGS]', readMistralV11('[TOOL_CALLS]calc[ARGS]', tools)).notes).toEqual(['parse/truncated@0']);
  });
  it('invalid JSON drops that call only; a duplicate key is noted', () => {
    const t = '[TOOL_CALLS]calc[ARGS]{"x": 1,}[TOOL_CALLS]calc[ARGS]{"x": 2, "x": 3}';
    expect(brief(t, readMistralV11(t, tools))).toEqual({ calls: ['calc {"x": 3}'], callNotes: [['parse/duplicate-parameter:x']], content: '[TOOL_CALLS]calc[ARGS]{"x": 1,}', notes: ['parse/invalid-json@30'] });
  });
  it('the pre-v11 array form, a name with a space, arguments that are no object: no call, noted', () => {
    expect(brief('', readMistralV11('[TOOL_CALLS][{"name": "calc", "arguments": {}}]', tools)).notes).toEqual(['parse/wrong-dialect@0']);
    expect(brief('', readMistralV11('[TOOL_CALLS]bad name[ARGS]{}', tools)).notes).toEqual(['parse/invalid-name@0']);
    expect(brief('', readMistralV11('[TOOL_CALLS]calc[ARGS]"x"', tools)).notes).toEqual(['parse/invalid-call@22']);
  });
  it('a plain answer', () => {
    expect(readMistralV11('Paris.', tools)).toEqual({ calls: [], consumed: [], textNotes: [] });
  });
});

describe('the syntaxes and parsers registered', () => {
  it('names, openers', () => {
    expect(SYNTAXES.map((s) => [s.name, s.openers])).toEqual([['mistral', ['[TOOL_CALLS]']], ['mistral-v11', ['[TOOL_CALLS]']]]);
    expect(SERVER_PARSERS.map((p) => `${p.server}:${p.name}`)).toEqual(['vllm:mistral', 'sglang:mistral']);
    for (const s of SYNTAXES) expect(s.controls).toContain('[TOOL_CALLS');
  });
  it('the tokenizer guessed from the text: v11 unless an array follows [TOOL_CALLS] and no [ARGS] appears', () => {
    expect(guessMistralTokenizer('[TOOL_CALLS] [{"name": "f"}]').v11).toBe(false);
    expect(guessMistralTokenizer('[TOOL_CALLS]get_cur').v11).toBe(true);
    expect(guessMistralTokenizer('[TOOL_CALLS]f[ARGS]{}').v11).toBe(true);
  });
});

// Expected values from the real parser code at the oracle's commits (run with the oracle's stubs).
describe('vLLM mistral', () => {
  it('pre-v11: raw_decode ignores text after the array; the regex fallback finds [{…}] after other text', () => {
    expect(vllmMistral('[TOOL_CALLS][{"name":"calc","arguments":{"x":1}}] and then text', { v11: false })).toEqual({ content: null, tool_calls: [{ name: 'calc', arguments: '{"x": 1}' }], tools_called: true });
    expect(vllmMistral('[TOOL_CALLS]x [{"name": "calc", "arguments": {}}] y', { v11: false })).toEqual({ content: null, tool_calls: [{ name: 'calc', arguments: '{}' }], tools_called: true });
  });
  it('pre-v11: two [TOOL_CALLS] raise; an item that is no object raises; {} gives tools_called with no call', () => {
    const two = 'x[TOOL_CALLS][{"name":"a","arguments":{}}][TOOL_CALLS][{"name":"b","arguments":{}}]';
    expect(vllmMistral(two, { v11: false }).exception).toBe(`ValueError: Only one BOT token should have been outputted, but got ${two}.`);
    expect(vllmMistral('[TOOL_CALLS][{"name": "calc", "arguments": {"x": 1}}, 5]', { v11: false }).exception).toBe("TypeError: 'int' object is not subscriptable");
    expect(vllmMistral('[TOOL_CALLS]{}', { v11: false })).toEqual({ content: null, tool_calls: [], tools_called: true });
  });
  it('pre-v11: nothing readable: no calls, the stripped rest as content', () => {
    expect(vllmMistral('[TOOL_CALLS]get_cur', { v11: false })).toEqual({ content: 'get_cur', tool_calls: [], tools_called: false });
  });
  it('v11: arguments verbatim to the next [TOOL_CALLS]; the last one cut is marked incomplete', () => {
    const t = '[TOOL_CALLS]get_weather[ARGS]{"city": "x"} junk [TOOL_CALLS]calc[ARGS]{"x":"1"} tail';
    expect(vllmMistral(t, { v11: true })).toEqual({ content: null, tool_calls: [{ name: 'get_weather', arguments: '{"city": "x"} junk ' }, { name: 'calc', arguments: '{"x":"1"} tail' }], tools_called: true });
    const cut = vllmMistral('[TOOL_CALLS]calc[ARGS]{"x": "1', { v11: true });
    expect(cut.tool_calls).toEqual([{ name: 'calc', arguments: '{"x": "1', incomplete: 'the arguments JSON never closed' }]);
    expect(vllmMistral('[TOOL_CALLS] [1]', { v11: true })).toEqual({ content: null, tool_calls: [], tools_called: true });
  });
});

describe('SGLang mistral', () => {
  it('the compact form: calls in turn, the text left joins the normal text; NaN ends the loop', () => {
    const t = '[TOOL_CALLS]get_weather[ARGS]{"city": "x"} junk [TOOL_CALLS]calc[ARGS]{"x":"1"} tail';
    expect(sglangMistral(t, tools)).toEqual({ content: 'tail', tool_calls: [{ name: 'get_weather', arguments: '{"city": "x"}' }, { name: 'calc', arguments: '{"x": "1"}' }], tools_called: true, has_tool_call: true });
    expect(sglangMistral('[TOOL_CALLS]calc[ARGS]{"a": NaN}', tools)).toEqual({ content: '', tool_calls: [], tools_called: false, has_tool_call: true });
  });
  it('the array form needs "[TOOL_CALLS] ["; parameters win over arguments; an item that is no object raises', () => {
    expect(sglangMistral('[TOOL_CALLS] [{"name": "calc", "parameters": {"a":1}, "arguments": {"b":2}}]', tools).tool_calls).toEqual([{ name: 'calc', arguments: '{"a": 1}' }]);
    expect(sglangMistral('[TOOL_CALLS][{"name": "calc", "arguments": {}}]', tools).tool_calls).toEqual([]);
    expect(sglangMistral('[TOOL_CALLS] [1]', tools).exception).toBe("AttributeError: 'int' object has no attribute 'get'");
  });
});

if (HAVE_SHARED) {
  describe('family-parse oracle', () => {
    // the registered parser guesses the tokenizer from the text (tested with every key in test/oracle/family-parse.test.ts); here it is told
    it('vllm:mistral, the tokenizer by family', () => {
      const r = oracleRun('vllm:mistral', (text, _tools, family) => vllmMistral(text, { v11: family === 'mistral_v11' }));
      console.log(`family-parse vllm:mistral (tokenizer by family): ${r.exact}/${r.total} exact`);
      expect(r.wrong).toEqual([]);
    });
  });
}
