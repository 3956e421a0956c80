/**
 * A user's visibility policy for one topic (Zulip's `UserTopic`): one item
 * per (user, stream, topic) in the user's partition (`keys.userTopic`).
 * Only policies other than "inherit" (0) are stored.
 */
export interface UserTopicRecord {
  user_id: number;
  stream_id: number;
  /** The topic as last set by the user (the key holds it lower-cased). */
  topic_name: string;
  /** 1 muted, 2 unmuted, 3 followed (https://zulip.com/api/update-user-topic). */
  visibility_policy: number;
  /** UNIX seconds of the last change. */
  last_updated: number;
}
