/**
 * Array helpers for lists of any length. Spreading an array into a call (`Math.max(...xs)`,
 * `out.push(...xs)`, `String.fromCharCode(...codes)`) passes every element as an argument on the
 * stack, and throws `RangeError: Maximum call stack size exceeded` past about 100,000 elements
 * (fewer on a deeper stack): lists that grow with the input (tools, rows, diagnostics, lines,
 * enum members) go through these loops instead.
 */

/** Append every element of each list to `target` (what `target.push(...a, ...b)` does, at any length); returns `target`. */
export function pushAll<T>(target: T[], ...lists: Iterable<T>[]): T[] {
  for (const items of lists) {
    if (Array.isArray(items)) {
      const list = items as readonly T[];
      for (let i = 0; i < list.length; i++) target.push(list[i]);
    } else for (const x of items) target.push(x);
  }
  return target;
}

/** The largest of `start` and the values (what `Math.max(start, ...values)` gives, at any length; NaN if any is NaN). */
export function maxOf(values: Iterable<number>, start = -Infinity): number {
  let m = start;
  for (const v of values) {
    if (v > m || Number.isNaN(v)) m = v;
    if (Number.isNaN(m)) return NaN;
  }
  return m;
}

/** The smallest of `start` and the values (what `Math.min(start, ...values)` gives, at any length; NaN if any is NaN). */
export function minOf(values: Iterable<number>, start = Infinity): number {
  let m = start;
  for (const v of values) {
    if (v < m || Number.isNaN(v)) m = v;
    if (Number.isNaN(m)) return NaN;
  }
  return m;
}

/** The index of the first element of an ascending list that is at least `x` (the list's length when none is). */
export function lowerBound(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first number of an ascending list at or after `at`, or -1. */
export function firstAtOrAfter(sorted: readonly number[], at: number): number {
  const i = lowerBound(sorted, at);
  return i < sorted.length ? sorted[i] : -1;
}
