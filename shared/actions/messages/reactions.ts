import type { Deps } from "../../deps.js";
import { addMessageRecipients } from "../../data/messages.js";
import { addMessageReaction, messageReactions, removeMessageReaction } from "../../data/reactions.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { ReactionRecord, ReactionType } from "../../data/records/reaction.js";
import type { UserRecord } from "../../data/records/user.js";
import { putUserMessages } from "../../data/user-messages.js";
import { apiEmail } from "../../domain/email.js";
import { normalizeEmojiCode } from "../../emoji/codes.js";
import { InvalidMessageError, JsonableError } from "../../errors.js";
import { sendEvent } from "../../events/publish.js";
import type { EventOf } from "../../events/types.js";
import { accessMessage } from "../../access/message.js";
import { checkEmojiRequest, emojiDataForName, realmEmojiFor } from "../../access/emoji.js";
import { audienceUserIds, messageAudience } from "../../access/message-audience.js";

/**
 * Emoji reactions (https://zulip.com/api/add-reaction,
 * https://zulip.com/api/remove-reaction; Zulip's `check_add_reaction`,
 * `do_remove_reaction` and `notify_reaction_update` in
 * `zerver/actions/reactions.py`). Storage and why concurrent changes never
 * conflict: `shared/data/reactions.ts`.
 */

/** The API's `service_extra_emoji` is Zulip's `zulip_extra_emoji` under the product's own name. */
function normalizeType(type: string | undefined): string | undefined {
  return type === "service_extra_emoji" ? "zulip_extra_emoji" : type;
}

/**
 * Zulip's `notify_reaction_update`: sends the `reaction` event
 * (https://zulip.com/api/get-events#reaction-add) to `userIds`. It carries
 * the deprecated `user` object in the event's own shape (OpenAPI
 * `EmojiReactionEvent`: `user_id`, `email`, `full_name` — not the
 * `id`/`is_mirror_dummy` of the message's `reactions` entries).
 */
export async function notifyReaction(
  deps: Deps,
  op: "add" | "remove",
  messageId: number,
  r: ReactionRecord,
  userIds: number[],
): Promise<void> {
  const fields = {
    message_id: messageId,
    emoji_name: r.emoji_name,
    emoji_code: r.emoji_code,
    reaction_type: r.reaction_type,
    user_id: r.user_id,
    user: { user_id: r.user_id, email: r.user.email, full_name: r.user.full_name },
  };
  const event: EventOf<"reaction/add"> | EventOf<"reaction/remove"> =
    op === "add" ? { type: "reaction", op: "add", ...fields } : { type: "reaction", op: "remove", ...fields };
  await sendEvent(deps, event, userIds);
}

/**
 * `POST /messages/{message_id}/reactions` (https://zulip.com/api/add-reaction;
 * Zulip's `check_add_reaction`).
 *
 * Without `emoji_code`/`reaction_type` the name is resolved
 * (`shared/emoji`). A reaction with the same code and type by someone else
 * counts as a vote for it and keeps its name. Reacting to a stream message
 * the user never received adds a `historical` (and `read`) row and puts the
 * user in the message's recipients (so later edits and deletes reach them).
 *
 * Round trips: access (1–2), the realm's custom emoji when the name must
 * be resolved (0–1), the UpdateItem (1), the historical row (0–1, in
 * parallel), the audience (0–1) and the event (1): fixed, whatever the
 * history size or the number of reactions, and concurrent reactions of
 * other users never make it retry.
 *
 * @throws InvalidMessageError `Invalid message(s)`; JsonableError `Reaction already exists.`,
 *   `Emoji '<name>' does not exist`, `Invalid emoji name.`, `Invalid emoji code.`, `Invalid emoji type.`
 */
