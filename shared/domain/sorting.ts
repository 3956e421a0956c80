/**
 * The orders Zulip's payloads list things in: IDs ascending, names by code
 * point (Python's `sorted`).
 */

/** Distinct IDs in ascending numeric order (event payloads list IDs sorted, as Zulip does). */
export function sortedIds(ids: Iterable<number>): number[] {
  return [...new Set(ids)].sort((a, b) => a - b);
}

/**
 * String ordering for stream names: by UTF-16 code unit, which is Python's
 * code-point order (Zulip's `sorted(..., key=name)`) for every name without
 * characters beyond the Basic Multilingual Plane.
 * @returns negative, zero or positive, as `Array.prototype.sort` expects
 */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
