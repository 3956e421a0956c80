import type { Deps } from "../../../deps.js";
import { alertWordsOfUsers } from "../../../data/alert-words.js";
import { getMessagesByIds, updateMessageItem, updateMessageItems, type MessageChange } from "../../../data/messages.js";
import type { MessageRecord } from "../../../data/records/message.js";
import type { RealmRecord } from "../../../data/records/realm.js";
import type { UserRecord } from "../../../data/records/user.js";
import { getStream } from "../../../data/streams.js";
import { updateUserMessagesFlags, userMessageRowsOf } from "../../../data/user-messages.js";
import type { DeferredJob } from "../../../deferred/jobs.js";
import { usersWithAlertWords } from "../../../domain/alert-words.js";
import type { EventOf } from "../../../events/types.js";
import { topicLinks } from "../../../markdown/topic-links.js";
import { realmLinkifiers } from "../../../data/linkifiers.js";
import type { RenderResult } from "../../../markdown/types.js";
import { addParticipants, topicParticipantIds } from "../../../queries/messages/topic-participants.js";
import { messageAudience, updateMessageReceivers } from "../../../access/message-audience.js";
import { indexMessageJob } from "../deferred.js";
import { withFlag } from "../flags.js";
import { renderedMessageFields, renderMessageContent } from "../render-content.js";
import { doUpdateAttachmentClaims } from "../../uploads/claim.js";
import { enqueuePendingThumbnails } from "../../uploads/thumbnail-job.js";
import { listStreamSubscriberIds } from "../../../data/subscriptions.js";
import { WILDCARD_MENTION_THRESHOLD, wildcardMentionPolicyAllows } from "../../../domain/realm-settings.js";
import { StreamWildcardMentionNotAllowedError, TopicWildcardMentionNotAllowedError } from "../../../errors.js";
import { messagesToMove, type PropagateMode } from "./messages-to-move.js";
import { moveMessagesJobs } from "./move-jobs.js";
import { retopic } from "./move-messages.js";
import { doMoveUserTopics } from "../../user-topics/move-user-topics.js";
import { sendMoveNotices, type NoticeRequest } from "./move-notices.js";
import { sendUpdateMessageEvent } from "../../../events/per-user.js";
import { clearingActivePush, enqueueWithRemovals, pushRemovalJobs } from "../push-removals.js";
import { editPushRemovalUserIds } from "./push-removal-on-edit.js";
import { pushNotificationsInUse } from "../../../push/bouncer.js";

/** Most messages a topic move rewrites inside the request (BatchWriteItem 4 × 25 per round ⇒ 4 rounds). */
const INLINE_MOVE_LIMIT = 400;

/** A checked edit within the message's own stream (or of a direct message's content). */
export interface MessageEdit {
  /** New normalized content, if it changes. */
  content?: string;
  /** New normalized topic, if it changes (stream messages only). */
  topic?: string;
  mode: PropagateMode;
}

/**
 * Participants that an edited message's topic wildcard reaches (Zulip's
 * `update_message_content` → `get_recipient_info` with the edit's target
 * topic, read before any move is written): the topic's senders and
 * reactors. A content-only edit counts the edited message itself even
 * while the topic index lags; a content edit that also renames the topic
 * reads the target name's existing messages, as Zulip does.
 */
async function editTopicParticipants(deps: Deps, message: MessageRecord, newTopic: string | undefined): Promise<Set<number>> {
  const participants = await topicParticipantIds(deps, message.stream_id!, newTopic ?? message.topic);
  return newTopic === undefined ? addParticipants(participants, message) : participants;
}

/**
 * Zulip's wildcard checks of `check_update_message`: new content of a
 * stream message with a channel (topic) wildcard mention, in a channel
 * (topic) above the threshold, needs the realm's `wildcard_mention_policy`.
 * Reads the subscriber count (at most 16 IDs) only for a sender the policy
 * does not authorize.
 * @param now UNIX seconds
 * @throws StreamWildcardMentionNotAllowedError / TopicWildcardMentionNotAllowedError
 */
async function checkWildcardMentionsOnEdit(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  message: MessageRecord,
  rendered: RenderResult | undefined,
  topicParticipants: Set<number>,
  now: number,
): Promise<void> {
  if (!rendered || message.recipient_type !== "stream") return;
  if (!rendered.mentionsStreamWildcard && !rendered.mentionsTopicWildcard) return;
  if (wildcardMentionPolicyAllows(realm, user, now)) return;
  if (rendered.mentionsStreamWildcard) {
    const subscribers = await listStreamSubscriberIds(deps, message.stream_id!, WILDCARD_MENTION_THRESHOLD + 1);
    if (subscribers.length > WILDCARD_MENTION_THRESHOLD) throw new StreamWildcardMentionNotAllowedError();
  }
  if (rendered.mentionsTopicWildcard && topicParticipants.size > WILDCARD_MENTION_THRESHOLD) {
    throw new TopicWildcardMentionNotAllowedError();
  }
}

