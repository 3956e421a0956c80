import { createHash } from "node:crypto";
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { keys } from "./keys.js";

/** Rate-limit rules with a counter of their own: Zulip's domain names. */
export type RateLimitScope = "api_by_user" | "api_by_ip" | "authenticate_by_username";

/** Seconds a counter item outlives its window before DynamoDB TTL may delete it. */
const COUNTER_TTL_SLACK_SECONDS = 60;

/** Bounded, secret-free key part for any subject, whatever its length. */
function subjectHash(subject: string): string {
  return createHash("sha256").update(subject, "utf8").digest("hex");
}

/**
 * Adds hits to a subject's counter for one fixed window with one atomic
 * UpdateItem (`ADD count`, `ReturnValues: UPDATED_NEW`), creating the item
 * with its TTL (`expires_at`, UNIX seconds) on the window's first hit.
 * @param subject what is limited (hashed before it becomes a key)
 * @param windowStart UNIX seconds at which the window starts
 * @param windowSeconds the window's length, which sets the TTL
 * @param hits how many hits to add, at least 1
 * @returns the window's count including these hits
 */
export async function addRateLimitHits(
  deps: Store,
  scope: RateLimitScope,
  subject: string,
  windowStart: number,
  windowSeconds: number,
  hits = 1,
): Promise<number> {
  const out = await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: keys.rateLimitCounter(scope, subjectHash(subject), windowStart),
      UpdateExpression: "ADD #c :n SET expires_at = if_not_exists(expires_at, :exp)",
      ExpressionAttributeNames: { "#c": "count" },
      ExpressionAttributeValues: { ":n": hits, ":exp": windowStart + windowSeconds + COUNTER_TTL_SLACK_SECONDS },
      ReturnValues: "UPDATED_NEW",
    }),
  );
  return Number(out.Attributes?.count ?? hits);
}

/**
 * Reads a subject's count in one fixed window (0 when it has none), with one
 * strongly consistent GetItem, for rules that count failures only.
 */
export async function rateLimitHits(deps: Store, scope: RateLimitScope, subject: string, windowStart: number): Promise<number> {
  const out = await deps.db.send(
    new GetCommand({
      TableName: deps.table,
      Key: keys.rateLimitCounter(scope, subjectHash(subject), windowStart),
      ConsistentRead: true,
    }),
  );
  return Number(out.Item?.count ?? 0);
}
