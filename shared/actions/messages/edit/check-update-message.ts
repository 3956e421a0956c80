import type { Deps } from "../../deps.js";
import { batchGet } from "../../data/batch-get.js";
import { recordOf } from "../../data/items.js";
import { keys } from "../../data/keys.js";
import type { MessageRecord } from "../../data/records/message.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserMessageRecord } from "../../data/records/user-message.js";
import type { UserRecord } from "../../data/records/user.js";
import { getMessage, getMessagesByIds, updateMessage, updateMessages, type MessageChange } from "../../data/messages.js";
import { queryIdRange } from "../../data/id-index.js";

import { getStream } from "../../data/streams.js";
import { updateUserMessagesFlags, wireFlags } from "../../data/user-messages.js";

import { isModeratorOrAbove } from "../../domain/roles.js";
import { realmSettings, rolePolicyAllows } from "../../domain/realm-settings.js";
import {
  isResolutionNoticeContent,
  RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS,
  resolutionChange,
  resolutionNoticeText,
} from "../../domain/topic-resolution.js";
import { ConcurrentMessageEditError, InvalidChannelIdError, JsonableError } from "../../errors.js";
import { sendEvent } from "../../events/publish.js";
import { topicLinks } from "../../markdown/index.js";
import { accessMessage } from "../../access/message.js";
import { renderedMessageFields, renderMessageContent } from "./render-content.js";
import { indexMessageJob } from "./deferred.js";
import { normalizeContent, normalizeTopic } from "./normalize.js";
import { notificationBotId, sendNotice } from "./notification-bot.js";
import { doDeleteMessage } from "./delete-messages.js";
import { addParticipants, topicParticipantIds } from "../../queries/messages/topic-participants.js";
import { messageAudience } from "./audience.js";
import { doMoveMessagesToStream, retopic, type MoveMessagesPayload } from "./move-messages.js";
import { accessStream, checkStreamPostPolicy } from "../../access/stream.js";
import { withFlag } from "./flags.js";
import { checkChangeAllTimeLimit, EDIT_LIMIT_BUFFER_SECONDS, type TopicMessage } from "./move-time-limit.js";

/**
 * Editing a message (spec "Edit a message"; Zulip's `check_update_message`
 * and `do_update_message`): content, topic and stream (with
 * `propagate_mode`), move and resolution notices, and edit history.
 */

/** Most messages a topic move rewrites inside the request (BatchWriteItem 4 × 25 per round ⇒ 4 rounds). */
export const INLINE_MOVE_LIMIT = 400;

export type PropagateMode = "change_one" | "change_later" | "change_all";

/** A `PATCH /messages/{message_id}` request after parameter decoding. */
export interface UpdateMessageRequest {
  content?: string;
  topic?: string;
  streamId?: number;
  propagateMode: string;
  notifyOldThread: boolean;
  notifyNewThread: boolean;
}

/** Zulip's `validate_message_edit_payload`. */
function validatePayload(message: MessageRecord, req: UpdateMessageRequest): void {
  if (req.topic === undefined && req.content === undefined && req.streamId === undefined) {
    throw new JsonableError("Nothing to change");
  }
  if (message.recipient_type !== "stream") {
    if (req.streamId !== undefined) throw new JsonableError("Direct messages cannot be moved to channels.");
    if (req.topic !== undefined) throw new JsonableError("Direct messages cannot have topics.");
  }
  if (!["change_one", "change_later", "change_all"].includes(req.propagateMode)) {
    throw new JsonableError("Invalid propagate_mode");
  }
  if (req.propagateMode !== "change_one" && req.topic === undefined && req.streamId === undefined) {
    throw new JsonableError("Invalid propagate_mode without topic edit");
  }
  if (req.streamId !== undefined && req.content !== undefined) {
    throw new JsonableError("Cannot change message content while changing channel");
  }
}

/**
 * Zulip's edit permission rules at feature level 283 with the realm's
 * settings: content only by its sender, while `allow_message_editing` and
 * within `message_content_edit_limit_seconds` (+20 s); topics by
 * `edit_topic_policy`, non-moderators within
 * `move_messages_within_stream_limit_seconds` (+20 s).
 * @throws JsonableError with Zulip's words
 */
