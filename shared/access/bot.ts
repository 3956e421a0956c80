import { InsufficientPermissionError, JsonableError } from "../errors.js";
import type { UserRecord } from "../data/records/user.js";

import { isRealmAdmin } from "../domain/roles.js";

/**
 * Whether `caller` may administer `bot` (Zulip's `UserProfile.can_admin_user`
 * for a bot): its owner, or an organization administrator.
 */
export function canAdministerBot(caller: UserRecord, bot: UserRecord): boolean {
  return bot.bot_owner_id === caller.user_id || isRealmAdmin(caller);
}

/**
 * Zulip's `access_bot_by_id` on a realm's user list an action has already
 * read: the bot (active or not) that the caller may administer.
 * @throws JsonableError 400 `No such bot` for an unknown ID or a human
 * @throws InsufficientPermissionError 400 `Insufficient permission` for anyone but its owner or an administrator
 */
export function accessBotInList(users: UserRecord[], caller: UserRecord, botId: number): UserRecord {
  const bot = users.find((u) => u.user_id === botId);
  if (!bot || !bot.is_bot) throw new JsonableError("No such bot");
  if (!canAdministerBot(caller, bot)) throw new InsufficientPermissionError();
  return bot;
}
