import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Deps } from "../../deps.js";
import { isConditionFailure } from "../../data/conditions.js";
import { keys } from "../../data/keys.js";
import { addMessageRecipients, messageById } from "../../data/messages.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { putUserMessages } from "../../data/user-messages.js";

import { apiEmail } from "../../domain/email.js";
import { emojiCodeForName, emojiNameForCode, normalizeEmojiCode } from "../../emoji/index.js";
import { InvalidMessageError, JsonableError } from "../../errors.js";
import { sendEvent } from "../../events/publish.js";
import { accessMessage } from "../../access/message.js";
import { audienceUserIds, messageAudience } from "./audience.js";

/**
 * Emoji reactions (spec "Reaction"; Zulip's `check_add_reaction`,
 * `remove_reaction`, `notify_reaction_update`).
 *
 * Storage: the message item's `reactions` list (wire shape) plus a string
 * set `reaction_keys` of `<user>|<type>|<code>`. The set is what makes two
 * concurrent reactions safe: adding is one UpdateItem that appends to the
 * list and adds the key on the condition that the key is absent; removing
 * deletes one list element by index on the condition that the element
 * there is that reaction (retried on a concurrent shift).
 */

export type ReactionType = "unicode_emoji" | "realm_emoji" | "zulip_extra_emoji";

/** A reaction as stored in the message item (its wire shape). */
export interface StoredReaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: ReactionType;
  user_id: number;
  user: { id: number; email: string; full_name: string; is_mirror_dummy: boolean };
}

/** The only `zulip_extra_emoji` Zulip has. */
const EXTRA_EMOJI = "zulip";

function reactionKey(userId: number, type: string, code: string): string {
  return `${userId}|${type}|${code}`;
}

/** The spec's `service_extra_emoji` is Zulip's `zulip_extra_emoji` under the product's own name. */
function normalizeType(type: string | undefined): string | undefined {
  return type === "service_extra_emoji" ? "zulip_extra_emoji" : type;
}

/**
 * Zulip's `get_emoji_data`: the code and type of an emoji name. Realms have
 * no custom emoji (`realm_emoji`) in this version, so only Unicode emoji and
 * Zulip's extra emoji resolve.
 * @throws JsonableError `Emoji '<name>' does not exist`
 */
export function emojiDataForName(name: string): { code: string; type: ReactionType } {
  if (name === EXTRA_EMOJI) return { code: EXTRA_EMOJI, type: "zulip_extra_emoji" };
  const code = emojiCodeForName(name);
  if (code === undefined) throw new JsonableError(`Emoji '${name}' does not exist`);
  return { code, type: "unicode_emoji" };
}

/**
 * Zulip's `check_emoji_request`: a name, code and type that agree.
 * @throws JsonableError `Invalid emoji code.`, `Invalid emoji name.`, `Invalid custom emoji.`, `Invalid emoji type.`
 */
export function checkEmojiRequest(name: string, code: string, type: string): void {
  if (type === "realm_emoji") throw new JsonableError("Invalid custom emoji.");
  if (type === "zulip_extra_emoji") {
    if (code !== EXTRA_EMOJI) throw new JsonableError("Invalid emoji code.");
    if (name !== code) throw new JsonableError("Invalid emoji name.");
    return;
  }
  if (type === "unicode_emoji") {
    if (emojiNameForCode(code) === undefined) throw new JsonableError("Invalid emoji code.");
    if (emojiCodeForName(name) !== normalizeEmojiCode(code)) throw new JsonableError("Invalid emoji name.");
    return;
  }
  throw new JsonableError("Invalid emoji type.");
}

/**
 * Zulip's `notify_reaction_update` event. It carries the deprecated `user`
 * object in the event's own shape (OpenAPI `EmojiReactionEvent`:
 * `user_id`, `email`, `full_name` — not the `id`/`is_mirror_dummy` of
 * the message's `reactions` entries).
 */
function reactionEvent(op: "add" | "remove", messageId: number, r: StoredReaction): Record<string, unknown> & { type: string } {
  return {
    type: "reaction",
    op,
    message_id: messageId,
    emoji_name: r.emoji_name,
    emoji_code: r.emoji_code,
    reaction_type: r.reaction_type,
    user_id: r.user_id,
    user: { user_id: r.user_id, email: r.user.email, full_name: r.user.full_name },
  };
}

