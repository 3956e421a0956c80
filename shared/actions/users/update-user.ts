import type { Deps } from "../../deps.js";
import { JsonableError, OrganizationOwnerRequiredError } from "../../errors.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { listRealmMembers } from "../../data/users.js";
import { userConditions, writeUsers } from "../../data/user-writes.js";
import { userUnchangedWithProfile } from "../../data/profile-fields.js";
import { isRealmAdmin, isRealmOwner, Role } from "../../domain/roles.js";
import { customProfileFieldsById } from "../../queries/users/custom-profile-fields.js";
import { accessUserInList } from "../../access/user.js";
import { wireRole } from "../../wire/user.js";
import { activeUserIds, notifyRealmBotUpdates, notifyRealmUserUpdates, type RealmUserUpdatePerson } from "./notify.js";
import { lastOwnerGuard } from "./owners.js";
import { withWriteRetries } from "../../data/retry.js";
import { checkFullName } from "./validation.js";
import { checkProfileDataChanges, type ProfileDataEntry } from "./profile-data.js";

/** The changes `PATCH /users/{user_id}` may ask for; absent means unchanged. */
export interface UserUpdate {
  full_name?: string;
  role?: number;
  profile_data?: ProfileDataEntry[];
}

/**
 * `PATCH /users/{user_id}` (https://zulip.com/api/update-user; Zulip's
 * `update_user_backend`): an administrator changes another user's (or
 * bot's, or their own) name, role or custom profile field values.
 *
 * Everything is validated before anything is written, and all changes go in
 * one conditional write on the role and active state that were read, so a
 * refused or raced request changes nothing (Zulip validates and writes one
 * property after the other). Role rules (Zulip's `update_user_backend`
 * and https://zulip.com/help/user-roles): only owners add or remove the
 * owner role; the owner role cannot be removed from the only owner
 * (race-free, see `owners.ts`); a guest cannot be made an administrator or
 * owner directly (`BAD_REQUEST` `Guests cannot be organization
 * administrators`: demote them to member or moderator first). A blank `full_name` is ignored, as Zulip does.
 *
 * Emits one `realm_user` `update` per changed property (`{user_id, role}`,
 * `{user_id, full_name}`, `{user_id, custom_profile_field}`) to the realm's
 * active users; a renamed bot's administrators also get `realm_bot`
 * `update` `{bot: {user_id, full_name}}`. Round trips: one Query of the realm's users (strongly
 * consistent), one write, then the event writes.
 * @throws NoSuchUserError 400 `No such user`
 * @throws InsufficientPermissionError 400 for a caller who is not an administrator
 * @throws OrganizationOwnerRequiredError 400 `Must be an organization owner`
 * @throws JsonableError 400 `The owner permission cannot be removed from the only organization owner.`,
 *   `Guests cannot be organization administrators`, the name errors of `checkFullName`,
 *   the value errors of `checkProfileDataChanges` (`Field id <id> not found.`, …)
 */
export async function checkUpdateUser(
  deps: Deps,
  realm: RealmRecord,
  caller: UserRecord,
  userId: number,
  update: UserUpdate,
): Promise<void> {
  const profileFields =
    update.profile_data !== undefined ? await customProfileFieldsById(deps, realm.id) : new Map();
  await withWriteRetries("update user", async () => {
    const users = await listRealmMembers(deps, realm.id, { consistent: true });
    const target = accessUserInList(users, caller, userId, {
      allowDeactivated: true,
      allowBots: true,
      forAdmin: true,
    });
    const fields: Partial<UserRecord> = {};
    const persons: RealmUserUpdatePerson[] = [];
    const checks: Parameters<typeof writeUsers>[3] = [];

    if (update.role !== undefined && update.role !== target.role) {
      if ((update.role === Role.OWNER || target.role === Role.OWNER) && !isRealmOwner(caller)) {
        throw new OrganizationOwnerRequiredError();
      }
      if (target.role === Role.GUEST && isRealmAdmin({ role: update.role })) {
        throw new JsonableError("Guests cannot be organization administrators");
      }
      const guard = lastOwnerGuard(users, target);
      if (guard === null) {
        throw new JsonableError("The owner permission cannot be removed from the only organization owner.");
      }
      if (guard.check) checks.push(guard.check);
      fields.role = update.role;
      persons.push({ user_id: target.user_id, role: wireRole(update.role) });
    }

    if (update.full_name !== undefined && update.full_name !== target.full_name && update.full_name.trim() !== "") {
      const name = checkFullName(update.full_name);
      if (name !== target.full_name) {
        fields.full_name = name;
        persons.push({ user_id: target.user_id, full_name: name });
      }
    }

    if (update.profile_data !== undefined) {
      const changes = await checkProfileDataChanges(
        realm,
        deps.config,
        profileFields,
        new Map(users.map((u) => [u.user_id, u])),
        target,
        update.profile_data,
        false,
      );
      if (changes.persons.length > 0) {
        const profile = { ...(target.profile_data ?? {}) };
        for (const id of changes.remove) delete profile[String(id)];
        for (const [id, stored] of changes.set) profile[String(id)] = stored;
        fields.profile_data = profile;
        persons.push(...changes.persons);
      }
    }

    if (persons.length === 0) return true;
    const written = await writeUsers(
      deps,
      realm.id,
      [
        {
          userId: target.user_id,
          fields,
          condition: fields.profile_data === undefined ? userConditions.unchanged(target) : userUnchangedWithProfile(target),
        },
      ],
      checks,
    );
    if (!written) return undefined;
    await notifyRealmUserUpdates(deps, persons, activeUserIds(users));
    if (target.is_bot && fields.full_name !== undefined) {
      await notifyRealmBotUpdates(deps, target, [{ full_name: fields.full_name }], users);
    }
    return true;
  });
}
