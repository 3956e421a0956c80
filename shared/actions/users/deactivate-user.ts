import type { Deps } from "../../deps.js";
import { JsonableError, OrganizationOwnerRequiredError } from "../../errors.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { deleteUserSessionItems } from "../../data/sessions.js";
import { listRealmMembers } from "../../data/users.js";
import { MAX_TRANSACTION_ITEMS, userConditions, writeUsers, type UserCondition, type UserWrite } from "../../data/user-writes.js";
import { isRealmOwner, Role } from "../../domain/roles.js";
import { accessUserInList } from "../../access/user.js";
import { activeUserIds, notifyRealmBotUpdates, notifyRealmUserUpdates } from "./notify.js";
import { lastOwnerGuard } from "./owners.js";
import { withWriteRetries } from "../../data/retry.js";

/**
 * 400 `CANNOT_DEACTIVATE_LAST_USER` of `DELETE /users/me` (OpenAPI
 * `deactivate-own-user`), with `entity` and `is_last_owner`. The message is
 * the OpenAPI example's (Zulip's source adds a final period).
 */
export class CannotDeactivateLastUserError extends JsonableError {
  constructor(isLastOwner: boolean) {
    const entity = isLastOwner ? "organization owner" : "user";
    super(`Cannot deactivate the only ${entity}`, {
      code: "CANNOT_DEACTIVATE_LAST_USER",
      data: { entity, is_last_owner: isLastOwner },
    });
  }
}

type Check = { userId: number; condition: UserCondition };

/**
 * Deactivates a user together with the active bots they own (Zulip's
 * `do_deactivate_user`, which cascades to the bots first), then announces it.
 *
 * Preconditions: the caller checked permissions and the owner rules; `users`
 * is the realm's user list read for that decision, and `checks` are the
 * guards those rules need (see `owners.ts`).
 *
 * Writes: one transaction with the user, their bots and the guards (bots in
 * earlier transactions of up to {@link MAX_TRANSACTION_ITEMS} when there are
 * very many; a partial cascade only ever deactivates bots, as in Zulip).
 * Events, at feature level 283: a `realm_user` `update`
 * `{user_id, is_active: false}` per deactivated account to the remaining
 * active users (no more `realm_user` `remove`, since feature level 222), and
 * a `realm_bot` `update` `{bot: {user_id, is_active: false}}` per bot to
 * those who administer it. The deactivated account's API key then fails
 * with 401 "Account is deactivated" (see `shared/auth/authenticate.ts`), and
 * the user's browser sessions are deleted (one Query and BatchWriteItem).
 * A human's mobile devices are deleted and unregistered at the push
 * notification service by a `push_unregister_all` job (one SendMessageBatch).
 * @returns false when a condition failed (someone changed the data; nothing
 *   or only some bots were written); the caller re-reads and decides again
 */
export async function doDeactivateUser(
  deps: Deps,
  realm: RealmRecord,
  target: UserRecord,
  users: UserRecord[],
  checks: Check[],
): Promise<boolean> {
  const bots = users.filter((u) => u.is_bot && u.is_active && u.bot_owner_id === target.user_id && u.user_id !== target.user_id);
  const botWrites: UserWrite[] = bots.map((b) => ({
    userId: b.user_id,
    fields: { is_active: false },
    condition: userConditions.active(),
  }));
  const targetWrite: UserWrite = {
    userId: target.user_id,
    fields: { is_active: false },
    condition: userConditions.unchanged(target),
  };
  const room = MAX_TRANSACTION_ITEMS - 1 - checks.length;
  const inFinal = botWrites.slice(0, Math.max(0, room));
  for (let i = inFinal.length; i < botWrites.length; i += MAX_TRANSACTION_ITEMS) {
    if (!(await writeUsers(deps, realm.id, botWrites.slice(i, i + MAX_TRANSACTION_ITEMS)))) return false;
  }
  if (!(await writeUsers(deps, realm.id, [...inFinal, targetWrite], checks))) return false;

  // Zulip's `do_deactivate_user` deletes the user's sessions: the browser is logged out at its next request.
  await deleteUserSessionItems(deps, realm.id, target.user_id);
  // ... and their mobile devices (`clear_push_device_tokens`, deferred: the push notification service is
  // called by the worker, `shared/actions/push/devices.ts`). Bots register no devices.
  if (!target.is_bot) await deps.deferred.enqueue([{ kind: "push_unregister_all", payload: { realm_id: realm.id, user_id: target.user_id } }]);

  const gone = new Set([target.user_id, ...bots.map((b) => b.user_id)]);
  const after = users.map((u) => (gone.has(u.user_id) ? { ...u, is_active: false } : u));
  const audience = activeUserIds(after);
  for (const account of [...bots, target]) {
    await notifyRealmUserUpdates(deps, [{ user_id: account.user_id, is_active: false }], audience);
    if (account.is_bot) await notifyRealmBotUpdates(deps, account, [{ is_active: false }], after);
  }
  return true;
}

