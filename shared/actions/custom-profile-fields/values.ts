import type { Deps } from "../../deps.js";
import { HumanUsersOnlyError } from "../../errors.js";
import { removeProfileFieldValues, writeProfileValues, type ProfileValueRemoval } from "../../data/profile-fields.js";
import type { CustomProfileFieldRecord } from "../../data/records/custom-profile-field.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { withWriteRetries } from "../../data/retry.js";
import { listRealmMembers } from "../../data/users.js";
import { isRealmAdmin } from "../../domain/roles.js";
import { customProfileFieldsById } from "../../queries/users/custom-profile-fields.js";
import { activeUserIds, notifyRealmUserUpdates } from "../users/notify.js";
import { checkProfileDataChanges, type ProfileDataChanges, type ProfileDataEntry } from "../users/profile-data.js";

async function applyOwnProfileChanges(
  deps: Deps,
  realm: RealmRecord,
  caller: UserRecord,
  build: (fields: Map<number, CustomProfileFieldRecord>, users: Map<number, UserRecord>, me: UserRecord) => Promise<ProfileDataChanges>,
): Promise<void> {
  if (caller.is_bot) throw new HumanUsersOnlyError();
  const fields = await customProfileFieldsById(deps, realm.id);
  const { changes, audience } = await withWriteRetries("update own profile data", async () => {
    const all = await listRealmMembers(deps, realm.id, { consistent: true });
    const users = new Map(all.map((u) => [u.user_id, u]));
    const me = users.get(caller.user_id) ?? caller;
    const changes = await build(fields, users, me);
    const written = await writeProfileValues(deps, realm.id, me.user_id, changes.set, changes.remove);
    return written ? { changes, audience: activeUserIds(all) } : undefined;
  });
  await notifyRealmUserUpdates(deps, changes.persons, audience);
}

/**
 * `PATCH /users/me/profile_data` (Zulip's `update_user_custom_profile_data`):
 * a human user sets or clears their own values. Non-administrators may not
 * touch fields that are not editable by users. Everything is validated
 * before the one write, which keeps other fields' values (see
 * `writeProfileValues`). Emits `realm_user` `update`
 * `{user_id, custom_profile_field}` per changed value to the realm's active
 * users. Round trips: one GetItem, one Query of the users, one UpdateItem, the events.
 * @throws HumanUsersOnlyError 400 `This endpoint does not accept bot requests.`
 * @throws JsonableError the errors of {@link checkProfileDataChanges}
 */
export async function checkUpdateOwnProfileData(
  deps: Deps,
  realm: RealmRecord,
  caller: UserRecord,
  entries: ProfileDataEntry[],
): Promise<void> {
  await applyOwnProfileChanges(deps, realm, caller, (fields, users, me) =>
    checkProfileDataChanges(realm, deps.config, fields, users, me, entries, !isRealmAdmin(caller)),
  );
}

/**
 * `DELETE /users/me/profile_data` (Zulip's `remove_user_custom_profile_data`):
 * a human user clears their own values of the listed fields (absent values
 * are skipped). Same rules, events and round trips as
 * {@link checkUpdateOwnProfileData}.
 * @throws HumanUsersOnlyError 400 `This endpoint does not accept bot requests.`
 * @throws JsonableError 400 `Field id <id> not found.`, `You are not allowed to change this field.
 *   Contact an administrator to update it.`
 */
export async function checkRemoveOwnProfileData(
  deps: Deps,
  realm: RealmRecord,
  caller: UserRecord,
  fieldIds: number[],
): Promise<void> {
  await applyOwnProfileChanges(deps, realm, caller, (fields, users, me) =>
    checkProfileDataChanges(
      realm,
      deps.config,
      fields,
      users,
      me,
      fieldIds.map((id) => ({ id, value: null })),
      !isRealmAdmin(caller),
    ),
  );
}

/**
 * Removes every user's value of a deleted field (`choices` null), or the
 * values that chose one of `choices` (a choice field lost them). One Query
 * of the realm's users (strongly consistent), then `ceil(n / 25)` rounds of
 * up to 25 parallel UpdateItems for the n values to remove. Removed choices
 * each send a `realm_user` `update` with a null value to the realm's active
 * users (Zulip's `remove_custom_profile_field_value_if_required`); a deleted
 * field sends none.
 */
export async function doRemoveProfileValues(
  deps: Deps,
  realmId: number,
  fieldId: number,
  choices: string[] | null,
): Promise<void> {
  const users = await listRealmMembers(deps, realmId, { consistent: true });
  const key = String(fieldId);
  const removals: ProfileValueRemoval[] = [];
  for (const user of users) {
    const stored = user.profile_data?.[key];
    if (stored === undefined) continue;
    if (choices === null) removals.push({ userId: user.user_id, fieldId });
    else if (choices.includes(stored.value)) removals.push({ userId: user.user_id, fieldId, ifValue: stored.value });
  }
  const done = await removeProfileFieldValues(deps, realmId, removals);
  if (choices === null) return;
  await notifyRealmUserUpdates(
    deps,
    done.map((r) => ({ user_id: r.userId, custom_profile_field: { id: fieldId, value: null } })),
    activeUserIds(users),
  );
}
