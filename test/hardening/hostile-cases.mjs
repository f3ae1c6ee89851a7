/**
 * Hostile inputs, shared by test/hardening/hostile.test.ts (in-process, loose bounds) and
 * bench/hostile.mjs (one child process per case: time and peak memory).
 *
 * Each case builds its input (JSON text, or a JavaScript value where that is the point), says
 * what must happen (`text`: it renders; `error:<code>`: a CompileError with that code), and
 * runs through `run(api, input)`, which renders every printer the case is about.
 */
import { CONFIGS } from './properties.mjs';

const MB = 1024 * 1024;

/** `{"type":"object","properties":{"p":…}}` nested `depth` levels, as JSON text, built without recursion. */
export function nestedPropertiesText(depth) {
  return `${'{"type":"object","properties":{"p":'.repeat(depth)}{"type":"string"}${'}}'.repeat(depth)}`;
}

/** `[[[…]]]` nested `depth` levels, as a JavaScript value, built without recursion. */
export function nestedArrayValue(depth) {
  let v = [];
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** n small tools as JSON text. */
export function manyToolsText(n) {
  const parts = [];
  for (let i = 0; i < n; i++) {
    parts.push(`{"name":"tool_${i}","description":"Tool number ${i}.","parameters":{"type":"object","properties":{"q":{"type":"string","description":"query"},"n":{"type":"integer","default":${i}}},"required":["q"]}}`);
  }
  return `[${parts.join(',')}]`;
}

/** One tool's text around a parameters schema given as JSON text. */
const tool = (params, name = 'f') => `[{"name":${JSON.stringify(name)},"description":"d","parameters":${params}}]`;

/** Every printer, for cases about all of them. */
const ALL_TARGETS = CONFIGS;
const HARMONY_ONLY = [{ target: 'harmony', flavor: 'openai-harmony' }];

/**
 * Render the input with each config (and the faithful lowering when the API has it); the
 * outcome of each: `text` with its length, or `error:<first error code>`. Any other exception
 * propagates (a crash is a failure of the case).
 */
export function renderAll(api, input, configs, { faithful = true } = {}) {
  const out = [];
  const all = faithful && typeof api.renderFaithfulCatalog === 'function' ? [...configs, { target: 'harmony', flavor: 'openai-harmony', lowering: 'faithful' }] : configs;
  for (const c of all) {
    const name = c.lowering ?? c.dialect ?? c.flavor ?? c.target;
    try {
      const r = api.renderCatalog(input, c);
      out.push({ name, outcome: 'text', length: r.text.length, diagnostics: r.diagnostics.length });
    } catch (e) {
      if (!api.isCompileError(e)) throw e;
      const first = e.diagnostics.find((d) => d.severity === 'error');
      out.push({ name, outcome: `error:${first?.code}`, message: first?.message });
    }
  }
  return out;
}

/** The hostile cases. `expect` is what every rendering of the case must give (or a list of what it may give). */
export const HOSTILE_CASES = [
  {
    name: 'schema-10mb',
    what: 'a 10 MB schema (20,000 properties with 500-character descriptions)',
    expect: 'text',
    build: () => {
      const desc = 'x'.repeat(480);
      const props = [];
      for (let i = 0; i < 20000; i++) props.push(`"p${i}":{"type":"string","description":"${desc} ${i}"}`);
      return tool(`{"type":"object","properties":{${props.join(',')}}}`);
    },
    targets: ALL_TARGETS,
    minInputBytes: 10 * MB,
  },
  {
    name: 'nesting-10000-text',
    what: 'properties nested 10,000 deep (JSON text)',
    expect: 'error:schema/too-deep',
    build: () => tool(nestedPropertiesText(10000)),
    targets: ALL_TARGETS,
  },
  {
    name: 'nesting-10000-js',
    what: 'a default nested 10,000 deep (JavaScript value)',
    // converting the value may already run out of stack (input/too-deep), else the pre-pass refuses it
    expect: ['error:input/too-deep', 'error:schema/too-deep'],
    build: () => [{ name: 'f', parameters: { type: 'object', properties: { a: { default: nestedArrayValue(10000) } } } }],
    targets: ALL_TARGETS,
  },
  {
    name: 'nesting-100000-js',
    what: 'arrays nested 100,000 deep (JavaScript value)',
    expect: 'error:input/too-deep',
    build: () => [{ name: 'f', parameters: { type: 'object', properties: { a: { default: nestedArrayValue(100000) } } } }],
    targets: HARMONY_ONLY,
  },
  {
    name: 'nesting-200000-text',
    what: 'arrays nested 200,000 deep (JSON text, beyond the parser limit)',
    expect: 'error:input/not-json',
    build: () => `[{"name":"f","parameters":{"type":"object","properties":{"a":{"default":${'['.repeat(200000)}${']'.repeat(200000)}}}}}]`,
    targets: HARMONY_ONLY,
  },
  {
    name: 'nesting-120-all-kinds',
    what: 'properties, items, oneOf and allOf nested 120 deep (under the 128 limit)',
    expect: 'text',
    build: () => {
      let s = '{"type":"string","description":"leaf"}';
      for (let i = 0; i < 120; i++) {
        const k = i % 4;
        s = k === 0 ? `{"type":"object","properties":{"p":${s}},"required":["p"]}` : k === 1 ? `{"type":"array","items":${s}}` : k === 2 ? `{"oneOf":[${s},{"type":"null"}]}` : `{"allOf":[${s}]}`;
      }
      return tool(`{"type":"object","properties":{"root":${s}}}`);
    },
    targets: ALL_TARGETS,
  },
  {
    name: 'ref-cycle',
    what: '$ref cycles: A → B → A, and refs only to each other',
    expect: 'text',
    build: () => tool('{"type":"object","$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"},"N":{"type":"object","properties":{"next":{"$ref":"#/$defs/N"}}}},"properties":{"a":{"$ref":"#/$defs/A"},"n":{"$ref":"#/$defs/N"}}}'),
    targets: ALL_TARGETS,
  },
  {
    name: 'ref-self',
    what: 'a $ref into itself ("#", and a schema whose only keyword is a ref to itself)',
    expect: 'text',
    build: () => tool('{"type":"object","properties":{"child":{"$ref":"#"},"me":{"$ref":"#/properties/me"}}}'),
    targets: ALL_TARGETS,
  },
  {
    name: 'ref-chain-10000',
    what: 'a $ref chain 10,000 long (D0 → D1 → … → a string)',
    expect: 'text',
    build: () => {
      const defs = [];
      for (let i = 0; i < 10000; i++) defs.push(`"D${i}":${i === 9999 ? '{"type":"string"}' : `{"$ref":"#/$defs/D${i + 1}"}`}`);
      return tool(`{"type":"object","$defs":{${defs.join(',')}},"properties":{"x":{"$ref":"#/$defs/D0"}}}`);
    },
    targets: ALL_TARGETS,
  },
  {
    name: 'ref-fanout-40',
    what: 'refs that double at each of 40 levels (2^40 paths if inlined)',
    expect: 'text',
    build: () => {
      const defs = [];
      for (let i = 0; i < 40; i++) defs.push(`"L${i}":${i === 39 ? '{"type":"string"}' : `{"type":"object","properties":{"a":{"$ref":"#/$defs/L${i + 1}"},"b":{"$ref":"#/$defs/L${i + 1}"}}}`}`);
      return tool(`{"type":"object","$defs":{${defs.join(',')}},"properties":{"x":{"$ref":"#/$defs/L0"}}}`);
    },
    targets: ALL_TARGETS,
  },
  {
    name: 'tools-100000',
    what: '100,000 tools',
    expect: 'text',
    build: () => manyToolsText(100000),
    targets: HARMONY_ONLY,
  },
  {
    name: 'tools-100000-all-bad',
    what: '100,000 tools, each with a lone surrogate (100,000 errors)',
    expect: 'error:input/invalid-unicode',
    build: () => {
      const parts = [];
      for (let i = 0; i < 100000; i++) parts.push({ name: `t${i}`, description: `bad \ud800 ${i}` });
      return parts;
    },
    targets: HARMONY_ONLY,
  },
  {
    name: 'enum-100000',
    what: 'an enum of 100,000 values',
    expect: 'text',
    build: () => {
      const values = [];
      for (let i = 0; i < 100000; i++) values.push(`"value_${i}"`);
      return tool(`{"type":"object","properties":{"e":{"type":"string","enum":[${values.join(',')}]}}}`);
    },
    targets: ALL_TARGETS,
  },
  {
    name: 'name-1mb',
    what: 'a property name of 1 MB (and a 1 MB tool name)',
    expect: 'text',
    build: () => {
      const big = 'k'.repeat(MB);
      return tool(`{"type":"object","properties":{"${big}":{"type":"string"}},"required":["${big}"]}`, `t${'n'.repeat(MB)}`);
    },
    targets: ALL_TARGETS,
  },
  {
    name: 'duplicate-keys',
    what: 'duplicate keys: 100,000 repeats of one property, and a repeated name',
    expect: 'text',
    build: () => {
      const props = [];
      for (let i = 0; i < 100000; i++) props.push(`"x":{"type":"string","description":"copy ${i}"}`);
      return `[{"name":"first","name":"second","description":"d","parameters":{"type":"object","properties":{${props.join(',')}}}}]`;
    },
    targets: ALL_TARGETS,
  },
  {
    name: 'control-tokens-1mb',
    what: 'a 1 MB description made of <|end|> (escape policy)',
    expect: 'text',
    build: () => tool('{"type":"object","properties":{}}').replace('"description":"d"', `"description":"${'<|end|>'.repeat(150000)}"`),
    targets: ALL_TARGETS,
    options: { controlTokens: 'escape' },
  },
];

/** The case of this name. */
export function hostileCase(name) {
  const c = HOSTILE_CASES.find((x) => x.name === name);
  if (!c) throw new Error(`no hostile case ${name}`);
  return c;
}

/** Run one case: build, render each of its targets (with its options); every outcome must be what it expects. */
export function runHostileCase(api, c) {
  const input = c.build();
  const configs = c.targets.map((t) => ({ ...t, ...(c.options ?? {}) }));
  const results = renderAll(api, input, configs, { faithful: c.targets === ALL_TARGETS });
  const allowed = Array.isArray(c.expect) ? c.expect : [c.expect];
  const bad = results.filter((r) => !allowed.includes(r.outcome));
  return { inputBytes: typeof input === 'string' ? Buffer.byteLength(input) : undefined, results, bad };
}
