import type { Deps } from "../../deps.js";
import { getPresence } from "../../data/presence.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { JsonableError } from "../../errors.js";
import { PRESENCE_OFFLINE_THRESHOLD_SECONDS } from "../../queries/register/realm.js";
import { accessUserByIdOrEmail } from "../../access/user.js";
import { legacyPresence } from "../../wire/presence.js";

/**
 * `GET /users/{user_id_or_email}/presence` (OpenAPI `get-user-presence`;
 * Zulip's `get_presence_backend`): one user's presence as
 * `{website: {status, timestamp}, aggregated: {status, timestamp}}`, the
 * aggregated status `offline` when older than the offline threshold.
 * Two reads (the user, then the presence item).
 * @throws NoSuchUserError `No such user`
 * @throws JsonableError `Presence is not supported for bot users.`,
 *   `No presence data for <user_id_or_email>`
 */
export async function getUserPresence(
  deps: Deps,
  realm: RealmRecord,
  caller: UserRecord,
  idOrEmail: string,
): Promise<{ presence: Record<string, Record<string, unknown>> }> {
  const target = await accessUserByIdOrEmail(deps, realm, caller, idOrEmail, {
    allowDeactivated: true,
    allowBots: true,
    forAdmin: false,
  });
  if (target.is_bot) throw new JsonableError("Presence is not supported for bot users.");
  const row = await getPresence(deps, realm.id, target.user_id);
  if (!row) throw new JsonableError(`No presence data for ${idOrEmail}`);
  const nowSeconds = Math.floor(deps.clock.now() / 1000);
  const presence = legacyPresence(row, nowSeconds);
  for (const value of Object.values(presence)) {
    delete value.client;
    delete value.pushable;
  }
  if (nowSeconds - Number(presence.aggregated!.timestamp) > PRESENCE_OFFLINE_THRESHOLD_SECONDS) {
    presence.aggregated!.status = "offline";
  }
  return { presence };
}
