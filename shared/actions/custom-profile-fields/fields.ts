import type { Deps } from "../../deps.js";
import { JsonableError, OrganizationAdministratorRequiredError } from "../../errors.js";
import { allocateIds } from "../../data/counters.js";
import { realmProfileFields, replaceRealmProfileFields } from "../../data/profile-fields.js";
import type { CustomProfileFieldRecord } from "../../data/records/custom-profile-field.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { withWriteRetries } from "../../data/retry.js";
import { listRealmMembers } from "../../data/users.js";
import {
  checkProfileFieldDefinition,
  DEFAULT_EXTERNAL_ACCOUNTS,
  isDefaultExternalField,
  MAX_PROFILE_FIELDS,
  MAX_PROFILE_SUMMARY_FIELDS,
  parseFieldData,
  ProfileFieldType,
} from "../../domain/custom-profile-fields.js";
import { isRealmAdmin } from "../../domain/roles.js";
import { sendEvent } from "../../events/publish.js";
import { customProfileFieldsToWire } from "../../wire/custom-profile-field.js";
import { activeUserIds } from "../users/notify.js";
import { doRemoveProfileValues } from "./values.js";

/** The parameters of `POST /realm/profile_fields`. */
export interface NewProfileField {
  name: string;
  hint: string;
  field_type: number;
  field_data: Record<string, unknown>;
  display_in_profile_summary: boolean;
  required: boolean;
  editable_by_user: boolean;
}

/** The parameters of `PATCH /realm/profile_fields/{field_id}`; absent means unchanged. */
export interface ProfileFieldUpdate {
  name?: string;
  hint?: string;
  field_data?: Record<string, unknown>;
  display_in_profile_summary?: boolean;
  required?: boolean;
  editable_by_user?: boolean;
}

const SUMMARY_LIMIT_MESSAGE = `Only ${MAX_PROFILE_SUMMARY_FIELDS} custom profile fields can be displayed in the profile summary.`;

function requireAdmin(caller: UserRecord): void {
  if (!isRealmAdmin(caller)) throw new OrganizationAdministratorRequiredError();
}

function summaryLimitReached(fields: CustomProfileFieldRecord[], exceptId?: number): boolean {
  return fields.filter((f) => f.display_in_profile_summary && f.id !== exceptId).length >= MAX_PROFILE_SUMMARY_FIELDS;
}

function checkUniqueLabel(fields: CustomProfileFieldRecord[], name: string, exceptId?: number): void {
  if (fields.some((f) => f.name === name && f.id !== exceptId)) {
    throw new JsonableError("A field with that label already exists.");
  }
}

/**
 * Sends `custom_profile_fields` (https://zulip.com/api/get-events#custom_profile_fields,
 * Zulip's `notify_realm_custom_profile_fields`): the realm's whole field
 * list in display order, to its active users. Call only after the write.
 */
export async function notifyCustomProfileFields(deps: Deps, realmId: number, fields: CustomProfileFieldRecord[]): Promise<void> {
  const users = await listRealmMembers(deps, realmId);
  await sendEvent(deps, { type: "custom_profile_fields", fields: customProfileFieldsToWire(fields) }, activeUserIds(users));
}

/**
 * `POST /realm/profile_fields` (https://zulip.com/api/create-custom-profile-field;
 * Zulip's `create_realm_custom_profile_field`): an administrator adds a
 * field. The label is trimmed; a default external account (`github`,
 * `twitter`) takes its label and hint from Zulip's table. The new field's
 * `order` is its ID, so it comes last. All checks run before the write
 * (compare-and-set on the realm's field list, retried on a race).
 * Round trips: one counter update, one GetItem, one conditional PutItem,
 * one Query of the realm's users and the event writes.
 * @returns the new field's ID
 * @throws OrganizationAdministratorRequiredError 400 `Must be an organization administrator`
 * @throws JsonableError 400 `Only 2 custom profile fields can be displayed in the profile summary.`,
 *   `A field with that label already exists.`, the definition errors of `checkProfileFieldDefinition`,
 *   `Too many custom profile fields (limit: 100)`
 */
