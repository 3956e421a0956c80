import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import { listActiveRealmUsers } from "../../data/users.js";
import { isRealmAdmin } from "../../domain/roles.js";
import { sendEvent } from "../../events/publish.js";

/**
 * Sends `invites_changed` (https://zulip.com/api/get-events#invites_changed;
 * Zulip's `notify_invites_changed`) to the realm's active human
 * administrators and to the referrers of the invitations that changed, so
 * their clients fetch `GET /invites` again. One Query of the realm's users.
 * @param referrerIds the users who created the changed invitations
 */
export async function notifyInvitesChanged(deps: Deps, realm: RealmRecord, referrerIds: number[]): Promise<void> {
  const users = await listActiveRealmUsers(deps, realm.id);
  const active = new Set(users.map((u) => u.user_id));
  const audience = new Set(users.filter((u) => !u.is_bot && isRealmAdmin(u)).map((u) => u.user_id));
  for (const id of referrerIds) if (active.has(id)) audience.add(id);
  if (audience.size === 0) return;
  await sendEvent(deps, { type: "invites_changed" }, [...audience]);
}
