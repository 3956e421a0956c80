import type { Deps } from "../../deps.js";
import type { DisplayRecipientUser, MessageRecord, SubmessageRecord } from "../../data/records/message.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserMessageRecord } from "../../data/records/user-message.js";
import type { UserRecord } from "../../data/records/user.js";
import { alertWordsOfUsers } from "../../data/alert-words.js";
import { allocateIds } from "../../data/counters.js";
import { submessageBytes } from "../../data/submessages.js";
import { putMessage, putRowsAndRecipients } from "../../data/messages.js";
import { noReactions } from "../../data/reactions.js";
import { claimFirstMessageId } from "../../data/streams.js";
import { usersWithAlertWords } from "../../domain/alert-words.js";
import { avatarUrlFor } from "../../domain/avatar.js";
import { apiEmail } from "../../domain/email.js";
import { topicLinks } from "../../markdown/topic-links.js";
import type { Linkifier } from "../../markdown/linkifiers.js";
import type { RenderResult } from "../../markdown/types.js";
import { expandStreamMessageJob, indexMessageJob } from "./deferred.js";
import { notifyMessage, type LocalEcho } from "./notify-message.js";
import { messageNotificationsJob } from "../notifications/notifications-job.js";
import { renderedMessageFields } from "./render-content.js";

/**
 * Audiences above this many recipients get their UserMessage rows and
 * `message` events from deferred work (`write_user_messages` jobs): up to it,
 * the rows are one round of BatchWriteItem calls (4 × 25) inside the
 * request. The sender's own row and event are always written inline.
 */
export const INLINE_RECIPIENT_LIMIT = 100;

/** Where a checked message goes and who receives it. */
export type Addressee =
  | {
      kind: "stream";
      stream: StreamRecord;
      /**
       * The stream's active subscribers (the recipients, and those a stream
       * wildcard mention reaches) when there are at most
       * {@link INLINE_RECIPIENT_LIMIT}; undefined for a larger audience, which
       * the `expand_stream_message` job reads outside the request.
       */
      subscriberIds: Set<number> | undefined;
      /** Whether the sender is subscribed (a stream wildcard mention reaches subscribers only). */
      senderSubscribed: boolean;
    }
  | {
      kind: "private";
      recipientId: number;
      /** Every participant, the sender included, by ID. */
      participants: UserRecord[];
    };

/** A checked message, ready for {@link doSendMessage}. */
export interface MessageToSend extends LocalEcho {
  /** Freshly allocated from the `message` counter. */
  id: number;
  addressee: Addressee;
  /** Normalized; `""` for direct messages. */
  topic: string;
  /** Normalized Markdown. */
  content: string;
  /** The rendering of `content`. */
  rendered: RenderResult;
  /** The organization's linkifiers in its order, for `topic_links`; missing: only URLs are linked. */
  linkifiers?: readonly Linkifier[];
  /** Zulip's sending client name. */
  clientName: string;
  /** The sender reads their own message (Zulip's `sent_by_human`, feature level 236's `read_by_sender`). */
  senderReads: boolean;
  /**
   * The topic's participants before this message (Zulip's
   * `topic_participant_user_ids`, computed by `get_recipient_info` before
   * the message is saved; see `queries/messages/topic-participants.ts`):
   * only they get `topic_wildcard_mentioned`. Needed when `rendered` has a
   * topic wildcard, else ignored; missing: nobody is topic-wildcard mentioned.
   */
  topicParticipantIds?: ReadonlySet<number>;
  /**
   * Zulip's `limit_unread_user_ids`: when set, everyone else gets the
   * message already read (resolution notices: unread for topic participants only).
   */
  limitUnreadUserIds?: ReadonlySet<number>;
}

/** Stored flags of one recipient (https://zulip.com/api/update-message-flags#available-flags; Zulip's `create_user_messages`). */
function flagsFor(userId: number, sender: UserRecord, msg: MessageToSend, alerted: ReadonlySet<number>): string[] {
  const { rendered, addressee } = msg;
  const flags: string[] = [];
  const limited = msg.limitUnreadUserIds !== undefined && !msg.limitUnreadUserIds.has(userId);
  // Those who muted the sender get the message already read (Zulip's `muted_sender_user_ids`).
  const mutedSender = sender.muted_by_ids?.has(userId) === true;
  if ((userId === sender.user_id && msg.senderReads) || limited || mutedSender) flags.push("read");
  if (rendered.mentionedUserIds.includes(userId)) flags.push("mentioned");
  if (alerted.has(userId)) flags.push("has_alert_word");
  // A stream wildcard notifies the stream's subscribers (every participant of a DM).
  const wildcardReaches =
    addressee.kind === "private" ||
    (userId === sender.user_id ? addressee.senderSubscribed : addressee.subscriberIds?.has(userId) === true);
  if (rendered.mentionsStreamWildcard && wildcardReaches) flags.push("stream_wildcard_mentioned");
  // A topic wildcard reaches only the recipients who already took part in
  // the topic. A DM has no topic participants in Zulip, so nobody there.
  const topicReaches = addressee.kind === "stream" && msg.topicParticipantIds?.has(userId) === true;
  if (rendered.mentionsTopicWildcard && wildcardReaches && topicReaches) flags.push("topic_wildcard_mentioned");
  return flags;
}

