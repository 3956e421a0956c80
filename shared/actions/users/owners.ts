import type { UserRecord } from "../../data/records/user.js";
import { userConditions, type UserCondition } from "../../data/user-writes.js";
import { Role } from "../../domain/roles.js";

/**
 * "The only organization owner" checks without races.
 *
 * Zulip checks the number of active human owners and then writes inside one
 * database transaction. DynamoDB has no such read-then-write transaction, and
 * two administrators demoting (or deactivating) the last two owners at the
 * same moment would each see "another owner exists" and both succeed.
 *
 * Two ways out were considered: an owner counter on the realm item, kept in
 * step by every role change, deactivation, reactivation and user creation
 * (another writer of the realm item, and a counter that any missed path
 * silently corrupts); or a guard: the write that removes an owner is a
 * transaction that also carries a `ConditionCheck` on *one other* owner
 * being an active human owner at commit time. We use the guard. If two
 * requests remove the only two owners concurrently, each transaction checks
 * the item the other one writes, so DynamoDB's serializable transactions
 * let at most one commit; the loser re-reads (see `withWriteRetries`) and
 * then answers with the last-owner error. No extra item, no counter to drift.
 */

/** Whether the user counts as an owner for "the only owner" rules: active, human, role owner. */
export function isActiveHumanOwner(user: UserRecord): boolean {
  return user.is_active && !user.is_bot && user.role === Role.OWNER;
}

/**
 * The guard for removing `target` from the set of active human owners, or
 * null when there is no other active human owner (the caller refuses then).
 * Returns `{}` (no guard needed) when `target` is not an active human owner.
 */
export function lastOwnerGuard(
  users: UserRecord[],
  target: UserRecord,
): { check?: { userId: number; condition: UserCondition } } | null {
  if (!isActiveHumanOwner(target)) return {};
  const other = users.find((u) => u.user_id !== target.user_id && isActiveHumanOwner(u));
  if (!other) return null;
  return { check: { userId: other.user_id, condition: userConditions.activeHumanOwner(Role.OWNER) } };
}
