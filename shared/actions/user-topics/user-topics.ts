import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserRecord } from "../../data/records/user.js";

import { listRealmStreams } from "../../data/streams.js";
import { deleteUserTopic, getUserTopic, listUserTopics, putUserTopic } from "../../data/user-topics.js";
import { sendEvent } from "../../events/publish.js";
import { mutedTopicEntries, VisibilityPolicy, type UserTopicEntry } from "../../queries/muting/muting.js";

/**
 * Sends a topic policy change to the user's own clients as Zulip's
 * `bulk_do_set_user_topic_visibility_policy` does: the legacy
 * `muted_topics` event with the whole muted list
 * (https://zulip.com/api/get-events#muted_topics; queues that asked for
 * `user_topic` drop it), then `user_topic`
 * (https://zulip.com/api/get-events#user_topic). One Query of the user's
 * topics and one of the realm's streams, in parallel.
 */
export async function notifyUserTopic(deps: Deps, realm: RealmRecord, me: UserRecord, changed: UserTopicEntry): Promise<void> {
  const [records, streams] = await Promise.all([listUserTopics(deps, me.user_id), listRealmStreams(deps, realm.id)]);
  await sendEvent(deps, { type: "muted_topics", muted_topics: mutedTopicEntries(records, streams) }, [me.user_id]);
  await sendEvent(deps, { type: "user_topic", ...changed }, [me.user_id]);
}

/**
 * Sets the caller's visibility policy for a topic of an already accessed
 * stream (Zulip's `do_set_user_topic_visibility_policy`): policy 0 removes
 * the stored policy; any other policy is stored with the current time.
 * Setting the policy a topic already has changes nothing and sends no
 * event, as in Zulip. One GetItem, one write, then the events.
 * @param topic a normalized topic name
 * @param policy one of {@link VisibilityPolicy}
 */
export async function doSetUserTopicVisibilityPolicy(
  deps: Deps,
  realm: RealmRecord,
  me: UserRecord,
  stream: StreamRecord,
  topic: string,
  policy: number,
): Promise<void> {
  const current = await getUserTopic(deps, me.user_id, stream.stream_id, topic);
  const currentPolicy = current?.visibility_policy ?? VisibilityPolicy.INHERIT;
  if (currentPolicy === policy) return;
  const last_updated = Math.floor(deps.clock.now() / 1000);
  if (policy === VisibilityPolicy.INHERIT) {
    await deleteUserTopic(deps, me.user_id, stream.stream_id, topic);
  } else {
    await putUserTopic(deps, { user_id: me.user_id, stream_id: stream.stream_id, topic_name: topic, visibility_policy: policy, last_updated });
  }
  await notifyUserTopic(deps, realm, me, { stream_id: stream.stream_id, topic_name: topic, last_updated, visibility_policy: policy });
}
