import type { Deps } from "../../deps.js";
import { deleteMessageItem, deleteRowsAndRecipients } from "../../data/messages.js";
import type { MessageRecord } from "../../data/records/message.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserRecord } from "../../data/records/user.js";
import { getStream, replaceFirstMessageId } from "../../data/streams.js";
import { deletePostings } from "../../data/search-index.js";
import { messageTerms } from "../../narrow/search.js";
import { listStreamSubscriberIds } from "../../data/subscriptions.js";
import { deleteUserMessages, userMessageRowsOf } from "../../data/user-messages.js";
import type { UserMessageRecord } from "../../data/records/user-message.js";
import { activePushIdsByUser, enqueueWithRemovals, pushRemovalJobs } from "./push-removals.js";
import { pushNotificationsInUse } from "../../push/bouncer.js";
import { userById } from "../../data/users.js";
import type { DeferredJob, JobPayload } from "../../deferred/jobs.js";
import { releaseAttachmentClaimsJob } from "../uploads/claim.js";
import { isFullMember, realmGroupSettingAllows, realmSettings, rolePolicyAllows } from "../../domain/realm-settings.js";
import { JsonableError } from "../../errors.js";
import { sendEvent } from "../../events/publish.js";
import type { EventOf } from "../../events/types.js";
import { listActiveRealmUsers } from "../../data/users.js";
import { streamAudience } from "../../queries/streams/audience.js";
import { accessMessage } from "../../access/message.js";
import { realmSettingGroupMembership } from "../../access/user-group.js";
import { audienceUserIds, messageAudience } from "../../access/message-audience.js";

/** UserMessage rows a delete removes inside the request (40 BatchWriteItem calls, 10 rounds); the rest goes to jobs. */
export const INLINE_DELETE_ROWS = 1000;

/** Rows one `delete_messages` job removes (200 BatchWriteItem calls; ≈ 40 KB of payload). */
export const DELETE_JOB_ROWS = 5000;

/** Payload of a `delete_messages` job: rows of one deleted message still to remove. */
export type DeleteMessagesPayload = JobPayload<"delete_messages">;

/**
 * `DELETE /messages/{message_id}` (https://zulip.com/api/delete-message; Zulip's
 * `validate_can_delete_message` and `do_delete_messages`).
 *
 * Who: `can_delete_any_message_group` (administrators by default); else the
 * sender, or the owner of the sending bot, when `delete_own_message_policy`
 * allows (Zulip's default at feature level 283 is 2, administrators only,
 * so by default only they delete), within
 * `message_content_delete_limit_seconds`.
 *
 * What goes: the message item first (and with it every message index:
 * stream, topic, sender, realm — readers stop seeing it at once); then the
 * UserMessage row of every user in the message's recipients items (those
 * who received it, or got a historical row since) and the recipients items
 * themselves. Up to {@link INLINE_DELETE_ROWS} rows go inside the request,
 * the rest through `delete_messages` jobs; until they run, readers skip
 * rows whose message is gone. The search postings of the message's
 * current topic and content go too (one BatchWriteItem per 25 terms;
 * postings of words an edit removed stay behind as hints search drops when
 * it re-reads the missing message).
 *
 * `delete_message` goes to the row holders and, for a stream with shared
 * history, its current subscribers (Zulip's audience).
 *
 * Round trips: access (1–2), the bot's owner (0–1), audience (1), the
 * message delete (1), rows and recipients items (1 round per 100 rows,
 * ≤ 10), jobs and the event (1).
 *
 * @throws InvalidMessageError; JsonableError `You don't have permission to delete this message`,
 *   `The time limit for deleting this message has passed`
 */