/** The edited message: new content and rendering and/or topic, one history entry first. */
function editedMessage(
  message: MessageRecord,
  edit: MessageEdit,
  rendered: RenderResult | undefined,
  links: MessageRecord["topic_links"] | undefined,
  actorId: number,
  now: number,
): MessageRecord {
  const entry: Record<string, unknown> = { user_id: actorId, timestamp: now };
  let updated: MessageRecord = { ...message };
  if (edit.content !== undefined && rendered) {
    entry.prev_content = message.content;
    entry.prev_rendered_content = message.rendered_content;
    entry.prev_rendered_content_version = message.rendered_content_version;
    updated = { ...updated, content: edit.content, ...renderedMessageFields(rendered) };
  }
  if (edit.topic !== undefined) {
    entry.prev_topic = message.topic;
    entry.topic = edit.topic;
    updated = { ...updated, topic: edit.topic, topic_links: links ?? [] };
  }
  updated.edit_history = [entry, ...(message.edit_history ?? [])];
  updated.last_edit_timestamp = now;
  return updated;
}

/**
 * Zulip's `do_update_message` for an edit that stays in the message's
 * stream: new content (re-rendered, mention and `has_alert_word` flags following it) and/or a
 * new topic for the message and, with `edit.mode`, the topic's later or
 * all messages; then the `update_message` events, the search re-index of
 * new content and the move notices of a topic change (see
 * `sendMoveNotices`).
 *
 * Who is told and whose rows change comes from the message's recipients
 * items (everyone who got a row), not from the current subscribers.
 * Round trips for a one-message content edit: rendering lookups (0–2), the
 * audience (1) and its rows with, when the realm has `alert_words_in_use`,
 * their alert words (1), writes (1), events (1) — fixed in the
 * history size. A stream message's row with a notification on the phone
 * whose mention (or alert word) the edit removes adds one round trip (the
 * users' settings, see `editPushRemovalUserIds`); those that no longer
 * notify lose `active_mobile_push_notification` in the flag write, and
 * their `push_removal` jobs go with the search-index job. New content
 * with `@**topic**` also reads the topic's participants beside the
 * audience (O(topic size): one Query per page).
 * Topic moves over more than {@link INLINE_MOVE_LIMIT} messages finish
 * through chained `move_messages` jobs (`move-jobs.ts`), enqueued right
 * after the target's write; the event lists every moved ID at once
 * (clients move them immediately).
 * @param now UNIX seconds
 * @returns false when `message` changed since it was read (nothing written: the caller starts over)
 * @throws MoveMessagesTimeLimitError
 */
