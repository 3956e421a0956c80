import type { Deps } from "../../deps.js";
import type { CustomProfileFieldRecord } from "../../data/records/custom-profile-field.js";
import { realmProfileFields } from "../../data/profile-fields.js";
import { CUSTOM_PROFILE_FIELD_TYPES } from "../../domain/custom-profile-fields.js";
import { customProfileFieldsToWire, type WireCustomProfileField } from "../../wire/custom-profile-field.js";

/**
 * The custom profile fields of a realm, by ID (one GetItem).
 * @param opts.consistent strongly consistent (before validating a write) @default true
 */
export async function customProfileFieldsById(
  deps: Pick<Deps, "db" | "table">,
  realmId: number,
  opts: { consistent?: boolean } = {},
): Promise<Map<number, CustomProfileFieldRecord>> {
  const { fields } = await realmProfileFields(deps, realmId, { consistent: opts.consistent ?? true });
  return new Map(fields.map((f) => [f.id, f]));
}

/**
 * `GET /realm/profile_fields` (https://zulip.com/api/get-custom-profile-fields;
 * Zulip's `list_realm_custom_profile_fields`): every field of the caller's
 * realm in display order. Any user may read them. One GetItem.
 */
export async function listCustomProfileFields(
  deps: Pick<Deps, "db" | "table">,
  realmId: number,
): Promise<{ custom_fields: WireCustomProfileField[] }> {
  const { fields } = await realmProfileFields(deps, realmId);
  return { custom_fields: customProfileFieldsToWire(fields) };
}

/**
 * `POST /register` fetch type `custom_profile_fields`
 * (https://zulip.com/api/register-queue): `custom_profile_fields` in
 * display order and the `custom_profile_field_types` table. One GetItem.
 */
export async function customProfileFieldsInitialState(
  deps: Pick<Deps, "db" | "table">,
  realmId: number,
): Promise<{ custom_profile_fields: WireCustomProfileField[]; custom_profile_field_types: typeof CUSTOM_PROFILE_FIELD_TYPES }> {
  const { fields } = await realmProfileFields(deps, realmId);
  return { custom_profile_fields: customProfileFieldsToWire(fields), custom_profile_field_types: CUSTOM_PROFILE_FIELD_TYPES };
}
