import type { Deps } from "../../deps.js";

/** What the users actions need to know about a realm's custom profile field. */
export interface CustomProfileFieldInfo {
  id: number;
  /** 1 short text … 7 external account (https://zulip.com/api/get-custom-profile-fields `type`). */
  type: number;
}

/**
 * The custom profile fields of a realm, by ID.
 *
 * This server stores no custom profile fields (it has no
 * `POST /realm/profile_fields` route), so no realm has any and every field
 * ID a client names is unknown (Zulip's `Field id X not found.`). Callers treat the
 * result as the source of truth. No round trip.
 */
export async function getCustomProfileFields(
  _deps: Pick<Deps, "db" | "table">,
  _realmId: number,
): Promise<Map<number, CustomProfileFieldInfo>> {
  return new Map();
}
