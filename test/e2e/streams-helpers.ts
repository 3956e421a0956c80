import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { decodeStoredEvent } from "../../shared/data/event-codec.js";
import { keys } from "../../shared/data/keys.js";
import type { StreamRecord } from "../../shared/data/records/stream.js";
import type { SubscriptionRecord } from "../../shared/data/records/subscription.js";
import { getStream, getStreamIdByName } from "../../shared/data/streams.js";
import { getSubscription } from "../../shared/data/subscriptions.js";
import type { TestOrg } from "../support/local-stack.js";
import type { TestUser } from "../support/api-client.js";
import { EventQueueClient } from "../support/event-queue-client.js";
import { validateEvent } from "../../shared/events/schemas.js";
import { expect } from "vitest";

/**
 * Helpers shared by the stream and subscription end-to-end tests: direct
 * table reads to assert the state after a request, and the event log of a
 * user (what their event queues will deliver).
 */

/**
 * Every event addressed to a user, oldest first (payloads without queue
 * IDs, in their delivered form): the user's log, merged by key with the
 * realm typing log's items addressed to them.
 */
export async function eventsOf(org: TestOrg, userId: number): Promise<Record<string, any>[]> {
  const deps = org.stack.deps;
  const items: { sk: string; event: Record<string, any> }[] = [];
  for (const pk of [keys.userEvents(userId).pk, keys.realmTypingEvents(org.realm.id).pk]) {
    let start: Record<string, unknown> | undefined;
    do {
      const out = await deps.db.send(
        new QueryCommand({
          TableName: deps.table,
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": pk },
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      for (const item of out.Items ?? []) {
        if (Array.isArray(item.user_ids) && !item.user_ids.includes(userId)) continue;
        items.push({ sk: String(item.sk), event: decodeStoredEvent(item.event) });
      }
      start = out.LastEvaluatedKey;
    } while (start);
  }
  return items.sort((a, b) => (a.sk < b.sk ? -1 : a.sk > b.sk ? 1 : 0)).map((i) => i.event);
}

/**
 * Records the current length of some users' event logs; `since(user)` then
 * returns only the events written after the mark.
 */
export async function markEvents(org: TestOrg, users: TestUser[]) {
  const marks = new Map<number, number>();
  await Promise.all(users.map(async (u) => marks.set(u.id, (await eventsOf(org, u.id)).length)));
  return {
    since: async (user: TestUser) => (await eventsOf(org, user.id)).slice(marks.get(user.id) ?? 0),
  };
}

/** The stored stream of a name (case-insensitive), or undefined. */
export async function streamByName(org: TestOrg, name: string): Promise<StreamRecord | undefined> {
  const id = await getStreamIdByName(org.stack.deps, org.realm.id, name);
  return id === undefined ? undefined : getStream(org.stack.deps, org.realm.id, id);
}

/** The stored subscription of a user to a stream, or undefined. */
export async function subscriptionOf(org: TestOrg, user: TestUser, streamId: number): Promise<SubscriptionRecord | undefined> {
  return getSubscription(org.stack.deps, user.id, streamId);
}

/** Subscribes users (default: the caller) to streams, creating them; asserts success. */
export async function subscribeTo(
  org: TestOrg,
  caller: TestUser,
  names: string[],
  extra: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const res = await org.api(caller, "POST", "/users/me/subscriptions", {
    subscriptions: names.map((name) => ({ name })),
    ...extra,
  });
  if (res.status !== 200) throw new Error(`subscribe failed: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Creates a stream (as `creator`, subscribing `creator`) and returns its stored record. */
export async function createStream(
  org: TestOrg,
  creator: TestUser,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<StreamRecord> {
  await subscribeTo(org, creator, [name], extra);
  const stream = await streamByName(org, name);
  if (!stream) throw new Error(`stream ${name} was not created`);
  return stream;
}

/** The stored item of a subscription with its index keys (to check gsi1 membership). */
export async function rawSubscriptionItem(org: TestOrg, userId: number, streamId: number) {
  const deps = org.stack.deps;
  const out = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      KeyConditionExpression: "pk = :pk AND sk = :sk",
      ExpressionAttributeValues: {
        ":pk": keys.subscription(userId, streamId).pk,
        ":sk": keys.subscription(userId, streamId).sk,
      },
      ConsistentRead: true,
    }),
  );
  return out.Items?.[0];
}

/**
 * Creates a stream through the API (as `creator`, who is subscribed, with
 * `principals` also subscribed when given) and returns its ID; asserts success.
 */
export async function createStreamId(
  org: TestOrg,
  creator: TestUser,
  name: string,
  opts: { inviteOnly?: boolean; principals?: number[] } = {},
): Promise<number> {
  const res = await org.api(creator, "POST", "/users/me/subscriptions", {
    subscriptions: [{ name }],
    ...(opts.inviteOnly ? { invite_only: true } : {}),
    ...(opts.principals ? { principals: opts.principals } : {}),
  });
  expect(res.body).toMatchObject({ result: "success" });
  const id = await org.api(creator, "GET", "/get_stream_id", { stream: name });
  return id.body.stream_id as number;
}

/** An event-queue client of `user` on the organization's server; every event it receives is schema-checked. */
export function queueClient(org: TestOrg, user: TestUser): EventQueueClient {
  return new EventQueueClient({ baseUrl: org.url, email: user.email, apiKey: user.apiKey, onEvent: validateEvent });
}
