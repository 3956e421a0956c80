import type { Deps } from "../../deps.js";
import { JsonableError } from "../../errors.js";
import type { CustomProfileFieldRecord } from "../../data/records/custom-profile-field.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { checkProfileFieldValue, isRenderableProfileFieldType } from "../../domain/custom-profile-fields.js";
import { realmUrl } from "../../domain/email.js";
import { renderStreamDescription } from "../streams/render-description.js";
import type { RealmUserUpdatePerson } from "./notify.js";

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
 * to the stored one changes nothing and sends nothing. Pure: no round trip
 * (asynchronous only to load the renderer on first use, `markdown/load.ts`).
 * @param fields the realm's fields by ID
 * @param users the realm's users by ID (person pickers)
 * @param checkEditable refuse fields users may not edit (a non-administrator changing their own profile)
 * @throws JsonableError 400 `Field id <id> not found.`, `You are not allowed to change this field.
 *   Contact an administrator to update it.`, the value errors of `checkProfileFieldValue`
 */
export async function checkProfileDataChanges(
  realm: RealmRecord,
  config: Deps["config"],
  fields: ReadonlyMap<number, CustomProfileFieldRecord>,
  users: ReadonlyMap<number, UserRecord>,
  target: UserRecord,
  entries: ProfileDataEntry[],
  checkEditable: boolean,
): Promise<ProfileDataChanges> {
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
    if (isRenderableProfileFieldType(field.type)) stored.rendered_value = await renderStreamDescription(value, realmUrl(realm, config));
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
