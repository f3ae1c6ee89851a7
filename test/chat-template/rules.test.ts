/**
 * Rules of the chat-template flavor beyond the text of the case files: diagnostics (codes,
 * tools, pointers, Jinja2's words), the @huggingface/jinja notes, the message functions, the
 * type printer on its own, and the Python semantics it rests on. Every expected text and
 * error line here was checked by running ../shared/oracles/chat-template/render.py (or, for
 * the Python helpers, python3 itself) on the same input.
 */
import { describe, expect, it } from 'vitest';
import { CompileError, type Diagnostic } from '../../src/diagnostics.js';
import { chatTemplateType } from '../../src/emit/chat-template/types.js';
import { pyReprString, pyStr } from '../../src/emit/python/values.js';
import { fromJs, parseJson, type JsonValue } from '../../src/ir/json.js';
import { lowerSchema } from '../../src/lower/index.js';
import { renderChatTemplateDeveloper, renderChatTemplatePrompt, renderChatTemplateSystem } from '../../src/messages/chat-template.js';
import { loweredBareTools } from '../support/shared.js';

const toolsOf = loweredBareTools;

const tools = (json: string) => toolsOf(parseJson(json) as JsonValue[]);

function failure(run: () => unknown): CompileError {
  try {
    run();
  } catch (e) {
    if (e instanceof CompileError) return e;
    throw e;
  }
  throw new Error('expected a CompileError');
}

const errorsOf = (e: CompileError): Diagnostic[] => e.diagnostics.filter((d) => d.severity === 'error');
const warningsOf = (ds: readonly Diagnostic[]): Diagnostic[] => ds.filter((d) => d.code === 'chat-template/js-jinja-differs');

describe('template failures are CompileErrors naming the tool, the pointer, the cause and Jinja2 error', () => {
  it('a non-string default beside an enum', () => {
    const e = failure(() => renderChatTemplateDeveloper(tools('[{"name": "get_weather", "description": "d", "parameters": {"type": "object", "properties": {"unit": {"type": "integer", "enum": [1, 2], "default": 1}}}}]')));
    expect(errorsOf(e)).toEqual([
      {
        code: 'chat-template/fails',
        severity: 'error',
        tool: 'get_weather',
        path: '/0/parameters/properties/unit/default',
        message: 'the gpt-oss chat template fails on this tool: its default (beside `enum`) is a number, and the template adds it to a string (Jinja2: TypeError: can only concatenate str (not "int") to str)',
      },
    ]);
    // JavaScript engines concatenate instead
    expect(warningsOf(e.diagnostics).map((d) => d.path)).toEqual(['/0/parameters/properties/unit/default']);
  });

  it('every failing tool of a catalog gets its own error, in order; no text is produced', () => {
    const e = failure(() =>
      renderChatTemplateDeveloper(
        tools('[{"name": "ok", "description": "d"}, {"name": "bad", "description": "d", "parameters": {"properties": {"x": {"oneOf": 5}}}}, {"name": "", "parameters": {}}]'),
      ),
    );
    expect(errorsOf(e).map((d) => [d.tool, d.path, d.message.slice(d.message.indexOf('(Jinja2:'))])).toEqual([
      ['bad', '/1/parameters/properties/x/oneOf', "(Jinja2: TypeError: 'int' object is not iterable)"],
      ['#2', '/2', "(Jinja2: UndefinedError: 'dict object' has no attribute 'description')"],
    ]);
  });

  it('a nested `required` that is not a list fails at its pointer', () => {
    const e = failure(() => renderChatTemplateDeveloper(tools('[{"name": "f", "description": "d", "parameters": {"properties": {"o": {"type": "object", "properties": {"x": {}}, "required": true}}}}]')));
    expect(errorsOf(e)[0].path).toBe('/0/parameters/properties/o/required');
    expect(errorsOf(e)[0].message).toContain("(Jinja2: TypeError: argument of type 'bool' is not iterable)");
  });

  it('a conversation the template refuses', () => {
    const e = failure(() => renderChatTemplatePrompt({ messages: [{ role: 'user', content: 'hi' }, { role: 'tool', content: 'x' }], date: '2025-08-05' }));
    expect(errorsOf(e)[0]).toMatchObject({ code: 'chat-template/fails', path: '/messages/1' });
    expect(errorsOf(e)[0].message).toContain('(Jinja2: TemplateError: Message has tool role, but there was no previous assistant message with a tool call!)');
  });
});

