import type { Deps } from "../../deps.js";
import { allocateIds } from "../../data/counters.js";
import { batchWrite } from "../../data/batch-write.js";
import type { DisplayRecipientUser, MessageRecord } from "../../data/records/message.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserMessageRecord } from "../../data/records/user-message.js";
import type { UserRecord } from "../../data/records/user.js";
import { putMessage, sendRecipientsItems } from "../../data/messages.js";

import { getOrCreateDirectRecipientId } from "../../data/recipients.js";
import { claimFirstMessageId, getStream, getStreamIdByName } from "../../data/streams.js";
import { getSubscription, listStreamSubscriberIds } from "../../data/subscriptions.js";
import { userMessageItem, wireFlags } from "../../data/user-messages.js";
import { userById, getUsersByIds } from "../../data/users.js";
import { avatarUrlFor } from "../../domain/avatar.js";
import { apiEmail } from "../../domain/email.js";
import { isGuest } from "../../domain/roles.js";
import { JsonableError, StreamDoesNotExistError, StreamIdDoesNotExistError } from "../../errors.js";
import { PUBLIC_STREAM_MARKER, sendEvent, writeEventToLogs, writePublicStreamEvent, type ZulipEvent } from "../../events/publish.js";
import { topicLinks } from "../../markdown/index.js";
import type { RenderResult } from "../../markdown/types.js";
import { topicParticipantIds } from "../../queries/messages/topic-participants.js";
import { checkStreamPostPolicy } from "../../access/stream.js";
import { messageToWire } from "../../wire/message.js";
import { expandStreamMessageJob, indexMessageJob } from "./deferred.js";
import { renderedMessageFields, renderMessageContent } from "./render-content.js";
import { normalizeContent, normalizeTopic, privateRecipients, readBySender, streamIndicator } from "./normalize.js";
import { usersByEmail } from "../../access/users-by-email.js";

/**
 * Audiences above this many recipients get their UserMessage rows and
 * `message` events from deferred work (`write_user_messages` jobs): up to it,
 * the rows are one round of BatchWriteItem calls (4 × 25) inside the
 * request. The sender's own row and event are always written inline.
 */
export const INLINE_RECIPIENT_LIMIT = 100;

/** A `POST /messages` request after parameter decoding (spec "Send a message"). */
export interface SendMessageRequest {
  /** `stream`/`channel` or `private`/`direct`. */
  type: string;
  /** `to` decoded as JSON when it parses, else the raw string. */
  to: unknown;
  /** `topic` (or its alias `subject`); required for stream messages. */
  topic: string | undefined;
  content: string;
  queueId?: string;
  localId?: string;
  /** Feature level 236's explicit `read_by_sender`. */
  readBySender?: boolean;
  /** The request's client name (Zulip's sending client). */
  clientName: string;
}

