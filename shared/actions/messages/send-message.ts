import type { Deps } from "../../deps.js";
import { allocateIds } from "../../data/counters.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { getOrCreateDirectRecipientId } from "../../data/recipients.js";
import { getStream, getStreamIdByName } from "../../data/streams.js";
import { getSubscription, listStreamSubscriberIds } from "../../data/subscriptions.js";
import { userById, getUsersByIds, isSystemBot } from "../../data/users.js";
import { apiEmail } from "../../domain/email.js";
import { isGuest } from "../../domain/roles.js";
import { WILDCARD_MENTION_THRESHOLD, wildcardMentionPolicyAllows } from "../../domain/realm-settings.js";
import {
  JsonableError,
  StreamDoesNotExistError,
  StreamIdDoesNotExistError,
  StreamWildcardMentionNotAllowedError,
  TopicWildcardMentionNotAllowedError,
} from "../../errors.js";
import { topicParticipantIds } from "../../queries/messages/topic-participants.js";
import { checkStreamPostPolicy } from "../../access/stream.js";
import { usersByEmail } from "../../access/users-by-email.js";
import { doSendMessage, INLINE_RECIPIENT_LIMIT, type Addressee } from "./do-send-message.js";
import { renderMessageContent, type RenderedContent } from "./render-content.js";
import { doClaimAttachments } from "../uploads/claim.js";
import { enqueuePendingThumbnails } from "../uploads/thumbnail-job.js";
import { normalizeContent, normalizeTopic, privateRecipients, readBySender, streamIndicator } from "../../domain/message-fields.js";

/**
 * Checking a `POST /messages` request (https://zulip.com/api/send-message;
 * Zulip's `check_send_message` in `zerver/actions/message_send.py`): the
 * addressee (stream access and post policy, or the direct message's
 * recipients), the content and topic; then `doSendMessage`
 * (`do-send-message.ts`) writes and notifies.
 */

/** A `POST /messages` request after parameter decoding (https://zulip.com/api/send-message). */
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

/**
 * Zulip's `access_stream_for_send_message`: the stream by name or ID, the
 * post policy, and who may address it; with the subscriber list when it is
 * small (see {@link INLINE_RECIPIENT_LIMIT}).
 * @throws StreamDoesNotExistError / StreamIdDoesNotExistError; JsonableError
 *   `Not authorized to send to channel '<name>'`, post-policy errors
 */
