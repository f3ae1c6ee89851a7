/**
 * The hardening properties, as plain functions over a library object, so the test suite (src via
 * vitest) and the long fuzz run (bench/fuzz.mjs over dist/) check exactly the same things.
 *
 *   lib = { api, tokens, ts, faithful?, lint? }
 *     api       the public API (src/index.ts or dist/index.js)
 *     tokens    src/tokens.ts (encodeMessage, encodeText)
 *     ts        the typescript module
 *     faithful  (input, options) => RenderResult, when the faithful catalog exists
 *     lint      (input, options) => { findings }, when the lint exists
 *
 * Each check throws a PropertyFailure (with what was rendered and why it is wrong) or returns.
 */
import { modelToJs, modelToText, jsRoundTrips } from './arbitraries.mjs';

/** A broken property, with enough to reproduce it. */
export class PropertyFailure extends Error {
  constructor(message, details = {}) {
    super(message);
    this.name = 'PropertyFailure';
    this.details = details;
  }
}

/** Every printer: the harmony flavors, jsdoc, and each xml dialect. */
export const CONFIGS = [
  { target: 'harmony', flavor: 'openai-harmony' },
  { target: 'harmony', flavor: 'chat-template' },
  { target: 'jsdoc' },
  { target: 'xml', dialect: 'qwen' },
  { target: 'xml', dialect: 'qwen3-coder' },
  { target: 'xml', dialect: 'hermes' },
  { target: 'xml', dialect: 'anthropic' },
];

/** A printable name of a config. */
export const configName = (c) => c.dialect ?? c.flavor ?? c.target;

const SEVERITIES = new Set(['error', 'warning', 'info']);
const CONTROL_CODE = 'security/control-token';

/** Special tokens as an endpoint that tokenizes them inside text would read them (o200k_harmony's names; reserved ids 200000–201087). */
const SPECIAL_IN_TEXT = /<\|(startoftext|endoftext|return|constrain|channel|start|end|message|call|endofprompt|reserved_(\d+))\|>/g;

/** The special tokens a tokenizer that honours specials in text would find (name and offset). */
export function specialsInText(text) {
  const out = [];
  for (const m of text.matchAll(SPECIAL_IN_TEXT)) {
    if (m[2] !== undefined && (Number(m[2]) < 200000 || Number(m[2]) > 201087)) continue;
    out.push({ token: m[0], at: m.index });
  }
  return out;
}