describe('lone surrogates (only reachable from JavaScript values) fail as the UTF-8 encoding does', () => {
  const withSurrogate = () =>
    toolsOf([fromJs({ name: 'f', description: 'ok', parameters: { type: 'object', properties: { x: { type: 'string', description: 'bad \ud83d here' } } } })]);

  it('in a tool: names the tool and the string, with the position in the whole prompt', () => {
    const e = failure(() => renderChatTemplatePrompt({ tools: withSurrogate(), messages: [{ role: 'user', content: 'hi' }], date: '2025-08-05' }));
    expect(errorsOf(e)[0]).toMatchObject({ code: 'chat-template/fails', tool: 'f', path: '/0/parameters/properties/x/description' });
    expect(errorsOf(e)[0].message).toContain("UnicodeEncodeError: 'utf-8' codec can't encode character '\\ud83d' in position 425: surrogates not allowed");
  });

  it('in the instructions: no tool', () => {
    const e = failure(() => renderChatTemplatePrompt({ instructions: 'bad \ud83d', messages: [{ role: 'user', content: 'hi' }], date: '2025-08-05' }));
    expect(errorsOf(e)[0].tool).toBeUndefined();
    expect(errorsOf(e)[0].message).toContain("character '\\ud83d' in position 302: surrogates not allowed");
  });
});

describe('@huggingface/jinja differences are warnings (spec §4)', () => {
  it('a property named items, at the top level and nested', () => {
    const r = renderChatTemplateDeveloper(tools('[{"name": "f", "description": "d", "parameters": {"type": "object", "properties": {"items": {"type": "string"}, "o": {"type": "object", "properties": {"items": {"type": "string"}}}}}}]'));
    expect(warningsOf(r.diagnostics).map((d) => [d.tool, d.path])).toEqual([
      ['f', '/0/parameters/properties/items'],
      ['f', '/0/parameters/properties/o/properties/items'],
    ]);
  });

  it('float text (1.0), join over null', () => {
    const r = renderChatTemplateDeveloper(tools('[{"name": "f", "description": "d", "parameters": {"properties": {"a": {"type": "number", "default": 1.0}, "b": {"type": "string", "enum": ["x", null]}, "c": {"type": "number", "default": 2}}}}]'));
    expect(warningsOf(r.diagnostics).map((d) => d.path)).toEqual(['/0/parameters/properties/a/default', '/0/parameters/properties/b/enum/1']);
    expect(r.diagnostics.every((d) => d.severity === 'warning')).toBe(true);
  });

  it('none for an ordinary tool', () => {
    const r = renderChatTemplateDeveloper(tools('[{"name": "get_weather", "description": "d", "parameters": {"type": "object", "properties": {"location": {"type": "string"}, "days": {"type": "integer", "default": 3}}, "required": ["location"]}}]'));
    expect(r.diagnostics).toEqual([]);
  });
});