export function checkEditPermissions(
  realm: RealmRecord,
  user: UserRecord,
  message: MessageRecord,
  req: { content?: string; topic?: string },
  nowSeconds: number,
): void {
  const settings = realmSettings(realm);
  const age = nowSeconds - message.timestamp;
  if (req.content !== undefined) {
    if (!settings.allow_message_editing) throw new JsonableError("Your organization has turned off message editing");
    if (message.sender_id !== user.user_id) throw new JsonableError("You don't have permission to edit this message");
    const limit = settings.message_content_edit_limit_seconds as number | null;
    if (limit !== null && age > limit + EDIT_LIMIT_BUFFER_SECONDS) {
      throw new JsonableError("The time limit for editing this message has passed");
    }
  }
  if (req.topic !== undefined) {
    if (!rolePolicyAllows(settings.edit_topic_policy as number, user)) {
      throw new JsonableError("You don't have permission to edit this message");
    }
    const limit = settings.move_messages_within_stream_limit_seconds as number | null;
    if (!isModeratorOrAbove(user) && limit !== null && age > limit + EDIT_LIMIT_BUFFER_SECONDS) {
      throw new JsonableError("The time limit for editing this message's topic has passed.");
    }
  }
}

/**
 * The messages a topic edit moves, ascending by ID (`change_later`: from
 * the message on; `change_all`: the whole topic), and their participants
 * (senders and reactors, from the same items: Zulip's
 * `affected_participant_ids` of a resolution notice).
 */
async function topicMessages(
  deps: Deps,
  message: MessageRecord,
  mode: PropagateMode,
): Promise<{ messages: TopicMessage[]; participants: Set<number> }> {
  const self = { id: message.id, timestamp: message.timestamp };
  const participants = addParticipants(new Set<number>(), message);
  if (mode === "change_one") return { messages: [self], participants };
  const found = new Map<number, TopicMessage>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await queryIdRange(
      deps,
      { of: "topic-messages", streamId: message.stream_id!, topic: message.topic },
      mode === "change_later" ? { gte: message.id } : {},
      false,
      1000,
      start,
    );
    for (const item of page.items) {
      found.set(Number(item.id), { id: Number(item.id), timestamp: Number(item.timestamp) });
      addParticipants(participants, item);
    }
    start = page.next;
  } while (start);
  found.set(message.id, self); // the GSI lags a just-sent message
  return { messages: [...found.values()].sort((a, b) => a.id - b.id), participants };
}

/**
 * The topic's messages a move carries (IDs ascending, and their senders
 * and reactors), after Zulip's `change_all` time limit check (moves that
 * only resolve or unresolve the topic are exempt).
 * @throws MoveMessagesTimeLimitError
 */
async function messagesToMove(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  message: MessageRecord,
  mode: PropagateMode,
  change: { topic?: string; stream: boolean },
  nowSeconds: number,
): Promise<{ ids: number[]; participants: Set<number> }> {
  const moving = await topicMessages(deps, message, mode);
  const resolving = change.topic !== undefined && resolutionChange(message.topic, change.topic) !== undefined;
  if (mode === "change_all" && !resolving) {
    await checkChangeAllTimeLimit(deps, realm, user, message, moving.messages, { topic: change.topic !== undefined, stream: change.stream }, nowSeconds);
  }
  return { ids: moving.messages.map((m) => m.id), participants: moving.participants };
}

/**
 * `PATCH /messages/{message_id}`. See the module comment. Who is told and
 * whose rows change comes from the message's recipients items (everyone
 * who got a row), not from the current subscribers. A `stream_id` other
 * than the message's moves it (and, with `propagate_mode`, its topic's
 * later or all messages) to that stream: `checkStreamMove`, then
 * `doMoveMessagesToStream` (`move-messages.ts`).
 *
 * Round trips for a one-message content edit: access (1–2), rendering
 * lookups (0–2), the audience (1) and its rows (1), writes (1), events (1)
 * — fixed in the history size. New content with `@**topic**` also reads
 * the topic's participants beside the audience (O(topic size): one Query
 * per page). Resolving or unresolving (`change_all`) adds the undo check
 * (2 rounds) before the notice, or the notice's deletion instead of it.
 * Topic moves over more than
 * {@link INLINE_MOVE_LIMIT} messages finish through `move_messages` jobs;
 * the event lists every moved ID at once (clients move them immediately).
 */