/** Where a checked message goes and who receives it. */
type Addressee =
  | {
      kind: "stream";
      stream: StreamRecord;
      /** Active subscribers: the recipients of stream wildcard mentions. */
      /**
       * The stream's subscribers when there are at most
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

type SendDeps = Deps;

async function checkStreamAddressee(
  deps: SendDeps,
  realm: RealmRecord,
  sender: UserRecord,
  indicator: string | number,
): Promise<Extract<Addressee, { kind: "stream" }>> {
  const notFound = () =>
    typeof indicator === "number" ? new StreamIdDoesNotExistError(indicator) : new StreamDoesNotExistError(indicator);
  const streamId = typeof indicator === "number" ? indicator : await getStreamIdByName(deps, realm.id, indicator);
  if (streamId === undefined) throw notFound();
  const ownerId = sender.is_bot ? sender.bot_owner_id : null;
  const [stream, sub, subscriberIds, owner, ownerSub] = await Promise.all([
    getStream(deps, realm.id, streamId),
    getSubscription(deps, sender.user_id, streamId),
    // Only enough to tell a small audience from a large one: the request's
    // cost must not grow with the stream's size.
    listStreamSubscriberIds(deps, streamId, INLINE_RECIPIENT_LIMIT + 1),
    ownerId !== null ? userById(deps, realm.id, ownerId) : Promise.resolve(undefined),
    ownerId !== null ? getSubscription(deps, ownerId, streamId) : Promise.resolve(undefined),
  ]);
  if (!stream || stream.deactivated) throw notFound();

  // Zulip's access_stream_for_send_message: the post policy first (a bot
  // may post where its owner may), then who may address the stream at all.
  checkStreamPostPolicy(sender, stream, { botOwner: owner, realm, nowSeconds: Math.floor(deps.clock.now() / 1000) });
  const subscribed = sub?.active === true;
  const allowed =
    stream.is_web_public ||
    (!stream.invite_only && !isGuest(sender)) ||
    subscribed ||
    (sender.is_bot && ownerSub?.active === true);
  if (!allowed) throw new JsonableError(`Not authorized to send to channel '${stream.name}'`);
  return {
    kind: "stream",
    stream,
    subscriberIds: subscriberIds.length > INLINE_RECIPIENT_LIMIT ? undefined : new Set(subscriberIds),
    senderSubscribed: subscribed,
  };
}

async function checkPrivateAddressee(
  deps: SendDeps,
  realm: RealmRecord,
  sender: UserRecord,
  to: unknown,
): Promise<Extract<Addressee, { kind: "private" }>> {
  const parsed = privateRecipients(to);
  let recipients: UserRecord[];
  if ("ids" in parsed) {
    const found = await getUsersByIds(deps, realm.id, parsed.ids);
    for (const id of parsed.ids) if (!found.has(id)) throw new JsonableError(`Invalid user ID ${id}`);
    recipients = parsed.ids.map((id) => found.get(id)!);
  } else {
    const found = await usersByEmail(deps, realm, parsed.emails);
    for (const email of parsed.emails) {
      if (!found.has(email.toLowerCase())) throw new JsonableError(`Invalid email '${email}'`);
    }
    recipients = parsed.emails.map((e) => found.get(e.toLowerCase())!);
  }
  for (const user of recipients) {
    if (!user.is_active) throw new JsonableError(`'${apiEmail(user, realm, deps.config)}' is no longer using Zulip.`);
  }
  const byId = new Map<number, UserRecord>([[sender.user_id, sender]]);
  for (const user of recipients) byId.set(user.user_id, user);
  const participants = [...byId.values()].sort((a, b) => a.user_id - b.user_id);
  const recipientId = await getOrCreateDirectRecipientId(deps, realm.id, participants.map((u) => u.user_id));
  return { kind: "private", recipientId, participants };
}

/**
 * Who gets which flag beyond mentions: Zulip's `create_user_messages`
 * (`zerver/actions/message_send.py`).
 */
interface FlagRules {
  /** The sender reads their own message (Zulip's `sent_by_human`, feature level 236's `read_by_sender`). */
  senderReads: boolean;
  /**
   * Topic participants before this message (Zulip's
   * `topic_participant_user_ids`, computed by `get_recipient_info` before the
   * message is saved): only they get `topic_wildcard_mentioned`.
   */
  topicParticipantIds?: ReadonlySet<number>;
  /**
   * Zulip's `limit_unread_user_ids`: when set, everyone else gets the
   * message already read (resolution notices: unread for topic participants only).
   */
  limitUnreadUserIds?: ReadonlySet<number>;
}

/** Stored flags of one recipient (spec flag table; Zulip's `create_user_messages`). */
function flagsFor(userId: number, sender: UserRecord, rendered: RenderResult, addressee: Addressee, rules: FlagRules): string[] {
  const flags: string[] = [];
  const limited = rules.limitUnreadUserIds !== undefined && !rules.limitUnreadUserIds.has(userId);
  if ((userId === sender.user_id && rules.senderReads) || limited) flags.push("read");
  if (rendered.mentionedUserIds.includes(userId)) flags.push("mentioned");
  // A stream wildcard notifies the stream's subscribers (every participant of a DM).
  const wildcardReaches =
    addressee.kind === "private" ||
    (userId === sender.user_id ? addressee.senderSubscribed : addressee.subscriberIds?.has(userId) === true);
  if (rendered.mentionsStreamWildcard && wildcardReaches) flags.push("stream_wildcard_mentioned");
  // A topic wildcard reaches only the recipients who already took part in
  // the topic. A DM has no topic participants in Zulip, so nobody there.
  const topicReaches = addressee.kind === "stream" && rules.topicParticipantIds?.has(userId) === true;
  if (rendered.mentionsTopicWildcard && wildcardReaches && topicReaches) flags.push("topic_wildcard_mentioned");
  return flags;
}

/**
 * Zulip's `check_send_message` + `do_send_messages` for `POST /messages`:
 * validates the request, writes the message and its recipients' rows, and
 * sends the `message` event.
 *
 * Round trips after authentication, whatever the history or audience size:
 * (1) the stream's name item / the recipients' email items, and mention
 * lookups; (2) stream, sender's subscription, subscriber list (and a bot
 * owner) — or the conversation's `DMSET#` item; (3) the message ID counter;
 * (4) the message item, and the UserMessage rows with the recipients item
 * (who got a row, `RECIPIENTS#` in the message's partition; ≤ 100
 * recipients: one round of BatchWriteItem; beyond: the sender's row only),
 * in parallel; (5) the
 * events, the search-index job and (beyond 100) the jobs writing the other
 * rows and events, in parallel. A conversation's first
 * message adds two (counter and transaction of its `DMSET#` claim).
 * A stream message whose rendering has a topic wildcard (`@**topic**`)
 * also reads the topic's participants beside (3): one Query per page of
 * the topic, so O(topic size) (one extra sequential round trip per page
 * beyond the first); no other send pays it.
 *
 * @returns the new message's ID (Zulip's response `id`)
 * @throws JsonableError `Invalid type`, `Message must not be empty`, `Missing topic`,
 *   `Topic can't be empty!`, `Invalid email '<email>'`, `Invalid user ID <id>`,
 *   `'<email>' is no longer using Zulip.`, `Not authorized to send to channel '<name>'`,
 *   post-policy errors
 * @throws StreamDoesNotExistError / StreamIdDoesNotExistError (`STREAM_DOES_NOT_EXIST`)
 */
export async function checkSendMessage(
  deps: SendDeps,
  realm: RealmRecord,
  sender: UserRecord,
  req: SendMessageRequest,
): Promise<{ id: number }> {
  let kind: "stream" | "private";
  if (req.type === "stream" || req.type === "channel") kind = "stream";
  else if (req.type === "private" || req.type === "direct") kind = "private";
  else throw new JsonableError("Invalid type");

  const content = normalizeContent(req.content);
  const topic = kind === "stream" ? normalizeTopic(req.topic) : "";
  const indicator = kind === "stream" ? streamIndicator(req.to) : undefined;

  const [addressee, rendered] = await Promise.all([
    kind === "stream"
      ? checkStreamAddressee(deps, realm, sender, indicator!)
      : checkPrivateAddressee(deps, realm, sender, req.to),
    renderMessageContent(deps, realm, content),
  ]);

  // `@**topic**` needs the topic's participants before this message (Zulip's
  // `get_recipient_info`): read beside the ID allocation, and only then —
  // the read is O(topic size), every other send keeps its fixed cost.
  const [id, participants] = await Promise.all([
    allocateIds(deps, "message"),
    addressee.kind === "stream" && rendered.mentionsTopicWildcard
      ? topicParticipantIds(deps, addressee.stream.stream_id, topic)
      : Promise.resolve(undefined),
  ]);
  return doSendMessage(deps, realm, sender, {
    id,
    addressee,
    topic,
    content,
    rendered,
    clientName: req.clientName,
    senderReads: readBySender(req.clientName, req.readBySender),
    topicParticipantIds: participants,
    localId: req.localId,
    queueId: req.queueId,
  });
}

/**
 * Writes a checked message and notifies its recipients.
 *
 * Preconditions: `addressee` passed every check of {@link checkSendMessage},
 * `id` is freshly allocated from the `message` counter, `content` is
 * normalized and `rendered` is its rendering.
 *
 * Recipients: a stream's active subscribers plus the sender; a
 * conversation's participants. Large audiences (over
 * {@link INLINE_RECIPIENT_LIMIT}) get their rows and events from
 * `write_user_messages` jobs, so the request costs the same for 10 or
 * 10,000 subscribers; the message is readable on stream narrows at once
 * (the stream index is part of the message item), while the recipients'
 * unread counts and home views follow within the jobs' latency.
 *
 * Flags (Zulip's `create_user_messages`): `mentioned` for the mentioned;
 * `stream_wildcard_mentioned` for every subscriber reached;
 * `topic_wildcard_mentioned` only for subscribers in
 * `msg.topicParticipantIds` (the topic's senders and reactors before this
 * message; the sender too when they had taken part); `read` for the
 * sender when `senderReads`, and for everyone outside
 * `msg.limitUnreadUserIds` when given. Both sets travel in the
 * `expand_stream_message` payload for large audiences.
 */
export async function doSendMessage(
  deps: SendDeps,
  realm: RealmRecord,
  sender: UserRecord,
  msg: {
    id: number;
    addressee: Addressee;
    topic: string;
    content: string;
    rendered: RenderResult;
    clientName: string;
    senderReads: boolean;
    /**
     * The topic's participants before this message (see
     * `queries/messages/topic-participants.ts`); needed when `rendered`
     * has a topic wildcard, else ignored. Missing: nobody is topic-wildcard mentioned.
     */
    topicParticipantIds?: ReadonlySet<number>;
    /** Zulip's `limit_unread_user_ids`: recipients outside it get the message as read. */
    limitUnreadUserIds?: ReadonlySet<number>;
    localId?: string;
    queueId?: string;
  },
): Promise<{ id: number }> {
  const { addressee, rendered } = msg;
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
  const message: MessageRecord = {
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
    ...renderedMessageFields(rendered),
    timestamp: Math.floor(deps.clock.now() / 1000),
    client: msg.clientName,
    reactions: [],
    edit_history: [],
    submessages: [],
    topic_links: isStream ? topicLinks(msg.topic) : [],
  };

  const recipientIds = isStream
    ? [...new Set([...(addressee.subscriberIds ?? []), sender.user_id])]
    : addressee.participants.map((u) => u.user_id);
  const rows = recipientIds.map((userId) => ({
    user_id: userId,
    flags: flagsFor(userId, sender, rendered, addressee, msg),
  }));
  const toRecord = (r: { user_id: number; flags: string[] }): UserMessageRecord => ({
    user_id: r.user_id,
    message_id: message.id,
    recipient_id: message.recipient_id,
    is_private: !isStream,
    flags: r.flags,
  });

  const event: ZulipEvent = {
    type: "message",
    message: messageToWire(message, { applyMarkdown: true, clientGravatar: false }),
    raw_content: message.content,
    ...(msg.localId !== undefined ? { local_id: msg.localId } : {}),
    ...(msg.queueId !== undefined ? { sender_queue_id: msg.queueId } : {}),
  };
  const publicStream = isStream && !addressee.stream.invite_only;
  const audience = rows.map((r) => ({ id: r.user_id, flags: wireFlags(r.flags) }));

  // The stream's first message is recorded once, beside the message's own writes.
  const firstInStream =
    isStream && addressee.stream.first_message_id == null
      ? claimFirstMessageId(deps, realm.id, addressee.stream.stream_id, message.id)
      : Promise.resolve();
  if (!isStream || addressee.subscriberIds !== undefined) {
    // The rows and the recipients item (who got a row) share one BatchWriteItem round.
    await Promise.all([
      firstInStream,
      putMessage(deps, message),
      batchWrite(deps, [...rows.map((r) => userMessageItem(toRecord(r))), ...sendRecipientsItems(message.id, recipientIds)]),
    ]);
    // Jobs only once the message exists: the indexer reads it.
    await Promise.all([
      deps.deferred.enqueue([indexMessageJob(realm.id, message.id)]),
      sendEvent(deps, event, audience, publicStream ? { publicStreamRealmId: realm.id } : {}),
    ]);
    return { id: message.id };
  }

  // Large audience: the sender's row and event now; the expand job reads the
  // subscribers and writes everyone else's rows and events.
  const senderRow = rows.find((r) => r.user_id === sender.user_id)!;
  const userLogEvent: ZulipEvent = publicStream ? { ...event, [PUBLIC_STREAM_MARKER]: true } : event;
  // Recipients chunk 0 holds the sender; each job writes its own chunk.
  await Promise.all([
    firstInStream,
    putMessage(deps, message),
    batchWrite(deps, [userMessageItem(toRecord(senderRow)), ...sendRecipientsItems(message.id, [sender.user_id])]),
  ]);
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
      }),
    ]),
    publicStream ? writePublicStreamEvent(deps, realm.id, event, audience) : Promise.resolve(),
    writeEventToLogs(deps, userLogEvent, [{ id: sender.user_id, flags: wireFlags(senderRow.flags) }]),
  ]);
  return { id: message.id };
}