async function checkStreamAddressee(
  deps: Deps,
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
  // System bots (Zulip's cross-realm bots: the Email Gateway posting mail
  // sent to a stream's address) pass both, as Zulip's `is_cross_realm_bot_email` checks do.
  const systemBot = isSystemBot(sender);
  if (!systemBot) checkStreamPostPolicy(sender, stream, { botOwner: owner, realm, nowSeconds: Math.floor(deps.clock.now() / 1000) });
  const subscribed = sub?.active === true;
  const allowed =
    systemBot ||
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

/**
 * Zulip's `recipient_for_user_profiles` checks: the recipients by ID or
 * email, all active; the conversation's recipient ID (created on first use).
 * @throws JsonableError `Invalid user ID <id>`, `Invalid email '<email>'`, `'<email>' is no longer using Zulip.`
 */
async function checkPrivateAddressee(
  deps: Deps,
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

/** A message that passed {@link checkMessage}: where it goes, its normalized fields and rendering. */
export interface CheckedMessage {
  addressee: Addressee;
  /** Normalized; `""` for direct messages. */
  topic: string;
  /** Normalized Markdown. */
  content: string;
  rendered: RenderedContent;
  /** The topic's participants, when the topic wildcard check had to read them already. */
  earlyParticipants?: Set<number>;
}

/**
 * Zulip's `check_message`: the type, content and topic, the addressee
 * (stream access and post policy, or the direct message's recipients),
 * the rendering and the wildcard mention policy, without writing the
 * message. `POST /messages` and scheduled messages (at scheduling and again
 * at delivery, https://zulip.com/api/create-scheduled-message) share it.
 * A direct message's conversation gets its recipient ID here (created on
 * first use, as Zulip's `get_recipient_for_user_profiles` does).
 * @throws the errors listed on {@link checkSendMessage}
 */
export async function checkMessage(
  deps: Deps,
  realm: RealmRecord,
  sender: UserRecord,
  req: Pick<SendMessageRequest, "type" | "to" | "topic" | "content">,
): Promise<CheckedMessage> {
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
    renderMessageContent(deps, realm, content, sender),
  ]);

  const mayWildcard = wildcardMentionPolicyAllows(realm, sender, Math.floor(deps.clock.now() / 1000));
  if (addressee.kind === "stream" && rendered.mentionsStreamWildcard && !mayWildcard) {
    // More than INLINE_RECIPIENT_LIMIT subscribers leaves the set undefined: far above the threshold.
    const subscribers = addressee.subscriberIds?.size ?? Number.POSITIVE_INFINITY;
    if (subscribers > WILDCARD_MENTION_THRESHOLD) throw new StreamWildcardMentionNotAllowedError();
  }

  // `@**topic**` needs the topic's participants before this message (Zulip's
  // `get_recipient_info`). A sender the wildcard policy may refuse reads
  // them here, so that a refusal allocates nothing; everyone else reads
  // them beside the ID allocation (`checkSendMessage`).
  let early: Set<number> | undefined;
  if (addressee.kind === "stream" && rendered.mentionsTopicWildcard && !mayWildcard) {
    early = await topicParticipantIds(deps, addressee.stream.stream_id, topic);
    if (new Set([...early!, sender.user_id]).size > WILDCARD_MENTION_THRESHOLD) {
      throw new TopicWildcardMentionNotAllowedError();
    }
  }
  return { addressee, topic, content, rendered, earlyParticipants: early };
}

/**
 * `POST /messages` (https://zulip.com/api/send-message; Zulip's
 * `check_send_message`): validates the request, allocates the message's ID
 * and hands the checked message to {@link doSendMessage}, which writes it
 * and its recipients' rows and sends the `message` event.
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
 * @throws StreamWildcardMentionNotAllowedError / TopicWildcardMentionNotAllowedError: a wildcard
 *   mention in a channel (topic) of more than 15 subscribers (participants) the realm's
 *   `wildcard_mention_policy` does not allow the sender
 * @throws StreamDoesNotExistError / StreamIdDoesNotExistError (`STREAM_DOES_NOT_EXIST`)
 */
export async function checkSendMessage(
  deps: Deps,
  realm: RealmRecord,
  sender: UserRecord,
  req: SendMessageRequest,
): Promise<{ id: number }> {
  const { addressee, topic, content, rendered, earlyParticipants: early } = await checkMessage(deps, realm, sender, req);
  // Read only for `@**topic**`: O(topic size), every other send keeps its fixed cost.
  const readParticipants = () =>
    addressee.kind === "stream" && rendered.mentionsTopicWildcard
      ? topicParticipantIds(deps, addressee.stream.stream_id, topic)
      : Promise.resolve(undefined);
  const [id, participants] = await Promise.all([
    allocateIds(deps, "message"),
    early !== undefined ? Promise.resolve(early) : readParticipants(),
  ]);
  const sent = await doSendMessage(deps, realm, sender, {
    id,
    addressee,
    topic,
    content,
    rendered,
    linkifiers: rendered.linkifiers,
    clientName: req.clientName,
    senderReads: readBySender(req.clientName, req.readBySender),
    topicParticipantIds: participants,
    localId: req.localId,
    queueId: req.queueId,
  });
  // Only content that links an upload pays for claiming it.
  if (rendered.attachmentPathIds.length > 0) {
    const stream = addressee.kind === "stream" ? addressee.stream : undefined;
    const message = { id: sent.id, dateSent: Math.floor(deps.clock.now() / 1000), stream };
    await doClaimAttachments(deps, realm, sender, message, rendered.attachmentPathIds, rendered.uploads);
    await enqueuePendingThumbnails(deps, realm.id, rendered);
  }
  return sent;
}
