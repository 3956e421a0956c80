import type { Deps } from "../../deps.js";
import { accessMessage } from "../../access/message.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { wireFlags } from "../../data/user-messages.js";

import { realmSettings } from "../../domain/realm-settings.js";
import { messageToWire } from "../../wire/message.js";
import { readMessageUsers, withCurrentUsers } from "./current-users.js";

/**
 * `GET /messages/{message_id}` (https://zulip.com/api/get-message): the message
 * as the viewer sees it, with their flags (`["read", "historical"]` for a
 * stream message from shared history), and the deprecated `raw_content`
 * (the Markdown source, whatever `apply_markdown` says).
 *
 * `avatar_url` is computed as for `client_gravatar=false`: this endpoint has
 * no such parameter and Zulip sends the URL here. The sender and DM
 * participants are the current users (see `withCurrentUsers`; one more
 * BatchGet round).
 * @throws InvalidMessageError when the message is missing or invisible (see {@link accessMessage})
 */
export async function getSingleMessage(
  deps: Pick<Deps, "db" | "table" | "config">,
  realm: RealmRecord,
  viewer: UserRecord,
  messageId: number,
  applyMarkdown: boolean,
): Promise<{ message: Record<string, unknown>; raw_content: string }> {
  const { message: stored, userMessage } = await accessMessage(deps, realm, viewer, messageId);
  const message = withCurrentUsers(stored, await readMessageUsers(deps, realm.id, [stored]), realm, deps.config);
  return {
    raw_content: message.content,
    message: messageToWire(message, {
      applyMarkdown,
      clientGravatar: false,
      allowEditHistory: realmSettings(realm).allow_edit_history === true,
      flags: userMessage ? wireFlags(userMessage.flags) : ["read", "historical"],
    }),
  };
}
