import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/realms.js";
import type { UserRecord } from "../../data/users.js";
import { userToWire } from "../../wire/user.js";
import { allocatedMaxId } from "../../data/counters.js";

/**
 * The body of `GET /users/me`: the caller's user object at top level, with
 * `delivery_email` always (it is their own) and the deprecated `max_message_id`.
 */
export async function getOwnUser(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  clientGravatar: boolean,
): Promise<Record<string, unknown>> {
  return {
    ...userToWire(user, realm, user, deps.config, {
      clientGravatar,
      includeCustomProfileFields: true,
      withDeliveryEmail: true,
    }),
    max_message_id: await allocatedMaxId(deps, "message"),
  };
}
