import type { Deps } from "../../../deps.js";
import { messageById, messagesByTopic } from "../../../data/messages.js";
import type { RealmRecord } from "../../../data/records/realm.js";
import type { StreamRecord } from "../../../data/records/stream.js";
import type { UserRecord } from "../../../data/records/user.js";
import {
  isResolutionNoticeContent,
  RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS,
  resolutionChange,
  resolutionNoticeText,
} from "../../../domain/topic-resolution.js";
import { doDeleteMessage } from "../delete-messages.js";
import { notificationBotId } from "../../users/notification-bot.js";
import { sendNotice } from "../notification-bot.js";
import type { PropagateMode } from "./messages-to-move.js";

/** What of an edit request the notices depend on (see `UpdateMessageRequest`). */
export interface NoticeRequest {
  /** New content: an edit that changes content is never a resolution. */
  content?: string;
  /** `send_notification_to_old_thread`. */
  notifyOldThread: boolean;
  /** `send_notification_to_new_thread`. */
  notifyNewThread: boolean;
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
 * read strongly consistent. Cost: one round (bot ID, topic index Query
 * limit 1), one GetItem, and the delete's own cost when it applies.
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
    messagesByTopic(deps, stream.stream_id, topic, {}, { descending: true, max: 1 }),
  ]);
  if (botId === undefined) return false; // the bot never posted: there is no notice
  const lastId = Math.max(0, ...movedIds, ...newest.map((m) => m.id));
  const last = lastId > 0 ? await messageById(deps, lastId) : undefined;
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
 * (Zulip's `send_message_moved_breadcrumbs`; both default true in
 * `functions/messages/update-message.ts`, where Zulip's defaults are false
 * and true, https://zulip.com/api/update-message).
 * @param moved the moved messages' IDs and their senders and reactors
 */
export async function sendMoveNotices(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  where: { oldStream: StreamRecord; oldTopic: string; newStream: StreamRecord; newTopic: string },
  mode: PropagateMode,
  moved: { ids: readonly number[]; participants: ReadonlySet<number> },
  req: NoticeRequest,
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
