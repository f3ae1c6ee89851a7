/**
 * The template AST: Jinja2's nodes (`nodes.py`) as a discriminated union on `kind`, each with
 * the line it starts on. Statements and expressions are apart; `data` is template text.
 */
import type { PyObject } from '../emit/python/objects.js';

/** A keyword argument of a call, filter or test. */
export interface Keyword {
  readonly key: string;
  readonly value: Expr;
}

/** The arguments of a call, filter or test: positional, keyword, `*args` and `**kwargs`. */
export interface CallArgs {
  readonly args: readonly Expr[];
  readonly kwargs: readonly Keyword[];
  readonly dynArgs: Expr | null;
  readonly dynKwargs: Expr | null;
}

/** Template text. */
export interface DataNode {
  readonly kind: 'data';
  readonly data: string;
  readonly lineno: number;
}
/** A variable (load) or an assignment target name (store). */
export interface NameNode {
  readonly kind: 'name';
  readonly name: string;
  readonly lineno: number;
}
/** A literal: str, int, float, bool or None. */
export interface ConstNode {
  readonly kind: 'const';
  readonly value: PyObject;
  readonly lineno: number;
}
/** `a, b` or `(a, b)`: a tuple to load, or a tuple of targets to store. */
export interface TupleNode {
  readonly kind: 'tuple';
  readonly items: readonly Expr[];
  readonly lineno: number;
}
/** `[a, b]`. */
export interface ListNode {
  readonly kind: 'list';
  readonly items: readonly Expr[];
  readonly lineno: number;
}
/** `{k: v}`. */
export interface DictNode {
  readonly kind: 'dict';
  readonly pairs: readonly { readonly key: Expr; readonly value: Expr }[];
  readonly lineno: number;
}
/** `ns.attr` as an assignment target (`{% set ns.attr = … %}`). */
export interface NsRefNode {
  readonly kind: 'nsref';
  readonly name: string;
  readonly attr: string;
  readonly lineno: number;
}
/** `x.attr`. */
export interface GetattrNode {
  readonly kind: 'getattr';
  readonly node: Expr;
  readonly attr: string;
  readonly lineno: number;
}
/** `x[arg]` (arg may be a slice). */
export interface GetitemNode {
  readonly kind: 'getitem';
  readonly node: Expr;
  readonly arg: Expr;
  readonly lineno: number;
}
/** `a:b:c` inside a subscript. */
export interface SliceNode {
  readonly kind: 'slice';
  readonly start: Expr | null;
  readonly stop: Expr | null;
  readonly step: Expr | null;
  readonly lineno: number;
}
/** `f(args)`. */
export interface CallNode extends CallArgs {
  readonly kind: 'call';
  readonly node: Expr;
  readonly lineno: number;
}
/** `x | name(args)`; `node` is null for a `{% filter %}` block's filter (applied to the body). */
export interface FilterNode extends CallArgs {
  readonly kind: 'filter';
  readonly node: Expr | null;
  readonly name: string;
  readonly lineno: number;
}
/** `x is name(args)`. */
export interface TestNode extends CallArgs {
  readonly kind: 'test';
  readonly node: Expr;
  readonly name: string;
  readonly lineno: number;
}
/** `expr1 if test else expr2` (expr2 null without `else`). */
export interface CondExprNode {
  readonly kind: 'condexpr';
  readonly test: Expr;
  readonly expr1: Expr;
  readonly expr2: Expr | null;
  readonly lineno: number;
}
/** `a and b`, `a or b`. */
export interface LogicNode {
  readonly kind: 'and' | 'or';
  readonly left: Expr;
  readonly right: Expr;
  readonly lineno: number;
}
/** `not x`, `-x`, `+x`. */
export interface UnaryNode {
  readonly kind: 'not' | 'neg' | 'pos';
  readonly node: Expr;
  readonly lineno: number;
}
/** The binary operators. */
export type BinaryOp = 'add' | 'sub' | 'mul' | 'div' | 'floordiv' | 'mod' | 'pow';
/** `a + b` and the other arithmetic operators. */
export interface BinaryNode {
  readonly kind: 'binop';
  readonly op: BinaryOp;
  readonly left: Expr;
  readonly right: Expr;
  readonly lineno: number;
}
/** `a ~ b ~ c`. */
export interface ConcatNode {
  readonly kind: 'concat';
  readonly nodes: readonly Expr[];
  readonly lineno: number;
}
/** A comparison operator (`eq ne lt lteq gt gteq in notin`). */
export type CompareOp = 'eq' | 'ne' | 'lt' | 'lteq' | 'gt' | 'gteq' | 'in' | 'notin';
/** `a < b == c`, `a in b`. */
export interface CompareNode {
  readonly kind: 'compare';
  readonly expr: Expr;
  readonly ops: readonly { readonly op: CompareOp; readonly expr: Expr }[];
  readonly lineno: number;
}

