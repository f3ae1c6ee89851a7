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
  /**
   * A bound on the schema's size known to the caller: the whole document it was read from
   * (readTools counts every value and the nesting of its containers). When the bound is within
   * the limits, the pre-pass skips its own size walk; the lowering is the same either way.
   */
  readonly sizeBound?: { readonly values: number; readonly depth: number };
}

/** What the pre-pass found a `$ref` to mean. */
export type RefResolution = { readonly status: 'unresolved' } | { readonly status: 'ok' | 'circular'; readonly target: string };

/** The definitions of a schema without `$ref`s (shared; never written). */
const NO_DEFINITIONS: ReadonlyMap<string, IrNode> = new Map();

/** Mutable state of one lowering run. */
export class LowerContext {
  readonly diagnostics: Diagnostic[] = [];
  readonly limits: LowerLimits;
  readonly sizeBound: LowerOptions['sizeBound'];
  readonly tool: string | undefined;
  readonly base: string;
  /** The schema's root, for resolving `#…` references. */
  readonly root: JsonValue;
  // the collections below exist only for schemas with `$ref`s (made on first use: most tools have none)
  #definitions: Map<string, IrNode> | undefined;
  #queued: Set<string> | undefined;
  #refCycles: Map<string, boolean> | undefined;
  #refs: Map<string, RefResolution> | undefined;
  /** Ref targets still to lower, in the order met. */
  readonly pending: string[] = [];
  nodes = 0;
  /** Lowered targets of `$ref`s, by pointer (relative to root). */
  get definitions(): Map<string, IrNode> {
    return (this.#definitions ??= new Map());
  }
  /** The lowered targets, without making a Map of them when there are none. */
  definitionsOrNone(): ReadonlyMap<string, IrNode> {
    return this.#definitions ?? NO_DEFINITIONS;
  }
  /** Every target ever queued (so a target is queued once). */
  get queued(): Set<string> {
    return (this.#queued ??= new Set());
  }
  /** Memo of the pre-pass's ref-only-cycle answers, by pointer. */
  get refCycles(): Map<string, boolean> {
    return (this.#refCycles ??= new Map());
  }
  /** `$ref` strings resolved by the pre-pass. */
  get refs(): Map<string, RefResolution> {
    return (this.#refs ??= new Map());
  }
  constructor(root: JsonValue, options: LowerOptions = {}) {
    this.root = root;
    this.tool = options.tool;
    this.base = options.basePointer ?? '';
    this.limits = options.limits === undefined ? DEFAULT_LIMITS : { ...DEFAULT_LIMITS, ...options.limits };
    this.sizeBound = options.sizeBound;
  }
  /** Record a diagnostic at a pointer relative to the schema root. */
  report(severity: Severity, code: string, pointer: string, message: string): void {
    this.diagnostics.push({ code, severity, ...(this.tool !== undefined ? { tool: this.tool } : {}), path: this.base + pointer, message });
  }
}
