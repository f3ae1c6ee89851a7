/**
 * The engine's API: compile once (cached by text), render with a Map or a record, the date of
 * `strftime_now`, the errors a caller can tell apart (Jinja2's, and the engine's own
 * `Unsupported`), and vLLM's content-format detection on small templates.
 */
import { describe, expect, it } from 'vitest';
import { EngineUnsupported, JinjaError } from '../../src/emit/python/errors.js';
import { JsonNumber, parseJson } from '../../src/ir/json.js';
import { compileTemplate, detectContentFormat, renderTemplate } from '../../src/template/index.js';

function error(run: () => unknown): JinjaError {
  try {
    run();
  } catch (e) {
    if (e instanceof JinjaError) return e;
    throw e;
  }
  throw new Error('expected a JinjaError');
}

describe('compileTemplate', () => {
  it('compiles a text once and hands back the same compiled template', () => {
    const a = compileTemplate('{{ x }}!');
    expect(compileTemplate('{{ x }}!')).toBe(a);
    expect(a.ast.kind).toBe('template');
    expect(a.render({ x: 'hi' })).toBe('hi!');
    expect(a.render(new Map([['x', new JsonNumber('1.0', 1)]]))).toBe('1.0!');
  });

  it('throws TemplateSyntaxError at compile time, with Jinja2 message', () => {
    expect(error(() => compileTemplate('{% if x %}')).text).toBe(
      "TemplateSyntaxError: Unexpected end of template. Jinja was looking for the following tags: 'elif' or 'else' or 'endif'. The innermost block that needs to be closed is 'if'.",
    );
  });

  it('keeps rendering the same after many other templates were compiled (the cache is bounded)', () => {
    const first = compileTemplate('{{ 1 + 1 }}');
    for (let i = 0; i < 100; i++) compileTemplate(`{{ ${i} }}`);
    expect(compileTemplate('{{ 1 + 1 }}').render({})).toBe('2');
    expect(first.render({})).toBe('2');
  });
});

describe('renderTemplate', () => {
  it('formats strftime_now with the date of the render', () => {
    expect(renderTemplate("{{ strftime_now('%d %b %Y') }}", {}, { today: { year: 2024, month: 7, day: 26 } })).toBe('26 Jul 2024');
    expect(renderTemplate("{{ strftime_now('%Y') }}", {})).toBe(String(new Date().getFullYear()));
  });

  it('takes the lossless JSON values: number text, big ints, key order', () => {
    const vars = parseJson('{"t": {"b": 1.0, "a": 18446744073709551615, "c": 1E2}}') as ReadonlyMap<string, never>;
    expect(renderTemplate('{{ t|tojson }}|{{ t }}|{{ t.a + 1 }}', vars)).toBe('{"b": 1.0, "a": 18446744073709551615, "c": 100.0}|{\'b\': 1.0, \'a\': 18446744073709551615, \'c\': 100.0}|18446744073709551616');
  });

  it("raises Jinja2's errors as JinjaError with the type render.py prints", () => {
    const e = error(() => renderTemplate('{{ raise_exception("no tools") }}', {}));
    expect(e.errorType).toBe('TemplateError');
    expect(e.text).toBe('TemplateError: no tools');
  });

  it('refuses what it does not reproduce with an Unsupported error naming it, never a silent difference', () => {
    for (const [template, what] of [
      ['{{ [1]|map("string") }}', 'generator object'],
      ['{{ "a".upper }}', 'function upper'],
      ['{{ x|pprint }}', "filter 'pprint'"],
      ['{{ lipsum() }}', 'lipsum'],
      ['{% autoescape true %}{{ "<" }}{% endautoescape %}', 'autoescape'],
      ['{{ "x".encode() }}', 'str.encode'],
    ] as const) {
      const e = error(() => renderTemplate(template, {}));
      expect(e).toBeInstanceOf(EngineUnsupported);
      expect(e.text).toContain(what);
    }
  });
});

describe("detectContentFormat (vLLM's _detect_content_format)", () => {
  const format = (t: string) => detectContentFormat(compileTemplate(t).ast);
  it('openai when a loop runs over a message\'s content', () => {
    expect(format("{% for m in messages %}{% for c in m['content'] %}{% endfor %}{% endfor %}")).toBe('openai');
    expect(format('{% for m in messages %}{% for c in m.content|selectattr("type") %}{% endfor %}{% endfor %}')).toBe('openai');
    expect(format('{% for m in messages[1:] %}{% for c in m.content %}{% endfor %}{% endfor %}')).toBe('openai');
  });
  it('through variables assigned from messages, and a loop over a variable named content', () => {
    expect(format('{% set loop_messages = messages %}{% set ms = loop_messages %}{% for m in ms %}{% for c in m.content %}{% endfor %}{% endfor %}')).toBe('openai');
    expect(format('{% for c in content %}{% endfor %}')).toBe('openai');
  });
  it('string otherwise, and string where vLLM\'s walk meets a tuple target (its assertion fails)', () => {
    expect(format("{% for m in messages %}{{ m['content'] }}{% endfor %}")).toBe('string');
    expect(format("{% for m in messages %}{% for c in m['other'] %}{% endfor %}{% endfor %}")).toBe('string');
    expect(format("{% for i, m in messages %}{% endfor %}{% for c in content %}{% endfor %}")).toBe('string');
  });
});
