/** Local `$ref`: resolution of `#…` JSON Pointers within the schema, and ref-only cycles. */
import { isJsonArray, isJsonObject, type JsonValue } from '../ir/json.js';
import type { IrBase, IrRef } from '../ir/nodes.js';
import type { LowerContext } from './context.js';

/** Resolve a JSON Pointer (RFC 6901, without the `#`) inside a JSON value. */
export function resolvePointer(root: JsonValue, pointer: string): JsonValue | undefined {
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let cur: JsonValue | undefined = root;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (isJsonObject(cur)) cur = cur.get(token);
    else if (isJsonArray(cur) && /^(0|[1-9][0-9]*)$/.test(token)) cur = cur[Number(token)];
    else return undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** The pointer a local `$ref` names (`#/$defs/X` → `/$defs/X`), or undefined for other refs. */
export function localRefPointer(ref: string): string | undefined {
  if (!ref.startsWith('#')) return undefined;
  let p: string;
  try {
    p = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  return p === '' || p.startsWith('/') ? p : undefined;
}

/**
 * Lower a `$ref`, using the pre-pass's resolution. Its target is lowered once per tool
 * (queued on the context), so cycles through `$defs` never loop.
 */
export function fromRef(base: IrBase, ref: string, ctx: LowerContext): IrRef {
  const r = ctx.refs.get(ref);
  if (!r || r.status === 'unresolved') return { pointer: base.pointer, meta: base.meta, nullable: base.nullable, kind: 'ref', ref };
  const target = r.target;
  if (r.status === 'ok' && !ctx.queued.has(target)) {
    ctx.queued.add(target);
    ctx.pending.push(target);
  }
  return { pointer: base.pointer, meta: base.meta, nullable: base.nullable, kind: 'ref', ref, target, name: refName(target), circular: r.status === 'circular' };
}

/** A readable name for a ref target: its last pointer token (`/$defs/Node` → `Node`), or `Root`. */
export function refName(target: string): string {
  if (target === '') return 'Root';
  return target.slice(target.lastIndexOf('/') + 1).replace(/~1/g, '/').replace(/~0/g, '~');
}
