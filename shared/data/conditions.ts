/**
 * Storage failures translated at the boundary (Powertools style): callers ask
 * these predicates instead of inspecting SDK error names.
 */

/** True when a conditional write, or any item of a transaction, failed its condition. */
export function isConditionFailure(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === "ConditionalCheckFailedException") return true;
  if (err.name === "TransactionCanceledException") {
    const reasons = (err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
    return reasons.some((r) => r.Code === "ConditionalCheckFailed");
  }
  return false;
}

/**
 * For a cancelled transaction, the indexes of the items whose condition failed;
 * empty for any other error.
 */
export function failedConditionIndexes(err: unknown): number[] {
  if (!(err instanceof Error) || err.name !== "TransactionCanceledException") return [];
  const reasons = (err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.flatMap((r, i) => (r.Code === "ConditionalCheckFailed" ? [i] : []));
}
