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

/**
 * Mutable state of one lowering run. Its fields are assigned in the constructor and declared for
 * their types only (no class field definitions): one context is made a tool, and a CLI makes
 * thousands before V8 optimises the code.
 */
export class LowerContext {
  declare readonly diagnostics: Diagnostic[];
  declare readonly limits: LowerLimits;
  declare readonly sizeBound: LowerOptions['sizeBound'];
  declare readonly tool: string | undefined;
  declare readonly base: string;
  /** The schema's root, for resolving `#…` references. */
  declare readonly root: JsonValue;
  // the collections below exist only for schemas with `$ref`s (made on first use: most tools have none)
  private declare definitions_: Map<string, IrNode> | undefined;
  private declare queued_: Set<string> | undefined;
  private declare refCycles_: Map<string, boolean> | undefined;
  private declare refs_: Map<string, RefResolution> | undefined;
  /** Ref targets still to lower, in the order met. */
  declare readonly pending: string[];
  declare nodes: number;
  /** Lowered targets of `$ref`s, by pointer (relative to root). */
  get definitions(): Map<string, IrNode> {
    return (this.definitions_ ??= new Map());
  }
  /** The lowered targets, without making a Map of them when there are none. */
  definitionsOrNone(): ReadonlyMap<string, IrNode> {
    return this.definitions_ ?? NO_DEFINITIONS;
  }
  /** Every target ever queued (so a target is queued once). */
  get queued(): Set<string> {
    return (this.queued_ ??= new Set());
  }
  /** Memo of the pre-pass's ref-only-cycle answers, by pointer. */
  get refCycles(): Map<string, boolean> {
    return (this.refCycles_ ??= new Map());
  }
  /** `$ref` strings resolved by the pre-pass. */
  get refs(): Map<string, RefResolution> {
    return (this.refs_ ??= new Map());
  }
  constructor(root: JsonValue, options: LowerOptions = {}) {
    this.diagnostics = [];
    this.limits = options.limits === undefined ? DEFAULT_LIMITS : { ...DEFAULT_LIMITS, ...options.limits };
    this.sizeBound = options.sizeBound;
    this.tool = options.tool;
    this.base = options.basePointer ?? '';
    this.root = root;
    this.definitions_ = undefined;
    this.queued_ = undefined;
    this.refCycles_ = undefined;
    this.refs_ = undefined;
    this.pending = [];
    this.nodes = 0;
  }
  /** Record a diagnostic at a pointer relative to the schema root. */
  report(severity: Severity, code: string, pointer: string, message: string): void {
    this.diagnostics.push({ code, severity, ...(this.tool !== undefined ? { tool: this.tool } : {}), path: this.base + pointer, message });
  }
}
