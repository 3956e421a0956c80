import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { listStreamSubscriberIds } from "../../data/subscriptions.js";
import { userById, getUsersByIds } from "../../data/users.js";
import { apiEmail } from "../../domain/email.js";
import { checkStreamPostPolicy } from "../../domain/stream-permissions.js";
import { effectiveUserSettings } from "../../domain/user-settings.js";
import { JsonableError } from "../../errors.js";
import { sendEvent, sendStreamTypingEvent } from "../../events/publish.js";
import { accessStream } from "../../access/stream.js";
import { MAX_TOPIC_LENGTH, TOPIC_TRUNCATION_MARK } from "../../domain/message-fields.js";

/**
 * Streams with more subscribers than this get no typing notifications
 * (Zulip's MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS).
 */
export const MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS = 100;

/** A parsed `POST /typing` request. */
export interface TypingRequest {
  op: "start" | "stop";
  /** `direct` (also Zulip's legacy `private`) or `stream` (also `channel`). */
  type: "direct" | "stream";
  /** Direct: the recipients' user IDs. */
  to?: number[];
  /** Stream: the stream and topic being composed to. */
  stream_id?: number;
  topic?: string;
}

function settingsOf(realm: RealmRecord, user: UserRecord): Record<string, unknown> {
  return effectiveUserSettings(user.settings ?? {});
}

/** Whether a user gets typing notifications (`receives_typing_notifications`, feature level 253). */
function receivesTyping(realm: RealmRecord, user: UserRecord): boolean {
  return user.is_active && settingsOf(realm, user).receives_typing_notifications !== false;
}

/**
 * The topic a typing event names: cut as a message's topic would be (57
 * characters and `...` past 60), so the event names the topic the message
 * will land in, and a long value is not copied into every subscriber's
 * event.
 */
function typingTopic(topic: string): string {
  const chars = Array.from(topic);
  if (chars.length <= MAX_TOPIC_LENGTH) return topic;
  return chars.slice(0, MAX_TOPIC_LENGTH - TOPIC_TRUNCATION_MARK.length).join("") + TOPIC_TRUNCATION_MARK;
}

/**
 * `POST /typing` (Zulip's `send_notification_backend` with
 * `check_send_typing_notification` / `do_send_stream_typing_notification`):
 * validates, then sends a `typing` event to the other participants —
 * never to the sender — who have typing notifications on. Stateless: no
 * write besides the events.
 *
 * Direct: `recipients` lists every participant, the sender included (it
 * names the conversation); every ID must be a user of the realm. Stream:
 * the sender must be allowed to post to the stream; subscribers get the
 * event (delivered only to queues with the `stream_typing_notifications`
 * capability), none when the stream has more than
 * {@link MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS} subscribers.
 *
 * Round trips: direct, one BatchGet of the participants, then one
 * BatchWriteItem of the recipients' event copies; stream, one GetItem pair
 * (stream and subscription), one subscriber Query, one BatchGet of the
 * subscribers, then one PutItem (the realm typing log's item, whatever the
 * number of subscribers).
 * @throws JsonableError `Missing 'stream_id' argument`, `Missing topic`,
 *   `Missing 'to' argument`, `Empty 'to' list`, `Invalid user ID <id>`,
 *   `Invalid channel ID`, `User has disabled typing notifications for …`, and
 *   the stream posting-policy errors
 */
export async function checkSendTypingNotification(
  deps: Deps,
  realm: RealmRecord,
  sender: UserRecord,
  req: TypingRequest,
): Promise<void> {
  const senderPerson = { user_id: sender.user_id, email: apiEmail(sender, realm, deps.config) };
  if (req.type === "stream") {
    if (req.stream_id === undefined) throw new JsonableError("Missing 'stream_id' argument");
    if (req.topic === undefined) throw new JsonableError("Missing topic");
    if (settingsOf(realm, sender).send_stream_typing_notifications === false) {
      throw new JsonableError("User has disabled typing notifications for channel messages");
    }
    const { stream } = await accessStream(deps, sender, realm, req.stream_id, {
      error: () => new JsonableError("Invalid channel ID"),
    });
    const botOwner =
      sender.is_bot && sender.bot_owner_id !== null ? await userById(deps, realm.id, sender.bot_owner_id) : undefined;
    checkStreamPostPolicy(sender, stream, { botOwner, realm, nowSeconds: Math.floor(deps.clock.now() / 1000) });
    const subscriberIds = await listStreamSubscriberIds(deps, stream.stream_id);
    if (subscriberIds.length > MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS) return;
    const subscribers = await getUsersByIds(
      deps,
      realm.id,
      subscriberIds.filter((id) => id !== sender.user_id),
    );
    const audience = [...subscribers.values()].filter((u) => receivesTyping(realm, u)).map((u) => u.user_id);
    await notifyStreamTyping(deps, realm.id, req.op, senderPerson, stream.stream_id, typingTopic(req.topic), audience.sort((a, b) => a - b));
    return;
  }

  if (req.to === undefined) throw new JsonableError("Missing 'to' argument");
  if (req.to.length === 0) throw new JsonableError("Empty 'to' list");
  if (settingsOf(realm, sender).send_private_typing_notifications === false) {
    throw new JsonableError("User has disabled typing notifications for direct messages");
  }
  const ids = [...req.to];
  if (!ids.includes(sender.user_id)) ids.push(sender.user_id);
  const found = await getUsersByIds(deps, realm.id, ids.filter((id) => id !== sender.user_id));
  found.set(sender.user_id, sender);
  for (const id of ids) {
    if (!found.has(id)) throw new JsonableError(`Invalid user ID ${id}`);
  }
  const participants = [...new Set(ids)].map((id) => found.get(id)!);
  const audience = participants.filter((u) => u.user_id !== sender.user_id && receivesTyping(realm, u));
  await notifyDirectTyping(
    deps,
    req.op,
    senderPerson,
    participants.map((u) => ({ user_id: u.user_id, email: apiEmail(u, realm, deps.config) })),
    audience.map((u) => u.user_id),
  );
}

/** A participant as `typing` events name them: user ID and API email. */
export interface TypingPerson {
  user_id: number;
  email: string;
}

/**
 * Sends a direct-message `typing` event (https://zulip.com/api/get-events#typing-start;
 * Zulip's `do_send_typing_notification`): `recipients` lists every
 * participant of the conversation, the sender included.
 */
export async function notifyDirectTyping(
  deps: Deps,
  op: "start" | "stop",
  sender: TypingPerson,
  recipients: TypingPerson[],
  audience: number[],
): Promise<void> {
  await sendEvent(deps, { type: "typing", op, message_type: "direct", sender, recipients }, audience);
}

/**
 * Sends a stream `typing` event (https://zulip.com/api/get-events#typing-start;
 * Zulip's `do_send_stream_typing_notification`), delivered only to queues
 * with the `stream_typing_notifications` capability: one item in the
 * realm's typing log addressed to `audience` (`sendStreamTypingEvent`),
 * not a copy per subscriber.
 */
export async function notifyStreamTyping(
  deps: Deps,
  realmId: number,
  op: "start" | "stop",
  sender: TypingPerson,
  streamId: number,
  topic: string,
  audience: number[],
): Promise<void> {
  await sendStreamTypingEvent(deps, realmId, { type: "typing", op, message_type: "stream", sender, stream_id: streamId, topic }, audience);
}
