import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserTopicRecord } from "../../data/records/user-topic.js";
import { listStreamSubscriberIds } from "../../data/subscriptions.js";
import { rewriteUserTopics, topicPolicyUserIds, userTopicsOf } from "../../data/user-topics.js";
import { getUsersByIds } from "../../data/users.js";
import { VisibilityPolicy } from "../../queries/muting/muting.js";
import { notifyUserTopic } from "./user-topics.js";

/** Users whose policies one request moves; the rest of a larger topic keep theirs on the old topic. */
export const USER_TOPIC_MOVE_LIMIT = 100;

/** Where a whole topic went. */
export interface TopicMove {
  oldStream: StreamRecord;
  oldTopic: string;
  newStream: StreamRecord;
  newTopic: string;
}

/**
 * Moves every user's visibility policy from a topic that moved as a whole
 * to its new place, as Zulip's `do_update_message`
 * (`zerver/actions/message_edit.py`) does after a `change_all` move.
 * Each user with a policy on the old topic loses it there (a `user_topic`
 * event with policy 0); the new topic gets the old policy unless the user
 * already has a policy on it, which then stays as it is (the target's
 * policy wins). A user who cannot access a private new stream only loses
 * the old policy and hears nothing of the new topic. A case-only rename in
 * the same stream changes nothing (policies compare case-insensitively).
 *
 * Cost when nobody has a policy on the old topic: one GetItem. Otherwise a
 * BatchGetItem of the old and new policies, the users, the new stream's
 * subscribers when it is private, the batch writes, and each user's
 * events (see {@link notifyUserTopic}). At most
 * {@link USER_TOPIC_MOVE_LIMIT} users are moved.
 */
export async function doMoveUserTopics(deps: Deps, realm: RealmRecord, move: TopicMove): Promise<void> {
  const { oldStream, newStream } = move;
  if (oldStream.stream_id === newStream.stream_id && move.oldTopic.toLowerCase() === move.newTopic.toLowerCase()) return;
  const userIds = (await topicPolicyUserIds(deps, oldStream.stream_id, move.oldTopic)).slice(0, USER_TOPIC_MOVE_LIMIT);
  if (userIds.length === 0) return;
  const [oldPolicies, newPolicies, users, subscribers] = await Promise.all([
    userTopicsOf(deps, userIds, oldStream.stream_id, move.oldTopic),
    userTopicsOf(deps, userIds, newStream.stream_id, move.newTopic),
    getUsersByIds(deps, realm.id, userIds),
    newStream.invite_only ? listStreamSubscriberIds(deps, newStream.stream_id) : Promise.resolve(undefined),
  ]);
  const mayAccess = (id: number) => subscribers === undefined || subscribers.includes(id);
  const last_updated = Math.floor(deps.clock.now() / 1000);
  const puts: UserTopicRecord[] = [];
  const moved: UserTopicRecord[] = [];
  for (const old of oldPolicies.values()) {
    moved.push(old);
    if (!mayAccess(old.user_id) || newPolicies.has(old.user_id)) continue;
    puts.push({ ...old, stream_id: newStream.stream_id, topic_name: move.newTopic, last_updated });
  }
  await rewriteUserTopics(deps, puts, moved);
  const added = new Map(puts.map((r) => [r.user_id, r]));
  await Promise.all(
    moved.map(async (old) => {
      const user = users.get(old.user_id);
      if (!user) return;
      const base = { stream_id: old.stream_id, topic_name: old.topic_name, last_updated, visibility_policy: VisibilityPolicy.INHERIT };
      await notifyUserTopic(deps, realm, user, base);
      const put = added.get(old.user_id);
      if (put) await notifyUserTopic(deps, realm, user, { stream_id: put.stream_id, topic_name: put.topic_name, last_updated, visibility_policy: put.visibility_policy });
    }),
  );
}
