/**
 * Lint: for each tool and JSON Pointer, what the model will not see (or will misread) under
 * each flavor. The tools are read and lowered once; each flavor walks them the way its
 * renderer reads them (`harmony.ts`, `chat-template.ts`). Codes and severities: `types.ts`.
 */
import { countListedFindings } from './report.js';
import type { Diagnostic } from '../diagnostics.js';
import type { JsonValue } from '../ir/json.js';
import { asRead, type ToolsInput } from '../api/compile.js';
import { lowerTool } from '../lower/index.js';
import { lintChatTemplateTool } from './chat-template.js';
import { lintHarmonyTool } from './harmony.js';
import { lintTemplateTool } from './template.js';
import { isReadResult, standaloneTools, toolDocument } from '../build/tool-values.js';
import { resolveModel } from '../api/models.js';
import { TEMPLATES, type TemplateName } from '../models/templates/index.js';
import type { ToolDefinition } from '../input/types.js';
import { checkBrokenRefs, Reporter } from './report.js';
import { LINT_FLAVORS, type Finding, type LintOptions, type LintResult } from './types.js';
import { pushAll } from '../ir/arrays.js';

export { LINT_FLAVORS, LINT_RULES, severityOf, type Finding, type LintCode, type LintFlavor, type LintOptions, type LintResult, type LintRule } from './types.js';

/**
 * Lint tool definitions (any input shape). Throws a CompileError only when the input cannot
 * be read; problems of single schemas are diagnostics, and the tools are linted as lowered.
 */
export function lintTools(input: ToolsInput, options: LintOptions = {}): LintResult {
  const flavors = options.flavors ?? (options.template !== undefined ? [] : LINT_FLAVORS);
  const read = asRead(input);
  const diagnostics: Diagnostic[] = [...read.diagnostics];
  const findings: Finding[] = [];
  // a given template renders each tool's own value (as the inventory does), read alone
  const values = options.template !== undefined ? standaloneTools(isReadResult(input) ? undefined : toolDocument(input), read.tools) : [];
  for (const [i, def] of read.tools.entries()) {
    const lowered = lowerTool(def);
    pushAll(diagnostics, lowered.diagnostics);
    // the lowering resolves every $ref once: the ones that resolve to nothing are lint errors
    const brokenRefs = new Set(lowered.diagnostics.filter((d) => d.code === 'schema/unresolved-ref').map((d) => d.path));
    for (const flavor of LINT_FLAVORS) {
      if (!flavors.includes(flavor)) continue;
      const r = new Reporter(findings, flavor, def, brokenRefs);
      if (flavor === 'openai-harmony') lintHarmonyTool(lowered.tool, r);
      else lintChatTemplateTool(lowered.tool, r, diagnostics);
      checkBrokenRefs(r);
    }
    if (options.template !== undefined) lintTemplateTool(values[i] as JsonValue, options, new Reporter(findings, 'template', def, brokenRefs), diagnostics);
  }
  pushAll(diagnostics, familyRules(options, read.tools));
  return { findings, diagnostics };
}

/** The family's own lint rules (`family/unparseable`, src/models/findings.ts), when the template read is its official one. */
function familyRules(options: LintOptions, tools: readonly ToolDefinition[]): readonly Diagnostic[] {
  if (options.model === undefined || options.template === undefined || !tools.length) return [];
  const r = resolveModel(options.model);
  if (r.kind !== 'family' || r.family.findings === undefined || options.template.text !== TEMPLATES[r.family.template as TemplateName].text) return [];
  return r.family.findings(tools);
}

/** Counts of findings by severity. */
export function countFindings(findings: readonly Finding[]): { errors: number; warnings: number; infos: number } {
  // one count rule: what is listed (a finding several flavors share counts once)
  return countListedFindings(findings);
}
