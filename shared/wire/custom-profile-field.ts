import type { CustomProfileFieldRecord } from "../data/records/custom-profile-field.js";

/** A custom profile field on the wire (OpenAPI `CustomProfileField` at feature level 283). */
export interface WireCustomProfileField {
  id: number;
  name: string;
  type: number;
  hint: string;
  field_data: string;
  order: number;
  required: boolean;
  /** Present (and true) only for fields shown in the profile summary. */
  display_in_profile_summary?: true;
}

/**
 * The wire shape of a field (Zulip's `CustomProfileField.as_dict`):
 * `display_in_profile_summary` only when true. `editable_by_user` stays
 * server-side: the level-283 object has no such key.
 */
export function customProfileFieldToWire(field: CustomProfileFieldRecord): WireCustomProfileField {
  const wire: WireCustomProfileField = {
    id: field.id,
    name: field.name,
    type: field.type,
    hint: field.hint,
    field_data: field.field_data,
    order: field.order,
    required: field.required,
  };
  if (field.display_in_profile_summary) wire.display_in_profile_summary = true;
  return wire;
}

/** A realm's fields on the wire in display order (increasing `order`, then ID), as Zulip's `custom_profile_fields_for_realm`. */
export function customProfileFieldsToWire(fields: CustomProfileFieldRecord[]): WireCustomProfileField[] {
  return [...fields].sort((a, b) => a.order - b.order || a.id - b.id).map(customProfileFieldToWire);
}
