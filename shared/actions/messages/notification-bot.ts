import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserRecord } from "../../data/records/user.js";

import { listStreamSubscriberIds } from "../../data/subscriptions.js";
import { userById, getUserIdByEmail } from "../../data/users.js";
import { realmUrl } from "../../domain/email.js";
import { BotType } from "../../domain/roles.js";
import { renderMarkdown } from "../../markdown/index.js";
import { allocateIds } from "../../data/counters.js";
import { doCreateUser } from "../users/create-user.js";
import { doSendMessage, INLINE_RECIPIENT_LIMIT } from "./do-send-message.js";

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
  const find = async () => {
    const id = await getUserIdByEmail(deps, realm.id, NOTIFICATION_BOT_EMAIL);
    return id === undefined ? undefined : userById(deps, realm.id, id);
  };
  const existing = await find();
  if (existing) return existing;
  try {
    return await doCreateUser(deps, realm, {
      email: NOTIFICATION_BOT_EMAIL,
      full_name: NOTIFICATION_BOT_NAME,
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

/**
 * Posts a notice as the Notification Bot to a stream topic, skipping the
 * stream's posting checks (Zulip's `internal_send_stream_message`). The
 * content may mention `refs.users` silently and link `refs.streams`.
 *
 * `options.limitUnreadUserIds` is Zulip's `limit_unread_user_ids`: every
 * recipient outside the set gets the notice already read (resolution
 * notices: unread only for the topic's participants). Large streams get
 * it through the `expand_stream_message` job's payload.
 *
 * @returns the notice's message ID
 */
export async function sendNotice(
  deps: Deps,
  realm: RealmRecord,
  stream: StreamRecord,
  topic: string,
  content: string,
  refs: { users: UserRecord[]; streams: StreamRecord[] },
  options: { limitUnreadUserIds?: ReadonlySet<number> } = {},
): Promise<number> {
  const [bot, subscriberIds] = await Promise.all([
    ensureNotificationBot(deps, realm),
    listStreamSubscriberIds(deps, stream.stream_id, INLINE_RECIPIENT_LIMIT + 1),
  ]);
  const rendered = renderMarkdown(content, {
    users: refs.users.map((u) => ({ id: u.user_id, full_name: u.full_name, email: u.delivery_email, is_active: u.is_active })),
    groups: [],
    streams: refs.streams.map((s) => ({ id: s.stream_id, name: s.name })),
    realmEmoji: [],
    realmUrl: realmUrl(realm, deps.config),
    realmId: realm.id,
  });
  const id = await allocateIds(deps, "message");
  await doSendMessage(deps, realm, bot, {
    id,
    addressee: {
      kind: "stream",
      stream,
      // As for any sender: a large stream's rows come from the expand job.
      subscriberIds: subscriberIds.length > INLINE_RECIPIENT_LIMIT ? undefined : new Set(subscriberIds),
      senderSubscribed: false,
    },
    topic,
    content,
    rendered,
    clientName: "Internal",
    senderReads: false,
    limitUnreadUserIds: options.limitUnreadUserIds,
  });
  return id;
}
