/**
 * Helpers shared by the users end-to-end tests: reading a user's stored
 * event log (until `GET /events` exists, events are asserted on the items
 * `sendEvent` writes) and a user's stored record.
 */
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { keys } from "../../shared/data/keys.js";
import type { UserRecord } from "../../shared/data/records/user.js";
import { userById } from "../../shared/data/users.js";
import { validateEvent } from "../../shared/events/schemas.js";
import type { TestOrg } from "../support/local-stack.js";

/** The sort key of the newest event in a user's log ("" when empty): a cursor for {@link eventsAfter}. */
export async function eventCursor(org: TestOrg, userId: number): Promise<string> {
  const out = await org.stack.deps.db.send(
    new QueryCommand({
      TableName: org.stack.deps.table,
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": keys.userEvents(userId).pk },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  return (out.Items?.[0]?.sk as string | undefined) ?? "";
}

/**
 * The events written to a user's log after `cursor`, oldest first (the
 * `event` attribute of each item). Each is checked against its strict
 * schema (`shared/events/schemas.ts`, with the `id` a queue would add).
 */
export async function eventsAfter(org: TestOrg, userId: number, cursor: string): Promise<Record<string, any>[]> {
  const out = await org.stack.deps.db.send(
    new QueryCommand({
      TableName: org.stack.deps.table,
      KeyConditionExpression: "pk = :pk AND sk > :after",
      ExpressionAttributeValues: { ":pk": keys.userEvents(userId).pk, ":after": cursor },
      ConsistentRead: true,
    }),
  );
  const events = (out.Items ?? []).map((item) => item.event as Record<string, any>);
  for (const event of events) validateEvent({ id: 0, ...event });
  return events;
}

/** Cursors for several users at once. */
export async function eventCursors(org: TestOrg, userIds: number[]): Promise<Map<number, string>> {
  return new Map(await Promise.all(userIds.map(async (id) => [id, await eventCursor(org, id)] as const)));
}

/** A user's stored record (strongly consistent). */
export async function storedUser(org: TestOrg, userId: number): Promise<UserRecord> {
  const user = await userById(org.stack.deps, org.realm.id, userId);
  if (!user) throw new Error(`no user ${userId}`);
  return user;
}
