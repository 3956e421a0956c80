import type { Deps } from "../../deps.js";
import { batchGet } from "../../data/batch-get.js";
import { recordOf } from "../../data/items.js";
import { keys } from "../../data/keys.js";
import type { MessageRecord } from "../../data/messages.js";
import type { RealmRecord } from "../../data/realms.js";
import { getStream } from "../../data/streams.js";
import { getSubscription } from "../../data/subscriptions.js";
import type { UserMessageRecord } from "../../data/user-messages.js";
import type { UserRecord } from "../../data/users.js";
import { InvalidMessageError } from "../../errors.js";
import { canReadStreamHistory } from "../../queries/streams/access.js";

/**
 * Zulip's `access_message`: loads a message the user may see, with the
 * user's row for it.
 *
 * A message is visible when the user has a UserMessage row for it (they
 * received it, or it entered their history), or when it is a stream message
 * of a stream whose history the user may read (`canReadStreamHistory`:
 * public streams for non-guests; private streams with shared history for
 * subscribers). Private messages are visible to their participants only.
 *
 * Cost: one BatchGet (message and row together); a stream message without a
 * row adds one round trip (stream and subscription in parallel).
 * @throws InvalidMessageError `Invalid message(s)` when the message does not
 *   exist, belongs to another organization, or is not visible
 */
export async function accessMessage(
  deps: Pick<Deps, "db" | "table">,
  realm: RealmRecord,
  user: UserRecord,
  messageId: number,
): Promise<{ message: MessageRecord; userMessage: UserMessageRecord | undefined }> {
  const items = await batchGet(deps, [keys.message(messageId), keys.userMessage(user.user_id, messageId)], true);
  let message: MessageRecord | undefined;
  let userMessage: UserMessageRecord | undefined;
  for (const item of items) {
    if (item.type === "message") message = recordOf<MessageRecord>(item);
    else if (item.type === "user_message") userMessage = recordOf<UserMessageRecord>(item);
  }
  if (!message || message.realm_id !== realm.id) throw new InvalidMessageError();
  if (userMessage) return { message, userMessage };
  if (message.recipient_type !== "stream" || message.stream_id === undefined) throw new InvalidMessageError();
  const [stream, sub] = await Promise.all([
    getStream(deps, realm.id, message.stream_id),
    getSubscription(deps, user.user_id, message.stream_id),
  ]);
  if (!stream || !canReadStreamHistory(user, stream, sub?.active ? sub : undefined)) throw new InvalidMessageError();
  return { message, userMessage: undefined };
}
