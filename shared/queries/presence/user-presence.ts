import type { Deps } from "../../deps.js";
import { getPresence } from "../../data/presence.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { JsonableError } from "../../errors.js";
import { PRESENCE_OFFLINE_THRESHOLD_SECONDS } from "../register/realm.js";
import { accessUserByIdOrEmail } from "../../access/user.js";
import { legacyPresence } from "../../wire/presence.js";

/** One user's presence as `GET /users/{user_id_or_email}/presence` answers it; timestamps in UNIX seconds. */
export interface UserPresence {
  aggregated: { status: "active" | "idle" | "offline"; timestamp: number };
  website: { status: "active" | "idle"; timestamp: number };
}

/**
 * `GET /users/{user_id_or_email}/presence`
 * (https://zulip.com/api/get-user-presence; Zulip's `get_presence_backend`):
 * one user's presence as `{aggregated: {status, timestamp}, website:
 * {status, timestamp}}`, the aggregated status `offline` when older than
 * the offline threshold. Two reads (the user, then the presence item).
 * @throws NoSuchUserError `No such user`
 * @throws JsonableError `Presence is not supported for bot users.`,
 *   `No presence data for <user_id_or_email>`
 */
export async function fetchUserPresence(
  deps: Deps,
  realm: RealmRecord,
  caller: UserRecord,
  idOrEmail: string,
): Promise<{ presence: UserPresence }> {
  const target = await accessUserByIdOrEmail(deps, realm, caller, idOrEmail, {
    allowDeactivated: true,
    allowBots: true,
    forAdmin: false,
  });
  if (target.is_bot) throw new JsonableError("Presence is not supported for bot users.");
  const row = await getPresence(deps, realm.id, target.user_id);
  if (!row) throw new JsonableError(`No presence data for ${idOrEmail}`);
  const nowSeconds = Math.floor(deps.clock.now() / 1000);
  // The legacy format without `client` and `pushable`, which Zulip's `get_presence_backend` removes.
  const { aggregated, website } = legacyPresence(row, nowSeconds);
  const offline = nowSeconds - aggregated.timestamp > PRESENCE_OFFLINE_THRESHOLD_SECONDS;
  return {
    presence: {
      aggregated: { status: offline ? "offline" : aggregated.status, timestamp: aggregated.timestamp },
      website: { status: website.status, timestamp: website.timestamp },
    },
  };
}
