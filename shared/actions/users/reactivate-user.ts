import type { Deps } from "../../deps.js";
import { JsonableError } from "../../errors.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { listRealmMembers } from "../../data/users.js";
import { userConditions, writeUsers } from "../../data/user-writes.js";
import { accessUserInList } from "../../access/user.js";
import { activeUserIds, notifyRealmBotUpdates, notifyRealmUserUpdates, type RealmUserUpdatePerson } from "./notify.js";
import { withWriteRetries } from "../../data/retry.js";

/**
 * `POST /users/{user_id}/reactivate` (https://zulip.com/api/reactivate-user; Zulip's
 * `reactivate_user_backend` and `do_reactivate_user`): an administrator
 * reactivates a user or bot. A user's bots stay deactivated (as in Zulip).
 * An already active account is left as it is (success, no events).
 *
 * For a bot, as Zulip: its name must not be taken by another active account,
 * and when its owner is deactivated the reactivating administrator becomes
 * its owner (a bot of a deactivated owner could not authenticate).
 *
 * Events: `realm_user` `update` `{user_id, is_active: true}` to the active
 * users (the reactivated account included), plus `{user_id, bot_owner_id}`
 * when the owner changed; for a bot, `realm_bot` `update`
 * `{bot: {user_id, is_active: true}}` to its administrators.
 * @throws NoSuchUserError 400 `No such user`
 * @throws JsonableError 400 `Insufficient permission`, or for a bot
 *   `There is already an active bot named "<name>" in this organization. …`
 */
export async function checkReactivateUser(
  deps: Deps,
  realm: RealmRecord,
  caller: UserRecord,
  userId: number,
): Promise<void> {
  await withWriteRetries("reactivate user", async () => {
    const users = await listRealmMembers(deps, realm.id, { consistent: true });
    const target = accessUserInList(users, caller, userId, {
      allowDeactivated: true,
      allowBots: true,
      forAdmin: true,
    });
    if (target.is_active) return true;
    const fields: Partial<UserRecord> = { is_active: true };
    let newOwnerId: number | undefined;
    if (target.is_bot) {
      const name = target.full_name.trim();
      if (users.some((u) => u.is_active && u.full_name.trim() === name)) {
        throw new JsonableError(
          `There is already an active bot named "${target.full_name}" in this organization. To reactivate this bot, you must rename or deactivate the other one first.`,
        );
      }
      const owner = users.find((u) => u.user_id === target.bot_owner_id);
      if (owner && !owner.is_active) {
        newOwnerId = caller.user_id;
        fields.bot_owner_id = newOwnerId;
      }
    }
    const written = await writeUsers(deps, realm.id, [
      { userId: target.user_id, fields, condition: userConditions.inactive() },
    ]);
    if (!written) return undefined;

    const reactivated = { ...target, ...fields };
    const after = users.map((u) => (u.user_id === target.user_id ? reactivated : u));
    const persons: RealmUserUpdatePerson[] = [{ user_id: target.user_id, is_active: true }];
    if (newOwnerId !== undefined) persons.push({ user_id: target.user_id, bot_owner_id: newOwnerId });
    await notifyRealmUserUpdates(deps, persons, activeUserIds(after));
    if (target.is_bot) await notifyRealmBotUpdates(deps, reactivated, [{ is_active: true }], after);
    return true;
  });
}
