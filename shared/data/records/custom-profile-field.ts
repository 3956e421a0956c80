/**
 * One custom profile field of an organization as stored (Zulip's
 * `CustomProfileField`); all of a realm's fields are stored together in
 * one {@link RealmProfileFieldsRecord}.
 */
export interface CustomProfileFieldRecord {
  id: number;
  /** 1 short text … 7 external account, 8 pronouns. */
  type: number;
  name: string;
  hint: string;
  /** JSON text for choice and external account fields, else `""`. */
  field_data: string;
  /** Display order, increasing. */
  order: number;
  display_in_profile_summary: boolean;
  required: boolean;
  /** Whether users may set or clear their own value (administrators always may). */
  editable_by_user: boolean;
}

/** Every custom profile field of one realm, with a version for compare-and-set writes. */
export interface RealmProfileFieldsRecord {
  realm_id: number;
  /** Incremented by every write; 0 when the realm never had a field. */
  version: number;
  fields: CustomProfileFieldRecord[];
}