export async function doUpdateMessage(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  message: MessageRecord,
  edit: MessageEdit,
  req: NoticeRequest,
  now: number,
): Promise<boolean> {
  const { content, topic, mode } = edit;
  const rendered = content !== undefined ? await renderMessageContent(deps, realm, content, user) : undefined;
  // A new topic's links use the organization's linkifiers: those the rendering read, else one GetItem.
  const links =
    topic !== undefined
      ? await topicLinks(topic, rendered?.linkifiers ?? (await realmLinkifiers(deps, realm.id)).linkifiers)
      : undefined;
  const [audience, wildcardParticipants] = await Promise.all([
    messageAudience(deps, message),
    // Only an `@**topic**` pays the O(topic size) read, beside the audience.
    rendered?.mentionsTopicWildcard && message.recipient_type === "stream"
      ? editTopicParticipants(deps, message, topic)
      : Promise.resolve(new Set<number>()),
  ]);
  await checkWildcardMentionsOnEdit(deps, realm, user, message, rendered, wildcardParticipants, now);
  // New content re-checks the row holders' alert words, read beside their rows.
  const [rows, alertWords] = await Promise.all([
    userMessageRowsOf(deps, message.id, audience.recipients.userIds),
    content !== undefined && realm.alert_words_in_use
      ? alertWordsOfUsers(deps, audience.recipients.userIds)
      : Promise.resolve(new Map<number, string[]>()),
  ]);
  if (content === undefined && topic === undefined) return true; // nothing actually changes
  const alerted = content !== undefined ? usersWithAlertWords(content, alertWords) : new Set<number>();
  const updated = editedMessage(message, edit, rendered, links, user.user_id, now);

  // Mention and alert-word flags follow the new content for every recipient row
  // (conditional UpdateItems: a concurrent read/star change is kept);
  // a topic wildcard flags the topic's participants only (Zulip's
  // `update_user_message_flags`).
  const mentionFlags = (userId: number, flags: string[]) => {
    if (!rendered) return flags;
    let next = withFlag(flags, "mentioned", rendered.mentionedUserIds.includes(userId));
    next = withFlag(next, "has_alert_word", alerted.has(userId));
    next = withFlag(next, "stream_wildcard_mentioned", rendered.mentionsStreamWildcard);
    return withFlag(next, "topic_wildcard_mentioned", rendered.mentionsTopicWildcard && wildcardParticipants.has(userId));
  };
  const toChange = rendered
    ? [...rows.values()].filter((row) => mentionFlags(row.user_id, row.flags).join() !== row.flags.join())
    : [];
  // Notifications on phones whose mention the edit took away go, in the
  // same flag writes (reads only when such a row exists).
  const unnotified =
    rendered && pushNotificationsInUse(deps.config) && message.recipient_type === "stream"
      ? await editPushRemovalUserIds(
          deps,
          realm.id,
          { sender_id: message.sender_id, stream_id: message.stream_id!, topic: topic ?? message.topic },
          toChange,
          (row) => mentionFlags(row.user_id, row.flags),
        )
      : new Set<number>();
  const clearing = clearingActivePush((row, flags) => mentionFlags(row.user_id, flags), (row) => unnotified.has(row.user_id));

  // Other messages of the topic.
  let movedIds = [message.id];
  // Who took part in the moved messages (a resolution notice is unread for them only).
  let movedParticipants = addParticipants(new Set<number>(), message);
  let jobs: DeferredJob[] = [];
  let others: MessageChange[] = [];
  if (topic !== undefined && mode !== "change_one") {
    const moving = await messagesToMove(deps, realm, user, message, mode, { topic, stream: false }, now);
    movedIds = moving.ids;
    movedParticipants = moving.participants;
    const rest = movedIds.filter((id) => id !== message.id);
    const found = await getMessagesByIds(deps, rest.slice(0, INLINE_MOVE_LIMIT));
    const moveEntry = { user_id: user.user_id, timestamp: now, prev_topic: message.topic, topic };
    others = [...found.values()].map((m) => ({ before: m, after: retopic(m, topic, links ?? [], moveEntry, now) }));
    const base = { topic, user_id: user.user_id, timestamp: now, prev_topic: message.topic };
    jobs = moveMessagesJobs(base, rest.slice(INLINE_MOVE_LIMIT));
  }

  if (!(await updateMessageItem(deps, { before: message, after: updated }))) return false;
  // The target's write commits the edit: the deferred part is enqueued
  // first, so that nothing after this point can leave the move half done.
  const [, applied, changedRows] = await Promise.all([
    jobs.length > 0 ? deps.deferred.enqueue(jobs) : Promise.resolve(),
    updateMessageItems(deps, others),
    updateUserMessagesFlags(deps, toChange, clearing.change),
  ]);
  for (const row of changedRows) rows.set(row.user_id, row);
  // Messages a concurrent edit got to between read and write: a job reads them again.
  const appliedIds = new Set(applied.map((c) => c.before.id));
  const conflicted = others.filter((c) => !appliedIds.has(c.before.id)).map((c) => c.before.id);
  if (conflicted.length > 0 && topic !== undefined) {
    await deps.deferred.enqueue(moveMessagesJobs({ topic, user_id: user.user_id, timestamp: now, prev_topic: message.topic }, conflicted));
  }

  const event: Omit<EventOf<"update_message">, "flags"> = {
    type: "update_message",
    user_id: user.user_id,
    edit_timestamp: now,
    message_id: message.id,
    message_ids: movedIds,
    rendering_only: false,
    ...(message.recipient_type === "stream"
      ? { stream_name: message.display_recipient as string, stream_id: message.stream_id }
      : {}),
    ...(content !== undefined && rendered
      ? {
          orig_content: message.content,
          orig_rendered_content: message.rendered_content,
          prev_rendered_content_version: message.rendered_content_version,
          content,
          rendered_content: rendered.html,
          is_me_message: rendered.isMeMessage,
        }
      : {}),
    ...(topic !== undefined
      ? { propagate_mode: mode, orig_subject: message.topic, subject: topic, topic_links: links }
      : {}),
  };
  const receivers = updateMessageReceivers(audience, rows);
  await Promise.all([
    sendUpdateMessageEvent(deps, event, receivers),
    enqueueWithRemovals(
      deps,
      content !== undefined ? [indexMessageJob(realm.id, message.id)] : [],
      pushRemovalJobs(realm.id, clearing.removed(changedRows)),
    ),
  ]);
  if (rendered) {
    const claiming = { id: message.id, dateSent: message.timestamp, stream: audience.stream };
    await doUpdateAttachmentClaims(deps, realm, user, claiming, message.has_attachment, rendered.attachmentPathIds, rendered.uploads);
    await enqueuePendingThumbnails(deps, realm.id, rendered);
  }

  if (topic !== undefined && message.recipient_type === "stream") {
    const stream = audience.stream ?? (await getStream(deps, realm.id, message.stream_id!));
    if (stream) {
      const where = { oldStream: stream, oldTopic: message.topic, newStream: stream, newTopic: topic };
      await sendMoveNotices(deps, realm, user, where, mode, { ids: movedIds, participants: movedParticipants }, req);
      if (mode === "change_all") await doMoveUserTopics(deps, realm, where);
    }
  }
  return true;
}
