import { hashConfirmationKey, isConfirmationKey } from "../../auth/confirmation-key.js";
import type { Deps } from "../../deps.js";
import { ConfirmationKeyError } from "../../errors.js";
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
 * @returns the record and the key's hash (what the table is keyed by)
 * @throws ConfirmationKeyError 400 `CONFIRMATION_NOT_FOUND`, `CONFIRMATION_EXPIRED` (past
 *   `expires_at`), `CONFIRMATION_USED`
 */
export async function accessConfirmationLink(
  deps: Deps,
  realm: RealmRecord | null,
  key: string,
  kind: ConfirmationType,
): Promise<{ record: ConfirmationRecord; keyHash: string }> {
  if (!realm || !isConfirmationKey(key)) throw new ConfirmationKeyError("CONFIRMATION_NOT_FOUND");
  const keyHash = hashConfirmationKey(key);
  const record = await confirmationByHash(deps, keyHash);
  if (!record || record.kind !== kind || record.realm_id !== realm.id) throw new ConfirmationKeyError("CONFIRMATION_NOT_FOUND");
  if (record.used_at !== undefined) throw new ConfirmationKeyError("CONFIRMATION_USED");
  if (record.expires_at !== null && deps.clock.now() / 1000 > record.expires_at) throw new ConfirmationKeyError("CONFIRMATION_EXPIRED");
  return { record, keyHash };
}
