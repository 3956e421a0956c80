import type { Store } from "../../data/client.js";
import type { StreamRecord } from "../../data/records/stream.js";

import type { UserTopicRecord } from "../../data/records/user-topic.js";
import { fetchMutedUserEntries, mutedTopicEntries, userTopicEntries } from "../muting/muting.js";

/** Register's `muted_users` (https://zulip.com/api/register-queue): one Query of the caller's mutes. */
export async function mutedUsersInitialState(store: Store, userId: number): Promise<Record<string, unknown>> {
  return { muted_users: await fetchMutedUserEntries(store, userId) };
}

/**
 * Register's `user_topics` and legacy `muted_topics`
 * (https://zulip.com/api/register-queue), whichever are asked for, from the
 * caller's topic policies (one Query, shared with `unread_msgs`); topics of archived streams are left out.
 */
export async function userTopicsInitialState(
  store: Store,
  topicRecords: Promise<UserTopicRecord[]>,
  streams: Promise<StreamRecord[]>,
  want: { userTopics: boolean; mutedTopics: boolean },
): Promise<Record<string, unknown>> {
  const [records, all] = await Promise.all([topicRecords, streams]);
  return {
    ...(want.userTopics ? { user_topics: userTopicEntries(records, all) } : {}),
    ...(want.mutedTopics ? { muted_topics: mutedTopicEntries(records, all) } : {}),
  };
}
