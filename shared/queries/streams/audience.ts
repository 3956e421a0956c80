import type { StreamRecord } from "../../data/records/stream.js";
import type { ActiveRealmUser } from "../../data/users.js";
import { isGuest, isRealmAdmin } from "../../domain/roles.js";

/**
 * Who hears about a stream: the audiences of `stream` and `subscription`
 * events (Zulip's `can_access_stream_user_ids` and peer-subscriber rules),
 * computed from the realm's active users (`listActiveRealmUsers` in
 * `shared/data/users.ts`) and the stream's subscribers.
 */

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