/**
 * The widget submessage a `/poll` or `/todo` message starts with (Zulip's
 * `do_widget_post_save_actions`): sent by the message's sender, `msg_type`
 * `widget`, content `{"widget_type": …, "extra_data": …}` as Zulip's
 * `json.dumps` writes it. Undefined for any other content, without a write.
 * The widget parser is loaded only for content starting `/poll` or `/todo`,
 * out of the send path's cold start.
 * @returns the submessage, its ID allocated from the `submessage` counter (one round trip)
 */
async function widgetSubmessage(deps: Deps, sender: UserRecord, msg: MessageToSend): Promise<SubmessageRecord | undefined> {
  if (!msg.content.startsWith("/poll") && !msg.content.startsWith("/todo")) return undefined;
  const { pythonJsonDumps, widgetContentFor } = await import("../../domain/widgets.js");
  const widget = widgetContentFor(msg.content);
  if (!widget) return undefined;
  return {
    msg_type: "widget",
    content: pythonJsonDumps(widget),
    message_id: msg.id,
    sender_id: sender.user_id,
    id: await allocateIds(deps, "submessage"),
  };
}

/** The message record of a checked message: sender and recipient denormalized (docs/data-model.md "Messages"). */
function messageRecord(
  deps: Deps,
  realm: RealmRecord,
  sender: UserRecord,
  msg: MessageToSend,
  widget: SubmessageRecord | undefined,
  topicLinkList: MessageRecord["topic_links"],
): MessageRecord {
  const { addressee } = msg;
  const senderEmail = apiEmail(sender, realm, deps.config);
  const isStream = addressee.kind === "stream";
  const displayRecipient: string | DisplayRecipientUser[] = isStream
    ? addressee.stream.name
    : addressee.participants.map((u) => ({
        id: u.user_id,
        email: apiEmail(u, realm, deps.config),
        full_name: u.full_name,
        is_mirror_dummy: false,
      }));
  return {
    id: msg.id,
    realm_id: realm.id,
    recipient_type: isStream ? "stream" : "private",
    recipient_id: isStream ? addressee.stream.recipient_id : addressee.recipientId,
    ...(isStream ? { stream_id: addressee.stream.stream_id } : { dm_user_ids: addressee.participants.map((u) => u.user_id) }),
    topic: msg.topic,
    display_recipient: displayRecipient,
    sender_id: sender.user_id,
    sender_email: senderEmail,
    sender_full_name: sender.full_name,
    sender_realm_str: realm.string_id,
    sender_avatar_url: avatarUrlFor(sender, { clientGravatar: false, emailVisible: true })!,
    sender_gravatar: sender.avatar_source === "G" && senderEmail === sender.delivery_email,
    content: msg.content,
    ...renderedMessageFields(msg.rendered),
    timestamp: Math.floor(deps.clock.now() / 1000),
    client: msg.clientName,
    ...noReactions(),
    edit_history: [],
    ...(widget ? { submessages: [widget], submessage_bytes: submessageBytes(widget) } : { submessages: [] }),
    topic_links: topicLinkList,
  };
}

/**
 * Zulip's `do_send_messages` for one checked message: writes the message
 * and its recipients' rows, and sends the `message` event.
 *
 * Preconditions: `msg.addressee` passed every check of `checkSendMessage`
 * (or is an internal sender's, see `users/notification-bot.ts`), `msg.id` is
 * freshly allocated, `msg.content` is normalized and `msg.rendered` is its
 * rendering.
 *
 * Recipients: a stream's active subscribers plus the sender; a
 * conversation's participants. Large audiences (over
 * {@link INLINE_RECIPIENT_LIMIT}) get their rows and events from
 * `expand_stream_message` / `write_user_messages` jobs, so the request
 * costs the same for 10 or 10,000 subscribers; the message is readable on
 * stream narrows at once (the stream index is part of the message item),
 * while the recipients' unread counts and home views follow within the
 * jobs' latency.
 *
 * Flags (Zulip's `create_user_messages`): `mentioned` for the mentioned;
 * `stream_wildcard_mentioned` for every subscriber reached;
 * `topic_wildcard_mentioned` only for subscribers in
 * `msg.topicParticipantIds`; `read` for the sender when `senderReads`, and
 * for everyone outside `msg.limitUnreadUserIds` when given, and for those
 * who muted the sender (`sender.muted_by_ids`, read with the sender: no
 * extra round trip). These sets travel in the `expand_stream_message`
 * payload for large audiences.
 * `has_alert_word` for each recipient whose alert words occur in the
 * content (`usersWithAlertWords`); the recipients' words are read only when
 * the realm has `alert_words_in_use` (one BatchGet per 100 recipients,
 * before the writes); a large audience's are read by the expand job.
 *
 * Widgets: a `/poll` or `/todo` message is stored with its widget
 * submessage ({@link widgetSubmessage}), which the `message` event and every
 * read of the message carry.
 *
 * Round trips: a widget submessage's ID (widget messages only, beside the
 * alert words read); the message item, the rows with the recipients items (and a
 * stream's first message ID), in parallel; then the search-index job (with
 * the expand job for a large audience) beside the events.
 * @returns the new message's ID (Zulip's response `id`)
 */
