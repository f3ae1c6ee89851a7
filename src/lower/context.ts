/** State shared by the lowering functions of one tool: where diagnostics go, limits, refs. */
import type { Diagnostic, Severity } from '../diagnostics.js';
import type { JsonValue } from '../ir/json.js';
import type { IrNode } from '../ir/nodes.js';

/** Limits the lowering enforces (each breach is an error diagnostic, never a crash). */
export interface LowerLimits {
  /** Deepest schema nesting (sub-schema inside sub-schema). */
  readonly maxDepth: number;
  /** Most sub-schemas in one tool's parameters. */
  readonly maxNodes: number;
}

/** Default limits: far above any real tool (the corpus's deepest is 10 levels). */
export const DEFAULT_LIMITS: LowerLimits = { maxDepth: 128, maxNodes: 1_000_000 };

/** Options of `lowerSchema` / `lowerTool`. */
export interface LowerOptions {
  /** The tool's name, for diagnostics. */
  readonly tool?: string;
  /** Pointer of the schema in the input document, prefixed to every diagnostic path. */
  readonly basePointer?: string;
  readonly limits?: Partial<LowerLimits>;
}

/** What the pre-pass found a `$ref` to mean. */
export type RefResolution = { readonly status: 'unresolved' } | { readonly status: 'ok' | 'circular'; readonly target: string };

/** Mutable state of one lowering run. */
export class LowerContext {
  readonly diagnostics: Diagnostic[] = [];
  readonly limits: LowerLimits;
  readonly tool: string | undefined;
  readonly base: string;
  /** The schema's root, for resolving `#…` references. */
  readonly root: JsonValue;
  /** Lowered targets of `$ref`s, by pointer (relative to root). */
  readonly definitions = new Map<string, IrNode>();
  /** Ref targets still to lower, in the order met. */
  readonly pending: string[] = [];
  /** Every target ever queued (so a target is queued once). */
  readonly queued = new Set<string>();
  /** Memo of the pre-pass's ref-only-cycle answers, by pointer. */
  readonly refCycles = new Map<string, boolean>();
  /** `$ref` strings resolved by the pre-pass. */
  readonly refs = new Map<string, RefResolution>();
  nodes = 0;
  constructor(root: JsonValue, options: LowerOptions = {}) {
    this.root = root;
    this.tool = options.tool;
    this.base = options.basePointer ?? '';
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
  }
  /** Record a diagnostic at a pointer relative to the schema root. */
  report(severity: Severity, code: string, pointer: string, message: string): void {
    this.diagnostics.push({ code, severity, ...(this.tool !== undefined ? { tool: this.tool } : {}), path: this.base + pointer, message });
  }
}
