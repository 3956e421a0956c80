import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { isRealmAdmin } from "../../domain/roles.js";
import { sendEvent } from "../../events/publish.js";
import type { EventOf } from "../../events/types.js";
import { userToWire } from "../../wire/user.js";

/** One `person` form of a `realm_user` `update` event: `user_id` and the changed property. */
export type RealmUserUpdatePerson = EventOf<"realm_user/update">["person"];

/** The changed properties of a `realm_bot` `update` event's `bot` (its `user_id` aside). */
export type RealmBotChange = Omit<EventOf<"realm_bot/update">["bot"], "user_id">;

/** A personal setting's value as `user_settings` events carry it. */
export type UserSettingValue = EventOf<"user_settings/update">["value"];

/** IDs of the active users (humans and bots) of a realm's user list: Zulip's `active_user_ids`. */
export function activeUserIds(users: UserRecord[]): number[] {
  return users.filter((u) => u.is_active).map((u) => u.user_id);
}

/**
 * Who hears about changes to a bot's administrative data (Zulip's
 * `bot_owner_user_ids` for a non-private bot): the realm's active human
 * administrators and the bot's owner, if active.
 */
export function botAdministratorIds(bot: UserRecord, users: UserRecord[]): number[] {
  const ids = new Set(users.filter((u) => u.is_active && !u.is_bot && isRealmAdmin(u)).map((u) => u.user_id));
  const owner = users.find((u) => u.user_id === bot.bot_owner_id);
  if (owner?.is_active) ids.add(owner.user_id);
  return [...ids];
}

/**
 * Sends a `realm_user` `add` event (https://zulip.com/api/get-events#realm_user-add;
 * Zulip's `notify_created_user`) for a new account to `audience`: the
 * user object without `delivery_email` (no particular viewer), with the
 * custom profile fields and a server-computed `avatar_url` (queues with
 * `client_gravatar` get it nulled on delivery where they can compute it).
 * Call only after the account is stored.
 */
export async function notifyRealmUserAdd(deps: Deps, realm: RealmRecord, user: UserRecord, audience: number[]): Promise<void> {
  await sendEvent(
    deps,
    {
      type: "realm_user",
      op: "add",
      person: userToWire(user, realm, null, deps.config, { clientGravatar: false, includeCustomProfileFields: true }),
    },
    audience,
  );
}

/**
 * Sends one `realm_user` `update` event per `person` form
 * (https://zulip.com/api/get-events#realm_user-update; one event per
 * changed property, as Zulip's `send_user_update_events` does) to
 * `audience`, in order. Call only after the change is stored.
 * @param persons e.g. `[{user_id, full_name}, {user_id, role}]`
 */
export async function notifyRealmUserUpdates(
  deps: Deps,
  persons: RealmUserUpdatePerson[],
  audience: number[],
): Promise<void> {
  for (const person of persons) {
    await sendEvent(deps, { type: "realm_user", op: "update", person }, audience);
  }
}

/**
 * Sends `realm_bot` `update` events (`bot: {user_id, <property>}`,
 * https://zulip.com/api/get-events#realm_bot-update), one per change in
 * order, to the bot's administrators ({@link botAdministratorIds}). Call
 * only after the change is stored.
 * @param users the realm's user list (for the administrators)
 */
export async function notifyRealmBotUpdates(
  deps: Deps,
  bot: UserRecord,
  changes: RealmBotChange[],
  users: UserRecord[],
): Promise<void> {
  const audience = botAdministratorIds(bot, users);
  for (const change of changes) {
    await sendEvent(deps, { type: "realm_bot", op: "update", bot: { user_id: bot.user_id, ...change } }, audience);
  }
}

/**
 * Sends a `user_settings` `update` event
 * (https://zulip.com/api/get-events#user_settings-update; Zulip's
 * `do_change_user_setting`) to the user whose setting changed. Queues of
 * clients without `user_settings_object` get the legacy
 * `update_display_settings` / `update_global_notifications` form on
 * delivery (`shared/events/delivery.ts`).
 * @param languageName for `default_language`: the language's name
 */
export async function notifyUserSettingChanged(
  deps: Deps,
  userId: number,
  property: string,
  value: UserSettingValue,
  languageName?: string,
): Promise<void> {
  await sendEvent(
    deps,
    {
      type: "user_settings",
      op: "update",
      property,
      value,
      ...(languageName !== undefined ? { language_name: languageName } : {}),
    },
    [userId],
  );
}