export async function checkUpdateMessage(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  messageId: number,
  req: UpdateMessageRequest,
): Promise<void> {
  // The target's conditional write is the first write of an edit, so a
  // concurrent change found there leaves nothing behind: start over from a
  // fresh read (which re-checks access and permissions).
  for (let attempt = 1; ; attempt++) {
    try {
      return await updateMessageOnce(deps, realm, user, messageId, req);
    } catch (err) {
      if (!(err instanceof ConcurrentMessageEditError) || attempt >= EDIT_ATTEMPTS) throw err;
    }
  }
}

/** What an edit to empty content stores (Zulip's `build_message_edit_request`). */
export const DELETED_CONTENT = "(deleted)";

/** Tries of an edit that loses its conditional write to a concurrent change. */
const EDIT_ATTEMPTS = 5;

/** One attempt of {@link checkUpdateMessage}; throws ConcurrentMessageEditError before writing anything when the message changed meanwhile. */
async function updateMessageOnce(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  messageId: number,
  req: UpdateMessageRequest,
): Promise<void> {
  const { message } = await accessMessage(deps, realm, user, messageId);
  // As Zulip: the current topic again is no topic change at all.
  const sameTopic = req.topic !== undefined && req.topic.trim() === message.topic;
  req = sameTopic ? { ...req, topic: undefined } : req;
  validatePayload(message, req);
  // Emptying a message is how clients delete its content: Zulip stores "(deleted)".
  const content = req.content !== undefined ? normalizeContent(req.content.trim() === "" ? DELETED_CONTENT : req.content) : undefined;
  let topic = req.topic !== undefined ? normalizeTopic(req.topic) : undefined;
  const now = Math.floor(deps.clock.now() / 1000);
  const newStream =
    req.streamId !== undefined && req.streamId !== message.stream_id
      ? await checkStreamMove(deps, realm, user, message, req.streamId, now)
      : undefined;
  checkEditPermissions(realm, user, message, { content, topic }, now);
  if (topic !== undefined && topic === message.topic) topic = undefined;
  const mode = req.propagateMode as PropagateMode;
  if (newStream) {
    await moveToStream(deps, realm, user, message, newStream, topic, mode, req, now);
    return;
  }

  const rendered = content !== undefined ? await renderMessageContent(deps, realm, content) : undefined;
  const [audience, wildcardParticipants] = await Promise.all([
    messageAudience(deps, message),
    // Only an `@**topic**` pays the O(topic size) read, beside the audience.
    rendered?.mentionsTopicWildcard && message.recipient_type === "stream"
      ? editTopicParticipants(deps, message, topic)
      : Promise.resolve(new Set<number>()),
  ]);
  const rows = new Map<number, UserMessageRecord>();
  for (const item of await batchGet(deps, audience.recipients.userIds.map((id) => keys.userMessage(id, message.id)))) {
    const um = recordOf<UserMessageRecord>(item);
    rows.set(um.user_id, um);
  }

  // The target message.
  const entry: Record<string, unknown> = { user_id: user.user_id, timestamp: now };
  let updated: MessageRecord = { ...message };
  if (content !== undefined && rendered) {
    entry.prev_content = message.content;
    entry.prev_rendered_content = message.rendered_content;
    entry.prev_rendered_content_version = message.rendered_content_version;
    updated = {
      ...updated,
      content,
      ...renderedMessageFields(rendered),
    };
  }
  if (topic !== undefined) {
    entry.prev_topic = message.topic;
    entry.topic = topic;
    updated = { ...updated, topic, topic_links: topicLinks(topic) };
  }
  if (content === undefined && topic === undefined) return; // nothing actually changes
  updated.edit_history = [entry, ...(message.edit_history ?? [])];
  updated.last_edit_timestamp = now;

  // Mention flags follow the new content for every recipient row
  // (conditional UpdateItems: a concurrent read/star change is kept);
  // a topic wildcard flags the topic's participants only (Zulip's
  // `update_user_message_flags`).
  const mentionFlags = (userId: number, flags: string[]) => {
    if (!rendered) return flags;
    let next = withFlag(flags, "mentioned", rendered.mentionedUserIds.includes(userId));
    next = withFlag(next, "stream_wildcard_mentioned", rendered.mentionsStreamWildcard);
    return withFlag(next, "topic_wildcard_mentioned", rendered.mentionsTopicWildcard && wildcardParticipants.has(userId));
  };
  const toChange = rendered
    ? [...rows.values()].filter((row) => mentionFlags(row.user_id, row.flags).join() !== row.flags.join())
    : [];

  // Other messages of the topic.
  let movedIds = [message.id];
  // Who took part in the moved messages (a resolution notice is unread for them only).
  let movedParticipants = addParticipants(new Set<number>(), message);
  const jobs = [];
  let others: MessageChange[] = [];
  if (topic !== undefined && mode !== "change_one") {
    const moving = await messagesToMove(deps, realm, user, message, mode, { topic, stream: false }, now);
    movedIds = moving.ids;
    movedParticipants = moving.participants;
    const rest = movedIds.filter((id) => id !== message.id);
    const inline = rest.slice(0, INLINE_MOVE_LIMIT);
    const deferred = rest.slice(INLINE_MOVE_LIMIT);
    const found = await getMessagesByIds(deps, inline);
    const moveEntry = { user_id: user.user_id, timestamp: now, prev_topic: message.topic, topic };
    others = [...found.values()].map((m) => ({ before: m, after: retopic(m, topic!, moveEntry, now) }));
    for (let i = 0; i < deferred.length; i += 500) {
      const payload: MoveMessagesPayload = {
        message_ids: deferred.slice(i, i + 500),
        topic,
        user_id: user.user_id,
        timestamp: now,
        prev_topic: message.topic,
      };
      jobs.push({ kind: "move_messages", payload: payload as unknown as Record<string, unknown> });
    }
  }

  if (!(await updateMessage(deps, { before: message, after: updated }))) throw new ConcurrentMessageEditError();
  const [, changedRows] = await Promise.all([
    updateMessages(deps, others),
    updateUserMessagesFlags(deps, toChange, (row, flags) => mentionFlags(row.user_id, flags)),
  ]);
  for (const row of changedRows) rows.set(row.user_id, row);

  // Events: one per distinct flag set (the event carries the receiver's flags).
  const base: Record<string, unknown> & { type: string } = {
    type: "update_message",
    user_id: user.user_id,
    edit_timestamp: now,
    message_id: message.id,
    message_ids: movedIds,
    rendering_only: false,
  };
  if (message.recipient_type === "stream") {
    base.stream_name = message.display_recipient as string;
    base.stream_id = message.stream_id;
  }
  if (content !== undefined && rendered) {
    Object.assign(base, {
      orig_content: message.content,
      orig_rendered_content: message.rendered_content,
      prev_rendered_content_version: message.rendered_content_version,
      content,
      rendered_content: rendered.html,
      is_me_message: rendered.isMeMessage,
    });
  }
  if (topic !== undefined) {
    Object.assign(base, { propagate_mode: mode, orig_subject: message.topic, subject: topic, topic_links: topicLinks(topic) });
  }
  // Row holders get their flags; shared-history subscribers without a row `["read"]` (Zulip's `subscriber_info`).
  const groups = new Map<string, number[]>();
  for (const id of [...audience.recipients.userIds, ...audience.subscribersWithoutRows]) {
    const row = rows.get(id);
    const key = JSON.stringify(row ? wireFlags(row.flags) : ["read"]);
    groups.set(key, [...(groups.get(key) ?? []), id]);
  }
  await Promise.all([
    ...[...groups.entries()].map(([flags, ids]) => sendEvent(deps, { ...base, flags: JSON.parse(flags) as string[] }, ids)),
    deps.deferred.enqueue([...jobs, ...(content !== undefined ? [indexMessageJob(realm.id, message.id)] : [])]),
  ]);

  if (topic !== undefined && message.recipient_type === "stream") {
    const stream = audience.stream ?? (await getStream(deps, realm.id, message.stream_id!));
    if (stream) {
      await sendMoveNotices(
        deps,
        realm,
        user,
        { oldStream: stream, oldTopic: message.topic, newStream: stream, newTopic: topic },
        mode,
        { ids: movedIds, participants: movedParticipants },
        req,
      );
    }
  }
}

