import type { Deps } from "../../deps.js";
import { HumanUsersOnlyError } from "../../errors.js";
import type { PresenceRecord } from "../../data/records/presence.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { recordPresencePing } from "../../data/presence.js";

import { listRealmMembers } from "../../data/users.js";
import { apiEmail } from "../../domain/email.js";
import { realmSettings } from "../../domain/realm-settings.js";
import { effectiveUserSettings } from "../../domain/user-settings.js";
import { sendEvent } from "../../events/publish.js";
import { PRESENCE_OFFLINE_THRESHOLD_SECONDS, PRESENCE_PING_INTERVAL_SECONDS } from "../../queries/register/realm.js";
import { presenceEventValue } from "../../wire/presence.js";

/** A ping changes the stored presence at most this often (Zulip's PRESENCE_UPDATE_MIN_FREQ_SECONDS). */
export const PRESENCE_UPDATE_MIN_FREQ_SECONDS = 55;

/**
 * Organizations with more active users than this get no `presence` events
 * (Zulip's USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS): the events grow
 * quadratically with the organization; clients poll presence every minute anyway.
 */
export const USER_LIMIT_FOR_PRESENCE_EVENTS = 100;

/**
 * A user counts as newly online when their last active ping is older than
 * this (Zulip: offline threshold − ping interval − 10 s).
 */
const NEWLY_ONLINE_AFTER_SECONDS = PRESENCE_OFFLINE_THRESHOLD_SECONDS - PRESENCE_PING_INTERVAL_SECONDS - 10;

/**
 * Records a presence ping (Zulip's `do_update_user_presence`) and, when the
 * user just appeared (first ping ever) or came back online with an
 * `active` ping, tells the organization with a `presence` event.
 *
 * Preconditions: `status` is valid. Nothing is recorded for a user who
 * turned `presence_enabled` off (invisible mode). Bots have no presence
 * (Zulip's `human_users_only` on this endpoint).
 *
 * Cost: one conditional UpdateItem (skipped by DynamoDB when the stored
 * presence is under {@link PRESENCE_UPDATE_MIN_FREQ_SECONDS} old, so
 * several open clients cost one write a minute); only when an event is due
 * (rare), one Query of the realm's users and the event fan-out, and not at
 * all above {@link USER_LIMIT_FOR_PRESENCE_EVENTS} active users.
 * @throws HumanUsersOnlyError 400 `This endpoint does not accept bot requests.`
 */
export async function doUpdateUserPresence(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  status: "active" | "idle",
): Promise<void> {
  if (user.is_bot) throw new HumanUsersOnlyError();
  const settings = effectiveUserSettings(user.settings ?? {});
  if (settings.presence_enabled === false) return;
  const nowMs = deps.clock.now();
  const nowSeconds = Math.floor(nowMs / 1000);
  const before = await recordPresencePing(
    deps,
    realm.id,
    user,
    status === "active",
    nowSeconds,
    nowMs,
    PRESENCE_UPDATE_MIN_FREQ_SECONDS,
  );
  if (before === "unchanged") return;
  const created = before === undefined;
  const lastActive = before?.last_active_time;
  const becameOnline =
    status === "active" && (lastActive === undefined || nowSeconds - lastActive > NEWLY_ONLINE_AFTER_SECONDS);
  if (!(created || becameOnline) || realmSettings(realm).presence_disabled === true) return;

  const audience = (await listRealmMembers(deps, realm.id)).filter((u) => u.is_active).map((u) => u.user_id);
  if (audience.length > USER_LIMIT_FOR_PRESENCE_EVENTS) return;
  const after: PresenceRecord = {
    realm_id: realm.id,
    user_id: user.user_id,
    is_bot: user.is_bot,
    date_joined: user.date_joined,
    last_connected_time: nowSeconds,
    last_active_time: status === "active" ? nowSeconds : before?.last_active_time,
    last_update_id: nowMs,
  };
  await notifyPresence(deps, realm, user, after, audience);
}

/**
 * Sends a `presence` event (https://zulip.com/api/get-events#presence;
 * Zulip's `send_presence_changed`) for a presence just written: the
 * legacy `website` pseudo-client, the user's API email (dropped on
 * delivery for `slim_presence` queues) and `server_timestamp` in UNIX
 * seconds with milliseconds as the fraction (the record's `last_update_id`).
 */
export async function notifyPresence(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  presence: PresenceRecord,
  audience: number[],
): Promise<void> {
  await sendEvent(
    deps,
    {
      type: "presence",
      email: apiEmail(user, realm, deps.config),
      user_id: user.user_id,
      server_timestamp: presence.last_update_id / 1000,
      presence: presenceEventValue(presence),
    },
    audience,
  );
}
