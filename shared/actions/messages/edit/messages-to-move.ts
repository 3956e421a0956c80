import type { Deps } from "../../deps.js";
import { batchGet } from "../../data/batch-get.js";
import { keys } from "../../data/keys.js";
import type { MessageRecord } from "../../data/records/message.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { getStream } from "../../data/streams.js";
import { getSubscription } from "../../data/subscriptions.js";

import { isModeratorOrAbove } from "../../domain/roles.js";
import { realmSettings } from "../../domain/realm-settings.js";
import { canReadStreamHistory } from "../../domain/stream-permissions.js";
import { MoveMessagesTimeLimitError } from "../../errors.js";

/** Zulip's grace period past the realm's edit and move limits (seconds): clients show the limit 20 s early. */
export const EDIT_LIMIT_BUFFER_SECONDS = 20;

/** A message of the topic being moved: its ID and when it was sent (UNIX seconds). */
export interface TopicMessage {
  id: number;
  timestamp: number;
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
    const rows = await batchGet(deps, topicMessages.map((m) => keys.userMessage(user.user_id, m.id)));
    const received = new Set(rows.map((r) => Number(r.message_id)));
    counted = topicMessages.filter((m) => received.has(m.id));
  }
  const allowed = counted.filter((m) => m.timestamp > oldestAllowed);
  if (allowed.length === counted.length) return;
  throw new MoveMessagesTimeLimitError(allowed[0]?.id ?? null, counted.length, allowed.length);
}
