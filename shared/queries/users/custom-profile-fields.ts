import type { Deps } from "../../deps.js";

/** What the users actions need to know about a realm's custom profile field. */
export interface CustomProfileFieldInfo {
  id: number;
  /** 1 short text … 7 external account (spec "Custom profile field"). */
  type: number;
}

/**
 * The custom profile fields of a realm, by ID.
 *
 * Custom profile fields (`POST /realm/profile_fields`) arrive with a later
 * issue that adds their item type; until then no realm has any, so every
 * field ID a client names is unknown (Zulip's `Field id X not found.`).
 * That issue replaces this body with a Query over the realm's field items;
 * callers already treat the result as the source of truth.
 */
export async function getCustomProfileFields(
  _deps: Pick<Deps, "db" | "table">,
  _realmId: number,
): Promise<Map<number, CustomProfileFieldInfo>> {
  return new Map();
}