export async function checkCreateCustomProfileField(
  deps: Deps,
  realm: RealmRecord,
  caller: UserRecord,
  spec: NewProfileField,
): Promise<{ id: number }> {
  requireAdmin(caller);
  const name = spec.name.trim();
  let id: number | undefined;
  const fields = await withWriteRetries("create custom profile field", async () => {
    const current = await realmProfileFields(deps, realm.id, { consistent: true });
    if (spec.display_in_profile_summary && summaryLimitReached(current.fields)) throw new JsonableError(SUMMARY_LIMIT_MESSAGE);
    checkProfileFieldDefinition(
      { name, hint: spec.hint, type: spec.field_type, display_in_profile_summary: spec.display_in_profile_summary },
      spec.field_data,
    );
    const defaultExternal = isDefaultExternalField(spec.field_type, spec.field_data)
      ? DEFAULT_EXTERNAL_ACCOUNTS[spec.field_data.subtype as string]!
      : undefined;
    const label = defaultExternal?.name ?? name;
    checkUniqueLabel(current.fields, label);
    if (current.fields.length >= MAX_PROFILE_FIELDS) {
      throw new JsonableError(`Too many custom profile fields (limit: ${MAX_PROFILE_FIELDS})`);
    }
    id ??= await allocateIds(deps, "profile_field");
    const hasData = spec.field_type === ProfileFieldType.CHOICE || spec.field_type === ProfileFieldType.EXTERNAL_ACCOUNT;
    const field: CustomProfileFieldRecord = {
      id,
      type: spec.field_type,
      name: label,
      hint: defaultExternal?.hint ?? spec.hint,
      field_data: hasData ? JSON.stringify(defaultExternal ? { subtype: spec.field_data.subtype } : spec.field_data) : "",
      order: id,
      display_in_profile_summary: spec.display_in_profile_summary,
      required: spec.required,
      editable_by_user: spec.editable_by_user,
    };
    const next = [...current.fields, field];
    return (await replaceRealmProfileFields(deps, realm.id, current.version, next)) ? next : undefined;
  });
  await notifyCustomProfileFields(deps, realm.id, fields);
  return { id: id! };
}

/**
 * `PATCH /realm/profile_fields/{field_id}` (Zulip's
 * `update_realm_custom_profile_field`): an administrator changes a field's
 * label, hint, choices or flags; the type never changes. A default
 * external account field only takes changes of its flags (`Default custom
 * field cannot be updated.` otherwise). Removing a choice removes the
 * values that chose it, each with a `realm_user` `update` whose value is
 * null (Zulip's `remove_custom_profile_field_value_if_required`).
 * Round trips: one GetItem, one conditional PutItem, one Query of the
 * realm's users, the value removals (see `doRemoveProfileValues`), the events.
 * @throws OrganizationAdministratorRequiredError 400 `Must be an organization administrator`
 * @throws JsonableError 400 `Field id <id> not found.`, `Only 2 custom profile fields can be displayed
 *   in the profile summary.`, `Default custom field cannot be updated.`, `A field with that label already
 *   exists.`, the definition errors of `checkProfileFieldDefinition`
 */