/**
 * `POST /messages/{message_id}/reactions` (OpenAPI `add-reaction`).
 *
 * Without `emoji_code`/`reaction_type` the name is resolved
 * (`shared/emoji`). A reaction with the same code and type by someone else
 * counts as a vote for it and keeps its name. Reacting to a stream message
 * the user never received adds a `historical` (and `read`) row and puts the
 * user in the message's recipients (so later edits and deletes reach them).
 *
 * Round trips: access (1–2), the append (1), the historical row (0–1, in
 * parallel), the audience (0–1) and the event (1): fixed, whatever the
 * history size.
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
  if (code === undefined || type === undefined) {
    const data = emojiDataForName(req.emojiName);
    code ??= data.code;
    type ??= data.type;
  }
  if (type === "unicode_emoji") code = normalizeEmojiCode(code);
  const reactions = (message.reactions ?? []) as unknown as StoredReaction[];
  if (reactions.some((r) => r.user_id === user.user_id && r.emoji_code === code && r.reaction_type === type)) {
    throw new JsonableError("Reaction already exists.");
  }
  const vote = reactions.find((r) => r.emoji_code === code && r.reaction_type === type);
  let name = req.emojiName;
  if (vote) name = vote.emoji_name;
  else checkEmojiRequest(name, code, type);

  const reaction: StoredReaction = {
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
  try {
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: keys.message(message.id),
        UpdateExpression: "SET reactions = list_append(if_not_exists(reactions, :empty), :r) ADD reaction_keys :k",
        ConditionExpression: "attribute_exists(pk) AND NOT contains(reaction_keys, :key)",
        ExpressionAttributeValues: {
          ":empty": [],
          ":r": [reaction],
          ":k": new Set([reactionKey(user.user_id, type, code)]),
          ":key": reactionKey(user.user_id, type, code),
        },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    // A concurrent identical reaction won, or the message was just deleted.
    if (!(await messageById(deps, message.id))) throw new InvalidMessageError();
    throw new JsonableError("Reaction already exists.");
  }
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
  await sendEvent(deps, reactionEvent("add", message.id, reaction), audienceUserIds(audience, user.user_id));
}

/**
 * `DELETE /messages/{message_id}/reactions` (spec "Remove an emoji
 * reaction"; OpenAPI `remove-reaction`). `reaction_type` defaults to
 * `unicode_emoji`; without `emoji_code` the name is resolved.
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
  let { message } = await accessMessage(deps, realm, user, messageId);
  const type = normalizeType(req.reactionType) ?? "unicode_emoji";
  let code = req.emojiCode;
  if (code === undefined) {
    if (req.emojiName === undefined) {
      throw new JsonableError("At least one of the following arguments must be present: emoji_name, emoji_code");
    }
    code = emojiDataForName(req.emojiName).code;
  }
  if (type === "unicode_emoji") code = normalizeEmojiCode(code);
  const key = reactionKey(user.user_id, type, code);

  // Remove by index, on the condition that the index still holds this reaction.
  for (let attempt = 0; ; attempt++) {
    const reactions = (message.reactions ?? []) as unknown as StoredReaction[];
    const index = reactions.findIndex((r) => r.user_id === user.user_id && r.emoji_code === code && r.reaction_type === type);
    if (index < 0) throw new JsonableError("Reaction doesn't exist.");
    const removed = reactions[index]!;
    try {
      await deps.db.send(
        new UpdateCommand({
          TableName: deps.table,
          Key: keys.message(message.id),
          UpdateExpression: `REMOVE reactions[${index}] DELETE reaction_keys :k`,
          ConditionExpression: `reactions[${index}].user_id = :u AND reactions[${index}].emoji_code = :c AND reactions[${index}].reaction_type = :t`,
          ExpressionAttributeValues: { ":k": new Set([key]), ":u": user.user_id, ":c": code, ":t": type },
        }),
      );
      const audience = await messageAudience(deps, message);
      await sendEvent(deps, reactionEvent("remove", message.id, removed), audienceUserIds(audience, user.user_id));
      return;
    } catch (err) {
      if (!isConditionFailure(err) || attempt >= 4) throw err;
      const fresh = await messageById(deps, message.id);
      if (!fresh) throw new InvalidMessageError();
      message = fresh;
    }
  }
}