/** An expression. */
export type Expr =
  | DataNode
  | NameNode
  | ConstNode
  | TupleNode
  | ListNode
  | DictNode
  | NsRefNode
  | GetattrNode
  | GetitemNode
  | SliceNode
  | CallNode
  | FilterNode
  | TestNode
  | CondExprNode
  | LogicNode
  | UnaryNode
  | BinaryNode
  | ConcatNode
  | CompareNode;

/** `{{ … }}` and template text: the expressions printed in order. */
export interface OutputNode {
  readonly kind: 'output';
  readonly nodes: readonly Expr[];
  readonly lineno: number;
}
/** `{% if %}…{% elif %}…{% else %}…{% endif %}`. */
export interface IfNode {
  readonly kind: 'if';
  readonly test: Expr;
  readonly body: readonly Stmt[];
  readonly elifs: readonly { readonly test: Expr; readonly body: readonly Stmt[] }[];
  readonly else_: readonly Stmt[];
  readonly lineno: number;
}
/** `{% for target in iter if test recursive %}…{% else %}…{% endfor %}`. */
export interface ForNode {
  readonly kind: 'for';
  readonly target: Expr;
  readonly iter: Expr;
  readonly body: readonly Stmt[];
  readonly else_: readonly Stmt[];
  readonly test: Expr | null;
  readonly recursive: boolean;
  readonly lineno: number;
}
/** `{% macro name(args) %}…{% endmacro %}`. */
export interface MacroNode {
  readonly kind: 'macro';
  readonly name: string;
  readonly args: readonly string[];
  readonly defaults: readonly Expr[];
  readonly body: readonly Stmt[];
  readonly lineno: number;
}
/** `{% call(args) f(…) %}…{% endcall %}`. */
export interface CallBlockNode {
  readonly kind: 'callblock';
  readonly call: CallNode;
  readonly args: readonly string[];
  readonly defaults: readonly Expr[];
  readonly body: readonly Stmt[];
  readonly lineno: number;
}
/** `{% filter f %}…{% endfilter %}`. */
export interface FilterBlockNode {
  readonly kind: 'filterblock';
  readonly filter: FilterNode;
  readonly body: readonly Stmt[];
  readonly lineno: number;
}
/** `{% set target = expr %}`. */
export interface AssignNode {
  readonly kind: 'assign';
  readonly target: Expr;
  readonly expr: Expr;
  readonly lineno: number;
}
/** `{% set target | filter %}…{% endset %}`. */
export interface AssignBlockNode {
  readonly kind: 'assignblock';
  readonly target: Expr;
  readonly filter: FilterNode | null;
  readonly body: readonly Stmt[];
  readonly lineno: number;
}
/** `{% with a = 1 %}…{% endwith %}`. */
export interface WithNode {
  readonly kind: 'with';
  readonly targets: readonly Expr[];
  readonly values: readonly Expr[];
  readonly body: readonly Stmt[];
  readonly lineno: number;
}
/** `{% block name %}…{% endblock %}`. */
export interface BlockNode {
  readonly kind: 'block';
  readonly name: string;
  readonly scoped: boolean;
  readonly required: boolean;
  readonly body: readonly Stmt[];
  readonly lineno: number;
}
/** `{% extends %}`, `{% include %}`, `{% import %}`, `{% from … import %}`: they need a template loader. */
export interface LoadNode {
  readonly kind: 'extends' | 'include' | 'import' | 'fromimport';
  readonly template: Expr;
  readonly ignoreMissing: boolean;
  readonly lineno: number;
}
/** `{% break %}`, `{% continue %}` (the loopcontrols extension). */
export interface LoopControlNode {
  readonly kind: 'break' | 'continue';
  readonly lineno: number;
}
/** `{% generation %}…{% endgeneration %}` (transformers' AssistantTracker: renders its body as a call block). */
export interface GenerationNode {
  readonly kind: 'generation';
  readonly body: readonly Stmt[];
  readonly lineno: number;
}
/** `{% autoescape expr %}…{% endautoescape %}`. */
export interface AutoescapeNode {
  readonly kind: 'autoescape';
  readonly value: Expr;
  readonly body: readonly Stmt[];
  readonly lineno: number;
}

/** A statement. */
export type Stmt =
  | OutputNode
  | IfNode
  | ForNode
  | MacroNode
  | CallBlockNode
  | FilterBlockNode
  | AssignNode
  | AssignBlockNode
  | WithNode
  | BlockNode
  | LoadNode
  | LoopControlNode
  | GenerationNode
  | AutoescapeNode;

/** A parsed template. */
export interface TemplateAst {
  readonly kind: 'template';
  readonly body: readonly Stmt[];
}
