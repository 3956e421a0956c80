import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { userToWire, type WireUser } from "../../wire/user.js";
import { allocatedMaxId } from "../../data/counters.js";

/**
 * The body of `GET /users/me` (https://zulip.com/api/get-own-user): the caller's user
 * object at top level, with `delivery_email` always (it is their own) and
 * the deprecated `max_message_id`.
 *
 * The contract's shape differs from the user object of `GET /users`:
 * `avatar_url` is always a URL (the endpoint takes no `client_gravatar`,
 * Zulip computes it server-side), and there is no `bot_type` or
 * `bot_owner_id` (the schema forbids other fields).
 */
export async function fetchOwnUser(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
): Promise<Omit<WireUser, "bot_type" | "bot_owner_id"> & { max_message_id: number }> {
  const { bot_type: _botType, bot_owner_id: _botOwnerId, ...wire } = userToWire(user, realm, user, deps.config, {
    clientGravatar: false,
    includeCustomProfileFields: true,
    withDeliveryEmail: true,
  });
  return { ...wire, max_message_id: await allocatedMaxId(deps, "message") };
}
