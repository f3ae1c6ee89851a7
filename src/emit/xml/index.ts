/**
 * The `xml` target: the `<tools>` / XML tool catalogs other model families read, byte-exact
 * with each family's official chat template (anthropic: the published layout). Templates
 * react to the raw schema, so these printers read the ToolDefinition's JSON, not the IR.
 */
import { assertNever, type Diagnostic } from '../../diagnostics.js';
import type { ToolDefinition } from '../../input/types.js';
import { ANTHROPIC_CALLING_INSTRUCTIONS, emitAnthropicCatalog, renderAnthropicPrompt } from './anthropic.js';
import { anthropicFindings, collectFindings, hermesFindings, qwen3CoderFindings, qwenFindings } from './findings.js';
import { HERMES_CALLING_INSTRUCTIONS, emitHermesCatalog, renderHermesPrompt } from './hermes.js';
import { QWEN_CALLING_INSTRUCTIONS, emitQwenCatalog, renderQwenPrompt } from './qwen.js';
import { QWEN3_CODER_CALLING_INSTRUCTIONS, emitQwen3CoderCatalog, renderQwen3CoderPrompt } from './qwen3-coder.js';
import type { XmlMessage } from './template.js';

/** One chat message as the templates read it. */
export type { XmlMessage } from './template.js';

/** The chat-template families the xml target prints for. */
export type XmlDialect = 'qwen' | 'qwen3-coder' | 'hermes' | 'anthropic';

/** Every xml dialect. */
export const XML_DIALECTS: readonly XmlDialect[] = ['qwen', 'qwen3-coder', 'hermes', 'anthropic'];

/** Options for {@link renderXmlPrompt}. */
export interface XmlPromptOptions {
  readonly tools: readonly ToolDefinition[];
  readonly dialect: XmlDialect;
  /** A system message placed first (only when non-empty, as the reference renderer does). */
  readonly instructions?: string;
  /** The conversation (default: one user message "hi"). */
  readonly messages?: readonly XmlMessage[];
  /** End with the assistant turn's opening (default true). */
  readonly addGenerationPrompt?: boolean;
}

/** A whole prompt and the `xml/unparseable` warnings about it. */
export interface XmlPromptResult {
  readonly text: string;
  readonly diagnostics: readonly Diagnostic[];
}

/** The tools block and calling instructions as the dialect's template places them (empty when there are no tools; hermes throws, as its template does). */
export function emitXmlCatalog(tools: readonly ToolDefinition[], dialect: XmlDialect): string {
  switch (dialect) {
    case 'qwen':
      return emitQwenCatalog(tools);
    case 'qwen3-coder':
      return emitQwen3CoderCatalog(tools);
    case 'hermes':
      return emitHermesCatalog(tools);
    case 'anthropic':
      return emitAnthropicCatalog(tools);
    default:
      return assertNever(dialect);
  }
}

/** The whole prompt exactly as the dialect's template renders it; throws a CompileError (`xml/template-fails`) where the template raises. */
export function renderXmlPrompt(options: XmlPromptOptions): XmlPromptResult {
  const { tools, dialect } = options;
  const base = options.messages ?? [{ role: 'user', content: 'hi' }];
  // the reference renderer adds the system message only for a non-empty instructions string
  const messages: readonly XmlMessage[] = options.instructions ? [{ role: 'system', content: options.instructions }, ...base] : base;
  const gen = options.addGenerationPrompt ?? true;
  let text: string;
  switch (dialect) {
    case 'qwen':
      text = renderQwenPrompt(tools, messages, gen);
      break;
    case 'qwen3-coder':
      text = renderQwen3CoderPrompt(tools, messages, gen);
      break;
    case 'hermes':
      text = renderHermesPrompt(tools, messages, gen);
      break;
    case 'anthropic':
      text = renderAnthropicPrompt(tools, messages, gen);
      break;
    default:
      return assertNever(dialect);
  }
  return { text, diagnostics: xmlFindings(tools, dialect) };
}

/** The dialect's instructions for calling a tool (the part of the catalog after, or for anthropic before, the tools). */
export function xmlCallingInstructions(dialect: XmlDialect): string {
  switch (dialect) {
    case 'qwen':
      return QWEN_CALLING_INSTRUCTIONS;
    case 'qwen3-coder':
      return QWEN3_CODER_CALLING_INSTRUCTIONS;
    case 'hermes':
      return HERMES_CALLING_INSTRUCTIONS;
    case 'anthropic':
      return ANTHROPIC_CALLING_INSTRUCTIONS;
    default:
      return assertNever(dialect);
  }
}

/** Warnings (`xml/unparseable`) where the dialect prints text a consumer cannot parse back. */
export function xmlFindings(tools: readonly ToolDefinition[], dialect: XmlDialect): Diagnostic[] {
  switch (dialect) {
    case 'qwen':
      return collectFindings(tools, qwenFindings);
    case 'qwen3-coder':
      return collectFindings(tools, qwen3CoderFindings);
    case 'hermes':
      return collectFindings(tools, hermesFindings);
    case 'anthropic':
      return collectFindings(tools, anthropicFindings);
    default:
      return assertNever(dialect);
  }
}
