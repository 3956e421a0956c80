import { DeleteCommand } from "@aws-sdk/lib-dynamodb";
import type { Deps } from "../../deps.js";
import { batchWrite } from "../../data/batch-write.js";
import { keys } from "../../data/keys.js";
import type { RealmRecord } from "../../data/realms.js";
import type { UserRecord } from "../../data/users.js";
import { realmGroupSettingAllows, realmSettings, rolePolicyAllows } from "../../domain/realm-settings.js";
import { JsonableError } from "../../errors.js";
import { sendEvent } from "../../events/publish.js";
import { accessMessage } from "./access-message.js";
import { messageAudience } from "./reactions.js";

/**
 * `DELETE /messages/{message_id}` (OpenAPI `delete-message`; Zulip's
 * `validate_can_delete_message` and `do_delete_messages`).
 *
 * Who: `can_delete_any_message_group` (administrators by default); else the
 * sender (or the owner of the sending bot) when `delete_own_message_policy`
 * allows, within `message_content_delete_limit_seconds`.
 *
 * What goes: the message item (and with it every message index: stream,
 * topic, sender, realm), then the UserMessage rows of everyone who can be
 * found to hold one — participants of a DM; for stream messages the
 * stream's subscribers, historical-row owners and the sender — with
 * batched deletes (deleting a missing key is harmless). Rows of users who
 * unsubscribed since are not findable; readers skip rows whose message is
 * gone. Search postings stay: search re-reads every candidate message.
 *
 * @throws InvalidMessageError; JsonableError `You don't have permission to delete this message`,
 *   `The time limit for deleting this message has passed`
 */
export async function checkDeleteMessage(deps: Deps, realm: RealmRecord, user: UserRecord, messageId: number): Promise<void> {
  const { message } = await accessMessage(deps, realm, user, messageId);
  if (!realmGroupSettingAllows(realm, "can_delete_any_message_group", user)) {
    const settings = realmSettings(realm);
    // Senders and the owners of sending bots (Zulip checks the bot owner).
    if (message.sender_id !== user.user_id) {
      throw new JsonableError("You don't have permission to delete this message");
    }
    if (!rolePolicyAllows(settings.delete_own_message_policy as number, user)) {
      throw new JsonableError("You don't have permission to delete this message");
    }
    const limit = settings.message_content_delete_limit_seconds as number | null;
    if (limit !== null && Math.floor(deps.clock.now() / 1000) - message.timestamp > limit) {
      throw new JsonableError("The time limit for deleting this message has passed");
    }
  }
  const audience = await messageAudience(deps, message, user.user_id);
  await deps.db.send(new DeleteCommand({ TableName: deps.table, Key: keys.message(message.id) }));
  await batchWrite(deps, [], audience.map((id) => keys.userMessage(id, message.id)));
  const event: Record<string, unknown> & { type: string } = {
    type: "delete_message",
    message_ids: [message.id],
    message_type: message.recipient_type,
    ...(message.recipient_type === "stream" ? { stream_id: message.stream_id, topic: message.topic } : {}),
  };
  await sendEvent(deps, event, audience);
}

/** Runner of `delete_messages` jobs (reserved for bulk deletion; nothing is deferred yet). */
export async function runDeleteMessages(_deps: Deps, _payload: Record<string, unknown>): Promise<void> {}
