/** What lint reports: findings (diagnostics with a flavor), and the table of every finding code. */
import type { Diagnostic, Severity } from '../diagnostics.js';
import type { TemplateOption } from '../api/render.js';
import type { ModelName } from '../models/names.js';

/**
 * The renderers lint reads a tool as: openai-harmony, the official gpt-oss chat template, or a chat
 * template the user gives (`template`: `lint --template FILE`, LintOptions.template).
 */
export type LintFlavor = 'openai-harmony' | 'chat-template' | 'template';

/** The gpt-oss flavors, in the order findings are reported (the default; `template` is read when a template is given). */
export const LINT_FLAVORS: readonly ('openai-harmony' | 'chat-template')[] = ['openai-harmony', 'chat-template'];

/** One thing the model will not see (or will misread) under one flavor, at a JSON Pointer of the input. */
export interface Finding extends Diagnostic {
  /** The flavor it applies to. */
  readonly flavor?: LintFlavor;
}

/** Options of `lintTools`. */
export interface LintOptions {
  /** The gpt-oss flavors to read the tools as. Default: both, or none when a `template` is given. */
  readonly flavors?: readonly LintFlavor[];
  /**
   * A chat template to read the tools as (flavor `template`): where it raises on a tool
   * (`lint/template-error`) and which descriptions it does not print (`lint/dropped-description`).
   */
  readonly template?: TemplateOption;
  /** The family whose special tokens the template takes (as the render option `model`). */
  readonly model?: ModelName;
}

/** Findings, and what reading and lowering the input noticed. */
export interface LintResult {
  readonly findings: Finding[];
  readonly diagnostics: Diagnostic[];
}

/** One lint code: its severity (per flavor where they differ), the flavors it applies to, what it means. */
export interface LintRule {
  readonly severity: Severity | Readonly<Partial<Record<LintFlavor, Severity>>>;
  readonly flavors: readonly LintFlavor[];
  /** One line: what the model sees instead. */
  readonly summary: string;
}

const BOTH: readonly LintFlavor[] = ['openai-harmony', 'chat-template'];
const HARMONY: readonly LintFlavor[] = ['openai-harmony'];
const TEMPLATE: readonly LintFlavor[] = ['chat-template'];
/** The gpt-oss chat template, and a template the user gives. */
const ANY_TEMPLATE: readonly LintFlavor[] = ['chat-template', 'template'];

