import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { accessBotInList } from "../../access/bot.js";
import { listRealmMembers } from "../../data/users.js";
import { withWriteRetries } from "../../data/retry.js";
import { doDeactivateUser } from "../users/deactivate-user.js";
import { doRegenerateApiKey } from "../users/regenerate-api-key.js";

/**
 * `DELETE /bots/{bot_id}` (Zulip's `deactivate_bot_backend`): the bot's
 * owner or an administrator deactivates it, with `doDeactivateUser`'s
 * events (`realm_user` `update` `{is_active: false}` to every active user,
 * `realm_bot` `update` `{is_active: false}` to its administrators). Its key
 * then fails with 401 `USER_DEACTIVATED`, on the API and on webhooks. An
 * already deactivated bot is left as it is (success, no events).
 * @throws JsonableError 400 `No such bot`, `Insufficient permission`
 */
export async function checkDeactivateBot(deps: Deps, realm: RealmRecord, caller: UserRecord, botId: number): Promise<void> {
  await withWriteRetries("deactivate bot", async () => {
    const users = await listRealmMembers(deps, realm.id, { consistent: true });
    const bot = accessBotInList(users, caller, botId);
    if (!bot.is_active) return true;
    return (await doDeactivateUser(deps, realm, bot, users, [])) || undefined;
  });
}

/**
 * `POST /bots/{bot_id}/api_key/regenerate` (Zulip's `regenerate_bot_api_key`):
 * the bot's owner or an administrator gives it a new key; the old one
 * stops working at once. Its administrators get `realm_bot` `update` `{api_key}`.
 * @returns `{api_key}`, the new key
 * @throws JsonableError 400 `No such bot`, `Insufficient permission`
 */
export async function checkRegenerateBotApiKey(
  deps: Deps,
  realm: RealmRecord,
  caller: UserRecord,
  botId: number,
): Promise<{ api_key: string }> {
  const users = await listRealmMembers(deps, realm.id, { consistent: true });
  const bot = accessBotInList(users, caller, botId);
  return { api_key: await doRegenerateApiKey(deps, realm, bot) };
}