export async function checkAddReaction(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  messageId: number,
  req: { emojiName: string; emojiCode?: string; reactionType?: string },
): Promise<void> {
  const { message, userMessage } = await accessMessage(deps, realm, user, messageId);
  let code = req.emojiCode;
  let type = normalizeType(req.reactionType);
  const realmEmoji = await realmEmojiFor(deps, realm.id, code, type);
  if (code === undefined || type === undefined) {
    const data = await emojiDataForName(req.emojiName, realmEmoji);
    code ??= data.code;
    type ??= data.type;
  }
  if (type === "unicode_emoji") code = normalizeEmojiCode(code);
  const reactions = messageReactions(message);
  if (reactions.some((r) => r.user_id === user.user_id && r.emoji_code === code && r.reaction_type === type)) {
    throw new JsonableError("Reaction already exists.");
  }
  const vote = reactions.find((r) => r.emoji_code === code && r.reaction_type === type);
  let name = req.emojiName;
  if (vote) name = vote.emoji_name;
  else await checkEmojiRequest(name, code, type, realmEmoji);

  const reaction: ReactionRecord = {
    emoji_name: name,
    emoji_code: code,
    reaction_type: type as ReactionType,
    user_id: user.user_id,
    user: {
      id: user.user_id,
      email: apiEmail(user, realm, deps.config),
      full_name: user.full_name,
      is_mirror_dummy: false,
    },
  };
  const historical = userMessage === undefined;
  const added = await addMessageReaction(deps, message.id, reaction);
  // A concurrent identical reaction won, or the message was just deleted (told apart without a read).
  if (added === "no-message") throw new InvalidMessageError();
  if (added === "duplicate") throw new JsonableError("Reaction already exists.");
  const [audience] = await Promise.all([
    messageAudience(deps, message),
    historical
      ? Promise.all([
          putUserMessages(deps, [
            {
              user_id: user.user_id,
              message_id: message.id,
              recipient_id: message.recipient_id,
              is_private: false,
              flags: ["read", "historical"],
            },
          ]),
          addMessageRecipients(deps, message.id, [user.user_id]),
        ])
      : Promise.resolve(),
  ]);
  await notifyReaction(deps, "add", message.id, reaction, audienceUserIds(audience, user.user_id));
}

/**
 * `DELETE /messages/{message_id}/reactions`
 * (https://zulip.com/api/remove-reaction; Zulip's `remove_reaction` view and
 * `do_remove_reaction`). `reaction_type` defaults to `unicode_emoji`;
 * without `emoji_code` the name is resolved.
 *
 * Round trips: access (1–2), the realm's custom emoji when only a name is
 * given (0–1), the UpdateItem (1, whatever other users change at the same
 * time), the audience (1) and the event (1).
 *
 * @throws InvalidMessageError `Invalid message(s)`; JsonableError `Reaction doesn't exist.`,
 *   `At least one of the following arguments must be present: emoji_name, emoji_code`,
 *   `Emoji '<name>' does not exist`
 */
export async function checkRemoveReaction(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  messageId: number,
  req: { emojiName?: string; emojiCode?: string; reactionType?: string },
): Promise<void> {
  const { message } = await accessMessage(deps, realm, user, messageId);
  const type = normalizeType(req.reactionType) ?? "unicode_emoji";
  let code = req.emojiCode;
  if (code === undefined) {
    if (req.emojiName === undefined) {
      throw new JsonableError("At least one of the following arguments must be present: emoji_name, emoji_code");
    }
    code = (await emojiDataForName(req.emojiName, await realmEmojiFor(deps, realm.id, undefined, undefined))).code;
  }
  if (type === "unicode_emoji") code = normalizeEmojiCode(code);
  const result = await removeMessageReaction(deps, message.id, { userId: user.user_id, reactionType: type, emojiCode: code });
  if (result === "no-message") throw new InvalidMessageError();
  if (result === "absent") throw new JsonableError("Reaction doesn't exist.");
  const audience = await messageAudience(deps, message);
  await notifyReaction(deps, "remove", message.id, result.removed, audienceUserIds(audience, user.user_id));
}