export async function checkDeleteMessage(deps: Deps, realm: RealmRecord, user: UserRecord, messageId: number): Promise<void> {
  const { message } = await accessMessage(deps, realm, user, messageId);
  const isMember = await realmSettingGroupMembership(deps, realm, user, ["can_delete_any_message_group"]);
  if (!realmGroupSettingAllows(realm, "can_delete_any_message_group", user, isMember)) {
    const settings = realmSettings(realm);
    if (message.sender_id !== user.user_id) {
      // Zulip lets the owner of a bot delete the bot's messages as their own.
      const sender = await userById(deps, realm.id, message.sender_id);
      if (!sender?.is_bot || sender.bot_owner_id !== user.user_id) {
        throw new JsonableError("You don't have permission to delete this message");
      }
    }
    const fullMember = isFullMember(realm, user, Math.floor(deps.clock.now() / 1000));
    if (!rolePolicyAllows(settings.delete_own_message_policy as number, user, fullMember)) {
      throw new JsonableError("You don't have permission to delete this message");
    }
    const limit = settings.message_content_delete_limit_seconds as number | null;
    if (limit !== null && Math.floor(deps.clock.now() / 1000) - message.timestamp > limit) {
      throw new JsonableError("The time limit for deleting this message has passed");
    }
  }
  await doDeleteMessage(deps, realm, message);
}

/**
 * Zulip's `do_delete_messages` for one message, without any permission
 * check: the deletion half of {@link checkDeleteMessage} (see there for
 * what goes, who is told and the round trips after access). Callers are
 * the permission-checked endpoint and internal actors (the Notification
 * Bot withdrawing its own resolution notice within the undo grace period).
 *
 * Precondition: `message` was just read from the table, as it is now
 * (the `delete_message` event names its current stream and topic).
 */
export async function doDeleteMessage(deps: Deps, realm: RealmRecord, message: MessageRecord): Promise<void> {
  await doDeleteMessages(deps, realm, [message]);
}

/**
 * Zulip's `do_delete_messages` for messages of one conversation (one stream
 * and topic, or one direct-message conversation), without any permission
 * check: each message goes as {@link checkDeleteMessage} describes (item,
 * rows, recipients items, search postings, attachment claims), all in
 * parallel, and one bulk `delete_message` event with every ID goes to the
 * union of their audiences. A stream's subscriber list is read once for
 * the batch.
 *
 * Rows whose message is on a user's phone as a notification
 * (`active_mobile_push_notification`; read beside the message deletes when
 * push notifications are configured) make one `push_removal` job per user,
 * enqueued with the other jobs (Zulip's `do_delete_messages` clears them).
 *
 * Round trips: the stream and its subscribers (stream messages, 1), the
 * recipients Queries (1), the message deletes (1), rows, recipients items
 * and postings (⌈rows / 100⌉ rounds, ≤ 10 inline), jobs and the event (1);
 * then the stream's `first_message_id` update when it was among them.
 * Precondition: `messages` were just read from the table, as they are now,
 * and share one conversation (the event names one stream and topic).
 */
export async function doDeleteMessages(deps: Deps, realm: RealmRecord, messages: MessageRecord[]): Promise<void> {
  const first = messages[0];
  if (first === undefined) return;
  const streamId = first.recipient_type === "stream" ? first.stream_id : undefined;
  const streamRead =
    streamId === undefined
      ? undefined
      : await Promise.all([getStream(deps, realm.id, streamId), listStreamSubscriberIds(deps, streamId)]).then(
          ([stream, subscriberIds]) => ({ stream, subscriberIds }),
        );
  const audiences = await Promise.all(messages.map((m) => messageAudience(deps, m, streamRead)));
  // Rows whose notification is on a phone are read beside the message
  // deletes (no extra round trip), before the rows go; only where push
  // notifications are in use (else no row ever has the flag).
  const [heldRows] = await Promise.all([
    pushNotificationsInUse(deps.config)
      ? Promise.all(messages.map((m, i) => userMessageRowsOf(deps, m.id, audiences[i]!.recipients.userIds.slice(0, INLINE_DELETE_ROWS))))
      : Promise.resolve([] as Map<number, UserMessageRecord>[]),
    ...messages.map((m) => deleteMessageItem(deps, m.id)),
  ]);

  const jobs: DeferredJob[] = [...pushRemovalJobs(realm.id, activePushIdsByUser(heldRows.flatMap((rows) => [...rows.values()])))];
  await Promise.all(
    messages.map(async (message, i) => {
      const audience = audiences[i]!;
      const holders = audience.recipients.userIds;
      const rest = holders.slice(INLINE_DELETE_ROWS);
      for (let k = 0; k < rest.length; k += DELETE_JOB_ROWS) {
        const payload: DeleteMessagesPayload = {
          realm_id: realm.id,
          message_id: message.id,
          user_ids: rest.slice(k, k + DELETE_JOB_ROWS),
        };
        jobs.push({ kind: "delete_messages", payload });
      }
      // Files only this message claimed go with it (Zulip deletes an attachment with its last message).
      if (message.has_attachment) jobs.push(releaseAttachmentClaimsJob(realm.id, message.id));
      await Promise.all([
        deleteRowsAndRecipients(deps, message.id, holders.slice(0, INLINE_DELETE_ROWS), audience.recipients.chunks.keys()),
        deletePostings(deps, realm.id, message.id, messageTerms(message.topic, message.content)),
      ]);
    }),
  );
  const users = [...new Set(audiences.flatMap((a) => audienceUserIds(a)))];
  await Promise.all([
    notifyDeleteMessages(
      deps,
      messages.map((m) => m.id),
      streamId !== undefined ? { stream_id: streamId, topic: first.topic } : undefined,
      users,
    ),
    jobs.length > 0 ? deps.deferred.enqueue(jobs) : Promise.resolve(),
  ]);
  // After the delete event, as Zulip orders them.
  const stream = streamRead?.stream;
  if (stream?.first_message_id != null && messages.some((m) => m.id === stream.first_message_id)) {
    await updateFirstMessageId(deps, realm, stream);
  }
}

