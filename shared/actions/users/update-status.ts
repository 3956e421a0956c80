import type { Deps } from "../../deps.js";
import type { ReactionType } from "../../data/records/reaction.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { listRealmMembers } from "../../data/users.js";
import { writeUsers } from "../../data/user-writes.js";
import { USER_SETTING_DEFAULTS } from "../../domain/user-settings.js";
import { JsonableError } from "../../errors.js";
import { sendEvent } from "../../events/publish.js";
import type { EventOf } from "../../events/types.js";
import { isAway } from "../../wire/user-status.js";
import { checkEmojiRequest, emojiDataForName, realmEmojiFor, type RealmEmojiLookup } from "../../access/emoji.js";
import { activeUserIds, notifyUserSettingChanged } from "./notify.js";

/** Longest status text, in characters (Unicode code points), after trimming (Zulip's `UserStatus.MAX_STATUS_TEXT_LENGTH`). */
export const MAX_STATUS_TEXT_LENGTH = 60;

/** What `POST /users/me/status` passed; absent means unchanged. */
export interface StatusUpdate {
  statusText?: string;
  away?: boolean;
  emojiName?: string;
  emojiCode?: string;
  reactionType?: string;
}

/** A checked status change: the fields to set (each absent when not passed). */
interface CheckedStatus {
  away?: boolean;
  statusText?: string;
  emoji?: { name: string; code: string; type: ReactionType };
}

/**
 * Zulip's `update_user_status_backend` checks: trims the text, requires at
 * least one value and resolves the emoji. An empty `emoji_name` clears the
 * emoji; a name without code and type is looked up (`shared/emoji`).
 * @throws JsonableError `status_text is too long (limit: 60 characters)`,
 *   `Client did not pass any new values.`, `Emoji '<name>' does not exist`,
 *   `Invalid emoji name.`, `Invalid emoji code.`, `Invalid custom emoji.`, `Invalid emoji type.`,
 *   `Client must pass emoji_name if they pass either emoji_code or reaction_type.`
 */
export async function checkStatusUpdate(update: StatusUpdate, realmEmoji: RealmEmojiLookup): Promise<CheckedStatus> {
  const statusText = update.statusText?.trim();
  if (statusText !== undefined && [...statusText].length > MAX_STATUS_TEXT_LENGTH) {
    throw new JsonableError(`status_text is too long (limit: ${MAX_STATUS_TEXT_LENGTH} characters)`);
  }
  if (update.away === undefined && statusText === undefined && update.emojiName === undefined) {
    throw new JsonableError("Client did not pass any new values.");
  }
  let emoji: CheckedStatus["emoji"];
  if (update.emojiName === "") {
    emoji = { name: "", code: "", type: "unicode_emoji" };
  } else if (update.emojiName !== undefined) {
    let code = update.emojiCode;
    let type = update.reactionType === "service_extra_emoji" ? "zulip_extra_emoji" : update.reactionType;
    if (code === undefined || type === undefined) {
      const data = await emojiDataForName(update.emojiName, realmEmoji);
      code = data.code;
      type = data.type;
    }
    await checkEmojiRequest(update.emojiName, code, type, realmEmoji);
    emoji = { name: update.emojiName, code, type: type as ReactionType };
  } else if (update.emojiCode || update.reactionType) {
    throw new JsonableError("Client must pass emoji_name if they pass either emoji_code or reaction_type.");
  }
  return { away: update.away, statusText, emoji };
}

/**
 * Zulip's `notify_user_status` part of `do_update_user_status`: the
 * `user_status` event (https://zulip.com/api/get-events#user_status) with
 * the parts that were passed, to every active user of the organization.
 */
export async function notifyUserStatus(deps: Deps, userId: number, change: CheckedStatus, audience: number[]): Promise<void> {
  const event: EventOf<"user_status"> = {
    type: "user_status",
    user_id: userId,
    ...(change.away !== undefined ? { away: change.away } : {}),
    ...(change.statusText !== undefined ? { status_text: change.statusText } : {}),
    ...(change.emoji !== undefined
      ? {
          emoji_name: change.emoji.name,
          emoji_code: change.emoji.code,
          reaction_type: change.emoji.type,
        }
      : {}),
  };
  await sendEvent(deps, event, audience);
}

/**
 * `POST /users/me/status` (https://zulip.com/api/update-status; Zulip's
 * `update_user_status_backend` and `do_update_user_status` in
 * `zerver/actions/user_status.py`): only the passed parts change. Bots and
 * guests may set their own status, as in Zulip.
 *
 * The status lives on the user's own item (`status_*` fields of
 * `UserRecord`), so register reads every status with the realm's user Query
 * it makes anyway. The deprecated `away` is the inverse of the
 * `presence_enabled` setting (feature level 148+): passing it changes that
 * setting in the same UpdateItem, and a changed setting sends the
 * `user_settings` event to the user's clients.
 *
 * Round trips: one UpdateItem, one Query of the realm's users (the audience),
 * the event fan-out.
 * @throws JsonableError see {@link checkStatusUpdate}
 */
export async function doUpdateUserStatus(deps: Deps, realm: RealmRecord, user: UserRecord, update: StatusUpdate): Promise<void> {
  const type = update.reactionType === "service_extra_emoji" ? "zulip_extra_emoji" : update.reactionType;
  const realmEmoji =
    update.emojiName !== undefined && update.emojiName !== ""
      ? await realmEmojiFor(deps, realm.id, update.emojiCode, type)
      : [];
  const change = await checkStatusUpdate(update, realmEmoji);
  const fields: Partial<UserRecord> = { status_timestamp: Math.floor(deps.clock.now() / 1000) };
  if (change.statusText !== undefined) fields.status_text = change.statusText;
  if (change.emoji !== undefined) {
    fields.status_emoji_name = change.emoji.name;
    fields.status_emoji_code = change.emoji.code;
    fields.status_reaction_type = change.emoji.type;
  }
  const setSettings: Record<string, unknown> = {};
  const removeSettings: string[] = [];
  const presenceChanged = change.away !== undefined && change.away !== isAway(user, realm);
  if (change.away !== undefined && presenceChanged) {
    const enabled = !change.away;
    if (enabled === USER_SETTING_DEFAULTS.presence_enabled) removeSettings.push("presence_enabled");
    else setSettings.presence_enabled = enabled;
  }
  if (!(await writeUsers(deps, realm.id, [{ userId: user.user_id, fields, setSettings, removeSettings }]))) {
    throw new Error("update status: the caller's user item is gone");
  }
  if (change.away !== undefined && presenceChanged) {
    await notifyUserSettingChanged(deps, user.user_id, "presence_enabled", !change.away);
  }
  const audience = activeUserIds(await listRealmMembers(deps, realm.id));
  await notifyUserStatus(deps, user.user_id, change, audience);
}
