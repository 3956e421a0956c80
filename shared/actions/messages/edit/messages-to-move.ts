import type { Deps } from "../../../deps.js";
import { messagesByTopic } from "../../../data/messages.js";
import type { MessageRecord } from "../../../data/records/message.js";
import type { RealmRecord } from "../../../data/records/realm.js";
import type { UserRecord } from "../../../data/records/user.js";
import { getStream } from "../../../data/streams.js";
import { getSubscription } from "../../../data/subscriptions.js";
import { getUserMessages } from "../../../data/user-messages.js";
import { isModeratorOrAbove } from "../../../domain/roles.js";
import { realmSettings } from "../../../domain/realm-settings.js";
import { canReadStreamHistory } from "../../../domain/stream-permissions.js";
import { resolutionChange } from "../../../domain/topic-resolution.js";
import { MoveMessagesTimeLimitError } from "../../../errors.js";
import { addParticipants } from "../../../queries/messages/topic-participants.js";

/**
 * Which messages a topic edit or move carries (Zulip's `propagate_mode`:
 * the message alone, it and the topic's later messages, or the whole
 * topic), and Zulip's time limit on moving a whole topic.
 */

/** Zulip's `propagate_mode` of `PATCH /messages/{message_id}` (https://zulip.com/api/update-message). */
export type PropagateMode = "change_one" | "change_later" | "change_all";

/** Zulip's grace period past the realm's edit and move limits (seconds): clients show the limit 20 s early. */
export const EDIT_LIMIT_BUFFER_SECONDS = 20;

/** Topic messages per Query when a move reads the topic. */
const TOPIC_PAGE_SIZE = 1000;

/** A message of the topic being moved: its ID and when it was sent (UNIX seconds). */
export interface TopicMessage {
  id: number;
  timestamp: number;
}

/**
 * The messages a topic edit moves, ascending by ID (`change_later`: from
 * the message on; `change_all`: the whole topic), with the attributes
 * their participants come from. One Query per 1,000 messages of the
 * topic; none for `change_one`.
 */
async function topicMessages(deps: Deps, message: MessageRecord, mode: PropagateMode): Promise<TopicMessageRecord[]> {
  if (mode === "change_one") return [message];
  const found = new Map<number, TopicMessageRecord>();
  const range = mode === "change_later" ? { gte: message.id } : {};
  const options = { pageSize: TOPIC_PAGE_SIZE, projection: TOPIC_MESSAGE_ATTRIBUTES };
  for (const m of await messagesByTopic(deps, message.stream_id!, message.topic, range, options)) {
    found.set(m.id, m);
  }
  found.set(message.id, message); // the topic index lags a just-sent message
  return [...found.values()].sort((a, b) => a.id - b.id);
}

/** What a move reads of each topic message (not the content: a move of long messages reads no more than it needs). */
const TOPIC_MESSAGE_ATTRIBUTES = ["id", "timestamp", "sender_id", "reactions"] as const;

type TopicMessageRecord = Pick<MessageRecord, (typeof TOPIC_MESSAGE_ATTRIBUTES)[number]>;

/**
 * Zulip's `bulk_access_stream_messages_query` as a move between streams
 * applies it (`update_messages_for_topic_edit`): a user who cannot read
 * the old stream's whole history (protected history, a guest) moves only
 * the messages they received, so a move cannot publish messages the mover
 * never could read. `message`, which the user accessed, always stays.
 * Cost: the stream and subscription (1 round), then the user's rows
 * (1 BatchGet round per 100 messages) when the history is not readable.
 */
async function accessibleToMover<T extends { id: number }>(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  message: MessageRecord,
  messages: T[],
): Promise<T[]> {
  if (messages.length <= 1) return messages;
  const [stream, sub] = await Promise.all([
    getStream(deps, realm.id, message.stream_id!),
    getSubscription(deps, user.user_id, message.stream_id!),
  ]);
  if (stream && canReadStreamHistory(user, stream, sub?.active ? sub : undefined)) return messages;
  const received = await getUserMessages(deps, user.user_id, messages.map((m) => m.id));
  return messages.filter((m) => m.id === message.id || received.has(m.id));
}

