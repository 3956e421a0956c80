import { createHash } from "node:crypto";
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { isConditionFailure } from "./conditions.js";
import { keys } from "./keys.js";

/**
 * Rate-limit rules with counts of their own: Zulip's domain names
 * (`api_by_user`, `api_by_ip`, `authenticate_by_username`), and the failed
 * authentications of a source address (`authenticate_by_ip`) and of a
 * claimed email sent with a wrong API key (`api_key_by_username`), and the
 * requests of an address that send mail to addresses it names (`sends_email_by_ip`).
 */
export type RateLimitScope =
  | "api_by_user"
  | "api_by_ip"
  | "authenticate_by_username"
  | "authenticate_by_ip"
  | "api_key_by_username"
  /** Requests from one address that mail someone (Zulip's `sends_email_by_ip`: sign-up requests). */
  | "sends_email_by_ip";

/**
 * Where one hit goes in a subject's ring of sub-window counts (the
 * domain's `slidingWindowPlan`): the sub-window `index`, its ring `slot`,
 * the slots to clear, and the TTL in UNIX seconds.
 */
export interface SlidingWindowPlan {
  index: number;
  slot: number;
  clearSlots: readonly number[];
  expiresAt: number;
}

/** Hits per sub-window index, as `judgeRateLimit` reads them. */
export type SlidingWindowCounts = Map<number, number>;

/** Bounded, secret-free key part for any subject, whatever its length. */
function subjectHash(subject: string): string {
  return createHash("sha256").update(subject, "utf8").digest("hex");
}

/** The ring's slots as stored: `c<slot>` hits of the sub-window `t<slot>`. */
function countsOf(item: Record<string, unknown> | undefined): SlidingWindowCounts {
  const counts: SlidingWindowCounts = new Map();
  if (!item) return counts;
  for (const [name, value] of Object.entries(item)) {
    if (!/^c\d+$/.test(name)) continue;
    const index = item[`t${name.slice(1)}`];
    if (index !== undefined) counts.set(Number(index), (counts.get(Number(index)) ?? 0) + Number(value));
  }
  return counts;
}

function update(store: Store, scope: RateLimitScope, subject: string, plan: SlidingWindowPlan, mode: "add" | "reset", onlyExisting: boolean) {
  const names: Record<string, string> = { "#c": `c${plan.slot}`, "#t": `t${plan.slot}` };
  const removed: string[] = [];
  plan.clearSlots.forEach((slot, i) => {
    names[`#rc${i}`] = `c${slot}`;
    names[`#rt${i}`] = `t${slot}`;
    removed.push(`#rc${i}`, `#rt${i}`);
  });
  const slotCondition = mode === "add" ? "(attribute_not_exists(#t) OR #t = :idx)" : "#t <> :idx";
  return new UpdateCommand({
    TableName: store.table,
    Key: keys.rateLimitWindow(scope, subjectHash(subject)),
    UpdateExpression:
      (mode === "add" ? "ADD #c :one SET #t = :idx, expires_at = :exp" : "SET #c = :one, #t = :idx, expires_at = :exp") +
      ` REMOVE ${removed.join(", ")}`,
    ConditionExpression: onlyExisting ? `attribute_exists(pk) AND ${slotCondition}` : slotCondition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: { ":one": 1, ":idx": plan.index, ":exp": plan.expiresAt },
    ReturnValues: "ALL_NEW",
  });
}

/**
 * Counts one hit of a subject in its sliding window (see
 * `shared/domain/rate-limit.ts`): one UpdateItem that adds the hit to the
 * moment's ring slot, clears the slots that left the span and sets the TTL
 * (`expires_at`). A second one only when the moment's slot still holds a
 * sub-window that left the span long ago (the subject was idle for a
 * window): it overwrites that slot.
 * @param subject what is limited (hashed before it becomes a key)
 * @param options.onlyExisting add only to an item that exists: the API key's
 *   counts are created only once the key is known to be valid, so a wrong
 *   key stores nothing; the hit is then not counted and `undefined` returned
 * @returns the counts after the hit, or undefined when `onlyExisting` found no
 *   item or a slot to overwrite (call again without it)
 */
export async function addRateLimitHit(
  store: Store,
  scope: RateLimitScope,
  subject: string,
  plan: SlidingWindowPlan,
  options: { onlyExisting?: boolean } = {},
): Promise<SlidingWindowCounts | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const out = await store.db.send(update(store, scope, subject, plan, "add", options.onlyExisting ?? false));
      return countsOf(out.Attributes);
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      if (options.onlyExisting) return undefined;
    }
    try {
      const out = await store.db.send(update(store, scope, subject, plan, "reset", false));
      return countsOf(out.Attributes);
    } catch (err) {
      // Another request overwrote the slot first: add to it.
      if (!isConditionFailure(err)) throw err;
    }
  }
  throw new Error(`rate limit slot of ${scope} kept changing`);
}

/**
 * Takes back a hit {@link addRateLimitHit} counted for a request that was
 * then refused, so that refused requests do not count (as in Zulip, which
 * records only allowed calls). One UpdateItem, only if the slot still counts
 * the same sub-window.
 */
export async function removeRateLimitHit(store: Store, scope: RateLimitScope, subject: string, plan: SlidingWindowPlan): Promise<void> {
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.table,
        Key: keys.rateLimitWindow(scope, subjectHash(subject)),
        UpdateExpression: "ADD #c :minus",
        ConditionExpression: "#t = :idx AND #c > :zero",
        ExpressionAttributeNames: { "#c": `c${plan.slot}`, "#t": `t${plan.slot}` },
        ExpressionAttributeValues: { ":minus": -1, ":idx": plan.index, ":zero": 0 },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}

/**
 * Reads a subject's counts (empty when it has none) with one strongly
 * consistent GetItem, for the failure limits, which count failures only.
 */
export async function rateLimitCounts(store: Store, scope: RateLimitScope, subject: string): Promise<SlidingWindowCounts> {
  const out = await store.db.send(
    new GetCommand({ TableName: store.table, Key: keys.rateLimitWindow(scope, subjectHash(subject)), ConsistentRead: true }),
  );
  return countsOf(out.Item);
}
