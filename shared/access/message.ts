import type { Deps } from "../deps.js";
import type { MessageRecord } from "../data/records/message.js";
import type { RealmRecord } from "../data/records/realm.js";
import type { StreamRecord } from "../data/records/stream.js";
import type { UserMessageRecord } from "../data/records/user-message.js";
import type { UserRecord } from "../data/records/user.js";
import { streamWithSubscription } from "../data/subscriptions.js";
import { messagesWithRows } from "../data/user-messages.js";
import { isGuest } from "../domain/roles.js";
import { InvalidMessageError } from "../errors.js";

/**
 * Zulip's `access_message` / `access_message_and_usermessage`: loads a
 * message the user may see, with the user's UserMessage row for it (if any).
 *
 * The rules are Zulip's `has_message_access` (zerver/lib/message.py):
 * - a direct message is visible only to users holding a row for it (its
 *   participants);
 * - a stream message of a public stream (web-public ones included, both have
 *   `invite_only` false) is visible to every user who may access public
 *   streams, i.e. everyone but guests;
 * - otherwise (private streams, and any stream for a guest) the user must be
 *   subscribed NOW; when the stream's history is not shared
 *   (`history_public_to_subscribers` false) the user must also have received
 *   the message (hold a row). A row alone never grants access to a stream
 *   message: a user who left or was removed from a private stream loses its
 *   messages, as in Zulip. Guests get nothing from web-public streams they
 *   are not subscribed to (Zulip's `has_message_access` has no web-public
 *   case; only anonymous spectators use `access_web_public_message`).
 *
 * Archived streams: Zulip refuses their messages only for modifications
 * (`is_modifying_message`); this function serves reads and writes alike and
 * keeps them readable.
 *
 * Cost: one strongly consistent BatchGet (message and row together); a
 * stream message adds a second one (stream and subscription together), since
 * the stream is known only once the message is read. Direct messages never
 * read the stream. Two round trips at most, whatever the data size.
 * @returns the message (a stream message with `display_recipient` set to
 *   the stream's current name) and the user's row (undefined when the user
 *   has none: reading public or shared history they never received)
 * @throws InvalidMessageError (400 `BAD_REQUEST`, `Invalid message(s)`) when the
 *   message does not exist, belongs to another organization, or is not
 *   visible to the user; the same error in every case, so nothing leaks
 */
export async function accessMessage(
  deps: Pick<Deps, "db" | "table">,
  realm: RealmRecord,
  user: UserRecord,
  messageId: number,
): Promise<{ message: MessageRecord; userMessage: UserMessageRecord | undefined }> {
  const found = await messagesWithRows(deps, user.user_id, [messageId]);
  const message = found.messages.get(messageId);
  const userMessage = found.rows.get(messageId);
  if (!message || message.realm_id !== realm.id) throw new InvalidMessageError();
  if (message.recipient_type !== "stream") {
    if (!userMessage) throw new InvalidMessageError();
    return { message, userMessage };
  }
  if (message.stream_id === undefined) throw new InvalidMessageError();

  // A stream of another realm is simply not found (Zulip's realm check).
  const { stream, subscription: sub } = await streamWithSubscription(deps, realm.id, message.stream_id, user.user_id);
  if (!stream || !hasStreamMessageAccess(user, stream, sub?.active === true, userMessage !== undefined)) {
    throw new InvalidMessageError();
  }
  // The item keeps the name the stream had at send time; clients expect the current one.
  return { message: { ...message, display_recipient: stream.name }, userMessage };
}

/** The stream branch of Zulip's `has_message_access` (see {@link accessMessage}). */
function hasStreamMessageAccess(
  user: Pick<UserRecord, "role">,
  stream: Pick<StreamRecord, "invite_only" | "history_public_to_subscribers">,
  subscribed: boolean,
  hasRow: boolean,
): boolean {
  if (!stream.invite_only && !isGuest(user)) return true;
  if (!stream.history_public_to_subscribers) return hasRow && subscribed;
  return subscribed;
}