/**
 * `DELETE /users/{user_id}` (https://zulip.com/api/deactivate-user; Zulip's
 * `deactivate_user_backend`): an administrator deactivates a user. Bots are
 * not reachable here (`No such user`, they have `DELETE /bots/{bot_id}`);
 * only owners may deactivate an owner; the only owner cannot be deactivated.
 * @throws NoSuchUserError 400 `No such user` (unknown ID, or a bot)
 * @throws JsonableError 400 `User is deactivated`, `Insufficient permission`,
 *   `Cannot deactivate the only organization owner`
 * @throws OrganizationOwnerRequiredError 400 `Must be an organization owner`
 */
export async function checkDeactivateUser(
  deps: Deps,
  realm: RealmRecord,
  caller: UserRecord,
  userId: number,
): Promise<void> {
  await withWriteRetries("deactivate user", async () => {
    const users = await listRealmMembers(deps, realm.id, { consistent: true });
    const target = accessUserInList(users, caller, userId, {
      allowDeactivated: false,
      allowBots: false,
      forAdmin: true,
    });
    if (target.role === Role.OWNER && !isRealmOwner(caller)) throw new OrganizationOwnerRequiredError();
    const guard = lastOwnerGuard(users, target);
    if (guard === null) throw new JsonableError("Cannot deactivate the only organization owner");
    return (await doDeactivateUser(deps, realm, target, users, guard.check ? [guard.check] : [])) || undefined;
  });
}

/**
 * `DELETE /users/me` (https://zulip.com/api/deactivate-own-user): the caller deactivates
 * their own account (and their bots). Refused for the only active user and
 * the only owner, with `CANNOT_DEACTIVATE_LAST_USER`.
 *
 * "The only user" ignores the caller's own bots, which go with them (Zulip
 * counts them, so a user whose only company is their bots could leave an
 * organization with no active account at all).
 * @throws CannotDeactivateLastUserError 400 (`is_last_owner` false, then true, in Zulip's order)
 */
export async function checkDeactivateOwnUser(deps: Deps, realm: RealmRecord, caller: UserRecord): Promise<void> {
  await withWriteRetries("deactivate own user", async () => {
    const users = await listRealmMembers(deps, realm.id, { consistent: true });
    const me = users.find((u) => u.user_id === caller.user_id) ?? caller;
    const someoneElse = users.find(
      (u) => u.is_active && u.user_id !== me.user_id && !(u.is_bot && u.bot_owner_id === me.user_id),
    );
    if (!someoneElse) throw new CannotDeactivateLastUserError(false);
    const guard = lastOwnerGuard(users, me);
    if (guard === null) throw new CannotDeactivateLastUserError(true);
    // The owner guard already proves another active account exists; one check per item only.
    const check = guard.check ?? { userId: someoneElse.user_id, condition: userConditions.active() };
    return (await doDeactivateUser(deps, realm, me, users, [check])) || undefined;
  });
}