/** Escape one JSON Pointer token. */
const ptr = (k) => String(k).replace(/~/g, '~0').replace(/\//g, '~1');

/** The value at a JSON Pointer of a lossless JsonValue. */
function at(doc, pointer) {
  if (pointer === '') return doc;
  let cur = doc;
  for (const raw of pointer.slice(1).split('/')) {
    const t = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur instanceof Map) cur = cur.get(t);
    else if (Array.isArray(cur)) cur = cur[Number(t)];
    else return undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

/**
 * Every string (keys included) under a pointer that holds a spelling, with its pointer (a key's
 * pointer is its member's). `spellings`: a family's (the xml dialects), else the generic ones.
 * `level`: `params` for a parameters schema, `tag` for a tool's other keys: the keys the
 * qwen3-coder template prints as tags (those, and each property's keywords) are checked as tags.
 */
function spellingPointers(api, doc, base, transform, spellings, level = 'plain') {
  const out = [];
  const raw = at(doc, base);
  const root = raw !== undefined && transform ? transform(raw) : raw;
  if (root === undefined) return out;
  const options = spellings ? { spellings } : {};
  const child = (l, k) => (l === 'params' && k === 'properties' ? 'props' : l === 'props' ? 'tag' : 'plain');
  const stack = [[root, base, level]];
  while (stack.length) {
    const [v, p, l] = stack.pop();
    if (typeof v === 'string') {
      if (api.findControlTokens(v, options).length) out.push(p);
    } else if (Array.isArray(v)) v.forEach((x, i) => stack.push([x, `${p}/${i}`, 'plain']));
    else if (v instanceof Map) {
      for (const [k, x] of v) {
        const q = `${p}/${ptr(k)}`;
        const tag = l === 'params' || l === 'tag';
        if ((api.findControlTokensInKey ?? api.findControlTokens)(k, { ...options, tag }).length) out.push(q);
        stack.push([x, q, child(l, k)]);
      }
    }
  }
  return out;
}

/** The family whose control strings join the policy for a config (the xml dialects but anthropic), if any. */
export function configFamily(config) {
  return config.target === 'xml' && config.dialect !== 'anthropic' ? config.dialect ?? 'qwen' : undefined;
}

/** The pointers the control-token policy must report for an input (the tool text of each tool the reader takes). */
export function expectedControlPointers(api, doc, tools, normalizeGemini, family) {
  const out = new Set();
  const spellings = family !== undefined && api.familyControlSpellings ? api.familyControlSpellings(family) : undefined;
  const options = spellings ? { spellings } : {};
  for (const t of tools) {
    const body = at(doc, t.body);
    if (!(body instanceof Map)) continue;
    const name = body.get('name');
    if (typeof name === 'string' && api.findControlTokens(name, options).length) out.add(`${t.body}/name`);
    if (body.has('description')) for (const p of spellingPointers(api, doc, `${t.body}/description`, undefined, spellings)) out.add(p);
    // Gemini: parametersJsonSchema wins over parameters when both are set
    const key = t.parametersKey === 'parameters' && body.has('parametersJsonSchema') && body.has('parameters') ? 'parametersJsonSchema' : t.parametersKey;
    // Gemini `parameters` are read with their type names lower-cased (`</TOOLS>` is printed `</tools>`)
    const gemini = key === 'parameters' && /\/functionDeclarations\/\d+$/.test(t.body) && normalizeGemini ? normalizeGemini : undefined;
    if (body.has(key)) for (const p of spellingPointers(api, doc, `${t.body}/${ptr(key)}`, gemini, spellings, 'params')) out.add(p);
    // the other keys of an OpenAI / bare tool (`strict`, `cache_control`…) are kept for the qwen dialects, which print them
    if (t.parametersKey === 'parameters' && !/\/functionDeclarations\/\d+$/.test(t.body)) {
      const responses = body.get('type') === 'function' && !body.has('function');
      for (const [k, v] of body) {
        if (k === 'name' || k === 'description' || k === 'parameters' || (responses && k === 'type')) continue;
        const q = `${t.body}/${ptr(k)}`;
        // printed as a tag by the qwen3-coder template
        if ((api.findControlTokensInKey ?? api.findControlTokens)(k, { ...options, tag: true }).length) out.add(q);
        void v;
        for (const p of spellingPointers(api, doc, q, undefined, spellings)) out.add(p);
      }
    }
    if (t.titlePointer !== undefined) {
      const direct = body.get('title');
      const title = typeof direct === 'string' ? direct : at(doc, t.titlePointer);
      // the reader keeps the title, not where it was: it is reported at `title`
      if (typeof title === 'string' && api.findControlTokens(title, options).length) out.add(`${t.body}/title`);
    }
  }
  return out;
}

/** Run a render and classify what happened: text, a CompileError, or anything else (a failure). */
export function outcome(api, fn, what) {
  let r;
  try {
    r = fn();
  } catch (e) {
    if (api.isCompileError(e)) {
      if (!Array.isArray(e.diagnostics) || !e.diagnostics.some((d) => d.severity === 'error')) throw new PropertyFailure(`${what}: a CompileError without an error diagnostic`, { diagnostics: e.diagnostics });
      checkDiagnostics(e.diagnostics, what);
      return { ok: false, message: e.message, diagnostics: e.diagnostics };
    }
    throw new PropertyFailure(`${what}: threw ${e?.name ?? typeof e}: ${e?.message ?? String(e)}`, { stack: e?.stack });
  }
  if (typeof r?.text !== 'string') throw new PropertyFailure(`${what}: returned no text`);
  checkDiagnostics(r.diagnostics, what);
  if (r.diagnostics.some((d) => d.severity === 'error')) throw new PropertyFailure(`${what}: returned text with an error diagnostic`, { diagnostics: r.diagnostics });
  return { ok: true, text: r.text, diagnostics: r.diagnostics };
}

function checkDiagnostics(list, what) {
  if (!Array.isArray(list)) throw new PropertyFailure(`${what}: diagnostics is not an array`);
  for (const d of list) {
    const ok = typeof d.code === 'string' && d.code !== '' && SEVERITIES.has(d.severity) && typeof d.path === 'string' && (d.path === '' || d.path.startsWith('/')) && typeof d.message === 'string' && d.message !== '' && (d.tool === undefined || typeof d.tool === 'string');
    if (!ok) throw new PropertyFailure(`${what}: a malformed diagnostic ${JSON.stringify(d)}`);
  }
}

/** Two outcomes are the same: the same text and diagnostics, or the same error. */
export function sameOutcome(a, b, what) {
  const key = (o) => (o.ok ? `ok\u0000${o.text}\u0000${JSON.stringify(o.diagnostics)}` : `error\u0000${o.message}`);
  if (key(a) !== key(b)) {
    throw new PropertyFailure(`${what}: two renderings differ`, { a: a.ok ? a.text : a.message, b: b.ok ? b.text : b.message });
  }
}

// ---------------------------------------------------------------------------------------
// Output checks

/** Parse diagnostics of a TypeScript text (`ts.createSourceFile`; syntax only). */
export function tsParseErrors(ts, text, name = 'catalog.ts') {
  const sf = ts.createSourceFile(name, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  return { sf, errors: sf.parseDiagnostics.map((d) => `${d.start}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`) };
}

/** Every property-signature name in a source file (identifier text or string-literal value). */
export function propertyNames(ts, sf) {
  const names = new Set();
  const visit = (n) => {
    if (ts.isPropertySignature(n) && n.name) names.add(ts.isIdentifier(n.name) || ts.isStringLiteral(n.name) || ts.isNumericLiteral(n.name) ? n.name.text : n.name.getText(sf));
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return names;
}

/** Top-level parameter names of each compiled tool whose parameters are an object. */
function parameterNames(compiled) {
  const out = [];
  for (const t of compiled.tools) if (t.parameters?.kind === 'object') for (const p of t.parameters.properties) out.push(p.name);
  return out;
}

const TS_RESERVED = new Set('break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with implements interface let package private protected public static yield await any unknown never number bigint boolean string symbol object undefined'.split(' '));
/** A name that can follow `type` in TypeScript. */
const isAliasName = (s) => /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(s) && !TS_RESERVED.has(s);

/** The JSDoc catalog's TypeScript parses, and keeps every top-level parameter name. */
export function checkJsdoc(lib, text, compiled, what) {
  const i = text.indexOf('declare namespace ');
  if (i < 0) {
    if (compiled.tools.length === 0) return;
    throw new PropertyFailure(`${what}: no declare namespace in the jsdoc catalog`, { text });
  }
  const { sf, errors } = tsParseErrors(lib.ts, text.slice(i), 'catalog.d.ts');
  if (errors.length) throw new PropertyFailure(`${what}: the jsdoc catalog does not parse as TypeScript: ${errors.slice(0, 3).join('; ')}`, { text });
  const names = propertyNames(lib.ts, sf);
  for (const n of parameterNames(compiled)) if (!names.has(n)) throw new PropertyFailure(`${what}: the jsdoc catalog lost the parameter ${JSON.stringify(n)}`, { text });
}

/** The faithful catalog parses as TypeScript (when every tool name is an identifier: names are printed verbatim by design) and keeps every parameter name. */
export function checkFaithful(lib, text, compiled, what) {
  const i = text.indexOf('namespace ');
  if (i < 0) return;
  const end = text.lastIndexOf('} // namespace ');
  const body = end > i ? text.slice(i, end + 1) : text.slice(i);
  if (!compiled.tools.every((t) => isAliasName(t.name))) return;
  const { sf, errors } = tsParseErrors(lib.ts, body, 'faithful.ts');
  if (errors.length) throw new PropertyFailure(`${what}: the faithful catalog does not parse as TypeScript: ${errors.slice(0, 3).join('; ')}`, { text });
  const names = propertyNames(lib.ts, sf);
  for (const n of parameterNames(compiled)) if (!names.has(n)) throw new PropertyFailure(`${what}: the faithful catalog lost the parameter ${JSON.stringify(n)}`, { text });
}

/**
 * A tiny XML 1.0 well-formedness check for element-only markup (what qwen3-coder prints): tags
 * without attributes, nested properly; text holds no `<`, a `&` only as an entity, only XML
 * characters. Returns undefined when well-formed, else why not. `loose` checks what the
 * qwen3-coder findings promise instead of all of XML 1.0: tag names without spaces or
 * `<>/&"'=` (so `<$defs>` passes), and any character in text.
 */
export function xmlProblem(text, { loose = false } = {}) {
  const NAME = /^[:A-Z_a-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\u{10000}-\u{EFFFF}][:A-Z_a-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\u{10000}-\u{EFFFF}\-.0-9\u00B7\u0300-\u036F\u203F-\u2040]*$/u;
  const BAD_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;
  const open = [];
  let i = 0;
  let roots = 0;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    const chunk = text.slice(i, lt < 0 ? text.length : lt);
    if (!loose && BAD_CHAR.test(chunk)) return `a character XML does not allow in text near ${JSON.stringify(chunk.slice(0, 40))}`;
    const amp = chunk.replace(/&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);/g, '');
    if (amp.includes('&')) return `a bare & in ${JSON.stringify(chunk.slice(0, 40))}`;
    if (open.length === 0 && chunk.trim() !== '') return `text outside the root element: ${JSON.stringify(chunk.slice(0, 40))}`;
    if (lt < 0) break;
    const gt = text.indexOf('>', lt);
    if (gt < 0) return 'a < that opens no tag';
    const tag = text.slice(lt + 1, gt);
    if (tag.startsWith('/')) {
      const name = tag.slice(1);
      const top = open.pop();
      if (top !== name) return `</${name}> closes <${top ?? '(nothing)'}>`;
    } else {
      if (loose ? /^$|[\s<>/&"'=]/.test(tag) : !NAME.test(tag)) return `<${tag}> is not a tag name`;
      if (open.length === 0 && ++roots > 1) return 'more than one root element';
      open.push(tag);
    }
    i = gt + 1;
  }
  if (open.length) return `<${open[open.length - 1]}> is never closed`;
  return undefined;
}

const QWEN_OPEN = 'You are provided with function signatures within <tools></tools> XML tags:\n<tools>';
const HERMES_INTRO_END = 'Here are the available tools: <tools> ';
const HERMES_CLOSE = ' </tools>Use the following pydantic model json schema';
const QWEN3_OPEN = 'You have access to the following functions:\n\n<tools>';
const QWEN3_CLOSE = '\n</tools>\n\nIf you choose to call a function';

/**
 * What each xml dialect promises a consumer, checked when the dialect gave no `xml/unparseable`
 * warning (the warnings say where the promise is broken):
 * - qwen: the `<tools>` block ends at the first `</tools>` and holds one JSON line per tool;
 * - anthropic: each `<function>` element ends at the first `</function>` and holds JSON;
 * - hermes: the first `</tools>` after the opening is the closing one (the lines are not JSON);
 * - qwen3-coder: the `<tools>` element parses as elements (balanced tags, no stray `<` or `&`,
 *   tag names without spaces or `<>/&"'=`: what its findings check; strict XML 1.0 would also
 *   refuse `<$defs>` and control characters, which the dialect does not promise), holds one
 *   `<function>` per tool, and the first `</tools>` closes it (a consumer that cuts there).
 */
export function checkXml(dialect, text, diagnostics, toolCount, what) {
  if (toolCount === 0 || text === '') return;
  const warned = diagnostics.some((d) => d.code === 'xml/unparseable');
  if (warned) return;
  const fail = (why) => {
    throw new PropertyFailure(`${what}: no xml/unparseable warning, yet ${why}`, { text });
  };
  if (dialect === 'qwen') {
    const s = text.indexOf(QWEN_OPEN);
    if (s < 0) fail('the <tools> opening is missing');
    const from = s + QWEN_OPEN.length;
    const end = text.indexOf('</tools>', from);
    const lines = text.slice(from, end).split('\n').slice(1, -1);
    if (lines.length !== toolCount) fail(`the <tools> block holds ${lines.length} lines for ${toolCount} tools`);
    for (const l of lines) {
      try {
        JSON.parse(l);
      } catch {
        fail(`a <tools> line is not JSON: ${l.slice(0, 80)}`);
      }
    }
  } else if (dialect === 'anthropic') {
    let i = text.indexOf('<functions>\n');
    if (i < 0) fail('<functions> is missing');
    i += '<functions>\n'.length;
    for (let k = 0; k < toolCount; k++) {
      if (!text.startsWith('<function>', i)) fail(`tool ${k} does not start with <function>`);
      const end = text.indexOf('</function>', i);
      const body = text.slice(i + '<function>'.length, end);
      try {
        JSON.parse(body);
      } catch {
        fail(`the <function> element of tool ${k} is not JSON: ${body.slice(0, 80)}`);
      }
      i = end + '</function>\n'.length;
    }
    if (!text.startsWith('</functions>', i)) fail('</functions> does not follow the last tool');
  } else if (dialect === 'hermes') {
    const s = text.indexOf(HERMES_INTRO_END);
    const close = text.lastIndexOf(HERMES_CLOSE);
    if (s < 0 || close < 0) fail('the <tools> block is missing');
    const first = text.indexOf('</tools>', s + HERMES_INTRO_END.length);
    if (first !== close + 1) fail(`the first </tools> (at ${first}) is not the closing one (at ${close + 1})`);
  } else if (dialect === 'qwen3-coder') {
    const s = text.indexOf(QWEN3_OPEN);
    const close = text.lastIndexOf(QWEN3_CLOSE);
    if (s < 0 || close < 0) fail('the <tools> element is missing');
    const xml = text.slice(s + QWEN3_OPEN.length - '<tools>'.length, close + '\n</tools>'.length);
    const problem = xmlProblem(xml, { loose: true });
    if (problem) fail(`the <tools> element is not well-formed XML: ${problem}`);
    const first = text.indexOf('</tools>', s + QWEN3_OPEN.length);
    if (first !== close + 1) fail(`the first </tools> (at ${first}) is not the closing one (at ${close + 1})`);
    const functions = (xml.match(/\n<function>\n<name>/g) ?? []).length;
    if (functions < toolCount) fail(`${functions} <function> elements for ${toolCount} tools`);
  }
}

// ---------------------------------------------------------------------------------------
// The properties of one generated input

/**
 * Check one generated input (`sample` from inputArb) under one control-token policy and part:
 * - every printer returns text or throws a CompileError with error diagnostics, nothing else;
 * - rendering twice gives the same bytes; JSON text and its lossless JsonValue render alike;
 *   a JavaScript value renders as its JSON.stringify text when no number changes on the way;
 * - the JSDoc catalog (and the faithful one) parse as TypeScript and keep every parameter name;
 * - each xml dialect keeps its promise unless it warned (checkXml);
 * - control tokens: `keep` warns at every string that spells one, `error` refuses it, `escape`
 *   leaves no spelling in the Harmony and JSDoc catalogs and no special token in the developer
 *   message, even for a tokenizer that reads specials inside text.
 * Returns counts for the report.
 */
export function checkSample(lib, sample, options) {
  const { api } = lib;
  const { policy = 'keep', part = 'catalog', pick = 0, skip = [] } = options;
  const text = modelToText(sample.model);
  let doc;
  try {
    doc = api.parseJson(text);
  } catch {
    doc = undefined;
  }
  const base = { controlTokens: policy };
  const render = (input, config, p = part) => {
    const o = { ...config, ...base };
    if (p === 'catalog') return api.renderCatalog(input, o);
    if (config.target === 'xml' && (p === 'developer' || p === 'system')) return api.renderCatalog(input, o);
    return api.renderPart(input, { ...o, part: p });
  };
  const stats = { renders: 0, errors: 0 };
  // the pointers the policy must report, per family whose control strings join it (the xml dialects)
  const expectedByFamily = new Map();
  const expectedFor = (config) => {
    const family = configFamily(config);
    if (!expectedByFamily.has(family)) expectedByFamily.set(family, doc !== undefined ? expectedControlPointers(api, doc, sample.tools, lib.normalizeGemini, family) : new Set());
    return expectedByFamily.get(family);
  };
  let compiled;
  try {
    compiled = api.compileTools(text, base);
  } catch (e) {
    if (!api.isCompileError(e)) throw new PropertyFailure(`compileTools threw ${e?.name}: ${e?.message}`, { stack: e?.stack });
  }

  CONFIGS.forEach((config, k) => {
    const what = `${configName(config)} ${part} (controlTokens ${policy})`;
    const expected = expectedFor(config);
    const a = outcome(api, () => render(text, config), what);
    stats.renders++;
    if (k === pick % CONFIGS.length) {
      // one printer a case: the same input again (deterministic), as a lossless JsonValue, as a JavaScript value
      sameOutcome(a, outcome(api, () => render(text, config), what), `${what}, deterministic`);
      if (doc !== undefined) sameOutcome(a, outcome(api, () => render(doc, config), `${what}, JsonValue input`), `${what}: JSON text vs its JsonValue`);
      const js = modelToJs(sample.model);
      const viaJs = outcome(api, () => render(js, config), `${what}, JavaScript input`);
      if (jsRoundTrips(sample.model)) sameOutcome(viaJs, outcome(api, () => render(JSON.stringify(js), config), `${what}, JSON.stringify input`), `${what}: JavaScript value vs its JSON.stringify text`);
      stats.renders += 4;
    }
    if (!a.ok) {
      stats.errors++;
      // a reading error stops before tool text is looked at
      if (policy === 'error' && expected.size > 0 && !a.diagnostics.some((d) => d.severity === 'error' && d.code.startsWith('input/'))) {
        const got = new Set(a.diagnostics.filter((d) => d.code === CONTROL_CODE && d.severity === 'error').map((d) => d.path));
        for (const p of expected) if (!got.has(p)) throw new PropertyFailure(`${what}: no control-token error at ${p}`, { got: [...got] });
      }
      if (policy !== 'error' && a.diagnostics.some((d) => d.code === CONTROL_CODE && d.severity === 'error')) throw new PropertyFailure(`${what}: a control-token error under ${policy}`);
      return;
    }
    if (policy === 'error' && expected.size > 0) throw new PropertyFailure(`${what}: rendered although the tool text spells a control token (at ${[...expected][0]})`);
    const control = a.diagnostics.filter((d) => d.code === CONTROL_CODE);
    const got = new Set(control.map((d) => d.path));
    const want = policy === 'escape' ? 'info' : 'warning';
    if (control.some((d) => d.severity !== want)) throw new PropertyFailure(`${what}: a control-token diagnostic is not a ${want}`);
    for (const p of expected) if (!got.has(p)) throw new PropertyFailure(`${what}: no control-token diagnostic at ${p}`, { got: [...got], expected: [...expected] });
    for (const p of got) if (!expected.has(p)) throw new PropertyFailure(`${what}: a control-token diagnostic at ${p}, where no tool text spells one`, { expected: [...expected] });
    const tools = compiled?.tools.length ?? 0;
    if (part === 'catalog') {
      if (config.target === 'jsdoc' && compiled) checkJsdoc(lib, a.text, compiled, what);
      if (config.target === 'xml') checkXml(config.dialect, a.text, a.diagnostics, tools, what);
      if (policy === 'escape') {
        const left = api.findControlTokens(a.text).filter((s) => config.target !== 'xml' || s.startsWith('<|'));
        if (left.length) throw new PropertyFailure(`${what}: ${JSON.stringify(left[0])} is left in the escaped catalog`, { text: a.text });
      }
    }
  });

  if (policy === 'escape' && compiled) {
    // token level: the developer message has no special token but its envelope, even when specials in text are honoured
    const d = outcome(api, () => api.renderDeveloperMessage(text, base), 'developer (escape)');
    if (d.ok) checkEnvelopeOnly(lib, d.text, 'developer (escape)');
  }

  if (lib.faithful && !skip.includes('faithful')) {
    const what = `faithful ${part} (controlTokens ${policy})`;
    const a = outcome(api, () => lib.faithful(text, base), what);
    stats.renders++;
    if (pick % 4 === 0) sameOutcome(a, outcome(api, () => lib.faithful(text, base), what), `${what}, deterministic`), stats.renders++;
    if (a.ok && compiled) {
      checkFaithful(lib, a.text, compiled, what);
      if (policy === 'escape' && api.findControlTokens(a.text).length) throw new PropertyFailure(`${what}: a control token is left in the escaped faithful catalog`, { text: a.text });
    }
  }

  if (lib.lint && doc !== undefined && !skip.includes('lint')) checkLint(lib, text, doc, sample, stats);
  return stats;
}

/** Token ids of a developer message: special ids only at the envelope (first, `<|message|>`, last); and no special a text-honouring tokenizer would see. */
export function checkEnvelopeOnly(lib, content, what) {
  const ids = lib.tokens.encodeMessage({ header: 'developer', content });
  const specials = new Set(Object.values(lib.tokens.HARMONY_SPECIAL_TOKENS));
  const headerLen = lib.tokens.encodeText('developer').length;
  ids.forEach((id, i) => {
    const envelope = i === 0 || i === headerLen + 1 || i === ids.length - 1;
    if ((specials.has(id) || id >= 199998) !== envelope) throw new PropertyFailure(`${what}: token ${i} (id ${id}) is ${envelope ? 'not the envelope special' : 'a special token inside the content'}`);
  });
  const found = specialsInText(content);
  if (found.length) throw new PropertyFailure(`${what}: a tokenizer that reads specials in text finds ${found[0].token} at ${found[0].at}`, { content });
}

/** A line break with text on both sides: printed verbatim, it is raw in the output. */
const INNER_BREAK = /[^\n\r\u2028\u2029][\n\r\u2028\u2029]+[^\n\r\u2028\u2029]/;
/** The lint's control-token form (gpt-oss flavors: `<|name|>` spellings). */
const PIPE_TOKEN = /<\|[A-Za-z0-9_]+\|>/;

/**
 * Every string (keys included) of the tool text the lint reads (name, description, parameters),
 * with pointers: the names and descriptions of all tools first, then the parameters in document
 * order, so that a text found in several places is blamed on where it is printed most directly.
 */
function toolTextStrings(doc, tools) {
  const names = [];
  const rest = [];
  const walk = (roots, out) => {
    const stack = roots.filter(([, v]) => v !== undefined).reverse();
    while (stack.length) {
      const [p, v, key] = stack.pop();
      if (key !== undefined) out.push({ text: key, pointer: p, key: true });
      if (typeof v === 'string') out.push({ text: v, pointer: p });
      else if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push([`${p}/${i}`, v[i]]);
      else if (v instanceof Map) {
        const entries = [...v];
        for (let i = entries.length - 1; i >= 0; i--) stack.push([`${p}/${ptr(entries[i][0])}`, entries[i][1], entries[i][0]]);
      }
    }
  };
  for (const t of tools) {
    const body = at(doc, t.body);
    if (!(body instanceof Map)) continue;
    walk([[`${t.body}/name`, body.get('name')], [`${t.body}/description`, body.get('description')]], names);
    const key = t.parametersKey === 'parameters' && body.has('parametersJsonSchema') && body.has('parameters') ? 'parametersJsonSchema' : t.parametersKey;
    walk([[`${t.body}/${ptr(key)}`, body.get(key)]], rest);
  }
  return [...names, ...rest];
}

/** A copy of a JsonValue with the string (or the key) at a pointer replaced by `by`. */
function replaceAt(doc, pointer, isKey, by) {
  const tokens = pointer === '' ? [] : pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  const go = (v, i) => {
    if (i === tokens.length) return by;
    const t = tokens[i];
    if (Array.isArray(v)) return v.map((x, k) => (String(k) === t ? go(x, i + 1) : x));
    if (!(v instanceof Map)) return v;
    const m = new Map();
    for (const [k, x] of v) {
      if (k !== t) m.set(k, x);
      else if (isKey && i === tokens.length - 1) m.set(by, x);
      else m.set(k, go(x, i + 1));
    }
    return m;
  };
  return go(doc, 0);
}

/** How many times `needle` stands in `text`. */
function occurrences(text, needle) {
  let n = 0;
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** A text with a line break that, printed verbatim, leaves something after the break that is not a `//` comment. */
function breaksOut(text) {
  if (!INNER_BREAK.test(text)) return false;
  return text.split(/\r\n|[\n\r\u2028\u2029]/).slice(1).some((seg) => seg !== '' && !seg.startsWith('//'));
}

/**
 * True when `"text"` stands in the output as a type (after `: ` or `| `, outside a `//` comment):
 * a quote there ends the string literal early. (A quote that lands outside a comment only
 * because another text broke the comment line is that other text's breakout.)
 */
function quotedOutsideComment(out, text) {
  const needle = `"${text}"`;
  for (let i = out.indexOf(needle); i >= 0; i = out.indexOf(needle, i + 1)) {
    const before = out.slice(Math.max(0, i - 2), i);
    if (before !== ': ' && before !== '| ') continue;
    const lineStart = Math.max(out.lastIndexOf('\n', i), out.lastIndexOf('\r', i), out.lastIndexOf('\u2028', i), out.lastIndexOf('\u2029', i)) + 1;
    if (!out.slice(lineStart, i).includes('//')) return true;
  }
  return false;
}

/**
 * The lint, against the exact outputs (openai-harmony and the chat template): every `<|name|>`
 * spelling in tool text is flagged at its pointer under each flavor, and every string that
 * reaches the output as a breakout (a line break printed raw, or a quote inside a printed
 * `"…"`) is flagged at its pointer under the flavor that printed it.
 */
export function checkLint(lib, text, doc, sample, stats) {
  const { api } = lib;
  let r;
  try {
    r = lib.lint(text);
  } catch (e) {
    if (api.isCompileError(e)) return;
    throw new PropertyFailure(`lint threw ${e?.name}: ${e?.message}`, { stack: e?.stack });
  }
  stats.renders++;
  if (!Array.isArray(r?.findings)) throw new PropertyFailure('lint returned no findings array');
  const strings = toolTextStrings(doc, sample.tools);
  for (const flavor of ['openai-harmony', 'chat-template']) {
    const flagged = new Map();
    for (const f of r.findings) if (f.flavor === flavor) flagged.set(f.path, [...(flagged.get(f.path) ?? []), f.code]);
    let out;
    try {
      out = api.renderCatalog(text, { target: 'harmony', flavor }).text;
    } catch (e) {
      if (!api.isCompileError(e)) throw e;
      out = undefined;
    }
    stats.renders++;
    // the same text may stand in several places (a property name and its `required` entry): one of them flagged is enough
    // a line break inside a value printed whole (a JSON default) is flagged on that value: an ancestor pointer counts
    const breakFlagged = [...flagged].filter(([, codes]) => codes.includes('lint/comment-newline')).map(([p]) => p);
    const isFlagged = (ptr) => flagged.has(ptr) || breakFlagged.some((p) => p !== '' && ptr.startsWith(`${p}/`));
    const flaggedTexts = new Set(strings.filter((s) => isFlagged(s.pointer)).map((s) => s.text));
    for (const s of strings) {
      if (PIPE_TOKEN.test(s.text) && !(flagged.get(s.pointer) ?? []).includes('lint/control-token')) {
        throw new PropertyFailure(`lint (${flavor}): the control-token spelling at ${s.pointer} is not flagged`, { text: s.text, flagged: [...flagged.keys()] });
      }
      if (out === undefined || flaggedTexts.has(s.text)) continue;
      const raw = breaksOut(s.text) && out.includes(s.text);
      const quoted = !raw && s.text.includes('"') && quotedOutsideComment(out, s.text);
      // it must come from there: with that string replaced, the output holds it fewer times
      const fromHere = () => {
        let other;
        try {
          other = api.renderCatalog(replaceAt(doc, s.pointer, s.key === true, '\u0000placeholder\u0000'), { target: 'harmony', flavor }).text;
        } catch (e) {
          if (!api.isCompileError(e)) throw e;
          return true;
        }
        const needle = raw ? s.text : `"${s.text}"`;
        return occurrences(other, needle) < occurrences(out, needle);
      };
      if ((raw || quoted) && fromHere()) {
        throw new PropertyFailure(`lint (${flavor}): ${JSON.stringify(s.text.slice(0, 60))} at ${s.pointer} reaches the output ${raw ? 'with a raw line break' : 'inside "…" with a quote'}, and nothing is flagged there`, { output: out });
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// Known open bugs (reported to their owners; see test/hardening/regressions.test.ts). A failure
// matching one is counted, not raised, so the runs keep looking for new ones. Remove an entry
// when its bug is fixed.

/** Open bugs the properties find, each with the file that owns it and how its failures read. */
// Each bug the fuzzing found was fixed (test/hardening/regressions.test.ts); a new one is listed
// here, by id, owner and a matcher of its failure message, until it is fixed.
export const KNOWN_ISSUES = [];

/** The known issue a failure message belongs to, if any. */
export function knownIssue(message) {
  return KNOWN_ISSUES.find((k) => k.match(message));
}
