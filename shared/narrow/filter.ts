import type { MessageRecord } from "../data/records/message.js";

import { hasReactions } from "../data/reactions.js";
import { isMentionFlagSet } from "../data/user-messages.js";
import type { ResolvedTerm } from "./types.js";
import { matchesSearch } from "./search.js";
import { RESOLVED_TOPIC_PREFIX } from "../domain/topic-resolution.js";

/** The key of a topic in `is:followed`'s set: stream ID and lower-cased topic (topics compare case-insensitively). */
export function followedTopicKey(streamId: number, topic: string): string {
  return `${streamId}\u0000${topic.toLowerCase()}`;
}

/**
 * Whether a message matches one resolved narrow term, for a viewer.
 * @param flags the viewer's stored flags on the message, or undefined when
 *   the viewer has no UserMessage row (a message from a stream's shared
 *   history: it counts as read and carries no other flag)
 */
export function matchesTerm(term: ResolvedTerm, message: MessageRecord, flags: readonly string[] | undefined, viewerId: number): boolean {
  if (term.kind === "noop") return true;
  const result = matchesPositive(term, message, flags ?? ["read", "historical"], viewerId);
  return term.negated ? !result : result;
}

function matchesPositive(term: ResolvedTerm, m: MessageRecord, flags: readonly string[], viewerId: number): boolean {
  const isStream = m.recipient_type === "stream";
  switch (term.kind) {
    case "stream":
      return isStream && m.stream_id === term.stream.stream_id;
    case "streams":
      return isStream && m.stream_id !== undefined && term.streamIds.has(m.stream_id);
    case "topic":
      return isStream && m.topic.toLowerCase() === term.topic.toLowerCase();
    case "sender":
      return m.sender_id === term.userId;
    case "dm":
      return !isStream && term.recipientId !== undefined && m.recipient_id === term.recipientId;
    case "dm-including": {
      if (isStream) return false;
      const members = m.dm_user_ids ?? [];
      if (term.groupOnly && members.length < 3) return false;
      return members.includes(viewerId) && members.includes(term.userId);
    }
    case "is":
      switch (term.what) {
        case "dm":
          return !isStream;
        case "starred":
          return flags.includes("starred");
        case "unread":
          return !flags.includes("read");
        case "mentioned":
          return isMentionFlagSet(flags);
        case "alerted":
          return flags.includes("has_alert_word");
        case "resolved":
          return isStream && m.topic.startsWith(RESOLVED_TOPIC_PREFIX);
        case "followed":
          return isStream && m.stream_id !== undefined && term.followedTopics?.has(followedTopicKey(m.stream_id, m.topic)) === true;
        default:
          return false;
      }
    case "has":
      switch (term.what) {
        case "link":
          return m.has_link;
        case "image":
          return m.has_image;
        case "attachment":
          return m.has_attachment;
        default:
          return hasReactions(m);
      }
    case "id":
      return m.id === term.id;
    case "search":
      return matchesSearch(term.terms, m.topic, m.content);
    case "home":
      return !isStream || m.stream_id === undefined || isVisibleAtHome(term, m.stream_id, m.topic);
    case "noop":
      return true;
  }
}

/** Topic visibility policies (https://zulip.com/api/update-user-topic): muted 1, unmuted 2, followed 3. */
const MUTED_TOPIC = 1;
const UNMUTED_TOPIC = 2;
const FOLLOWED_TOPIC = 3;

/**
 * Whether a stream message shows in the home view (`in:home`): in a muted
 * stream only if the viewer unmuted or follows its topic; elsewhere unless
 * the viewer muted its topic.
 */
export function isVisibleAtHome(
  term: { mutedStreamIds: ReadonlySet<number>; topicPolicies: ReadonlyMap<string, number> },
  streamId: number,
  topic: string,
): boolean {
  const policy = term.topicPolicies.get(followedTopicKey(streamId, topic));
  if (term.mutedStreamIds.has(streamId)) return policy === UNMUTED_TOPIC || policy === FOLLOWED_TOPIC;
  return policy !== MUTED_TOPIC;
}

/** Whether a stored message matches every term of a resolved narrow, for a viewer (`GET /messages`). */
export function messageMatchesNarrow(
  terms: readonly ResolvedTerm[],
  message: MessageRecord,
  flags: readonly string[] | undefined,
  viewerId: number,
): boolean {
  return terms.every((t) => matchesTerm(t, message, flags, viewerId));
}