/**
 * Zulip's `delete_message` event (https://zulip.com/api/get-events#delete_message),
 * in its bulk form (`message_ids`; delivery splits it for queues without
 * `bulk_message_deletion`): the messages are gone for `users`.
 * @param where the messages' stream and topic, for stream messages; undefined for direct messages
 */
export async function notifyDeleteMessages(
  deps: Deps,
  messageIds: number[],
  where: { stream_id: number; topic: string } | undefined,
  users: number[],
): Promise<void> {
  const event: EventOf<"delete_message"> = where
    ? { type: "delete_message", message_ids: messageIds, message_type: "stream", stream_id: where.stream_id, topic: where.topic }
    : { type: "delete_message", message_ids: messageIds, message_type: "private" };
  await sendEvent(deps, event, users);
}

/**
 * After a stream's first message was deleted: its next message becomes the
 * first (or none), and everyone who sees the stream is told with a `stream`
 * `update` of `first_message_id` (Zulip's `check_update_first_message_id`,
 * feature level 256). Rare, so the stream's audience is read in full.
 */
async function updateFirstMessageId(deps: Deps, realm: RealmRecord, stream: StreamRecord): Promise<void> {
  const value = await replaceFirstMessageId(deps, realm.id, stream.stream_id, stream.first_message_id!);
  if (value === undefined) return;
  const [subscriberIds, activeUsers] = await Promise.all([
    listStreamSubscriberIds(deps, stream.stream_id),
    listActiveRealmUsers(deps, realm.id),
  ]);
  await notifyFirstMessageId(deps, stream, value, streamAudience(stream, activeUsers, subscriberIds));
}

/** Zulip's `stream` `update` event of `first_message_id` (https://zulip.com/api/get-events#stream-update; feature level 256). */
async function notifyFirstMessageId(deps: Deps, stream: StreamRecord, value: number | null, users: number[]): Promise<void> {
  const event: EventOf<"stream/update"> = {
    type: "stream",
    op: "update",
    property: "first_message_id",
    value,
    stream_id: stream.stream_id,
    name: stream.name,
  };
  await sendEvent(deps, event, users);
}

/**
 * Runs a `delete_messages` job: removes the UserMessage rows of a deleted
 * message that the request left (audiences over {@link INLINE_DELETE_ROWS}),
 * after reading them when push notifications are configured: rows whose
 * notification is on a phone make one `push_removal` job per user (one
 * SendMessageBatch call per 10). Redelivery is harmless: deleting a missing
 * row is a no-op (and its removal was enqueued by the first run).
 */
export async function runDeleteMessages(deps: Deps, p: DeleteMessagesPayload): Promise<void> {
  const rows =
    pushNotificationsInUse(deps.config) && p.realm_id !== undefined ? await userMessageRowsOf(deps, p.message_id, p.user_ids) : undefined;
  await deleteUserMessages(deps, p.user_ids.map((id) => ({ user_id: id, message_id: p.message_id })));
  if (rows) await enqueueWithRemovals(deps, [], pushRemovalJobs(p.realm_id!, activePushIdsByUser(rows.values())));
}
