/** Attributes that belong to the table's layout, not to a record. */
const LAYOUT_ATTRIBUTES = new Set([
  "pk", "sk", "type", "expires_at",
  "gsi1pk", "gsi1sk", "gsi2pk", "gsi2sk", "gsi3pk", "gsi3sk", "gsi4pk", "gsi4sk", "gsi5pk", "gsi5sk", "gsi6pk", "gsi6sk",
]);

/** Returns an item's record: every attribute except keys, index keys, `type` and the TTL. */
export function recordOf<T>(item: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) if (!LAYOUT_ATTRIBUTES.has(k)) out[k] = v;
  return out as T;
}

/**
 * Builds `SET` clauses for a flat partial record: `{UpdateExpression, names, values}`.
 * Undefined values are skipped; `null` is stored as null.
 */
export function setExpression(fields: Record<string, unknown>, prefix = "f"): {
  clauses: string[];
  names: Record<string, string>;
  values: Record<string, unknown>;
} {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const clauses: string[] = [];
  Object.entries(fields).forEach(([k, v], i) => {
    if (v === undefined) return;
    names[`#${prefix}${i}`] = k;
    values[`:${prefix}${i}`] = v;
    clauses.push(`#${prefix}${i} = :${prefix}${i}`);
  });
  return { clauses, names, values };
}
