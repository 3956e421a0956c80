import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { ensureSystemBot } from "./notification-bot.js";

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
  return ensureSystemBot(deps, realm, EMAIL_GATEWAY_BOT_EMAIL, EMAIL_GATEWAY_BOT_NAME);
}
