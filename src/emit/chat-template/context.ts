/**
 * What the chat-template printer carries while it prints one tool: the schema as written
 * (for the few facts the IR does not keep), where pointers start, the first template error
 * (thrown as a TemplateFailure) and the notes on JavaScript Jinja engines.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../ir/json.js';
import type { IrNode } from '../../ir/nodes.js';
import { resolvePointer } from '../../lower/refs.js';
import { TemplateFailure, type JinjaError } from '../python/errors.js';

/** A place where @huggingface/jinja would print something else than Jinja2, or fail where it renders. */
export interface JsJinjaNote {
  readonly pointer: string;
  readonly message: string;
}

/** The printer's state for one tool. */
export interface ChatTemplateContext {
  /**
   * The parameters schema as written, which the IR nodes' pointers index. The printer reads
   * from it only the facts the IR does not keep (`rawKeyword`, used by types.ts and catalog.ts); without it, the IR's reading
   * is used for those facts.
   */
  readonly source?: JsonValue;
  /** Pointer of the parameters schema in the input document; prefixed to every reported pointer. */
  readonly base: string;
  /** Collected notes on @huggingface/jinja. */
  readonly jsNotes: JsJinjaNote[];
}

/** A context for printing one schema on its own (pointers relative to it). */
export function schemaContext(source?: JsonValue, base = ''): ChatTemplateContext {
  return { ...(source !== undefined ? { source } : {}), base, jsNotes: [] };
}

/** Raise the template's error at a pointer relative to the parameters schema. */
export function fail(ctx: ChatTemplateContext, pointer: string, reason: string, error: JinjaError): never {
  throw new TemplateFailure(ctx.base + pointer, reason, error);
}

/** Record a note on @huggingface/jinja at a pointer relative to the parameters schema. */
export function noteJs(ctx: ChatTemplateContext, pointer: string, message: string): void {
  ctx.jsNotes.push({ pointer: ctx.base + pointer, message });
}

/** The schema object as written at a node's pointer, when the source is known and it is an object. */
export function rawSchema(node: IrNode, ctx: ChatTemplateContext): JsonObject | undefined {
  if (ctx.source === undefined) return undefined;
  const v = resolvePointer(ctx.source, node.pointer);
  return isJsonObject(v) ? v : undefined;
}

/** One keyword of the schema as written at a node's pointer (undefined when absent or unknown). */
export function rawKeyword(node: IrNode, key: string, ctx: ChatTemplateContext): JsonValue | undefined {
  return rawSchema(node, ctx)?.get(key);
}

