import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { userById, getUserIdByEmail } from "../../data/users.js";
import { BotType } from "../../domain/roles.js";
import { doCreateUser } from "./create-user.js";

/** The Email Gateway bot's email within each realm (Zulip's `EMAIL_GATEWAY_BOT` system bot). */
export const EMAIL_GATEWAY_BOT_EMAIL = "emailgateway@zulip.com";
/** The bot's full name (Zulip's). */
export const EMAIL_GATEWAY_BOT_NAME = "Email Gateway";

/**
 * The realm's Email Gateway bot, which posts the emails sent to a
 * stream's address (Zulip at feature level 283 posts them as this system
 * bot), created on first use as a system bot like the Notification Bot
 * (`notification-bot.ts`): listed in `cross_realm_bots`, never among the
 * realm's users. Safe under concurrency: a losing creator finds the
 * winner's user by email. Cost: two GetItems when it exists.
 */
export async function ensureEmailGatewayBot(deps: Deps, realm: RealmRecord): Promise<UserRecord> {
  const find = async () => {
    const id = await getUserIdByEmail(deps, realm.id, EMAIL_GATEWAY_BOT_EMAIL);
    return id === undefined ? undefined : userById(deps, realm.id, id);
  };
  const existing = await find();
  if (existing) return existing;
  try {
    return await doCreateUser(deps, realm, {
      email: EMAIL_GATEWAY_BOT_EMAIL,
      full_name: EMAIL_GATEWAY_BOT_NAME,
      is_bot: true,
      bot_type: BotType.DEFAULT,
      bot_owner_id: null,
      is_system_bot: true,
    });
  } catch (err) {
    const raced = await find();
    if (raced) return raced;
    throw err;
  }
}
