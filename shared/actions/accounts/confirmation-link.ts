import { hashConfirmationKey, isConfirmationKey } from "../../auth/confirmation-key.js";
import type { Deps } from "../../deps.js";
import { ConfirmationLinkError } from "../../errors.js";
import { confirmationByHash } from "../../data/confirmations.js";
import type { ConfirmationRecord, ConfirmationType } from "../../data/records/confirmation.js";
import type { RealmRecord } from "../../data/records/realm.js";

/**
 * Finds the live confirmation a link's key names (Zulip's
 * `get_object_from_key` without marking it used): one strongly consistent
 * GetItem, none for a key of the wrong shape. A link of another kind or of
 * another organization than the request's is "not found", as Zulip looks a
 * key up among the expected types only.
 * @param realm the request's organization (null when the host names none)
 * @param kinds the kinds of link the caller accepts (one, or the sign-up links' three)
 * @returns the record and the key's hash (what the table is keyed by)
 * @throws ConfirmationLinkError 400 `CONFIRMATION_NOT_FOUND`, `CONFIRMATION_EXPIRED` (at or past
 *   `expires_at`), `CONFIRMATION_USED`
 */
export async function accessConfirmationLink(
  deps: Deps,
  realm: RealmRecord | null,
  key: string,
  kinds: ConfirmationType | readonly ConfirmationType[],
): Promise<{ record: ConfirmationRecord; keyHash: string }> {
  if (!realm || !isConfirmationKey(key)) throw new ConfirmationLinkError("not_found");
  const keyHash = hashConfirmationKey(key);
  const record = await confirmationByHash(deps, keyHash);
  const accepted: readonly ConfirmationType[] = typeof kinds === "string" ? [kinds] : kinds;
  if (!record || !accepted.includes(record.kind) || record.realm_id !== realm.id) throw new ConfirmationLinkError("not_found");
  if (record.used_at !== undefined) throw new ConfirmationLinkError("used");
  if (record.expires_at !== null && Math.floor(deps.clock.now() / 1000) >= record.expires_at) throw new ConfirmationLinkError("expired");
  return { record, keyHash };
}
