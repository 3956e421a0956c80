import type { Deps } from "../../../deps.js";
import type { MessageRecord } from "../../../data/records/message.js";
import type { RealmRecord } from "../../../data/records/realm.js";
import type { StreamRecord } from "../../../data/records/stream.js";
import type { UserRecord } from "../../../data/records/user.js";
import { withWriteRetries } from "../../../data/retry.js";
import { isModeratorOrAbove } from "../../../domain/roles.js";
import { isFullMember, realmSettings, rolePolicyAllows } from "../../../domain/realm-settings.js";
import { ConcurrentMessageEditError, InvalidChannelIdError, JsonableError } from "../../../errors.js";
import { accessMessage } from "../../../access/message.js";
import { accessStream, checkStreamPostPolicy } from "../../../access/stream.js";
import { normalizeContent, normalizeTopic } from "../../../domain/message-fields.js";
import { doMoveMessagesToStream } from "./do-move-to-stream.js";
import { doUpdateMessage } from "./do-update-message.js";
import { EDIT_LIMIT_BUFFER_SECONDS, type PropagateMode } from "./messages-to-move.js";

/**
 * Editing a message (https://zulip.com/api/update-message; Zulip's
 * `check_update_message` in `zerver/actions/message_edit.py`): the checks
 * here, then `doUpdateMessage` (content, topic and `propagate_mode` within
 * the stream) or `doMoveMessagesToStream` (another stream), which write,
 * send the events and post the move and resolution notices.
 */

/** A `PATCH /messages/{message_id}` request after parameter decoding. */
export interface UpdateMessageRequest {
  content?: string;
  topic?: string;
  streamId?: number;
  /** `change_one`, `change_later` or `change_all` (checked here). */
  propagateMode: string;
  /** `send_notification_to_old_thread`. */
  notifyOldThread: boolean;
  /** `send_notification_to_new_thread`. */
  notifyNewThread: boolean;
}

/** What an edit to empty content stores (Zulip's `build_message_edit_request`). */
const DELETED_CONTENT = "(deleted)";

/** Tries of an edit that loses its conditional write to a concurrent change. */
const EDIT_ATTEMPTS = 5;

const PROPAGATE_MODES: readonly string[] = ["change_one", "change_later", "change_all"] satisfies PropagateMode[];

function isPropagateMode(mode: string): mode is PropagateMode {
  return PROPAGATE_MODES.includes(mode);
}

/**
 * Zulip's `validate_message_edit_payload`.
 * @returns the request's propagate mode
 * @throws JsonableError with Zulip's words
 */
function validatePayload(message: MessageRecord, req: UpdateMessageRequest): PropagateMode {
  if (req.topic === undefined && req.content === undefined && req.streamId === undefined) {
    throw new JsonableError("Nothing to change");
  }
  if (message.recipient_type !== "stream") {
    if (req.streamId !== undefined) throw new JsonableError("Direct messages cannot be moved to channels.");
    if (req.topic !== undefined) throw new JsonableError("Direct messages cannot have topics.");
  }
  const mode = req.propagateMode;
  if (!isPropagateMode(mode)) throw new JsonableError("Invalid propagate_mode");
  if (mode !== "change_one" && req.topic === undefined && req.streamId === undefined) {
    throw new JsonableError("Invalid propagate_mode without topic edit");
  }
  if (req.streamId !== undefined && req.content !== undefined) {
    throw new JsonableError("Cannot change message content while changing channel");
  }
  return mode;
}

/**
 * Zulip's edit permission rules at feature level 283 with the realm's
 * settings: content only by its sender, while `allow_message_editing` and
 * within `message_content_edit_limit_seconds` (+20 s); topics by
 * `edit_topic_policy`, non-moderators within
 * `move_messages_within_stream_limit_seconds` (+20 s).
 * @param nowSeconds UNIX seconds
 * @throws JsonableError with Zulip's words
 */
function checkEditPermissions(
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
    if (!rolePolicyAllows(settings.edit_topic_policy as number, user, isFullMember(realm, user, nowSeconds))) {
      throw new JsonableError("You don't have permission to edit this message");
    }
    const limit = settings.move_messages_within_stream_limit_seconds as number | null;
    if (!isModeratorOrAbove(user) && limit !== null && age > limit + EDIT_LIMIT_BUFFER_SECONDS) {
      throw new JsonableError("The time limit for editing this message's topic has passed.");
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
 * @param now UNIX seconds
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
  if (!rolePolicyAllows(settings.move_messages_between_streams_policy as number, user, isFullMember(realm, user, now))) {
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

/**
 * `PATCH /messages/{message_id}` (https://zulip.com/api/update-message):
 * Zulip's `check_update_message`. A `stream_id` other than the message's
 * moves it (and, with `propagate_mode`, its topic's later or all messages)
 * to that stream (`doMoveMessagesToStream`); otherwise content and topic
 * change in place (`doUpdateMessage`). Resolving or unresolving a topic
 * (`change_all`) adds the undo check (2 rounds) before the notice, or the
 * notice's deletion instead of it.
 *
 * The target's conditional write is the first write of an edit, so a
 * concurrent change found there leaves nothing behind: the edit starts
 * over from a fresh read (which re-checks access and permissions), up to
 * {@link EDIT_ATTEMPTS} tries.
 *
 * Round trips before the writes: access (1–2), the destination stream of
 * a move (1–2); see the `do*` functions for the rest.
 * @throws InvalidMessageError; JsonableError (`Nothing to change`, `Invalid propagate_mode`,
 *   permission and time-limit errors with Zulip's words); InvalidChannelIdError;
 *   MoveMessagesTimeLimitError; ConcurrentMessageEditError when every try lost to a concurrent change
 */
export async function checkUpdateMessage(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  messageId: number,
  req: UpdateMessageRequest,
): Promise<void> {
  await withWriteRetries("update message", async () => ((await updateMessageOnce(deps, realm, user, messageId, req)) ? true : undefined), {
    // One try more than EDIT_ATTEMPTS: the last conflict ends in the client's error, not in a retry.
    maxAttempts: EDIT_ATTEMPTS + 1,
    onConflict: (attempt) => {
      if (attempt >= EDIT_ATTEMPTS) throw new ConcurrentMessageEditError();
    },
  });
}

/**
 * One try of {@link checkUpdateMessage}.
 * @returns false when the message changed meanwhile (nothing written)
 */
async function updateMessageOnce(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  messageId: number,
  req: UpdateMessageRequest,
): Promise<boolean> {
  const { message } = await accessMessage(deps, realm, user, messageId);
  // As Zulip: the current topic again is no topic change at all.
  const sameTopic = req.topic !== undefined && req.topic.trim() === message.topic;
  req = sameTopic ? { ...req, topic: undefined } : req;
  const mode = validatePayload(message, req);
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
  if (newStream) return doMoveMessagesToStream(deps, realm, user, message, { newStream, topic, mode }, req, now);
  return doUpdateMessage(deps, realm, user, message, { content, topic, mode }, req, now);
}