/**
 * The topic's messages a move carries (IDs ascending, and their senders
 * and reactors: Zulip's `affected_participant_ids` of a resolution
 * notice), after Zulip's `change_all` time limit check (moves that only
 * resolve or unresolve the topic are exempt). A move to another stream
 * carries only the messages the user can access (see `accessibleToMover`).
 * @param change.topic the new topic, when it changes; `change.stream`: whether the stream changes
 * @param nowSeconds UNIX seconds
 * @throws MoveMessagesTimeLimitError
 */
export async function messagesToMove(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  message: MessageRecord,
  mode: PropagateMode,
  change: { topic?: string; stream: boolean },
  nowSeconds: number,
): Promise<{ ids: number[]; participants: Set<number> }> {
  const inTopic = await topicMessages(deps, message, mode);
  const resolving = change.topic !== undefined && resolutionChange(message.topic, change.topic) !== undefined;
  if (mode === "change_all" && !resolving) {
    const what = { topic: change.topic !== undefined, stream: change.stream };
    await checkChangeAllTimeLimit(deps, realm, user, message, inTopic, what, nowSeconds);
  }
  // Within a stream Zulip moves the whole topic, read or not, to keep it together.
  const moving = change.stream ? await accessibleToMover(deps, realm, user, message, inTopic) : inTopic;
  const participants = new Set<number>();
  for (const m of moving) addParticipants(participants, m);
  return { ids: moving.map((m) => m.id), participants };
}

/**
 * Zulip's check that a `change_all` move by someone below moderator does
 * not carry messages older than the organization's move limits (feature
 * level 172): the stricter of `move_messages_within_stream_limit_seconds`
 * (when the topic changes) and `move_messages_between_streams_limit_seconds`
 * (when the stream changes), each plus {@link EDIT_LIMIT_BUFFER_SECONDS}.
 * Resolving or unresolving a topic is exempt (the caller does not call).
 * Where the user cannot read the stream's whole history, only the messages
 * they received count, as Zulip does.
 *
 * Cost: nothing when a limit does not apply or the history is readable;
 * else the stream and subscription (1 round) and the user's rows (1 round
 * per 100 topic messages).
 * @param topicMessages every message of the topic, ascending by ID
 * @param nowSeconds UNIX seconds
 * @throws MoveMessagesTimeLimitError (`MOVE_MESSAGES_TIME_LIMIT_EXCEEDED`) with the part the user may move
 */
export async function checkChangeAllTimeLimit(
  deps: Pick<Deps, "db" | "table">,
  realm: RealmRecord,
  user: UserRecord,
  message: MessageRecord,
  topicMessages: readonly TopicMessage[],
  change: { topic: boolean; stream: boolean },
  nowSeconds: number,
): Promise<void> {
  if (isModeratorOrAbove(user)) return;
  const settings = realmSettings(realm);
  const limits: number[] = [];
  const withinStream = settings.move_messages_within_stream_limit_seconds as number | null;
  const betweenStreams = settings.move_messages_between_streams_limit_seconds as number | null;
  if (change.topic && withinStream !== null) limits.push(withinStream + EDIT_LIMIT_BUFFER_SECONDS);
  if (change.stream && betweenStreams !== null) limits.push(betweenStreams + EDIT_LIMIT_BUFFER_SECONDS);
  if (limits.length === 0) return;
  const oldestAllowed = nowSeconds - Math.min(...limits);
  // Cheap first: with every message recent enough there is nothing to count.
  if (topicMessages.every((m) => m.timestamp > oldestAllowed)) return;

  let counted = topicMessages;
  const [stream, sub] = await Promise.all([
    getStream(deps, realm.id, message.stream_id!),
    getSubscription(deps, user.user_id, message.stream_id!),
  ]);
  if (!stream || !canReadStreamHistory(user, stream, sub?.active ? sub : undefined)) {
    const received = await getUserMessages(deps, user.user_id, topicMessages.map((m) => m.id));
    counted = topicMessages.filter((m) => received.has(m.id));
  }
  const allowed = counted.filter((m) => m.timestamp > oldestAllowed);
  if (allowed.length === counted.length) return;
  throw new MoveMessagesTimeLimitError(allowed[0]?.id ?? null, counted.length, allowed.length);
}