/**
 * Zulip's checks for moving a message to another stream (feature level
 * 283): `move_messages_between_streams_policy` (default 4, moderators),
 * access to the destination as for sending (`access_stream_by_id`, then its
 * post policy), and for non-moderators
 * `move_messages_between_streams_limit_seconds` (+20 s). Access to the old
 * stream is implied by access to the message.
 * @returns the destination stream
 * @throws JsonableError `You don't have permission to move this message`,
 *   `The time limit for editing this message's channel has passed`, post-policy errors;
 *   InvalidChannelIdError `Invalid channel ID` for a missing, archived or inaccessible destination
 */
async function checkStreamMove(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  message: MessageRecord,
  streamId: number,
  now: number,
): Promise<StreamRecord> {
  const settings = realmSettings(realm);
  if (!rolePolicyAllows(settings.move_messages_between_streams_policy as number, user)) {
    throw new JsonableError("You don't have permission to move this message");
  }
  const { stream } = await accessStream(deps, user, realm, streamId, { error: () => new InvalidChannelIdError() });
  checkStreamPostPolicy(user, stream, { realm, nowSeconds: now });
  const limit = settings.move_messages_between_streams_limit_seconds as number | null;
  if (limit !== null && !isModeratorOrAbove(user) && now - message.timestamp > limit + EDIT_LIMIT_BUFFER_SECONDS) {
    throw new JsonableError("The time limit for editing this message's channel has passed");
  }
  return stream;
}