export async function doSendMessage(
  deps: Deps,
  realm: RealmRecord,
  sender: UserRecord,
  msg: MessageToSend,
): Promise<{ id: number }> {
  const { addressee, rendered } = msg;
  const isStream = addressee.kind === "stream";
  const recipientIds = isStream
    ? [...new Set([...(addressee.subscriberIds ?? []), sender.user_id])]
    : addressee.participants.map((u) => u.user_id);
  const inline = !isStream || addressee.subscriberIds !== undefined;
  // Recipients' alert words: one BatchGet per 100 inline recipients, none while nobody in the realm has any.
  const [widget, alerted] = await Promise.all([
    widgetSubmessage(deps, sender, msg),
    realm.alert_words_in_use
      ? alertWordsOfUsers(deps, inline ? recipientIds : [sender.user_id]).then((words) => usersWithAlertWords(msg.content, words))
      : new Set<number>(),
  ]);
  const links = isStream ? await topicLinks(msg.topic, msg.linkifiers) : [];
  const message = messageRecord(deps, realm, sender, msg, widget, links);
  const rows: UserMessageRecord[] = recipientIds.map((userId) => ({
    user_id: userId,
    message_id: message.id,
    recipient_id: message.recipient_id,
    is_private: !isStream,
    flags: flagsFor(userId, sender, msg, alerted),
  }));
  const publicStream = isStream && !addressee.stream.invite_only;
  const echo = { localId: msg.localId, queueId: msg.queueId };

  // The stream's first message is recorded once, beside the message's own writes.
  const firstInStream =
    isStream && addressee.stream.first_message_id == null
      ? claimFirstMessageId(deps, realm.id, addressee.stream.stream_id, message.id)
      : Promise.resolve();
  if (inline) {
    // The rows and the recipients item (who got a row) share one BatchWriteItem round.
    await Promise.all([firstInStream, putMessage(deps, message), putRowsAndRecipients(deps, message.id, rows, recipientIds)]);
    // Jobs only once the message exists: the indexer reads it. The
    // notifications decision rides in the same SendMessageBatch (no round trip of its own).
    const notifications = messageNotificationsJob(message, rows);
    await Promise.all([
      deps.deferred.enqueue(notifications ? [indexMessageJob(realm.id, message.id), notifications] : [indexMessageJob(realm.id, message.id)]),
      notifyMessage(deps, message, rows, { ...echo, ...(publicStream ? { publicStream: { realmId: realm.id } } : {}) }),
    ]);
    return { id: message.id };
  }

  // Large audience: the sender's row and event now; the expand job reads the
  // subscribers and writes everyone else's rows and events. Recipients
  // chunk 0 holds the sender; each job writes its own chunk.
  await Promise.all([firstInStream, putMessage(deps, message), putRowsAndRecipients(deps, message.id, rows, [sender.user_id])]);
  await Promise.all([
    deps.deferred.enqueue([
      indexMessageJob(realm.id, message.id),
      expandStreamMessageJob({
        message_id: message.id,
        stream_id: addressee.stream.stream_id,
        recipient_id: message.recipient_id,
        public_stream: publicStream,
        sender_id: sender.user_id,
        mentioned_user_ids: rendered.mentionedUserIds,
        stream_wildcard: rendered.mentionsStreamWildcard,
        topic_wildcard: rendered.mentionsTopicWildcard,
        ...(rendered.mentionsTopicWildcard ? { topic_participant_ids: [...(msg.topicParticipantIds ?? [])] } : {}),
        ...(msg.limitUnreadUserIds ? { limit_unread_user_ids: [...msg.limitUnreadUserIds] } : {}),
        ...(realm.alert_words_in_use ? { alert_words: true } : {}),
        ...(sender.muted_by_ids?.size ? { muted_by_ids: [...sender.muted_by_ids] } : {}),
      }),
    ]),
    notifyMessage(deps, message, rows, { ...echo, ...(publicStream ? { publicStream: { realmId: realm.id } } : {}) }),
  ]);
  return { id: message.id };
}
