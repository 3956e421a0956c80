import type { Deps } from "../../deps.js";
import type { UserRecord } from "../../data/records/user.js";

import { isRealmAdmin } from "../../domain/roles.js";
import { sendEvent } from "../../events/publish.js";

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
 * Sends one `realm_user` `update` event per `person` form (spec "Events":
 * `realm_user` person forms; one event per changed property, as Zulip does)
 * to `audience`. Call only after the change is stored.
 * @param persons e.g. `[{user_id, full_name}, {user_id, role}]`
 */
export async function notifyRealmUserUpdates(
  deps: Deps,
  persons: Record<string, unknown>[],
  audience: number[],
): Promise<void> {
  for (const person of persons) {
    await sendEvent(deps, { type: "realm_user", op: "update", person }, audience);
  }
}

/**
 * Sends `realm_bot` `update` events (`bot: {user_id, <property>}`) to the
 * bot's administrators. Call only after the change is stored.
 */
export async function notifyRealmBotUpdates(
  deps: Deps,
  bot: UserRecord,
  changes: Record<string, unknown>[],
  users: UserRecord[],
): Promise<void> {
  const audience = botAdministratorIds(bot, users);
  for (const change of changes) {
    await sendEvent(deps, { type: "realm_bot", op: "update", bot: { user_id: bot.user_id, ...change } }, audience);
  }
}
