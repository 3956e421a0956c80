import { queryAll } from "../../data/query.js";

import type { Deps } from "../../deps.js";
import type { StreamRecord } from "../../data/records/stream.js";

import { keys } from "../../data/keys.js";
import { isSystemBot } from "../../data/users.js";
import { isGuest, isRealmAdmin } from "../../domain/roles.js";

/**
 * Who hears about a stream: the audiences of `stream` and `subscription`
 * events (Zulip's `can_access_stream_user_ids` and peer-subscriber rules).
 */

type Db = Pick<Deps, "db" | "table">;

/** The few user fields an audience needs. */
export interface ActiveRealmUser {
  user_id: number;
  role: number;
  is_bot: boolean;
}

/**
 * The realm's active users and bots (system bots, which Zulip keeps in a
 * separate realm, left out), with only their ID, role and bot flag.
 * The projection only trims what crosses the network: DynamoDB charges read
 * units by the size of the items read, so this costs as much as reading the
 * whole user records (one page per 1 MB of items).
 */
export async function listActiveRealmUsers(deps: Db, realmId: number): Promise<ActiveRealmUser[]> {
  const items = await queryAll(deps, {
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
    ExpressionAttributeValues: { ":pk": keys.realm(realmId).pk, ":prefix": keys.userPrefix },
    ProjectionExpression: "user_id, #role, is_active, is_bot, is_system_bot, delivery_email",
    ExpressionAttributeNames: { "#role": "role" },
  });
  return items
    .filter((item) => item.is_active === true && !isSystemBot(item as unknown as Parameters<typeof isSystemBot>[0]))
    .map((item) => ({ user_id: Number(item.user_id), role: Number(item.role), is_bot: item.is_bot === true }));
}

/**
 * The active users who may see a stream's metadata, and who therefore get
 * its `stream` events and its `peer_add`/`peer_remove` events:
 * - web-public: every active user;
 * - public: every active non-guest, plus subscribed guests;
 * - private: its subscribers, plus the organization's administrators.
 * @param subscriberIds the stream's subscribers (after the change being announced)
 * @returns user IDs in ascending order
 */
export function streamAudience(
  stream: Pick<StreamRecord, "invite_only" | "is_web_public">,
  activeUsers: ActiveRealmUser[],
  subscriberIds: Iterable<number>,
): number[] {
  const subscribers = new Set(subscriberIds);
  const ids: number[] = [];
  for (const u of activeUsers) {
    let sees: boolean;
    if (stream.is_web_public) sees = true;
    else if (!stream.invite_only) sees = !isGuest(u) || subscribers.has(u.user_id);
    else sees = subscribers.has(u.user_id) || isRealmAdmin(u);
    if (sees) ids.push(u.user_id);
  }
  return ids.sort((a, b) => a - b);
}

/**
 * Who is told that a new stream exists when it is created (Zulip's
 * `create_stream_if_needed`): public streams to every active non-guest
 * (web-public: every active user), private streams to administrators;
 * subscribers learn of it when they are subscribed.
 */
export function streamCreationAudience(
  stream: Pick<StreamRecord, "invite_only" | "is_web_public">,
  activeUsers: ActiveRealmUser[],
): number[] {
  return streamAudience(stream, activeUsers, []);
}