/** Every lint code. Codes are stable: new meanings get new codes. */
export const LINT_RULES = {
  'lint/any-anyof': { severity: 'warning', flavors: BOTH, summary: 'an anyOf is shown as `any`' },
  'lint/any-allof': { severity: 'warning', flavors: BOTH, summary: 'an allOf is shown as `any`' },
  'lint/any-ref': { severity: 'warning', flavors: BOTH, summary: 'a $ref is shown as `any` (references are not followed)' },
  'lint/unresolved-ref': { severity: 'error', flavors: BOTH, summary: 'a $ref that resolves to nothing: shown as `any`, and no call to the tool can be checked (never runnable)' },
  'lint/any-const': { severity: 'warning', flavors: BOTH, summary: 'a const without a type is shown as `any`' },
  'lint/any-enum': { severity: 'warning', flavors: BOTH, summary: 'an enum without a type is shown as `any`' },
  'lint/any-missing-type': { severity: 'warning', flavors: BOTH, summary: 'properties or items without `type` are shown as `any`' },
  'lint/any-null': { severity: 'info', flavors: BOTH, summary: '`type: "null"` alone is shown as `any`' },
  'lint/any-unsupported': { severity: 'warning', flavors: BOTH, summary: '`not`, `if`, or the `false` schema is shown as `any`' },
  'lint/any-tuple': { severity: 'warning', flavors: BOTH, summary: 'a tuple (`prefixItems`, `items: [..]`) loses its positions' },
  'lint/ignored-keyword': { severity: 'warning', flavors: BOTH, summary: 'a keyword beside the one the renderer reads is ignored' },
  'lint/type-list-drops-schema': { severity: 'warning', flavors: BOTH, summary: 'a `type` list is shown as bare type names: its properties, items or enum are lost' },
  'lint/enum-as-type': { severity: 'warning', flavors: BOTH, summary: 'a number, integer or boolean enum is shown as its plain type' },
  'lint/enum-non-string-value': { severity: 'warning', flavors: BOTH, summary: 'a non-string value in a string enum is dropped (harmony) or shown as a string (template)' },
  'lint/unescaped-enum-value': { severity: 'warning', flavors: BOTH, summary: 'an enum string holds a quote or a line break, printed raw inside "…"' },
  'lint/dropped-nested-description': { severity: 'warning', flavors: TEMPLATE, summary: 'the description of a nested property is dropped' },
  'lint/dropped-nested-default': { severity: 'warning', flavors: TEMPLATE, summary: 'the default of a nested property is dropped' },
  'lint/dropped-description': { severity: 'warning', flavors: [...BOTH, 'template'], summary: 'a description where the renderer never prints one (array items, the parameters root…; anywhere a given template does not print it)' },
  'lint/dropped-default': { severity: 'warning', flavors: BOTH, summary: 'a default where the renderer never prints one' },
  'lint/dropped-title': { severity: 'info', flavors: BOTH, summary: 'a title is dropped (everywhere in the template; off properties in harmony)' },
  'lint/dropped-examples': { severity: 'info', flavors: BOTH, summary: 'examples are dropped (everywhere in the template; off properties in harmony)' },
  'lint/dropped-non-string-example': { severity: 'info', flavors: HARMONY, summary: 'a non-string example prints nothing (the `// Examples:` heading stays)' },
  'lint/dropped-item-enum': { severity: 'warning', flavors: TEMPLATE, summary: 'the enum of scalar array items is dropped (`string[]`)' },
  'lint/array-collapsed': { severity: 'warning', flavors: TEMPLATE, summary: 'an array of objects (or of any long type) is collapsed to `any[]`' },
  'lint/array-union-precedence': { severity: 'info', flavors: BOTH, summary: 'an array of a union prints `A | B[]`, which reads as "A, or an array of B"' },
  'lint/dropped-nullable': { severity: 'warning', flavors: BOTH, summary: '`nullable: true` is not shown' },
  'lint/dropped-constraint': { severity: 'info', flavors: BOTH, summary: 'format, pattern, bounds, uniqueItems, deprecated are never shown' },
  'lint/dropped-additional-properties': { severity: 'warning', flavors: BOTH, summary: 'an `additionalProperties` schema or `patternProperties` is never shown' },
  'lint/parameters-not-shown': { severity: 'warning', flavors: TEMPLATE, summary: 'parameters without a non-empty `properties` print `() => any`' },
  'lint/comment-newline': { severity: 'warning', flavors: BOTH, summary: 'a line break in text printed after `//`: the rest reads as schema text' },
  'lint/variant-comment': { severity: 'warning', flavors: TEMPLATE, summary: 'a oneOf variant\'s description or default is glued on as `// …`, swallowing the ` | ` after it' },
  'lint/property-name-not-identifier': { severity: 'info', flavors: BOTH, summary: 'a property name that is not an identifier is printed raw' },
  'lint/property-name-breaks-layout': { severity: 'warning', flavors: BOTH, summary: 'a property name holding spaces, quotes, `:`, `,`, `?`, `/`, brackets or a line break is printed raw' },
  'lint/tool-name-not-identifier': { severity: 'info', flavors: BOTH, summary: 'a tool name that is not an identifier is printed raw after `type`' },
  'lint/invisible-character': { severity: 'warning', flavors: [...BOTH, 'template'], summary: 'an invisible character in the tool\'s text (a bidi control such as U+202E, a zero-width space, tag characters…): the model reads it, a reviewer does not see it' },
  'lint/control-token': { severity: { 'openai-harmony': 'warning', 'chat-template': 'error' }, flavors: BOTH, summary: 'a control-token spelling (`<|end|>`, `<|start|>`…) inside the tool: possible prompt injection' },
  'lint/template-error': { severity: 'error', flavors: ANY_TEMPLATE, summary: 'the chat template raises on this tool: servers reject the request' },
  'lint/js-jinja-differs': { severity: 'info', flavors: TEMPLATE, summary: 'JavaScript Jinja (@huggingface/jinja) renders this tool differently from Jinja2' },
} as const satisfies Record<string, LintRule>;

/** A lint code. */
export type LintCode = keyof typeof LINT_RULES;

/** The severity of a code under a flavor. */
export function severityOf(code: LintCode, flavor: LintFlavor): Severity {
  const s: LintRule['severity'] = LINT_RULES[code].severity;
  return typeof s === 'string' ? s : (s[flavor] ?? 'warning');
}