/** A checked stream move (with or without a topic change): see `doMoveMessagesToStream`, then the notices. */
async function moveToStream(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  message: MessageRecord,
  newStream: StreamRecord,
  topic: string | undefined,
  mode: PropagateMode,
  req: UpdateMessageRequest,
  now: number,
): Promise<void> {
  const [oldStream, moving] = await Promise.all([
    getStream(deps, realm.id, message.stream_id!),
    messagesToMove(deps, realm, user, message, mode, { topic, stream: true }, now),
  ]);
  const movedIds = moving.ids;
  if (!oldStream) throw new JsonableError("Invalid message(s)");
  const newTopic = topic ?? message.topic;
  await doMoveMessagesToStream(
    deps,
    realm,
    user,
    message,
    { realmId: realm.id, actorId: user.user_id, timestamp: now, oldStream, newStream, prevTopic: message.topic, topic: newTopic },
    movedIds,
    mode,
  );
  await sendMoveNotices(
    deps,
    realm,
    user,
    { oldStream, oldTopic: message.topic, newStream, newTopic },
    mode,
    moving,
    req,
  );
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
 * Zulip's `maybe_delete_previous_resolve_topic_notification`
 * (`zerver/actions/message_edit.py`): when the newest message of the topic
 * the messages were just moved to is a Notification Bot resolution notice
 * at most {@link RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS} old, it is deleted
 * (with its `delete_message` event) and the caller posts no new notice —
 * an accidental resolve undone at once leaves no trace.
 *
 * The newest message is the larger of the topic index's newest ID and the
 * newest moved ID (the index may lag the move just written); it is then
 * read strongly consistent. Cost: one round (bot ID, index Query limit 1),
 * one GetItem, and the delete's own cost when it applies.
 * @returns whether a notice was deleted
 */
async function maybeDeletePreviousResolveNotice(
  deps: Deps,
  realm: RealmRecord,
  stream: StreamRecord,
  topic: string,
  movedIds: readonly number[],
): Promise<boolean> {
  const [botId, newest] = await Promise.all([
    notificationBotId(deps, realm),
    queryIdRange(
      deps,
      { of: "topic-messages", streamId: stream.stream_id, topic },
      {},
      true,
      1,
    ),
  ]);
  if (botId === undefined) return false; // the bot never posted: there is no notice
  const lastId = Math.max(0, ...movedIds, ...newest.items.map((item) => Number(item.id)));
  const last = lastId > 0 ? await getMessage(deps, lastId) : undefined;
  if (!last || last.sender_id !== botId || last.stream_id !== stream.stream_id) return false;
  // A deferred move may not have rewritten a moved message yet; anything else must be in the topic now.
  if (!movedIds.includes(last.id) && last.topic.toLowerCase() !== topic.toLowerCase()) return false;
  if (!isResolutionNoticeContent(last.content)) return false;
  const now = Math.floor(deps.clock.now() / 1000);
  if (now - last.timestamp > RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS) return false;
  await doDeleteMessage(deps, realm, last);
  return true;
}

/**
 * Zulip's notices after a move, posted by the Notification Bot: resolving
 * or unresolving a topic (a topic edit without a content change) says so
 * in the new topic ("@_**Name|id** has marked this topic as resolved." /
 * "… as unresolved.", any propagate mode; Zulip's
 * `maybe_send_resolve_topic_notifications`): the
 * notice is unread only for the moved messages' senders and reactors
 * (`limit_unread_user_ids`, Zulip 5.0+) and read for everyone else, and
 * within the undo grace period it replaces nothing but deletes the
 * opposite notice instead (see {@link maybeDeletePreviousResolveNotice}).
 * Other moves (renames, stream moves) leave a breadcrumb in the old topic
 * and a notice in the new one, as requested by
 * `send_notification_to_old_thread` / `send_notification_to_new_thread`
 * (both default true here: the spec's defaults win over Zulip's false/true).
 */
async function sendMoveNotices(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  where: { oldStream: StreamRecord; oldTopic: string; newStream: StreamRecord; newTopic: string },
  mode: PropagateMode,
  moved: { ids: readonly number[]; participants: ReadonlySet<number> },
  req: UpdateMessageRequest,
): Promise<void> {
  const who = `@_**${user.full_name}|${user.user_id}**`;
  const refs = { users: [user], streams: [where.oldStream, where.newStream] };
  const sameStream = where.oldStream.stream_id === where.newStream.stream_id;
  // Zulip: any topic edit without a content change that only adds or drops
  // the "✔ " is a resolution, announced in the (new) topic whatever the
  // propagate mode; moved to another stream as well, the move notices follow.
  const resolution = req.content === undefined ? resolutionChange(where.oldTopic, where.newTopic) : undefined;
  const count = moved.ids.length;
  if (resolution) {
    if (!(await maybeDeletePreviousResolveNotice(deps, realm, where.newStream, where.newTopic, moved.ids))) {
      await sendNotice(deps, realm, where.newStream, where.newTopic, resolutionNoticeText(user, resolution), refs, {
        limitUnreadUserIds: moved.participants,
      });
    }
    if (sameStream) return;
  }
  const oldPlace = `#**${where.oldStream.name}>${where.oldTopic}**`;
  const newPlace = `#**${where.newStream.name}>${where.newTopic}**`;
  const notices: Promise<number>[] = [];
  if (req.notifyOldThread) {
    const text =
      mode === "change_all"
        ? `This topic was moved to ${newPlace} by ${who}.`
        : count === 1
          ? `A message was moved from this topic to ${newPlace} by ${who}.`
          : `${count} messages were moved from this topic to ${newPlace} by ${who}.`;
    notices.push(sendNotice(deps, realm, where.oldStream, where.oldTopic, text, refs));
  }
  if (req.notifyNewThread) {
    const text =
      mode === "change_all"
        ? `This topic was moved here from ${oldPlace} by ${who}.`
        : count === 1
          ? `A message was moved here from ${oldPlace} by ${who}.`
          : `${count} messages were moved here from ${oldPlace} by ${who}.`;
    notices.push(sendNotice(deps, realm, where.newStream, where.newTopic, text, refs));
  }
  await Promise.all(notices);
}
