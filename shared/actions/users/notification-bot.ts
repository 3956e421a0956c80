import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { userById, getUserIdByEmail } from "../../data/users.js";
import { BotType } from "../../domain/roles.js";
import { doCreateUser } from "./create-user.js";

/**
 * The organization's Notification Bot (Zulip's `NOTIFICATION_BOT` system
 * bot), which posts topic-move and resolution notices.
 *
 * Zulip keeps system bots in its internal realm; here each organization
 * gets its own record (so message senders resolve in the realm's
 * partition), marked `is_system_bot`: listed in `POST /register`'s
 * `cross_realm_bots`, never among the realm's users (see `isSystemBot`).
 */

/** The bot's email within each realm (Zulip's system-bot address; one of `SYSTEM_BOT_EMAILS`). */
export const NOTIFICATION_BOT_EMAIL = "notification-bot@zulip.com";
/** The bot's full name (Zulip's). */
export const NOTIFICATION_BOT_NAME = "Notification Bot";

/**
 * The realm's Notification Bot, created on first use as a system bot
 * (no `realm_user` event: clients learn of it from `cross_realm_bots`).
 * Safe under concurrency: a losing creator finds the winner's user by
 * email. Cost: two GetItems when it exists.
 */
export async function ensureNotificationBot(deps: Deps, realm: RealmRecord): Promise<UserRecord> {
  return ensureSystemBot(deps, realm, NOTIFICATION_BOT_EMAIL, NOTIFICATION_BOT_NAME);
}

/**
 * A realm's system bot of this email, created on first use (no `realm_user`
 * event). Safe under concurrency: a losing creator finds the winner's user
 * by email. Cost: two GetItems when it exists.
 */
export async function ensureSystemBot(deps: Deps, realm: RealmRecord, email: string, fullName: string): Promise<UserRecord> {
  const find = async () => {
    const id = await getUserIdByEmail(deps, realm.id, email);
    return id === undefined ? undefined : userById(deps, realm.id, id);
  };
  const existing = await find();
  if (existing) return existing;
  try {
    return await doCreateUser(deps, realm, {
      email,
      full_name: fullName,
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

/**
 * The realm's Notification Bot user ID, without creating the bot
 * (undefined while it has never posted). Cost: one GetItem.
 */
export async function notificationBotId(deps: Deps, realm: RealmRecord): Promise<number | undefined> {
  return getUserIdByEmail(deps, realm.id, NOTIFICATION_BOT_EMAIL);
}
