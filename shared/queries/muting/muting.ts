import type { Store } from "../../data/client.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserTopicRecord } from "../../data/records/user-topic.js";

import { listMutedUsers } from "../../data/muted-users.js";
import type { EventOf } from "../../events/types.js";

/** Visibility policies of https://zulip.com/api/update-user-topic (Zulip's `UserTopic.VisibilityPolicy`). */
export const VisibilityPolicy = { INHERIT: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;

/** One entry of `muted_users` (register and events): the muted user's ID and UNIX seconds of the mute. */
export type MutedUserEntry = EventOf<"muted_users">["muted_users"][number];

/** One entry of register's `user_topics` (the `user_topic` event without `type`). */
export type UserTopicEntry = Omit<EventOf<"user_topic">, "type">;

/** One entry of register's legacy `muted_topics`: [stream name, topic, UNIX seconds]. */
export type MutedTopicEntry = EventOf<"muted_topics">["muted_topics"][number];

/**
 * The users `userId` mutes as register and the `muted_users` event list
 * them (https://zulip.com/api/register-queue, `muted_users`; Zulip's
 * `get_user_mutes`), by muted user ID. One Query.
 */
export async function fetchMutedUserEntries(store: Store, userId: number): Promise<MutedUserEntry[]> {
  const mutes = await listMutedUsers(store, userId);
  return mutes.map((m) => ({ id: m.muted_user_id, timestamp: m.timestamp }));
}

/** A stored topic policy as register's `user_topics` and the `user_topic` event carry it. */
export function userTopicEntry(record: UserTopicRecord): UserTopicEntry {
  return {
    stream_id: record.stream_id,
    topic_name: record.topic_name,
    last_updated: record.last_updated,
    visibility_policy: record.visibility_policy,
  };
}

/** Names of the realm's active streams by ID: the streams whose topic policies are listed. */
function activeStreamNames(streams: StreamRecord[]): Map<number, string> {
  return new Map(streams.filter((s) => !s.deactivated).map((s) => [s.stream_id, s.name]));
}

/**
 * The topic policies of `records` in active streams (Zulip's
 * `get_user_topics` without deactivated streams), as register's `user_topics`.
 */
export function userTopicEntries(records: UserTopicRecord[], streams: StreamRecord[]): UserTopicEntry[] {
  const names = activeStreamNames(streams);
  return records.filter((r) => names.has(r.stream_id)).map(userTopicEntry);
}

/**
 * The muted topics among `records` in the legacy tuple form (Zulip's
 * `get_topic_mutes`): [stream name, topic, UNIX seconds], active streams only.
 */
export function mutedTopicEntries(records: UserTopicRecord[], streams: StreamRecord[]): MutedTopicEntry[] {
  const names = activeStreamNames(streams);
  const out: MutedTopicEntry[] = [];
  for (const r of records) {
    const name = names.get(r.stream_id);
    if (r.visibility_policy === VisibilityPolicy.MUTED && name !== undefined) out.push([name, r.topic_name, r.last_updated]);
  }
  return out;
}
