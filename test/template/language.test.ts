/**
 * The template language, case by case: each expectation below is what Python Jinja2 3.1.6 printed
 * (or raised, as `Type: message`) for the same template in transformers' environment
 * (../shared/oracles/families/render.py's `compile_template`, date pinned to 2025-08-05), run on
 * this machine when the case was written. Vars are JSON (number text and key order kept).
 */
import { describe, expect, it } from 'vitest';
import { JinjaError } from '../../src/emit/python/errors.js';
import { parseJson, type JsonValue } from '../../src/ir/json.js';
import { renderTemplate } from '../../src/template/index.js';

/** A case: the template, its variables as JSON text, and Jinja2's output or error line. */
type Case = readonly [template: string, vars: string, want: { readonly out: string } | { readonly error: string }];

/** Render as the oracles do (date 2025-08-05): the output, or the error line. */
function run(template: string, vars: string): { out: string } | { error: string } {
  const v = parseJson(vars) as ReadonlyMap<string, JsonValue>;
  try {
    return { out: renderTemplate(template, v, { today: { year: 2025, month: 8, day: 5 } }) };
  } catch (e) {
    if (e instanceof JinjaError) return { error: e.text };
    throw e;
  }
}

const CASES: Readonly<Record<string, readonly Case[]>> = {
  "whitespace": [
    ["a\n  {% if true %}\n  b\n  {% endif %}\nc", "{}", { out: "a\n  b\nc" }],
    ["a  {% if true %}b{% endif %}  c", "{}", { out: "a  b  c" }],
    ["  {{ 'x' }}\n  {% set y = 1 %}\n", "{}", { out: "  x\n" }],
    ["{% if true -%}\n   x\n{%- endif %}", "{}", { out: "x" }],
    ["  {#- c -#}  x", "{}", { out: "x" }],
    ["x\n    {%+ if true %}y{% endif +%}\nz", "{}", { out: "x\n    y\nz" }],
    ["{% raw -%}\n  a {{ b }}\n  {%- endraw %}\nc", "{}", { out: "a {{ b }}c" }],
    ["  {% raw %}\nx\n  {% endraw %}\ny", "{}", { out: "\nx\ny" }],
    ["a{% for i in [1,2] %}\n  {{ i }}\n{% endfor %}b", "{}", { out: "a  1\n  2\nb" }],
    ["{{- 'a' -}}\n  \n{{- 'b' -}}", "{}", { out: "ab" }],
    ["two trailing\n\n", "{}", { out: "two trailing\n" }],
    ["line1\r\nline2\rline3", "{}", { out: "line1\nline2\nline3" }],
    [" {% if true %}\n  x\n {% else %}\n  y\n {% endif %}", "{}", { out: "  x\n" }],
    ["{{ 'a' }} {% if true %} {% endif %} {{ 'b' }}", "{}", { out: "a   b" }],
    ["{% for x in [1,2,3] -%}\n{{ x }}{% if not loop.last %}, {% endif %}\n{%- endfor %}", "{}", { out: "1, 2, 3" }],
  ],
  "values": [
    ["{{ 1 + 2 }}|{{ 'a' ~ 1 }}|{{ 1 / 2 }}|{{ 7 // 2 }}|{{ 2 ** 10 }}|{{ -7 % 3 }}|{{ 7.5 % 2 }}|{{ -7.5 // 2 }}", "{}", { out: "3|a1|0.5|3|1024|2|1.5|-4.0" }],
    ["{{ 9007199254740993 }}|{{ 9007199254740993 + 1 }}|{{ 1.0 }}|{{ 1e100 }}|{{ 0.1 + 0.2 }}|{{ 10 ** 20 }}|{{ 2 ** -1 }}", "{}", { out: "9007199254740993|9007199254740994|1.0|1e+100|0.30000000000000004|100000000000000000000|0.5" }],
    ["{{ x }}|{{ x + 1 }}|{{ y }}|{{ z }}|{{ w }}|{{ w * 2 }}", "{\"x\": 9007199254740993, \"y\": 100.0, \"z\": 0, \"w\": 1.5}", { out: "9007199254740993|9007199254740994|100.0|0|1.5|3.0" }],
    ["{{ (1, 2) }}{{ (1,) }}{{ () }}{{ [1, 'a', none, true, 1.5] }}{{ {'a': none, 'b': [1]} }}", "{}", { out: "(1, 2)(1,)()[1, 'a', None, True, 1.5]{'a': None, 'b': [1]}" }],
    ["{{ \"it's\" }}|{{ ['it\\'s', 'a\"b', 'c\\nd'] }}", "{}", { out: "it's|[\"it's\", 'a\"b', 'c\\nd']" }],
    ["{{ 'a' 'b' }}|{{ '\\x41\\u00e9\\t.' }}", "{}", { out: "ab|Aé\t." }],
  ],
  "operators": [
    ["{{ 1 < 2 < 3 }}{{ 3 > 2 > 2 }}{{ 1 == 1.0 }}{{ 1 == true }}{{ '1' == 1 }}{{ [1] == [1.0] }}{{ (1,) == [1] }}{{ 'b' > 'a' }}{{ [1, 2] < [1, 3] }}", "{}", { out: "TrueFalseTrueTrueFalseTrueFalseTrueTrue" }],
    ["{{ 1 and 2 }}{{ 0 and 2 }}{{ 0 or 'x' }}{{ none or [] }}{{ not none }}{{ 'a' in 'abc' }}{{ 1 in [1] }}{{ 'k' in {'k': 1} }}{{ 3 not in [1] }}", "{}", { out: "20x[]TrueTrueTrueTrueTrue" }],
    ["{{ 'ab' * 2 }}{{ [0] * 2 }}{{ 2 * 'c' }}{{ [1] + [2] }}{{ (1,) + (2,) }}", "{}", { out: "abab[0, 0]cc[1, 2](1, 2)" }],
    ["{{ 'a' if false }}|{{ 'a' if true else 'b' }}|{{ 1 if none else 2 }}", "{}", { out: "|a|2" }],
  ],
  "access": [
    ["{{ d.a }}{{ d['a'] }}{{ d.items is defined }}|{{ d['items'] }}|{{ d.get('a') }}{{ d.get('z', 5) }}{{ l[0] }}{{ l[-1] }}{{ l.0 }}", "{\"d\": {\"a\": 1, \"items\": \"key\"}, \"l\": [1, 2]}", { out: "11True|key|15121" }],
    ["{{ [1, 2, 3][::-1] }}{{ 'hello'[1:3] }}{{ 'hello'[::-2] }}{{ [1, 2, 3][-2:] }}{{ 'héllo😀'[4:] }}{{ range(10)[2:8:3] }}", "{}", { out: "[3, 2, 1]elolh[2, 3]o😀range(2, 8, 3)" }],
    ["{{ d.missing }}|{{ l[5] }}|{{ s.nope }}|{{ none.x }}|{{ d.missing is defined }}", "{\"d\": {}, \"l\": [], \"s\": \"str\"}", { out: "||||False" }],
  ],
  "str methods": [
    ["{{ 'abc'.upper() }}{{ 'a,b'.split(',') }}{{ ' x '.strip() }}{{ 'abc'.startswith('a') }}{{ 'a b c'.split(none, 1) }}{{ 'a,b,c'.rsplit(',', 1) }}{{ 'a\\nb\\r\\nc'.splitlines() }}", "{}", { out: "ABC['a', 'b']xTrue['a', 'b c']['a,b', 'c']['a', 'b', 'c']" }],
    ["{{ 'aaa'.count('a') }}{{ 'abc'.index('c') }}{{ 'abc'.rfind('x') }}{{ 'abcabc'.replace('b', 'X', 1) }}{{ 'a.b.c'.partition('.') }}{{ 'hello world'.title() }}{{ 'hELLO'.swapcase() }}{{ '42'.zfill(5) }}{{ 'ab'.center(7, '*') }}", "{}", { out: "32-1aXcabc('a', '.', 'b.c')Hello WorldHello00042***ab**" }],
    ["{{ 'abc'.isalpha() }}{{ '123'.isdigit() }}{{ ' '.isspace() }}{{ 'Ab Cd'.istitle() }}{{ 'xxhixx'.strip('x') }}{{ 'abc'.removeprefix('a') }}{{ '{}-{:>3}-{x}'.format(1, 'b', x=2) }}{{ '%s=%d' % ('a', 3) }}{{ '%.2f' % 1.005 }}", "{}", { out: "TrueTrueTrueTruehibc1-  b-2a=31.00" }],
    ["{{ '{:+.2f}|{:,}|{:x}|{:#b}|{:e}|{:.3}|{:%}|{!r:>6}'.format(3.14159, 1234567, 255, 5, 12345.678, 3.14159, 0.25, 'r') }}", "{}", { out: "+3.14|1,234,567|ff|0b101|1.234568e+04|3.14|25.000000%|   'r'" }],
  ],
  "filters": [
    ["{{ 'Hello World'|replace('o', '0') }}{{ 'hello world'|title }}{{ 'hello'|capitalize }}{{ 'abc'|upper }}{{ 'ABC'|lower }}{{ '  x '|trim }}{{ 'xxaxx'|trim('x') }}{{ 'abc'|length }}{{ 'a b c'|wordcount }}{{ 'x'|center(5) }}", "{}", { out: "Hell0 W0rldHello WorldHelloABCabcxa33  x  " }],
    ["{{ [3, 1, 2]|sort }}{{ ['b', 'A', 'a']|sort }}{{ [3, 1, 2]|sort(reverse=true) }}{{ [1, 2, 3]|join(', ') }}{{ [1, 2]|map('string')|join }}{{ users|sort(attribute='age')|map(attribute='name')|join(',') }}", "{\"users\": [{\"name\": \"b\", \"age\": 3}, {\"name\": \"a\", \"age\": 1}]}", { out: "[1, 2, 3]['A', 'a', 'b'][3, 2, 1]1, 2, 312a,b" }],
    ["{{ [{'a': 1}, {'a': 2}]|map(attribute='a')|list }}{{ [{'a': 1}, {'b': 2}]|selectattr('a')|list }}{{ [1, 2, 3, 4]|select('odd')|list }}{{ [1, 2, 3, 4]|reject('even')|list }}{{ users|rejectattr('age', 'eq', 1)|map(attribute='name')|list }}", "{\"users\": [{\"name\": \"b\", \"age\": 3}, {\"name\": \"a\", \"age\": 1}]}", { out: "[1, 2][{'a': 1}][1, 3][1, 3]['b']" }],
    ["{{ 'x'|default('y') }}{{ z|default('y') }}{{ ''|default('y', true) }}{{ z|d('q') }}{{ none|default('n') }}", "{}", { out: "xyyqNone" }],
    ["{{ 'a\\nb\\n\\nc'|indent(2) }}|{{ 'a\\nb'|indent(2, true) }}|{{ 'a\\n\\nb'|indent(2, blank=true) }}|{{ 'a\\nb'|indent('> ') }}", "{}", { out: "a\n  b\n\n  c|  a\n  b|a\n  \n  b|a\n> b" }],
    ["{{ [1, 1, 2, 'a', 'A']|unique|list }}{{ {'b': 1, 'a': 2}|dictsort }}{{ {'b': 1, 'A': 2, 'a': 3}|dictsort(true) }}{{ {'b': 1, 'a': 2}|items|list }}", "{}", { out: "[1, 2, 'a'][('a', 2), ('b', 1)][('A', 2), ('a', 3), ('b', 1)][('b', 1), ('a', 2)]" }],
    ["{{ 3.7|round }}{{ 3.14159|round(2) }}{{ 2.5|round }}{{ 2.675|round(2) }}{{ 1.55|round(1, 'floor') }}{{ -3|abs }}{{ [1, 2, 3]|sum }}{{ [1, 2, 3]|min }}{{ ['a', 'B']|max }}", "{}", { out: "4.03.142.02.671.5361B" }],
    ["{{ 'foo bar baz qux'|truncate(9) }}|{{ [1, 2, 3, 4, 5]|batch(2, 'x')|list }}|{{ [1, 2, 3, 4, 5]|slice(2)|list }}|{{ '%s-%d'|format('a', 3) }}|{{ [3, 1]|first }}{{ [3, 1]|last }}", "{}", { out: "foo...|[[1, 2], [3, 4], [5, 'x']]|[[1, 2, 3], [4, 5]]|a-3|31" }],
    ["{{ '12'|int }}{{ '12.7'|int }}{{ 'abc'|int }}{{ '0x1A'|int(0, 16) }}{{ 3.9|int }}{{ '1.5'|float }}{{ 'abc'|float }}{{ 3|float }}{{ 1|string }}{{ [1, 2]|list }}{{ 'ab'|list }}{{ 'abc'|reverse }}{{ [1, 2]|reverse|list }}", "{}", { out: "121202631.50.03.01[1, 2]['a', 'b']cba[2, 1]" }],
    ["{% for g in users|groupby('age') %}{{ g.grouper }}:{{ g.list|length }};{% endfor %}{{ {'class': 'a', 'id': none}|xmlattr }}{{ 'a b/c'|urlencode }}{{ '<p>Hi <b>x</b></p>'|striptags }}", "{\"users\": [{\"name\": \"b\", \"age\": 3}, {\"name\": \"a\", \"age\": 1}, {\"name\": \"c\", \"age\": 1}]}", { out: "1:2;3:1; class=\"a\"a%20b/cHi x" }],
    ["{{ {'a': 1, 'b': [1, 2.0, 'é']}|tojson }}|{{ {'b': 1, 'a': 2}|tojson(indent=2, sort_keys=true) }}|{{ 'é'|tojson(ensure_ascii=true) }}|{{ [1, {}]|tojson(separators=(',', ':')) }}|{{ (1, 2)|tojson }}", "{}", { out: "{\"a\": 1, \"b\": [1, 2.0, \"é\"]}|{\n  \"a\": 2,\n  \"b\": 1\n}|\"\\u00e9\"|[1,{}]|[1, 2]" }],
    ["{{ '<a>'|e }}{{ '<a>'|safe }}{{ '<a>'|safe + '<b>' }}{{ '<b>' ~ ('<a>'|safe) }}{{ ('<a>'|safe + '<b>')|string }}{{ ('<'|safe) + ('>'|safe) }}{{ (\"'\"|safe).replace(\"'\", '&') }}", "{}", { out: "&lt;a&gt;<a><a>&lt;b&gt;<b><a><a>&lt;b&gt;<>&amp;" }],
  ],
  "tests": [
    ["{{ 1 is odd }}{{ 2 is even }}{{ 6 is divisibleby 3 }}{{ none is none }}{{ 'a' is string }}{{ 1 is number }}{{ 1.0 is float }}{{ 1 is integer }}{{ true is integer }}{{ true is number }}{{ {} is mapping }}{{ [] is iterable }}{{ [] is sequence }}{{ x is undefined }}{{ x is sequence }}{{ x is iterable }}", "{}", { out: "TrueTrueTrueTrueTrueTrueTrueTrueFalseTrueTrueTrueTrueTrueTrueTrue" }],
    ["{{ 1 is sameas 1 }}{{ 1000 is sameas 1000 }}{{ true is true }}{{ 1 is boolean }}{{ 'a' is lower }}{{ 'A' is upper }}{{ 3 is gt 2 }}{{ 2 is in [1, 2] }}{{ 1 is eq 1 }}{{ range is callable }}{{ 'upper' is filter }}{{ 'odd' is test }}{{ ('a'|safe) is escaped }}", "{}", { out: "TrueFalseTrueFalseTrueTrueTrueTrueTrueTrueTrueTrueTrue" }],
    ["{% if [1]|map('string') %}a generator is true{% endif %}|{{ [1]|map('string') is sequence }}{{ [1]|map('string') is iterable }}|{% set g = [1, 2]|map('string') %}{{ g|list }}{{ g|list }}", "{}", { out: "a generator is true|FalseTrue|['1', '2'][]" }],
  ],
  "loops": [
    ["{% for i in range(3) %}{{ loop.index }}{{ loop.index0 }}{{ loop.first }}{{ loop.last }}{{ loop.length }}{{ loop.revindex }}{{ loop.revindex0 }},{% endfor %}", "{}", { out: "10TrueFalse332,21FalseFalse321,32FalseTrue310," }],
    ["{% for x in 'ab' %}{{ x }}{{ loop.previtem }}{{ loop.nextitem }}{{ loop.cycle('o', 'e') }}{{ loop.depth }}{% endfor %}", "{}", { out: "abo1bae1" }],
    ["{% for i in [1, 2, 3, 4] if i is even %}{{ loop.index }}/{{ loop.length }}{{ loop.last }};{% else %}none{% endfor %}|{% for i in [] %}{% else %}empty{% endfor %}", "{}", { out: "1/2False;2/2True;|empty" }],
    ["{% for i in [1, 2, 3] %}{% if i == 2 %}{% continue %}{% endif %}{{ i }}{% endfor %}|{% for i in [1, 2, 3] %}{% if i == 2 %}{% break %}{% endif %}{{ i }}{% endfor %}", "{}", { out: "13|1" }],
    ["{% for i in [1, 2] %}{% continue %}{% else %}every iteration continued, so else runs{% endfor %}|{% for i in [1, 2] %}{% if i == 2 %}{% break %}{% endif %}{% else %}no else{% endfor %}", "{}", { out: "every iteration continued, so else runs|" }],
    ["{% for a, b in [[1, 2], [3, 4]] %}{{ a }}{{ b }}{% endfor %}|{% for k, v in {'x': 1}.items() %}{{ k }}={{ v }}{% endfor %}|{% for k in {'x': 1, 'y': 2} %}{{ k }}{% endfor %}", "{}", { out: "1234|x=1|xy" }],
    ["{% for i in [1, 2, 3] %}{% for j in 'ab' %}{{ loop.index }}{% endfor %}{{ loop.index }};{% endfor %}|{% for i in [1, 1, 2] %}{% if loop.changed(i) %}{{ i }}{% endif %}{% endfor %}", "{}", { out: "121;122;123;|12" }],
    ["{% for x in [[1, [2]], [3]] recursive %}[{% if x is iterable %}{{ loop(x) }}{% else %}{{ x }}@{{ loop.depth }}{% endif %}]{% endfor %}", "{}", { out: "[[1@2][[2@3]]][[3@2]]" }],
  ],
  "scoping": [
    ["{% set x = 1 %}{% for i in [1, 2] %}{{ x }}{% set x = 2 %}{{ x }}{% endfor %}{{ x }}", "{}", { out: "12121" }],
    ["{% set x = 1 %}{% if true %}{% set x = 5 %}{% endif %}{{ x }}|{% for i in [1] %}{% set y = 5 %}{% endfor %}{{ y is defined }}", "{}", { out: "5|False" }],
    ["{% set ns = namespace(x=0) %}{% for i in [1, 2, 3] %}{% set ns.x = ns.x + i %}{% endfor %}{{ ns.x }}|{{ ns }}", "{}", { out: "6|<Namespace {'x': 6}>" }],
    ["{% set x = 1 %}{% macro m() %}{{ x }}{% set x = 2 %}{{ x }}{% endmacro %}{{ m() }}{{ x }}|{% set x = 3 %}{{ m() }}", "{}", { out: "121|32" }],
    ["{% set x = 1 %}{% with x = 2, y = x %}{{ x }}{{ y }}{% endwith %}{{ x }}|{% set b %}inner {{ x }}{% set z = 1 %}{% endset %}[{{ b }}]{{ z is defined }}|{% set p, q = 1, 2 %}{{ p }}{{ q }}", "{}", { out: "211|[inner 1]False|12" }],
    ["{% filter upper %}abc{% set q = 1 %}{% endfilter %}{{ q is defined }}|{% generation %}gen{% set g = 1 %}{% endgeneration %}{{ g is defined }}", "{}", { out: "ABCFalse|genFalse" }],
  ],
  "macros": [
    ["{% macro m(a, b=2) %}{{ a }}-{{ b }}{% endmacro %}{{ m(1) }}|{{ m(1, 3) }}|{{ m(b=5, a=0) }}|{{ m() }}", "{}", { out: "1-2|1-3|0-5|-2" }],
    ["{% macro m() %}{{ varargs }}|{{ kwargs }}{% endmacro %}{{ m() }};{{ m(1, 2, x=3) }}", "{}", { out: "()|{};(1, 2)|{'x': 3}" }],
    ["{% macro m(a) %}{{ caller(a, 2) }}{% endmacro %}{% call(x, y) m(1) %}{{ x }}+{{ y }}{% endcall %}", "{}", { out: "1+2" }],
    ["{% macro m() %}{% endmacro %}{{ m.name }}{{ m.arguments }}{{ m }}|{% macro m2(a, b) %}{% endmacro %}{{ m2.arguments }}", "{}", { out: "m()<Macro 'm'>|('a', 'b')" }],
  ],
  "errors": [
    ["{% macro n() %}{{ caller() }}{% endmacro %}{{ n() }}", "{}", { error: "UndefinedError: No caller defined" }],
    ["{{ x.y }}", "{}", { error: "UndefinedError: 'x' is undefined" }],
    ["{{ d.y.z }}", "{\"d\": {}}", { error: "UndefinedError: 'dict object' has no attribute 'y'" }],
    ["{{ l[3].x }}", "{\"l\": [1]}", { error: "UndefinedError: list object has no element 3" }],
    ["{{ s.z() }}", "{\"s\": \"str\"}", { error: "UndefinedError: 'str object' has no attribute 'z'" }],
    ["{{ n.w }}", "{\"n\": null}", { out: "" }],
    ["{{ none.w() }}", "{}", { error: "UndefinedError: 'None' has no attribute 'w'" }],
    ["{{ 'a' + 1 }}", "{}", { error: "TypeError: can only concatenate str (not \"int\") to str" }],
    ["{{ 1 + 'a' }}", "{}", { error: "TypeError: unsupported operand type(s) for +: 'int' and 'str'" }],
    ["{{ none + 'a' }}", "{}", { error: "TypeError: unsupported operand type(s) for +: 'NoneType' and 'str'" }],
    ["{{ [1] + 'a' }}", "{}", { error: "TypeError: can only concatenate list (not \"str\") to list" }],
    ["{{ ('a'|safe) + 1 }}", "{}", { error: "TypeError: unsupported operand type(s) for +: 'Markup' and 'int'" }],
    ["{{ 'a' < 1 }}", "{}", { error: "TypeError: '<' not supported between instances of 'str' and 'int'" }],
    ["{{ 1 / 0 }}", "{}", { error: "ZeroDivisionError: division by zero" }],
    ["{{ 1 // 0 }}", "{}", { error: "ZeroDivisionError: integer division or modulo by zero" }],
    ["{{ 'a' * 'b' }}", "{}", { error: "TypeError: can't multiply sequence by non-int of type 'str'" }],
    ["{{ x + 1 }}", "{}", { error: "UndefinedError: 'x' is undefined" }],
    ["{{ 'a' + x }}", "{}", { error: "UndefinedError: 'x' is undefined" }],
    ["{{ [].append(1) }}", "{}", { error: "SecurityError: access to attribute 'append' of 'list' object is unsafe." }],
    ["{{ {}.update({}) }}", "{}", { error: "SecurityError: access to attribute 'update' of 'dict' object is unsafe." }],
    ["{{ [].append }}|{{ [].append is defined }}|{{ [].pop is defined }}", "{}", { out: "|False|False" }],
    ["{{ ''.__class__ }}|{{ ''.__class__ is defined }}", "{}", { out: "|False" }],
    ["{{ ''.__class__() }}", "{}", { error: "SecurityError: access to attribute '__class__' of 'str' object is unsafe." }],
    ["{{ raise_exception('boom') }}", "{}", { error: "TemplateError: boom" }],
    ["{{ raise_exception() }}", "{}", { error: "TypeError: raise_exception() missing 1 required positional argument: 'message'" }],
    ["{{ 5() }}", "{}", { error: "TypeError: 'int' object is not callable" }],
    ["{{ x() }}", "{}", { error: "UndefinedError: 'x' is undefined" }],
    ["{{ 1 in 5 }}", "{}", { error: "TypeError: argument of type 'int' is not iterable" }],
    ["{{ 1 in 'abc' }}", "{}", { error: "TypeError: 'in <string>' requires string as left operand, not int" }],
    ["{% for a, b in [[1]] %}{% endfor %}", "{}", { error: "ValueError: not enough values to unpack (expected 2, got 1)" }],
    ["{% for a, b in [[1, 2, 3]] %}{% endfor %}", "{}", { error: "ValueError: too many values to unpack (expected 2)" }],
    ["{% for a, b in [1] %}{% endfor %}", "{}", { error: "TypeError: cannot unpack non-iterable int object" }],
    ["{% for a in 5 %}{% endfor %}", "{}", { error: "TypeError: 'int' object is not iterable" }],
    ["{% set x = 1 %}{% set x.y = 2 %}", "{}", { error: "TemplateRuntimeError: cannot assign attribute on non-namespace object" }],
    ["{% macro m(a) %}{% endmacro %}{{ m(1, 2) }}", "{}", { error: "TypeError: macro 'm' takes not more than 1 argument(s)" }],
    ["{% macro m() %}{% endmacro %}{{ m(a=1) }}", "{}", { error: "TypeError: macro 'm' takes no keyword argument 'a'" }],
    ["{% macro m(a) %}{{ a.x }}{% endmacro %}{{ m() }}", "{}", { error: "UndefinedError: parameter 'a' was not provided" }],
    ["{{ range(100001) }}", "{}", { error: "OverflowError: Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000)." }],
    ["{{ range(1.5) }}", "{}", { error: "TypeError: 'float' object cannot be interpreted as an integer" }],
    ["{{ [1, 2, 3]|join(',', 'x', 3) }}", "{}", { error: "TypeError: sync_do_join() takes from 2 to 4 positional arguments but 5 were given" }],
    ["{{ 'a'|replace('a') }}", "{}", { error: "TypeError: do_replace() missing 1 required positional argument: 'new'" }],
    ["{{ [1]|map|list }}", "{}", { error: "FilterArgumentError: map requires a filter argument" }],
    ["{{ [1]|selectattr|list }}", "{}", { error: "FilterArgumentError: Missing parameter for attribute name" }],
    ["{{ [1]|select('nope')|list }}", "{}", { error: "TemplateRuntimeError: No test named 'nope'." }],
    ["{{ 1|items|list }}", "{}", { error: "TypeError: Can only get item pairs from a mapping." }],
    ["{{ [1]|dictsort }}", "{}", { error: "AttributeError: 'list' object has no attribute 'items'" }],
    ["{{ x|tojson }}", "{}", { error: "TypeError: Object of type Undefined is not JSON serializable" }],
    ["{{ [1, 'a']|sort }}", "{}", { error: "TypeError: '<' not supported between instances of 'str' and 'int'" }],
    ["{{ [[1]]|unique|list }}", "{}", { error: "TypeError: unhashable type: 'list'" }],
    ["{{ 'abc'.index('x') }}", "{}", { error: "ValueError: substring not found" }],
    ["{{ '%d' % 'a' }}", "{}", { error: "TypeError: %d format: a real number is required, not str" }],
    ["{{ '%s %s' % ('a',) }}", "{}", { error: "TypeError: not enough arguments for format string" }],
    ["{{ '{0} {}'.format(1, 2) }}", "{}", { error: "ValueError: cannot switch from manual field specification to automatic field numbering" }],
    ["{{ '{a}'.format(b=1) }}", "{}", { error: "KeyError: 'a'" }],
    ["{{ '{} {}'.format(1) }}", "{}", { error: "IndexError: tuple index out of range" }],
    ["{% include 'x.jinja' %}", "{}", { error: "TypeError: no loader for this environment specified" }],
    ["{{ x if false }}{{ (x if false).y }}", "{}", { error: "UndefinedError: the inline if-expression on line 1 evaluated to false and no else section was defined." }],
    ["{% for i in [1] %}{{ loop.cycle() }}{% endfor %}", "{}", { error: "TypeError: no items for cycling given" }],
    ["{% for i in [1] %}{{ loop(1) }}{% endfor %}", "{}", { error: "TypeError: The loop must have the 'recursive' marker to be called recursively." }],
  ],
  "globals": [
    ["{{ range(3)|list }}{{ range(1, 10, 3)|list }}{{ range(3) }}{{ dict(a=1, b=2) }}{{ dict([('x', 1)]) }}{{ namespace(a=1).a }}", "{}", { out: "[0, 1, 2][1, 4, 7]range(0, 3){'a': 1, 'b': 2}{'x': 1}1" }],
    ["{% set c = cycler('a', 'b') %}{{ c.next() }}{{ c.next() }}{{ c.next() }}{{ c.current }}{% set j = joiner('|') %}{{ j() }}x{{ j() }}y", "{}", { out: "ababx|y" }],
    ["{{ strftime_now('%d %b %Y') }}|{{ strftime_now('%B %d, %Y') }}|{{ strftime_now('%Y-%m-%d %A') }}", "{}", { out: "05 Aug 2025|August 05, 2025|2025-08-05 Tuesday" }],
  ],
  "syntax": [
    ["{{ a !b }}", "{}", { error: "TemplateSyntaxError: unexpected char '!' at 5" }],
    ["{% if x %}", "{}", { error: "TemplateSyntaxError: Unexpected end of template. Jinja was looking for the following tags: 'elif' or 'else' or 'endif'. The innermost block that needs to be closed is 'if'." }],
    ["{% endif %}", "{}", { error: "TemplateSyntaxError: Encountered unknown tag 'endif'." }],
    ["{{ x y }}", "{}", { error: "TemplateSyntaxError: expected token 'end of print statement', got 'y'" }],
    ["{% for %}", "{}", { error: "TemplateSyntaxError: Expected an expression, got 'end of statement block'" }],
    ["{{ }}", "{}", { error: "TemplateSyntaxError: Expected an expression, got 'end of print statement'" }],
    ["{% set 1 = 2 %}", "{}", { error: "TemplateSyntaxError: can't assign to 'const'" }],
    ["{{ a.b.c[ }}", "{}", { error: "TemplateSyntaxError: unexpected '}', expected ']'" }],
    ["{# abc", "{}", { error: "TemplateSyntaxError: Missing end of comment tag" }],
    ["{% raw %}abc", "{}", { error: "TemplateSyntaxError: Missing end of raw directive" }],
    ["{% foo %}", "{}", { error: "TemplateSyntaxError: Encountered unknown tag 'foo'." }],
    ["{% if x %}{% endfor %}", "{}", { error: "TemplateSyntaxError: Encountered unknown tag 'endfor'. Jinja was looking for the following tags: 'elif' or 'else' or 'endif'. The innermost block that needs to be closed is 'if'." }],
    ["{{ (1, 2 }}", "{}", { error: "TemplateSyntaxError: unexpected '}', expected ')'" }],
    ["{{ x | }}", "{}", { error: "TemplateSyntaxError: expected token 'name', got 'end of print statement'" }],
    ["{% macro m(a=1, b) %}{% endmacro %}", "{}", { error: "TemplateSyntaxError: non-default argument follows default argument" }],
    ["{{ x is }}", "{}", { error: "TemplateSyntaxError: expected token 'name', got 'end of print statement'" }],
    ["{{ x|nofilter }}", "{}", { error: "TemplateAssertionError: No filter named 'nofilter'." }],
    ["{{ 1 is nofilter }}", "{}", { error: "TemplateAssertionError: No test named 'nofilter'." }],
    ["{% if x is defined %}{{ x|nofilter }}{% endif %}ok", "{}", { out: "ok" }],
    ["{% if true %}{{ x|nofilter }}{% endif %}", "{}", { error: "TemplateRuntimeError: No filter named 'nofilter' found." }],
  ],
};

describe('the template language against Jinja2', () => {
  for (const [group, cases] of Object.entries(CASES)) {
    describe(group, () => {
      for (const [template, vars, want] of cases) {
        it(template.length > 80 ? `${template.slice(0, 77)}...` : template, () => {
          expect(run(template, vars)).toEqual(want);
        });
      }
    });
  }
});
