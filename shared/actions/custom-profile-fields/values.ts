import type { Deps } from "../../deps.js";
import { HumanUsersOnlyError, JsonableError } from "../../errors.js";
import { removeProfileFieldValues, writeProfileValues, type ProfileValueRemoval } from "../../data/profile-fields.js";
import type { CustomProfileFieldRecord } from "../../data/records/custom-profile-field.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { withWriteRetries } from "../../data/retry.js";
import { listRealmMembers } from "../../data/users.js";
import { checkProfileFieldValue, isRenderableProfileFieldType } from "../../domain/custom-profile-fields.js";
import { realmUrl } from "../../domain/email.js";
import { isRealmAdmin } from "../../domain/roles.js";
import { customProfileFieldsById } from "../../queries/users/custom-profile-fields.js";
import { renderStreamDescription } from "../streams/render-description.js";
import { activeUserIds, notifyRealmUserUpdates, type RealmUserUpdatePerson } from "../users/notify.js";

/** One entry of `profile_data`: a field ID and its new value (empty or null clears it). */
export interface ProfileDataEntry {
  id: number;
  value: string | number[] | null;
}

/** A stored profile value (`profile_data` of a user item). */
export interface StoredProfileValue {
  value: string;
  rendered_value?: string;
}

/** What a batch of `profile_data` entries changes on one user, and the events that describe it. */
export interface ProfileDataChanges {
  /** field ID → new stored value. */
  set: Map<number, StoredProfileValue>;
  /** Field IDs whose value goes. */
  remove: number[];
  /** One `realm_user` `update` person per changed value, in request order. */
  persons: RealmUserUpdatePerson[];
}

/**
 * Validates `profile_data` entries for one user and works out what changes
 * (Zulip's `validate_user_custom_profile_data` and
 * `do_update_user_custom_profile_data_if_changed`): an empty value (`""`,
 * `[]`, null) removes the value; others are checked against the field's
 * type (`checkProfileFieldValue`) and, for short and long text, rendered as
 * Markdown into `rendered_value` like a stream description. A value equal
 * to the stored one changes nothing and sends nothing. Pure: no round trip.
 * @param fields the realm's fields by ID
 * @param users the realm's users by ID (person pickers)
 * @param checkEditable refuse fields users may not edit (a non-administrator changing their own profile)
 * @throws JsonableError 400 `Field id <id> not found.`, `You are not allowed to change this field.
 *   Contact an administrator to update it.`, the value errors of `checkProfileFieldValue`
 */
export function checkProfileDataChanges(
  realm: RealmRecord,
  config: Deps["config"],
  fields: ReadonlyMap<number, CustomProfileFieldRecord>,
  users: ReadonlyMap<number, UserRecord>,
  target: UserRecord,
  entries: ProfileDataEntry[],
  checkEditable: boolean,
): ProfileDataChanges {
  const current = new Map<string, StoredProfileValue>(Object.entries(target.profile_data ?? {}));
  for (const entry of entries) {
    const field = fields.get(entry.id);
    if (!field) throw new JsonableError(`Field id ${entry.id} not found.`);
    if (checkEditable && !field.editable_by_user) {
      throw new JsonableError("You are not allowed to change this field. Contact an administrator to update it.");
    }
    const key = String(entry.id);
    if (entry.value === null || entry.value.length === 0) {
      current.delete(key);
      continue;
    }
    const value = checkProfileFieldValue(field, entry.value, users);
    const stored: StoredProfileValue = { value };
    if (isRenderableProfileFieldType(field.type)) stored.rendered_value = renderStreamDescription(value, realmUrl(realm, config));
    current.set(key, stored);
  }
  const changes: ProfileDataChanges = { set: new Map(), remove: [], persons: [] };
  const before = target.profile_data ?? {};
  const seen = new Set<number>();
  for (const entry of entries) {
    if (seen.has(entry.id)) continue;
    seen.add(entry.id);
    const key = String(entry.id);
    const now = current.get(key);
    const was = before[key];
    if (now === undefined) {
      if (was === undefined) continue;
      changes.remove.push(entry.id);
      changes.persons.push({ user_id: target.user_id, custom_profile_field: { id: entry.id, value: null } });
      continue;
    }
    if (was?.value === now.value) continue;
    changes.set.set(entry.id, now);
    changes.persons.push({
      user_id: target.user_id,
      custom_profile_field: { id: entry.id, value: now.value, ...(now.rendered_value ? { rendered_value: now.rendered_value } : {}) },
    });
  }
  return changes;
}

async function applyOwnProfileChanges(
  deps: Deps,
  realm: RealmRecord,
  caller: UserRecord,
  build: (fields: Map<number, CustomProfileFieldRecord>, users: Map<number, UserRecord>, me: UserRecord) => ProfileDataChanges,
): Promise<void> {
  if (caller.is_bot) throw new HumanUsersOnlyError();
  const fields = await customProfileFieldsById(deps, realm.id);
  const { changes, audience } = await withWriteRetries("update own profile data", async () => {
    const all = await listRealmMembers(deps, realm.id, { consistent: true });
    const users = new Map(all.map((u) => [u.user_id, u]));
    const me = users.get(caller.user_id) ?? caller;
    const changes = build(fields, users, me);
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