describe('message functions', () => {
  // texts from render.py: prompt-default-system.txt and prompt-builtin-with-tools.txt
  const system =
    'You are ChatGPT, a large language model trained by OpenAI.\nKnowledge cutoff: 2024-06\nCurrent date: 2025-08-05\n\nReasoning: medium\n\n# Valid channels: analysis, commentary, final. Channel must be included for every message.';

  it('system: cutoff and date always written; routing line only with function tools', () => {
    expect(renderChatTemplateSystem({ date: '2025-08-05' }).text).toBe(system);
    expect(renderChatTemplateSystem({ date: '2025-08-05', functionTools: true }).text).toBe(`${system}\nCalls to these tools must go to the commentary channel: 'functions'.`);
  });

  it('system: the date defaults to today', () => {
    expect(renderChatTemplateSystem().text).toMatch(/\nCurrent date: \d{4}-\d{2}-\d{2}\n/);
  });

  it('developer: instructions end with a blank line; none and no tools give no content', () => {
    // render.py, prompt-instructions-no-tools.txt: `<|start|>developer<|message|># Instructions\n\nBe brief.\n\n<|end|>`
    expect(renderChatTemplateDeveloper([], { instructions: 'Be brief.' }).text).toBe('# Instructions\n\nBe brief.\n\n');
    expect(renderChatTemplateDeveloper([], { instructions: '' }).text).toBe('');
    expect(renderChatTemplateDeveloper([]).text).toBe('');
  });

  it('developer: instructions, then the tools', () => {
    // render.py, prompt-instructions-and-tools.txt
    const t = tools('[{"name": "get_weather", "description": "Get the weather.", "parameters": {"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]}}]');
    expect(renderChatTemplateDeveloper(t, { instructions: 'Be brief.' }).text).toBe(
      '# Instructions\n\nBe brief.\n\n# Tools\n\n## functions\n\nnamespace functions {\n\n// Get the weather.\ntype get_weather = (_: {\nlocation: string,\n}) => any;\n\n} // namespace functions',
    );
  });

  it('prompt: instructions become the first (developer) message, as render.py passes them', () => {
    const text = renderChatTemplatePrompt({ instructions: 'Be brief.', messages: [{ role: 'user', content: 'hi' }], date: '2025-08-05' }).text;
    expect(text).toBe(`<|start|>system<|message|>${system}<|end|><|start|>developer<|message|># Instructions\n\nBe brief.\n\n<|end|><|start|>user<|message|>hi<|end|><|start|>assistant`);
  });
});

describe('chatTemplateType on the IR', () => {
  const lower = (json: string) => {
    const source = parseJson(json);
    return { node: lowerSchema(source).node, source };
  };

  it('prints from the IR, reading the schema as written only for facts the IR lacks', () => {
    // render.py: nullable-truthy.txt (`yes?: string | null`), array-items.txt (`{\nid: \n                string}[]`)
    const n = lower('{"type": "string", "nullable": "yes"}');
    expect(chatTemplateType(n.node, n.source)).toBe('string | null');
    expect(chatTemplateType(n.node)).toBe('string'); // the IR alone keeps only `nullable: true`
    const a = lower('{"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}}');
    expect(chatTemplateType(a.node, a.source)).toBe('{\nid: \n                string}[]');
  });

  it('throws a CompileError where Jinja2 raises', () => {
    const n = lower('{"type": "string", "enum": true}');
    const e = failure(() => chatTemplateType(n.node, n.source));
    expect(errorsOf(e)[0]).toMatchObject({ code: 'chat-template/fails', path: '/enum' });
    expect(errorsOf(e)[0].message).toContain("(Jinja2: TypeError: 'bool' object is not iterable)");
  });
});

describe('Python semantics (checked with python3: repr() and str())', () => {
  it('repr of strings picks the quote and escapes what is not printable', () => {
    expect(pyReprString("it's")).toBe('"it\'s"');
    expect(pyReprString('say "hi"')).toBe('\'say "hi"\'');
    expect(pyReprString('both \' and "')).toBe('\'both \\\' and "\'');
    expect(pyReprString('back\\slash')).toBe("'back\\\\slash'");
    expect(pyReprString('ctl\x01\x7f\x85')).toBe("'ctl\\x01\\x7f\\x85'");
    expect(pyReprString('zw\u200b nbsp\u00a0 ls\u2028')).toBe("'zw\\u200b nbsp\\xa0 ls\\u2028'");
    expect(pyReprString('emoji 😀 é')).toBe("'emoji 😀 é'");
    expect(pyReprString('tab\tnl\n')).toBe("'tab\\tnl\\n'");
    expect(pyReprString('\ud83d')).toBe("'\\ud83d'");
  });

  it('str of a list as json.loads reads it', () => {
    expect(pyStr(parseJson('[1.0, 1e16, 1e-5, -0.0, true, null, {"k": "v"}]'))).toBe("[1.0, 1e+16, 1e-05, -0.0, True, None, {'k': 'v'}]");
  });
});