export async function checkUpdateCustomProfileField(
  deps: Deps,
  realm: RealmRecord,
  caller: UserRecord,
  fieldId: number,
  update: ProfileFieldUpdate,
): Promise<void> {
  requireAdmin(caller);
  const name = update.name?.trim();
  let removedChoices: string[] = [];
  const fields = await withWriteRetries("update custom profile field", async () => {
    const current = await realmProfileFields(deps, realm.id, { consistent: true });
    const field = current.fields.find((f) => f.id === fieldId);
    if (!field) throw new JsonableError(`Field id ${fieldId} not found.`);
    if (update.display_in_profile_summary && summaryLimitReached(current.fields, field.id)) {
      throw new JsonableError(SUMMARY_LIMIT_MESSAGE);
    }
    const storedData = parseFieldData(field.field_data);
    if (isDefaultExternalField(field.type, storedData)) {
      const changesDefinition =
        (name !== undefined && name !== field.name) ||
        (update.hint !== undefined && update.hint !== field.hint) ||
        (update.field_data !== undefined && JSON.stringify(update.field_data) !== field.field_data);
      if (changesDefinition) throw new JsonableError("Default custom field cannot be updated.");
    }
    const next: CustomProfileFieldRecord = {
      ...field,
      name: name ?? field.name,
      hint: update.hint ?? field.hint,
      display_in_profile_summary: update.display_in_profile_summary ?? field.display_in_profile_summary,
      required: update.required ?? field.required,
      editable_by_user: update.editable_by_user ?? field.editable_by_user,
    };
    const newData = update.field_data ?? storedData;
    checkProfileFieldDefinition(next, newData);
    checkUniqueLabel(current.fields, next.name, field.id);
    const hasData = field.type === ProfileFieldType.CHOICE || field.type === ProfileFieldType.EXTERNAL_ACCOUNT;
    if (hasData) next.field_data = JSON.stringify(newData);
    removedChoices =
      field.type === ProfileFieldType.CHOICE && update.field_data !== undefined
        ? Object.keys(storedData).filter((key) => !Object.hasOwn(newData, key))
        : [];
    const list = current.fields.map((f) => (f.id === field.id ? next : f));
    return (await replaceRealmProfileFields(deps, realm.id, current.version, list)) ? list : undefined;
  });
  await notifyCustomProfileFields(deps, realm.id, fields);
  if (removedChoices.length > 0) await doRemoveProfileValues(deps, realm.id, fieldId, removedChoices);
}

/**
 * `DELETE /realm/profile_fields/{field_id}` (Zulip's
 * `delete_realm_custom_profile_field`): an administrator deletes a field
 * and every user's value of it. The field goes first (one conditional
 * PutItem), the event follows, then the values are removed from the user
 * items (one Query of the realm's users, then `ceil(n / 25)` rounds of up
 * to 25 parallel UpdateItems for the n users holding a value). Zulip sends
 * no `realm_user` event for these: clients drop the field's values on the
 * `custom_profile_fields` event.
 * @throws OrganizationAdministratorRequiredError 400 `Must be an organization administrator`
 * @throws JsonableError 400 `Field id <id> not found.`
 */
export async function checkDeleteCustomProfileField(
  deps: Deps,
  realm: RealmRecord,
  caller: UserRecord,
  fieldId: number,
): Promise<void> {
  requireAdmin(caller);
  const fields = await withWriteRetries("delete custom profile field", async () => {
    const current = await realmProfileFields(deps, realm.id, { consistent: true });
    if (!current.fields.some((f) => f.id === fieldId)) throw new JsonableError(`Field id ${fieldId} not found.`);
    const list = current.fields.filter((f) => f.id !== fieldId);
    return (await replaceRealmProfileFields(deps, realm.id, current.version, list)) ? list : undefined;
  });
  await notifyCustomProfileFields(deps, realm.id, fields);
  await doRemoveProfileValues(deps, realm.id, fieldId, null);
}

/**
 * `PATCH /realm/profile_fields` (https://zulip.com/api/reorder-custom-profile-fields;
 * Zulip's `try_reorder_realm_custom_profile_fields`): an administrator
 * gives every field its position in `order` as its new `order`. Every
 * field must be listed; IDs that are not fields are ignored, as Zulip does.
 * Round trips: one GetItem, one conditional PutItem, the event.
 * @throws OrganizationAdministratorRequiredError 400 `Must be an organization administrator`
 * @throws JsonableError 400 `Invalid order mapping.`
 */
export async function checkReorderCustomProfileFields(
  deps: Deps,
  realm: RealmRecord,
  caller: UserRecord,
  order: number[],
): Promise<void> {
  requireAdmin(caller);
  const position = new Map<number, number>();
  order.forEach((id, i) => position.set(id, i));
  const fields = await withWriteRetries("reorder custom profile fields", async () => {
    const current = await realmProfileFields(deps, realm.id, { consistent: true });
    if (current.fields.some((f) => !position.has(f.id))) throw new JsonableError("Invalid order mapping.");
    const list = current.fields.map((f) => ({ ...f, order: position.get(f.id)! }));
    return (await replaceRealmProfileFields(deps, realm.id, current.version, list)) ? list : undefined;
  });
  await notifyCustomProfileFields(deps, realm.id, fields);
}
